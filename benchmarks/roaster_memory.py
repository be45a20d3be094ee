"""Peak memory of the exact one more round at one benchmark position, measured in a fresh subprocess.

    python benchmarks/roaster_memory.py [card] [game] [space]     # default: Hawaii Kona, game 0, space 8
    python benchmarks/roaster_memory.py --against /tmp/base --repeat 3 --json benchmarks/runs/FILE.json

Prints the process's peak resident memory (``resource.getrusage``'s ``ru_maxrss``) before and after the call, its
CPU and wall seconds and the exact value (to compare across versions: a memory change changes no answer). The
position is ``bench_roaster.positions``' (seeded greedy-bot games). ``--against DIR`` runs another checkout of the
project (its own ``coffeegames`` and ``benchmarks``, e.g. ``git worktree add /tmp/base main``) in the same run,
alternately (A B, then B A, ...), each run a fresh process; ``--json`` stores every run with the load beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

CHILD = """
import json, resource, sys, time
sys.path.insert(0, "benchmarks")
from bench_roaster import positions
from coffeegames.roaster import one_more_round
card, game, space = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
state = next(s for seed, s in positions(card, game + 1) if seed == game and s.space == space)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
cpu, wall = time.process_time(), time.perf_counter()
r = one_more_round(state, max_outcomes=None, max_states=None)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"peak_mib": round(peak, 1), "before_mib": round(before, 1), "cpu_s": round(cpu, 3),
                  "wall_s": round(wall, 3), "positions": r.positions, "value": str(r.value)}))
"""


def run(tree: Path, card: str, game: str, space: str) -> dict:
    """One measurement in a fresh process, with ``tree``'s package and benchmarks."""
    load = os.getloadavg()[0]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", CHILD, card, game, space], cwd=tree, env=env, check=True,
                         capture_output=True, text=True).stdout
    got = json.loads(out.strip().splitlines()[-1])
    return {"load_before": round(load, 2), **got}


def commit(tree: Path) -> str:
    found = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return found.stdout.strip() or "(not a git checkout)"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("where", nargs="*", default=[], help="card, game, space (default: Hawaii Kona 0 8)")
    parser.add_argument("--against", type=Path, help="another checkout of the project, run alternately in the same run")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (default 1)")
    parser.add_argument("--json", type=Path, help="also store every run here")
    args = parser.parse_args()
    card, game, space = (args.where[:3] + ["Hawaii Kona", "0", "8"][len(args.where[:3]):])
    here = Path(__file__).resolve().parent.parent
    trees = [here] + ([args.against.resolve()] if args.against else [])
    runs = []
    for i in range(args.repeat):
        for tree in trees if i % 2 == 0 else trees[::-1]:
            name = "this tree" if tree == here else "against"
            r = {"tree": name, **run(tree, card, game, space)}
            runs.append(r)
            print(f"{name} ({commit(tree)}): {card} game {game} space {space}: peak {r['peak_mib']:.0f} MiB "
                  f"(before the call {r['before_mib']:.0f} MiB), {r['cpu_s']:.2f} s CPU, {r['wall_s']:.2f} s wall, load "
                  f"{r['load_before']:.1f}, {r['positions']:,} positions, value {r['value']}", flush=True)
    if len({r["value"] for r in runs}) > 1:
        print("THE VALUES DIFFER", file=sys.stderr)
    if args.json:
        record = {"command": " ".join(["python", "benchmarks/roaster_memory.py", *sys.argv[1:]]),
                  "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "position": [card, int(game), int(space)],
                  "commits": {("this tree" if t == here else "against"): commit(t) for t in trees},
                  "cpus": os.cpu_count(), "runs": runs}
        args.json.write_text(json.dumps(record, indent=1) + "\n")
