"""Benchmark: engine steps per CPU second (random playouts through the State contract), beside OpenSpiel, and sweeps.

Run from the repository root:

    python benchmarks/bench_engine.py            # table
    python benchmarks/bench_engine.py --json     # the same numbers as JSON
    python benchmarks/bench_engine.py --no-sweep # skip the Dask part (needs the `cluster` extra)

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
   reported, in steps per CPU second (``time.process_time``) and per wall second.
2. **Sweep games per second** (``engine.sweep``; Coffee Roaster, greedy bot) in this process,
   and on a Dask ``LocalCluster`` on 127.0.0.1 with 1 and then 2 worker processes (wall time:
   the workers' CPU is not this process's). The tables are checked identical first.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
from dataclasses import dataclass
from fractions import Fraction
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
    result: dict[str, Any] = {}
    for label, runs_clocks in clocks.items():
        s = summary(runs_clocks)
        result[label] = {
            "playouts": PLAYOUTS[label], "steps": steps[label],
            "steps_per_cpu_s_best": round(steps[label] / s["cpu_best"]),
            "steps_per_cpu_s_median": round(steps[label] / s["cpu_median"]),
            "steps_per_wall_s_median": round(steps[label] / s["wall_median"]),
            **s,
        }
    if peer is None:
        result["kuhn (OpenSpiel)"] = "not installed (pip install open_spiel)"
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
    args = parser.parse_args()
    result = {"machine": f"Python {platform.python_version()} on {platform.machine()}", "steps": step_rates(args.repeat)}
    if not args.no_sweep:
        result["sweep"] = sweep_rates(args.sweep_games)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(result["machine"])
    print(f"{'random playouts':22} {'steps/CPU s best':>17} {'median':>8} {'steps/wall s':>13}")
    for label, r in result["steps"].items():
        if isinstance(r, str):
            print(f"{label:22} {r}")
        else:
            print(f"{label:22} {r['steps_per_cpu_s_best']:>17,} {r['steps_per_cpu_s_median']:>8,} {r['steps_per_wall_s_median']:>13,}")
    for label, r in result.get("sweep", {}).items():
        print(f"sweep {label}: {r}")


if __name__ == "__main__":
    sys.exit(main())
