"""The chance law of a VivaJava roll: its outcomes, counted, listed, sampled and checked.

A roll has parts: ``white`` coffee dice (the active player's), ``own`` flavour dice (the
flavour dice they hold, which they must roll) and, for each other player, the flavour
dice they offer (``offered``: ((player, dice), ...)). An outcome (:class:`~.actions.Rolled`)
gives each part's faces as a sorted multiset; its exact probability is the product of the
parts' multinomial weights over ``6 ** dice``.

Such a node can have over a million outcomes (5 coffee + 5 flavour dice + 2 offered:
1,333,584) and take seconds to list, so :func:`roll_outcome_count` counts without listing,
and :func:`sample_roll` and :func:`is_possible_roll` never list: the State's
``chance_outcome_count``, ``sample_chance`` and ``is_legal_outcome`` use them, and its
``chance_outcomes()`` refuses a roll of more than ``MAX_OUTCOMES`` (100,000) outcomes with
``TooBig`` (:func:`roll_outcomes` lists one on purpose).

Example:
    >>> roll_outcome_count(5), roll_outcome_count(5, 5, ((1, 2),))
    (252, 1333584)
    >>> is_possible_roll(Rolled(white=("red", "joker")), 2)
    False
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb, prod
from typing import Any, cast

import numpy as np

from ..engine.actions import unchecked
from ..errors import BadType
from ..exact import multisets
from ..exact.draws import _draws_below
from ..validate import check_count, check_instance, check_size
from .actions import Rolled
from .dice import COFFEE_DIE, FLAVOUR_DIE, MOST_DICE

__all__ = ["CACHED_OUTCOMES", "is_possible_roll", "roll_outcome_count", "roll_outcomes", "sample_roll"]


@lru_cache(maxsize=None)
def _group(n: int, flavour: bool) -> tuple[tuple[tuple[str, ...], int], ...]:
    return tuple((cast(tuple[str, ...], faces), weight) for faces, weight in multisets(n, FLAVOUR_DIE if flavour else COFFEE_DIE))


def _check_roll(white: Any, own: Any, offered: Any) -> None:
    """A roll's sizes: whole numbers of dice, ``offered`` a list of (player, dice) pairs, at most every die of the game."""
    check_count(white, "white", MOST_DICE)
    check_count(own, "own", MOST_DICE)
    if isinstance(offered, (str, bytes)) or not isinstance(offered, Sequence) or not all(
            isinstance(pair, Sequence) and len(pair) == 2 for pair in offered[:MOST_DICE]):
        raise BadType("offered", "must be a list of (player, flavour dice) pairs", offered)
    check_size(len(offered), "offered", "players", offered, limit=MOST_DICE)
    check_size(white + own + sum(check_count(k, "offered", MOST_DICE) for _, k in offered), "white", "dice rolled in all",
               white, limit=MOST_DICE)


def roll_outcome_count(white: int, own: int = 0, offered: Sequence[tuple[int, int]] = ()) -> int:
    """How many distinct outcomes a roll has (multisets per part, multiplied), without listing them.

    >>> roll_outcome_count(3, 2, ((1, 1), (2, 1)))
    42336
    """
    _check_roll(white, own, offered)
    return prod(comb(n + 5, 5) for n in (white, own, *(k for _, k in offered)))


CACHED_OUTCOMES = 20_000
"""Rolls with at most this many outcomes keep their list (64 of them at most); larger lists are built each time
and never kept (the largest has 1,333,584 outcomes and takes about 0.9 GB)."""


def roll_outcomes(white: int, own: int = 0, offered: Sequence[tuple[int, int]] = ()) -> tuple[tuple[Rolled, Fraction], ...]:
    """Every outcome of rolling ``white`` coffee dice, ``own`` flavour dice and each other player's ``offered`` flavour dice.

    Probabilities are exact multinomial Fractions summing to 1 (see :func:`roll_outcome_count`
    for the size first: it is a product over the parts; lists over :data:`CACHED_OUTCOMES` are
    not cached).

    >>> outcomes = roll_outcomes(2, 1)
    >>> len(outcomes), sum(p for _, p in outcomes)
    (126, Fraction(1, 1))
    >>> dict(outcomes)[Rolled(white=("red", "red"), own=("joker",))]
    Fraction(1, 216)
    """
    _check_roll(white, own, offered)
    offered = tuple(offered)
    if roll_outcome_count(white, own, offered) <= CACHED_OUTCOMES:
        return _cached_outcomes(white, own, offered)
    return _outcomes(white, own, offered)


@lru_cache(maxsize=64)
def _cached_outcomes(white: int, own: int, offered: tuple[tuple[int, int], ...]) -> tuple[tuple[Rolled, Fraction], ...]:
    return _outcomes(white, own, offered)


def _outcomes(white: int, own: int, offered: tuple[tuple[int, int], ...]) -> tuple[tuple[Rolled, Fraction], ...]:
    groups = [_group(white, False), _group(own, True)] + [_group(n, True) for _, n in offered]
    total = 6 ** (white + own + sum(n for _, n in offered))
    owners = [q for q, _ in offered]
    return tuple(  # faces listed in face order, owners in the state's player order: no checks to run again
        (_sorted_roll(combo[0][0], combo[1][0], tuple(zip(owners, (c[0] for c in combo[2:])))), Fraction(prod(c[1] for c in combo), total))
        for combo in product(*groups)
    )


_COFFEE_FACES, _FLAVOUR_FACES = frozenset(COFFEE_DIE), frozenset(FLAVOUR_DIE)


def is_possible_roll(outcome: Any, white: int, own: int = 0, offered: Sequence[tuple[int, int]] = ()) -> bool:
    """Whether ``outcome`` is a :class:`~.actions.Rolled` this roll can show (right dice count and faces per part)."""
    if not isinstance(outcome, Rolled):
        return False
    if len(outcome.white) != white or not _COFFEE_FACES.issuperset(outcome.white):  # a Rolled holds strings only
        return False
    if len(outcome.own) != own or not _FLAVOUR_FACES.issuperset(outcome.own):
        return False
    if len(outcome.offered) != len(offered):
        return False
    return not offered or all(q == p and len(f) == n and _FLAVOUR_FACES.issuperset(f) for (q, f), (p, n) in zip(outcome.offered, offered))


def sample_roll(rng: np.random.Generator, white: int, own: int = 0, offered: Sequence[tuple[int, int]] = ()) -> Rolled:
    """One outcome drawn with its exact probability: each die rolled once, nothing listed.

    >>> sample_roll(np.random.default_rng(0), 2, 1)
    Rolled(white=('red', 'black'), own=('red',), offered=())
    """
    check_instance(rng, np.random.Generator, "rng", "a numpy Generator (numpy.random.default_rng(seed))")
    _check_roll(white, own, offered)
    return _sample_roll(rng, white, own, offered)


def _sample_roll(rng: np.random.Generator, white: int, own: int, offered: Sequence[tuple[int, int]]) -> Rolled:
    """:func:`sample_roll` without its checks (a State's own counts)."""
    draws = _draws_below(rng, 6, white + own + sum([n for _, n in offered]) if offered else white + own)  # rng.integers(0, 6, size=...)
    if not offered:
        if not own:  # (coffee dice only)
            draws.sort()
            return _own_roll(tuple(draws), ())
        return _own_roll(tuple(sorted(draws[:white])), tuple(sorted(draws[white:])))
    coffee_draws, flavour_draws = tuple(sorted(draws[:white])), tuple(sorted(draws[white : white + own]))
    coffee, flavour = _coffee_faces(coffee_draws), _flavour_faces(flavour_draws)
    parts, at = [], white + own
    for q, n in offered:
        parts.append((q, _flavour_faces(tuple(sorted(draws[at : at + n])))))
        at += n
    pairs = tuple(sorted(parts, key=_player))
    if not all(type(q) is int for q, _ in pairs):
        return Rolled(coffee, flavour, pairs)  # the checks name what is wrong
    return _sorted_roll(coffee, flavour, pairs)


@lru_cache(maxsize=1 << 13)
def _coffee_faces(draws: tuple[int, ...]) -> tuple[str, ...]:
    """The coffee dice's faces of sorted draws (face indices): face order is index order, so they come sorted."""
    return tuple([COFFEE_DIE[v] for v in draws])


@lru_cache(maxsize=1 << 13)
def _flavour_faces(draws: tuple[int, ...]) -> tuple[str, ...]:
    """:func:`_coffee_faces` for flavour dice."""
    return tuple([FLAVOUR_DIE[v] for v in draws])


@lru_cache(maxsize=1 << 13)
def _own_roll(coffee: tuple[int, ...], flavour: tuple[int, ...]) -> Rolled:
    """The :class:`~.actions.Rolled` of sorted draws (face indices) of the roller's own dice, with nothing offered: each
    made once (a Rolled never changes)."""
    return _sorted_roll(_coffee_faces(coffee), _flavour_faces(flavour), ())


def _player(pair: tuple[int, Any]) -> int:
    return pair[0]


def _sorted_roll(white: tuple[str, ...], own: tuple[str, ...], offered: tuple[tuple[int, tuple[str, ...]], ...]) -> Rolled:
    """The :class:`~.actions.Rolled` of faces already sorted (in face order) and pairs already in player order,
    without ``Rolled``'s checks: what ``Rolled(white, own, offered)`` makes, for :func:`sample_roll`'s own draws."""
    return unchecked(Rolled, {"white": white, "own": own, "offered": offered})
