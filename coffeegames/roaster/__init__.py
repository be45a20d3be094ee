"""Coffee Roaster: solo bag-building with push-your-luck (RULES.md §3).

Exact bag-draw odds (:mod:`.odds`).

>>> from coffeegames import roaster
>>> from coffeegames.exact import Bag
>>> roaster.p_any(Bag({"smoke": 1, "bean1": 3}), ["smoke"], draws=2)
Fraction(1, 2)
"""

from .odds import bean_level, count_dist, draw_table, effect_table, expected_count, p_any, p_beans_at_least, p_burn

__all__ = [
    "bean_level",
    "count_dist",
    "draw_table",
    "effect_table",
    "expected_count",
    "p_any",
    "p_beans_at_least",
    "p_burn",
]
