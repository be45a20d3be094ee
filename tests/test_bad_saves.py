"""Saves that lie: an edited save of a position the engine never reaches is refused by the same ``check()`` every
reached state passes (tests/test_contract.py), and a save never makes the loader open a file (issue 29)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from coffeegames.errors import BadData

from contract_support import make_game, random_action


def _saved(name: str, options: dict[str, Any], stop: Callable[[Any], bool], seed: int = 1) -> tuple[Any, dict[str, Any]]:
    """A seeded random game of ``name`` played until ``stop(state)``; its game and its save as a dict."""
    game = make_game(name, options)
    state, rng = game.new_initial_state(seed=seed), np.random.default_rng(seed)
    while not stop(state):
        state = state.apply(random_action(state, rng))
    return game, json.loads(state.to_json())


def _refused(game: Any, save: dict[str, Any], field: str) -> None:
    with pytest.raises(BadData, match=f"field '{field}'") as caught:
        game.state_from_json(json.dumps(save))
    assert len(str(caught.value)) < 300


def _start(state: Any) -> bool:
    return True


def test_gizmos_tokens_beyond_any_game_and_unknown_card_ids_are_refused() -> None:
    game, save = _saved("gizmos", {"players": 2}, _start)
    save["state"]["players"][0]["tokens"] = 10**24
    _refused(game, save, r"players\[0\].tokens")
    game, save = _saved("gizmos", {"players": 2}, _start)
    save["state"]["players"][1]["built"] = [999]  # read by the energy / archive limits: an IndexError before
    _refused(game, save, r"players\[1\].built")


def test_rush_rounds_beyond_any_game_and_closed_at_the_start_are_refused() -> None:
    game, save = _saved("rush", {"players": 2}, _start)
    save["state"]["round"] = 10**24
    _refused(game, save, "round")
    game, save = _saved("rush", {"players": 2}, _start)
    save["state"]["closed"] = True
    _refused(game, save, "closed")


@pytest.mark.parametrize("players", [2, 3])
def test_a_finished_rush_game_cannot_go_back_to_placing(players: int) -> None:
    game, save = _saved("rush", {"players": players}, lambda s: s.is_terminal())
    save["state"]["phase"] = "place"
    _refused(game, save, "(phase|closed)")  # closed for no reason, or a setup phase after play


def test_roaster_flavour_used_before_the_first_draw_is_refused() -> None:
    game, save = _saved("roaster", {"card": "Kenya AA"}, _start)
    save["state"]["flavour_used"] = True
    _refused(game, save, "flavour_used")


def test_dairyman_yellow_set_aside_before_it_is_rolled_is_refused() -> None:
    game, save = _saved("dairyman", {"players": 2}, lambda s: str(s.phase) == "roll" and s.yellow == 0)
    save["state"].update(yellow_at="aside", cheese_made=True)
    _refused(game, save, "yellow_at")
    game, save = _saved("dairyman", {"players": 2}, lambda s: str(s.phase) == "lock" and s.yellow > 0 and not s.cheese_made)
    save["state"]["yellow_at"] = "aside"  # aside, but no cheese made
    _refused(game, save, "cheese_made")


FILE_OPTIONS = [("dairyman", "tiles"), ("gizmos", "cards"), ("roaster", "cards"), ("roaster", "board"), ("rush", "board"),
                ("rush", "orders"), ("rush", "upgrades"), ("vivajava", "data")]


@pytest.mark.parametrize("name, option", FILE_OPTIONS)
def test_a_save_naming_a_file_is_refused_without_opening_it(name: str, option: str, tmp_path: Any) -> None:
    missing = tmp_path / "never-made.json"  # opening it would fail differently: the refusal comes first
    save = json.dumps({"game": name, "options": {option: str(missing)}, "actions": []})
    game_class = type(make_game(name, {}))
    with pytest.raises(BadData, match=rf"options\.{option}.*load_walkthrough\(text, {option}=") as caught:
        game_class.load_walkthrough(save)
    assert len(str(caught.value)) < 300 and not missing.exists()


def test_a_file_option_passed_when_loading_is_used() -> None:
    from coffeegames.engine.walkthrough import Walkthrough
    from coffeegames.gizmos import Game, shipped_cards

    game = Game(players=2)
    save = json.loads(Walkthrough(game.new_initial_state()).to_json(game))
    save["options"]["cards"] = "/etc/passwd"
    loaded, _ = Game.load_walkthrough(json.dumps(save), cards=shipped_cards())
    assert loaded.rules.cards == shipped_cards() and loaded.options["cards"] == "/etc/passwd"
