"""Why a Dairyman choice is worth what :func:`~.advice.advise` says: its value taken apart, term by term.

Each breakdown (:class:`~coffeegames.engine.explain.Breakdown`) lists what follows the
choice with its exact chance and value, in the model the advice used
(:func:`~.advice.advice_model`), and the chances times the values add up to the advised value
exactly (Fractions):

* **whole turn** (:mod:`.whole_turn`, the usual one): a roll (a lock that rolls on, a
  ``Roll`` with dice frozen, an ice-cream reroll) is the next roll's outcomes, every
  multiset of the rolled dice with its multinomial chance (frozen or spared dice keep
  their values; the ice token taken before the roll where the model takes one), grouped
  by where the best continuation leads: the bust, a lock and a stop (the tiles it buys),
  a lock and rolling on, an ice-cream reroll. Values are net of the ice held, as in the
  advice. A stop, a bust and a lock that stops are certain; a flip is its points plus
  what follows it.
* **plain turn** (the advice's fallback, :mod:`.turn`): the same, sets and busts only.
* **order phase**: certain points (the tiles bought, the cheese a flip makes).

A choice that cannot be taken apart exactly (the budget of new positions runs out) is the
advised value alone, said so. The ``how`` line says in plain words what the value measures;
``details`` (behind the panel's toggle) names the model and what a stop buys from the display.

Example (the first decision of a seeded game: two sets and stop, or one set and roll on):
    >>> from coffeegames.dairyman import Game, Drawn, Lock, Rolled
    >>> s = Game().new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
    >>> s = s.apply(Rolled(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5))
    >>> b = explain(s, Lock(sets=((4, 6),)))
    >>> b.total == b.value == advice_of(advise(s), Lock(sets=((4, 6),))).value
    True
    >>> [t.outcome for t in b.terms if t.outcome.startswith("bust")]
    ['bust (the sets are lost, a backorder token)']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import cast

from ..engine.advice import advice_of
from ..engine.advice import Advice
from ..engine.explain import Breakdown, Term, Why, certain, grouped, why
from ..errors import BadArgument, TooBig
from ..exact import count_vectors
from ..validate import check_count, check_instance
from .actions import Bust, EndTurn, Flip, IceCream, Lock, Order, Phase, Roll, Stop
from .advice import ADVICE_STATES, WHOLE_TURN, abilities_left, advice_model, advise, in_turn_value, turn_model, whole_turn_model
from .payoff import MAX_SETS, DisplayPayoff
from .rules import tile_of
from .sets import MAX_DICE, check_roll, counts_of, is_bust
from .state import State
from .turn import TurnSolution, lock_choices, roll_classes
from .whole_turn import WholeTurn

__all__ = ["ROLL_ON", "STOP", "explain", "explain_cell", "roll_terms"]

Parts = list[tuple[str, Fraction, Fraction]]
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
    check_instance(turn, TurnSolution, "turn", "a turn solution (optimal_turn(...))")
    check_count(dice_left, "dice_left", maximum=MAX_DICE)
    check_count(sets_locked, "sets_locked", maximum=MAX_SETS)
    kept = check_roll(kept, "kept")
    if len(kept) > dice_left:
        raise BadArgument("kept", f"{len(kept)} kept dice but only {dice_left} dice left", kept)
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


ROLL_ON, STOP = "roll on", "stop"
"""The two choices at a cell of the policy map (:func:`explain_cell`)."""


def explain_cell(turn: TurnSolution, dice_left: int, sets_locked: int) -> Why:
    """Why the policy map says roll on or stop with ``dice_left`` dice left and ``sets_locked`` sets locked.

    Both choices are taken apart as the walkthrough's are: rolling on is the next roll's
    outcomes (:func:`roll_terms`: the bust, and where the best lock leaves the turn), each with
    its exact chance and value; stopping is certain. The choice the map shows (ties stop)
    comes first, beside the other and their difference.

    >>> from coffeegames.dairyman.turn import optimal_turn
    >>> w = explain_cell(optimal_turn(8, points_per_set=10, bust_cost=5), 5, 1)
    >>> w.chosen.label, w.chosen.value, w.other.label, w.other.value
    ('roll on', Fraction(133505, 7776), 'stop', Fraction(10, 1))
    >>> [(t.outcome, t.chance) for t in w.chosen.terms]
    [('2 sets locked: stop', Fraction(5585, 7776)), ('bust (the sets are lost, a backorder token)', Fraction(1255, 7776)), ('3 sets locked: stop', Fraction(13, 108))]
    """
    check_instance(turn, TurnSolution, "turn", "a turn solution (optimal_turn(...))")
    check_count(dice_left, "dice_left", maximum=MAX_DICE)
    check_count(sets_locked, "sets_locked", maximum=MAX_SETS)
    if dice_left == 0:
        raise BadArgument("dice_left", "must be 1 or more: with no dice left the turn stops, there is nothing to decide", dice_left)
    roll, stop = turn.roll_value(dice_left, sets_locked), turn.stop_value(dice_left, sets_locked)
    how = f"the points this turn can be expected to bring, the rest of it played as well as possible; {turn.assumptions}"
    details = "plain-turn model: the sets, the barns' total and the bust only (no yellow die, ice, abilities or flips)"

    def breakdown(_: object, action: object) -> Breakdown:
        if action == ROLL_ON:
            rolled = f"; the next roll of {dice_left} {_dice(dice_left)}, each roll locked as well as possible"
            return Breakdown(ROLL_ON, roll, grouped(roll_terms(turn, dice_left, sets_locked)), how + rolled, details=details)
        return replace(certain(STOP, stop, f"{_sets(sets_locked)} locked: stop and score {stop}", how), details=details)

    advice = [Advice(ROLL_ON, ROLL_ON, roll), Advice(STOP, STOP, stop)]
    found = why((dice_left, sets_locked), advice, breakdown, ROLL_ON if turn.should_roll(dice_left, sets_locked) else STOP)
    assert found is not None
    return found


def explain(state: State, action: object) -> Breakdown:
    """``action``'s value at ``state`` (the one :func:`~.advice.advise` gives it), taken apart into exact terms.

    A choice the advice does not value has no terms (``value`` None) and says why.
    """
    label, row = str(action), advice_of(advise(state), action)
    value = row.value
    if value is None:
        return Breakdown(label, None, how=row.how or "not valued by the advice")
    if state.phase == Phase.ORDER:
        return _order(state, action, value)
    pay, model = advice_model(state)
    rules = state.rules
    if model == WHOLE_TURN:
        wt = whole_turn_model(pay.points, rules.backorder_penalty, rules.ice_token_from_roll, rules.optional_actions_before_bust)
        how = f"the points this turn can be expected to bring, the rest of it played as well as possible; a bust costs {wt.bust_cost}"
        details = (f"whole-turn model (freezing dice with ice tokens and ice-cream rerolls included): values net of the ice "
                   f"held, an ice token counted as {wt.ice_value} point{'s' * (wt.ice_value != 1)}; {_payoff_words(pay)}")
        try:
            with wt.budget(ADVICE_STATES):
                parts, then = _whole(wt, state, action, pay)
        except TooBig:
            return _alone(label, value, how, f"the whole turn needs more than {ADVICE_STATES:,} new positions here", details)
    else:
        turn = turn_model(rules.set_value, rules.backorder_penalty, pay.points)
        how = f"the points this turn can be expected to bring, counting sets and busts only; a bust costs {turn.bust_cost}"
        details = f"{model}: no freezes, ice creams or flips; {_payoff_words(pay)}"
        parts, then = _plain(turn, state, action, pay)
    found = Breakdown(label, value, grouped(parts), f"{how}; {then}" if then else how, details=details)
    return found if found.total == value else _alone(label, value, how, "its terms would not add up to it exactly", details)


def _alone(label: str, value: Fraction, how: str, why: str, details: str = "") -> Breakdown:
    return Breakdown(label, value, (Term(f"the advised value (not taken apart: {why})", Fraction(1), value),), how, details=details)


def _payoff_words(pay: DisplayPayoff) -> str:
    """What a stop with 1, 2, … sets buys from the display, the repeats at the end folded."""
    items = []
    for s in range(1, MAX_SETS + 1):
        tiles = " + ".join(pay.bought(s)) or "nothing"
        last = all(pay.bought(k) == pay.bought(s) for k in range(s, MAX_SETS + 1))
        items.append(f"{_sets(s)}{' or more' if last and s < MAX_SETS else ''} {tiles} ({pay.points[s]})")
        if last:
            break
    return f"a stop buys from the display {' '.join(map(str, pay.display)) or '(empty)'}: {', '.join(items)}"


def _buys(pay: DisplayPayoff, sets: int) -> str:
    return f"{_sets(sets)} locked: stop, buying {' + '.join(pay.bought(sets)) or 'nothing'}"


def _whole(wt: WholeTurn, state: State, action: object, pay: DisplayPayoff) -> tuple[Parts, str]:
    """The whole-turn parts of ``action`` (values net of the ice held at ``state``) and what follows it, in words."""
    player = state.turn
    held = wt.ice_value * state.players[player].ice
    extra = Fraction(0)
    if isinstance(action, Flip):
        extra = Fraction(state.rules.cheese_points if tile_of(action.tile).cheese is not None else state.rules.ice_cream_points)
    parts, then = _follow(wt, state.apply(action), player, held, pay)
    if extra:
        parts, then = [(w, p, v + extra) for w, p, v in parts], f"the flip scores {extra}, then {then}"
    return parts, then


def _follow(wt: WholeTurn, s: State, player: int, held: Fraction, pay: DisplayPayoff) -> tuple[Parts, str]:
    """The position ``s`` of ``player``'s turn taken apart: the next roll's outcomes, or a certain value."""
    ice = s.players[player].ice
    if s.turn != player or s.phase not in (Phase.LOCK, Phase.CONTINUE, Phase.ROLL, Phase.ORDER):
        return [(BUST, Fraction(1), -wt.bust_cost + wt.ice_value * ice - held)], "the turn busts"
    abilities, sets = abilities_left(s), s.sets_locked
    if s.phase == Phase.ORDER:
        return [(_buys(pay, sets), Fraction(1), pay.points[sets] + wt.ice_value * ice - held)], ""
    if s.phase == Phase.ROLL:
        rolling = s.rolling + s.rolls_yellow
        kept = f", {len(s.unlocked)} keeping {'its value' if len(s.unlocked) == 1 else 'their values'}" if s.unlocked else ""
        token = f", {ice} ice token{'s' * (ice != 1)} held (worth {wt.ice_value} each if kept)" if ice else ""
        return (_roll_parts(wt, s.unlocked, rolling, sets, ice, s.roll, abilities, held, pay),
                f"the next roll of {rolling} {_dice(rolling)}{kept}{token}, then played on optimally")
    if s.phase == Phase.CONTINUE:
        choices = wt.after_lock(s.unlocked, sets, ice, s.roll, abilities)
        best = choices[0]
        if best.kind == "stop":
            other = f" (rolling on is worth {choices[1].value - held})" if len(choices) > 1 else ""
            return [(_buys(pay, sets), Fraction(1), best.value - held)], f"stopping is best{other}"
        frozen = cast(tuple[int, ...], best.detail[0])
        gain = int(s.roll + 1 >= s.rules.ice_token_from_roll)
        token = ", an ice token taken first" if gain else ""
        rolling = len(s.unlocked) - len(frozen)
        return (_roll_parts(wt, frozen, rolling, sets, ice + gain - len(frozen), s.roll + 1, abilities, held, pay),
                f"then {best.label}{token} (stopping is worth {pay.points[sets]}): the next roll, played on optimally")
    # after a roll (a flip made there): the best choice the model sees, then what follows it
    options = [a for a in s.legal_actions() if not isinstance(a, Flip)]
    best_action = max(options, key=lambda a: in_turn_value(wt, s.apply(a), player))
    parts, then = _follow(wt, s.apply(best_action), player, held, pay)
    return parts, f"{best_action}, then {then}"


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


def _roll_parts(wt: WholeTurn, kept: Sequence[int], rolling: int, sets: int, ice: int, roll: int,
                abilities: Sequence[str], held: Fraction, pay: DisplayPayoff) -> Parts:
    """A roll of ``rolling`` dice beside the ``kept`` ones, as (where the best continuation leads, chance, net value)."""
    parts: Parts = []
    for dice, chance, best in wt.next_roll(kept, rolling, sets, ice, roll, abilities):
        value = best.value - held
        if best.kind == "bust":
            words = BUST
        elif best.kind == "ice cream":
            words = f"{'no set' if is_bust(counts_of(dice)) else 'a set'}: {best.label}, then played on"
        else:
            t, left = cast(tuple[int, tuple[int, ...]], best.detail)
            total = sets + t
            if best.value == pay.points[total] + wt.ice_value * ice:
                words = f"a set: {_buys(pay, total)}"
            else:
                n = len(left)
                words = f"a set: {_sets(total)} locked, {n} {_dice(n)} left: roll on"
        parts.append((words, chance, value))
    return parts


def _plain(turn: TurnSolution, state: State, action: object, pay: DisplayPayoff) -> tuple[Parts, str]:
    """The plain turn's parts of ``action`` (:mod:`.turn`: sets and busts only)."""
    dice, sets = state.dice_left, state.sets_locked
    if isinstance(action, Lock):
        d, s = dice - sum(map(len, action.sets)), sets + len(action.sets)
        if turn.should_roll(d, s):
            return roll_terms(turn, d, s), f"after this lock rolling on beats stopping's {turn.stop_value(d, s)}: the next roll"
        return [(_buys(pay, s), Fraction(1), turn.best_value(d, s))], "stopping is best after this lock"
    if isinstance(action, Stop):
        return [(_buys(pay, sets), Fraction(1), turn.stop_value(dice, sets))], ""
    if isinstance(action, Bust):
        return [(BUST, Fraction(1), -turn.bust_cost)], ""
    if isinstance(action, Roll):
        kept = action.freeze + ((state.yellow,) if action.freeze_yellow else ())
        return roll_terms(turn, dice, sets, kept), f"the next roll of {dice} dice, {len(kept)} frozen, then played on optimally"
    if isinstance(action, IceCream):
        kept = tuple(v for v in state.unlocked if v != action.value)
        return roll_terms(turn, dice, sets, kept), f"the dice showing {action.value} are rerolled, the others keep their values"
    return [], ""


def _order(state: State, action: object, value: Fraction) -> Breakdown:
    """An order-phase choice: certain points (the tiles bought, the cheese a flip makes)."""
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
    return _alone(str(action), value, how, "an order-phase choice")
