"""Every choice at a Coffee Rush decision, valued exactly by the best plan it leads to this turn.

**What ``value`` measures.** The exact immediate value (:mod:`.best`): the change in your
score from now to the end of this turn, if the rest of the turn is played as well as
possible by that measure. Beside it: ``rush`` (rush tokens gained minus spent this turn)
and ``progress`` (ingredients left in cups that fit a waiting order), which rank choices
of equal value; ``then`` gives the rest of that best plan in words. Setup's meeple
placing carries no value (``None``). A decision's ``best`` rows are those ranked first by
``(value, rush, progress)``.

**The next turn, an estimate shown apart.** With ``lookahead=n``, the ``n`` best rows
(best first) also get ``next_turn``: the best immediate value of your *next* turn after
that row's plan, estimated over ``samples`` seeded continuations
(:func:`.outlook.next_turn_estimate`: the other players play ``opponent``, the greedy bot by
default, and the orders come from the unseen deck with their exact odds), and
``next_turn_se``, its standard error. Every row uses the same seeds (the same deals, as far
as the games agree), so rows differ by the plan, not by luck. It is never added to
``value``; the table's ``attrs`` say which columns are exact and which are estimates, the
sample size, the seed and the opponent model.

Columns: ``action``, ``label``, ``value`` (a ``Fraction``, or None), ``rush``, ``progress``,
``completed`` (the orders the best plan completes), ``then``, ``how`` and ``best``; with
``lookahead``, also ``next_turn`` (a ``Fraction``, the mean of the seeded values, or None)
and ``next_turn_se``.

Example:
    >>> from coffeegames.rush.state import Game
    >>> s = Game(players=3).new_initial_state(seed=1)
    >>> while s.phase == "place":
    ...     s = s.apply(s.legal_actions()[0])
    >>> table = advise(s)
    >>> len(table) == len(s.legal_actions()), bool(table["best"].any())
    (True, True)
    >>> table = advise(s, lookahead=2, samples=3)
    >>> int(table["next_turn"].notna().sum()), table.attrs["estimate"], table.attrs["samples"]
    (2, ('next_turn', 'next_turn_se'), 3)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pandas as pd

from ..errors import TooBig
from ..validate import check_count
from .actions import Move, Phase
from .best import action_values, check_state
from .outlook import MAX_SAMPLES, check_sampling, next_turn_estimate, opponent_model
from .policy import greedy_policy
from .state import State

__all__ = ["COLUMNS", "ESTIMATE_COLUMNS", "HOW", "MAX_LOOKAHEAD", "advise"]

COLUMNS = ["action", "label", "value", "rush", "progress", "completed", "then", "how", "best"]
ESTIMATE_COLUMNS = ["next_turn", "next_turn_se"]
"""The columns ``lookahead`` adds: an estimate and its standard error, never exact."""
HOW = "exact: the score change this turn of the best plan after this choice (every path × every pour searched)"
MAX_LOOKAHEAD = 50
"""The most rows :func:`advise` estimates the next turn of (``lookahead``)."""


def _label(state: State, action: object) -> str:
    if isinstance(action, Move) and action.path:
        me = state.players[state.player]
        return action.describe(me.meeples[action.meeple], state.rules.board.cols)
    return str(action)


def advise(state: State, lookahead: int = 0, samples: int = 10, seed: int = 0,
           opponent: Callable[[State], Any] = greedy_policy) -> pd.DataFrame:
    """Every legal action with its exact value (see the module's text), best first; empty at chance and terminal
    states. ``lookahead``: how many of the best rows also get the seeded next-turn estimate (0: none), each over
    ``samples`` continuations seeded by ``seed``, the others playing ``opponent``."""
    check_state(state)
    check_count(lookahead, "lookahead", maximum=MAX_LOOKAHEAD)
    check_sampling(samples, seed, opponent)
    if lookahead * samples > MAX_SAMPLES:
        raise TooBig("samples", f"times lookahead must be at most {MAX_SAMPLES:,} continuations", samples)
    columns = COLUMNS + ESTIMATE_COLUMNS if lookahead else COLUMNS
    rows: list[dict[str, Any]] = []
    if state.phase == Phase.PLACE and not state.is_chance():
        rows = [{"action": a, "label": str(a), "value": None, "rush": None, "progress": None, "completed": "",
                 "then": "setup: no value (choose where your meeple starts)", "how": "", "best": False}
                for a in state.legal_actions()]
    elif not state.is_chance() and not state.is_terminal():
        valued = action_values(state)
        top = max(plan.key for _, plan in valued)
        ranked = sorted(valued, key=lambda pair: pair[1].key, reverse=True)  # best first; the engine's order among equals
        for n, (action, plan) in enumerate(ranked):
            rest = [str(a) for a in plan.actions[1:]]
            row = {"action": action, "label": _label(state, action), "value": Fraction(plan.value), "rush": plan.rush,
                   "progress": plan.progress, "completed": ", ".join(plan.completed), "then": "; ".join(rest),
                   "how": HOW, "best": plan.key == top}
            if n < lookahead:
                guess = next_turn_estimate(state, plan, samples=samples, seed=seed, opponent=opponent)
                row.update(next_turn=guess.mean, next_turn_se=guess.stderr)
            rows.append(row)
    table = pd.DataFrame(rows, columns=columns)
    table.attrs.update(exact=("value",), estimate=(), estimated_rows=0, samples=0, seed=None, opponent="", how_estimated="")
    if lookahead:
        table.attrs.update(estimate=tuple(ESTIMATE_COLUMNS), estimated_rows=sum("next_turn" in row for row in rows),
                           samples=samples, seed=seed, opponent=opponent_model(opponent),
                           how_estimated=("the best immediate value of your next turn after the row's plan: the mean of "
                                          f"{samples} seeded continuations (the same seeds for every row), with its "
                                          "standard error"))
    return table
