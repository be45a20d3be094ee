"""Saves made before the options ``flip_after_order`` / ``optional_actions_before_bust`` existed.

The fixtures in ``tests/data`` were written by the code of commit 204821d (see
``tests/data/README.md``): a whole greedy game of 2 players, its last position, and the
position before move 4, an order after which today's rules would let the player flip the
bought ``10:cheese4`` with the unlocked yellow 4.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coffeegames.dairyman import EndTurn, Flip, Game, Order, Phase, greedy_policy
from coffeegames.engine import IllegalAction, Walkthrough
from coffeegames.errors import BadData

DATA = Path(__file__).parent / "data"
OLD_WALK = (DATA / "dairyman_walkthrough_v1.json").read_text()
OLD_END = (DATA / "dairyman_walkthrough_v1_end.json").read_text()
OLD_STATE = (DATA / "dairyman_state_v1.json").read_text()


def load(text: str, game: Game) -> Walkthrough:
    return Walkthrough.from_json(text, game.new_initial_state(), game.action_kinds, game)


def test_an_old_walkthrough_loads_and_replays_as_it_was_played():
    assert json.loads(OLD_WALK)["options"] == {"players": 2}  # no flip_after_order: made before it existed
    game = Game.from_saved(OLD_WALK)
    assert not game.rules.flip_after_order and game.rules.optional_actions_before_bust
    assert game.options == {"players": 2} and repr(game) == "Game(players=2, rules_version=1)"
    walk = load(OLD_WALK, game)
    assert walk.state == game.state_from_json(OLD_END) and walk.state.is_terminal()
    assert walk.state.scores() == (260, 170)
    # move 4 ordered 10:cheese4 with the yellow 4 unlocked; the turn ended there, unflipped
    assert walk.moves[4] == Order(("10:cheese2", "10:cheese4")) and walk.states[5].phase == Phase.DRAW
    assert walk.states[5].players[0].milk == ("10:cheese2", "10:cheese4")
    # saved again, it is still an old game, and loads the same way
    again = walk.to_json(game)
    assert json.loads(again)["options"] == {"players": 2}
    assert load(again, Game.from_saved(again)).state == walk.state


def test_an_old_walkthrough_under_todays_rules_is_refused_saying_why():
    with pytest.raises(BadData, match="field 'options': the game was saved under other options"):
        load(OLD_WALK, Game(players=2))
    # the same moves under today's rules: after move 4 the flip is still open, so the logged draw cannot come yet
    moves = Walkthrough.from_json(OLD_WALK, Game.from_saved(OLD_WALK).new_initial_state(), Game().action_kinds).moves
    with pytest.raises(IllegalAction, match=r"the legal actions are: Flip\(10:cheese4 → cheese\), EndTurn\(\)"):
        Walkthrough.replay(Game(players=2).new_initial_state(), moves, seed=3)


def test_a_new_walkthrough_records_the_option_and_loads_with_it():
    for flag in (True, False):
        game = Game(players=2, flip_after_order=flag)
        walk = Walkthrough(game.new_initial_state(), seed=3).run(greedy_policy)
        text = walk.to_json(game)
        assert json.loads(text)["options"] == {"players": 2, "flip_after_order": flag, "rules_version": 2}
        loaded_game = Game.from_saved(text)
        assert loaded_game.rules.flip_after_order is flag and loaded_game.options == game.options
        assert load(text, loaded_game).state == walk.state
    # today's greedy game of the old fixture's seed takes the flip the old rules did not allow
    today = Walkthrough(Game(players=2).new_initial_state(), seed=3).run(greedy_policy)
    assert today.moves[4] == Order(("10:cheese2", "10:cheese4")) and today.moves[5] == Flip("10:cheese4")


def test_from_saved_needs_the_options_and_the_game():
    bare = json.dumps({"format": "coffeegames-walkthrough/1", "game": "dairyman", "options": None, "seed": 1, "moves": []})
    with pytest.raises(BadData, match="field 'options': this save records no options"):
        Game.from_saved(bare)
    other = json.dumps({"format": "coffeegames-walkthrough/1", "game": "vivajava", "options": {"players": 2}, "moves": []})
    with pytest.raises(BadData, match="field 'game'"):
        Game.from_saved(other)
    assert Game.from_saved({"players": 3, "ice_supply": 10}).rules.ice_supply == 10  # an options dict works too


def test_an_old_saved_state_loads_and_plays_on_under_the_game_it_is_loaded_with():
    assert json.loads(OLD_STATE)["format"] == "coffeegames-dairyman-state/1" and "ordered" not in OLD_STATE
    state = Game().state_from_json(OLD_STATE)
    assert state.phase == Phase.ORDER and not state.ordered and state.yellow == 4 and state.barn_value == 20
    order = Order(("10:cheese2", "10:cheese4"))
    assert state.apply(order).legal_actions() == [Flip("10:cheese4"), EndTurn()]
    old = Game(flip_after_order=False).state_from_json(OLD_STATE)
    assert old.apply(order).phase == Phase.DRAW and old.apply(order).turn == 1
    # saved again in today's format, with the new field
    saved = json.loads(state.to_json())
    assert saved["format"] == "coffeegames-dairyman-state/2" and saved["state"]["ordered"] is False
    assert Game().state_from_json(state.to_json()) == state


def test_a_position_past_its_order_is_refused_by_a_game_where_ordering_ends_the_turn():
    ordered = Game().state_from_json(OLD_STATE).apply(Order(("10:cheese2", "10:cheese4")))
    assert ordered.ordered and Game().state_from_json(ordered.to_json()) == ordered
    with pytest.raises(BadData, match="field 'ordered'.*flip_after_order=False"):
        Game(flip_after_order=False).state_from_json(ordered.to_json())
    data = json.loads(ordered.to_json())
    data["state"]["phase"] = "continue"
    with pytest.raises(BadData, match="field 'ordered'"):
        Game().state_from_json(json.dumps(data))
