"""Bad input gets the library's own error, naming the argument: reproductions from the bad-input issue.

Each case once gave a silent wrong number (a string read letter by letter, a set losing a die,
an impossible position valued) or a stray exception type; each must now raise a
:class:`~coffeegames.errors.CoffeeGamesError` whose message names the argument.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import coffeegames
from coffeegames import dairyman, engine, roaster, vivajava
from coffeegames.cli import main
from coffeegames.engine import Walkthrough
from coffeegames.engine.examples import Keep, KeepOrReroll, Reroll
from coffeegames.errors import BadData, BadType, CoffeeGamesError, TooBig
from coffeegames.exact import Bag, Dist, roll
from coffeegames.validate import MAX_DEPTH, read_json

TURN = dairyman.optimal_turn(8, 10, 5)

CASES: list[tuple[str, Callable[[], Any], str]] = [
    ("a string as a list of kinds", lambda: roaster.p_any(Bag({"smoke": 3, "bean2": 1}), "smoke", 2), "tokens"),
    ("a string as a bag", lambda: Bag("smoke"), "counts"),
    ("a number as a bag", lambda: roaster.draw_table(5, 3), "bag"),
    ("a set as a roll", lambda: dairyman.lock_options({4, 4, 6}), "roll"),
    ("negative sets locked", lambda: TURN.stop_value(3, -1), "sets_locked"),
    ("negative sets locked (should_roll)", lambda: TURN.should_roll(3, -1), "sets_locked"),
    ("a fraction of a set", lambda: TURN.choices([4, 6], 2.5), "sets_locked"),
    ("a thousand sets", lambda: TURN.choices([4, 6], 1000), "sets_locked"),
    ("no distribution", lambda: Dist({}), "probabilities"),
    ("undo backwards", lambda: Walkthrough(KeepOrReroll()).undo(-1), "steps"),
    ("a negative seed", lambda: Walkthrough(KeepOrReroll(), seed=-1), "seed"),
    ("a text seed", lambda: Walkthrough(KeepOrReroll(), seed="3"), "seed"),
    ("a negative count in a bag", lambda: roaster.stop_now({"bean2": -3, "bean3": 4}, "Zambia Kasama AA"), "position"),
    ("a misspelled kind in a bag", lambda: roaster.stop_now({"bean2": 3, "baen3": 4}, "Zambia Kasama AA"), "position"),
    ("an unknown coffee in the menu", lambda: roaster.Menu().record("No Such Coffee", 12), "card"),
    ("a fraction of a score", lambda: roaster.Menu().record("Mexico Altura Oaxaca", 12.9), "score"),
    ("True as a score", lambda: roaster.Menu().record("Mexico Altura Oaxaca", True), "score"),
    ("an infinite score", lambda: roaster.Menu().record("Mexico Altura Oaxaca", float("inf")), "score"),
    ("a table of no dice", lambda: dairyman.odds_table(0), "max_dice"),
    ("too few policies", lambda: engine.play(dairyman.Game(players=3), [dairyman.greedy_policy], n_games=1, progress=False),
     "policies"),
    ("no distribution at all", lambda: Dist(None), "probabilities"),  # type: ignore[arg-type]
    ("no Dairyman state", lambda: dairyman.advise(None), "state"),  # type: ignore[arg-type]
    ("no Coffee Roaster state", lambda: roaster.advise(None), "state"),  # type: ignore[arg-type]
    ("no VivaJava state", lambda: vivajava.advise(None), "state"),  # type: ignore[arg-type]
    ("no card", lambda: roaster.score_cup([], None), "card"),  # type: ignore[arg-type]
    ("a simulation of no cup tests", lambda: roaster.stop_now({"bean2": 3}, "Zambia Kasama AA", samples=0), "samples"),
    ("a list as a METER", lambda: vivajava.omniblend_success([1]), "meter"),  # type: ignore[arg-type]
]

TOO_BIG: list[tuple[str, Callable[[], Any], str]] = [
    ("60 dice", lambda: roll(60), "groups"),
    ("30 of 60 kinds", lambda: Bag({i: 1 for i in range(60)}).draw(30), "draws"),
    ("10,000 OmniBlend re-rolls", lambda: vivajava.omniblend_success(10000), "meter"),
    ("a million METER levels", lambda: vivajava.meter_table(range(10**6)), "levels"),
    ("20,000 draws from a billion tokens", lambda: roaster.draw_table(Bag({"bean2": 10**9}), 20000), "bag"),
    ("a billion tokens typed", lambda: roaster.tokens.parse_bag("bean2:1000000000"), "bag"),
    ("a billion games", lambda: engine.play(dairyman.Game(), dairyman.greedy_policy, n_games=10**9), "n_games"),
]
"""Questions over a limit: refused at once (the size is counted before any work), naming the argument and the limit."""


@pytest.mark.parametrize("name, call, argument", TOO_BIG, ids=[c[0] for c in TOO_BIG])
def test_an_oversized_question_is_refused_naming_the_limit(name: str, call: Callable[[], Any], argument: str) -> None:
    with pytest.raises(TooBig) as error:
        call()
    assert "limit" in str(error.value) or "at most" in str(error.value)
    assert argument == "bag" or f"'{argument}'" in str(error.value)


def test_play_of_no_games_is_an_empty_table() -> None:
    assert engine.play(dairyman.Game(), dairyman.greedy_policy, n_games=0, progress=False).empty


@pytest.mark.parametrize("name, call, argument", CASES, ids=[c[0] for c in CASES])
def test_bad_argument_is_named(name: str, call: Callable[[], Any], argument: str) -> None:
    with pytest.raises(CoffeeGamesError) as error:
        call()
    assert f"'{argument}" in str(error.value) or f'"{argument}[' in str(error.value)  # the argument, or a part of it


def test_a_string_list_of_kinds_is_a_type_error_not_a_wrong_answer() -> None:
    with pytest.raises(BadType):
        roaster.p_any(Bag({"smoke": 3, "bean2": 1}), "smoke", 2)
    assert roaster.p_any(Bag({"smoke": 3, "bean2": 1}), ["smoke"], 2) == 1  # 3 smoke of 4: two draws always find one


def test_the_cli_refuses_impossible_sets_locked_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["dairyman", "decide", "4", "6", "--sets-locked", "1000"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and "sets_locked" in err


def test_deep_nesting_and_byte_order_mark() -> None:
    with pytest.raises(BadData, match="nested deeper"):
        read_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "test")
    assert read_json("\ufeff" + json.dumps({"a": 1}), "test") == {"a": 1}
    with pytest.raises(BadData, match="nested deeper"):  # a deeply nested save is refused, never a RecursionError
        dairyman.Game().state_from_json('{"a":' * 5000 + "1" + "}" * 5000)


def test_a_saved_walkthrough_with_a_null_move_or_bad_rng_is_refused_whole() -> None:
    walk = Walkthrough(KeepOrReroll(), seed=1)
    walk.step()
    saved = json.loads(walk.to_json())
    for field, value in (("moves", [None]), ("rng", -5), ("seed", "x")):
        with pytest.raises(BadData, match=field):
            Walkthrough.from_json(json.dumps({**saved, field: value}), KeepOrReroll(), [Keep, Reroll])
    with pytest.raises(BadData):
        Walkthrough.from_json(None, KeepOrReroll(), [Keep, Reroll])  # type: ignore[arg-type]


def test_error_messages_quote_a_short_prefix_of_huge_values() -> None:
    with pytest.raises(CoffeeGamesError) as error:
        Bag("x" * 10_000_000)
    assert len(str(error.value)) < 300


@pytest.mark.parametrize("name", list(coffeegames.games()))
def test_a_saved_game_with_an_unknown_option_is_refused_naming_it(name: str) -> None:
    info = coffeegames.games()[name]
    game = info.game()
    saved = json.loads(Walkthrough(game.new_initial_state(), seed=1).to_json(game))
    saved["options"] = {**saved["options"], "colour_blind": True}
    with pytest.raises(BadData, match="options.*colour_blind"):
        info.load_walkthrough(json.dumps(saved))


def _first(state: Any, phase: str, rng: Any) -> Any:
    """Play on (chance at random, else the first legal action) until ``phase``."""
    while state.phase != phase:
        state = state.apply(state.sample_chance(rng) if state.is_chance() else state.legal_actions()[0])
    return state


def test_impossible_positions_are_refused_naming_the_field() -> None:
    from dataclasses import replace

    import numpy as np

    rng = np.random.default_rng(0)
    viva = _first(vivajava.Game().new_initial_state(seed=1), "act", rng)
    dairy = _first(dairyman.Game().new_initial_state(seed=1), "lock", rng)
    roast = roaster.Game(card="Kenya AA").new_initial_state(seed=1)
    cases = [
        (replace(viva, players=(replace(viva.players[0], pp=10**6), *viva.players[1:])), "pp"),  # mid-game at a million PP
        (replace(viva, players=(replace(viva.players[0], research=(0,) * 5, tokens=(1, 0, 0, 0, 0)), *viva.players[1:])),
         "tokens"),  # a token on a track with no research points
        (replace(dairy, abilities_used=("reroll_1s",)), "abilities_used"),  # an ice-cream ability nobody owns
        (replace(dairy, roll=10**30), "roll"),  # the 10**30th roll of a turn
        (replace(roast, used=("plus_two", "new_two", "two_of_five", "remove")), "paid"),  # every effect, before any draw
        (replace(roast, used=("plus_two",), paid=("body",) * len(roast.rules.board.cost("plus_two"))), "used"),  # paid, before any draw
    ]
    for state, field in cases:
        with pytest.raises(BadData, match=rf"field '[^']*{field}'"):
            state.check()
    for state in (viva, dairy, roast):
        state.check()  # the real positions pass
