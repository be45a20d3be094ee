"""Exact roll-outcome odds for VivaJava's coloured dice.

Every question here is a function of one table: for ``coffee_dice`` coffee dice and
``flavour`` dice, every distinct combination of per-colour counts (and jokers) with the
number of ordered rolls that show it. The table pairs each multiset of the coffee dice
with each multiset of the flavour dice (C(w+5, 5) × C(f+5, 5) rows: 756,756 for 10 + 5)
and is evaluated with numpy on exact integer counts, so answers stay exact Fractions.

The coffee dice are white in the box, but white is also a bean colour, so the count is
called ``coffee_dice`` everywhere (the old keyword ``white=`` still works, with a
DeprecationWarning; giving both is refused).

Example:
    >>> best_blend(coffee_dice=2)[Blend.of(2, "red")]
    Fraction(1, 36)
    >>> p_rainbow(coffee_dice=5)
    Fraction(5, 54)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, cast

import numpy as np

from ..errors import BadArgument, BadType, shown
from ..exact import Dist, check_count, count_vectors
from ..validate import cached, check_flag, check_size, renamed_keyword
from .data import OMNIBLEND_REROLLS
from .dice import COLOURS, LARGEST_BLEND, NO_BLEND, RAINBOW_SIZE, Blend

if TYPE_CHECKING:
    import pandas as pd  # imported by the table functions only: the command line's answers do without it

__all__ = [
    "METER_COLUMNS",
    "METER_LEVELS",
    "MAX_COFFEE_DICE",
    "MAX_FLAVOUR",
    "MAX_REROLLS",
    "MAX_WHITE",
    "SUCCESS_SIZE",
    "best_blend",
    "best_blend_codes",
    "blend_rows",
    "blend_table",
    "colour_table",
    "largest_group",
    "meter_rows",
    "meter_table",
    "check_omniblend_rerolls",
    "omniblend_groups",
    "omniblend_success",
    "p_at_least",
    "p_beats",
    "p_rainbow",
    "p_reroll_beats",
    "rainbow",
    "rainbow_flags",
    "research",
    "research_rows",
    "research_table",
    "sacchar_block",
    "sacchar_success",
]

MAX_COFFEE_DICE = 10
"""The most coffee dice a question may roll (there are 10)."""
MAX_WHITE = MAX_COFFEE_DICE
"""The old name of :data:`MAX_COFFEE_DICE` (kept so old code runs)."""
MAX_FLAVOUR = 5
"""The most flavour dice a question may roll (there are 5)."""
MAX_REROLLS = 100
"""The most OmniBlend re-rolls a question may ask about (a METER shows 0-10; each re-roll adds digits to the
exact answer, so 10,000 would run for minutes)."""


def _check(coffee_dice: int, flavour: int) -> None:
    check_count(coffee_dice, "coffee_dice", maximum=MAX_COFFEE_DICE)
    check_count(flavour, "flavour", maximum=MAX_FLAVOUR)


@renamed_keyword("white", "coffee_dice")
@cached(maxsize=32)
def colour_table(coffee_dice: int, flavour: int) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, weights)``: rows of per-colour counts (6 colours) plus jokers, and ordered-roll counts.

    Weights are exact integers summing to ``6 ** (coffee_dice + flavour)``. ``counts`` is stored a column
    at a time (Fortran order), so the per-colour work of :func:`best_blend_codes` and :func:`rainbow_flags`
    reads contiguous columns.
    """
    _check(coffee_dice, flavour)
    wc, ww = _count_rows(coffee_dice)  # faces in COLOURS order
    fc, fw = _count_rows(flavour)  # faces: White..Green, then joker
    # one row per column: flavour face 6 is the joker, which goes to column 7; flavour dice have no black face
    f7 = np.zeros((7, len(fc)), dtype=np.int16)
    f7[:5], f7[6] = fc[:, :5].T, fc[:, 5]
    w7 = np.zeros((7, len(wc)), dtype=np.int16)
    w7[:6] = wc.T
    counts = np.add(w7[:, :, None], f7[:, None, :], order="C").reshape(7, -1).T  # (rows, 7), column-major
    weights = (ww[:, None] * fw[None, :]).reshape(-1)
    return counts, weights


@lru_cache(maxsize=MAX_COFFEE_DICE + 1)
def _count_rows(dice: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~coffeegames.exact.count_vectors` of ``dice`` six-sided dice as read-only arrays: counts (rows, 6)
    and weights (memoised: every :func:`colour_table` pairs two of them)."""
    rows = list(count_vectors(dice))
    counts = np.array([c for c, _ in rows], dtype=np.int16).reshape(len(rows), 6)
    weights = np.array([w for _, w in rows], dtype=np.int64)
    counts.flags.writeable = weights.flags.writeable = False
    return counts, weights


def _dist(codes: np.ndarray, weights: np.ndarray, decode: Callable[[int], object]) -> Dist:
    """Add up the integer weights of each code (small whole numbers 0 or more; exact int64 sums) into an exact distribution."""
    sums = np.zeros(int(codes.max(initial=0)) + 1, dtype=np.int64)
    np.add.at(sums, codes, weights)
    return Dist.from_weights({decode(v): int(w) for v, w in enumerate(sums.tolist()) if w})


def best_blend_codes(counts: np.ndarray) -> np.ndarray:
    """Each row's best blend as ``size * 10 + rank`` (0 for no blend), vectorised over :func:`colour_table` rows."""
    jokers = counts[:, 6]
    best = np.zeros(len(counts), dtype=np.int16)
    for rank in range(1, len(COLOURS) + 1):  # a column at a time: 3-10x faster than over a (rows, 6) block
        np.maximum(best, np.minimum(counts[:, rank - 1] + jokers, LARGEST_BLEND) * 10 + rank, out=best)
    return np.where(best >= 20, best, 0)


@renamed_keyword("white", "coffee_dice")
@cached(maxsize=64)
def best_blend(coffee_dice: int = 5, flavour: int = 0) -> Dist:
    """The exact distribution of the best blend (size, then colour) of a roll, jokers wild.

    >>> best_blend(coffee_dice=5).prob(lambda b: b.size >= 3) > Fraction(1, 5)
    True
    """
    counts, weights = colour_table(coffee_dice, flavour)
    return _dist(best_blend_codes(counts), weights, lambda c: Blend(c // 10, c % 10) if c else NO_BLEND)


@renamed_keyword("white", "coffee_dice")
def largest_group(coffee_dice: int = 5, flavour: int = 0) -> Dist:
    """The distribution of the largest group of one colour (jokers wild; at most 5 count; 0 with no dice)."""
    return best_blend(coffee_dice, flavour).map(lambda b: cast(Blend, b).size or min(1, coffee_dice + flavour))


@renamed_keyword("white", "coffee_dice")
def p_at_least(size: int, coffee_dice: int = 5, flavour: int = 0) -> Fraction:
    """P(the largest group of one colour, jokers wild, has at least ``size`` dice)."""
    check_count(size, "group size", maximum=LARGEST_BLEND)
    return largest_group(coffee_dice, flavour).at_least(size)


@renamed_keyword("white", "coffee_dice")
def p_beats(blend: Blend, coffee_dice: int = 5, flavour: int = 0) -> Fraction:
    """P(a roll's best blend beats ``blend``, the Featured Blend on the coaster)."""
    if not isinstance(blend, Blend):
        raise BadType("blend", "expected a Blend such as Blend.of(3, 'green')", blend)
    return best_blend(coffee_dice, flavour).prob(lambda b: cast(Blend, b) > blend)


@renamed_keyword("white", "coffee_dice")
@cached(maxsize=64)
def rainbow(coffee_dice: int = 5, flavour: int = 0) -> Dist:
    """Whether a roll can show five different colours (jokers fill gaps): a Dist over True/False."""
    counts, weights = colour_table(coffee_dice, flavour)
    return _dist(rainbow_flags(counts).astype(np.int64), weights, bool)


def rainbow_flags(counts: np.ndarray) -> np.ndarray:
    """For each row of a :func:`colour_table`, whether it shows a Rainbow: the rule of
    :func:`~.dice.rainbow_of_counts`, vectorised (five colours, jokers filling gaps)."""
    present = np.zeros(len(counts), dtype=np.int16)
    for colour in range(len(COLOURS)):  # a column at a time, as in best_blend_codes
        present += counts[:, colour] > 0
    return present + np.minimum(counts[:, 6], len(COLOURS) - present) >= RAINBOW_SIZE


@renamed_keyword("white", "coffee_dice")
def p_rainbow(coffee_dice: int = 5, flavour: int = 0) -> Fraction:
    """P(a Rainbow Blend: five dice of five different colours, own jokers filling gaps)."""
    return rainbow(coffee_dice, flavour)[True]


@renamed_keyword("white", "coffee_dice")
def research(colour: str, coffee_dice: int = 5, flavour: int = 0, jokers_count: bool = True) -> Dist:
    """RP gained by researching ``colour``: one per die of that colour, at most 5.

    ``jokers_count`` (a Ruling, default True): a joker is wild, so it counts as the colour.
    For black there is no track: the result is the number of flavour dice won.
    """
    if colour not in COLOURS:
        raise BadArgument("colour", f"unknown colour {shown(colour)}; the colours are {', '.join(COLOURS)}")
    counts, weights = colour_table(coffee_dice, flavour)
    n = counts[:, COLOURS.index(colour)] + (counts[:, 6] if check_flag(jokers_count, "jokers_count") else 0)
    return _dist(np.minimum(n, 5), weights, int)


def research_rows(coffee_dice: int = 5, flavour: int = 0, jokers_count: bool = True) -> list[dict[str, object]]:
    """The rows of :func:`research_table` as dicts (``colour`` first), without pandas.

    >>> research_rows(1)[0]["mean"]  # one coffee die shows white one time in six
    Fraction(1, 6)
    """
    rows: list[dict[str, object]] = []
    for colour in COLOURS:
        d = research(colour, coffee_dice, flavour, jokers_count)
        rows.append({"colour": colour, "mean": d.mean(), "p_at_least_2": d.at_least(2), "p_at_least_3": d.at_least(3)})
    return rows


@renamed_keyword("white", "coffee_dice")
def research_table(coffee_dice: int = 5, flavour: int = 0, jokers_count: bool = True) -> pd.DataFrame:
    """Expected RP and P(at least 2 / 3 RP) for each colour (black: flavour dice won)."""
    import pandas as pd

    return pd.DataFrame(research_rows(coffee_dice, flavour, jokers_count)).set_index("colour")


def blend_rows(coffee_dice: int = 5, flavour: int = 0) -> list[dict[str, object]]:
    """The rows of :func:`blend_table` as dicts, without pandas.

    >>> blend_rows(2)[-1]["p_this_or_better"]
    Fraction(1, 1)
    """
    d = best_blend(coffee_dice, flavour)
    rows: list[dict[str, object]] = []
    running = Fraction(0)
    for b in sorted(d, reverse=True):
        running += d[b]
        rows.append({"blend": str(b), "size": b.size, "colour": b.colour or "", "probability": d[b], "p_this_or_better": running})
    return rows


@renamed_keyword("white", "coffee_dice")
def blend_table(coffee_dice: int = 5, flavour: int = 0) -> pd.DataFrame:
    """The best-blend distribution as a table, strongest first, with P(this or better)."""
    import pandas as pd

    return pd.DataFrame(blend_rows(coffee_dice, flavour))


def p_reroll_beats(kept: Blend, dice: int) -> Fraction:
    """Keep-or-reroll for a degraded Featured Blend: P(re-rolling its ``dice`` coffee dice beats keeping ``kept``)."""
    return p_beats(kept, coffee_dice=dice, flavour=0)


# -- the solo corporations -------------------------------------------------------------

SUCCESS_SIZE = 3
"""A corporation needs three of a kind or better for a Featured Blend (the default of the Ruling option
``corp_success_size``; see ``docs/rules/vivajava.md``)."""


@lru_cache(maxsize=None)
def _keep_best_step(kept: int, dice: int) -> Dist:
    """One OmniBlend reroll: keep a group of ``kept`` dice of one colour, reroll the other dice.

    The new best group is the kept colour plus its matches, or a larger group among the
    rerolled dice. By symmetry the kept colour can be any; colour ranks do not matter here.
    """
    rolling = dice - kept
    weights: dict[Hashable, int] = {}
    for c, w in count_vectors(rolling):
        new = max(kept + c[0], max(c)) if kept else max(c, default=0)
        weights[min(new, dice)] = weights.get(min(new, dice), 0) + w
    return Dist.from_weights(weights)


def check_omniblend_rerolls(omniblend_rerolls: str) -> str:
    """``omniblend_rerolls`` if it names one of OmniBlend's ways to re-roll (option ``omniblend_rerolls``); else
    :class:`~coffeegames.errors.BadArgument` naming it and the ways there are."""
    if not (isinstance(omniblend_rerolls, str) and omniblend_rerolls in OMNIBLEND_REROLLS):
        raise BadArgument("omniblend_rerolls", f"must be one of {', '.join(map(repr, OMNIBLEND_REROLLS))}", omniblend_rerolls)
    return omniblend_rerolls


@cached(maxsize=None)
def omniblend_groups(meter: int, dice: int = 5, takes_rainbow: bool = False, omniblend_rerolls: str = "seed") -> Dist:
    """The largest group OmniBlend TransGlobal holds after its first roll and ``meter`` rerolls, facing no blend.

    A Markov chain on the size of the kept group: each re-roll keeps the largest group and
    rolls the rest. ``omniblend_rerolls`` (the game's option): ``"seed"`` (the rules) stops at a
    first roll of three alike or more, else uses every re-roll; ``"stop_at_blend"`` stops at the
    first three alike; ``"always"`` uses every re-roll. With ``takes_rainbow`` (the corporation
    does not hold the Rainbow yet), a first roll of five different colours takes the Rainbow
    and ends the turn, as the engine plays it; without, it keeps one die and rerolls.

    >>> omniblend_groups(0).at_least(3) == p_at_least(3, coffee_dice=5)
    True
    >>> omniblend_groups(1, takes_rainbow=True).at_least(3)
    Fraction(169, 324)
    >>> bold = {way: omniblend_groups(3, takes_rainbow=True, omniblend_rerolls=way).at_least(4) for way in OMNIBLEND_REROLLS}
    >>> {way: f"{float(p):.1%}" for way, p in bold.items()}  # Bold or better at the red METER, as each way plays
    {'seed': '29.3%', 'stop_at_blend': '11.6%', 'always': '42.1%'}
    """
    check_count(meter, "meter", maximum=MAX_REROLLS)
    check_count(dice, "dice", maximum=MAX_COFFEE_DICE)
    check_flag(takes_rainbow, "takes_rainbow")
    check_omniblend_rerolls(omniblend_rerolls)
    done: dict[Hashable, Fraction | int] = {}
    live: dict[int, Fraction | int] = {}
    for g, p in _keep_best_step(0, dice).items():
        assert isinstance(g, int)
        # a first roll of five colours (a group of 1) takes the Rainbow; one of three alike ends the roll but "always"
        final = (takes_rainbow and g == 1) or (g >= SUCCESS_SIZE and omniblend_rerolls != "always")
        (done if final else live)[g] = p
    for _ in range(meter):
        after: dict[int, Fraction | int] = {}
        for g, p in live.items():
            if g >= dice or (g >= SUCCESS_SIZE and omniblend_rerolls == "stop_at_blend"):
                done[g] = done.get(g, 0) + p  # nothing to re-roll, or it stops at its blend
                continue
            for h, q in _keep_best_step(g, dice).items():
                assert isinstance(h, int)
                after[h] = after.get(h, 0) + p * q
        live = after
    for g, p in live.items():
        done[g] = done.get(g, 0) + p
    return Dist(done)


def omniblend_success(meter: int, takes_rainbow: bool = False, omniblend_rerolls: str = "seed") -> Fraction:
    """P(OmniBlend TransGlobal makes a Featured Blend, three of a kind or better, with ``meter`` rerolls).

    ``takes_rainbow`` and ``omniblend_rerolls``: see :func:`omniblend_groups` (``takes_rainbow`` is True when it
    does not hold the Rainbow). Its group never shrinks as it re-rolls, so the three ways to re-roll give the
    same chance (they differ in the blend it ends with: :func:`omniblend_groups`). The options it models:
    ``corp_success_size=3``; ``corp_keeps_decaf`` does not change it (any three alike beats the Decaf it keeps
    while rolling), nor do ``solo_first`` and ``activations_at_2x``.

    >>> omniblend_success(3) == omniblend_success(3, omniblend_rerolls="stop_at_blend")
    True
    """
    return omniblend_groups(meter, takes_rainbow=takes_rainbow, omniblend_rerolls=omniblend_rerolls).at_least(SUCCESS_SIZE)


def sacchar_success(meter: int) -> Fraction:
    """P(Sacchar Inc. makes a Featured Blend rolling 5 coffee dice and ``meter`` flavour dice).

    The options it models: ``corp_success_size`` = 3 (:data:`SUCCESS_SIZE`). ``corp_keeps_decaf``
    does not change it (the Decaf it keeps while rolling is beaten by any three alike), nor do
    ``solo_first`` and ``activations_at_2x``; a Rainbow is not a Featured Blend (for the
    block die, which ``sacchar_rainbow`` decides, see :func:`sacchar_block`).
    """
    check_count(meter, "meter", maximum=MAX_FLAVOUR)
    return p_at_least(SUCCESS_SIZE, coffee_dice=5, flavour=meter)


@cached(maxsize=None)
def sacchar_block(meter: int, sacchar_rainbow: str = "success", takes_rainbow: bool = True) -> Fraction:
    """P(Sacchar Inc. rolls its block die, one more coffee die) after rolling 5 coffee dice and ``meter`` flavour dice.

    It rolls the die when it makes no Featured Blend (three alike or better), except, with
    Ruling ``sacchar_rainbow="success"`` (the default), when it takes the Rainbow instead (five
    colours, its jokers filling gaps; ``takes_rainbow``: it does not hold the Rainbow yet).

    >>> sacchar_block(0) == 1 - sacchar_success(0) - p_rainbow(5)
    True
    >>> sacchar_block(0, "block") == 1 - sacchar_success(0)
    True
    """
    check_count(meter, "meter", maximum=MAX_FLAVOUR)
    if sacchar_rainbow not in ("success", "block"):
        raise BadArgument("sacchar_rainbow", "must be 'success' or 'block'", sacchar_rainbow)
    counts, weights = colour_table(5, meter)
    no_featured = best_blend_codes(counts) < SUCCESS_SIZE * 10
    blocks = no_featured & ~rainbow_flags(counts) if (sacchar_rainbow == "success" and takes_rainbow) else no_featured
    return Fraction(int(weights[blocks].sum()), 6 ** (5 + meter))


METER_LEVELS = range(0, 7)
"""The METER levels the METER table lists by default: every number OmniBlend's stand-in METER shows (0-6)."""
METER_COLUMNS: dict[str, str] = {
    "meter": "METER shows",
    "p_omniblend": "OmniBlend, holding the Rainbow",
    "p_omniblend_takes_rainbow": "OmniBlend, not holding the Rainbow",
    "p_sacchar": "Sacchar Inc.",
    "p_sacchar_block": "Sacchar rolls its block die (not holding the Rainbow)",
}
"""The METER table's columns and the words for them: the command line and the notebook's table say the same."""


def meter_rows(levels: range = METER_LEVELS, sacchar_rainbow: str = "success", omniblend_rerolls: str = "seed") -> list[dict[str, object]]:
    """The rows of :func:`meter_table` as dicts (``meter`` first, then the other :data:`METER_COLUMNS`), without pandas.

    Past the 5 flavour dice there are, Sacchar rolls all 5: its chances there are those at 5.

    >>> meter_rows(range(2))[0]["meter"], list(meter_rows(range(1))[0]) == list(METER_COLUMNS)
    (0, True)
    """
    if not isinstance(levels, (range, list, tuple)):
        raise BadType("levels", "must be a range or a list of METER levels, e.g. range(0, 7)", levels)
    check_size(len(levels), "levels", "METER levels", levels, limit=MAX_REROLLS + 1)
    if not levels:
        raise BadArgument("levels", "must hold at least one METER level", levels)
    for m in levels:
        check_count(m, "levels", maximum=MAX_REROLLS)
    return [
        {
            "meter": m,
            "p_omniblend": omniblend_success(m, omniblend_rerolls=omniblend_rerolls),
            "p_omniblend_takes_rainbow": omniblend_success(m, takes_rainbow=True, omniblend_rerolls=omniblend_rerolls),
            "p_sacchar": sacchar_success(min(m, MAX_FLAVOUR)),
            "p_sacchar_block": sacchar_block(min(m, MAX_FLAVOUR), sacchar_rainbow),
        }
        for m in levels
    ]


def meter_table(levels: range = METER_LEVELS, sacchar_rainbow: str = "success", omniblend_rerolls: str = "seed") -> pd.DataFrame:
    """Each corporation's exact chance of a Featured Blend at each METER level, and of Sacchar's block die.

    The columns are :data:`METER_COLUMNS`: ``p_omniblend`` is OmniBlend holding the Rainbow (it
    rerolls whatever it rolls); ``p_omniblend_takes_rainbow`` is OmniBlend without it (a
    first-roll rainbow ends its turn); ``p_sacchar_block`` is :func:`sacchar_block` (Sacchar not
    holding the Rainbow) under the Ruling ``sacchar_rainbow``. The options modelled:
    ``corp_success_size=3``, ``omniblend_rerolls`` (its three ways give the same chances);
    ``corp_keeps_decaf`` changes none of these numbers (any three alike beats the Decaf it keeps),
    nor do ``solo_first`` and ``activations_at_2x``.
    """
    import pandas as pd

    return pd.DataFrame(meter_rows(levels, sacchar_rainbow, omniblend_rerolls)).set_index("meter")
