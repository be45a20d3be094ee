"""Benchmark: engine steps and whole games per CPU second (random playouts, fresh seeds every repeat), beside OpenSpiel, and sweeps.

Run from the repository root:

    python benchmarks/bench_engine.py            # table
    python benchmarks/bench_engine.py --json     # the same numbers as JSON
    python benchmarks/bench_engine.py --no-sweep # skip the Dask part (needs the `cluster` extra)
    python benchmarks/bench_engine.py --no-sweep --base /tmp/old   # also the code at /tmp/old (a worktree), × against it
    python benchmarks/bench_engine.py --no-sweep --list  # every decision lists all its legal actions, as OpenSpiel's loop

A script, not a test (pytest ignores benchmarks/). Measures:

1. **Steps and whole games per CPU second** of random playouts (``engine.play_out`` with the engine's
   ``random_policy``; every chance move by ``sample_chance``, every move through ``apply`` and its
   legality check) for all five games: Dairyman, VivaJava, Gizmos and Coffee Rush with 3 players,
   Coffee Roaster (full side); and two peers on the same footing:
   - **Kuhn poker in coffeegames** (:class:`KuhnState` below, a 3-card game under the State
     contract): the contract's own cost on the smallest game;
   - **OpenSpiel's pure-Python Kuhn poker** (``python_kuhn_poker``: the game in Python, the
     framework in C++), played by the same kind of loop with the same numpy generators: actions
     by ``uniform_below`` (what ``random_policy`` draws with), chance by one ``rng.random()``
     searched in the cumulative odds (what ``State.sample_chance`` does). Needs
     ``pip install open_spiel``; without it the peer is reported as not installed.
   **Every repeat plays games never played before in the process**: repeat ``r`` (``--seed`` for
   the first, the warm-up before it) draws chance from ``default_rng([0, r])`` and the bot from
   ``default_rng([1, r])``, so no repeat replays the games of another with its caches warm
   (replaying flattered Dairyman 1.71× and VivaJava 1.25×). Each run's rate is its own steps
   (games) over its own CPU seconds; the best and the median of the runs are reported, per CPU
   second (``time.process_time``) and per wall second, with each case's best rate over
   OpenSpiel's best rate of the same run: per step (``× OpenSpiel``) and per whole game
   (``games × OpenSpiel``, the measure for Coffee Rush: splitting an action into steps cannot
   flatter it). Cases run interleaved (A B C ... A B C ...), ``--repeat`` times. The load average
   before and after is part of the output.
   With ``--base PATH`` the same loops also run on the code at PATH (a checkout: ``PYTHONPATH=PATH``):
   each round is one fresh process on that code, then one on this code (the one this script imports),
   both on the round's seed, ``--repeat`` rounds; the table gives this code's rates and ``× base``,
   its best rate over the base's best rate (CPU), each game against itself.
   ``random_policy`` in Gizmos and VivaJava draws its action without listing every legal action when
   it need not (``State._draw_legal``: the same draws, the same games); with ``--list`` every decision
   lists them all first, as OpenSpiel's loop does, so both figures can be stated.
2. **Sweep games per second** (``engine.sweep``; Coffee Roaster, greedy bot) in this process,
   and on a Dask ``LocalCluster`` on 127.0.0.1 with 1 and then 2 worker processes (wall time:
   the workers' CPU is not this process's). The tables are checked identical first.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from bisect import bisect_right
from collections.abc import Callable
from functools import partial
from itertools import accumulate

from clocks import Clock, timed

import coffeegames
from coffeegames.engine import CHANCE, TERMINAL, State, play_out, random_policy
from coffeegames.exact.draws import uniform_below

GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "dairyman 3p": ("dairyman", {"players": 3}), "vivajava 3p": ("vivajava", {"players": 3}),
    "roaster full": ("roaster", {"side": "full"}), "gizmos 3p": ("gizmos", {"players": 3}), "rush 3p": ("rush", {"players": 3})}
"""The games measured, each as (registry name, options)."""
PLAYOUTS = {"dairyman 3p": 4, "vivajava 3p": 160, "roaster full": 1000, "gizmos 3p": 24, "rush 3p": 30,
            "kuhn (coffeegames)": 3000, "kuhn (OpenSpiel)": 3000}
"""Games a run plays (each run about 0.3-0.5 s CPU on the project's machine)."""


# -- Kuhn poker under the State contract: the smallest fair peer --------------------------------------

@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "Pass"


@dataclass(frozen=True)
class Bet:
    def __str__(self) -> str:
        return "Bet"


@dataclass(frozen=True)
class KuhnState(State):
    """Kuhn poker: 3 cards (J Q K), each player antes 1, one bet of 1; the higher card wins a showdown."""

    cards: tuple[int, ...] = ()
    moves: str = ""

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self.moves in ("pp", "bp", "bb", "pbp", "pbb"):
            return TERMINAL
        return len(self.moves) % 2

    def _legal_actions(self) -> tuple[Any, ...]:
        return (Pass(), Bet())

    def _chance_outcomes(self) -> list[tuple[int, Fraction]]:
        left = [c for c in range(3) if c not in self.cards]
        return [(c, Fraction(1, len(left))) for c in left]

    def _apply(self, move: Any) -> KuhnState:
        if isinstance(move, int):
            return self._with(cards=self.cards + (move,))
        return self._with(moves=self.moves + ("b" if isinstance(move, Bet) else "p"))

    def returns(self) -> tuple[int, int]:
        m = self.moves
        if m in ("bp", "pbp"):  # the other player folded to a bet
            winner, pot = (0 if m == "bp" else 1), 1
        else:
            winner, pot = (0 if self.cards[0] > self.cards[1] else 1), (2 if "b" in m else 1)
        return (pot, -pot) if winner == 0 else (-pot, pot)


class Kuhn:
    def new_initial_state(self) -> KuhnState:
        return KuhnState()


# -- the playout loops ----------------------------------------------------------------------------

def generators(seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    """The chance generator and the bot's generator of the run seeded ``seed``: a run's games are its own."""
    return np.random.default_rng([0, seed]), np.random.default_rng([1, seed])


def ours(game: Any, n: int, seed: int, listing: bool = False) -> int:
    """``n`` random playouts through the State contract, the run seeded ``seed``; the steps. With ``listing``, every
    decision lists all its legal actions first, as OpenSpiel's loop does (``random_policy`` alone may draw without
    the whole list: Gizmos and VivaJava do, ``State._draw_legal``); the same games either way."""
    chance, rng = generators(seed)
    steps, bot = 0, random_policy(rng)
    if listing:
        drawn = bot
        bot = lambda state: (state.legal_actions(), drawn(state))[1]  # noqa: E731
    for _ in range(n):
        steps += len(play_out(game.new_initial_state(), bot, chance)[1])
    return steps


def openspiel(game: Any, n: int, seed: int) -> int:
    """``n`` random playouts of an OpenSpiel game drawn as :func:`ours` draws (the same generators and
    draws: ``uniform_below`` for actions, one ``random()`` in the cumulative odds for chance); the steps."""
    chance, rng = generators(seed)
    below, steps = uniform_below(rng), 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                cdf = list(accumulate(p for _, p in outcomes))
                action = outcomes[min(bisect_right(cdf, chance.random()), len(outcomes) - 1)][0]
            else:
                legal = state.legal_actions()
                action = legal[below(len(legal))]
            state.apply_action(action)
            steps += 1
        state.returns()
    return steps


def load_openspiel() -> Any:
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)
    except ImportError:
        return None
    return pyspiel.load_game("python_kuhn_poker")


def step_rates(repeat: int, seed: int = 1, replay: bool = False, listing: bool = False) -> dict[str, Any]:
    """Each case's rates over ``repeat`` interleaved runs seeded ``seed``, ``seed + 1``, ... (a warm-up seeded ``seed - 1``);
    with ``replay``, every run and the warm-up play the games seeded ``seed`` (the old, flattering harness, for comparison)."""
    games: dict[str, Any] = {label: coffeegames.games()[name].game(**options) for label, (name, options) in GAMES.items()}
    games["kuhn (coffeegames)"] = Kuhn()
    runs: dict[str, Callable[[int], int]] = {label: partial(ours, game, PLAYOUTS[label], listing=listing) for label, game in games.items()}
    peer = load_openspiel()
    if peer is not None:
        runs["kuhn (OpenSpiel)"] = partial(openspiel, peer, PLAYOUTS["kuhn (OpenSpiel)"])
    for run in runs.values():
        run(seed if replay else seed - 1)  # warm up (imports, first-use tables) on games no timed run plays
    timings: dict[str, list[tuple[int, Clock]]] = {label: [] for label in runs}
    for r in [seed] * repeat if replay else range(seed, seed + repeat):  # interleaved, a fresh seed each round
        for label, run in runs.items():
            timings[label].append(timed(lambda: run(r)))
    result: dict[str, Any] = {label: _rates(label, t) for label, t in timings.items()}
    if peer is None:
        result["kuhn (OpenSpiel)"] = "not installed (pip install open_spiel)"
    return _against_openspiel(result)


def _rates(label: str, runs: list[tuple[int, Clock]]) -> dict[str, Any]:
    """Best and median rates of runs given as (steps, clock), each run's rate its own steps (games) over its own seconds."""
    n = PLAYOUTS[label]
    steps = [s / c.cpu for s, c in runs]
    games = [n / c.cpu for _, c in runs]
    return {"games_a_run": n, "runs": len(runs), "steps_a_game": round(sum(s for s, _ in runs) / (n * len(runs)), 1),
            "steps_per_cpu_s_best": round(max(steps)), "steps_per_cpu_s_median": round(statistics.median(steps)),
            "steps_per_wall_s_median": round(statistics.median(s / c.wall for s, c in runs)),
            "games_per_cpu_s_best": round(max(games), 2), "games_per_cpu_s_median": round(statistics.median(games), 2),
            "cpu_s": [round(c.cpu, 4) for _, c in runs], "wall_s": [round(c.wall, 4) for _, c in runs],
            "steps": [s for s, _ in runs]}


def _against_openspiel(result: dict[str, Any]) -> dict[str, Any]:
    """Each case's best steps (``x_openspiel``) and whole games (``games_x_openspiel``) per CPU second over
    OpenSpiel's Kuhn poker's, in the same run."""
    peer = result.get("kuhn (OpenSpiel)")
    for label, r in result.items():
        if isinstance(r, dict) and isinstance(peer, dict):
            r["x_openspiel"] = round(r["steps_per_cpu_s_best"] / peer["steps_per_cpu_s_best"], 3)
            r["games_x_openspiel"] = round(r["games_per_cpu_s_best"] / peer["games_per_cpu_s_best"], 5)
    return result


def step_rates_against(base: str, repeat: int, listing: bool = False) -> dict[str, Any]:
    """The step rates of this code and of the code at ``base``, each round a fresh process on each (base first).

    Returns this code's rates (as :func:`step_rates`, every run pooled) with ``x_base`` per case, and the base's under
    ``"base"``. The base must have every game of :data:`GAMES`.
    """
    here, base = str(Path(coffeegames.__file__).resolve().parent.parent), str(Path(base).resolve())
    sides: dict[str, list[dict[str, Any]]] = {base: [], here: []}
    for seed in range(1, repeat + 1):
        for path in sides:
            env = {**os.environ, "PYTHONPATH": path}
            out = subprocess.run([sys.executable, __file__, "--json", "--no-sweep", "--repeat", "1", "--seed", str(seed)] + ["--list"] * listing, env=env, check=True,
                                 capture_output=True, text=True).stdout
            sides[path].append(json.loads(out)["steps"])
    pooled = {path: _pooled(runs) for path, runs in sides.items()}
    result = _against_openspiel(pooled[here])
    for label, r in result.items():
        old = pooled[base].get(label)
        if isinstance(r, dict) and isinstance(old, dict):
            r["x_base"] = round(r["steps_per_cpu_s_best"] / old["steps_per_cpu_s_best"], 2)
    result["base"] = {"path": base, **_against_openspiel(pooled[base])}
    return result


def _pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One side's single-run results (``--repeat 1`` each) pooled into best and median rates."""
    result: dict[str, Any] = {}
    for label, first in runs[0].items():
        if isinstance(first, dict):
            result[label] = _rates(label, [(run[label]["steps"][0], Clock(run[label]["cpu_s"][0], run[label]["wall_s"][0]))
                                           for run in runs])
        else:
            result[label] = first
    return result


# -- sweeps on 1 and 2 workers ------------------------------------------------------------------------

def sweep_rates(seeds: int) -> dict[str, Any]:
    try:
        import distributed
    except ImportError:
        return {"skipped": "dask/distributed not installed (pip install -e '.[cluster]')"}
    from coffeegames import roaster
    from coffeegames.engine import sweep

    games, bots = {"roaster": roaster.Game()}, {"greedy": lambda rng: roaster.greedy_policy}
    here, clock = timed(lambda: sweep(games, bots, seeds, progress=False))
    result: dict[str, Any] = {"games": seeds, "in process": _rate(seeds, clock)}
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as client:
            client.run(lambda: __import__("coffeegames.roaster"))  # workers import before the clock starts
            there, clock = timed(lambda: sweep(games, bots, seeds, client=client, progress=False))
        assert there.equals(here), "the cluster's table differs from the in-process one"
        result[f"dask {workers} worker{'s' * (workers > 1)}"] = _rate(seeds, clock)
    return result


def _rate(games: int, clock: Clock) -> dict[str, float]:
    return {"games_per_wall_s": round(games / clock.wall, 1), "wall_s": round(clock.wall, 2), "client_cpu_s": round(clock.cpu, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved runs of each case (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="the first timed run's seed (default 1; the warm-up plays seed - 1)")
    parser.add_argument("--replay", action="store_true", help="replay the games seeded --seed in every run, caches warm (flatters: for comparison only)")
    parser.add_argument("--sweep-games", type=int, default=200, help="games in the sweep part (default 200)")
    parser.add_argument("--no-sweep", action="store_true", help="skip the sweep part")
    parser.add_argument("--base", metavar="PATH", help="also run the playouts on the code at PATH (a checkout), interleaved")
    parser.add_argument("--list", action="store_true",
                        help="list every decision's legal actions before the random draw, as OpenSpiel's loop does")
    args = parser.parse_args()
    load_before = [round(x, 2) for x in os.getloadavg()]
    steps = (step_rates_against(args.base, args.repeat, args.list) if args.base
             else step_rates(args.repeat, args.seed, args.replay, args.list))
    result: dict[str, Any] = {"machine": f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs",
              "every_list": args.list, "load_before": load_before, "load_after": [round(x, 2) for x in os.getloadavg()], "steps": steps}
    if not args.no_sweep:
        result["sweep"] = sweep_rates(args.sweep_games)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{result['machine']}; load average before {load_before}, after {result['load_after']}")
    base = steps.pop("base", None)
    against = f" {'× base':>7}" if base else ""
    print(f"{'random playouts':19} {'steps/game':>10} {'steps/CPU s best':>17} {'median':>8} {'steps/wall s':>13} "
          f"{'× OpenSpiel':>12} {'games/CPU s':>12} {'games × OpenSpiel':>18}{against}")
    for label, r in steps.items():
        if isinstance(r, str):
            print(f"{label:19} {r}")
            continue
        ratio = f"{r['x_openspiel']:>12.3f}" if "x_openspiel" in r else f"{'':>12}"
        games = f"{r['games_x_openspiel']:>18.5f}" if "games_x_openspiel" in r else f"{'':>18}"
        versus = f" {r['x_base']:>7.2f}" if "x_base" in r else ""
        print(f"{label:19} {r['steps_a_game']:>10,.1f} {r['steps_per_cpu_s_best']:>17,} {r['steps_per_cpu_s_median']:>8,} "
              f"{r['steps_per_wall_s_median']:>13,} {ratio} {r['games_per_cpu_s_best']:>12,.2f} {games}{versus}")
    if base:
        print(f"base ({base['path']}), steps/CPU s best (median): "
              + "; ".join(f"{label} {r['steps_per_cpu_s_best']:,} ({r['steps_per_cpu_s_median']:,})" for label, r in base.items() if isinstance(r, dict)))
    for label, r in result.get("sweep", {}).items():
        print(f"sweep {label}: {r}")


if __name__ == "__main__":
    main()
