"""Rolls of several dice, counted as multisets with multinomial weights.

Rolling n six-sided dice has 6**n ordered outcomes, but only C(n + 5, 5) distinct
*multisets* (which values came up, ignoring which die showed them). Each multiset
with value counts k1..k6 stands for n! / (k1! ... k6!) ordered rolls: its
multinomial weight. Counting multisets instead of ordered rolls turns 2,176,782,336
rolls of 12 dice into 6,188 classes.

A die is any sequence of faces: ``D6 = (1, 2, 3, 4, 5, 6)``, or coloured faces such
as ``("white", "yellow", "brown", "red", "green", "black")``. Faces may repeat (a
face printed twice is twice as likely).

Example:
    >>> rolls = dict(multisets(2))
    >>> rolls[(3, 4)], rolls[(4, 4)]
    (2, 1)
    >>> sum(rolls.values()) == 6 ** 2
    True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from itertools import combinations_with_replacement
from math import comb, factorial, prod

from .dist import Dist

from ..errors import BadType
from ..validate import check_count, check_size

__all__ = ["D6", "Face", "check_count", "count_vectors", "multinomial", "multisets", "roll"]

Face = Hashable
"""One face of a die: a number, or a colour name for coloured dice."""
D6: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


def _face_counts(faces: Sequence[Face]) -> dict[Face, int]:
    if isinstance(faces, (str, bytes)) or not isinstance(faces, Sequence) or len(faces) == 0:
        raise BadType("faces", "a die is a non-empty sequence of faces, e.g. (1, 2, 3, 4, 5, 6)", faces)
    return dict(Counter(faces))


def multinomial(counts: Sequence[int]) -> int:
    """n! / (k1! k2! ...): the number of orderings of a multiset with these counts.

    >>> multinomial([2, 1])
    3
    """
    if isinstance(counts, (str, bytes)) or not isinstance(counts, Sequence):
        raise BadType("counts", "must be a list of whole numbers, e.g. [2, 1]", counts)
    total = sum(check_count(k, "counts") for k in counts)
    check_size(total, "counts", "items in all", counts, limit=10_000)
    return factorial(total) // prod(factorial(k) for k in counts)


def multisets(n: int, faces: Sequence[Face] = D6) -> Iterator[tuple[tuple[Face, ...], int]]:
    """Every distinct roll of ``n`` identical dice with the number of ordered rolls it stands for.

    Rolls are sorted tuples of faces (in the order the die lists them); weights sum to
    ``len(faces) ** n``.

    >>> [(roll, w) for roll, w in multisets(2, ("H", "T"))]
    [(('H', 'H'), 1), (('H', 'T'), 2), (('T', 'T'), 1)]
    """
    check_count(n)
    counts = _face_counts(faces)
    distinct = list(counts)
    for roll in combinations_with_replacement(distinct, n):
        c = Counter(roll)
        weight = multinomial(list(c.values())) * prod(counts[f] ** k for f, k in c.items())
        yield roll, weight


def count_vectors(n: int, sides: int = 6) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every roll of ``n`` dice numbered 1..sides as a count vector, with its weight.

    ``(0, 0, 1, 1, 0, 0)`` means one 3 and one 4.

    >>> sum(w for _, w in count_vectors(3)) == 6 ** 3
    True
    """
    check_count(n)
    _face_counts(tuple(range(1, sides + 1)))  # the same checks and errors as multisets(n, faces 1..sides)
    check_size(n, "counts", "items in all", [n], limit=10_000)  # as multinomial's, before any work
    factorials = [factorial(k) for k in range(n + 1)]
    for roll in combinations_with_replacement(range(sides), n):  # multisets' order, without its checks per roll
        c = [0] * sides
        for v in roll:
            c[v] += 1
        yield tuple(c), factorials[n] // prod(factorials[k] for k in c)


def roll(*groups: tuple[int, Sequence[Face]] | int) -> Dist:
    """The distribution of the sorted outcome of rolling groups of dice together.

    Each group is ``(n, faces)``; a bare int ``n`` means ``n`` six-sided dice. Mixed
    dice (say, white coffee dice and black flavour dice) are rolled as one pool. The product of the
    groups' distinct rolls may be at most :data:`~coffeegames.validate.MAX_OUTCOMES` (25 dice; 60 are
    refused at once).

    >>> roll(2)[(5, 5)]
    Fraction(1, 36)
    >>> roll((1, ("a", "b")), (1, ("a", "c")))[("a", "a")]
    Fraction(1, 4)
    """
    read = [(group, D6) if isinstance(group, int) and not isinstance(group, bool) else _group(group) for group in groups]
    check_size(prod(_distinct_rolls(n, faces) for n, faces in read), "groups", "distinct rolls (the product over the groups)", groups)
    weights: dict[tuple, int] = {(): 1}
    for n, faces in read:
        merged: dict[tuple, int] = {}
        for part, w in multisets(n, faces):
            for acc, v in weights.items():
                key = tuple(sorted(acc + part, key=_order))
                merged[key] = merged.get(key, 0) + v * w
        weights = merged
    return Dist.from_weights(weights)


def _distinct_rolls(n: int, faces: Sequence[Face]) -> int:
    """C(n + d - 1, n) for ``n`` dice of ``d`` distinct faces; any count over 10**10 is reported as 10**10 + 1
    (C(2m, m) passes it at m = 20), so a size check never waits on a huge binomial."""
    sides = len(_face_counts(faces))
    fewest = min(check_count(n), sides - 1)
    return comb(n + sides - 1, fewest) if fewest <= 20 else 10**10 + 1


def _group(group: object) -> tuple[int, Sequence[Face]]:
    if not (isinstance(group, tuple) and len(group) == 2):
        raise BadType("group", "a group of dice is (number, faces) or a number of d6", group)
    return check_count(group[0]), group[1]


def _order(face: Face) -> tuple:
    return (0, face, "") if isinstance(face, (int, float)) else (1, 0, str(face))
