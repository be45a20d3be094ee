"""The cup-test solver (coffeegames.roaster.cup): exact against brute force over the engine's own cup-test states and
the independent search of tests/roaster_oracle.py (itself checked against the engine here), against a seeded
simulation of its own policy, the fallback's measured gap, one more round, and bad input."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from coffeegames.engine import Expectimax, play_out
from coffeegames.roaster import (
    CUP_EFFECTS,
    Continue,
    Game,
    Roast,
    Rules,
    Shuffled,
    State,
    Stop,
    draw_outcomes,
    msort,
    one_more_round,
    stop_now,
    stop_or_continue,
)
from roaster_oracle import CupOracle

ORDER = ("extra_bean", "sweetness", "choice", "exchange", "tray")  # squares 0-4
FULL = (("body", "body"), ("acidity", "acidity"), ("aroma", "aroma"), ("body", "acidity"), ("acidity", "aroma"))
CARD = "Zambia Kasama AA"


def position(bag, cup=(), tray=(), active=(), card=CARD, side="full") -> State:
    """An engine cup-test position (tokens not conserved: never ``check()`` it), moved on to its first chance or decision."""
    state = Game(card=card, side=side).new_initial_state().apply(Shuffled(ORDER))
    slots = tuple(FULL[i] if e in active else ("", "") for i, e in enumerate(ORDER))
    s = replace(state, phase="cup_draw", bag=msort(bag), cup=tuple(cup), tray=msort(tray), drawn=(), draw_count=0,
                draw_for="", slots=slots)
    return s.next_cup_space()


def policy_dist(state: State, policy, memo: dict[State, dict[int, Fraction]] | None = None) -> dict[int, Fraction]:
    """The exact score distribution of the engine's cup test when every decision follows ``policy`` (a function of the
    state alone). The tree is walked once per distinct state: ``memo`` holds each state's distribution, so a position
    reached by draws in another order is not walked again (the same sums, 17 s fewer on the largest case)."""
    memo = {} if memo is None else memo
    if state in memo:
        return memo[state]
    if state.is_terminal():
        return {state.returns()[0]: Fraction(1)}
    out: dict[int, Fraction] = {}
    branches = state.chance_outcomes() if state.is_chance() else [(policy(state), Fraction(1))]
    for move, p in branches:
        for score, q in policy_dist(state.apply(move), policy, memo).items():
            out[score] = out.get(score, Fraction(0)) + p * q
    memo[state] = out
    return out


CASES = [
    # (bag, cup already filled, tray, active cup effects)
    (["bean2", "bean3", "bean4", "hard", "smoke", "aroma", "bean1"], ["bean2"] * 5, (), ()),
    (["bean2", "bean3", "bean4", "hard", "smoke", "aroma", "moisture", "moisture"], ["bean2"] * 5, ["hard"], ()),
    (["bean2", "bean3", "hard", "smoke", "aroma", "body", "bean1"], ["bean1"] * 5, (), ("choice",)),
    (["bean2", "bean3", "hard", "smoke", "body", "moisture"], ["bean2"] * 6, ["smoke", "smoke"], ("choice", "sweetness")),
    (["bean2", "bean4", "hard", "smoke", "aroma", "acidity"], ["bean2"] * 4 + ["hard", "smoke"], (), ("exchange", "extra_bean")),
    (["bean2", "bean3", "burnt", "defect", "body", "wild"], ["bean3"] * 5, ["hard"], ("tray", "extra_bean")),
    (["bean2", "bean3", "hard", "aroma", "moisture"], ["bean2"] * 6 + ["defect"], (), tuple(CUP_EFFECTS)),
]


@pytest.mark.parametrize("bag, cup, tray, active", CASES)
def test_matches_expectimax_over_the_engines_cup_test(bag, cup, tray, active):
    state = position(bag, cup, tray, active)
    result = stop_now(state, max_states=None)
    assert result.exact and result.value == Expectimax().value(state)[0]
    assert CupOracle(Rules(card=CARD), active).solve(bag, cup, len(tray))[0] == result.value  # the oracle too
    assert sum(result.dist.values()) == 1 and result.dist.mean() == result.value
    assert policy_dist(state, result.action) == dict(result.dist)  # the distribution is that of its own decisions
    same = stop_now(bag, Rules(card=CARD), active=active, cup=cup, tray=tray, max_states=None)
    assert (same.value, same.dist) == (result.value, result.dist)


def test_every_cup_test_phase_starts_a_solve_matching_expectimax():
    state = position(["bean2", "bean3", "hard", "smoke", "aroma", "acidity"], ["bean2"] * 6 + ["hard"], (),
                     ("choice", "exchange"))
    solver, seen, rng = Expectimax(), set(), np.random.default_rng(1)
    for _ in range(30):
        s = state
        while not s.is_terminal():
            if s.phase not in seen and not (s.phase in ("choice_draw", "exchange_draw") and s.hand):
                seen.add(s.phase)
                assert stop_now(s).value == solver.value(s)[0], s.phase
            s = s.apply(s.sample_chance(rng) if s.is_chance() else solver.best_action(s))
    assert {"cup_draw", "place", "choice_draw", "choose", "exchange", "exchange_keep"} <= seen


def test_decision_trays_what_hurts_and_cups_what_helps():
    r = stop_now(["bean3"] * 5 + ["hard"] * 2, Rules(card=CARD))
    assert r.decision("hard", cup=["bean3"]) == "tray" and r.decision("bean3") == "cup"
    assert r.decision("hard", cup=["bean3"], tray=["hard"] * 0) == "tray"
    full_tray = stop_now(["bean3"] * 5 + ["hard"] * 4, Rules(card=CARD))
    assert full_tray.decision("hard", tray=["hard"] * 3) == "cup"  # no room: forced


def test_a_larger_bag_matches_a_seeded_simulation_of_its_own_policy():
    bag = ["bean1"] * 2 + ["bean2"] * 3 + ["bean3"] * 2 + ["bean4", "hard", "smoke", "aroma", "body", "moisture"]
    state = position(bag, active=("extra_bean", "choice", "sweetness"))
    result = stop_now(state)
    assert result.exact and result.states > 1000
    rng = np.random.default_rng(7)
    scores = np.array([play_out(state, result.action, rng)[0].returns()[0] for _ in range(1500)], dtype=float)
    se = scores.std(ddof=1) / np.sqrt(len(scores))
    assert abs(scores.mean() - float(result.value)) < 4 * se
    assert np.std(scores) == pytest.approx(result.dist.std(), rel=0.1)


BAG12 = ["bean1"] * 2 + ["bean2"] * 3 + ["bean3"] * 2 + ["bean4", "hard", "smoke", "aroma", "body"]
BAG15 = ["hard"] * 4 + ["bean0"] * 3 + ["bean1"] * 3 + ["bean2"] * 2 + ["defect", "acidity", "aroma"]


@pytest.mark.parametrize("bag, active", [(BAG12, ()), (BAG12, ("choice", "sweetness")), (BAG15, ("exchange", "tray"))])
def test_the_fallback_is_flagged_and_close_to_the_exact_answer(bag, active):
    exact = stop_now(bag, CARD, active=active, max_states=None)
    approx = stop_now(bag, CARD, active=active, max_states=100, samples=2000, seed=3)
    assert exact.exact and not approx.exact and "approximate" in approx.message and approx.stderr > 0
    assert sum(approx.dist.values()) == 1
    # a fixed policy cannot beat optimal play by more than noise; measured loss 0.5-2.5 points (benchmarks/README.md)
    assert float(approx.value) - float(exact.value) < 4 * approx.stderr
    assert float(exact.value) - float(approx.value) < 3


def _small_late_position() -> State:
    """A late stop/continue position with a small bag: only a few tokens, so brute force is quick."""
    s, rng = Game(card="Mexico Altura Oaxaca").new_initial_state(seed=2), np.random.default_rng(2)
    s = s.apply(s.sample_chance(rng)).apply(Roast())
    return replace(s, bag=msort(["bean2", "bean3", "bean1", "hard", "acidity", "moisture", "bean2"]), space=s.rules.spaces - 2)


def test_the_fallback_plays_the_endgame_exactly(monkeypatch):
    import coffeegames.roaster.cup as cup_module
    import coffeegames.roaster.cup_fallback as fallback_module

    monkeypatch.setattr(cup_module, "ENDGAME_BUDGET", 1)  # the endgame may solve as many positions again

    def fallback():
        r = stop_now(BAG15, CARD, max_states=30_000, samples=400, seed=1)  # 61k positions: over budget
        assert not r.exact
        return r, {t: r.decision(t, cup=cup) for t in ("hard", "bean0", "bean2", "defect", "aroma")}

    exact = stop_now(BAG15, CARD, max_states=None)
    cup = ["bean1"] * 3 + ["bean0"] * 2 + ["acidity"]  # 4 spaces free: the endgame
    best = {t: exact.decision(t, cup=cup) for t in ("hard", "bean0", "bean2", "defect", "aroma")}
    approx, decisions = fallback()
    assert decisions == best
    monkeypatch.setattr(fallback_module, "ENDGAME", 0)
    rule_of_thumb, rough = fallback()
    assert rough != best  # the rule of thumb alone cups a hard bean here
    assert float(exact.value) > float(approx.value) > float(rule_of_thumb.value)


def test_stopping_from_an_engine_game_and_one_more_round_against_brute_force():
    small = _small_late_position()
    assert stop_now(small).value == Expectimax().value(small.apply(Stop()))[0]
    more = one_more_round(small)
    assert more.exact
    after = small.apply(Continue())
    expected = sum((p * Expectimax().value(after.apply(d).apply(Roast()))[0] for d, p in draw_outcomes(after.bag, after.draw_count)),
                   Fraction(0))
    assert more.value == expected
    table = stop_or_continue(small)
    assert isinstance(table, pd.DataFrame) and list(table.index) == ["stop now", "one more round, then stop"]
    assert table.loc["stop now", "expected score"] == pytest.approx(float(stop_now(small).value))


def test_one_more_round_samples_draws_when_there_are_many():
    s = Game(card="Zambia Kasama AA").new_initial_state(seed=1)
    s = s.apply(s.sample_chance(np.random.default_rng(1))).apply(Roast())
    more = one_more_round(s, max_outcomes=5, draws=4, max_states=3000, samples=100)
    assert not more.exact and more.outcomes > 5 and more.weighed == 4 and "4 of" in more.message
    assert "cup tests simulated by the fallback over 3,000 positions (a lower estimate)" in more.message
    assert more.lower and more.stderr > 0


def test_one_more_round_sampled_is_an_unbiased_estimate_of_the_exact_value():
    s = replace(_small_late_position(), bag=msort(["bean2"] * 4 + ["bean3"] * 3 + ["hard"] * 2 + ["smoke", "acidity", "moisture"]),
                space=3)
    exact = one_more_round(s)
    assert exact.exact and exact.outcomes == exact.weighed > 50 and exact.stderr == 0
    assert exact.value == sum((p * stop_now(s.apply(Continue()).apply(d).apply(Roast())).value
                               for d, p in s.apply(Continue()).chance_outcomes()), Fraction(0))  # one shared solver = separate solves
    runs = [one_more_round(s, max_outcomes=0, draws=4, seed=seed) for seed in range(40)]
    assert all(not r.exact and not r.lower and r.weighed == 4 and "stratified" in r.message for r in runs)
    values = np.array([float(r.value) for r in runs])
    assert abs(values.mean() - float(exact.value)) < 4 * values.std(ddof=1) / np.sqrt(len(values)) + 1e-9
    assert np.mean([r.stderr for r in runs]) > 0.5 * values.std()  # the stated error is not overconfident


def test_bad_input_is_refused_with_a_reason():
    rules = Rules(card=CARD)
    with pytest.raises(ValueError, match="needs the rules"):
        stop_now(["bean2"])
    with pytest.raises(ValueError, match="not bag tokens"):
        stop_now(["bean9"], rules)
    with pytest.raises(TypeError, match="list of tokens"):
        stop_now("bean2", rules)
    with pytest.raises(ValueError, match="unknown cup effects"):
        stop_now(["bean2"], rules, active=["sugar"])
    with pytest.raises(ValueError, match="up to 10 tokens"):
        stop_now(["bean2"], rules, cup=["bean1"] * 11)
    with pytest.raises(ValueError, match="no coffee card"):
        stop_now(["bean2"], "Nowhere Blend")
    r = stop_now(["bean2", "hard"], rules)
    with pytest.raises(ValueError, match="not among"):
        r.decision("smoke")
    with pytest.raises(ValueError, match="more tokens"):
        r.decision("hard", tray=["hard"])
    fresh = Game(card=CARD).new_initial_state(seed=0)
    with pytest.raises(ValueError, match="phase 'decide'"):
        stop_now(fresh)
    with pytest.raises(ValueError, match="phase 'decide'"):
        one_more_round(fresh)


@pytest.mark.parametrize("bag, cup, tray, active", [
    (BAG12, (), (), ()), (BAG12, (), (), ("tray",)), (BAG15, ("bean1",) * 3, ("hard",), ("extra_bean",)),
    (BAG15, ("bean1",) * 10, (), ()), ([], ("bean2",), (), ()),
])
def test_the_position_count_is_predicted_exactly_without_choice_sweetness_or_exchange(bag, cup, tray, active):
    from coffeegames.roaster.cup_solver import count_positions

    r = stop_now(bag, CARD, active=active, cup=cup, tray=tray, max_states=None)
    s = r.solver
    assert r.exact and count_positions(s, s.counts(bag), s.counts(cup), len(tray)) == r.states
    assert count_positions(stop_now(BAG12[:5], CARD, active=("choice",)).solver, (1,) * 5, (0,) * 5, 0) is None


def test_a_solve_known_to_be_over_budget_is_not_started():
    n = stop_now(BAG12, CARD, max_states=None).states
    r = stop_now(BAG12, CARD, max_states=n - 1, samples=200, seed=3)
    assert not r.exact and r.states == 0 and f"{n:,} positions, over {n - 1:,}" in r.message
    just = stop_now(BAG12, CARD, max_states=n)
    assert just.exact and just.states == n


def test_stop_now_and_its_decisions_equal_the_oracle_with_moisture_under_either_rules_version():
    """From a bag with moisture, under both rules versions (Sweetness on its space from the start, or placed when
    filling reaches it): the value and distribution of the independent search (tests/roaster_oracle.py), and each
    decision the one the oracle's values ask for (the cup among equals)."""
    bag = ["bean1", "bean1", "bean2", "bean2", "bean3", "hard", "aroma", "moisture", "moisture"]
    for version in (1, 2):
        for active in [("sweetness",), ("choice", "exchange", "sweetness"), ("tray", "extra_bean", "sweetness")]:
            rules = Rules(card=CARD, rules_version=version)
            r = stop_now(bag, rules, active=active, max_states=None)
            oracle = CupOracle(rules, active)
            assert (r.value, dict(r.dist)) == oracle.solve(bag), (version, active)
            for cup in ([], ["bean1", "bean2"], ["bean1", "bean2", "bean3", "aroma", "bean2"]):
                for token in ("hard", "bean1", "aroma"):
                    have, need = Counter(t for t in bag if t != "moisture"), Counter(cup + [token])
                    if any(have[t] < n for t, n in need.items()):
                        continue
                    rest = msort(have - need)
                    in_cup = oracle.solve(rest, cup + [token])[0]
                    on_tray = oracle.solve(rest, cup, 1)[0]
                    at_choice = "choice" in active and len(cup) in rules.board.choice_spaces
                    expected = "cup" if at_choice or in_cup >= on_tray else "tray"
                    assert r.decision(token, cup=cup) == expected, (version, active, cup, token)


def test_the_vectorised_fallback_plays_the_rule_of_thumb_and_values_each_test_exactly():
    from coffeegames.roaster.cup_fallback import Entries, heuristic_place, typical_fill, typical_fills
    from coffeegames.roaster.cup_solver import Solver
    from coffeegames.roaster.tokens import TOKENS

    rng = np.random.default_rng(5)
    tokens = [t for t in TOKENS if t != "moisture"]
    for active in [(), ("sweetness", "tray"), ("choice", "extra_bean")]:
        solver = Solver(Rules(card=CARD), active, tokens, Rules(card=CARD).tray_size(active), None)
        k = len(solver.kinds)
        entries = Entries(solver, [((1,) * k, (0,) * k, 0)], 1, 0, 10)
        bags = rng.integers(0, 4, (200, k))
        for room in (0, 3, 10):  # the vectorised typical rest is the scalar one
            assert typical_fills(bags, room).tolist() == [list(typical_fill(solver, tuple(b), room)) for b in bags.tolist()]
        for bag in bags.tolist():  # the rows' tray decisions are heuristic_place's
            cup = tuple(int(x) for x in np.bincount(rng.integers(0, k, int(rng.integers(0, 8))), minlength=k))
            tray, i = int(rng.integers(0, solver.tray_spaces + 1)), int(rng.integers(0, k))
            assert entries.to_tray(tuple(bag), cup, tray, i) == heuristic_place(solver, tuple(bag), cup, tray, i)
    exact = stop_now(BAG15, CARD, active=("choice", "sweetness"), max_states=None)
    approx = stop_now(BAG15, CARD, active=("choice", "sweetness"), max_states=exact.states // 3, samples=200, seed=2)
    assert not approx.exact and approx.dist.mean() == approx.value and sum(approx.dist.values()) == 1
    assert "each then valued exactly" in approx.message
    assert float(approx.value) - float(exact.value) < 4 * approx.stderr and float(exact.value) - float(approx.value) < 2
