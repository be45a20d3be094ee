"""Rules versions: what each version of a game's rules changed, declared once beside its options.

A game's ``Rules`` dataclass has a field ``rules_version``. Version 1 is the rules its fields'
declared defaults give; each later version names the option defaults it changed (and keeps
the earlier versions' other changes). ``Rules(...)`` without ``rules_version`` plays the latest
version; an option passed explicitly always wins over a version's default. A save records the
version it was played under (a save naming none is version 1), so loading it plays by those
rules (:class:`~coffeegames.engine.saved.GameBase`). It lives outside the engine package, beside
:mod:`~coffeegames.validate`, because each game's rules module uses it and the quick answers load the
rules without the engine. A version may also change a rule that has
no option: the engine then reads ``rules.rules_version`` (Coffee Roaster's version 2).

Example (adding a version is one entry in the table):
    >>> from dataclasses import dataclass
    >>> @RulesVersions({2: {"stop_at": 5}, 3: {"bonus": 1}})
    ... @dataclass(frozen=True)
    ... class Rules:
    ...     stop_at: int = 4
    ...     bonus: int = 0
    ...     rules_version: int = 3
    >>> Rules()
    Rules(stop_at=5, bonus=1, rules_version=3)
    >>> Rules(rules_version=1), Rules(rules_version=2, stop_at=6)
    (Rules(stop_at=4, bonus=0, rules_version=1), Rules(stop_at=6, bonus=0, rules_version=2))
    >>> Rules(rules_version=4)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: option: argument 'rules_version': must be a whole number 1-3; got 4
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, TypeVar

from .errors import BadArgument
from .validate import Checker

__all__ = ["RulesVersions"]

T = TypeVar("T")

_OPTION = Checker("option", BadArgument)


class RulesVersions:
    """A game's rules versions: ``{version: {option: the default it gives from that version on}}``.

    Versions are numbered from 2 (1 is the declared defaults). Used as a decorator on the game's
    frozen ``Rules`` dataclass, which it gives the attribute ``VERSIONS`` (this table).
    ``retired``: options no version takes any more, that old saves may still name, each with the
    only value they may have there (the one every version now plays) and why. ``renamed``: options
    replaced by another, that old saves may still name, each with the new option and the new value of
    each old value (a save naming ``old=value`` plays ``new=values[value]``).
    """

    def __init__(self, changes: Mapping[int, Mapping[str, Any]] | None = None,
                 retired: Mapping[str, tuple[Any, str]] | None = None,
                 renamed: Mapping[str, tuple[str, Mapping[Any, Any]]] | None = None) -> None:
        changes = changes or {}
        if sorted(changes) != list(range(2, 2 + len(changes))):
            raise ValueError(f"rules versions are numbered 2, 3, ... in order (1 is the declared defaults): {sorted(changes)}")
        self.changes = {version: dict(changes[version]) for version in sorted(changes)}
        self.retired = dict(retired or {})
        self.renamed = {old: (new, dict(values)) for old, (new, values) in (renamed or {}).items()}
        self.latest = 1 + len(self.changes)
        """The version a game made without ``rules_version`` plays."""

    def defaults(self, version: int) -> dict[str, Any]:
        """The option defaults ``version`` gives (beyond the declared ones).

        >>> RulesVersions({2: {"a": 1, "b": 1}, 3: {"b": 2}}).defaults(3)
        {'a': 1, 'b': 2}
        """
        given: dict[str, Any] = {}
        for changed in range(2, version + 1):
            given.update(self.changes[changed])
        return given

    def check(self, version: Any) -> int:
        """``version`` if it is one of the game's; else :class:`~coffeegames.errors.BadArgument` naming ``rules_version``."""
        return _OPTION.whole(version, "rules_version", 1, self.latest)

    def __call__(self, rules_class: type[T]) -> type[T]:
        """Decorate a frozen ``Rules`` dataclass: its ``rules_version`` picks the defaults of the options it changed."""
        names = {f.name for f in dataclasses.fields(rules_class)}  # type: ignore[arg-type]
        unknown = {name for given in self.changes.values() for name in given} - names
        if "rules_version" not in names or unknown:
            raise ValueError(f"{rules_class.__name__} needs a rules_version field and the options {sorted(unknown)}")
        versions, init = self, rules_class.__init__

        @functools.wraps(init)
        def __init__(rules: Any, *args: Any, **options: Any) -> None:
            version = versions.check(options.get("rules_version", versions.latest))
            init(rules, *args, **{**versions.defaults(version), **options, "rules_version": version})

        setattr(rules_class, "__init__", __init__)
        setattr(rules_class, "VERSIONS", self)
        return rules_class
