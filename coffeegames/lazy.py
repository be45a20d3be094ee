"""Packages that import their modules on first use, so a quick answer loads only what it asks for.

A game package re-exports every public name at its top level (docs/architecture.md). Importing
every module up front would make ``from coffeegames import dairyman; dairyman.p_bust(4)`` load the
engine, the solvers and pandas too. Instead each lazy package's ``__init__.py`` lists its names once,
as the ordinary imports of an ``if TYPE_CHECKING:`` block (what readers and type checkers see), and at
run time hands its name to :func:`lazy_exports`, which reads that block (with :mod:`ast`, from the
package's source) and gives the package its ``__getattr__`` (PEP 562), ``__dir__`` and ``__all__``::

    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from . import tokens
        from .odds import p_bust, odds_table
        from .data import Card as CardFacts
    else:
        from ..lazy import lazy_exports

        __getattr__, __dir__, __all__ = lazy_exports(__name__)

The block holds only ``from .module import name`` lines (``as`` renames; ``from . import module`` exports a
module); anything else in it is an ``ImportError`` when the package is imported. ``__all__`` lists the names in
the block's order. What stays the same as importing everything up front:

* ``from coffeegames.dairyman import p_bust`` and ``dairyman.p_bust`` give the same object, and
  ``dir(dairyman)`` lists every name of ``__all__``;
* a module of the package is an attribute of it (``roaster.tokens``), imported when first asked for;
* a name that is also a module's name (``dairyman.explain`` the function, beside the module
  ``dairyman/explain.py``) stays the name, even after another module imports that module.

Example:
    >>> from coffeegames import dairyman
    >>> "p_bust" in dir(dairyman) and dairyman.p_bust is dairyman.odds.p_bust
    True
    >>> dairyman.__all__[:3]
    ['describe', 'ACTION_KINDS', 'Bust']
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["lazy_exports", "public_names"]


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


def public_names(source: str, package: str = "the package") -> dict[str, tuple[str, str] | None]:
    """The names the ``if TYPE_CHECKING:`` block of a package's ``source`` imports, in order: each exported name →
    ``(module, name in that module)``, or ``None`` for a module of the package (``from . import tokens``).

    >>> public_names("from typing import TYPE_CHECKING\\nif TYPE_CHECKING:\\n    from . import tokens\\n"
    ...              "    from .data import Card as CardFacts, load_cards\\n")
    {'tokens': None, 'CardFacts': ('data', 'Card'), 'load_cards': ('data', 'load_cards')}
    """
    start = source.find("\nif TYPE_CHECKING:")
    end = source.find("\nelse:", start)
    if 0 <= start < end:  # parse the block alone: half the time of the whole file (the docstring)
        tree, first_line = ast.parse(source[start + 1:end + 1]), source.count("\n", 0, start + 1)
    else:
        tree, first_line = ast.parse(source), 0
    blocks = [node for node in tree.body
              if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"]
    if len(blocks) != 1:
        raise ImportError(f"{package}: its __init__.py needs one `if TYPE_CHECKING:` block listing its public names")
    names: dict[str, tuple[str, str] | None] = {}
    for node in blocks[0].body:
        if not isinstance(node, ast.ImportFrom) or node.level != 1:
            raise ImportError(f"{package}: line {first_line + node.lineno}: the TYPE_CHECKING block holds only `from .module import "
                              "name` lines")
        for alias in node.names:
            names[alias.asname or alias.name] = None if node.module is None else (node.module, alias.name)
    return names


def lazy_exports(package: str) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """The ``(__getattr__, __dir__, __all__)`` of the package named ``package``, from the names its
    ``if TYPE_CHECKING:`` block imports (:func:`public_names`).

    Each name is imported from its module when first asked for, then kept in the package. Any other name that
    is a module of the package is imported as that module (as ``import package.name`` would).
    """
    namespace = sys.modules[package]
    with open(namespace.__file__ or "", encoding="utf-8") as init:
        names = public_names(init.read(), package)
    where = {name: place for name, place in names.items() if place is not None}
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
        return sorted({*vars(namespace), *names})

    return __getattr__, __dir__, list(names)
