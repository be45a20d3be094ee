"""An immutable, exact probability distribution.

Conventions used across coffeegames:

* probabilities are :class:`fractions.Fraction` built from integer counts and sum
  to exactly 1; floats appear only when a value is displayed or plotted;
* outcomes are hashable values (ints, sorted tuples for multisets, strings);
* a distribution is a value: every method returns a new one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

Outcome: TypeAlias = Any
"""Any hashable value (an int, a sorted tuple for a multiset, a string, ...); typed ``Any`` so that
``Dist.from_weights({1: 2})`` and ``d.mean()`` type-check for the outcomes a caller actually uses."""

from ..errors import BadArgument, BadType, shown
from ..validate import check_count, check_hashable, check_seed

__all__ = ["Dist", "MAX_SAMPLE", "Outcome"]


MAX_SAMPLE = 10_000_000
"""The most draws :meth:`Dist.sample` lists at once (a list of ten million outcomes)."""


def _function(f: Any, where: str) -> Any:
    if not callable(f):
        raise BadType(where, "must be a function of an outcome", f)
    return f


def _sort_key(outcome: Any) -> tuple:
    """Order outcomes naturally when they compare, else by their text."""
    return (0, outcome) if isinstance(outcome, (int, float, Fraction, tuple, str)) else (1, repr(outcome))


class Dist(Mapping):
    """Outcome → exact probability.

    Build one from integer weights (counts of equally likely cases) or from
    probabilities that already sum to 1.

    Example:
        >>> d6 = Dist.uniform(range(1, 7))
        >>> d6[3]
        Fraction(1, 6)
        >>> d6.mean()
        Fraction(7, 2)
        >>> d6.map(lambda x: x >= 5)[True]
        Fraction(1, 3)
    """

    __slots__ = ("_p", "_hash")

    def __init__(self, probabilities: Mapping[Outcome, Fraction | int]) -> None:
        if not isinstance(probabilities, Mapping):
            raise BadType("probabilities", "must be a mapping outcome → probability (int or Fraction), e.g. {'H': Fraction(1, 2), 'T': Fraction(1, 2)}",
                          probabilities)
        items: dict[Outcome, Fraction] = {}
        for outcome, p in probabilities.items():
            if isinstance(p, float) or not isinstance(p, (int, Fraction)):
                raise BadType(f"probabilities[{shown(outcome)}]",
                              "use an int or fractions.Fraction so the distribution stays exact", p)
            p = Fraction(p)
            if p < 0:
                raise BadArgument(f"probabilities[{shown(outcome)}]", "is negative", p)
            if p:
                items[outcome] = items.get(outcome, Fraction(0)) + p
        if not items:
            raise BadArgument("probabilities", "a distribution needs at least one outcome with positive probability")
        total = sum(items.values())
        if total != 1:
            raise BadArgument("probabilities", f"sum to {total}, not 1; use Dist.from_weights for counts")
        try:
            ordered = sorted(items, key=_sort_key)
        except TypeError:
            ordered = sorted(items, key=repr)
        self._p: dict[Outcome, Fraction] = {o: items[o] for o in ordered}
        self._hash: int | None = None

    # -- construction -------------------------------------------------------
    @classmethod
    def from_weights(cls, weights: Mapping[Outcome, int] | Iterable[tuple[Outcome, int]]) -> Dist:
        """A distribution from non-negative integer weights (counts of cases).

        >>> Dist.from_weights({"heads": 1, "tails": 1})["heads"]
        Fraction(1, 2)
        """
        if isinstance(weights, (str, bytes)) or not isinstance(weights, Mapping | Iterable):
            raise BadType("weights", "must be a mapping outcome → count, or (outcome, count) pairs", weights)
        pairs = weights.items() if isinstance(weights, Mapping) else weights
        merged: dict[Outcome, int] = {}
        for pair in pairs:
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise BadType("weights", "must be a mapping outcome → count, or (outcome, count) pairs", pair)
            outcome, w = pair
            check_hashable(outcome, "weights")
            if isinstance(w, bool) or not isinstance(w, int):
                raise BadType(f"weights[{shown(outcome)}]", "must be an int", w)
            if w < 0:
                raise BadArgument(f"weights[{shown(outcome)}]", "is negative", w)
            merged[outcome] = merged.get(outcome, 0) + w
        total = sum(merged.values())
        if total == 0:
            raise BadArgument("weights", "sum to 0: there is no outcome to give probability to")
        return cls({o: Fraction(w, total) for o, w in merged.items() if w})

    @classmethod
    def uniform(cls, outcomes: Iterable[Outcome]) -> Dist:
        """Each listed outcome equally likely (repeats count twice)."""
        if isinstance(outcomes, (str, bytes, Mapping)) or not isinstance(outcomes, Iterable):
            raise BadType("outcomes", "must be a list of outcomes (not a string or a mapping)", outcomes)
        listed = list(outcomes)
        for o in listed:
            check_hashable(o, "outcomes")
        if not listed:
            raise BadArgument("outcomes", "must list at least one outcome", listed)
        return cls.from_weights((o, 1) for o in listed)

    @classmethod
    def certain(cls, outcome: Outcome) -> Dist:
        """The distribution that always gives ``outcome``."""
        return cls({check_hashable(outcome, "outcome"): Fraction(1)})

    # -- mapping protocol ---------------------------------------------------
    def __getitem__(self, outcome: Outcome) -> Fraction:
        return self._p.get(outcome, Fraction(0))

    def __iter__(self) -> Iterator[Outcome]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._p

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._p == other._p

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._p.items()))
        return self._hash

    def __repr__(self) -> str:
        inner = ", ".join(f"{o!r}: {p}" for o, p in self._p.items())
        return f"Dist({{{inner}}})"

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return tuple(self._p)

    @property
    def probabilities(self) -> tuple[Fraction, ...]:
        return tuple(self._p.values())

    # -- questions ----------------------------------------------------------
    def prob(self, event: Callable[[Outcome], bool] | Outcome) -> Fraction:
        """P(event): ``event`` is an outcome or a predicate on outcomes."""
        if callable(event):
            return sum((p for o, p in self._p.items() if event(o)), Fraction(0))
        return self[check_hashable(event, "event")]

    def mean(self) -> Fraction:
        """The exact expected value (outcomes must be numbers)."""
        return sum((Fraction(o) * p for o, p in self._p.items()), Fraction(0))

    def variance(self) -> Fraction:
        """The exact variance (outcomes must be numbers)."""
        m = self.mean()
        return sum(((Fraction(o) - m) ** 2 * p for o, p in self._p.items()), Fraction(0))

    def std(self) -> float:
        """Standard deviation, a float (a square root is rarely rational)."""
        return math.sqrt(self.variance())

    def cdf(self, x: Any) -> Fraction:
        """P(X ≤ x)."""
        return self._compared(lambda o: o <= x, x)

    def at_least(self, x: Any) -> Fraction:
        """P(X ≥ x)."""
        return self._compared(lambda o: o >= x, x)

    def _compared(self, event: Callable[[Outcome], bool], x: Any) -> Fraction:
        try:
            return self.prob(event)
        except TypeError:
            raise BadType("x", "must be comparable with the outcomes (a number, for numbers)", x) from None

    def at_most(self, x: Any) -> Fraction:
        """P(X ≤ x), the same as :meth:`cdf`."""
        return self.cdf(x)

    # -- transformations ----------------------------------------------------
    def map(self, f: Callable[[Outcome], Outcome]) -> Dist:
        """The distribution of f(X); outcomes that map together add up."""
        _function(f, "f")
        out: dict[Outcome, Fraction] = {}
        for o, p in self._p.items():
            y = f(o)
            out[y] = out.get(y, Fraction(0)) + p
        return Dist(out)

    def given(self, event: Callable[[Outcome], bool]) -> Dist:
        """The conditional distribution of X given that ``event(X)`` holds.

        >>> Dist.uniform(range(1, 7)).given(lambda x: x % 2 == 0)[2]
        Fraction(1, 3)
        """
        _function(event, "event")
        kept = {o: p for o, p in self._p.items() if event(o)}
        total = sum(kept.values(), Fraction(0))
        if total == 0:
            raise BadArgument("event", "cannot condition on an event of probability 0")
        return Dist({o: p / total for o, p in kept.items()})

    def __add__(self, other: Dist) -> Dist:
        """The distribution of X + Y for independent X and Y."""
        if not isinstance(other, Dist):
            return NotImplemented
        out: dict[Outcome, Fraction] = {}
        for a, p in self._p.items():
            for b, q in other._p.items():
                out[a + b] = out.get(a + b, Fraction(0)) + p * q
        return Dist(out)

    # -- pandas and sampling ------------------------------------------------
    def to_series(self, name: str = "probability") -> pd.Series:
        """Probabilities as a pandas Series of Fractions indexed by outcome."""
        check_hashable(name, "name")
        import pandas as pd  # here, not at the top: `import coffeegames` does not need pandas

        return pd.Series(list(self._p.values()), index=pd.Index(list(self._p), name="outcome", tupleize_cols=False), name=name, dtype=object)

    def to_frame(self) -> pd.DataFrame:
        """One row per outcome: exact probability, its float, and P(X ≤ x) when outcomes are ordered."""
        import pandas as pd

        frame = pd.DataFrame(
            {
                "outcome": list(self._p),
                "probability": list(self._p.values()),
                "float": [float(p) for p in self._p.values()],
            }
        )
        if all(isinstance(o, (int, Fraction)) and not isinstance(o, bool) for o in self._p):
            running, cumulative = Fraction(0), []
            for p in self._p.values():
                running += p
                cumulative.append(running)
            frame["cdf"] = pd.Series(cumulative, index=frame.index, dtype=object)
        return frame

    def sample(self, size: int, seed: int | np.random.Generator | None = None) -> list[Outcome]:
        """``size`` independent draws (at most :data:`MAX_SAMPLE`), reproducible from ``seed``."""
        check_count(size, "size", maximum=MAX_SAMPLE)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(check_seed(seed))
        outcomes = list(self._p)
        cum = np.cumsum([float(p) for p in self._p.values()])
        idx = np.searchsorted(cum, rng.random(size) * cum[-1], side="right")
        idx = np.minimum(idx, len(outcomes) - 1)
        return [outcomes[i] for i in idx]
