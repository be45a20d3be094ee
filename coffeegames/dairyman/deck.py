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
from ..exact.draws import distinct_below
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
            taken += [pile[i] for i in distinct_below(rng, len(pile), need)]
            break
    return tuple(taken)


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
