"""Simple Dairyman bots: a random player and a greedy one (policies are ``policy(state) -> action``).

Example:
    >>> from coffeegames.engine import play
    >>> from coffeegames.dairyman import Game
    >>> results = play(Game(players=2), greedy_policy, n_games=2, seed=0, progress=False)
    >>> len(results)
    2
"""

from __future__ import annotations

from collections.abc import Callable

from ..validate import check_instance
from ..engine import random_policy  # re-exported: the Dairyman random bot
from .actions import Bust, EndTurn, Flip, IceCream, Lock, Order, Phase, Roll, Stop
from .odds import reroll_p_bust
from .rules import tile_of
from .sets import counts_of, is_bust
from .state import State
from .advice import turn_model

__all__ = ["Policy", "greedy_policy", "random_policy"]

Policy = Callable[[State], object]
"""A bot: the action it takes in a position."""


def greedy_policy(state: State) -> object:
    """Lock the most dice; roll on while the barn buys nothing or :func:`optimal_turn` says rolling beats stopping; buy the most value.

    Also: flip every tile it can once its sets are locked (cheese first-hand, ice cream when
    affordable; after ordering too, option ``flip_after_order``, then end the turn), rescue a
    bust with the ice-cream reroll least likely to bust again, and never freeze.
    """
    check_instance(state, State, "state", "a Dairyman state")
    legal = state.legal_actions()
    flips = [a for a in legal if isinstance(a, Flip)]
    if state.phase == Phase.DISCARD:
        return legal[0]
    if state.phase == Phase.LOCK:
        locks = [a for a in legal if isinstance(a, Lock)]
        safe_cheese = [f for f in flips if tile_of(f.tile).cheese is not None and not is_bust(counts_of(state.dice))]
        if safe_cheese:
            return safe_cheese[0]
        if locks:
            return max(locks, key=lambda a: (sum(map(len, a.sets)), len(a.sets), not a.yellow))
        rescues = [a for a in legal if isinstance(a, IceCream)]
        if rescues:
            return min(rescues, key=lambda a: reroll_p_bust(state.unlocked, a.value))
        return Bust()
    if flips:
        return flips[0]
    if state.ordered:
        return EndTurn()
    if state.phase == Phase.CONTINUE:
        turn = turn_model(state.rules.set_value, state.rules.backorder_penalty)
        cheapest = min(tile_of(c).value for c in state.display)
        wants_more = (state.barn_value < cheapest and state.dice_left >= 3) or turn.should_roll(state.dice_left, state.sets_locked)
        return Roll() if wants_more and Roll() in legal else Stop()
    orders = [a for a in legal if isinstance(a, Order)]
    return max(orders, key=lambda a: (sum(tile_of(c).value for c in a.tiles), len(a.tiles)))


