"""Benchmark: VivaJava colour-dice odds against brute force, in one run.

Run from the repository root:  python benchmarks/bench_vivajava.py [--json]

A script, not a test (pytest ignores benchmarks/). Every case is cold (caches emptied)
and checked for identical exact answers before it is timed:

1. ``best_blend(10, 5)`` (10 white + 5 flavour dice) against the generic multiset
   method of the exact core (``roll(...).map(best_blend_of)``).
2. ``best_blend(5, 2)`` against ordered brute force over all 6**7 rolls.
3. The full METER table for both corporations (levels 0..5), with Sacchar's block-die column.
Target: interactive answers (< 0.2 s) for 1 and 3.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from itertools import product

from coffeegames.exact import Dist, roll
from coffeegames.vivajava import FLAVOUR_DIE, WHITE_DIE, best_blend_of, odds

TARGET = 0.2


def clear() -> None:
    for f in (odds.colour_table, odds.best_blend, odds.rainbow, odds._keep_best_step, odds.omniblend_groups, odds.sacchar_block):
        f.cache_clear()


def timed(f):
    clear()
    start = time.perf_counter()
    value = f()
    return time.perf_counter() - start, value


def ordered(white: int, flavour: int) -> Dist:
    faces = [WHITE_DIE] * white + [FLAVOUR_DIE] * flavour
    return Dist.from_weights(Counter(best_blend_of(r) for r in product(*faces)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ours_big, d_big = timed(lambda: odds.best_blend(10, 5))
    peer_big, p_big = timed(lambda: roll((10, WHITE_DIE), (5, FLAVOUR_DIE)).map(best_blend_of))
    assert d_big == p_big, "best_blend(10, 5) disagrees with the multiset method"
    ours_small, d_small = timed(lambda: odds.best_blend(5, 2))
    brute_small, b_small = timed(lambda: ordered(5, 2))
    assert d_small == b_small, "best_blend(5, 2) disagrees with brute force"
    meter, _ = timed(odds.meter_table)
    result = {
        "best_blend_10_5_seconds": round(ours_big, 4),
        "multiset_method_10_5_seconds": round(peer_big, 3),
        "speedup_vs_multisets": round(peer_big / ours_big, 1),
        "best_blend_5_2_seconds": round(ours_small, 4),
        "ordered_brute_force_5_2_seconds": round(brute_small, 3),
        "speedup_vs_brute_force": round(brute_small / ours_small, 1),
        "meter_table_seconds": round(meter, 4),
        "interactive_target_met": ours_big < TARGET and meter < TARGET,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for key, value in result.items():
        print(f"{key:34} {value}")


if __name__ == "__main__":
    main()
