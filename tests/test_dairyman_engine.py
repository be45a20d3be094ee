"""The Dairyman engine (docs/rules/dairyman.md) under the State contract: whole games, conservation,
replay, exact chance odds, errors, and one focused test per rule on a constructed state."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from conftest import edit_saved

from coffeegames.errors import BadArgument, BadType
from coffeegames.engine import IllegalAction, State as BaseState, Walkthrough, play
from coffeegames.dairyman import (
    STAND_IN_TILES,
    Bust,
    Discard,
    Drawn,
    EndTurn,
    Flip,
    Game,
    IceCream,
    Lock,
    Order,
    PlayerState,
    Roll,
    Rolled,
    Rules,
    State,
    Stop,
    Tile,
    greedy_policy,
    load_tiles,
    random_policy,
    tile_of,
)

# -- helpers -----------------------------------------------------------------------------


def position(game: Game, display: tuple[str, ...] = ("10:cheese1", "20:cheese5", "40:cheese6"), **players: dict) -> State:
    """Player 0 about to roll, with this display and hands (``p0={"milk": (...), "ice": 2}``); the rest is the deck.

    Tokens given to players come out of the supplies, so every count stays conserved.
    """
    start = game.new_initial_state().apply(Drawn(display))
    hands = [PlayerState(**{k: tuple(sorted(v)) if isinstance(v, (tuple, list)) else v for k, v in players.get(f"p{i}", {}).items()})
             for i in range(game.rules.players)]
    owned = Counter(c for h in hands for c in h.tiles)
    deck = tuple(sorted((Counter(start.deck[0]) - owned).elements()))
    state = replace(
        start,
        players=tuple(hands),
        deck=(deck,),
        ice_supply=start.ice_supply - sum(h.ice for h in hands),
        backorder_supply=start.backorder_supply - sum(h.backorders for h in hands),
    )
    return state.start_turn(0).check()


def census(state: State) -> None:
    """Count every component independently of State.check: 12 dice, all tiles, ice and backorder tokens."""
    rules = state.rules
    tiles = Counter(c for pile in state.deck for c in pile) + Counter(state.display) + Counter(state.discards)
    for p in state.players:
        tiles += Counter(p.milk) + Counter(p.cheese) + Counter(p.ice_cream)
    assert tiles == Counter(rules.tile_codes)
    assert state.ice_supply + sum(p.ice for p in state.players) == rules.ice_supply
    assert state.backorder_supply + sum(p.backorders for p in state.players) == rules.backorder_tokens
    assert min([state.ice_supply, state.backorder_supply] + [p.ice for p in state.players] + [p.backorders for p in state.players]) >= 0
    if state.phase in ("roll", "lock", "continue", "order"):
        locked = sum(len(s) for barn in state.barns for s in barn) - (state.yellow_at == "locked")
        white_red_in_play = len(state.dice) + state.rolling + locked
        assert state.red == min(state.players[state.turn].backorders, rules.red_dice_cap)
        assert white_red_in_play == 7 + state.red
        assert white_red_in_play + 1 + (4 - state.red) == 12  # + yellow + red dice left in the box
    else:
        assert state.dice == () and state.rolling == 0 and state.barns == ((), (), ())


def run_checked(game: Game, policy, seed: int, odds_checked: set) -> Walkthrough:
    """Play one game step by step, checking counts and the exact odds of its chance nodes.

    Roll nodes with the same dice rolling share one outcome list, and draw nodes with the
    same deck one draw law, so checking each distinct one once checks every node visited.
    """
    walk = Walkthrough(game.new_initial_state(), seed=seed)
    while not walk.state.is_terminal():
        state = walk.state
        census(state)
        state.check()
        if state.is_chance():
            key = (state.phase, state.rolling, state.rolls_yellow, state.deck if state.phase == "draw" else ())
            if key not in odds_checked:
                odds_checked.add(key)
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == 1
                assert len({o for o, _ in outcomes}) == len(outcomes)
                assert all(state.is_legal_outcome(o) for o, _ in outcomes[:50])
            walk.step()
        else:
            walk.step(policy(state))
    census(walk.state)
    return walk


# -- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_games_finish(players):
    game = Game(players=players)
    rand = play(game, random_policy(10 + players), n_games=30, seed=players, progress=False)
    mixed = play(game, [random_policy(players)] + [greedy_policy] * (players - 1), n_games=40, seed=players, progress=False)
    greedy = play(game, greedy_policy, n_games=100, seed=players, progress=False)
    for results in (greedy, mixed, rand):
        assert (results["moves"] > 0).all()
        assert all(len(w) >= 1 for w in results["winners"])
    # no more points than the tiles hold (values + cheese bonus), none below the backorder penalties
    totals = greedy[[f"player_{i}" for i in range(players)]].to_numpy()
    assert totals.sum(axis=1).max() <= sum(t.value for t in load_tiles()) + 22 * 5 and totals.min() >= -5 * 5


def test_games_conserve_components_replay_and_round_trip():
    odds_checked: set = set()
    for players, policy, seed in [
        (2, random_policy(1), 1),
        (2, greedy_policy, 5),
        (3, greedy_policy, 2),
        (3, random_policy(4), 4),
        (4, greedy_policy, 3),
        (4, random_policy(6), 6),
    ]:
        game = Game(players=players)
        walk = run_checked(game, policy, seed, odds_checked)
        # the same game from seed + move log, and from JSON
        again = Walkthrough.replay(game.new_initial_state(), walk.moves, seed)
        assert again.states == walk.states
        loaded = Walkthrough.from_json(walk.to_json(game), game.new_initial_state(), game.action_kinds, game)
        assert loaded.state == walk.state and loaded.moves == walk.moves
        for state in walk.states[:: max(1, len(walk.states) // 200)]:
            assert game.state_from_json(state.to_json()) == state
    assert len(odds_checked) > 30


def test_roll_odds_sum_to_one_for_big_rolls():
    game = Game(players=4)
    state = position(game, p0={"backorders": 4})
    assert state.rolling == 11 and state.rolls_yellow
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 4368 * 6
    assert sum(p for _, p in outcomes) == 1
    rng = np.random.default_rng(0)
    for _ in range(100):
        assert state.is_legal_outcome(state.sample_chance(rng))


def test_sampling_follows_the_exact_odds():
    rng = np.random.default_rng(1)
    state = position(Game())
    sampled = Counter(state.sample_chance(rng) for _ in range(6000))
    exact = dict(state.chance_outcomes())
    p_double_six = sum(p for o, p in exact.items() if o.dice.count(6) >= 2)
    assert abs(sum(n for o, n in sampled.items() if o.dice.count(6) >= 2) / 6000 - float(p_double_six)) < 0.02
    deal = Game().new_initial_state()
    drawn = Counter(t for _ in range(3000) for t in deal.sample_chance(rng).tiles)
    p_tile = sum(p for o, p in deal.chance_outcomes() if "10:cheese1" in o.tiles)
    assert p_tile == Fraction(3, 22) and abs(drawn["10:cheese1"] / 3000 - 3 / 22) < 0.02


def test_a_sampled_roll_is_numpys_draw_of_the_dice_then_the_yellow_die():
    """Seeded games depend on it: ``rolling`` dice from ``rng.integers(1, 7, size=rolling)``, then the yellow die
    from ``rng.integers(1, 7)``, and the generator left where those calls leave it (whatever its position)."""
    start = Game(players=2).new_initial_state(seed=0)
    for rolling in range(13):
        for yellow in (0, 4):  # 0: the yellow die rolls too
            state = replace(start, rolling=rolling, yellow=yellow)
            for skip in range(3):
                ours, numpys = np.random.default_rng([rolling, skip]), np.random.default_rng([rolling, skip])
                for g in (ours, numpys):
                    g.integers(1, 7, size=skip)  # start from different generator positions
                rolled = state.sample_chance(ours)
                dice = sorted(numpys.integers(1, 7, size=rolling).tolist())
                assert rolled == Rolled(dice, None if yellow else int(numpys.integers(1, 7)))
                assert ours.random() == numpys.random()


# -- errors --------------------------------------------------------------------------------


def test_illegal_action_names_the_legal_ones_and_changes_nothing():
    state = position(Game()).apply(Rolled((1, 2, 3, 4, 4, 6, 6), yellow=5))
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        state.apply(Lock(sets=((5, 5),)))
    assert "the legal actions are" in str(error.value) and "Lock(4+6)" in str(error.value)
    with pytest.raises(IllegalAction):
        state.apply(Stop())
    with pytest.raises(IllegalAction):
        state.apply(Rolled((1, 2), yellow=3))
    assert state.to_json() == before and state == Game().state_from_json(before)
    rolling = state.apply(Lock(((4, 6),))).apply(Roll())
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        rolling.apply(Rolled((1, 2), yellow=3))  # 5 white dice and the yellow one are rolling


def test_actions_are_normalised_and_readable():
    assert Lock(sets=((5, 3, 2), (6, 4))) == Lock(sets=((4, 6), (2, 3, 5)))
    assert str(Lock(sets=((4, 6), (2, 3, 5)))) == "Lock(4+6, 2+3+5)"
    assert str(Roll(freeze=(5,))) == "Roll(freeze=(5,))"
    assert str(Flip("30:cheese3")) == "Flip(30:cheese3 → cheese)"
    assert str(Order(("20:cheese5", "10:cheese1"))) == "Order(10:cheese1, 20:cheese5)"
    with pytest.raises(BadType, match="Lock.sets"):  # not a list: a wrong type (engine.actions.listed, every game)
        Lock(sets=5)
    with pytest.raises(BadArgument, match="Lock.sets"):
        Lock(sets=[(5, "x")])


def _saved(state: State, **changes) -> str:
    return edit_saved(state.to_json(), **changes)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"ice_supply": "x"}, "ice_supply"),
        ({"ice_supply": 19}, "ice_supply"),
        ({"players.1.ice": -1}, "players[1].ice"),
        ({"players.0.milk": ["50:cheese1"]}, "players[0].milk[0]"),
        ({"players.0.colour": "red"}, "players[0].colour"),
        ({"phase": "dance"}, "phase"),
        ({"dice": [1, 7]}, "dice"),
        ({"deck": [["10:cheese2"]]}, "deck"),
        ({"turn": 5}, "turn"),
        ({"barns": [[[1, 2]], [], []]}, "barns[0]"),
        ({"surprise": 1}, "surprise"),
        ({"yellow_at": KeyError}, "yellow_at"),
    ],
)
def test_malformed_saved_state_names_the_field(changes, field):
    state = position(Game()).apply(Rolled((1, 2, 3, 4, 4, 6, 6), yellow=5))
    with pytest.raises(ValueError) as error:
        Game().state_from_json(_saved(state, **changes))
    assert repr(field) in str(error.value)


def test_malformed_saved_game_is_rejected():
    game = Game()
    walk = Walkthrough(game.new_initial_state(), seed=0).run(greedy_policy, until=lambda s: len(s.players[0].milk) > 0)
    data = json.loads(walk.to_json(game))
    data["moves"][1] = {"type": "Rolled", "dice": [9], "yellow": 1}
    with pytest.raises(IllegalAction):
        Walkthrough.from_json(json.dumps(data), game.new_initial_state(), game.action_kinds, game)
    data["moves"][1] = {"type": "Lock", "sets": [[4, 6]], "colour": "red"}
    with pytest.raises(ValueError, match="colour"):
        Walkthrough.from_json(json.dumps(data), game.new_initial_state(), game.action_kinds, game)
    with pytest.raises(ValueError, match="format"):
        game.state_from_json(json.dumps({"state": {}}))
    with pytest.raises(ValueError, match="not valid JSON"):
        game.state_from_json("{")


# -- tile files and options -------------------------------------------------------------------


def test_stand_in_file_says_so_first():
    data = json.loads(STAND_IN_TILES.read_text())
    first_key = next(iter(data))
    assert first_key == "_comment" and "STAND-IN" in data[first_key] and data["stand_in"] is True
    tiles = load_tiles()
    assert len(tiles) == 22 and {t.value for t in tiles} <= {10, 20, 30, 40}
    assert all((t.cheese is None) != (t.snowflakes is None) for t in tiles)
    assert {t.ice_cream for t in tiles if t.snowflakes} == {"reroll_1s", "reroll_2s", "reroll_chosen"}
    assert Rules().stand_in_tiles


def _tile_file(tmp_path, tiles, **extra):
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps({"tiles": tiles, **extra}))
    return path


GOOD = [{"value": 10, "cheese": 1}] * 11 + [{"value": 20, "snowflakes": 2, "ice_cream": "reroll_2s"}] * 11


@pytest.mark.parametrize(
    ("tile", "field"),
    [
        ({"value": 25, "cheese": 1}, "value"),
        ({"cheese": 1}, "value"),
        ({"value": "10", "cheese": 1}, "value"),
        ({"value": 10, "cheese": 7}, "cheese"),
        ({"value": 10, "cheese": True}, "cheese"),
        ({"value": 10, "cheese": 1, "snowflakes": 2}, "cheese"),
        ({"value": 10}, "snowflakes"),
        ({"value": 10, "snowflakes": 2}, "ice_cream"),
        ({"value": 10, "snowflakes": 2, "ice_cream": "fly"}, "ice_cream"),
        ({"value": 10, "snowflakes": 0, "ice_cream": "reroll_1s"}, "snowflakes"),
        ({"value": 10, "cheese": 2, "colour": "blue"}, "colour"),
        ({"value": 10, "cheese": 2, "ice_cream": "reroll_1s"}, "ice_cream"),
    ],
)
def test_bad_tile_file_names_tile_and_field(tmp_path, tile, field):
    tiles = list(GOOD)
    tiles[3] = tile
    with pytest.raises(ValueError) as error:
        load_tiles(_tile_file(tmp_path, tiles))
    assert f"'tiles[3].{field}'" in str(error.value)


def test_tile_file_count_and_shape(tmp_path):
    assert len(load_tiles(_tile_file(tmp_path, GOOD))) == 22
    with pytest.raises(ValueError, match="21 tiles"):
        load_tiles(_tile_file(tmp_path, GOOD[:21]))
    assert len(load_tiles(_tile_file(tmp_path, GOOD[:5]), count=None)) == 5
    with pytest.raises(ValueError, match="'extra'"):
        load_tiles(_tile_file(tmp_path, GOOD, extra=1))
    bad = tmp_path / "bad.json"
    bad.write_text("[1,")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_tiles(bad)
    with pytest.raises(ValueError, match="cannot be read"):
        load_tiles(tmp_path / "missing.json")
    game = Game(tiles=str(_tile_file(tmp_path, GOOD)))
    assert game.rules.tile_codes.count("10:cheese1") == 11 and not game.rules.stand_in_tiles
    assert play(game, greedy_policy, n_games=3, seed=0, progress=False)["moves"].min() > 0


def test_tile_codes_round_trip():
    for tile in load_tiles():
        assert Tile.from_code(tile.code) == tile
    with pytest.raises(ValueError):
        tile_of("35:cheese1")
    with pytest.raises(ValueError):
        tile_of("10:cheese01")


@pytest.mark.parametrize(
    ("option", "value"),
    [("players", 5), ("ice_supply", -1), ("red_dice_cap", 5), ("backorder_supply", (3, 4)), ("tiebreak", ("coin",)),
     ("payoff", "money"), ("roll_without_ice_token", "yes"), ("display_size", 0)],
)
def test_bad_option_is_named(option, value):
    with pytest.raises(ValueError, match=repr(option)):
        Game(**{option: value})


def test_options_are_recorded_for_saving():
    game = Game(players=3, ice_supply=10)
    # the rules version is recorded from 2 on: a save naming none predates flip_after_order (Game.from_saved)
    assert game.options == {"players": 3, "ice_supply": 10, "rules_version": 2} and game.rules.flip_after_order
    assert repr(game) == "Game(players=3, ice_supply=10)"
    assert Game(flip_after_order=False).options == {"players": 2, "flip_after_order": False, "rules_version": 2}
    assert Game(rules_version=1).options == {"players": 2} and not Game(rules_version=1).rules.flip_after_order
    assert game.new_initial_state().ice_supply == 10 and game.rules.backorder_tokens == 4
    assert Game(players=2).rules.backorder_tokens == 3 and Game(players=4).rules.backorder_tokens == 5
    assert set(Rules().table()["kind"]) == {"Rule", "Fact", "Ruling", "Stand-in"}


# -- focused rules on constructed states ---------------------------------------------------------


def test_setup_deals_three_and_dice_are_eight_plus_red():
    game = Game(players=3)
    start = game.new_initial_state()
    assert start.is_chance() and start.deck_size == 22
    outcomes = start.chance_outcomes()
    assert len(outcomes) == 1540 and sum(p for _, p in outcomes) == 1  # C(22, 3) distinct tiles
    assert position(game).rolling == 7 and position(game).rolls_yellow
    assert position(game, p0={"backorders": 2}).rolling == 9
    assert position(Game(players=4, red_dice_cap=1), p0={"backorders": 3}).rolling == 8


def test_lock_goes_to_the_barn_of_its_roll():
    state = position(Game()).apply(Rolled((4, 6, 1, 1, 1, 1, 1), yellow=2)).apply(Lock(((4, 6),)))
    assert state.barns == (((4, 6),), (), ()) and state.dice == (1, 1, 1, 1, 1)
    state = state.apply(Roll())
    assert state.roll == 2 and state.rolling == 5 and state.rolls_yellow  # every unlocked die rolls, yellow too
    state = state.apply(Rolled((2, 3, 5, 1, 1), yellow=5)).apply(Lock(((2, 3, 5),)))
    state = state.apply(Roll()).apply(Rolled((4, 6), yellow=3)).apply(Lock(((4, 6),)))
    assert state.barns == (((4, 6),), ((2, 3, 5),), ((4, 6),)) and state.roll == 3
    busted = state.apply(Roll()).apply(Rolled((), yellow=4))
    assert busted.phase == "roll" and busted.turn == 1  # one die makes no set: bust
    state = position(Game()).apply(Rolled((4, 6, 4, 6, 4, 6, 1), yellow=2))
    for roll, outcome in enumerate([(4, 6, 4, 6, 1), (4, 6, 1)], start=2):
        state = state.apply(Lock(((4, 6),))).apply(Roll()).apply(Rolled(outcome, yellow=2))
    state = state.apply(Lock(((4, 6),))).apply(Roll()).apply(Rolled((5,), yellow=5)).apply(Lock(((5, 5),), yellow=True))
    assert state.roll == 4 and state.barns == (((4, 6),), ((4, 6),), ((4, 6), (5, 5)))  # roll 3 and later: barn 3


def test_yellow_die_stays_distinguishable_in_locks():
    state = position(Game()).apply(Rolled((4, 6, 1, 1, 1, 1, 1), yellow=6))
    locks = [a for a in state.legal_actions() if isinstance(a, Lock)]
    assert Lock(((4, 6),), yellow=False) in locks and Lock(((4, 6),), yellow=True) in locks
    after = state.apply(Lock(((4, 6),), yellow=True))
    assert after.yellow_at == "locked" and after.dice == (1, 1, 1, 1, 1, 6)


def test_bust_takes_a_token_loses_the_sets_and_passes_the_turn():
    state = position(Game(), display=("30:cheese3", "30:cheese4", "40:cheese6"))
    state = state.apply(Rolled((4, 6, 1, 1, 1, 1, 1), yellow=1)).apply(Lock(((4, 6),))).apply(Roll())
    busted = state.apply(Rolled((1, 1, 1, 1, 2), yellow=2))  # no set, nothing else to try: bust at once
    assert busted.players[0].backorders == 1 and busted.backorder_supply == 2
    assert busted.turn == 1 and busted.phase == "roll" and busted.barns == ((), (), ())
    assert busted.display == state.display and busted.players[0].milk == ()
    census(busted)


def test_bust_with_an_ability_left_is_a_choice():
    state = position(Game(), p0={"ice_cream": ("20:ice1:1s",)})
    state = state.apply(Rolled((1, 1, 1, 1, 2, 2, 2), yellow=2))
    assert [str(a) for a in state.legal_actions()] == ["IceCream(reroll all 1s: 1s)", "Bust()"]
    assert state.apply(Bust()).players[0].backorders == 1


def test_backorder_phase_returns_tokens_and_most_holders_discard():
    game = Game(players=3)
    state = position(
        game,
        display=("10:cheese1", "10:cheese2", "20:cheese5"),
        p0={"milk": ("40:cheese6", "10:cheese3"), "backorders": 1},
        p1={"milk": ("30:cheese3", "20:cheese6"), "cheese": ("30:cheese4",), "backorders": 2},
        p2={"milk": ("40:ice3:chosen",), "backorders": 0},
    )
    assert state.backorder_supply == 1
    after = state.apply(Rolled((1, 1, 1, 1, 2, 2, 2, 2), yellow=1))  # p0 busts with the last token: 2 and 2
    census(after)
    assert after.backorder_supply == 4 and all(p.backorders == 0 for p in after.players)
    assert after.players[0].milk == ("10:cheese3",)  # highest unflipped tile gone
    assert after.players[1].milk == ("20:cheese6",) and after.players[1].cheese == ("30:cheese4",)  # flipped tiles stay
    assert after.players[2].milk == ("40:ice3:chosen",)
    assert after.phase == "draw" and after.turn == 1 and after.display == ()
    assert after.deck[-1] == tuple(sorted(state.display + ("40:cheese6", "30:cheese3")))
    # the new display comes from the old deck first
    assert all(set(d.tiles) <= set(after.deck[0]) for d, _ in after.chance_outcomes())


def test_backorder_discard_choice_between_equal_values():
    game = Game(players=2)
    state = position(game, ("10:cheese1", "20:cheese5", "30:cheese3"), p0={"milk": ("40:cheese6", "40:ice3:2s"), "backorders": 2})
    after = state.apply(Rolled((1, 1, 1, 1, 1, 2, 2, 2, 2), yellow=1))
    assert after.phase == "discard" and after.current_player() == 0
    assert after.legal_actions() == [Discard("40:cheese6"), Discard("40:ice3:2s")]
    done = after.apply(Discard("40:ice3:2s"))
    assert done.players[0].milk == ("40:cheese6",) and done.phase == "draw" and done.turn == 1
    census(done)


def test_draws_span_deck_piles_exactly():
    game = Game(players=2)
    state = position(game, p0={"milk": ("30:cheese5",), "backorders": 2})
    top = state.deck[0]
    state = replace(state, deck=(top[:1], top[1:]))  # one tile left on the old deck, the rest under it
    after = state.apply(Rolled((1, 1, 1, 1, 1, 2, 2, 2, 2), yellow=1))
    outcomes = after.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    assert all(top[0] in d.tiles for d, _ in outcomes)
    assert after.apply(outcomes[0][0]).deck_size == after.deck_size - 3


def test_ice_token_before_third_and_later_rolls():
    state = position(Game(), display=("30:cheese3", "30:cheese4", "40:cheese6"))
    state = state.apply(Rolled((4, 6, 1, 2, 2, 3, 3), yellow=1)).apply(Lock(((4, 6),)))
    second = state.apply(Roll())
    assert second.players[0].ice == 0 and second.roll == 2
    locked = second.apply(Rolled((2, 3, 5, 1, 1), yellow=1)).apply(Lock(((2, 3, 5),)))
    third = locked.apply(Roll())
    assert third.players[0].ice == 1 and third.ice_supply == 19 and third.roll == 3
    # the token just taken can freeze a die of that roll
    assert Roll(freeze=(1,)) in locked.legal_actions() and Roll(freeze=(1, 1)) not in locked.legal_actions()
    # none left, none taken (Ruling) ...
    empty = replace(locked, ice_supply=0, players=(replace(locked.players[0], ice=20), locked.players[1]))
    assert empty.apply(Roll()).players[0].ice == 20
    # ... or, under the other ruling, no such roll
    strict = replace(empty, rules=Rules(roll_without_ice_token=False))
    assert [str(a) for a in strict.legal_actions()] == ["Stop()"]
    # the roll that earns tokens is a rule parameter
    early = replace(state, rules=Rules(ice_token_from_roll=2)).apply(Roll())
    assert early.players[0].ice == 1


def test_freeze_keeps_a_die_and_returns_the_token():
    state = position(Game(), p0={"ice": 2})
    state = state.apply(Rolled((4, 6, 5, 1, 1, 1, 2), yellow=3)).apply(Lock(((4, 6),)))
    legal = state.legal_actions()
    assert Roll(freeze=(5,), freeze_yellow=True) in legal and Roll(freeze=(1, 1, 5)) not in legal
    rolled = state.apply(Roll(freeze=(5,), freeze_yellow=True))
    assert rolled.dice == (5,) and rolled.rolling == 4 and rolled.yellow == 3 and not rolled.rolls_yellow
    assert rolled.players[0].ice == 0 and rolled.ice_supply == 20
    after = rolled.apply(Rolled((1, 1, 2, 5), None))
    assert after.dice == (1, 1, 2, 5, 5) and after.yellow == 3
    census(after)


def test_cheese_flip_uses_the_unlocked_yellow_die_then_sets_it_aside():
    game = Game()
    state = position(game, p0={"milk": ("30:cheese3", "20:cheese6")}).apply(Rolled((4, 6, 1, 1, 2, 2, 5), yellow=3))
    assert Flip("30:cheese3") in state.legal_actions() and Flip("20:cheese6") not in state.legal_actions()
    flipped = state.apply(Flip("30:cheese3"))
    assert flipped.players[0].cheese == ("30:cheese3",) and flipped.yellow_at == "aside"
    assert all(not a.yellow for a in flipped.legal_actions() if isinstance(a, Lock))
    assert Lock(((2, 3, 5),)) not in flipped.legal_actions()  # the yellow 3 is no longer there
    assert flipped.score(0) == 30 + 5 + 20
    # a yellow die already locked in a set cannot make cheese (Ruling) unless the option says so
    locked = state.apply(Lock(((4, 6), (2, 3, 5)), yellow=True))
    assert Flip("30:cheese3") not in locked.legal_actions()
    lenient = replace(locked, rules=Rules(cheese_from_locked_yellow=True))
    assert Flip("30:cheese3") in lenient.legal_actions()
    after = lenient.apply(Flip("30:cheese3"))
    assert after.yellow_at == "locked" and after.cheese_made and after.sets_locked == 2


def test_cheese_flip_that_removes_the_only_set_busts():
    state = position(Game(), p0={"milk": ("30:cheese3",)}).apply(Rolled((2, 5, 1, 1, 1, 1, 1), yellow=3))
    busted = state.apply(Flip("30:cheese3"))
    assert busted.players[0].cheese == ("30:cheese3",) and busted.players[0].backorders == 1 and busted.turn == 1


def test_ice_cream_flip_and_abilities_once_per_turn():
    state = position(Game(), p0={"milk": ("30:ice2:1s",), "ice_cream": ("10:ice2:chosen",), "ice": 2})
    state = state.apply(Rolled((4, 6, 1, 1, 2, 3, 3), yellow=1))
    assert IceCream("reroll_1s", 1) not in state.legal_actions()
    flipped = state.apply(Flip("30:ice2:1s"))
    assert flipped.players[0].ice == 0 and flipped.ice_supply == 20 and flipped.players[0].ice_cream == ("10:ice2:chosen", "30:ice2:1s")
    legal = flipped.legal_actions()
    assert IceCream("reroll_1s", 1) in legal and IceCream("reroll_chosen", 3) in legal and IceCream("reroll_chosen", 5) not in legal
    rerolling = flipped.apply(IceCream("reroll_1s", 1))
    assert rerolling.dice == (2, 3, 3, 4, 6) and rerolling.rolling == 2 and rerolling.rolls_yellow and rerolling.roll == 1
    after = rerolling.apply(Rolled((1, 5), yellow=6))
    assert after.phase == "lock" and after.dice == (1, 2, 3, 3, 4, 5, 6)
    assert IceCream("reroll_1s", 1) not in after.legal_actions()  # used this turn
    assert IceCream("reroll_chosen", 5) in after.legal_actions()
    # not after locking
    assert not any(isinstance(a, IceCream) for a in after.apply(Lock(((4, 6),))).legal_actions())


def test_ice_cream_uses_per_tile_or_per_ability():
    hand = {"ice_cream": ("20:ice1:1s", "30:ice2:1s")}
    for per_tile, uses in ((True, 2), (False, 1)):
        state = position(Game(ice_cream_once_per_tile=per_tile), p0=hand).apply(Rolled((4, 6, 1, 1, 2, 3, 3), yellow=2))
        for _ in range(uses):
            state = state.apply(IceCream("reroll_1s", 1)).apply(Rolled((1, 1), None))
        assert IceCream("reroll_1s", 1) not in state.legal_actions()


def test_ordering_limits_refill_and_game_end():
    game = Game()
    state = position(game).apply(Rolled((4, 6, 2, 3, 5, 1, 1), yellow=1))
    state = state.apply(Lock(((4, 6), (2, 3, 5)))).apply(Stop())
    assert state.barn_value == 20
    assert state.legal_actions() == [Order(()), Order(("10:cheese1",)), Order(("20:cheese5",))]
    bought = state.apply(Order(("20:cheese5",)))
    assert bought.players[0].milk == ("20:cheese5",) and bought.phase == "draw" and bought.turn == 1
    assert all(len(d.tiles) == 1 for d, _ in bought.chance_outcomes())
    census(bought)
    # one tile left in the deck: one bought tile can be replaced; two cannot, and the game ends at once
    deck = state.deck[0]
    short = replace(state, deck=(deck[:1],), players=(state.players[0], replace(state.players[1], milk=deck[1:])))
    census(short)
    refilled = short.apply(Order(("20:cheese5",)))
    assert refilled.phase == "draw" and refilled.apply(Drawn(deck[:1])).phase == "roll"
    ordered = replace(short, rules=Rules(set_value=15)).apply(Order(("10:cheese1", "20:cheese5")))
    # the unlocked yellow 1 may still flip the bought 10:cheese1 (option flip_after_order); the game ends with the turn
    assert ordered.ordered and ordered.legal_actions() == [Flip("10:cheese1"), EndTurn()]
    over = ordered.apply(EndTurn())
    assert over.is_terminal() and over.returns() == over.scores() and over.display == ("40:cheese6",)
    census(over)
    flipped = ordered.apply(Flip("10:cheese1"))
    assert flipped.is_terminal() and flipped.scores()[0] == over.scores()[0] + 5


def test_scoring_and_ties():
    game = Game(players=3)
    state = position(
        game,
        ("10:cheese1", "10:cheese3", "20:cheese6"),
        p0={"milk": ("20:cheese5",), "cheese": ("30:cheese4",), "ice_cream": ("20:ice1:1s",), "backorders": 1},
        p1={"milk": ("40:cheese6", "30:cheese3")},
        p2={"milk": ("40:ice3:2s", "20:cheese1"), "cheese": ("10:cheese2",), "backorders": 1},
    )
    assert state.scores() == (70, 70, 70)  # 20+30+20 +5 -5; 40+30; 40+20+10 +5 -5
    assert state.winners() == (0, 1, 2)  # Ruling: shared victory
    assert replace(state, rules=Rules(players=3, tiebreak=("fewest_backorders",))).winners() == (1,)
    assert replace(state, rules=Rules(players=3, tiebreak=("most_tiles",))).winners() == (0, 2)
    assert replace(state, rules=Rules(players=3, payoff="win")).returns() == (1, 1, 1)
    assert replace(state, rules=Rules(players=3, ice_cream_points=5)).score(0) == 75


def test_state_contract_basics():
    game = Game()
    state = game.new_initial_state()
    assert isinstance(state, BaseState) and hash(state) == hash(game.new_initial_state())
    assert game.name == "dairyman" and Rolled in game.action_kinds
    dealt = game.new_initial_state(seed=3)
    assert dealt.is_chance() and len(dealt.display) == 3
    assert "player 0" in str(position(game).apply(Rolled((4, 6, 1, 1, 1, 1, 1), yellow=1)))
    assert isinstance(sum(p for _, p in dealt.chance_outcomes()), Fraction)


# -- the package's shape ----------------------------------------------------------------------


def test_errors_are_the_library_classes(tmp_path):
    from coffeegames.errors import BadArgument, BadData, BadType
    from coffeegames.dairyman import check_roll

    tiles = list(GOOD)
    tiles[3] = {"value": 25, "cheese": 1}
    with pytest.raises(BadData, match=r"field 'tiles\[3\]\.value': must be one of 10, 20, 30, 40; got 25"):
        load_tiles(_tile_file(tmp_path, tiles))
    with pytest.raises(BadArgument, match="argument 'players': must be 2, 3 or 4; got 5"):
        Rules(players=5)
    with pytest.raises(BadArgument, match=r"tiles\[0\]\.cheese"):
        Rules(tiles=[{"value": 10, "cheese": 9}], tile_count=None)
    with pytest.raises(BadData, match="saved state: field 'ice_supply'"):
        Game().state_from_json(_saved(position(Game()), ice_supply=3))
    with pytest.raises(BadType, match="list of die values"):
        check_roll("4 6")


def test_phases_are_a_str_enum_saved_as_text():
    from coffeegames.dairyman import Phase

    state = position(Game())
    assert state.phase is Phase.ROLL and state.phase == "roll"
    assert json.loads(state.to_json())["state"]["phase"] == "roll"
    assert Game().state_from_json(state.to_json()).phase is Phase.ROLL
    assert [str(p) for p in Phase] == ["draw", "roll", "lock", "continue", "order", "discard", "over"]


def test_the_bust_rule_is_one_function():
    from coffeegames.dairyman import counts_of, is_bust

    state = position(Game(), p0={"ice_cream": ("20:ice1:1s",)}).apply(Rolled((1, 1, 1, 1, 2, 2, 2), yellow=2))
    assert state.busted and is_bust(counts_of(state.unlocked)) and Bust() in state.legal_actions()
    rolled = position(Game()).apply(Rolled((4, 6, 1, 1, 1, 1, 1), yellow=2))
    assert not rolled.busted and Bust() not in rolled.legal_actions()


def test_rules_do_not_depend_on_the_calculators():
    import ast
    from pathlib import Path

    import coffeegames.dairyman.rules as rules_module

    tree = ast.parse(Path(rules_module.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"odds", "turn", "advice", "policy", "state"}


def test_lock_actions_are_the_packings_found_by_position():
    """Every legal lock from white/red dice and the yellow die, against packings found by choosing dice by position:
    a lock without the yellow die fits the other dice; a lock with it uses a die of the yellow's value."""
    from itertools import combinations_with_replacement

    from conftest import naive_packings

    from coffeegames.dairyman import lock_actions

    for n in range(6):
        for dice in combinations_with_replacement(range(1, 7), n):
            for yellow in range(7):
                expected = {(p, False) for p in naive_packings(dice) if p}
                if yellow:
                    expected |= {(p, True) for p in naive_packings(dice + (yellow,)) if p and any(yellow in s for s in p)}
                locks = lock_actions(dice, yellow)
                assert {(tuple(sorted(a.sets)), a.yellow) for a in locks} == expected
                assert len(set(locks)) == len(locks) and all(a == Lock(a.sets, a.yellow) for a in locks)
                used = [sum(map(len, a.sets)) for a in locks]
                assert used == sorted(used, reverse=True)  # most dice first

