"""Saving states as JSON and loading them back, strictly: a bad field is named, nothing half-loads.

Each engine describes its state's fields with small *parsers* (``parse(value, where)``
returning the field's value or raising :class:`~coffeegames.errors.BadData`, see :func:`bad`), and
calls :func:`save_state` / :func:`load_state`.

Example:
    >>> whole(3, "turn"), flag(True, "done"), list_of(whole)([1, 2], "dice")
    (3, True, (1, 2))
    >>> whole(-1, "turn")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: saved state: field 'turn': must be a whole number, 0 or more; got -1
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import typing
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ..errors import BadArgument, BadData, CoffeeGamesError
from ..validate import Checker, read_json

__all__ = [
    "GameBase", "Parser", "SAVED", "SAVED_GAME", "game_from_options", "SavedState", "bad", "flag", "list_of", "load_state", "plain", "record",
    "save_state", "text", "whole",
]

Parser = Callable[[Any, str], Any]
"""Parses one field of a saved state: ``parser(value, where)`` returns the field's value or raises ``BadData``."""


SAVED = Checker("saved state")
"""The checker for every saved state's fields."""


def bad(where: str, why: str, value: Any) -> BadData:
    """The error for a malformed field, naming it."""
    error = SAVED.error(where, why, value)
    assert isinstance(error, BadData)
    return error


def plain(value: Any) -> Any:
    """Tuples (nested) as lists, for JSON."""
    return [plain(v) for v in value] if isinstance(value, tuple) else value


def whole(value: Any, where: str) -> int:
    """A whole number, 0 or more."""
    return SAVED.whole(value, where)


def flag(value: Any, where: str) -> bool:
    """true or false."""
    return SAVED.flag(value, where)


def text(value: Any, where: str) -> str:
    """A string."""
    return SAVED.text(value, where)


def list_of(item: Parser, sort: bool = False) -> Parser:
    """A parser for a list of items (a tuple, sorted if ``sort``)."""

    def parse(value: Any, where: str) -> tuple:
        items = SAVED.sequence(value, where, item)
        return tuple(sorted(items)) if sort else items

    return parse


def record(kind: type, parsers: Mapping[str, Parser]) -> Parser:
    """A parser for a JSON object holding exactly the fields of the dataclass ``kind``."""

    def parse(value: Any, where: str) -> Any:
        SAVED.fields(value, where, list(parsers), list(parsers), comments=False)
        return kind(**{k: p(value[k], f"{where}.{k}") for k, p in parsers.items()})

    return parse


def save_state(state: Any, game: str, fmt: str, skip: tuple[str, ...] = ("rules",)) -> str:
    """A dataclass state as JSON: ``{"format", "game", "state": {field: value}}`` (dataclass fields as objects)."""

    def encode(value: Any) -> Any:
        if dataclasses.is_dataclass(value):
            return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, tuple):
            return [encode(v) for v in value]
        return value

    fields = {f.name: encode(getattr(state, f.name)) for f in dataclasses.fields(state) if f.name not in skip}
    return json.dumps({"format": fmt, "game": game, "state": fields})


def load_state(text_: str, game: str, fmt: str, parsers: Mapping[str, Parser]) -> dict[str, Any]:
    """Parse JSON saved by :func:`save_state` into field values; every field must be present and valid."""
    data = read_json(text_, "saved state")
    SAVED.need(isinstance(data, dict) and data.get("format") == fmt and data.get("game") == game, "(top level)",
               f"must be a JSON object with format {fmt!r} and game {game!r}", data)
    SAVED.need(isinstance(data.get("state"), dict), "state", "must be an object", data.get("state"))
    fields = SAVED.fields(data["state"], "", list(parsers), list(parsers), comments=False)
    return {name: parse(fields[name], name) for name, parse in parsers.items()}


class SavedState:
    """Mixin for an engine's dataclass state with a ``rules`` field: ``to_json`` / ``from_json``.

    The engine sets ``GAME``, ``FORMAT`` and ``FIELD_PARSERS`` (field → parser) on its class;
    a loaded state is passed through its ``check()`` so a malformed one never loads.
    """

    GAME: ClassVar[str] = ""
    FORMAT: ClassVar[str] = ""
    FIELD_PARSERS: ClassVar[Mapping[str, Parser]] = {}

    def to_json(self) -> str:
        """This state as JSON (the rules are the game's: load with ``Game(...).state_from_json``)."""
        return save_state(self, self.GAME, self.FORMAT)

    @classmethod
    def from_json(cls, saved: str, rules: Any) -> Any:
        """Rebuild a state saved by :meth:`to_json`; a malformed one is rejected with a message naming the field."""
        state: Any = cls(rules=rules, **load_state(saved, cls.GAME, cls.FORMAT, cls.FIELD_PARSERS))  # type: ignore[call-arg]
        return state.check()  # every engine's State defines check()


SAVED_GAME = Checker("saved game")
"""The checker for saved walkthroughs (games), as ``SAVED`` is for saved states."""


def game_from_options(make: Callable[..., Any], options: Mapping[str, Any]) -> Any:
    """``make(**options)`` for the options a saved game records; options no version of the game takes are
    refused as :class:`~coffeegames.errors.BadData` naming them, never a bare ``TypeError``."""
    try:
        return make(**options)
    except (CoffeeGamesError, TypeError) as error:
        raise SAVED_GAME.error("options", f"are not options of this version of the game: {error}", dict(options)) from None


def load_walkthrough(text_: str, saved_game: Callable[[str], Any], seeded_start: bool = False) -> tuple[Any, Any]:
    """``(game, walkthrough)``: a walkthrough saved by ``Walkthrough.to_json(game)``, replayed under the game
    ``saved_game(text)`` says it was played under (each game package's ``saved_game`` knows its rules versions).

    ``seeded_start``: whether its first state was ``game.new_initial_state(seed=seed)`` rather than the
    unseeded ``new_initial_state()`` the views start from.
    """
    from .walkthrough import Walkthrough

    game = saved_game(text_)
    data = read_json(text_, "saved game")
    seed = data.get("seed") if isinstance(data, dict) else None
    initial = game.new_initial_state(seed=seed) if seeded_start else game.new_initial_state()
    return game, Walkthrough.from_json(text_, initial, game.action_kinds, game)


_OPTIONS: dict[type, tuple[str, ...]] = {}


def _option_names(game: type) -> tuple[str, ...]:
    """The options a game's ``Game(...)`` takes: its named parameters, then the fields of its ``Rules`` (the type of
    its states' ``rules`` field).

    >>> from coffeegames.rush import Game
    >>> _option_names(Game)[:3]
    ('players', 'penalty_limit', 'rush_tokens')
    """
    if game not in _OPTIONS:
        named = [p.name for p in list(inspect.signature(getattr(game, "__init__")).parameters.values())[1:]
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        rules = typing.get_type_hints(getattr(game, "state_class", object)).get("rules")
        fields = [f.name for f in dataclasses.fields(rules) if f.init] if dataclasses.is_dataclass(rules) else []
        _OPTIONS[game] = tuple(dict.fromkeys(named + fields))
    return _OPTIONS[game]


class GameBase:
    """What every engine's ``Game`` shares: its ``rules``, the ``options`` it was made with, loading saved states."""

    name = ""
    state_class: type[SavedState] = SavedState
    rules: Any
    options: dict[str, Any]

    def __new__(cls, *args: Any, **options: Any) -> Any:
        """Refuse an option the game does not have before ``__init__`` runs: a
        :class:`~coffeegames.errors.BadArgument` naming it and the options there are (never a bare ``TypeError``)."""
        names = _option_names(cls)
        for name in options:
            if name not in names:
                raise BadArgument(name, f"is not an option of {cls.name or cls.__name__}; its options are {', '.join(names)}")
        return super().__new__(cls)

    def state_from_json(self, saved: str) -> Any:
        """Load a state saved by ``State.to_json`` under this game's rules."""
        return self.state_class.from_json(saved, self.rules)

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"Game({options})"
