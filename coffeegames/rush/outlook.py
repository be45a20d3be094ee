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

from ..errors import BadArgument, BadType
from ..validate import check_count
from .actions import Phase
from .best import Plan, best_plan, check_plan, check_state
from .policy import greedy_policy
from .state import State

__all__ = ["Estimate", "MAX_SAMPLES", "next_turn_estimate", "opponent_model"]

MAX_SAMPLES = 10_000
"""The most seeded continuations :func:`next_turn_estimate` plays."""
DEALS = "every order dealt comes from the unseen deck with its exact odds (seeded)"


def check_sampling(samples: Any, seed: Any, opponent: Any) -> None:
    """Refuse a bad ``samples`` (a whole number 1 to :data:`MAX_SAMPLES`), ``seed`` (a whole number 0 or more) or
    ``opponent`` (a policy) with the library's error naming it."""
    if check_count(samples, "samples", maximum=MAX_SAMPLES) < 1:
        raise BadArgument("samples", "must be 1 or more", samples)
    check_count(seed, "seed")
    if not callable(opponent):
        raise BadType("opponent", "must be a policy: a function of a state returning a legal action", opponent)


def opponent_model(opponent: Callable[[State], Any]) -> str:
    """The look-ahead's model of the other players, in words (stated beside every estimate)."""
    if opponent is greedy_policy:
        who = "the greedy bot (rush.greedy_policy: the exact best move of each of their turns)"
    else:
        who = getattr(opponent, "__qualname__", None) or repr(opponent)
    return f"the other players play {who}; {DEALS}"


@dataclass(frozen=True)
class Estimate:
    """A seeded estimate: the sample ``mean`` (exact, of the sampled values), its standard error, the values and
    the ``model`` it assumes (the other players' play and the deals)."""

    mean: Fraction
    stderr: float
    values: tuple[int, ...]
    model: str = ""

    @property
    def samples(self) -> int:
        return len(self.values)

    def __str__(self) -> str:
        return f"≈ {float(self.mean):.2f} ± {self.stderr:.2f} (an estimate from {self.samples} seeded games)"


def next_turn_estimate(state: State, plan: Plan, samples: int = 10, seed: int = 0,
                       opponent: Callable[[State], Any] = greedy_policy) -> Estimate:
    """The best immediate value of the player's next turn after ``plan``, estimated over ``samples`` seeded
    continuations (see the module's text); continuation ``i`` draws from ``numpy.random.default_rng([seed, i])``."""
    check_state(state)
    check_plan(plan)
    check_sampling(samples, seed, opponent)
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
    return Estimate(mean, spread / samples ** 0.5, tuple(values), opponent_model(opponent))
