"""The legal actions of a Gizmos position, in their fixed order (``State.legal_actions`` lists these).

A main action lists every File of a display card, every Pick of a colour on the row, every
Build (one per card, source and distinct payment plan) and every Research of a deck with
cards left, in that order (a :class:`Pass` only when none is possible); waiting gizmos list a
:class:`Fire` each, then :class:`EndTurn`; an effect's action lists its options, then
:class:`Skip`. Actions are immutable, so each distinct one is made once and shared (found by
identity when ``apply`` checks a move). Internal to the engine: it is called on positions the
engine made, and checks nothing.

Example:
    >>> from coffeegames.gizmos import Game
    >>> s = Game().new_initial_state(seed=3)
    >>> [str(a) for a in legal_actions(s) if not isinstance(a, File)]
    ['Pick red', 'Pick blue', 'Pick black', 'Research level I', 'Research level II', 'Research level III']
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .actions import Build, EndTurn, File, Fire, Pass, Phase, Pick, Research, Skip
from .data import COLOURS
from .data import Card as CardFacts
from .payment import Plan, _build_cost, _help, _plans, _reach

if TYPE_CHECKING:
    from .payment import Help
    from .state import State

__all__: list[str] = []

_SKIP = Skip()
_END_TURN = (EndTurn(),)
_PASS_ONLY = (Pass(),)
_RESEARCH = {level: Research(level) for level in (1, 2, 3)}
_fire_action = lru_cache(maxsize=None)(Fire)
_free_build = lru_cache(maxsize=None)(Build)
_COLOUR_AT = {**{c: i for i, c in enumerate(COLOURS)}, "any": len(COLOURS)}
"""Where a card's colour is in :func:`_reaches` (the four colours, then ``"any"``)."""


_file_action = lru_cache(maxsize=None)(File)


@lru_cache(maxsize=10_000)
def _files(cards: tuple[int, ...]) -> tuple[File, ...]:
    """A File of each card (the display changes less often than it is asked: one tuple per display)."""
    return tuple(map(_file_action, cards))


@lru_cache(maxsize=None)
def _picks(row: tuple[int, ...]) -> tuple[Pick, ...]:
    """A Pick of each colour on the row."""
    return tuple(Pick(c) for c, n in zip(COLOURS, row) if n)


@lru_cache(maxsize=100_000)
def _reaches(energy: tuple[int, ...], aid: Help) -> tuple[int, ...]:
    """:func:`.payment._reach` of each colour, then of a multicolour card (``"any"``)."""
    return tuple(_reach(energy, colour, aid) for colour in (*COLOURS, "any"))


def legal_actions(state: State) -> tuple[Any, ...]:
    """Every legal action of the player to move in ``state`` (a decision: not a chance node, not the end)."""
    todo = state.todo
    if not todo:  # gizmos wait to fire
        return (*map(_fire_action, state.ready), *_END_TURN)
    step = todo[0]
    phase = step.phase
    if phase == Phase.ACTION:
        display = state.display
        cards = display[0] + display[1] + display[2]
        acts = (*_may_file(state, cards), *_may_pick(state), *_builds(state, cards, "display"),
                *_builds(state, state.players[state.turn].archive, "archive"), *_researches(state))
        return acts or _PASS_ONLY
    if phase == Phase.PICK:
        return (*_may_pick(state), _SKIP)
    if phase == Phase.FILE:
        display = state.display
        return (*_may_file(state, display[0] + display[1] + display[2]), _SKIP)
    if phase == Phase.RESEARCH:
        return (*_researches(state), _SKIP)
    if phase == Phase.FREE_BUILD:
        deck, level = state.rules.deck, step.level
        found = [*((c, "display") for c in state.display[level - 1]),
                 *((c, "archive") for c in state.players[state.turn].archive if deck[c].level == level)]
        return (*(_free_build(c, source) for c, source in found), _SKIP)
    if phase == Phase.CHOOSE:
        research = state.research
        return (*_may_file(state, research), *_builds(state, research, "research"), _SKIP)
    return (_SKIP,)


def _may_file(state: State, cards: tuple[int, ...]) -> tuple[File, ...]:
    gear = state._my
    if not gear.can_file or len(state.players[state.turn].archive) >= gear.limits[1]:
        return ()
    return _files(cards)


def _may_pick(state: State) -> tuple[Pick, ...]:
    if sum(state.players[state.turn].energy) >= state._my.limits[0]:
        return ()
    return _picks(state.row)


def _researches(state: State) -> list[Research]:
    if not state._my.can_research:
        return []
    decks, bottom = state.decks, state.bottom
    return [_RESEARCH[level] for level in (1, 2, 3) if decks[level - 1] or bottom[level - 1]]


def _builds(state: State, cards: tuple[int, ...], source: str) -> list[Build]:
    """A Build of each of ``cards`` from ``source`` for each distinct way the player to move can pay for it."""
    if not cards:
        return []
    gear, energy, converters = state._my, state.players[state.turn].energy, state.converters()
    every = converters is gear.converters
    aid = gear.aid if every else _help(converters)
    reach = _reaches(energy, aid)
    costs = gear.costs
    acts: list[Build] = []
    for ident in cards:
        cost = costs.get((ident, source))
        if cost is None:
            cost = costs[ident, source] = _cost(state, ident, source)
        at, need = cost
        if reach[at] >= need:  # else (most cards) no plan: no search
            if not converters and at < _ANY:  # one plan: ``need`` marbles of the colour (the reach is the storage's)
                acts.append(_build_action(ident, source, _PAID[at][need], ()))
            else:
                which = gear.converter_ids if every else tuple([c.id for c in converters])
                key = (ident, source, energy, need, which)
                found = _BUILDS.get(key)
                if found is None:
                    if len(_BUILDS) >= _MEMO_SIZE:
                        _BUILDS.clear()
                    found = _BUILDS[key] = _card_builds(ident, source, _plans_of(energy, at, need, converters, which, aid[0]))
                acts += found
    return acts


_ANY = len(COLOURS)
_PAID = tuple(tuple((0,) * i + (n,) + (0,) * (len(COLOURS) - i - 1) for n in range(4 * 13 + 1)) for i in range(len(COLOURS)))
"""``_PAID[i][n]``: ``n`` marbles of colour ``i`` (the one plan of a one-colour cost without converters)."""
_build_action = lru_cache(maxsize=100_000)(Build)
_PLANS: dict[tuple[Any, ...], tuple[Plan, ...]] = {}
_BUILDS: dict[tuple[Any, ...], tuple[Build, ...]] = {}
"""The Builds of a card from a source for a storage, a cost and converter ids (a key hashed in C)."""
_MEMO_SIZE = 100_000


def _plans_of(energy: tuple[int, ...], at: int, need: int, converters: tuple[CardFacts, ...], which: tuple[int, ...],
              units: tuple[int, ...]) -> tuple[Plan, ...]:
    """:func:`.payment._plans` of a cost of ``need`` of the colour at ``at`` in :func:`_reaches`, memoised on the
    converters' ids ``which`` (a key hashed in C) and the storage capped where no plan spends more (``units``: the
    convert units taking each colour, :data:`.payment.Help`)."""
    if at < _ANY:
        capped = tuple([min(n, need) if j == at else min(n, units[j]) for j, n in enumerate(energy)])
    else:
        capped = tuple([min(n, need) for n in energy])
    key = (capped, at, need, which)
    found = _PLANS.get(key)
    if found is None:
        if len(_PLANS) >= _MEMO_SIZE:
            _PLANS.clear()
        found = _PLANS[key] = _plans(capped, (*COLOURS, "any")[at], need, converters)
    return found


@lru_cache(maxsize=100_000)
def _card_builds(ident: int, source: str, plans: tuple[Plan, ...]) -> tuple[Build, ...]:
    """The Builds of one card: one for each payment plan."""
    return tuple([_build_action(ident, source, paid, used) for paid, used in plans])


def _cost(state: State, ident: int, source: str) -> tuple[int, int]:
    """Where the colour of card ``ident`` is in :func:`_reaches`, and its cost from ``source`` to the player to move."""
    card, discounts = state.rules.deck[ident], state._my.discounts
    return _COLOUR_AT[card.colour], (_build_cost(card, source, discounts) if discounts else card.cost)
