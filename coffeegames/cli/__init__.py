"""The ``coffeegames`` command line: quick exact answers at the table.

Examples::

    coffeegames dairyman odds --dice 8            # bust chance and most dice locked, 1..8 dice
    coffeegames dairyman odds --dice 6 --frozen 5 --json
    coffeegames dairyman lock 4 6 5 5 1 3 2 2     # every way to lock sets from this roll
    coffeegames dairyman reroll 1 1 2 3           # what each ice-cream reroll does to the bust chance
    coffeegames dairyman decide 4 6 5 5 1 3 2 2   # the best lock and whether to roll on, exactly valued
    coffeegames dairyman turn --dice 8            # optimal turn value, stop/roll table, simple policies
    coffeegames dairyman turn --display 10 40 40  # ... when a stopped turn buys tiles from this display
    coffeegames dairyman turn --ice 2 --ability reroll_1s   # ... and the whole turn with ice and ice cream
    coffeegames vivajava odds --coffee-dice 5 --flavour 2 --beat bold red   # blends, rainbow, research
    coffeegames vivajava meter                    # the solo corporations' success odds by METER level
    coffeegames roaster draw "bean2:4 bean3:2 smoke:1 moisture:3" --draws 4   # odds of the next draw
    coffeegames roaster cup "bean2:3 bean3:3 bean4:2 hard:3 smoke:1 aroma:1" --card zambia --cup bean3:2   # if I stop now
    coffeegames gizmos draw red:13 blue:10 black:12 yellow:9 --draws 3   # what 3 random draws bring of each colour
    coffeegames gizmos pay red:13 blue:10 black:12 yellow:9 --colour blue --cost 3 --held 1   # can random draws pay it?
    coffeegames rush orders --next 2 --seen "coffee+milk, milk+steam" --held tea   # what the next orders need
    coffeegames analyse gizmos --seeds 200 --jobs 2   # fairness, luck, options and shape over 200 seeds
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import CoffeeGamesError
from . import analyse, dairyman, gizmos, roaster, rush, vivajava
from .common import Default, list_games

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``coffeegames`` parser: ``games``, then each game's commands (``cli/<game>.py``)."""
    parser = argparse.ArgumentParser(prog="coffeegames", description="Exact odds for coffee tabletop games.")
    parser.add_argument("--version", action="version", version=f"coffeegames {__version__}")
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    listing = games.add_parser("games", help="the games implemented, with their variants")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.set_defaults(run=list_games)
    for game in (dairyman, vivajava, roaster, gizmos, rush):
        game.add_commands(games)
    analyse.add_commands(games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    for name, value in vars(args).items():
        if isinstance(value, Default):
            setattr(args, name, value.read())
    try:
        args.run(args)
    except CoffeeGamesError as error:  # bad input: one line and exit 2; anything else is a bug and shows its traceback
        parser.exit(2, f"coffeegames: error: {error}\n")
    except BrokenPipeError:  # output piped into `head`, say
        sys.stderr.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
