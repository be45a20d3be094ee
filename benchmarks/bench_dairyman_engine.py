"""Benchmark: the Dairyman turn solver and the full engine.

Run from the repository root:

    python benchmarks/bench_dairyman_engine.py          # table
    python benchmarks/bench_dairyman_engine.py --json

A script, not a test (pytest ignores benchmarks/). Measures:

1. ``optimal_turn`` for the plain variant, all of 2..12 dice, cold (every cache
   emptied first, the packed lock-choice tables included). Target (issue 14): at most 0.1 s CPU.
2. Random full 3-player games per second through the State contract (``play``).
3. Greedy-bot 3-player games per second, for comparison.

The three cases run interleaved (A B C A B C), ``--repeat`` times, caches emptied before each;
CPU time (``process_time``) is reported beside wall time, and the rates use CPU time.
"""

from __future__ import annotations

import argparse
import json
import platform

import numpy as np
from clocks import interleaved, summary

from coffeegames import dairyman
from coffeegames.dairyman import actions, deck, odds, sets, state, turn
from coffeegames.engine import play

TURN_TARGET_SECONDS = 0.1


def clear_caches() -> None:
    """Empty every memo of the modules measured: ``functools.lru_cache`` s and the library's ``cached`` wrappers alike."""
    for module in (sets, turn, state, actions, deck, odds):
        for obj in vars(module).values():
            if callable(getattr(obj, "cache_clear", None)):
                obj.cache_clear()


def optimal_turns() -> dict[int, float]:
    return {n: float(dairyman.optimal_turn(dice=n, points_per_set=1, bust_cost=0).value) for n in range(2, 13)}


def play_games(policy_for, n_games: int, players: int = 3) -> None:
    play(dairyman.Game(players=players), policy_for(), n_games=n_games, seed=1, progress=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=20, help="games per measurement (default 20)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs of each case (default 3)")
    args = parser.parse_args()

    values = optimal_turns()
    cases = {
        "optimal_turn 2..12 cold": optimal_turns,
        "random 3p games": lambda: play_games(lambda: dairyman.random_policy(np.random.default_rng(0)), args.games),
        "greedy 3p games": lambda: play_games(lambda: dairyman.greedy_policy, args.games),
    }
    clocks = interleaved(cases, args.repeat, before=clear_caches)
    times = {name: summary(c) for name, c in clocks.items()}
    turn_cpu = times["optimal_turn 2..12 cold"]["cpu_best"]
    result = {
        "machine": f"{platform.python_version()} on {platform.machine()}",
        "cases": times,
        "optimal_turn_2_to_12_cold_cpu_seconds": turn_cpu,
        "optimal_turn_target_seconds": TURN_TARGET_SECONDS,
        "optimal_turn_target_met": turn_cpu < TURN_TARGET_SECONDS,
        "expected_sets_by_dice": {n: round(v, 4) for n, v in values.items()},
        "random_3p_games_per_cpu_second": round(args.games / times["random 3p games"]["cpu_best"], 2),
        "greedy_3p_games_per_cpu_second": round(args.games / times["greedy 3p games"]["cpu_best"], 2),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"Python {result['machine']}")
    print(f"{'case':26} {'CPU best':>9} {'median':>8} {'wall best':>10} {'median':>8}")
    for name, t in times.items():
        print(f"{name:26} {t['cpu_best']:>9.3f} {t['cpu_median']:>8.3f} {t['wall_best']:>10.3f} {t['wall_median']:>8.3f}")
    verdict = "MET" if result["optimal_turn_target_met"] else "MISSED"
    print(f"optimal_turn target (< {TURN_TARGET_SECONDS} s CPU): {verdict}")
    print(f"random 3-player games per CPU second: {result['random_3p_games_per_cpu_second']}")
    print(f"greedy 3-player games per CPU second: {result['greedy_3p_games_per_cpu_second']}")


if __name__ == "__main__":
    main()
