"""VivaJava: The Dice Game's rules as data: every parameter, ruling and stand-in in one frozen :class:`Rules`.

``docs/rules/vivajava.md`` sorts every statement into *Rule* (what the rules say), *Fact*
(a public source), *Ruling* (our decision where neither says enough) and *Stand-in* data
(numbers we had to invent). Each option of :class:`Rules` carries its kind and a one-line
meaning in its field metadata, so ``Rules().table()`` lists them all; a player who owns the
game can correct a ruling by passing an option (``Game(players=3, offer_flavour=False)``)
and the stand-in numbers by loading their own data file (``Game(data="my_vivajava.json")``,
format in :mod:`.data`). Options are checked with the shared
:class:`~coffeegames.validate.Checker`: a bad one raises
:class:`~coffeegames.errors.BadArgument` (or :class:`~coffeegames.errors.BadType`) naming it.

Example:
    >>> rules = Rules(players=4)
    >>> rules.featured_pp, rules.rainbow_pp, rules.track("green").length
    (3, 2, 8)
    >>> solo = Rules(players=2, solo="sacchar", meter="red")
    >>> solo.meter_values[solo.meter_start]
    3
    >>> Rules(players=5)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: option: argument 'players': must be 2, 3 or 4; got 5
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from ..engine.options import option as _option, option_table
from ..errors import BadArgument
from ..validate import Checker, is_whole
from ..versions import RulesVersions
from .data import (
    ABILITIES, CORPORATIONS, DIFFICULTIES, OMNIBLEND_REROLLS, STAND_IN_DATA, TRACK_COLOURS, Ability, Meter, Track,
    VivaData, data_from_dict, load_data, stand_in,
)
from .dice import COLOURS

__all__ = [
    "ABILITIES", "Ability", "COFFEE_DICE", "CORPORATION", "CORPORATIONS", "DIFFICULTIES", "FLAVOUR_DICE", "Meter",
    "RESEARCH_COLOURS", "OMNIBLEND_REROLLS", "ROLL_DICE", "RULES_VERSION", "RULES_VERSIONS", "Rules",
    "STAND_IN_DATA", "TRACK_COLOURS", "Track", "VivaData", "data_from_dict", "load_data",
]

RESEARCH_COLOURS: tuple[str, ...] = COLOURS
"""Colours a player may research: the five tracks, and black (flavour dice instead of RP)."""
CORPORATION = 1
"""In solo games the corporation is player 1 and the human player is player 0 (who starts: option ``solo_first``)."""
COFFEE_DICE = 10
"""Coffee dice in the game (Fact; white in the box, called coffee dice as white is also a bean colour)."""
FLAVOUR_DICE = 5
"""Black flavour dice in the game (Fact)."""
ROLL_DICE = 5
"""Coffee dice rolled on a turn, unless re-rolling a degraded Featured Blend (Rule)."""
_FLAGS = ("offer_flavour", "funding_needs_marker", "jokers_in_research", "return_flavour_first", "setup_unlocks",
          "completion_cancels", "corp_keeps_decaf", "corp_holds_both", "black_block")
"""The options that are True or False."""
RULES_VERSIONS = RulesVersions(
    {2: {"activations_at_2x": 1, "solo_first": "random", "corp_keeps_decaf": True},  # the rules re-read (issue 12)
     3: {"omniblend_rerolls": "seed"}},  # OmniBlend's re-rolls as the rules say (issue 28)
    retired={"token_at_2x": (1, "the rules give one token at each mark")},
    renamed={"omniblend_stops": ("omniblend_rerolls", {True: "stop_at_blend", False: "always"})},
)
"""What each rules version changed (option ``rules_version``; a save naming none was played under 1)."""
RULES_VERSION = RULES_VERSIONS.latest
"""The current reading of the rules (option ``rules_version``); saved games made before it recorded none are version 1."""
_OPTION = Checker("option", BadArgument)
"""Checks :class:`Rules` options: errors name the option and what it may be."""


@RULES_VERSIONS
@dataclass(frozen=True)
class Rules:
    """Every parameter of a VivaJava dice game. Options are validated; an error names the option.

    ``data`` may be ``None`` (the shipped stand-in file), a path to a data file, a dict in the
    file format, or a :class:`VivaData`; it is always a :class:`VivaData` afterwards.

    >>> Rules().table().loc["offer_flavour", "kind"]
    'Ruling'
    """

    players: int = _option("Rule", "2-4 players (solo games are a two-player setup against a corporation)", 2)
    solo: str | None = _option("Rule", f"None, or the corporation the single player faces: {', '.join(CORPORATIONS)}", None)
    meter: str = _option("Rule", "solo difficulty, the METER's start: green (easy), yellow (normal), red (hard)", "yellow")
    win_pp: int = _option("Rule", "the first player to this many PP wins at once", 21)
    markers: int = _option("Rule", "markers per player (funding marks and ability tokens)", 3)
    research_cap: int = _option("Rule", "most RP (or flavour dice) one research gives", 5)
    offer_flavour: bool = _option(
        "Ruling",
        "True: every other player rolls all the flavour dice they hold with the active player's roll, offering them "
        "for a Featured Blend (the rules say they 'may'); False: nobody offers (smaller chance nodes)",
        True,
    )
    funding_needs_marker: bool = _option(
        "Ruling", "a funded die needs a free marker of its owner (markers are 3); False: funding needs no marker", True
    )
    jokers_in_research: bool = _option("Ruling", "a joker counts as the researched colour (it is wild), black included", True)
    return_flavour_first: bool = _option(
        "Ruling",
        "researching black, your rolled flavour dice go back to the flavour coaster before you take new ones "
        "(every flavour die you rolled returns there at the end of your action, used or not)",
        True,
    )
    both_blends: str = _option(
        "Ruling",
        "a player holding the Rainbow who makes a Featured Blend: 'return_rainbow' (the Rainbow coaster goes back "
        "to the supply) or 'no_featured' (no Featured Blend while holding the Rainbow)",
        "return_rainbow",
    )
    activations_at_2x: int = _option(
        "Ruling",
        "times an immediate or negative ability activates when its track reaches the 2X mark: 1 (default) or 2. "
        "The rules say only '遇到2X時也是拿一個' (at 2X you also take one [token]), so a 'gain a token' ability "
        "always gives one token per mark; 2 is the old reading '2X applies it twice' (rules_version 1)",
        2,
    )
    setup_unlocks: bool = _option("Ruling", "the setup RP of non-first players can unlock abilities (False: it marks only)", False)
    completion_cancels: bool = _option(
        "Ruling",
        "abilities unlocked this turn on a track that is completed this turn are cancelled with it "
        "(False: immediate/negative ones still apply once per mark)",
        True,
    )
    solo_first: str = _option(
        "Rule",
        "who starts a solo game: 'random' (the rules: '依照兩人模式設定' (set up as a two-player game) and "
        "'每個玩家各擲一個骰子來決定起始玩家，非起始玩家得到 1 RP' (each player rolls a die for first player; "
        "the non-first player gains 1 RP): a chance node, 1/2 each; you mark 1 RP when the corporation starts) "
        "or 'you' (you always start and nobody gains the setup RP: rules_version 1)",
        "you",
    )
    corp_keeps_decaf: bool = _option(
        "Ruling",
        "the rules: '邪惡企業保留其特色調豆直到Decaf為止。一旦降到Decaf時，邪惡企業擲 5個骰子' (the corporation keeps "
        "its Featured Blend until Decaf; once degraded to Decaf it rolls 5 dice). True: the Decaf stays on the "
        "coaster while it rolls (lost when a new blend replaces it, a player beats it, or it degrades again); "
        "False: it gives the Decaf up before rolling (rules_version 1)",
        False,
    )
    corp_holds_both: bool = _option("Rule", "a corporation may hold the Featured and Rainbow Blends at once (the rules: 'they are sneaky')", True)
    corp_success_size: int = _option(
        "Ruling", "a corporation's Featured Blend needs this many of a kind (the rules' '(Bold)' label conflicts with their own table: three)", 3
    )
    omniblend_rerolls: str = _option(
        "Rule",
        "OmniBlend's re-rolls. The rules: '在OT的回合中，如果沒有得到特色調豆的話，依據METER指示物所在的數字執行「重擲」動作' "
        "(if its roll makes no Featured Blend, it re-rolls as many times as the METER shows) and '重擲的過程中，OT永遠保留最好組合的骰子，"
        "然後重擲剩下的骰子。除非在一開始的擲骰中，產生彩虹調豆，否則要盡可能地使用重骰的能力，得到最好的結果' (re-rolling, it always "
        "keeps its best group and re-rolls the rest; unless its first roll made a Rainbow it uses its re-rolls as far as "
        "they go, for the best result). 'seed' (the rules): a first-roll Featured Blend ends the roll, else a first-roll "
        "Rainbow is taken, else it uses every re-roll and its last dice make its blend; options: 'stop_at_blend' (it "
        "stops at the first blend a re-roll reaches: rules_version 1-2, a save's omniblend_stops=true) or 'always' "
        "(it re-rolls even after a first-roll blend: a save's omniblend_stops=false)",
        "stop_at_blend",
    )
    black_block: bool = _option(
        "Ruling", "Sacchar's block die (one more coffee die) showing black forbids taking flavour dice by researching black next turn", True
    )
    sacchar_rainbow: str = _option(
        "Ruling",
        "Sacchar's Rainbow. The rules: '如果無法產生「調豆」（特色或彩虹都算）時，將METER指示物往上移動一格' (no blend, "
        "Featured or Rainbow, moves the METER up) but for Sacchar '如果無法產生特色調豆，將METER指示物往上移動一格，"
        "同時丟擲一個白骰' (no Featured Blend: the METER goes up and it also rolls one coffee die, the block die). 'success': a "
        "Rainbow is a success (METER down, no block die); 'block': METER down, but it still rolls the block die",
        "success",
    )
    rules_version: int = _option(
        "Ruling",
        "which reading the defaults of activations_at_2x, solo_first, corp_keeps_decaf and omniblend_rerolls follow: "
        "3 (1, 'random', True, 'seed'), 2 (1, 'random', True, 'stop_at_blend') or 1 (2, 'you', False, 'stop_at_blend': "
        "the library before its rules were re-read). Game.options records it from 2 on; a saved game whose options "
        "lack it was played under 1 (load it with saved_game)",
        3,
    )
    payoff: str = _option("Ruling", "returns(): 'win' (1 for the winner, 0 otherwise) or 'pp' (each player's PP)", "win")
    data: Any = _option(
        "Stand-in", "blend PP, research tracks, abilities on them, METERs: None = shipped stand-in file, a path, or a dict", None, shown=False
    )

    def __post_init__(self) -> None:
        check = _OPTION

        def need(ok: bool, name: str, why: str) -> None:
            check.need(ok, name, why, getattr(self, name))

        need(is_whole(self.players) and 2 <= self.players <= 4, "players", "must be 2, 3 or 4")
        need(self.solo is None or (isinstance(self.solo, str) and self.solo in CORPORATIONS), "solo", f"must be None or one of {', '.join(CORPORATIONS)}")
        need(self.solo is None or self.players == 2, "players", "must be 2 in a solo game (a two-player setup against the corporation)")
        need(self.meter in DIFFICULTIES, "meter", f"must be one of {', '.join(DIFFICULTIES)}")
        need(is_whole(self.win_pp) and 1 <= self.win_pp <= 100, "win_pp", "must be a whole number 1-100 (the rules: 21)")
        need(is_whole(self.markers) and 0 <= self.markers <= 10, "markers", "must be a whole number 0-10")
        need(is_whole(self.research_cap) and 1 <= self.research_cap <= 100, "research_cap", "must be a whole number 1-100")
        for name in _FLAGS:
            need(isinstance(getattr(self, name), bool), name, "must be True or False")
        need(self.both_blends in ("return_rainbow", "no_featured"), "both_blends", "must be 'return_rainbow' or 'no_featured'")
        need(is_whole(self.activations_at_2x) and self.activations_at_2x in (1, 2), "activations_at_2x", "must be 1 or 2")
        need(self.solo_first in ("random", "you"), "solo_first", "must be 'random' or 'you'")
        need(self.omniblend_rerolls in OMNIBLEND_REROLLS, "omniblend_rerolls", f"must be one of {', '.join(map(repr, OMNIBLEND_REROLLS))}")
        need(self.sacchar_rainbow in ("success", "block"), "sacchar_rainbow", "must be 'success' or 'block'")
        need(is_whole(self.corp_success_size) and 2 <= self.corp_success_size <= 5, "corp_success_size", "must be 2-5")
        need(self.payoff in ("win", "pp"), "payoff", "must be 'win' or 'pp'")
        data: VivaData
        if self.data is None:
            data = stand_in()
        elif isinstance(self.data, VivaData):
            data = self.data
        elif isinstance(self.data, (str, Path)):
            data = load_data(self.data)
        else:
            data = data_from_dict(self.data, source="option 'data'")
        object.__setattr__(self, "data", data)

    # -- derived values -------------------------------------------------------------
    @property
    def featured_pp(self) -> int:
        """PP the Featured Blend's holder gains at the start of each turn (Stand-in, by player count)."""
        return self.data.featured_pp[self.players - 2]

    @property
    def rainbow_pp(self) -> int:
        """PP the Rainbow Blend's holder gains at the start of each turn (Stand-in, by player count)."""
        return self.data.rainbow_pp[self.players - 2]

    @cached_property
    def track_lengths(self) -> tuple[int, ...]:
        """Each research track's length in RP (white..green), worked out once: the engine asks it every turn."""
        return tuple(t.length for t in self.data.tracks)

    def track(self, colour: str) -> Track:
        """The research track of ``colour`` (white..green)."""
        if colour not in TRACK_COLOURS:  # (checked here, not by one_of: this runs in the engine's inner loops)
            raise _OPTION.error("colour", f"must be one of {', '.join(TRACK_COLOURS)}", colour)
        return self.data.tracks[TRACK_COLOURS.index(colour)]

    def ability(self, colour: str) -> Ability:
        """The ability on the track of ``colour``."""
        return ABILITIES[self.track(colour).ability]

    def track_with(self, ability: str) -> str | None:
        """The colour of the track carrying ``ability`` (None if it is not on the research coaster)."""
        return next((t.colour for t in self.data.tracks if t.ability == ability), None)

    @property
    def meter_values(self) -> tuple[int, ...]:
        """The solo corporation's METER (numbers shown, low to high); () outside solo games."""
        return self.data.meter(self.solo).values if self.solo else ()

    @property
    def meter_start(self) -> int:
        """The METER's start position for the chosen difficulty (0 outside solo games)."""
        return self.data.meter(self.solo).start[DIFFICULTIES.index(self.meter)] if self.solo else 0

    @property
    def stand_in_data(self) -> bool:
        """Whether the data are the shipped stand-in file."""
        return bool(self.data == stand_in())

    def table(self) -> pd.DataFrame:
        """Every parameter with its value, its kind (Rule / Fact / Ruling / Stand-in) and what it means."""
        shown = {"data": "stand-in file" if self.stand_in_data else "user data"}
        return option_table(self, shown)


