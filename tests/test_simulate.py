from fractions import Fraction

import numpy as np
import pytest

from coffeegames.exact import estimate, face_counts, roll, roll_array, running_estimate


def two_dice_sum_seven(trials_rng, trials):
    return roll_array(trials_rng, trials, dice=2)


def test_estimate_is_seeded_and_covers_the_exact_answer():
    event = lambda rolls: rolls.sum(axis=1) == 7  # noqa: E731
    a = estimate(two_dice_sum_seven, event, trials=50_000, seed=3)
    b = estimate(two_dice_sum_seven, event, trials=50_000, seed=3)
    assert a == b
    exact = roll(2).map(sum)[7]
    assert exact == Fraction(1, 6)
    assert a.contains(exact)
    assert a.low < a.p < a.high


def test_batches_do_not_change_the_count_of_trials():
    event = lambda rolls: rolls[:, 0] == 6  # noqa: E731
    est = estimate(lambda r, n: roll_array(r, n, 1), event, trials=1_001, batch=100, seed=1)
    assert est.trials == 1_001


def test_face_counts():
    rolls = np.array([[1, 1, 6], [2, 3, 4]])
    assert face_counts(rolls).tolist() == [[2, 0, 0, 0, 0, 1], [0, 1, 1, 1, 0, 0]]


def test_running_estimate_converges():
    path = running_estimate(lambda r, n: roll_array(r, n, 1), lambda x: x[:, 0] <= 2, trials=40_000, seed=5)
    assert path.shape == (40_000,)
    assert abs(path[-1] - 1 / 3) < 0.01


def test_bad_simulation_settings():
    with pytest.raises(ValueError, match="at least 1"):
        estimate(two_dice_sum_seven, lambda r: r[:, 0] == 1, trials=0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        estimate(two_dice_sum_seven, lambda r: r[:, 0] == 1, trials=10, confidence=1.5)
