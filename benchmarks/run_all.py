"""Run every benchmark and write one JSON file: ``python benchmarks/run_all.py`` from the repository root.

Each benchmark runs in a fresh process (cold imports, its own caches), with its ``--json``
output collected into ``benchmarks/results.json`` (``--out`` to change), together with the
commit, the time, the machine and its load average before and after: on a shared machine
the load says how far the wall times can be trusted; the CPU times (``process_time``) are
the ones to compare. ``--quick`` runs fewer repeats (a smoke run, a few minutes).

The parts (``--only`` picks some):

- ``import``: ``import coffeegames`` in a fresh interpreter, CPU and wall, interleaved with
  ``import numpy, pandas`` (the floor it is measured against), and what a notebook pays for its view (the
  Roaster walkthrough, the one that loads the most; every widget) against importing the widgets' own
  dependencies (numpy, pandas, ipywidgets, plotly.graph_objects, anywidget); then ``bench_cli.py``: the CLI's
  quick answers (``coffeegames dairyman odds``, ``roaster draw ...``, ``vivajava meter`` ...), each a
  whole process, beside ``python -c pass`` and ``import numpy`` timed in the same run;
- ``dairyman``: ``bench_dairyman.py`` (odds against icepool and a plain search);
- ``dairyman_engine``: ``bench_dairyman_engine.py`` (the turn solver, games per second);
- ``vivajava``: ``bench_vivajava.py`` (colour-dice odds against brute force);
- ``engine``: ``bench_engine.py`` (steps per CPU second of every game, Kuhn poker here and in
  OpenSpiel, sweeps on 1 and 2 Dask workers);
- ``roaster``: ``bench_roaster.py --parts 14`` (stop now at every decision, and the
  DecisionView refresh).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

IMPORTS = {
    "coffeegames": "import coffeegames",
    "numpy + pandas": "import numpy, pandas",
    "a walkthrough": "from coffeegames.widgets import roaster_walkthrough",  # the view that loads the most
    "every widget": "import coffeegames.widgets as widgets; [getattr(widgets, name) for name in widgets.__all__]",
    "the widgets' dependencies": "import numpy, pandas, ipywidgets, plotly.graph_objects, anywidget",
}
RATIOS = {  # what is measured ÷ its floor
    "ratio": ("coffeegames", "numpy + pandas"),
    "walkthrough_ratio": ("a walkthrough", "the widgets' dependencies"),
    "every_widget_ratio": ("every widget", "the widgets' dependencies"),
}


def _python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, check=True)


def import_times(repeat: int) -> dict[str, Any]:
    """CPU and wall seconds of each import in a fresh interpreter, interleaved."""
    probe = ("import time; c, w = time.process_time(), time.perf_counter(); {stmt}; "
             "print(time.process_time() - c, time.perf_counter() - w)")
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in IMPORTS}
    for _ in range(repeat):
        for name, stmt in IMPORTS.items():
            cpu, wall = map(float, _python("-c", probe.format(stmt=stmt)).stdout.split())
            runs[name].append((cpu, wall))
    out: dict[str, Any] = {}
    for name, pairs in runs.items():
        cpu, wall = [c for c, _ in pairs], [w for _, w in pairs]
        out[name] = {"cpu_best": round(min(cpu), 3), "cpu_median": round(statistics.median(cpu), 3),
                     "wall_best": round(min(wall), 3), "wall_median": round(statistics.median(wall), 3)}
    for ratio, (name, floor) in RATIOS.items():
        for stat in ("cpu_best", "cpu_median"):
            out[f"{ratio}_{stat}"] = round(out[name][stat] / out[floor][stat], 2)
    out["cli"] = script("bench_cli.py", "--json", "--repeat", str(repeat))
    return out


def script(name: str, *args: str) -> Any:
    return json.loads(_python(str(HERE / name), *args).stdout)


def roaster(quick: bool) -> Any:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "roaster.json"
        games = "1" if quick else "2"
        _python(str(HERE / "bench_roaster.py"), "--parts", "14", "--games", games, "--view-games", "1", "--json", str(out))
        return json.loads(out.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats: a smoke run")
    parser.add_argument("--only", nargs="*", help="run only these parts (import dairyman dairyman_engine vivajava engine roaster)")
    parser.add_argument("--out", default=str(HERE / "results.json"), help="where to write the JSON (default benchmarks/results.json)")
    args = parser.parse_args()
    r = 2 if args.quick else 5
    parts = {
        "import": lambda: import_times(r),
        "dairyman": lambda: script("bench_dairyman.py", "--json", "--repeat", str(r)),
        "dairyman_engine": lambda: script("bench_dairyman_engine.py", "--json", "--repeat", str(max(2, r - 2)), "--games", "10"),
        "vivajava": lambda: script("bench_vivajava.py", "--json", "--repeat", "2"),
        "engine": lambda: script("bench_engine.py", "--json", "--repeat", str(r), "--sweep-games", "100" if args.quick else "300"),
        "roaster": lambda: roaster(args.quick),
    }
    chosen = args.only or list(parts)
    unknown = set(chosen) - set(parts)
    if unknown:
        parser.error(f"unknown parts {sorted(unknown)}; the parts are {', '.join(parts)}")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    result: dict[str, Any] = {
        "commit": commit or None, "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in os.getloadavg()], "quick": args.quick,
    }
    for name in chosen:
        start = time.perf_counter()
        print(f"{name} ...", end=" ", flush=True, file=sys.stderr)
        try:
            result[name] = parts[name]()
        except subprocess.CalledProcessError as error:  # one broken benchmark does not lose the others
            result[name] = {"failed": error.returncode, "stderr": error.stderr[-2000:]}
        print(f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")  # what is done so far
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
