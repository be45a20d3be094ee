"""Exact bag-draw odds for Coffee Roaster (docs/rules/roaster.md): chance's law, and what the next draw holds.

Every answer comes from :class:`coffeegames.exact.Bag`'s multivariate hypergeometric
law: drawing ``k`` tokens at once from a bag of ``N`` gives each multiset its share of
the C(N, k) equally likely draws. Tokens are short names: ``"hard"``, ``"bean0"`` ..
``"bean4"``, ``"burnt"``, ``"moisture"``, ``"smoke"``, ``"defect"``, flavours and cup
effects (see :mod:`.tokens`). :func:`draw_outcomes` and :func:`shuffle_outcomes` are the
engine's chance nodes (:meth:`.state.State.chance_outcomes` lists them).

Example:
    >>> bag = Bag({"bean2": 4, "bean3": 2, "smoke": 1, "moisture": 3})
    >>> p_any(bag, ["smoke"], draws=3)
    Fraction(3, 10)
    >>> expected_count(bag, ["moisture"], draws=5)
    Fraction(3, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from math import comb
from typing import TYPE_CHECKING, Any, cast

from ..errors import BadArgument, BadType, shown
from ..exact import Bag, Dist, as_bag, check_count
from ..exact.bag import MAX_TOKENS
from ..validate import cached, check_items, check_size
from .actions import Drawn, Shuffled
from .tokens import BURNT, CUP_EFFECTS, DEFECT, FLAVOURS, MOISTURE, ROASTABLE, SMOKE, TOKENS, WILD, key, msort, roast, roast_level

if TYPE_CHECKING:
    import pandas as pd  # imported by the table functions only: the command line's answers do without it

__all__ = [
    "CACHED_DRAWS", "count_dist", "draw_odds", "draw_outcome_count", "draw_outcomes", "draw_table", "effect_table",
    "expected_count", "p_any", "p_beans_at_least", "p_burn", "shuffle_outcomes", "two_of_five_table",
]

Token = Hashable


# -- chance nodes of the engine ---------------------------------------------------------------

def _check_tokens(bag: Any) -> Sequence[str]:
    """The engine's bag: a list or tuple of token names (not a string)."""
    if isinstance(bag, (str, bytes)) or not isinstance(bag, (list, tuple)) or not all(isinstance(t, str) for t in bag):
        raise BadType("bag", "must be a list or tuple of token names, e.g. ('hard', 'hard', 'smoke')", bag)
    return bag


CACHED_DRAWS = 64
""":func:`draw_outcomes` keeps the lists of at most this many draws (a solver asks for them again and again); a round's
draw of several tokens (hundreds or thousands of draws, each a :class:`~.actions.Drawn` and a ``Fraction``) is listed
anew each time: kept, every decision's list would pile up in the process, and each full pass of Python's cycle
collector walks them all."""


def draw_outcomes(bag: tuple[str, ...], k: int) -> tuple[tuple[Drawn, Fraction], ...]:
    """Every multiset of ``k`` tokens drawn at once from ``bag`` with its exact probability (Fact: a draw
    without replacement, multivariate hypergeometric).

    >>> outcomes = draw_outcomes(("hard", "hard", "smoke"), 2)
    >>> [(str(d), p) for d, p in outcomes]
    [('drew hard×2', Fraction(1, 3)), ('drew hard smoke', Fraction(2, 3))]
    """
    if draw_outcome_count(bag, k) <= CACHED_DRAWS:  # (the count checks both arguments)
        return _kept_draws(bag, k)
    return _listed_draws(bag, k)


@cached(maxsize=4096)
def _kept_draws(bag: tuple[str, ...], k: int) -> tuple[tuple[Drawn, Fraction], ...]:
    """:func:`draw_outcomes`, kept (short lists)."""
    return _listed_draws(bag, k)


def _listed_draws(bag: tuple[str, ...], k: int) -> tuple[tuple[Drawn, Fraction], ...]:
    weights, total = _draw_weights(bag, k)
    return tuple((Drawn(tokens), Fraction(w, total)) for tokens, w in weights)


def _draw_weights(bag: Sequence[str], k: int) -> tuple[list[tuple[tuple[str, ...], int]], int]:
    """:func:`draw_outcomes` as ``([(tokens, ways)], ways in all)``, in the same order: no object a draw (a caller that
    samples a few of thousands of draws makes only those)."""
    _check_tokens(bag)
    counts = Counter(bag)
    # With the kinds in sorting order, each draw is listed sorted, and the draws in ascending order of their counts
    # (of the first kind, then the next...): reversed, that is the sorted order of the draws themselves.
    weights = list(Bag({t: counts[t] for t in msort(counts)}).draw_weights(k))[::-1]
    return cast("list[tuple[tuple[str, ...], int]]", weights), comb(len(bag), k)


def draw_outcome_count(bag: Sequence[str], k: int) -> int:
    """How many distinct multisets a draw of ``k`` from ``bag`` has (without listing them).

    >>> draw_outcome_count(("hard", "hard", "smoke"), 2)
    2
    """
    return Bag(Counter(_check_tokens(bag))).draw_count(k)


@lru_cache(maxsize=1)
def shuffle_outcomes() -> tuple[tuple[Shuffled, Fraction], ...]:
    """The 120 equally likely orders of the five cup effects on the square spaces.

    >>> len(shuffle_outcomes()), shuffle_outcomes()[0][1]
    (120, Fraction(1, 120))
    """
    orders = list(permutations(CUP_EFFECTS))
    return tuple((Shuffled(o), Fraction(1, len(orders))) for o in orders)


# -- named odds of a draw ----------------------------------------------------------------------


def _draws(bag: Bag, draws: int) -> int:
    """``draws``, or the whole bag if fewer tokens remain (docs/rules/roaster.md: all, if fewer remain)."""
    check_size(bag.size, "bag", "tokens", limit=MAX_TOKENS)
    return min(check_count(draws, "draws"), bag.size)


def _kinds(tokens: Iterable[Token], bag: Bag) -> set[Token]:
    """The token kinds asked about; a kind that is neither a Coffee Roaster token nor in the bag is refused (a misspelt
    'smoek' would silently count 0)."""
    kinds = set(check_items(tokens, "tokens", "['smoke']"))
    for kind in kinds:
        if kind not in TOKENS and not bag[kind]:  # (a Bag answers 0 for any kind, so `in` is always true)
            raise BadArgument("tokens", f"{shown(kind, 40)} is not a token kind; the kinds are {', '.join(TOKENS)}")
    return kinds


def count_dist(bag: Bag, tokens: Iterable[Token] | Callable[[Token], bool], draws: int) -> Dist:
    """How many drawn tokens are of the given kinds (a list, or a predicate): hypergeometric.

    >>> count_dist(Bag({"smoke": 1, "bean1": 3}), ["smoke"], 2)[1]
    Fraction(1, 2)
    """
    bag = as_bag(bag)
    if isinstance(tokens, (str, bytes)):
        raise BadType("tokens", "must be a list of token kinds such as ['smoke'] (a string would be read letter by letter), "
                      "or a predicate", tokens)
    match = tokens if callable(tokens) else _kinds(tokens, bag).__contains__
    good = sum(n for t, n in bag.items() if match(t))
    k, total = _draws(bag, draws), bag.size
    weights: dict[Hashable, int] = {i: comb(good, i) * comb(total - good, k - i) for i in range(0, min(good, k) + 1)}
    return Dist.from_weights(weights)


def p_any(bag: Bag, tokens: Iterable[Token] | Callable[[Token], bool], draws: int) -> Fraction:
    """P(at least one drawn token is of the given kinds), e.g. smoke or defect."""
    return count_dist(bag, tokens, draws).at_least(1)


def expected_count(bag: Bag, tokens: Iterable[Token] | Callable[[Token], bool], draws: int) -> Fraction:
    """Expected number of drawn tokens of the given kinds (k × share of the bag), e.g. moisture removed."""
    return count_dist(bag, tokens, draws).mean()


def _roasted_to(level: int) -> Callable[[Token], bool]:
    """Whether a token is a bean roasted to ``level`` or more."""
    def match(token: Token) -> bool:
        found = roast_level(token) if isinstance(token, str) else None
        return found is not None and found >= level

    return match


def _burns(steps: int) -> Callable[[Token], bool]:
    """Whether a token is a bean that burns when roasted ``steps`` levels."""
    return lambda t: t in ROASTABLE and roast(t, steps) == BURNT


def p_beans_at_least(bag: Bag, level: int, k: int, draws: int) -> Fraction:
    """P(at least ``k`` drawn beans are roasted to ``level`` or more)."""
    bag = as_bag(bag)
    check_count(level, "level")
    return count_dist(bag, _roasted_to(level), draws).at_least(check_count(k, "k"))


def p_burn(bag: Bag, draws: int, steps: int = 1) -> Fraction:
    """P(a drawn bean burns when roasted ``steps`` levels: a bean of level ≥ 5 − steps is drawn).

    ``steps`` is 1 on ordinary spaces and 2 on the thermometer's crack spaces (a Ruling).
    Effects used before roasting (Preserve, Concentrate, Disperse) are not counted.
    """
    bag = as_bag(bag)
    return p_any(bag, _burns(check_count(steps, "steps")), draws)


def draw_odds(bag: Bag, draws: int, steps: int = 1, known: Iterable[Token] = ()) -> dict[str, int | Fraction]:
    """The named odds of the next draw, question → value: the rows of :func:`draw_table`, without pandas.

    >>> draw_odds(Bag({"bean4": 1, "bean2": 3}), 1)["P(a bean burns this round)"]
    Fraction(1, 4)
    """
    bag = as_bag(bag)
    k, known = _draws(bag, draws), check_items(known, "known")
    check_count(steps, "steps")

    def counted(match: Callable[[Token], bool]) -> Dist:  # how many of the known and drawn tokens match
        already = sum(1 for t in known if match(t))
        return count_dist(bag, match, k).map(lambda n: cast(int, n) + already)

    rows: dict[str, int | Fraction] = {
        "tokens drawn": k + len(known),
        "P(at least one smoke)": counted(lambda t: t == SMOKE).at_least(1),
        "P(at least one defect)": counted(lambda t: t == DEFECT).at_least(1),
        "P(a bean burns this round)": counted(_burns(steps)).at_least(1),
        "P(2+ beans at level 3 or more)": counted(_roasted_to(3)).at_least(2),
        "expected moisture removed": counted(lambda t: t == MOISTURE).mean(),
        "expected flavour tokens": counted(lambda t: t in (*FLAVOURS, WILD)).mean(),
    }
    return rows


def draw_table(bag: Bag, draws: int, steps: int = 1, known: Iterable[Token] = ()) -> pd.DataFrame:
    """The named odds of the next draw as a table: chances (rows "P(...)") and expected counts as exact Fractions.

    ``known`` are tokens already in this round's draw (drawn before, kept): each question is then asked of
    them together with the ``draws`` new tokens — what an immediate effect that draws more leaves you with.

    >>> bag = Bag({"bean4": 1, "bean2": 3})
    >>> draw_table(bag, 1, known=["smoke"]).loc[["tokens drawn", "P(at least one smoke)", "P(a bean burns this round)"], "value"].tolist()
    [2, Fraction(1, 1), Fraction(1, 4)]
    """
    import pandas as pd

    rows = draw_odds(bag, draws, steps, known)
    return pd.DataFrame({"value": list(rows.values())}, index=pd.Index(list(rows), name="question"))


def effect_table(bag: Bag, draws: int, steps: int = 1, drawn: Iterable[Token] | None = None,
                 returned: Iterable[Token] = ()) -> pd.DataFrame:
    """How the immediate effects that draw change this round's named odds (:func:`draw_table`).

    Before the draw (``drawn`` None): the draw of ``draws`` beside the draw with "+2 tokens". After it
    (``bag`` is what is left, ``drawn`` this round's tokens): the draw as it is, with "+2 tokens" (2 more
    from the bag), and, if ``returned`` names 2 drawn tokens, with "2 new tokens" (those 2 go back, then 2
    are drawn). *2 of 5* changes the bag, not this draw: see :func:`two_of_five_table`.

    >>> t = effect_table(Bag({"bean3": 2, "bean1": 4}), 0, drawn=["bean4", "bean1"], returned=["bean4", "bean1"])
    >>> t.loc["P(a bean burns this round)"].tolist()
    [Fraction(1, 1), Fraction(1, 1), Fraction(1, 4)]
    """
    bag = as_bag(bag)
    check_count(draws, "draws")
    check_count(steps, "steps")
    import pandas as pd

    if drawn is None:
        return pd.DataFrame({"draw": draw_table(bag, draws, steps)["value"],
                             "with +2 tokens": draw_table(bag, draws + 2, steps)["value"]})
    drawn, returned = check_items(drawn, "drawn"), check_items(returned, "returned")
    columns = {"as drawn": draw_table(bag, 0, steps, drawn)["value"]}
    if bag.size >= 2:  # docs/rules/roaster.md: not with fewer than 2 in the bag
        columns["with +2 tokens"] = draw_table(bag, 2, steps, drawn)["value"]
    if returned:
        rest = list(drawn)
        for t in returned:
            if t not in rest:
                raise BadArgument("returned", f"2 new tokens returns 2 drawn tokens; {t!r} is not among {rest}", returned)
            rest.remove(t)
        if len(returned) != 2:
            raise BadArgument("returned", f"2 new tokens returns exactly 2 drawn tokens; got {len(returned)}", returned)
        back = bag.add(returned)
        columns[f"with 2 new tokens (return {' '.join(map(str, returned))})"] = draw_table(back, 2, steps, rest)["value"]
    return pd.DataFrame(columns)


def two_of_five_table(bag: Bag) -> pd.DataFrame:
    """What the immediate effect *2 of 5* can take out of the bag: draw 5, remove 2 of them from the game, return 3
    (moisture among the 5 leaves too). Bad tokens are smoke, defect and burnt beans.

    >>> two_of_five_table(Bag({"smoke": 1, "bean2": 5})).loc["P(at least one smoke among the 5)", "value"]
    Fraction(5, 6)
    """
    bag = as_bag(bag)
    k = _draws(bag, 5)
    bad = count_dist(bag, lambda t: t in (SMOKE, DEFECT, BURNT), k)
    rows = {
        "tokens drawn": k,
        "P(at least one smoke among the 5)": p_any(bag, [SMOKE], k),
        "P(at least one defect among the 5)": p_any(bag, [DEFECT], k),
        "P(a bad token to remove)": bad.at_least(1),
        "expected bad tokens removed (at most 2)": bad.map(lambda n: min(cast(int, n), 2)).mean(),
        "expected moisture leaving": expected_count(bag, [MOISTURE], k),
    }
    import pandas as pd

    return pd.DataFrame({"value": list(rows.values())}, index=pd.Index(list(rows), name="question"))

