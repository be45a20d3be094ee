"""The README's findings: an analysis of one game over many seeds (fairness and shape with the greedy bot, and
optionally luck), its tables written as JSON to ``--out`` (keep them in ``runs/``).

The games' rows go to ``--rows`` (a ``.jsonl``, resumed if the run is stopped; large, so not kept in the
repository). Not a test; run from the repository root::

    python benchmarks/analyse_findings.py gizmos --seeds 2000 --out benchmarks/runs/2026-12-06-analyse-gizmos.json
    python benchmarks/analyse_findings.py rush --players 2 --seeds 2000 --out ...
    python benchmarks/analyse_findings.py gizmos --questions luck --bots greedy strong --seeds 100 --out ...
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import coffeegames  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seeds", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0, help="the first seed (several runs can share a sweep's seeds)")
    parser.add_argument("--players", type=int, nargs="*")
    parser.add_argument("--bots", nargs="*", default=["greedy"])
    parser.add_argument("--questions", nargs="*", default=["fairness", "shape"])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rows", default=None, help="the games' rows (.jsonl); default /tmp/analyse-runs/<game>-<questions>.jsonl")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rows = Path(args.rows or f"/tmp/analyse-runs/{args.game}-{'-'.join(args.questions)}.jsonl")
    rows.parent.mkdir(parents=True, exist_ok=True)
    report = coffeegames.analyse(args.game, seeds=range(args.first, args.first + args.seeds), bots=args.bots, options={}, players=args.players or None,
                                 jobs=args.jobs, progress=True, save=rows)
    cpu, wall = time.process_time(), time.perf_counter()
    tables = {q: json.loads(report.table(q).to_json(orient="records")) for q in args.questions}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    result = {"game": args.game, "seeds": args.seeds, "bots": args.bots, "players": args.players, "commit": commit,
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load": os.getloadavg(),
              "python": platform.python_version(), "cpu_seconds": time.process_time() - cpu,
              "wall_seconds": time.perf_counter() - wall, "games": len(report.rows), "tables": tables}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    for q in args.questions:
        print(q)
        print(report.table(q).to_string())


if __name__ == "__main__":
    main()
