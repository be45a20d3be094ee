"""The live pours: the pours no other pour beats, each cup it changes ending empty or holding part of a waiting order.

The exact search of a turn (:mod:`.best`) values only these: a cup left holding what no waiting
order contains completes nothing and counts no progress, so pouring that part back instead is
never worse (:func:`_live_pours` says why). Ingredients are packed into one integer per
multiset (:func:`_packer`) so "is there enough left to pour" is one subtraction.

Example (a cup holding milk and an empty one; coffee and milk collected; the one order waiting coffee+milk):
    >>> live = [["coffee"], ["milk"], ["coffee", "milk"]]
    >>> for emptied, added in live_pours([["milk"], []], ["coffee", "milk"], live, ask_empty=False):
    ...     print(added)
    ((), ())
    ((), ('coffee',))
    ((), ('milk',))
    ((), ('coffee', 'milk'))
    (('coffee',), ())
    (('coffee',), ('milk',))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Any

from ..errors import BadType, TooBig
from ..validate import check_instance
from .data import order_needs

__all__ = ["MAX_INGREDIENTS", "live_pours"]

MAX_INGREDIENTS = 15
"""The most of one ingredient :func:`live_pours` pours (the search packs each count in 4 bits); a move collects at
most 10 (3 steps, +1 Long stride, +5 rush tokens, the last space twice with Double shot)."""

Cups = tuple[tuple[str, ...], ...]
"""Each cup's contents (sorted ingredient names)."""


def _live(orders: tuple[str, ...], capacity: int) -> list[tuple[str, ...]]:
    """Every non-empty sub-multiset of a waiting order's ingredients (sorted tuples)."""
    found: set[tuple[str, ...]] = set()
    for order in set(orders):
        needs = order_needs(order)
        for mask in range(1, 2 ** len(needs)):
            found.add(tuple(needs[i] for i in range(len(needs)) if mask >> i & 1))
    return sorted(f for f in found if len(f) <= capacity)


def _ingredients(value: Any, where: str, most: int) -> tuple[str, ...]:
    """Ingredient names (a list or tuple of text, at most ``most``), sorted: a cup's contents, an order's part."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(x, str) for x in value):
        raise BadType(where, "must be a list of ingredient names (text)", value)
    if len(value) > most:
        raise TooBig(where, f"must hold at most {most} ingredients", value)
    return tuple(sorted(value))


def _groups_of(value: Any, where: str, most: int, each: int) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, (list, tuple)):
        raise BadType(where, "must be a list of lists of ingredient names", value)
    if len(value) > most:
        raise TooBig(where, f"must hold at most {most:,} entries", value)
    return tuple(_ingredients(v, where, each) for v in value)


def live_pours(cups: Cups, collected: tuple[str, ...], live: list[tuple[str, ...]],
               ask_empty: bool) -> Iterator[tuple[tuple[int, ...] | None, Cups]]:
    """The pours no other pour beats: ``(cups emptied or None, added to each cup)`` leaving every cup it changes
    holding a *live* multiset (one of ``live``: part of a waiting order's ingredients) or empty (see
    :func:`_live_pours` for why). ``cups``: each cup's contents (at most 8 cups of 8); ``collected``: the
    ingredients to pour (at most 15 of each); ``ask_empty``: whether cups may be emptied first."""
    cups = _groups_of(cups, "cups", 8, 8)
    collected = _ingredients(collected, "collected", 1_000)
    if any(n > MAX_INGREDIENTS for n in Counter(collected).values()):
        raise TooBig("collected", f"must hold at most {MAX_INGREDIENTS} of each ingredient", collected)
    live = list(_groups_of(live, "live", 10_000, 8))
    check_instance(ask_empty, bool, "ask_empty", "True or False")
    return _live_pours(cups, collected, live, ask_empty)


def _live_pours(cups: Cups, collected: tuple[str, ...], live: list[tuple[str, ...]],
                ask_empty: bool) -> Iterator[tuple[tuple[int, ...] | None, Cups]]:
    """The pours no other pour beats: ``(cups emptied or None, added to each cup)`` leaving every cup it changes
    holding a *live* multiset (one of ``live``: part of a waiting order's ingredients) or empty.

    Pours that differ only by swapping two cups holding the same (and emptied alike) are listed once.
    Why no other pour beats them: take any pour, and in every cup it changes to a dead multiset
    (part of no waiting order), return what it poured there instead (and empty the cup if the
    pour emptied it). A dead cup completes nothing and counts no progress; the cup as it was
    (or empty) completes an order or not, and counts progress or not: completions can only
    grow, so the penalties can only shrink, and nothing else changes. So the changed pour,
    which is one of these, is at least as good by every part of :attr:`Plan.key`.
    """
    names = tuple(sorted({x for group in (*live, *cups, collected) for x in group}))
    options = _cup_options(cups, tuple(live), ask_empty, names)
    pack, guard = _packer(names)
    done: list[tuple[tuple[int, ...] | None, Cups]] = []

    def rec(i: int, left: int, emptied: tuple[int, ...], added: tuple[tuple[str, ...], ...]) -> None:
        if i == len(cups):
            done.append(((emptied if ask_empty else None), added))
            return
        for empty, more, need in options[i]:
            if need and ((left | guard) - need) & guard != guard:
                continue  # more than what is left to pour
            # cups holding the same and emptied alike are interchangeable: list each such pour once (non-increasing)
            twin = next((j for j in range(i - 1, -1, -1) if cups[j] == cups[i] and (j in emptied) == empty), None)
            if twin is not None and more > added[twin]:
                continue
            rec(i + 1, left - need, (*emptied, i) if empty else emptied, (*added, more))

    rec(0, pack(collected), (), ())
    return iter(done)


@lru_cache(maxsize=64)
def _packer(names: tuple[str, ...]) -> tuple[Callable[[Iterable[str]], int], int]:
    """A multiset of ingredients as one integer, 5 bits per ingredient (counts up to 15) with a guard bit each:
    ``a <= b`` (as multisets) exactly when ``((b | guard) - a) & guard == guard``, and ``b - a`` is then the difference."""
    index = {name: i for i, name in enumerate(names)}
    guard = sum(1 << (5 * i + 4) for i in index.values())

    def pack(items: Iterable[str]) -> int:
        return sum(1 << (5 * index[x]) for x in items)

    return pack, guard


@lru_cache(maxsize=256)
def _cup_options(cups: Cups, live: tuple[tuple[str, ...], ...], ask_empty: bool,
                 names: tuple[str, ...]) -> list[list[tuple[bool, tuple[str, ...], int]]]:
    """For each cup: ``(emptied, ingredients added, those packed)`` leaving it as it was, empty or live."""
    pack, _ = _packer(names)
    found = []
    for cup in cups:
        old = Counter(cup)
        options: list[tuple[bool, tuple[str, ...], int]] = [(False, (), 0)]
        for f in live:
            need = Counter(f)
            if old <= need and f != cup:
                more = tuple(sorted((need - old).elements()))
                options.append((False, more, pack(more)))
        if ask_empty and cup:
            options.append((True, (), 0))
            options += [(True, f, pack(f)) for f in live]
        found.append(options)
    return found
