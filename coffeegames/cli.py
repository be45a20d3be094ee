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
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from . import __version__, dairyman, gizmos, roaster, rush, vivajava
from .errors import BadArgument, CoffeeGamesError
from .exact import Bag
from .games import games as registry
from .text import fraction_text, labelled_text, mean_text, percent, text_table

__all__ = ["build_parser", "main"]


def _missing(value: object) -> bool:
    """None, or pandas' NA (only a table made by pandas holds it, and pandas is then loaded)."""
    pandas = sys.modules.get("pandas")
    return value is None or (pandas is not None and value is pandas.NA)


def _jsonable(value: object) -> object:
    if isinstance(value, Fraction):
        return {"fraction": str(value), "float": float(value)}
    if _missing(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return value


def _print_rows(rows: Sequence[Mapping[Any, object]], as_json: bool, extra: dict | None = None) -> None:
    """A table's rows as JSON (beside ``extra``) or as text, each exact value with its decimal."""
    if as_json:
        print(json.dumps({**(extra or {}), "rows": [{k: _jsonable(v) for k, v in row.items()} for row in rows]}, indent=2))
        return
    print(text_table([{column: _shown(column, value) for column, value in row.items()} for row in rows]))


def _shown(column: str, value: object) -> object:
    """A table cell as text: a chance (column ``p_...``, ``P(...)`` or ``probability``) or a mean with its decimal; ``-`` if missing."""
    if isinstance(value, Fraction):
        return fraction_text(value) if column.startswith(("p_", "P(")) or column == "probability" else mean_text(value)
    return "-" if _missing(value) else value


def _odds(args: argparse.Namespace) -> None:
    rows = dairyman.odds_rows(args.dice, args.frozen)
    dist = dairyman.most_dice_locked(args.dice, args.frozen)
    if args.json:
        extra = {
            "dice": args.dice,
            "frozen": args.frozen,
            "most_dice_locked": {str(k): _jsonable(p) for k, p in dist.items()},
        }
        _print_rows(rows, True, extra)
        return
    frozen = f" beside frozen {args.frozen}" if args.frozen else ""
    print(f"Dairyman: rolling 1..{args.dice} dice{frozen} (exact)\n")
    _print_rows(rows, False)
    print(f"\nMost dice that sets can lock from {args.dice} dice{frozen}:\n")
    _print_rows([{"dice_locked": k, "probability": p} for k, p in dist.items()], False)


def _lock(args: argparse.Namespace) -> None:
    rows = dairyman.lock_rows(args.roll)
    if not rows and not args.json:
        print(f"{sorted(args.roll)}: no two or three dice sum to 10 — this roll busts.")
        return
    _print_rows(rows, args.json, {"roll": sorted(args.roll)})


def _reroll(args: argparse.Namespace) -> None:
    _print_rows(dairyman.reroll_rows(args.roll), args.json, {"roll": sorted(args.roll)})


def _solve(args: argparse.Namespace, dice: int) -> tuple[dairyman.TurnSolution, str]:
    """The optimal turn under the scoring options (points per set, a display or a payoff table), and the display's tiles in words."""
    if args.display:
        pay = dairyman.display_payoff([int(t) if t.isdigit() and len(t) < 5 else t for t in args.display])
        bought = "; ".join(f"{s} set{'s' * (s != 1)}: {' + '.join(pay.bought(s)) or 'nothing'}" for s in range(1, dairyman.MAX_SETS + 1))
        turn = dairyman.optimal_turn(dice, bust_cost=args.bust_cost, payoff=pay)
        return turn, f"Against the display {' '.join(args.display)} the sets buy — {bought}.\n"
    if args.payoff:
        return dairyman.optimal_turn(dice, bust_cost=args.bust_cost, payoff=args.payoff), ""
    return dairyman.optimal_turn(dice, args.points_per_set, args.bust_cost), ""


def _scoring_json(turn: dairyman.TurnSolution) -> dict[str, object]:
    return {"payoff": [_jsonable(p) for p in turn.payoff], "bust_cost": _jsonable(turn.bust_cost), "assumes": turn.assumptions}


def _decide(args: argparse.Namespace) -> None:
    turn, display = _solve(args, dairyman.MAX_DICE)
    rows = turn.choices(args.roll, args.sets_locked).to_dict("records")
    if args.json:
        _print_rows(rows, True, {"roll": sorted(args.roll), "sets_locked": args.sets_locked, **_scoring_json(turn)})
        return
    print(f"Dairyman: every lock from {sorted(args.roll)} with {args.sets_locked} set{'s' * (args.sets_locked != 1)} "
          f"already locked, valued exactly under optimal play.\nAssumes: {turn.assumptions}.\n{display}")
    if not rows:
        print("No two or three dice sum to 10 — this roll busts.")
        return
    _print_rows([{**row, "best": "← best" if row["best"] else ""} for row in rows], False)


def _whole(args: argparse.Namespace, turn: dairyman.TurnSolution) -> tuple[Fraction, int, str] | None:
    """The whole turn with ice and ice cream (``--ice`` / ``--ability``): (value, positions solved, words); None if not asked."""
    if args.ice is None and not args.ability:
        return None
    ice, abilities = args.ice or 0, args.ability or []
    model = dairyman.WholeTurn(bust_cost=turn.bust_cost, payoff=turn.payoff, max_states=args.max_states)
    value = model.value(args.dice, ice, abilities)
    held = f"{ice} ice token{'s' * (ice != 1)}" + (f" and {', '.join(abilities)}" if abilities else "")
    words = (f"With {held}, freezing and ice cream played optimally too (the whole-turn model, a token kept worth "
             f"{model.ice_value}): {value} ≈ {float(value):.2f}, {model.states:,} positions solved.\n")
    return value, model.states, words


def _turn(args: argparse.Namespace) -> None:
    turn, display = _solve(args, args.dice)
    whole = _whole(args, turn)
    compared = dairyman.compare_policies(args.dice, bust_cost=turn.bust_cost, payoff=turn.payoff)
    policies = compared[["policy", "value"]].to_dict("records")
    if args.json:
        table = turn.policy_table()
        extra = {
            "dice": args.dice,
            "value": _jsonable(turn.value),
            **_scoring_json(turn),
            **({"whole_turn": {"value": _jsonable(whole[0]), "positions": whole[1]}} if whole else {}),
            "policy_table": {str(d): {str(s): v for s, v in row.items() if v} for d, row in table.iterrows()},
        }
        _print_rows(policies, True, extra)
        return
    print(f"Optimal {args.dice}-dice turn: expected score {turn.value} ≈ {float(turn.value):.2f}\n"
          f"Assumes: {turn.assumptions}.\n{display}{whole[2] if whole else ''}")
    print("Roll or stop after a lock, by dice left (rows) and sets locked (columns):\n")
    print(turn.policy_table().to_string())
    print("\nOptimal play beside simple policies (exact expected score):\n")
    print(text_table([{"policy": row["policy"], "value": f"≈ {float(row['value']):.2f}", "exactly": str(row["value"])}
                      for row in policies]))


class _OldFlag(argparse.Action):
    """A flag's old name: it still works, with a note on stderr naming the new one (hidden from ``--help``)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        new = "--" + self.dest.replace("_", "-")
        print(f"coffeegames: note: {option_string} is the old name of {new}; say {new}", file=sys.stderr)
        setattr(namespace, self.dest, values)


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
        extra = {"coffee_dice": coffee, "flavour": args.flavour, "p_rainbow": _jsonable(rainbow),
                 "research": [{k: _jsonable(v) for k, v in r.items()} for r in research]}
        if beat:
            extra["beat"] = {"blend": str(beat), "p_beats": _jsonable(p_beat)}
        _print_rows(table, True, extra)
        return
    print(f"VivaJava: best blend of {coffee} coffee dice + {flavour} flavour dice (exact)\n")
    _print_rows(table, False)
    print(f"\nP(rainbow) = {fraction_text(rainbow)}")
    if p_beat is not None:  # a blend to beat was given
        print(f"P(beat the coaster's {beat}) = {fraction_text(p_beat)}")
    print("\nResearch: RP per colour (jokers count; black = flavour dice won)\n")
    _print_rows(research, False)


def _vivajava_meter(args: argparse.Namespace) -> None:
    _print_rows(vivajava.meter_rows(), args.json)


def _roaster_draw(args: argparse.Namespace) -> None:
    bag = Bag(roaster.parse_bag(" ".join(args.bag)))
    odds = roaster.draw_odds(bag, args.draws, steps=2 if args.crack else 1)
    if args.json:
        _print_rows([{"question": q, "value": v} for q, v in odds.items()], True,
                    {"bag": dict(bag), "draws": args.draws, "crack": args.crack})
        return
    where = "a crack space" if args.crack else "an ordinary space"
    drawn = odds["tokens drawn"]  # all of the bag, if fewer remain
    print(f"Coffee Roaster: drawing {drawn} of {bag.size} tokens on {where} (exact)\n")
    print(text_table([{"question": q, "value": labelled_text(q, v)} for q, v in odds.items()]))


def _dispenser(words: Sequence[str]) -> dict[str, int]:
    return gizmos.parse_marbles(" ".join(words), "dispenser")


def _gizmos_draw(args: argparse.Namespace) -> None:
    dispenser = _dispenser(args.dispenser)
    rows = gizmos.colour_rows(dispenser, args.draws)
    if args.json:
        _print_rows(rows, True, {"dispenser": dispenser, "draws": args.draws})
        return
    size = sum(dispenser.values())
    print(f"Gizmos: {min(args.draws, size)} random draw(s) from a dispenser of {size} marbles (exact)\n")
    _print_rows(rows, False)


def _gizmos_pay(args: argparse.Namespace) -> None:
    dispenser = _dispenser(args.dispenser)
    rows = gizmos.pay_rows(dispenser, args.colour, args.cost, args.held, args.max_draws)
    if args.json:
        _print_rows(rows, True, {"dispenser": dispenser, "colour": args.colour, "cost": args.cost, "held": args.held})
        return
    print(f"Gizmos: paying {args.cost} {args.colour} energy, {args.held} held, with random draws from a dispenser of "
          f"{sum(dispenser.values())} marbles (exact)\n")
    _print_rows(rows, False)


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
            extra["held"] = {"ingredients": args.held, "p_needs": _jsonable(held)}
        _print_rows(rows, True, extra)
        return
    which = f"the deck in {args.orders}" if args.orders else "the stand-in deck (yours: --orders FILE)"
    print(f"Coffee Rush: the next {k} of {deck.size} unseen orders, {which}: {makeup.total} orders, "
          f"{makeup.total - deck.size} seen (exact; specialty ingredients marked True)\n")
    _print_rows(rows, False)
    if held is not None:
        print(f"\nP(at least one of the next {k} needs {' or '.join(args.held)}, which you hold) = {fraction_text(held)}")


def _card_name(text: str) -> str:
    """The coffee card a player means: its name in any case, or a part of it that names one card (``zambia``)."""
    names = [c.name for c in roaster.load_cards()]
    wanted = " ".join(text.split()).lower()
    found = [n for n in names if n.lower() == wanted] or [n for n in names if wanted and wanted in n.lower()]
    if len(found) == 1:
        return found[0]
    if found:
        raise BadArgument("--card", f"could be {', '.join(found)}: type more of the name", text)
    raise BadArgument("--card", f"no coffee card has this name; the cards are {', '.join(names)}", text)


def _cup_effects(text: str) -> tuple[str, ...]:
    """Cup effects typed as ``choice,tray`` (``extra-bean`` or ``extra_bean``)."""
    effects = []
    for word in text.replace(",", " ").split():
        effect = word.lower().replace("-", "_")
        if effect not in roaster.tokens.CUP_EFFECTS:
            raise BadArgument("--active", f"is not a cup effect; cup effects are {', '.join(roaster.tokens.CUP_EFFECTS)}", word)
        effects.append(effect)
    return tuple(dict.fromkeys(effects))


def _token_list(text: str | None, option: str) -> list[str]:
    """Tokens typed as ``kind:count`` pairs (none when not given) as a list, for ``--cup`` and ``--tray``."""
    if text is None or not text.replace(",", " ").strip():
        return []
    for word in text.replace(",", " ").split():
        if word.partition(":")[0].lower().replace("-", "_") in roaster.tokens.CUP_EFFECTS:
            raise BadArgument(option, "is a cup effect: name it in --active (e.g. --active sweetness)", word)
    try:
        counts = roaster.tokens.parse_bag(text)
    except BadArgument as error:
        raise BadArgument(option, error.why) from None
    return [t for t, n in counts.items() for _ in range(n)]


def _next_draw(rules: roaster.Rules, active: Sequence[str], cup: Sequence[str], tray: Sequence[str],
               decisions: dict[str, str], exact: bool) -> str:
    """The last line of ``roaster cup``: what to do with the token drawn next."""
    tokens = roaster.tokens
    filled = len(cup)
    if tokens.SWEETNESS in active and filled >= rules.board.sweetness_space:
        filled += 1  # Sweetness fills its own space
    if filled >= roaster.CUP_SPACES:
        if tokens.EXCHANGE in active:
            return "the cup is full: Exchange may still swap 2 of its tokens (the expected score plays it at its best)"
        return "the cup is full: nothing more is drawn"
    if not decisions:
        return "nothing left in the bag to draw (moisture is redrawn)"
    if tokens.CHOICE in active and filled in rules.board.choice_spaces:
        return "the next space is a Choice space: draw 2, keep the better 1 in the cup (nothing goes on the tray)"
    if len(tray) >= rules.tray_size(active):
        return "the tray is full: every token drawn goes into the cup"
    trayed = [k for k, d in decisions.items() if d == "tray"]
    cupped = [k for k, d in decisions.items() if d == "cup"]
    how = "" if exact else " (the fallback's play)"
    rest = f"; into the cup: {', '.join(cupped)}" if cupped else ""
    return f"tray these when drawn now{how}: {', '.join(trayed) or 'none'}{rest}"


def _roaster_cup(args: argparse.Namespace) -> None:
    tokens = roaster.tokens
    counts = tokens.parse_bag(" ".join(args.bag))
    bag = [t for t, n in counts.items() for _ in range(n)]
    card = _card_name(args.card)
    active, cup, tray = _cup_effects(args.active or ""), _token_list(args.cup, "--cup"), _token_list(args.tray, "--tray")
    rules = roaster.Rules(card=card, side=args.side)
    test = roaster.stop_now(bag, rules, active=active, cup=cup, tray=tray, max_states=args.max_states)
    decisions: dict[str, str] = {}
    for kind in sorted(counts, key=tokens.key):
        if kind == tokens.MOISTURE:
            continue  # moisture drawn in the cup test leaves and is redrawn: nothing to decide
        try:
            decisions[kind] = test.decision(kind, cup=cup, tray=tray)
        except ValueError:  # the cup is full: nothing more is drawn
            decisions = {}
            break
    if args.json:
        print(json.dumps({
            "card": card, "side": args.side, "bag": counts, "active": list(active), "cup": cup, "tray": tray,
            "value": _jsonable(test.value), "exact": test.exact, "stderr": test.stderr, "message": test.message,
            "distribution": {str(score): _jsonable(p) for score, p in test.dist.items()},
            "decisions": decisions,
        }, indent=2))
        return
    effects = ", ".join(tokens.CUP_EFFECT_NAMES[e] for e in active) or "none"
    print(f"Coffee Roaster, {card}: the cup test if you stop now\n")
    print(f"bag {tokens.show(bag)}; cup {tokens.show(cup) if cup else 'empty'}; "
          f"tray {tokens.show(tray) if tray else 'empty'}; cup effects: {effects}\n")
    if test.exact:
        print(f"expected score: {mean_text(test.value)}")
    else:
        print(f"expected score: ≈ {float(test.value):.2f} ± {test.stderr:.2f} (standard error)")
    print(f"how: {test.message}\n")
    scores = list(test.dist)
    print(text_table([{"score": s, "probability": percent(test.dist[s]), "at least": percent(test.dist.at_least(s))}
                      for s in scores]))
    print(f"\n{_next_draw(rules, active, cup, tray, decisions, test.exact)}")


def _at_least_one(what: str) -> Callable[[str], int]:
    """An option's type: a whole number 1 or more of ``what`` (``1,000`` and ``1_000`` read too)."""
    def read(text: str) -> int:
        try:
            value = int(text.replace(",", "").replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {what}: use a whole number 1 or more") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{value} {what}: use a whole number 1 or more")
        return value
    return read


_positions = _at_least_one("positions")


def _die(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a die value: use whole numbers 1-6") from None
    if not 1 <= value <= 6:
        raise argparse.ArgumentTypeError(f"{value} is not a die value: use whole numbers 1-6")
    return value


def _dice_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of dice: use a whole number 1-12") from None
    if not 1 <= value <= dairyman.MAX_DICE:
        raise argparse.ArgumentTypeError(f"{value} dice: Dairyman rolls 1-{dairyman.MAX_DICE} dice")
    return value


def _games(args: argparse.Namespace) -> None:
    """The games the library implements (from the registry), with their variants."""
    rows = [{"game": info.name, "title": info.title, "what it teaches": info.summary,
             "variants": "; ".join(", ".join(f"{k}={v}" for k, v in variant.items()) or "default" for variant in info.variants)}
            for info in registry().values()]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(text_table(rows))


class _Default:
    """An option's default read from the library when it is needed — for ``--help`` (``%(default)s``, with thousands
    separators) or when the command runs without the option (:func:`main`) — so that building the parser imports no
    solver module: the quick answers stay quick."""

    def __init__(self, read: Callable[[], int]) -> None:
        self.read = read

    def __str__(self) -> str:
        return f"{self.read():,}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coffeegames", description="Exact odds for coffee tabletop games.")
    parser.add_argument("--version", action="version", version=f"coffeegames {__version__}")
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    listing = games.add_parser("games", help="the games implemented, with their variants")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.set_defaults(run=_games)
    dm = games.add_parser("dairyman", help="Dairyman: sets of 2 or 3 dice summing to ten")
    cmds = dm.add_subparsers(dest="command", required=True, metavar="COMMAND")

    odds = cmds.add_parser("odds", help="bust chance and most dice locked for 1..N dice")
    odds.add_argument("--dice", type=_dice_count, default=8, help="largest number of dice rolled (default 8)")
    odds.add_argument("--frozen", type=_die, nargs="*", default=[], metavar="V", help="values of frozen dice")
    odds.add_argument("--json", action="store_true", help="print JSON instead of a table")
    odds.set_defaults(run=_odds)

    for name, run, text in (
        ("lock", _lock, "every way to lock sets from a roll, with the bust chance of the next roll"),
        ("reroll", _reroll, "the bust chance after each ice-cream reroll of a roll"),
    ):
        cmd = cmds.add_parser(name, help=text)
        cmd.add_argument("roll", type=_die, nargs="+", metavar="DIE", help="the dice you rolled, e.g. 4 6 5 5 1")
        cmd.add_argument("--json", action="store_true", help="print JSON instead of a table")
        cmd.set_defaults(run=run)
    decide = cmds.add_parser("decide", help="every lock from your roll with its exact value under optimal play")
    decide.add_argument("roll", type=_die, nargs="+", metavar="DIE", help="the dice you rolled, e.g. 4 6 5 5 1")
    decide.add_argument("--sets-locked", type=int, default=0, help="sets already locked this turn (default 0)")
    turn = cmds.add_parser("turn", help="exact optimal play of a whole turn")
    turn.add_argument("--dice", type=_dice_count, default=8, help="dice rolled at the start (default 8)")
    turn.add_argument("--ice", type=int, metavar="N", help="also solve the whole turn holding N ice tokens (freezing, the token before the 3rd roll)")
    turn.add_argument("--ability", action="append", choices=tuple(dairyman.ABILITIES), metavar="NAME",
                      help=f"also solve the whole turn with this ice-cream ability, once ({', '.join(dairyman.ABILITIES)}); repeatable")
    turn.add_argument("--max-states", type=_positions, default=_Default(lambda: dairyman.MAX_STATES), metavar="N",
                      help="positions the whole-turn model may solve (default %(default)s)")
    for cmd, run in ((decide, _decide), (turn, _turn)):
        scoring = cmd.add_mutually_exclusive_group()
        scoring.add_argument("--points-per-set", "--points", type=int, default=_Default(lambda: dairyman.POINTS_PER_SET),
                             metavar="N", help="points a set scores (default %(default)s, its barn value)")
        scoring.add_argument("--display", nargs="+", metavar="TILE",
                             help="score a stopped turn by the tiles its sets buy from this display: "
                             "values (10 40 40) or tile codes (10:cheese1 40:cheese6 40:ice3:chosen)")
        scoring.add_argument("--payoff", type=int, nargs="+", metavar="P",
                             help="points a stopped turn scores for 0, 1, 2, ... sets (the last repeats)")
        cmd.add_argument("--bust-cost", type=int, default=_Default(lambda: dairyman.BUST_COST),
                         help="what a bust costs (default %(default)s, a backorder token)")
        cmd.add_argument("--json", action="store_true", help="print JSON instead of a table")
        cmd.set_defaults(run=run)
    vj = games.add_parser("vivajava", help="VivaJava: The Dice Game: coloured dice and blends")
    vcmds = vj.add_subparsers(dest="command", required=True, metavar="COMMAND")
    vodds = vcmds.add_parser("odds", help="best-blend distribution, rainbow and research odds")
    coffee = vodds.add_mutually_exclusive_group()
    coffee.add_argument("--coffee-dice", type=int, default=5, metavar="N", help="coffee dice rolled, 0-10 (default 5)")
    coffee.add_argument("--white", type=int, dest="coffee_dice", action=_OldFlag, help=argparse.SUPPRESS)  # its old name
    vodds.add_argument("--flavour", type=int, default=0, help="black flavour dice, 0-5 (default 0)")
    vodds.add_argument("--beat", nargs="+", metavar="WORD", help="a blend on the coaster, e.g. regular red")
    vodds.add_argument("--json", action="store_true", help="print JSON instead of a table")
    vodds.set_defaults(run=_vivajava_odds)
    meter = vcmds.add_parser("meter", help="each solo corporation's success chance by METER level")
    meter.add_argument("--json", action="store_true", help="print JSON instead of a table")
    meter.set_defaults(run=_vivajava_meter)
    ro = games.add_parser("roaster", help="Coffee Roaster: drawing tokens from a bag")
    rcmds = ro.add_subparsers(dest="command", required=True, metavar="COMMAND")
    draw = rcmds.add_parser("draw", help="the exact odds of the next draw from a bag")
    draw.add_argument("bag", nargs="+", help="the bag as kind:count pairs, e.g. bean2:4 smoke:1 moisture:3")
    draw.add_argument("--draws", type=int, default=4, help="tokens drawn (default 4; all if fewer remain)")
    draw.add_argument("--crack", action="store_true", help="a crack space: beans roast two levels")
    draw.add_argument("--json", action="store_true", help="print JSON instead of a table")
    draw.set_defaults(run=_roaster_draw)
    cup = rcmds.add_parser("cup", help="if you stop now: the cup test's expected score, its odds and what to tray")
    cup.add_argument("bag", nargs="+", help="the bag as kind:count pairs, e.g. bean2:4 hard:2 smoke:1 aroma:1")
    cup.add_argument("--card", required=True, help="the coffee card, e.g. 'Zambia Kasama AA' (or a part: zambia)")
    cup.add_argument("--active", metavar="EFFECTS", help="active cup effects, e.g. choice,tray "
                     f"(of {', '.join(roaster.tokens.CUP_EFFECTS)})")
    cup.add_argument("--cup", metavar="TOKENS", help="tokens already in the cup, e.g. bean3:2")
    cup.add_argument("--tray", metavar="TOKENS", help="tokens already on the tray, e.g. smoke:1")
    cup.add_argument("--side", choices=roaster.SIDES, default="full", help="board side (default full; sets the tray bonus)")
    cup.add_argument("--max-states", type=_positions, default=_Default(lambda: roaster.MAX_STATES), metavar="N",
                     help="positions solved exactly before estimating by simulation (default %(default)s; fewer is faster)")
    cup.add_argument("--json", action="store_true", help="print JSON instead of a table")
    cup.set_defaults(run=_roaster_cup)
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
    ru = games.add_parser("rush", help="Coffee Rush: the orders drawn from the deck")
    ucmds = ru.add_subparsers(dest="command", required=True, metavar="COMMAND")
    orders = ucmds.add_parser("orders", help="what the next orders from the deck need, ingredient by ingredient")
    orders.add_argument("--next", type=_at_least_one("orders"), default=1, metavar="K", help="orders drawn next (default 1)")
    orders.add_argument("--seen", default="", metavar="ORDERS",
                        help="orders already seen on the table, e.g. 'coffee+milk, milk+steam' (they are not in the deck)")
    orders.add_argument("--held", nargs="+", default=[], metavar="INGREDIENT", help="ingredients you hold, e.g. tea milk")
    orders.add_argument("--orders", metavar="FILE", help="your order-deck file (default: the shipped stand-in deck)")
    orders.add_argument("--board", metavar="FILE", help="your board file, for its specialty ingredients (default: the stand-in)")
    orders.add_argument("--json", action="store_true", help="print JSON instead of a table")
    orders.set_defaults(run=_rush_orders)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    for name, value in vars(args).items():
        if isinstance(value, _Default):
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
