"""Game packages that import their modules on first use, so a quick answer loads only what it asks for.

A game package re-exports every public name at its top level (docs/architecture.md). Importing
every module up front would make ``from coffeegames import dairyman; dairyman.p_bust(4)`` load the
engine, the solvers and pandas too. Instead each package's ``__init__.py`` shows its names to
readers and type checkers in an ``if TYPE_CHECKING:`` block of ordinary imports, and at run time
hands :func:`lazy_exports` a table of where each name lives (the PEP 562 module ``__getattr__``;
``"data": "CardFacts=Card"`` for ``from .data import Card as CardFacts``)::

    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from .odds import p_bust, odds_table
    else:
        from ..lazy import lazy_exports

        __getattr__, __dir__ = lazy_exports(__name__, {"odds": "p_bust odds_table"})

    __all__ = ["odds_table", "p_bust"]

``tests/test_cli_imports.py`` checks that the block and the table name the same things, in every
game package. What stays the same as importing everything up front:

* ``from coffeegames.dairyman import p_bust`` and ``dairyman.p_bust`` give the same object, and
  ``dir(dairyman)`` lists every name of ``__all__``;
* a module of the package is an attribute of it (``roaster.tokens``), imported when first asked for;
* a name that is also a module's name (``dairyman.explain`` the function, beside the module
  ``dairyman/explain.py``) stays the name, even after another module imports that module.

Example:
    >>> from coffeegames import dairyman
    >>> "p_bust" in dir(dairyman) and dairyman.p_bust is dairyman.odds.p_bust
    True
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

__all__ = ["lazy_exports"]


class _Package(ModuleType):
    """A lazily exporting package: the import system's binding of a module ``explain`` to the package's name
    ``explain`` binds the exported name instead (what the package's eager imports used to leave there)."""

    _lazy_where: dict[str, tuple[str, str]]

    def __reduce__(self) -> tuple[Callable[[str], ModuleType], tuple[str]]:
        """Pickled by name, as modules are (cloudpickle sends a lambda that uses ``roaster.greedy_policy`` to a worker:
        it knows plain modules by their type, not this subclass)."""
        return importlib.import_module, (self.__name__,)

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and value.__name__ == f"{self.__name__}.{name}" and name in self._lazy_where:
            module, original = self._lazy_where[name]
            value = getattr(importlib.import_module(f"{self.__name__}.{module}"), original)
        super().__setattr__(name, value)


def lazy_exports(package: str, sources: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``(__getattr__, __dir__)`` of the package named ``package``, whose names are listed by module in ``sources``
    (module name → its names exported by the package, separated by spaces; ``new=old`` for a name exported under
    another name).

    Each name is imported from its module when first asked for, then kept in the package. Any other name that
    is a module of the package is imported as that module (as ``import package.name`` would).
    """
    namespace = sys.modules[package]
    where = {new: (module, old or new) for module, names in sources.items()
             for new, _, old in (name.partition("=") for name in names.split())}
    vars(namespace)["_lazy_where"] = where
    namespace.__class__ = _Package

    def __getattr__(name: str) -> Any:
        if name in where:
            module, original = where[name]
            value = getattr(importlib.import_module(f"{package}.{module}"), original)
        elif name.startswith("__"):  # dunder probes (copy, pickle, doctest, IPython) are not modules
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        else:
            try:
                value = importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as missing:
                if missing.name != f"{package}.{name}":
                    raise  # the module exists but imports something missing: that is a bug to show
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        setattr(namespace, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(namespace), *where, *vars(namespace).get("__all__", ())})

    return __getattr__, __dir__
