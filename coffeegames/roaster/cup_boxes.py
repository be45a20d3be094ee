"""The cup test's exact values on dense *boxes*: :class:`.cup_layers.Layers`' fast way for plain draws (no Choice, no
Exchange; Sweetness and the Extra Bean allowed), with no search for a position and exact int64 values.

A position is ``(bag, cup, tray)``. Cup moves keep ``bag + cup`` and the tray count; a tray move takes one token off
``bag + cup`` and adds one to the tray. So from roots that share their cup ``C0`` and tray ``t0``, the positions are
*boxes*: for each reachable ``R`` = (the root's bag less the tokens put on the tray) and its tray count, every cup
``C0 + D`` with ``D ≤ R`` (counts per kind) up to a full cup, bag ``R − D``. The boxes are few (thousands) and
every cell of a box is a position (counted exactly, before any value, for the budget).

Cells are listed a layer at a time (bag total ``T``), box after box (boxes in lexicographic order of ``R``, last
kind first), cells of a box in the same order of ``D``. Then, for a kind ``o`` drawn, the cells whose bag holds an
``o``, in order, correspond one to one and in order to

* their cup moves: the cells of the layer below, same box, whose ``D`` holds an ``o`` (``D ↦ D + o`` keeps the
  order), and
* their tray moves: every cell of the layer below in box ``R − o`` (same ``D``; ``R ↦ R − o`` keeps the order),

so each move's values are one selection of the layer below (``np.compress``: boolean indexing is several times
slower on these irregular masks): no position code, no search, no sort.

A cell is listed as a *partial* ``D`` (the more significant half of the kinds) and a run of the table of the less
significant half's counts (:class:`_Lower`); the bag ``R − D`` is the partial's ``R − D`` less the run's entries (no
box index a cell). Full cups are valued by a table of scores by packed ``D``, filled once a plan with every full cup
the roots can reach (group 0's full cells: every other group's are among them), so a full layer only looks up.

Values are exact integers ``W = value × F(T)``, ``F(T) = T (T−1) ⋯`` (as many factors as the longest remaining
test, ``d`` draws): every probability of a test is a product of at most ``d`` factors ``n / T``. Then
``W(T) = Σ n_o × best_o / (T − d)`` (or no division while ``T ≤ d``) is an exact int64 division, checked; the caller
uses this way only when ``MAX_SCORE × T × F(T)`` fits an int64 (and every cup's score is checked within
``MAX_SCORE``).

Memory: a group is listed and valued a run of boxes at a time, and only what the layer above reads is kept, for at
most two layers (a group of the layer below goes once both its readers are done): each cell's ``W``, as int32 while
``F(T)`` times the largest score its cups reach fits, and of its ``D`` only the kinds it holds (one bit a kind, by a
table of every packed ``D``). At the largest layers that is 6 bytes a cell, where ``W`` int64 and ``D`` int32 with
the whole group's bags and listing alongside took over twice as much (issue 30: ``benchmarks/roaster_memory.py``).

Example (through :class:`.cup_layers.Layers`, which uses this way here):
    >>> from coffeegames.roaster.rules import Rules
    >>> from coffeegames.roaster.cup_solver import Solver
    >>> from coffeegames.roaster.cup_layers import Layers
    >>> solver = Solver(Rules(card="Zambia Kasama AA"), (), ["bean3", "hard"], 3, None)
    >>> bag, none = solver.counts(["bean3"] * 3 + ["hard"] * 2), solver.counts([])
    >>> Layers(solver, [(bag, none, 0)]).values(), Layers(solver, [(bag, none, 0)], lookup=True).values()  # boxes; codes
    ([Fraction(-7, 1)], [Fraction(-7, 1)])
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import prod

import numpy as np

from ..engine.cancel import checkpoint
from .cup_solver import Counts, OverBudget, Solver
from .data import CUP_SPACES

__all__: list[str] = []

INT64 = 2**63
"""Values ``W`` (and the weighted sums before a division) stay below this."""
CHUNK = 1 << 15
"""Cells of a group solved at a time (a run of whole boxes)."""
LIST = 1 << 18
"""Cells of a group listed at a time (a run of whole boxes, valued ``CHUNK`` cells at a time)."""
INT32 = 2**31
"""A group's values ``W`` are kept as int32 while they stay below this."""
SCORE_BITS = 22
"""The widest packed ``D`` whose scores are kept in a table by ``D`` (int16: 8 MB at most)."""
UNSCORED = -2**15
"""A cup not scored yet, in that table."""


def applies(solver: Solver, roots: Sequence[tuple[Counts, Counts, int]], max_score: int) -> bool:
    """Whether :func:`solve` answers these roots: plain draws, one cup and tray for all, values within an int64."""
    if not solver.kinds or solver.choice_spaces or solver.exchange or len({(cup, tray) for _, cup, tray in roots}) != 1:
        return False
    _, cup, tray = roots[0]
    d = _draws(solver, cup, tray)
    if _widths(np.max([bag for bag, _, _ in roots], 0)).sum() > 62:
        return False
    return all(max_score * n * _falling(n, min(n, d)) < INT64 for n in {sum(bag) for bag, _, _ in roots})


def _falling(n: int, d: int) -> int:
    return prod(range(n - d + 1, n + 1))


def _levels(solver: Solver, cup: Counts) -> int:
    """Tokens the cup takes before it is full (cup moves from the roots)."""
    size = sum(cup)
    levels = 0
    while solver.space(size + levels) < CUP_SPACES:  # the solver's rule (Sweetness's space skipped)
        levels += 1
    return levels


def _draws(solver: Solver, cup: Counts, tray: int) -> int:
    """The most draws a test from these roots can make (cup moves, then tray moves)."""
    return _levels(solver, cup) + max(0, solver.tray_spaces - tray)


def _boxes(roots: np.ndarray, tray: int, tray_spaces: int, live: bool) -> list[np.ndarray]:
    """The boxes' ``R`` by tray count ``tray, tray + 1, ...`` (each sorted, last kind most significant)."""
    out = [_sorted_unique(roots)]
    while live and tray + len(out) - 1 < tray_spaces:
        here = out[-1]
        moved = [here[here[:, o] > 0] - np.eye(here.shape[1], dtype=here.dtype)[o] for o in range(here.shape[1])]
        out.append(_sorted_unique(np.concatenate(moved)))
    return out


def _sorted_unique(rows: np.ndarray) -> np.ndarray:
    if not len(rows):
        return rows
    rows = rows[np.lexsort(rows.T)]  # the last column is the primary key
    keep = np.concatenate(([True], (rows[1:] != rows[:-1]).any(1)))
    return rows[keep]


def _count(boxes: np.ndarray, levels: int) -> np.ndarray:
    """Per box, how many ``D ≤ R`` there are of each size ``0..levels`` (columns)."""
    ways = np.zeros((len(boxes), levels + 1), dtype=np.int64)
    ways[:, 0] = 1
    for o in range(boxes.shape[1]):
        new = np.zeros_like(ways)
        for c in range(min(int(boxes[:, o].max(initial=0)), levels) + 1):
            ok = boxes[:, o] >= c
            new[ok, c:] += ways[ok, :levels + 1 - c]
        ways = new
    return ways


class _Lower:
    """What :func:`_cells` needs of one tray group's boxes at every level, made once a group (not once a layer): each
    box's packed ``R`` (``codes``) and, with 4 kinds or more, the table of the less significant half's counts: each
    box's ``pattern`` of them, and for each pattern and size ``z`` a run of packed counts in ``flat`` (``ways[p, z]``
    long, from ``starts[p, z]``)."""

    def __init__(self, boxes: np.ndarray, shifts: np.ndarray, dtype: type, levels: int) -> None:
        self.codes = (boxes @ (np.int64(1) << shifts)).astype(dtype)
        self.low = low = boxes.shape[1] // 2
        if low < 2:
            return
        patterns, pattern = np.unique(boxes[:, :low], axis=0, return_inverse=True)
        self.pattern = pattern.reshape(-1)
        top = min(levels, int(patterns.sum(1).max(initial=0)))
        ways = self.ways = _count(patterns, top)
        runs = []
        for z in range(top + 1):
            b, r, p = _partial(patterns, z, shifts[:low], dtype, 1)
            fits = r <= patterns[b, 0]  # (a pattern with fewer than z tokens has none)
            runs.append(p[fits] + (r[fits] << int(shifts[0])))
        self.flat = np.concatenate(runs)
        self.starts = (np.cumsum(ways, 0) - ways) + (np.cumsum(ways.sum(0)) - ways.sum(0))  # each (p, z) run's start


def _cells(boxes: np.ndarray, level: int, shifts: np.ndarray, dtype: type, lower: _Lower, part: slice = slice(None)
           ) -> tuple[np.ndarray, np.ndarray]:
    """Every ``D ≤ R`` with ``|D| = level``, box after box (the boxes ``part`` of ``boxes``), each box's in order (last
    kind most significant): ``(D, B)`` packed as bit fields (kind ``o`` at bit ``shifts[o]``; ``dtype`` int32 where
    they fit), ``B = R − D`` the bag.

    The more significant half of the kinds is listed by :func:`_partial`; the rest of each ``D`` is a run copied from
    ``lower``'s table of the less significant kinds' counts (made once a group), one run a pattern of them: run
    indices int32 where they fit, and each partial's bag part ``R − D`` repeated over its run (one subtraction a cell, no box index)."""
    boxes, codes = boxes[part], lower.codes[part]
    if lower.low < 2:
        box, rem, packed = _partial(boxes, level, shifts, dtype, 1)
        packed += rem << int(shifts[0])  # the rest: at most R_0, by the bound in _partial
        return packed, codes[box] - packed
    box, rem, packed = _partial(boxes, level, shifts, dtype, lower.low)
    run = lower.pattern[part][box] * lower.ways.shape[1] + rem  # each partial D's run: (pattern, size) flattened
    count = lower.ways.take(run)
    cells = int(count.sum())
    index: type = np.int32 if cells < 2**31 else np.int64  # (half the memory traffic where it fits)
    first = (lower.starts.take(run) - (np.cumsum(count) - count)).astype(index)
    low = lower.flat.take(np.repeat(first, count) + np.arange(cells, dtype=index))
    return np.repeat(packed, count) + low, np.repeat(codes[box] - packed, count) - low


def _partial(boxes: np.ndarray, level: int, shifts: np.ndarray, dtype: type, stop: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The counts of kinds ``stop`` and up of every ``D ≤ R`` with ``|D| = level`` (``(box, tokens left for the
    kinds below stop, packed)``, in order), built a kind at a time from the last: each partial ``D`` is repeated once
    for each count of the next kind that still leaves a way to complete it (the tokens left never exceed what the
    kinds below can take)."""
    left: np.ndarray = (np.cumsum(boxes, 1) - boxes).T.astype(dtype)  # Σ R_i, i < j: the most the kinds before j can take
    have: np.ndarray = boxes.T.astype(dtype)  # one contiguous row a kind
    box = np.arange(len(boxes), dtype=np.int32)
    rem: np.ndarray = np.full(len(boxes), level, dtype=dtype)
    packed: np.ndarray = np.zeros(len(boxes), dtype=dtype)
    for j in range(boxes.shape[1] - 1, stop - 1, -1):
        if not have[j].any():
            continue
        lo = np.maximum(rem - left[j][box], 0)
        count = np.maximum(np.minimum(have[j][box], rem) - lo + 1, 0)
        d = np.arange(int(count.sum()), dtype=dtype) - np.repeat((np.cumsum(count) - count - lo).astype(dtype), count)
        box, rem, packed = np.repeat(box, count), np.repeat(rem, count) - d, np.repeat(packed, count) + (d << int(shifts[j]))
    return box, rem, packed


def _widths(counts: np.ndarray) -> np.ndarray:
    """Bits a kind in a packed count vector, for counts up to ``counts`` (per kind)."""
    return np.array([max(1, int(n).bit_length()) for n in counts], dtype=np.int64)


def solve(solver: Solver, roots: Sequence[tuple[Counts, Counts, int]], max_states: int | None, max_score: int
          ) -> tuple[list[Fraction], int]:
    """Each root's exact value and the positions solved (all roots' positions, each once). Roots with different bag
    totals share no position (the tray count differs), so each total is one solve. Raises :class:`OverBudget` over
    ``max_states`` positions (counted before any value); ``ValueError`` if a cup scores beyond ``max_score`` (the
    bound :func:`applies` checked the int64 range with)."""
    by_total: dict[int, list[int]] = {}
    for i, (bag, _, _) in enumerate(roots):
        by_total.setdefault(sum(bag), []).append(i)
    values: list[Fraction] = [Fraction(0)] * len(roots)
    plans = [_Plan(solver, [roots[i] for i in members], max_score) for members in by_total.values()]
    positions = sum(plan.positions for plan in plans)
    if max_states is not None and positions > max_states:
        raise OverBudget
    for members, plan in zip(by_total.values(), plans):
        for i, v in zip(members, plan.solve()):
            values[i] = v
    return values, positions


class _Plan:
    """The boxes of roots with one bag total, cup and tray, and their cells counted."""

    def __init__(self, solver: Solver, roots: Sequence[tuple[Counts, Counts, int]], max_score: int) -> None:
        self.solver, self.max_score = solver, max_score
        _, self.cup, self.tray = roots[0]
        self.total = sum(roots[0][0])
        self.levels = _levels(solver, self.cup)
        self.d = _draws(solver, self.cup, self.tray)
        bags = np.array([bag for bag, _, _ in roots], dtype=np.int64).reshape(len(roots), len(solver.kinds))
        self.boxes = _boxes(bags, self.tray, solver.tray_spaces, self.levels > 0 and self.total > 0)
        self.ways = [_count(b, self.levels) for b in self.boxes]
        self.positions = int(sum(w.sum() for w in self.ways))
        self.roots = bags
        self.widths = widths = _widths(bags.max(0))
        self.shifts = np.concatenate(([0], np.cumsum(widths)[:-1])).astype(np.int64)
        self.masks = (np.int64(1) << widths) - 1
        self.dtype: type = np.int32 if widths.sum() <= 31 else np.int64  # half the memory traffic where it fits
        self.bits = int(widths.sum())
        self.scored: np.ndarray | None = None  # the scores by packed D, if at most SCORE_BITS bits (made in solve)
        self.present: np.ndarray | None = None  # by packed D, the kinds it holds as bits (made in solve, if it fits)
        self.prescored = False  # whether every full cup the roots reach is scored (in solve, before any value)
        self.top = 0  # the largest |score| of a cup scored yet: |W| ≤ top × F(T) once the cups W reads are scored

    def level(self, t: int, total: int) -> int:
        """The cup moves made (``|D|``) by the cells of tray box group ``t`` (0 = the roots' tray) in layer ``total``."""
        return self.total - t - total

    def solve(self) -> list[Fraction]:
        k, d = len(self.solver.kinds), self.d
        groups = range(len(self.boxes))
        # per tray group, per kind: the index in the next group of each box's tray move R − o (−1 without an o)
        moves = [np.full((len(b), k), -1, dtype=np.int64) for b in self.boxes]
        for t in groups[1:]:
            prev = self.boxes[t - 1]
            for o in range(k):
                has = prev[:, o] > 0
                moved = prev[has].copy()
                moved[:, o] -= 1
                moves[t - 1][has, o] = _rows_of(self.boxes[t], moved)
        lower = [_Lower(b, self.shifts, self.dtype, self.levels) for b in self.boxes]
        if self.bits <= SCORE_BITS and self.max_score < -UNSCORED:
            self.scored = np.full(1 << self.bits, UNSCORED, dtype=np.int16)
            if 0 < self.levels <= self.total:  # every full cup the roots reach, at once (group 0's full cells: D ≤ a
                # root's bag); then every group's full cells only look their scores up
                seen = np.zeros(len(self.scored), dtype=bool)
                seen[_cells(self.boxes[0], self.levels, self.shifts, self.dtype, lower[0])[0]] = True
                new = np.flatnonzero(seen)
                self.scored[new] = self._score_each(new)
                self.prescored = True
        if self.bits <= SCORE_BITS and k <= 16:  # the layer above reads of a cell's D only which kinds it holds
            self.present = _present(self.widths, np.uint8 if k <= 8 else np.uint16)
        below: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # group → (values W, cup digits D) of the layer below
        for total in range(0, self.total + 1):
            layer: dict[int, tuple[np.ndarray, np.ndarray]] = {}
            for t in groups:
                checkpoint()  # (a cancelled exact solve stops here: coffeegames.engine.cancel)
                if 0 <= self.level(t, total) <= self.levels:
                    layer[t] = self._group(total, t, below, moves[t], lower[t])
                    below.pop(t, None)  # group t - 1 (its tray moves) and group t (its cup moves) are done with it
            below = layer
        w, _ = below[0]
        scale = _falling(self.total, min(self.total, d))
        order = _rows_of(self.boxes[0], self.roots)  # a root's cell is the only one of its box at level 0
        return [Fraction(int(x), scale) for x in w[order].tolist()]

    def _group(self, total: int, t: int, below: dict[int, tuple[np.ndarray, np.ndarray]], moves: np.ndarray,
               lower: _Lower) -> tuple[np.ndarray, np.ndarray]:
        """``(W, D)`` of the cells of group ``t`` in layer ``total``, listed and valued a run of boxes at a time
        (``LIST`` cells: the bags and the listing's temporaries never as large as the group). ``W`` is int32 while
        every value's bound fits (``F(T)`` times the largest score of a cup they read: scored already, else
        ``max_score``), and ``D`` only the kinds it holds (``present``: one bit a kind, uint8 or uint16) where that
        table was made: a quarter to a half of the memory of the layers kept."""
        level = self.level(t, total)
        here = _starts(self.ways[t][:, level])
        scale = _falling(total, min(total, self.d))
        full = self.solver.space(sum(self.cup) + level) >= CUP_SPACES or total == 0
        cup: np.ndarray = np.empty(int(here[-1]), dtype=self.dtype if self.present is None else self.present.dtype)
        scored = not full or (self.prescored and total > 0)  # every cup these values read is scored already
        bound = (self.top if scored else self.max_score) * scale
        w = np.empty(len(cup), dtype=np.int32 if bound < INT32 else np.int64)
        b0 = 0
        while b0 < len(here) - 1:
            b1 = _run_end(here, b0, LIST)
            rows = slice(int(here[b0]), int(here[b1]))
            d, bag = _cells(self.boxes[t], level, self.shifts, self.dtype, lower, slice(b0, b1))
            if self.present is None:
                cup[rows] = d
            else:
                np.take(self.present, d, out=cup[rows])
            got = self._scores(d) * scale if full else self._plain(total, t, bag, below, moves, here, b0, b1)
            if self.top * scale > bound:  # (a cup scored here that ``bound`` took as scored before)
                raise AssertionError("cup-test values outgrew the bound of their storage")
            w[rows] = got
            b0 = b1
        return w, cup

    def _plain(self, total: int, t: int, bag: np.ndarray, below: dict[int, tuple[np.ndarray, np.ndarray]],
               moves: np.ndarray, here: np.ndarray, first: int, stop: int) -> np.ndarray:
        """``W`` of the live cells of group ``t`` in layer ``total`` in the boxes ``first:stop`` (whose bags are
        ``bag``; ``here``: where each box's cells start in the group): each kind drawn, to the cup or the tray (the
        better; equal values are one value), weighted by its count. A run of boxes at a time (``CHUNK`` cells: the
        arrays stay in the processor's cache). Each kind's best values are spread to the whole run (zeros where the bag
        has none) and added: cheaper than adding at a boolean selection (a read, an add and a write at scattered cells).
        """
        acc = np.zeros(len(bag), dtype=np.int64)
        level = self.level(t, total)
        w_cup, d_cup = below[t]
        cups = _starts(self.ways[t][:, level + 1])
        tray = t + 1 in below and self.tray + t < self.solver.tray_spaces
        if tray:
            w_tray = below[t + 1][0]
            sizes = _sizes(self.ways[t + 1], level)
            trays = _starts(sizes)
        fields = list(zip(range(len(self.shifts)), self.shifts.tolist(), self.masks.tolist()))
        scale = total - self.d
        base, b0 = int(here[first]), first
        while b0 < stop:
            b1 = min(stop, _run_end(here, b0, CHUNK))
            rows = slice(int(here[b0]) - base, int(here[b1]) - base)
            bg, ac = bag[rows], acc[rows]
            wc, dc = w_cup[cups[b0]:cups[b1]], d_cup[cups[b0]:cups[b1]]
            for o, shift, mask in fields:
                field = mask << shift
                best = np.compress((dc & (field if self.present is None else 1 << o)) != 0, wc)
                if not len(best):  # no cell of these boxes draws an o
                    continue
                if tray:  # the tray moves' boxes, in order: one run of the next group, those boxes' cells selected
                    to = moves[b0:b1, o]
                    to = to[to >= 0]
                    first, last = int(to[0]), int(to[-1]) + 1
                    run = w_tray[trays[first]:trays[last]]
                    if last - first > len(to):  # else every box of the run: one slice (a third of them at the largest)
                        picked = np.zeros(last - first, dtype=bool)
                        picked[to - first] = True
                        run = np.compress(np.repeat(picked, sizes[first:last]), run)
                    best = np.maximum(best, run, out=best if best.dtype == run.dtype else None)
                n = bg & field  # the o's in each bag (shifted)
                spread = np.zeros(len(bg), dtype=np.int64)  # best, at the cells that draw an o
                spread[n != 0] = best
                if mask > 1:  # else n is 0 or 1 an o
                    spread *= n >> shift
                ac += spread
            if scale > 1:  # divided run by run, in place: no temporary as large as the layer
                if (ac % scale).any():
                    raise AssertionError("cup-test denominator does not divide a weighted sum")
                ac //= scale
            b0 = b1
        return acc

    def _scores(self, cup: np.ndarray) -> np.ndarray:
        """The score of each cup ``C0 + D`` (``D`` packed): each distinct cup scored once a plan (kept in a table by
        ``D``, ``scored``: the full cups are there from the start), or once a call where ``D`` is too wide for a table."""
        if self.scored is None:
            distinct, inverse = np.unique(cup, return_inverse=True)
            return self._score_each(distinct)[inverse]
        got = self.scored[cup]
        missing = got == UNSCORED
        if missing.any():  # (cups of empty bags short of full)
            new = np.unique(cup[missing])
            self.scored[new] = self._score_each(new)
            got = self.scored[cup]
        return got.astype(np.int64)

    def _score_each(self, distinct: np.ndarray) -> np.ndarray:
        """The scores of the cups ``C0 + D`` (``D`` packed, distinct), checked within ``max_score``."""
        digits = (distinct[:, None] >> self.shifts) & self.masks
        scores = self.solver.score_many(digits + np.array(self.cup, dtype=np.int64))
        top = int(np.abs(scores).max(initial=0))
        if top > self.max_score:
            raise ValueError("a cup scores beyond MAX_SCORE")
        self.top = max(self.top, top)
        return scores


def _present(widths: np.ndarray, dtype: type) -> np.ndarray:
    """By packed ``D`` (fields of ``widths`` bits, the first kind least significant), the kinds it holds, kind ``o``
    as bit ``o``: built a kind at a time, the new kind's field above the table so far (twice the table's size in all).

    >>> _present(np.array([1, 2]), np.uint8).tolist()  # D = d0 + 2 d1: d0 ∈ {0, 1}, d1 ∈ {0..3}
    [0, 1, 2, 3, 2, 3, 2, 3]
    """
    table: np.ndarray = np.zeros(1, dtype=dtype)
    for o, width in enumerate(widths.tolist()):
        held = ((np.arange(1 << width) != 0) << o).astype(dtype)
        table = (held[:, None] | table[None, :]).ravel()
    return table


def _run_end(here: np.ndarray, b0: int, cells: int) -> int:
    """The end of a run of whole boxes from box ``b0`` with about ``cells`` cells (at least one box)."""
    return max(b0 + 1, int(np.searchsorted(here, here[b0] + cells, side="right")) - 1)


def _starts(sizes: np.ndarray) -> np.ndarray:
    """Where each box's cells start in a layer's group (and, last, where they end)."""
    return np.concatenate(([0], np.cumsum(sizes)))


def _sizes(ways: np.ndarray, level: int) -> np.ndarray:
    """Each box's cells at ``level`` (0 where none)."""
    return ways[:, level] if 0 <= level < ways.shape[1] else np.zeros(len(ways), dtype=np.int64)


def _rows_of(sorted_rows: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The index of each of ``rows`` in ``sorted_rows`` (sorted by :func:`_sorted_unique`, every row present)."""
    if not len(rows):
        return np.zeros(0, dtype=np.int64)
    radices = np.maximum(sorted_rows.max(0), rows.max(0)) + 1
    return np.searchsorted(_keys(sorted_rows, radices), _keys(rows, radices))


def _keys(rows: np.ndarray, radices: np.ndarray | None = None) -> np.ndarray:
    """Each row (counts) as one int64 in mixed radix, the last column most significant (the order of
    :func:`_sorted_unique`). The radices' product is below the position codes' (:func:`.cup_layers.fits`)."""
    radices = rows.max(0) + 1 if radices is None else radices
    weights = np.concatenate(([1], np.cumprod(radices[:-1].astype(np.int64))))
    return rows.astype(np.int64) @ weights
