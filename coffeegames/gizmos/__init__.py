"""Gizmos: the energy dispenser, the decks and the chains of triggered gizmos (docs/rules/gizmos.md).

Every name code outside the package needs is importable from here. The modules, one
concept each (docs/architecture.md):

* :mod:`.data` — the 112 cards' file format (each effect one named kind with parameters);
* :mod:`.rules` — the options (:class:`Rules`: every Rule, Fact and Ruling);
* :mod:`.actions` — the phases, the actions and the chance outcomes;
* :mod:`.player`, :mod:`.payment` — a player's holdings; costs, discounts and converters;
* :mod:`.state` — the engine (:class:`State`, :class:`Game`); :mod:`.saved` — saved states
  and the position invariants; :mod:`.versions` — saved games;
* :mod:`.typed` — chance outcomes typed as text (:func:`parse_outcome`, :func:`outcome_hint`, :func:`outcome_example`);
* :mod:`.odds` — the exact odds of the dispenser and of a Research (pure functions of
  counts, or of any cards and a predicate);
* :mod:`.policy` — bots (random, greedy, a seeded tree search); :mod:`.advice` — every
  choice valued by search playouts, with its exact immediate consequences; :mod:`.explain` —
  an estimate taken apart into its parts (points, engine value, ...); :mod:`.board` —
  cards and positions in words.

Example:
    >>> from coffeegames import gizmos
    >>> s = gizmos.Game(players=3).new_initial_state(seed=2)
    >>> str(s.phase), len(s.players), sum(s.row) + sum(s.dispenser)
    ('action', 3, 52)
    >>> dispenser = gizmos.dispenser_from(row=["red", "red", "blue", "black", "yellow", "yellow"])
    >>> gizmos.p_can_pay(dispenser, "red", cost=2, draws=3)
    Fraction(19, 138)
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the public names, listed once: lazy.py derives __all__ and the run-time imports
    from .advice import advise, phase_words, target
    from .explain import explain
    from .board import board_text, card_text, chain_text, effect_text, trigger_text
    from .actions import (
        ACTION_KINDS, SOURCES, Build, Card, EndTurn, File, Fire, Marble, Pass, Phase, Pick, Research, Skip, Step, describe,
        energy_words,
    )
    from .data import (
        CARD_COUNT, COLOURS, EFFECTS, LEVEL_SIZES, MARBLES_PER_COLOUR, SHIPPED_CARDS, TRIGGERS, CardData, Effect,
        Trigger, cards_for, cards_from_dict, load_cards, shipped_cards,
    )
    from .data import Card as CardFacts
    from .odds import (
        ANY, LEVEL_CARDS, MARBLES, MAX_CARDS, MAX_PLAYERS, REMOVED_LEVEL_III, ROW_SIZE, as_dispenser, colour_dist,
        colour_rows, colour_table, dispenser_from, draw_dist, marbles_text, p_at_least, p_can_pay, p_research_shows,
        parse_marbles, pay_rows, pay_table, research_dist, research_matches, row_after_pick,
    )
    from .payment import Plan, build_cost, pay_with, payment_plans
    from .player import PlayerState
    from .policy import (
        ENGINE_VALUE, MAX_HORIZON, MAX_PLAYOUTS, SearchBot, Stats, card_value, evaluate, greedy_policy, noisy_greedy,
        progress, random_policy, search_stats,
    )
    from .rules import Rules
    from .saved import STATE_FORMAT, check
    from .typed import LEVEL_NAMES, outcome_example, outcome_hint, parse_outcome
    from .versions import load_walkthrough, saved_game
    from .state import Game, State
else:
    from ..lazy import lazy_exports

    __getattr__, __dir__, __all__ = lazy_exports(__name__)
