from collections import Counter
from fractions import Fraction
from itertools import permutations, product
from math import comb

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coffeegames.exact import D6, count_vectors, multinomial, multisets, roll


@pytest.mark.parametrize("n", range(0, 6))
def test_multisets_match_ordered_enumeration(n):
    ordered = Counter(tuple(sorted(r)) for r in product(D6, repeat=n))
    assert dict(multisets(n)) == ordered
    assert len(ordered) == comb(n + 5, 5)


@pytest.mark.parametrize("n", [0, 1, 7, 12])
def test_weights_sum_to_six_to_the_n(n):
    classes = list(count_vectors(n))
    assert len(classes) == comb(n + 5, 5)
    assert sum(w for _, w in classes) == 6**n
    assert all(sum(c) == n for c, _ in classes)


def test_repeated_faces_are_weighted():
    die = ("red", "red", "blue")
    ordered = Counter(tuple(sorted(r, key=die.index)) for r in product(die, repeat=3))
    assert dict(multisets(3, die)) == ordered


def test_mixed_dice_pool_matches_brute_force():
    white = ("W", "Y", "B", "R", "G", "K")
    black = ("W", "Y", "B", "R", "G", "*")
    dist = roll((2, white), (1, black))
    brute = Counter(tuple(sorted(r)) for r in product(white, white, black))
    assert dict(dist) == {k: Fraction(v, 6**3) for k, v in brute.items()}


@given(st.lists(st.integers(0, 3), min_size=1, max_size=4).filter(lambda c: sum(c) <= 7))
def test_multinomial_counts_arrangements(counts):
    word = [i for i, k in enumerate(counts) for _ in range(k)]
    assert multinomial(counts) == len(set(permutations(word)))


@pytest.mark.parametrize("n", [1, 3, 5])
def test_sum_of_dice_matches_icepool(n):
    ours = roll(n).map(sum)
    theirs = icepool.d6.pool(n).sum()
    total = theirs.denominator()
    assert dict(ours) == {o: Fraction(theirs.quantity(o), total) for o in theirs.outcomes()}


def test_bad_counts_are_rejected():
    with pytest.raises(ValueError, match="0 or more"):
        list(multisets(-1))
    with pytest.raises(TypeError, match="whole number"):
        list(multisets(2.5))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sequence of faces"):
        list(multisets(2, "abc"))
