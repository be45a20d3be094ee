"""Coffee Rush: order fulfilment on a 4×4 ingredient board, 2-4 players (docs/rules/rush.md).

Every name code outside the package needs is importable from here. The modules, one
concept each (docs/architecture.md):

* :mod:`.odds` — the order deck's exact odds: what the next orders need (by ingredient,
  size, Specialty), from a deck given as a mapping order → count of the orders not seen;
* :mod:`.deadline` — the penalty cards ahead (orders on tabs 1-4, Flow of Time, Too Many
  Orders) and the chance the deck runs out within some rounds.

Both are pure functions, independent of the engine.

Example:
    >>> from coffeegames import rush
    >>> deck = {("coffee", "milk"): 3, ("coffee", "tea"): 1, ("milk", "steam", "tea"): 2}
    >>> rush.p_needs(deck, ["tea"])
    Fraction(1, 2)
    >>> rush.expected_penalties((1, 0, 0, 1), rounds=4)
    Fraction(2, 1)
"""

from .deadline import (
    MAX_ROUNDS,
    TABS,
    CountLaw,
    cards_left_dist,
    count_law,
    expected_penalties,
    p_deck_runs_out,
    penalty_dist,
    penalty_table,
)
from .odds import (
    MAX_DECK,
    MAX_OUTCOMES,
    Deck,
    as_deck,
    count_dist,
    deck_ingredients,
    deck_table,
    group_dist,
    ingredient_dist,
    is_specialty,
    next_orders,
    order_ingredients,
    p_needs,
    size_dist,
    specialty_dist,
    units_dist,
    unseen_deck,
)

__all__ = [
    "CountLaw",
    "Deck",
    "MAX_DECK",
    "MAX_OUTCOMES",
    "MAX_ROUNDS",
    "TABS",
    "as_deck",
    "cards_left_dist",
    "count_dist",
    "count_law",
    "deck_ingredients",
    "deck_table",
    "expected_penalties",
    "group_dist",
    "ingredient_dist",
    "is_specialty",
    "next_orders",
    "order_ingredients",
    "p_deck_runs_out",
    "p_needs",
    "penalty_dist",
    "penalty_table",
    "size_dist",
    "specialty_dist",
    "units_dist",
    "unseen_deck",
]
