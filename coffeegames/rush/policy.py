"""Coffee Rush bots (policies are ``policy(state) -> action``): random, greedy and a look-ahead bot.

* :func:`random_policy` — any legal action, uniformly (the engine's).
* :func:`greedy_policy` — the first action of the exact best plan of this turn
  (:func:`.best.best_plan`: highest ``(value, rush, progress)``). Setup: the empty space with
  the most neighbours (the first such).
* :func:`lookahead_policy` — among the ``width`` best plans of this turn, the one whose value
  plus the value of the best plan of the player's *next* turn is highest. Its model of what
  happens in between, stated: the other players' moves are skipped (their meeples stay
  where they are), and every order dealt meanwhile is the kind the deck holds most of
  (the first such), including the two-player extra order to the player. Ties keep the
  greedy order. Its budget is fixed: at each decision one search for this turn's
  ``width`` best plans and one best-plan search per plan for the next turn (4 searches
  with the default ``width=3``: a few CPU seconds a game, benchmarks/README.md).

Example:
    >>> from coffeegames.rush.state import Game
    >>> s = Game(players=2).new_initial_state(seed=0)
    >>> greedy_policy(s)   # setup: a central space
    Place(space=5)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine import random_policy
from ..errors import BadArgument
from ..validate import check_count
from .actions import Drawn, Phase, Place
from .best import Plan, best_plan, check_plan, check_state, top_plans
from .paths import neighbours
from .state import State

__all__ = ["MAX_WIDTH", "greedy_policy", "lookahead_policy", "make_lookahead", "next_turn", "random_policy"]

MAX_WIDTH = 100
"""The most plans of this turn :func:`make_lookahead`'s bot weighs (``width``)."""


def _place(state: State) -> Place:
    board = state.rules.board
    legal = [a for a in state.legal_actions() if isinstance(a, Place)]
    return max(legal, key=lambda a: len(neighbours(board.rows, board.cols, a.space)))  # max keeps the first of equals


def greedy_policy(state: State) -> Any:
    """The first action of the exact best plan of this turn."""
    check_state(state)
    if state.phase == Phase.PLACE:
        return _place(state)
    return best_plan(state).actions[0]


def next_turn(state: State, plan: Plan) -> State:
    """The player's next decision after ``plan`` under the look-ahead's model (see the module's text): the plan
    played, each order dealt the kind the deck holds most of, the others' turns skipped."""
    check_state(state)
    check_plan(plan)
    who = state.player
    for action in plan.actions:
        state = state.apply(action)
    while state.is_chance():
        kinds = state.rules.deck.kinds
        most = max(range(len(kinds)), key=lambda k: state.deck[k])  # max keeps the first of equals
        state = state.apply(Drawn(kinds[most]))
    if state.is_terminal():
        return state
    phase = Phase.UPGRADE if state.can_upgrade(who) else Phase.MOVE
    return replace(state, player=who, phase=phase, collected=())


def make_lookahead(width: int = 3) -> Any:
    """A look-ahead bot considering this turn's ``width`` best plans (see the module's text)."""
    if check_count(width, "width", maximum=MAX_WIDTH) < 1:
        raise BadArgument("width", "must be 1 or more", width)

    def policy(state: State) -> Any:
        check_state(state)
        if state.phase == Phase.PLACE:
            return _place(state)
        best, best_key = None, None
        for plan in top_plans(state, width):
            after = next_turn(state, plan)
            then = best_plan(after).key if not after.is_terminal() and after.phase in (Phase.UPGRADE, Phase.MOVE) else (0, 0, 0)
            key = (plan.value + then[0], plan.rush + then[1], then[2])
            if best_key is None or key > best_key:
                best, best_key = plan, key
        assert best is not None
        return best.actions[0]

    return policy


lookahead_policy = make_lookahead()
"""The look-ahead bot over the 3 best plans of each decision."""
