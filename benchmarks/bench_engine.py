"""Benchmark: engine steps per CPU second (random playouts through the State contract), beside OpenSpiel, and sweeps.

Run from the repository root:

    python benchmarks/bench_engine.py            # table
    python benchmarks/bench_engine.py --json     # the same numbers as JSON
    python benchmarks/bench_engine.py --no-sweep # skip the Dask part (needs the `cluster` extra)
    python benchmarks/bench_engine.py --no-sweep --base /tmp/old   # also the code at /tmp/old (a worktree), × against it

A script, not a test (pytest ignores benchmarks/). Measures:

1. **Steps per CPU second** of seeded random playouts (``engine.play_out`` with the engine's
   ``random_policy``; every chance move by ``sample_chance``, every move through ``apply``
   and its legality check) for Dairyman (3 players), VivaJava (3 players) and Coffee Roaster
   (full side); and two peers on the same footing:
   - **Kuhn poker in coffeegames** (:class:`KuhnState` below, a 3-card game under the State
     contract): the contract's own cost on the smallest game;
   - **OpenSpiel's pure-Python Kuhn poker** (``python_kuhn_poker``: the game in Python, the
     framework in C++), played by the same kind of loop: uniform random actions, chance
     sampled from ``chance_outcomes()`` with one uniform draw. Needs ``pip install open_spiel``;
     without it the peer is reported as not installed.
   Cases run interleaved (A B C ... A B C ...), ``--repeat`` times; the best and the median are
   reported, in steps per CPU second (``time.process_time``) and per wall second, with each case's
   best rate over OpenSpiel's best rate of the same run (``× OpenSpiel``).
   With ``--base PATH`` the same loops also run on the code at PATH (a checkout: ``PYTHONPATH=PATH``):
   each round is one fresh process on that code, then one on this code (the one this script imports),
   ``--repeat`` rounds; the table gives this code's rates and ``× base``, its best rate over the
   base's best rate (CPU), each game against itself.
2. **Sweep games per second** (``engine.sweep``; Coffee Roaster, greedy bot) in this process,
   and on a Dask ``LocalCluster`` on 127.0.0.1 with 1 and then 2 worker processes (wall time:
   the workers' CPU is not this process's). The tables are checked identical first.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from clocks import Clock, interleaved, summary, timed

import coffeegames
from coffeegames.engine import CHANCE, TERMINAL, State, play_out, random_policy

GAMES = {"dairyman 3p": ("dairyman", {"players": 3}), "vivajava 3p": ("vivajava", {"players": 3}),
         "roaster full": ("roaster", {"side": "full"})}
"""The games measured, each as (registry name, options), with the number of seeded games a run plays."""
PLAYOUTS = {"dairyman 3p": 2, "vivajava 3p": 40, "roaster full": 120, "kuhn (coffeegames)": 3000, "kuhn (OpenSpiel)": 3000}


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

def ours(game: Any, n: int) -> int:
    """``n`` seeded random playouts through the State contract (one generator for chance, one for the bot); the steps."""
    steps, bot, chance = 0, random_policy(np.random.default_rng(1)), np.random.default_rng(0)
    for _ in range(n):
        steps += len(play_out(game.new_initial_state(), bot, chance)[1])
    return steps


def openspiel(game: Any, n: int) -> int:
    """``n`` random playouts of an OpenSpiel game, chance sampled from its listed odds; the number of steps."""
    rng = random.Random(0)
    steps = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                r, acc = rng.random(), 0.0
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for o, p in outcomes:
                    acc += p
                    if r < acc:
                        action = o
                        break
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
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


def step_rates(repeat: int) -> dict[str, Any]:
    games: dict[str, Any] = {label: coffeegames.games()[name].game(**options) for label, (name, options) in GAMES.items()}
    games["kuhn (coffeegames)"] = Kuhn()
    runs = {label: (lambda g=game, n=PLAYOUTS[label]: ours(g, n)) for label, game in games.items()}
    peer = load_openspiel()
    if peer is not None:
        runs["kuhn (OpenSpiel)"] = lambda: openspiel(peer, PLAYOUTS["kuhn (OpenSpiel)"])
    steps = {label: run() for label, run in runs.items()}  # warm up; the step count of one run
    clocks = interleaved(runs, repeat)
    result: dict[str, Any] = {label: _rates(label, steps[label], runs_clocks) for label, runs_clocks in clocks.items()}
    if peer is None:
        result["kuhn (OpenSpiel)"] = "not installed (pip install open_spiel)"
    return _against_openspiel(result)


def _rates(label: str, steps: int, clocks: list[Clock]) -> dict[str, Any]:
    s = summary(clocks)
    return {"playouts": PLAYOUTS[label], "steps": steps, "steps_per_cpu_s_best": round(steps / s["cpu_best"]),
            "steps_per_cpu_s_median": round(steps / s["cpu_median"]), "steps_per_wall_s_median": round(steps / s["wall_median"]), **s}


def _against_openspiel(result: dict[str, Any]) -> dict[str, Any]:
    """Each case's best steps per CPU second over OpenSpiel's Kuhn poker's, in the same run (``x_openspiel``)."""
    peer = result.get("kuhn (OpenSpiel)")
    for label, r in result.items():
        if isinstance(r, dict) and isinstance(peer, dict):
            r["x_openspiel"] = round(r["steps_per_cpu_s_best"] / peer["steps_per_cpu_s_best"], 2)
    return result


def step_rates_against(base: str, repeat: int) -> dict[str, Any]:
    """The step rates of this code and of the code at ``base``, each round a fresh process on each (base first).

    Returns this code's rates (as :func:`step_rates`, every run pooled) with ``x_base`` per case, and the base's under
    ``"base"``. The base must have every game of :data:`GAMES`.
    """
    here, base = str(Path(coffeegames.__file__).resolve().parent.parent), str(Path(base).resolve())
    sides: dict[str, list[dict[str, Any]]] = {base: [], here: []}
    for _ in range(repeat):
        for path in sides:
            env = {**os.environ, "PYTHONPATH": path}
            out = subprocess.run([sys.executable, __file__, "--json", "--no-sweep", "--repeat", "1"], env=env, check=True,
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
            clocks = [Clock(run[label]["cpu_best"], run[label]["wall_best"]) for run in runs]
            result[label] = _rates(label, first["steps"], clocks)
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
    parser.add_argument("--sweep-games", type=int, default=200, help="games in the sweep part (default 200)")
    parser.add_argument("--no-sweep", action="store_true", help="skip the sweep part")
    parser.add_argument("--base", metavar="PATH", help="also run the playouts on the code at PATH (a checkout), interleaved")
    args = parser.parse_args()
    steps = step_rates_against(args.base, args.repeat) if args.base else step_rates(args.repeat)
    result = {"machine": f"Python {platform.python_version()} on {platform.machine()}", "steps": steps}
    if not args.no_sweep:
        result["sweep"] = sweep_rates(args.sweep_games)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(result["machine"])
    base = steps.pop("base", None)
    against = f" {'× base':>7}" if base else ""
    print(f"{'random playouts':22} {'steps/CPU s best':>17} {'median':>8} {'steps/wall s':>13} {'× OpenSpiel':>12}{against}")
    for label, r in steps.items():
        if isinstance(r, str):
            print(f"{label:22} {r}")
        else:
            ratio = f"{r['x_openspiel']:>12.2f}" if "x_openspiel" in r else f"{'':>12}"
            versus = f" {r['x_base']:>7.2f}" if "x_base" in r else ""
            print(f"{label:22} {r['steps_per_cpu_s_best']:>17,} {r['steps_per_cpu_s_median']:>8,} {r['steps_per_wall_s_median']:>13,} {ratio}{versus}")
    if base:
        print(f"base ({base['path']}), steps/CPU s best (median): "
              + "; ".join(f"{label} {r['steps_per_cpu_s_best']:,} ({r['steps_per_cpu_s_median']:,})" for label, r in base.items() if isinstance(r, dict)))
    for label, r in result.get("sweep", {}).items():
        print(f"sweep {label}: {r}")


if __name__ == "__main__":
    sys.exit(main())
