"""VivaJava's colour-dice odds against ordered brute force, the multiset core and simulation."""

from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from coffeegames import vivajava
from coffeegames.errors import BadArgument
from coffeegames.exact import Dist, roll
from coffeegames.vivajava import COFFEE_DIE, COLOURS, FLAVOUR_DIE, NO_BLEND, Blend, best_blend_of, is_rainbow
from coffeegames.vivajava import (
    best_blend,
    meter_table,
    omniblend_groups,
    p_at_least,
    p_beats,
    p_rainbow,
    p_reroll_beats,
    research,
    sacchar_success,
)


def ordered(coffee, flavour, f):
    """The law of f(roll) over every ordered roll of the coffee and flavour dice."""
    faces = [COFFEE_DIE] * coffee + [FLAVOUR_DIE] * flavour
    return Dist.from_weights(Counter(f(r) for r in product(*faces)))


@pytest.mark.parametrize("white, flavour", [(0, 0), (1, 0), (2, 1), (3, 0), (3, 2), (2, 3), (0, 4)])
def test_best_blend_and_rainbow_match_ordered_brute_force(white, flavour):
    assert best_blend(white, flavour) == ordered(white, flavour, best_blend_of)
    assert vivajava.rainbow(white, flavour) == ordered(white, flavour, is_rainbow)


@pytest.mark.parametrize("white, flavour", [(5, 0), (5, 2), (6, 3)])
def test_best_blend_matches_the_multiset_core(white, flavour):
    pool = roll((white, COFFEE_DIE), (flavour, FLAVOUR_DIE))
    assert best_blend(white, flavour) == pool.map(best_blend_of)
    assert p_rainbow(white, flavour) == pool.prob(is_rainbow)


def test_research_matches_brute_force():
    for colour in ("red", "black"):
        for jokers in (True, False):
            brute = ordered(2, 2, lambda r: min(5, sum(f == colour or (jokers and f == "joker") for f in r)))
            assert research(colour, 2, 2, jokers_count=jokers) == brute


def test_ten_white_and_five_flavour_against_simulation():
    rng = np.random.default_rng(11)
    faces_w, faces_f = np.array(COFFEE_DIE), np.array(FLAVOUR_DIE)
    trials = 6000
    rolls = np.concatenate([faces_w[rng.integers(0, 6, (trials, 10))], faces_f[rng.integers(0, 6, (trials, 5))]], axis=1)
    sizes = np.array([best_blend_of(r).size for r in rolls.tolist()])
    exact = {s: float(best_blend(10, 5).prob(lambda b, s=s: b.size == s)) for s in (3, 4, 5)}
    for s, p in exact.items():
        share = (sizes == s).mean()
        assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / trials) + 1e-9, (s, share, p)


def test_distributions_sum_to_one_and_totals():
    for white in range(0, 11):
        for flavour in range(0, 6):
            d = best_blend(white, flavour)
            assert sum(d.probabilities) == 1
    counts, weights = vivajava.colour_table(10, 5)
    assert int(weights.sum()) == 6**15 and (counts.sum(axis=1) == 15).all()


def test_beats_and_keep_or_reroll():
    regular_red = Blend.of(3, "red")
    d = best_blend(5, 1)
    assert p_beats(regular_red, 5, 1) == d.prob(lambda b: b > regular_red)
    assert p_beats(NO_BLEND, 5, 0) == 1 - best_blend(5, 0)[NO_BLEND]
    # re-rolling two dice can at best make a pair: it never beats a kept Regular
    assert p_reroll_beats(Blend.of(3, "white"), 2) == 0
    assert p_reroll_beats(Blend.of(2, "white"), 2) == Fraction(5, 36)  # any pair but white-white
    assert p_at_least(2, 5, 0) == 1 - Fraction(6 * 5 * 4 * 3 * 2, 6**5)


def _omniblend_by_multisets(meter, takes_rainbow=False, way="seed"):
    """The keep-best-reroll chain by explicit multisets of colours (no symmetry argument); a Rainbow only on the
    first roll, a first roll of three alike ends the roll but with ``way="always"``, ``"stop_at_blend"`` stops at
    any three alike."""
    state = {}
    for r, p in roll((5, COFFEE_DIE)).items():
        state[(r, True)] = state.get((r, True), 0) + p
    for _ in range(meter):
        nxt = {}
        for (r, first), p in state.items():
            colour, size = Counter(r).most_common(1)[0]
            stops = size >= 3 and (way == "stop_at_blend" or (way == "seed" and first))
            if stops or size == 5 or (first and takes_rainbow and len(set(r)) == 5):
                nxt[(r, first)] = nxt.get((r, first), 0) + p
                continue
            kept = (colour,) * size
            for again, q in roll((5 - size, COFFEE_DIE)).items():
                key = (tuple(sorted(kept + again)), False)
                nxt[key] = nxt.get(key, 0) + p * q
        state = nxt
    return Dist(state).map(lambda rf: min(5, Counter(rf[0]).most_common(1)[0][1]))


@pytest.mark.parametrize("meter", [0, 1, 2, 3])
@pytest.mark.parametrize("takes_rainbow", [False, True])
@pytest.mark.parametrize("way", ["seed", "stop_at_blend", "always"])
def test_omniblend_chain_matches_explicit_rerolls(meter, takes_rainbow, way):
    expected = _omniblend_by_multisets(meter, takes_rainbow, way)
    assert omniblend_groups(meter, takes_rainbow=takes_rainbow, omniblend_rerolls=way) == expected


def test_meter_table_is_monotone_and_sacchar_matches_p_at_least():
    table = meter_table()
    assert list(table["p_omniblend"]) == sorted(table["p_omniblend"])
    assert list(table["p_sacchar"]) == sorted(table["p_sacchar"])
    assert sacchar_success(2) == p_at_least(3, coffee_dice=5, flavour=2)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: best_blend(11, 0), ValueError, "at most 10"),
        (lambda: best_blend(5, 6), ValueError, "at most 5"),
        (lambda: best_blend(-1, 0), ValueError, "0 or more"),
        (lambda: research("purple"), ValueError, "unknown colour 'purple'"),
        (lambda: p_beats("Regular red"), TypeError, "expected a Blend"),
        (lambda: Blend.of(6, "red"), ValueError, "2 to 5 dice"),
        (lambda: best_blend_of(["red", "blue"]), ValueError, "'blue' is not a face"),
        (lambda: best_blend_of("red"), TypeError, "list of face names"),
    ],
)
def test_bad_input_gets_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


OLD_NAME_CALLS = [
    (best_blend, ()), (vivajava.largest_group, ()), (p_at_least, (3,)), (p_beats, (Blend.of(3, "red"),)),
    (vivajava.rainbow, ()), (p_rainbow, ()), (research, ("red",)), (vivajava.research_table, ()),
    (vivajava.blend_table, ()), (vivajava.colour_table, ()),
]


@pytest.mark.parametrize("func, args", OLD_NAME_CALLS, ids=[f.__name__ for f, _ in OLD_NAME_CALLS])
def test_the_old_keyword_white_gives_the_same_exact_numbers_with_a_warning(func, args):
    new = func(*args, coffee_dice=4, flavour=1)
    with pytest.warns(DeprecationWarning, match=rf"{func.__name__}\(white=...\) is deprecated: say coffee_dice="):
        old = func(*args, white=4, flavour=1)
    if isinstance(new, tuple):  # colour_table: numpy arrays
        assert all((a == b).all() for a, b in zip(old, new))
    elif hasattr(new, "equals"):  # tables
        assert old.equals(new)
    else:
        assert old == new
    with pytest.raises(BadArgument, match="argument 'white': is the old name of 'coffee_dice'"):
        func(*args, coffee_dice=4, white=4)
    with pytest.raises(BadArgument, match="argument 'white'"):
        func(*args, 4, white=4)  # the new name given by position


def test_colours_rank_in_order():
    assert COLOURS == ("white", "yellow", "brown", "red", "green", "black")
    assert "black" not in FLAVOUR_DIE
