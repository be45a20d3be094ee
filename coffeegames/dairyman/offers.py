"""What a Dairyman position offers, worked out once for each set of inputs (memoised): the moves of a kind, the dice
left after a lock, a barn after a lock, whether dice bust. :mod:`.state` asks these on every step of a game; they depend
on a few small tuples, not on the whole position, so each answer is kept (``lru_cache``) and shared by every state.

>>> [str(r) for r in _roll_choices((2, 5), 1, False)]
['Roll()', 'Roll(freeze=(2,))', 'Roll(freeze=(5,))']
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .actions import DieSet, Flip, IceCream, Order, Roll, _made, set_order
from ..exact.multiset import mremove
from .deck import sub_multisets
from .rules import ABILITIES, tile_of
from .sets import counts_of, is_bust

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
    return mremove(dice, used)


@lru_cache(maxsize=4096)
def _barn_with(barn: tuple[DieSet, ...], sets: tuple[DieSet, ...]) -> tuple[DieSet, ...]:
    """A barn's sets with ``sets`` locked into it, in :func:`~.actions.set_order`."""
    return tuple(sorted(barn + sets, key=set_order))


@lru_cache(maxsize=4096)
def _busts(dice: tuple[int, ...], yellow: int) -> bool:
    """Whether unlocked ``dice`` and the yellow die's value (0: not unlocked) make no set (:func:`~.sets.is_bust`)."""
    return is_bust(counts_of(dice + ((yellow,) if yellow else ())))


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
def _ice_cream_choices(left: tuple[tuple[str, tuple[int, ...]], ...], unlocked: tuple[int, ...]) -> tuple[IceCream, ...]:
    """Every ``IceCream`` use of the abilities ``left`` (:func:`_abilities_left`) on a value among the ``unlocked`` dice."""
    showing = set(unlocked)
    return tuple(IceCream(ability, v) for ability, values in left for v in values if v in showing)


@lru_cache(maxsize=4096)
def _roll_choices(dice: tuple[int, ...], tokens: int, yellow_unlocked: bool) -> tuple[Roll, ...]:
    """Every ``Roll`` freezing at most ``tokens`` of the unlocked ``dice`` (and the yellow die, if unlocked), fewest first."""
    found = []
    for freeze in sub_multisets(dice, tokens):  # sorted tuples of ints: Roll's normal form
        found.append(_made(Roll, freeze=freeze, freeze_yellow=False))
        if yellow_unlocked and len(freeze) < tokens:
            found.append(_made(Roll, freeze=freeze, freeze_yellow=True))
    return tuple(found)


@lru_cache(maxsize=4096)
def _order_choices(display: tuple[str, ...], budget: int) -> tuple[Order, ...]:
    """Every ``Order`` of face-up tiles whose values total at most ``budget``, fewest tiles first."""
    return tuple(_made(Order, tiles=tiles) for tiles in sub_multisets(display, len(display))  # sorted codes: Order's normal form
                 if sum(tile_of(c).value for c in tiles) <= budget)
