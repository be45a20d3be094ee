"""Which actions a VivaJava player may take: one function per phase, each the one home of its rule.

:func:`legal_actions` is what ``State.legal_actions()`` returns (the State caches it).
The rules each function implements are in ``docs/rules/vivajava.md``.

Example (a 2-player opening roll of three reds):
    >>> from coffeegames.vivajava import Game, Rolled, SetupResearch
    >>> s = Game(players=2).new_initial_state().apply(SetupResearch("green"))
    >>> s = s.apply(Rolled(white=("red", "red", "red", "green", "black")))
    >>> [str(a) for a in featured_actions(s)]
    ['Featured(Regular red)', 'Featured(Decaf red)']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from .actions import (
    ACT, ACTIVATE, DEGRADE, KEEP, SETUP, Action, Boost, Decline, Degrade, Featured, Flip, GainToken, Keep,
    KeepRolling, Rainbow, Reroll, Research, SetupResearch, TakeFlavour, Upgrade,
)
from .dice import COLOURS, LARGEST_BLEND, _tally, face_key, rainbow_of_counts, sub_multisets
from .rules import TRACK_COLOURS

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "act_actions",
    "activation_choices",
    "degrade_choices",
    "featured_actions",
    "legal_actions",
    "token_actions",
]


def legal_actions(state: State) -> tuple[Action, ...]:
    """The actions the player to move may take in ``state`` (empty at chance nodes and at the end)."""
    phase = state.phase
    if phase == ACT:
        return act_actions(state)
    if phase == ACTIVATE:
        forced = state.rules.ability(state.pending[0]).kind == "negative"
        return activation_choices(state) + (() if forced else (Decline(),))
    if phase == SETUP:
        return _SETUP
    if phase == DEGRADE:
        return degrade_choices(state)
    if phase == KEEP:
        return _KEEP_OR_REROLL
    return ()


_SETUP = tuple(SetupResearch(c) for c in TRACK_COLOURS)
_RESEARCH = {c: Research(c) for c in COLOURS}
_RAINBOW = Rainbow()
_KEEP_OR_REROLL = (Keep(), Reroll())
_degrade = lru_cache(maxsize=None)(Degrade)


def degrade_choices(state: State) -> tuple[Degrade, ...]:
    """Which die the Featured Blend's holder may remove: an unfunded one (if any), or one funded by each funder."""
    choices = [_degrade(None)] if state.featured_size > len(state.funders) else []
    return tuple(choices + [_degrade(q) for q in sorted(set(state.funders))])


def act_actions(state: State) -> tuple[Action, ...]:
    """After a roll: Featured Blends, a Rainbow, research of open unblocked tracks and black, and token spends."""
    p, rules = state.turn, state.rules
    featured, rainbow = _shown(state)
    actions: list[Action] = []
    if not (rules.both_blends == "no_featured" and state.rainbow_by == p):
        actions += featured
    if rainbow:
        actions.append(_RAINBOW)
    me = state.players[p]
    actions += _research(me.research, state.blocked, rules.track_lengths)
    if any(me.tokens):
        actions += token_actions(state)
    return tuple(actions)


def draw_act(state: State, below: Callable[[int], int]) -> Action | None:
    """The action :func:`~coffeegames.engine.solve.random_policy` draws from :func:`act_actions` (a kind uniformly, then
    an action of it uniformly; the same draws), without listing them; None (nothing drawn) when a token is held: then
    ask the whole list."""
    p, rules = state.turn, state.rules
    me = state.players[p]
    if any(me.tokens):
        return None
    research = _research(me.research, state.blocked, rules.track_lengths)  # (never empty: black is always there)
    featured, rainbow = _shown(state)
    if rules.both_blends == "no_featured" and state.rainbow_by == p:
        featured = ()
    if not featured and not rainbow:  # one kind: Research
        return research[below(len(research))]
    kind = below(1 + bool(featured) + rainbow)  # the kinds in their listed order: Featured, Rainbow, Research
    if featured:
        if kind == 0:
            return featured[below(len(featured))]
        kind -= 1
    if rainbow:
        if kind == 0:
            below(1)  # (random_policy draws within the kind: one Rainbow)
            return _RAINBOW
        kind -= 1
    return research[below(len(research))]


@lru_cache(maxsize=None)
def _rainbow(counts: tuple[int, ...]) -> bool:
    """Whether dice with this :func:`~.dice._tally` (jokers last) show a Rainbow."""
    return rainbow_of_counts(counts[:-1], counts[-1])


@lru_cache(maxsize=1 << 12)
def _research(have: tuple[int, ...], blocked: str, lengths: tuple[int, ...]) -> tuple[Research, ...]:
    """Research of each open (``have`` under its length), unblocked track, white..green, then of black."""
    return tuple(_RESEARCH[c] for c, n, most in zip(TRACK_COLOURS, have, lengths) if n < most and c != blocked) + (_RESEARCH["black"],)


def featured_actions(state: State) -> list[Featured]:
    """Every Featured Blend that beats the coaster: 2-5 dice of one colour (jokers wild), own dice and others' offered ones.

    A funder needs a free marker per funded die (Ruling ``funding_needs_marker``); the marks
    on the old coaster go home first. Largest and highest first.
    """
    return list(_shown(state)[0])


def _shown(state: State) -> tuple[tuple[Featured, ...], bool]:
    """The roller's Featured Blends (:func:`featured_actions`, whatever Ruling ``both_blends`` says) and whether their
    dice show a Rainbow; with nobody offering dice (most rolls), from one memo of the dice and the coaster."""
    if state.featured_by < 0 or state.featured_size < 2:  # the coaster's blend (State.featured) as (size, rank): none
        size = rank = 0
    else:
        size, rank = state.featured_size, _RANKS[state.featured_colour]
    if not state.offered:
        return _own_shown(state.white, state.own, size, rank)
    counts = _tally(state.white + state.own)
    return _featured_of(state, counts, size, rank), _rainbow(counts)


@lru_cache(maxsize=1 << 16)
def _own_shown(white: tuple[str, ...], own: tuple[str, ...], size: int, rank: int) -> tuple[tuple[Featured, ...], bool]:
    """:func:`_shown` with nothing offered: the roller's coffee (``white``) and flavour (``own``) dice and the coaster's
    blend (``size``, ``rank``)."""
    counts = _tally(white + own)
    return _featured(counts, (), size, rank), _rainbow(counts)


def _featured_of(state: State, counts: tuple[int, ...], size: int, rank: int) -> tuple[Featured, ...]:
    """:func:`featured_actions` given the :func:`~.dice._tally` of the roller's dice (``counts``) and the coaster's blend
    (``size``, ``rank``)."""
    rules = state.rules
    offers: tuple[tuple[int, tuple[int, ...], int | None], ...] = ()
    if state.offered:  # each offering player's dice, and their free markers (the old coaster's marks go home)
        if rules.funding_needs_marker:
            markers, players = rules.markers, state.players
            offers = tuple([(q, _tally(faces), markers - sum(players[q].tokens)) for q, faces in state.offered])
        else:
            offers = tuple([(q, _tally(faces), None) for q, faces in state.offered])
    return _featured(counts, offers, size, rank)


_RANKS = {colour: rank for rank, colour in enumerate(COLOURS, 1)}
"""Each colour's rank (``Blend.rank``)."""


@lru_cache(maxsize=1 << 16)  # a few thousand new keys a hundred games, each a few dozen bytes
def _featured(counts: tuple[int, ...], offers: tuple[tuple[int, tuple[int, ...], int | None], ...], size: int, rank: int
              ) -> tuple[Featured, ...]:
    """:func:`featured_actions` from counts: the roller's dice (a :func:`~.dice._tally`), each offer as (player, its dice's
    tally, free markers or None when funding needs none), and the coaster's blend (``size``, ``rank``: NO_BLEND is 0, 0).

    In order: largest, then highest colour, then fewest funded dice, then most from the first funders.
    """
    jokers = counts[-1]
    ranks = range(len(COLOURS), 0, -1)
    if not offers:  # (most rolls: nobody offers) each blend the roller's own dice make, none funded
        tops = [(r, counts[r - 1] + jokers) for r in ranks if counts[r - 1] + jokers > 1]  # the colours with a blend
        return tuple([_blend_action(COLOURS[r - 1], n, ()) for n in range(LARGEST_BLEND, 1, -1) for r, top in tops
                      if n <= top and n >= (size if r > rank else size + 1)])
    mine = [c + jokers for c in counts[:-1]]  # by colour index (rank - 1): the roller's dice, jokers wild
    usable = [tuple([t[i] + t[-1] if free is None else min(t[i] + t[-1], free) for _, t, free in offers]) for i in _INDICES]
    offered = [sum(u) for u in usable]
    players = tuple([q for q, _, _ in offers])
    tops = [(r, mine[r - 1] + offered[r - 1]) for r in ranks if mine[r - 1] + offered[r - 1] > 1]  # the colours with a blend
    found: list[Featured] = []
    for n in range(LARGEST_BLEND, 1, -1):
        for r, top in tops:
            if n > top or n < (size if r > rank else size + 1):
                continue  # too few dice, or it does not beat the coaster (Blends compare by (size, rank))
            i = r - 1
            found += _funded(i, n, max(0, n - mine[i]), usable[i], players)
    return tuple(found)


_INDICES = range(len(COLOURS))


@lru_cache(maxsize=1 << 14)  # (small keys, often the same: a miss of _featured is mostly hits here)
def _funded(i: int, n: int, least: int, usable: tuple[int, ...], players: tuple[int, ...]) -> tuple[Featured, ...]:
    """:func:`_featured`'s blends of ``n`` dice of colour ``COLOURS[i]``, at least ``least`` of them funded, from offers of
    ``usable`` dice each (by ``players``): fewest funded first, then the most from the first funders."""
    colour = COLOURS[i]
    return tuple([_blend_action(colour, n, tuple([(q, k) for q, k in zip(players, picks) if k]))
                  for funded in range(least, min(n, sum(usable)) + 1) for picks in _splits(funded, usable)])  # own dice used: n - funded


def _splits(total: int, most: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``total`` dice from offers of at most ``most`` dice each, the most from the first offer first."""
    if not most:
        if total == 0:
            yield ()
        return
    for k in range(min(total, most[0]), -1, -1):
        for rest in _splits(total - k, most[1:]):
            yield (k, *rest)


_blend_action = lru_cache(maxsize=1 << 12)(Featured)
"""``Featured(colour, size, funded)``, each made once."""


def token_actions(state: State) -> list[Action]:
    """Spending a token held on an unblocked track: Upgrade Bean, Flip Bean or Keep Rolling on the rolled coffee dice."""
    me, actions = state.players[state.turn], list[Action]()
    for i, colour in enumerate(TRACK_COLOURS):
        if me.tokens[i] and colour != state.blocked:
            actions += _spends(state.rules.track(colour).ability, state.white)
    return actions


@lru_cache(maxsize=1 << 12)
def _spends(ability: str, white: tuple[str, ...]) -> tuple[Action, ...]:
    """The ways to spend a token of ``ability`` on the rolled coffee dice ``white`` (none for other abilities)."""
    distinct = sorted(set(white), key=face_key)
    if ability == "upgrade_bean":
        return tuple(Upgrade(f) for f in distinct if f != "black")
    if ability == "flip_bean":
        return tuple(Flip(f) for f in distinct)
    if ability == "keep_rolling":
        return tuple(KeepRolling(sub) for sub in sub_multisets(white))
    return ()


def activation_choices(state: State) -> tuple[Action, ...]:
    """How the first ability waiting (``state.pending[0]``) can be used; empty when it cannot (then it is skipped).

    A blocked track's ability does nothing; Research Boost marks another open unblocked
    track; Extra Flavour needs a die on the flavour coaster; a token ability needs an open
    track and a free marker, or moves a token from another track.
    """
    p, colour = state.turn, state.pending[0]
    ability = state.rules.ability(colour)
    if colour == state.blocked:
        return ()
    if ability.key == "research_boost":
        return tuple(Boost(t) for t in TRACK_COLOURS if t != colour and t != state.blocked and state.is_open(p, t))
    if ability.key == "extra_flavour":
        return (TakeFlavour(),) if state.flavour_coaster > 0 else ()
    if ability.kind == "token":
        if not state.is_open(p, colour):
            return ()
        if state.free_markers(p) > 0:
            return (GainToken(),)
        tokens = state.players[p].tokens
        return tuple(GainToken(c) for i, c in enumerate(TRACK_COLOURS) if tokens[i] and c != colour)
    return ()
