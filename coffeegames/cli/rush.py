"""``coffeegames rush orders``: what the next orders from the deck need, ingredient by ingredient.

Orders are typed as everywhere in the game (:func:`~coffeegames.rush.parse_orders`): ingredients joined by ``+``,
orders separated by commas.
"""

from __future__ import annotations

import argparse
from typing import Any

from .. import rush
from ..errors import BadArgument
from ..text import fraction_text
from .common import at_least_one, jsonable, print_rows

__all__: list[str] = []  # the commands are reached through coffeegames.cli.main


def _rush_orders(args: argparse.Namespace) -> None:
    makeup = rush.load_orders(args.orders)
    deck = rush.unseen_deck(makeup.orders(), rush.parse_orders(args.seen))
    if deck.size == 0:
        raise BadArgument("--seen", "every order of the deck is seen: no order is left to draw", args.seen)
    names = rush.deck_ingredients(makeup.orders())
    for name in args.held:
        if name not in names:
            raise BadArgument("--held", f"each must be one of the deck's ingredients: {', '.join(names)}", name)
    k = min(args.next, deck.size)
    rows = rush.deck_rows(deck, k, rush.load_board(args.board).specialty)
    held = rush.p_needs(deck, args.held, k) if args.held else None
    if args.json:
        extra: dict[str, object] = {"next": k, "unseen": deck.size, "deck": makeup.total}
        if held is not None:
            extra["held"] = {"ingredients": args.held, "p_needs": jsonable(held)}
        print_rows(rows, True, extra)
        return
    which = f"the deck in {args.orders}" if args.orders else "the stand-in deck (yours: --orders FILE)"
    print(f"Coffee Rush: the next {k} of {deck.size} unseen orders, {which}: {makeup.total} orders, "
          f"{makeup.total - deck.size} seen (exact; specialty ingredients marked True)\n")
    print_rows(rows, False)
    if held is not None:
        print(f"\nP(at least one of the next {k} needs {' or '.join(args.held)}, which you hold) = {fraction_text(held)}")


def add_commands(games: Any) -> None:
    """The ``rush`` game and its command, on the parser's ``games``."""
    ru = games.add_parser("rush", help="Coffee Rush: the orders drawn from the deck")
    ucmds = ru.add_subparsers(dest="command", required=True, metavar="COMMAND")
    orders = ucmds.add_parser("orders", help="what the next orders from the deck need, ingredient by ingredient")
    orders.add_argument("--next", type=at_least_one("orders"), default=1, metavar="K", help="orders drawn next (default 1)")
    orders.add_argument("--seen", default="", metavar="ORDERS",
                        help="orders already seen on the table, e.g. 'coffee+milk, milk+steam' (they are not in the deck)")
    orders.add_argument("--held", nargs="+", default=[], metavar="INGREDIENT", help="ingredients you hold, e.g. tea milk")
    orders.add_argument("--orders", metavar="FILE", help="your order-deck file (default: the shipped stand-in deck)")
    orders.add_argument("--board", metavar="FILE", help="your board file, for its specialty ingredients (default: the stand-in)")
    orders.add_argument("--json", action="store_true", help="print JSON instead of a table")
    orders.set_defaults(run=_rush_orders)
