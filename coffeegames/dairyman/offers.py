"""What a Dairyman position offers, worked out once for each set of inputs (memoised): the moves of a kind, the dice
left after a lock, a barn after a lock. :mod:`.state` asks these on every step of a game; they depend
on a few small tuples, not on the whole position, so each answer is kept (``lru_cache``) and shared by every state.

>>> [str(r) for r in _roll_choices((2, 5), 1, False)]
['Roll()', 'Roll(freeze=(2,))', 'Roll(freeze=(5,))']
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import TypeVar

from .actions import DieSet, Flip, IceCream, Order, Roll, _made, set_order
from .rules import ABILITIES, tile_of

__all__: list[str] = []  # the engine's own helpers: public names are on the State


@lru_cache(maxsize=4096)
def _abilities_left(ice_cream: tuple[str, ...], used: tuple[str, ...], once_per_tile: bool) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The ice-cream abilities a player with these ice-cream tiles may still use this turn, with the values each rerolls."""
    owned, spent = Counter(tile_of(c).ice_cream for c in ice_cream), Counter(used)
    found = []
    for ability, (_, values) in ABILITIES.items():
        left = owned[ability] - spent[ability] if once_per_tile else int(owned[ability] > 0 and not spent[ability])
        if left > 0:
            found.append((ability, tuple(values)))
    return tuple(found)


@lru_cache(maxsize=4096)
def _left_after(dice: tuple[int, ...], sets: tuple[DieSet, ...], yellow: int) -> tuple[int, ...]:
    """The unlocked white/red ``dice`` left after locking ``sets`` (the yellow die among them, showing ``yellow``, if nonzero)."""
    used = [v for s in sets for v in s]
    if yellow:
        used.remove(yellow)
    left = list(dice)
    for v in used:
        left.remove(v)  # the first of its value: what is left stays sorted (mremove's answer, without sorting again)
    return tuple(left)


@lru_cache(maxsize=4096)
def _barn_with(barn: tuple[DieSet, ...], sets: tuple[DieSet, ...]) -> tuple[DieSet, ...]:
    """A barn's sets with ``sets`` locked into it, in :func:`~.actions.set_order`."""
    return tuple(sorted(barn + sets, key=set_order))


@lru_cache(maxsize=4096)
def _flip_choices(milk: tuple[str, ...], cheese_value: int, ice: int) -> tuple[Flip, ...]:
    """Every ``Flip`` of these milk tiles: to cheese where the yellow die offers ``cheese_value``, to ice cream where
    ``ice`` tokens pay its snowflakes."""
    found = []
    for code in sorted(set(milk)):
        tile = tile_of(code)
        if (tile.cheese is not None and tile.cheese == cheese_value) or (tile.snowflakes is not None and ice >= tile.snowflakes):
            found.append(Flip(code))
    return tuple(found)


@lru_cache(maxsize=4096)
def _ice_cream_choices(left: tuple[tuple[str, tuple[int, ...]], ...], showing: frozenset[int]) -> tuple[IceCream, ...]:
    """Every ``IceCream`` use of the abilities ``left`` (:func:`_abilities_left`) on a value ``showing`` on the unlocked
    dice (a set: which dice show it does not matter, so the few sets of values are worked out once each)."""
    return tuple(_made(IceCream, ability=ability, value=v) for ability, values in left for v in values if v in showing)


@lru_cache(maxsize=4096)
def _roll_choices(dice: tuple[int, ...], tokens: int, yellow_unlocked: bool) -> tuple[Roll, ...]:
    """Every ``Roll`` freezing at most ``tokens`` of the unlocked ``dice`` (and the yellow die, if unlocked), fewest first."""
    found = []
    for freeze in _sub_multisets(dice, tokens):  # sorted tuples of ints: Roll's normal form
        found.append(_made(Roll, freeze=freeze, freeze_yellow=False))
        if yellow_unlocked and len(freeze) < tokens:
            found.append(_made(Roll, freeze=freeze, freeze_yellow=True))
    return tuple(found)


@lru_cache(maxsize=4096)
def _order_choices(display: tuple[str, ...], budget: int) -> tuple[Order, ...]:
    """Every ``Order`` of face-up tiles whose values total at most ``budget``, fewest tiles first."""
    return tuple(_made(Order, tiles=tiles) for tiles in _sub_multisets(display, len(display))  # sorted codes: Order's normal form
                 if sum(tile_of(c).value for c in tiles) <= budget)


T = TypeVar("T", int, str)


def _sub_multisets(items: tuple[T, ...], most: int) -> list[tuple[T, ...]]:
    """:func:`~.deck.sub_multisets` of a sorted tuple (the same sub-multisets in the same order: fewest items first, then
    in order): each size's combinations, the first of equal ones kept (what is made on each new position)."""
    return [sub for k in range(min(most, len(items)) + 1) for sub in dict.fromkeys(combinations(items, k))]
