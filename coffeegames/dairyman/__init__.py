"""Dairyman: push-your-luck dice where sets of 2 or 3 dice sum to ten (RULES.md §1).

Odds (:mod:`.odds`), exact optimal turns (:mod:`.turn`), the full rules engine
(:mod:`.state`, options in :mod:`.rules`) and bots (:mod:`.policy`).

>>> from coffeegames import dairyman
>>> dairyman.p_any_set(3)
Fraction(73, 216)
"""

from .odds import (
    ICE_CREAM_ABILITIES,
    LockOption,
    has_set_array,
    lock_options,
    lock_table,
    most_dice_locked,
    most_sets_locked,
    odds_table,
    p_any_set,
    p_bust,
    reroll_p_bust,
    reroll_table,
    simulate_p_any_set,
)
from .turn import (
    LockDecision,
    TurnSolution,
    compare_policies,
    evaluate_turn,
    lock_choices,
    lock_most_dice,
    optimal_turn,
    roll_classes,
    simple_policies,
)
from .sets import MAX_DICE, SETS, check_roll, counts_of, has_set, most_dice, most_sets

from .advice import advise
from .policy import greedy_policy, random_policy
from .rules import ABILITIES, STAND_IN_TILES, Rules, Tile, load_tiles, tiles_from_data
from .state import (
    ACTION_KINDS,
    Bust,
    Discard,
    Drawn,
    Flip,
    Game,
    IceCream,
    Lock,
    Order,
    PlayerState,
    Roll,
    Rolled,
    State,
    Stop,
    lock_actions,
    roll_outcomes,
)

__all__ = [
    "advise",
    "ABILITIES",
    "ACTION_KINDS",
    "Bust",
    "check_roll",
    "compare_policies",
    "counts_of",
    "Discard",
    "Drawn",
    "evaluate_turn",
    "Flip",
    "Game",
    "greedy_policy",
    "has_set",
    "has_set_array",
    "ICE_CREAM_ABILITIES",
    "IceCream",
    "load_tiles",
    "Lock",
    "lock_actions",
    "lock_choices",
    "lock_most_dice",
    "lock_options",
    "lock_table",
    "LockDecision",
    "LockOption",
    "MAX_DICE",
    "most_dice",
    "most_dice_locked",
    "most_sets",
    "most_sets_locked",
    "odds_table",
    "optimal_turn",
    "Order",
    "p_any_set",
    "p_bust",
    "PlayerState",
    "random_policy",
    "reroll_p_bust",
    "reroll_table",
    "Roll",
    "roll_classes",
    "roll_outcomes",
    "Rolled",
    "Rules",
    "SETS",
    "simple_policies",
    "simulate_p_any_set",
    "STAND_IN_TILES",
    "State",
    "Stop",
    "Tile",
    "tiles_from_data",
    "TurnSolution",
]
