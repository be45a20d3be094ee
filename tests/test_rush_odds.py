"""Coffee Rush's order-deck odds, each checked a second, independent way.

- the next k orders: brute force over labelled cards (itertools.combinations, or
  itertools.permutations for ordered draws), and SciPy's hypergeometric laws as floats;
- penalties: every arrival sequence enumerated with orders followed one by one by their
  tab (written from the rules, not from the module's tab counts), the closed form for
  completing nothing, and a seeded simulation;
- the deck running out: every sequence of draws enumerated, and SciPy's binomial law.

The decks here are small and built by the tests (the engine owns the real deck's data).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations, product
from math import prod

import numpy as np
import pytest
from scipy.stats import binom, hypergeom, multivariate_hypergeom

from coffeegames.errors import BadArgument, BadType, CoffeeGamesError, TooBig
from coffeegames.exact import Dist
from coffeegames.rush import (
    as_deck,
    cards_left_dist,
    count_dist,
    count_law,
    deck_ingredients,
    deck_table,
    expected_penalties,
    group_dist,
    ingredient_dist,
    is_specialty,
    next_orders,
    order_ingredients,
    p_deck_runs_out,
    p_needs,
    penalty_dist,
    penalty_table,
    size_dist,
    specialty_dist,
    units_dist,
    unseen_deck,
)

SPECIALTY = {"tea", "chocolate", "caramel", "water"}

DECK_A = {
    ("coffee", "milk"): 3,
    ("milk", "tea"): 2,
    ("coffee", "ice", "steam"): 1,
    ("caramel", "chocolate", "milk", "steam"): 1,
    ("milk", "milk", "water"): 1,
}
DECK_B = {
    ("ice", "tea"): 1,
    ("coffee", "coffee"): 2,
    ("caramel", "milk", "steam"): 2,
    ("coffee", "ice", "milk", "water"): 1,
}
DECKS = {"A": DECK_A, "B": DECK_B}


# -- brute force over labelled cards ------------------------------------------------------------

def cards(deck):
    """Every card of the deck, told apart by a label: (label, ingredients)."""
    return [(f"{'+'.join(order)}#{i}", order) for order, n in deck.items() for i in range(n)]


def hands(deck, k):
    """Every set of k labelled cards: the equally likely next k orders."""
    return list(combinations(cards(deck), k))


def law(outcomes):
    """The exact law of a list of equally likely outcomes."""
    counted = Counter(outcomes)
    return {o: Fraction(n, len(outcomes)) for o, n in counted.items()}


def needs(card, ingredient):
    return ingredient in card[1]


CASES = [(name, k) for name, deck in DECKS.items() for k in range(sum(deck.values()) + 1)]


@pytest.mark.parametrize(("name", "k"), CASES)
def test_ingredient_units_and_specialty_laws_match_labelled_hands(name, k):
    deck = DECKS[name]
    every = hands(deck, k)
    ingredients = sorted({i for order in deck for i in order})
    assert list(deck_ingredients(deck)) == ingredients
    for ingredient in ingredients:
        assert dict(ingredient_dist(deck, ingredient, k)) == law([sum(needs(c, ingredient) for c in h) for h in every])
        assert dict(units_dist(deck, ingredient, k)) == law([sum(c[1].count(ingredient) for c in h) for h in every])
    special = law([sum(any(i in SPECIALTY for i in c[1]) for c in h) for h in every])
    assert dict(specialty_dist(deck, SPECIALTY, k)) == special


@pytest.mark.parametrize(("name", "k"), CASES)
def test_sizes_and_whole_multisets_match_ordered_draws(name, k):
    """Ordered draws (permutations) give the same law as the unordered hand."""
    deck = DECKS[name]
    draws = list(permutations(cards(deck), k))
    assert dict(size_dist(deck, k)) == law([tuple(sorted(len(c[1]) for c in d)) for d in draws])
    assert dict(next_orders(deck, k)) == law([tuple(sorted(c[1] for c in d)) for d in draws])
    assert dict(group_dist(deck, lambda order: order[0], k)) == law([tuple(sorted(c[1][0] for c in d)) for d in draws])


@pytest.mark.parametrize(("name", "k"), CASES)
@pytest.mark.parametrize("held", [["milk"], ["tea", "steam"], ["ice"], ["water", "caramel", "coffee"], []])
def test_p_needs_matches_labelled_hands(name, k, held):
    deck = DECKS[name]
    every = hands(deck, k)
    hits = sum(any(i in held for c in h for i in c[1]) for h in every)
    assert p_needs(deck, held, k) == Fraction(hits, len(every))
    assert p_needs(deck, set(held), k) == p_needs(deck, tuple(held), k)


@pytest.mark.parametrize("k", range(0, 9))
def test_count_dist_by_kinds_and_by_predicate(k):
    every = hands(DECK_A, k)
    kinds = [("coffee", "milk"), ("milk", "tea")]
    brute = law([sum(c[1] in kinds for c in h) for h in every])
    assert dict(count_dist(DECK_A, kinds, k)) == brute
    assert dict(count_dist(DECK_A, lambda order: order in kinds, k)) == brute


@pytest.mark.parametrize(("name", "k"), CASES)
def test_deck_table_matches_labelled_hands(name, k):
    deck = DECKS[name]
    every = hands(deck, k) if k else [()]
    table = deck_table(deck, k, SPECIALTY)
    assert list(table.index) == list(deck_ingredients(deck))
    for ingredient, row in table.iterrows():
        assert row["specialty"] == (ingredient in SPECIALTY)
        assert row["P(needed)"] == Fraction(sum(any(needs(c, ingredient) for c in h) for h in every), len(every))
        assert row["E[orders]"] == Fraction(sum(needs(c, ingredient) for h in every for c in h), len(every))
        assert row["E[units]"] == Fraction(sum(c[1].count(ingredient) for h in every for c in h), len(every))


@pytest.mark.parametrize("k", range(0, 9))
def test_hypergeometric_laws_agree_with_scipy(k):
    total = sum(DECK_A.values())
    for ingredient in ("milk", "coffee", "steam"):
        good = sum(n for order, n in DECK_A.items() if ingredient in order)
        exact = ingredient_dist(DECK_A, ingredient, k)
        for i in range(k + 1):
            assert float(exact[i]) == pytest.approx(hypergeom(total, good, k).pmf(i), rel=1e-12, abs=1e-15)
    by_size = Counter()
    for order, n in DECK_A.items():
        by_size[len(order)] += n
    sizes = sorted(by_size)
    scipy_law = multivariate_hypergeom(m=[by_size[s] for s in sizes], n=k)
    for outcome, p in size_dist(DECK_A, k).items():
        assert float(p) == pytest.approx(scipy_law.pmf([outcome.count(s) for s in sizes]), rel=1e-12)


def test_the_next_order_alone():
    """One order: every share is the share of the deck."""
    total = sum(DECK_A.values())
    assert p_needs(DECK_A, ["tea"]) == Fraction(2, total)
    assert specialty_dist(DECK_A, SPECIALTY, 1)[1] == Fraction(4, total)
    assert size_dist(DECK_A, 1) == Dist.from_weights({(2,): 5, (3,): 2, (4,): 1})


def test_specialty_is_needing_a_specialty_ingredient():
    assert is_specialty(("coffee", "water"), SPECIALTY) and not is_specialty(("coffee", "milk"), SPECIALTY)
    assert is_specialty(("coffee", "milk"), ["milk"])  # the set is a parameter


def test_orders_may_be_objects_with_ingredients():
    class Card:
        def __init__(self, *names):
            self.ingredients = names

        def __hash__(self):
            return hash(self.ingredients)

        def __eq__(self, other):
            return isinstance(other, Card) and other.ingredients == self.ingredients

    as_objects = {Card(*order): n for order, n in DECK_B.items()}
    for k in range(4):
        assert ingredient_dist(as_objects, "coffee", k) == ingredient_dist(DECK_B, "coffee", k)
        assert size_dist(as_objects, k) == size_dist(DECK_B, k)
    assert order_ingredients({"milk": 2, "coffee": 1}) == ("coffee", "milk", "milk")


def test_unseen_deck_takes_out_what_the_table_shows():
    seen = [("coffee", "milk"), ("milk", "tea"), ("coffee", "milk")]
    expected = Counter(DECK_A)
    expected.subtract(seen)
    assert dict(unseen_deck(DECK_A, seen)) == {o: n for o, n in expected.items() if n}
    assert unseen_deck(DECK_A, []) == as_deck(DECK_A)
    assert unseen_deck(DECK_A, [["tea", "milk"]]) == unseen_deck(DECK_A, [("milk", "tea")])  # any ingredient order


# -- penalties ahead: orders followed one by one --------------------------------------------------

def brute_penalties(tabs, rounds, arrivals, completes, extra):
    """The penalty law by following each order's tab through every arrival sequence (the rules, read afresh)."""
    chances = {n: Fraction(w) for n, w in arrivals.items()}
    total = sum(chances.values())
    out = Counter()
    for seq in product(sorted(chances), repeat=max(0, rounds - 1)):
        p = prod((chances[n] / total for n in seq), start=Fraction(1))
        orders = [tab for tab, n in enumerate(tabs, start=1) for _ in range(n)]  # one entry per order: its tab
        penalties = 0
        for turn in range(rounds):
            if turn:
                orders += [1] * seq[turn - 1]        # Too Many Orders: onto tab 1 before my turn
            orders.sort(reverse=True)
            orders = orders[completes:]              # complete the oldest orders first
            orders = [tab + 1 for tab in orders]     # Flow of Time
            penalties += sum(tab > 4 for tab in orders)
            orders = [tab for tab in orders if tab <= 4]
            orders += [1] * extra                    # the two-player rule's extra order
        out[penalties] += p
    return dict(out)


PENALTY_CASES = [
    ((1, 0, 0, 1), 4, {0: 1}, 0, 0),
    ((2, 1, 0, 0), 6, {0: 1, 1: 1}, 0, 1),
    ((2, 1, 0, 0), 6, {0: 1, 1: 1}, 1, 1),
    ((1, 1, 0, 0), 7, {0: 2, 1: 2, 2: 1}, 1, 0),
    ((0, 2, 1, 2), 5, {0: 1, 2: 1, 3: 1}, 1, 0),
    ((3, 0, 2, 0), 6, {1: 1, 2: 3}, 2, 1),
    ((0, 0, 0, 0), 0, {1: 1}, 1, 0),
    ((0, 0, 2, 1), 2, {0: 1}, 1, 0),
]


@pytest.mark.parametrize(("tabs", "rounds", "arrivals", "completes", "extra"), PENALTY_CASES)
def test_penalty_law_matches_orders_followed_one_by_one(tabs, rounds, arrivals, completes, extra):
    exact = penalty_dist(tabs, rounds, arrivals, completes, extra)
    assert dict(exact) == brute_penalties(tabs, rounds, arrivals, completes, extra)
    assert expected_penalties(tabs, rounds, arrivals, completes, extra) == exact.mean()


@pytest.mark.parametrize("tabs", [(0, 0, 0, 0), (2, 1, 0, 0), (1, 1, 1, 1), (0, 3, 0, 2)])
@pytest.mark.parametrize("rounds", range(0, 9))
@pytest.mark.parametrize(("arrivals", "mean"), [(0, 0), (2, 2), ({0: 1, 1: 1, 2: 2}, Fraction(5, 4))])
@pytest.mark.parametrize("extra", [0, 1])
def test_completing_nothing_has_a_closed_form(tabs, rounds, arrivals, mean, extra):
    """An order on tab t falls at turn 5 − t; one arriving after turn j falls at turn j + 4."""
    on_the_table = sum(n for t, n in enumerate(tabs, start=1) if t >= 5 - rounds)
    assert expected_penalties(tabs, rounds, arrivals, 0, extra) == on_the_table + max(0, rounds - 4) * (mean + extra)


def test_completing_one_a_turn_never_takes_more_penalties():
    for tabs, rounds, arrivals, _, extra in PENALTY_CASES:
        nothing = expected_penalties(tabs, rounds, arrivals, 0, extra)
        assert expected_penalties(tabs, rounds, arrivals, 1, extra) <= nothing
    long_one = expected_penalties((2, 1, 0, 0), 40, {0: 2, 1: 2, 2: 1}, 1)   # the longest horizon allowed
    assert 0 < long_one < expected_penalties((2, 1, 0, 0), 40, {0: 2, 1: 2, 2: 1}, 0) == 3 + 36 * Fraction(4, 5)
    table = penalty_table((2, 1, 0, 0), 8, {0: 1, 1: 1}, extra=1)
    assert list(table.index) == list(range(1, 9))
    assert (table["complete one a turn"] <= table["complete nothing"]).all()
    assert table.loc[8, "complete one a turn"] == expected_penalties((2, 1, 0, 0), 8, {0: 1, 1: 1}, 1, 1)


@pytest.mark.parametrize("completes", [0, 1])
def test_penalty_expectation_beside_a_seeded_simulation(completes):
    """Tabs as numpy counts, arrivals sampled: the mean lands within 4 standard errors of the exact value."""
    tabs, rounds, weights, extra = (2, 1, 1, 0), 10, {0: 1, 1: 2, 2: 1}, 1
    exact = expected_penalties(tabs, rounds, weights, completes, extra)
    rng = np.random.default_rng(11)
    trials = 20_000
    values = np.array(sorted(weights))
    chances = np.array([weights[v] for v in values], dtype=float) / sum(weights.values())
    board = np.tile(np.array(tabs), (trials, 1))
    taken = np.zeros(trials, dtype=int)
    for turn in range(rounds):
        if turn:
            board[:, 0] += rng.choice(values, size=trials, p=chances)
        left = np.full(trials, completes)
        for tab in (3, 2, 1, 0):
            done = np.minimum(left, board[:, tab])
            board[:, tab] -= done
            left -= done
        taken += board[:, 3]
        board = np.column_stack([np.full(trials, extra), board[:, :3]])
    se = taken.std(ddof=1) / np.sqrt(trials)
    assert abs(taken.mean() - float(exact)) < 4 * se + 1e-12


# -- the deck running out ------------------------------------------------------------------------

def brute_cards_left(size, rounds, draws):
    total = sum(draws.values())
    out = Counter()
    for seq in product(sorted(draws), repeat=rounds):
        out[max(0, size - sum(seq))] += prod((Fraction(draws[d], total) for d in seq), start=Fraction(1))
    return dict(out)


@pytest.mark.parametrize("size", [0, 1, 5, 9, 14])
@pytest.mark.parametrize("rounds", range(0, 6))
@pytest.mark.parametrize("draws", [{1: 1}, {1: 2, 2: 1}, {0: 1, 2: 1, 3: 2}, {3: 1, 4: 5}])
def test_cards_left_matches_every_sequence_of_draws(size, rounds, draws):
    exact = cards_left_dist(size, rounds, draws)
    assert dict(exact) == brute_cards_left(size, rounds, draws)
    assert p_deck_runs_out(size, rounds, draws) == exact[0]


@pytest.mark.parametrize(("size", "rounds"), [(20, 12), (80, 40), (60, 45), (30, 21)])
def test_running_out_agrees_with_scipy_binomial(size, rounds):
    """One card a round, plus one more with chance 1/3: r + Binomial(r, 1/3) cards in r rounds."""
    exact = p_deck_runs_out(size, rounds, {1: 2, 2: 1})
    assert float(exact) == pytest.approx(binom.sf(size - rounds - 1, rounds, 1 / 3), rel=1e-9, abs=1e-15)


def test_a_fixed_draw_runs_out_on_schedule():
    assert [p_deck_runs_out(10, r, 3) for r in range(5)] == [0, 0, 0, 0, 1]
    assert p_deck_runs_out(0, 0, 3) == 1
    assert cards_left_dist(10, 2, Dist.uniform([2, 3])) == cards_left_dist(10, 2, {2: Fraction(1, 2), 3: Fraction(1, 2)})


# -- bad input -------------------------------------------------------------------------------

BAD = [
    (lambda: p_needs([("coffee", "milk")], ["milk"]), BadType, "deck"),
    (lambda: p_needs({("coffee", "milk"): 1.5}, ["milk"]), BadType, "whole number"),
    (lambda: p_needs({("coffee", "milk"): -1}, ["milk"]), BadArgument, "0 or more"),
    (lambda: p_needs(DECK_A, "milk"), BadType, "letter by letter"),
    (lambda: p_needs(DECK_A, [3]), BadType, "ingredient names are strings"),
    (lambda: p_needs({"milk-coffee": 2}, ["milk"]), BadType, "tuple of ingredient names"),
    (lambda: p_needs(DECK_A, ["milk"], k=9), BadArgument, "the deck holds 8 orders"),
    (lambda: p_needs(DECK_A, ["milk"], k=-1), BadArgument, "must be 0-8"),
    (lambda: p_needs(DECK_A, ["milk"], k=1.0), BadType, "whole number"),
    (lambda: ingredient_dist(DECK_A, ["milk"], 1), BadType, "ingredient"),
    (lambda: specialty_dist(DECK_A, "tea", 1), BadType, "specialty"),
    (lambda: count_dist(DECK_A, "coffee", 1), BadType, "match"),
    (lambda: group_dist(DECK_A, "len", 1), BadType, "key"),
    (lambda: group_dist(DECK_A, list, 1), BadType, "hashable group"),
    (lambda: as_deck({("coffee", "milk"): 10_001}), TooBig, "at most 10,000"),
    (lambda: next_orders({(f"i{n}", "milk"): 2 for n in range(40)}, 20), TooBig, "possible multisets"),
    (lambda: next_orders({(f"i{n}", "milk"): 1 for n in range(20)}, 10), TooBig, "more than 100,000"),  # C(20, 10) = 184,756
    (lambda: group_dist({(f"i{n}", "milk"): 1 for n in range(20)}, lambda order: order, 10), TooBig, "groupings"),
    (lambda: unseen_deck(DECK_A, [("tea", "water")]), BadArgument, "not in the deck's make-up"),
    (lambda: unseen_deck(DECK_A, [("milk", "water", "milk")] * 2), BadArgument, "not left in the deck (all 1 seen)"),
    (lambda: unseen_deck(DECK_A, [{"milk": 2}]), BadType, "seen"),
    (lambda: unseen_deck(DECK_A, "coffee"), BadType, "seen"),
    (lambda: penalty_dist((1, 0, 0), 3), BadArgument, "must hold 4 numbers"),
    (lambda: penalty_dist("1000", 3), BadType, "tabs"),
    (lambda: penalty_dist((1, 0, 0, -1), 3), BadArgument, "tabs[3]"),
    (lambda: penalty_dist((1, 0, 0, 0), 41), TooBig, "rounds"),
    (lambda: penalty_dist((1, 0, 0, 0), 3, completes=-1), BadArgument, "completes"),
    (lambda: penalty_dist((1, 0, 0, 0), 3, arrivals={0: 0.5, 1: 0.5}), BadType, "floats are not exact"),
    (lambda: penalty_dist((1, 0, 0, 0), 3, arrivals={0: Fraction(1, 2), 1: Fraction(1, 3)}), BadArgument, "sum to 5/6"),
    (lambda: penalty_dist((1, 0, 0, 0), 3, arrivals={0: 0, 1: 0}), BadArgument, "sum to 0"),
    (lambda: penalty_dist((1, 0, 0, 0), 3, arrivals={-1: 1}), BadArgument, "0-12"),
    (lambda: penalty_dist((1, 0, 0, 0), 3, arrivals=13), TooBig, "0-12"),
    (lambda: penalty_dist((1, 0, 0, 0), 3, arrivals="two"), BadType, "arrivals"),
    (lambda: penalty_dist((1, 0, 0, 0), 30, arrivals={n: 1 for n in range(13)}), TooBig, "positions"),
    (lambda: p_deck_runs_out(80, 1001, 1), TooBig, "rounds"),
    (lambda: p_deck_runs_out(10_000, 1000, {1: 1, 2: 1}), TooBig, "steps"),
    (lambda: p_deck_runs_out(-1, 3, 1), BadArgument, "deck_size"),
    (lambda: p_deck_runs_out(10, 3, {101: 1}), TooBig, "draws"),
]


@pytest.mark.parametrize(("call", "error", "says"), BAD)
def test_bad_input_is_refused_with_a_clear_error(call, error, says):
    with pytest.raises(error) as raised:
        call()
    assert isinstance(raised.value, CoffeeGamesError) and says in str(raised.value)


def test_count_law_reads_each_form():
    assert count_law(2, "x", 5) == Dist.certain(2)
    assert count_law({0: 1, 1: 3}, "x", 5) == count_law({0: Fraction(1, 4), 1: Fraction(3, 4)}, "x", 5)
    assert count_law(Dist.uniform([0, 1]), "x", 5) == Dist.uniform([0, 1])


def test_a_question_just_under_the_outcome_limit_is_listed_whole():
    deck = {(f"i{n}", "milk"): 1 for n in range(17)}  # C(17, 8) = 24,310 multisets: listed, each once
    law = next_orders(deck, 8)
    assert len(law) == 24_310 and set(law.values()) == {Fraction(1, 24_310)}
