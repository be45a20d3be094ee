"""``coffeegames gizmos ...``: what random draws from the dispenser bring, and whether they pay a cost.

Marbles are typed as everywhere in the game (:func:`~coffeegames.gizmos.parse_marbles`): ``colour:count`` pairs.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from .. import gizmos
from .common import print_rows

__all__: list[str] = []  # the commands are reached through coffeegames.cli.main


def _dispenser(words: Sequence[str]) -> dict[str, int]:
    return gizmos.parse_marbles(" ".join(words), "dispenser")


def _gizmos_draw(args: argparse.Namespace) -> None:
    dispenser = _dispenser(args.dispenser)
    rows = gizmos.colour_rows(dispenser, args.draws)
    if args.json:
        print_rows(rows, True, {"dispenser": dispenser, "draws": args.draws})
        return
    size = sum(dispenser.values())
    print(f"Gizmos: {min(args.draws, size)} random draw(s) from a dispenser of {size} marbles (exact)\n")
    print_rows(rows, False)


def _gizmos_pay(args: argparse.Namespace) -> None:
    dispenser = _dispenser(args.dispenser)
    rows = gizmos.pay_rows(dispenser, args.colour, args.cost, args.held, args.max_draws)
    if args.json:
        print_rows(rows, True, {"dispenser": dispenser, "colour": args.colour, "cost": args.cost, "held": args.held})
        return
    print(f"Gizmos: paying {args.cost} {args.colour} energy, {args.held} held, with random draws from a dispenser of "
          f"{sum(dispenser.values())} marbles (exact)\n")
    print_rows(rows, False)


def add_commands(games: Any) -> None:
    """The ``gizmos`` game and its commands, on the parser's ``games``."""
    gz = games.add_parser("gizmos", help="Gizmos: drawing energy marbles from the dispenser")
    gcmds = gz.add_subparsers(dest="command", required=True, metavar="COMMAND")
    gdraw = gcmds.add_parser("draw", help="what random draws from the dispenser bring of each colour")
    gpay = gcmds.add_parser("pay", help="the chance random draws (with what you hold) pay a cost, by number of draws")
    for cmd in (gdraw, gpay):
        cmd.add_argument("dispenser", nargs="+", help="the dispenser as colour:count pairs, e.g. red:13 blue:10 black:12 yellow:9")
    gdraw.add_argument("--draws", type=int, default=1, help="random draws (default 1; all if fewer remain)")
    gpay.add_argument("--colour", required=True, help="the cost's colour: red, blue, black, yellow or any")
    gpay.add_argument("--cost", type=int, required=True, help="energy the gizmo costs")
    gpay.add_argument("--held", type=int, default=0, help="energy of that colour already stored (default 0)")
    gpay.add_argument("--max-draws", type=int, default=6, metavar="N", help="draws 0..N (default 6)")
    for cmd, run in ((gdraw, _gizmos_draw), (gpay, _gizmos_pay)):
        cmd.add_argument("--json", action="store_true", help="print JSON instead of a table")
        cmd.set_defaults(run=run)
