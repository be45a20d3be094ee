"""Rules of thumb against the optimal policy, checked by methods written from the rules (not from the code under test).

Dairyman: a naive backward induction over every roll (sets found by trying every 2 or 3 dice by position), a
seeded simulation of a rule's play, and a case counted by hand. VivaJava: the blend held at the start of a turn and
the value of keeping it, counted over all 7,776 rolls of 5 dice; a seeded simulation of a rule's play.
Everywhere: the optimal value is at least every rule's, and each reported loss is the optimal value minus the rule's.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import factorial, sqrt

import numpy as np
import pytest
from conftest import naive_has_set, naive_packings

from coffeegames import dairyman, roaster, vivajava
from coffeegames.engine import Rule, best_rule, optimal_policy, policy_figure, rule_values
from coffeegames.errors import BadArgument, BadType
from coffeegames.vivajava.rules import Rules as VivaRules


# -- Dairyman: a naive solver written from the rules -----------------------------------------------------------

def _weight(roll: tuple[int, ...]) -> int:
    """Ordered rolls showing this multiset: the multinomial count."""
    w = factorial(len(roll))
    for v in set(roll):
        w //= factorial(roll.count(v))
    return w


@lru_cache(maxsize=None)
def _locks(roll: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(sets, dice used) of every non-empty lock, by trying every 2 or 3 dice by position."""
    return tuple(sorted({(len(p), sum(map(len, p))) for p in naive_packings(roll) if p}))


def naive_value(dice: int, stop, lock: str = "best", per_set: int = 10, cost: int = 5) -> Fraction:
    """A turn played by ``stop(dice_left, sets)``; each lock the best for the rule's play, or the most dice then sets.
    ``stop`` None: optimal play (roll or stop, whichever is worth more)."""

    @lru_cache(maxsize=None)
    def after(d: int, s: int) -> Fraction:
        if d == 0:
            return Fraction(per_set * s)
        if stop is None:
            return max(Fraction(per_set * s), rolled(d, s))
        return Fraction(per_set * s) if stop(d, s) else rolled(d, s)

    @lru_cache(maxsize=None)
    def rolled(d: int, s: int) -> Fraction:
        total = Fraction(0)
        for roll in combinations_with_replacement(range(1, 7), d):
            locks = _locks(roll)
            if not locks:
                value = Fraction(-cost)
            elif lock == "best" or stop is None:
                value = max(after(d - u, s + t) for t, u in locks)
            else:
                t, u = max(locks, key=lambda c: (c[1], c[0]))
                value = after(d - u, s + t)
            total += _weight(roll) * value
        return total / 6**d

    return rolled(dice, 0)


def _stops(rule: Rule):
    return lambda d, s: rule.decide((d, s)) == "stop"


@pytest.mark.parametrize("dice", [5, 8])
def test_dairyman_rule_values_match_a_naive_solver(dice):
    rules = dairyman.stop_rules(dice)
    picked = [rules[0], rules[2], rules[dice // 2 + 3], rules[-1]]  # always roll, 2 sets, fewer than M dice, both
    for rule in picked:
        for lock in dairyman.LOCKS:
            assert dairyman.rule_turn_value(rule, dice, locks=lock) == naive_value(dice, _stops(rule), lock), (rule.name, lock)
    assert dairyman.optimal_turn(dice).value == naive_value(dice, None)


def test_dairyman_table_losses_are_exact_and_never_negative():
    table = dairyman.rule_table(6)
    optimal = naive_value(6, None)
    assert table.attrs["optimal"] == optimal
    assert all(v <= optimal for v in table["value"])
    assert all(loss == optimal - v for loss, v in zip(table["loss"], table["value"]))
    assert all(share == loss / optimal for share, loss in zip(table["loss_share"], table["loss"]))
    assert list(table["within"]) == [share <= Fraction(1, 100) for share in table["loss_share"]]
    best = dairyman.rule_of_thumb(6)
    within = table[table["within"]]
    assert best["within"] and best["size"] == within["size"].min()
    assert best["value"] == max(within[within["size"] == best["size"]]["value"])


def test_dairyman_display_scoring_against_the_naive_solver():
    # display 10 40 40: one set buys the 10, four sets a 40 (the sets' barn value is 10 each)
    pay = [0, 10, 10, 10, 40, 50, 50]
    table = dairyman.rule_table(5, display=[10, 40, 40])

    @lru_cache(maxsize=None)
    def after(d, s, stop):
        return Fraction(pay[s]) if d == 0 or stop(d, s) else rolled(d, s, stop)

    @lru_cache(maxsize=None)
    def rolled(d, s, stop):
        total = Fraction(0)
        for roll in combinations_with_replacement(range(1, 7), d):
            locks = _locks(roll)
            total += _weight(roll) * (max(after(d - u, s + t, stop) for t, u in locks) if locks else -5)
        return total / 6**d

    for i in (1, 4, 7):
        rule = dairyman.stop_rules(5)[i]
        row = table[table["rule"] == rule.name].iloc[0]
        assert row["value"] == rolled(5, 0, _stops(rule))


def test_dairyman_a_case_counted_by_hand():
    # Two dice score one set only as 4+6, 6+4 or 5+5: 3 rolls of 36, whatever the rule (no dice are left).
    for rule in dairyman.stop_rules(2):
        assert dairyman.rule_turn_value(rule, 2, points_per_set=1, bust_cost=0) == Fraction(3, 36)
    # Three dice, stop after the first lock: 1 point if the roll has any set. By hand, with pairs 4+6 and 5+5 and
    # triples 1+3+6, 1+4+5, 2+2+6, 2+3+5, 2+4+4, 3+3+4: 73 of the 216 rolls have one (checked by brute force too).
    stop_at_one = next(r for r in dairyman.stop_rules(3) if r.name == "stop with 1 set or more")
    assert sum(naive_has_set(r) for r in product(range(1, 7), repeat=3)) == 73
    assert dairyman.rule_turn_value(stop_at_one, 3, points_per_set=1, bust_cost=0) == Fraction(73, 216)


def test_dairyman_seeded_simulation_of_a_rule():
    """8 dice, stop with 2 sets, lock the most dice: 4,000 seeded turns played from the rules."""
    rule = next(r for r in dairyman.stop_rules(8) if r.name == "stop with 2 sets or more")
    exact = dairyman.rule_turn_value(rule, 8, locks="most dice")
    rng = np.random.default_rng(31)
    scores = []
    for _ in range(4000):
        d, s, score = 8, 0, None
        while score is None:
            roll = tuple(sorted(rng.integers(1, 7, size=d).tolist()))
            locks = _locks(roll)
            if not locks:
                score = -5
                continue
            t, u = max(locks, key=lambda c: (c[1], c[0]))
            d, s = d - u, s + t
            if d == 0 or s >= 2:
                score = 10 * s
        scores.append(score)
    mean, stderr = float(np.mean(scores)), float(np.std(scores, ddof=1)) / sqrt(len(scores))
    assert abs(mean - float(exact)) <= 4 * stderr


def test_dairyman_findings():
    for dice in (8, 10, 12):
        best = dairyman.rule_of_thumb(dice)
        assert best["within"] and best["loss"] == 0 and best["size"] == 1
    most = dairyman.rule_of_thumb(8, locks="most dice")
    assert not most["within"] and most["loss"] > 0


# -- VivaJava -------------------------------------------------------------------------------------------------

def _best_blend(roll: tuple[int, ...]) -> tuple[int, int]:
    """(size, colour rank 1-6) of the largest group of one colour, the higher rank among equals; (0, 0) below 2."""
    counts = [roll.count(c) for c in range(6)]
    size = max(counts)
    return (0, 0) if size < 2 else (size, max(i for i in range(6) if counts[i] == size) + 1)


ROLLS = [_best_blend(r) for r in product(range(6), repeat=5)]


def test_vivajava_start_blends_counted_over_every_roll():
    blends = [b for b in ROLLS if b[0] >= 2]
    expected = {b: Fraction(blends.count(b), len(blends)) for b in set(blends)}
    got = {(b.size, b.rank): p for b, p in vivajava.start_blends().items()}
    assert got == expected


def test_vivajava_keep_value_counted_over_every_roll():
    """Two players: keeping scores the coaster's PP if the other player's 5 dice do not beat the blend."""
    pp = VivaRules(players=2).featured_pp
    for blend, (keep, _) in vivajava.keep_values(2).items():
        kept = sum(1 for b in ROLLS if b <= (blend.size, blend.rank))
        assert keep == pp * Fraction(kept, len(ROLLS)), blend


def test_vivajava_rules_never_beat_the_optimal_policy_and_losses_are_exact():
    table = vivajava.rule_table(2)
    optimal = table.attrs["optimal"]
    values = vivajava.keep_values(2)
    by_hand = vivajava.rule_start_value(Rule("by the values", 0, lambda b: "keep" if values[b][0] >= values[b][1] else "re-roll"))
    assert optimal == by_hand == vivajava.rule_start_value(None)
    assert all(v <= optimal and loss == optimal - v for v, loss in zip(table["value"], table["loss"]))
    best = vivajava.rule_of_thumb(2)
    assert best["rule"] == "keep a Decaf red or better" and best["loss"] == 0


def _forced_reroll_value() -> Fraction:
    """A held Decaf degrades to one die, which is re-rolled: the value of that roll (the game's own roll value)."""
    state = vivajava.Game(players=2).new_initial_state()
    while state.phase == vivajava.Phase.SETUP:
        state = state.apply(state.legal_actions()[0])
    held = dataclasses.replace(state, featured_by=0, featured_colour="red", featured_size=2, funders=()).start_turn(0)
    assert held.phase == vivajava.Phase.ROLL and held.rolling_white == 1
    return vivajava.roll_value(held)


def test_vivajava_seeded_simulation_of_a_rule():
    """20,000 seeded turn starts: roll 5 dice until they make a blend, degrade it, keep it always."""
    rule = next(r for r in vivajava.keep_rules() if r.name == "always keep")
    exact = vivajava.rule_start_value(rule, 2)
    values, forced = vivajava.keep_values(2), _forced_reroll_value()
    rng = np.random.default_rng(7)
    samples: list[float] = []
    while len(samples) < 20000:
        size, rank = _best_blend(tuple(rng.integers(0, 6, size=5).tolist()))
        if size < 2:
            continue
        samples.append(float(forced) if size == 2 else float(values[vivajava.Blend(size - 1, rank)][0]))
    mean, stderr = float(np.mean(samples)), float(np.std(samples, ddof=1)) / sqrt(len(samples))
    assert abs(mean - float(exact)) <= 4 * stderr


# -- the shared part ------------------------------------------------------------------------------------------

def test_best_rule_takes_the_simplest_within_else_the_most_valuable():
    a, b, c = Rule("a", 0, str), Rule("b", 1, str), Rule("c", 2, str)
    table = rule_values(100, {a: 90, b: 99, c: 100})
    assert best_rule(table)["rule"] == "b"
    assert best_rule(table, tolerance=Fraction(1, 5))["rule"] == "a"
    assert best_rule(table, tolerance=0)["rule"] == "c"
    far = best_rule(rule_values(100, {a: 50, b: 60}))
    assert far["rule"] == "b" and not far["within"] and far["loss"] == 40


def test_policy_figure_marks_where_a_rule_errs():
    table = optimal_policy([1, 2, 3], [1, 2], lambda d, s: "stop" if d < 2 or s >= 2 else "roll", "dice left", "sets")
    fig = policy_figure(table, rule=Rule("always roll", 0, lambda p: "roll"))
    marks = [cell for line in fig.data[0].text for cell in line]
    assert sum("✗" in m for m in marks) == 4  # the four stop cells
    best = next(r for r in vivajava.keep_rules() if r.name == "keep a Decaf red or better")
    always = next(r for r in vivajava.keep_rules() if r.name == "always keep")
    assert not any("✗" in m for line in vivajava.keep_picture(2, best).data[0].text for m in line)
    assert sum("✗" in m for line in vivajava.keep_picture(2, always).data[0].text for m in line) == 3  # white, yellow, brown Decafs


def test_bad_arguments_are_refused():
    with pytest.raises(BadType):
        rule_values(1, {"not a rule": 1})
    with pytest.raises(BadArgument):
        rule_values(1, {}, tolerance=2)
    with pytest.raises(BadType):
        dairyman.rule_turn_value("stop", 8)
    with pytest.raises(BadArgument):
        dairyman.rule_table(8, locks="fewest")
    with pytest.raises(BadArgument):
        vivajava.rule_table(players=1)


def test_the_command_line_prints_the_library_numbers(capsys):
    import json

    from coffeegames.cli import main

    assert main(["dairyman", "rule", "--dice", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    best = dairyman.rule_of_thumb(6)
    assert Fraction(out["optimal"]["fraction"]) == naive_value(6, None)
    assert out["rule_of_thumb"]["rule"] == best["rule"] and Fraction(out["rule_of_thumb"]["loss"]["fraction"]) == best["loss"]
    assert main(["vivajava", "rule"]) == 0
    assert "keep a Decaf red or better" in capsys.readouterr().out


# -- Coffee Roaster (estimates over seeded games) -------------------------------------------------------------

def test_roaster_rule_values_replay_the_games_played_by_the_rule():
    """A rule's value in a seeded game is the value where the engine, played by that rule, stops."""
    from coffeegames.roaster.advice import valued_round, valued_stop
    from coffeegames.roaster.policy import expected_cup_level

    card, games = "Zambia Kasama AA", 1
    played = roaster.decisions(card, games, seed=0)
    rules = [r for r in roaster.stop_rules() if r.name in (
        "never stop (roast to the end)", "stop from space 6 on", "stop once the forecast cup level is at least the optimum less 1")]
    assert len(rules) == 3
    for i, game_decisions in enumerate(played):
        for rule in rules:
            game = roaster.Game(card=card)
            rng, state, value, last = np.random.default_rng([0, i]), game.new_initial_state(), None, None
            while value is None:
                if state.is_chance():
                    state = state.apply(state.sample_chance(rng))
                elif state.phase == roaster.Phase.DECIDE:
                    last = state
                    if rule.decide((state.space, expected_cup_level(state) - game.rules.card.optimum)) == "stop":
                        value = valued_stop(state).value
                    else:
                        state = state.apply(roaster.Continue())
                elif state.phase in (roaster.Phase.ACT, roaster.Phase.REMOVE_TWO):
                    state = state.apply(roaster.greedy_policy(state))
                else:  # forced to stop: continuing at the last decision was one more round, then the stop
                    value = valued_round(last).value
            assert roaster.policy_value(game_decisions, rule) == value, (i, rule.name)
    table = roaster.rule_table(card, games)
    bound = [roaster.hindsight_value(g) for g in played]
    assert table.attrs["optimal"] == sum(bound, Fraction(0)) / games
    for rule in roaster.stop_rules():
        assert all(roaster.policy_value(g, rule) <= b for g, b in zip(played, bound))
    assert all(loss == table.attrs["optimal"] - v and loss >= 0 for loss, v in zip(table["loss"], table["value"]))


def test_the_command_line_lists_the_lock_choices_the_library_takes():
    from coffeegames.cli import build_parser

    parser = build_parser()
    rule = parser._subparsers._group_actions[0].choices["dairyman"]._subparsers._group_actions[0].choices["rule"]
    locks = next(a for a in rule._actions if a.dest == "locks")
    assert tuple(locks.choices) == dairyman.LOCKS
