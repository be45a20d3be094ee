"""Every choice at a Coffee Rush decision, valued exactly by the best plan it leads to this turn.

**What ``value`` measures.** The exact immediate value (:mod:`.best`): the change in your
score from now to the end of this turn, if the rest of the turn is played as well as
possible by that measure. Beside it: ``rush`` (rush tokens gained minus spent this turn)
and ``progress`` (ingredients left in cups that fit a waiting order), which rank choices
of equal value; ``then`` gives the rest of that best plan in words. Setup's meeple
placing carries no value (``None``). A decision's ``best`` rows are those ranked first by
``(value, rush, progress)``.

Columns: ``action``, ``label``, ``value`` (a ``Fraction``, or None), ``rush``, ``progress``,
``completed`` (the orders the best plan completes), ``then``, ``how`` and ``best``.

Example:
    >>> from coffeegames.rush.state import Game
    >>> s = Game(players=3).new_initial_state(seed=1)
    >>> while s.phase == "place":
    ...     s = s.apply(s.legal_actions()[0])
    >>> table = advise(s)
    >>> len(table) == len(s.legal_actions()), bool(table["best"].any())
    (True, True)
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from .actions import Move, Phase
from .best import action_values
from .state import State

__all__ = ["COLUMNS", "HOW", "advise"]

COLUMNS = ["action", "label", "value", "rush", "progress", "completed", "then", "how", "best"]
HOW = "exact: the score change this turn of the best plan after this choice (every path × every pour searched)"


def _label(state: State, action: object) -> str:
    if isinstance(action, Move) and action.path:
        me = state.players[state.player]
        return action.describe(me.meeples[action.meeple], state.rules.board.cols)
    return str(action)


def advise(state: State) -> pd.DataFrame:
    """Every legal action with its exact value (see the module's text), best first; empty at chance and terminal
    states."""
    if state.is_chance() or state.is_terminal():
        return pd.DataFrame(columns=COLUMNS)
    if state.phase == Phase.PLACE:
        rows = [{"action": a, "label": str(a), "value": None, "rush": None, "progress": None, "completed": "",
                 "then": "setup: no value (choose where your meeple starts)", "how": "", "best": False}
                for a in state.legal_actions()]
        return pd.DataFrame(rows, columns=COLUMNS)
    valued = action_values(state)
    top = max(plan.key for _, plan in valued)
    ranked = sorted(valued, key=lambda pair: pair[1].key, reverse=True)  # best first; the engine's order among equals
    rows = []
    for action, plan in ranked:
        rest = [str(a) for a in plan.actions[1:]]
        rows.append({"action": action, "label": _label(state, action), "value": Fraction(plan.value), "rush": plan.rush,
                     "progress": plan.progress, "completed": ", ".join(plan.completed), "then": "; ".join(rest),
                     "how": HOW, "best": plan.key == top})
    return pd.DataFrame(rows, columns=COLUMNS)
