"""Advice at VivaJava decisions: values against the engine's own chance tree and brute force over ordered rolls.

The independent reference for blends is :func:`engine_pp_gain`: from the position after a
choice, the engine plays on (every chance outcome with its exact probability, the other
players by ``greedy_policy``, a corporation by its rules) until your next turn has scored,
and the PP you gained are averaged. The advice's value must equal it exactly whenever the
model's assumptions hold (nobody else can fund with flavour dice).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import product

import pytest

from coffeegames.engine import Advice, advice_frame
from coffeegames.engine import Walkthrough
from coffeegames.vivajava import (
    FLAVOUR_DIE,
    NO_BLEND,
    WHITE_DIE,
    Blend,
    Featured,
    FirstPlayer,
    Game,
    GainToken,
    Keep,
    KeepRolling,
    PlayerState,
    Rainbow,
    Reroll,
    Research,
    Rolled,
    SetupResearch,
    State,
    TakeFlavour,
    Upgrade,
    best_blend_of,
    greedy_policy,
    omniblend_success,
    p_beats,
    p_rainbow,
)
from coffeegames.vivajava import (
    TRACK_COLOURS,
    advise,
    corporation_chance,
    flavour_die_value,
    omniblend_beats,
    p_featured_lost,
    roll_value,
    rp_value,
)

SCORING_PHASES = ("degrade", "keep", "roll", "act")
DECAF_BLACK = Blend(2, 6)  # the best blend that is not yet a corporation's Featured Blend


def engine_pp_gain(state: State, action: object) -> Fraction:
    """E[your PP when your next turn has scored] − your PP now, by the engine's exact chance tree."""
    you, start = state.turn, state.players[state.turn].pp

    @lru_cache(maxsize=None)
    def gain(s: State) -> Fraction:
        if s.is_terminal() or (s.turn == you and s.phase in SCORING_PHASES):
            return Fraction(s.players[you].pp - start)
        if s.is_chance():
            return sum(p * gain(s.apply(o)) for o, p in s.chance_outcomes())
        return gain(s.apply(greedy_policy(s)))

    return gain(state.apply(action))


def rolled(game: Game, *white: str, setup: str = "green") -> State:
    """Player 0's first decision: after the setup (solo: after drawing player 0 to start), the roll ``white``."""
    state = game.new_initial_state()
    if game.rules.solo:
        state = state.apply(FirstPlayer(0))
    else:
        state = state.apply(SetupResearch(setup))
        while state.phase == "setup":
            state = state.apply(SetupResearch(setup))
    return state.apply(Rolled(white=white))


def holding(game: Game, colour: str, size: int, phase: str = "keep", funders: tuple[int, ...] = ()) -> State:
    """Player 0 holding a Featured Blend of ``size`` dice of ``colour``, deciding in ``phase`` (keep or degrade)."""
    state = rolled(game, "white", "yellow", "brown", "red", "red")
    return replace(
        state, phase=phase, white=(), featured_by=0, featured_colour=colour, featured_size=size, funders=funders
    ).check()


def with_players(state: State, **changes: object) -> State:
    """``state`` with player fields changed: ``p1=dict(flavour=1)``; flavour dice come off the flavour coaster."""
    players = list(state.players)
    taken = 0
    for key, fields in changes.items():
        i = int(key[1:])
        taken += fields.get("flavour", players[i].flavour) - players[i].flavour  # type: ignore[union-attr]
        players[i] = replace(players[i], **fields)  # type: ignore[arg-type]
    return replace(state, players=tuple(players), flavour_coaster=state.flavour_coaster - taken).check()


def values(state: State) -> dict[str, Fraction]:
    table = advice_frame(advise(state))
    return dict(zip(table["label"], table["value"]))


def assert_listed_once_best_marked(state: State) -> None:
    rows = advise(state)
    assert all(isinstance(row, Advice) and row.exact is not False for row in rows)
    assert sorted(map(repr, (row.action for row in rows))) == sorted(map(repr, state.legal_actions()))
    valued = [row.value for row in rows if row.value is not None]
    assert all(isinstance(v, Fraction) for v in valued)
    assert [row.best for row in rows] == [row.value is not None and row.value == max(valued) for row in rows]
    assert rows[0].best and [row.value for row in rows if row.value is not None] == sorted(valued, reverse=True)


# -- blends against the engine -------------------------------------------------------------


@pytest.mark.parametrize("solo", [None, "omniblend", "sacchar"])
@pytest.mark.parametrize("meter", ["green", "red"])
def test_featured_and_rainbow_values_equal_the_engines_expected_pp(solo: str | None, meter: str) -> None:
    game = Game(players=2, solo=solo, meter=meter)
    for roll in [("red", "red", "red", "green", "black"), ("white", "yellow", "red", "green", "black"), ("green",) * 4 + ("white",)]:
        state = rolled(game, *roll)
        table = advice_frame(advise(state))
        blends = [(a, v) for a, v in zip(table["action"], table["value"]) if isinstance(a, (Featured, Rainbow))]
        assert blends
        for action, value in blends:
            assert value == engine_pp_gain(state, action), str(action)


def test_featured_value_is_one_plus_pp_times_the_chance_nobody_beats_it() -> None:
    """Three players, by hand from p_beats: the next player rolls 5 + their 2 flavour dice, the last 5."""
    state = with_players(rolled(Game(players=3), "red", "red", "red", "green", "black"), p1=dict(flavour=2))
    table = advice_frame(advise(state)).set_index("label")
    for size in (2, 3):
        blend = Blend.of(size, "red")
        kept = (1 - p_beats(blend, coffee_dice=5, flavour=2)) * (1 - p_beats(blend, coffee_dice=5))
        row = table.loc[str(Featured("red", size))]
        assert row["value"] == 1 + 3 * kept and row["risk"] == 1 - kept
        assert p_featured_lost(state, blend) == 1 - kept


def test_three_players_with_flavour_dice_match_the_engine_when_nobody_offers_dice() -> None:
    """Offered dice (Ruling offer_flavour) are outside the model: with them off, the model is the engine exactly."""
    game = Game(players=3, offer_flavour=False)
    state = with_players(rolled(game, "red", "red", "red", "green", "black"), p1=dict(flavour=1))
    for action in (Featured("red", 3), Featured("red", 2)):
        assert values(state)[str(action)] == engine_pp_gain(state, action)


@pytest.mark.parametrize("held_size", [3, 4])
def test_rainbow_against_a_player_who_holds_the_featured_blend(held_size: int) -> None:
    """Player 1 holds a blend: they degrade it, keep 3+ dice or re-roll the rest, and may then take the Rainbow."""
    state = rolled(Game(players=3, offer_flavour=False), "white", "yellow", "brown", "red", "green")
    state = replace(state, featured_by=1, featured_colour="brown", featured_size=held_size).check()
    assert values(state)["Rainbow()"] == engine_pp_gain(state, Rainbow())


@pytest.mark.parametrize("held_size", [3, 4])
@pytest.mark.parametrize("solo", ["omniblend", "sacchar"])
def test_rainbow_against_a_corporation_that_holds_the_featured_blend(solo: str, held_size: int) -> None:
    state = rolled(Game(solo=solo, meter="red"), "white", "yellow", "brown", "red", "green")
    state = replace(state, featured_by=1, featured_colour="green", featured_size=held_size).check()
    assert values(state)["Rainbow()"] == engine_pp_gain(state, Rainbow())


def test_holding_the_rainbow_research_keeps_it_and_a_featured_blend_gives_it_back() -> None:
    state = replace(rolled(Game(players=2), "red", "red", "red", "green", "black"), rainbow_by=0).check()
    kept_rainbow = 1 - p_rainbow(5)  # the other player takes it only with a rainbow and no blend: all 5 colours differ
    table = values(state)
    assert table["Research(red)"] == 3 * rp_value(state.rules, "red") + kept_rainbow
    assert table["Featured(Regular red)"] == engine_pp_gain(state, Featured("red", 3))  # the Rainbow is returned
    assert table["Featured(Regular red)"] == 1 + 2 * (1 - p_beats(Blend.of(3, "red")))


@pytest.mark.parametrize("solo", [None, "omniblend", "sacchar"])
def test_keep_is_the_blends_pp_times_the_chance_it_survives(solo: str | None) -> None:
    state = holding(Game(players=2, solo=solo, meter="red"), "red", 3)
    table = advice_frame(advise(state)).set_index("label")
    assert table.loc["Keep()", "value"] == engine_pp_gain(state, Keep())
    if solo is None:
        assert table.loc["Keep()", "risk"] == p_beats(Blend.of(3, "red"))


# -- re-rolls, by brute force over ordered rolls -----------------------------------------------


def brute_roll_value(state: State, white: int, flavour: int = 0) -> Fraction:
    """Average over every ordered roll of the best blend-or-research value of the resulting decision."""
    total = Fraction(0)
    for faces in product(*[WHITE_DIE] * white, *[FLAVOUR_DIE] * flavour):
        after = state.apply(Rolled(white=faces[:white], own=faces[white:]))
        table = advice_frame(advise(after))
        total += max(v for a, v in zip(table["action"], table["value"]) if isinstance(a, (Featured, Rainbow, Research)))
    return total / 6 ** (white + flavour)


@pytest.mark.parametrize(("size", "flavour"), [(2, 0), (3, 0), (2, 1)])
def test_reroll_value_and_risk_by_brute_force(size: int, flavour: int) -> None:
    state = with_players(holding(Game(players=2), "yellow", size), p0=dict(flavour=flavour))
    row = advice_frame(advise(state)).set_index("label").loc["Reroll()"]
    after = state.apply(Reroll())
    assert row["value"] == roll_value(after) == brute_roll_value(after, size, flavour)
    kept = Blend.of(size, "yellow")
    fails = sum(best_blend_of(r) <= kept for r in product(*[WHITE_DIE] * size, *[FLAVOUR_DIE] * flavour))
    assert row["risk"] == Fraction(fails, 6 ** (size + flavour))


def test_degrading_is_worth_the_better_of_keep_and_reroll() -> None:
    state = holding(Game(players=3), "red", 4, phase="degrade", funders=(2,))
    table = advice_frame(advise(state))
    after = state.apply(state.legal_actions()[0])
    best_after = max(advice_frame(advise(after))["value"])
    assert list(table["value"]) == [best_after, best_after] and table["best"].all()
    assert "player 2's marker goes home" in table["then"].iloc[1]


def test_keep_rolling_and_upgrade_are_worth_the_best_choice_they_lead_to() -> None:
    state = rolled(Game(players=2), "red", "red", "green", "white", "black")
    tokens = [0] * len(TRACK_COLOURS)
    tokens[TRACK_COLOURS.index("yellow")] = tokens[TRACK_COLOURS.index("green")] = 1  # Upgrade Bean, Keep Rolling
    research = [0] * len(TRACK_COLOURS)  # a token lies on its track from the 1X mark on (yellow 2 RP, green 3)
    research[TRACK_COLOURS.index("yellow")] = research[TRACK_COLOURS.index("green")] = 3
    state = with_players(state, p0=dict(tokens=tuple(tokens), research=tuple(research)))
    table = advice_frame(advise(state)).set_index("label")
    assert_listed_once_best_marked(state)
    one = KeepRolling(("white",))
    assert table.loc[str(one), "value"] == brute_roll_value(state.apply(one), 1)
    upgrade = Upgrade("white")  # white → yellow: no blend gained
    after = state.apply(upgrade)
    assert table.loc[str(upgrade), "value"] == max(
        v for a, v in zip(advice_frame(advise(after))["action"], advice_frame(advise(after))["value"]) if not isinstance(a, (Upgrade, KeepRolling))
    )
    black_pair = 1 + 2 * (1 - p_beats(Blend.of(2, "black")))  # green → black: a pair of black, the best blend
    assert table.loc[str(Upgrade("green")), "value"] == black_pair == values(state.apply(Upgrade("green")))["Featured(Decaf black)"]


# -- research and abilities: the proxy --------------------------------------------------------


def test_research_is_valued_at_each_tracks_pp_per_rp() -> None:
    state = rolled(Game(players=2), "red", "red", "red", "green", "black")
    state = with_players(state, p0=dict(research=(0, 0, 0, 5, 0)))  # red: 5 of 7, so 3 red dice give 2 RP
    table = advice_frame(advise(state)).set_index("label")
    rules = state.rules
    assert table.loc["Research(red)", "rp"] == 2 and table.loc["Research(red)", "value"] == 2 * Fraction(4, 7)
    assert "completes it (+4 PP now)" in table.loc["Research(red)", "then"]
    assert table.loc["Research(green)", "value"] == rp_value(rules, "green")
    assert table.loc["Research(black)", "rp"] == 1 and table.loc["Research(black)", "value"] == flavour_die_value(rules)
    assert table.loc["Research(white)", "value"] == 0
    assert flavour_die_value(rules) == sum(Fraction(t.pp, t.length) for t in rules.data.tracks) / 5


def test_every_decision_of_bot_games_is_listed_once_with_the_best_marked() -> None:
    seen = set()
    for options, seed in [(dict(players=2), 1), (dict(players=4), 2), (dict(solo="omniblend"), 3), (dict(solo="sacchar", meter="red"), 4)]:
        walk = Walkthrough(Game(**options).new_initial_state(), seed=seed)
        while not walk.state.is_terminal():
            state = walk.state
            if state.is_chance():
                assert advice_frame(advise(state)).empty
                walk.step()
                continue
            assert_listed_once_best_marked(state)
            seen.add(state.phase)
            walk.step(greedy_policy(state))
        assert advice_frame(advise(walk.state)).empty
    assert seen >= {"setup", "act", "keep", "activate"}


def test_activation_choices_carry_proxy_values() -> None:
    state = rolled(Game(players=2), "white", "white", "white", "red", "green")
    state = with_players(state, p0=dict(research=(1, 0, 0, 0, 0)))
    after = state.apply(Research("white"))  # 1 → 4: the 1X and 2X marks of Extra Flavour
    assert after.phase == "activate"
    table = advice_frame(advise(after)).set_index("label")
    assert table.loc[str(TakeFlavour()), "value"] == flavour_die_value(state.rules)
    assert table.loc["Decline()", "value"] == 0


def test_gain_token_is_valued_like_one_rp_of_its_track() -> None:
    state = rolled(Game(players=2), "yellow", "yellow", "yellow", "red", "green")
    after = state.apply(Research("yellow"))  # 0 → 3 on yellow: 1X Upgrade Bean
    table = advice_frame(advise(after)).set_index("label")
    assert table.loc[str(GainToken()), "value"] == rp_value(state.rules, "yellow")


# -- the corporations ------------------------------------------------------------------------


@pytest.mark.parametrize("rerolls", range(5))
def test_omniblend_holding_the_rainbow_is_the_odds_modules_chain(rerolls: int) -> None:
    assert omniblend_beats(DECAF_BLACK, rerolls, takes_rainbow=False) == omniblend_success(rerolls)


@pytest.mark.parametrize("meter", ["green", "yellow", "red"])
@pytest.mark.parametrize("solo", ["omniblend", "sacchar"])
def test_corporation_chance_equals_the_engines_chance_tree(solo: str, meter: str) -> None:
    state = rolled(Game(solo=solo, meter=meter), "white", "white", "yellow", "yellow", "red")
    corp_turn = state.apply(Research("red"))  # 1 RP: nothing to activate, the corporation rolls next
    assert corp_turn.phase == "corp"

    @lru_cache(maxsize=None)
    def featured(s: State) -> Fraction:
        if s.turn != 1 or not s.is_chance():
            return Fraction(int(s.featured_by == 1))
        return sum(p * featured(s.apply(o)) for o, p in s.chance_outcomes())

    assert corporation_chance(state) == corporation_chance(corp_turn) == featured(corp_turn)


def test_omniblend_beating_a_blend_needs_more_than_three_alike_sometimes() -> None:
    assert omniblend_beats(NO_BLEND, 0, takes_rainbow=False) == 1 - p_rainbow(5)  # any pair beats nothing
    assert omniblend_beats(Blend.of(5, "black"), 6) == 0
    assert omniblend_beats(Blend.of(3, "red"), 2) < omniblend_beats(DECAF_BLACK, 2)


def test_no_decision_no_rows_and_roll_value_needs_a_roll() -> None:
    state = Game(solo="omniblend").new_initial_state()
    assert advise(state) == []  # the first-player draw
    state = state.apply(FirstPlayer(0))
    assert advice_frame(advise(state)).empty  # your first roll
    with pytest.raises(ValueError, match="phase 'roll'"):
        roll_value(state.apply(Rolled(white=("red",) * 5)))
    with pytest.raises(ValueError, match="solo"):
        corporation_chance(Game().new_initial_state())
    assert PlayerState().flavour == 0
