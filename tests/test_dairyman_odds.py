"""Dairyman's set odds against independent methods: ordered brute force, icepool, simulation."""

from collections import Counter
from fractions import Fraction
from itertools import product

import icepool
import numpy as np
import pytest
from conftest import naive_has_set, naive_most, naive_packings
from hypothesis import given, settings
from hypothesis import strategies as st

from coffeegames import dairyman
from coffeegames.exact import Dist, count_vectors

D6 = range(1, 7)


def brute(n: int, frozen=(), measure=naive_has_set) -> Dist:
    """The law of measure(roll) over all 6**n ordered rolls, next to frozen dice."""
    return Dist.from_weights(Counter(measure(tuple(frozen) + r) for r in product(D6, repeat=n)))


def test_sets_are_exactly_the_pairs_and_triples_summing_to_ten():
    expected = {tuple(sorted(c)) for k in (2, 3) for c in product(D6, repeat=k) if sum(c) == 10}
    assert set(dairyman.SETS) == expected
    assert len(dairyman.SETS) == 8


@pytest.mark.parametrize("n", range(0, 7))
def test_p_any_set_matches_ordered_brute_force(n):
    assert dairyman.p_any_set(n) == brute(n)[True]
    assert dairyman.p_any_set(n) + dairyman.p_bust(n) == 1


@pytest.mark.parametrize("n, frozen", [(1, [5]), (2, [4]), (3, [1, 3]), (4, [6]), (2, [2, 2])])
def test_p_any_set_with_frozen_dice_matches_brute_force(n, frozen):
    assert dairyman.p_any_set(n, frozen) == brute(n, frozen)[True]


@pytest.mark.parametrize("n", range(0, 6))
def test_most_locked_distributions_match_brute_force(n):
    assert dairyman.most_dice_locked(n) == brute(n, measure=lambda r: naive_most(r)[0])
    assert dairyman.most_sets_locked(n) == brute(n, measure=lambda r: naive_most(r)[1])


def _icepool_dist(n: int, f) -> dict:
    die = icepool.d6.pool(n).expand().map(f)
    total = die.denominator()
    return {o: Fraction(die.quantity(o), total) for o in die.outcomes()}


@pytest.mark.parametrize("n", [2, 4, 7])
def test_matches_icepool(n):
    ours = {o: p for o, p in dairyman.most_dice_locked(n).items()}
    assert _icepool_dist(n, lambda roll: naive_most(roll)[0]) == ours
    assert _icepool_dist(n, naive_has_set).get(True, 0) == dairyman.p_any_set(n)


@pytest.mark.parametrize("n, frozen", [(3, []), (6, []), (12, []), (4, [5, 5])])
def test_simulation_interval_contains_the_exact_answer(n, frozen):
    est = dairyman.simulate_p_any_set(n, frozen, trials=60_000, seed=2024)
    assert est.contains(dairyman.p_any_set(n, frozen)), (est, dairyman.p_any_set(n, frozen))


@pytest.mark.parametrize("n", range(0, 13))
def test_every_distribution_sums_to_one_up_to_twelve_dice(n):
    for dist in (dairyman.most_dice_locked(n), dairyman.most_sets_locked(n)):
        assert sum(dist.probabilities) == 1
        assert max(dist.outcomes) <= n
    # more dice never hurt: at least one set gets likelier with every die added
    if n:
        assert dairyman.p_any_set(n) >= dairyman.p_any_set(n - 1)


def test_most_sets_for_twelve_dice_can_reach_six():
    assert dairyman.most_sets_locked(12)[6] > 0  # e.g. six pairs 5+5 ... or 4+6
    assert dairyman.most_dice_locked(12)[12] > 0


rolls = st.lists(st.integers(1, 6), min_size=0, max_size=8)


@settings(max_examples=60, deadline=None)
@given(rolls)
def test_lock_options_are_every_packing_once(roll):
    options = dairyman.lock_options(roll)
    expected = naive_packings(roll) - {()}
    found = [tuple(sorted(o.sets)) for o in options]
    assert sorted(found) == sorted(expected)
    assert len(set(found)) == len(found)
    for o in options:
        assert sorted(o.left + tuple(v for s in o.sets for v in s)) == sorted(roll)
        assert o.p_bust_next == dairyman.p_bust(len(o.left))
    assert (options == []) == (not naive_has_set(roll))


def test_lock_table_rows_and_order():
    table = dairyman.lock_table([4, 6, 5, 5, 1, 3])
    assert len(table) == len(dairyman.lock_options([4, 6, 5, 5, 1, 3]))
    assert table.iloc[0]["n_sets"] == 2
    assert list(table["n_sets"]) == sorted(table["n_sets"], reverse=True)
    assert dairyman.lock_table([1, 1, 2]).empty


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=5), st.integers(1, 6))
def test_ice_cream_reroll_matches_brute_force(roll, value):
    kept = [v for v in roll if v != value]
    k = len(roll) - len(kept)
    expected = Fraction(sum(not naive_has_set(kept + list(r)) for r in product(D6, repeat=k)), 6**k)
    assert dairyman.reroll_p_bust(roll, value) == expected


def test_reroll_table_lists_each_ability():
    table = dairyman.reroll_table([1, 1, 2, 3])
    assert table.iloc[0]["p_bust"] == 1  # 1 1 2 3 has no set as it stands
    assert table.iloc[0]["value"] is None
    rows = {v: (tiles, p) for v, tiles, p in zip(table["value"], table["ice_cream"], table["p_bust"])}
    assert rows[1] == ("reroll-1s or chosen-value tile", dairyman.reroll_p_bust([1, 1, 2, 3], 1))
    assert rows[3][0] == "chosen-value tile"
    assert list(rows) == [None, 1, 2, 3]  # each value showing once; no 6 to reroll


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: dairyman.p_any_set(-1), ValueError, "0 or more"),
        (lambda: dairyman.p_any_set(2.5), TypeError, "whole number"),
        (lambda: dairyman.p_any_set(13), ValueError, "at most 12"),
        (lambda: dairyman.p_any_set(11, frozen=[5, 5]), ValueError, "more than Dairyman's 12 dice"),
        (lambda: dairyman.p_any_set(3, frozen=[7]), ValueError, "die values must be 1-6"),
        (lambda: dairyman.lock_options([4, 6, 0]), ValueError, "die values must be 1-6"),
        (lambda: dairyman.lock_options("4 6"), TypeError, "list of die values"),
        (lambda: dairyman.lock_options(46), TypeError, "list of die values"),
        (lambda: dairyman.lock_options([4, "6"]), TypeError, "whole numbers 1-6"),
        (lambda: dairyman.reroll_p_bust([1, 2], 9), ValueError, "reroll value"),
    ],
)
def test_bad_input_gets_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("n", range(0, 7))
def test_vectorised_set_check_matches_has_set_on_every_roll(n):
    rolls = [c for c, _ in count_vectors(n)]
    found = dairyman.has_set_array(np.array(rolls, dtype=np.int16).reshape(len(rolls), 6))
    assert found.tolist() == [dairyman.has_set(c) for c in rolls]
