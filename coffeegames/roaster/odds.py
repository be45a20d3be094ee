"""Exact bag-draw odds for Coffee Roaster (RULES.md §3): what the next draw holds.

Every answer comes from :class:`coffeegames.exact.Bag`'s multivariate hypergeometric
law: drawing ``k`` tokens at once from a bag of ``N`` gives each multiset its share of
the C(N, k) equally likely draws. Tokens are short names: ``"hard"``, ``"bean0"`` ..
``"bean4"``, ``"burnt"``, ``"moisture"``, ``"smoke"``, ``"defect"``, flavours and cup
effects (see :mod:`.tokens`).

Example:
    >>> bag = Bag({"bean2": 4, "bean3": 2, "smoke": 1, "moisture": 3})
    >>> p_any(bag, ["smoke"], draws=3)
    Fraction(3, 10)
    >>> expected_count(bag, ["moisture"], draws=5)
    Fraction(3, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from math import comb

import pandas as pd

from ..exact import Bag, Dist, check_count
from .tokens import BURNT, DEFECT, FLAVOURS, MOISTURE, ROASTABLE, SMOKE, WILD, roast, roast_level

Token = Hashable


def _draws(bag: Bag, draws: int) -> int:
    """``draws``, or the whole bag if fewer tokens remain (RULES.md: "all, if fewer remain")."""
    return min(check_count(draws, "number of tokens drawn"), bag.size)


def count_dist(bag: Bag, tokens: Iterable[Token] | Callable[[Token], bool], draws: int) -> Dist:
    """How many drawn tokens are of the given kinds (a list, or a predicate): hypergeometric.

    >>> count_dist(Bag({"smoke": 1, "bean1": 3}), ["smoke"], 2)[1]
    Fraction(1, 2)
    """
    match = tokens if callable(tokens) else set(tokens).__contains__
    good = sum(n for t, n in bag.items() if match(t))
    k, total = _draws(bag, draws), bag.size
    return Dist.from_weights({i: comb(good, i) * comb(total - good, k - i) for i in range(0, min(good, k) + 1)})


def p_any(bag: Bag, tokens: Iterable[Token] | Callable[[Token], bool], draws: int) -> Fraction:
    """P(at least one drawn token is of the given kinds), e.g. smoke or defect."""
    return count_dist(bag, tokens, draws).at_least(1)


def expected_count(bag: Bag, tokens: Iterable[Token] | Callable[[Token], bool], draws: int) -> Fraction:
    """Expected number of drawn tokens of the given kinds (k × share of the bag), e.g. moisture removed."""
    return count_dist(bag, tokens, draws).mean()


def p_beans_at_least(bag: Bag, level: int, k: int, draws: int) -> Fraction:
    """P(at least ``k`` drawn beans are roasted to ``level`` or more)."""
    def roasted_enough(token: Token) -> bool:
        found = roast_level(token)
        return found is not None and found >= level

    return count_dist(bag, roasted_enough, draws).at_least(k)


def p_burn(bag: Bag, draws: int, steps: int = 1) -> Fraction:
    """P(a drawn bean burns when roasted ``steps`` levels: a bean of level ≥ 5 − steps is drawn).

    ``steps`` is 1 on ordinary spaces and 2 on the thermometer's crack spaces (a Ruling).
    Effects used before roasting (Preserve, Concentrate, Disperse) are not counted.
    """
    return p_any(bag, lambda t: t in ROASTABLE and roast(t, steps) == BURNT, draws)


def draw_table(bag: Bag, draws: int, steps: int = 1) -> pd.DataFrame:
    """The named odds of the next draw as a table: chances (rows "P(...)") and expected counts as exact Fractions."""
    k = _draws(bag, draws)
    rows = {
        "tokens drawn": k,
        "P(at least one smoke)": p_any(bag, [SMOKE], k),
        "P(at least one defect)": p_any(bag, [DEFECT], k),
        "P(a bean burns this round)": p_burn(bag, k, steps),
        "P(2+ beans at level 3 or more)": p_beans_at_least(bag, 3, 2, k),
        "expected moisture removed": expected_count(bag, [MOISTURE], k),
        "expected flavour tokens": expected_count(bag, [*FLAVOURS, WILD], k),
    }
    return pd.DataFrame({"value": list(rows.values())}, index=pd.Index(list(rows), name="question"))


def effect_table(bag: Bag, draws: int, steps: int = 1) -> pd.DataFrame:
    """How the immediate effect "+2 tokens" changes the named odds: the draw with 2 more tokens beside it.

    (The other draw effects depend on which tokens you return; the engine values them.)
    """
    base = draw_table(bag, draws, steps)["value"]
    more = draw_table(bag, draws + 2, steps)["value"]
    return pd.DataFrame({"draw": base, "with +2 tokens": more})
