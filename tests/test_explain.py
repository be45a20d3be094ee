"""The "why this value?" breakdowns: for every game of the registry, each valued choice taken apart adds up to its value.

Parametrised over ``coffeegames.games()``: a game added to the registry is checked with no
change here, through its package's ``explain`` or, without one, the fallback built from
its ``advise`` (:func:`coffeegames.engine.explain.explainer_for`). Independent checks: the
Dairyman bust term against a brute-force count of rolls written from the rules, and the
fallback against exact expectimax on a small game.
"""

from __future__ import annotations

import dataclasses
import itertools
import types
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import coffeegames
from coffeegames.dairyman import Drawn, Game, Lock, Roll, Rolled, advise
from coffeegames.engine import Expectimax, random_policy
from coffeegames.engine.examples import Keep, KeepOrReroll, Reroll
from coffeegames.engine.explain import (
    Breakdown,
    advice_explainer,
    explainer_for,
    grouped,
    solver_explainer,
    why,
)
from coffeegames.dairyman.advice import advice_model
from coffeegames.engine.advice import Advice, advice_of, solver_advice

DECISIONS = {"roaster": 6, "gizmos": 3, "rush": 6}
"""Decisions checked per seeded game (the cup-test solver takes about a second a decision, Gizmos' search playouts
and Coffee Rush's best-plan search a fraction of one); 12 elsewhere."""


CHANCE_INSIDE = {"dairyman", "vivajava", "roaster"}
"""Games whose advised values are exact expectations over chance that follows the choice, so some choice must be taken
apart into several outcomes. Gizmos values by search playouts (an estimate: shown whole, with its sample) and Coffee
Rush by the exact best plan of the turn, which chance does not enter (one certain term)."""


def _decisions(info: Any, options: dict[str, Any], seed: int, count: int) -> list[Any]:
    """Decision states along a seeded random game (bots choose at random, chance with its odds)."""
    state = info.game(**options).new_initial_state(seed=seed)
    rng, policy, found = np.random.default_rng(seed), random_policy(seed), []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        found.append(state)
        state = state.apply(policy(state))
    return found


@pytest.mark.parametrize("name", list(coffeegames.games()))
def test_every_breakdown_adds_up_to_the_value_shown(name: str) -> None:
    info = coffeegames.games()[name]
    if not hasattr(info.module, "advise"):
        pytest.skip(f"{name} has no advise(state) yet: no value to take apart")
    explain = explainer_for(info.module)
    broken_down = 0
    for options in info.variants[:2]:
        for state in _decisions(info, options, seed=3, count=DECISIONS.get(name, 12)):
            rows = info.module.advise(state)
            assert all(isinstance(row, Advice) for row in rows)
            for row in rows:
                b = explain(state, row.action)
                assert isinstance(b, Breakdown)
                if row.value is None:
                    assert b.value is None and not b.terms
                    continue
                assert b.value == row.value, (row.label, b)
                assert all(isinstance(t.chance, Fraction) and isinstance(t.value, Fraction) for t in b.terms)
                assert b.total == row.value, (row.label, b.equation())  # Fraction equality: exactly the value shown
                assert sum(t.chance for t in b.terms) == 1 and all(0 < t.chance <= 1 for t in b.terms)
                if row.sample is not None:
                    assert b.sample is not None
                broken_down += len(b.terms) > 1
            reason = why(state, rows, explain)
            if reason is not None and reason.other is not None:
                assert reason.chosen.label in reason.difference and reason.other.label in reason.difference
    if name in CHANCE_INSIDE:
        assert broken_down > 0, f"{name}: no valued choice was ever taken apart into more than one outcome"


def _has_set(roll: tuple[int, ...]) -> bool:
    """From the rules: two or three of the dice summing to ten."""
    return any(sum(c) == 10 for k in (2, 3) for c in itertools.combinations(roll, k))


def _no_set_chance(kept: tuple[int, ...], rolling: int) -> Fraction:
    """From the rules, by brute force: the chance that ``rolling`` fresh dice (every ordered roll) beside ``kept`` make no set."""
    rolls = list(itertools.product(range(1, 7), repeat=rolling))
    return Fraction(sum(not _has_set(kept + r) for r in rolls), len(rolls))


def _buys(costs: tuple[int, ...], sets: int) -> int:
    """From the rules: a stop with ``sets`` sets buys the face-up tiles worth the most whose costs fit 10 a set."""
    return max(sum(c) for k in range(len(costs) + 1) for c in itertools.combinations(costs, k) if sum(c) <= 10 * sets)


def test_dairyman_bust_term_matches_a_brute_force_count() -> None:
    s = Game().new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
    s = s.apply(Rolled(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5))
    costs = (10, 20, 30)
    explain = coffeegames.dairyman.explain

    def check(state: Any, action: Any, kept: tuple[int, ...], rolling: int, bust_value: int) -> Breakdown:
        b = explain(state, action)
        assert advice_model(state)[1] == "whole turn" and b.details.startswith("whole-turn model")  # the model behind the toggle
        assert b.value == b.total == advice_of(advise(state), action).value
        assert sum(t.chance for t in b.terms) == 1
        bust = [t for t in b.terms if t.outcome.startswith("bust")]
        assert bust and bust[0].chance == _no_set_chance(kept, rolling) and bust[0].value == bust_value
        return b

    lock = Lock(sets=((4, 6), (1, 3, 6)))  # 2 sets, 3 dice left (one of them the yellow): stop or roll 3 more
    assert explain(s, lock).certain and explain(s, lock).value == _buys(costs, 2) == 20
    assert "20:cheese5" in explain(s, lock).terms[0].outcome
    # one set, 6 dice left: the 2nd roll takes no ice token and nothing can be frozen
    b = check(s, Lock(sets=((4, 6),)), (), 6, -5)
    stops = {t.outcome: t.value for t in b.terms if "stop" in t.outcome}
    assert stops and all(v == _buys(costs, int(o.split(" sets locked")[0][-1])) for o, v in stops.items())
    # the 3rd roll takes an ice token (worth 1 if kept): a bust keeps it; frozen dice keep their values
    s = s.apply(Lock(sets=((4, 6),))).apply(Roll(())).apply(Rolled(dice=(1, 1, 2, 5, 5), yellow=3)).apply(Lock(sets=((5, 5),)))
    check(s, Roll(()), (), 4, -5 + 1)
    check(s, Roll((), True), (3,), 3, -5)  # the token freezes the yellow 3
    check(s, Roll((1,)), (1,), 3, -5)


def test_dairyman_breakdowns_follow_the_model_the_advice_used() -> None:
    """A fallback table is taken apart in the plain turn; ice-cream rerolls (abilities owned) in the whole turn."""
    for options, abilities in (({"ice_supply": 1}, ()), ({}, ("40:ice2:1s",))):
        s = Game(**options).new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
        owner = dataclasses.replace(s.players[0], ice_cream=abilities)
        s = dataclasses.replace(s, players=(owner,) + s.players[1:]).apply(Rolled(dice=(1, 1, 3, 4, 4, 6, 6), yellow=1))
        model = advice_model(s)[1]
        assert model.startswith("plain turn" if options else "whole turn")
        for row in advise(s):
            b = coffeegames.dairyman.explain(s, row.action)
            assert b.value == b.total == row.value and b.details.startswith(model if options else "whole-turn model")
            assert "not taken apart" not in b.terms[0].outcome
        if abilities:
            reroll = coffeegames.dairyman.explain(s, next(r.action for r in advise(s) if type(r.action).__name__ == "IceCream"))
            assert len(reroll.terms) > 1 and "keeping their values" in reroll.how


def test_the_fallback_from_advise_alone_agrees_with_expectimax() -> None:
    state = KeepOrReroll(die=3)
    fallback, exact = advice_explainer(solver_advice()), solver_explainer(Expectimax())
    for action in (Keep(), Reroll()):
        a, b = fallback(state, action), exact(state, action)
        assert a.value == b.value == a.total and [(t.chance, t.value) for t in a.terms] == [(t.chance, t.value) for t in b.terms]
    assert len(fallback(state, Reroll()).terms) == 6
    # a game package without ``explain`` gets the fallback
    package = types.SimpleNamespace(advise=solver_advice())
    assert explainer_for(package)(state, Reroll()).total == Fraction(7, 2)  # type: ignore[arg-type]


def test_the_fallback_says_so_when_the_advice_looks_further_ahead() -> None:
    def advise_far(state: KeepOrReroll) -> list[Advice]:  # values a reroll at 4 (not 7/2): a model the next roll cannot explain
        return [Advice(Keep(), "Keep()", Fraction(state.die or 0)), Advice(Reroll(), "Reroll()", Fraction(4))]

    b = advice_explainer(advise_far)(KeepOrReroll(die=3), Reroll())
    assert b.value == b.total == 4 and len(b.terms) == 1 and "further ahead" in b.terms[0].outcome


def test_grouping_merges_exactly() -> None:
    parts = [(f"o{i}", Fraction(1, 20), Fraction(i)) for i in range(20)]
    terms = grouped(parts, keep=4)
    assert len(terms) == 4 and terms[-1].outcome.startswith("other outcomes (17")
    assert sum(t.chance * t.value for t in terms) == sum(p * v for _, p, v in parts)
    assert sum(t.chance for t in terms) == 1


def test_why_compares_with_the_best_when_the_choice_is_not_the_best() -> None:
    state = KeepOrReroll(die=5)
    reason = why(state, solver_advice()(state), solver_explainer(), Reroll())
    assert reason is not None and reason.other is not None
    assert reason.other.label == "Keep()" and reason.other_role == "the best choice"
    assert reason.difference.startswith("Reroll() (7/2) is worth 3/2 ≈ 1.50 less than the best choice, Keep() (5)")
