"""The State contract shared by every game engine (``docs/architecture.md``, "The State contract").

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
from abc import ABC, abstractmethod
from bisect import bisect_right
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import repeat
from operator import is_
from typing import Any, ClassVar, Self, TypeVar, overload

import numpy as np

from ..errors import BadType, IllegalAction, TooBig, shown
from ..exact.draws import _random
from ..validate import Checker, check_instance

__all__ = ["CHANCE", "TERMINAL", "Action", "IllegalAction", "Outcome", "State", "action_from_json", "action_to_json"]

CHANCE = -1
"""``current_player()`` at a chance node."""
TERMINAL = -2
"""``current_player()`` once the game is over."""

Action = Hashable
Outcome = Hashable


class State(ABC):
    """Base class for immutable game states. Subclasses implement the ``_`` hooks.

    ``current_player``, ``_apply`` and ``returns`` are abstract; an engine declares its
    per-game constants on its class as ``ClassVar`` s.
    """

    MAX_LISTED: ClassVar[int | None] = None
    """The most outcomes :meth:`chance_outcomes` lists (None: no limit). An engine whose chance nodes can be huge
    sets it (and counts them in :meth:`chance_outcome_count` without listing): a bigger node is refused with
    :class:`~coffeegames.errors.TooBig` naming its count, :meth:`sample_chance` and :attr:`EXACT_LAW`."""
    EXACT_LAW: ClassVar[str] = "the game's odds module"
    """Where the exact law of a chance node too big to list is asked (named when :meth:`chance_outcomes` refuses)."""
    _draw_legal: ClassVar[Callable[[Any, Callable[[int], int]], Action | None] | None] = None
    """An engine's own way for :func:`~coffeegames.engine.solve.random_policy` to draw its action (None: from the whole
    list): given ``below`` (``below(n)`` draws 0 to n - 1), the action that policy draws from :meth:`legal_actions`,
    with the same draws, without listing what it need not (a kind the draw did not choose); or None, having drawn
    nothing, where it has no shortcut (the policy then draws from the whole list)."""

    # -- hooks for engines ---------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The index of the player to act, :data:`CHANCE` or :data:`TERMINAL`."""

    def _legal_actions(self) -> Sequence[Action]:
        return ()

    def _chance_outcomes(self) -> Sequence[tuple[Outcome, Fraction]]:
        return ()

    @abstractmethod
    def _apply(self, action: Action) -> Self:
        """The next state; ``action`` is already known to be legal."""

    @abstractmethod
    def returns(self) -> tuple[Fraction | int, ...]:
        """Each player's result at a terminal state."""

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
        return list(self._legal_now())

    def _legal_now(self) -> Sequence[Action]:
        """:meth:`legal_actions` without the copy, for the engine's own loops (which never change it)."""
        if self.current_player() < 0:  # CHANCE or TERMINAL
            return ()
        return self._legal_actions()

    def chance_outcomes(self) -> list[tuple[Outcome, Fraction]]:
        """``[(outcome, exact probability)]`` summing to 1 at a chance node; a node over :attr:`MAX_LISTED` outcomes
        is refused with :class:`~coffeegames.errors.TooBig` (none listed)."""
        if self.current_player() != CHANCE:
            return []
        if self.MAX_LISTED is not None and (count := self.chance_outcome_count()) > self.MAX_LISTED:
            raise TooBig("state", f"this chance node has {count:,} outcomes, more than the {self.MAX_LISTED:,} "
                         f"it lists; draw one with sample_chance(rng), or ask {self.EXACT_LAW} for the exact law of what "
                         f"matters about it")
        return list(self._chance_outcomes())

    def to_json(self) -> str:
        """This state as JSON text (engines provide it through :class:`~coffeegames.engine.saved.SavedState`)."""
        raise NotImplementedError(f"{type(self).__name__} cannot be saved")

    def chance_outcome_count(self) -> int:
        """How many outcomes :meth:`chance_outcomes` lists (0 away from chance nodes).

        Engines whose chance nodes can be huge override this to count without listing, so
        generic code (solvers, tests, views) can decide to sample instead of listing.
        """
        return len(self.chance_outcomes())

    def apply(self, action: Action) -> Self:
        """The state after ``action`` (or chance ``outcome``); raises :class:`IllegalAction` if not allowed."""
        return self._apply_as(self.current_player(), action)

    def _apply_as(self, player: int, action: Action) -> Self:
        """:meth:`apply` for a caller that has just asked ``current_player()`` (``player``): the same checks."""
        if player == TERMINAL:
            raise IllegalAction(f"the game is over; no action can be applied (got {shown(action)})")
        if player == CHANCE:
            if not self.is_legal_outcome(action):
                raise IllegalAction(f"{shown(action)} is not a possible outcome of this chance node")
        else:
            legal = self._legal_actions()
            if not any(map(is_, legal, repeat(action))) and not _among(action, legal):  # (_among's first test, inline)
                listed = ", ".join(map(str, legal))
                raise IllegalAction(f"{shown(action)} is not legal here; the legal actions are: {listed}")
        return self._apply(action)

    def _with(self, changed: Mapping[str, Any] | None = None, /, **changes: Any) -> Self:
        """A copy of a dataclass state with ``changes`` (like ``dataclasses.replace`` but faster:
        nothing is validated, and cached properties are not carried over). Changes gathered in a dict may be
        given as ``changed``, before any keywords: ``state._with(changes)`` spares the keyword arguments that
        ``state._with(**changes)`` builds from it (7% of a VivaJava playout, whose turns change a dozen fields)."""
        kind = type(self)
        new = object.__new__(kind)
        values = self.__dict__
        fresh = values.copy()  # an instance's dict shares its keys with its class's: copied without rehashing
        count, cached = _SHAPES.get(kind) or _shape(kind)
        if len(fresh) != count:  # what cached properties stored (the usual extra): left behind
            for name in cached:
                fresh.pop(name, None)
            if len(fresh) != count:  # something else besides: keep the fields only
                fresh = {name: values[name] for name in _field_names(kind)}
        if changed:
            fresh.update(changed)
        if changes:
            fresh.update(changes)
        _set_attribute(new, "__dict__", fresh)
        return new

    def sample_chance(self, rng: np.random.Generator) -> Outcome:
        """Draw one chance outcome with its exact probability: ``rng`` checked, then :meth:`_draw_chance`."""
        return self._draw_chance(check_instance(rng, np.random.Generator, "rng", "a numpy Generator (numpy.random.default_rng(seed))"))

    def _draw_chance(self, rng: np.random.Generator) -> Outcome:
        """:meth:`sample_chance` for a caller that has checked ``rng`` already (``play_out``: once a game, not once a
        draw): the same draw, the same errors otherwise. An engine with its own draw overrides this one; by default the
        generic draw (:meth:`_draw_listed`)."""
        return self._draw_listed(rng)

    def _draw_listed(self, rng: np.random.Generator) -> Outcome:
        """The generic draw of :meth:`sample_chance` (``rng`` checked): from the listed outcomes' odds."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalAction("sample_chance needs a chance node")
        weights = tuple([float(p) for _, p in outcomes])
        cdf = _small_cdf(weights) if len(weights) <= _CACHED_CDF_SIZE else _cdf(weights)
        return outcomes[bisect_right(cdf, _random(rng))][0]  # rng.random(); numpy's searchsorted(cdf, u, side="right")


def _among(action: Action, legal: Sequence[Action]) -> bool:
    """``action in legal``, first by identity: a policy returns one of the listed objects, found without
    calling ``__eq__`` on the ones before it."""
    if any(map(is_, legal, repeat(action))):
        return True
    try:
        return action in legal
    except TypeError:  # an unhashable action against a set of legal ones
        return False


def _cdf(weights: tuple[float, ...]) -> tuple[float, ...]:
    """The cumulative odds :meth:`State.sample_chance` searches, made by numpy's float operations (what
    ``rng.choice(len(weights), p=...)`` computes without its checks), so every seeded draw stays the same."""
    array = np.array(weights)
    cdf = (array / array.sum()).cumsum()
    cdf /= cdf[-1]
    return tuple(cdf.tolist())


_CACHED_CDF_SIZE = 64
"""Chance nodes of at most this many outcomes keep their cumulative odds in :func:`_small_cdf` (the same few come back: a die, a deal)."""
_small_cdf = lru_cache(maxsize=4096)(_cdf)


T = TypeVar("T")


class cached_state(cached_property[T]):
    """:func:`functools.cached_property` for immutable states, without its lock.

    Python 3.11's ``cached_property`` takes one lock per property, shared by every instance, on
    each first access; a state never changes, so two threads computing the same value at once
    both get an equal one, and the lock is pure cost (a tenth of a random playout's time).
    Like ``cached_property`` the value lives in the instance's ``__dict__``, and
    :meth:`State._with` leaves it behind.
    """

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> Self: ...
    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> T: ...
    def __get__(self, instance: object | None, owner: type[Any] | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.attrname] = self.func(instance)  # type: ignore[index]
        return value


@lru_cache(maxsize=None)
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


def _cached_names(kind: type) -> tuple[str, ...]:
    """The names under which ``kind``'s cached properties store their values in an instance's ``__dict__``."""
    return tuple({value.attrname or name for klass in kind.__mro__ for name, value in vars(klass).items() if isinstance(value, cached_property)})


_set_attribute = object.__setattr__
"""``object.__setattr__``, which :meth:`State._with` sets a frozen state's ``__dict__`` with (read once, not at each copy)."""

_SHAPES: dict[type, tuple[int, tuple[str, ...]]] = {}
"""Each state class's number of fields and :func:`_cached_names`, for :meth:`State._with` (one dict lookup)."""


def _shape(kind: type) -> tuple[int, tuple[str, ...]]:
    return _SHAPES.setdefault(kind, (len(_field_names(kind)), _cached_names(kind)))


# -- JSON for actions -----------------------------------------------------------

def action_to_json(action: Any) -> Any:
    """A JSON-ready form of an action: ``{"type": name, **fields}`` for dataclasses."""
    if dataclasses.is_dataclass(action):
        fields = {f.name: _plain(getattr(action, f.name)) for f in dataclasses.fields(action)}
        return {"type": type(action).__name__, **fields}
    return _plain(action)


SAVED_MOVE = Checker("saved move")


def action_from_json(data: Any, kinds: Sequence[type]) -> Any:
    """Rebuild an action made by :func:`action_to_json`, given the action classes allowed."""
    if isinstance(kinds, (str, bytes)) or not isinstance(kinds, Sequence) or not all(dataclasses.is_dataclass(k) and isinstance(k, type) for k in kinds):
        raise BadType("kinds", "must be a list of action classes", kinds)
    if isinstance(data, dict):
        by_name = {k.__name__: k for k in kinds}
        name = data.get("type")
        if not isinstance(name, str) or name not in by_name:
            raise SAVED_MOVE.error("type", f"unknown action type; expected one of {', '.join(sorted(by_name))}", name)
        kind = by_name[name]
        names = [f.name for f in dataclasses.fields(kind)]
        SAVED_MOVE.fields(data, "", ["type", *names], ["type"], comments=False)
        try:
            return kind(**{k: _tuple(v) for k, v in data.items() if k != "type"})
        except TypeError as error:  # a required field missing
            raise SAVED_MOVE.error(name, f"cannot be built from these fields ({error})", data) from None
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
