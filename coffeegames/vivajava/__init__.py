"""VivaJava: The Dice Game — coloured dice and blends (RULES.md §2).

>>> from coffeegames import vivajava
>>> vivajava.best_blend_of(["green", "green", "joker"])
Blend('Regular', 'green')
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

__all__ = [
    "Blend",
    "COLOURS",
    "FLAVOUR_DIE",
    "JOKER",
    "NO_BLEND",
    "WHITE_DIE",
    "best_blend_of",
    "best_of_counts",
    "check_dice",
    "is_rainbow",
    "rainbow_of_counts",
]
