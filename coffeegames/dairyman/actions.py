"""Dairyman's moves: the phases of a game, the players' actions and chance's outcomes.

Actions normalise themselves (sets, frozen dice and tiles sorted), so equal moves compare
equal and print the same. :func:`lock_actions` lists the legal locks of a roll and
:func:`roll_outcomes` a roll's exact odds; the engine (:mod:`.state`) decides which of
them apply in a position.

Example:
    >>> str(Lock(sets=((5, 3, 2), (6, 4))))
    'Lock(4+6, 2+3+5)'
    >>> Phase("lock") == "lock", str(Phase.CONTINUE)
    (True, 'continue')
    >>> [str(a) for a in lock_actions((4, 6), yellow=6)]
    ['Lock(4+6)', 'Lock(4+6; yellow)']
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

from ..engine.actions import action, listed, unchecked
from ..validate import cached, check_count, check_flag
from ..errors import BadType
from ..exact import count_vectors, multinomial
from ..text import action_words
from .rules import ABILITIES, tile_of
from .sets import MAX_DICE, SETS, counts_of, dice_of, pack, packed_packings

__all__ = [
    "WORDS",
    "describe",
    "tile_words",
    "ACTION_KINDS",
    "Action",
    "Bust",
    "Discard",
    "DieSet",
    "Drawn",
    "EndTurn",
    "Flip",
    "IceCream",
    "Lock",
    "Order",
    "Outcome",
    "Phase",
    "Roll",
    "Rolled",
    "Stop",
    "Where",
    "lock_actions",
    "roll_outcomes",
    "set_order",
    "sets_text",
]

DieSet = tuple[int, ...]
"""One set of dice, sorted: ``(4, 6)`` or ``(2, 3, 5)``."""


class Phase(StrEnum):
    """Where a game is; each phase's value is the string saved games use.

    ``DRAW`` (chance: fill the display, then the turn starts), ``ROLL`` (chance: dice),
    ``LOCK`` (lock sets, use ice cream, flip; ``Bust()`` when no set can be made but
    something else could still be tried, option ``optional_actions_before_bust``),
    ``CONTINUE`` (``Stop()`` or ``Roll(...)``, flip), ``ORDER`` (``Order(...)``, flip; then,
    with option ``flip_after_order``, ``State.ordered`` is true and the player may still
    flip until ``EndTurn()``), ``DISCARD`` (a backorder-phase discard with a choice), ``OVER``.
    """

    DRAW = "draw"
    ROLL = "roll"
    LOCK = "lock"
    CONTINUE = "continue"
    ORDER = "order"
    DISCARD = "discard"
    OVER = "over"


class Where(StrEnum):
    """Where the yellow die is this turn: among the unlocked dice, locked in a set, or set aside after cheese."""

    UNLOCKED = "unlocked"
    LOCKED = "locked"
    ASIDE = "aside"


def set_order(s: DieSet) -> tuple[int, DieSet]:
    """Sort key putting sets in :data:`~.sets.SETS` order."""
    return (SETS.index(s) if s in SETS else len(SETS), s)


def sets_text(sets: Sequence[DieSet]) -> str:
    """``"4+6, 2+3+5"``."""
    return ", ".join("+".join(map(str, s)) for s in sets)


_VALUES = listed(int, "die values (whole numbers)")
_TILES = listed(str, "milk tile codes (strings)")


def _lock_sets(value: Any, where: str) -> tuple[DieSet, ...]:
    """Lock's sets: each a sorted tuple of die values, the sets in :func:`set_order`."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise BadType(where, "must be a list of sets of die values", value)
    return tuple(sorted((_VALUES(s, where) for s in value), key=set_order))


@action(lambda a: f"Lock({sets_text(a.sets)}{'; yellow' if a.yellow else ''})", sets=_lock_sets)
class Lock:
    """Lock disjoint sets from the dice just rolled; ``yellow=True`` if the yellow die is one of them.

    >>> str(Lock(sets=([2, 5, 3], (6, 4))))
    'Lock(4+6, 2+3+5)'
    """

    sets: tuple[DieSet, ...]
    yellow: bool = False


@action()
class Bust:
    """Accept the bust (no set can be made): take a backorder token; the turn ends."""


@action()
class Stop:
    """Stop rolling and go to ordering."""


@action(freeze=_VALUES)
class Roll:
    """Roll the unlocked dice again, freezing some with ice tokens (one token each).

    >>> str(Roll()), str(Roll(freeze=(5, 1))), str(Roll(freeze_yellow=True))
    ('Roll()', 'Roll(freeze=(1, 5))', 'Roll(freeze=(), yellow)')
    """

    freeze: tuple[int, ...] = ()
    freeze_yellow: bool = False

    def __str__(self) -> str:
        if not self.freeze and not self.freeze_yellow:
            return "Roll()"
        return f"Roll(freeze={self.freeze}{', yellow' if self.freeze_yellow else ''})"


@action(lambda a: f"Order({', '.join(a.tiles)})", tiles=_TILES)
class Order:
    """Buy these face-up milk tiles (codes); their values total at most the barn value.

    >>> str(Order(("20:cheese5", "10:cheese1")))
    'Order(10:cheese1, 20:cheese5)'
    """

    tiles: tuple[str, ...] = ()


@action()
class EndTurn:
    """End the turn after ordering (option ``flip_after_order``: flips stay open until then); play passes on."""


@action()
class Flip:
    """Flip an owned milk tile: to cheese (yellow die shows its number) or ice cream (pay snowflakes).

    >>> str(Flip("30:cheese3"))
    'Flip(30:cheese3 → cheese)'
    """

    tile: str

    def __str__(self) -> str:
        try:
            kind = "cheese" if tile_of(self.tile).cheese else "ice cream"
        except (ValueError, TypeError):
            kind = "?"
        return f"Flip({self.tile} → {kind})"


@action()
class IceCream:
    """Use an ice-cream ability: reroll every unlocked die showing ``value``.

    >>> str(IceCream("reroll_chosen", 4))
    'IceCream(reroll all of a chosen value: 4s)'
    """

    ability: str
    value: int

    def __str__(self) -> str:
        return f"IceCream({ABILITIES[self.ability][0] if self.ability in ABILITIES else self.ability}: {self.value}s)"


@action("Discard({tile})")
class Discard:
    """Backorder phase: discard this one of your highest-value unflipped tiles."""

    tile: str


@action(dice=_VALUES)
class Rolled:
    """Chance: the values rolled (white/red dice, sorted) and the yellow die's (None if it did not roll).

    >>> str(Rolled((6, 4, 1), yellow=5))
    'rolled 1 4 6, yellow 5'
    """

    dice: tuple[int, ...] = ()
    yellow: int | None = None

    def __str__(self) -> str:
        shown = " ".join(map(str, self.dice)) or "-"
        return f"rolled {shown}" + ("" if self.yellow is None else f", yellow {self.yellow}")


@action(lambda a: f"drew {', '.join(a.tiles)}", tiles=_TILES)
class Drawn:
    """Chance: the milk tiles drawn from the deck (sorted codes)."""

    tiles: tuple[str, ...] = ()


Action = Lock | Bust | Stop | Roll | Order | EndTurn | Flip | IceCream | Discard
"""A player's move."""
Outcome = Rolled | Drawn
"""A chance outcome."""

ACTION_KINDS: tuple[type, ...] = (Lock, Bust, Stop, Roll, Order, Flip, IceCream, Discard, Rolled, Drawn, EndTurn)
"""Every action and chance-outcome class, for JSON."""


@cached(maxsize=None)
def roll_outcomes(rolling: int, yellow: bool) -> tuple[tuple[Rolled, Fraction], ...]:
    """Every roll of ``rolling`` white/red dice (and the yellow die if ``yellow``) with its exact odds.

    >>> sum(p for _, p in roll_outcomes(3, True))
    Fraction(1, 1)
    """
    check_count(rolling, "rolling", MAX_DICE)
    check_flag(yellow, "yellow")
    total = 6 ** (rolling + yellow)
    faces: Sequence[int | None] = range(1, 7) if yellow else (None,)
    return tuple(
        (Rolled(dice_of(c), y), Fraction(multinomial(c), total)) for c, _ in count_vectors(rolling) for y in faces
    )


@cached(maxsize=None)
def lock_actions(dice: tuple[int, ...], yellow: int = 0) -> tuple[Lock, ...]:
    """Every legal lock from unlocked white/red ``dice`` and the yellow die's value (0: not unlocked), most dice first.

    An empty tuple means the dice bust (:func:`~.sets.is_bust`).

    >>> [str(a) for a in lock_actions((4, 6), yellow=6)]
    ['Lock(4+6)', 'Lock(4+6; yellow)']
    """
    if type(dice) is not tuple or len(dice) > MAX_DICE or type(yellow) is not int or not 0 <= yellow <= 6:
        raise BadType("dice", f"must be a tuple of at most {MAX_DICE} die values 1-6, and yellow a value 0-6", dice)
    counts_of(dice)  # a die value outside 1-6 (or not a whole number) is refused, naming it
    return _locks_of(dice, yellow)


_UNIT = {v: pack(counts_of((v,))) for v in range(1, 7)}
"""A die of each value (1-6) as a packed count vector (:func:`~.sets.pack`): a roll's vector is the sum of its dice's."""
_SHIFT = {v: _UNIT[v].bit_length() - 1 for v in range(1, 7)}
"""Where each value's count sits in a packed count vector."""


@lru_cache(maxsize=None)
def _locks_of(dice: tuple[int, ...], yellow: int) -> tuple[Lock, ...]:
    """:func:`lock_actions` for the engine's own dice (sorted values 1-6): the same locks in the same order, from
    :func:`_ranked_packings` of the dice's packed counts, each lock made once (:func:`_lock_of`). A value that is no die
    (a position built by hand) gets :func:`lock_actions`' error."""
    try:
        x = sum(map(_UNIT.__getitem__, dice))
        shift = _SHIFT[yellow] if yellow else 0
    except (KeyError, TypeError):
        return lock_actions(dice, yellow)  # which refuses it, naming it
    if not yellow:
        return tuple([_lock_of(places, False) for places, _ in _ranked_packings(x)])
    plain = (x >> shift) & 31  # dice of the yellow's value besides it
    found = []
    for places, used in _ranked_packings(x + _UNIT[yellow]):
        used = (used >> shift) & 31  # dice of the yellow's value the sets take
        if used == 0:
            found.append(_lock_of(places, False))
        elif used <= plain:  # the yellow die may be one of them, or not: no yellow first
            found += (_lock_of(places, False), _lock_of(places, True))
        else:
            found.append(_lock_of(places, True))
    return tuple(found)


@lru_cache(maxsize=None)
def _ranked_packings(x: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The non-empty packings of packed count vector ``x`` (:func:`~.sets.packed_packings`), each with its dice's packed
    counts, most dice first, then most sets, then the sets in :data:`~.sets.SETS` order (the order of :func:`lock_actions`)."""
    found = [(places, sum(_SET_UNITS[i] for i in places)) for places in packed_packings(x)[1:]]  # [0] is the empty packing
    found.sort(key=lambda item: (-sum(_SET_SIZES[i] for i in item[0]), -len(item[0]), item[0]))
    return tuple(found)


_SET_UNITS = tuple(pack(counts_of(s)) for s in SETS)
_SET_SIZES = tuple(map(len, SETS))


@lru_cache(maxsize=None)
def _lock_of(places: tuple[int, ...], yellow: bool) -> Lock:
    """The lock of the sets at ``places`` in :data:`~.sets.SETS` (in that order: :class:`Lock`'s normal form), made once."""
    return _lock(tuple(SETS[i] for i in places), yellow)


def _lock(sets: tuple[DieSet, ...], yellow: bool) -> Lock:
    """``Lock(sets, yellow)`` for sets already sorted as :class:`Lock` sorts them (skips the normalising check)."""
    return _made(Lock, sets=sets, yellow=yellow)


A = TypeVar("A")


def _made(kind: type[A], **fields: Any) -> A:
    """``kind(**fields)`` without its ``__post_init__`` check, for the engine's own moves whose fields are already
    in normal form (sorted tuples of the right kind, every field given): the same value, made faster.

    >>> _made(Roll, freeze=(1, 5), freeze_yellow=False) == Roll(freeze=(5, 1))
    True
    """
    return unchecked(kind, fields)


WORDS = {
    "Bust": "Accept the bust (a backorder token)", "Stop": "Stop and order", "Roll": "Roll again", "Order": "Order",
    "EndTurn": "End the turn", "Flip": "Flip", "IceCream": "Ice cream", "Discard": "Discard",
}
"""Each action's name in a player's words (by class name), for :func:`describe`."""


def describe(action: object) -> str:
    """An action as a player reads it (the views show this; ``str`` stays the short code of saved logs).

    >>> describe(Lock(sets=((4, 6), (2, 3, 5)), yellow=True)), describe(Roll(freeze=(5,))), describe(Order())
    ('Lock 4+6 and 2+3+5 (the yellow die in a set)', 'Roll again, freezing 5', 'Order nothing')
    >>> describe(Order(("10:cheese1", "20:ice2:2s"))), describe(Flip("30:cheese3"))
    ('Order 20 (ice 2: 2s) and 10 (cheese 1)', 'Flip 30 (cheese 3) to cheese')
    """
    if isinstance(action, Lock):
        sets = [("+".join(map(str, s))) for s in action.sets]
        listed = ", ".join(sets[:-1]) + " and " + sets[-1] if len(sets) > 1 else sets[0]
        return f"Lock {listed}" + (" (the yellow die in a set)" if action.yellow else "")
    if isinstance(action, Roll):
        frozen = list(map(str, action.freeze)) + (["the yellow die"] if action.freeze_yellow else [])
        return "Roll again" + (f", freezing {' '.join(frozen)}" if frozen else "")
    if isinstance(action, Order):
        named = [tile_words(code) for code in sorted(action.tiles, key=_by_value, reverse=True)]
        return "Order " + (", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]) if named else "Order nothing"
    if isinstance(action, Flip):
        return f"Flip {tile_words(action.tile)} to {'cheese' if tile_of(action.tile).cheese else 'ice cream'}"
    if isinstance(action, Discard):
        return f"Discard {tile_words(action.tile)}"
    return action_words(action, WORDS)


def tile_words(code: str) -> str:
    """A milk tile as the board shows it: its value, then its cheese number or its ice cost and ability.

    >>> tile_words("20:cheese5"), tile_words("40:ice3:chosen")
    ('20 (cheese 5)', '40 (ice 3: any)')
    """
    tile = tile_of(code)
    if tile.cheese is not None:
        return f"{tile.value} (cheese {tile.cheese})"
    return f"{tile.value} (ice {tile.snowflakes}: {str(tile.ice_cream).removeprefix('reroll_').replace('chosen', 'any')})"


def _by_value(code: str) -> tuple[int, str]:
    return tile_of(code).value, code
