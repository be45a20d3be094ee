"""Coffee Rush timings and bot strength (issue 11). A plain script (not collected by pytest); see benchmarks/README.md.

    python benchmarks/bench_rush.py [--games 4] [--playouts 20] [--bot-games 2] [--skip-bots]
    python benchmarks/bench_rush.py --win-chunk greedy-random 2 0 50 --out benchmarks/rush_wins/greedy-random-2p-0000.json
    python benchmarks/bench_rush.py --win-summary benchmarks/rush_wins

1. the exact best-move search (``rush.best_plan``) at every move decision of seeded greedy games, and at built wide
   positions (three cups holding something, two rush tokens to spend, upgrades flipped): how many moves, CPU and
   wall time; at the wide positions also the ten best plans (``best_moves``) and every choice valued (``advise``);
2. random playouts: moves per second, by player count;
3. bot win rates: greedy against random, and look-ahead against greedy, seats rotated (two players, then three);
   a long run goes in chunks (``--win-chunk MATCH PLAYERS FIRST COUNT --out FILE``: games FIRST to FIRST+COUNT-1, one
   JSON file each, so a stopped run keeps what it played), summed by ``--win-summary DIR`` with 95% Wilson intervals.

CPU time (``process_time``) is given beside wall time: on a shared machine the wall time wanders with the load.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from clocks import wilson
from coffeegames import rush
from coffeegames.engine import play, play_out


def timed(work: Any) -> tuple[Any, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = work()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def move_decisions(players: int, seed: int) -> list[rush.State]:
    """The move decisions of a seeded greedy game."""
    rng = np.random.default_rng(seed)
    s = rush.Game(players=players).new_initial_state(seed=seed)
    found = []
    while not s.is_terminal():
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
            continue
        if s.phase == rush.Phase.MOVE:
            found.append(s)
        s = s.apply(rush.greedy_policy(s))
    return found


def wide(state: rush.State, upgrades: tuple[str, ...]) -> rush.State:
    """``state`` with the player to move holding something in each cup, two rush tokens and these upgrades flipped."""
    who = state.player
    me = state.players[who]
    tiles = {t.name: t.effect for t in state.rules.tiles}
    cups = (("coffee",), ("milk", "milk"), ("ice",)) + ((("steam",),) if "extra_cup" in [tiles[u] for u in upgrades] else ())
    player = replace(me, cups=cups, rush=me.rush + 2, upgrades=upgrades)
    players = tuple(player if i == who else p for i, p in enumerate(state.players))
    return replace(state, players=players, supply=state.supply - 2, phase=rush.Phase.MOVE)


def search_times(games: int) -> pd.DataFrame:
    rows = []
    for players in (2, 3, 4):
        for seed in range(games):
            for s in move_decisions(players, seed):
                plan, cpu, wall = timed(lambda: rush.best_plan(s))
                rows.append({"position": f"greedy game, {players} players", "moves": len(s.moves()), "cpu_s": cpu, "wall_s": wall})
    base = move_decisions(3, 0)[0]
    for name, upgrades in [("3 cups used, 2 rush", ()), ("+ Long stride", ("Long stride",)),
                           ("+ Double shot", ("Double shot",)), ("+ Extra cup", ("Extra cup",)),
                           ("+ Diagonal", ("Diagonal",)), ("+ all four upgrades", ("Diagonal", "Double shot", "Long stride", "Extra cup"))]:
        s = wide(base, upgrades)
        plan, cpu, wall = timed(lambda: rush.best_plan(s))
        _, cpu_top, wall_top = timed(lambda: rush.best_moves(s, top=10))
        _, cpu_advise, wall_advise = timed(lambda: rush.advise(s))
        rows.append({"position": f"wide: {name}", "moves": len(s.moves()), "wide": True, "cpu_s": cpu, "wall_s": wall,
                     "top10_cpu_s": cpu_top, "top10_wall_s": wall_top, "advise_cpu_s": cpu_advise,
                     "advise_wall_s": wall_advise})
    return pd.DataFrame(rows)


def playout_rates(playouts: int) -> pd.DataFrame:
    rows = []
    for players in (2, 3, 4):
        game = rush.Game(players=players)
        steps = 0

        def run() -> None:
            nonlocal steps
            for seed in range(playouts):
                rng = np.random.default_rng(seed)
                s = game.new_initial_state(seed=seed)
                while not s.is_terminal():
                    legal = s.legal_actions()
                    s = s.apply(s.sample_chance(rng) if s.is_chance() else legal[int(rng.integers(len(legal)))])
                    steps += 1

        _, cpu, wall = timed(run)
        rows.append({"players": players, "games": playouts, "steps": steps, "steps_per_cpu_s": steps / cpu,
                     "steps_per_wall_s": steps / wall})
    return pd.DataFrame(rows)


def win_rates(games: int) -> pd.DataFrame:
    rows = []
    matches = [("greedy", rush.greedy_policy, "random", rush.random_policy(0)),
               ("look-ahead", rush.lookahead_policy, "greedy", rush.greedy_policy)]
    for players in (2, 3):
        for name_a, a, name_b, b in matches:
            wins = ties = 0
            played = 0
            margin = 0.0
            cpu = wall = 0.0
            for seat in range(players):  # bot A in each seat in turn, bot B in the others
                policies = [a if i == seat else b for i in range(players)]
                results, c, w = timed(lambda: play(rush.Game(players=players), policies, n_games=games, seed=seat, progress=False))
                cpu, wall = cpu + c, wall + w
                for row in results.itertuples():
                    scores = [getattr(row, f"player_{i}") for i in range(players)]
                    others = max(s for i, s in enumerate(scores) if i != seat)
                    wins += scores[seat] > others
                    ties += scores[seat] == others
                    margin += scores[seat] - others
                    played += 1
            rows.append({"players": players, "bot": name_a, "against": name_b, "games": played, "wins": wins, "ties": ties,
                         "win_rate": wins / played, "mean_margin": margin / played, "cpu_s": cpu, "wall_s": wall})
    return pd.DataFrame(rows)


BOTS = {"random": lambda i: rush.random_policy(i), "greedy": lambda i: rush.greedy_policy,
        "lookahead": lambda i: rush.lookahead_policy}
"""Each bot made afresh for game ``i`` (the random bot seeded by the game's index)."""
WIN_SEED = 11


def win_chunk(match: str, players: int, first: int, count: int) -> dict[str, Any]:
    """Games ``first`` to ``first + count - 1`` of ``match`` ("A-B": bot A in seat ``i % players`` of game ``i``,
    bot B in the others; chance from ``default_rng([WIN_SEED, players, i])``), each game's scores and A's seat."""
    name_a, name_b = match.split("-")
    game = rush.Game(players=players)
    rows = []
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(first, first + count):
        seat = i % players
        bots = [BOTS[name_a](i) if p == seat else BOTS[name_b](i) for p in range(players)]
        final, _ = play_out(game.new_initial_state(), bots, np.random.default_rng([WIN_SEED, players, i]))
        rows.append({"game": i, "seat": seat, "scores": [int(x) for x in final.returns()]})
    return {"match": match, "players": players, "first": first, "count": count, "games": rows,
            "cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall}


def win_summary(folder: Path) -> pd.DataFrame:
    """Every chunk in ``folder`` summed by match and player count: a win is a score above every other player's."""
    totals: dict[tuple[str, int], dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        chunk = json.loads(path.read_text())
        row = totals.setdefault((chunk["match"], chunk["players"]), {"games": 0, "wins": 0, "ties": 0, "margin": 0,
                                                                     "cpu_s": 0.0, "wall_s": 0.0, "seen": set()})
        row["cpu_s"] += chunk["cpu_s"]
        row["wall_s"] += chunk["wall_s"]
        for g in chunk["games"]:
            if g["game"] in row["seen"]:
                continue  # a chunk run twice counts once
            row["seen"].add(g["game"])
            mine = g["scores"][g["seat"]]
            best_other = max(x for p, x in enumerate(g["scores"]) if p != g["seat"])
            row["games"] += 1
            row["wins"] += mine > best_other
            row["ties"] += mine == best_other
            row["margin"] += mine - best_other
    out = []
    for (match, players), row in sorted(totals.items()):
        n = row["games"]
        low, high = wilson(row["wins"], n)
        out.append({"match": match, "players": players, "games": n, "wins": row["wins"], "ties": row["ties"],
                    "win_rate": row["wins"] / n, "ci95_low": low, "ci95_high": high, "mean_margin": row["margin"] / n,
                    "cpu_s_per_game": row["cpu_s"] / n, "wall_s_per_game": row["wall_s"] / n})
    return pd.DataFrame(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="greedy games timed per player count")
    parser.add_argument("--bot-games", type=int, default=2, help="bot games per seat and match")
    parser.add_argument("--playouts", type=int, default=20, help="random playouts per player count")
    parser.add_argument("--skip-bots", action="store_true", help="leave out the bot win rates")
    parser.add_argument("--win-chunk", nargs=4, metavar=("MATCH", "PLAYERS", "FIRST", "COUNT"),
                        help="play one chunk of a win-rate match (greedy-random, lookahead-greedy, ...) and stop")
    parser.add_argument("--out", type=Path, help="the chunk's JSON file")
    parser.add_argument("--win-summary", type=Path, metavar="DIR", help="sum the chunks in DIR and stop")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    if args.win_chunk:
        match, players, first, count = args.win_chunk
        chunk = win_chunk(match, int(players), int(first), int(count))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(chunk, indent=1))
        return
    if args.win_summary:
        print(win_summary(args.win_summary).round(3).to_string(index=False))
        return
    times = search_times(args.games)
    print("best-move search (rush.best_plan), by position:")
    summary = times.groupby("position", sort=False).agg(decisions=("moves", "size"), moves_median=("moves", "median"),
                                                        moves_max=("moves", "max"), cpu_median=("cpu_s", "median"),
                                                        cpu_max=("cpu_s", "max"), wall_median=("wall_s", "median"),
                                                        wall_max=("wall_s", "max"))
    print(summary.round(3).to_string())
    print("\nwide positions:")
    print(times.dropna(subset=["wide"])[["position", "moves", "cpu_s", "wall_s", "top10_cpu_s", "top10_wall_s", "advise_cpu_s",
                                         "advise_wall_s"]].round(3).to_string(index=False))
    print("\nrandom playouts:")
    print(playout_rates(args.playouts).round(1).to_string(index=False))
    if not args.skip_bots:
        print("\nbot win rates (seats rotated; a win is a score above every other player's):")
        print(win_rates(args.bot_games).round(3).to_string(index=False))


if __name__ == "__main__":
    main()
