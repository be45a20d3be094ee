"""Coffee Rush's deadline, exactly: the penalty cards ahead and the deck running out.

Nothing here depends on the engine, nor on which orders the deck holds: only on how many
orders arrive and how many cards are drawn, given as numbers or as laws (:func:`count_law`).

**Penalties** (:func:`penalty_dist`) follow the rules' tabs: orders sit on tabs 1-4; your
turn completes some orders, then Flow of Time moves every order one tab down and one
pushed off tab 4 is a penalty card; in a two-player game one more order then goes onto
tab 1 (``extra=1``); between two of your turns the opponents' completions send orders onto
your tab 1 by Too Many Orders (``arrivals``, a number or a law). The model and what is
exact are stated in :func:`penalty_dist`. **The deck runs out** (:func:`p_deck_runs_out`)
when the cards drawn round after round add up to its size.

Example:
    >>> expected_penalties((1, 0, 0, 1), rounds=4)   # tab 4 falls at once, tab 1 at turn 4
    Fraction(2, 1)
    >>> p_deck_runs_out(8, rounds=3, draws={2: 1, 3: 1})    # 2 or 3 cards a round, evenly
    Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import lcm
from typing import Any, TypeAlias

import pandas as pd

from ..errors import BadArgument, BadType, TooBig
from ..exact import Dist
from ..validate import is_whole
from .odds import MAX_DECK
from .rules import TABS

__all__ = [
    "CountLaw",
    "MAX_ARRIVALS",
    "MAX_COMPLETES",
    "MAX_DECK_ROUNDS",
    "MAX_DECK_WORK",
    "MAX_DRAWS_PER_ROUND",
    "MAX_PENALTY_STATES",
    "MAX_ROUNDS",
    "MAX_TAB",
    "TABS",
    "cards_left_dist",
    "count_law",
    "expected_penalties",
    "p_deck_runs_out",
    "penalty_dist",
    "penalty_table",
]

CountLaw: TypeAlias = int | Mapping[int, int] | Mapping[int, Fraction] | Dist
"""A whole number that varies by chance: a fixed number, a :class:`Dist`, or a mapping number → weight
(whole numbers, relative) or → probability (Fractions summing to 1)."""

MAX_ROUNDS = 40
"""Penalties are computed over at most this many of your turns."""
MAX_TAB = 80
"""At most this many orders on one tab (the published deck has 80 cards)."""
MAX_ARRIVALS = 12
"""At most this many orders arrive on your tab 1 between two of your turns (or are added after one)."""
MAX_COMPLETES = 12
"""At most this many orders completed in one turn."""
MAX_PENALTY_STATES = 200_000
"""The penalty computation's bound on (tabs, penalties) positions, checked before it starts."""
MAX_DECK_ROUNDS = 1_000
"""The deck's run-out chance is computed over at most this many rounds."""
MAX_DRAWS_PER_ROUND = 100
"""At most this many cards drawn in one round."""
MAX_DECK_WORK = 2_000_000
"""rounds × (deck size + 1) × the draws law's outcomes may not exceed this (checked before work)."""


# -- laws of counts given by the caller --------------------------------------------------------

def count_law(value: Any, where: str, high: int) -> Dist:
    """A whole number 0..``high`` that varies by chance, as a :class:`Dist`: a fixed number, a Dist, or a mapping
    number → weight (whole numbers) or → probability (Fractions summing to 1).

    >>> count_law({0: 1, 2: 3}, "arrivals", 12)
    Dist({0: 1/4, 2: 3/4})
    >>> count_law(1, "arrivals", 12)
    Dist({1: 1})
    """
    if not isinstance(where, str) or not is_whole(high) or high < 0:
        raise BadType("where, high", "must be the argument's name and the highest number it may take (0 or more)", (where, high))
    allowed = (f"must be a whole number 0-{high}, or a mapping number → weight (whole numbers) or → probability "
               "(Fractions summing to 1)")
    if is_whole(value):
        law = Dist.certain(value)
    elif isinstance(value, Dist):
        law = value
    elif isinstance(value, Mapping):
        if len(value) > high + 1:
            raise TooBig(where, f"has {len(value)} outcomes; at most {high + 1} (the numbers 0-{high})")
        chances = list(value.values())
        if chances and all(isinstance(p, (int, Fraction)) and not isinstance(p, bool) for p in chances):
            if any(p < 0 for p in chances):
                raise BadArgument(where, "weights and probabilities must be 0 or more", value)
            if any(isinstance(p, Fraction) and p.denominator != 1 for p in chances):
                if sum(chances) != 1:
                    raise BadArgument(where, f"probabilities sum to {sum(chances)}, not 1", value)
                law = Dist({n: Fraction(p) for n, p in value.items()})
            elif sum(chances) == 0:
                raise BadArgument(where, "weights sum to 0: some outcome needs a positive weight", value)
            else:
                law = Dist.from_weights({n: int(p) for n, p in value.items()})
        else:
            raise BadType(where, allowed + " (floats are not exact)", value)
    else:
        raise BadType(where, allowed, value)
    for n in law:
        if not is_whole(n) or n < 0:
            raise BadArgument(where, f"its outcomes must be whole numbers 0-{high}", n)
        if n > high:
            raise TooBig(where, f"its outcomes must be whole numbers 0-{high}", n)
    return law


def _weights(law: Dist) -> dict[int, int]:
    """``law`` as whole-number weights over a common denominator (exact, and far quicker to multiply than Fractions)."""
    denominator = lcm(*(p.denominator for p in law.values()))
    return {n: int(p * denominator) for n, p in law.items()}


def _whole(value: Any, where: str, high: int, low: int = 0) -> int:
    if not is_whole(value):
        raise BadType(where, f"must be a whole number {low}-{high}", value)
    if value < low:
        raise BadArgument(where, f"must be a whole number {low}-{high}", value)
    if value > high:
        raise TooBig(where, f"must be a whole number {low}-{high}", value)
    return value


# -- penalties ahead ---------------------------------------------------------------------------

def _tabs(tabs: Any) -> tuple[int, ...]:
    if isinstance(tabs, (str, bytes)) or not isinstance(tabs, (tuple, list)):
        raise BadType("tabs", f"must be a list of {TABS} whole numbers: the orders on tabs 1-{TABS}", tabs)
    if len(tabs) != TABS:
        raise BadArgument("tabs", f"must hold {TABS} numbers, the orders on tabs 1-{TABS}", tabs)
    return tuple(_whole(n, f"tabs[{i}]", MAX_TAB) for i, n in enumerate(tabs))


def _turn(tabs: tuple[int, ...], completes: int, extra: int) -> tuple[tuple[int, ...], int]:
    """One of your turns: complete up to ``completes`` orders, oldest (highest tab) first; Flow of Time; then
    ``extra`` orders onto tab 1. Returns the new tabs and the penalty cards taken."""
    left, done = list(tabs), completes
    for i in reversed(range(TABS)):
        taken = min(done, left[i])
        left[i] -= taken
        done -= taken
    return (extra, *left[:-1]), left[-1]


def penalty_dist(tabs: tuple[int, ...] | list[int], rounds: int, arrivals: CountLaw = 0, completes: int = 0,
                 extra: int = 0) -> Dist:
    """The exact law of the penalty cards you take over your next ``rounds`` turns, under a stated model.

    **The model.** ``tabs`` are the orders on your tabs 1-4 as your turn starts. Each of your
    turns: (1) you complete ``completes`` orders if you hold that many (0: you complete
    nothing; 1: one a turn), the oldest first (those on the highest tab, nearest to falling
    off: the choice that takes fewest penalties); (2) Flow of Time moves every order one tab
    down, and each order pushed off tab 4 is one penalty card; (3) ``extra`` orders go onto
    tab 1 (the two-player rule: ``extra=1``; 0 with 3-4 players). Between two of your turns,
    the opponents' completions send orders onto your tab 1 by Too Many Orders: their number
    is ``arrivals`` (a fixed number, or a law such as ``{0: 2, 1: 2, 2: 1}``), drawn
    independently for each gap between turns (the model's assumption: in play it depends on
    the opponents' boards). The deck is assumed not to run short in these rounds (see
    :func:`p_deck_runs_out`) and the game to go on (5 penalty cards or an empty deck would
    close it); which orders arrive does not matter, only how many.

    **What is exact.** Given the model, every answer is exact (a Markov chain over the tabs,
    each arrival count weighted by its probability). With ``completes=0`` it has a closed
    form: an order on tab t falls off at your turn 5 − t, and an order arriving between your
    turns j and j + 1 (or added after turn j) falls off at turn j + 4, so the expected count is
    (orders on tabs 5 − rounds..4) + max(0, rounds − 4) × (E[arrivals] + extra).

    >>> penalty_dist((0, 0, 2, 1), rounds=2, completes=1)   # turn 2: one of the two on tab 4 falls
    Dist({1: 1})
    >>> penalty_dist((2, 1, 0, 0), rounds=6, arrivals={0: 1, 1: 1}, extra=1).mean()  # 3 + 2 × (1/2 + 1)
    Fraction(6, 1)
    """
    start = _tabs(tabs)
    rounds = _whole(rounds, "rounds", MAX_ROUNDS)
    law = count_law(arrivals, "arrivals", MAX_ARRIVALS)
    completes = _whole(completes, "completes", MAX_COMPLETES)
    extra = _whole(extra, "extra", MAX_ARRIVALS)
    gaps = max(0, rounds - 1)
    most = sum(start) + gaps * max(law) + rounds * extra  # no more penalties than orders ever held
    tab_most = max(*start, max(law) + extra)  # no tab ever holds more (orders only move on or leave)
    bound = min(len(law) ** gaps, (tab_most + 1) ** TABS) * (most + 1)
    if bound > MAX_PENALTY_STATES:
        raise TooBig("arrivals", f"{len(law)} arrival counts over {rounds} turns could reach {bound:,} positions; "
                     f"at most {MAX_PENALTY_STATES:,} are allowed (fewer rounds or arrival counts)")
    weights = _weights(law)
    positions: dict[tuple[tuple[int, ...], int], int] = {(start, 0): 1}  # (tabs, penalties) → weight
    for turn in range(rounds):
        if turn:
            arrived: dict[tuple[tuple[int, ...], int], int] = {}
            for (held, taken), w in positions.items():
                for n, v in weights.items():
                    key = ((held[0] + n, *held[1:]), taken)
                    arrived[key] = arrived.get(key, 0) + w * v
            positions = arrived
        after: dict[tuple[tuple[int, ...], int], int] = {}
        for (held, taken), w in positions.items():
            new, fell = _turn(held, completes, extra)
            key = (new, taken + fell)
            after[key] = after.get(key, 0) + w
        positions = after
    penalties: dict[int, int] = {}
    for (_, taken), w in positions.items():
        penalties[taken] = penalties.get(taken, 0) + w
    return Dist.from_weights(penalties)


def expected_penalties(tabs: tuple[int, ...] | list[int], rounds: int, arrivals: CountLaw = 0, completes: int = 0,
                       extra: int = 0) -> Fraction:
    """The expected number of penalty cards over your next ``rounds`` turns (the model of :func:`penalty_dist`).

    >>> expected_penalties((2, 1, 0, 0), rounds=5, arrivals={0: 1, 1: 1}, completes=1, extra=1)
    Fraction(0, 1)
    """
    return penalty_dist(tabs, rounds, arrivals, completes, extra).mean()


def penalty_table(tabs: tuple[int, ...] | list[int], rounds: int, arrivals: CountLaw = 0, extra: int = 0) -> pd.DataFrame:
    """Expected penalty cards over your next 1..``rounds`` turns, completing nothing and completing one order a
    turn (the model of :func:`penalty_dist`), as exact Fractions.

    >>> penalty_table((1, 1, 0, 0), 4, arrivals=1)["complete nothing"].tolist()
    [Fraction(0, 1), Fraction(0, 1), Fraction(1, 1), Fraction(2, 1)]
    """
    rounds = _whole(rounds, "rounds", MAX_ROUNDS)
    rows = {r: {"complete nothing": expected_penalties(tabs, r, arrivals, 0, extra),
                "complete one a turn": expected_penalties(tabs, r, arrivals, 1, extra)} for r in range(1, rounds + 1)}
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=["complete nothing", "complete one a turn"], dtype=object)
    frame.index.name = "your next turns"
    return frame


# -- the deck running out ----------------------------------------------------------------------

def cards_left_dist(deck_size: int, rounds: int, draws: CountLaw) -> Dist:
    """How many cards are left in a deck of ``deck_size`` after ``rounds`` rounds that each draw ``draws`` cards
    (a fixed number or a law, independent from round to round); 0 once it has run out.

    >>> cards_left_dist(5, 2, {1: 1, 2: 1})
    Dist({1: 1/4, 2: 1/2, 3: 1/4})
    """
    deck_size = _whole(deck_size, "deck_size", MAX_DECK)
    rounds = _whole(rounds, "rounds", MAX_DECK_ROUNDS)
    law = count_law(draws, "draws", MAX_DRAWS_PER_ROUND)
    work = rounds * (deck_size + 1) * len(law)
    if work > MAX_DECK_WORK:
        raise TooBig("rounds", f"{rounds} rounds × {deck_size + 1} deck sizes × {len(law)} draw counts = {work:,} "
                     f"steps; at most {MAX_DECK_WORK:,} are allowed")
    weights = _weights(law)
    total = sum(weights.values())
    left: dict[int, int] = {deck_size: 1}  # cards left → weight (out of total ** rounds)
    for _ in range(rounds):
        after: dict[int, int] = {}
        for n, w in left.items():
            for d, v in (weights.items() if n else [(0, total)]):
                m = max(0, n - d)
                after[m] = after.get(m, 0) + w * v
        left = after
    return Dist.from_weights(left)


def p_deck_runs_out(deck_size: int, rounds: int, draws: CountLaw) -> Fraction:
    """P(the deck is empty within ``rounds`` rounds): the cards drawn total at least ``deck_size``.

    ``draws`` is the number of cards drawn per round (every order that arrives on a tab: the
    extra order of the two-player rule, one per order completed by Too Many Orders), a
    fixed number or a law, independent from round to round (the model's assumption).

    >>> p_deck_runs_out(6, 2, 3), p_deck_runs_out(7, 2, 3)
    (Fraction(1, 1), Fraction(0, 1))
    """
    return cards_left_dist(deck_size, rounds, draws)[0]
