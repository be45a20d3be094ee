"""Gizmos odds against labelled brute force (exact) and scipy.stats (floats), and their bad-input errors.

The brute force is written from the rules, not from the module: marbles and cards get labels,
and every equally likely draw (a subset of labelled marbles, an ordering of the unseen cards)
is listed with itertools and counted.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom, multivariate_hypergeom

from coffeegames import gizmos
from coffeegames.errors import BadArgument, BadEntry, BadType, CoffeeGamesError, TooBig
from coffeegames.gizmos import ANY, COLOURS

dispensers = st.fixed_dictionaries({c: st.integers(0, 3) for c in COLOURS}).filter(lambda d: 0 < sum(d.values()) <= 9)


def labelled(counts: dict[str, int]) -> list[tuple[str, int]]:
    """Every marble with a label: ('red', 0), ('red', 1), ..."""
    return [(colour, i) for colour in counts for i in range(counts[colour])]


def brute(counts: dict[str, int], draws: int, event: Callable[[list[str]], bool]) -> Fraction:
    """P(event) over every equally likely set of ``draws`` labelled marbles (all of them if fewer)."""
    marbles = labelled(counts)
    hands = list(combinations(marbles, min(draws, len(marbles))))
    return Fraction(sum(bool(event([colour for colour, _ in hand])) for hand in hands), len(hands))


# -- the dispenser ---------------------------------------------------------------------------------


def test_the_dispenser_is_the_52_marbles_minus_row_and_storages() -> None:
    everything = [(colour, i) for colour in COLOURS for i in range(13)]
    row = [("red", 0), ("red", 1), ("blue", 0), ("black", 0), ("yellow", 0), ("yellow", 1)]
    storages = [[("red", 2), ("blue", 1)], [("yellow", 2)], []]
    left = Counter(colour for colour, i in set(everything) - set(row) - {m for s in storages for m in s})
    got = gizmos.dispenser_from([c for c, _ in row], [[c for c, _ in s] for s in storages])
    assert dict(got) == dict(left) and got.size == 52 - 6 - 3
    assert gizmos.dispenser_from(Counter(c for c, _ in row), [{"red": 1, "blue": 1}, {"yellow": 1}]) == got
    assert gizmos.dispenser_from([]) == gizmos.as_dispenser(dict.fromkeys(COLOURS, 13))


@settings(max_examples=40, deadline=None)
@given(dispensers, st.integers(0, 10))
def test_joint_draw_law_matches_labelled_brute_force(counts: dict[str, int], draws: int) -> None:
    dist = gizmos.draw_dist(counts, draws)
    marbles = labelled(counts)
    hands = list(combinations(marbles, min(draws, len(marbles))))
    by_multiset = Counter(tuple(sorted((c for c, _ in hand), key=COLOURS.index)) for hand in hands)
    assert dict(dist) == {hand: Fraction(n, len(hands)) for hand, n in by_multiset.items()}


@settings(max_examples=40, deadline=None)
@given(dispensers, st.integers(0, 10), st.sampled_from(COLOURS), st.integers(0, 4), st.integers(0, 3))
def test_colour_odds_match_labelled_brute_force(counts, draws, colour, cost, held) -> None:
    assert gizmos.p_at_least(counts, colour, cost, draws) == brute(counts, draws, lambda hand: hand.count(colour) >= cost)
    assert gizmos.p_can_pay(counts, colour, cost, draws, held) == brute(counts, draws, lambda hand: held + hand.count(colour) >= cost)
    assert gizmos.p_can_pay(counts, ANY, cost, draws, held) == brute(counts, draws, lambda hand: held + len(hand) >= cost)
    marbles = labelled(counts)
    hands = list(combinations(marbles, min(draws, len(marbles))))
    mean = Fraction(sum(sum(c == colour for c, _ in hand) for hand in hands), len(hands))
    assert gizmos.colour_dist(counts, colour, draws).mean() == mean


def test_draws_one_at_a_time_equal_a_draw_at_once() -> None:
    """A chain of "draw 1 random energy" effects: ordered draws, one marble at a time, nothing returned."""
    counts = {"red": 3, "blue": 2, "black": 1, "yellow": 0}
    marbles = labelled(counts)
    orders = list(permutations(marbles, 3))
    by_multiset = Counter(tuple(sorted((c for c, _ in order), key=COLOURS.index)) for order in orders)
    assert dict(gizmos.draw_dist(counts, 3)) == {hand: Fraction(n, len(orders)) for hand, n in by_multiset.items()}


def test_more_draws_than_marbles_take_them_all() -> None:
    assert gizmos.draw_dist({"red": 1, "blue": 1}, 5) == gizmos.draw_dist({"red": 1, "blue": 1}, 2)
    assert gizmos.p_can_pay({"red": 2}, "red", cost=3, draws=9) == 0 and gizmos.p_can_pay({"red": 3}, "red", cost=3, draws=9) == 1
    assert gizmos.draw_dist({}, 3)[()] == 1


def test_counts_match_scipy() -> None:
    dispenser = gizmos.dispenser_from(["red", "red", "blue", "black", "yellow", "yellow"], [["red"] * 4, ["blue", "black"]])
    total = dispenser.size
    for colour in COLOURS:
        for draws in (1, 3, 7):
            dist = gizmos.colour_dist(dispenser, colour, draws)
            for n in range(draws + 1):
                assert float(dist[n]) == pytest.approx(hypergeom.pmf(n, total, dispenser[colour], draws), abs=1e-15)
            assert float(gizmos.p_at_least(dispenser, colour, 2, draws)) == pytest.approx(hypergeom.sf(1, total, dispenser[colour], draws))
    m = [dispenser[c] for c in COLOURS]
    for hand, p in gizmos.draw_dist(dispenser, 4).items():
        assert float(p) == pytest.approx(multivariate_hypergeom.pmf(x=[hand.count(c) for c in COLOURS], m=m, n=4))


def test_pay_table_and_colour_table() -> None:
    counts = {"red": 2, "blue": 3, "black": 0, "yellow": 1}
    table = gizmos.pay_table(counts, "red", cost=2, held=1, max_draws=7)
    assert list(table.index) == list(range(8))
    assert table["P(can pay)"].tolist() == [brute(counts, k, lambda h: 1 + h.count("red") >= 2) for k in range(8)]
    assert table["P(can pay)"].is_monotonic_increasing
    colours = gizmos.colour_table(counts, 2)
    assert colours.loc["blue", "P(next draw)"] == Fraction(1, 2) and colours.loc["black", "P(at least one)"] == 0
    assert colours.loc["red", "P(at least one)"] == brute(counts, 2, lambda h: "red" in h)
    assert colours.loc["yellow", "expected"] == Fraction(2, 6)


def test_row_after_pick_matches_labelled_brute_force() -> None:
    row = ["red", "red", "blue", "black", "yellow", "yellow"]
    dispenser = {"red": 2, "blue": 0, "black": 3, "yellow": 1}
    for picked in set(row):
        rows: Counter[tuple[str, ...]] = Counter()
        for marble, _ in labelled(dispenser):  # each marble in the dispenser equally likely to refill
            after = list(row)
            after.remove(picked)
            rows[tuple(sorted(after + [marble], key=COLOURS.index))] += 1
        got = gizmos.row_after_pick(row, picked, dispenser)
        assert dict(got) == {r: Fraction(n, sum(rows.values())) for r, n in rows.items()}
    assert gizmos.row_after_pick(["red"], "red", {}) == gizmos.draw_dist({}, 0)  # an empty dispenser: the row stays short


def test_marble_text_round_trips() -> None:
    counts = {"red": 3, "blue": 0, "black": 1, "yellow": 2}
    assert gizmos.parse_marbles(gizmos.marbles_text(counts)) == counts
    assert gizmos.parse_marbles("Red red, yellow:2 black") == counts | {"red": 2}
    assert gizmos.parse_marbles("") == dict.fromkeys(COLOURS, 0)


# -- the decks -------------------------------------------------------------------------------------


def brute_research(unseen: list[Any], top: int, known: list[Any], research: int, event) -> Fraction:
    """Shuffle the unseen cards (every ordering equally likely): the first ``top`` form the deck's top, the rest
    are not in the deck (removed at setup); the known cards follow; a Research takes the first ``research``."""
    orders = list(permutations(unseen))
    hits = sum(bool(event((list(order[:top]) + known)[:research])) for order in orders)
    return Fraction(hits, len(orders))


@pytest.mark.parametrize(("unseen", "top", "known", "research"), [
    (list("abcdef"), 6, [], 3),       # levels I and II: every unseen card is in the deck
    (list("abcdef"), 3, [], 2),       # level III: half the unseen cards were removed
    (list("abcde"), 2, ["x", "a2"], 3),  # your own cards under the deck come after the unseen ones
    (list("abcde"), 1, ["a2", "x", "b2"], 9),  # a Research bigger than the deck takes all of it
    (list("abc"), 0, ["x"], 2),
])
def test_research_odds_match_shuffled_brute_force(unseen, top, known, research) -> None:
    def is_vowelish(card: str) -> bool:
        return card[0] in "ab"

    deck = top + len(known)
    for at_least in (1, 2):
        expected = brute_research(unseen, top, known, research, lambda cards: sum(map(is_vowelish, cards)) >= at_least)
        assert gizmos.p_research_shows(unseen, is_vowelish, deck, research, known, at_least=at_least) == expected
    for card in ("a", "c", "x"):
        assert gizmos.p_research_shows(unseen, card, deck, research, known) == brute_research(
            unseen, top, known, research, lambda cards: card in cards)
    dist = gizmos.research_matches(unseen, is_vowelish, deck, research, known)
    counted = gizmos.research_dist(len(unseen), sum(map(is_vowelish, unseen)), deck, research, [is_vowelish(c) for c in known])
    assert dist == counted


def test_a_given_card_shows_with_research_over_unseen() -> None:
    # level III at setup: 36 cards, 2 on display, 20 removed unseen, 14 in the deck
    unseen = list(range(34))
    assert gizmos.p_research_shows(unseen, 5, deck_size=14, research=3) == Fraction(3, 34)
    assert gizmos.p_research_shows(unseen, 5, deck_size=34, research=3) == Fraction(3, 34)  # the same: any unseen card alike
    assert gizmos.p_research_shows(unseen, 99, deck_size=14, research=3) == 0  # a card seen elsewhere
    # but a colour of 8 cards: removals leave fewer in the deck, never change the chance per draw
    red = gizmos.research_dist(34, 8, 14, 3)
    for n in range(4):
        assert float(red[n]) == pytest.approx(hypergeom.pmf(n, 34, 8, 3))


def test_research_dist_matches_scipy_for_level_iii_sizes() -> None:
    for unseen, matching, deck, research in [(34, 8, 14, 3), (30, 4, 10, 5), (36, 9, 36, 4)]:
        dist = gizmos.research_dist(unseen, matching, deck, research)
        for n in range(research + 1):
            assert float(dist[n]) == pytest.approx(hypergeom.pmf(n, unseen, matching, research), abs=1e-15)


# -- bad input -------------------------------------------------------------------------------------

BAD: list[tuple[str, Callable[[], Any], type[CoffeeGamesError], str]] = [
    ("unknown colour", lambda: gizmos.draw_dist({"green": 1}, 1), BadArgument, "dispenser"),
    ("14 of a colour", lambda: gizmos.draw_dist({"red": 14}, 1), BadArgument, "dispenser"),
    ("negative count", lambda: gizmos.draw_dist({"red": -1}, 1), BadArgument, "dispenser: count of red"),
    ("string dispenser", lambda: gizmos.draw_dist("red", 1), BadType, "dispenser"),
    ("number dispenser", lambda: gizmos.colour_table(5, 1), BadType, "dispenser"),
    ("too many draws", lambda: gizmos.draw_dist({"red": 1}, 53), TooBig, "draws"),
    ("fractional draws", lambda: gizmos.draw_dist({"red": 1}, 1.5), BadType, "draws"),
    ("bad colour asked", lambda: gizmos.p_at_least({"red": 1}, "green", 1, 1), BadArgument, "colour"),
    ("negative cost", lambda: gizmos.p_can_pay({"red": 1}, "red", -1, 1), BadArgument, "cost"),
    ("negative held", lambda: gizmos.p_can_pay({"red": 1}, "red", 1, 1, held=-2), BadArgument, "held"),
    ("row of seven", lambda: gizmos.dispenser_from(["red"] * 7), BadArgument, "row"),
    ("string storages", lambda: gizmos.dispenser_from([], "red"), BadType, "storages"),
    ("over 13 in use", lambda: gizmos.dispenser_from(["red"] * 6, [["red"] * 4, ["red"] * 4]), BadArgument, "storages"),
    ("bad storage", lambda: gizmos.dispenser_from([], [["red"], ["pink"]]), BadArgument, "storages[1]"),
    ("huge list", lambda: gizmos.dispenser_from([], [["red"] * 10**6]), TooBig, "storages[0]"),
    ("five storages", lambda: gizmos.dispenser_from([], [[]] * 5), BadArgument, "storages"),
    ("endless storages", lambda: gizmos.dispenser_from([], iter(lambda: [], None)), BadType, "storages"),
    ("pick not on row", lambda: gizmos.row_after_pick(["red"], "blue", {"red": 1}), BadArgument, "picked"),
    ("empty table", lambda: gizmos.colour_table({}, 1), BadArgument, "dispenser"),
    ("max draws", lambda: gizmos.pay_table({"red": 1}, "red", 1, max_draws=100), TooBig, "max_draws"),
    ("matching over unseen", lambda: gizmos.research_dist(3, 4, 3, 1), BadArgument, "matching"),
    ("deck over unseen", lambda: gizmos.research_dist(3, 1, 5, 1), BadArgument, "deck_size"),
    ("deck under known", lambda: gizmos.research_dist(3, 1, 1, 1, [True, False]), BadArgument, "deck_size"),
    ("huge deck", lambda: gizmos.research_dist(500, 1, 500, 1), TooBig, "unseen"),
    ("known not flags", lambda: gizmos.research_dist(3, 1, 4, 1, [1]), BadType, "known_bottom"),
    ("string pool", lambda: gizmos.p_research_shows("abc", "a", 3, 1), BadType, "pool"),
    ("huge pool", lambda: gizmos.p_research_shows(range(10**6), 1, 3, 1), TooBig, "pool"),
    ("set pool", lambda: gizmos.p_research_shows({1, 2}, 1, 2, 1), BadType, "pool"),
    ("negative research", lambda: gizmos.p_research_shows([1, 2], 1, 2, -1), BadArgument, "research"),
    ("typed marbles", lambda: gizmos.parse_marbles("red:x"), BadEntry, "marbles"),
    ("typed colour", lambda: gizmos.parse_marbles("purple"), BadEntry, "marbles"),
    ("typed too many", lambda: gizmos.parse_marbles("red:14"), BadEntry, "marbles"),
]


@pytest.mark.parametrize(("name", "call", "error", "where"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_argument(name, call, error, where) -> None:
    with pytest.raises(error) as raised:
        call()
    assert raised.value.where == where
