"""VivaJava bots: a random player, a greedy one and a stronger one (policies are ``policy(state) -> action``).

A solo corporation never decides (its turn is a chain of chance nodes), so one policy
serves a solo game.

Example:
    >>> from coffeegames.engine import play
    >>> from coffeegames.vivajava import Game
    >>> results = play(Game(players=3), greedy_policy, n_games=2, seed=0, progress=False)
    >>> len(results)
    2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence

from ..validate import check_instance
from ..engine import random_policy  # re-exported: the VivaJava random bot
from .actions import (
    Action, Boost, Decline, Degrade, Featured, Flip, GainToken, Keep, KeepRolling, Phase, Rainbow, Reroll, Research,
    SetupResearch, TakeFlavour, Upgrade,
)
from .dice import COLOURS
from .rules import TRACK_COLOURS
from .state import State

__all__ = ["FLAVOUR_DIE_WORTH", "Policy", "greedy_policy", "random_policy", "strong_policy"]

Policy = Callable[[State], Action]
"""A bot: the action it takes in a state."""


def _featured_key(action: Featured) -> tuple[int, int, int]:
    return (action.size, COLOURS.index(action.colour), -action.funded_dice)


FLAVOUR_DIE_WORTH = 1.5
"""What a flavour die (researching black) is worth to :func:`strong_policy`, in the greedy bot's units (an RP is 1, a
track completed adds its PP); the greedy bot says 0.8. Measured, not derived: 1.2 to 1.8 played alike against greedy
(about 62% of 600 games), 0.3 and 4 worse (benchmarks/README.md)."""


def _research_value(state: State, action: Research, flavour: float = 0.8) -> float:
    """What a research is worth to the greedy bot: RP that count (plus the track's PP if it completes); flavour dice a
    little less (``flavour`` each: the bot's own estimate, not the rule)."""
    p, rules = state.turn, state.rules
    n = state.research_count(action.colour)
    if action.colour == "black":
        return flavour * min(n, state.flavour_coaster + len(state.own))
    track = rules.track(action.colour)
    have = state.players[p].research[TRACK_COLOURS.index(action.colour)]
    gained = min(n, track.length - have)
    return gained + (track.pp if have + gained >= track.length else 0) + 0.01 * track.length


def greedy_policy(state: State) -> Action:
    """Take the best Featured Blend that beats the coaster (own dice before funded ones), else a Rainbow it does not hold,
    else research the colour giving the most RP.

    Also: a token that turns the roll into a Featured Blend is spent; Keep Rolling re-rolls the
    dice outside the largest group when no blend is possible; a degraded blend is kept while it
    has 3+ dice; the die removed by degrading is a funded one when it can be; positive abilities
    are always used (Boost on the track nearest completion), moving no token to gain one.
    """
    check_instance(state, State, "state", "a VivaJava state")
    legal = state.legal_actions()
    phase = state.phase
    if phase == Phase.SETUP:
        return min((a for a in legal if isinstance(a, SetupResearch)), key=lambda a: state.rules.track(a.colour).length)
    if phase == Phase.DEGRADE:
        choices = [a for a in legal if isinstance(a, Degrade)]
        funded = [(a, a.funder) for a in choices if a.funder is not None]
        return max(funded, key=lambda af: state.players[af[1]].pp)[0] if funded else choices[0]
    if phase == Phase.KEEP:
        return Keep() if state.featured_size >= 3 else Reroll()
    if phase == Phase.ACTIVATE:
        boosts = [a for a in legal if isinstance(a, Boost)]
        if boosts:
            p = state.turn

            def left(a: Boost) -> int:
                return state.rules.track(a.target).length - state.players[p].research[TRACK_COLOURS.index(a.target)]

            return min(boosts, key=left)
        for action in legal:
            if isinstance(action, TakeFlavour) or action == GainToken():
                return action
        return Decline()
    featured = [a for a in legal if isinstance(a, Featured)]
    if featured:
        return max(featured, key=_featured_key)
    for action in legal:
        if isinstance(action, (Upgrade, Flip)):
            after = state.apply(action)
            if any(isinstance(a, Featured) for a in after.legal_actions()):
                return action
    if Rainbow() in legal and state.rainbow_by != state.turn:
        return Rainbow()
    reroll = _keep_rolling(state, legal)
    if reroll is not None:
        return reroll
    research = [a for a in legal if isinstance(a, Research)]
    return max(research, key=lambda a: _research_value(state, a))


def _keep_rolling(state: State, legal: Sequence[Hashable]) -> KeepRolling | None:
    """Greedy's Keep Rolling: re-roll the dice outside the largest group (the highest colour among equals), if that
    group has 2+ dice and others are left; None when Keep Rolling cannot be used so."""
    if not any(isinstance(a, KeepRolling) for a in legal) or not state.white:
        return None
    colour, n = max(Counter(state.white).items(), key=lambda kv: (kv[1], COLOURS.index(kv[0])))
    rest = tuple(f for f in state.white if f != colour)
    return KeepRolling(rest) if n >= 2 and rest and KeepRolling(rest) in legal else None


def strong_policy(state: State) -> Action:
    """The greedy bot with three changes, which together beat it over whole games (about 60% of 2-player games; the
    README states the measured edge):

    * **It keeps the Rainbow Blend.** It takes the Rainbow before a Featured Blend, and while it holds the Rainbow
      it makes no Featured Blend (which would give the Rainbow back, Ruling ``both_blends``): the Rainbow pays at
      every turn and five dice take it only with a Rainbow roll (``p_rainbow()``: 5/54), where a Featured Blend
      pays two turns or three and is often beaten first.
    * **It never funds a blend with other players' dice**: each funded die pays its owner a PP now and at each
      of your turns while the blend is held.
    * **It researches black (flavour dice) more**: a flavour die is worth :data:`FLAVOUR_DIE_WORTH`, not 0.8.

    In a solo game it does not keep the Rainbow: there that rule lost (12 wins of 400 against OmniBlend, where greedy
    won 31), and without it the bot plays about as well as greedy, not better (32 of 400; against Sacchar 13, greedy 17).

    Everything else (setup, degrade, keep, abilities, tokens, Keep Rolling) is the greedy bot's. It reads only the
    position, as every player sees it (VivaJava hides nothing but the dice to come).

    >>> import dataclasses
    >>> from coffeegames.vivajava import Game, Rolled, SetupResearch
    >>> s = Game(players=2).new_initial_state().apply(SetupResearch("green"))
    >>> s = dataclasses.replace(s, rainbow_by=0).apply(Rolled(white=("red", "red", "red", "green", "black")))
    >>> str(strong_policy(s)), str(greedy_policy(s))      # player 0 holds the Rainbow
    ('Research(red)', 'Featured(Regular red)')
    """
    check_instance(state, State, "state", "a VivaJava state")
    return _strong(state, keep_rainbow=not state.rules.solo)


def _strong(state: State, keep_rainbow: bool = True, own_dice: bool = True, flavour: float = FLAVOUR_DIE_WORTH) -> Action:
    """:func:`strong_policy`, each change switchable (``benchmarks/vivajava_strong.py`` plays it with one left out):
    ``keep_rainbow`` (False: a Featured Blend first, as greedy), ``own_dice`` (False: funded blends too, as greedy),
    ``flavour`` (a flavour die's worth; greedy's is 0.8)."""
    if state.phase != Phase.ACT:
        return greedy_policy(state)
    legal = state.legal_actions()
    p = state.turn
    holding = keep_rainbow and state.rainbow_by == p
    if keep_rainbow and Rainbow() in legal and state.rainbow_by != p:
        return Rainbow()
    if not holding:  # a Featured Blend (of its own dice), a token that makes one, or Keep Rolling toward one
        def usable(a: object) -> bool:
            return isinstance(a, Featured) and (not own_dice or not a.funded_dice)

        blends = [a for a in legal if isinstance(a, Featured) and usable(a)]
        if blends:
            return max(blends, key=_featured_key)
        for action in legal:
            if isinstance(action, (Upgrade, Flip)) and any(usable(a) for a in state.apply(action).legal_actions()):
                return action
        if not keep_rainbow and Rainbow() in legal and state.rainbow_by != p:
            return Rainbow()
        reroll = _keep_rolling(state, legal)
        if reroll is not None:
            return reroll
    research = [a for a in legal if isinstance(a, Research)]
    return max(research, key=lambda a: _research_value(state, a, flavour))
