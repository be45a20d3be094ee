"""The milk-tile deck as a tuple of shuffled piles, and the exact odds of drawing from it.

The opening deck is one pile; each backorder phase puts the display and the discards,
shuffled, under the deck as a new pile. A draw takes whole piles from the top while it
can, then a uniformly random multiset of the next pile (:class:`~coffeegames.exact.Bag`
odds), so every draw's odds are exact. Tiles are codes, and equal tiles are
interchangeable, so every pile and draw is a sorted tuple of codes.

Example:
    >>> deck = (("10:cheese1",), ("20:cheese5", "20:cheese5", "30:cheese3"))
    >>> [(tiles, str(p)) for tiles, p in draw_outcomes(deck, 2)]
    [(('10:cheese1', '30:cheese3'), '1/3'), (('10:cheese1', '20:cheese5'), '2/3')]
    >>> take(deck, ("10:cheese1", "30:cheese3"))
    (('20:cheese5', '20:cheese5'),)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from math import comb
from typing import TypeVar

import numpy as np

from ..errors import BadArgument, IllegalAction
from ..exact import Bag, multiset
from ..exact.draws import _lemire
from ..validate import cached

__all__ = ["Deck", "deck_size", "draw_outcomes", "sample_draw", "sub_multisets", "take"]

T = TypeVar("T", int, str)

Deck = tuple[tuple[str, ...], ...]
"""Piles of tile codes, top pile first, each sorted."""


def sub_multisets(items: Sequence[T], most: int) -> Iterator[tuple[T, ...]]:
    """Every sub-multiset of sorted ``items`` with at most ``most`` elements, smallest first.

    >>> list(sub_multisets((1, 1, 5), 1))
    [(), (1,), (5,)]
    """
    return iter(_sub_multisets(tuple(items), most))


@cached(maxsize=4096)
def _sub_multisets(items: tuple[T, ...], most: int) -> tuple[tuple[T, ...], ...]:
    return tuple(multiset.sub_multisets(items, most))  # kept: the legal moves ask for the same few, many times


def deck_size(deck: Deck) -> int:
    """Tiles left in the deck."""
    return sum(map(len, deck))


def draw_outcomes(deck: Deck, need: int) -> Iterator[tuple[tuple[str, ...], Fraction]]:
    """Every draw of ``need`` tiles from ``deck`` (sorted codes) with its exact probability."""
    whole: tuple[str, ...] = ()
    for pile in deck:
        if need >= len(pile):
            whole += pile
            need -= len(pile)
            continue
        bag, ways = Bag(pile), comb(len(pile), need)
        for part, w in bag.draw_weights(need):
            yield tuple(sorted(whole + tuple(map(str, part)))), Fraction(w, ways)
        return
    yield tuple(sorted(whole)), Fraction(1)


def sample_draw(deck: Deck, need: int, rng: np.random.Generator) -> tuple[str, ...]:
    """One draw of ``need`` tiles, with its exact probability, without listing every draw."""
    taken: list[str] = []
    for pile in deck:
        if need >= len(pile):
            taken += pile
            need -= len(pile)
        else:
            taken += [pile[i] for i in _choice_without_replacement(rng, len(pile), need)]
            break
    return tuple(taken)


def _choice_without_replacement(rng: np.random.Generator, n: int, k: int) -> list[int]:
    """``rng.choice(n, size=k, replace=False).tolist()`` for ``k <= n <= 10,000`` (the same numbers, the generator left in
    the same place), without the arrays: numpy's own algorithm there (Floyd's sample of ``k`` of ``range(n)``, then a
    Fisher-Yates shuffle of it), drawing each bounded number as numpy does (:mod:`~coffeegames.exact.draws`' Lemire draw on
    the bit generator's ``next_uint32``). ``tests/test_dairyman_engine.py`` checks the equality on every numpy bit
    generator. Anything else (not a ``Generator``, a bigger ``n``) is numpy's own call.

    >>> a, b = np.random.default_rng(7), np.random.default_rng(7)
    >>> _choice_without_replacement(a, 30, 4) == b.choice(30, size=4, replace=False).tolist()
    True
    """
    if type(rng) is not np.random.Generator or not 0 <= k <= n <= 10_000:
        return [int(i) for i in rng.choice(n, size=k, replace=False)]
    raw = rng.bit_generator.ctypes
    next32, state = raw.next_uint32, raw.state
    found: list[int] = []
    chosen: set[int] = set()
    for j in range(n - k, n):  # Floyd: a number below j + 1, or j itself if that number is taken
        value = _lemire(next32, state, j + 1) if j else 0  # (a range of one draws nothing)
        if value in chosen:
            value = j
        chosen.add(value)
        found.append(value)
    for i in range(k - 1, 0, -1):  # numpy shuffles the sample
        swap = _lemire(next32, state, i + 1)
        found[i], found[swap] = found[swap], found[i]
    return found


def take(deck: Deck, tiles: Sequence[str], need: int | None = None) -> Deck:
    """The deck after drawing ``tiles`` (``need`` of them, if given); an ``IllegalAction`` if that draw cannot happen."""
    if need is not None and len(tiles) != need:
        raise IllegalAction(f"a draw here takes {need} tiles, not {len(tiles)}")
    left, piles = list(tiles), list(deck)
    try:
        while piles and len(left) >= len(piles[0]):
            left = list(multiset.mremove(left, piles.pop(0)))
        if left:
            piles[0] = multiset.mremove(piles[0], left)
    except BadArgument:
        raise IllegalAction(f"{tuple(tiles)} cannot be drawn from the deck {deck}") from None
    return tuple(p for p in piles if p)
