"""Advice at Dairyman decisions: values against brute force over ordered rolls."""

from fractions import Fraction
from itertools import product

import pytest
from conftest import naive_packings

from coffeegames.engine import advice_frame
from coffeegames import dairyman
from coffeegames.dairyman import Drawn, Game, Lock, Rolled, advise


def brute_roll_value(turn, dice_left, sets_locked, kept):
    """Average over every ordered roll of the free dice of the best lock's value (or the bust)."""
    rolling = dice_left - len(kept)
    total = Fraction(0)
    for r in product(range(1, 7), repeat=rolling):
        packs = naive_packings(tuple(kept) + r) - {()}
        if not packs:
            total -= turn.bust_cost
        else:
            total += max(turn.best_value(dice_left - sum(map(len, p)), sets_locked + len(p)) for p in packs)
    return total / 6**rolling


@pytest.mark.parametrize("dice_left, sets_locked, kept", [(3, 1, [5]), (4, 1, [4, 6]), (5, 2, [1]), (4, 1, []), (2, 3, [5])])
def test_roll_value_kept_matches_brute_force(dice_left, sets_locked, kept):
    turn = dairyman.optimal_turn(8, points_per_set=10, bust_cost=5)
    assert turn.roll_value_kept(dice_left, sets_locked, kept) == brute_roll_value(turn, dice_left, sets_locked, kept)


def test_roll_value_kept_rejects_too_many_kept_dice():
    with pytest.raises(ValueError, match="only 1 dice left"):
        dairyman.optimal_turn(8, points_per_set=1, bust_cost=0).roll_value_kept(1, 1, kept=[5, 5])


def opening(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5):
    s = Game().new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
    return s.apply(Rolled(dice=dice, yellow=yellow))


def test_advice_lists_every_legal_action_with_exact_values():
    s = opening()
    table = advice_frame(advise(s, max_states=0))  # the plain turn (the whole turn: tests/test_dairyman_whole_turn.py)
    assert sorted(map(repr, table["action"])) == sorted(map(repr, s.legal_actions()))
    assert list(table["value"]) == sorted(table["value"], reverse=True)  # best first
    turn = dairyman.optimal_turn(12, points_per_set=10, bust_cost=5)
    for action, value, p in zip(table["action"], table["value"], table["risk"]):
        assert isinstance(action, Lock)
        d = 8 - sum(map(len, action.sets))
        assert value == turn.best_value(d, len(action.sets))
        assert p == dairyman.p_bust(d)
    assert table["best"].sum() >= 1
    assert table.loc[table["best"], "value"].iloc[0] == max(table["value"])


def test_advice_after_a_lock_compares_stop_and_rolls():
    s = opening().apply(Lock(sets=((4, 6),)))
    table = advice_frame(advise(s, max_states=0)).set_index("label")
    assert table.loc["Stop()", "value"] == 10
    assert table.loc["Roll()", "value"] == dairyman.optimal_turn(8, 10, 5).roll_value(6, 1)
    assert table.loc["Roll()", "risk"] == dairyman.p_bust(6)
    assert table.loc["Roll()", "best"]
