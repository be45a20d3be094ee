"""Coffee Rush's order deck, exactly: what the next orders need, penalties ahead, the deck running out.

Nothing here depends on the engine. **The deck** is what has not been seen: the deck's
make-up minus every order on the table (on the tabs, completed, penalised), given as a
mapping order → count (:func:`unseen_deck` subtracts the seen orders). **An order** is a
sorted tuple of ingredient names, ``("coffee", "milk", "milk")``, or any object with an
``ingredients`` tuple; the functions that only count (:func:`count_dist`,
:func:`group_dist`, :func:`next_orders`) take any hashable order kind.

Drawing the next k orders is drawing without replacement: each set of k of the deck's
cards is equally likely, so "how many of them need milk" is hypergeometric and "how many
of each size" multivariate hypergeometric (:class:`coffeegames.exact.Bag`).

**Specialty** (a Ruling, docs/rules/rush.md): an order is Specialty when it needs a
specialty ingredient, one of the board's 1-space ingredients (tea leaves, chocolate,
caramel, water in the published game); the set is always a parameter, ``specialty``.

**Penalties** (:func:`penalty_dist`) follow the rules' tabs: orders sit on tabs 1-4; your
turn completes some orders, then Flow of Time moves every order one tab down and one
pushed off tab 4 is a penalty card; in a two-player game one more order then goes onto
tab 1 (``extra=1``); between two of your turns the opponents' completions send orders onto
your tab 1 by Too Many Orders (``arrivals``, a number or a law). The model and what is
exact are stated in :func:`penalty_dist`.

Example:
    >>> deck = {("coffee", "milk"): 3, ("coffee", "tea"): 1, ("milk", "steam", "tea"): 2}
    >>> p_needs(deck, ["tea"])                       # the next order needs tea
    Fraction(1, 2)
    >>> ingredient_dist(deck, "milk", 2)[2]          # both of the next two need milk
    Fraction(2, 3)
    >>> size_dist(deck, 2)[(2, 3)]                   # one 2-ingredient and one 3-ingredient order
    Fraction(8, 15)
    >>> expected_penalties((1, 0, 0, 1), rounds=4)   # tab 4 falls at once, tab 1 at turn 4
    Fraction(2, 1)
    >>> p_deck_runs_out(8, rounds=3, draws={2: 1, 3: 1})    # 2 or 3 cards a round, evenly
    Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from math import comb, lcm
from typing import Any, TypeAlias

import pandas as pd

from ..errors import BadArgument, BadType, TooBig, shown
from ..exact import Bag, Dist
from ..validate import is_whole

__all__ = [
    "CountLaw",
    "Deck",
    "MAX_ARRIVALS",
    "MAX_COMPLETES",
    "MAX_DECK",
    "MAX_DECK_ROUNDS",
    "MAX_DECK_WORK",
    "MAX_DRAWS_PER_ROUND",
    "MAX_OUTCOMES",
    "MAX_PENALTY_STATES",
    "MAX_ROUNDS",
    "MAX_TAB",
    "Match",
    "Order",
    "TABS",
    "as_deck",
    "cards_left_dist",
    "count_dist",
    "count_law",
    "deck_ingredients",
    "deck_table",
    "expected_penalties",
    "group_dist",
    "ingredient_dist",
    "is_specialty",
    "next_orders",
    "order_ingredients",
    "p_deck_runs_out",
    "p_needs",
    "penalty_dist",
    "penalty_table",
    "size_dist",
    "specialty_dist",
    "units_dist",
    "unseen_deck",
]

Order: TypeAlias = Hashable
"""An order kind: a sorted tuple of ingredient names, an object with ``ingredients``, or any hashable label."""
Deck: TypeAlias = Mapping[Any, int]
"""The deck: order kind → how many of it are left unseen (keys typed ``Any``: a mapping's key type is invariant)."""
Match: TypeAlias = Callable[[Any], bool] | Iterable[Hashable]
"""Which orders count: a predicate on an order, or a collection of order kinds."""
CountLaw: TypeAlias = int | Mapping[int, int] | Mapping[int, Fraction] | Dist
"""A whole number that varies by chance: a fixed number, a :class:`Dist`, or a mapping number → weight
(whole numbers, relative) or → probability (Fractions summing to 1)."""

TABS = 4
"""Order tabs on a player board (Rule): orders move from tab 1 towards tab 4, then off it as penalties."""
MAX_DECK = 10_000
"""A deck of more orders than this is refused (the published deck has 80)."""
MAX_OUTCOMES = 100_000
"""Distributions with more outcomes than this are refused before they are listed."""
MAX_ROUNDS = 40
"""Penalties are computed over at most this many of your turns."""
MAX_TAB = 80
"""At most this many orders on one tab (the published deck has 80 cards)."""
MAX_ARRIVALS = 12
"""At most this many orders arrive on your tab 1 between two of your turns (or are added after one)."""
MAX_COMPLETES = 12
"""At most this many orders completed in one turn."""
MAX_PENALTY_STATES = 200_000
"""The penalty computation's bound on (tabs, penalties) positions, checked before it starts."""
MAX_DECK_ROUNDS = 1_000
"""The deck's run-out chance is computed over at most this many rounds."""
MAX_DRAWS_PER_ROUND = 100
"""At most this many cards drawn in one round."""
MAX_DECK_WORK = 2_000_000
"""rounds × (deck size + 1) × the draws law's outcomes may not exceed this (checked before work)."""


# -- the deck and its orders -------------------------------------------------------------------

def as_deck(deck: Deck, where: str = "deck") -> Bag:
    """``deck`` (order → count) checked, as a :class:`~coffeegames.exact.Bag` with its orders sorted.

    >>> as_deck({("milk", "tea"): 1, ("coffee", "milk"): 2, ("ice", "water"): 0})
    Bag({('coffee', 'milk'): 2, ('milk', 'tea'): 1})
    >>> as_deck({("milk", "tea"): -1})
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: argument "deck[('milk', 'tea')]": a count must be 0 or more; got -1
    """
    if not isinstance(deck, Mapping):
        raise BadType(where, "must be a mapping order → count, e.g. {('coffee', 'milk'): 3}", deck)
    if len(deck) > MAX_DECK:
        raise TooBig(where, f"has {len(deck):,} kinds of order; at most {MAX_DECK:,} are allowed")
    counts: dict[Any, int] = {}  # Any: sorted() below tries comparing the kinds
    for order, n in deck.items():
        if not is_whole(n):
            raise BadType(f"{where}[{shown(order, 40)}]", "a count must be a whole number", n)
        if n < 0:
            raise BadArgument(f"{where}[{shown(order, 40)}]", "a count must be 0 or more", n)
        if n:
            counts[order] = n
    total = sum(counts.values())
    if total > MAX_DECK:
        raise TooBig(where, f"holds {total:,} orders; at most {MAX_DECK:,} are allowed")
    try:
        kinds = sorted(counts)
    except TypeError:  # order kinds that do not compare: a stable order by their text
        kinds = sorted(counts, key=repr)
    return Bag({kind: counts[kind] for kind in kinds})


def unseen_deck(makeup: Deck, seen: Iterable[Order]) -> Bag:
    """The deck as the other players' odds see it: the ``makeup`` minus every order ``seen`` on the table.

    >>> unseen_deck({("coffee", "milk"): 3, ("milk", "tea"): 1}, [("milk", "tea"), ("coffee", "milk")])
    Bag({('coffee', 'milk'): 2})
    """
    deck = as_deck(makeup, "makeup")
    if isinstance(seen, (str, bytes)) or not isinstance(seen, Iterable):
        raise BadType("seen", "must be a list of orders, e.g. [('coffee', 'milk')]", seen)
    left = dict(deck)
    for order in seen:
        if isinstance(order, (tuple, list)) and all(isinstance(name, str) for name in order):
            order = tuple(sorted(order))  # an order written in any order of its ingredients
        try:
            there = left.get(order, 0)
        except TypeError:  # unhashable: cannot be an order of the deck
            raise BadType("seen", "each seen order must be an order of the deck, e.g. ('coffee', 'milk')", order) from None
        if there == 0:
            why = "is not in the deck's make-up" if deck[order] == 0 else f"is not left in the deck (all {deck[order]} seen)"
            raise BadArgument("seen", f"{shown(order, 60)} {why}", order)
        left[order] -= 1
    return as_deck(left)


def order_ingredients(order: Any, where: str = "order") -> tuple[str, ...]:
    """The ingredients an order needs, sorted, repeats kept: the order itself, or its ``ingredients``.

    >>> order_ingredients(("milk", "coffee", "milk"))
    ('coffee', 'milk', 'milk')
    """
    found = getattr(order, "ingredients", order)
    if isinstance(found, Mapping):  # ingredient → how many
        found = [name for name, n in found.items() if is_whole(n) and n > 0 for _ in range(n)]
    if isinstance(found, (str, bytes)) or not isinstance(found, (tuple, list)) or not all(
            isinstance(name, str) for name in found):
        raise BadType(where, "an order must be a tuple of ingredient names such as ('coffee', 'milk'), "
                      "or have such an 'ingredients' attribute", order)
    return tuple(sorted(found))


def _ingredient_orders(deck: Deck, where: str = "deck") -> dict[Order, tuple[str, ...]]:
    """Each order of a checked deck with its ingredients (every order is checked, naming the deck)."""
    return {order: order_ingredients(order, f"{where} order {shown(order, 40)}") for order in deck}


def deck_ingredients(deck: Deck) -> tuple[str, ...]:
    """Every ingredient some order of the deck needs, sorted.

    >>> deck_ingredients({("coffee", "milk"): 3, ("milk", "tea"): 1})
    ('coffee', 'milk', 'tea')
    """
    return tuple(sorted({name for names in _ingredient_orders(as_deck(deck)).values() for name in names}))


def _names(value: Any, where: str) -> frozenset[str]:
    """A collection of ingredient names (a string alone is refused: it would be read letter by letter)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise BadType(where, "must be a list of ingredient names such as ['tea', 'chocolate'] "
                      "(a string would be read letter by letter)", value)
    names = frozenset(value)
    for name in names:
        if not isinstance(name, str):
            raise BadType(where, "ingredient names are strings", name)
    return names


def is_specialty(order: Any, specialty: Iterable[str]) -> bool:
    """Whether ``order`` is a Specialty order: it needs one of the ``specialty`` ingredients (a Ruling).

    >>> is_specialty(("caramel", "coffee"), {"caramel", "tea"}), is_specialty(("coffee", "milk"), {"caramel"})
    (True, False)
    """
    return not _names(specialty, "specialty").isdisjoint(order_ingredients(order))


def _draws(deck: Bag, k: Any, where: str = "k") -> int:
    """``k`` orders can be drawn from ``deck``: a whole number 0..its size."""
    if not is_whole(k):
        raise BadType(where, "the number of orders drawn must be a whole number", k)
    if not 0 <= k <= deck.size:
        raise BadArgument(where, f"must be 0-{deck.size}: the deck holds {deck.size} orders", k)
    return k


def _matcher(match: Any) -> Callable[[Any], bool]:
    if callable(match):
        return match
    if isinstance(match, (str, bytes)) or not isinstance(match, Iterable):
        raise BadType("match", "must be a predicate on orders or a list of order kinds", match)
    kinds = set(match)
    return kinds.__contains__


def _multiset_count(counts: Iterable[int], k: int) -> int:
    """How many distinct multisets of ``k`` items a collection with these counts per kind has (none listed)."""
    ways = [1] + [0] * k
    for n in counts:
        running, new = 0, []
        for j in range(k + 1):  # new[j] = ways[j] + ways[j-1] + ... + ways[j-n]
            running += ways[j] - (ways[j - n - 1] if j - n - 1 >= 0 else 0)
            new.append(running)
        ways = new
    return ways[k]


# -- the next k orders -------------------------------------------------------------------------

def count_dist(deck: Deck, match: Match, k: int) -> Dist:
    """How many of the next ``k`` orders match (a predicate, or a list of order kinds): hypergeometric.

    >>> count_dist({"a": 2, "b": 3}, ["a"], 2)
    Dist({0: 3/10, 1: 3/5, 2: 1/10})
    """
    bag = as_deck(deck)
    k, test = _draws(bag, k), _matcher(match)
    good, total = sum(n for order, n in bag.items() if test(order)), bag.size
    return Dist.from_weights({i: comb(good, i) * comb(total - good, k - i) for i in range(min(good, k) + 1)})


def group_dist(deck: Deck, key: Callable[[Any], Hashable], k: int) -> Dist:
    """The next ``k`` orders grouped by ``key(order)``: the multivariate hypergeometric law, each outcome
    the sorted tuple of the ``k`` keys.

    >>> group_dist({"a1": 1, "a2": 1, "b": 2}, lambda order: order[0], 2)
    Dist({('a', 'a'): 1/6, ('a', 'b'): 2/3, ('b', 'b'): 1/6})
    """
    bag = as_deck(deck)
    k = _draws(bag, k)
    if not callable(key):
        raise BadType("key", "must be a function of an order, e.g. len", key)
    grouped: dict[Hashable, int] = {}
    for order, n in bag.items():
        label = key(order)
        grouped[label] = grouped.get(label, 0) + n
    outcomes = _multiset_count(grouped.values(), k)
    if outcomes > MAX_OUTCOMES:
        raise TooBig("k", f"the next {k} orders fall into {outcomes:,} groupings; at most {MAX_OUTCOMES:,} are listed")
    return as_deck(grouped, "groups").draw(k)


def next_orders(deck: Deck, k: int) -> Dist:
    """The exact law of the next ``k`` orders as a multiset (a tuple of orders, in the deck's order).

    >>> next_orders({("coffee", "milk"): 2, ("milk", "tea"): 1}, 2)[(("coffee", "milk"), ("milk", "tea"))]
    Fraction(2, 3)
    """
    bag = as_deck(deck)
    k = _draws(bag, k)
    outcomes = _multiset_count(bag.values(), k)
    if outcomes > MAX_OUTCOMES:
        raise TooBig("k", f"the next {k} orders have {outcomes:,} possible multisets; at most {MAX_OUTCOMES:,} "
                     "are listed (count_dist and group_dist answer questions about them without listing)")
    return bag.draw(k)


def ingredient_dist(deck: Deck, ingredient: str, k: int) -> Dist:
    """How many of the next ``k`` orders need ``ingredient`` (at least one of it).

    >>> ingredient_dist({("coffee", "milk"): 1, ("ice", "tea"): 1}, "milk", 1)
    Dist({0: 1/2, 1: 1/2})
    """
    bag = as_deck(deck)
    if not isinstance(ingredient, str):
        raise BadType("ingredient", "must be an ingredient name such as 'milk'", ingredient)
    needs = _ingredient_orders(bag)
    return count_dist(bag, lambda order: ingredient in needs[order], k)


def units_dist(deck: Deck, ingredient: str, k: int) -> Dist:
    """How many units of ``ingredient`` the next ``k`` orders need in all (an order may need two milk).

    >>> units_dist({("milk", "milk"): 1, ("coffee", "milk"): 1, ("coffee", "tea"): 1}, "milk", 2)
    Dist({1: 1/3, 2: 1/3, 3: 1/3})
    """
    bag = as_deck(deck)
    if not isinstance(ingredient, str):
        raise BadType("ingredient", "must be an ingredient name such as 'milk'", ingredient)
    needs = _ingredient_orders(bag)
    return group_dist(bag, lambda order: needs[order].count(ingredient), k).map(sum)


def size_dist(deck: Deck, k: int) -> Dist:
    """The sizes (2-4 ingredients) of the next ``k`` orders, as a sorted tuple.

    >>> size_dist({("coffee", "milk"): 1, ("coffee", "ice", "milk"): 1, ("ice", "milk", "milk", "tea"): 1}, 1)
    Dist({(2,): 1/3, (3,): 1/3, (4,): 1/3})
    """
    bag = as_deck(deck)
    needs = _ingredient_orders(bag)
    return group_dist(bag, lambda order: len(needs[order]), k)


def specialty_dist(deck: Deck, specialty: Iterable[str], k: int) -> Dist:
    """How many of the next ``k`` orders are Specialty (need one of the ``specialty`` ingredients).

    >>> specialty_dist({("coffee", "milk"): 2, ("caramel", "milk"): 1}, ["caramel"], 2)
    Dist({0: 1/3, 1: 2/3})
    """
    bag = as_deck(deck)
    special = _names(specialty, "specialty")
    needs = _ingredient_orders(bag)
    return count_dist(bag, lambda order: not special.isdisjoint(needs[order]), k)


def p_needs(deck: Deck, held: Iterable[str], k: int = 1) -> Fraction:
    """P(at least one of the next ``k`` orders needs an ingredient you hold). With ``k=1``: a new order does.

    >>> p_needs({("coffee", "milk"): 2, ("ice", "tea"): 2}, ["milk", "steam"], k=2)
    Fraction(5, 6)
    """
    bag = as_deck(deck)
    hold = _names(held, "held")
    needs = _ingredient_orders(bag)
    return count_dist(bag, lambda order: not hold.isdisjoint(needs[order]), k).at_least(1)


def deck_table(deck: Deck, k: int = 1, specialty: Iterable[str] = ()) -> pd.DataFrame:
    """Per ingredient of the deck, what the next ``k`` orders need, as exact Fractions.

    Columns: ``specialty`` (is it one of ``specialty``), ``P(needed)`` (at least one of the
    next ``k`` orders needs it), ``E[orders]`` (how many of them need it, on average),
    ``E[units]`` (how many units of it they need in all, on average).

    >>> table = deck_table({("coffee", "milk"): 1, ("milk", "milk", "tea"): 1}, 1, ["tea"])
    >>> table.loc["milk", ["P(needed)", "E[orders]", "E[units]"]].tolist(), bool(table.loc["tea", "specialty"])
    ([Fraction(1, 1), Fraction(1, 1), Fraction(3, 2)], True)
    """
    bag = as_deck(deck)
    k, special = _draws(bag, k), _names(specialty, "specialty")
    needs = _ingredient_orders(bag)
    rows = {}
    for name in sorted({n for names in needs.values() for n in names}):
        wanted = count_dist(bag, lambda order: name in needs[order], k)
        units = sum(n * needs[order].count(name) for order, n in bag.items())
        rows[name] = {"specialty": name in special, "P(needed)": wanted.at_least(1), "E[orders]": wanted.mean(),
                      "E[units]": k * Fraction(units, bag.size)}
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=["specialty", "P(needed)", "E[orders]", "E[units]"])
    frame.index.name = "ingredient"
    return frame.astype({"specialty": bool, "P(needed)": object, "E[orders]": object, "E[units]": object})


# -- laws of counts given by the caller --------------------------------------------------------

def count_law(value: Any, where: str, high: int) -> Dist:
    """A whole number 0..``high`` that varies by chance, as a :class:`Dist`: a fixed number, a Dist, or a mapping
    number → weight (whole numbers) or → probability (Fractions summing to 1).

    >>> count_law({0: 1, 2: 3}, "arrivals", 12)
    Dist({0: 1/4, 2: 3/4})
    >>> count_law(1, "arrivals", 12)
    Dist({1: 1})
    """
    allowed = (f"must be a whole number 0-{high}, or a mapping number → weight (whole numbers) or → probability "
               "(Fractions summing to 1)")
    if is_whole(value):
        law = Dist.certain(value)
    elif isinstance(value, Dist):
        law = value
    elif isinstance(value, Mapping):
        if len(value) > high + 1:
            raise TooBig(where, f"has {len(value)} outcomes; at most {high + 1} (the numbers 0-{high})")
        chances = list(value.values())
        if chances and all(isinstance(p, (int, Fraction)) and not isinstance(p, bool) for p in chances):
            if any(p < 0 for p in chances):
                raise BadArgument(where, "weights and probabilities must be 0 or more", value)
            if any(isinstance(p, Fraction) and p.denominator != 1 for p in chances):
                if sum(chances) != 1:
                    raise BadArgument(where, f"probabilities sum to {sum(chances)}, not 1", value)
                law = Dist({n: Fraction(p) for n, p in value.items()})
            elif sum(chances) == 0:
                raise BadArgument(where, "weights sum to 0: some outcome needs a positive weight", value)
            else:
                law = Dist.from_weights({n: int(p) for n, p in value.items()})
        else:
            raise BadType(where, allowed + " (floats are not exact)", value)
    else:
        raise BadType(where, allowed, value)
    for n in law:
        if not is_whole(n) or n < 0:
            raise BadArgument(where, f"its outcomes must be whole numbers 0-{high}", n)
        if n > high:
            raise TooBig(where, f"its outcomes must be whole numbers 0-{high}", n)
    return law


def _weights(law: Dist) -> dict[int, int]:
    """``law`` as whole-number weights over a common denominator (exact, and far quicker to multiply than Fractions)."""
    denominator = lcm(*(p.denominator for p in law.values()))
    return {n: int(p * denominator) for n, p in law.items()}


def _whole(value: Any, where: str, high: int, low: int = 0) -> int:
    if not is_whole(value):
        raise BadType(where, f"must be a whole number {low}-{high}", value)
    if value < low:
        raise BadArgument(where, f"must be a whole number {low}-{high}", value)
    if value > high:
        raise TooBig(where, f"must be a whole number {low}-{high}", value)
    return value


# -- penalties ahead ---------------------------------------------------------------------------

def _tabs(tabs: Any) -> tuple[int, ...]:
    if isinstance(tabs, (str, bytes)) or not isinstance(tabs, (tuple, list)):
        raise BadType("tabs", f"must be a list of {TABS} whole numbers: the orders on tabs 1-{TABS}", tabs)
    if len(tabs) != TABS:
        raise BadArgument("tabs", f"must hold {TABS} numbers, the orders on tabs 1-{TABS}; got {len(tabs)}", tabs)
    return tuple(_whole(n, f"tabs[{i}]", MAX_TAB) for i, n in enumerate(tabs))


def _turn(tabs: tuple[int, ...], completes: int, extra: int) -> tuple[tuple[int, ...], int]:
    """One of your turns: complete up to ``completes`` orders, oldest (highest tab) first; Flow of Time; then
    ``extra`` orders onto tab 1. Returns the new tabs and the penalty cards taken."""
    left, done = list(tabs), completes
    for i in reversed(range(TABS)):
        taken = min(done, left[i])
        left[i] -= taken
        done -= taken
    return (extra, *left[:-1]), left[-1]


def penalty_dist(tabs: tuple[int, ...] | list[int], rounds: int, arrivals: CountLaw = 0, completes: int = 0,
                 extra: int = 0) -> Dist:
    """The exact law of the penalty cards you take over your next ``rounds`` turns, under a stated model.

    **The model.** ``tabs`` are the orders on your tabs 1-4 as your turn starts. Each of your
    turns: (1) you complete ``completes`` orders if you hold that many (0: you complete
    nothing; 1: one a turn), the oldest first (those on the highest tab, nearest to falling
    off: the choice that takes fewest penalties); (2) Flow of Time moves every order one tab
    down, and each order pushed off tab 4 is one penalty card; (3) ``extra`` orders go onto
    tab 1 (the two-player rule: ``extra=1``; 0 with 3-4 players). Between two of your turns,
    the opponents' completions send orders onto your tab 1 by Too Many Orders: their number
    is ``arrivals`` (a fixed number, or a law such as ``{0: 2, 1: 2, 2: 1}``), drawn
    independently for each gap between turns (the model's assumption: in play it depends on
    the opponents' boards). The deck is assumed not to run short in these rounds (see
    :func:`p_deck_runs_out`) and the game to go on (5 penalty cards or an empty deck would
    close it); which orders arrive does not matter, only how many.

    **What is exact.** Given the model, every answer is exact (a Markov chain over the tabs,
    each arrival count weighted by its probability). With ``completes=0`` it has a closed
    form: an order on tab t falls off at your turn 5 − t, and an order arriving between your
    turns j and j + 1 (or added after turn j) falls off at turn j + 4, so the expected count is
    (orders on tabs 5 − rounds..4) + max(0, rounds − 4) × (E[arrivals] + extra).

    >>> penalty_dist((0, 0, 2, 1), rounds=2, completes=1)   # turn 2: one of the two on tab 4 falls
    Dist({1: 1})
    >>> penalty_dist((2, 1, 0, 0), rounds=6, arrivals={0: 1, 1: 1}, extra=1).mean()  # 3 + 2 × (1/2 + 1)
    Fraction(6, 1)
    """
    start = _tabs(tabs)
    rounds = _whole(rounds, "rounds", MAX_ROUNDS)
    law = count_law(arrivals, "arrivals", MAX_ARRIVALS)
    completes = _whole(completes, "completes", MAX_COMPLETES)
    extra = _whole(extra, "extra", MAX_ARRIVALS)
    gaps = max(0, rounds - 1)
    most = sum(start) + gaps * max(law) + rounds * extra  # no more penalties than orders ever held
    tab_most = max(*start, max(law) + extra)  # no tab ever holds more (orders only move on or leave)
    bound = min(len(law) ** gaps, (tab_most + 1) ** TABS) * (most + 1)
    if bound > MAX_PENALTY_STATES:
        raise TooBig("arrivals", f"{len(law)} arrival counts over {rounds} turns could reach {bound:,} positions; "
                     f"at most {MAX_PENALTY_STATES:,} are allowed (fewer rounds or arrival counts)")
    weights = _weights(law)
    positions: dict[tuple[tuple[int, ...], int], int] = {(start, 0): 1}  # (tabs, penalties) → weight
    for turn in range(rounds):
        if turn:
            arrived: dict[tuple[tuple[int, ...], int], int] = {}
            for (held, taken), w in positions.items():
                for n, v in weights.items():
                    key = ((held[0] + n, *held[1:]), taken)
                    arrived[key] = arrived.get(key, 0) + w * v
            positions = arrived
        after: dict[tuple[tuple[int, ...], int], int] = {}
        for (held, taken), w in positions.items():
            new, fell = _turn(held, completes, extra)
            key = (new, taken + fell)
            after[key] = after.get(key, 0) + w
        positions = after
    penalties: dict[int, int] = {}
    for (_, taken), w in positions.items():
        penalties[taken] = penalties.get(taken, 0) + w
    return Dist.from_weights(penalties)


def expected_penalties(tabs: tuple[int, ...] | list[int], rounds: int, arrivals: CountLaw = 0, completes: int = 0,
                       extra: int = 0) -> Fraction:
    """The expected number of penalty cards over your next ``rounds`` turns (the model of :func:`penalty_dist`).

    >>> expected_penalties((2, 1, 0, 0), rounds=5, arrivals={0: 1, 1: 1}, completes=1, extra=1)
    Fraction(0, 1)
    """
    return penalty_dist(tabs, rounds, arrivals, completes, extra).mean()


def penalty_table(tabs: tuple[int, ...] | list[int], rounds: int, arrivals: CountLaw = 0, extra: int = 0) -> pd.DataFrame:
    """Expected penalty cards over your next 1..``rounds`` turns, completing nothing and completing one order a
    turn (the model of :func:`penalty_dist`), as exact Fractions.

    >>> penalty_table((1, 1, 0, 0), 4, arrivals=1)["complete nothing"].tolist()
    [Fraction(0, 1), Fraction(0, 1), Fraction(1, 1), Fraction(2, 1)]
    """
    rounds = _whole(rounds, "rounds", MAX_ROUNDS)
    rows = {r: {"complete nothing": expected_penalties(tabs, r, arrivals, 0, extra),
                "complete one a turn": expected_penalties(tabs, r, arrivals, 1, extra)} for r in range(1, rounds + 1)}
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=["complete nothing", "complete one a turn"], dtype=object)
    frame.index.name = "your next turns"
    return frame


# -- the deck running out ----------------------------------------------------------------------

def cards_left_dist(deck_size: int, rounds: int, draws: CountLaw) -> Dist:
    """How many cards are left in a deck of ``deck_size`` after ``rounds`` rounds that each draw ``draws`` cards
    (a fixed number or a law, independent from round to round); 0 once it has run out.

    >>> cards_left_dist(5, 2, {1: 1, 2: 1})
    Dist({1: 1/4, 2: 1/2, 3: 1/4})
    """
    deck_size = _whole(deck_size, "deck_size", MAX_DECK)
    rounds = _whole(rounds, "rounds", MAX_DECK_ROUNDS)
    law = count_law(draws, "draws", MAX_DRAWS_PER_ROUND)
    work = rounds * (deck_size + 1) * len(law)
    if work > MAX_DECK_WORK:
        raise TooBig("rounds", f"{rounds} rounds × {deck_size + 1} deck sizes × {len(law)} draw counts = {work:,} "
                     f"steps; at most {MAX_DECK_WORK:,} are allowed")
    weights = _weights(law)
    total = sum(weights.values())
    left: dict[int, int] = {deck_size: 1}  # cards left → weight (out of total ** rounds)
    for _ in range(rounds):
        after: dict[int, int] = {}
        for n, w in left.items():
            for d, v in (weights.items() if n else [(0, total)]):
                m = max(0, n - d)
                after[m] = after.get(m, 0) + w * v
        left = after
    return Dist.from_weights(left)


def p_deck_runs_out(deck_size: int, rounds: int, draws: CountLaw) -> Fraction:
    """P(the deck is empty within ``rounds`` rounds): the cards drawn total at least ``deck_size``.

    ``draws`` is the number of cards drawn per round (every order that arrives on a tab: the
    extra order of the two-player rule, one per order completed by Too Many Orders), a
    fixed number or a law, independent from round to round (the model's assumption).

    >>> p_deck_runs_out(6, 2, 3), p_deck_runs_out(7, 2, 3)
    (Fraction(1, 1), Fraction(0, 1))
    """
    return cards_left_dist(deck_size, rounds, draws)[0]
