"""Completing an order is the player's choice (issue 28), written from the rulebook's step 4:

    "4. 주문 처리 (선택) — 컵과 주문 카드가 정확히 맞으면 처리합니다."
    (4. Processing orders (optional): when a cup and an order card match exactly, you process it.)

Rules version 2 follows it (option ``completion="choice"``); version 1, which every save naming no
version was played under, completed every matching cup (``completion="forced"``). The best plan is
checked by walking the engine itself (public ``legal_actions`` / ``apply``), under both rules.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from coffeegames import rush
from coffeegames.errors import IllegalAction
from coffeegames.rush import Complete, Drawn, Game, Move, Phase, Place, Pour

SMALL_BOARD = {"rows": [["coffee", "milk", "ice"], ["milk", "tea", "coffee"], ["ice", "coffee", "milk"]], "specialty": ["tea"]}
SMALL_ORDERS = {"orders": [
    {"needs": ["coffee", "milk"], "cards": 6}, {"needs": ["coffee", "ice"], "cards": 4}, {"needs": ["milk", "tea"], "cards": 3},
    {"needs": ["coffee", "coffee", "milk"], "cards": 3}, {"needs": ["ice", "milk", "tea"], "cards": 2},
]}
DECISIONS = (Phase.UPGRADE, Phase.MOVE, Phase.EMPTY, Phase.POUR, Phase.COMPLETE)


def matched(completion: str) -> rush.State:
    """Player 0 has poured coffee+milk into cup 1 with a coffee+milk order waiting on tab 1."""
    s = Game(players=3, completion=completion).new_initial_state()
    for order in ["coffee+milk", "coffee+ice", "milk+steam", "coffee+milk", "ice+tea", "coffee+coffee", "milk+tea"]:
        s = s.apply(Drawn(order))
    for space in (15, 10, 0):
        s = s.apply(Place(space))
    return s.apply(Move(0, (1,), 0)).apply(rush.Empty(())).apply(Pour((("milk",), (), ())))


def test_a_matching_cup_may_complete_its_order_or_not() -> None:
    s = matched("choice")
    assert s.phase == Phase.COMPLETE and s.player == 0
    assert set(s.legal_actions()) == {Complete((0,)), Complete(())}
    done, kept = s.apply(Complete((0,))), s.apply(Complete(()))
    assert done.players[0].completed == ("coffee+milk",) and done.players[0].cups[0] == ()
    assert done.deals == ((1, 0), (2, 0))  # Too Many Orders: one order each to the two on the left
    assert kept.players[0].completed == () and kept.players[0].cups[0] == ("coffee", "milk")
    assert "coffee+milk" in kept.players[0].tabs[1]  # still waiting, one tab down after Flow of Time
    assert kept.player == 1 and kept.deck_left == s.deck_left  # no order dealt to anyone
    before = s.to_json()
    for bad in (Complete((1,)), Complete((0, 0)), Complete((2,))):  # cups 2 and 3 are empty: nothing to complete
        with pytest.raises(IllegalAction):
            s.apply(bad)
    assert s.to_json() == before


def test_version_1_and_the_forced_option_complete_every_matching_cup() -> None:
    assert Game().rules.completion == "choice" and Game().rules.rules_version == 2
    assert Game(rules_version=1).rules.completion == "forced"
    s = matched("forced")
    assert s.phase == Phase.RUSH_ORDERS and s.players[0].completed == ("coffee+milk",)
    assert matched("forced").players[0] == matched("choice").apply(Complete((0,))).players[0]


def turn_ends(state: rush.State) -> dict[tuple, int]:
    """Every action sequence ending the player's turn → the change in their score, walking the engine (chance: the
    first card listed)."""
    who, start, found = state.player, state.scores[state.player], {}

    def walk(s: rush.State, done: tuple) -> None:
        if s.phase in DECISIONS and s.player == who and not s.is_chance() and (not done or s.phase != Phase.UPGRADE):
            for action in s.legal_actions():
                walk(s.apply(action), (*done, action))
            return
        while s.is_chance():
            s = s.apply(s.chance_outcomes()[0][0])
        found[done] = s.scores[who] - start

    walk(state, ())
    return found


def pour_positions(seed: int) -> list[rush.State]:
    """Positions of a seeded random game (completion a choice) at a pour decision."""
    game = Game(players=3, board=SMALL_BOARD, orders=SMALL_ORDERS, rush_per_turn=0)
    rng, s, found = np.random.default_rng(seed), game.new_initial_state(seed=seed), []
    while not s.is_terminal() and len(found) < 6:
        if s.phase == Phase.POUR:
            found.append(s)
        s = s.apply(s.sample_chance(rng)) if s.is_chance() else s.apply(rush.greedy_policy(s) if rng.random() < 0.7
                                                                        else s.legal_actions()[int(rng.integers(len(s.legal_actions())))])
    return found


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_best_plan_with_a_choice_is_the_best_over_every_set_of_cups_completed(seed: int) -> None:
    asked = 0
    for s in pour_positions(seed):
        forced = replace(s, rules=replace(s.rules, completion="forced"))
        choice_ends, forced_ends = turn_ends(s), turn_ends(forced)
        # for each pour: the best over every set of cups completed (completing nothing included) is what forcing gives
        for pour in s.legal_actions():
            after = s.apply(pour)
            subsets = {seq: v for seq, v in choice_ends.items() if seq[0] == pour}
            if after.phase == Phase.COMPLETE:
                asked += 1
                assert len(subsets) == len(after.legal_actions()) >= 2
            assert max(subsets.values()) == forced_ends[(pour,)]
        best, best_forced = rush.best_plan(s), rush.best_plan(forced)
        assert best.value == max(choice_ends.values()) >= best_forced.value == max(forced_ends.values())
        assert choice_ends[best.actions] == best.value
    assert asked >= 1
