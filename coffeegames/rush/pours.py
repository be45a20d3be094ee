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
from functools import lru_cache
from itertools import combinations
from math import comb, prod
from operator import add

from ..validate import MAX_OUTCOMES, check_count, check_size
from .data import _ARGUMENT, _names

__all__ = ["MAX_CUPS", "MAX_POURS", "empties", "pours"]

MAX_CUPS = 8
"""The most cups :func:`pours` and :func:`empties` take (a player has 3, or 4 with the Extra cup)."""
MAX_POURS = MAX_OUTCOMES
"""The most ways to split collected ingredients among cups and the supply :func:`pours` goes through (100,000)."""


@lru_cache(maxsize=4096)
def _fits(n: int, room: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to put at most ``n`` identical items into cups with ``room`` left each (the rest go back to the
    supply), the most into the first cup first: ``_fits(2, (1, 2))`` is ``(1, 1), (1, 0), (0, 2), (0, 1), (0, 0)``."""
    if not room:
        return ((),)
    return tuple((k, *rest) for k in range(min(n, room[0]), -1, -1) for rest in _fits(n - k, room[1:]))


@lru_cache(maxsize=4096)
def _fills(name: str, n: int, room: tuple[int, ...]) -> tuple[tuple[tuple[tuple[str, ...], ...], tuple[int, ...]], ...]:
    """:func:`_fits` for ``n`` of ingredient ``name``: each split as what each cup gets, and the room left after."""
    return tuple((tuple((name,) * k for k in split), tuple(r - k for r, k in zip(room, split))) for split in _fits(n, room))


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
    """:func:`pours` without the checks (the engine's own cups): a depth-first walk over the kinds in name order, each
    kind's splits the most poured first, never entering a split that overflows a cup."""
    kinds = sorted(Counter(collected).items())
    room = tuple(capacity - len(cup) for cup in cups)
    if not kinds:
        return [tuple(() for _ in cups)] if min(room, default=0) >= 0 else []
    found: list[tuple[tuple[str, ...], ...]] = []
    _walk(kinds, 0, room, tuple(() for _ in cups), found)
    return found


def _walk(kinds: list[tuple[str, int]], i: int, room: tuple[int, ...], added: tuple[tuple[str, ...], ...],
          found: list[tuple[tuple[str, ...], ...]]) -> None:
    """Append to ``found`` every pour of ``kinds[i:]`` into cups with ``room`` left, each cup's ``added`` so far."""
    fills = _fills(*kinds[i], room)
    if i == len(kinds) - 1:
        found.extend(tuple(map(add, added, adds)) for adds, _ in fills)
        return
    for adds, left in fills:
        _walk(kinds, i + 1, left, tuple(map(add, added, adds)), found)


def empties(cups: tuple[tuple[str, ...], ...]) -> list[tuple[int, ...]]:
    """Every set of cups that may be emptied (only cups holding something), the empty set first."""
    return _empties(_ARGUMENT.sequence(cups, "cups", _names, high=MAX_CUPS))


def _empties(cups: tuple[tuple[str, ...], ...]) -> list[tuple[int, ...]]:
    """:func:`empties` without the checks (the engine's own cups)."""
    full = [c for c, cup in enumerate(cups) if cup]
    return [chosen for k in range(len(full) + 1) for chosen in combinations(full, k)]
