"""Gizmos' options: every Rule, Fact and Ruling in one frozen :class:`Rules`, and the card data it loads.

``docs/rules/gizmos.md`` sorts every statement into *Rule* (the rulebook), *Fact* (a public
source), *Ruling* (our decision where neither says enough) and *Stand-in*. Each option of
:class:`Rules` carries its kind and a one-line meaning, so ``Rules().table()`` lists them;
a player changes a ruling by passing an option (``Game(players=3, card_source="mirondorin")``)
and the card facts by loading their own file (``Game(cards="my_cards.json")``, format in
``data/README.md``). Options are checked with the shared
:class:`~coffeegames.validate.Checker`: a bad one raises
:class:`~coffeegames.errors.BadArgument` naming it.

Example:
    >>> rules = Rules(players=3)
    >>> rules.card(82).colour, rules.card(82).cost, len(rules.deck)
    ('any', 7, 112)
    >>> Rules(card_source="mirondorin").card(89).colour
    'blue'
    >>> Rules(players=5)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: option: argument 'players': must be 2, 3 or 4; got 5
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..engine.options import option as _option, option_table
from ..errors import BadArgument, BadType
from ..validate import Checker, is_whole
from ..versions import RulesVersions
from .data import COLOURS, MARBLES_PER_COLOUR, Card, CardData, cards_for, cards_from_dict, load_cards, shipped_cards

__all__ = ["COLOURS", "MARBLES_PER_COLOUR", "Rules"]

_OPTION = Checker("option", BadArgument)


def _check_level(level: Any, low: int = 1) -> int:
    """``level`` if it is a card level ``low``-3 (1-3: levels I-III, 0: the starting gizmos); else the library's error
    naming ``level``. Cheap (two tests): the engine's own calls to :meth:`Rules.level_ids` pass through it."""
    if is_whole(level) and low <= level <= 3:
        return level
    error = BadArgument if is_whole(level) else BadType
    raise error("level", f"must be a card level, a whole number {low}-3", level)


RULES_VERSIONS = RulesVersions({2: {"converters_per": "turn"}})
"""What each rules version changed (option ``rules_version``); saves naming no version replay under 1.
Version 2 (issue 28): every gizmo is used once a turn, as the rulebook says, converters included
(``converters_per='turn'``); version 1 let a converter pay again in a second Build of the turn."""


@RULES_VERSIONS
@dataclass(frozen=True)
class Rules:
    """Every parameter of a Gizmos game. ``cards`` may be ``None`` (the shipped fact list), a path, a dict in the
    file format or a :class:`~.data.CardData`; it is a ``CardData`` afterwards.

    >>> Rules().table().loc["card_source", "kind"]
    'Fact'
    """

    players: int = _option("Rule", "2-4 players", 2)
    energy_limit: int = _option("Rule", "energy a player may store at the start (upgrades raise it)", 5)
    archive_limit: int = _option("Rule", "cards a player may hold in the archive at the start", 1)
    research_limit: int = _option("Rule", "cards a Research draws at the start", 3)
    row_size: int = _option("Rule", "marbles on the energy row", 6)
    display: tuple[int, ...] = _option("Rule", "face-up cards of levels I, II, III", (4, 3, 2))
    removed_level3: int = _option("Rule", "level-III cards removed unseen at setup", 20)
    end_level3: int = _option("Rule", "the end is triggered by a player with this many level-III gizmos ...", 4)
    end_gizmos: int = _option("Rule", "... or with this many gizmos, the starting gizmo included", 16)
    card_source: str = _option(
        "Fact",
        "which fan implementation's reading of the disputed level-III cards (ids 88/89, 94, 101): 'elinia' "
        "(8 level-III cards per colour) or 'mirondorin' (89 blue, 94 triggered by blue/yellow, 101 costs 4 for 4)",
        "elinia",
    )
    converters_per: str = _option(
        "Rule",
        "each converter may be used once a turn ('turn', the rulebook: every gizmo once a turn; from rules version 2) "
        "or once in every Build ('build', version 1); each energy is changed by one converter at most",
        "build",
    )
    payoff: str = _option("Ruling", "returns(): 'win' (1 for the winner after tie-breaks, else 0) or 'points' (each score)", "win")
    rules_version: int = _option(
        "Ruling", "the version of the rules whose defaults the other options take (RULES_VERSIONS): 2 (converters once "
        "a turn) or 1 (once a Build); a saved game naming none was played under 1", RULES_VERSIONS.latest)
    cards: Any = _option("Fact", "the 112 cards: None = the shipped fact list, a path, or a dict in its format", None, shown=False)

    def __post_init__(self) -> None:
        def need(ok: bool, name: str, why: str) -> None:
            _OPTION.need(ok, name, why, getattr(self, name))

        need(is_whole(self.players) and 2 <= self.players <= 4, "players", "must be 2, 3 or 4")
        for name, low, high in (("energy_limit", 1, 20), ("archive_limit", 0, 10), ("research_limit", 1, 10),
                                ("row_size", 1, 12), ("removed_level3", 0, 30), ("end_level3", 1, 16), ("end_gizmos", 2, 40)):
            need(is_whole(getattr(self, name)) and low <= getattr(self, name) <= high, name, f"must be a whole number {low}-{high}")
        if isinstance(self.display, list):  # read back from a saved game's JSON options
            object.__setattr__(self, "display", tuple(self.display))
        need(isinstance(self.display, tuple) and len(self.display) == 3 and all(is_whole(n) and 1 <= n <= 6 for n in self.display),
             "display", "must be a tuple of three whole numbers 1-6 (levels I, II, III)")
        need(self.converters_per in ("build", "turn"), "converters_per", "must be 'build' or 'turn'")
        need(self.payoff in ("win", "points"), "payoff", "must be 'win' or 'points'")
        data: CardData
        if self.cards is None:
            data = shipped_cards()
        elif isinstance(self.cards, CardData):
            data = self.cards
        elif isinstance(self.cards, (str, Path)):
            data = load_cards(self.cards)
        else:
            data = cards_from_dict(self.cards, source="option 'cards'")
        object.__setattr__(self, "cards", data)
        need(self.card_source in data.source_names, "card_source", f"must be one of {', '.join(data.source_names)}")
        need(36 - self.removed_level3 >= self.display[2], "removed_level3", "must leave the level-III display its cards")
        deck = cards_for(data, self.card_source)
        object.__setattr__(self, "_deck", deck)
        object.__setattr__(self, "_levels", tuple(tuple(c.id for c in deck if c.level == level) for level in range(4)))
        object.__setattr__(self, "_gear", {})  # the engine's memo: what a set of built gizmos gives (gear._gear)
        object.__setattr__(self, "_costs", {})  # the engine's memo: each set of discount gizmos' costs (gear._gear)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The 112 cards, by id, as ``card_source`` reads them."""
        deck: tuple[Card, ...] = self.__dict__["_deck"]
        return deck

    def card(self, ident: int) -> Card:
        """The card with id ``ident`` (0-111); else the library's error naming ``ident``. The engine and the bots
        index :attr:`deck` directly, unchecked."""
        deck = self.deck
        if is_whole(ident) and 0 <= ident < len(deck):
            return deck[ident]
        error = BadArgument if is_whole(ident) else BadType
        raise error("ident", f"must be a card id, a whole number 0-{len(deck) - 1}", ident)

    def level_ids(self, level: int) -> tuple[int, ...]:
        """The ids of every card of ``level`` (0: the starting gizmos, 1-3: levels I-III)."""
        ids: tuple[int, ...] = self.__dict__["_levels"][_check_level(level, 0)]
        return ids

    @property
    def shipped(self) -> bool:
        """Whether the cards are the shipped fact list."""
        return bool(self.cards == shipped_cards())

    def table(self) -> pd.DataFrame:
        """Every option with its value, kind and meaning."""
        return option_table(self, {"cards": "shipped fact list" if self.shipped else "user data"})
