"""Dairyman: push-your-luck dice where sets of 2 or 3 dice sum to ten (RULES.md §1).

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

__all__ = [
    "LockDecision",
    "lock_choices",
    "roll_classes",
    "TurnSolution",
    "compare_policies",
    "evaluate_turn",
    "lock_most_dice",
    "optimal_turn",
    "simple_policies",
    "ICE_CREAM_ABILITIES",
    "LockOption",
    "MAX_DICE",
    "SETS",
    "check_roll",
    "counts_of",
    "has_set",
    "has_set_array",
    "lock_options",
    "lock_table",
    "most_dice",
    "most_dice_locked",
    "most_sets",
    "most_sets_locked",
    "odds_table",
    "p_any_set",
    "p_bust",
    "reroll_p_bust",
    "reroll_table",
    "simulate_p_any_set",
]
