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

from itertools import product
from typing import TYPE_CHECKING

from .actions import (
    Action,
    Boost,
    Decline,
    Degrade,
    Featured,
    Flip,
    GainToken,
    Keep,
    KeepRolling,
    Phase,
    Rainbow,
    Reroll,
    Research,
    SetupResearch,
    TakeFlavour,
    Upgrade,
)
from .dice import COLOURS, JOKER, LARGEST_BLEND, face_key, rainbow_of_counts, sub_multisets
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
    if phase == Phase.SETUP:
        return tuple(SetupResearch(c) for c in TRACK_COLOURS)
    if phase == Phase.DEGRADE:
        return degrade_choices(state)
    if phase == Phase.KEEP:
        return (Keep(), Reroll())
    if phase == Phase.ACT:
        return act_actions(state)
    if phase == Phase.ACTIVATE:
        forced = state.rules.ability(state.pending[0]).kind == "negative"
        return activation_choices(state) + (() if forced else (Decline(),))
    return ()


def degrade_choices(state: State) -> tuple[Degrade, ...]:
    """Which die the Featured Blend's holder may remove: an unfunded one (if any), or one funded by each funder."""
    choices = [Degrade(None)] if state.featured_size > len(state.funders) else []
    return tuple(choices + [Degrade(q) for q in sorted(set(state.funders))])


def act_actions(state: State) -> tuple[Action, ...]:
    """After a roll: Featured Blends, a Rainbow, research of open unblocked tracks and black, and token spends."""
    p, rules = state.turn, state.rules
    actions: list[Action] = []
    if not (rules.both_blends == "no_featured" and state.rainbow_by == p):
        actions += featured_actions(state)
    counts = [state.white.count(c) + state.own.count(c) for c in COLOURS]
    if rainbow_of_counts(counts, state.own.count(JOKER)):
        actions.append(Rainbow())
    research, tracks = state.players[p].research, rules.data.tracks  # is_open, for every track at once
    actions += [Research(c) for c, have, t in zip(TRACK_COLOURS, research, tracks) if have < t.length and c != state.blocked]
    actions.append(Research("black"))
    actions += token_actions(state)
    return tuple(actions)


def featured_actions(state: State) -> list[Featured]:
    """Every Featured Blend that beats the coaster: 2-5 dice of one colour (jokers wild), own dice and others' offered ones.

    A funder needs a free marker per funded die (Ruling ``funding_needs_marker``); the marks
    on the old coaster go home first. Largest and highest first.
    """
    rules, coaster = state.rules, state.featured
    white, own, offered = state.white, state.own, state.offered
    beat = (coaster.size, coaster.rank)  # Blends compare by (size, rank)
    jokers = own.count(JOKER)
    free = {q: rules.markers - sum(state.players[q].tokens) for q, _ in offered}  # the old coaster's marks go home
    found: list[tuple[tuple[int, int, int, list[int]], Featured]] = []
    for rank in range(len(COLOURS), 0, -1):
        colour = COLOURS[rank - 1]
        smallest = max(2, beat[0] if rank > beat[1] else beat[0] + 1)  # the smallest blend of this colour that beats it
        mine = white.count(colour) + own.count(colour) + jokers
        offers = []
        for q, faces in offered:
            usable = faces.count(colour) + faces.count(JOKER)
            if rules.funding_needs_marker:
                usable = min(usable, free[q])
            offers.append((q, usable))
        if min(LARGEST_BLEND, mine + sum(u for _, u in offers)) < smallest:
            continue  # no blend of this colour beats the coaster
        for picks in product(*(range(u + 1) for _, u in offers)):
            funded = sum(picks)
            sizes = range(max(smallest, funded), min(LARGEST_BLEND, funded + mine) + 1)  # own dice used: size - funded
            if sizes:
                pairs = tuple((q, n) for (q, _), n in zip(offers, picks) if n)
                found += [((-size, -rank, funded, [-n for n in picks]), Featured(colour, size, pairs)) for size in sizes]
    return [a for _, a in sorted(found, key=lambda kv: kv[0])]


def token_actions(state: State) -> list[Action]:
    """Spending a token held on an unblocked track: Upgrade Bean, Flip Bean or Keep Rolling on the rolled coffee dice."""
    me, actions = state.players[state.turn], list[Action]()
    for i, colour in enumerate(TRACK_COLOURS):
        if not me.tokens[i] or colour == state.blocked:
            continue
        key = state.rules.track(colour).ability
        distinct = sorted(set(state.white), key=face_key)
        if key == "upgrade_bean":
            actions += [Upgrade(f) for f in distinct if f != "black"]
        elif key == "flip_bean":
            actions += [Flip(f) for f in distinct]
        elif key == "keep_rolling":
            actions += [KeepRolling(sub) for sub in sub_multisets(state.white)]
    return actions


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
