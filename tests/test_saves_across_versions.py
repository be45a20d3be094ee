"""Saves made before issue 26 (one save mechanism for every game) load and replay as that code replayed them.

``tests/data/saves_b838f36.json`` was written by commit b838f36 (``tests/data/make_saves_b838f36.py``):
for each game and several variants (each ``rules_version`` that existed, other options), a saved
walkthrough, a state saved mid-game, and the last position and move count that code reached.
Today's code must give the same: the game the save was played under (the rules that code played
for those options), the same moves and positions, the mid-game state, and the same save again.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from coffeegames.engine import Walkthrough

SAVES = json.loads((Path(__file__).parent / "data" / "saves_b838f36.json").read_text())["cases"]


THEN_LATEST = {"gizmos": {"rules_version": 1}, "rush": {"rules_version": 1}, "vivajava": {"rules_version": 2}}
"""The rules version a game made without one played at b838f36, where a later version has come since."""


def rules_but_version(rules: Any) -> dict[str, Any]:
    """Every option of ``rules`` but ``rules_version``: what a game plays."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name != "rules_version"}


def test_every_game_has_saves_here() -> None:
    assert {case["game"] for case in SAVES} == {"dairyman", "gizmos", "roaster", "rush", "vivajava"}


@pytest.mark.parametrize("case", SAVES, ids=lambda case: f"{case['game']}-{case['variant']}")
def test_an_old_save_replays_as_it_was_played(case: dict[str, Any]) -> None:
    package = importlib.import_module(f"coffeegames.{case['game']}")
    saved = json.loads(case["walkthrough"])
    game, walk = package.load_walkthrough(case["walkthrough"])
    # the game is the one that made the save: its options as saved, the rules that code played for them
    assert game.options == saved["options"] and package.saved_game(case["walkthrough"]).options == saved["options"]
    made_by = package.Game(**{**THEN_LATEST.get(case["game"], {}), **case["options"]})
    assert rules_but_version(game.rules) == rules_but_version(made_by.rules)
    assert game.rules.rules_version == saved["options"].get("rules_version", 1)
    # the same moves, to the same last position (today's save also names the rules version)
    final = json.loads(case["final"])
    assert len(walk.moves) == case["moves"]
    again = json.loads(walk.state.to_json())
    assert again.pop("rules_version") == game.rules.rules_version and again == final
    assert game.state_from_json(case["final"]) == walk.state
    # the mid-game save loads to the position the walkthrough passed through, and saves the same again
    state = game.state_from_json(case["state"])
    assert state == walk.states[case["at"]]
    assert {**json.loads(state.to_json()), "rules_version": None} == {**json.loads(case["state"]), "rules_version": None}
    # saved again, the walkthrough is the same file (the same options, moves and generator position)
    assert json.loads(walk.to_json(game)) == saved
    assert Walkthrough.from_json(walk.to_json(game), game.new_initial_state(), game.action_kinds, game).state == walk.state
