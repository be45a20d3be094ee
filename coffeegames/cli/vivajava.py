"""``coffeegames vivajava ...``: best blends, the rainbow and research odds, the solo corporations' METER odds."""

from __future__ import annotations

import argparse
from typing import Any

from .. import vivajava
from ..errors import BadArgument
from ..text import fraction_text
from .common import OldFlag, jsonable, print_rows, print_rule_of_thumb

__all__: list[str] = []  # the commands are reached through coffeegames.cli.main


def _blend(words: list[str]) -> vivajava.Blend:
    sizes = {"decaf": 2, "regular": 3, "bold": 4, "extra": 5}
    if len(words) < 2 or words[0].lower() not in sizes:
        raise BadArgument("--beat", "a blend is a size and a colour, e.g. 'regular red' or 'extra bold green'", " ".join(words))
    colour = words[-1].lower()
    return vivajava.Blend.of(sizes[words[0].lower()], colour)


def _vivajava_odds(args: argparse.Namespace) -> None:
    coffee, flavour = args.coffee_dice, args.flavour
    table = vivajava.blend_rows(coffee, flavour)
    rainbow = vivajava.p_rainbow(coffee, flavour)
    beat = _blend(args.beat) if args.beat else None
    p_beat = vivajava.p_beats(beat, coffee, flavour) if beat else None
    research = vivajava.research_rows(coffee, flavour)
    if args.json:
        extra = {"coffee_dice": coffee, "flavour": args.flavour, "p_rainbow": jsonable(rainbow),
                 "research": [{k: jsonable(v) for k, v in r.items()} for r in research]}
        if beat:
            extra["beat"] = {"blend": str(beat), "p_beats": jsonable(p_beat)}
        print_rows(table, True, extra)
        return
    print(f"VivaJava: best blend of {coffee} coffee dice + {flavour} flavour dice (exact)\n")
    print_rows(table, False)
    print(f"\nP(rainbow) = {fraction_text(rainbow)}")
    if p_beat is not None:  # a blend to beat was given
        print(f"P(beat the coaster's {beat}) = {fraction_text(p_beat)}")
    print("\nResearch: RP per colour (jokers count; black = flavour dice won)\n")
    print_rows(research, False)


def _vivajava_meter(args: argparse.Namespace) -> None:
    rows = vivajava.meter_rows(omniblend_rerolls=args.omniblend_rerolls)
    if args.json:
        print_rows(rows, True, {"omniblend_rerolls": args.omniblend_rerolls, "columns": vivajava.METER_COLUMNS})
        return
    print("VivaJava: each solo corporation's chance of a Featured Blend (three alike or better) by METER level (exact)\n")
    print_rows(rows, False)
    print("\n" + "\n".join(f"{column}: {words}" for column, words in vivajava.METER_COLUMNS.items()))
    print(f"OmniBlend re-rolls: {args.omniblend_rerolls}; Sacchar rolls at most the {vivajava.MAX_FLAVOUR} flavour dice there are")


def _vivajava_rule(args: argparse.Namespace) -> None:
    table = vivajava.rule_table(args.players)
    best = vivajava.rule_of_thumb(args.players)
    shown = table.sort_values("value_float", ascending=False, kind="stable").head(max(args.top, 1))
    rows = [{"rule": r["rule"], "size": int(r["size"]), "value": r["value"], "loss": r["loss"],
             "loss_percent": f"{100 * float(r['loss_share']):.3f}%"} for r in shown.to_dict("records")]
    found = {"rule": best["rule"], "value": best["value"], "loss": best["loss"], "loss_share": best["loss_share"],
             "within_1_percent": bool(best["within"])}
    optimal = table.attrs["optimal"]
    if args.json:
        print_rows(rows, True, {"players": args.players, "optimal": jsonable(optimal),
                                "rule_of_thumb": {k: jsonable(v) for k, v in found.items()},
                                "policy_table": vivajava.keep_policy(args.players).to_dict("index")})
        return
    print(f"VivaJava, {args.players} players: keep or re-roll the degraded Featured Blend (the one-turn model's values;\n"
          f"the blend held is the best blend of 5 coffee dice). Optimal start-of-turn value: {optimal} ≈ {float(optimal):.4f} PP"
          f"\n")
    print(vivajava.keep_policy(args.players).to_string())
    print_rule_of_thumb(found, "optimal play", f"{found['loss']} ≈ {float(found['loss']):.5f} PP "
                        f"({100 * float(found['loss_share']):.3f}% of optimal)", rows)


def add_commands(games: Any) -> None:
    """The ``vivajava`` game and its commands, on the parser's ``games``."""
    vj = games.add_parser("vivajava", help="VivaJava: The Dice Game: coloured dice and blends")
    vcmds = vj.add_subparsers(dest="command", required=True, metavar="COMMAND")
    vodds = vcmds.add_parser("odds", help="best-blend distribution, rainbow and research odds")
    coffee = vodds.add_mutually_exclusive_group()
    coffee.add_argument("--coffee-dice", type=int, default=5, metavar="N", help="coffee dice rolled, 0-10 (default 5)")
    coffee.add_argument("--white", type=int, dest="coffee_dice", action=OldFlag, help=argparse.SUPPRESS)  # its old name
    vodds.add_argument("--flavour", type=int, default=0, help="black flavour dice, 0-5 (default 0)")
    vodds.add_argument("--beat", nargs="+", metavar="WORD", help="a blend on the coaster, e.g. regular red")
    vodds.add_argument("--json", action="store_true", help="print JSON instead of a table")
    vodds.set_defaults(run=_vivajava_odds)
    meter = vcmds.add_parser("meter", help="each solo corporation's success chance by METER level")
    meter.add_argument("--omniblend-rerolls", choices=vivajava.OMNIBLEND_REROLLS, default="seed",
                       help="how OmniBlend re-rolls (the game's option omniblend_rerolls; default seed, the rules)")
    meter.add_argument("--json", action="store_true", help="print JSON instead of a table")
    meter.set_defaults(run=_vivajava_meter)
    rule = vcmds.add_parser("rule", help="keep or re-roll the degraded Featured Blend: the optimal policy and the simplest plain rule within 1%%")
    rule.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="players (default 2)")
    rule.add_argument("--top", type=int, default=10, metavar="N", help="rules listed, most valuable first (default 10)")
    rule.add_argument("--json", action="store_true", help="print JSON instead of a table")
    rule.set_defaults(run=_vivajava_rule)
