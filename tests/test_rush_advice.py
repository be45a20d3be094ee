"""Coffee Rush advice with the next-turn estimate, the look-ahead's seeded continuations re-played here, and the bots.

The estimate is checked against a simulation written here from the stated model: play the row's
plan (found in the unpruned listing, :func:`rush.plans`), then for continuation ``i`` draw chance
from ``default_rng([seed, i])`` and let the other players play the greedy bot until the player's
next upgrade or move decision, where the best immediate value is read from the unpruned listing
again. The mean must be the same Fraction, the standard error the same float.
"""

from __future__ import annotations

import statistics
from fractions import Fraction

import numpy as np
import pytest

from coffeegames import rush
from coffeegames.errors import BadArgument, BadType, CoffeeGamesError, TooBig
from coffeegames.rush import Game, Phase


def decision(players: int, seed: int, turns: int) -> rush.State:
    """A move decision after ``turns`` seeded greedy decisions."""
    rng = np.random.default_rng(seed)
    s = Game(players=players).new_initial_state(seed=seed)
    done = 0
    while True:
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
            continue
        if s.phase in (Phase.UPGRADE, Phase.MOVE) and done >= turns:
            return s
        done += s.phase in (Phase.UPGRADE, Phase.MOVE)
        s = s.apply(rush.greedy_policy(s))


def best_after(state: rush.State, first: object) -> rush.Plan:
    """The first of the best plans starting with ``first``, from the unpruned listing."""
    starting = [p for p in rush.plans(state) if p.actions[0] == first]
    return max(starting, key=lambda p: p.key)  # max keeps the first of equals


def simulated(state: rush.State, plan: rush.Plan, samples: int, seed: int) -> list[int]:
    who = state.player
    for action in plan.actions:
        state = state.apply(action)
    values = []
    for i in range(samples):
        rng = np.random.default_rng([seed, i])
        s = state
        while not s.is_terminal() and (s.current_player() != who or s.phase not in (Phase.UPGRADE, Phase.MOVE)):
            s = s.apply(s.sample_chance(rng) if s.is_chance() else rush.greedy_policy(s))
        values.append(0 if s.is_terminal() else max(p.value for p in rush.plans(s)))
    return values


@pytest.mark.parametrize("players, seed, turns", [(2, 3, 2), (3, 5, 4)])
def test_the_next_turn_estimate_in_advice_is_the_stated_simulation(players: int, seed: int, turns: int) -> None:
    s = decision(players, seed, turns)
    rows = rush.advise(s, lookahead=3, samples=5, seed=7)
    assert all(row.exact for row in rows) and all(row.detail("next_turn") is None for row in rows[3:])
    for row in rows[:3]:
        plan = best_after(s, row.action)
        assert row.value == Fraction(plan.value) and isinstance(row.value, Fraction)  # the exact value stays exact
        values = simulated(s, plan, 5, 7)
        guess = row.detail("next_turn")
        assert guess.mean == Fraction(sum(values), 5) and guess.samples == 5
        assert guess.stderr == pytest.approx(statistics.stdev(values) / 5 ** 0.5)
        assert "greedy bot" in guess.model and "unseen deck" in guess.model and "seed 7" in row.detail("next_turn_how")
    plain = rush.advise(s)
    assert all(row.detail("next_turn") is None for row in plain)
    assert [row.value for row in plain] == [row.value for row in rows]


def test_advice_refuses_bad_budgets_by_name() -> None:
    s = decision(2, 3, 1)
    for kwargs, error, name in [({"lookahead": -1}, BadArgument, "lookahead"), ({"lookahead": 2.5}, BadType, "lookahead"),
                                ({"lookahead": 10**6}, TooBig, "lookahead"), ({"samples": 0}, BadArgument, "samples"),
                                ({"lookahead": 50, "samples": 1_000}, TooBig, "samples"),
                                ({"seed": None}, BadType, "seed"), ({"opponent": "greedy"}, BadType, "opponent")]:
        with pytest.raises(error, match=name):
            rush.advise(s, **kwargs)
    with pytest.raises(BadType, match="state"):
        rush.advise("not a state")


def test_the_estimate_states_its_model_and_is_seeded() -> None:
    s = decision(2, 3, 1)
    plan = rush.best_plan(s)
    one = rush.next_turn_estimate(s, plan, samples=4, seed=2)
    assert one == rush.next_turn_estimate(s, plan, samples=4, seed=2)
    assert "greedy bot" in one.model and one.model == rush.opponent_model(rush.greedy_policy)
    assert one.values == tuple(simulated(s, plan, 4, 2))
    with pytest.raises(BadType, match="plan"):
        rush.next_turn_estimate(s, "best", samples=2)
    with pytest.raises(TooBig, match="samples"):
        rush.next_turn_estimate(s, plan, samples=10**9)


@pytest.mark.parametrize("name", ["greedy_policy", "lookahead_policy"])
def test_the_bots_refuse_what_is_not_a_state(name: str) -> None:
    with pytest.raises(BadType, match="state"):
        getattr(rush, name)(None)
    with pytest.raises(CoffeeGamesError):
        rush.make_lookahead(0)
    with pytest.raises(BadType, match="plan"):
        rush.next_turn(decision(2, 3, 0), None)  # type: ignore[arg-type]
