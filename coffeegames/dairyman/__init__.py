"""Dairyman: push-your-luck dice where sets of 2 or 3 dice sum to ten (rules: ``docs/rules/dairyman.md``).

Modules, one concept each: :mod:`.sets` (sets summing to ten, the bust rule),
:mod:`.odds` (exact odds of rolls), :mod:`.payoff` (what a stopped turn's sets buy),
:mod:`.turn` (exact optimal turns), :mod:`.whole_turn` (the turn with ice and ice cream),
:mod:`.rules` (options and the milk-tile file), :mod:`.actions` (phases, moves, chance
outcomes), :mod:`.state` (the engine: :class:`State` and :class:`Game`; :mod:`.offers`, what a position offers), :mod:`.deck`
(the milk-tile deck's odds), :mod:`.players` (holdings and scoring), :mod:`.saved`
(saved games and position checks), :mod:`.typed` (rolls and tiles typed as text), :mod:`.advice` (:func:`advise`) and :mod:`.policy`
(bots). Everything code outside the package uses is importable from here.

>>> from coffeegames import dairyman
>>> dairyman.p_any_set(3)
Fraction(73, 216)
>>> state = dairyman.Game(players=3).new_initial_state(seed=1)
>>> state.phase, state.rolling
(<Phase.ROLL: 'roll'>, 7)
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the public names, listed once: lazy.py derives __all__ and the run-time imports
    from .actions import (
        describe, ACTION_KINDS, Bust, Discard, Drawn, EndTurn, Flip, IceCream, Lock, Order, Phase, Roll, Rolled, Stop,
        Where, lock_actions, roll_outcomes, tile_words,
    )
    from .explain import explain, explain_cell
    from .advice import ADVICE_STATES, advise, whole_turn_model
    from .odds import (
        ICE_CREAM_ABILITIES, LockOption, has_set_array, lock_options, lock_rows, lock_table, most_dice_locked,
        most_sets_locked, odds_rows, odds_table, p_any_set, p_bust, reroll_p_bust, reroll_rows, reroll_table,
        simulate_p_any_set,
    )
    from .players import PlayerState
    from .payoff import MAX_SETS, DisplayPayoff, Payoff, display_payoff, linear_payoff, payoff_table, payoff_text
    from .policy import greedy_policy, random_policy
    from .rules_of_thumb import LOCKS, display_rules, roll_or_stop_picture, roll_or_stop_policy, rule_of_thumb, rule_table, rule_turn_value, stop_rules
    from .rules import ABILITIES, BARNS, STAND_IN_TILES, TILE_VALUES, Rules, Tile, load_tiles, tile_of, tiles_from_data
    from .sets import MAX_DICE, SETS, check_roll, counts_of, has_set, is_bust, most_dice, most_sets
    from .game import Game
    from .typed import outcome_example, outcome_hint, parse_dice, parse_outcome, parse_roll, turn_position
    from .state import State
    from .versions import load_walkthrough, saved_game
    from .whole_turn import ICE_TOKEN_VALUE, MAX_STATES, WholeTurn, WholeTurnChoice, whole_turn_value
    from .turn import (
        BUST_COST, POINTS_PER_SET, LockDecision, PayoffArg, TurnSolution, compare_policies, evaluate_turn, lock_choices,
        lock_most_dice, optimal_turn, roll_classes, simple_policies,
    )
else:
    from ..lazy import lazy_exports

    __getattr__, __dir__, __all__ = lazy_exports(__name__)
