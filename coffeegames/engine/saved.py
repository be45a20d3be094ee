"""Saving states and games as JSON and loading them back, strictly: a bad field is named, nothing half-loads.

Each engine describes its state's fields with small *parsers* (``parse(value, where)``
returning the field's value or raising :class:`~coffeegames.errors.BadData`, see :func:`bad`);
its ``State`` mixes in :class:`SavedState` and its ``Game`` :class:`GameBase`, which write and
read every save the same way in every game:

* a saved state names its ``format``, its ``game`` and the ``rules_version`` it was played
  under (a state saved before states recorded it names none, and loads under the game given);
* a saved walkthrough (``Walkthrough.to_json(game)``) records the game's ``options``, which
  name ``rules_version`` from version 2 on: a save naming none is version 1, and
  :meth:`GameBase.from_saved` gives back the game it was played under, with that version's
  defaults (:mod:`coffeegames.versions`), so :meth:`GameBase.load_walkthrough` replays it as it was played.

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
from collections.abc import Callable, Hashable, Mapping
from pathlib import PurePath
from typing import Any, ClassVar, Self

from ..errors import BadArgument, BadData, BadType, CoffeeGamesError
from ..validate import Checker, read_json
from .walkthrough import Walkthrough

__all__ = [
    "GameBase", "Parser", "SAVED", "SAVED_GAME", "game_from_options", "SavedState", "bad", "check_state", "flag", "list_of",
    "load_state", "plain", "record", "save_state", "saved_options", "text", "whole",
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
    """A dataclass state as JSON: ``{"format", "game", "rules_version", "state": {field: value}}`` (dataclass fields as
    objects; ``rules_version``: the state's ``rules.rules_version``)."""

    def encode(value: Any) -> Any:
        if dataclasses.is_dataclass(value):
            return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, tuple):
            return [encode(v) for v in value]
        return value

    fields = {f.name: encode(getattr(state, f.name)) for f in dataclasses.fields(state) if f.name not in skip}
    return json.dumps({"format": fmt, "game": game, "rules_version": state.rules.rules_version, "state": fields})


def load_state(text_: str, game: str, fmt: str, parsers: Mapping[str, Parser], rules_version: int = 1,
               old_formats: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Parse JSON saved by :func:`save_state` into field values; every field must be present and valid.

    A state saved under another ``rules_version`` than the game's is refused, naming the game to load it with;
    one that names none (saved before states recorded it) loads. ``old_formats``: earlier formats still read
    → the fields they lack, with the value every position saved then had.
    """
    old_formats = old_formats or {}
    data = read_json(text_, "saved state")
    SAVED.need(isinstance(data, dict) and data.get("format") in (fmt, *old_formats) and data.get("game") == game, "(top level)",
               f"must be a JSON object with format {fmt!r} and game {game!r}", data)
    SAVED.fields(data, "(top level)", ("format", "game", "rules_version", "state"), ("format", "game", "state"), comments=False)
    saved_version = data.get("rules_version", rules_version)
    SAVED.need(saved_version == rules_version, "rules_version",
               f"the position was saved under rules version {shown_version(saved_version)}; this game plays version "
               f"{rules_version}: load it with the game of its version (Game(..., rules_version={shown_version(saved_version)}))")
    SAVED.need(isinstance(data.get("state"), dict), "state", "must be an object", data.get("state"))
    state = {**old_formats.get(data["format"], {}), **data["state"]}
    fields = SAVED.fields(state, "", list(parsers), list(parsers), comments=False)
    return {name: parse(fields[name], name) for name, parse in parsers.items()}


def shown_version(version: Any) -> str:
    """A saved ``rules_version`` for a message (cut, as anything read from a file)."""
    return repr(version)[:20]


def check_state(state: Any, game: str, what: str) -> None:
    """:class:`~coffeegames.errors.BadType` unless ``state`` is a state of the game named ``game`` (``what``: its name
    in the message), so a game's position checks need not import its state class."""
    if not isinstance(state, SavedState) or state.GAME != game:
        raise BadType("state", f"must be {what}", state)


class SavedState:
    """Mixin for an engine's dataclass state with a ``rules`` field: ``to_json`` / ``from_json``.

    The engine sets ``GAME``, ``FORMAT`` and ``FIELD_PARSERS`` (field → parser) on its class, and
    ``OLD_FORMATS`` if earlier formats are still read; a loaded state is passed through its
    ``check()`` so a malformed one never loads.
    """

    GAME: ClassVar[str] = ""
    FORMAT: ClassVar[str] = ""
    FIELD_PARSERS: ClassVar[Mapping[str, Parser]] = {}
    OLD_FORMATS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    """Earlier formats still read → the fields they lack, with the value every position saved then had."""

    def to_json(self) -> str:
        """This state as JSON, naming the rules version it is played under (load with ``Game(...).state_from_json``)."""
        return save_state(self, self.GAME, self.FORMAT)

    @classmethod
    def from_json(cls, saved: str, rules: Any) -> Any:
        """Rebuild a state saved by :meth:`to_json`; a malformed one is rejected with a message naming the field."""
        version = getattr(rules, "rules_version", 1)  # (rules that are not a game's are refused by check())
        fields = load_state(saved, cls.GAME, cls.FORMAT, cls.FIELD_PARSERS, version, cls.OLD_FORMATS)
        state: Any = cls(rules=rules, **fields)  # type: ignore[call-arg]
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


def saved_options(save: Any, game: str) -> dict[str, Any]:
    """The options a saved walkthrough records, from its JSON text (or the options dict itself).

    >>> saved_options('{"game": "dairyman", "options": {"players": 3}}', "dairyman")
    {'players': 3}
    """
    if isinstance(save, str):
        data = read_json(save, "saved game")
        SAVED_GAME.need(isinstance(data, dict), "(top level)", "must be a JSON object saved by Walkthrough.to_json", data)
        SAVED_GAME.need(data.get("game") in (None, game), "game", f"this file is for another game, not {game!r}", data.get("game"))
        save = data.get("options")
    SAVED_GAME.need(save is not None, "options",
                    "this save records no options, so the rules it was played under are unknown: build the Game yourself "
                    "and load it with Walkthrough.from_json")
    SAVED_GAME.need(isinstance(save, dict) and all(isinstance(k, str) for k in save), "options", "must be an object of options", save)
    return dict(save)


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


def _file_options(game: type) -> tuple[str, ...]:
    """The options of a game's ``Rules`` that may name a data file (its bulky fields, left out of the ``repr``)."""
    rules = getattr(game, "rules_class", object)
    return tuple(f.name for f in dataclasses.fields(rules) if not f.repr) if dataclasses.is_dataclass(rules) else ()


class GameBase:
    """What every engine's ``Game`` shares: its ``rules``, the ``options`` it was made with, its saves.

    ``options`` (what a saved walkthrough records) name ``rules_version`` unless it is 1, the
    version a save naming none was played under (:meth:`_recorded`).
    """

    name = ""
    state_class: type[SavedState] = SavedState
    rules_class: type = object
    """The game's ``Rules`` dataclass, decorated with its :class:`~coffeegames.versions.RulesVersions`."""
    action_kinds: Any = ()
    rules: Any
    options: dict[str, Any]

    def _made(self, options: Mapping[str, Any], recorded: Mapping[str, Any] | None = None) -> None:
        """What every ``Game.__init__`` does: ``rules`` made from ``options``, and ``options`` as a save records them
        (``recorded``, else ``options``; a file path as its text, JSON-ready; the version by :meth:`_recorded`)."""
        self.rules = self.rules_class(**options)
        shown = options if recorded is None else recorded
        self.options = self._recorded({k: str(v) if isinstance(v, PurePath) else v for k, v in shown.items()})

    def _recorded(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` as a save records them: with this game's ``rules_version``, left out at version 1."""
        kept = {k: v for k, v in options.items() if k != "rules_version"}
        return kept if self.rules.rules_version == 1 else {**kept, "rules_version": self.rules.rules_version}

    def __new__(cls, *args: Any, **options: Any) -> Any:
        """Refuse an option the game does not have before ``__init__`` runs: a
        :class:`~coffeegames.errors.BadArgument` naming it and the options there are (never a bare ``TypeError``)."""
        names = _option_names(cls)
        for name in options:
            if name not in names:
                error = BadArgument(name, f"is not an option of {cls.name or cls.__name__}")
                error.args = (f"{error}; its options are {', '.join(names)}",)  # the whole list, past the usual cut
                raise error
        return super().__new__(cls)

    def state_from_json(self, saved: str) -> Any:
        """Load a state saved by ``State.to_json`` under this game's rules (``BadData`` names a bad field, or the
        ``rules_version`` to load it with if it was saved under another one)."""
        return self.state_class.from_json(saved, self.rules)

    @classmethod
    def from_saved(cls, save: Any, **data: Any) -> Self:
        """The game a walkthrough saved by ``Walkthrough.to_json(game)`` was played under, from its JSON text (or its
        ``options`` dict): its options, at the rules version they name (none: version 1). The game's ``options``
        are exactly the saved ones, so the save loads, replays the same and saves again the same.

        ``data``: options to use instead of the saved ones (your own data files, as paths or loaded objects). ``BadData``
        if the save names another game, records no options, options no version of the game takes, or a path for a
        data option (a save never makes the loader open a file: pass the data as ``data``).
        """
        options = saved_options(save, cls.name)
        played = dict(options)
        for name, (value, why) in getattr(cls.rules_class, "VERSIONS").retired.items():
            SAVED_GAME.need(played.pop(name, value) == value, f"options.{name}",
                            f"is not an option any more ({why}); a save may name it only as {value!r}", options.get(name))
        for name, (new, values) in getattr(cls.rules_class, "VERSIONS").renamed.items():
            if name in played:
                was = played.pop(name)
                SAVED_GAME.need(isinstance(was, Hashable) and was in values and new not in played, f"options.{name}",
                                f"was replaced by {new}; a save may name it only as one of {', '.join(map(repr, values))}, "
                                f"without {new}", was)
                played[new] = values[was]
        for name in _file_options(cls):
            SAVED_GAME.need(name in data or not isinstance(played.get(name), str), f"options.{name}",
                            f"names a file; a save never opens files: pass your own data when loading, e.g. "
                            f"load_walkthrough(text, {name}=<path or loaded data>)", played.get(name))
        game = game_from_options(cls, {**played, "rules_version": played.get("rules_version", 1), **data})
        game.options = options
        return game

    @classmethod
    def load_walkthrough(cls, text_: str, seeded_start: bool = False, **data: Any) -> tuple[Self, Walkthrough]:
        """``(game, walkthrough)``: a walkthrough saved by ``Walkthrough.to_json(game)``, replayed under the game it
        was played under (:meth:`from_saved`; ``data`` as there).

        ``seeded_start``: whether its first state was ``game.new_initial_state(seed=seed)`` rather than the
        unseeded ``new_initial_state()`` the views start from.
        """
        game = cls.from_saved(text_, **data)
        saved = read_json(text_, "saved game")
        seed = saved.get("seed") if isinstance(saved, dict) else None
        initial = game.new_initial_state(seed=seed) if seeded_start else game.new_initial_state()
        return game, Walkthrough.from_json(text_, initial, game.action_kinds, game)

    def new_initial_state(self, seed: int | None = None) -> Any:
        """The game's first state (each engine's ``Game`` defines it)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        latest = self.rules.VERSIONS.latest
        shown = {k: v for k, v in self.options.items() if k != "rules_version"}
        if self.rules.rules_version != latest:
            shown["rules_version"] = self.rules.rules_version
        return "Game(" + ", ".join(f"{k}={v!r}" for k, v in shown.items()) + ")"
