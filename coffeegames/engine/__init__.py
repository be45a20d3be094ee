"""The engine contract shared by every game: states, walkthroughs, solvers, many-game play."""

from .play import play
from .solve import Expectimax, Policy, evaluate, play_out, random_policy, simulate
from .state import CHANCE, TERMINAL, IllegalAction, State, action_from_json, action_to_json
from .session import BadEntry, Session
from .walkthrough import Walkthrough

__all__ = [
    "BadEntry",
    "CHANCE",
    "Expectimax",
    "IllegalAction",
    "Policy",
    "Session",
    "State",
    "TERMINAL",
    "Walkthrough",
    "action_from_json",
    "action_to_json",
    "evaluate",
    "play",
    "play_out",
    "random_policy",
    "simulate",
]
