"""``coffeegames roaster ...``: the odds of the next draw from a bag, and the cup test if you stop now.

Tokens are typed as everywhere in the game (:func:`~coffeegames.roaster.parse_bag`): ``kind:count`` pairs.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from .. import roaster
from ..errors import BadArgument
from ..exact import Bag
from ..text import labelled_text, mean_text, percent, text_table
from .common import Default, jsonable, positions, print_rows, print_rule_of_thumb

__all__: list[str] = []  # the commands are reached through coffeegames.cli.main


def _roaster_draw(args: argparse.Namespace) -> None:
    bag = Bag(roaster.parse_bag(" ".join(args.bag)))
    odds = roaster.draw_odds(bag, args.draws, steps=2 if args.crack else 1)
    if args.json:
        print_rows([{"question": q, "value": v} for q, v in odds.items()], True,
                    {"bag": dict(bag), "draws": args.draws, "crack": args.crack})
        return
    where = "a crack space" if args.crack else "an ordinary space"
    drawn = odds["tokens drawn"]  # all of the bag, if fewer remain
    print(f"Coffee Roaster: drawing {drawn} of {bag.size} tokens on {where} (exact)\n")
    print(text_table([{"question": q, "value": labelled_text(q, v)} for q, v in odds.items()]))


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
            "value": jsonable(test.value), "exact": test.exact, "stderr": test.stderr, "message": test.message,
            "distribution": {str(score): jsonable(p) for score, p in test.dist.items()},
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


def _roaster_rule(args: argparse.Namespace) -> None:
    card = _card_name(args.card)
    table = roaster.rule_table(card, args.games, args.seed)
    best = roaster.rule_of_thumb(card, args.games, args.seed)
    shown = table.sort_values("value_float", ascending=False, kind="stable").head(max(args.top, 1))
    rows = [{"rule": r["rule"], "size": int(r["size"]), "value": r["value"], "loss": r["loss"],
             "loss_stderr": round(float(r["loss_stderr"]), 3), "loss_percent": f"{100 * float(r['loss_share']):.2f}%"}
            for r in shown.to_dict("records")]
    bound, solver = table.attrs["optimal"], table.attrs["solver"]
    found = {"rule": best["rule"], "value": best["value"], "loss": best["loss"], "loss_share": best["loss_share"],
             "loss_stderr": float(best["loss_stderr"]), "within_1_percent": bool(best["within"])}
    if args.json:
        print_rows(rows, True, {"card": card, "games": args.games, "seed": args.seed, "hindsight_bound": jsonable(bound),
                                "solver_policy": jsonable(solver), "rule_of_thumb": {k: jsonable(v) for k, v in found.items()}})
        return
    print(f"Coffee Roaster, {card}: stop or continue over {args.games} seeded games (seed {args.seed}; estimates)\n"
          f"Hindsight bound (no policy does better): {float(bound):.3f} points; the solver's own policy "
          f"(stop where the cup test now beats one more round): {float(solver):.3f}\n")
    print(roaster.stop_or_draw_policy(card, args.games, args.seed).to_string())
    print_rule_of_thumb(found, "the bound", f"at most {float(found['loss']):.3f} ± {found['loss_stderr']:.3f} points "
                        f"({100 * float(found['loss_share']):.2f}%)", rows)


def add_commands(games: Any) -> None:
    """The ``roaster`` game and its commands, on the parser's ``games``."""
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
    cup.add_argument("--max-states", type=positions, default=Default(lambda: roaster.MAX_STATES), metavar="N",
                     help="positions solved exactly before estimating by simulation (default %(default)s; fewer is faster)")
    cup.add_argument("--json", action="store_true", help="print JSON instead of a table")
    cup.set_defaults(run=_roaster_cup)
    rule = rcmds.add_parser("rule", help="stop or continue: the solver's choices and the simplest plain rule near the best (seeded estimate)")
    rule.add_argument("--card", default="Zambia Kasama AA", help="the coffee card (default 'Zambia Kasama AA'; or a part: zambia)")
    rule.add_argument("--games", type=int, default=4, metavar="N",
                      help="seeded games, about two seconds each (default 4, a quick look; the docs' findings use 40)")
    rule.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    rule.add_argument("--top", type=int, default=10, metavar="N", help="rules listed, most valuable first (default 10)")
    rule.add_argument("--json", action="store_true", help="print JSON instead of a table")
    rule.set_defaults(run=_roaster_rule)
