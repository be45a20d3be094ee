"""Gizmos (Phil Walker-Harding; CMON, 2018): the exact odds of the energy dispenser and the level decks.

The rules: docs/rules/gizmos.md. Every chance is a :class:`~fractions.Fraction` counted from
draws without replacement (see :mod:`.odds`).

Example:
    >>> from coffeegames import gizmos
    >>> dispenser = gizmos.dispenser_from(row=["red", "red", "blue", "black", "yellow", "yellow"])
    >>> gizmos.p_can_pay(dispenser, "red", cost=2, draws=3)
    Fraction(19, 138)
"""

from .odds import (
    ANY,
    COLOURS,
    LEVEL_CARDS,
    MARBLES,
    MARBLES_PER_COLOUR,
    MAX_CARDS,
    MAX_PLAYERS,
    REMOVED_LEVEL_III,
    ROW_SIZE,
    as_dispenser,
    colour_dist,
    colour_table,
    dispenser_from,
    draw_dist,
    marbles_text,
    p_at_least,
    p_can_pay,
    p_research_shows,
    parse_marbles,
    pay_table,
    research_dist,
    research_matches,
    row_after_pick,
)

__all__ = [
    "ANY",
    "COLOURS",
    "LEVEL_CARDS",
    "MARBLES",
    "MARBLES_PER_COLOUR",
    "MAX_CARDS",
    "MAX_PLAYERS",
    "REMOVED_LEVEL_III",
    "ROW_SIZE",
    "as_dispenser",
    "colour_dist",
    "colour_table",
    "dispenser_from",
    "draw_dist",
    "marbles_text",
    "p_at_least",
    "p_can_pay",
    "p_research_shows",
    "parse_marbles",
    "pay_table",
    "research_dist",
    "research_matches",
    "row_after_pick",
]
