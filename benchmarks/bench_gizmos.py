"""Benchmark: the Gizmos engine, the search bot and advice, and the win rates between the bots.

Run from the repository root:

    python benchmarks/bench_gizmos.py                      # speeds only (a minute)
    python benchmarks/bench_gizmos.py --greedy-games 2000 --search-games 100 --playouts 100
    python benchmarks/bench_gizmos.py --json
    python benchmarks/bench_gizmos.py --win-summary benchmarks/gizmos_wins   # sum the stored chunks

A script, not a test (pytest ignores benchmarks/). Measures, with CPU time (``process_time``)
beside wall time (the machine may be shared):

1. random playouts through the State contract (uniform legal moves, chance sampled): steps
   per second, for 2, 3 and 4 players, and the same for Dairyman's engine for comparison;
2. one search-bot decision and one ``advise`` table (the notebook's), at the first decision
   of seeded games;
3. win rates: greedy against random, and the search bot against greedy, seats alternating,
   each with its 95% Wilson confidence interval.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from clocks import wilson
from coffeegames import dairyman, gizmos
from coffeegames.engine.solve import play_out


def _timed(run: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def random_steps(game: Any, games: int) -> dict[str, float]:
    """Random moves a second over ``games`` seeded games."""
    def run() -> int:
        steps = 0
        for seed in range(games):
            rng = np.random.default_rng(seed)
            state = game.new_initial_state(seed=seed)
            while not state.is_terminal():
                if state.is_chance():
                    state = state.apply(state.sample_chance(rng))
                else:
                    legal = state.legal_actions()
                    state = state.apply(legal[int(rng.integers(len(legal)))])
                steps += 1
        return steps

    steps, wall, cpu = _timed(run)
    return {"steps": steps, "wall_s": wall, "cpu_s": cpu, "steps_per_cpu_s": steps / cpu}


def decision_times(playouts: int, games: int) -> dict[str, float]:
    """CPU and wall seconds of one search decision and one advice table (``playouts`` playouts), averaged."""
    states = [gizmos.Game(players=2).new_initial_state(seed=s) for s in range(games)]
    _, wall_bot, cpu_bot = _timed(lambda: [gizmos.SearchBot(playouts=playouts, seed=0)(s) for s in states])
    _, wall_adv, cpu_adv = _timed(lambda: [gizmos.advise(s, playouts=playouts) for s in states])
    return {"playouts": playouts, "bot_wall_s": wall_bot / games, "bot_cpu_s": cpu_bot / games,
            "advise_wall_s": wall_adv / games, "advise_cpu_s": cpu_adv / games}


def win_rate(first: Callable[[int], Any], second: Callable[[int], Any], games: int, seed: int = 7,
             offset: int = 0) -> dict[str, Any]:
    """``first`` against ``second`` (bot factories taking the game's index) in 2-player games ``offset`` to
    ``offset + games - 1``, seats alternating (so several processes can share a long run)."""
    game = gizmos.Game(players=2)
    wins = 0

    def run() -> None:
        nonlocal wins
        for i in range(offset, offset + games):
            seat = i % 2
            bots = [first(i), second(i)] if seat == 0 else [second(i), first(i)]
            final, _ = play_out(game.new_initial_state(), bots, np.random.default_rng([seed, i]))
            wins += final.returns()[seat]

    _, wall, cpu = _timed(run)
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games if games else 0.0, "ci95": (low, high),
            "wall_s": wall, "cpu_s": cpu}


def win_summary(folder: Path) -> dict[str, Any]:
    """The win-rate chunks stored in ``folder`` (``--json`` reports, one a file) summed by match, with 95% Wilson intervals."""
    totals: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        for key in ("greedy_vs_random", "search_vs_greedy"):
            row = report.get(key)
            if row:
                t = totals.setdefault(key, {"chunks": 0, "games": 0, "wins": 0, "cpu_s": 0.0, "wall_s": 0.0})
                t["chunks"] += 1
                for field in ("games", "wins", "cpu_s", "wall_s"):
                    t[field] += row[field]
    for t in totals.values():
        t["rate"], t["ci95"] = t["wins"] / t["games"], wilson(t["wins"], t["games"])
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per player count")
    parser.add_argument("--playouts", type=int, default=100, help="search playouts a decision")
    parser.add_argument("--greedy-games", type=int, default=200, help="greedy against random games")
    parser.add_argument("--search-games", type=int, default=0, help="search against greedy games (slow: ~15 CPU s each)")
    parser.add_argument("--offset", type=int, default=0, help="index of the first win-rate game (to split a run)")
    parser.add_argument("--no-speed", action="store_true", help="win rates only")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--win-summary", type=Path, metavar="DIR", help="sum the stored win-rate chunks in DIR and stop")
    args = parser.parse_args()
    if args.win_summary:
        for key, t in win_summary(args.win_summary).items():
            low, high = t["ci95"]
            print(f"{key}: {t['wins']}/{t['games']} = {t['rate']:.1%} (95% CI {low:.1%}-{high:.1%}), {t['chunks']} chunks, "
                  f"{t['cpu_s'] / t['games']:.2f} CPU s a game")
        return
    report: dict[str, Any] = {"random": {}, "decisions": None, "greedy_vs_random": None, "search_vs_greedy": None}
    if not args.no_speed:
        for players in (2, 3, 4):
            report["random"][f"gizmos {players}p"] = random_steps(gizmos.Game(players=players), args.games)
        report["random"]["dairyman 3p"] = random_steps(dairyman.Game(players=3), max(2, args.games // 10))
        report["decisions"] = decision_times(args.playouts, 3)
    if args.greedy_games:
        report["greedy_vs_random"] = win_rate(lambda i: gizmos.greedy_policy, lambda i: gizmos.random_policy(i),
                                              args.greedy_games, offset=args.offset)
    if args.search_games:
        report["search_vs_greedy"] = win_rate(lambda i: gizmos.SearchBot(playouts=args.playouts, seed=i),
                                              lambda i: gizmos.greedy_policy, args.search_games, offset=args.offset)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print("random playouts (steps per CPU second; wall time beside):")
    for name, row in report["random"].items():
        print(f"  {name:14} {row['steps_per_cpu_s']:9.0f} steps/CPU s  ({row['steps']} steps, "
              f"{row['cpu_s']:.2f} s CPU, {row['wall_s']:.2f} s wall)")
    d = report["decisions"]
    if d:
        print(f"search decision, {d['playouts']} playouts: {d['bot_cpu_s']:.2f} s CPU ({d['bot_wall_s']:.2f} s wall); "
              f"advise: {d['advise_cpu_s']:.2f} s CPU ({d['advise_wall_s']:.2f} s wall)")
    for key, what in (("greedy_vs_random", "greedy against random"), ("search_vs_greedy", "search against greedy")):
        row = report[key]
        if row:
            low, high = row["ci95"]
            print(f"{what}: {row['wins']}/{row['games']} = {row['rate']:.1%} (95% CI {low:.1%}-{high:.1%}); "
                  f"{row['cpu_s']:.0f} s CPU, {row['wall_s']:.0f} s wall")


if __name__ == "__main__":
    main()
