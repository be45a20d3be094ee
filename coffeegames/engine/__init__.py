"""The engine contract shared by every game: states, walkthroughs, solvers, many-game play and sweeps."""

from .play import play
from .solve import MAX_OUTCOMES, Expectimax, Policy, evaluate, play_out, random_policy, simulate
from .state import CHANCE, TERMINAL, IllegalAction, State, action_from_json, action_to_json
from .session import BadEntry, Session
from .sweep import BotMaker, play_task, sweep
from .walkthrough import Walkthrough

__all__ = [
    "BadEntry",
    "BotMaker",
    "CHANCE",
    "MAX_OUTCOMES",
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
    "play_task",
    "random_policy",
    "simulate",
    "sweep",
]
