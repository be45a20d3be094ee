"""What a stopped Dairyman turn is worth: the milk tiles its sets can buy (docs/rules/dairyman.md, "A turn", steps 8-9).

Each locked set adds ``set_value`` (10) to the barn value, and the barn value buys any
face-up milk tiles whose costs add up to at most it; a tile is worth its cost in points.
So a turn's worth is *lumpy*: against a display of 10 / 40 / 40, one, two or three sets
buy only the 10 tile, and the fourth set buys a 40 instead (30 more).

A **payoff table** gives the points a stopped turn scores for 0, 1, 2, … sets locked.
:func:`display_payoff` builds the one a display offers; :func:`payoff_table` reads any
table a caller writes (a sequence or a mapping), and ``linear_payoff(10)`` is the
"10 points a set" shorthand. The turn solver (:mod:`.turn`) takes any of them.

What a bought tile may bring *later* (the cheese its number may make, the ice-cream
ability its snowflakes may buy) is not on the table at the end of this turn, so it is
**ignored by default**: ``cheese_value`` and ``ice_cream_value`` add a number of points
per bought cheese or snowflake tile if you want to count it (e.g. ``cheese_value=
Fraction(5, 6)`` for a cheese worth 5 that comes up with chance 1/6 later).

Example:
    >>> pay = display_payoff([10, 40, 40])
    >>> [int(p) for p in pay.points]       # 0..6 sets
    [0, 10, 10, 10, 40, 50, 50]
    >>> pay.bought(4), pay.bought(5)
    (('40',), ('10', '40'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import pandas as pd

from ..errors import BadArgument, BadType, TooBig
from ..validate import check_count
from .rules import TILE_VALUES, Tile, tile_of
from .sets import MAX_DICE

__all__ = ["MAX_SETS", "DisplayPayoff", "Payoff", "display_payoff", "exact_points", "linear_payoff", "payoff_table", "payoff_text"]

MAX_SETS = MAX_DICE // 2
"""The most sets one turn can lock: 12 dice (8 dairy + 4 red) make at most 6 sets of two."""

Payoff = tuple[Fraction, ...]
"""Points for 0, 1, …, :data:`MAX_SETS` sets locked (always ``MAX_SETS + 1`` entries)."""


def exact_points(value: object, where: str) -> Fraction:
    """``value`` as a Fraction if it is an int or a Fraction (points are exact), else ``BadType`` naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise BadType(where, "must be an int or Fraction (exact)", value)
    return Fraction(value)


def linear_payoff(points_per_set: Fraction | int) -> Payoff:
    """``points_per_set`` for each set locked: the shorthand the turn solver has always used.

    >>> linear_payoff(10)[:3]
    (Fraction(0, 1), Fraction(10, 1), Fraction(20, 1))
    """
    pps = exact_points(points_per_set, "points_per_set")
    return tuple(pps * s for s in range(MAX_SETS + 1))


def payoff_table(payoff: Sequence[Fraction | int] | Mapping[int, Fraction | int] | DisplayPayoff) -> Payoff:
    """Read a payoff table: points for 0, 1, 2, … sets locked.

    A **sequence** lists the points for 0, 1, 2, … sets; counts beyond its end score as
    its last entry (more sets than the display can use buy nothing more). A **mapping**
    ``{sets: points}`` may leave counts out: a count not listed scores as the largest
    listed count below it (0 below the smallest). A :class:`DisplayPayoff` gives its points.
    Points are ints or Fractions (exact).

    >>> [int(p) for p in payoff_table([0, 10, 10, 10, 50])]
    [0, 10, 10, 10, 50, 50, 50]
    >>> [int(p) for p in payoff_table({1: 10, 4: 50})]
    [0, 10, 10, 10, 50, 50, 50]
    """
    if isinstance(payoff, DisplayPayoff):
        return payoff.points
    if isinstance(payoff, Mapping):
        points = {}
        for k, v in payoff.items():
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= MAX_SETS:
                raise BadArgument("payoff", f"keys are numbers of sets 0-{MAX_SETS}", k)
            points[k] = exact_points(v, f"payoff[{k}]")
        table, last = [], Fraction(0)
        for s in range(MAX_SETS + 1):
            last = points.get(s, last)
            table.append(last)
        return tuple(table)
    if isinstance(payoff, (str, bytes)) or not isinstance(payoff, Sequence) or not payoff:
        raise BadType("payoff", "must be a non-empty sequence (points for 0, 1, 2, … sets) or a mapping {sets: points}", payoff)
    if len(payoff) > MAX_SETS + 1:
        raise BadArgument("payoff", f"lists points for 0-{MAX_SETS} sets: at most {MAX_SETS + 1} entries", payoff)
    entries = [exact_points(v, f"payoff[{i}]") for i, v in enumerate(payoff)]
    return tuple(entries + [entries[-1]] * (MAX_SETS + 1 - len(entries)))


def payoff_text(payoff: Payoff) -> str:
    """A payoff table in a few words, the repeats at its end folded.

    >>> payoff_text(linear_payoff(10))
    '10 points a set'
    >>> payoff_text(display_payoff([10, 40, 40]).points)
    'by sets locked 0, 1, 2, …: 0, 10, 10, 10, 40, 50 (and 50 for more)'
    """
    payoff = payoff_table(payoff)
    step = payoff[1] - payoff[0]
    if payoff[0] == 0 and payoff == tuple(step * s for s in range(len(payoff))):
        return f"{step} point{'s' * (step != 1)} a set"
    end = len(payoff)
    while end > 1 and payoff[end - 1] == payoff[end - 2]:
        end -= 1
    shown = ", ".join(str(p) for p in payoff[:end])
    more = f" (and {payoff[-1]} for more)" if end < len(payoff) else ""
    return f"by sets locked 0, 1, 2, …: {shown}{more}"


@dataclass(frozen=True)
class DisplayPayoff:
    """What a stopped turn buys from one display, for each number of sets locked. Build it with :func:`display_payoff`."""

    display: tuple[Tile | int, ...]
    set_value: int
    cheese_value: Fraction
    ice_cream_value: Fraction
    points: Payoff
    """Points for 0..:data:`MAX_SETS` sets: the best tiles' values (plus the bonuses, if set)."""
    tiles: tuple[tuple[Tile | int, ...], ...]
    """The tiles bought with 0..:data:`MAX_SETS` sets (the best choice; see :func:`display_payoff`)."""

    def bought(self, sets: int) -> tuple[str, ...]:
        """The codes (or plain values) of the tiles ``sets`` sets buy."""
        check_count(sets, "sets")
        return tuple(str(t) for t in self.tiles[min(sets, MAX_SETS)])

    def table(self) -> pd.DataFrame:
        """One row per number of sets: barn value, the tiles bought, points (exact).

        >>> display_payoff([20, 20, 30]).table().loc[5, "tiles"]
        '20 30'
        """
        rows = [
            {"sets": s, "barn_value": self.set_value * s, "tiles": " ".join(self.bought(s)) or "-", "points": p}
            for s, p in enumerate(self.points)
        ]
        return pd.DataFrame(rows).set_index("sets")

    def __str__(self) -> str:
        return f"the tiles the sets buy from the display {' '.join(map(str, self.display)) or '(empty)'}"


def _tile(t: object, i: int) -> Tile | int:
    if isinstance(t, Tile):
        return t
    if isinstance(t, str):
        return tile_of(t)
    if isinstance(t, int) and not isinstance(t, bool) and t in TILE_VALUES:
        return t
    raise BadArgument(f"display[{i}]", f"a tile code like '30:cheese4', a Tile or a plain value {', '.join(map(str, TILE_VALUES))}", t)


def _worth(t: Tile | int, cheese_value: Fraction, ice_cream_value: Fraction) -> Fraction:
    if isinstance(t, int):
        return Fraction(t)
    return t.value + (cheese_value if t.cheese is not None else ice_cream_value)


MAX_DISPLAY = 12
"""The most tiles :func:`display_payoff` takes (its 4,096 subsets; the rules' display holds 3)."""


def display_payoff(
    display: Sequence[Tile | str | int],
    set_value: int = 10,
    cheese_value: Fraction | int = 0,
    ice_cream_value: Fraction | int = 0,
) -> DisplayPayoff:
    """The points a stopped turn gets for 0, 1, 2, … sets against this display, and the tiles chosen.

    Args:
        display: the face-up milk tiles: codes (``"40:cheese2"``), :class:`Tile` objects
            or plain values (10, 20, 30, 40) when only the cost matters.
        set_value: barn value of a set (option ``set_value``, 10).
        cheese_value, ice_cream_value: points counted for each bought cheese / snowflake
            tile on top of its value, for what it may bring in later turns. Default 0:
            **ignored**, a stopped turn is worth exactly the tiles it buys.

    With ``s`` sets the barn value ``set_value × s`` buys the subset of the display whose
    costs fit and whose worth is largest (every subset is tried: exact). Ties go to the
    subset spending the most barn value, then to fewer tiles.

    >>> display_payoff(["10:cheese1", "40:cheese2", "40:ice2:1s"]).bought(5)
    ('10:cheese1', '40:cheese2')
    """
    if isinstance(display, (str, bytes)) or not isinstance(display, Sequence):
        raise BadType("display", "must be a list of tiles (codes, Tiles or values 10-40)", display)
    if len(display) > MAX_DISPLAY:  # every subset is tried
        raise TooBig("display", f"a display of at most {MAX_DISPLAY} tiles (every subset of it is tried)", len(display))
    tiles = tuple(_tile(t, i) for i, t in enumerate(display))
    if isinstance(set_value, bool) or not isinstance(set_value, int) or set_value < 0:
        raise BadArgument("set_value", "must be a whole number 0 or more", set_value)
    cheese, ice = exact_points(cheese_value, "cheese_value"), exact_points(ice_cream_value, "ice_cream_value")
    subsets = [c for k in range(len(tiles) + 1) for c in combinations(tiles, k)]
    cost = {c: sum(t if isinstance(t, int) else t.value for t in c) for c in subsets}
    worth = {c: sum((_worth(t, cheese, ice) for t in c), Fraction(0)) for c in subsets}
    points, chosen = [], []
    for s in range(MAX_SETS + 1):
        fits = [c for c in subsets if cost[c] <= set_value * s]
        best = max(fits, key=lambda c: (worth[c], cost[c], -len(c)))
        points.append(worth[best])
        chosen.append(best)
    return DisplayPayoff(tiles, set_value, cheese, ice, tuple(points), tuple(chosen))
