"""Coffee Roaster: solo bag-building with push-your-luck (docs/rules/roaster.md).

Every name code outside the package needs is importable from here. The modules, one
concept each (docs/architecture.md):

* :mod:`.tokens` — the tokens as short strings, multisets of them, bag text;
* :mod:`.data` — the coffee cards and the board (file formats, loaders, stand-in data);
* :mod:`.rules` — the options (:class:`Rules`: every Ruling and Stand-in) and rule constants;
* :mod:`.scoring` — scoring a cup; :mod:`.menu` — the three-game menu and titles;
* :mod:`.actions` — the phases, actions and chance outcomes;
* :mod:`.state` — the engine (:class:`State`, :class:`Game`); :mod:`.saved` — saved states and the position
  invariants; :mod:`.versions` — saved games;
* :mod:`.typed` — chance outcomes typed as text (:func:`parse_outcome`, :func:`outcome_hint`, :func:`outcome_example`);
* :mod:`.odds` — exact bag-draw odds; :mod:`.cup` — the cup-test solver's API (its exact
  tables :mod:`.cup_layers` (vectorised) and :mod:`.cup_boxes`, over the cup test's rules on count vectors
  :mod:`.cup_solver`, which solves nothing itself; fallback :mod:`.cup_fallback`); :mod:`.cup_plan` — the best
  play taken apart (the score's parts, the plan draw by draw);
  :mod:`.advice` — every choice
  valued; :mod:`.policy` — bots; :mod:`.strong` — the bot stronger than greedy.

Example:
    >>> from coffeegames import roaster
    >>> from coffeegames.exact import Bag
    >>> roaster.p_any(Bag({"smoke": 1, "bean1": 3}), ["smoke"], draws=2)
    Fraction(1, 2)
    >>> s = roaster.Game(card="Zambia Kasama AA").new_initial_state(seed=1)
    >>> s.phase, s.draw_count
    ('draw', 7)
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the public names, listed once: lazy.py derives __all__ and the run-time imports
    from . import tokens
    from .actions import (
        describe, ACTION_KINDS, Concentrate, Continue, Disperse, Drawn, Exchange, Keep, KeepTwo, NewTwo, NoExchange,
        PayWild, Phase, PlusTwo, Preserve, RemoveBad, RemoveTwo, ReserveToBag, Roast, Shuffled, Stop, ToCup, ToTray,
        TwoOfFive,
    )
    from .explain import explain
    from .advice import CONTINUE_OPTIONS, STOP_OPTIONS, advise, next_round_risks, round_burn
    from .cup import MAX_STATES, SAMPLES, CupTest, stop_now
    from .round import RoundValue, one_more_round, stop_or_continue
    from .data import (
        CARD_FLAVOURS, CARD_TOKENS, CLASSES, CUP_SPACES, DIFFICULTIES, IMMEDIATE, SIDES, STAND_IN_BOARD, STAND_IN_CARDS,
        SUPPLY_KINDS, Board, Card, Side, board_from_dict, cards_from_dict, check_card_on_board, load_board, load_cards,
    )
    from .menu import Menu, next_difficulty
    from .odds import (
        CACHED_DRAWS, count_dist, draw_outcome_count, draw_outcomes, draw_odds, draw_table, effect_table,
        expected_count, p_any, p_beans_at_least, p_burn, shuffle_outcomes, two_of_five_table,
    )
    from .policy import greedy_policy, random_policy
    from .strong import STOP_MARGIN, STOP_RULE, strong_policy
    from .rules_of_thumb import (
        Decision, decisions, hindsight_value, policy_value, rule_of_thumb, rule_table, stop_or_draw_picture, stop_or_draw_policy, stop_rules,
    )
    from .rules import (
        EASY_FLAVOURS, FLAVOUR_EFFECTS, RULES_VERSION, SKILL_GROUPS, TRAY_BONUS, TRAY_SPACES, WILD_COST, Rules,
    )
    from .saved import STATE_FORMAT, check
    from .typed import outcome_example, outcome_hint, parse_outcome
    from .versions import game_for_options, load_walkthrough, saved_game
    from .scoring import (
        EMPTY_SPACE_MINUS, FLAVOUR_POINTS, MINUS, NO_FLAVOUR_MINUS, SKILL_POINTS, CupScore, flavour_matches, score_cup,
        scoring_class,
    )
    from .game import Game
    from .state import State
    from .tokens import (
        ACIDITY, AROMA, BEANS, BODY, BURNT, CHOICE, CUP_EFFECT_NAMES, CUP_EFFECTS, DEFECT, EXCHANGE, EXTRA_BEAN,
        FLAVOURS, HARD, MOISTURE, NAMES, ROASTED, SMOKE, SWEETNESS, TOKENS, TRAY, WILD, bag_text, is_bean, madd,
        mcontains, mpairs, mremove, msort, parse_bag, roast, roast_level, show,
    )
else:
    from ..lazy import lazy_exports

    __getattr__, __dir__, __all__ = lazy_exports(__name__)
