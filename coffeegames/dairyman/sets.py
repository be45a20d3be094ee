"""Dairyman's sets: two or three dice summing to exactly ten, and the bust rule (docs/rules/dairyman.md).

A roll is handled as a *count vector* ``(c1, ..., c6)``: how many dice show each
value (``counts_of(roll)`` makes one). ``has_set``, ``most_dice`` and ``most_sets`` take
count vectors; the functions in :mod:`.odds` take rolls or numbers of dice. Only the counts matter for which sets can be locked, so every question about
a roll is answered once per count vector and shared by every ordering of the dice.

Example:
    >>> SETS
    ((4, 6), (5, 5), (1, 3, 6), (1, 4, 5), (2, 2, 6), (2, 3, 5), (2, 4, 4), (3, 3, 4))
    >>> has_set(counts_of([1, 2, 2, 5]))
    False
    >>> most_dice(counts_of([4, 6, 5, 5, 2, 2, 6]))
    7
    >>> is_bust(counts_of([1, 1, 2]))
    True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement, islice
from math import comb

from ..validate import cached
from ..errors import BadArgument, BadType, TooBig

__all__ = [
    "Counts",
    "MAX_DICE",
    "SETS",
    "SET_COUNTS",
    "SET_SIZES",
    "TARGET",
    "check_counts",
    "check_roll",
    "counts_of",
    "dice_of",
    "has_set",
    "is_bust",
    "most_dice",
    "most_sets",
    "pack",
    "packed_choices",
    "packed_count_vectors",
    "packed_has_set",
    "packed_lock_classes",
    "packed_lock_masks",
    "packed_most_dice",
    "packed_most_sets",
    "packed_packings",
    "packings",
]

Counts = tuple[int, int, int, int, int, int]

TARGET = 10
"""The sum a set must make (Rule)."""
SET_SIZES = (2, 3)
"""A set is 2 or 3 dice; a 4-dice ten is not a set (Fact)."""
MAX_DICE = 12
"""8 dairy dice (7 white, 1 yellow) plus at most 4 red backorder dice."""


def _all_sets() -> tuple[tuple[int, ...], ...]:
    found = [
        combo
        for size in SET_SIZES
        for combo in combinations_with_replacement(range(1, 7), size)
        if sum(combo) == TARGET
    ]
    return tuple(found)


SETS: tuple[tuple[int, ...], ...] = _all_sets()
"""Every kind of set, as sorted tuples of die values."""


def counts_of(dice: Sequence[int]) -> Counts:
    """The count vector of a sequence of die values 1..6."""
    c = [0] * 6
    if isinstance(dice, (str, bytes)) or not hasattr(dice, "__iter__"):
        raise BadType("dice", "must be a list of die values 1-6", dice)
    for v in dice:
        if type(v) is not int or not 1 <= v <= 6:
            raise BadArgument("dice", "must be die values 1-6", v)
        c[v - 1] += 1
    return tuple(c)  # type: ignore[return-value]


def dice_of(counts: Sequence[int]) -> tuple[int, ...]:
    """The sorted die values of a count vector."""
    return tuple(v for v in range(1, 7) for _ in range(counts[v - 1]))


SET_COUNTS: tuple[Counts, ...] = tuple(counts_of(s) for s in SETS)


def check_roll(roll: object, what: str = "roll") -> tuple[int, ...]:
    """Validate a list of die values and return it sorted, or raise a clear error.

    >>> check_roll([6, 4, 5])
    (4, 5, 6)
    """
    if isinstance(roll, (str, bytes, set, frozenset, dict)) or not hasattr(roll, "__iter__"):
        # (a set would silently lose equal dice: {4, 4, 6} is {4, 6})
        raise BadType(what, "must be a list of die values 1-6, e.g. [4, 6, 5, 5] (not a string, set or dict)", roll)
    values = list(islice(roll, MAX_DICE + 1))  # never more: a huge or endless roll is refused unread
    if len(values) > MAX_DICE:
        raise TooBig(what, f"has more than {MAX_DICE} dice; Dairyman has at most {MAX_DICE} (8 dairy + 4 red)", values)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise BadType(what, f"holds {v!r}: die values must be whole numbers 1-6", values)
        if not 1 <= v <= 6:
            raise BadArgument(what, f"holds {v}: die values must be 1-6", values)
    return tuple(sorted(values))


def check_counts(counts: object) -> Counts:
    """Return ``counts`` if it is a count vector (six whole numbers ≥ 0), else raise a clear error."""
    if type(counts) is not tuple or len(counts) != 6 or not all(type(c) is int and c >= 0 for c in counts):
        raise BadType(
            "counts",
            "must be a count vector (how many dice show 1, 2, ..., 6) such as counts_of([4, 6]) == (0, 0, 0, 1, 0, 1)",
            counts,
        )
    return counts


# A count vector packed into one int, _BITS bits per value: 4 bits hold a count up to
# 15 >= MAX_DICE and the top bit of each field is a guard. ``(x | _GUARD) - s`` borrows
# from a field's guard bit exactly when that field of x is smaller than s's, so "set s
# fits in x" is one subtraction and one mask, and "x minus s" is ``x - s``. This makes
# the memoised searches below about ten times faster than on tuples (benchmarks/).
_BITS = 5
_GUARD = sum(1 << (_BITS * i + _BITS - 1) for i in range(6))


def pack(counts: Sequence[int]) -> int:
    """A count vector (each count 0-15) as one int."""
    x = 0
    for i, k in enumerate(counts):
        x |= k << (_BITS * i)
    return x


_PACKED_SETS: tuple[tuple[int, int], ...] = tuple((pack(c), len(s)) for c, s in zip(SET_COUNTS, SETS))


@cached(maxsize=None)
def packed_count_vectors(n: int) -> tuple[tuple[int, int], ...]:
    """Every roll of ``n`` d6 as (packed count vector, number of ordered rolls).

    The same rolls and weights, in the same order, as :func:`coffeegames.exact.count_vectors`
    (most 1s first, then most 2s, ...), built value by value with binomial weights: choose
    which k of the ``left`` dice show this value. Cached: the solvers ask for each n often.
    """
    out: list[tuple[int, int]] = []

    def fill(x: int, left: int, weight: int, face: int) -> None:
        shift = _BITS * face
        if face == 5:
            out.append((x | (left << shift), weight))
            return
        for k in range(left, -1, -1):
            fill(x | (k << shift), left - k, weight * comb(left, k), face + 1)

    fill(0, n, 1, 0)
    return tuple(out)


# The three searches below are hot (benchmarks/): plain loops beat any()/max() here.
@cached(maxsize=None)
def packed_has_set(x: int) -> bool:
    g = x | _GUARD
    for s, _ in _PACKED_SETS:
        if (g - s) & _GUARD == _GUARD:
            return True
    return False


@cached(maxsize=None)
def packed_most_dice(x: int) -> int:
    g, best = x | _GUARD, 0
    for s, size in _PACKED_SETS:
        if (g - s) & _GUARD == _GUARD:
            v = size + packed_most_dice(x - s)
            if v > best:
                best = v
    return best


@cached(maxsize=None)
def packed_most_sets(x: int) -> int:
    g, best = x | _GUARD, 0
    for s, _ in _PACKED_SETS:
        if (g - s) & _GUARD == _GUARD:
            v = 1 + packed_most_sets(x - s)
            if v > best:
                best = v
    return best


def has_set(counts: Counts) -> bool:
    """Whether at least one set can be locked from the dice with these counts."""
    return packed_has_set(pack(check_counts(counts)))


def is_bust(counts: Counts) -> bool:
    """The bust rule, in its one place: dice bust when no set at all can be locked from them.

    The engine (``State.busted``) and the bots ask this function; the odds
    (:func:`~.odds.p_bust`) count its packed form (``not packed_has_set``) over every roll.

    >>> is_bust(counts_of([4, 6, 1])), is_bust(counts_of([1, 2, 2, 5]))
    (False, True)
    """
    return not has_set(counts)


def most_dice(counts: Counts) -> int:
    """The largest number of dice that disjoint sets can use, for a count vector."""
    return packed_most_dice(pack(check_counts(counts)))


def most_sets(counts: Counts) -> int:
    """The largest number of disjoint sets that can be locked, for a count vector."""
    return packed_most_sets(pack(check_counts(counts)))


def packings(counts: Counts, start: int = 0) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every multiset of disjoint sets that fits in ``counts`` (the empty one included).

    Each packing is listed once, as a tuple of sets in :data:`SETS` order (the empty one
    first, then by the first set's place in :data:`SETS`, recursively).
    """
    return (tuple(SETS[i] for i in p) for p in packed_packings(pack(counts), start))


@cached(maxsize=None)
def packed_packings(x: int, start: int = 0) -> tuple[tuple[int, ...], ...]:
    """:func:`packings` of a packed count vector, each packing as its sets' places in :data:`SETS` (cached)."""
    found: list[tuple[int, ...]] = [()]
    g = x | _GUARD
    for i in range(start, len(_PACKED_SETS)):
        s = _PACKED_SETS[i][0]
        if (g - s) & _GUARD == _GUARD:
            found.extend((i,) + rest for rest in packed_packings(x - s, i))
    return tuple(found)


# -- lock choices as bit masks (the turn solver's tables) --------------------------------------------
# A lock's *choice* is (t sets, u dice). The choices a roll offers are one int: bit
# ``_CHOICE_BITS * t + u`` is set when some lock takes t sets using u dice (u <= 15 fits).
# Locking set s (size k) first and then a choice (t, u) of what is left gives (t + 1, u + k):
# the rest's mask shifted by ``_CHOICE_BITS + k``. So a roll's mask is built from the masks
# of rolls with 2 and 3 dice fewer, one dict lookup a set, smallest rolls first.
_CHOICE_BITS = 16


@cached(maxsize=None)
def packed_lock_masks(n: int) -> dict[int, int]:
    """The lock choices of every roll of ``n`` dice: packed count vector -> choice mask (cached; do not change it).

    >>> packed_choices(packed_lock_masks(4)[pack(counts_of([4, 6, 5, 5]))])
    ((1, 2), (2, 4))
    """
    if n > 15:
        raise TooBig("n", "the lock-choice tables hold rolls of at most 15 dice", n)
    steps = [(s, packed_lock_masks(n - size), _CHOICE_BITS + size) for s, size in _PACKED_SETS if n >= size]
    masks: dict[int, int] = {}
    for x, _ in packed_count_vectors(n):
        g, m = x | _GUARD, 0
        for s, rest, shift in steps:
            if (g - s) & _GUARD == _GUARD:
                m |= (1 | rest[x - s]) << shift
        masks[x] = m
    return masks


@cached(maxsize=None)
def packed_lock_classes(n: int) -> tuple[tuple[int, int], ...]:
    """The rolls of ``n`` dice grouped by the lock choices they offer: (choice mask, ordered rolls), weights summing
    to 6**n, in the order each mask first comes in :func:`packed_count_vectors` (cached)."""
    masks = packed_lock_masks(n)
    grouped: dict[int, int] = {}
    for x, w in packed_count_vectors(n):
        m = masks[x]
        grouped[m] = grouped.get(m, 0) + w
    return tuple(grouped.items())


@cached(maxsize=None)
def packed_choices(mask: int) -> tuple[tuple[int, int], ...]:
    """The (sets, dice used) choices a choice mask holds, fewest sets first, then fewest dice (cached).

    >>> packed_choices((1 << (16 + 2)) | (1 << (32 + 4)))
    ((1, 2), (2, 4))
    """
    found = []
    bit = 0
    while mask >> bit:
        if (mask >> bit) & 1:
            found.append(divmod(bit, _CHOICE_BITS))
        bit += 1
    return tuple(found)
