"""Coffee Rush's order deck, exactly: what the next orders need (by ingredient, size, Specialty).

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

The deadline (penalty cards ahead, the deck running out) is in :mod:`.deadline`.

Example:
    >>> deck = {("coffee", "milk"): 3, ("coffee", "tea"): 1, ("milk", "steam", "tea"): 2}
    >>> p_needs(deck, ["tea"])                       # the next order needs tea
    Fraction(1, 2)
    >>> ingredient_dist(deck, "milk", 2)[2]          # both of the next two need milk
    Fraction(2, 3)
    >>> size_dist(deck, 2)[(2, 3)]                   # one 2-ingredient and one 3-ingredient order
    Fraction(8, 15)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any, TypeAlias

from ..errors import BadArgument, BadEntry, BadType, TooBig, shown
from ..exact import Bag, Dist
from ..validate import Checker, check_count, check_size, is_whole

if TYPE_CHECKING:
    import pandas as pd  # imported by the table functions only: the command line's answers do without it

__all__ = [
    "Deck",
    "MAX_DECK",
    "MAX_ORDER",
    "MAX_OUTCOMES",
    "Match",
    "Order",
    "as_deck",
    "count_dist",
    "deck_ingredients",
    "deck_rows",
    "deck_table",
    "group_dist",
    "ingredient_dist",
    "is_specialty",
    "next_orders",
    "order_ingredients",
    "p_needs",
    "parse_order",
    "parse_orders",
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

MAX_DECK = 10_000
"""A deck of more orders than this is refused (the published deck has 80)."""
MAX_OUTCOMES = 100_000
"""Distributions with more outcomes than this are refused before they are listed."""
MAX_ORDER = 100
"""An order given as a mapping ingredient → how many may need at most this many ingredients (a real one needs 2-4)."""


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
            raise BadArgument("seen", f"{shown(order, 60)} {why}")
        left[order] -= 1
    return as_deck(left)


def order_ingredients(order: Any, where: str = "order") -> tuple[str, ...]:
    """The ingredients an order needs, sorted, repeats kept: the order itself, or its ``ingredients``.

    >>> order_ingredients(("milk", "coffee", "milk"))
    ('coffee', 'milk', 'milk')
    """
    found = getattr(order, "ingredients", order)
    if isinstance(found, Mapping):  # ingredient → how many: counted before the list is made
        for name, n in found.items():
            check_count(n, f"{where}[{shown(name, 40)}]", maximum=MAX_ORDER)
        check_size(sum(found.values()), where, "ingredients", limit=MAX_ORDER)
        found = [name for name, n in found.items() for _ in range(n)]
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


def _known(names: Iterable[str], needs: Mapping[Order, tuple[str, ...]], where: str) -> None:
    """Every name is an ingredient some order of the deck needs or a space of the game's board holds; a misspelt one is
    refused, naming the known ones (it would silently count 0)."""
    from .data import stand_in_board  # the board is read only when a name must be checked

    known = {name for names in needs.values() for name in names} | set(stand_in_board().ingredients)
    for name in sorted(names):
        if name not in known:
            raise BadArgument(where, f"{shown(name, 40)} is not an ingredient of the deck or the board; the ingredients "
                              f"are {', '.join(sorted(known))}")


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
    try:
        kinds = set(match)
    except TypeError:  # an unhashable kind cannot be an order of the deck
        raise BadType("match", "each order kind must be hashable, e.g. ('coffee', 'milk')", match) from None
    return kinds.__contains__


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
        if not isinstance(label, Hashable):
            raise BadType("key", f"must give a hashable group for each order; for {shown(order, 40)} it gave", label)
        grouped[label] = grouped.get(label, 0) + n
    groups = as_deck(grouped, "groups")
    if groups.draw_count(k, most=MAX_OUTCOMES) > MAX_OUTCOMES:  # counted, none listed
        raise TooBig("k", f"the next {k} orders fall into more than {MAX_OUTCOMES:,} groupings; at most {MAX_OUTCOMES:,} are listed")
    return groups.draw(k)


def next_orders(deck: Deck, k: int) -> Dist:
    """The exact law of the next ``k`` orders as a multiset (a tuple of orders, in the deck's order).

    >>> next_orders({("coffee", "milk"): 2, ("milk", "tea"): 1}, 2)[(("coffee", "milk"), ("milk", "tea"))]
    Fraction(2, 3)
    """
    bag = as_deck(deck)
    k = _draws(bag, k)
    if bag.draw_count(k, most=MAX_OUTCOMES) > MAX_OUTCOMES:  # counted, none listed
        raise TooBig("k", f"the next {k} orders have more than {MAX_OUTCOMES:,} possible multisets; at most "
                     f"{MAX_OUTCOMES:,} are listed (count_dist and group_dist answer questions about them without listing)")
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
    _known([ingredient], needs, "ingredient")
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
    _known([ingredient], needs, "ingredient")
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
    _known(special, needs, "specialty")
    return count_dist(bag, lambda order: not special.isdisjoint(needs[order]), k)


def p_needs(deck: Deck, held: Iterable[str], k: int = 1) -> Fraction:
    """P(at least one of the next ``k`` orders needs an ingredient you hold). With ``k=1``: a new order does.

    >>> p_needs({("coffee", "milk"): 2, ("ice", "tea"): 2}, ["milk", "steam"], k=2)
    Fraction(5, 6)
    """
    bag = as_deck(deck)
    hold = _names(held, "held")
    needs = _ingredient_orders(bag)
    _known(hold, needs, "held")
    return count_dist(bag, lambda order: not hold.isdisjoint(needs[order]), k).at_least(1)


def deck_rows(deck: Deck, k: int = 1, specialty: Iterable[str] = ()) -> list[dict[str, object]]:
    """The rows of :func:`deck_table` as dicts (``ingredient`` first), without pandas.

    >>> deck_rows({("coffee", "milk"): 1, ("milk", "tea"): 1}, 1, ["tea"])[2]
    {'ingredient': 'tea', 'specialty': True, 'P(needed)': Fraction(1, 2), 'E[orders]': Fraction(1, 2), 'E[units]': Fraction(1, 2)}
    """
    bag = as_deck(deck)
    k, special = _draws(bag, k), _names(specialty, "specialty")
    needs = _ingredient_orders(bag)
    _known(special, needs, "specialty")
    rows: list[dict[str, object]] = []
    for name in sorted({n for names in needs.values() for n in names}):
        wanted = count_dist(bag, lambda order: name in needs[order], k)
        units = sum(n * needs[order].count(name) for order, n in bag.items())
        rows.append({"ingredient": name, "specialty": name in special, "P(needed)": wanted.at_least(1),
                     "E[orders]": wanted.mean(), "E[units]": k * Fraction(units, bag.size)})
    return rows


def deck_table(deck: Deck, k: int = 1, specialty: Iterable[str] = ()) -> pd.DataFrame:
    """Per ingredient of the deck, what the next ``k`` orders need, as exact Fractions.

    Columns: ``specialty`` (is it one of ``specialty``), ``P(needed)`` (at least one of the
    next ``k`` orders needs it), ``E[orders]`` (how many of them need it, on average),
    ``E[units]`` (how many units of it they need in all, on average).

    >>> table = deck_table({("coffee", "milk"): 1, ("milk", "milk", "tea"): 1}, 1, ["tea"])
    >>> table.loc["milk", ["P(needed)", "E[orders]", "E[units]"]].tolist(), bool(table.loc["tea", "specialty"])
    ([Fraction(1, 1), Fraction(1, 1), Fraction(3, 2)], True)
    """
    import pandas as pd

    columns = ["ingredient", "specialty", "P(needed)", "E[orders]", "E[units]"]
    frame = pd.DataFrame(deck_rows(deck, k, specialty), columns=columns).set_index("ingredient")
    return frame.astype({"specialty": bool, "P(needed)": object, "E[orders]": object, "E[units]": object})


def parse_orders(text: str) -> list[tuple[str, ...]]:
    """Orders typed as text, the one syntax of Coffee Rush's orders: ingredients joined by ``+`` within an order, orders
    separated by commas (or semicolons). One order alone is read by :func:`parse_order`.

    >>> parse_orders("coffee+milk, milk + tea leaves;")
    [('coffee', 'milk'), ('milk', 'tea leaves')]
    """
    Checker("", BadArgument).text(text, "text")
    orders = []
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        names = [name.strip() for name in part.split("+")]
        if any(not name for name in names):
            raise BadEntry(f"an order lists its ingredients joined by '+', e.g. coffee+milk (you typed {part.strip()!r})")
        orders.append(tuple(sorted(names)))
    return orders


def parse_order(text: str) -> tuple[str, ...]:
    """One order typed as text, its ingredients sorted: ``coffee+milk`` (as :func:`parse_orders` reads orders). Where
    one order alone is typed (the deal box of the walkthrough), ingredients separated by spaces or commas read the
    same: ``milk coffee``, ``milk, coffee``.

    >>> parse_order("milk+coffee"), parse_order("Milk coffee") == parse_order("milk, coffee") == parse_order("coffee+milk")
    (('coffee', 'milk'), True)
    """
    Checker("", BadArgument).text(text, "text")
    if "+" not in text:  # the aliases: one order's ingredients separated by spaces or commas
        return tuple(sorted(text.replace(",", " ").lower().split()))
    orders = parse_orders(text.lower())
    if len(orders) != 1:
        raise BadEntry(f"type one order, its ingredients joined by '+', e.g. coffee+milk (you typed {len(orders)})")
    return orders[0]
