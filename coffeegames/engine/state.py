"""The State contract shared by every game engine (see DESIGN.md).

A game is a tree of immutable, hashable states. At each state either a player acts
(``legal_actions()``), chance acts (``chance_outcomes()``, exact ``Fraction`` odds
summing to 1), or the game is over (``returns()``). ``apply`` never changes a state:
it returns the next one, so solvers can memoise and a walkthrough can undo for free.
An illegal action raises :class:`IllegalAction` naming the legal ones.

Engines subclass :class:`State` (usually as a frozen dataclass) and implement the
underscored hooks; the public methods add validation around them.

Example (a one-coin game):
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Coin(State):
    ...     face: str | None = None
    ...     def current_player(self): return TERMINAL if self.face else CHANCE
    ...     def _chance_outcomes(self): return [("H", Fraction(1, 2)), ("T", Fraction(1, 2))]
    ...     def _apply(self, outcome): return Coin(outcome)
    ...     def returns(self): return (1 if self.face == "H" else 0,)
    >>> Coin().apply("H").returns()
    (1,)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

CHANCE = -1
"""``current_player()`` at a chance node."""
TERMINAL = -2
"""``current_player()`` once the game is over."""

Action = Hashable
Outcome = Hashable


class IllegalAction(ValueError):
    """An action or chance outcome that is not allowed here; the state is unchanged."""


class State:
    """Base class for immutable game states. Subclasses implement the ``_`` hooks."""

    # -- hooks for engines ---------------------------------------------------
    def current_player(self) -> int:
        """The index of the player to act, :data:`CHANCE` or :data:`TERMINAL`."""
        raise NotImplementedError

    def _legal_actions(self) -> Sequence[Action]:
        return ()

    def _chance_outcomes(self) -> Sequence[tuple[Outcome, Fraction]]:
        return ()

    def _apply(self, action: Action) -> State:
        raise NotImplementedError

    def returns(self) -> tuple[Fraction | int, ...]:
        """Each player's result at a terminal state."""
        raise NotImplementedError

    def is_legal_outcome(self, outcome: Outcome) -> bool:
        """Whether ``outcome`` can happen at this chance node (override when the list is huge)."""
        return any(outcome == o for o, _ in self._chance_outcomes())

    # -- the contract --------------------------------------------------------
    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take (empty at chance and terminal states)."""
        if self.is_chance() or self.is_terminal():
            return []
        return list(self._legal_actions())

    def chance_outcomes(self) -> list[tuple[Outcome, Fraction]]:
        """``[(outcome, exact probability)]`` summing to 1 at a chance node."""
        if not self.is_chance():
            return []
        return list(self._chance_outcomes())

    def apply(self, action: Action) -> State:
        """The state after ``action`` (or chance ``outcome``); raises :class:`IllegalAction` if not allowed."""
        if self.is_terminal():
            raise IllegalAction(f"the game is over; no action can be applied (got {action})")
        if self.is_chance():
            if not self.is_legal_outcome(action):
                raise IllegalAction(f"{action!r} is not a possible outcome of this chance node")
        else:
            legal = self._legal_actions()
            if action not in legal:
                listed = ", ".join(map(str, legal))
                raise IllegalAction(f"{action} is not legal here; the legal actions are: {listed}")
        return self._apply(action)

    def _with(self, **changes: Any) -> State:
        """A copy of a dataclass state with ``changes`` (like ``dataclasses.replace`` but faster:
        nothing is validated, and cached properties are not carried over)."""
        new = object.__new__(type(self))
        new.__dict__.update({name: self.__dict__[name] for name in _field_names(type(self))}, **changes)
        return new

    def sample_chance(self, rng: np.random.Generator) -> Outcome:
        """Draw one chance outcome with its exact probability."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalAction("sample_chance needs a chance node")
        weights = np.array([float(p) for _, p in outcomes])
        return outcomes[int(rng.choice(len(outcomes), p=weights / weights.sum()))][0]


@lru_cache(maxsize=None)
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


# -- JSON for actions -----------------------------------------------------------

def action_to_json(action: Any) -> Any:
    """A JSON-ready form of an action: ``{"type": name, **fields}`` for dataclasses."""
    if dataclasses.is_dataclass(action):
        fields = {f.name: _plain(getattr(action, f.name)) for f in dataclasses.fields(action)}
        return {"type": type(action).__name__, **fields}
    return _plain(action)


def action_from_json(data: Any, kinds: Sequence[type]) -> Any:
    """Rebuild an action made by :func:`action_to_json`, given the action classes allowed."""
    if isinstance(data, dict):
        by_name = {k.__name__: k for k in kinds}
        name = data.get("type")
        if name not in by_name:
            raise ValueError(f"unknown action type {name!r}; expected one of {sorted(by_name)}")
        kind = by_name[name]
        names = {f.name for f in dataclasses.fields(kind)}
        extra = set(data) - names - {"type"}
        if extra:
            raise ValueError(f"action {name} has unknown fields {sorted(extra)}; expected {sorted(names)}")
        return kind(**{k: _tuple(v) for k, v in data.items() if k != "type"})
    return _tuple(data)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return str(value)
    return value


def _tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    return value
