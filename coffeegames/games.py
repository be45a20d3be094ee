"""The registry of games: tests, the CLI and the docs iterate over it, so a new game is added here once.

Each entry says where the game's package is, how to make its ``Game``, and which player
counts and variants the shared conformance suite must run. Packages are imported only
when asked for, so ``import coffeegames`` stays quick.

Example:
    >>> sorted(games())
    ['dairyman', 'gizmos', 'roaster', 'rush', 'vivajava']
    >>> games()["dairyman"].game(players=3)
    Game(players=3)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from .errors import BadArgument
from .validate import Checker

__all__ = ["GameInfo", "game", "games"]


@dataclass(frozen=True)
class GameInfo:
    """One game of the library: its name, title, package and the variants every test runs."""

    name: str
    """Short name: the package (``coffeegames.<name>``), the CLI word and the saved games' ``game`` field."""
    title: str
    """The game's title as printed on its box."""
    summary: str
    """What the game teaches, in one line."""
    variants: tuple[dict[str, Any], ...] = field(default=({},))
    """Keyword arguments for ``Game(...)``: every player count and variant the conformance suite plays."""
    solo: bool = False
    """True if every variant has one person playing (no "bots play" in its views)."""

    @property
    def module(self) -> ModuleType:
        """The game's package, imported on first use."""
        return importlib.import_module(f"coffeegames.{self.name}")

    def game(self, **options: Any) -> Any:
        """``Game(**options)`` of this game."""
        return self.module.Game(**options)

    def load_walkthrough(self, text: str, seeded_start: bool = False) -> tuple[Any, Any]:
        """``(game, walkthrough)``: a walkthrough saved by ``Walkthrough.to_json(game)``, under the rules it was
        played under (the package's ``load_walkthrough``: every game package has one)."""
        return self.module.load_walkthrough(text, seeded_start=seeded_start)


_GAMES = (
    GameInfo("dairyman", "Dairyman", "dice sets summing to ten, push-your-luck",
             variants=({"players": 2}, {"players": 3}, {"players": 4})),
    GameInfo("vivajava", "VivaJava: The Dice Game", "colour dice and blends",
             variants=({"players": 2}, {"players": 3}, {"players": 4},
                       {"solo": "omniblend"}, {"solo": "sacchar"})),
    GameInfo("roaster", "Coffee Roaster", "a solo bag-builder: draws without replacement",
             variants=({"side": "full"}, {"side": "easy"}), solo=True),
    GameInfo("gizmos", "Gizmos", "an engine builder: draws from a marble dispenser and decks, chains of triggered gizmos",
             variants=({"players": 2}, {"players": 3}, {"players": 4})),
    GameInfo("rush", "Coffee Rush", "routes on a grid, pours into cups, and an order deck drawn without replacement",
             variants=({"players": 2}, {"players": 3}, {"players": 4})),
)


def games() -> dict[str, GameInfo]:
    """Every game the library implements, by name, in the order they were built."""
    return {info.name: info for info in _GAMES}


def game(name: str) -> GameInfo:
    """The registry entry for ``name``; an unknown name is refused with the known ones."""
    known = games()
    return known[Checker("", BadArgument).one_of(name, "name", list(known))]
