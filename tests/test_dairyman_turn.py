"""Optimal Dairyman turns against an independent solver and simulation."""

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from conftest import naive_packings

from coffeegames import dairyman
from coffeegames.engine import CHANCE, TERMINAL, Expectimax, State


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
