"""``coffeegames dairyman ...``: bust chances, locks, rerolls, and a whole turn played exactly.

Example:
    >>> from coffeegames.cli import main
    >>> main(["dairyman", "lock", "4", "6", "5", "5"])
       sets  n_sets  dice_locked  dice_left   p_bust_next
    4+6 5+5       2            4          0      1 (100%)
        4+6       1            2          2 11/12 (91.7%)
        5+5       1            2          2 11/12 (91.7%)
    0
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from .. import dairyman
from ..text import text_table
from .common import Default, jsonable, positions, print_rows, print_rule_of_thumb

__all__: list[str] = []  # the commands are reached through coffeegames.cli.main


def _odds(args: argparse.Namespace) -> None:
    rows = dairyman.odds_rows(args.dice, args.frozen)
    dist = dairyman.most_dice_locked(args.dice, args.frozen)
    if args.json:
        extra = {
            "dice": args.dice,
            "frozen": args.frozen,
            "most_dice_locked": {str(k): jsonable(p) for k, p in dist.items()},
        }
        print_rows(rows, True, extra)
        return
    frozen = f" beside frozen {args.frozen}" if args.frozen else ""
    print(f"Dairyman: rolling 1..{args.dice} dice{frozen} (exact)\n")
    print_rows(rows, False)
    print(f"\nMost dice that sets can lock from {args.dice} dice{frozen}:\n")
    print_rows([{"dice_locked": k, "probability": p} for k, p in dist.items()], False)


def _lock(args: argparse.Namespace) -> None:
    rows = dairyman.lock_rows(args.roll)
    if not rows and not args.json:
        print(f"{sorted(args.roll)}: no two or three dice sum to 10 — this roll busts.")
        return
    print_rows(rows, args.json, {"roll": sorted(args.roll)})


def _reroll(args: argparse.Namespace) -> None:
    print_rows(dairyman.reroll_rows(args.roll), args.json, {"roll": sorted(args.roll)})


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
    return {"payoff": [jsonable(p) for p in turn.payoff], "bust_cost": jsonable(turn.bust_cost), "assumes": turn.assumptions}


def _decide(args: argparse.Namespace) -> None:
    turn, display = _solve(args, dairyman.MAX_DICE)
    rows = turn.choices(args.roll, args.sets_locked).to_dict("records")
    if args.json:
        print_rows(rows, True, {"roll": sorted(args.roll), "sets_locked": args.sets_locked, **_scoring_json(turn)})
        return
    print(f"Dairyman: every lock from {sorted(args.roll)} with {args.sets_locked} set{'s' * (args.sets_locked != 1)} "
          f"already locked, valued exactly under optimal play.\nAssumes: {turn.assumptions}.\n{display}")
    if not rows:
        print("No two or three dice sum to 10 — this roll busts.")
        return
    print_rows([{**row, "best": "← best" if row["best"] else ""} for row in rows], False)


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
            "value": jsonable(turn.value),
            **_scoring_json(turn),
            **({"whole_turn": {"value": jsonable(whole[0]), "positions": whole[1]}} if whole else {}),
            "policy_table": {str(d): {str(s): v for s, v in row.items() if v} for d, row in table.iterrows()},
        }
        print_rows(policies, True, extra)
        return
    print(f"Optimal {args.dice}-dice turn: expected score {turn.value} ≈ {float(turn.value):.2f}\n"
          f"Assumes: {turn.assumptions}.\n{display}{whole[2] if whole else ''}")
    print("Roll or stop after a lock, by dice left (rows) and sets locked (columns):\n")
    print(turn.policy_table().to_string())
    print("\nOptimal play beside simple policies (exact expected score):\n")
    print(text_table([{"policy": row["policy"], "value": f"≈ {float(row['value']):.2f}", "exactly": str(row["value"])}
                      for row in policies]))


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


def add_commands(games: Any) -> None:
    """The ``dairyman`` game and its commands, on the parser's ``games``."""
    cmds = games.add_parser("dairyman", help="Dairyman: sets of 2 or 3 dice summing to ten").add_subparsers(
        dest="command", required=True, metavar="COMMAND")
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
    _add_turn(cmds)
    _add_scoring(decide, _decide)
    _add_rule(cmds)


def _add_turn(cmds: Any) -> None:
    """``dairyman turn``: the optimal turn, and the whole turn with ice and ice cream."""
    turn = cmds.add_parser("turn", help="exact optimal play of a whole turn")
    turn.add_argument("--dice", type=_dice_count, default=8, help="dice rolled at the start (default 8)")
    turn.add_argument("--ice", type=int, metavar="N", help="also solve the whole turn holding N ice tokens (freezing, the token before the 3rd roll)")
    turn.add_argument("--ability", action="append", choices=tuple(dairyman.ABILITIES), metavar="NAME",
                      help=f"also solve the whole turn with this ice-cream ability, once ({', '.join(dairyman.ABILITIES)}); repeatable")
    turn.add_argument("--max-states", type=positions, default=Default(lambda: dairyman.MAX_STATES), metavar="N",
                      help="positions the whole-turn model may solve (default %(default)s)")
    _add_scoring(turn, _turn)


def _add_rule(cmds: Any) -> None:
    """``dairyman rule``: the optimal roll-or-stop policy and the simplest plain rule within 1% of it."""
    rule = cmds.add_parser("rule", help="the optimal roll-or-stop policy, and the simplest plain rule within 1%% of it")
    rule.add_argument("--dice", type=_dice_count, default=8, help="dice rolled at the start (default 8)")
    rule.add_argument("--locks", choices=("best", "most dice"), default="best",  # dairyman.LOCKS, without loading the solver
                      help="how the rule's play locks: the best lock for the rule's later choices (default) or the most dice")
    rule.add_argument("--top", type=int, default=10, metavar="N", help="rules listed, most valuable first (default 10)")
    _add_scoring(rule, _rule)


def _rule(args: argparse.Namespace) -> None:
    turn, display = _solve(args, args.dice)
    table = dairyman.rule_table(args.dice, bust_cost=turn.bust_cost, payoff=turn.payoff, locks=args.locks)
    best = dairyman.rule_of_thumb(args.dice, bust_cost=turn.bust_cost, payoff=turn.payoff, locks=args.locks)
    shown = table.sort_values("value_float", ascending=False, kind="stable").head(max(args.top, 1))
    rows = [{"rule": r["rule"], "size": int(r["size"]), "value": r["value"], "loss": r["loss"],
             "loss_percent": f"{100 * float(r['loss_share']):.3f}%"} for r in shown.to_dict("records")]
    found = {"rule": best["rule"], "size": int(best["size"]), "value": best["value"], "loss": best["loss"],
             "loss_share": best["loss_share"], "within_1_percent": bool(best["within"])}
    if args.json:
        policy = turn.policy_table()
        print_rows(rows, True, {"dice": args.dice, "locks": args.locks, "optimal": jsonable(turn.value), **_scoring_json(turn),
                                "rule_of_thumb": {k: jsonable(v) for k, v in found.items()},
                                "policy_table": {str(d): {str(s): v for s, v in row.items() if v} for d, row in policy.iterrows()}})
        return
    print(f"Dairyman, {args.dice} dice: optimal play scores {turn.value} ≈ {float(turn.value):.2f}\n"
          f"Assumes: {turn.assumptions}; locks {'the best lock for the rule' if args.locks == 'best' else 'the most dice'}.\n{display}")
    print("Roll or stop after a lock, by dice left (rows) and sets locked (columns):\n")
    print(turn.policy_table().to_string())
    print_rule_of_thumb(found, "optimal play", f"{found['loss']} ≈ {float(found['loss']):.4f} points a turn "
                        f"({100 * float(found['loss_share']):.3f}% of optimal)", rows)


def _add_scoring(cmd: argparse.ArgumentParser, run: Any) -> None:
    """The scoring options ``decide`` and ``turn`` share (points per set, a display or a payoff table), and ``--json``."""
    scoring = cmd.add_mutually_exclusive_group()
    scoring.add_argument("--points-per-set", "--points", type=int, default=Default(lambda: dairyman.POINTS_PER_SET),
                         metavar="N", help="points a set scores (default %(default)s, its barn value)")
    scoring.add_argument("--display", nargs="+", metavar="TILE",
                         help="score a stopped turn by the tiles its sets buy from this display: "
                         "values (10 40 40) or tile codes (10:cheese1 40:cheese6 40:ice3:chosen)")
    scoring.add_argument("--payoff", type=int, nargs="+", metavar="P",
                         help="points a stopped turn scores for 0, 1, 2, ... sets (the last repeats)")
    cmd.add_argument("--bust-cost", type=int, default=Default(lambda: dairyman.BUST_COST),
                     help="what a bust costs (default %(default)s, a backorder token)")
    cmd.add_argument("--json", action="store_true", help="print JSON instead of a table")
    cmd.set_defaults(run=run)
