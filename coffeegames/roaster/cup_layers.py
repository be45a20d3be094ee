"""The cup test's exact solver, vectorised: every position of a layer at once, in numpy, exact by modular residues.

It plays the rules of :class:`.cup_solver.Solver` (the tray while it has room, Choice, Exchange at a full cup,
Sweetness, the Extra Bean), best decisions first; among equal values the cup goes first and Choice keeps the kind
that comes first. Many positions at a time:

* Positions ``(bag, cup, tray)`` are coded as one int64 in mixed radix (one digit a kind for the bag, one for the
  cup, one for the tray; :mod:`.cup_codes`): a draw to the cup or the tray is one subtraction and addition of strides.
* A draw always takes one token out of the bag (Choice draws two and returns one), so the positions fall into
  *layers* by the number of tokens left in the bag; a layer's values need only the next layer's. The positions
  reachable from the roots are listed forward, layer by layer (one sort a layer, which also tells each move the row
  it leads to), then valued backward, a layer at a time, each a handful of array operations per kind of token. Many
  roots share one table: the cup tests after every draw of a round (:func:`.round.one_more_round`) are one solve.
* Exact values: each value is a rational whose denominator divides a bound known per layer (``Layers.bounds``,
  from the draw sizes); it is carried modulo several primes below 2**31 (int64 products never overflow) and
  rebuilt by the Chinese remainder theorem, with enough primes that the rebuilt numerator is the only one in
  range. A float64 copy of every value decides which move is best; where two moves' floats are within
  ``TOLERANCE`` (far above the float error), the residues decide: equal residues are equal values (a tie: the
  rules above), else both values are rebuilt exactly and compared. So every decision is exact.
* The exact score distribution (:meth:`Layers.dist`) spreads the probability forward under the stored decisions,
  again as residues. With ``lookup`` every position's value stays, for :meth:`Layers.value` (single decisions).

Full cups with Exchange unused are valued by :meth:`.cup_solver.Solver.full` (memoised), one Python call each.

Without a distribution or lookup, plain draws (no Choice, no Exchange) from roots that share their cup and tray are
solved another way, on dense boxes (:mod:`.cup_boxes`: no position codes searched, exact int64 values), with the same
values and position counts. ``tests/roaster_oracle.py``, a plain memoised search written from the rules, checks both.

Example:
    >>> from coffeegames.roaster.rules import Rules
    >>> from coffeegames.roaster.cup_solver import Solver
    >>> solver = Solver(Rules(card="Zambia Kasama AA"), (), ["bean3", "hard"], 3, None)
    >>> bag, none = solver.counts(["bean3"] * 3 + ["hard"] * 2), solver.counts([])
    >>> table = Layers(solver, [(bag, none, 0)], lookup=True)
    >>> table.values(), table.value(bag, none, 0), table.positions  # bean3s in, hard beans on the tray: 1 - 3 - 5
    ([Fraction(-7, 1)], Fraction(-7, 1), 55)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import comb, lcm, prod

import numpy as np

from ..engine.cancel import checkpoint
from ..exact import Dist
from ..errors import BadArgument, TooBig
from ..validate import Checker, check_count
from . import cup_boxes
from .cup_codes import PRIMES, checked_roots, code_digits, code_radices, fits, row_numbers, scatter_add, sorted_unique
from .cup_solver import Counts, OverBudget, Solver

__all__ = ["Layers", "PRIMES", "TOLERANCE", "fits"]

TOLERANCE = 1e-7
"""Two moves whose float values differ by at most this are compared exactly (float errors are below 1e-10)."""


MAX_SCORE = 200
"""A bound on |score| of any cup (checked), for the number of primes."""


class _Layer:
    """One layer's positions (sorted codes) and what the backward pass leaves for the forward one."""

    def __init__(self, codes: np.ndarray, solver: Solver, strides: np.ndarray, radices: list[int], k: int) -> None:
        self.codes = codes
        digits = code_digits(codes, strides, radices)  # int8: counts ≤ 63, a tenth of the memory of int64
        self.bag, self.cup, self.tray = digits[:, :k], digits[:, k:2 * k], digits[:, 2 * k]
        size = np.zeros(len(codes), dtype=np.int16)  # the cup's tokens, a column at a time (``sum(1)`` on rows this
        for j in range(k):                            # narrow is three times slower)
            size += self.cup[:, j]
        total = int(self.bag[0].sum()) if len(codes) else 0
        self.full, self.choice, self.tray_ok = solver.step(size, total, self.tray)
        self.terminal = self.full | (total == 0)
        self.plain = ~self.terminal & ~self.choice
        self.total = total
        self.value: np.ndarray = np.zeros(0)
        self.residues: np.ndarray = np.zeros((0, 0), dtype=np.int64)
        self.later: dict[tuple[int, int], np.ndarray] = {}  # Choice: (a, b) → keep b (over a)
        self.moves: dict[tuple[str, int], np.ndarray] = {}  # (move, kind) → the rows it leads to below (Layers._link)
        self.sources: tuple[list[tuple[_Layer | None, tuple[str, int], int]], np.ndarray, np.ndarray] | None = None
        # (the moves that listed this layer, and the order of its sort: Layers._link turns them into their ``moves``)
        self.children: list[np.ndarray] = []  # with ``dist``: per kind, a Choice row's child when it goes to the cup
        self.dest: list[np.ndarray] = []  # with ``dist``: per kind, the best move's row (plain positions, in order)

    def child_rows(self, move: tuple[str, int], where: np.ndarray) -> np.ndarray:
        """The rows in the layer below that ``move`` (("plain" / "choice" / "tray", kind)) leads to from the rows
        ``where`` of its own (a mask over those rows, in order); 0 elsewhere (a row never weighed)."""
        out = np.zeros(len(where), dtype=np.int64)
        out[where] = self.moves[move]
        return out

    @classmethod
    def empty(cls, layer: _Layer) -> _Layer:
        """What is left of a layer once the layer above is solved, when no distribution is asked: nothing (memory)."""
        out = cls.__new__(cls)
        out.codes, out.total = layer.codes[:0], layer.total
        return out


class Layers:
    """The positions reachable from ``roots`` (count tuples ``(bag, cup, tray)``, about to draw), solved exactly.

    Raises :class:`.cup_solver.OverBudget` if they are more than ``max_states`` (counted before any value). With
    ``dist`` (more primes) :meth:`dist` gives the score distribution too; with ``lookup`` :meth:`value` gives any
    position's. The positions are listed and counted here,
    valued on the first :meth:`values` or :meth:`dist` (a caller weighing tables of several sizes solves only the one
    it keeps).
    """

    def __init__(self, solver: Solver, roots: Sequence[tuple[Counts, Counts, int]], max_states: int | None = None,
                 dist: bool = False, lookup: bool = False) -> None:
        self.solver, self.roots, self.with_dist = solver, checked_roots(solver, roots), Checker("", BadArgument).flag(dist, "dist")
        self.lookup = Checker("", BadArgument).flag(lookup, "lookup")
        if max_states is not None:
            check_count(max_states, "max_states")
        k = self.k = len(solver.kinds)
        radices, size = code_radices(solver, self.roots)
        if size >= 2**62:
            raise TooBig("roots", "have more positions than an int64 code can number", roots)
        self.radices, self.bits = radices, (size - 1).bit_length()
        strides = [1]
        for r in radices[:-1]:
            strides.append(strides[-1] * r)
        self.strides = np.array(strides, dtype=np.int64)
        self.bag_strides, self.cup_strides, self.tray_stride = strides[:k], strides[k:2 * k], strides[2 * k]
        self.root_codes = [self.code(*r) for r in self.roots]
        self.layers: dict[int, _Layer] = {}
        self.kept: dict[int, tuple[float, np.ndarray]] = {}  # each root's (float value, residues)
        self.exact: list[Fraction] | None = None  # the roots' values, when found on boxes (:mod:`.cup_boxes`)
        if not self.with_dist and not self.lookup and cup_boxes.applies(solver, self.roots, MAX_SCORE):
            self.exact, self.positions = cup_boxes.solve(solver, self.roots, max_states, MAX_SCORE)
            return
        self._list(max_states)
        self.positions = sum(len(layer.codes) for layer in self.layers.values())
        self._bounds()
        self.solved = False

    def code(self, bag: Counts, cup: Counts, tray: int) -> int:
        return sum(n * s for n, s in zip(bag, self.bag_strides)) + sum(n * s for n, s in zip(cup, self.cup_strides)) + \
            tray * self.tray_stride

    # -- forward: the reachable positions ---------------------------------------------------------------------
    def _list(self, max_states: int | None) -> None:
        """List the layers from the roots down, each by one sort of the codes its moves lead to (kept: valuing the
        table, :meth:`_link` turns that sort into each move's rows, no search)."""
        pending: dict[int, list[tuple[np.ndarray, _Layer | None, tuple[str, int]]]] = {}
        for (bag, _, _), code in zip(self.roots, self.root_codes):
            pending.setdefault(sum(bag), []).append((np.array([code], dtype=np.int64), None, ("root", 0)))
        count = 0
        for total in range(max(pending), -1, -1):
            checkpoint()  # (a cancelled exact solve stops here: coffeegames.engine.cancel)
            if total not in pending:
                continue
            pieces = pending.pop(total)
            listed, order, new = sorted_unique(np.concatenate([piece for piece, _, _ in pieces]), self.bits)
            layer = _Layer(listed, self.solver, self.strides, self.radices, self.k)
            layer.sources = ([(parent, move, len(piece)) for piece, parent, move in pieces], order, new)
            self.layers[total] = layer
            count += len(layer.codes)
            if max_states is not None and count > max_states:
                raise OverBudget
            if not total:
                continue
            nxt = pending.setdefault(total - 1, [])
            for o in range(self.k):
                has = layer.bag[:, o] > 0
                step = self.cup_strides[o] - self.bag_strides[o]
                nxt.append((layer.codes[has & layer.plain] + step, layer, ("plain", o)))
                nxt.append((layer.codes[has & layer.choice] + step, layer, ("choice", o)))
                to_tray = self.tray_stride - self.bag_strides[o]
                nxt.append((layer.codes[has & layer.tray_ok] + to_tray, layer, ("tray", o)))

    def _link(self, layer: _Layer) -> None:
        """Give each move into ``layer`` the rows it leads to (``moves`` of the layer above), from the sort that listed
        ``layer``: only for a table being solved."""
        if layer.sources is None:
            return
        pieces, order, new = layer.sources
        ends = np.cumsum([n for _, _, n in pieces])[:-1]
        for (parent, move, _), found in zip(pieces, np.split(row_numbers(order, new), ends)):
            if parent is not None:  # (a root has none)
                parent.moves[move] = found
        layer.sources = None

    def _bounds(self) -> None:
        """``bounds[T]``: a multiple of the denominator of every value in layer T; the primes to carry."""
        bounds: dict[int, int] = {}
        below = 1
        for total in sorted(self.layers):
            layer = self.layers[total]
            parts = [1]
            if layer.plain.any():
                parts.append(total * below)
            if layer.choice.any():
                parts.append(total * (total - 1) * below)
            if self.solver.exchange and layer.full.any():
                parts.append(comb(total + 2, 3) if total + 2 >= 3 else 1)
            bounds[total] = below = lcm(*parts)
        self.bounds = bounds
        # probabilities: reaching layer T from a root multiplies denominators by the layers above
        reach, mass = 1, {}
        for total in sorted(self.layers, reverse=True):
            mass[total] = reach
            layer = self.layers[total]
            reach *= total * (total - 1) if layer.choice.any() else max(total, 1)
        self.mass_bound = reach * lcm(*(comb(t + 2, 3) for t in self.layers if t + 2 >= 3)) if self.solver.exchange else reach
        need = max(2 * MAX_SCORE * max(bounds.values()), 2 * self.mass_bound * len(self.roots) if self.with_dist else 0) + 1
        count = 1
        while prod(PRIMES[:count]) <= need:
            count += 1
        if count > len(PRIMES):
            raise ValueError("the cup test needs more primes than PRIMES holds")
        self.primes = PRIMES[:count]
        self.modulus = prod(self.primes)
        self.p = np.array(self.primes, dtype=np.int64)

    # -- residues ---------------------------------------------------------------------------------------------
    def _residues(self, values: Sequence[Fraction]) -> np.ndarray:
        return np.array([[v.numerator % p * pow(v.denominator, -1, p) % p for p in self.primes] for v in values],
                        dtype=np.int64).reshape(len(values), len(self.primes))

    def _rebuild(self, residues: np.ndarray, bound: int) -> int:
        """The integer ``value × bound`` from a value's residues (CRT, symmetric range)."""
        m, x = self.modulus, 0
        for r, p in zip(residues.tolist(), self.primes):
            scaled = r * bound % p
            q = m // p
            x = (x + scaled * q * pow(q, -1, p)) % m
        return x - m if x > m // 2 else x

    def _later(self, below: _Layer, ia: np.ndarray, ib: np.ndarray, bound: int, ok: np.ndarray) -> np.ndarray:
        """Where ``ok``: whether child ``ib`` is worth more than child ``ia`` (rows of ``below``), exactly."""
        va, vb = below.value[ia], below.value[ib]
        out = ok & (vb > va + TOLERANCE)
        near = np.flatnonzero(ok & (np.abs(vb - va) <= TOLERANCE))
        if len(near):
            ra, rb = below.residues[ia[near]], below.residues[ib[near]]
            differ = near[(ra != rb).any(1)]
            for row in differ.tolist():
                out[row] = self._rebuild(below.residues[ib[row]], bound) > self._rebuild(below.residues[ia[row]], bound)
        return out

    # -- backward: the values ---------------------------------------------------------------------------------
    def _solve(self) -> None:
        if self.solved:
            return
        p = self.p
        for total in sorted(self.layers):
            checkpoint()
            layer = self.layers[total]
            m = len(layer.codes)
            value = np.zeros(m)
            residues = np.zeros((m, len(self.primes)), dtype=np.int64)
            self._terminal(layer, value, residues)
            below = self.layers.get(total - 1)
            if below is not None and (layer.plain.any() or layer.choice.any()):
                self._link(below)
                bound = self.bounds[total - 1]
                # no reduction modulo p inside the sums: at most T(T-1) < 2**12 times a residue < 2**31
                rows = np.flatnonzero(layer.plain)
                if len(rows):
                    acc_v, acc_r = np.zeros(len(rows)), np.zeros((len(rows), len(self.primes)), dtype=np.int64)
                    tray_ok = layer.tray_ok[rows]
                    counts = np.take(layer.bag, rows, axis=0).astype(np.int64)
                    for o in range(self.k):
                        n = counts[:, o]
                        best = layer.child_rows(("plain", o), n > 0)
                        ok = tray_ok & (n > 0)
                        if ok.any():
                            tray_idx = layer.child_rows(("tray", o), ok)
                            later = self._later(below, best, tray_idx, bound, ok)
                            best = np.where(later, tray_idx, best)
                        if self.with_dist:
                            layer.dest.append(best)
                        acc_v += n * below.value[best]
                        acc_r += n[:, None] * np.take(below.residues, best, axis=0)
                    value[rows] = acc_v / total
                    inv = np.array([pow(total, -1, int(q)) for q in self.primes], dtype=np.int64)
                    residues[rows] = acc_r % p * inv % p
                rows = np.flatnonzero(layer.choice)
                if len(rows):
                    acc_v, acc_r = np.zeros(len(rows)), np.zeros((len(rows), len(self.primes)), dtype=np.int64)
                    n = np.take(layer.bag, rows, axis=0).astype(np.int64)
                    child = [layer.child_rows(("choice", o), n[:, o] > 0) for o in range(self.k)]
                    if self.with_dist:
                        layer.children = child
                    for a in range(self.k):
                        ia = child[a]
                        w = n[:, a] * (n[:, a] - 1)
                        acc_v += w * below.value[ia]
                        acc_r += w[:, None] * np.take(below.residues, ia, axis=0)
                        for b in range(a + 1, self.k):
                            w = 2 * n[:, a] * n[:, b]
                            ok = w > 0
                            if not ok.any():
                                continue
                            ib = child[b]
                            keep_b = self._later(below, ia, ib, bound, ok)
                            later = np.zeros(m, dtype=bool)
                            later[rows] = keep_b
                            layer.later[(a, b)] = later
                            best = np.where(keep_b, ib, ia)
                            acc_v += w * below.value[best]
                            acc_r += w[:, None] * np.take(below.residues, best, axis=0)
                    value[rows] = acc_v / (total * (total - 1))
                    inv = np.array([pow(total * (total - 1), -1, int(q)) for q in self.primes], dtype=np.int64)
                    residues[rows] = acc_r % p * inv % p
            layer.value, layer.residues, layer.moves = value, residues, {}
            for (bag, _, _), code in zip(self.roots, self.root_codes):
                if sum(bag) == total:
                    i = self._find(code, total)
                    self.kept[code] = (float(value[i]), residues[i].copy())
            if not self.with_dist and not self.lookup and below is not None:  # the layer below is no longer needed
                self.layers[total - 1] = _Layer.empty(below)
        self.solved = True

    def _scores(self, layer: _Layer, rows: np.ndarray, by: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
        """The scores of the cups at ``rows`` of ``layer`` (each distinct cup scored once); ``by``: another function of
        many cups than the score (``Solver.parts_many``)."""
        cups = (layer.codes[rows] // self.cup_strides[0]) % (self.tray_stride // self.cup_strides[0])
        order = np.argsort(cups)
        sorted_cups = cups[order]
        first = np.concatenate(([True], sorted_cups[1:] != sorted_cups[:-1]))
        scores = (by or self.solver.score_many)(np.take(layer.cup, rows[order[first]], axis=0))
        if by is None and len(scores) and np.abs(scores).max() > MAX_SCORE:
            raise ValueError("a cup scores beyond MAX_SCORE")
        out = np.empty(len(rows), dtype=np.int64)
        out[order] = scores[np.cumsum(first) - 1]
        return out

    def _terminal(self, layer: _Layer, value: np.ndarray, residues: np.ndarray) -> None:
        solver = self.solver
        rows = np.flatnonzero(layer.terminal)
        if not len(rows):
            return
        exchange = solver.exchange & layer.full[rows]
        scored = rows[~exchange]
        if len(scored):
            s = self._scores(layer, scored)
            value[scored] = s
            residues[scored] = s[:, None] % self.p
        swapped = rows[exchange]
        if len(swapped):
            found = [solver.full(tuple(b), tuple(c))[0]
                     for b, c in zip(layer.bag[swapped].tolist(), layer.cup[swapped].tolist())]
            value[swapped] = [float(f) for f in found]
            residues[swapped] = self._residues(found)

    # -- answers ----------------------------------------------------------------------------------------------
    def _find(self, code: int, total: int) -> int:
        layer = self.layers[total]
        i = int(np.searchsorted(layer.codes, code))
        assert layer.codes[i] == code
        return i

    def value(self, bag: Counts, cup: Counts, tray: int) -> Fraction | None:
        """The exact value of any position of the table (about to draw), None if it is not one of them. Needs
        ``lookup=True`` (every layer kept)."""
        if not self.lookup:
            raise ValueError("Layers(..., lookup=True) keeps every position's value")
        digits = (*bag, *cup, tray)
        layer = self.layers.get(sum(bag))
        if layer is None or len(digits) != len(self.radices) or not all(0 <= n < r for n, r in zip(digits, self.radices)):
            return None
        code = self.code(bag, cup, tray)
        i = int(np.searchsorted(layer.codes, code))
        if i == len(layer.codes) or layer.codes[i] != code:
            return None
        self._solve()
        bound = self.bounds[sum(bag)]
        return Fraction(self._rebuild(self.layers[sum(bag)].residues[i], bound), bound)

    def values(self) -> list[Fraction]:
        """Each root's exact value (expected score under the best play)."""
        if self.exact is not None:
            return list(self.exact)
        self._solve()
        out = []
        for (bag, _, _), code in zip(self.roots, self.root_codes):
            bound = self.bounds[sum(bag)]
            approx, residues = self.kept[code]
            exact = Fraction(self._rebuild(residues, bound), bound)
            if abs(float(exact) - approx) > 1e-6:
                raise AssertionError("cup-test residues and floats disagree")
            out.append(exact)
        return out

    def dist(self, weights: Sequence[Fraction] | None = None, by: Callable[[np.ndarray], np.ndarray] | None = None) -> Dist:
        """The exact score distribution from the roots under the best decisions: each root with its probability in
        ``weights`` (whose denominators divide the number of roots; default: equally likely). Needs ``dist=True``.
        ``by``: the distribution of another function of the cups made than their score (``Solver.parts_many``)."""
        if not self.with_dist:
            raise ValueError("Layers(..., dist=True) carries enough primes for the distribution")
        self._solve()
        solver, p = self.solver, self.p
        if weights is None:
            weights = [Fraction(1, len(self.roots))] * len(self.roots)
        mass = {t: np.zeros((len(layer.codes), len(self.primes)), dtype=np.int64) for t, layer in self.layers.items()}
        w = self._residues(weights)
        for (bag, _, _), code, r in zip(self.roots, self.root_codes, w):
            total = sum(bag)
            i = self._find(code, total)
            mass[total][i] = (mass[total][i] + r) % p
        final: dict[int, np.ndarray] = {}

        def add(scores: np.ndarray, masses: np.ndarray) -> None:
            for s in np.unique(scores).tolist():
                got = masses[scores == s].sum(0) % p
                final[s] = (final.get(s, np.zeros(len(self.primes), dtype=np.int64)) + got) % p

        for total in sorted(self.layers, reverse=True):
            layer, here = self.layers[total], mass[total]
            rows = np.flatnonzero(layer.terminal & here.any(1))
            if len(rows):
                exchange = rows[solver.exchange & layer.full[rows]]
                plain = rows[~(solver.exchange & layer.full[rows])]
                if len(plain):
                    add(self._scores(layer, plain, by), np.take(here, plain, axis=0))
                for row in exchange.tolist():
                    left, cup = tuple(layer.bag[row].tolist()), tuple(layer.cup[row].tolist())
                    pair = solver.full(left, cup)[1]
                    draws, d = ([(1, cup)], 1) if pair is None else solver.exchange_weights(left, cup, pair)
                    inv = np.array([pow(d, -1, q) for q in self.primes], dtype=np.int64)
                    for weight, c2 in draws:
                        add(by(np.array([c2])) if by else np.array([solver.score(c2)]), (here[row] * (weight % p) % p * inv % p)[None, :])
            below = self.layers.get(total - 1)
            if below is None:
                continue
            down = mass[total - 1]
            for kind, rows in (("plain", np.flatnonzero(layer.plain)), ("choice", np.flatnonzero(layer.choice))):
                if not len(rows):
                    continue
                n = np.take(layer.bag, rows, axis=0).astype(np.int64)
                d = total if kind == "plain" else total * (total - 1)
                inv = np.array([pow(d, -1, q) for q in self.primes], dtype=np.int64)
                m = np.take(here, rows, axis=0) * inv % p
                if kind == "plain":  # every kind's moves in one scatter (each term below 64 p < 2**37)
                    sels = [np.flatnonzero(n[:, o]) for o in range(self.k)]
                    scatter_add(down, np.concatenate([layer.dest[o][sel] for o, sel in enumerate(sels)]),
                             np.concatenate([n[sel, o, None] * np.take(m, sel, axis=0) for o, sel in enumerate(sels)]))
                    down %= p
                else:
                    child = layer.children
                    for a in range(self.k):
                        w = n[:, a] * (n[:, a] - 1)
                        sel = np.flatnonzero(w > 0)
                        scatter_add(down, child[a][sel], w[sel][:, None] * m[sel] % p)
                        for b in range(a + 1, self.k):
                            w = 2 * n[:, a] * n[:, b]
                            sel = np.flatnonzero(w > 0)
                            if not len(sel):
                                continue
                            keep_b = layer.later[(a, b)][rows][sel]
                            scatter_add(down, np.where(keep_b, child[b][sel], child[a][sel]), w[sel][:, None] * m[sel] % p)
                        down %= p
        bound = self.mass_bound * len(self.roots)
        return Dist({s: Fraction(self._rebuild(r, bound), bound) for s, r in final.items() if r.any()})
