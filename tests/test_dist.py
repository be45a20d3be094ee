from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coffeegames.exact import Dist

weights = st.dictionaries(st.integers(-5, 5), st.integers(0, 20), min_size=1).filter(lambda d: sum(d.values()) > 0)


@given(weights)
def test_from_weights_sums_to_exactly_one(w):
    d = Dist.from_weights(w)
    assert sum(d.probabilities) == 1
    assert all(isinstance(p, Fraction) for p in d.probabilities)
    total = sum(w.values())
    for o, k in w.items():
        assert d[o] == Fraction(k, total)


@given(weights, st.integers(-5, 5))
def test_conditioning_is_bayes(w, threshold):
    d = Dist.from_weights(w)
    event = lambda x: x >= threshold  # noqa: E731
    if d.prob(event) == 0:
        with pytest.raises(ValueError, match="probability 0"):
            d.given(event)
        return
    g = d.given(event)
    for o in d:
        assert g[o] == (d[o] / d.prob(event) if event(o) else 0)


@given(weights)
def test_map_preserves_total_and_mean_of_linear_maps(w):
    d = Dist.from_weights(w)
    m = d.map(lambda x: 3 * x + 1)
    assert sum(m.probabilities) == 1
    assert m.mean() == 3 * d.mean() + 1
    assert m.variance() == 9 * d.variance()
    assert d.map(lambda x: x % 2).prob(0) == d.prob(lambda x: x % 2 == 0)


@given(weights, st.integers(-6, 6))
def test_cdf_and_at_least_complement(w, x):
    d = Dist.from_weights(w)
    assert d.cdf(x) + d.at_least(x + 1) == 1


def test_two_dice_sum_by_convolution_matches_counting():
    d6 = Dist.uniform(range(1, 7))
    total = d6 + d6
    counted = Dist.from_weights({s: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == s) for s in range(2, 13)})
    assert total == counted
    assert total[7] == Fraction(1, 6)
    assert total.mean() == 7 and total.variance() == Fraction(35, 6)


def test_to_frame_and_series():
    d = Dist.from_weights({1: 1, 2: 3})
    frame = d.to_frame()
    assert list(frame["outcome"]) == [1, 2]
    assert list(frame["probability"]) == [Fraction(1, 4), Fraction(3, 4)]
    assert list(frame["cdf"]) == [Fraction(1, 4), 1]
    assert d.to_series()[2] == Fraction(3, 4)


def test_sample_is_seeded_and_follows_the_law():
    d = Dist.from_weights({"a": 1, "b": 3})
    first = d.sample(20_000, seed=7)
    assert first == d.sample(20_000, seed=7)
    share = first.count("b") / len(first)
    assert abs(share - 0.75) < 0.02


def test_dists_are_immutable_values():
    d = Dist.from_weights({1: 1, 2: 1})
    assert hash(d) == hash(Dist({2: Fraction(1, 2), 1: Fraction(1, 2)}))
    with pytest.raises(TypeError):
        d[1] = Fraction(1)  # type: ignore[index]


@pytest.mark.parametrize(
    "bad, message",
    [
        ({1: 0.5, 2: 0.5}, "use an int or fractions.Fraction"),
        ({1: Fraction(1, 3)}, "sum to 1/3"),
        ({1: Fraction(-1), 2: Fraction(2)}, "negative"),
        ({}, "at least one outcome"),
    ],
)
def test_bad_probabilities_are_rejected(bad, message):
    with pytest.raises((TypeError, ValueError), match=message):
        Dist(bad)


def test_bad_weights_are_rejected():
    with pytest.raises(TypeError, match="must be an int"):
        Dist.from_weights({1: 1.5})
    with pytest.raises(ValueError, match="sum to 0"):
        Dist.from_weights({1: 0})
