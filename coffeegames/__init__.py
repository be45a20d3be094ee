"""coffeegames: exact probability inside coffee-themed tabletop games, for Jupyter.

All five games are implemented — Dairyman, VivaJava: The Dice Game, Coffee Roaster, Gizmos
and Coffee Rush (:func:`games` lists them).

Conventions that hold everywhere:

- Every probability the library states is a :class:`fractions.Fraction` computed from
  integer counts; floats are only for display. An estimate says it is one.
- Game states are immutable: ``state.apply(action)`` returns a new state (the State
  contract of :mod:`coffeegames.engine`, described in ``docs/architecture.md``).
- Bad input raises one of the library's own errors (:mod:`coffeegames.errors`, subclasses
  of ``ValueError`` / ``TypeError``) naming what was wrong and what is allowed.

Start with :mod:`coffeegames.exact` (distributions, dice multisets, bag draws) and
:mod:`coffeegames.dairyman`.

>>> from coffeegames import dairyman
>>> dairyman.p_bust(2)
Fraction(11, 12)
"""

from typing import TYPE_CHECKING, Any

from . import errors, exact
from .errors import CoffeeGamesError
from .exact import Bag, Dist, roll
from .games import GameInfo, games

if TYPE_CHECKING:
    from . import analyse, dairyman

__version__ = "0.1.0"

_LAZY = ("dairyman", "vivajava", "roaster", "gizmos", "rush", "analyse")
"""The game packages and ``analyse`` (a package that is also a function: ``coffeegames.analyse("gizmos", seeds=100)``):
imported on first use (``coffeegames.dairyman``, ``from coffeegames import dairyman``), so ``import coffeegames``
stays quick (benchmarks/README.md, import time)."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["Bag", "CoffeeGamesError", "Dist", "GameInfo", "__version__", "analyse", "dairyman", "errors", "exact", "games", "roll"]
