"""Coffee Rush's options: every Rule, Fact, Ruling and Stand-in a player may change (docs/rules/rush.md).

Each option of :class:`Rules` carries its kind and a one-line meaning, so ``Rules().table()``
lists them. Rulings are changed by options (``Game(players=3, rush_per_turn=3)``), the
stand-in data by loading your own files (``Game(board="my_board.json")``, format in
``data/README.md``, loaders in :mod:`.data`).

Example:
    >>> rules = Rules(players=4)
    >>> rules.players, rules.deck.total, rules.rush_tokens, rules.board.count("milk")
    (4, 80, 15, 3)
    >>> Rules(players=5)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: Coffee Rush options: argument 'players': must be a whole number 2-4; got 5
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..engine.options import option as _option, option_table
from ..errors import BadArgument
from ..validate import Checker
from ..versions import RulesVersions
from .data import (
    Board,
    OrderDeck,
    Tile,
    board_from_dict,
    load_board,
    load_orders,
    load_upgrades,
    order_needs,
    orders_from_dict,
    stand_in_board,
    stand_in_orders,
    stand_in_upgrades,
    upgrades_from_dict,
)

__all__ = ["BASE_STEPS", "COMPLETION", "CUPS", "RUSH_TOKENS", "Rules", "TABS"]

TABS = 4
"""Order tabs on a player board (Rule: an order pushed off tab 4 becomes a penalty card)."""
CUPS = 3
"""Cups per player (Fact)."""
BASE_STEPS = 3
"""A move is 1-3 orthogonal steps before rush tokens (Rule)."""
RUSH_TOKENS = 15
"""Rush tokens in the box (Fact): the default of option ``rush_tokens``."""

COMPLETION = ("choice", "forced")
"""Values of option ``completion``: ``"choice"`` (Rule: the player chooses which matching cups complete their orders)
or ``"forced"`` (every matching cup completes its order: the Ruling of rules version 1)."""

_OPTIONS = Checker("Coffee Rush options", BadArgument)


RULES_VERSIONS = RulesVersions({2: {"completion": "choice"}})
"""What each rules version changed (option ``rules_version``); saves naming no version replay under 1.

* 2 (2026-12-05, issue 28): completing an order is the player's choice (the rulebook's step 4, "주문 처리 (선택)":
  processing orders, optional); version 1 completed every matching cup (``completion="forced"``)."""


@RULES_VERSIONS
@dataclass(frozen=True)
class Rules:
    """Every parameter of one Coffee Rush game; options are validated and an error names the option.

    ``board``, ``orders`` and ``upgrades`` may be ``None`` (the shipped stand-in files), a path,
    a dict in the file format, or loaded data.
    """

    players: int = _option("Rule", "players, 2-4 (two players use the two-player rules: two meeples each)", 3)
    penalty_limit: int = _option("Rule", "penalty cards that close the game (someone holding this many)", 5)
    rush_tokens: int = _option("Fact", "rush tokens in the supply at the start", RUSH_TOKENS)
    rush_per_turn: int | None = _option(
        "Ruling", "rush tokens a player may spend in one move (each is one more step), None = no cap; the rules set "
        "none, this keeps the exhaustive best-move search under 0.2 s (docs/rules/rush.md)", 2)
    revisit: bool = _option(
        "Ruling", "a move may enter a space twice (or return to its start): False = every space of a path is new", False)
    cup_capacity: int = _option(
        "Ruling", "ingredients a cup holds at most (no order needs more than 4, so a fuller cup could never match)", 4)
    completion: str = _option(
        "Rule", "completing an order: 'choice' = the player chooses which matching cups complete (the rulebook: "
        "optional), 'forced' = every matching cup completes (rules version 1)", "forced")
    rules_version: int = _option(
        "Ruling", "the version of the rules whose defaults the other options take (RULES_VERSIONS): 2 makes completion "
        "a choice; a saved game naming none was played under 1", RULES_VERSIONS.latest)
    board: Any = _option("Stand-in", "the ingredient board: None = shipped stand-in file, a path, or a dict", None, shown=False)
    orders: Any = _option("Stand-in", "the order deck's make-up: None = shipped stand-in file, a path, or a dict", None, shown=False)
    upgrades: Any = _option("Stand-in", "the upgrade tiles: None = shipped stand-in file, a path, or a dict", None, shown=False)

    def __post_init__(self) -> None:
        check = _OPTIONS
        check.whole(self.players, "players", 2, 4)
        check.whole(self.penalty_limit, "penalty_limit", 1, 20)
        check.whole(self.rush_tokens, "rush_tokens", 0, 100)
        if self.rush_per_turn is not None:
            check.whole(self.rush_per_turn, "rush_per_turn", 0, 100)
        check.flag(self.revisit, "revisit")
        check.whole(self.cup_capacity, "cup_capacity", 2, 8)
        check.one_of(self.completion, "completion", COMPLETION)
        board = _load(self.board, Board, load_board, board_from_dict, "board")
        deck = _load(self.orders, OrderDeck, load_orders, orders_from_dict, "orders")
        tiles = self.upgrades if _is_tiles(self.upgrades) else _load(self.upgrades, tuple, load_upgrades, upgrades_from_dict, "upgrades")
        for order in deck.kinds:
            missing = [i for i in order_needs(order) if i not in board.spaces]
            check.need(not missing, "orders", f"the order {order!r} needs {', '.join(missing)}, which no board space has")
        needed = 3 + 2 * (self.players - 1) + (self.players == 2)
        check.need(deck.total >= needed, "orders", f"the deck must hold at least the {needed} cards setup deals", deck.total)
        check.need(self.players * (2 if self.players == 2 else 1) < len(board.spaces), "board",
                   "has too few spaces for the meeples", len(board.spaces))
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "orders", deck)
        object.__setattr__(self, "upgrades", tiles)

    @property
    def deck(self) -> OrderDeck:
        """The order deck's make-up."""
        assert isinstance(self.orders, OrderDeck)
        return self.orders

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The upgrade tiles every player has."""
        return tuple(self.upgrades)

    @property
    def meeples(self) -> int:
        """Meeples per player: two in the two-player game (Rule), else one."""
        return 2 if self.players == 2 else 1

    @property
    def stand_in_data(self) -> bool:
        """Whether all three data files are the shipped stand-ins."""
        return self.board == stand_in_board() and self.deck == stand_in_orders() and self.tiles == stand_in_upgrades()

    def table(self) -> pd.DataFrame:
        """Every parameter with its value, its kind (Rule / Fact / Ruling / Stand-in) and what it means."""
        shown = {name: "stand-in file" if getattr(self, name) == default() else "user data"
                 for name, default in (("board", stand_in_board), ("orders", stand_in_orders), ("upgrades", stand_in_upgrades))}
        return option_table(self, shown)


def _is_tiles(value: Any) -> bool:
    return isinstance(value, tuple) and bool(value) and all(isinstance(t, Tile) for t in value)


def _load(value: Any, kind: type, load: Any, from_dict: Any, name: str) -> Any:
    if value is None:
        return load(None)
    if isinstance(value, kind) and kind is not tuple:
        return value
    if isinstance(value, (str, Path)):
        return load(value)
    return from_dict(value, source=f"Coffee Rush option '{name}'")
