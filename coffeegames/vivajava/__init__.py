"""VivaJava: The Dice Game — coloured dice, blends, an engine with both solo corporations, exact odds and advice.

The rules, each labelled Rule / Fact / Ruling / Stand-in, are in ``docs/rules/vivajava.md``.
Modules: the dice and blends (:mod:`.dice`), exact roll odds (:mod:`.odds`), options and
stand-in data (:mod:`.rules`, :mod:`.data`), actions and phases (:mod:`.actions`), the
engine (:mod:`.state`, with :mod:`.legal`, :mod:`.rolls`, :mod:`.corporations`,
:mod:`.saved`), the chances of losing a blend (:mod:`.outlook`), advice (:mod:`.advice`),
bots (:mod:`.policy`) and rolls typed at the table (:mod:`.typed`). Everything outside the package imports from here.

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

if TYPE_CHECKING:  # the public names, listed once: lazy.py derives __all__ and the run-time imports
    from .actions import (
        describe, ACTION_KINDS, Action, Boost, Decline, Degrade, Featured, FirstPlayer, Flip, GainToken, Keep,
        KeepRolling, Phase, Rainbow, Reroll, Research, Rolled, SetupResearch, TakeFlavour, Upgrade,
    )
    from .explain import explain
    from .advice import advise, flavour_die_value, roll_value, rp_value
    from .data import OMNIBLEND_REROLLS
    from .dice import (
        COFFEE_DIE, COLOURS, FLAVOUR_DIE, JOKER, NO_BLEND, SIZE_NAMES, WHITE_DIE, Blend, best_blend_of, best_of_counts,
        check_dice, is_rainbow, rainbow_of_counts,
    )
    from .odds import (
        MAX_COFFEE_DICE, MAX_FLAVOUR, MAX_REROLLS, MAX_WHITE, METER_COLUMNS, METER_LEVELS, SUCCESS_SIZE, best_blend, blend_rows, blend_table,
        colour_table, largest_group, meter_rows, meter_table, omniblend_groups, omniblend_success, p_at_least, p_beats,
        p_rainbow, p_reroll_beats, rainbow, research, research_rows, research_table, sacchar_block, sacchar_success,
    )
    from .outlook import Outlook, corporation_chance, omniblend_beats, p_featured_lost, p_rainbow_lost
    from .player import PlayerState
    from .policy import FLAVOUR_DIE_WORTH, Policy, greedy_policy, random_policy, strong_policy
    from .rolls import CACHED_OUTCOMES, roll_outcome_count, roll_outcomes
    from .rules_of_thumb import (
        KEPT_SIZES, keep_picture, keep_policy, keep_rules, keep_values, rule_of_thumb, rule_start_value, rule_table, start_blends,
    )
    from .rules import (
        ABILITIES, COFFEE_DICE, CORPORATION, CORPORATIONS, DIFFICULTIES, FLAVOUR_DICE, ROLL_DICE, RULES_VERSION,
        STAND_IN_DATA, TRACK_COLOURS, Ability, Rules, Track, VivaData, data_from_dict, load_data,
    )
    from .game import Game
    from .state import State
    from .typed import outcome_example, outcome_hint, parse_outcome, parse_roll
    from .versions import load_walkthrough, saved_game
else:
    from ..lazy import lazy_exports

    __getattr__, __dir__, __all__ = lazy_exports(__name__)
