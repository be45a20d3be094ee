"""Position codes and residues for the cup-test tables (:mod:`.cup_layers`): the number crunching they share.

A position ``(bag, cup, tray)`` is one int64 in mixed radix (:func:`code_radices`, :func:`code_digits`); a layer's codes are
sorted once (:func:`sorted_unique`, :func:`row_numbers`); exact values are carried modulo :data:`PRIMES`.

Example:
    >>> from coffeegames.roaster.rules import Rules
    >>> from coffeegames.roaster.cup_solver import Solver
    >>> solver = Solver(Rules(card="Zambia Kasama AA"), (), ["bean3", "hard"], 3, None)
    >>> code_radices(solver, [((3, 2), (0, 0), 0)])  # bag digits, cup digits, tray: powers of two
    ([4, 4, 4, 4, 4], 1024)
    >>> fits(solver, [((3, 2), (0, 0), 0)]), PRIMES[0] == 2**31 - 1
    (True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import cast

import numpy as np

from ..errors import BadArgument
from ..validate import Checker, check_instance
from .cup_solver import MASK, Counts, Solver
from .data import CUP_SPACES

__all__ = ["PRIMES", "checked_roots", "code_digits", "code_radices", "fits", "row_numbers", "scatter_add", "sorted_unique"]

def _prime(n: int) -> bool:
    if n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):  # deterministic below 3.2e9
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _primes(count: int) -> list[int]:
    out: list[int] = []
    n = 2**31 - 1
    while len(out) < count:
        if _prime(n):
            out.append(n)
        n -= 2
    return out


PRIMES = _primes(64)
"""The moduli: the largest primes below 2**31 (a product of two residues fits an int64)."""

def sorted_unique(codes: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted distinct codes (each below ``2**bits``), with what tells each of ``codes`` its row among them
    (:func:`row_numbers`): the sort's order and where a new code starts in it. No search.

    Where code and index fit one int64 together they are sorted as one number (numpy's plain sort is several times
    faster than its argsort); else by an argsort."""
    shift = max(1, len(codes).bit_length())
    if bits + shift <= 62:
        keyed = np.sort((codes << shift) | np.arange(len(codes), dtype=np.int64))
        ordered, order = keyed >> shift, keyed & ((1 << shift) - 1)
    else:
        order = np.argsort(codes)
        ordered = codes[order]
    new = np.concatenate(([True], ordered[1:] != ordered[:-1])) if len(codes) else np.zeros(0, dtype=bool)
    return ordered[new], order, new


def row_numbers(order: np.ndarray, new: np.ndarray) -> np.ndarray:
    """Each sorted code's row among the distinct ones, in the codes' first order (from :func:`sorted_unique`)."""
    rows = np.empty(len(order), dtype=np.int64)
    rows[order] = np.cumsum(new) - 1
    return rows


def scatter_add(into: np.ndarray, rows: np.ndarray, add: np.ndarray) -> None:
    """``into[rows] += add`` with repeated rows summed, exactly: each row gets at most two terms a kind (one parent by a
    cup move and one by a tray move, or a Choice pair's two keeps), each below 64 p < 2**37 (a count times a residue):
    their float64 sums stay below 2**53, so they are exact, and ``into`` stays far within an int64."""
    for j in range(into.shape[1]):
        into[:, j] += np.bincount(rows, weights=add[:, j].astype(np.float64), minlength=len(into)).astype(np.int64)


def fits(solver: Solver, roots: Sequence[tuple[Counts, Counts, int]]) -> bool:
    """Whether a position code of these roots fits an int64."""
    return code_radices(solver, checked_roots(solver, roots))[1] < 2**62


def checked_roots(solver: Solver, roots: Sequence[tuple[Counts, Counts, int]]) -> list[tuple[Counts, Counts, int]]:
    """``roots`` as a list, checked once at the boundary (never inside the solve): else the library's error naming it."""
    check_instance(solver, Solver, "solver", "a cup-test Solver (coffeegames.roaster.cup_solver)")
    check = Checker("", BadArgument)
    k = len(solver.kinds)

    def plain(value: object) -> bool:  # quick for the usual roots (a round has thousands); else the checks name the fault
        return type(value) is tuple and len(value) == k and all(type(n) is int and 0 <= n <= MASK for n in value)

    if isinstance(roots, (list, tuple)) and roots and all(
            type(r) is tuple and len(r) == 3 and plain(r[0]) and plain(r[1]) and type(r[2]) is int and 0 <= r[2] <= MASK
            for r in roots):
        return list(roots)

    def counts(value: object, where: str) -> Counts:
        return check.sequence(value, where, lambda n, w: check.whole(n, w, 0, MASK), k, k)

    def root(value: object, where: str) -> tuple[Counts, Counts, int]:
        bag, cup, tray = cast(tuple[object, object, object], check.sequence(value, where, None, 3, 3))
        return counts(bag, f"{where}[0]"), counts(cup, f"{where}[1]"), check.whole(tray, f"{where}[2]", 0, MASK)

    return list(check.sequence(roots, "roots", root, 1))


def code_radices(solver: Solver, roots: Sequence[tuple[Counts, Counts, int]]) -> tuple[list[int], int]:
    """Each digit's radix (bag counts, cup counts, tray) and their product: powers of two where they fit 62 bits (a
    digit is then a shift and a mask, not an int64 division), else the smallest radices."""
    k = len(solver.kinds)
    bag = [max(r[0][i] for r in roots) + 1 for i in range(k)]
    cup = [min(CUP_SPACES, max(r[0][i] + r[1][i] for r in roots)) + 1 for i in range(k)]
    radices = bag + cup + [max(solver.tray_spaces, max(r[2] for r in roots)) + 1]
    wide = [1 << (r - 1).bit_length() for r in radices]
    if prod(wide) < 2**62:
        return wide, prod(wide)
    return radices, prod(radices)


def code_digits(codes: np.ndarray, strides: np.ndarray, radices: list[int]) -> np.ndarray:
    """The digits of ``codes`` (int8, one column a digit)."""
    out = np.empty((len(codes), len(radices)), dtype=np.int8)
    if all(r & (r - 1) == 0 for r in radices):
        for j, (s, r) in enumerate(zip(strides.tolist(), radices)):
            out[:, j] = (codes >> (s.bit_length() - 1)) & (r - 1)
    else:
        for j, (s, r) in enumerate(zip(strides.tolist(), radices)):
            out[:, j] = codes // s % r
    return out
