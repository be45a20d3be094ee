"""A Gizmos player's holdings (:class:`PlayerState`) and the small tuple helpers the engine changes them with.

The helpers (``add_id``, ``remove_id``: one card id in a sorted tuple, by bisection; ``plus``; ``holding``)
are the engine's own, called on every move with values it made: they are not public (not in ``__all__``); outside code reads holdings from the state.

Example:
    >>> PlayerState(energy=(1, 0, 2, 0), built=(0,))
    PlayerState(energy=(1, 0, 2, 0), archive=(), built=(0,), tokens=0)
    >>> add_id((3, 9), 5), remove_id((3, 5, 9), 5), plus((0, 1, 0, 0), 2)
    ((3, 5, 9), (3, 9), (0, 1, 1, 0))
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass

from ..exact.multiset import mremove

__all__ = ["PlayerState"]


@dataclass(frozen=True)
class PlayerState:
    """One player's holdings: ``energy`` per colour (red, blue, black, yellow), the ``archive`` and ``built`` gizmos
    (card ids, sorted; the starting gizmo is built) and point ``tokens``."""

    energy: tuple[int, ...] = (0, 0, 0, 0)
    archive: tuple[int, ...] = ()
    built: tuple[int, ...] = ()
    tokens: int = 0


_new, _set = object.__new__, object.__setattr__


def holding(players: tuple[PlayerState, ...], turn: int, energy: tuple[int, ...], archive: tuple[int, ...],
            built: tuple[int, ...], tokens: int) -> tuple[PlayerState, ...]:
    """``players`` with ``PlayerState(energy, archive, built, tokens)`` in place of the player ``turn``, for the engine's
    own values: made without the frozen dataclass's ``__init__`` (one ``object.__setattr__`` a field: a third of the
    cost; a move makes one or two)."""
    player = _new(PlayerState)
    _set(player, "__dict__", {"energy": energy, "archive": archive, "built": built, "tokens": tokens})
    found = list(players)
    found[turn] = player
    return tuple(found)


def add_id(items: tuple[int, ...], item: int) -> tuple[int, ...]:
    """``items`` with ``item`` added, sorted."""
    found = list(items)
    insort(found, item)
    return tuple(found)


def remove_id(items: tuple[int, ...], item: int) -> tuple[int, ...]:
    """``items`` without one ``item`` (:func:`~coffeegames.exact.multiset.mremove`'s error if it is not there)."""
    i = bisect_left(items, item)
    if i == len(items) or items[i] != item:
        return mremove(items, (item,))
    return items[:i] + items[i + 1:]


def plus(counts: tuple[int, ...], i: int, n: int = 1) -> tuple[int, ...]:
    """``counts`` with ``n`` added at ``i``."""
    found = list(counts)  # (a list changed in place: cheaper than slices joined)
    found[i] += n
    return tuple(found)
