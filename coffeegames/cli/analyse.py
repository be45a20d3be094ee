"""``coffeegames analyse GAME --seeds N``: the game analysed at scale (fairness, luck, options, shape), as tables.

Games play in this process, through joblib (``--jobs N``) or on a Dask cluster (``--scheduler ADDRESS``); the same
seeds give the same numbers whichever way. ``--save FILE.jsonl`` keeps every game and resumes from it.
"""

from __future__ import annotations

import argparse

from ..games import games as registry
from .common import at_least_one

__all__: list[str] = []  # the command is reached through coffeegames.cli.main

QUESTIONS = ("fairness", "luck", "options", "shape")  # coffeegames.analyse.report.QUESTIONS, without importing it
BOTS = ("random", "greedy", "strong")


def _analyse(args: argparse.Namespace) -> None:
    import pandas as pd

    from ..analyse import analyse

    report = analyse(args.name, seeds=args.seeds, bots=args.bots, players=args.players, jobs=args.jobs,
                     client=args.scheduler, progress=args.progress, save=args.save)
    title = registry()[args.name].title
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_rows", 500,
                           "display.float_format", "{:.4g}".format):
        for question in args.question or QUESTIONS:
            table = report.table(question)
            print(f"{title}: {question} ({len(report.seeds):,} seeds)")
            print(table.to_string(index=False) if not table.empty else "(nothing to show)")
            print()


def add_commands(commands: argparse._SubParsersAction) -> None:
    """The ``analyse`` command."""
    parser = commands.add_parser("analyse", help="a game analysed at scale: fairness, luck, options, shape")
    parser.add_argument("name", metavar="GAME", choices=list(registry()), help=f"one of {', '.join(registry())}")
    parser.add_argument("--seeds", type=at_least_one("seeds"), default=100, help="games a question plays (default 100)")
    parser.add_argument("--question", action="append", choices=QUESTIONS, help="a question to answer (repeat for several; default all)")
    parser.add_argument("--bots", nargs="+", choices=BOTS, default=None, help="the bots, weakest first (default all three)")
    parser.add_argument("--players", type=at_least_one("players"), nargs="+", default=None, help="player counts (default every variant)")
    parser.add_argument("--jobs", type=at_least_one("jobs"), default=None, help="worker processes (joblib)")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler's address, such as tcp://10.0.0.5:8786")
    parser.add_argument("--save", default=None, help="a .jsonl file keeping every game (run again: resumes)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    parser.set_defaults(run=_analyse)
