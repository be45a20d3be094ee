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
from itertools import compress
from operator import or_
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .actions import (_P_ACTION, _P_CHOOSE, _P_FILE, _P_FREE_BUILD, _P_PICK, _P_RESEARCH, Build, EndTurn, File, Fire, Pass,
                      Pick, Research, Skip)
from .data import COLOURS
from .data import Card as CardFacts
from .gear import _Gear
from .payment import Plan, _help, _helping, _plans, _single_plans
from .payment import _reaches as _reaches_of

if TYPE_CHECKING:
    from .payment import Help, Helping
    from .state import State

__all__: list[str] = []

_SKIP = Skip()
_END_TURN = (EndTurn(),)
_PASS_ONLY = (Pass(),)
_RESEARCH = {level: Research(level) for level in (1, 2, 3)}
_EVERY_RESEARCH = tuple(_RESEARCH.values())
_fire_action = lru_cache(maxsize=None)(Fire)
_free_build = lru_cache(maxsize=None)(Build)


_file_action = lru_cache(maxsize=None)(File)
DRAWN: list[tuple[Any, Any]] = [(None, None)]
"""The last state :func:`draw_main` or :func:`draw_fire` drew for, and what it drew (one of its legal actions): one slot,
read whole (a state's copy has nothing of it to leave behind)."""


@lru_cache(maxsize=10_000)
def _files(cards: tuple[int, ...]) -> tuple[File, ...]:
    """A File of each card (the display changes less often than it is asked: one tuple per display)."""
    return tuple(map(_file_action, cards))


@lru_cache(maxsize=None)
def _picks(row: tuple[int, ...]) -> tuple[Pick, ...]:
    """A Pick of each colour on the row."""
    return tuple(Pick(c) for c, n in zip(COLOURS, row) if n)


_reaches = lru_cache(maxsize=100_000)(_reaches_of)
""":func:`.payment._reaches`, memoised: the most a storage pays of each colour, then of a multicolour card."""


Context = tuple[tuple[int, ...], _Gear, tuple[int, ...], "Helping", "Help"]
"""What the Builds of the player to move depend on besides the card: (:func:`_reaches`, gear, energy, the converters
they may use that help pay for each colour and their ids (:data:`.payment.Helping`), and what these can do
(:data:`.payment.Help`))."""


def legal_actions(state: State) -> tuple[Any, ...]:
    """Every legal action of the player to move in ``state`` (a decision: not a chance node, not the end)."""
    todo = state.todo
    if not todo:  # gizmos wait to fire
        return (*map(_fire_action, state.ready), *_END_TURN)
    step = todo[0]
    phase = step.phase
    if phase == _P_ACTION:
        display = state.display
        cards = display[0] + display[1] + display[2]
        context = _context(state)
        acts = (*_may_file(state, cards), *_may_pick(state), *_builds(state, cards, "display", context),
                *_builds(state, state.players[state.turn].archive, "archive", context), *_researches(state))
        return acts or _PASS_ONLY
    if phase == _P_PICK:
        return (*_may_pick(state), _SKIP)
    if phase == _P_FILE:
        display = state.display
        return (*_may_file(state, display[0] + display[1] + display[2]), _SKIP)
    if phase == _P_RESEARCH:
        return (*_researches(state), _SKIP)
    if phase == _P_FREE_BUILD:
        deck, level = state.rules.deck, step.level
        found = [*((c, "display") for c in state.display[level - 1]),
                 *((c, "archive") for c in state.players[state.turn].archive if deck[c].level == level)]
        return (*(_free_build(c, source) for c, source in found), _SKIP)
    if phase == _P_CHOOSE:
        return choices(state, state.research)
    return (_SKIP,)


def draw_main(state: State, below: Callable[[int], int]) -> Any:
    """The action :func:`~coffeegames.engine.solve.random_policy` draws from :func:`legal_actions` of a main action (a
    kind uniformly, then an action of it uniformly; the same draws), listing the Builds only when it draws that kind
    (else it needs only whether there is one: :func:`_any_build`)."""
    display = state.display
    cards = display[0] + display[1] + display[2]
    archive = state.players[state.turn].archive
    context = _context(state)
    builds = _BUILDS_KIND if _any_build(state, cards, "display", context) or _any_build(state, archive, "archive", context) else ()
    kinds = list(filter(None, (_may_file(state, cards), _may_pick(state), builds, _researches(state))))  # (the kinds there are)
    if not kinds:
        options: Sequence[Any] = _PASS_ONLY
    else:
        options = kinds[0] if len(kinds) == 1 else kinds[below(len(kinds))]
        if options is _BUILDS_KIND:  # every Build, as legal_actions lists them
            options = [*_builds(state, cards, "display", context), *_builds(state, archive, "archive", context)]
    drawn = options[below(len(options))]
    DRAWN[0] = (state, drawn)  # legal here: State._apply_as need not check it again
    return drawn


def draw_fire(state: State, below: Callable[[int], int]) -> Any:
    """The action :func:`~coffeegames.engine.solve.random_policy` draws from :func:`legal_actions` where gizmos wait to
    fire (a Fire of each, then End turn: the kind, then a Fire uniformly; the same draws), without listing them."""
    ready = state.ready
    if not ready:  # (the turn ends at once then: no such decision is met; the policy's own draw)
        return None
    drawn = _fire_action(ready[below(len(ready))]) if below(2) == 0 else _END_TURN[0]
    DRAWN[0] = (state, drawn)  # legal here (as draw_main's)
    return drawn


def choices(state: State, research: tuple[int, ...]) -> tuple[Any, ...]:
    """The legal actions of the player to move in ``state`` choosing among the researched cards ``research``: a File
    and the Builds of each, then Skip."""
    return (*_may_file(state, research), *_builds(state, research, "research"), _SKIP)


def main_allows(state: State, action: Any) -> bool:
    """Whether ``action`` is a File, Pick, Research or Build that :func:`legal_actions` lists for a main action, without
    listing them all (``False``: ask the whole list)."""
    kind = type(action)
    if kind is Build:
        card, source = action.card, action.source
        if type(card) is not int or not (source == "display" or source == "archive"):
            return False
        if source == "display":
            display = state.display
            cards = display[0] + display[1] + display[2]
        else:
            cards = state.players[state.turn].archive
        return card in cards and action in _builds(state, (card,), source)
    if kind is File:
        display = state.display
        return action in _may_file(state, display[0] + display[1] + display[2])
    if kind is Pick:
        return action in _may_pick(state)
    if kind is Research:
        return action in _researches(state)
    return False


def _may_file(state: State, cards: tuple[int, ...]) -> tuple[File, ...]:
    gear = state._my
    if not gear.can_file or len(state.players[state.turn].archive) >= gear.limits[1]:
        return ()
    return _files(cards)


def _may_pick(state: State) -> tuple[Pick, ...]:
    if sum(state.players[state.turn].energy) >= state._my.limits[0]:
        return ()
    return _picks(state.row)


def _researches(state: State) -> tuple[Research, ...]:
    if not state._my.can_research:
        return ()
    decks = state.decks
    if all(decks):  # (the commonest)
        return _EVERY_RESEARCH
    return tuple(compress(_EVERY_RESEARCH, map(or_, decks, map(len, state.bottom))))  # (unseen or known cards left)


def _builds(state: State, cards: tuple[int, ...], source: str, context: Context | None = None) -> list[Build]:
    """A Build of each of ``cards`` from ``source`` for each distinct way the player to move can pay for it (``context``:
    :func:`_context`, if the caller has it)."""
    if not cards:
        return []
    if context is None:
        context = _context(state)
    reach, costs = context[0], context[1].costs[source]
    acts: list[Build] = []
    for ident in cards:
        cost = costs[ident]
        if reach[cost[0]] >= cost[1]:  # else (most cards) no plan: no search
            acts += _card_builds_now(context, ident, source, cost)
    return acts


def _any_build(state: State, cards: tuple[int, ...], source: str, context: Context) -> bool:
    """Whether :func:`_builds` lists any Build of ``cards`` from ``source``, stopping at the first card that has one.
    A cost within :func:`_reaches` has a plan when no convert gizmo takes two colours or more (the reach is then the
    most the storage pays: each other colour's marbles matched to the units taking it alone; a multicolour card is paid
    without convert units); else the card's Builds are asked (memoised: the policy lists them again if it draws a
    Build)."""
    if not cards:
        return False
    reach, costs = context[0], context[1].costs[source]
    units, _, total = context[4]
    exact = sum(units) == total  # (each convert unit counted for one colour only)
    for ident in cards:
        cost = costs[ident]
        if reach[cost[0]] >= cost[1] and (exact or cost[0] == _ANY or _card_builds_now(context, ident, source, cost)):
            return True
    return False


def _context(state: State) -> Context:
    gear, energy = state._my, state.players[state.turn].energy
    converters = state.converters() if state.used and gear.converters else gear.converters  # (all while none is used)
    if converters is gear.converters:
        return (_reaches(energy, gear.aid), gear, energy, gear.helping, gear.aid)
    aid = _help(converters)
    return (_reaches(energy, aid), gear, energy, _helping(converters), aid)


def _card_builds_now(context: Context, ident: int, source: str, cost: tuple[int, int]) -> tuple[Build, ...]:
    """The Builds of card ``ident`` from ``source`` (``cost``: from :attr:`.gear._Gear.costs`; within the reach): one for each
    payment plan, memoised on the storage capped where no plan spends more and the ids of the converters that can help
    pay for its colour (the only ones its plans depend on). The caps: the card's colour (every colour for a multicolour
    card) at ``need``, each other colour at the convert units taking it; every storage capping alike has the same plans
    (:func:`.payment._plans`)."""
    _, _, energy, helping, aid = context
    at, need = cost
    converters, which = helping[at]
    if not converters and at < _ANY:  # one plan: ``need`` marbles of the colour (the reach is the storage's)
        return (_build_action(ident, source, _PAID[at][need], ()),)
    units = aid[0]
    caps = (*units[:at], need, *units[at + 1:]) if at < _ANY else _NEEDS[need]
    capped = tuple([n if n < cap else cap for n, cap in zip(energy, caps)])  # (not map(min): min parses keywords)
    key = (ident, source, capped, need, which)
    found = _BUILDS.get(key)
    if found is None:
        if len(_BUILDS) >= _MEMO_SIZE:
            _BUILDS.clear()
        plans = _plans_of(capped, at, need, converters, which)
        found = _BUILDS[key] = tuple([_build_action(ident, source, paid, used) for paid, used in plans])
    return found


_ANY = len(COLOURS)
_NEEDS = tuple((n,) * len(COLOURS) for n in range(4 * 13 + 1))
"""``_NEEDS[n]``: ``n`` for each colour (the caps of a multicolour card costing ``n``)."""
_PAID = tuple(tuple((0,) * i + (n,) + (0,) * (len(COLOURS) - i - 1) for n in range(4 * 13 + 1)) for i in range(len(COLOURS)))
"""``_PAID[i][n]``: ``n`` marbles of colour ``i`` (the one plan of a one-colour cost without converters)."""
_build_action = lru_cache(maxsize=100_000)(Build)
_PLANS: dict[tuple[Any, ...], tuple[Plan, ...]] = {}
"""The payment plans of a capped storage, a cost and the ids of the converters helping (:func:`_plans_of`; a key hashed
in C)."""
_BUILDS: dict[tuple[Any, ...], tuple[Build, ...]] = {}
"""The Builds of a card from a source for a capped storage, a cost and the ids of the converters helping (a key hashed
in C)."""
_BUILDS_KIND: tuple[Any, ...] = (None,)
"""Stands for the Builds among the kinds :func:`draw_main` draws from (listed only if drawn)."""
_MEMO_SIZE = 100_000


def _plans_of(capped: tuple[int, ...], at: int, need: int, converters: tuple[CardFacts, ...],
              which: tuple[int, ...]) -> tuple[Plan, ...]:
    """:func:`.payment._plans` of a cost of ``need`` of the colour at ``at`` in :func:`_reaches` for a storage capped
    already (:func:`_card_builds_now`), with the ``converters`` helping pay for that colour (:data:`.payment.Helping`),
    memoised on it and their ids ``which`` (a key hashed in C)."""
    key = (capped, at, need, which)
    found = _PLANS.get(key)
    if found is None:
        if len(_PLANS) >= _MEMO_SIZE:
            _PLANS.clear()
        if at < _ANY and need:  # what _plans(capped, ...) does with converters (capped already): the counting search
            found = _PLANS[key] = _single_plans(capped, at, need, converters)
        else:
            found = _PLANS[key] = _plans(capped, (*COLOURS, "any")[at], need, converters)
    return found
