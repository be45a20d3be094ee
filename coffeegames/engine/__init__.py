"""The engine contract shared by every game: states, walkthroughs, solvers, many-game play."""

from .explain import Breakdown, Sample, Term, Why, advice_explainer, explainer_for, why
from .play import play
from .solve import Expectimax, Policy, evaluate, play_out, random_policy, simulate
from .state import CHANCE, TERMINAL, IllegalAction, State, action_from_json, action_to_json
from .session import BadEntry, Session
from .walkthrough import Walkthrough

__all__ = [
    "BadEntry",
    "Breakdown",
    "CHANCE",
    "Expectimax",
    "IllegalAction",
    "Policy",
    "Sample",
    "Session",
    "State",
    "TERMINAL",
    "Term",
    "Walkthrough",
    "Why",
    "action_from_json",
    "advice_explainer",
    "action_to_json",
    "evaluate",
    "explainer_for",
    "play",
    "play_out",
    "random_policy",
    "simulate",
    "why",
]
