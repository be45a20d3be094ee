"""Paying for a gizmo: its cost after discounts, and every distinct way to pay it from storage with converters.

A card costs ``cost`` energies of its colour (a multicolour card: of any colours), less one
for each discount gizmo whose condition holds (building from the archive, from a research,
a level-II card). Converters help: a *convert* gizmo lets up to ``uses`` energies of its
colours count as any colour; a *double* gizmo lets one energy of each of its colours count
as two of that colour. Ruling: each energy is changed by one converter at most, and each
converter is used once in a Build (once a turn: the caller leaves out the used ones, ``converters_per``). A payment *plan* is a set of
marbles spent (counts per colour) that pays the cost and from which no marble could be
left out; :func:`payment_plans` lists each such set once, with one way the converters do it.

Example (a blue card costing 2; storage 1 red, 1 blue; converter #36 turns 1 red into any):
    >>> from coffeegames.gizmos.rules import Rules
    >>> rules = Rules()
    >>> payment_plans((1, 1, 0, 0), "blue", 2, tuple(rules.card(i) for i in (36,)))
    (((1, 1, 0, 0), (36,)),)
    >>> payment_plans((0, 3, 0, 0), "blue", 3, ())
    (((0, 3, 0, 0), ()),)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import lru_cache, partial

from ..errors import BadArgument
from ..validate import Checker, check_instance
from .actions import SOURCES
from .data import CARD_COUNT, COLOURS, Card
from .rules import MARBLES_PER_COLOUR

__all__ = ["Plan", "build_cost", "pay_with", "payment_plans"]

_CHECK = Checker("payment", BadArgument)

Plan = tuple[tuple[int, ...], tuple[int, ...]]
"""``(marbles spent per colour, converter ids used)``."""


def _marbles(value: object, where: str) -> tuple[int, ...]:
    """Marbles per colour (red, blue, black, yellow), each 0-13, as a tuple; else the library's error naming ``where``."""
    _CHECK.need(isinstance(value, (tuple, list)) and len(value) == len(COLOURS), where,
                f"must be {len(COLOURS)} counts of marbles (red, blue, black, yellow)", value)
    assert isinstance(value, (tuple, list))
    return tuple(_CHECK.whole(n, where, 0, MARBLES_PER_COLOUR) for n in value)


def _cards(value: object, where: str) -> tuple[Card, ...]:
    """Gizmos (cards) as a tuple; else the library's error naming ``where``."""
    _CHECK.need(isinstance(value, (tuple, list)) and len(value) <= CARD_COUNT
                and all(isinstance(c, Card) for c in value), where,
                f"must be a list of at most {CARD_COUNT} Gizmos cards (rules.card(id))", value)
    assert isinstance(value, (tuple, list))
    return tuple(value)


def _cost(colour: object, need: object) -> None:
    _CHECK.one_of(colour, "colour", (*COLOURS, "any"))
    _CHECK.whole(need, "need", 0, MARBLES_PER_COLOUR * len(COLOURS))


def build_cost(card: Card, source: str, owned: tuple[Card, ...]) -> int:
    """What ``card`` costs built from ``source`` by a player owning the gizmos ``owned`` (discounts applied; never
    below 0)."""
    check_instance(card, Card, "card", "a Gizmos card (rules.card(id))")
    _CHECK.one_of(source, "source", SOURCES)
    return _build_cost(card, source, _cards(owned, "owned"))


def _build_cost(card: Card, source: str, owned: tuple[Card, ...]) -> int:
    """:func:`build_cost` unchecked (the engine's legal moves)."""
    off = 0
    for gizmo in owned:
        e = gizmo.effect
        if e.kind == "discount" and ((e.when == "archive" and source == "archive")
                                     or (e.when == "research" and source == "research")
                                     or (e.when == "level2" and card.level == 2)):
            off += e.amount
    return max(0, card.cost - off)


def pay_with(spent: tuple[int, ...], colour: str, need: int, converters: tuple[Card, ...]) -> tuple[int, ...] | None:
    """The converter ids one way of paying ``need`` energies of ``colour`` (``"any"``: any colours) with exactly the
    marbles ``spent`` uses (the fewest converters), or ``None`` if they cannot pay it."""
    spent = _marbles(spent, "spent")
    _cost(colour, need)
    return _pay_with(spent, colour, need, _cards(converters, "converters"))


def _pay_with(spent: tuple[int, ...], colour: str, need: int, converters: tuple[Card, ...]) -> tuple[int, ...] | None:
    """:func:`pay_with` unchecked."""
    return _payer(colour, need, converters)(spent)


@lru_cache(maxsize=4_000)
def _payer(colour: str, need: int, converters: tuple[Card, ...]) -> Callable[[tuple[int, ...]], tuple[int, ...] | None]:
    """:func:`_pay_with` for one cost and set of converters, as a function of the marbles spent (memoised)."""
    # Units of help: (converter id, colours it accepts, kind) — a convert gizmo gives `uses` units, a double one unit a colour.
    doubles: list[tuple[int, str]] = []
    converts: list[tuple[int, tuple[str, ...]]] = []
    for card in converters:
        e = card.effect
        if e.kind == "double":
            doubles += [(card.id, c) for c in e.colours]
        elif e.kind == "convert" and colour != "any":
            converts += [(card.id, e.colours)] * e.uses
    memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}

    def pay(spent: tuple[int, ...]) -> tuple[int, ...] | None:
        if spent in memo:
            return memo[spent]
        memo[spent] = found = _pay(spent)
        return found

    def _pay(spent: tuple[int, ...]) -> tuple[int, ...] | None:
        used: list[int] = []
        value = sum(spent) if colour == "any" else spent[COLOURS.index(colour)]
        # doubling: one marble of the card's colour (any colour for a multicolour card) per unit
        left = list(spent)
        for ident, c in doubles:
            i = COLOURS.index(c)
            if (colour == "any" or c == colour) and left[i] > 0 and value < need:
                left[i] -= 1
                value += 1
                used.append(ident)
        if colour != "any":
            # converting: match the other marbles to convert units (augmenting paths; a few units at most)
            marbles = [c for i, c in enumerate(COLOURS) if c != colour for _ in range(spent[i])]
            match: dict[int, int] = {}  # unit index -> marble index

            def augment(m: int, seen: set[int]) -> bool:
                for u, (_, accepts) in enumerate(converts):
                    if marbles[m] in accepts and u not in seen:
                        seen.add(u)
                        if u not in match or augment(match[u], seen):
                            match[u] = m
                            return True
                return False

            matched = sum(augment(m, set()) for m in range(len(marbles)))
            if matched < len(marbles):
                return None  # a spent marble would count for nothing: not a plan of exactly these marbles
            value += matched
            used += [converts[u][0] for u in match]
        if value < need:
            return None
        return tuple(sorted(set(used)))

    return pay


def payment_plans(energy: tuple[int, ...], colour: str, need: int, converters: tuple[Card, ...]) -> tuple[Plan, ...]:
    """Every distinct set of marbles (from ``energy``) that pays ``need`` of ``colour`` and wastes none (leaving any one
    marble out would not pay), each with the converters it uses; in a fixed order."""
    energy = _marbles(energy, "energy")
    _cost(colour, need)
    return _plans(energy, colour, need, _cards(converters, "converters"))


def _plans(energy: tuple[int, ...], colour: str, need: int, converters: tuple[Card, ...]) -> tuple[Plan, ...]:
    """:func:`payment_plans` unchecked. A one-colour cost with converters is searched on the storage capped where no plan
    can spend more (the colour at ``need``, each other colour at the convert units taking it): the same plans, shared
    by every storage capping to it (the memo's key; :func:`_single_plans` bounds its search by the same caps)."""
    if converters and colour != "any" and need:
        units = _help(converters)[0]
        i = COLOURS.index(colour)
        capped = tuple([min(n, need) if j == i else min(n, units[j]) for j, n in enumerate(energy)])
        return _searched(capped, colour, need, converters)
    return _searched(energy, colour, need, converters)


@lru_cache(maxsize=100_000)
def _searched(energy: tuple[int, ...], colour: str, need: int, converters: tuple[Card, ...]) -> tuple[Plan, ...]:
    if need == 0:
        return (((0,) * len(COLOURS), ()),)
    if not converters:  # the common case, without a search: exactly `need` marbles of the colour (any colours)
        if colour != "any":
            i = COLOURS.index(colour)
            return (((0,) * i + (need,) + (0,) * (len(COLOURS) - i - 1), ()),) if energy[i] >= need else ()
        return tuple((spent, ()) for spent in itertools.product(*(range(min(n, need) + 1) for n in energy))
                     if sum(spent) == need)
    if colour != "any":
        return _single_plans(energy, COLOURS.index(colour), need, converters)
    capped = tuple(n if n <= need else need for n in energy)  # no plan spends more of a colour than `need`
    if capped != energy:
        return _searched(capped, colour, need, converters)  # the same plans, shared by every storage capping to it
    if sum(energy) + sum(len(c.effect.colours) for c in converters if c.effect.kind == "double") < need:
        return ()
    plans: list[Plan] = []
    pay = _payer(colour, need, converters)
    for spent in itertools.product(*(range(n + 1) for n in energy)):
        total = sum(spent)
        if total > need or total == 0:
            continue
        used = pay(spent)
        if used is None:
            continue
        if any(spent[i] and pay(spent[:i] + (spent[i] - 1,) + spent[i + 1:]) is not None for i in range(len(spent))):
            continue  # a marble could be left out: wasteful
        plans.append((spent, used))
    return tuple(plans)


def _single_plans(energy: tuple[int, ...], i: int, need: int, converters: tuple[Card, ...]) -> tuple[Plan, ...]:
    """:func:`_plans` of a one-colour cost (colour ``i``) with converters, by counting: the same plans in the same order.

    ``a`` marbles of the colour and ``m`` others pay ``a + min(doubles, a, need - a) + m`` when every other marble has
    a convert unit of its own (Hall's condition over the sets of other colours). Without waste, ``a`` is the fewest
    that pay, and with others spent the value is exactly ``need`` (one other less would pay): one candidate for each
    way of spending the others. Only the plans ask :func:`_payer` which converters they use (or
    :func:`_used`, the same answer without its search, when :func:`_units` gives an order)."""
    units, doubles, halls, order = _units(converters, i)
    own = energy[i]
    if own * 2 + sum(energy) < need:  # a bound: nothing to search
        return ()
    plans: list[Plan] = []
    pay = _payer(COLOURS[i], need, converters) if order is None else partial(_used, order, i, need)
    for others in itertools.product(*[range((n if n < u else u) + 1) for j, (n, u) in enumerate(zip(energy, units)) if j != i]):
        m = sum(others)
        if m > need or (halls and any(sum([others[k] for k in where]) > n for where, n in halls)):
            continue
        short = need - m  # what the colour's marbles must make: ``a`` of them make min(a + doubles, 2a, need)
        a = short - doubles  # the fewest that make it: max(0, short - doubles, ceil(short / 2)), short >= 0 here
        if a < (short + 1) // 2:  # (no max, min: builtins parsing keywords, slower than comparisons)
            a = (short + 1) // 2
        if a > own or (m and a + doubles > short and 2 * a > short and need > short) or a + m == 0:
            continue
        spent = (*others[:i], a, *others[i:])
        used = pay(spent)
        assert used is not None
        plans.append((spent, used))
    plans.sort()
    return tuple(plans)


Order = tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]
"""Which converters :func:`_payer` uses for a one-colour cost, in the order it takes them (:func:`_used`): the ids of
the doubling units of the colour, those of the convert units taking each other colour alone, those taking every colour
(a converter's id once for each unit)."""


@lru_cache(maxsize=4_000)
def _units(converters: tuple[Card, ...], i: int) -> tuple[tuple[int, ...], int, tuple[tuple[tuple[int, ...], int], ...],
                                                             Order | None]:
    """Convert units taking each colour, doubling units of colour ``i``, the sets of other colours (places in a
    spending of the other colours, in order) that share convert units, each with the units taking one of them, and the
    :data:`Order` :func:`_payer` takes the converters in (None unless every convert gizmo takes one colour or all four,
    those taking one colour first: then the order tells which it uses without its search)."""
    colour, others = COLOURS[i], _OTHERS[i]
    doubled: list[int] = []  # the ids of the doubling units of the colour
    alone: list[list[int]] = [[] for _ in others]  # of the convert units taking each other colour alone
    every: list[int] = []  # of those taking every colour
    converts: list[tuple[int, int]] = []  # each convert gizmo's units, with the places of the other colours it takes, as bits
    ordered = True
    for card in converters:  # (one pass: a new set of converters is met at most builds)
        e = card.effect
        if e.kind == "double":
            doubled += [card.id] * e.colours.count(colour)
        elif e.kind == "convert":
            takes = sum([1 << k for k, other in enumerate(others) if other in e.colours])
            converts.append((e.uses, takes))
            if len(e.colours) == 1 and not every:
                if takes:
                    alone[takes.bit_length() - 1] += [card.id] * e.uses
            elif len(set(e.colours)) == len(COLOURS):
                every += [card.id] * e.uses
            else:
                ordered = False
    order = (tuple(doubled), tuple(map(tuple, alone)), tuple(every)) if ordered else None
    units, doubles = _help(converters)[0], len(doubled)
    if not any(takes & (takes - 1) for _, takes in converts):  # no convert gizmo takes several other colours
        return (units, doubles, (), order)

    def taking(where: int) -> int:  # the units taking one of the colours at the places set in ``where``
        return sum([uses for uses, takes in converts if takes & where])

    single = [taking(1 << k) for k in range(len(others))]
    # single colours are bounded by the spending already; a set matters only when a convert gizmo takes several of it
    halls = [(where, taking(sum(1 << k for k in where))) for size in range(2, len(others) + 1)
             for where in itertools.combinations(range(len(others)), size)]
    return (units, doubles, tuple((where, n) for where, n in halls if n < sum([single[k] for k in where])), order)


_OTHERS = tuple(tuple(c for c in COLOURS if c != colour) for colour in COLOURS)
"""The colours other than each colour, in order (the places of a spending of the other colours)."""


def _used(order: Order, i: int, need: int, spent: tuple[int, ...]) -> tuple[int, ...]:
    """The converters :func:`_payer` uses to pay ``need`` of colour ``i`` with a plan ``spent`` (each other colour's
    marble with a convert unit of its own). Its augmenting-path matching, taking the marbles in colour order and
    trying the units in :data:`Order`'s order, gives each colour's marbles the first units taking that colour alone and
    the rest the first units taking every colour (a marble moved along a path moves between units of its colour, or
    between those taking every colour): the same units."""
    doubles, alone, every = order
    a = spent[i]
    used = list(doubles[:a if a < need - a else need - a])  # (doubling one marble each while the value is short)
    over = 0
    for units, n in zip(alone, (*spent[:i], *spent[i + 1:])):
        used += units[:n]
        if n > len(units):
            over += n - len(units)
    used += every[:over]
    return tuple(sorted(set(used)))


Helping = tuple[tuple[tuple[Card, ...], tuple[int, ...]], ...]
"""For each colour, then a multicolour card: the converters that can help pay for it, and their ids (:func:`_helping`)."""


@lru_cache(maxsize=4_000)
def _helping(converters: tuple[Card, ...]) -> Helping:
    """Of ``converters``, those that can help pay for a card of each colour (its doubling gizmos, and the convert gizmos
    taking another colour), then for a multicolour card (the doubling gizmos), in order, with their ids. No plan uses
    the others (a convert unit changes another colour's marble; a doubling unit doubles one of the card's colour), and
    the plans with these alone are the same (each colour's convert units, the caps and the matching see only these)."""
    found = []
    for colour in (*COLOURS, "any"):
        cards = tuple([c for c in converters if (c.effect.kind == "double" and (colour == "any" or colour in c.effect.colours))
                       or (c.effect.kind == "convert" and colour != "any" and any(x != colour for x in c.effect.colours))])
        found.append((cards, tuple([c.id for c in cards])))
    return tuple(found)


Help = tuple[tuple[int, ...], tuple[int, ...], int]
"""What converters can do in one Build: convert units taking each colour, doubling units of each colour, convert units."""


@lru_cache(maxsize=4_000)
def _help(converters: tuple[Card, ...]) -> Help:
    """What ``converters`` can do in one Build (:data:`Help`)."""
    converts = [c.effect for c in converters if c.effect.kind == "convert"]
    doubles = [c.effect for c in converters if c.effect.kind == "double"]
    return (tuple(sum(e.uses for e in converts if colour in e.colours) for colour in COLOURS),
            tuple(sum(colour in e.colours for e in doubles) for colour in COLOURS),
            sum(e.uses for e in converts))


def _reaches(energy: tuple[int, ...], aid: Help) -> tuple[int, ...]:
    """At most how much of a cost of each colour, then of a multicolour card, marbles from ``energy`` can pay with
    converters giving ``aid``: a bound, so a cost above it has no payment plan (the engine skips the search). Exact (a
    cost within it has a plan) for a multicolour card, and when no convert gizmo takes two colours or more
    (``sum(units) == total``). A colour's marbles count, doubled by its doubling units, and the other marbles matched to
    the convert units taking them, at most ``total`` (converters do not help a multicolour card)."""
    units, doubles, total = aid
    doubled = [n if n < d else d for n, d in zip(energy, doubles)]  # (comparisons: min parses keywords, slower)
    converted = [n if n < u else u for n, u in zip(energy, units)]
    others = sum(converted)
    return (*[n + d + (others - c if others - c < total else total) for n, d, c in zip(energy, doubled, converted)],
            sum(energy) + sum(doubled))
