"""One validator for every data file, saved game and argument the library reads.

A :class:`Checker` knows where its input came from (``source``) and which error class to
raise (:class:`~coffeegames.errors.BadData` for files and saves, ``BadArgument`` for
arguments); its methods check one value each, naming the field (``where``) and what is
allowed. :func:`read_json` reads a file or text with size and nesting limits, accepts a
UTF-8 byte-order mark, and refuses the whole input on any error: nothing loads half-way.
Public functions check their arguments with the small helpers below (:func:`check_count`,
:func:`check_size` for a question's size counted before its work, :func:`check_instance`,
:func:`check_path`, :func:`check_seed`, and :func:`cached`, an ``lru_cache`` that names an
unhashable argument), so every error names the argument and what it may be.

Example:
    >>> check = Checker("Coffee Roaster cards")
    >>> check.whole(4, "tokens.bean2", 0, 30)
    4
    >>> check.whole(-6, "roast.17", 0, 30)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: Coffee Roaster cards: field 'roast.17': must be a whole number 0-30; got -6
    >>> read_json('{"a": [1, 2]}', "a test")
    {'a': [1, 2]}
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import re
import stat
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

from .errors import MISSING, BadArgument, BadData, BadType, CoffeeGamesError, TooBig

__all__ = [
    "Checker", "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_OUTCOMES", "cached", "check_count", "check_flag", "check_hashable",
    "check_instance", "check_items", "check_path", "check_seed", "check_size", "is_whole", "read_json", "read_text",
    "refuses_stray", "renamed_keyword",
]

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

MAX_FILE_BYTES = 4_000_000
"""A data file or saved game larger than this (4 MB) is refused unread."""
MAX_DEPTH = 40
"""JSON nested deeper than this is refused (the library's own files nest 5 deep at most)."""


MAX_OUTCOMES = 100_000
"""An exact answer may list at most this many outcomes (or weigh this many cases): a larger question is
refused at once (:class:`~coffeegames.errors.TooBig`) before any work starts. 12 dice have 6,188 distinct
rolls, VivaJava's 15 dice 54,264; 100,000 take a few seconds."""


def is_whole(value: Any) -> bool:
    """An ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def cached(maxsize: int | None = None) -> Callable[[F], F]:
    """:func:`functools.lru_cache` whose function refuses an unhashable argument with
    :class:`~coffeegames.errors.BadType` naming it (``lru_cache`` alone says "unhashable type: 'list'"
    and names nothing). Nothing is checked on the way to a cached answer: only a failed call looks. The memo is typed
    (``4`` and ``4.0``, ``1`` and ``True`` are kept apart), so a value the function refuses never finds the answer of
    an equal value it accepted: the checks inside the function run for every new value.

    >>> @cached()
    ... def double(n): return 2 * n
    >>> double([3])
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadType: argument 'n': must be a plain value (a number, text or tuple), not a list, dict or set; got [3]
    """
    def wrap(func: F) -> F:
        memo = functools.lru_cache(maxsize, typed=True)(func)
        signature = inspect.signature(func)

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return memo(*args, **kwargs)
            except TypeError:
                for name, value in signature.bind(*args, **kwargs).arguments.items():
                    try:
                        hash(value)
                    except TypeError:
                        raise BadType(name, "must be a plain value (a number, text or tuple), not a list, dict or set", value) from None
                raise

        call.cache_info = memo.cache_info  # type: ignore[attr-defined]
        call.cache_clear = memo.cache_clear  # type: ignore[attr-defined]
        return cast(F, call)

    return wrap


def renamed_keyword(old: str, new: str) -> Callable[[F], F]:
    """Take keyword ``old`` as a deprecated name of parameter ``new``: it still works, with a
    :class:`DeprecationWarning`; giving both is refused with :class:`~coffeegames.errors.BadArgument`.
    Calls that do not use ``old`` pass straight through.

    >>> @renamed_keyword("white", "coffee_dice")
    ... def dice(coffee_dice=5): return coffee_dice
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     dice(white=3), caught[0].category.__name__
    (3, 'DeprecationWarning')
    >>> dice(4, white=3)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: argument 'white': is the old name of 'coffee_dice': give one of them, not both; got 3
    """
    def wrap(func: F) -> F:
        signature = inspect.signature(func)
        name = func.__qualname__.removesuffix(".__init__")

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> Any:
            if old in kwargs:
                try:
                    positional = signature.bind_partial(*args).arguments
                except TypeError:
                    positional = {}
                if new in kwargs or new in positional:
                    raise BadArgument(old, f"is the old name of {new!r}: give one of them, not both", kwargs[old])
                warnings.warn(f"{name}({old}=...) is deprecated: say {new}=...", DeprecationWarning, stacklevel=2)
                kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return cast(F, call)

    return wrap


def check_count(n: object, what: str = "number of dice", maximum: int | None = None) -> int:
    """``n`` if it is a whole number 0 or more (at most ``maximum``): else :class:`~coffeegames.errors.BadType`
    (not a whole number), :class:`~coffeegames.errors.BadArgument` (negative) or
    :class:`~coffeegames.errors.TooBig` (over ``maximum``), naming ``what``.

    >>> check_count(3, "draws")
    3
    >>> check_count(40, "dice", maximum=12)
    Traceback (most recent call last):
    ...
    coffeegames.errors.TooBig: argument 'dice': must be at most 12; got 40
    """
    if not is_whole(n):
        raise BadType(what, "must be a whole number", n)
    assert isinstance(n, int)
    if n < 0:
        raise BadArgument(what, "must be 0 or more", n)
    if maximum is not None and n > maximum:
        raise TooBig(what, f"must be at most {maximum:,}", n)
    return n


def refuses_stray(why: str, *stray: type[Exception]) -> Callable[[F], F]:
    """A small public helper that reads its arguments as it goes (no check up front, it is on a hot path): a
    ``TypeError``, ``KeyError``, ``IndexError`` or ``AttributeError`` (or ``stray``) raised inside becomes :class:`~coffeegames.errors.BadType`
    naming its arguments and ``why``. Free when the call succeeds.

    >>> @refuses_stray("must be a list of numbers")
    ... def total(numbers): return sum(numbers)
    >>> total("12")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadType: argument 'numbers': must be a list of numbers; got '12'
    """
    caught: tuple[type[Exception], ...] = (TypeError, KeyError, IndexError, AttributeError, *stray)

    def wrap(func: F) -> F:
        names = [p.name for p in inspect.signature(func).parameters.values()]

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return func(*args, **kwargs)
            except CoffeeGamesError:
                raise
            except caught:
                given = [*args, *kwargs.values()]
                raise BadType(", ".join(names[:len(given)]) or "arguments", why, given[0] if len(given) == 1 else given) from None

        return call  # type: ignore[return-value]

    return wrap


def check_flag(value: Any, where: str) -> bool:
    """``value`` if it is ``True`` or ``False``; else :class:`~coffeegames.errors.BadType` naming ``where`` (a text such
    as ``'no'`` is not read as true).

    >>> check_flag("no", "jokers_count")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadType: argument 'jokers_count': must be True or False; got 'no'
    """
    if not isinstance(value, bool):
        raise BadType(where, "must be True or False", value)
    return value


def check_instance(value: Any, kind: type[T] | tuple[type, ...], where: str, what: str) -> T:
    """``value`` if it is a ``kind``; else :class:`~coffeegames.errors.BadType` naming ``where`` ("must be ``what``").

    >>> check_instance(None, int, "state", "a game state")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadType: argument 'state': must be a game state; got None
    """
    if not isinstance(value, kind):
        raise BadType(where, f"must be {what}", value)
    return value  # type: ignore[return-value]


def check_items(items: Any, where: str, example: str = "['smoke', 'bean2']") -> list[Any]:
    """``items`` (a list, tuple or other iterable, never a string or a mapping) as a list of plain (hashable)
    values; else :class:`~coffeegames.errors.BadType` naming ``where``, so a string is never read letter by letter.

    >>> check_items(("smoke", "bean2"), "tokens")
    ['smoke', 'bean2']
    >>> check_items("smoke", "tokens")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadType: argument 'tokens': must be a list such as ['smoke', 'bean2'] (not a string or a mapping); got 'smoke'
    """
    if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
        raise BadType(where, f"must be a list such as {example} (not a string or a mapping)", items)
    listed = list(items)
    for item in listed:
        check_hashable(item, where)
    return listed


def check_hashable(value: T, where: str) -> T:
    """``value`` if it is a plain (hashable) value, fit for a token, an outcome or a key; else
    :class:`~coffeegames.errors.BadType` naming ``where`` (never "unhashable type: 'list'").

    >>> check_hashable(["smoke"], "token")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadType: argument 'token': must be a plain value (text, a number or a tuple), not a list, dict or set; got ['smoke']
    """
    try:
        hash(value)
    except TypeError:
        raise BadType(where, "must be a plain value (text, a number or a tuple), not a list, dict or set", value) from None
    return value


def check_path(path: Any, where: str = "path") -> Path:
    """A file path (text or a :class:`~pathlib.Path`) as a ``Path``; else :class:`~coffeegames.errors.BadType` naming ``where``.

    >>> check_path("my_cards.json")
    PosixPath('my_cards.json')
    """
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise BadType(where, "must be a file path (text or a pathlib.Path)", path)
    if "\x00" in os.fspath(path):
        raise BadArgument(where, "must be a file path, without a NUL character", path)
    return Path(path)


def check_seed(seed: Any, where: str = "seed") -> int | None:
    """A random seed: ``None`` (fresh randomness) or a whole number 0 or more; else the library's error naming ``where``.

    >>> check_seed(7), check_seed(None)
    (7, None)
    """
    return None if seed is None else check_count(seed, where)


def check_size(count: int, where: str, what: str, value: Any = MISSING, limit: int = MAX_OUTCOMES,
               exact: bool = True) -> None:
    """Refuse a question whose size, counted *before* any work starts, is over ``limit``: a
    :class:`~coffeegames.errors.TooBig` naming the argument ``where`` and the limit. ``exact=False``: ``count``
    was only counted up to ``limit + 1`` (the message says "more than").

    >>> check_size(8_259_888, "groups", "distinct rolls", 60)
    Traceback (most recent call last):
    ...
    coffeegames.errors.TooBig: argument 'groups': has 8,259,888 distinct rolls, over the limit of 100,000; got 60
    """
    if count > limit:
        size = f"{count:,}" if exact else f"more than {limit:,}"
        raise TooBig(where, f"has {size} {what}, over the limit of {limit:,}", value)


class Checker:
    """Checks values read from ``source``; every failure raises ``error`` naming the field."""

    def __init__(self, source: str = "", error: type[CoffeeGamesError] = BadData) -> None:
        self.source, self.error_class = source, error

    def error(self, where: str, why: str, value: Any = MISSING) -> CoffeeGamesError:
        """The error for ``where`` (not raised)."""
        return self.error_class(where, why, value, source=self.source)  # type: ignore[call-arg]

    def need(self, ok: bool, where: str, why: str, value: Any = MISSING) -> None:
        """Raise unless ``ok``."""
        if not ok:
            raise self.error(where, why, value)

    def fields(self, value: Any, where: str, allowed: Sequence[str], required: Sequence[str] = (),
               comments: bool = True) -> dict[str, Any]:
        """An object with only ``allowed`` keys (and ``_``-prefixed comments, if ``comments``), holding ``required``."""
        self.need(isinstance(value, Mapping), where, "must be an object", value)
        top = where in ("", "(top level)")
        for name in value:
            if name not in allowed and not (comments and str(name).startswith("_")):
                extra = " (and '_'-prefixed comments)" if comments else ""
                raise self.error(str(name) if top else f"{where}.{name}", f"unknown; expected {', '.join(allowed)}{extra}")
        for name in required:
            if name not in value:
                raise self.error(name if top else f"{where}.{name}", "missing")
        return dict(value)

    def whole(self, value: Any, where: str, low: int | None = 0, high: int | None = None) -> int:
        """A whole number in ``low..high`` (no upper bound if ``high`` is None)."""
        if high is None:
            why = "must be a whole number" if low is None else f"must be a whole number, {low} or more"
        else:
            why = f"must be a whole number {low}-{high}"
        ok = is_whole(value) and (low is None or value >= low) and (high is None or value <= high)
        self.need(ok, where, why, value)
        return value

    def flag(self, value: Any, where: str) -> bool:
        """``True`` or ``False``."""
        self.need(isinstance(value, bool), where, "must be true or false", value)
        return value

    def text(self, value: Any, where: str, nonempty: bool = False) -> str:
        """A string (not empty, if ``nonempty``)."""
        self.need(isinstance(value, str) and (not nonempty or value.strip() != ""), where,
                  "must be a non-empty string" if nonempty else "must be a string", value)
        return value

    def one_of(self, value: Any, where: str, allowed: Sequence[Any]) -> Any:
        """One of ``allowed``."""
        try:
            ok = value in allowed
        except TypeError:  # an unhashable value tested against a set or dict
            ok = False
        self.need(ok, where, f"must be one of {', '.join(map(str, allowed))}", value)
        return value

    def number_key(self, name: Any, where: str, low: int, high: int) -> int:
        """An object key that is a whole number ``low..high`` written as a string."""
        ok = isinstance(name, str) and name.isdigit() and low <= int(name) <= high
        self.need(ok, f"{where}.{name}", f"keys must be whole numbers {low}-{high} written as strings")
        return int(name)

    def sequence(self, value: Any, where: str, item: Callable[[Any, str], T] | None = None,
                 low: int = 0, high: int | None = None) -> tuple[T, ...]:
        """A list or tuple (never a string or a set) of ``low..high`` items, each checked by ``item(value, where)``."""
        if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
            if self.error_class is BadArgument:
                raise BadType(where, "must be a list or tuple, not a string or other value", value, source=self.source)
            raise self.error(where, "must be a list", value)
        size = f"{low}-{high}" if high is not None else f"{low} or more"
        self.need(low <= len(value) and (high is None or len(value) <= high), where, f"must hold {size} items", value)
        if item is None:
            return tuple(value)
        return tuple(item(v, f"{where}[{i}]") for i, v in enumerate(value))


def read_json(source: str | Path, what: str, max_bytes: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON from a file (a :class:`~pathlib.Path`) or from JSON text (a ``str``), within limits.

    ``what`` names the input in errors. A file is read only when it is a regular file
    (a named pipe, ``/dev/zero`` or a folder is refused unread) of at most ``max_bytes``; a UTF-8 byte-order mark is accepted; nesting deeper than
    ``max_depth`` is refused before it is parsed. A string is always JSON text, never a path.
    """
    check = Checker(what)
    if isinstance(source, Path):
        text = read_text(source, what, max_bytes)
    elif isinstance(source, str):
        check.need(len(source) <= max_bytes, "(text)", f"is longer than the limit of {max_bytes:,} characters", source)
        text = source.lstrip("\ufeff")
    else:
        raise check.error("(top level)", "must be JSON text (a str) or a file (a pathlib.Path)", source)
    check.need(_depth(text) <= max_depth, "(top level)", f"is nested deeper than the limit of {max_depth}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise check.error("(top level)", f"is not valid JSON ({error.msg} at line {error.lineno} column {error.colno})") from None
    except ValueError as error:  # a number of over 4,300 digits (Python's int limit)
        raise check.error("(top level)", f"cannot be read ({error})") from None


def read_text(path: Path, what: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """A regular file's UTF-8 text (a byte-order mark dropped), its size checked before anything is read; else
    :class:`~coffeegames.errors.BadData` naming ``what``. A named pipe, a device (``/dev/zero``) or a folder is refused
    without reading from it: the file is opened without blocking and looked at (``fstat``) first.

    >>> read_text(Path("/dev/zero"), "my cards")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: my cards: field '(file)': must be a regular file (not a named pipe, device or folder); got '/dev/zero'
    """
    check = Checker(what)
    raw = _read_regular_file(path, max_bytes, check)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise check.error("(file)", f"is not UTF-8 text (byte {error.start})", str(path)) from None


def _read_regular_file(path: Path, max_bytes: int, check: Checker) -> bytes:
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise check.error("(file)", f"cannot be read ({error.strerror or error})", str(path)) from None
    try:
        info = os.fstat(descriptor)
        check.need(stat.S_ISREG(info.st_mode), "(file)", "must be a regular file (not a named pipe, device or folder)",
                   str(path))
        check.need(info.st_size <= max_bytes, "(file)", f"is larger than the limit of {max_bytes:,} bytes", str(path))
        with os.fdopen(os.dup(descriptor), "rb") as handle:
            raw = handle.read(max_bytes + 1)
    finally:
        os.close(descriptor)
    check.need(len(raw) <= max_bytes, "(file)", f"is larger than the limit of {max_bytes:,} bytes", str(path))
    return raw


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """The deepest bracket nesting in JSON text (strings, and the brackets inside them, removed first)."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRINGS.sub("", text)):
        depth += 1 if match.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest
