"""Benchmark: the Gizmos engine, the search bot and advice, and the win rates between the bots.

Run from the repository root:

    python benchmarks/bench_gizmos.py                      # speeds only (a minute)
    python benchmarks/bench_gizmos.py --greedy-games 2000 --search-games 100
    python benchmarks/bench_gizmos.py --no-speed --greedy-games 0 --search-games 25 --offset 25 --out FILE  # one chunk
    python benchmarks/bench_gizmos.py --json
    python benchmarks/bench_gizmos.py --win-summary benchmarks/runs/gizmos-searchbot   # sum the stored chunks

A script, not a test (pytest ignores benchmarks/). Measures, with CPU time (``process_time``)
beside wall time (the machine may be shared):

1. random playouts through the State contract (uniform legal moves, chance sampled): steps
   per second, for 2, 3 and 4 players, and the same for Dairyman's engine for comparison;
2. one search-bot decision and one ``advise`` table (the notebook's), at the first decision
   of seeded games;
3. win rates: greedy against random, the search bot against greedy, and (``--uct-games``) the search bot against
   the UCT bot it replaced, seats alternating, each with its 95% Wilson confidence interval; ``--out`` stores every
   game (chance seed, seats, scores, winner, the first bot's CPU seconds and slowest decision).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
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


def decision_times(playouts: int, games: int, bot_playouts: int = 32) -> dict[str, float]:
    """CPU and wall seconds of one search-bot decision (``bot_playouts`` playouts) and one advice table (``playouts``
    playouts), averaged."""
    states = [gizmos.Game(players=2).new_initial_state(seed=s) for s in range(games)]
    _, wall_bot, cpu_bot = _timed(lambda: [gizmos.SearchBot(playouts=bot_playouts, seed=0)(s) for s in states])
    _, wall_adv, cpu_adv = _timed(lambda: [gizmos.advise(s, playouts=playouts) for s in states])
    return {"playouts": playouts, "bot_playouts": bot_playouts, "bot_wall_s": wall_bot / games, "bot_cpu_s": cpu_bot / games,
            "advise_wall_s": wall_adv / games, "advise_cpu_s": cpu_adv / games}


class _Clocked:
    """A bot with a CPU clock on each decision it is asked (the most and the total, for the stored games)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.decisions, self.cpu_s, self.most_s = bot, 0, 0.0, 0.0

    def __call__(self, state: Any) -> Any:
        start = time.process_time()
        action = self.bot(state)
        spent = time.process_time() - start
        self.decisions, self.cpu_s, self.most_s = self.decisions + 1, self.cpu_s + spent, max(self.most_s, spent)
        return action


class UctBot:
    """The search bot before 2026-12-06: UCT (``gizmos.search_stats``, the advice's search: ``playouts`` playouts of
    noisy greedy moves, ``horizon`` rounds deep, valued by ``evaluate``'s margin), the most played action taken."""

    def __init__(self, playouts: int = 100, seed: int = 0, horizon: int = 2) -> None:
        self.playouts, self.horizon, self.rng = playouts, horizon, np.random.default_rng(seed)

    def __call__(self, state: Any) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        stats = gizmos.search_stats(state, self.playouts, int(self.rng.integers(2**31)), self.horizon)
        return max(legal, key=lambda a: (stats[a].n, stats[a].mean) if a in stats else (-1, 0.0))


def win_rate(first: Callable[[int], Any], second: Callable[[int], Any], games: int, seed: int = 7,
             offset: int = 0, names: tuple[str, str] = ("first", "second")) -> dict[str, Any]:
    """``first`` against ``second`` (bot factories taking the game's index) in 2-player games ``offset`` to
    ``offset + games - 1``, seats alternating (so several processes can share a long run). Each game is kept in
    ``"played"``: its index, chance seed, the bots by seat, the first bot's seat, the scores, the winner and the first
    bot's CPU seconds (all its decisions, and its slowest one)."""
    game = gizmos.Game(players=2)
    wins, played = 0, []

    def run() -> None:
        nonlocal wins
        for i in range(offset, offset + games):
            seat = i % 2
            bot = _Clocked(first(i))
            bots = [bot, second(i)] if seat == 0 else [second(i), bot]
            final, _ = play_out(game.new_initial_state(), bots, np.random.default_rng([seed, i]))
            won = final.returns()[seat]
            wins += won
            played.append({"game": i, "chance_seed": [seed, i], "seats": list(names) if seat == 0 else list(names[::-1]),
                           "first_seat": seat, "scores": [final.score(p) for p in range(2)],
                           "winner": final.standings()[0], "first_won": won, "first_decisions": bot.decisions,
                           "first_cpu_s": round(bot.cpu_s, 4), "first_slowest_decision_cpu_s": round(bot.most_s, 4)})

    _, wall, cpu = _timed(run)
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games if games else 0.0, "ci95": (low, high),
            "wall_s": wall, "cpu_s": cpu, "played": played}


def win_summary(paths: list[Path]) -> dict[str, Any]:
    """The win-rate chunks stored in ``paths`` (``--json`` or ``--out`` reports: files, or folders of them) summed by
    match, with 95% Wilson intervals."""
    totals: dict[str, dict[str, Any]] = {}
    files = [f for p in paths for f in (sorted(p.glob("*.json")) if p.is_dir() else [p])]
    for path in files:
        report = json.loads(path.read_text(encoding="utf-8"))
        report = report.get("output", report)
        for key in ("greedy_vs_random", "search_vs_greedy", "search_vs_uct"):
            row = report.get(key)
            if row:
                t = totals.setdefault(key, {"chunks": 0, "games": 0, "wins": 0, "cpu_s": 0.0, "wall_s": 0.0,
                                            "stored": 0, "wins_by_seat": [0, 0], "games_by_seat": [0, 0], "slowest_s": 0.0})
                t["chunks"] += 1
                for field in ("games", "wins", "cpu_s", "wall_s"):
                    t[field] += row[field]
                for game in row.get("played", []):  # the games themselves, where stored
                    t["stored"] += 1
                    t["games_by_seat"][game["first_seat"]] += 1
                    t["wins_by_seat"][game["first_seat"]] += game["first_won"]
                    t["slowest_s"] = max(t["slowest_s"], game["first_slowest_decision_cpu_s"])
    for t in totals.values():
        t["rate"], t["ci95"] = t["wins"] / t["games"], wilson(t["wins"], t["games"])
    return totals


def _commit() -> str:
    """The checkout's commit (and "+" when files differ from it), or "unknown"."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True,
                               text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per player count")
    parser.add_argument("--playouts", type=int, default=100, help="advice (UCT) playouts a decision")
    parser.add_argument("--search-playouts", type=int, default=32, help="SearchBot playouts a main action")
    parser.add_argument("--greedy-games", type=int, default=200, help="greedy against random games")
    parser.add_argument("--search-games", type=int, default=0, help="search against greedy games (~5 CPU s each)")
    parser.add_argument("--uct-games", type=int, default=0,
                        help="search against the UCT bot it replaced (SearchBot before 2026-12-06, 100 playouts) games")
    parser.add_argument("--out", type=Path, help="also store the report, every game and the run's facts in this file")
    parser.add_argument("--offset", type=int, default=0, help="index of the first win-rate game (to split a run)")
    parser.add_argument("--no-speed", action="store_true", help="win rates only")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--win-summary", type=Path, nargs="+", metavar="PATH",
                        help="sum the stored win-rate reports (files or folders of them) and stop")
    args = parser.parse_args()
    if args.win_summary:
        for key, t in win_summary(args.win_summary).items():
            low, high = t["ci95"]
            print(f"{key}: {t['wins']}/{t['games']} = {t['rate']:.1%} (95% CI {low:.1%}-{high:.1%}), {t['chunks']} chunks, "
                  f"{t['cpu_s'] / t['games']:.2f} CPU s a game, {t['wall_s'] / t['games']:.2f} wall s a game")
            if t["stored"]:
                print(f"  {t['stored']} games stored; the first bot won {t['wins_by_seat'][0]}/{t['games_by_seat'][0]} "
                      f"moving first, {t['wins_by_seat'][1]}/{t['games_by_seat'][1]} second; its slowest decision "
                      f"{t['slowest_s']:.2f} CPU s")
        return
    facts = {"command": "python " + " ".join(sys.argv), "library_at": _commit(),
             "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load_before": os.getloadavg()}
    report: dict[str, Any] = {"random": {}, "decisions": None, "greedy_vs_random": None, "search_vs_greedy": None,
                              "search_vs_uct": None}
    if not args.no_speed:
        for players in (2, 3, 4):
            report["random"][f"gizmos {players}p"] = random_steps(gizmos.Game(players=players), args.games)
        report["random"]["dairyman 3p"] = random_steps(dairyman.Game(players=3), max(2, args.games // 10))
        report["decisions"] = decision_times(args.playouts, 3, args.search_playouts)
    if args.greedy_games:
        report["greedy_vs_random"] = win_rate(lambda i: gizmos.greedy_policy, lambda i: gizmos.random_policy(i),
                                              args.greedy_games, offset=args.offset, names=("greedy_policy", "random_policy({game})"))
    if args.search_games:
        report["search_vs_greedy"] = win_rate(lambda i: gizmos.SearchBot(playouts=args.search_playouts, seed=i),
                                              lambda i: gizmos.greedy_policy, args.search_games, offset=args.offset,
                                              names=(f"SearchBot(playouts={args.search_playouts}, seed={{game}})", "greedy_policy"))
    if args.uct_games:
        report["search_vs_uct"] = win_rate(lambda i: gizmos.SearchBot(playouts=args.search_playouts, seed=i),
                                           lambda i: UctBot(100, i), args.uct_games, offset=args.offset,
                                           names=(f"SearchBot(playouts={args.search_playouts}, seed={{game}})",
                                                  "UctBot(100, seed={game}) (SearchBot before 2026-12-06)"))
    if args.out:
        args.out.write_text(json.dumps({**facts, "load_after": os.getloadavg(), "output": report}, indent=1) + "\n",
                            encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print("random playouts (steps per CPU second; wall time beside):")
    for name, row in report["random"].items():
        print(f"  {name:14} {row['steps_per_cpu_s']:9.0f} steps/CPU s  ({row['steps']} steps, "
              f"{row['cpu_s']:.2f} s CPU, {row['wall_s']:.2f} s wall)")
    d = report["decisions"]
    if d:
        print(f"search-bot decision, {d['bot_playouts']} playouts: {d['bot_cpu_s']:.2f} s CPU ({d['bot_wall_s']:.2f} s wall); "
              f"advise: {d['advise_cpu_s']:.2f} s CPU ({d['advise_wall_s']:.2f} s wall)")
    for key, what in (("greedy_vs_random", "greedy against random"), ("search_vs_greedy", "search against greedy"),
                      ("search_vs_uct", "search against the old UCT bot")):
        row = report[key]
        if row:
            low, high = row["ci95"]
            print(f"{what}: {row['wins']}/{row['games']} = {row['rate']:.1%} (95% CI {low:.1%}-{high:.1%}); "
                  f"{row['cpu_s']:.0f} s CPU, {row['wall_s']:.0f} s wall")


if __name__ == "__main__":
    main()
