"""What every game shares at its edges (issue 26, items 5-6): the walkthrough factory's argument errors, unknown
``Game(...)`` options, each game's one input syntax and its aliases, and Gizmos' and Coffee Rush's words."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import coffeegames
from coffeegames.errors import BadArgument, BadType
from coffeegames.gizmos import Build, EndTurn, Marble, Pick, Research
from coffeegames.gizmos import describe as gizmos_describe
from coffeegames.roaster import parse_bag
from coffeegames.rush import Drawn, Move, NoUpgrade, Place
from coffeegames.rush import describe as rush_describe
from coffeegames.rush.odds import parse_order, parse_orders
from coffeegames.widgets import dairyman_walkthrough, gizmos_walkthrough, roaster_walkthrough, rush_walkthrough
from coffeegames.widgets import vivajava_walkthrough
from coffeegames.widgets.gizmos_game import game_over as gizmos_game_over
from coffeegames.widgets.gizmos_game import parse_outcome as gizmos_parse
from coffeegames.widgets.roaster_game import parse_draw
from coffeegames.widgets.rush_game import game_over as rush_game_over
from coffeegames.widgets.rush_game import parse_order as rush_parse

WALKTHROUGHS: dict[str, Any] = {
    "dairyman": dairyman_walkthrough,
    "vivajava": vivajava_walkthrough,
    "gizmos": lambda **kw: gizmos_walkthrough(playouts=2, **kw),
    "rush": rush_walkthrough,
    "roaster": roaster_walkthrough,
}
"""Every game's walkthrough (Coffee Roaster is solo: its one seat is player 0, or the bot's with ``human=()``)."""


@pytest.mark.parametrize("game", sorted(WALKTHROUGHS))
@pytest.mark.parametrize("human, error", [("0", BadType), (0, BadType), ({0: 1}, BadType), ((7,), BadArgument),
                                          ((-1,), BadArgument), ((0, 0), BadArgument), ((0.5,), BadArgument),
                                          ((0, 1, 2, 3, 4, 5), BadArgument)])
def test_every_walkthrough_refuses_a_bad_human_the_same_way(game: str, human: Any, error: type) -> None:
    with pytest.raises(error) as raised:
        WALKTHROUGHS[game](human=human)
    assert raised.value.where == "human"


@pytest.mark.parametrize("make", [*WALKTHROUGHS.values(), roaster_walkthrough])
@pytest.mark.parametrize("seed, error", [("1", BadType), (-1, BadArgument), (1.5, BadType)])
def test_every_walkthrough_refuses_a_bad_seed(make: Any, seed: Any, error: type) -> None:
    with pytest.raises(error) as raised:
        make(seed=seed)
    assert raised.value.where == "seed"


def test_the_solo_corporation_is_no_persons_seat() -> None:
    with pytest.raises(BadArgument, match="player 1 plays itself"):
        vivajava_walkthrough(solo="sacchar", human=(1,))
    assert vivajava_walkthrough(solo="sacchar", human=()).session.names[1] != "player 1 (bot)"


@pytest.mark.parametrize("name", sorted(coffeegames.games()))
def test_an_unknown_option_is_named_with_the_options_there_are(name: str) -> None:
    info = coffeegames.games()[name]
    with pytest.raises(BadArgument) as raised:
        info.game(no_such_rule=3)
    message = str(raised.value)
    assert raised.value.where == "no_such_rule"
    for option in info.game().options:  # the options a game is made with are among those listed
        assert option in message.split("its options are ")[1].split(", ")
    first = next(iter(info.game().options))
    info.game(**{first: info.game().options[first]})  # and a real option is not refused


@pytest.mark.parametrize("make", [*WALKTHROUGHS.values(), roaster_walkthrough])
def test_a_walkthrough_passes_an_unknown_option_to_the_games_error(make: Any) -> None:
    with pytest.raises(BadArgument, match="no_such_rule"):
        make(no_such_rule=1)


# -- one syntax a game, the old forms as aliases -------------------------------------------------------------


@pytest.mark.parametrize("canonical, alias", [("hard:5 smoke", "hard*5 smoke"), ("hard:5 smoke", "hard×5 smoke"),
                                               ("hard:5 smoke", "hardx5 smoke"), ("bean2:2 aroma:1", "bean2*2, aroma")])
def test_roaster_tokens_read_the_same_in_every_form(canonical: str, alias: str) -> None:
    assert parse_bag(alias) == parse_bag(canonical)


def _drawing(state: Any) -> Any:
    rng = np.random.default_rng(0)
    while not (state.is_chance() and state.phase == "draw"):
        state = state.apply(state.sample_chance(rng) if state.is_chance() else state.legal_actions()[0])
    return state


def test_the_roaster_draw_box_reads_the_clis_syntax_and_its_old_forms_alike() -> None:
    state = coffeegames.roaster.Game(card="Mexico Altura Oaxaca").new_initial_state(seed=0)
    outcome = state.chance_outcomes()[0][0]  # a draw the bag can give, typed three ways
    canonical = coffeegames.roaster.bag_text(outcome.tokens)
    assert ":" in canonical
    for text in (canonical, canonical.replace(":", "*"), canonical.replace(":", "×")):
        assert parse_draw(text, state) == outcome


@pytest.mark.parametrize("alias", ["milk coffee", "milk, coffee", "Coffee milk", "milk+coffee"])
def test_a_rush_order_reads_the_same_in_every_form(alias: str) -> None:
    state = coffeegames.rush.Game(players=3).new_initial_state()
    assert parse_order(alias) == parse_orders("coffee+milk")[0]
    assert rush_parse(alias, state) == rush_parse("coffee+milk", state) == Drawn("coffee+milk")


def test_rush_orders_are_separated_by_commas_and_one_box_takes_one_order() -> None:
    assert parse_orders("coffee+milk, milk+steam") == [("coffee", "milk"), ("milk", "steam")]
    with pytest.raises(ValueError, match="one order"):
        parse_order("coffee+milk, milk+steam")


def test_a_gizmos_marble_reads_as_the_clis_marbles() -> None:
    state = coffeegames.gizmos.Game().new_initial_state()
    rng = np.random.default_rng(0)
    while not (state.is_chance() and str(state.todo[0].phase) in ("row", "energy")):
        state = state.apply(state.sample_chance(rng) if state.is_chance() else state.legal_actions()[0])
    assert gizmos_parse("red", state) == gizmos_parse("red:1", state) == gizmos_parse(" RED ", state) == Marble("red")
    for text in ("red:2", "red blue", "purple"):
        with pytest.raises(ValueError, match="a marble is drawn here"):
            gizmos_parse(text, state)


# -- Gizmos and Coffee Rush in a player's words ----------------------------------------------------------------


def test_gizmos_and_rush_describe_actions_in_words() -> None:
    assert gizmos_describe(Pick("red")) == "Pick a red marble from the row"
    assert gizmos_describe(Research(3)) == "Research the level-III deck"
    assert gizmos_describe(Build(card=12, source="archive", paid=(1, 0, 0, 0))).startswith("Build gizmo #12 from the archive")
    assert gizmos_describe(EndTurn()).startswith("End the turn")
    assert rush_describe(Place(0)) == "Place a meeple on a1" and rush_describe(NoUpgrade()) == "No upgrade this turn"
    assert rush_describe(Move(0, (1,), 0)) == "Move b1"


def _played(game: Any, seed: int) -> Any:
    state = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        state = state.apply(state.sample_chance(rng) if state.is_chance() else state.legal_actions()[rng.integers(len(state.legal_actions()))])
    return state


def test_the_end_names_the_winner_by_the_scores() -> None:
    rush = _played(coffeegames.rush.Game(players=2), 3)
    scores = rush.scores
    line = rush_game_over(rush, ["Ann", "Bo"])
    best = max(scores)
    winners = [n for n, s in zip(["Ann", "Bo"], scores) if s == best]
    assert line.startswith(f"Game over · {winners[0]}") and f"with {best} points" in line
    gizmos = _played(coffeegames.gizmos.Game(players=2), 1)
    first = gizmos.standings()[0]
    assert gizmos_game_over(gizmos, ["Ann", "Bo"]).startswith(f"Game over · {['Ann', 'Bo'][first]} wins with {gizmos.score(first)}")


def test_the_gizmos_and_rush_views_use_them() -> None:
    for view in (gizmos_walkthrough(playouts=2), rush_walkthrough()):
        assert view.adapter.describe is not None and view.adapter.game_over is not None


def test_roaster_hands_its_one_seat_to_the_bot() -> None:
    view = roaster_walkthrough(human=(), seed=0)
    assert view.session.names == ["player 0 (bot)"] and view.bots_button.layout.display != "none"
    view.bots_button.click()
    assert view.state.is_terminal()
    assert roaster_walkthrough(seed=0).bots_button.layout.display == "none"  # you play: no bots to run
