"""Coffee Roaster's stop or draw on: the solver's policy as a picture, and the plain rules that come near it (estimated).

After each roast the player stops and tests the cup, or continues (``docs/rules/roaster.md``). The solver's values
are :func:`~.advice.advise`'s: **Stop** is the cup test played optimally from here (:func:`~.cup.stop_now`, exact
within the advice's budget), **Continue** one more round of roasting, then stopping (:func:`~.round.one_more_round`,
a stratified estimate over the round's draws). The solver's policy stops where Stop is worth at least Continue.

Those values depend on the whole bag, so no table over every position can be listed, and a value from the start of a
game is an **estimate**: ``games`` seeded games (4 by default, a quick look of about ten seconds; the findings of
``docs/rules_of_thumb.md`` use 40) (card and seed given), each played by the greedy bot
(:func:`~.policy.greedy_policy`: effects, the reserve, the cup test) except at the stop-or-continue decision, where it
continues to the thermometer's end while every decision on the way is recorded with both values. A policy that stops
at decision t scores that decision's Stop value; one that never stops scores the last decision's Continue value (one
more round, then the forced stop). Every policy meets the same draws until it stops, so the rules are compared game by
game (paired), each loss with its standard error. (The values are exact where the budget allows, else the solver's
own estimates.)

**What the rules are measured against.** The solver's Continue is a lower bound of continuing (one more round, then
stop), so the solver's own policy stops early and is far from optimal: plain rules beat it by a wide margin (see
``docs/rules_of_thumb.md``). No policy can beat the **hindsight bound**, the largest of a game's Stop values (and its
last Continue value): whatever a policy's stopping time, its expected value is at most the expected largest value.
So each rule's ``loss`` here is against that bound: an upper bound of what the rule gives up against optimal play,
and a rule "within 1%" of the bound is within 1% of optimal play. The solver's policy's value is in the table's
``attrs`` (``solver``).

The family (:func:`stop_rules`): never stop (size 0); stop from thermometer space n on; stop once the forecast cup
level (:func:`~.policy.expected_cup_level`: the bag's mean roast level times the cup's spaces) is at least the card's
optimum less k (the greedy bot's rule is k = 1) (size 1); both, joined by "and" or "or" (size 2).

Example:
    >>> table = rule_table("Zambia Kasama AA", games=1)
    >>> bool((table["loss"] == table.attrs["optimal"] - table["value"]).all())
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import floor, sqrt
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.rules_of_thumb import TOLERANCE, Rule, _tolerance, best_rule, optimal_policy, policy_figure, rule_values
from ..errors import BadArgument, BadType
from ..validate import check_count, check_instance, check_seed
from .actions import Continue, Phase
from .advice import valued_round, valued_stop
from .game import Game
from .policy import expected_cup_level, greedy_policy
from .state import State

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = ["MAX_GAMES", "Decision", "decisions", "hindsight_value", "policy_value", "rule_table", "rule_of_thumb", "stop_or_draw_picture",
           "stop_or_draw_policy", "stop_rules"]

MAX_GAMES = 1000
"""The most seeded games one question may play (each costs about two seconds)."""
GAPS = range(-8, 5)
"""Forecast cup level less the card's optimum, rounded down: the picture's columns (clipped to this range)."""


@dataclass(frozen=True)
class Decision:
    """One stop-or-continue decision of a seeded game: where it was, and both values the solver gives it."""

    space: int
    """The thermometer space just roasted."""
    gap: float
    """Forecast cup level (:func:`~.policy.expected_cup_level`) less the card's optimum."""
    stop: Fraction
    cont: Fraction
    exact: bool
    """Whether both values are exact (else the solver's estimates)."""

    @property
    def position(self) -> tuple[int, float]:
        """What a rule decides on: (space, gap)."""
        return self.space, self.gap

    @property
    def solver(self) -> str:
        """The solver's choice: "stop" where Stop is worth at least Continue."""
        return "stop" if self.stop >= self.cont else "continue"


def _game(card: Any) -> Game:
    if not isinstance(card, str):
        raise BadType("card", "must be a card's name, e.g. 'Zambia Kasama AA'", card)
    return Game(card=card)


@lru_cache(maxsize=MAX_GAMES)  # a game's decisions are a few small records: kept, so a table and its picture play once
def _one(card: str, seed: int, game_index: int) -> tuple[Decision, ...]:
    game, rng = _game(card), np.random.default_rng([seed, game_index])
    state: State = game.new_initial_state()
    found = []
    optimum = game.rules.card.optimum
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        elif state.phase == Phase.DECIDE:
            stop, cont = valued_stop(state), valued_round(state)
            found.append(Decision(state.space, expected_cup_level(state) - optimum, stop.value, cont.value, stop.exact and cont.exact))
            state = state.apply(Continue())
        elif state.phase in (Phase.ACT, Phase.REMOVE_TWO):
            state = state.apply(greedy_policy(state))
        else:  # the roasting is over: the values recorded are all that is needed
            break
    return tuple(found)


def decisions(card: str = "Zambia Kasama AA", games: int = 4, seed: int = 0) -> list[tuple[Decision, ...]]:
    """The stop-or-continue decisions of ``games`` seeded games (game i draws from ``default_rng([seed, i])``).

    >>> first = decisions(games=1)[0][0]
    >>> first.space, first.solver
    (2, 'continue')
    """
    _game(card)
    check_count(games, "games", MAX_GAMES)
    if games < 1:
        raise BadArgument("games", "must be 1 or more", games)
    checked = check_seed(seed)
    if checked is None:
        raise BadArgument("seed", "must be a whole number 0 or more (the games are seeded)", seed)
    return [_one(card, checked, i) for i in range(games)]


def policy_value(game: tuple[Decision, ...], rule: Rule | None = None) -> Fraction:
    """What one seeded game's roasting is worth played by ``rule`` (None: the solver's policy): the Stop value where it
    first stops, else the last Continue value.

    >>> d = Decision(2, -3.0, Fraction(1), Fraction(5), True), Decision(3, 0.5, Fraction(6), Fraction(4), True)
    >>> policy_value(d), policy_value(d, stop_rules()[0]), hindsight_value(d)
    (Fraction(6, 1), Fraction(4, 1), Fraction(6, 1))
    """
    if not isinstance(game, tuple) or not game or not all(isinstance(d, Decision) for d in game):
        raise BadType("game", "must be one game's decisions (a tuple of Decision, from decisions())", game)
    if rule is not None:
        check_instance(rule, Rule, "rule", "a Rule (from stop_rules)")
    for d in game:
        if (d.solver if rule is None else rule.decide(d.position)) == "stop":
            return d.stop
    return game[-1].cont


def hindsight_value(game: tuple[Decision, ...]) -> Fraction:
    """The hindsight bound of one game: the largest of its Stop values and its last Continue value (no policy's
    expected value exceeds the expected bound)."""
    policy_value(game)  # checks the game
    return max(max(d.stop for d in game), game[-1].cont)


def _at_space(n: int) -> Rule:
    return Rule(f"stop from space {n} on", 1, lambda p: "stop" if p[0] >= n else "continue")


def _near(k: int) -> Rule:
    return Rule(f"stop once the forecast cup level is at least the optimum less {k}", 1,
                lambda p: "stop" if p[1] >= -k else "continue")


def _both(n: int, k: int, joined: str) -> Rule:
    if joined == "and":
        return Rule(f"stop from space {n} on once the forecast is at least the optimum less {k}", 2,
                    lambda p: "stop" if p[0] >= n and p[1] >= -k else "continue")
    return Rule(f"stop from space {n} on, or once the forecast is at least the optimum less {k}", 2,
                lambda p: "stop" if p[0] >= n or p[1] >= -k else "continue")


@lru_cache(maxsize=1)
def _rules() -> tuple[Rule, ...]:
    spaces, gaps = range(2, 12), range(0, 7)
    found = [Rule("never stop (roast to the end)", 0, lambda p: "continue")]
    found += [_at_space(n) for n in spaces] + [_near(k) for k in gaps]
    found += [_both(n, k, j) for n in spaces for k in gaps for j in ("and", "or")]
    return tuple(found)


def stop_rules() -> list[Rule]:
    """The family of plain stop-or-continue rules; each decides a position (thermometer space, forecast gap).

    >>> stop_rules()[1].name
    'stop from space 2 on'
    """
    return list(_rules())


def rule_table(card: str = "Zambia Kasama AA", games: int = 4, seed: int = 0, tolerance: Fraction | int = TOLERANCE) -> pd.DataFrame:
    """Every rule of :func:`stop_rules` over ``games`` seeded games against the hindsight bound (module docstring): the
    table of :func:`~coffeegames.engine.rules_of_thumb.rule_values` (means over the games, exact given the values) with
    ``loss_stderr``, the standard error of each loss (paired: the same games). ``within`` is judged on the mean. The
    ``attrs`` hold ``solver`` (the mean value of the solver's own policy) and ``games``.

    >>> table = rule_table(games=1)
    >>> table.attrs["games"], bool((table["loss"] >= 0).all()), table.attrs["solver"] <= table.attrs["optimal"]
    (1, True, True)
    """
    _tolerance(tolerance)  # checked before the games are played
    played = decisions(card, games, seed)
    bound = [hindsight_value(g) for g in played]
    optimal = sum(bound, Fraction(0)) / len(played)
    values, errors = {}, {}
    for rule in _rules():
        mine = [policy_value(g, rule) for g in played]
        values[rule] = sum(mine, Fraction(0)) / len(played)
        diffs = np.array([float(b - m) for b, m in zip(bound, mine)])
        errors[rule.name] = float(diffs.std(ddof=1) / sqrt(len(diffs))) if len(diffs) > 1 else float("nan")
    table = rule_values(optimal, values, tolerance)
    table["loss_stderr"] = [errors[name] for name in table["rule"]]
    table.attrs.update(games=len(played), card=card, seed=seed, solver=sum((policy_value(g) for g in played), Fraction(0)) / len(played),
                       exact_share=sum(d.exact for g in played for d in g) / sum(len(g) for g in played))
    return table


def rule_of_thumb(card: str = "Zambia Kasama AA", games: int = 4, seed: int = 0, tolerance: Fraction | int = TOLERANCE) -> pd.Series:
    """The simplest rule whose estimated loss is within ``tolerance`` (else the best found): a row of :func:`rule_table`.

    >>> bool(rule_of_thumb(games=1)["within"])
    True
    """
    table = rule_table(card, games, seed, tolerance)
    plain = table.drop(columns="loss_stderr")
    plain.attrs = dict(table.attrs)
    row = best_rule(plain)
    row["loss_stderr"] = float(table.loc[table["rule"] == row["rule"], "loss_stderr"].iloc[0])
    return row


def _cells(played: list[tuple[Decision, ...]]) -> dict[tuple[int, int], list[int]]:
    cells: dict[tuple[int, int], list[int]] = {}
    for game in played:
        for d in game:
            key = (d.space, min(max(floor(d.gap), GAPS[0]), GAPS[-1]))
            stops, seen = cells.get(key, [0, 0])
            cells[key] = [stops + (d.solver == "stop"), seen + 1]
    return cells


def stop_or_draw_policy(card: str = "Zambia Kasama AA", games: int = 4, seed: int = 0) -> pd.DataFrame:
    """The solver's choice at the decisions of ``games`` seeded games, by thermometer space (rows) and forecast cup level
    less the optimum (columns, rounded down): "stop" or "continue" where most decisions there chose it ("" if none met).

    >>> stop_or_draw_policy(games=1).index.name
    'thermometer space'
    """
    cells = _cells(decisions(card, games, seed))

    def decide(space: int, gap: int) -> str | None:
        if (space, gap) not in cells:
            return None
        stops, seen = cells[(space, gap)]
        return "stop" if 2 * stops >= seen else "continue"

    spaces = sorted({s for s, _ in cells})
    return optimal_policy(spaces, list(GAPS), decide, "thermometer space", "forecast cup level − optimum")


def stop_or_draw_picture(card: str = "Zambia Kasama AA", games: int = 4, seed: int = 0, rule: Rule | None = None) -> go.Figure:
    """:func:`stop_or_draw_policy` as a heatmap; with a ``rule``, the cells where it chooses otherwise are marked.

    >>> stop_or_draw_picture(games=1).data[0].type
    'heatmap'
    """
    if rule is not None:
        check_instance(rule, Rule, "rule", "a Rule (from stop_rules)")
    title = f"Coffee Roaster, {card}: the solver's stop or continue over {games} seeded game{'s' * (games != 1)}"
    return policy_figure(stop_or_draw_policy(card, games, seed), title, rule, lambda space, gap: (space, gap))
