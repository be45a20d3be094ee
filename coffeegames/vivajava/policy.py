"""Simple VivaJava bots: a random player and a greedy one (policies are ``policy(state) -> action``).

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
from collections.abc import Callable

from ..validate import check_instance
from ..engine import random_policy  # re-exported: the VivaJava random bot
from .actions import (
    Action, Boost, Decline, Degrade, Featured, Flip, GainToken, Keep, KeepRolling, Phase, Rainbow, Reroll, Research,
    SetupResearch, TakeFlavour, Upgrade,
)
from .dice import COLOURS
from .rules import TRACK_COLOURS
from .state import State

__all__ = ["Policy", "greedy_policy", "random_policy"]

Policy = Callable[[State], Action]
"""A bot: the action it takes in a state."""


def _featured_key(action: Featured) -> tuple[int, int, int]:
    return (action.size, COLOURS.index(action.colour), -action.funded_dice)


def _research_value(state: State, action: Research) -> float:
    """What a research is worth to the greedy bot: RP that count (plus the track's PP if it completes); flavour dice a little less."""
    p, rules = state.turn, state.rules
    n = state.research_count(action.colour)
    if action.colour == "black":
        return 0.8 * min(n, state.flavour_coaster + len(state.own))  # the bot's own estimate, not the rule
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
    rerolls = [a for a in legal if isinstance(a, KeepRolling)]
    if rerolls and state.white:
        colour, n = max(Counter(state.white).items(), key=lambda kv: (kv[1], COLOURS.index(kv[0])))
        rest = tuple(f for f in state.white if f != colour)
        if n >= 2 and rest and KeepRolling(rest) in legal:
            return KeepRolling(rest)
    research = [a for a in legal if isinstance(a, Research)]
    return max(research, key=lambda a: _research_value(state, a))


