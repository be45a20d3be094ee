"""Every choice at a Dairyman decision, with its exact odds and value.

Each table's values share one scale, and which scale depends on the part of the turn:

* **While dice are rolled and locked** (lock, continue): the exact turn model of
  :mod:`.turn`: a set scores the rules' set value, a bust costs the backorder penalty,
  and the turn is played on optimally. Later freezes, ice-cream rerolls and cheese are
  not counted (the model has no yellow die and no tiles), so flips here carry no value.
  Option ``optional_actions_before_bust`` (default on): on a roll with no set the player
  may try an ice-cream reroll or a flip before ``Bust()``; ``Bust()`` is valued at minus
  the penalty and each ice-cream reroll at the exact turn value of its reroll; a flip on
  such a roll is not valued. With the option off such a roll busts at once: no choice.
* **While ordering** (order phase): the points the rest of the turn adds to the player's
  score, exactly: the tiles bought, plus ``cheese_points`` for a cheese flip. Option
  ``flip_after_order`` (default on): an order is worth its tiles plus the cheese a flip
  right after it can still make (a bought or owned tile showing the unlocked yellow die's
  number); after the order ``EndTurn()`` is worth 0 and a cheese flip ``cheese_points``.
  With the option off an order ends the turn, so a cheese flip must come before it.
  An ice-cream flip is not valued: the ice tokens it spends and the ability it gives
  count only in later turns, which the model does not see.

Discards carry no value.

Example:
    >>> from coffeegames.dairyman import Game, Drawn, Rolled
    >>> s = Game().new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
    >>> s = s.apply(Rolled(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5))
    >>> table = advise(s)
    >>> table.loc[table.best, "label"].tolist()
    ['Lock(4+6, 4+6, 2+3+5; yellow)']
    >>> s = s.apply(Lock(sets=((4, 6), (1, 3, 6)))).apply(Stop())   # the yellow 5 is still unlocked
    >>> advise(s)[["label", "value"]].values.tolist()                 # 20:cheese5 then flips: 20 + 5
    [['Order()', Fraction(0, 1)], ['Order(10:cheese1)', Fraction(10, 1)], ['Order(20:cheese5)', Fraction(25, 1)]]
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pandas as pd

from ..errors import BadArgument
from ..validate import Checker, cached, check_instance
from .actions import Bust, EndTurn, Flip, IceCream, Lock, Order, Phase, Roll, Stop
from .odds import p_bust, reroll_p_bust
from .rules import tile_of
from .state import State
from .turn import TurnSolution, optimal_turn

__all__ = ["COLUMNS", "advise", "turn_model"]

COLUMNS = ["action", "label", "value", "p_bust_next", "then", "best"]
"""The columns of :func:`advise`'s table."""


@cached(maxsize=None)
def turn_model(set_value: int, bust_cost: int) -> TurnSolution:
    """The exact turn solution for these scores (shared: values depend only on dice left and sets)."""
    check = Checker("", BadArgument)
    check.whole(set_value, "set_value", None)
    check.whole(bust_cost, "bust_cost", None)
    return optimal_turn(dice=12, points_per_set=set_value, bust_cost=bust_cost)


def _row(action: object, value: Fraction | None = None, p_bust_next: Fraction | None = None, then: str = "") -> dict[str, Any]:
    return {"action": action, "label": str(action), "value": value, "p_bust_next": p_bust_next, "then": then}


def _order_value(state: State, order: Order) -> Fraction:
    """The tiles bought, plus the cheese a flip right after the order can make (option ``flip_after_order``)."""
    value = Fraction(sum(tile_of(c).value for c in order.tiles))
    die = state.cheese_die
    milk = state.players[state.turn].milk + order.tiles
    if state.rules.flip_after_order and die and any(tile_of(c).cheese == die for c in milk):
        value += state.rules.cheese_points
    return value


def _ordering_value(state: State) -> Fraction:
    """What the rest of the turn adds to the score from an order-phase position under best play (0 once it is over)."""
    if state.phase != Phase.ORDER:
        return Fraction(0)
    values = [v for v in (_choice_value(state, a) for a in state.legal_actions()) if v is not None]
    return max(values, default=Fraction(0))


def _choice_value(state: State, action: object) -> Fraction | None:
    """An order-phase choice's exact value (None: an ice-cream flip, which the model cannot value)."""
    if isinstance(action, Order):
        return _order_value(state, action)
    if isinstance(action, EndTurn):
        return Fraction(0)
    if isinstance(action, Flip) and tile_of(action.tile).cheese is not None:
        return state.rules.cheese_points + _ordering_value(state.apply(action))
    return None


def advise(state: State) -> pd.DataFrame:
    """One row per legal action: its exact value (scale: see the module), the bust chance of the roll it leads to, the best marked.

    Columns: ``action``, ``label``, ``value`` (Fraction or None where the model cannot
    value it), ``p_bust_next`` (Fraction or None), ``then`` ("roll"/"stop" after a lock),
    ``best``.
    """
    check_instance(state, State, "state", "a Dairyman state")
    turn = turn_model(state.rules.set_value, state.rules.backorder_penalty)
    dice, sets = state.dice_left, state.sets_locked
    rows: list[dict[str, Any]] = []
    for action in state.legal_actions():
        if state.phase == Phase.ORDER:
            rows.append(_row(action, _choice_value(state, action)))
        elif isinstance(action, Lock):
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
        else:
            rows.append(_row(action))
    frame = pd.DataFrame(rows, columns=COLUMNS[:-1])
    valued = [v for v in frame["value"] if v is not None]
    top = max(valued) if valued else None
    frame["best"] = [v is not None and v == top for v in frame["value"]]
    return frame
