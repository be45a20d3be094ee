"""The engine contract shared by every game: states, walkthroughs, solvers, many-game play and sweeps.

Like a game package, it imports its modules on first use (:mod:`coffeegames.lazy`): a game's rules module
takes :func:`.options.option` from here without loading the solvers or pandas.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the public names, listed once: lazy.py derives __all__ and the run-time imports
    from .actions import action
    from .advice import Advice, Sample, advice_frame
    from .explain import Breakdown, Term, Why, advice_explainer, explainer_for, why
    from .play import play
    from .rules_of_thumb import TOLERANCE, Rule, best_rule, optimal_policy, policy_figure, rule_values
    from .solve import MAX_OUTCOMES, Expectimax, Policy, evaluate, play_out, random_policy, simulate
    from .state import CHANCE, TERMINAL, IllegalAction, State, action_from_json, action_to_json
    from .session import BadEntry, Session
    from .sweep import BotMaker, SweepIncomplete, load_rows, play_task, sweep
    from .walkthrough import Walkthrough
else:
    from ..lazy import lazy_exports

    __getattr__, __dir__, __all__ = lazy_exports(__name__)
