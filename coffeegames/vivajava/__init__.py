"""VivaJava: The Dice Game — coloured dice, blends, an engine with both solo corporations, exact odds and advice.

The rules, each labelled Rule / Fact / Ruling / Stand-in, are in ``docs/rules/vivajava.md``.
Modules: the dice and blends (:mod:`.dice`), exact roll odds (:mod:`.odds`), options and
stand-in data (:mod:`.rules`, :mod:`.data`), actions and phases (:mod:`.actions`), the
engine (:mod:`.state`, with :mod:`.legal`, :mod:`.rolls`, :mod:`.corporations`,
:mod:`.saved`), the chances of losing a blend (:mod:`.outlook`), advice (:mod:`.advice`)
and bots (:mod:`.policy`). Everything outside the package imports from here.

>>> from coffeegames import vivajava
>>> vivajava.best_blend_of(["green", "green", "joker"])
Blend('Regular', 'green')
>>> vivajava.p_rainbow(coffee_dice=5)
Fraction(5, 54)
>>> game = vivajava.Game(players=3)
>>> game.new_initial_state().phase == vivajava.Phase.SETUP
True
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names, for readers and type checkers; at run time each is imported on first use
    from .actions import (
        describe,
        ACTION_KINDS,
        Action,
        Boost,
        Decline,
        Degrade,
        Featured,
        FirstPlayer,
        Flip,
        GainToken,
        Keep,
        KeepRolling,
        Phase,
        Rainbow,
        Reroll,
        Research,
        Rolled,
        SetupResearch,
        TakeFlavour,
        Upgrade,
    )
    from .explain import explain
    from .advice import advise, flavour_die_value, roll_value, rp_value
    from .dice import (
        COFFEE_DIE,
        COLOURS,
        FLAVOUR_DIE,
        JOKER,
        NO_BLEND,
        SIZE_NAMES,
        WHITE_DIE,
        Blend,
        best_blend_of,
        best_of_counts,
        check_dice,
        is_rainbow,
        rainbow_of_counts,
    )
    from .odds import (
        MAX_COFFEE_DICE,
        MAX_FLAVOUR,
        MAX_REROLLS,
        MAX_WHITE,
        SUCCESS_SIZE,
        best_blend,
        blend_rows,
        blend_table,
        colour_table,
        largest_group,
        meter_rows,
        meter_table,
        omniblend_groups,
        omniblend_success,
        p_at_least,
        p_beats,
        p_rainbow,
        p_reroll_beats,
        rainbow,
        research,
        research_rows,
        research_table,
        sacchar_block,
        sacchar_success,
    )
    from .outlook import Outlook, corporation_chance, omniblend_beats, p_featured_lost, p_rainbow_lost
    from .player import PlayerState
    from .policy import Policy, greedy_policy, random_policy
    from .rolls import CACHED_OUTCOMES, roll_outcome_count, roll_outcomes
    from .rules import (
        ABILITIES,
        COFFEE_DICE,
        CORPORATION,
        CORPORATIONS,
        DIFFICULTIES,
        FLAVOUR_DICE,
        ROLL_DICE,
        RULES_VERSION,
        STAND_IN_DATA,
        TRACK_COLOURS,
        Ability,
        Rules,
        Track,
        VivaData,
        data_from_dict,
        load_data,
    )
    from .state import Game, State
    from .versions import load_walkthrough, saved_game
else:
    from ..lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(__name__, {
        "actions": (
            "describe ACTION_KINDS Action Boost Decline Degrade Featured FirstPlayer Flip GainToken Keep "
            "KeepRolling Phase Rainbow Reroll Research Rolled SetupResearch TakeFlavour Upgrade"
        ),
        "explain": "explain",
        "advice": "advise flavour_die_value roll_value rp_value",
        "dice": (
            "COFFEE_DIE COLOURS FLAVOUR_DIE JOKER NO_BLEND SIZE_NAMES WHITE_DIE Blend best_blend_of "
            "best_of_counts check_dice is_rainbow rainbow_of_counts"
        ),
        "odds": (
            "MAX_COFFEE_DICE MAX_FLAVOUR MAX_REROLLS MAX_WHITE SUCCESS_SIZE best_blend blend_rows blend_table colour_table "
            "largest_group meter_rows meter_table omniblend_groups omniblend_success p_at_least p_beats p_rainbow "
            "p_reroll_beats rainbow research research_rows research_table sacchar_block sacchar_success"
        ),
        "outlook": "Outlook corporation_chance omniblend_beats p_featured_lost p_rainbow_lost",
        "player": "PlayerState",
        "policy": "Policy greedy_policy random_policy",
        "rolls": "CACHED_OUTCOMES roll_outcome_count roll_outcomes",
        "rules": (
            "ABILITIES COFFEE_DICE CORPORATION CORPORATIONS DIFFICULTIES FLAVOUR_DICE ROLL_DICE RULES_VERSION "
            "STAND_IN_DATA TRACK_COLOURS Ability Rules Track VivaData data_from_dict load_data"
        ),
        "state": "Game State",
        "versions": "load_walkthrough saved_game",
    })

__all__ = [
    "ABILITIES",
    "CACHED_OUTCOMES",
    "Action",
    "COFFEE_DICE",
    "CORPORATION",
    "data_from_dict",
    "FLAVOUR_DICE",
    "Phase",
    "Policy",
    "ROLL_DICE",
    "SIZE_NAMES",
    "Ability",
    "ACTION_KINDS",
    "advise",
    "describe",
    "explain",
    "best_blend",
    "best_blend_of",
    "best_of_counts",
    "Blend",
    "blend_rows",
    "blend_table",
    "Boost",
    "check_dice",
    "colour_table",
    "COFFEE_DIE",
    "COLOURS",
    "corporation_chance",
    "CORPORATIONS",
    "Decline",
    "Degrade",
    "DIFFICULTIES",
    "Featured",
    "FirstPlayer",
    "FLAVOUR_DIE",
    "flavour_die_value",
    "Flip",
    "GainToken",
    "Game",
    "greedy_policy",
    "is_rainbow",
    "JOKER",
    "Keep",
    "KeepRolling",
    "largest_group",
    "load_data",
    "load_walkthrough",
    "MAX_COFFEE_DICE",
    "MAX_FLAVOUR",
    "MAX_REROLLS",
    "MAX_WHITE",
    "meter_rows",
    "meter_table",
    "NO_BLEND",
    "omniblend_beats",
    "omniblend_groups",
    "omniblend_success",
    "Outlook",
    "p_at_least",
    "p_beats",
    "p_featured_lost",
    "p_rainbow",
    "p_rainbow_lost",
    "p_reroll_beats",
    "PlayerState",
    "rainbow",
    "Rainbow",
    "rainbow_of_counts",
    "random_policy",
    "Reroll",
    "Research",
    "research",
    "research_rows",
    "research_table",
    "roll_outcome_count",
    "roll_outcomes",
    "roll_value",
    "Rolled",
    "rp_value",
    "Rules",
    "RULES_VERSION",
    "sacchar_block",
    "sacchar_success",
    "saved_game",
    "SetupResearch",
    "STAND_IN_DATA",
    "State",
    "SUCCESS_SIZE",
    "TakeFlavour",
    "Track",
    "TRACK_COLOURS",
    "Upgrade",
    "VivaData",
    "WHITE_DIE",
]
