"""Exact odds for Dairyman's dice: sets summing to ten, busts, locks and rerolls.

Every function counts the C(n + 5, 5) distinct multisets of an n-dice roll with their
multinomial weights (see :mod:`coffeegames.exact.dice`) and returns exact Fractions.
Results are cached, so asking for n = 1..12 shares the work.

Example:
    >>> p_any_set(2)
    Fraction(1, 12)
    >>> p_bust(8) < Fraction(2, 100)
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..errors import BadArgument, BadType
from ..exact import Dist, Estimate, check_count, estimate, face_counts, roll_array
from .rules import ABILITIES, ICE_CREAM_ABILITIES
from .sets import (
    MAX_DICE,
    SET_COUNTS,
    Counts,
    check_roll,
    counts_of,
    dice_of,
    is_bust,
    pack,
    packed_count_vectors,
    packed_has_set,
    packed_most_dice,
    packed_most_sets,
    packings,
)

if TYPE_CHECKING:
    import pandas as pd  # imported by the table functions only: the command line's answers do without it

__all__ = [
    "ICE_CREAM_ABILITIES",
    "LockOption",
    "has_set_array",
    "lock_options",
    "lock_rows",
    "lock_table",
    "most_dice_locked",
    "most_sets_locked",
    "odds_rows",
    "odds_table",
    "p_any_set",
    "p_bust",
    "reroll_p_bust",
    "reroll_rows",
    "reroll_table",
    "simulate_p_any_set",
]


def _check_dice(n: object, frozen: Sequence[int] = (), where: str = "n") -> tuple[int, Counts]:
    dice = check_count(n, where, maximum=MAX_DICE)
    frozen_dice = check_roll(frozen, "frozen")
    if dice + len(frozen_dice) > MAX_DICE:
        raise BadArgument(
            "frozen", f"{dice} dice plus {len(frozen_dice)} frozen is more than Dairyman's {MAX_DICE} dice (8 dairy + 4 red)", frozen
        )
    return dice, counts_of(frozen_dice)


@lru_cache(maxsize=None)
def _roll_dist(n: int, frozen: Counts, measure: str) -> Dist:
    f = {"any": packed_has_set, "dice": packed_most_dice, "sets": packed_most_sets}[measure]
    fp = pack(frozen)
    return Dist.from_weights((f(x + fp), w) for x, w in packed_count_vectors(n))


def p_any_set(n: int, frozen: Sequence[int] = ()) -> Fraction:
    """P(rolling ``n`` dice, next to ``frozen`` dice that keep their values, allows a set).

    >>> p_any_set(1, frozen=[5])
    Fraction(1, 6)
    """
    n, fc = _check_dice(n, frozen)
    return _roll_dist(n, fc, "any")[True]


def p_bust(n: int, frozen: Sequence[int] = ()) -> Fraction:
    """P(the roll busts, :func:`~.sets.is_bust`: no set can be made): ``1 - p_any_set(n, frozen)``."""
    return 1 - p_any_set(n, frozen)


def has_set_array(counts: np.ndarray) -> np.ndarray:
    """Vectorised :func:`has_set`: one boolean per row of a ``(trials, 6)`` count array.

    >>> has_set_array(np.array([[0, 0, 0, 1, 0, 1], [2, 0, 0, 0, 0, 0]])).tolist()   # a 4 and a 6; two 1s
    [True, False]
    """
    if not isinstance(counts, np.ndarray) or counts.ndim != 2 or counts.shape[1] != 6:
        raise BadType("counts", "must be a numpy array of shape (rows, 6): how many of each face 1-6 each row shows",
                      getattr(counts, "shape", counts))
    return np.any([np.all(counts >= np.array(s), axis=1) for s in SET_COUNTS], axis=0)


def simulate_p_any_set(n: int, frozen: Sequence[int] = (), trials: int = 100_000, seed: int | None = 0) -> Estimate:
    """A seeded simulation of :func:`p_any_set`, to set beside the exact answer.

    >>> simulate_p_any_set(3, trials=50_000, seed=1).contains(p_any_set(3))
    True
    """
    n, fc = _check_dice(n, frozen)
    return estimate(lambda rng, k: roll_array(rng, k, n), lambda rolls: has_set_array(face_counts(rolls) + fc), trials, seed)


def most_dice_locked(n: int, frozen: Sequence[int] = ()) -> Dist:
    """Distribution of the largest number of dice that disjoint sets can use.

    >>> most_dice_locked(2)[2]
    Fraction(1, 12)
    """
    n, fc = _check_dice(n, frozen)
    return _roll_dist(n, fc, "dice")


def most_sets_locked(n: int, frozen: Sequence[int] = ()) -> Dist:
    """Distribution of the largest number of disjoint sets that can be locked."""
    n, fc = _check_dice(n, frozen)
    return _roll_dist(n, fc, "sets")


def odds_rows(max_dice: int = 8, frozen: Sequence[int] = ()) -> list[dict[str, object]]:
    """The rows of :func:`odds_table` as dicts (``dice`` first), without pandas.

    >>> odds_rows(3)[1]["p_bust"]
    Fraction(11, 12)
    """
    _check_dice(max_dice, frozen, "max_dice")
    if max_dice < 1:
        raise BadArgument("max_dice", "the table has a row per number of dice 1..max_dice: use 1 or more", max_dice)
    rows = []
    for n in range(1, max_dice + 1):
        rows.append(
            {
                "dice": n,
                "p_bust": p_bust(n, frozen),
                "p_any_set": p_any_set(n, frozen),
                "mean_most_dice": most_dice_locked(n, frozen).mean(),
                "mean_most_sets": most_sets_locked(n, frozen).mean(),
            }
        )
    return rows


def odds_table(max_dice: int = 8, frozen: Sequence[int] = ()) -> pd.DataFrame:
    """One row per number of dice 1..max_dice: bust chance and expected most dice / sets.

    >>> odds_table(3).loc[2, "p_bust"]
    Fraction(11, 12)
    """
    import pandas as pd

    return pd.DataFrame(odds_rows(max_dice, frozen)).set_index("dice")


@dataclass(frozen=True)
class LockOption:
    """One legal way to lock sets from a roll, and what it leaves to reroll."""

    sets: tuple[tuple[int, ...], ...]
    left: tuple[int, ...]
    p_bust_next: Fraction

    @property
    def dice_locked(self) -> int:
        return sum(map(len, self.sets))

    def __str__(self) -> str:
        sets = " ".join("+".join(map(str, s)) for s in self.sets)
        return f"lock {sets}; reroll {len(self.left)} dice (bust {float(self.p_bust_next):.1%})"


def lock_options(roll: Sequence[int]) -> list[LockOption]:
    """Every legal lock (one or more disjoint sets) from ``roll``, each listed once.

    For each: the dice left to reroll and the exact chance that rolling them busts.
    Most sets first, then most dice locked. An empty list means the roll busts.

    >>> [str(o) for o in lock_options([4, 6, 5, 5])]  # doctest: +NORMALIZE_WHITESPACE
    ['lock 4+6 5+5; reroll 0 dice (bust 100.0%)',
     'lock 4+6; reroll 2 dice (bust 91.7%)',
     'lock 5+5; reroll 2 dice (bust 91.7%)']
    """
    counts = counts_of(check_roll(roll))
    options = []
    for sets in packings(counts):
        if not sets:
            continue
        used = counts_of([v for s in sets for v in s])
        left = dice_of(tuple(c - u for c, u in zip(counts, used)))
        options.append(LockOption(sets, left, p_bust(len(left))))
    options.sort(key=lambda o: (-len(o.sets), -o.dice_locked, o.sets))
    return options


_LOCK_COLUMNS = ("sets", "n_sets", "dice_locked", "dice_left", "p_bust_next")
"""The columns of :func:`lock_table` (and the keys of :func:`lock_rows`)."""


def lock_rows(roll: Sequence[int]) -> list[dict[str, object]]:
    """:func:`lock_options` as dicts, one per choice (none if the roll busts), without pandas.

    >>> lock_rows([4, 6, 1])
    [{'sets': '4+6', 'n_sets': 1, 'dice_locked': 2, 'dice_left': 1, 'p_bust_next': Fraction(1, 1)}]
    """
    return [
        {
            "sets": " ".join("+".join(map(str, s)) for s in o.sets),
            "n_sets": len(o.sets),
            "dice_locked": o.dice_locked,
            "dice_left": len(o.left),
            "p_bust_next": o.p_bust_next,
        }
        for o in lock_options(roll)
    ]


def lock_table(roll: Sequence[int]) -> pd.DataFrame:
    """:func:`lock_options` as a DataFrame, one row per choice."""
    import pandas as pd

    return pd.DataFrame(lock_rows(roll), columns=list(_LOCK_COLUMNS))


def reroll_p_bust(roll: Sequence[int], value: int) -> Fraction:
    """P(bust) after an ice-cream reroll of every die in ``roll`` showing ``value``.

    The other dice keep their values. With no die showing ``value`` nothing changes.

    >>> reroll_p_bust([1, 1, 2], 1)  # the 2 stays; two fresh dice must make a set with it
    Fraction(7, 9)
    """
    dice = check_roll(roll)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise BadArgument("value", "the reroll value must be a die value 1-6", value)
    kept = [v for v in dice if v != value]
    return p_bust(len(dice) - len(kept), frozen=kept)


_REROLL_COLUMNS = ("reroll", "value", "ice_cream", "dice_rerolled", "p_bust")
"""The columns of :func:`reroll_table` (and the keys of :func:`reroll_rows`)."""


def reroll_rows(roll: Sequence[int]) -> list[dict[str, object]]:
    """The rows of :func:`reroll_table` as dicts, without pandas.

    >>> [row["reroll"] for row in reroll_rows([1, 1, 2])]
    ['nothing (keep the roll)', 'all 1s', 'all 2s']
    """
    dice = check_roll(roll)
    now = Fraction(1) if is_bust(counts_of(dice)) else Fraction(0)
    rows: list[dict[str, object]] = [
        {"reroll": "nothing (keep the roll)", "value": None, "ice_cream": "", "dice_rerolled": 0, "p_bust": now}
    ]
    for v in sorted(set(dice)):
        tiles = [_TILE_NAMES[key] for key, (_, values) in ABILITIES.items() if v in values]
        rows.append({"reroll": f"all {v}s", "value": v, "ice_cream": " or ".join(tiles) + " tile", "dice_rerolled": dice.count(v),
                     "p_bust": reroll_p_bust(dice, v)})
    return rows


def reroll_table(roll: Sequence[int]) -> pd.DataFrame:
    """Bust chance of ``roll`` as it stands and after each ice-cream reroll it allows.

    One row for keeping the roll, then one row per die value showing (an ability rerolls
    every die of its value), with the ice-cream tiles that can do it: the 1s and 2s have
    their own tile and the chosen-value tile can do any value, so each reroll is listed
    once. ``value`` is None on the first row.

    >>> reroll_table([1, 1, 2, 3])[["reroll", "ice_cream", "dice_rerolled"]].values.tolist()[:2]
    [['nothing (keep the roll)', '', 0], ['all 1s', 'reroll-1s or chosen-value tile', 2]]
    """
    import pandas as pd

    rows = reroll_rows(roll)
    frame = pd.DataFrame(rows, columns=list(_REROLL_COLUMNS))
    frame["value"] = pd.Series([r["value"] for r in rows], dtype=object)  # whole numbers and None, not floats or <NA>
    return frame


_TILE_NAMES = {"reroll_1s": "reroll-1s", "reroll_2s": "reroll-2s", "reroll_chosen": "chosen-value"}
"""Short names of the ice-cream abilities' tiles, for the reroll table."""
