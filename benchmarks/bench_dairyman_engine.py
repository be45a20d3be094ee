"""Benchmark: the Dairyman turn solver and the full engine.

Run from the repository root:

    python benchmarks/bench_dairyman_engine.py          # table
    python benchmarks/bench_dairyman_engine.py --json

A script, not a test (pytest ignores benchmarks/). Measures:

1. ``optimal_turn`` for the plain variant, all of 2..12 dice, cold (every cache
   emptied first). Target: under 5 s.
2. Random full 3-player games per second through the State contract (``play``).
3. Greedy-bot 3-player games per second, for comparison.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from functools import _lru_cache_wrapper

import numpy as np

from coffeegames import dairyman
from coffeegames.dairyman import sets, state, turn
from coffeegames.engine import play

TURN_TARGET_SECONDS = 5.0


def clear_caches() -> None:
    for module in (sets, turn, state):
        for obj in vars(module).values():
            if isinstance(obj, _lru_cache_wrapper):
                obj.cache_clear()


def time_optimal_turns() -> tuple[float, dict[int, float]]:
    clear_caches()
    start = time.perf_counter()
    values = {n: float(dairyman.optimal_turn(dice=n, points_per_set=1, bust_cost=0).value) for n in range(2, 13)}
    return time.perf_counter() - start, values


def games_per_second(policy_for, n_games: int, players: int = 3) -> float:
    game = dairyman.Game(players=players)
    start = time.perf_counter()
    play(game, policy_for(), n_games=n_games, seed=1, progress=False)
    return n_games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=20, help="games per measurement (default 20)")
    args = parser.parse_args()

    turn_seconds, values = time_optimal_turns()
    random_rate = games_per_second(lambda: dairyman.random_policy(np.random.default_rng(0)), args.games)
    greedy_rate = games_per_second(lambda: dairyman.greedy_policy, args.games)
    result = {
        "machine": f"{platform.python_version()} on {platform.machine()}",
        "optimal_turn_2_to_12_cold_seconds": round(turn_seconds, 3),
        "optimal_turn_target_seconds": TURN_TARGET_SECONDS,
        "optimal_turn_target_met": turn_seconds < TURN_TARGET_SECONDS,
        "expected_sets_by_dice": {n: round(v, 4) for n, v in values.items()},
        "random_3p_games_per_second": round(random_rate, 2),
        "greedy_3p_games_per_second": round(greedy_rate, 2),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"Python {result['machine']}")
    verdict = "MET" if result["optimal_turn_target_met"] else "MISSED"
    print(f"optimal_turn, plain variant, 2..12 dice, cold: {turn_seconds:.3f} s (target < {TURN_TARGET_SECONDS:.0f} s) {verdict}")
    print(f"random 3-player games per second: {random_rate:.1f}")
    print(f"greedy 3-player games per second: {greedy_rate:.1f}")


if __name__ == "__main__":
    main()
