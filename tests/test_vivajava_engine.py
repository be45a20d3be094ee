"""The VivaJava dice-game engine (docs/rules/vivajava.md) under the State contract: whole games (2-4 players
and solo against each corporation), conservation, replay, exact chance odds, errors, and one
focused test per rule on a constructed state."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from conftest import edit_saved

import coffeegames.vivajava.state as vivajava_state
from coffeegames.engine import IllegalAction, State as BaseState, Walkthrough, play
from coffeegames.errors import TooBig
from coffeegames.vivajava import (
    ABILITIES,
    CACHED_OUTCOMES,
    COFFEE_DICE,
    FLAVOUR_DICE,
    NO_BLEND,
    STAND_IN_DATA,
    TRACK_COLOURS,
    Blend,
    Boost,
    Decline,
    Degrade,
    Featured,
    Flip,
    GainToken,
    Game,
    Keep,
    KeepRolling,
    PlayerState,
    Rainbow,
    Reroll,
    Research,
    Rolled,
    Rules,
    SetupResearch,
    State,
    TakeFlavour,
    Upgrade,
    data_from_dict,
    greedy_policy,
    load_data,
    random_policy,
    roll_outcome_count,
    roll_outcomes,
)

# -- helpers -----------------------------------------------------------------------------


def sheet(pp: int = 0, flavour: int = 0, **marks: int) -> PlayerState:
    """A score sheet: ``sheet(pp=3, flavour=1, red=2, tokens_green=1)``."""
    research = tuple(marks.get(c, 0) for c in TRACK_COLOURS)
    tokens = tuple(marks.get(f"tokens_{c}", 0) for c in TRACK_COLOURS)
    return PlayerState(pp=pp, research=research, tokens=tokens, flavour=flavour)


def position(game: Game, sheets: tuple[PlayerState, ...] = (), turn: int = 0, **changes) -> State:
    """The start of ``turn``'s turn (scoring done, usually their roll pending) with these sheets and coasters.

    Flavour dice given to players come off the flavour coaster, so every count stays conserved.
    """
    start = game.new_initial_state()
    n = game.rules.players
    sheets = tuple(sheets) + tuple(PlayerState() for _ in range(n - len(sheets)))
    base = replace(
        start,
        players=sheets,
        phase="keep",  # placeholder; start_turn sets the phase
        turn=turn,
        setting_up=False,
        flavour_coaster=FLAVOUR_DICE - sum(p.flavour for p in sheets),
        white=(), own=(), offered=(), rolling_white=0, rolling_own=0, rolling_offered=(),
        corp_rerolls=0, corp_first=False,
        **changes,
    )
    return base.start_turn(turn).check()


def census(state: State) -> None:
    """Count every component independently of State.check: coffee and flavour dice, markers, tracks."""
    rules = state.rules
    flavour = state.flavour_coaster + sum(p.flavour for p in state.players) + len(state.own) + state.rolling_own
    assert flavour == FLAVOUR_DICE
    assert min([state.flavour_coaster] + [p.flavour for p in state.players]) >= 0
    coffee_out = state.featured_size + len(state.white) + state.rolling_white
    assert coffee_out <= COFFEE_DICE and len(state.white) + state.rolling_white <= 5
    for i, p in enumerate(state.players):
        assert sum(p.tokens) + (state.funders.count(i) if rules.funding_needs_marker else 0) <= rules.markers
        assert all(t >= 0 for t in p.tokens) and p.pp >= 0
        for c, rp, tokens in zip(TRACK_COLOURS, p.research, p.tokens):
            assert 0 <= rp <= rules.track(c).length
            if rp == rules.track(c).length:
                assert tokens == 0
    for q, faces in state.offered:
        assert len(faces) == state.players[q].flavour and q != state.turn
    if state.featured_by >= 0:
        assert 2 <= state.featured_size <= 5 and len(state.funders) <= state.featured_size
        assert state.featured_by not in state.funders
    else:
        assert state.featured_size == 0 and state.funders == ()
    if state.phase not in ("roll", "act", "corp"):
        assert state.white == () and state.own == () and state.offered == ()
    assert (state.phase == "over") == (state.winner >= 0)


def run_checked(game: Game, policy, seed: int, odds_checked: set) -> Walkthrough:
    """Play one game step by step, checking counts and the exact odds of its chance nodes.

    Nodes rolling the same numbers of dice share one outcome list, so checking each distinct
    one once (up to a size) checks every node visited.
    """
    walk = Walkthrough(game.new_initial_state(), seed=seed)
    previous_pp = None
    while not walk.state.is_terminal():
        state = walk.state
        census(state)
        state.check()
        pp = [p.pp for p in state.players]
        if previous_pp is not None:
            assert all(a >= b for a, b in zip(pp, previous_pp))  # no negative abilities on the stand-in coaster
        previous_pp = pp
        if state.is_chance():
            key = (state.rolling_white, state.rolling_own, tuple(n for _, n in state.rolling_offered))
            if key not in odds_checked and state.chance_outcome_count() <= 20_000:
                odds_checked.add(key)
                outcomes = state.chance_outcomes()
                assert len(outcomes) == state.chance_outcome_count()
                assert sum(p for _, p in outcomes) == 1
                assert len({o for o, _ in outcomes}) == len(outcomes)
                assert all(state.is_legal_outcome(o) for o, _ in outcomes[:: max(1, len(outcomes) // 50)])
            walk.step()
        else:
            walk.step(policy(state))
    census(walk.state)
    walk.state.check()
    assert max(p.pp for p in walk.state.players) >= game.rules.win_pp
    return walk


# -- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_games_finish(players):
    game = Game(players=players)
    greedy = play(game, greedy_policy, n_games=80, seed=players, progress=False)
    rand = play(game, random_policy(10 + players), n_games=40, seed=players, progress=False)
    mixed = play(game, [random_policy(players)] + [greedy_policy] * (players - 1), n_games=40, seed=players, progress=False)
    for results in (greedy, mixed, rand):
        assert (results["moves"] > 0).all()
        assert all(len(w) == 1 for w in results["winners"])  # exactly one player reaches 21 first
        assert (results[[f"player_{i}" for i in range(players)]].sum(axis=1) == 1).all()
    assert greedy["winners"].nunique() > 1


@pytest.mark.parametrize("corporation", ["omniblend", "sacchar"])
def test_many_solo_games_finish(corporation):
    for meter in ("green", "yellow", "red"):
        game = Game(solo=corporation, meter=meter)
        greedy = play(game, greedy_policy, n_games=60, seed=1, progress=False)
        rand = play(game, random_policy(2), n_games=20, seed=2, progress=False)
        for results in (greedy, rand):
            assert (results["moves"] > 0).all() and all(len(w) == 1 for w in results["winners"])
    results = play(Game(solo=corporation, meter="green"), greedy_policy, n_games=100, seed=3, progress=False)
    assert 0 < (results["winners"] == (0,)).sum() < 100  # both sides win sometimes


def test_games_conserve_components_replay_and_round_trip():
    odds_checked: set = set()
    for options, policy, seed in [
        ({"players": 2}, random_policy(1), 1),
        ({"players": 2}, greedy_policy, 5),
        ({"players": 3}, greedy_policy, 2),
        ({"players": 3}, random_policy(4), 4),
        ({"players": 4}, greedy_policy, 3),
        ({"players": 4}, random_policy(6), 6),
        ({"solo": "omniblend", "meter": "red"}, greedy_policy, 7),
        ({"solo": "omniblend"}, random_policy(8), 8),
        ({"solo": "sacchar", "meter": "red"}, greedy_policy, 9),
        ({"solo": "sacchar"}, random_policy(10), 10),
    ]:
        game = Game(**options)
        walk = run_checked(game, policy, seed, odds_checked)
        # the same game from seed + move log, and from JSON
        again = Walkthrough.replay(game.new_initial_state(), walk.moves, seed)
        assert again.states == walk.states
        loaded = Walkthrough.from_json(walk.to_json(game), game.new_initial_state(), game.action_kinds, game)
        assert loaded.state == walk.state and loaded.moves == walk.moves
        for state in walk.states[:: max(1, len(walk.states) // 100)] + [walk.state]:
            assert game.state_from_json(state.to_json()) == state
    assert len(odds_checked) > 10


def test_more_seeded_games_keep_every_count():
    """Many more games, checked at every step (State.check and the independent census)."""
    for i in range(24):
        options = [{"players": 2}, {"players": 3}, {"players": 4}, {"solo": "omniblend"}, {"solo": "sacchar"}, {"players": 2, "offer_flavour": False}][i % 6]
        game = Game(**options)
        walk = Walkthrough(game.new_initial_state(), seed=100 + i)
        policy = random_policy(i) if i % 2 else greedy_policy
        while not walk.state.is_terminal():
            census(walk.state)
            walk.state.check()
            walk.step(None if walk.state.is_chance() else policy(walk.state))
        census(walk.state)


def test_roll_odds_are_exact_multinomials():
    outcomes = roll_outcomes(5)
    assert len(outcomes) == 252 and sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[Rolled(white=("red",) * 5)] == Fraction(1, 6**5)
    mixed = roll_outcomes(3, 2, ((1, 1), (2, 1)))
    assert len(mixed) == roll_outcome_count(3, 2, ((1, 1), (2, 1))) == 56 * 21 * 6 * 6
    assert sum(p for _, p in mixed) == 1
    # white and flavour dice are kept apart: a joker can only be on a flavour die
    assert all("joker" not in o.white and "black" not in o.own for o, _ in mixed)
    p = sum(p for o, p in mixed if o.offered[0][1] == ("joker",))
    assert p == Fraction(1, 6)


def test_big_rolls_are_sampled_and_checked_without_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(players=4)
    state = position(game, (sheet(flavour=2), sheet(flavour=1), sheet(flavour=1), sheet(flavour=1)))
    assert state.is_chance() and state.rolling_white == 5 and state.rolling_own == 2
    assert state.rolling_offered == ((1, 1), (2, 1), (3, 1))

    def never(*args: object) -> None:
        raise AssertionError(f"roll_outcomes{args} listed")

    monkeypatch.setattr(vivajava_state, "roll_outcomes", never)  # what the engine lists a roll with
    assert state.chance_outcome_count() == 252 * 21 * 6 * 6 * 6
    rng = np.random.default_rng(0)
    for _ in range(200):
        outcome = state.sample_chance(rng)
        assert state.is_legal_outcome(outcome)
        state.apply(outcome)
    assert not state.is_legal_outcome(Rolled(white=("red",) * 5, own=("joker", "joker")))  # offers missing
    assert not state.is_legal_outcome(Rolled(white=("red",) * 5, own=("black", "red"), offered=((1, ("red",)), (2, ("red",)), (3, ("red",)))))
    with pytest.raises(TooBig, match="1,143,072 outcomes"):  # and chance_outcomes() refuses it, listing nothing
        state.chance_outcomes()


def test_huge_roll_lists_are_never_cached() -> None:
    assert roll_outcome_count(2, 1) <= CACHED_OUTCOMES < roll_outcome_count(5, 2, ((1, 1),))  # 126; 31,752
    assert roll_outcomes(2, 1) is roll_outcomes(2, 1)
    first, again = roll_outcomes(5, 2, ((1, 1),)), roll_outcomes(5, 2, ((1, 1),))
    assert first == again and first is not again


# -- errors --------------------------------------------------------------------------------


def test_illegal_action_names_the_legal_ones_and_changes_nothing():
    state = position(Game()).apply(Rolled(white=("red", "red", "green", "brown", "white")))
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        state.apply(Featured("green", 2))
    assert "the legal actions are" in str(error.value) and "Featured(Decaf red)" in str(error.value)
    assert "Research(black)" in str(error.value)
    with pytest.raises(IllegalAction):
        state.apply(Keep())
    with pytest.raises(IllegalAction):
        state.apply(Rainbow())
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        position(Game()).apply(Rolled(white=("red",) * 4))
    assert state.to_json() == before and state == Game().state_from_json(before)
    over = replace(state, phase="over", winner=0, players=(sheet(pp=21), sheet()), white=(), own=())
    with pytest.raises(IllegalAction, match="game is over"):
        over.apply(Research("red"))


def test_actions_are_normalised_and_readable():
    assert Rolled(white=("red", "white", "black")) == Rolled(white=("black", "white", "red"))
    assert str(Rolled(white=("red", "white"), own=("joker",))) == "rolled white red | flavour joker"
    assert Featured("red", 3, ((2, 1), (1, 0))) == Featured("red", 3, ((2, 1),))
    assert str(Featured("red", 3)) == "Featured(Regular red)"
    assert str(Featured("black", 5, ((1, 2),))) == "Featured(Extra Bold black, funded by player 1 ×2)"
    assert str(Upgrade("green")) == "Upgrade(green → black)" and str(Flip("yellow")) == "Flip(yellow → green)"
    assert str(Degrade(1)) == "Degrade(die funded by player 1)" and str(GainToken("red")) == "GainToken(moved from red)"
    with pytest.raises(TypeError, match="Featured.funded"):  # not a list: BadType (engine.actions, every game)
        Featured("red", 3, funded=5)
    with pytest.raises(TypeError, match="Rolled.white"):
        Rolled(white="red")
    with pytest.raises(ValueError, match="Rolled.white"):
        Rolled(white=["red", 3])


def _saved(state: State, **changes) -> str:
    return edit_saved(state.to_json(), **changes)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"flavour_coaster": "x"}, "flavour_coaster"),
        ({"flavour_coaster": 4}, "flavour_coaster"),
        ({"players.1.pp": -1}, "players[1].pp"),
        ({"players.0.research": [1, 2]}, "players[0].research"),
        ({"players.0.research": [9, 0, 0, 0, 0]}, "players[0].research"),
        ({"players.0.tokens": [2, 2, 0, 0, 0]}, "players[0].tokens"),
        ({"players.0.colour": "red"}, "players[0].colour"),
        ({"phase": "dance"}, "phase"),
        ({"white": ["red", "purple"]}, "white"),
        ({"white": ["red"] * 6}, "white"),
        ({"own": ["black"]}, "own"),
        ({"featured_by": 1}, "featured_size"),
        ({"featured_colour": "blue"}, "featured_colour"),
        ({"turn": 5}, "turn"),
        ({"rainbow_by": 7}, "rainbow_by"),
        ({"pending": ["red"]}, "pending"),
        ({"meter": 3}, "meter"),
        ({"winner": 0}, "winner"),
        ({"surprise": 1}, "surprise"),
        ({"blocked": KeyError}, "blocked"),
    ],
)
def test_malformed_saved_state_names_the_field(changes, field):
    state = position(Game()).apply(Rolled(white=("red", "red", "green", "brown", "white")))
    with pytest.raises(ValueError) as error:
        Game().state_from_json(_saved(state, **changes))
    assert repr(field) in str(error.value)


def test_malformed_saved_game_is_rejected():
    game = Game()
    walk = Walkthrough(game.new_initial_state(), seed=0)
    for _ in range(6):
        walk.step(None if walk.state.is_chance() else greedy_policy(walk.state))
    data = json.loads(walk.to_json(game))
    assert data["moves"][1]["type"] == "Rolled"
    data["moves"][1] = {"type": "Rolled", "white": ["red"], "own": [], "offered": []}
    with pytest.raises(IllegalAction):
        Walkthrough.from_json(json.dumps(data), game.new_initial_state(), game.action_kinds, game)
    data["moves"][1] = {"type": "Rolled", "white": ["red"] * 5, "colour": "red"}
    with pytest.raises(ValueError, match="colour"):
        Walkthrough.from_json(json.dumps(data), game.new_initial_state(), game.action_kinds, game)
    with pytest.raises(ValueError, match="format"):
        game.state_from_json(json.dumps({"state": {}}))
    with pytest.raises(ValueError, match="not valid JSON"):
        game.state_from_json("{")


# -- data files and options -------------------------------------------------------------------


def test_stand_in_file_says_so_first():
    data = json.loads(STAND_IN_DATA.read_text())
    first_key = next(iter(data))
    assert first_key == "_comment" and data[first_key].startswith("STAND-IN") and data["stand_in"] is True
    loaded = load_data()
    assert [t.colour for t in loaded.tracks] == list(TRACK_COLOURS)
    assert {t.ability for t in loaded.tracks} <= set(ABILITIES) and len({t.ability for t in loaded.tracks}) == 5
    assert all(ABILITIES[t.ability].kind != "negative" for t in loaded.tracks)
    assert loaded.featured_pp[2] == 3  # the one Fact: 3 PP per held turn with 4 players
    assert Rules().stand_in_data and data_from_dict(loaded.to_data()) == loaded


def _data_file(tmp_path, change):
    data = load_data().to_data()
    change(data)
    path = tmp_path / "vivajava.json"
    path.write_text(json.dumps(data))
    return path


def _set(path: str, value):
    def change(data):
        *parents, last = path.split(".")
        target = data
        for p in parents:
            target = target[p]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value

    return change


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("featured_pp.3", "3", "featured_pp.3"),
        ("featured_pp.4", KeyError, "featured_pp.4"),
        ("rainbow_pp.5", 1, "rainbow_pp.5"),
        ("tracks.red.length", 1, "tracks.red.length"),
        ("tracks.red.x1", 0, "tracks.red.x1"),
        ("tracks.red.x2", 7, "tracks.red.x2"),
        ("tracks.red.pp", -2, "tracks.red.pp"),
        ("tracks.red.ability", "teleport", "tracks.red.ability"),
        ("tracks.red.ability", "upgrade_bean", "tracks.red.ability"),
        ("tracks.red.colour", "red", "tracks.red.colour"),
        ("tracks.green", KeyError, "tracks.green"),
        ("tracks.black", {"length": 5}, "tracks.black"),
        ("meter.sacchar.values", [0, 1, 9], "meter.sacchar.values"),
        ("meter.omniblend.values", [3, 1], "meter.omniblend.values"),
        ("meter.omniblend.start", {"green": 0, "yellow": 1, "red": 9}, "meter.omniblend.start.red"),
        ("meter.sacchar", KeyError, "meter.sacchar"),
        ("stand_in", "yes", "stand_in"),
        ("extra", 1, "extra"),
    ],
)
def test_bad_data_file_names_the_field(tmp_path, path, value, field):
    with pytest.raises(ValueError) as error:
        load_data(_data_file(tmp_path, _set(path, value)))
    assert repr(field) in str(error.value)


def test_a_players_own_data_file_is_used(tmp_path):
    def change(data):
        data["featured_pp"]["2"] = 5
        data["tracks"]["white"].update(length=3, x1=1, x2=2, pp=7)
        data["tracks"]["white"]["ability"], data["tracks"]["red"]["ability"] = "spilt_beans", "extra_flavour"

    path = _data_file(tmp_path, change)
    game = Game(data=str(path))
    assert game.rules.featured_pp == 5 and game.rules.track("white").pp == 7 and not game.rules.stand_in_data
    assert Game(data=json.loads(path.read_text())).rules == game.rules
    assert play(game, greedy_policy, n_games=5, seed=0, progress=False)["moves"].min() > 0
    bad = tmp_path / "bad.json"
    bad.write_text("[1,")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_data(bad)
    with pytest.raises(ValueError, match="cannot be read"):
        Game(data=str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="option 'data'"):
        Game(data={"featured_pp": 3})


@pytest.mark.parametrize(
    ("option", "value"),
    [("players", 5), ("solo", "starbucks"), ("meter", "blue"), ("win_pp", 0), ("markers", -1), ("offer_flavour", "yes"),
     ("both_blends", "both"), ("activations_at_2x", 3), ("solo_first", "me"), ("corp_keeps_decaf", 1),
     ("sacchar_rainbow", "fail"), ("rules_version", 4), ("corp_success_size", 1), ("payoff", "money"),
     ("omniblend_rerolls", "never"), ("omniblend_rerolls", True)],
)
def test_bad_option_is_named(option, value):
    with pytest.raises(ValueError, match=repr(option)):
        Game(**{option: value})
    with pytest.raises(ValueError, match="'players'"):
        Game(players=3, solo="sacchar")


def test_options_are_recorded_for_saving():
    assert Game(players=3, offer_flavour=False).options == {"players": 3, "offer_flavour": False, "rules_version": 3}
    assert Game(solo="sacchar").options == {"players": 2, "solo": "sacchar", "meter": "yellow", "rules_version": 3}
    assert Game(players=3, rules_version=1).options == {"players": 3}  # what saves made before rules_version recorded
    assert set(Rules().table()["kind"]) == {"Rule", "Ruling", "Stand-in"}


def test_state_contract_basics():
    game = Game(players=3)
    state = game.new_initial_state()
    assert isinstance(state, BaseState) and hash(state) == hash(game.new_initial_state())
    assert game.name == "vivajava" and Rolled in game.action_kinds
    assert "player 1" in str(state)
    rolled = Game(solo="sacchar", solo_first="you").new_initial_state(seed=3)
    assert rolled.phase == "act" and len(rolled.white) == 5
    drawn = Game(solo="sacchar").new_initial_state(seed=3)  # the seed draws the first player
    assert drawn.phase in ("roll", "setup") and drawn.turn == 0
    assert isinstance(sum(p for _, p in position(game).chance_outcomes()), Fraction)


# -- focused rules on constructed states ---------------------------------------------------------


def test_setup_non_first_players_mark_one_rp_each():
    game = Game(players=4)
    state = game.new_initial_state()
    assert state.phase == "setup" and state.current_player() == 1
    assert [str(a) for a in state.legal_actions()] == [f"SetupResearch({c})" for c in TRACK_COLOURS]
    for player, colour in ((1, "red"), (2, "white"), (3, "red")):
        assert state.current_player() == player
        state = state.apply(SetupResearch(colour))
    assert [p.research for p in state.players] == [(0,) * 5, (0, 0, 0, 1, 0), (1, 0, 0, 0, 0), (0, 0, 0, 1, 0)]
    assert state.phase == "roll" and state.turn == 0 and state.rolling_white == 5 and state.flavour_coaster == 5
    assert all(p.tokens == (0,) * 5 and p.pp == 0 for p in state.players)
    # solo_first="you" (rules_version 1): a solo game starts at the player's roll, nobody marks a setup RP
    solo = Game(solo="omniblend", solo_first="you").new_initial_state()
    assert solo.phase == "roll" and solo.turn == 0 and solo.players[1].research == (0,) * 5


def test_featured_blend_must_beat_the_coaster():
    game = Game(players=3)
    state = position(game, turn=0, featured_by=1, featured_colour="red", featured_size=3)
    assert state.featured == Blend.of(3, "red")
    rolled = state.apply(Rolled(white=("brown", "red", "green", "green", "green")))
    featured = [a for a in rolled.legal_actions() if isinstance(a, Featured)]
    assert featured == [Featured("green", 3)]  # a three of green beats a three of red; red, brown and pairs do not
    after = rolled.apply(Featured("green", 3))
    assert (after.featured_by, after.featured, after.players[0].pp) == (0, Blend.of(3, "green"), 1)
    assert after.turn == 1 and after.phase == "roll"
    census(after)
    bold = state.apply(Rolled(white=("white", "white", "white", "white", "black")))
    assert [a for a in bold.legal_actions() if isinstance(a, Featured)] == [Featured("white", 4)]
    nothing = state.apply(Rolled(white=("red", "red", "red", "white", "black")))
    assert not any(isinstance(a, Featured) for a in nothing.legal_actions())
    # an empty coaster takes any pair
    empty = position(game).apply(Rolled(white=("red", "red", "white", "yellow", "black")))
    assert [a for a in empty.legal_actions() if isinstance(a, Featured)] == [Featured("red", 2)]


def test_holder_scores_degrades_then_keeps():
    game = Game(players=2)
    state = position(game, (sheet(pp=4),), turn=0, featured_by=0, featured_colour="green", featured_size=4)
    # scoring and the degrade (no funded die: nothing to choose) happened by themselves
    assert state.players[0].pp == 4 + game.rules.featured_pp
    assert state.phase == "keep" and state.featured_size == 3 and state.legal_actions() == [Keep(), Reroll()]
    kept = state.apply(Keep())
    assert kept.featured == Blend.of(3, "green") and kept.featured_by == 0 and kept.turn == 1 and kept.phase == "roll"
    assert kept.players[0].pp == 4 + game.rules.featured_pp  # keeping ends the turn: nothing else gained


def test_reroll_rolls_the_dice_left_and_gives_the_blend_up():
    game = Game(players=2)
    state = position(game, (sheet(flavour=1),), turn=0, featured_by=0, featured_colour="green", featured_size=4)
    rolling = state.apply(Reroll())
    assert rolling.is_chance() and rolling.rolling_white == 3 and rolling.rolling_own == 1  # held flavour dice must roll too
    assert rolling.featured == NO_BLEND and rolling.featured_by == -1
    after = rolling.apply(Rolled(white=("white", "white", "red"), own=("yellow",)))
    assert Featured("white", 2) in after.legal_actions()  # the coaster is empty now: a pair is enough
    census(after)


def test_one_die_left_forces_the_reroll():
    game = Game(players=2)
    state = position(game, (sheet(pp=1),), turn=0, featured_by=0, featured_colour="black", featured_size=2)
    assert state.players[0].pp == 1 + game.rules.featured_pp
    assert state.phase == "roll" and state.rolling_white == 1 and state.featured_by == -1  # no keep-or-reroll choice
    after = state.apply(Rolled(white=("brown",)))
    assert not any(isinstance(a, Featured) for a in after.legal_actions())
    assert after.research_count("brown") == 1


def test_funding_pays_the_funders_and_uses_their_markers():
    game = Game(players=3)
    sheets = (sheet(), sheet(flavour=2), sheet(flavour=1, tokens_yellow=2, yellow=2))
    state = position(game, sheets)
    assert state.rolling_offered == ((1, 2), (2, 1))  # other players roll their flavour dice with yours
    rolled = state.apply(Rolled(white=("green", "green", "red", "white", "brown"), offered=((1, ("green", "joker")), (2, ("joker",)))))
    legal = rolled.legal_actions()
    assert Featured("green", 5, ((1, 2), (2, 1))) in legal
    assert Featured("green", 4, ((1, 2),)) in legal and Featured("green", 3, ((2, 1),)) in legal
    two_markers = replace(rolled, players=(sheets[0], sheets[1], sheet(flavour=1, tokens_yellow=3, yellow=2)))
    assert not any(dict(a.funded).get(2) for a in two_markers.legal_actions() if isinstance(a, Featured))  # no free marker
    after = rolled.apply(Featured("green", 5, ((1, 2), (2, 1))))
    assert [p.pp for p in after.players] == [1, 2, 1]
    assert after.funders == (1, 1, 2) and after.featured == Blend.of(5, "green")
    assert after.players[1].flavour == 0 and after.players[2].flavour == 0 and after.flavour_coaster == 5
    assert after.free_markers(2) == 0
    census(after)
    # on the holder's next turn: featured PP, and 1 PP per funded die to each funder
    later = replace(after, turn=2, phase="keep", rolling_white=0).end_turn()
    assert later.turn == 0 and later.phase == "degrade"
    assert [p.pp for p in later.players] == [1 + game.rules.featured_pp, 4, 2]
    assert later.legal_actions() == [Degrade(None), Degrade(1), Degrade(2)]  # which die: unfunded, or whose marker goes home
    degraded = later.apply(Degrade(2))
    assert degraded.funders == (1, 1) and degraded.free_markers(2) == 1 and degraded.phase == "keep"
    census(degraded)


def test_unused_offered_dice_go_back_and_own_flavour_dice_return_to_the_coaster():
    game = Game(players=2)
    state = position(game, (sheet(flavour=2), sheet(flavour=1)))
    rolled = state.apply(Rolled(white=("red", "red", "red", "white", "yellow"), own=("red", "green"), offered=((1, ("green",)),)))
    after = rolled.apply(Featured("red", 4))
    # player 1's unused die came back to them, and they roll it at once on their own turn
    assert after.turn == 1 and after.rolling_own == 1 and after.players[0].flavour == 0 and after.flavour_coaster == 4
    assert after.funders == () and after.players[1].pp == 0
    census(after)
    alone = Game(players=2, offer_flavour=False)
    assert position(alone, (sheet(), sheet(flavour=1))).rolling_offered == ()


def test_rainbow_rules():
    game = Game(players=2)
    dice = ("white", "yellow", "brown", "red", "green")
    state = position(game).apply(Rolled(white=dice))
    assert Rainbow() in state.legal_actions()
    took = state.apply(Rainbow())
    assert took.rainbow_by == 0 and took.players[0].pp == 1 and took.flavour_coaster == 5
    # holding it: it scores at the start of the turn, then 5 dice roll as usual
    held = position(game, (sheet(pp=1),), rainbow_by=0)
    assert held.players[0].pp == 1 + game.rules.rainbow_pp and held.rolling_white == 5
    # a new rainbow while holding it scores nothing
    again = held.apply(Rolled(white=dice)).apply(Rainbow())
    assert again.rainbow_by == 0 and again.players[0].pp == 1 + game.rules.rainbow_pp
    # a rainbow is taken from its holder
    stolen = position(game, rainbow_by=1).apply(Rolled(white=dice)).apply(Rainbow())
    assert stolen.rainbow_by == 0
    # you cannot hold both: a Featured Blend returns the Rainbow (Ruling), or is not allowed (other ruling)
    both = held.apply(Rolled(white=("red", "red", "white", "yellow", "brown")))
    assert both.apply(Featured("red", 2)).rainbow_by == -1
    strict = replace(both, rules=Rules(both_blends="no_featured"))
    assert not any(isinstance(a, Featured) for a in strict.legal_actions())
    # not with other players' flavour dice
    offered = position(game, (sheet(), sheet(flavour=1))).apply(
        Rolled(white=("white", "yellow", "brown", "red", "red"), offered=((1, ("joker",)),))
    )
    assert Rainbow() not in offered.legal_actions()
    own_joker = position(game, (sheet(flavour=1),)).apply(Rolled(white=("white", "yellow", "brown", "red", "red"), own=("joker",)))
    assert Rainbow() in own_joker.legal_actions()


def test_research_marks_one_rp_per_die_at_most_five():
    game = Game(players=2)
    state = position(game, (sheet(flavour=2),)).apply(Rolled(white=("red",) * 5, own=("red", "joker")))
    assert state.research_count("red") == 5  # 7 dice count (the joker is wild), capped at 5
    after = state.apply(Research("red"))
    assert after.players[0].research == (0, 0, 0, 5, 0)
    assert after.flavour_coaster == 5 and after.players[0].flavour == 0  # rolled flavour dice go back
    few = position(game).apply(Rolled(white=("red", "red", "white", "white", "black")))
    assert few.apply(Research("white")).players[0].research[0] == 2


def test_black_research_gives_flavour_dice():
    game = Game(players=2)
    state = position(game, (sheet(flavour=2), sheet(flavour=2))).apply(
        Rolled(white=("black", "black", "black", "red", "white"), own=("red", "yellow"), offered=((1, ("red", "red")),))
    )
    assert state.flavour_coaster == 1
    after = state.apply(Research("black"))
    assert after.players[0].flavour == 3 and after.flavour_coaster == 0
    assert after.turn == 1 and after.rolling_own == 2 and after.rolling_offered == ((0, 3),)  # player 1 kept theirs
    census(after)
    taken_first = replace(state, rules=Rules(return_flavour_first=False)).apply(Research("black"))
    assert taken_first.players[0].flavour == 1 and taken_first.flavour_coaster == 2  # only one was on the coaster


def test_research_marks_unlock_abilities():
    game = Game(players=2)  # stand-in: white 1X at 2 (Extra Flavour), yellow 1X 2 / 2X 4 (Upgrade Bean token)
    state = position(game).apply(Rolled(white=("white", "white", "red", "red", "black")))
    unlocked = state.apply(Research("white"))
    assert unlocked.phase == "activate" and unlocked.pending == ("white",)
    assert unlocked.legal_actions() == [TakeFlavour(), Decline()]
    took = unlocked.apply(TakeFlavour())
    assert took.players[0].flavour == 1 and took.flavour_coaster == 4 and took.turn == 1
    assert unlocked.apply(Decline()).players[0].flavour == 0
    # passing both marks at once: a token ability gives one token at 1X and one at 2X
    yellow = position(game).apply(Rolled(white=("yellow",) * 4 + ("black",)))
    after = yellow.apply(Research("yellow"))
    assert after.pending == ("yellow", "yellow") and after.legal_actions() == [GainToken(), Decline()]
    after = after.apply(GainToken()).apply(GainToken())
    assert after.players[0].tokens == (0, 2, 0, 0, 0) and after.turn == 1
    # an immediate ability activates once more at its 2X mark (Ruling activations_at_2x=1, the default)
    white = position(game, (sheet(white=1),)).apply(Rolled(white=("white",) * 3 + ("red", "black")))
    twice = white.apply(Research("white"))
    assert twice.pending == ("white", "white")  # 1X at 2, 2X at 4: RP 1 -> 4 crosses both, one activation each
    twice = twice.apply(TakeFlavour()).apply(TakeFlavour())
    assert twice.players[0].flavour == 2 and twice.phase == "roll"
    # activations_at_2x=2 (rules_version 1's reading): the 2X mark activates it twice, three times in all
    thrice = position(Game(players=2, activations_at_2x=2), (sheet(white=1),)).apply(Rolled(white=("white",) * 3 + ("red", "black")))
    thrice = thrice.apply(Research("white"))
    assert thrice.pending == ("white", "white", "white")
    thrice = thrice.apply(TakeFlavour()).apply(TakeFlavour()).apply(TakeFlavour())
    assert thrice.players[0].flavour == 3 and thrice.phase == "roll"
    # a token ability gives one token per mark whatever activations_at_2x says
    for n in (1, 2):
        tokens = position(Game(players=2, activations_at_2x=n)).apply(Rolled(white=("yellow",) * 4 + ("black",)))
        assert tokens.apply(Research("yellow")).pending == ("yellow", "yellow")


def test_research_boost_can_chain():
    game = Game(players=2)  # brown: 1X at 3 = Research Boost; yellow 1X at 2 = Upgrade Bean
    state = position(game, (sheet(yellow=1),)).apply(Rolled(white=("brown",) * 3 + ("red", "black")))
    boosting = state.apply(Research("brown"))
    assert boosting.pending == ("brown",) and Boost("yellow") in boosting.legal_actions() and Boost("brown") not in boosting.legal_actions()
    chained = boosting.apply(Boost("yellow"))
    assert chained.players[0].research[1] == 2 and chained.pending == ("yellow",) and GainToken() in chained.legal_actions()


def test_completing_a_track_scores_closes_and_cancels():
    game = Game(players=2)
    track = game.rules.track("white")  # length 5, pp 2
    state = position(game, (sheet(pp=3, white=3, tokens_white=0, tokens_yellow=1, yellow=2),))
    rolled = state.apply(Rolled(white=("white",) * 4 + ("black",)))
    done = rolled.apply(Research("white"))
    assert done.players[0].research[0] == track.length and done.players[0].pp == 3 + track.pp
    assert done.turn == 1 and done.pending == ()  # the 2X mark passed on the way is cancelled with the track
    again = position(game, (done.players[0],)).apply(Rolled(white=("white",) * 5))
    assert Research("white") not in again.legal_actions()  # closed
    # completing returns the track's tokens
    tokens = position(game, (sheet(yellow=5, tokens_yellow=2),)).apply(Rolled(white=("yellow", "red", "red", "red", "black")))
    assert any(isinstance(a, Upgrade) for a in tokens.legal_actions())
    closed = tokens.apply(Research("yellow"))
    assert closed.players[0].tokens == (0,) * 5 and closed.players[0].pp == game.rules.track("yellow").pp


def test_token_abilities_change_the_roll():
    game = Game(players=2)  # Upgrade Bean on yellow, Flip Bean on red, Keep Rolling on green
    state = position(game, (sheet(yellow=2, red=3, green=3, tokens_yellow=1, tokens_red=1, tokens_green=1),))
    rolled = state.apply(Rolled(white=("red", "red", "green", "white", "brown")))
    assert Upgrade("brown") in rolled.legal_actions() and Flip("white") in rolled.legal_actions()
    up = rolled.apply(Upgrade("brown"))
    assert up.white == ("white", "red", "red", "red", "green") and up.players[0].tokens == (0, 0, 0, 1, 1)
    assert Featured("red", 3) in up.legal_actions() and not any(isinstance(a, Upgrade) for a in up.legal_actions())
    flipped = rolled.apply(Flip("white"))
    assert flipped.white == ("brown", "red", "red", "green", "black")
    rerolling = rolled.apply(KeepRolling(("white", "brown")))
    assert rerolling.is_chance() and rerolling.rolling_white == 2 and rerolling.white == ("red", "red", "green")
    assert rerolling.chance_outcome_count() == 21
    after = rerolling.apply(Rolled(white=("red", "green")))
    assert after.white == ("red", "red", "red", "green", "green") and after.players[0].tokens == (0, 1, 0, 1, 0)
    census(after)


def test_gaining_a_token_without_a_free_marker_moves_one():
    game = Game(players=2)
    state = position(game, (sheet(red=3, tokens_red=3),)).apply(Rolled(white=("yellow", "yellow", "red", "red", "black")))
    gaining = state.apply(Research("yellow"))
    assert gaining.legal_actions() == [GainToken("red"), Decline()]
    moved = gaining.apply(GainToken("red"))
    assert moved.players[0].tokens == (0, 1, 0, 2, 0)


def test_negative_abilities_are_forced():
    data = load_data().to_data()
    data["tracks"]["white"]["ability"] = "spilt_beans"
    data["tracks"]["brown"]["ability"] = "extra_flavour"
    game = Game(players=2, data=data)
    state = position(game, (sheet(pp=5),)).apply(Rolled(white=("white",) * 4 + ("black",)))
    after = state.apply(Research("white"))  # 1X and 2X passed: lose 1 PP twice (once per mark), no choice offered
    assert after.players[0].pp == 3 and after.turn == 1 and after.phase == "roll"
    twice = position(Game(players=2, data=data, activations_at_2x=2), (sheet(pp=5),)).apply(Rolled(white=("white",) * 4 + ("black",)))
    assert twice.apply(Research("white")).players[0].pp == 2  # 2X activates it twice: 1 + 2 PP lost


def test_the_first_to_21_pp_wins_at_once():
    game = Game(players=3)
    state = position(game, (sheet(pp=20), sheet(pp=20, flavour=1))).apply(
        Rolled(white=("green", "green", "red", "white", "brown"), offered=((1, ("green",)),))
    )
    over = state.apply(Featured("green", 3, ((1, 1),)))
    assert over.is_terminal() and over.winner == 0 and over.returns() == (1, 0, 0)  # the active player gains first
    assert over.players[1].pp == 20 and over.legal_actions() == []
    census(over)
    funder = position(game, (sheet(pp=10), sheet(pp=20, flavour=1))).apply(
        Rolled(white=("green", "green", "red", "white", "brown"), offered=((1, ("green",)),))
    ).apply(Featured("green", 3, ((1, 1),)))
    assert funder.winner == 1 and replace(funder, rules=Rules(players=3, payoff="pp")).returns() == (11, 21, 0)
    scoring = position(game, (sheet(pp=19),), featured_by=0, featured_colour="red", featured_size=3)
    assert scoring.is_terminal() and scoring.winner == 0  # holding the Featured Blend can win at the turn's start


# -- the solo corporations ---------------------------------------------------------------------


def corp_turn(game: Game, sheets: tuple[PlayerState, ...] = (), **changes) -> State:
    """The corporation's turn after the player's (scored, and its first roll pending unless it kept a blend)."""
    state = position(game, sheets, turn=0, **changes)
    me = replace(state.players[0], flavour=state.players[0].flavour + state.rolling_own)  # the player's roll is called off
    players = (me,) + state.players[1:]
    return replace(state, phase="keep", players=players, rolling_white=0, rolling_own=0, rolling_offered=()).end_turn()


def test_omniblend_rerolls_as_the_meter_shows_and_moves_it():
    game = Game(solo="omniblend", meter="red")  # stand-in: position 3 shows 3 re-rolls
    state = corp_turn(game)
    assert state.phase == "corp" and state.is_chance() and state.corp_rerolls == 3 and state.meter == 3
    success = state.apply(Rolled(white=("green", "green", "green", "red", "white")))
    assert success.featured_by == 1 and success.featured == Blend.of(3, "green") and success.meter == 2
    assert success.players[1].pp == 1 and success.turn == 0 and success.phase == "roll"
    # no blend: keep the best group, re-roll the rest, as many times as the METER shows
    step = state.apply(Rolled(white=("red", "red", "white", "white", "black")))
    assert step.phase == "corp" and step.white == ("red", "red") and step.rolling_white == 3 and step.corp_rerolls == 2
    step = step.apply(Rolled(white=("white", "brown", "black")))
    step = step.apply(Rolled(white=("white", "yellow", "black")))
    assert step.corp_rerolls == 0 and step.white == ("red", "red")
    failed = step.apply(Rolled(white=("white", "yellow", "black")))
    assert failed.meter == 4 and failed.featured_by == -1 and failed.turn == 0 and failed.players[1].pp == 0
    late = step.apply(Rolled(white=("red", "yellow", "black")))
    assert late.featured == Blend.of(3, "red") and late.meter == 2
    # a Decaf is no Featured Blend for a corporation (Ruling: three of a kind or better)
    assert state.apply(Rolled(white=("green", "green", "red", "white", "black"))).phase == "corp"
    # a first-roll rainbow: it takes the Rainbow instead of re-rolling
    rainbow = state.apply(Rolled(white=("white", "yellow", "brown", "red", "green")))
    assert rainbow.rainbow_by == 1 and rainbow.meter == 2 and rainbow.players[1].pp == 1 and rainbow.turn == 0
    # it must beat the player's blend
    held = corp_turn(game, featured_by=0, featured_colour="black", featured_size=4)
    assert held.featured == Blend.of(3, "black") and held.featured_by == 0  # the player scored and degraded it
    beaten = held.apply(Rolled(white=("green", "green", "green", "red", "white")))
    assert beaten.phase == "corp" and beaten.white == ("green", "green", "green")


def test_corporation_keeps_its_blend_until_decaf():
    game = Game(solo="omniblend")
    state = corp_turn(game, featured_by=1, featured_colour="red", featured_size=4)
    assert state.players[1].pp == game.rules.featured_pp and state.featured_size == 3 and state.turn == 0  # kept
    green = Game(solo="omniblend", meter="green")  # no re-rolls: one roll decides
    decaf = corp_turn(green, featured_by=1, featured_colour="red", featured_size=3)
    assert decaf.players[1].pp == game.rules.featured_pp and decaf.phase == "corp" and decaf.rolling_white == 5
    assert (decaf.featured_by, decaf.featured) == (1, Blend.of(2, "red"))  # Ruling corp_keeps_decaf: on the coaster while it rolls
    census(decaf)
    failed = decaf.apply(Rolled(white=("green", "green", "red", "white", "black")))  # no three alike: it fails, keeps the Decaf
    assert failed.turn == 0 and failed.featured_by == 1 and failed.featured == Blend.of(2, "red") and failed.meter == decaf.meter + 1
    mine = failed.apply(Rolled(white=("red", "red", "brown", "white", "yellow")))  # your Featured must beat the red Decaf
    assert Featured("red", 2) not in mine.legal_actions() and Featured("red", 3) not in mine.legal_actions()
    beat = failed.apply(Rolled(white=("green", "green", "brown", "white", "yellow")))
    assert Featured("green", 2) in beat.legal_actions()
    again = mine.apply(Research("brown"))  # its next turn: the Decaf scores, degrades below a blend and is given up
    assert again.players[1].pp == 2 * game.rules.featured_pp and again.featured_by == -1 and again.phase == "corp"
    replaced = decaf.apply(Rolled(white=("green", "green", "green", "red", "white")))
    assert replaced.featured == Blend.of(3, "green") and replaced.featured_by == 1 and replaced.meter == max(0, decaf.meter - 1)
    # corp_keeps_decaf=False (rules_version 1): it gives the Decaf up before rolling
    old = corp_turn(Game(solo="omniblend", corp_keeps_decaf=False), featured_by=1, featured_colour="red", featured_size=3)
    assert old.featured_by == -1 and old.phase == "corp"
    # sneaky: it may hold both blends
    both = corp_turn(game, rainbow_by=1).apply(Rolled(white=("green", "green", "green", "red", "white")))
    assert both.rainbow_by == 1 and both.featured_by == 1


def test_sacchar_rolls_meter_flavour_dice_and_blocks_a_colour():
    game = Game(solo="sacchar", meter="red")  # stand-in: position 3 shows 3 flavour dice
    state = corp_turn(game, (sheet(flavour=3),))
    assert state.rolling_white == 5 and state.rolling_own == 2 and state.flavour_coaster == 0  # only 2 on the coaster
    census(state)
    success = state.apply(Rolled(white=("red", "red", "white", "yellow", "black"), own=("joker", "green")))
    assert success.featured == Blend.of(3, "red") and success.meter == 2 and success.flavour_coaster == 2
    failing = state.apply(Rolled(white=("red", "red", "white", "white", "black"), own=("green", "green")))
    assert failing.phase == "block" and failing.meter == 4 and failing.rolling_white == 1 and failing.flavour_coaster == 2
    blocked = failing.apply(Rolled(white=("yellow",)))
    assert blocked.blocked == "yellow" and blocked.turn == 0 and blocked.phase == "roll"
    census(blocked)
    # the player may not gain RP in, or use the ability of, that colour this turn
    sheets = (sheet(yellow=2, tokens_yellow=1, flavour=0), PlayerState())
    mine = replace(blocked, players=sheets, flavour_coaster=5, rolling_own=0).check()
    rolled = mine.apply(Rolled(white=("yellow", "yellow", "yellow", "brown", "black")))
    assert Research("yellow") not in rolled.legal_actions() and not any(isinstance(a, Upgrade) for a in rolled.legal_actions())
    after = rolled.apply(Research("brown"))
    assert after.blocked == "" and after.phase == "corp"  # the block lasts one turn
    black = replace(mine, blocked="black").apply(Rolled(white=("black", "black", "black", "brown", "red")))
    assert black.apply(Research("black")).players[0].flavour == 0  # Ruling: black blocks taking flavour dice


def test_solo_success_odds_match_the_odds_module():
    from coffeegames.vivajava import omniblend_success, sacchar_success

    game = Game(solo="sacchar", meter="yellow")
    state = corp_turn(game)
    assert state.meter_shows == 1 and state.rolling_own == 1
    outcomes = state.chance_outcomes()
    p = sum(q for o, q in outcomes if state.apply(o).featured_by == 1)
    assert p == sacchar_success(1)
    omni = corp_turn(Game(solo="omniblend", meter="green"))
    assert omni.meter_shows == 0 and omni.corp_rerolls == 0
    assert sum(q for o, q in omni.chance_outcomes() if omni.apply(o).featured_by == 1) == omniblend_success(0)


# -- the other rulings, as options ----------------------------------------------------------------


def test_other_rulings_change_play_as_documented():
    # the setup RP may unlock an ability (a track whose 1X mark is at 1)
    data = load_data().to_data()
    data["tracks"]["white"].update(x1=1)
    game = Game(players=2, setup_unlocks=True, data=data)
    setup = game.new_initial_state().apply(SetupResearch("white"))
    assert setup.phase == "activate" and setup.turn == 1 and setup.legal_actions() == [TakeFlavour(), Decline()]
    started = setup.apply(TakeFlavour())
    assert started.turn == 0 and started.phase == "roll" and started.players[1].flavour == 1 and not started.setting_up
    assert Game(players=2, data=data).new_initial_state().apply(SetupResearch("white")).phase == "roll"
    # OmniBlend may go on re-rolling to improve a blend it already holds
    eager = corp_turn(Game(solo="omniblend", meter="red", omniblend_rerolls="always"))
    step = eager.apply(Rolled(white=("green", "green", "green", "red", "white")))
    assert step.phase == "corp" and step.white == ("green",) * 3 and step.corp_rerolls == 2
    # completing a track may leave its immediate abilities of this turn in force
    lenient = Game(players=2, completion_cancels=False)
    state = position(lenient, (sheet(white=3),)).apply(Rolled(white=("white",) * 4 + ("black",)))
    done = state.apply(Research("white"))
    assert done.players[0].research[0] == 5 and done.pending == ("white",) and TakeFlavour() in done.legal_actions()
    # funding without markers
    free = Game(players=3, funding_needs_marker=False)
    rolled = position(free, (sheet(), sheet(flavour=1, tokens_red=3, red=3))).apply(
        Rolled(white=("green", "green", "red", "white", "brown"), offered=((1, ("green",)),))
    )
    assert Featured("green", 3, ((1, 1),)) in rolled.legal_actions()
    census(rolled.apply(Featured("green", 3, ((1, 1),))))
