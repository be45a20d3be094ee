from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coffeegames.exact import Bag

bags = st.dictionaries(st.sampled_from("abcd"), st.integers(0, 4), min_size=1).filter(lambda d: 0 < sum(d.values()) <= 9)


def brute_draws(bag: Bag, k: int) -> dict[tuple, Fraction]:
    """Label every token, take every k-subset, and count the multisets seen."""
    order = list(bag)
    labelled = [(t, i) for t in bag for i in range(bag[t])]
    seen = Counter(tuple(sorted((t for t, _ in c), key=order.index)) for c in combinations(labelled, k))
    total = comb(len(labelled), k)
    return {m: Fraction(w, total) for m, w in seen.items()}


@given(bags, st.data())
def test_draws_match_labelled_enumeration(counts, data):
    bag = Bag(counts)
    k = data.draw(st.integers(0, bag.size))
    assert dict(bag.draw(k)) == brute_draws(bag, k)
    assert sum(w for _, w in bag.draw_weights(k)) == comb(bag.size, k)


@given(bags)
def test_drawing_the_whole_bag_is_certain(counts):
    bag = Bag(counts)
    whole = bag.draw(bag.size)
    assert len(whole) == 1
    (only,) = whole.outcomes
    assert Counter(only) == Counter({t: n for t, n in counts.items() if n})


@given(bags, st.data())
def test_count_dist_is_marginal_of_draw(counts, data):
    bag = Bag(counts)
    k = data.draw(st.integers(0, bag.size))
    token = data.draw(st.sampled_from(sorted(bag)))
    marginal = bag.draw(k).map(lambda m: m.count(token))
    assert bag.count_dist(token, k) == marginal
    assert bag.p_at_least(token, 1, k) == marginal.at_least(1)


def test_p_draw_and_remove():
    bag = Bag({"bean": 3, "smoke": 2})
    assert bag.p_draw(["bean", "smoke"]) == Fraction(3 * 2, comb(5, 2))
    assert bag.remove(["smoke", "smoke"]) == Bag({"bean": 3})
    assert bag.add(["burnt"])["burnt"] == 1
    assert bag.size == 5


@given(bags, st.lists(st.sampled_from("abce"), max_size=4), st.data())
def test_add_and_remove_equal_a_bag_counted_afresh(counts: dict, extra: list, data: st.DataObject) -> None:
    """``add`` and ``remove`` build their result without checking it again: it must be the bag the checked
    constructor counts from the tokens themselves (same counts, no kind at zero, same hash, same kinds' order on add)."""
    bag, tokens = Bag(counts), [t for t, n in counts.items() for _ in range(n)]
    added, afresh = bag.add(extra), Bag(tokens + extra)
    assert added == afresh and list(added.items()) == list(afresh.items()) and hash(added) == hash(afresh)
    taken = data.draw(st.lists(st.sampled_from(tokens), max_size=len(tokens)).filter(
        lambda some: all(some.count(t) <= tokens.count(t) for t in some)))
    left = Counter(tokens) - Counter(taken)
    removed = bag.remove(taken)
    assert removed == Bag(dict(left)) and hash(removed) == hash(Bag(dict(left))) and 0 not in removed.values()
    assert removed.size == len(tokens) - len(taken)


def test_bad_bags_and_draws_are_rejected():
    with pytest.raises(ValueError, match="cannot draw 6 tokens from a bag of 5"):
        Bag({"a": 5}).draw(6)
    with pytest.raises(ValueError, match="cannot take 'b' out"):
        Bag({"a": 1}).remove(["b"])
    with pytest.raises(ValueError, match="0 or more"):
        Bag({"a": -1})
