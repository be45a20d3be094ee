"""What every game's actions share: a small frozen dataclass, its fields brought to one normal form, a short ``str``.

Each game's ``actions.py`` declares its actions and chance outcomes with :func:`action`: the class body holds
the fields; the decorator makes it a frozen dataclass, passes each named field through its *normaliser* when an
action is made (so ``Roll(freeze=[5, 1]) == Roll(freeze=(1, 5))``, and a bad value is an error naming
``Roll.freeze``), and gives it the ``str`` of saved logs from a template.

Example:
    >>> @action("File #{card}")
    ... class File:
    ...     card: int
    >>> str(File(40)), File(40) == File(card=40)
    ('File #40', True)
    >>> @action(lambda a: f"Roll({', '.join(map(str, a.freeze))})", freeze=lambda value, where: tuple(sorted(value)))
    ... class Roll:
    ...     freeze: tuple[int, ...] = ()
    >>> str(Roll([5, 1])), Roll([5, 1]) == Roll((1, 5))
    ('Roll(1, 5)', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast, dataclass_transform

from ..errors import BadArgument, BadType

__all__ = ["action", "listed", "unchecked"]

C = TypeVar("C", bound=type)
T = TypeVar("T")
Normaliser = Callable[[Any, str], Any]
"""A field's normaliser: ``(value, "Class.field")`` → the value the action keeps, or an error naming the field."""


@dataclass_transform(frozen_default=True)
def action(text: str | Callable[[Any], str] | None = None, **normalisers: Normaliser) -> Callable[[C], C]:
    """A class decorator: the class as a frozen dataclass whose fields named in ``normalisers`` pass through them
    when an action is made, and whose ``str`` is ``text`` (a template of its fields, ``"Pick {colour}"``, or a
    function of the action; ``None``: the class keeps its own ``__str__``)."""

    def make(cls: C) -> C:
        if normalisers:
            wheres = {name: f"{cls.__name__}.{name}" for name in normalisers}

            def __post_init__(self: Any) -> None:
                for name, normalise in normalisers.items():
                    object.__setattr__(self, name, normalise(getattr(self, name), wheres[name]))

            cls.__post_init__ = __post_init__  # type: ignore[attr-defined]
        if isinstance(text, str):
            template = text

            def __str__(self: Any) -> str:
                return template.format_map(vars(self))

            cls.__str__ = __str__  # type: ignore[assignment]
        elif text is not None:
            cls.__str__ = text  # type: ignore[assignment]
        return cast(C, dataclass(frozen=True)(cls))

    return make


def listed(kind: type, what: str, key: Callable[[Any], Any] | None = None) -> Normaliser:
    """The normaliser of a field holding a multiset: a list of ``kind`` values (``what``, for the error message) kept
    as a tuple sorted by ``key``. Not a list is a ``BadType``, an item not a ``kind`` (or a bool) a ``BadArgument``.

    >>> freeze = listed(int, "die values")
    >>> freeze([5, 1], "Roll.freeze")
    (1, 5)
    >>> freeze("15", "Roll.freeze")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadType: argument 'Roll.freeze': must be a list of die values; got '15'
    """

    def normalise(value: Any, where: str) -> tuple[Any, ...]:
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            raise BadType(where, f"must be a list of {what}", value)
        items = tuple(value)
        if any(not isinstance(item, kind) or isinstance(item, bool) for item in items):
            raise BadArgument(where, f"must hold only {what}", value)
        return tuple(sorted(items, key=key))

    return normalise


def unchecked(kind: type[T], *parts: Mapping[str, Any]) -> T:
    """A frozen dataclass ``kind`` with the fields of ``parts`` (later ones win), made without ``__init__`` or
    ``__post_init__``: for values the engine made itself, already in normal form, on its hot paths.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Point:
    ...     x: int
    ...     y: int
    >>> unchecked(Point, {"x": 1, "y": 2}, {"y": 5})
    Point(x=1, y=5)
    """
    new = object.__new__(kind)
    values = new.__dict__
    for part in parts:
        values.update(part)
    return new
