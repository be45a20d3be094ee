"""Every choice at a Dairyman decision, with its exact odds and value.

Values come from the exact turn model of :mod:`.turn` (a set scores the rules' set value,
a bust costs the backorder penalty; later freezes and ice creams are not counted), so
they compare the choices of one turn. Flips and discards change the score, not the
turn, and carry no turn value.

Example:
    >>> from coffeegames.dairyman import Game, Drawn, Rolled
    >>> s = Game().new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
    >>> s = s.apply(Rolled(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5))
    >>> table = advise(s)
    >>> table.loc[table.best, "label"].tolist()
    ['Lock(4+6, 4+6, 2+3+5; yellow)']
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

import pandas as pd

from .odds import p_bust, reroll_p_bust
from .rules import tile_of
from .actions import Bust, IceCream, Lock, Order, Roll, Stop
from .state import State
from .turn import TurnSolution, optimal_turn

__all__ = ["COLUMNS", "advise", "turn_model"]

COLUMNS = ["action", "label", "value", "p_bust_next", "then", "best"]
"""The columns of :func:`advise`'s table."""


@lru_cache(maxsize=None)
def turn_model(set_value: int, bust_cost: int) -> TurnSolution:
    """The exact turn solution for these scores (shared: values depend only on dice left and sets)."""
    return optimal_turn(dice=12, points_per_set=set_value, bust_cost=bust_cost)


def _row(action: object, value: Fraction | None = None, p_bust_next: Fraction | None = None, then: str = "") -> dict[str, Any]:
    return {"action": action, "label": str(action), "value": value, "p_bust_next": p_bust_next, "then": then}


def advise(state: State) -> pd.DataFrame:
    """One row per legal action: its exact turn value, the bust chance of the roll it leads to, and the best marked.

    Columns: ``action``, ``label``, ``value`` (Fraction or None), ``p_bust_next``
    (Fraction or None), ``then`` ("roll"/"stop" after a lock), ``best``.
    """
    turn = turn_model(state.rules.set_value, state.rules.backorder_penalty)
    dice, sets = state.dice_left, state.sets_locked
    rows: list[dict[str, Any]] = []
    for action in state.legal_actions():
        if isinstance(action, Lock):
            d, s = dice - sum(map(len, action.sets)), sets + len(action.sets)
            then = "roll" if turn.should_roll(d, s) else "stop"
            rows.append(_row(action, turn.best_value(d, s), p_bust(d), then))
        elif isinstance(action, Bust):
            rows.append(_row(action, -turn.bust_cost))
        elif isinstance(action, Stop):
            rows.append(_row(action, turn.stop_value(dice, sets)))
        elif isinstance(action, Roll):
            kept = action.freeze + ((state.yellow,) if action.freeze_yellow else ())
            rows.append(_row(action, turn.roll_value_kept(dice, sets, kept), p_bust(dice - len(kept), kept)))
        elif isinstance(action, IceCream):
            kept = tuple(v for v in state.unlocked if v != action.value)
            rows.append(_row(action, turn.roll_value_kept(dice, sets, kept), reroll_p_bust(state.unlocked, action.value)))
        elif isinstance(action, Order):
            rows.append(_row(action, Fraction(sum(tile_of(c).value for c in action.tiles))))
        else:
            rows.append(_row(action))
    frame = pd.DataFrame(rows, columns=COLUMNS[:-1])
    valued = [v for v in frame["value"] if v is not None]
    top = max(valued) if valued else None
    frame["best"] = [v is not None and v == top for v in frame["value"]]
    return frame
