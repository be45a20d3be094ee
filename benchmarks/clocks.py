"""Timing helpers shared by the benchmark scripts: CPU time beside wall time, peers run interleaved.

On a shared machine wall time measures the neighbours as much as the code, so every number
is reported twice: CPU seconds of this process (``time.process_time``, what the code costs)
and wall seconds (``time.perf_counter``, what a user waits). Peers are timed in turn
(A B A B ...), never all of A then all of B, so a burst of load hits both alike.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Clock", "interleaved", "summary", "timed", "wilson"]


@dataclass(frozen=True)
class Clock:
    """One timed run: CPU seconds of this process and wall seconds."""

    cpu: float
    wall: float


def timed(run: Callable[[], Any]) -> tuple[Any, Clock]:
    """``run()``'s value and its :class:`Clock`, with the garbage collector off while it runs."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        c0, w0 = time.process_time(), time.perf_counter()
        value = run()
        c1, w1 = time.process_time(), time.perf_counter()
    finally:
        if enabled:
            gc.enable()
    return value, Clock(c1 - c0, w1 - w0)


def interleaved(cases: dict[str, Callable[[], Any]], repeat: int, before: Callable[[], None] | None = None) -> dict[str, list[Clock]]:
    """Each case ``repeat`` times, in turn (A B A B ...); ``before()`` runs untimed before every run (to empty caches)."""
    clocks: dict[str, list[Clock]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, run in cases.items():
            if before is not None:
                before()
            clocks[name].append(timed(run)[1])
    return clocks


def summary(clocks: list[Clock]) -> dict[str, float]:
    """Best and median CPU and wall seconds of several runs."""
    cpu, wall = [c.cpu for c in clocks], [c.wall for c in clocks]
    return {"cpu_best": round(min(cpu), 4), "cpu_median": round(statistics.median(cpu), 4),
            "wall_best": round(min(wall), 4), "wall_median": round(statistics.median(wall), 4)}


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    z, p = 1.959964, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half
