"""Optimal Dairyman turns against an independent solver and simulation."""

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product

import numpy as np
import pytest
from conftest import naive_packings

from coffeegames import dairyman
from coffeegames.dairyman.sets import SET_COUNTS, counts_of, dice_of
from coffeegames.engine import CHANCE, TERMINAL, Expectimax, State
from coffeegames.exact import count_vectors


@dataclass(frozen=True)
class Stop:
    pass


@dataclass(frozen=True)
class NaiveTurn(State):
    """The plain turn under the State contract, with ordered rolls and naive lock search."""

    dice_left: int
    sets: int = 0
    roll: tuple | None = None  # dice just rolled, awaiting a lock
    done: bool = False
    bust: bool = False
    pps: Fraction = Fraction(1)
    cost: Fraction = Fraction(0)

    def current_player(self):
        if self.done or self.bust:
            return TERMINAL
        return CHANCE if self.roll is None else 0

    def _chance_outcomes(self):
        p = Fraction(1, 6**self.dice_left)
        return [(r, p) for r in product(range(1, 7), repeat=self.dice_left)]

    def _legal_actions(self):
        if self.roll == "locked":
            return ["roll", Stop()] if self.dice_left else [Stop()]
        return sorted(naive_packings(self.roll) - {()})

    def _apply(self, move):
        if self.roll is None:  # chance
            if not (naive_packings(move) - {()}):
                return NaiveTurn(0, self.sets, None, False, True, self.pps, self.cost)
            return NaiveTurn(self.dice_left, self.sets, move, False, False, self.pps, self.cost)
        if move == Stop():
            return NaiveTurn(self.dice_left, self.sets, None, True, False, self.pps, self.cost)
        if move == "roll":
            return NaiveTurn(self.dice_left, self.sets, None, False, False, self.pps, self.cost)
        used = sum(map(len, move))
        return NaiveTurn(self.dice_left - used, self.sets + len(move), "locked", False, False, self.pps, self.cost)

    def returns(self):
        return (-self.cost,) if self.bust else (self.pps * self.sets,)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("pps, cost", [(1, 0), (10, 5), (1, 3)])
def test_optimal_turn_matches_naive_expectimax(n, pps, cost):
    naive = Expectimax().value(NaiveTurn(n, pps=Fraction(pps), cost=Fraction(cost)))[0]
    assert dairyman.optimal_turn(dice=n, points_per_set=pps, bust_cost=cost).value == naive


def test_small_turns_equal_mean_most_sets():
    # with at most 5 dice, rolling on after a lock never pays: lock the most sets and stop
    for n in range(2, 6):
        assert dairyman.optimal_turn(n, points_per_set=1, bust_cost=0).value == dairyman.most_sets_locked(n).mean()


def test_optimal_value_agrees_with_simulating_its_policy():
    turn = dairyman.optimal_turn(dice=8, points_per_set=1, bust_cost=1)
    scores = turn.simulate(4000, seed=8)
    assert (turn.simulate(50, seed=3) == turn.simulate(50, seed=3)).all()
    half_width = 4 * scores.std() / np.sqrt(len(scores))
    assert abs(scores.mean() - float(turn.value)) < half_width


def test_optimal_beats_every_simple_policy():
    for n in (6, 8, 12):
        table = dairyman.compare_policies(n, points_per_set=10, bust_cost=5)
        optimal = table.loc[table["policy"] == "optimal", "value"].item()
        assert table.iloc[0]["policy"] == "optimal"
        assert all(v <= optimal for v in table["value"])


def test_taking_one_set_and_stopping_scores_p_any_set():
    for n in range(2, 9):
        one_lock = dairyman.evaluate_turn(n, lock_rule=lambda c: min(c), stop_rule=lambda d, s: True, points_per_set=1, bust_cost=0)
        assert one_lock == dairyman.p_any_set(n)


def test_policy_table_and_choices():
    turn = dairyman.optimal_turn(8, points_per_set=1, bust_cost=0)
    table = turn.policy_table()
    assert set(table.stack().unique()) <= {"roll", "stop", ""}
    for d in table.index:
        for s in table.columns:
            used = 8 - d
            assert (table.loc[d, s] != "") == (2 * s <= used <= 3 * s)
            if table.loc[d, s]:
                assert (table.loc[d, s] == "roll") == (turn.roll_value(d, s) > s)
    choices = turn.choices([4, 6, 5, 5, 1, 3, 2, 2])
    assert len(choices) == len(dairyman.lock_options([4, 6, 5, 5, 1, 3, 2, 2]))
    assert choices["best"].iloc[0] and choices["value"].iloc[0] == choices["value"].max()
    assert turn.choices([1, 1, 2]).empty and turn.best_lock([1, 1, 2]) is None


def test_bad_turn_settings():
    with pytest.raises(ValueError, match="at most 12"):
        dairyman.optimal_turn(13)
    with pytest.raises(TypeError, match="exact"):
        dairyman.optimal_turn(8, points_per_set=0.5)


# -- the packed solver (issue 14) against plain methods written from the rules ---------------------------------------

PLAIN_VALUES = {  # optimal_turn(n, points_per_set=1, bust_cost=0).value, computed by the tuple-based solver before the packed one
    2: "1/12", 3: "73/216", 4: "145/216", 5: "7457/7776", 6: "85362323/60466176", 7: "997377739/544195584",
    8: "45214263331/19591041024", 9: "3396591106203187/1218719480020992", 10: "2562419879032137629/789730223053602816",
    11: "4354790468938841281231/1151426665212152905728", 12: "37464934951860618252028015/8953493748689700994940928",
}


def test_plain_turn_values_are_the_ones_before_the_packed_solver():
    assert {n: str(dairyman.optimal_turn(n, points_per_set=1, bust_cost=0).value) for n in PLAIN_VALUES} == PLAIN_VALUES


def _choices_by_position(dice):
    """(sets, dice used) of every non-empty packing, found by choosing dice by position (conftest)."""
    return frozenset((len(p), sum(map(len, p))) for p in naive_packings(dice) if p)


def test_lock_choices_and_roll_classes_match_packings_by_position():
    for n in range(8):
        grouped = {}
        for counts, w in count_vectors(n):
            choices = _choices_by_position(dice_of(counts))
            assert dairyman.lock_choices(counts) == choices
            grouped[choices] = grouped.get(choices, 0) + w
        assert dict(dairyman.roll_classes(n)) == grouped and sum(grouped.values()) == 6**n
    for roll in ([4, 6, 5, 5, 2, 3, 5, 1, 3, 6], [1, 3, 6, 2, 2, 6, 4, 4, 2, 5, 5]):
        assert dairyman.lock_choices(counts_of(roll)) == _choices_by_position(roll)


@lru_cache(maxsize=None)
def _plain_choices(counts):
    """(sets, dice used) of every non-empty lock from a count vector, by a plain recursive search on tuples."""
    found = set()
    for s in SET_COUNTS:
        if all(a <= b for a, b in zip(s, counts)):
            rest = tuple(b - a for a, b in zip(s, counts))
            found.add((1, sum(s)))
            found.update((t + 1, u + sum(s)) for t, u in _plain_choices(rest))
    return frozenset(found)


@lru_cache(maxsize=None)
def _plain_classes(d):
    grouped = {}
    for counts, w in count_vectors(d):
        c = _plain_choices(counts)
        grouped[c] = grouped.get(c, 0) + w
    return tuple(grouped.items())


def _plain_dp(n, payoff, cost):
    """The module docstring's recursion written out: rolls by count vector, locks by the plain search."""

    @lru_cache(maxsize=None)
    def best(d, s):
        return payoff[s] if d == 0 else max(payoff[s], roll(d, s))

    @lru_cache(maxsize=None)
    def roll(d, s):
        total = sum((w * (max(best(d - u, s + t) for t, u in c) if c else -cost) for c, w in _plain_classes(d)), Fraction(0))
        return total / 6**d

    return roll(n, 0)


@pytest.mark.parametrize("pps, cost", [(1, 0), (10, 5), (1, 3)])
def test_optimal_turn_matches_the_plain_recursion_for_every_dice_count(pps, cost):
    payoff = [Fraction(pps * s) for s in range(7)]
    for n in range(2, 13):
        assert dairyman.optimal_turn(n, points_per_set=pps, bust_cost=cost).value == _plain_dp(n, payoff, Fraction(cost))
    lumpy = [Fraction(p) for p in (0, 10, 10, 10, 40, 50, 50)]
    assert dairyman.optimal_turn(12, payoff=lumpy[:6]).value == _plain_dp(12, lumpy, Fraction(5))


def test_roll_value_kept_matches_rolling_the_rest_by_position():
    turn = dairyman.optimal_turn(8, points_per_set=10, bust_cost=5)
    for kept, dice_left, sets in [((5,), 3, 1), ((4, 6), 4, 0), ((1, 1, 2), 5, 1)]:
        rolling = dice_left - len(kept)
        total = Fraction(0)
        for rolled in product(range(1, 7), repeat=rolling):
            c = _choices_by_position(kept + rolled)
            total += max(turn.best_value(dice_left - u, sets + t) for t, u in c) if c else -turn.bust_cost
        assert turn.roll_value_kept(dice_left, sets, kept) == total / 6**rolling
