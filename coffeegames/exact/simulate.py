"""Seeded Monte Carlo estimates to set beside an exact answer.

Simulations here are vectorised with numpy: a *sampler* returns many trials at once
(an array with one row per trial) and an *event* maps that array to one boolean per
trial. The estimate carries an exact (Clopper-Pearson) confidence interval, so a
teacher can show that the exact answer lies inside it.

Example:
    >>> est = estimate(lambda rng, n: roll_array(rng, n, dice=2),
    ...                lambda rolls: rolls.sum(axis=1) == 7, trials=20_000, seed=1)
    >>> est.low < 1 / 6 < est.high
    True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import BadArgument, BadType
from ..validate import check_count, check_instance, check_seed, check_size

__all__ = ["Estimate", "Event", "MAX_TRIALS", "Sampler", "estimate", "face_counts", "roll_array", "running_estimate"]

MAX_TRIALS = 100_000_000
"""The most trials one simulation runs (in batches; a hundred million take a minute or so). Arrays kept
whole (:func:`roll_array`, :func:`running_estimate`) hold at most ``MAX_TRIALS // 10`` trials."""


def _trials(trials: Any, most: int = MAX_TRIALS, where: str = "trials") -> int:
    check_count(trials, where, maximum=most)
    if trials == 0:
        raise BadArgument(where, "must be at least 1", trials)
    return trials


def _callable(value: Any, where: str) -> Any:
    if not callable(value):
        raise BadType(where, "must be a function", value)
    return value

Sampler = Callable[["np.random.Generator", int], np.ndarray]  # quoted: numpy.random loads when a simulation runs, not on import
Event = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Estimate:
    """A simulated proportion: ``hits`` of ``trials``, with a confidence interval."""

    hits: int
    trials: int
    low: float
    high: float
    confidence: float

    @property
    def p(self) -> float:
        return self.hits / self.trials

    def contains(self, exact: Fraction | float) -> bool:
        """Whether an exact value lies inside the interval."""
        check_instance(exact, (int, float, Fraction), "exact", "a number (a Fraction, int or float)")
        return self.low <= float(exact) <= self.high

    def __str__(self) -> str:
        pct = round(self.confidence * 100)
        return f"{self.p:.4g} ({pct}% CI {self.low:.4g}–{self.high:.4g}, {self.hits:,} of {self.trials:,} trials)"


def roll_array(rng: np.random.Generator, trials: int, dice: int, sides: int = 6) -> np.ndarray:
    """A ``(trials, dice)`` array of fair die rolls with values 1..sides."""
    check_instance(rng, np.random.Generator, "rng", "a numpy Generator (numpy.random.default_rng(seed))")
    check_count(trials, "trials", maximum=MAX_TRIALS // 10)
    check_count(dice, "dice", maximum=100)
    check_count(sides, "sides", maximum=100)
    check_size(trials * dice, "trials", "dice rolled (trials × dice)", trials, limit=MAX_TRIALS // 10)
    return rng.integers(1, sides + 1, size=(trials, dice), dtype=np.int8)


def face_counts(rolls: np.ndarray, sides: int = 6) -> np.ndarray:
    """Turn a ``(trials, dice)`` array of values 1..sides into ``(trials, sides)`` counts."""
    if not (isinstance(rolls, np.ndarray) and rolls.ndim == 2):
        raise BadType("rolls", "must be a (trials, dice) numpy array of die values", rolls)
    check_count(sides, "sides", maximum=100)
    counts = np.zeros((rolls.shape[0], sides), dtype=np.int16)
    for v in range(1, sides + 1):
        counts[:, v - 1] = (rolls == v).sum(axis=1)
    return counts


def estimate(
    sampler: Sampler,
    event: Event,
    trials: int = 100_000,
    seed: int | None = 0,
    confidence: float = 0.99,
    batch: int = 200_000,
) -> Estimate:
    """Estimate P(event) from ``trials`` seeded, vectorised trials.

    The same seed gives the same estimate. Trials run in batches to bound memory.
    """
    _callable(sampler, "sampler"), _callable(event, "event")
    _trials(trials)
    _trials(batch, where="batch")
    if not (isinstance(confidence, (int, float)) and not isinstance(confidence, bool) and 0 < confidence < 1):
        raise BadArgument("confidence", "must be a number between 0 and 1", confidence)
    rng = np.random.default_rng(check_seed(seed))
    hits, done = 0, 0
    while done < trials:
        n = min(batch, trials - done)
        hits += int(np.count_nonzero(event(sampler(rng, n))))
        done += n
    from scipy.stats import binomtest  # imported here: scipy.stats takes ~0.5 s to import, and most uses never estimate

    ci = binomtest(hits, trials).proportion_ci(confidence_level=confidence, method="exact")
    return Estimate(hits, trials, float(ci.low), float(ci.high), confidence)


def running_estimate(sampler: Sampler, event: Event, trials: int, seed: int | None = 0) -> np.ndarray:
    """The estimate after 1, 2, ..., ``trials`` trials: watch a simulation converge."""
    _callable(sampler, "sampler"), _callable(event, "event")
    _trials(trials, MAX_TRIALS // 10)
    rng = np.random.default_rng(check_seed(seed))
    hits = np.asarray(event(sampler(rng, trials)), dtype=bool)
    return np.cumsum(hits) / np.arange(1, trials + 1)
