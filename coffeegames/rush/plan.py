"""A plan of the rest of a Coffee Rush turn, as :mod:`.best` finds it, and one plan as a table row.

:class:`Plan` holds the actions from the decision faced now to the end of the turn's choices
and what they do this turn; its exact ``value`` is the change in the player's score this
turn (:mod:`.best` says how it is found). :func:`plan_row` reads it as a row of words.

Example:
    >>> from coffeegames.rush.actions import Move, Pour
    >>> plan = Plan((Move(0, (1,), 0), Pour((("milk",), (), ()))), ("coffee+milk",), False, 0, 0, 0, 0)
    >>> plan.value, plan.key
    (1, (1, 0, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..validate import check_instance
from .actions import Complete, Empty, Move, NoUpgrade, Upgrade
from .state import State

__all__ = ["Plan", "check_plan", "check_state", "plan_row"]


def check_state(state: Any, where: str = "state") -> State:
    """``state`` if it is a Coffee Rush :class:`.state.State`, else :class:`~coffeegames.errors.BadType` naming ``where``."""
    return check_instance(state, State, where, "a Coffee Rush state (rush.State)")


def check_plan(plan: Any) -> Plan:
    """``plan`` if it is a :class:`Plan`, else :class:`~coffeegames.errors.BadType` naming ``plan``."""
    return check_instance(plan, Plan, "plan", "a plan (rush.Plan, from best_plan, top_plans or plans)")


@dataclass(frozen=True)
class Plan:
    """The rest of one turn (``actions``, from the decision faced now) and what it does this turn."""

    actions: tuple[Any, ...]
    completed: tuple[str, ...]
    """Orders the pour completes."""
    upgraded: bool
    penalties: int
    """Penalty cards this turn's Flow of Time gives."""
    rush_gained: int
    rush_spent: int
    progress: int

    @property
    def value(self) -> int:
        """The exact immediate value: the change in the player's score this turn (see the module's text)."""
        return len(self.completed) - self.penalties - self.upgraded

    @property
    def rush(self) -> int:
        """Rush tokens gained minus spent."""
        return self.rush_gained - self.rush_spent

    @property
    def key(self) -> tuple[int, int, int]:
        """What plans are ranked by: ``(value, rush, progress)``."""
        return self.value, self.rush, self.progress


def plan_row(state: State, plan: Plan) -> dict[str, Any]:
    """One plan as a table row: its steps in words, what it completes, its value and the parts beside it."""
    check_state(state)
    check_plan(plan)
    me, cols = state.players[state.player], state.rules.board.cols
    row: dict[str, Any] = {"upgrade": "", "move": "", "empty": "", "pour": "", "complete": ""}
    for action in plan.actions:
        if isinstance(action, (Upgrade, NoUpgrade)):
            row["upgrade"] = str(action)
        elif isinstance(action, Move):
            start = me.meeples[action.meeple] if action.meeple < len(me.meeples) else 0
            row["move"] = action.describe(start, cols)
        elif isinstance(action, Empty):
            row["empty"] = str(action)
        elif isinstance(action, Complete):
            row["complete"] = str(action)
        else:
            row["pour"] = str(action)
    row.update(completed=", ".join(plan.completed), value=plan.value, rush=plan.rush, progress=plan.progress,
               penalties=plan.penalties, rush_gained=plan.rush_gained, rush_spent=plan.rush_spent, plan=plan)
    return row
