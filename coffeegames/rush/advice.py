"""Every choice at a Coffee Rush decision, valued exactly by the best plan it leads to this turn.

**What ``value`` measures.** The exact immediate value (:mod:`.best`): the change in your
score from now to the end of this turn, if the rest of the turn is played as well as
possible by that measure. Beside it, the row's details: ``rush`` (rush tokens gained minus
spent this turn) and ``progress`` (ingredients left in cups that fit a waiting order), which
rank choices of equal value, and ``completed`` (the orders the best plan completes); ``then``
gives the rest of that best plan in words. Setup's meeple placing carries no value
(``None``). A decision's ``best`` rows are those ranked first by ``(value, rush, progress)``.

**The next turn, an estimate shown apart.** With ``lookahead=n``, the ``n`` best rows
(best first) also get the detail ``next_turn``: the best immediate value of your *next* turn
after that row's plan, estimated over ``samples`` seeded continuations
(:func:`.outlook.next_turn_estimate`, an :class:`~.outlook.Estimate`: its ``mean`` of the
seeded values, its ``stderr``, the values and the ``model``: the other players play
``opponent``, the greedy bot by default, and the orders come from the unseen deck with their
exact odds), and ``next_turn_how``, how it was estimated (the sample size and the seed).
Every row uses the same seeds (the same deals, as far as the games agree), so rows differ by
the plan, not by luck. It is never added to ``value``, which stays exact.

Example:
    >>> from coffeegames.rush.state import Game
    >>> s = Game(players=3).new_initial_state(seed=1)
    >>> while s.phase == "place":
    ...     s = s.apply(s.legal_actions()[0])
    >>> rows = advise(s)
    >>> len(rows) == len(s.legal_actions()), rows[0].best, rows[0].exact
    (True, True, True)
    >>> rows = advise(s, lookahead=2, samples=3)
    >>> [row.detail("next_turn").samples for row in rows[:3] if row.detail("next_turn")]
    [3, 3]
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..engine.advice import Advice, ranked
from ..errors import TooBig
from ..validate import check_count
from .actions import Move, Phase
from .best import action_values, check_state
from .outlook import MAX_SAMPLES, check_sampling, next_turn_estimate
from .policy import greedy_policy
from .state import State

__all__ = ["HOW", "MAX_LOOKAHEAD", "MEASURES", "advise"]

MEASURES = "your score change this turn, the rest of the turn played as well as possible"
HOW = "exact: the score change this turn of the best plan after this choice (every path × every pour searched)"
MAX_LOOKAHEAD = 50
"""The most rows :func:`advise` estimates the next turn of (``lookahead``)."""


def _label(state: State, action: object) -> str:
    if isinstance(action, Move) and action.path:
        me = state.players[state.player]
        return action.describe(me.meeples[action.meeple], state.rules.board.cols)
    return str(action)


def advise(state: State, lookahead: int = 0, samples: int = 10, seed: int = 0,
           opponent: Callable[[State], Any] = greedy_policy) -> list[Advice]:
    """Every legal action with its exact value (see the module's text), best first; none at chance and terminal
    states. ``lookahead``: how many of the best rows also get the seeded next-turn estimate (0: none), each over
    ``samples`` continuations seeded by ``seed``, the others playing ``opponent``."""
    check_state(state)
    check_count(lookahead, "lookahead", maximum=MAX_LOOKAHEAD)
    check_sampling(samples, seed, opponent)
    if lookahead * samples > MAX_SAMPLES:
        raise TooBig("samples", f"times lookahead must be at most {MAX_SAMPLES:,} continuations", samples)
    rows: list[Advice] = []
    if state.phase == Phase.PLACE and not state.is_chance():
        rows = [Advice(a, str(a), then="setup: no value (choose where your meeple starts)") for a in state.legal_actions()]
    elif not state.is_chance() and not state.is_terminal():
        valued = action_values(state)
        top = max(plan.key for _, plan in valued)
        ranked_plans = sorted(valued, key=lambda pair: pair[1].key, reverse=True)  # best first; the engine's order among equals
        how = (f"the best immediate value of your next turn after the row's plan: the mean of {samples} seeded "
               f"continuations (seed {seed}, the same seeds for every row), with its standard error")
        for n, (action, plan) in enumerate(ranked_plans):
            details: tuple[tuple[str, Any], ...] = (("rush", plan.rush), ("progress", plan.progress),
                                                    ("completed", ", ".join(plan.completed)))
            if n < lookahead:
                guess = next_turn_estimate(state, plan, samples=samples, seed=seed, opponent=opponent)
                details += (("next_turn", guess), ("next_turn_how", how))
            rows.append(Advice(action, _label(state, action), Fraction(plan.value), measures=MEASURES,
                               then="; ".join(str(a) for a in plan.actions[1:]), how=HOW, best=plan.key == top,
                               details=details))
    return ranked(rows, mark=False)
