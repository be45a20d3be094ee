"""Benchmark: VivaJava colour-dice odds against brute force, in one run.

Run from the repository root:  python benchmarks/bench_vivajava.py [--json]

A script, not a test (pytest ignores benchmarks/). Every case is cold (caches emptied)
and checked for identical exact answers before it is timed:

1. ``best_blend(10, 5)`` (10 coffee + 5 flavour dice) against the generic multiset
   method of the exact core (``roll(...).map(best_blend_of)``).
2. ``best_blend(5, 2)`` against ordered brute force over all 6**7 rolls.
3. The full METER table for both corporations (levels 0..5), with Sacchar's block-die column.
Cases run interleaved (A B A B), ``--repeat`` times, reporting CPU time (``process_time``)
beside wall time. Target: interactive answers (< 0.2 s CPU) for 1 and 3.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from itertools import combinations_with_replacement, product
from math import factorial, prod

from clocks import interleaved, summary

from coffeegames.exact import Dist
from coffeegames.vivajava import COFFEE_DIE, FLAVOUR_DIE, best_blend_of, odds

TARGET = 0.2


def clear() -> None:
    for f in (odds.colour_table, odds.best_blend, odds.rainbow, odds._keep_best_step, odds.omniblend_groups, odds.sacchar_block):
        f.cache_clear()


def ordered(coffee: int, flavour: int) -> Dist:
    faces = [COFFEE_DIE] * coffee + [FLAVOUR_DIE] * flavour
    return Dist.from_weights(Counter(best_blend_of(r) for r in product(*faces)))


def multiset_method(coffee: int, flavour: int) -> Dist:
    """The generic method ``exact.roll(...).map(best_blend_of)`` takes, written out here: every multiset of each group
    with its multinomial weight, the groups combined. (``roll`` itself now refuses pools over 100,000 distinct rolls,
    and this one has 756,756.)"""
    def multisets(faces: tuple[str, ...], n: int) -> list[tuple[tuple[str, ...], int]]:
        return [(r, factorial(n) // prod(factorial(c) for c in Counter(r).values()))
                for r in combinations_with_replacement(faces, n)]

    weights: Counter = Counter()
    for c, cw in multisets(COFFEE_DIE, coffee):
        for f, fw in multisets(FLAVOUR_DIE, flavour):
            weights[best_blend_of(c + f)] += cw * fw
    return Dist.from_weights(weights)


CASES = {
    "best_blend(10, 5)": lambda: odds.best_blend(10, 5),
    "multiset method (10, 5)": lambda: multiset_method(10, 5),
    "best_blend(5, 2)": lambda: odds.best_blend(5, 2),
    "ordered brute force (5, 2)": lambda: ordered(5, 2),
    "meter_table()": odds.meter_table,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=3, help="cold runs of each case, interleaved (default 3)")
    args = parser.parse_args()
    clear()
    assert CASES["best_blend(10, 5)"]() == CASES["multiset method (10, 5)"](), "best_blend(10, 5) disagrees with the multiset method"
    clear()
    assert CASES["best_blend(5, 2)"]() == CASES["ordered brute force (5, 2)"](), "best_blend(5, 2) disagrees with brute force"
    times = {name: summary(c) for name, c in interleaved(CASES, args.repeat, before=clear).items()}
    cpu = {name: t["cpu_best"] for name, t in times.items()}
    result = {
        "cases": times,
        "speedup_vs_multisets_cpu": round(cpu["multiset method (10, 5)"] / cpu["best_blend(10, 5)"], 1),
        "speedup_vs_brute_force_cpu": round(cpu["ordered brute force (5, 2)"] / cpu["best_blend(5, 2)"], 1),
        "interactive_target_met": cpu["best_blend(10, 5)"] < TARGET and cpu["meter_table()"] < TARGET,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{'case (cold)':28} {'CPU best':>9} {'median':>8} {'wall best':>10} {'median':>8}")
    for name, t in times.items():
        print(f"{name:28} {t['cpu_best']:>9.4f} {t['cpu_median']:>8.4f} {t['wall_best']:>10.4f} {t['wall_median']:>8.4f}")
    for key in ("speedup_vs_multisets_cpu", "speedup_vs_brute_force_cpu", "interactive_target_met"):
        print(f"{key:28} {result[key]}")


if __name__ == "__main__":
    main()
