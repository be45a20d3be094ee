"""Coffee Roaster draw odds against labelled brute force (exact) and scipy.stats (floats)."""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom, multivariate_hypergeom

from coffeegames.exact import Bag
from coffeegames.roaster import (
    count_dist,
    draw_table,
    effect_table,
    expected_count,
    p_any,
    p_beans_at_least,
    p_burn,
    roast_level,
    two_of_five_table,
)

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


# -- the immediate effects that draw ---------------------------------------------------------------

def _mean(bag: Bag, draws: int, value) -> Fraction:
    """The mean of ``value(drawn tokens)`` over every labelled subset (brute force)."""
    labelled = [t for t in bag for _ in range(bag[t])]
    k = min(draws, len(labelled))
    subsets = list(combinations(range(len(labelled)), k))
    return Fraction(sum(value([labelled[i] for i in s]) for s in subsets), len(subsets))


@settings(max_examples=40, deadline=None)
@given(bags, st.lists(st.sampled_from(KINDS), max_size=4), st.integers(0, 4), st.sampled_from([1, 2]))
def test_a_draw_with_a_known_part_matches_brute_force(counts, known, draws, steps):
    bag = Bag(counts)
    table = draw_table(bag, draws, steps, known)["value"]
    burns = lambda d: any(t in ("hard", "bean0", "bean1", "bean2", "bean3", "bean4") and (roast_level(t) or 0) + steps > 4 for t in d)
    assert table["tokens drawn"] == min(draws, bag.size) + len(known)
    assert table["P(a bean burns this round)"] == brute(bag, draws, lambda d: burns(d + known))
    assert table["P(at least one smoke)"] == brute(bag, draws, lambda d: "smoke" in d + known)
    assert table["P(2+ beans at level 3 or more)"] == brute(bag, draws, lambda d: sum((roast_level(t) or 0) >= 3 for t in d + known) >= 2)
    assert table["expected moisture removed"] == _mean(bag, draws, lambda d: (d + known).count("moisture"))


def test_effect_table_before_and_after_the_draw():
    bag = Bag({"bean3": 2, "bean1": 4, "smoke": 1})
    before = effect_table(bag, 3)
    assert list(before.columns) == ["draw", "with +2 tokens"]
    assert before["with +2 tokens"].equals(draw_table(bag, 5)["value"])
    after = effect_table(bag, 0, drawn=["bean4", "bean1"], returned=["bean4", "bean1"])
    assert list(after.columns) == ["as drawn", "with +2 tokens", "with 2 new tokens (return bean4 bean1)"]
    # returning the bean4 puts it back in the bag: it burns only if one of the 2 new tokens is that bean4 again
    assert after.loc["P(a bean burns this round)"].tolist() == [1, 1, brute(bag.add(["bean4", "bean1"]), 2, lambda d: "bean4" in d)]
    assert after.loc["tokens drawn"].tolist() == [2, 4, 2]
    with pytest.raises(ValueError, match="not among"):
        effect_table(bag, 0, drawn=["bean1"], returned=["bean4", "bean1"])
    with pytest.raises(ValueError, match="exactly 2"):
        effect_table(bag, 0, drawn=["bean1", "bean2", "bean3"], returned=["bean1"])
    assert "with +2 tokens" not in effect_table(Bag({"bean1": 1}), 0, drawn=["bean2"]).columns  # not with < 2 in the bag


def test_effect_table_matches_the_engines_own_draws():
    """"+2 tokens" and "2 new tokens" in the engine: each draw outcome it lists, weighed by its probability."""
    from coffeegames.roaster import Drawn, Game, NewTwo, PlusTwo, Shuffled

    s = Game(card="Zambia Kasama AA").new_initial_state().apply(Shuffled(("extra_bean", "sweetness", "choice", "exchange", "tray")))
    s = s.apply(Drawn(("hard", "hard", "hard", "moisture", "body", "acidity", "aroma")))
    table = effect_table(Bag(dict(__import__("collections").Counter(s.bag))), 0, drawn=s.drawn, returned=("hard", "hard"))
    checked = 0
    for action in s.legal_actions():
        if isinstance(action, PlusTwo) or (isinstance(action, NewTwo) and action.returned == ("hard", "hard")):
            after = s.apply(action)
            column = "with +2 tokens" if isinstance(action, PlusTwo) else "with 2 new tokens (return hard hard)"
            defect = sum((p for d, p in after.chance_outcomes() if "defect" in after.apply(d).drawn), Fraction(0))
            flavours = sum((p * sum(t in ("body", "acidity", "aroma", "wild") for t in after.apply(d).drawn)
                            for d, p in after.chance_outcomes()), Fraction(0))
            paid = len(action.paid)  # the flavour tokens paid for the effect leave the draw
            assert table.loc["P(at least one defect)", column] == defect > 0
            assert table.loc["expected flavour tokens", column] - paid == flavours
            checked += 1
    assert checked == 2


def test_two_of_five_matches_brute_force():
    bag = Bag({"smoke": 2, "defect": 1, "burnt": 1, "bean2": 4, "moisture": 2})
    table = two_of_five_table(bag)["value"]
    bad = lambda d: sum(t in ("smoke", "defect", "burnt") for t in d)
    assert table["P(at least one smoke among the 5)"] == brute(bag, 5, lambda d: "smoke" in d)
    assert table["P(a bad token to remove)"] == brute(bag, 5, lambda d: bad(d) > 0)
    assert table["expected bad tokens removed (at most 2)"] == _mean(bag, 5, lambda d: min(bad(d), 2))
    assert table["expected moisture leaving"] == _mean(bag, 5, lambda d: d.count("moisture"))
    assert two_of_five_table(Bag({"smoke": 1, "bean1": 2}))["value"]["tokens drawn"] == 3


def test_only_short_draw_lists_are_kept() -> None:
    """draw_outcomes keeps lists of at most CACHED_DRAWS draws (asked again, the same object); a round's long list is
    made anew each time (kept, they would pile up in a notebook's process), with the same draws and odds."""
    from coffeegames.roaster import CACHED_DRAWS, draw_outcome_count, draw_outcomes

    short = ("hard",) * 3 + ("smoke", "bean1")
    long = tuple(["bean0"] * 3 + ["bean1"] * 3 + ["bean2"] * 3 + ["bean3"] * 3 + ["hard"] * 3 + ["smoke", "aroma", "body"])
    assert draw_outcome_count(short, 2) <= CACHED_DRAWS < draw_outcome_count(long, 6)
    assert draw_outcomes(short, 2) is draw_outcomes(short, 2)
    first, again = draw_outcomes(long, 6), draw_outcomes(long, 6)
    assert first is not again and first == again and sum(p for _, p in first) == 1
