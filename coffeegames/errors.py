"""The library's own errors: every bad argument, file, saved game and illegal move raises one.

They subclass the built-in errors a caller would expect (``ValueError``, ``TypeError``), so
``except ValueError`` keeps working, and they share :class:`CoffeeGamesError`, so a widget
or the CLI can catch *bad input* and nothing else: a bug inside the library still surfaces
as a traceback. Every message names what was wrong (the argument or field), what is
allowed, and quotes at most a short prefix of the bad value (:func:`shown`).

Example:
    >>> from coffeegames.errors import BadArgument
    >>> try:
    ...     raise BadArgument("dice", "must be a whole number 1-12", 40)
    ... except ValueError as error:
    ...     print(error)
    argument 'dice': must be a whole number 1-12; got 40
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = [
    "BadArgument",
    "BadData",
    "BadEntry",
    "BadType",
    "CoffeeGamesError",
    "IllegalAction",
    "MISSING",
    "TooBig",
    "shown",
]

MISSING: Any = object()
"""Marks "no value to quote" in an error."""

SHOWN_CHARS = 80
"""At most this many characters of a bad value are quoted in a message."""
PATH_CHARS = 200
"""The most characters of a file's path a message repeats (a real path whole; a hostile one cut, by :func:`shown`)."""
SOURCE_CHARS = PATH_CHARS + 40
"""The most characters of an error's source ("Gizmos cards <file name>") or field name a message repeats."""
WHY_CHARS = 400
"""The most characters of an error's reason: a reason that quotes a typed word whole is cut, not repeated."""
MESSAGE_CHARS = 300
"""The most characters of a whole message: past it, a long source, name and reason are cut further (a hostile
path or name never crowds out what is allowed)."""
NAME_CHARS = 60
"""What is left of a source or a name when a message would pass :data:`MESSAGE_CHARS`."""


def _cut(text: str, limit: int) -> str:
    """``text`` whole, or its first ``limit - 1`` characters and "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters, so a 10 MB value never makes a 10 MB message.

    >>> print(shown("x" * 1000, 12))
    'xxxxxxxxxx…
    """
    try:
        if isinstance(value, (str, bytes, bytearray)):
            text = repr(value[:limit])  # a 100 MB text is cut before it is quoted, never copied whole
        else:
            text = _SHORT.repr(value)  # containers cut by reprlib: their elements are never all quoted
    except Exception:  # a value whose repr fails must not hide the real error
        text = f"<{type(value).__name__}>"
    return _cut(text, limit)


def _short_repr() -> reprlib.Repr:
    """``reprlib``'s repr with room for a message's worth of a value (its defaults cut a list at six items)."""
    short = reprlib.Repr()
    short.maxlevel = 6
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = short.maxfrozenset = SHOWN_CHARS
    short.maxdeque = short.maxarray = SHOWN_CHARS
    short.maxstring = SHOWN_CHARS  # a long text inside a list, cut in its middle
    short.maxother = short.maxlong = 10_000  # any other value as its own repr, as before
    return short


_SHORT = _short_repr()


class CoffeeGamesError(Exception):
    """Base of the library's errors about its *input*: catch this to catch bad input only."""


class _Named(CoffeeGamesError):
    """An error about one named thing: ``"<kind> 'where': why; got value"``."""

    kind = "argument"

    def __init__(self, where: str, why: str, value: Any = MISSING, *, source: str = "") -> None:
        self.where, self.why, self.value, self.source = where, why, value, source
        got = "" if value is MISSING else f"; got {shown(value)}"
        for limit, least_why in ((SOURCE_CHARS, 100), (NAME_CHARS, 40)):  # the reason is cut first, then long names
            prefix = f"{_cut(str(source), limit)}: " if source else ""  # a source may name a hostile path
            named = f"{prefix}{self.kind} {shown(where, limit)}: "
            room = min(WHY_CHARS, max(least_why, MESSAGE_CHARS - len(named) - len(got)))
            message = f"{named}{_cut(str(why), room)}{got}"
            if len(message) <= MESSAGE_CHARS:
                break
        super().__init__(message)


class BadArgument(_Named, ValueError):
    """A public function's argument has a value it cannot take (out of range, unknown kind, ...)."""


class BadType(_Named, TypeError):
    """A public function's argument has the wrong type (a string where a list of kinds is wanted, ...)."""


class TooBig(BadArgument):
    """A question over the library's size limits: refused before any work starts."""


class BadEntry(BadArgument):
    """Text typed by a person that cannot be read (a roll, a draw): the message says what to type.

    A :class:`~coffeegames.errors.BadArgument` (so a ``ValueError`` and a
    :class:`~coffeegames.errors.CoffeeGamesError`) whose message is addressed to the person
    typing, without the ``argument '...'`` prefix.

    >>> print(BadEntry("type 7 dice (you typed 6)"))
    type 7 dice (you typed 6)
    >>> isinstance(BadEntry("x"), ValueError)
    True
    """

    def __init__(self, why: str, where: str = "typed text") -> None:
        super().__init__(where, why, MISSING)
        self.args = (_cut(str(why), MESSAGE_CHARS),)


class BadData(_Named, ValueError):
    """A data file or saved game is malformed; nothing of it was loaded.

    >>> print(BadData("cards[0].roast", "must be an object", [], source="Coffee Roaster cards"))
    Coffee Roaster cards: field 'cards[0].roast': must be an object; got []
    """

    kind = "field"


class IllegalAction(CoffeeGamesError, ValueError):
    """An action or chance outcome that is not allowed here; the state is unchanged."""
