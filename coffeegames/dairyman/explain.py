"""Why a Dairyman choice is worth what :func:`~.advice.advise` says: its value taken apart, term by term.

Each breakdown (:class:`~coffeegames.engine.explain.Breakdown`) lists what follows the
choice with its exact chance and value, and the chances times the values add up to the
advised value exactly:

* a lock that stops, a stop, a bust, and every order-phase choice are certain: one term;
* a lock that rolls on, a roll (with dice frozen) and an ice-cream reroll are the next
  roll of the exact turn model (:mod:`.turn`): its rolls grouped by where the best lock
  leaves the turn (sets locked, dice left, then roll on or stop), and the bust.

Example (the first decision of a seeded game: two sets and stop, or one set and roll on):
    >>> from coffeegames.dairyman import Game, Drawn, Lock, Rolled
    >>> s = Game().new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
    >>> s = s.apply(Rolled(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5))
    >>> b = explain(s, Lock(sets=((4, 6),)))
    >>> b.total == b.value, b.terms[0].outcome, b.terms[0].chance
    (True, '2 sets locked: stop', Fraction(6115, 11664))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from ..engine.explain import Breakdown, advice_row, certain, grouped
from ..exact import count_vectors
from .actions import Bust, EndTurn, Flip, IceCream, Lock, Order, Phase, Roll, Stop
from .advice import advise, turn_model
from .rules import tile_of
from .sets import counts_of
from .state import State
from .turn import TurnSolution, lock_choices, roll_classes

__all__ = ["explain", "roll_terms"]


BUST = "bust (the sets are lost, a backorder token)"


def _sets(n: int) -> str:
    return f"{n} set{'' if n == 1 else 's'}"


def _where(turn: TurnSolution, dice_left: int, sets_locked: int) -> str:
    """Where a lock leaves the turn, in words: ``'2 sets locked, 4 dice left: roll on'``."""
    if not turn.should_roll(dice_left, sets_locked):
        return f"{_sets(sets_locked)} locked: stop"  # worth the same however many dice are left
    return f"{_sets(sets_locked)} locked, {dice_left} {'die' if dice_left == 1 else 'dice'} left: roll on"


def roll_terms(turn: TurnSolution, dice_left: int, sets_locked: int, kept: Sequence[int] = ()) -> list[tuple[str, Fraction, Fraction]]:
    """The next roll of ``dice_left`` dice (``kept`` of them keeping their values), as ``(where it leads, chance, value)``
    parts: a roll with no set busts, any other is locked as well as possible (:meth:`.TurnSolution.roll_value_kept`).

    >>> from coffeegames.dairyman.turn import optimal_turn
    >>> turn = optimal_turn(8, points_per_set=10, bust_cost=5)
    >>> parts = roll_terms(turn, 2, 2)
    >>> parts[0], sum(p * v for _, p, v in parts) == turn.roll_value(2, 2)
    (('bust (the sets are lost, a backorder token)', Fraction(11, 12), Fraction(-5, 1)), True)
    """
    kept_counts = counts_of(tuple(kept))
    rolling = dice_left - len(kept)
    if kept:
        classes: Iterable[tuple[frozenset[tuple[int, int]], int]] = (
            (lock_choices(tuple(a + b for a, b in zip(c, kept_counts))), w) for c, w in count_vectors(rolling))
    else:
        classes = roll_classes(rolling)
    parts = []
    for choices, w in classes:
        chance = Fraction(w, 6**rolling)
        if not choices:
            parts.append((BUST, chance, -turn.bust_cost))
            continue
        t, u = max(choices, key=lambda c: turn.best_value(dice_left - c[1], sets_locked + c[0]))
        d, s = dice_left - u, sets_locked + t
        parts.append((_where(turn, d, s), chance, turn.best_value(d, s)))
    return parts


def _rolled(label: str, value: Fraction, turn: TurnSolution, dice: int, sets: int, kept: Sequence[int], how: str) -> Breakdown:
    return Breakdown(label, value, grouped(roll_terms(turn, dice, sets, kept)), how)


def explain(state: State, action: object) -> Breakdown:
    """``action``'s value at ``state`` (the one :func:`~.advice.advise` gives it), taken apart into exact terms.

    A choice the advice does not value has no terms (``value`` None) and says why.
    """
    label = str(action)
    if state.phase == Phase.ORDER:
        return _order(state, action)
    turn = turn_model(state.rules.set_value, state.rules.backorder_penalty)
    dice, sets = state.dice_left, state.sets_locked
    points = f"expected points this turn: a set scores {turn.points_per_set}, a bust costs {turn.bust_cost}"
    if isinstance(action, Lock):
        d, s = dice - sum(map(len, action.sets)), sets + len(action.sets)
        if turn.should_roll(d, s):
            return _rolled(label, turn.best_value(d, s), turn, d, s, (),
                           f"{points}; after this lock ({_sets(s)}, {d} dice left) rolling on beats stopping's "
                           f"{turn.stop_value(d, s)}, so the value is the next roll's")
        return certain(label, turn.best_value(d, s), f"stop and bank {_sets(s)}",
                       f"{points}; after this lock stopping is best" + (f" (rolling on is worth {turn.roll_value(d, s)})" if d else ""))
    if isinstance(action, Stop):
        return certain(label, turn.stop_value(dice, sets), f"bank {_sets(sets)}", points)
    if isinstance(action, Bust):
        return certain(label, -turn.bust_cost, BUST, points)
    if isinstance(action, Roll):
        kept = action.freeze + ((state.yellow,) if action.freeze_yellow else ())
        frozen = f", {len(kept)} frozen" if kept else ""
        return _rolled(label, turn.roll_value_kept(dice, sets, kept), turn, dice, sets, kept,
                       f"{points}; the next roll of {dice} dice{frozen}, then played on optimally")
    if isinstance(action, IceCream):
        kept = tuple(v for v in state.unlocked if v != action.value)
        return _rolled(label, turn.roll_value_kept(dice, sets, kept), turn, dice, sets, kept,
                       f"{points}; the dice showing {action.value} are rerolled, the others keep their values")
    return _unvalued(state, action)


def _unvalued(state: State, action: object) -> Breakdown:
    return Breakdown(str(action), None, how="not valued: the turn model counts sets and busts, not tiles, ice or abilities")


def _order(state: State, action: object) -> Breakdown:
    """An order-phase choice: certain points (the tiles bought, the cheese a flip makes)."""
    row = advice_row(advise(state), action)
    value = row["value"]
    if value is None:
        return _unvalued(state, action)
    how = "the points the rest of the turn adds to your score"
    if isinstance(action, Order):
        tiles = sum(tile_of(c).value for c in action.tiles)
        cheese = value - tiles
        words = f"tiles worth {tiles}" + (f", then a cheese flip (+{cheese})" if cheese else "")
        return certain(str(action), value, words, how)
    if isinstance(action, EndTurn):
        return certain(str(action), value, "the turn ends: nothing more", how)
    if isinstance(action, Flip):
        return certain(str(action), value, f"a cheese flip (+{state.rules.cheese_points}), then the best order", how)
    return _unvalued(state, action)
