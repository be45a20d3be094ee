"""Shared helpers for the tests: independent, deliberately naive reference methods."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import combinations


def naive_has_set(dice: Sequence[int]) -> bool:
    """Any 2 or 3 of the dice (by position) summing to 10."""
    return any(sum(c) == 10 for k in (2, 3) for c in combinations(dice, k))


def naive_packings(dice: Sequence[int]) -> set[tuple[tuple[int, ...], ...]]:
    """Every collection of disjoint sets, found by choosing dice by position.

    Returned as sorted tuples of sorted sets, so that packings using different but
    equal-valued dice count once.
    """
    found: set[tuple[tuple[int, ...], ...]] = set()

    def rec(remaining: tuple[int, ...], chosen: tuple[tuple[int, ...], ...]) -> None:
        found.add(tuple(sorted(chosen)))
        for k in (2, 3):
            for idx in combinations(range(len(remaining)), k):
                picked = tuple(sorted(remaining[i] for i in idx))
                if sum(picked) == 10:
                    rest = tuple(v for i, v in enumerate(remaining) if i not in idx)
                    rec(rest, chosen + (picked,))

    rec(tuple(dice), ())
    return found


def naive_most(dice: Sequence[int]) -> tuple[int, int]:
    """(most dice, most sets) over all packings."""
    packs = naive_packings(dice)
    return max(sum(map(len, p)) for p in packs), max(len(p) for p in packs)


def edit_saved(saved: str, **changes) -> str:
    """A saved state (JSON) with fields changed: ``"players.1.ice"`` addresses nested fields, ``KeyError`` deletes."""
    data = json.loads(saved)
    for path, value in changes.items():
        target = data["state"]
        *parents, last = path.split(".")
        for p in parents:
            target = target[int(p)] if p.isdigit() else target[p]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value
    return json.dumps(data)
