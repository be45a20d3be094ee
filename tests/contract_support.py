"""What the conformance suites share: the registry's cases, seeded random playouts, the illegal moves to try.

Used by ``test_contract.py`` (checks over seeded random playouts) and
``test_walkthrough_machine.py`` (a Hypothesis state machine over the ``Walkthrough``).
Everything here goes through public names only: ``coffeegames.games()`` and the State
contract of ``coffeegames.engine``, so a game added to the registry is tested with no change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

import coffeegames
from coffeegames.engine import IllegalAction, State

__all__ = [
    "CASES",
    "GAME_CASES",
    "LIST_LIMIT",
    "MAX_STEPS",
    "Alien",
    "Playout",
    "assert_unchanged",
    "case_id",
    "distinct_moves",
    "expect_illegal",
    "foreign_actions",
    "illegal_moves",
    "make_game",
    "outcome_count",
    "playout",
    "random_action",
    "snapshot",
]

LIST_LIMIT = 5_000
"""Chance nodes with at most this many outcomes are listed and checked exactly; larger ones are sampled."""

MAX_STEPS = 50_000
"""A seeded random game must end within this many moves (chance moves count); the longest seen is ~7,300."""

def case_id(name: str, options: dict[str, Any]) -> str:
    """``dairyman-players=2``: a readable test id for one game and variant."""
    return "-".join([name] + [f"{k}={v}" for k, v in options.items()]) if options else f"{name}-default"


def _cases() -> list[Any]:
    return [
        pytest.param(name, options, id=case_id(name, options))
        for name, info in coffeegames.games().items()
        for options in info.variants
    ]


CASES = _cases()
"""``(game name, Game options)`` for every game of the registry and every variant it lists."""

GAME_CASES = [pytest.param(name, id=name) for name in coffeegames.games()]
"""Every game of the registry, once."""


def make_game(name: str, options: dict[str, Any]) -> Any:
    """``Game(**options)`` of the registered game ``name``."""
    return coffeegames.games()[name].game(**options)


def outcome_count(state: State) -> int:
    """``state.chance_outcome_count()`` (counted without listing where the engine can)."""
    return state.chance_outcome_count()


def random_action(state: State, rng: np.random.Generator) -> Any:
    """A uniformly random legal action, or a chance outcome drawn with its probability."""
    if state.is_chance():
        return state.sample_chance(rng)
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


@dataclasses.dataclass(frozen=True)
class Playout:
    """A seeded random game: ``states[i + 1] == states[i].apply(actions[i])``; the last state is terminal."""

    name: str
    options: dict[str, Any]
    seed: int
    game: Any
    states: tuple[State, ...]
    actions: tuple[Any, ...]

    def deep(self, budget: int = 300) -> list[int]:
        """Indices of the states given every (costly) check: all of a short game; of a long one the first
        150, the last 50 and ~100 spread evenly between (a random Dairyman game runs to thousands of moves)."""
        n = len(self.states)
        if n <= budget:
            return list(range(n))
        spread = np.linspace(150, n - 51, 100).astype(int).tolist()
        return sorted(set(range(150)) | set(spread) | set(range(n - 50, n)))


def play(game: Any, seed: int) -> tuple[tuple[State, ...], tuple[Any, ...]]:
    """Play ``game`` from ``new_initial_state(seed=seed)`` with random moves from a generator seeded by ``seed``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=seed)
    states: list[State] = [state]
    actions: list[Any] = []
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return tuple(states), tuple(actions)
        action = random_action(state, rng)
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    raise AssertionError(f"{game!r} seed {seed}: no end within {MAX_STEPS} random moves")


@lru_cache(maxsize=None)
def _playout(name: str, items: tuple[tuple[str, Any], ...], seed: int) -> Playout:
    options = dict(items)
    game = make_game(name, options)
    states, actions = play(game, seed)
    return Playout(name, options, seed, game, states, actions)


def playout(name: str, options: dict[str, Any], seed: int) -> Playout:
    """The seeded random game of ``name`` with ``options`` (played once, shared by every check)."""
    return _playout(name, tuple(options.items()), seed)


@dataclasses.dataclass(frozen=True)
class Alien:
    """An action of no game at all."""

    what: str = "alien"


def foreign_actions(name: str, steps: int = 40) -> list[Any]:
    """Actions and chance outcomes of the *other* registered games (from a short seeded game of each), and :class:`Alien`."""
    found: list[Any] = [Alien()]
    for other, info in coffeegames.games().items():
        if other == name:
            continue
        game = info.game(**info.variants[0])
        rng = np.random.default_rng(0)
        state = game.new_initial_state(seed=0)
        for _ in range(steps):
            if state.is_terminal():
                break
            action = random_action(state, rng)
            if dataclasses.is_dataclass(action) and action not in found:
                found.append(action)
            state = state.apply(action)
    return found


def distinct_moves(moves: tuple[Any, ...], limit: int = 40) -> list[Any]:
    """Up to ``limit`` different moves of a game, taking every kind (class) in turn so each kind is there."""
    by_kind: dict[type, list[Any]] = {}
    for move in moves:
        same = by_kind.setdefault(type(move), [])
        if len(same) < limit and move not in same:
            same.append(move)
    picked: list[Any] = []
    for i in range(max(map(len, by_kind.values()), default=0)):
        picked += [same[i] for same in by_kind.values() if i < len(same)]
    return picked[:limit]


def snapshot(state: State) -> tuple[int, str]:
    """What must not change when a state is used: its hash and its saved text."""
    return hash(state), state.to_json()


def assert_unchanged(state: State, before: tuple[int, str], copy: State, what: str) -> None:
    """``state`` still hashes, saves and compares as it did (``copy`` is an independent equal state)."""
    assert snapshot(state) == before, f"{what} changed the state (hash or saved text)"
    assert state == copy, f"{what} changed the state (no longer equal to a copy)"


def illegal_moves(state: State, seen: list[Any], foreign: list[Any]) -> Iterator[Any]:
    """Moves ``state`` must refuse: nonsense, other games' actions, and this game's moves legal elsewhere but not here."""
    yield from (None, "", "stop", "Stop()", ["not", "hashable"])
    yield from foreign
    if state.is_terminal():
        yield from seen
        return
    if state.is_chance():
        if outcome_count(state) > LIST_LIMIT:
            return  # no listing here: other nodes' outcomes may be possible ones
        here = {o for o, _ in state.chance_outcomes()}
    else:
        here = set(state.legal_actions())
    yield from (m for m in seen if m not in here)


def expect_illegal(state: State, moves: Iterable[Any]) -> None:
    """``state.apply(move)`` raises :class:`IllegalAction` for each move and leaves ``state`` as it was."""
    before = snapshot(state)
    for move in moves:
        with pytest.raises(IllegalAction):
            state.apply(move)
        assert hash(state) == before[0], f"a refused {move!r} changed the state's hash"
    assert snapshot(state) == before, "a refused move changed the state's saved text"
