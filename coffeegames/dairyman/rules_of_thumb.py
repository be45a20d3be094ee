"""Dairyman's roll or stop as a picture, and the plain rule that plays it (almost) as well as optimal play.

The decision after each lock of the plain turn (:mod:`.turn`): stop and score the sets locked, or roll the
dice left. A position is ``(dice left, sets locked)``; the exact optimal policy is :func:`~.turn.optimal_turn`'s
(``should_roll``: the largest expected points, ties stop), for the scoring given (10 points a set, or what the
sets buy from a display: ``display=[10, 40, 40]``). A rule of thumb replaces only the roll-or-stop choice; each
lock is the best one for the rule's own later choices (``locks="best"``: the lock after which the rule's play is
worth most, by the same backward induction as :mod:`.turn`), or the lock of the most dice (``locks="most dice"``,
:func:`~.turn.lock_most_dice`, valued by :func:`~.turn.evaluate_turn`). The optimal policy, locks and all, is worth
at least as much as any rule's play (it maximises over every choice the rule's play makes).

The family (:func:`stop_rules`): always roll on (size 0); stop with N sets or more; stop with fewer than M dice
left (size 1); both together, joined by "and" or "or" (size 2). A rule's value is its exact expected score from
the first roll of the turn; :func:`rule_table` sets every rule beside the optimal value, and :func:`rule_of_thumb`
picks the simplest within 1% (:data:`~coffeegames.engine.rules_of_thumb.TOLERANCE`).

Example:
    >>> best = rule_of_thumb(8)
    >>> best["rule"], best["loss"]
    ('stop with 2 sets or more', Fraction(0, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..engine.rules_of_thumb import TOLERANCE, Rule, best_rule, policy_figure, rule_values
from ..errors import BadArgument, BadType
from ..validate import check_count, check_instance
from .payoff import display_payoff
from .rules import TILE_VALUES
from .sets import MAX_DICE
from .turn import BUST_COST, PayoffArg, TurnSolution, evaluate_turn, lock_most_dice, optimal_turn, roll_classes

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = ["LOCKS", "display_rules", "roll_or_stop_policy", "rule_of_thumb", "rule_table", "rule_turn_value", "roll_or_stop_picture",
           "stop_rules"]

LOCKS = ("best", "most dice")
"""How a rule's play locks: the best lock for the rule's later choices, or the most dice (then the most sets)."""


def _turn(dice: int, display: Sequence[Any] | None, points_per_set: Fraction | int | None, bust_cost: Fraction | int,
          payoff: PayoffArg | None) -> TurnSolution:
    """The optimal turn under the scoring given (a display's tiles, a payoff table or points a set)."""
    if display is not None:
        if payoff is not None:
            raise BadArgument("display", "give a display or a payoff table, not both", display)
        if isinstance(display, (str, bytes)) or not isinstance(display, Sequence):
            raise BadType("display", "must be a list of tile values or codes, e.g. [10, 40, 40]", display)
        payoff = display_payoff(list(display))
    return optimal_turn(dice, points_per_set, bust_cost, payoff=payoff)


def _stop_at(n: int) -> Rule:
    return Rule(f"stop with {n} set{'s' * (n != 1)} or more", 1, lambda p: "stop" if p[1] >= n else "roll")


def _stop_below(m: int) -> Rule:
    return Rule(f"stop with fewer than {m} dice left", 1, lambda p: "stop" if p[0] < m else "roll")


def _both(n: int, m: int, joined: str) -> Rule:
    sets = f"{n} set{'s' * (n != 1)} or more"
    if joined == "and":
        return Rule(f"stop with {sets} and fewer than {m} dice left", 2, lambda p: "stop" if p[1] >= n and p[0] < m else "roll")
    return Rule(f"stop with {sets} or with fewer than {m} dice left", 2, lambda p: "stop" if p[1] >= n or p[0] < m else "roll")


@lru_cache(maxsize=MAX_DICE + 1)
def _rules(dice: int) -> tuple[Rule, ...]:
    sets, left = range(1, dice // 2 + 1), range(2, dice)
    found = [Rule("always roll on", 0, lambda p: "roll")]
    found += [_stop_at(n) for n in sets] + [_stop_below(m) for m in left]
    found += [_both(n, m, j) for n in sets for m in left for j in ("and", "or")]
    return tuple(found)


def stop_rules(dice: int = 8) -> list[Rule]:
    """The family of plain roll-or-stop rules for a turn of ``dice`` dice; each decides a position ``(dice left, sets locked)``.

    >>> [r.name for r in stop_rules(4)][:3]
    ['always roll on', 'stop with 1 set or more', 'stop with 2 sets or more']
    """
    return list(_rules(check_count(dice, "dice", MAX_DICE)))


def rule_turn_value(rule: Rule, dice: int = 8, *, display: Sequence[Any] | None = None, points_per_set: Fraction | int | None = None,
                    bust_cost: Fraction | int = BUST_COST, payoff: PayoffArg | None = None, locks: str = "best") -> Fraction:
    """The exact expected score of a turn of ``dice`` dice whose roll-or-stop choices ``rule`` makes (scoring as in
    :func:`~.turn.optimal_turn`; ``display``: the tiles the sets buy). The turn always stops with no dice left.

    >>> rule_turn_value(stop_rules(4)[1], 4, points_per_set=1, bust_cost=0)   # stop after the first lock
    Fraction(145, 216)
    """
    check_instance(rule, Rule, "rule", "a Rule (from stop_rules)")
    if locks not in LOCKS:
        raise BadArgument("locks", f"must be one of {', '.join(LOCKS)}", locks)
    turn = _turn(dice, display, points_per_set, bust_cost, payoff)

    def stops(d: int, s: int) -> bool:
        return rule.decide((d, s)) == "stop"

    if locks == "most dice":
        return evaluate_turn(turn.dice, lock_most_dice, stops, bust_cost=turn.bust_cost, payoff=turn.payoff)

    @lru_cache(maxsize=None)
    def after_lock(d: int, s: int) -> Fraction:
        return turn.payoff[s] if d == 0 or stops(d, s) else rolled(d, s)

    @lru_cache(maxsize=None)
    def rolled(d: int, s: int) -> Fraction:
        total = Fraction(0)
        for choices, w in roll_classes(d):
            if not choices:
                total -= w * turn.bust_cost
                continue
            total += w * max(after_lock(d - u, s + t) for t, u in choices)  # the best lock for the rule's play
        return total / 6**d

    return rolled(turn.dice, 0)


def roll_or_stop_policy(dice: int = 8, *, display: Sequence[Any] | None = None, points_per_set: Fraction | int | None = None,
                        bust_cost: Fraction | int = BUST_COST, payoff: PayoffArg | None = None) -> pd.DataFrame:
    """The exact optimal choice, "roll" or "stop", at each (dice left, sets locked) a turn reaches (``""`` elsewhere).

    >>> roll_or_stop_policy(8).loc[6].tolist()
    ['roll', '', '']
    """
    return _turn(dice, display, points_per_set, bust_cost, payoff).policy_table()


def rule_table(dice: int = 8, *, display: Sequence[Any] | None = None, points_per_set: Fraction | int | None = None,
               bust_cost: Fraction | int = BUST_COST, payoff: PayoffArg | None = None, locks: str = "best",
               tolerance: Fraction | int = TOLERANCE) -> pd.DataFrame:
    """Every rule of :func:`stop_rules` with its exact value, its loss against optimal play and whether it is within ``tolerance``.

    >>> table = rule_table(6)
    >>> bool((table["loss"] >= 0).all()), table.attrs["optimal"] == optimal_turn(6).value
    (True, True)
    """
    turn = _turn(dice, display, points_per_set, bust_cost, payoff)
    scoring = {"bust_cost": turn.bust_cost, "payoff": turn.payoff, "locks": locks}
    values = {rule: rule_turn_value(rule, turn.dice, **scoring) for rule in _rules(turn.dice)}  # type: ignore[arg-type]
    return rule_values(turn.value, values, tolerance)


def rule_of_thumb(dice: int = 8, *, display: Sequence[Any] | None = None, points_per_set: Fraction | int | None = None,
                  bust_cost: Fraction | int = BUST_COST, payoff: PayoffArg | None = None, locks: str = "best",
                  tolerance: Fraction | int = TOLERANCE) -> pd.Series:
    """The simplest rule within ``tolerance`` of optimal play (else the best found): a row of :func:`rule_table`.

    >>> rule_of_thumb(10)["rule"]
    'stop with fewer than 5 dice left'
    """
    return best_rule(rule_table(dice, display=display, points_per_set=points_per_set, bust_cost=bust_cost, payoff=payoff,
                                locks=locks, tolerance=tolerance))


def roll_or_stop_picture(dice: int = 8, *, display: Sequence[Any] | None = None, points_per_set: Fraction | int | None = None,
                         bust_cost: Fraction | int = BUST_COST, payoff: PayoffArg | None = None, rule: Rule | None = None) -> go.Figure:
    """:func:`roll_or_stop_policy` as a heatmap; with a ``rule``, the cells where it chooses otherwise are marked.

    >>> roll_or_stop_picture(8, rule=stop_rules(8)[0]).layout.yaxis.title.text
    'dice left'
    """
    turn = _turn(dice, display, points_per_set, bust_cost, payoff)
    title = f"Dairyman, {turn.dice} dice: roll or stop after a lock ({turn.assumptions})"
    return policy_figure(turn.policy_table(), title, rule)


def display_rules(dice: int = 8, displays: Sequence[Sequence[Any]] | None = None, *, bust_cost: Fraction | int = BUST_COST,
                  locks: str = "best", tolerance: Fraction | int = TOLERANCE) -> pd.DataFrame:
    """:func:`rule_of_thumb` for each display (default: every display of 3 tiles valued 10-40, the stand-in tiles'
    values): one row each with the optimal value, the rule, its loss (exact) and whether it is within ``tolerance``.

    >>> display_rules(4, [[10, 40, 40]])[["display", "rule", "loss"]].iloc[0].tolist()
    ['10 40 40', 'stop with 1 set or more', Fraction(0, 1)]
    """
    import pandas as pd

    if displays is None:
        displays = [list(d) for d in combinations_with_replacement(TILE_VALUES, 3)]
    elif isinstance(displays, (str, bytes)) or not isinstance(displays, Sequence) or not 1 <= len(displays) <= 100:
        raise BadType("displays", "must be a list of 1 to 100 displays, each a list of tiles, e.g. [[10, 40, 40]]", displays)
    rows = []
    for display in displays:
        if isinstance(display, (str, bytes)) or not isinstance(display, Sequence):
            raise BadType("displays", "each display must be a list of tiles, e.g. [10, 40, 40]", display)
        table = rule_table(dice, display=display, bust_cost=bust_cost, locks=locks, tolerance=tolerance)
        best = best_rule(table)
        rows.append({"display": " ".join(map(str, display)), "optimal": table.attrs["optimal"], "rule": best["rule"],
                     "size": int(best["size"]), "value": best["value"], "loss": best["loss"], "loss_share": best["loss_share"],
                     "within": bool(best["within"]), "loss_percent": float(best["loss_percent"])})
    return pd.DataFrame(rows)
