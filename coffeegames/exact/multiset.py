"""Multisets as sorted tuples: the few helpers every game's engine changes holdings with.

A game keeps a multiset (dice, tokens, tiles, card ids) as a tuple sorted in its own order, so equal
multisets are equal tuples. ``key`` is that order (``None``: the items' natural order). The helpers
take values the engine made itself; they check only what could silently go wrong: :func:`mremove` of
something not there is a :class:`~coffeegames.errors.BadArgument` naming ``taken``.

Example:
    >>> mremove((1, 1, 4, 6), (6, 1))
    (1, 4)
    >>> madd(("red", "white"), ["yellow"], key=["white", "yellow", "red"].index)
    ('white', 'yellow', 'red')
    >>> mcontains((1, 1, 4), (1, 1)), mcontains((1, 4), (1, 1))
    (True, False)
    >>> sub_multisets((1, 1, 5), most=2)
    [(), (1,), (5,), (1, 1), (1, 5)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import product
from typing import Any, TypeVar, cast

from ..errors import BadArgument

__all__ = ["madd", "mcontains", "mremove", "msort", "sub_multisets"]

T = TypeVar("T", bound=Hashable)
Key = Callable[[Any], Any] | None
"""A multiset's sort key (``None``: the items' own order)."""


_KEY_FN = Callable[[Any], Any]  # made once: a subscripted type built inside ``_sorted`` would be rebuilt every call


def _sorted(items: Iterable[T], key: Key) -> list[T]:
    return sorted(items, key=cast(_KEY_FN, key))  # typeshed types key=None apart (comparable items)


def msort(items: Iterable[T], key: Key = None) -> tuple[T, ...]:
    """``items`` as a multiset: a tuple sorted by ``key``.

    >>> msort([3, 1, 3])
    (1, 3, 3)
    """
    return tuple(_sorted(items, key))


def madd(items: Iterable[T], more: Iterable[T], key: Key = None) -> tuple[T, ...]:
    """The multiset ``items`` with ``more`` added."""
    return tuple(_sorted((*items, *more), key))


def mremove(items: Iterable[T], taken: Iterable[T], key: Key = None) -> tuple[T, ...]:
    """The multiset ``items`` without ``taken``, sorted by ``key``; a ``BadArgument`` naming ``taken`` if it is not
    a sub-multiset of ``items``.

    >>> mremove(("hard",), ["smoke"])
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: argument 'taken': must be among ('hard',); got ('smoke',)
    """
    left = list(items)
    try:
        for item in taken:
            left.remove(item)
    except ValueError:
        raise BadArgument("taken", f"must be among {tuple(items)}", tuple(taken)) from None
    return tuple(_sorted(left, key))


def mcontains(items: Sequence[T], wanted: Iterable[T]) -> bool:
    """Whether the multiset ``items`` holds every item of ``wanted`` (with multiplicity)."""
    wanted = tuple(wanted)
    if len(wanted) == 1:  # the common case: one token, one card
        return wanted[0] in items
    return all(items.count(t) >= wanted.count(t) for t in set(wanted))


def sub_multisets(items: Iterable[T], most: int | None = None, key: Key = None, least: int = 0) -> list[tuple[T, ...]]:
    """Every sub-multiset of ``items`` with ``least`` to ``most`` items (``None``: any number), each sorted by
    ``key``; the smaller first, then in ``key`` order.

    >>> sub_multisets(["red", "red", "green"], least=1, key=["green", "red"].index)
    [('green',), ('red',), ('green', 'red'), ('red', 'red'), ('green', 'red', 'red')]
    """
    order = key or (lambda item: item)
    counts = sorted(Counter(items).items(), key=lambda kv: order(kv[0]))
    found = [
        tuple(item for (item, _), k in zip(counts, picks) for _ in range(k))
        for picks in product(*(range(n + 1) for _, n in counts))
        if least <= sum(picks) <= (sum(picks) if most is None else most)
    ]
    return sorted(found, key=lambda sub: (len(sub), [order(item) for item in sub]))
