"""Instructions a step of one ``bench_engine.py`` case, counted by callgrind: steadier than CPU time on a shared machine.

One process plays the case's warm-up round (seed 0) and then a fresh round (seed 1), as ``bench_engine.py`` does; a
second process plays the warm-up alone; the difference in instructions, over the fresh round's steps, is the figure
(imports and first-use tables cancel out). Both run under ``valgrind --tool=callgrind`` at once (about 2-4 minutes for
``gizmos 3p`` on an idle 2-core machine). Run from the repository root:

    PYTHONPATH=$PWD python benchmarks/instructions_a_step.py "gizmos 3p"
    PYTHONPATH=$PWD python benchmarks/instructions_a_step.py "vivajava 3p" --list

Change no file of the checkout while it runs (the processes import it as they go): count a copy
(``git archive HEAD | tar -x -C DIR``) when working on.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
STEADY = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
"""Both processes with the same hashes (set and dict orders) and without numpy's idle BLAS threads, whose start-up
alone differed by 7.5M instructions between two processes. With both fixed, two counts of the same code (gizmos 3p)
differed by 1,605 instructions over the 8,343 steps of the fresh round: 75,845 a step both times."""


def play(case: str, rounds: int, listing: bool) -> None:
    """The child: the warm-up round, then (``rounds`` 2) the fresh one, printing its steps."""
    sys.path.insert(0, str(HERE))
    import coffeegames
    from bench_engine import GAMES, PLAYOUTS, ours

    name, options = GAMES[case]
    game = coffeegames.games()[name].game(**options)
    ours(game, PLAYOUTS[case], 0, listing)
    if rounds == 2:
        print("steps", ours(game, PLAYOUTS[case], 1, listing))


def _number(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    if found is None:
        raise SystemExit(f"no {pattern!r} in a child's output (valgrind installed?):\n{text[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", nargs="?", default="gizmos 3p", help="a case of bench_engine.GAMES (default 'gizmos 3p')")
    parser.add_argument("--list", action="store_true", help="every decision lists all its legal actions (bench_engine --list)")
    parser.add_argument("--play", type=int, choices=(1, 2), help=argparse.SUPPRESS)  # (the child processes)
    args = parser.parse_args()
    if args.play:
        play(args.case, args.play, args.list)
        return
    with tempfile.TemporaryDirectory() as tmp:
        children = []
        for rounds in (1, 2):
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out.{rounds}", sys.executable, __file__,
                       args.case, "--play", str(rounds)] + ["--list"] * args.list
            children.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                             env=STEADY))
        (out1, err1), (out2, err2) = (child.communicate() for child in children)
    counted = [_number(r"Collected : (\d+)", err) for err in (err1, err2)]
    steps = _number(r"steps (\d+)", out2)
    print(f"{args.case}{' --list' if args.list else ''}: {(counted[1] - counted[0]) // steps:,} instructions a step "
          f"({counted[1] - counted[0]:,} over {steps:,} steps of the fresh round)")


if __name__ == "__main__":
    main()
