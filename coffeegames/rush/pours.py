"""How collected ingredients may go into cups: every legal pour, and every choice of cups to empty.

Ingredients in a cup never move to another cup; a cup may be emptied (its contents go back
to the supply); each collected ingredient goes into one cup or back to the supply; a cup
holds at most ``capacity`` ingredients (Ruling, option ``cup_capacity``). Two pours that
put the same ingredients into the same cups are the same pour, so each is listed once.

Example (one coffee and one milk into two cups, the second holding milk already):
    >>> ps = pours(((), ("milk",)), ("coffee", "milk"), capacity=2)
    >>> len(ps), ps[0], ps[-1], (("coffee", "milk"), ()) in ps, ((), ("coffee", "milk")) in ps
    (8, (('coffee', 'milk'), ()), ((), ()), True, False)
    >>> empties(((), ("milk",), ("ice", "tea")))
    [(), (1,), (2,), (1, 2)]
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product
from math import comb, prod

from ..validate import MAX_OUTCOMES, check_count, check_size
from .data import _ARGUMENT, _names

__all__ = ["MAX_CUPS", "MAX_POURS", "empties", "pours"]

MAX_CUPS = 8
"""The most cups :func:`pours` and :func:`empties` take (a player has 3, or 4 with the Extra cup)."""
MAX_POURS = MAX_OUTCOMES
"""The most ways to split collected ingredients among cups and the supply :func:`pours` goes through (100,000)."""


def _splits(n: int, bins: int) -> list[tuple[int, ...]]:
    """Every way to split ``n`` identical items into ``bins`` ordered bins."""
    if bins == 1:
        return [(n,)]
    return [(k, *rest) for k in range(n + 1) for rest in _splits(n - k, bins - 1)]


def pours(cups: tuple[tuple[str, ...], ...], collected: tuple[str, ...], capacity: int) -> list[tuple[tuple[str, ...], ...]]:
    """Every distinct pour: for each cup the (sorted) ingredients added; what is not added is returned. A question of
    more than :data:`MAX_POURS` ways to split the ingredients is refused (``TooBig``) before any is listed."""
    cups = _ARGUMENT.sequence(cups, "cups", _names, high=MAX_CUPS)
    collected = _names(collected, "collected")
    check_count(capacity, "capacity")
    ways = prod(comb(n + len(cups), len(cups)) for n in Counter(collected).values())
    check_size(ways, "collected", "ways to split the ingredients among the cups and the supply", limit=MAX_POURS)
    return _pours(cups, collected, capacity)


def _pours(cups: tuple[tuple[str, ...], ...], collected: tuple[str, ...], capacity: int) -> list[tuple[tuple[str, ...], ...]]:
    """:func:`pours` without the checks (the engine's own cups)."""
    kinds = sorted(Counter(collected).items())
    room = [capacity - len(cup) for cup in cups]
    # for each kind, how many go into each cup (bins 0..) and back to the supply (the last bin): the most poured first
    options = [_splits(n, len(cups) + 1)[::-1] for _, n in kinds]
    found = []
    for choice in product(*options):
        added = [0] * len(cups)
        for split in choice:
            for c, k in enumerate(split[:-1]):
                added[c] += k
        if any(a > r for a, r in zip(added, room)):
            continue
        found.append(tuple(
            tuple(name for (name, _), split in zip(kinds, choice) for _ in range(split[c]))
            for c in range(len(cups))
        ))
    return found


def empties(cups: tuple[tuple[str, ...], ...]) -> list[tuple[int, ...]]:
    """Every set of cups that may be emptied (only cups holding something), the empty set first."""
    return _empties(_ARGUMENT.sequence(cups, "cups", _names, high=MAX_CUPS))


def _empties(cups: tuple[tuple[str, ...], ...]) -> list[tuple[int, ...]]:
    """:func:`empties` without the checks (the engine's own cups)."""
    full = [c for c, cup in enumerate(cups) if cup]
    return [chosen for k in range(len(full) + 1) for chosen in combinations(full, k)]
