"""What a plan leaves for your next turn: a seeded look-ahead, an *estimate* shown beside the exact immediate value.

:func:`next_turn_estimate` plays the plan, then plays the game on to the player's next
turn ``samples`` times: chance deals orders from the unseen deck with their exact odds
(``sample_chance``), the other players play ``opponent`` (by default the greedy bot, the
exact best move of each of their turns), and at the player's next decision the exact
best immediate value (:func:`.best.best_plan`) is read. The estimate is the mean of those
values with its standard error; it is an estimate (a seeded sample), never mixed into
the exact value of :mod:`.best`. A game that ends before the player's next turn counts 0.

Example:
    >>> from coffeegames.rush.state import Game
    >>> from coffeegames.rush.best import best_plan
    >>> from coffeegames.rush.policy import random_policy
    >>> s = Game(players=2).new_initial_state(seed=3)
    >>> while s.phase == "place":
    ...     s = s.apply(s.legal_actions()[0])
    >>> guess = next_turn_estimate(s, best_plan(s), samples=4, seed=0, opponent=random_policy(0))
    >>> guess.samples, guess.stderr >= 0
    (4, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import BadArgument
from .actions import Phase
from .best import Plan, best_plan
from .policy import greedy_policy
from .state import State

__all__ = ["Estimate", "next_turn_estimate"]


@dataclass(frozen=True)
class Estimate:
    """A seeded estimate: the sample ``mean`` (exact, of the sampled values), its standard error and the values."""

    mean: Fraction
    stderr: float
    values: tuple[int, ...]

    @property
    def samples(self) -> int:
        return len(self.values)

    def __str__(self) -> str:
        return f"≈ {float(self.mean):.2f} ± {self.stderr:.2f} (an estimate from {self.samples} seeded games)"


def next_turn_estimate(state: State, plan: Plan, samples: int = 10, seed: int = 0,
                       opponent: Callable[[State], Any] = greedy_policy) -> Estimate:
    """The best immediate value of the player's next turn after ``plan``, estimated over ``samples`` seeded
    continuations (see the module's text)."""
    if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= 10_000:
        raise BadArgument("samples", "must be a whole number 1-10000", samples)
    who = state.player
    after = state
    for action in plan.actions:
        after = after.apply(action)
    values = []
    for i in range(samples):
        rng = np.random.default_rng([seed, i])
        s = after
        while not s.is_terminal() and not (s.current_player() == who and s.phase in (Phase.UPGRADE, Phase.MOVE)):
            s = s.apply(s.sample_chance(rng) if s.is_chance() else opponent(s))
        values.append(0 if s.is_terminal() else best_plan(s).value)
    mean = Fraction(sum(values), samples)
    spread = float(np.std(values, ddof=1)) if samples > 1 else 0.0
    return Estimate(mean, spread / samples ** 0.5, tuple(values))
