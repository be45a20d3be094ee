"""Shared helpers for the tests: independent, deliberately naive reference methods."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from itertools import combinations

import pytest


@pytest.hookimpl(optionalhook=True)  # (a hook of pytest-xdist's: nothing without it)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): one worker more than the cores this process may use (at most 4,
    ``--maxprocesses``). The browser tests' worker spends much of its time waiting (on Voilà's kernel, on Chromium
    drawing, on its polls), and the extra worker computes meanwhile (benchmarks/JOURNAL.md, the suite's time)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--dist loadgroup`` (pyproject's addopts) sends the tests of one ``xdist_group`` to one worker by the group's
    name after an ``@`` in each test's id. pytest-xdist writes it into ``item._nodeid``, which pytest 9.2 no longer
    reads (the id is ``item._id``, structured): the groups were silently dropped and their tests spread over the
    workers, so each worker built the book (tests/test_book.py) and started its own Voilà server and browser
    (tests/test_browser.py). pytest-xdist's issue 1386 (fix proposed in its pull request 1388); until then the suffix is
    written where pytest reads it. Nothing is done when xdist's own suffix took (older pytest) or outside a worker."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        names = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                 for mark in item.iter_markers("xdist_group")}
        suffix = "@" + "_".join(sorted(names))
        if names and not item.nodeid.endswith(suffix) and hasattr(item, "_id"):
            from _pytest.nodeid import NodeId  # pytest >= 9.2

            item._id = NodeId.parse(item.nodeid + suffix)


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
