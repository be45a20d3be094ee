"""Coffee Roaster's options: every Ruling and Stand-in a player may change, and the rule constants they work with.

The rules of the game are in docs/rules/roaster.md, where every statement is a *Rule*
(the rulebook), a *Fact* (a public source), a *Ruling* (our decision where neither says
enough) or *Stand-in* data (numbers we had to invent). Each option of :class:`Rules`
carries its kind and a one-line meaning in its field metadata, so ``Rules().table()``
lists them. A player who owns the game corrects a ruling by passing an option
(``Game(card="Kenya AA", crack_steps=1)``) and the stand-in numbers by loading their own
data files (``Game(card=..., cards="my_cards.json", board="my_board.json")``, format in
``data/README.md``, loaders in :mod:`.data`).

Rulings that are not options (docs/rules/roaster.md lists each with the function that
implements it):

* A defect bean is never roasted; a burnt bean stays burnt.
* Flavour tokens paying for an effect come from this round's drawn tokens first, then
  from the easy side's starting tokens (the player does not choose).
* With ``bean_supply`` set, hard beans the box has no roasted token for stay hard, and
  Disperse needs a token in the box.
* A flavour token goes into a slot of its own colour before a multicolour one.
* The wild flavour gained by paying its beans joins this round's drawn tokens (usable at
  once; unused, it goes into the bag). Only the wild may be paid over several rounds;
  the other immediate effects are paid in full when used.
* The cup is filled space by space from the left (Sweetness is on its space from the start
  of the cup test: a Rule since ``rules_version`` 2); the
  Choice spaces are the two spaces ``cup.choice_spaces``. With Choice, the token not kept
  goes back into the bag; nothing drawn for Choice goes on the tray.
* Exchange returns two drawn tokens (never Sweetness) and keeps two of the three drawn;
  the third goes back into the bag. It needs a full cup.
* Skill counts roasted beans of levels 0-4 only; hard, burnt and defect beans add 0 to
  the total roast level (burnt: option ``burnt_level``); the Extra Bean adds
  ``cup.extra_bean_level`` (stand-in) and is not a space.

Example:
    >>> rules = Rules(card="Zambia Kasama AA")
    >>> rules.card.optimum, rules.card.roast_points(16), rules.card.roast_points(17)
    (16, 10, 6)
    >>> rules.start_space, rules.draws_at(rules.start_space)
    (2, 7)
    >>> Rules(card="Mexico Altura Oaxaca").draws_at(Rules(card="Mexico Altura Oaxaca").start_space)
    8
    >>> Rules(card="Nowhere Blend")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: Coffee Roaster options: argument 'card': no coffee card named 'Nowhere Blend'; the cards are Mexico Altura Oaxaca, ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..engine.options import option as _option, option_table
from ..errors import BadArgument, BadType
from ..validate import Checker
from ..versions import RulesVersions
from .data import (
    SIDES, Board, Card, Side, board_from_dict, cards_from_dict, check_card_on_board, load_board, load_cards,
    stand_in_board, stand_in_cards,
)
from .scoring import CupScore, _part_columns, _score_columns, _score_counts, score_cup, scoring_class
from .tokens import ACIDITY, AROMA, BODY, BURNT, FLAVOURS, TRAY, roast_level

__all__ = [
    "EASY_FLAVOURS", "FLAVOUR_EFFECTS", "RULES_VERSION", "RULES_VERSIONS", "Rules", "SKILL_GROUPS", "TRAY_BONUS",
    "TRAY_SPACES", "WILD_COST",
]

TRAY_SPACES = 3
"""Spaces on the cardboard tray without the Cardboard Tray effect: the default of option ``tray_spaces`` (Stand-in: the
rulebook text gives only the effect's bonus)."""
RULES_VERSIONS = RulesVersions({
    2: {"sweetness_from_start": True, "reserve_choice": True},
})
"""What each rules version changed (option ``rules_version``), each change a named option whose default the version
sets: version 2 (issue 12) puts Sweetness on its cup space from the start of the cup test (``sweetness_from_start``)
and lets the player choose which of the easy side's starting flavours go into the bag (``reserve_choice``). A save
naming no version was played under 1."""
RULES_VERSION = RULES_VERSIONS.latest
"""The reading of the rules a new game follows (option ``rules_version``): 2 since issue 12. Games saved before it are 1."""
SKILL_GROUPS: tuple[str, ...] = ("largest", "each")
"""Values of option ``skill_groups``."""
TRAY_BONUS: dict[str, int] = {"full": 2, "easy": 3}
"""Extra tray spaces the Cardboard Tray cup effect gives, by side (Rule)."""
EASY_FLAVOURS: tuple[str, ...] = FLAVOURS
"""Easy side: one Body, Acidity and Aroma from the card's tokens start on the board as if just drawn (Rule)."""
WILD_COST: tuple[str, ...] = ("bean0", "bean1")
"""The wild flavour is paid with one level-0 and one level-1 bean (Rule)."""
FLAVOUR_EFFECTS: dict[str, str] = {BODY: "concentrate", ACIDITY: "preserve", AROMA: "disperse"}
"""Flavour token → flavour effect: Body → Concentrate, Acidity → Preserve, Aroma → Disperse (Rule)."""

_OPTIONS = Checker("Coffee Roaster options", BadArgument)
"""The checker for :class:`Rules` options: its errors name the option."""


@RULES_VERSIONS
@dataclass(frozen=True)
class Rules:
    """Every parameter of one Coffee Roaster game. Options are validated; an error names the option.

    ``card`` is a card name (from ``cards``) or a :class:`Card`; ``cards`` and ``board`` may be
    ``None`` (the shipped stand-in files), a path, a dict in the file format, or loaded data.

    >>> Rules(card="Kenya AA").table().loc["crack_steps", "kind"]
    'Ruling'
    """

    card: Any = _option("Rule", "the coffee card played (a name, or a Card)", None)
    side: str = _option("Rule", "board side: 'full', or 'easy' (starting Body/Acidity/Aroma, bigger tray bonus)", "full")
    crack_steps: int = _option("Ruling", "levels a bean gains when roasted on a crack space of the thermometer (1 elsewhere)", 2)
    burnt_level: int = _option("Ruling", "roast level a burnt bean adds to the cup's total (hard and defect beans add 0)", 0)
    concentrate_limit: int = _option(
        "Ruling", "Concentrate may only make a bean up to this level (no bean tokens above 4 exist)", 4)
    reserve_to_bag: bool = _option(
        "Ruling", "without reserve_choice (rules_version 1, games saved before the choice): the easy side's starting "
        "flavour tokens still unused go into the bag when you stop (False: they stay out)", True)
    reserve_choice: bool = _option(
        "Rule", "the easy side's starting flavour tokens still unused go into the bag or not as you choose, token by "
        "token, when the roasting ends (ReserveToBag); rules_version 2 on (1: False, per reserve_to_bag)", False)
    sweetness_from_start: bool = _option("Rule", "an active Sweetness sits on its cup space from the start of the cup "
                                         "test; rules_version 2 on (1: False, placed when filling reaches it)", False)
    tray_spaces: int = _option(
        "Stand-in", "spaces on the cardboard tray without the Cardboard Tray effect (the rulebook gives only the "
        "effect's bonus: 'two more tokens', 'three more' on the easy side)", TRAY_SPACES)
    skill_groups: str = _option(
        "Ruling", "skill points when the cup has two groups of 3+ beans of one roast level: 'largest' (only the "
        "largest scores) or 'each' (every group scores); the rulebook: 'if your cup has 3 or more beans of the same "
        "roast level you score extra points', one group in its examples", "largest")
    sweetness_flavour: bool = _option(
        "Ruling", "Sweetness counts as a flavour token for the -3 'no flavour token in the cup' penalty (the rulebook "
        "says Sweetness 'can be exchanged for any flavour token' when scoring flavour)", True)
    bean_supply: int | None = _option(
        "Ruling", "roasted-bean tokens (levels 0-4 and burnt) the box holds: None = never runs out; the component list "
        "has 81 ('roasted beans 81'). With a limit, a hard bean with no roasted token left stays hard and Disperse "
        "needs one", None)
    rules_version: int = _option(
        "Rule", "2: the rules as read now (sweetness_from_start and reserve_choice on). 1: games saved before (both "
        "off: Sweetness placed when filling reaches its space; starting flavours per reserve_to_bag)", RULES_VERSION)
    cards: Any = _option("Stand-in", "the coffee cards: None = shipped stand-in file, a path, or a dict", None, shown=False)
    board: Any = _option("Stand-in", "board numbers: None = shipped stand-in file, a path, a dict, or a Board", None, shown=False)

    def __post_init__(self) -> None:
        check = _OPTIONS
        check.one_of(self.side, "side", SIDES)
        check.whole(self.crack_steps, "crack_steps", 1, 4)
        check.whole(self.burnt_level, "burnt_level", 0, 6)
        check.need(self.concentrate_limit in (2, 3, 4) and not isinstance(self.concentrate_limit, bool), "concentrate_limit",
                   "must be 2, 3 or 4", self.concentrate_limit)
        for name in ("reserve_to_bag", "reserve_choice", "sweetness_from_start", "sweetness_flavour"):
            if not isinstance(getattr(self, name), bool):
                raise BadType(name, "must be True or False", getattr(self, name), source=check.source)
        check.need(self.reserve_to_bag or not self.reserve_choice, "reserve_to_bag",
                   "applies only without reserve_choice (rules_version=1): with it the player chooses (ReserveToBag)",
                   self.reserve_to_bag)
        check.whole(self.tray_spaces, "tray_spaces", 0, 10)
        check.one_of(self.skill_groups, "skill_groups", SKILL_GROUPS)
        if self.bean_supply is not None:
            check.whole(self.bean_supply, "bean_supply", 0, 500)
        cards: tuple[Card, ...]
        if self.cards is None:
            cards = stand_in_cards()
        elif isinstance(self.cards, (str, Path)):
            cards = load_cards(self.cards)
        elif isinstance(self.cards, tuple) and all(isinstance(c, Card) for c in self.cards):
            cards = self.cards
        else:
            cards = cards_from_dict(self.cards, source="option 'cards'")
        board: Board
        if self.board is None:
            board = stand_in_board()
        elif isinstance(self.board, Board):
            board = self.board
        elif isinstance(self.board, (str, Path)):
            board = load_board(self.board)
        else:
            board = board_from_dict(self.board, source="option 'board'")
        card = self.card
        if isinstance(card, str):
            found = [c for c in cards if c.name == card]
            if not found:
                raise check.error("card", f"no coffee card named {card!r}; the cards are {', '.join(c.name for c in cards)}")
            card = found[0]
        if not isinstance(card, Card):
            raise BadType("card", "must be a card name or a Card", card, source=check.source)
        check_card_on_board(card, board)
        if self.bean_supply is not None:
            roasted = sum(1 for t in card.bag if roast_level(t) is not None or t == BURNT)
            check.need(roasted <= self.bean_supply, "bean_supply",
                       f"the card {card.name!r} alone puts {roasted} roasted beans in the bag", self.bean_supply)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "board", board)

    # -- derived values -------------------------------------------------------------
    @property
    def thermometer(self) -> Side:
        """This game's side of the thermometer."""
        return self.board.side(self.side)

    @property
    def spaces(self) -> int:
        """Thermometer spaces."""
        return len(self.thermometer.draws)

    @property
    def start_space(self) -> int:
        """Where the round marker starts, from the card's moisture count."""
        return dict(self.thermometer.start_by_moisture)[self.card.moisture]

    def draws_at(self, space: int) -> int:
        """Tokens drawn in a round with the marker on ``space`` (all that are left, if fewer: see ``State``)."""
        return self.thermometer.draws[space]

    def roast_steps(self, space: int) -> int:
        """Levels a bean gains when roasted with the marker on ``space``."""
        return self.crack_steps if space in self.thermometer.crack else 1

    @property
    def tray_bonus(self) -> int:
        """Extra tray spaces the Cardboard Tray gives on this side."""
        return TRAY_BONUS[self.side]

    def tray_size(self, active: Iterable[str]) -> int:
        """Tray spaces with these cup effects ``active``: ``tray_spaces``, plus the Cardboard Tray's bonus."""
        return self.tray_spaces + (self.tray_bonus if TRAY in tuple(active) else 0)

    @property
    def stand_in_data(self) -> bool:
        """Whether both data files are the shipped stand-ins."""
        return self.cards == stand_in_cards() and self.board == stand_in_board()

    def score(self, tokens: Iterable[str]) -> CupScore:
        """:func:`score_cup` for this game's card, board and rulings."""
        return score_cup(tokens, self.card, self.board, self.burnt_level, self.skill_groups, self.sweetness_flavour)

    def _score_counts(self, counts: Counter[str]) -> CupScore:
        """:meth:`score` of a cup as token → count, nothing checked: the cup solver's, for the cups it builds itself."""
        return _score_counts(counts, self.card, self.board, self.burnt_level, self.skill_groups, self.sweetness_flavour)

    def _score_columns(self, counts: Mapping[str, np.ndarray]) -> np.ndarray:
        """The totals of many cups at once (token → an array of counts, one per cup), nothing checked: the cup solvers'."""
        return _score_columns(counts, self.card, self.board, self.burnt_level, self.skill_groups, self.sweetness_flavour)

    def _part_columns(self, counts: Mapping[str, np.ndarray]) -> np.ndarray:
        """Like :meth:`_score_columns`, each cup's roast, flavour, skill and minus points packed in one int
        (:func:`.scoring.part_values` unpacks it)."""
        return _part_columns(counts, self.card, self.board, self.burnt_level, self.skill_groups, self.sweetness_flavour)

    def scoring_class(self, token: str) -> tuple[Hashable, ...]:
        """:func:`scoring_class` for this game's card and rulings."""
        return scoring_class(token, self.card, self.burnt_level)

    def table(self) -> pd.DataFrame:
        """Every parameter with its value, its kind (Rule / Fact / Ruling / Stand-in) and what it means."""
        shown = {
            "card": self.card.name,
            "cards": "stand-in file" if self.cards == stand_in_cards() else "user data",
            "board": "stand-in file" if self.board == stand_in_board() else "user data",
            "bean_supply": "unlimited" if self.bean_supply is None else self.bean_supply,
        }
        return option_table(self, shown)

