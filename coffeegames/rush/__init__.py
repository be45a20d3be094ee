"""Coffee Rush: routes on an ingredient board, pours into cups, and an order deck that never stops (docs/rules/rush.md).

Every name code outside the package needs is importable from here. The modules, one
concept each (docs/architecture.md):

* :mod:`.data` — the board, the order deck's make-up and the upgrade tiles (file formats, loaders, stand-in data);
* :mod:`.rules` — the options (:class:`Rules`: every Ruling and Stand-in) and rule constants;
* :mod:`.actions` — the phases, actions and the chance outcome (an order drawn);
* :mod:`.paths` — where a meeple may go; :mod:`.pours` — how ingredients may go into cups;
* :mod:`.player` — a player's board: completing orders, Flow of Time, scoring;
* :mod:`.state` — the engine (:class:`State`, :class:`Game`); :mod:`.saved` — saved states and the position
  invariants; :mod:`.versions` — saved games;
* :mod:`.typed` — chance outcomes typed as text (:func:`parse_outcome`, :func:`outcome_hint`, :func:`outcome_example`);
* :mod:`.best` — the exact best move of a turn (every path × every pour, valued exactly; a :mod:`.plan` each);
  :mod:`.advice` — every choice valued; :mod:`.explain` — a choice's value taken apart; :mod:`.policy` — bots; :mod:`.outlook` — a seeded look-ahead to
  the next turn (an estimate with its standard error, beside the exact value);
* :mod:`.odds` — the order deck's exact odds (what the next orders need, by ingredient, size,
  Specialty) and :mod:`.deadline` — the penalty cards ahead and the chance the deck runs out:
  pure functions of a deck given as a mapping order → count of the orders not seen.

Example:
    >>> from coffeegames import rush
    >>> s = rush.Game(players=4).new_initial_state(seed=2)
    >>> s.phase, s.deck_left, [len(p.orders) for p in s.players]
    ('place', 71, [3, 2, 2, 2])
    >>> deck = {("coffee", "milk"): 3, ("coffee", "tea"): 1, ("milk", "steam", "tea"): 2}
    >>> rush.p_needs(deck, ["tea"])
    Fraction(1, 2)
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the public names, listed once: lazy.py derives __all__ and the run-time imports
    from .actions import ACTION_KINDS, CHANCE_PHASES, Complete, Drawn, Empty, Move, NoUpgrade, Phase, Place, Pour, Upgrade, describe
    from .advice import MAX_LOOKAHEAD, advise
    from .best import MAX_TOP, Plan, action_values, best_moves, best_plan, live_pours, plan_row, plans, top_plans
    from .data import (
        EFFECTS, ORDER_SIZES, STAND_IN_BOARD, STAND_IN_ORDERS, STAND_IN_UPGRADES, Board, OrderDeck, Tile,
        board_from_dict, load_board, load_orders, load_upgrades, order_name, order_needs, orders_from_dict,
        upgrades_from_dict,
    )
    from .explain import explain, plan_parts
    from .deadline import (
        MAX_ROUNDS, CountLaw, cards_left_dist, count_law, expected_penalties, p_deck_runs_out, penalty_dist,
        penalty_table,
    )
    from .odds import (
        MAX_DECK, MAX_OUTCOMES, Deck, as_deck, count_dist, deck_ingredients, deck_rows, deck_table, group_dist,
        ingredient_dist, is_specialty, next_orders, order_ingredients, p_needs, parse_orders, size_dist, specialty_dist,
        units_dist, unseen_deck,
    )
    from .outlook import MAX_SAMPLES, Estimate, next_turn_estimate, opponent_model
    from .paths import collected, neighbours, paths
    from .player import Player, add_to, flow_of_time, matching, score, serve
    from .policy import MAX_WIDTH, greedy_policy, lookahead_policy, make_lookahead, next_turn, random_policy
    from .pours import empties, pours
    from .rules import BASE_STEPS, COMPLETION, CUPS, RUSH_TOKENS, TABS, Rules
    from .saved import STATE_FORMAT, check
    from .typed import outcome_example, outcome_hint, parse_outcome
    from .versions import load_walkthrough, saved_game
    from .state import Game, State, placement_order, receivers
else:
    from ..lazy import lazy_exports

    __getattr__, __dir__, __all__ = lazy_exports(__name__)
