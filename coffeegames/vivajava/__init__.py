"""VivaJava: The Dice Game — coloured dice and blends (RULES.md §2).

>>> from coffeegames import vivajava
>>> vivajava.best_blend_of(["green", "green", "joker"])
Blend('Regular', 'green')
>>> vivajava.p_rainbow(white=5)
Fraction(5, 54)
"""

from .dice import (
    COLOURS,
    FLAVOUR_DIE,
    JOKER,
    NO_BLEND,
    WHITE_DIE,
    Blend,
    best_blend_of,
    best_of_counts,
    check_dice,
    is_rainbow,
    rainbow_of_counts,
)

from .odds import (
    MAX_FLAVOUR,
    MAX_WHITE,
    SUCCESS_SIZE,
    best_blend,
    blend_table,
    colour_table,
    largest_group,
    meter_table,
    omniblend_groups,
    omniblend_success,
    p_at_least,
    p_beats,
    p_rainbow,
    p_reroll_beats,
    rainbow,
    research,
    research_table,
    sacchar_success,
)

__all__ = [
    "best_blend",
    "best_blend_of",
    "best_of_counts",
    "Blend",
    "blend_table",
    "check_dice",
    "colour_table",
    "COLOURS",
    "FLAVOUR_DIE",
    "is_rainbow",
    "JOKER",
    "largest_group",
    "MAX_FLAVOUR",
    "MAX_WHITE",
    "meter_table",
    "NO_BLEND",
    "omniblend_groups",
    "omniblend_success",
    "p_at_least",
    "p_beats",
    "p_rainbow",
    "p_reroll_beats",
    "rainbow",
    "rainbow_of_counts",
    "research",
    "research_table",
    "sacchar_success",
    "SUCCESS_SIZE",
    "WHITE_DIE",
]
