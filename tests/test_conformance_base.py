"""The one game base, checked over every game and variant of the registry (issue 26).

Each shared piece runs over every ``(game, variant)`` that :func:`coffeegames.games` lists, so a new game or
variant is checked by adding it to the registry:

* saves and rules versions: a seeded game saved (``Walkthrough.to_json``) loads back, through the package's
  ``load_walkthrough``, to the same game, moves and position; a state saved mid-game loads to the same state; a
  game played under an older rules version, saved, loads under that version (its own rules), and a save naming no
  version loads as version 1;
* advice rows: ``advise`` gives one :class:`~coffeegames.engine.Advice` per legal action, each value an exact
  ``Fraction`` (no sample) or an estimate with its sample, or None;
* the text parser (``parse_outcome`` in the game's package, :mod:`coffeegames.<game>.typed`): at the chance nodes
  a seeded game meets, the example it gives (``outcome_example``, also the hint's) reads back to an outcome the
  node can give, and garbage is refused with ``BadEntry``, a non-text with ``BadType``;
* the walkthrough factory: every game's ``*_walkthrough`` refuses the same bad ``human``, ``seed`` and option with
  the same error class.

The games are short (a few dozen moves) and the advisers asked for their quickest answer: the suite takes seconds.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from coffeegames import games
from coffeegames.engine import Advice, Walkthrough, random_policy
from coffeegames.errors import BadArgument, BadEntry, BadType

CASES = [(name, variant) for name, info in games().items() for variant in info.variants]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in variant.items()) or 'default'}" for name, variant in CASES]
MOVES = 40
"""Moves each seeded game plays: past the setup into the first turns of every game."""


def played(name: str, variant: dict[str, Any], seed: int = 3, moves: int = MOVES, **options: Any) -> tuple[Any, Walkthrough]:
    """``(game, walkthrough)``: a seeded random game of the variant (with ``options``), cut after ``moves`` moves."""
    game = games()[name].game(**variant, **options)
    walk = Walkthrough(game.new_initial_state(), seed=seed)
    walk.run(random_policy(np.random.default_rng([seed, len(IDS)])), until=lambda _: len(walk.moves) >= moves)
    return game, walk


def versions(game: Any) -> range:
    """The rules versions of a game's ``Rules``: 1 to the latest."""
    return range(1, type(game.rules).VERSIONS.latest + 1)


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_a_save_loads_back_to_the_same_game(name: str, variant: dict[str, Any]) -> None:
    info = games()[name]
    game, walk = played(name, variant)
    text = walk.to_json(game)
    again, loaded = info.load_walkthrough(text)
    assert again.rules == game.rules and again.options == game.options
    assert loaded.moves == walk.moves and loaded.state == walk.state
    assert json.loads(loaded.to_json(again)) == json.loads(text)  # saved again, the same file
    middle = walk.states[len(walk.moves) // 2]
    saved = json.loads(middle.to_json())
    assert saved["game"] == name and saved["rules_version"] == game.rules.rules_version
    assert game.state_from_json(middle.to_json()) == middle


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_an_old_version_save_plays_by_its_version(name: str, variant: dict[str, Any]) -> None:
    info = games()[name]
    latest = games()[name].game(**variant)
    for version in versions(latest):
        game, walk = played(name, variant, moves=12, rules_version=version)
        again, loaded = info.load_walkthrough(walk.to_json(game))
        assert again.rules.rules_version == version and again.rules == game.rules
        assert loaded.state == walk.state
    # a save naming no version was made before versions were recorded: it is version 1, with version 1's defaults
    game, walk = played(name, variant, moves=12, rules_version=1)
    saved = json.loads(walk.to_json(game))
    saved["options"].pop("rules_version", None)
    again, loaded = info.load_walkthrough(json.dumps(saved))
    assert again.rules.rules_version == 1 and again.rules == game.rules and loaded.state == walk.state


QUICK_ADVICE: dict[str, dict[str, Any]] = {"gizmos": {"playouts": 4}, "dairyman": {"max_states": 2_000}}
"""Each adviser's quickest answer (fewest playouts, a small budget): the rows' types are what is checked."""


def _decisions(walk: Walkthrough, most: int = 2) -> list[Any]:
    found = [s for s in walk.states if not s.is_chance() and not s.is_terminal()]
    return found[:1] + found[-1:] if len(found) > 1 else found[:most]


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_advice_rows_are_typed(name: str, variant: dict[str, Any]) -> None:
    package = games()[name].module
    game, walk = played(name, variant, moves=16 if name == "roaster" else MOVES)
    decisions = _decisions(walk)
    assert decisions, "a seeded game meets a decision"
    for state in decisions:
        rows = package.advise(state, **QUICK_ADVICE.get(name, {}))
        assert all(isinstance(row, Advice) for row in rows)
        assert sorted(map(str, (row.action for row in rows))) == sorted(map(str, state.legal_actions()))
        assert sum(row.best for row in rows) <= len(rows) and isinstance(rows[0].label, str)
        for row in rows:
            if row.value is None:
                assert row.sample is None and row.exact is None
            elif row.sample is None:  # exact: a Fraction, never a float
                assert type(row.value) is Fraction and row.exact is True
            else:  # an estimate: its mean, with the sample behind it
                assert type(row.value) is Fraction and row.exact is False
                assert row.sample.stderr >= 0 or (row.sample.size or 0) < 2  # one playout has no spread to measure
            assert row.risk is None or (type(row.risk) is Fraction and 0 <= row.risk <= 1)


def _chance_nodes(walk: Walkthrough, most: int = 4) -> list[Any]:
    nodes = [s for s in walk.states if s.is_chance()]
    step = max(1, len(nodes) // most)
    return nodes[::step][:most]


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_the_text_parser_reads_its_own_example_and_refuses_garbage(name: str, variant: dict[str, Any]) -> None:
    package = games()[name].module
    game, walk = played(name, variant)
    typed = 0
    for state in _chance_nodes(walk):
        example = package.outcome_example(state)
        if example is None:  # a chance move nobody types (Roaster's shuffle of the cup effects)
            continue
        typed += 1
        outcome = package.parse_outcome(example, state)
        assert outcome in {o for o, _ in state.chance_outcomes()} and state.is_legal_outcome(outcome)
        assert example in package.outcome_hint(state)
        with pytest.raises(BadEntry):
            package.parse_outcome("@@ nonsense %% 17 ::", state)
        with pytest.raises(BadType):
            package.parse_outcome(None, state)
    assert typed, "a seeded game meets a chance move a person types"
    assert package.parse_outcome is package.typed.parse_outcome  # the parser lives in the game's package


def test_dairyman_reads_a_roll_with_every_die_frozen() -> None:
    from coffeegames import dairyman

    def nothing_rolled(state: Any) -> bool:
        return state.is_chance() and state.phase == "roll" and state.rolling == 0 and not state.rolls_yellow

    rng = np.random.default_rng(0)
    for seed in range(60):  # random play reaches such a roll within the first seeds (seed 0 does)
        state = dairyman.Game(players=2).new_initial_state(seed=seed)
        while not (state.is_terminal() or nothing_rolled(state)):
            moves = [o for o, _ in state.chance_outcomes()] if state.is_chance() else state.legal_actions()
            state = state.apply(moves[rng.integers(len(moves))])
        if nothing_rolled(state):
            break
    assert nothing_rolled(state), "random play reaches a roll of no dice"
    (only, _), = state.chance_outcomes()
    assert dairyman.parse_outcome(dairyman.outcome_example(state), state) == only
    assert "empty" in dairyman.outcome_hint(state)


def _walkthrough(name: str) -> Any:
    from coffeegames import widgets

    return getattr(widgets, f"{name}_walkthrough")


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_the_walkthrough_factory_checks_its_arguments_once(name: str, variant: dict[str, Any]) -> None:
    make = _walkthrough(name)
    bad: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"human": "0"}, BadType, "human"),
        ({"human": 0}, BadType, "human"),
        ({"human": (99,)}, BadArgument, "human"),
        ({"human": (0, 0)}, BadArgument, "human"),
        ({"seed": "x"}, BadType, "seed"),
        ({"seed": -1}, BadArgument, "seed"),
        ({"no_such_option": 1}, BadArgument, "no_such_option"),
    ]
    for arguments, error, named in bad:
        with pytest.raises(error) as raised:
            make(**variant, **arguments)
        assert type(raised.value) is error and named in str(raised.value) and len(str(raised.value)) < 1000, arguments


def test_every_game_has_the_shared_pieces() -> None:
    for name, info in games().items():
        package = info.module
        for piece in ("Game", "State", "advise", "describe", "parse_outcome", "outcome_hint", "outcome_example",
                      "load_walkthrough", "saved_game", "typed"):
            assert hasattr(package, piece), f"{name} lacks {piece}"
        assert dataclasses.is_dataclass(info.game().rules) and hasattr(type(info.game().rules), "VERSIONS")
