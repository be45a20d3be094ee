"""Coffee Roaster draw odds against labelled brute force (exact) and scipy.stats (floats)."""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom, multivariate_hypergeom

from coffeegames.exact import Bag
from coffeegames.roaster import count_dist, draw_table, expected_count, p_any, p_beans_at_least, p_burn
from coffeegames.roaster.tokens import roast_level

KINDS = ["hard", "bean0", "bean1", "bean2", "bean3", "bean4", "burnt", "moisture", "smoke", "defect", "body"]
bags = st.dictionaries(st.sampled_from(KINDS), st.integers(0, 3), min_size=1).filter(lambda d: 0 < sum(d.values()) <= 10)


def brute(bag: Bag, draws: int, event) -> Fraction:
    """Label every token, take every subset of the drawn size, count those where the event holds."""
    labelled = [t for t in bag for _ in range(bag[t])]
    k = min(draws, len(labelled))
    subsets = list(combinations(range(len(labelled)), k))
    return Fraction(sum(bool(event([labelled[i] for i in s])) for s in subsets), len(subsets))


@settings(max_examples=60, deadline=None)
@given(bags, st.integers(0, 12))
def test_named_odds_match_labelled_brute_force(counts, draws):
    bag = Bag(counts)
    assert p_any(bag, ["smoke", "defect"], draws) == brute(bag, draws, lambda d: "smoke" in d or "defect" in d)
    assert p_burn(bag, draws) == brute(bag, draws, lambda d: any(roast_level(t) == 4 for t in d))
    assert p_burn(bag, draws, steps=2) == brute(bag, draws, lambda d: any((roast_level(t) or 0) >= 3 for t in d))
    assert p_beans_at_least(bag, 2, 2, draws) == brute(bag, draws, lambda d: sum((roast_level(t) or 0) >= 2 for t in d) >= 2)


@pytest.mark.parametrize("good, total, draws", [(3, 10, 4), (1, 7, 7), (5, 12, 3)])
def test_count_dist_matches_scipy_hypergeom(good, total, draws):
    bag = Bag({"moisture": good, "bean1": total - good})
    d = count_dist(bag, ["moisture"], draws)
    for k, p in d.items():
        assert float(p) == pytest.approx(hypergeom.pmf(k, total, good, draws))
    assert expected_count(bag, ["moisture"], draws) == Fraction(draws * good, total)


def test_joint_draw_matches_scipy_multivariate_hypergeom():
    bag = Bag({"bean2": 4, "smoke": 2, "moisture": 3})
    kinds = list(bag)
    for draw, p in bag.draw(4).items():
        x = [draw.count(t) for t in kinds]
        assert float(p) == pytest.approx(multivariate_hypergeom.pmf(x=x, m=[bag[t] for t in kinds], n=4))


def test_drawing_more_than_the_bag_takes_it_all():
    bag = Bag({"smoke": 1, "bean1": 2})
    assert p_any(bag, ["smoke"], draws=8) == 1
    assert draw_table(bag, 8).loc["tokens drawn", "value"] == 3


def test_burning_follows_the_roast_rule():
    bag = Bag({"bean3": 1, "hard": 5})
    assert p_burn(bag, 1) == 0  # a level-3 bean roasts to 4
    assert p_burn(bag, 1, steps=2) == Fraction(1, 6)  # on a crack space it burns; hard beans only reach 0
