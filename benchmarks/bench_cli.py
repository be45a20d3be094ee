"""The command line's quick answers, each a whole fresh process: CPU and wall seconds, source trees interleaved.

    python benchmarks/bench_cli.py                          # this checkout, 5 runs of each
    python benchmarks/bench_cli.py --trees /tmp/before .    # two checkouts interleaved (A B A B), same run
    python benchmarks/bench_cli.py --json                   # for run_all.py

Issue 14's aim: each quick answer (the odds-like commands: not ``decide``, ``turn`` or ``roaster cup``,
which run solvers) in at most 0.3 s wall on an idle machine. On a loaded machine wall time measures the
neighbours too, so the floors are timed in the same run, interleaved with the commands: ``python -c pass``
(the interpreter's start) and ``import numpy`` (which the exact core needs); compare a command's CPU with
theirs. CPU is the child's user + system time (``getrusage``), wall is start to exit.

Each tree's modules are compiled to bytecode first (``compileall``), as an installed package has them:
where ``PYTHONDONTWRITEBYTECODE`` is set (or in a checkout never run), every run would compile every
module from source again, adding about 0.1-0.2 s to each answer.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

QUICK = {
    "dairyman odds": ["dairyman", "odds"],
    "dairyman lock": ["dairyman", "lock", "4", "6", "5", "5", "1", "3", "2", "2"],
    "dairyman reroll": ["dairyman", "reroll", "1", "1", "2", "3"],
    "vivajava odds": ["vivajava", "odds", "--coffee-dice", "5", "--flavour", "1", "--beat", "regular", "red"],
    "vivajava meter": ["vivajava", "meter"],
    "roaster draw": ["roaster", "draw", "bean2:4 bean3:2 smoke:1 moisture:3", "--draws", "2"],
    "gizmos draw": ["gizmos", "draw", "red:13", "blue:10", "black:12", "yellow:9", "--draws", "3"],
    "gizmos pay": ["gizmos", "pay", "red:13 blue:10 black:12 yellow:9", "--colour", "blue", "--cost", "3", "--held", "1"],
    "rush orders": ["rush", "orders", "--next", "2", "--seen", "coffee+milk, milk+steam", "--held", "tea"],
    "games": ["games"],
    "--help": ["--help"],
}
"""The quick answers, by name: the argument lists after ``coffeegames``."""

FLOORS = {"python -c pass": ["-c", "pass"], "import numpy": ["-c", "import numpy"]}
"""What every answer pays before its own work, timed in the same run."""


def _run(args: list[str], tree: Path) -> tuple[float, float]:
    """CPU (the child's user + system) and wall seconds of ``python *args`` run in ``tree`` with its code first."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def cli_times(trees: list[Path], repeat: int) -> dict[str, Any]:
    """Per tree (by path) and per command: CPU median, wall median and wall best; the floors under ``floors``."""
    for tree in trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", "coffeegames"], cwd=tree, check=True, stdout=subprocess.DEVNULL,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(repeat):
        for name, args in FLOORS.items():
            runs.setdefault(("floors", name), []).append(_run(args, trees[0]))
        for name, args in QUICK.items():
            for tree in trees:  # A B A B: a burst of load hits every tree alike
                runs.setdefault((str(tree), name), []).append(_run(["-m", "coffeegames", *args], tree))
    out: dict[str, Any] = {}
    for (where, name), pairs in runs.items():
        out.setdefault(where, {})[name] = {
            "cpu_median": round(statistics.median(c for c, _ in pairs), 3),
            "wall_median": round(statistics.median(w for _, w in pairs), 3),
            "wall_best": round(min(w for _, w in pairs), 3),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", type=Path, default=[ROOT], help="checkouts to compare (default: this one)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each command in each tree (default 5)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.trees]
    result = cli_times(trees, args.repeat)
    result["load"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"load average after: {result['load']}; medians of {args.repeat} runs, CPU / wall seconds")
    for name, floor in result["floors"].items():
        print(f"{name:>18}: {floor['cpu_median']:.3f} / {floor['wall_median']:.3f}")
    for name in QUICK:
        cells = "   ".join(f"{result[str(t)][name]['cpu_median']:.3f} / {result[str(t)][name]['wall_median']:.3f}" for t in trees)
        print(f"{name:>18}: {cells}")


if __name__ == "__main__":
    main()
