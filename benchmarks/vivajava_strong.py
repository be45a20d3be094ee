"""VivaJava's strong bot with each of its three changes left out, against greedy: which change wins the games.

``vivajava.strong_policy`` is the greedy bot plus three changes (it keeps the Rainbow, funds nothing, values a flavour
die at 1.5). Each variant here leaves one out (``coffeegames.vivajava.policy._strong``'s switches) and plays
``coffeegames.analyse``'s luck question against greedy (2 players, PP payoff, seats alternating, the same seeds for
every variant); the tables go to ``--out`` as JSON (keep them in ``runs/``). Not a test; from the repository root::

    python benchmarks/vivajava_strong.py --seeds 300 --first 200000 --out benchmarks/runs/2026-12-06-vivajava-strong-ablation.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import coffeegames  # noqa: E402
from coffeegames.analyse import Bot  # noqa: E402
from coffeegames.vivajava.policy import FLAVOUR_DIE_WORTH, _strong  # noqa: E402

VARIANTS: dict[str, dict[str, Any]] = {
    "strong": {},
    "without keeping the Rainbow": {"keep_rainbow": False},
    "funding with others' dice": {"own_dice": False},
    "flavour dice at greedy's 0.8": {"flavour": 0.8},
}


@dataclass(frozen=True)
class Variant:
    """A bot maker: the strong bot with ``switches`` (picklable)."""

    switches: tuple[tuple[str, Any], ...]

    def __call__(self, rng: Any) -> Any:
        return self.policy

    def policy(self, state: Any) -> Any:
        return _strong(state, **dict(self.switches))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--first", type=int, default=200_000)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.seeds)
    cpu, wall = time.process_time(), time.perf_counter()
    tables = {}
    for name, switches in VARIANTS.items():
        bots = {"greedy": Bot("vivajava", "greedy"), "variant": Variant(tuple(switches.items()))}
        table = coffeegames.analyse("vivajava", seeds=seeds, bots=bots, options={}, players=2, progress=False).table("luck")
        tables[name] = json.loads(table.to_json(orient="records"))
        row = table.set_index("measure").loc["win rate"]
        print(f"{name}: {int(row['wins'])} of {int(row['games'])}, {row['value']:.1%} [{row['low']:.1%}, {row['high']:.1%}]",
              flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    result = {"game": "vivajava", "players": 2, "seeds": args.seeds, "first": args.first, "flavour_die_worth": FLAVOUR_DIE_WORTH,
              "variants": VARIANTS, "commit": commit, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "load": os.getloadavg(), "python": platform.python_version(), "cpu_seconds": time.process_time() - cpu,
              "wall_seconds": time.perf_counter() - wall, "tables": tables}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
