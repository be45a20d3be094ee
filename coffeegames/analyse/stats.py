"""Intervals for win rates and their differences, sample sizes, and the share of score variance due to skill.

Inputs that are counts are whole numbers (``successes`` of ``n`` games); the bounds are floats (an interval is an
estimate, not an exact value). ``confidence`` is a float between 0 and 1 (default 0.95).

* :func:`wilson` — the Wilson score interval for one proportion (good coverage down to a handful of games and at
  0 or ``n`` successes, where the textbook ``p ± z·se`` collapses to a point).
* :func:`newcombe` — Newcombe's hybrid score interval (his method 10) for the difference ``p1 - p2`` of two
  independent proportions, built from the two Wilson intervals.
* :func:`games_to_separate` — how many games *each* of two win rates needs for a two-sided test at ``confidence``
  to tell them apart with probability ``power`` (the usual normal-approximation formula).
* :func:`skill_share` — the share of the variance of final scores explained by which bot played (the correlation
  ratio η²): see its docstring and ``docs/analyse.md``.

Example:
    >>> low, high = wilson(59, 100)
    >>> round(low, 3), round(high, 3)
    (0.492, 0.681)
    >>> games_to_separate(0.5, 0.6)
    388
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from ..errors import BadArgument, BadType
from ..validate import check_count

__all__ = ["games_to_separate", "newcombe", "skill_share", "wilson"]


def _confidence(confidence: Any, where: str = "confidence") -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, int | float | Fraction):
        raise BadType(where, "must be a number between 0 and 1 (0.95 for a 95% interval)", confidence)
    if not 0 < confidence < 1:
        raise BadArgument(where, "must be between 0 and 1, both excluded (0.95 for a 95% interval)", confidence)
    return float(confidence)


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def _counts(successes: Any, n: Any, s_name: str, n_name: str) -> tuple[int, int]:
    n = check_count(n, n_name)
    successes = check_count(successes, s_name)
    if successes > n:
        raise BadArgument(s_name, f"must be at most {n_name} ({n:,})", successes)
    return successes, n


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` for a proportion seen ``successes`` times in ``n`` trials
    (``(0.0, 1.0)`` when ``n`` is 0: nothing is known).

    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    successes, n = _counts(successes, n, "successes", "n")
    z = _z(_confidence(confidence))
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if successes == 0 else low), (1.0 if successes == n else high)


def newcombe(s1: int, n1: int, s2: int, n2: int, confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's hybrid score interval ``(low, high)`` for ``p1 - p2``, the difference of two independent
    proportions ``s1/n1`` and ``s2/n2`` (each ``n`` at least 1).

    >>> low, high = newcombe(56, 70, 48, 80)   # Newcombe (1998), his example (b): 0.0524 to 0.3339
    >>> round(low, 4), round(high, 4)
    (0.0524, 0.3339)
    """
    s1, n1 = _counts(s1, n1, "s1", "n1")
    s2, n2 = _counts(s2, n2, "s2", "n2")
    for count, name in ((n1, "n1"), (n2, "n2")):
        if count == 0:
            raise BadArgument(name, "must be 1 or more: a difference needs games on both sides", count)
    level = _confidence(confidence)
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, level)
    l2, u2 = wilson(s2, n2, level)
    d = p1 - p2
    return d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def _rate(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise BadType(where, "must be a win rate: a number from 0 to 1 (a Fraction, a float or 0 or 1)", value)
    if not 0 <= value <= 1:
        raise BadArgument(where, "must be a win rate from 0 to 1", value)
    return float(value)


def games_to_separate(p1: float | Fraction, p2: float | Fraction, *, confidence: float = 0.95, power: float = 0.8) -> int:
    """Games needed for *each* of two win rates ``p1`` and ``p2`` so that a two-sided test at ``confidence`` tells
    them apart with probability ``power``:
    ``n = (z_a·√(2·p̄(1-p̄)) + z_b·√(p1(1-p1) + p2(1-p2)))² / (p1-p2)²``, rounded up, where ``p̄`` is their mean,
    ``z_a`` the normal quantile at ``1 - (1-confidence)/2`` and ``z_b`` at ``power``.

    >>> games_to_separate(Fraction(1, 2), Fraction(3, 4))
    58
    """
    a, b = _rate(p1, "p1"), _rate(p2, "p2")
    level, want = _confidence(confidence), _confidence(power, "power")
    if a == b:
        raise BadArgument("p2", "must differ from p1: equal win rates cannot be told apart", p2)
    mean = (a + b) / 2
    top = _z(level) * math.sqrt(2 * mean * (1 - mean)) + NormalDist().inv_cdf(want) * math.sqrt(a * (1 - a) + b * (1 - b))
    return max(1, math.ceil(top * top / ((a - b) ** 2) - 1e-9))


def skill_share(scores: Sequence[float], bots: Sequence[Any]) -> float:
    """The share of the variance of ``scores`` explained by which bot played each (``bots``, one label a score):
    the correlation ratio η² = (between-bot sum of squares) / (total sum of squares), from 0 (the bot makes no
    difference: all luck) to 1 (the bot decides the score: no luck). Every bot must have at least one score.

    >>> skill_share([1, 1, 3, 3], ["random", "random", "greedy", "greedy"])
    1.0
    >>> skill_share([1, 3, 1, 3], ["random", "random", "greedy", "greedy"])
    0.0
    """
    if isinstance(scores, str | bytes) or not isinstance(scores, Sequence):
        raise BadType("scores", "must be a list of numbers, one a game", scores)
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence):
        raise BadType("bots", "must be a list of labels, one a score", bots)
    if len(scores) != len(bots):
        raise BadArgument("bots", f"must have one label a score ({len(scores)} scores)", len(bots))
    values = []
    for value in scores:
        if isinstance(value, bool) or not isinstance(value, int | float | Fraction) or not math.isfinite(value):
            raise BadType("scores", "must be finite numbers", value)
        values.append(float(value))
    try:
        groups: dict[Any, list[float]] = {}
        for value, bot in zip(values, bots):
            groups.setdefault(bot, []).append(value)
    except TypeError:
        raise BadType("bots", "must be plain labels (text or numbers)", bots) from None
    if not values:
        raise BadArgument("scores", "must hold at least one score", scores)
    mean = sum(values) / len(values)
    total = sum((v - mean) ** 2 for v in values)
    if total == 0:
        return 0.0
    between = sum(len(g) * (sum(g) / len(g) - mean) ** 2 for g in groups.values())
    return min(1.0, between / total)

