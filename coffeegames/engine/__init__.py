"""The engine contract shared by every game: states, walkthroughs, solvers, many-game play and sweeps."""

from .advice import Advice, Sample, advice_frame
from .explain import Breakdown, Term, Why, advice_explainer, explainer_for, why
from .play import play
from .solve import MAX_OUTCOMES, Expectimax, Policy, evaluate, play_out, random_policy, simulate
from .state import CHANCE, TERMINAL, IllegalAction, State, action_from_json, action_to_json
from .session import BadEntry, Session
from .sweep import BotMaker, play_task, sweep
from .walkthrough import Walkthrough

__all__ = [
    "Advice",
    "BadEntry",
    "BotMaker",
    "Breakdown",
    "CHANCE",
    "Expectimax",
    "IllegalAction",
    "MAX_OUTCOMES",
    "Policy",
    "Sample",
    "Session",
    "State",
    "TERMINAL",
    "Term",
    "Walkthrough",
    "Why",
    "action_from_json",
    "action_to_json",
    "advice_frame",
    "advice_explainer",
    "evaluate",
    "explainer_for",
    "play",
    "play_out",
    "play_task",
    "random_policy",
    "simulate",
    "sweep",
    "why",
]
