"""The cup-test solver's fallback when a test is over budget: a rule of thumb, exact in the endgame.

Beyond ``max_states`` positions :func:`.cup.stop_now` (and :func:`.round.one_more_round` for the
draws' tests) estimate instead of solving (:func:`estimate`): seeded cup tests, all at once
(:class:`Entries`), played by a rule of thumb (:func:`heuristic_place`, the Choice rule of
:func:`fallback_keep`) while more than :data:`ENDGAME` cup spaces are free (fewer where the rest is
still over budget), then valued exactly from there by one vectorised table
(:class:`.cup_layers.Layers`, :func:`valued`). A fixed policy, so a lower estimate of optimal play.
It plays the solver's rules (:class:`.cup_solver.Solver`: Sweetness's space, Choice, the tray, Exchange). One decision at a time, the same policy
(:func:`fallback_place`, :func:`fallback_keep`, :func:`fallback_exchange`) answers the decisions of
an estimated :class:`.cup.CupTest` (its endgame exact by a table of its own within the solver's budget:
:func:`exact_values`), and :func:`simulate` plays it test by test where a position code is too wide for one table.

Example:
    >>> from coffeegames.roaster.rules import Rules
    >>> from coffeegames.roaster.cup_solver import Solver
    >>> solver = Solver(Rules(card="Zambia Kasama AA"), (), ["bean2", "bean3", "smoke"], 3, None)
    >>> typical_fill(solver, (4, 4, 2), 5)
    (2, 2, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..exact import Dist
from ..errors import TooBig
from .cup_codes import fits
from .cup_layers import Layers
from .cup_solver import Counts, OverBudget, Solver, count_pairs, plus
from .data import CUP_SPACES

__all__ = [
    "ENDGAME", "ENDGAME_BUDGET", "Entries", "Estimate", "GROWTH", "LOW", "endgame", "estimate", "exact_values", "fallback_exchange",
    "fallback_keep", "fallback_place", "heuristic_exchange", "heuristic_place", "projected", "simulate", "typical_fill",
    "typical_fills", "valued",
]

ENDGAME = 7
"""The fallback policy plays exactly once at most this many cup spaces are free ..."""
ENDGAME_BUDGET = 4
"""... one decision at a time (:class:`.cup.CupTest`'s decisions, :func:`simulate`) within ``max_states //
ENDGAME_BUDGET`` positions a decision; :func:`estimate` within its ``budget``."""
LOW = 3
"""The vectorised fallback (:func:`valued`) first values its tests exactly from this many free cup spaces ..."""
GROWTH = 3
"""... then from one more while a table this many times larger fits (measured: 2.5-3.5 times a cup space)."""


def typical_fill(solver: Solver, bag: Counts, k: int) -> Counts:
    """``k`` tokens shared out in the bag's proportions (largest remainders): a typical rest of the cup."""
    total = sum(bag)
    if total == 0 or k <= 0:
        return (0,) * len(bag)
    k = min(k, total)
    exact = [n * k / total for n in bag]
    out = [int(x) for x in exact]
    for i in sorted(range(len(bag)), key=lambda i: exact[i] - out[i], reverse=True)[: k - sum(out)]:
        out[i] += 1
    return tuple(out)


def typical_fills(bags: np.ndarray, k: int) -> np.ndarray:
    """:func:`typical_fill` of every row of ``bags`` (counts) at once: the same numbers.

    >>> from coffeegames.roaster.rules import Rules
    >>> solver = Solver(Rules(card="Zambia Kasama AA"), (), ["bean2", "bean3", "smoke"], 3, None)
    >>> typical_fills(np.array([[4, 4, 2], [1, 0, 0], [0, 0, 0]]), 5).tolist()
    [[2, 2, 1], [1, 0, 0], [0, 0, 0]]
    """
    total = bags.sum(1)
    k_row = np.minimum(max(k, 0), total)
    exact = bags * k_row[:, None] / np.maximum(total, 1)[:, None]  # as Python's n * k / total (both correctly rounded)
    out = np.floor(exact).astype(np.int64)
    order = np.argsort(-(exact - out), axis=1, kind="stable")  # largest remainders first, ties in kind order
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(bags.shape[1])[None, :].repeat(len(bags), 0), axis=1)
    return out + (rank < (k_row - out.sum(1))[:, None])


def projected(solver: Solver, bag: Counts, cup: Counts) -> int:
    """The score of ``cup`` completed with a typical rest from ``bag``."""
    rest = typical_fill(solver, bag, solver.capacity - sum(cup))
    return solver.score(tuple(c + r for c, r in zip(cup, rest)))


def heuristic_place(solver: Solver, bag: Counts, cup: Counts, tray: int, i: int) -> bool:
    """Whether the heuristic puts kind ``i`` (just drawn) on the tray: it projects worse in the cup than an average
    token, and fewer tokens worse than it are expected among the draws still to come than the tray has room for."""
    left = solver.tray_spaces - tray
    if left <= 0:
        return False
    base = projected(solver, bag, cup)
    gain = [projected(solver, bag, plus(cup, j)) - base if n or j == i else 0 for j, n in enumerate(bag)]
    if gain[i] >= 0:
        return False
    total = sum(bag)
    worse = sum(n for j, n in enumerate(bag) if gain[j] < gain[i])
    coming = CUP_SPACES - solver.space(sum(cup)) - 1
    return total == 0 or worse * coming / total < left


def heuristic_exchange(solver: Solver, bag: Counts, cup: Counts) -> Counts | None:
    """Return the pair whose removal, refilled with 2 typical tokens, projects best (if better than keeping)."""
    best, choice = solver.score(cup), None
    for pair in count_pairs(cup):
        bag2 = tuple(b + r for b, r in zip(bag, pair))
        v = projected(solver, bag2, tuple(c - r for c, r in zip(cup, pair)))
        if v > best:
            best, choice = v, pair
    return choice


def exact_values(solver: Solver, positions: list[tuple[Counts, Counts, int]]) -> list[Fraction]:
    """The exact values of ``positions`` (about to draw), one table within the solver's ``max_states`` (remembered: a
    simulation asks again). Raises :class:`OverBudget` over it, or where a position code is too wide for one table."""
    missing = [p for p in positions if p not in solver.endgames]
    if missing:
        if not fits(solver, missing):
            raise OverBudget
        solver.endgames.update(zip(missing, Layers(solver, missing, solver.max_states).values()))
    return [solver.endgames[p] for p in positions]


def endgame(solver: Solver, cup: Counts, exact: Callable[[], Any]) -> Any:
    """``exact()`` (a decision from :func:`exact_values`) once the rest of the test is small and within budget, else
    None."""
    if CUP_SPACES - solver.space(sum(cup)) > ENDGAME:
        return None
    try:
        return exact()
    except (OverBudget, TooBig):
        return None


def fallback_place(solver: Solver, bag: Counts, cup: Counts, tray: int, i: int) -> bool:
    """Whether the fallback policy puts kind ``i``, just drawn (``bag`` is without it), on the tray."""
    if not solver.step(sum(cup), sum(bag) + 1, tray)[2]:  # no tray: full, or a Choice space
        return False

    def exact() -> bool:
        on_tray, in_cup = exact_values(solver, [(bag, cup, tray + 1), (bag, plus(cup, i), tray)])
        return on_tray > in_cup

    found = endgame(solver, cup, exact)
    solver.played[found is None] += 1
    return heuristic_place(solver, bag, cup, tray, i) if found is None else found


def fallback_keep(solver: Solver, bag: Counts, cup: Counts, tray: int, x: int, y: int) -> int:
    """The kind the fallback policy keeps of a Choice pair ``x, y`` (``bag`` is without both)."""
    x, y = sorted((x, y))
    def exact() -> int:
        keep_y, keep_x = exact_values(solver, [(plus(bag, x), plus(cup, y), tray), (plus(bag, y), plus(cup, x), tray)])
        return y if keep_y > keep_x else x

    found = endgame(solver, cup, exact)
    solver.played[found is None] += 1
    if found is None:
        found = y if projected(solver, bag, plus(cup, y)) > projected(solver, bag, plus(cup, x)) else x
    return found


def fallback_exchange(solver: Solver, bag: Counts, cup: Counts) -> Counts | None:
    """The pair the fallback policy returns for Exchange (None: keep the cup): exact if already solved, else the rule of thumb."""
    found = solver.exchanges.get((bag, cup))
    return found[1] if found is not None else heuristic_exchange(solver, bag, cup)


def simulate(solver: Solver, bag: Counts, cup: Counts, tray: int, n: int, seed: int) -> list[int]:
    """``n`` seeded cup tests under the fallback policy, on count tuples (same rules as the engine)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        b, c, t = list(bag), cup, tray

        def draw() -> int:
            i = int(rng.choice(len(b), p=np.array(b) / sum(b)))
            b[i] -= 1
            return i

        while True:
            full, choice, _ = solver.step(sum(c), sum(b), t)
            if full or sum(b) == 0:
                break
            if choice:
                x, y = draw(), draw()
                keep = fallback_keep(solver, tuple(b), c, t, x, y)
                b[x + y - keep] += 1
                c = plus(c, keep)
                continue
            i = draw()
            if fallback_place(solver, tuple(b), c, t, i):
                t += 1
            else:
                c = plus(c, i)
        if full and solver.exchange:
            pair = fallback_exchange(solver, tuple(b), c)
            if pair is not None:
                b = [x + r for x, r in zip(b, pair)]
                c = tuple(x - r for x, r in zip(c, pair))
                drawn = [draw() for _ in range(min(3, sum(b)))]
                c = solver.keep_two(c, drawn) if len(drawn) == 3 else tuple(x + drawn.count(k) for k, x in enumerate(c))
        out.append(solver.score(c))
    return out


def _draw(rng: np.random.Generator, bags: np.ndarray) -> np.ndarray:
    """One token drawn from each row of ``bags`` (counts; every row holds one), as kind indices; the rows lose it."""
    cum = bags.cumsum(1)
    picks = np.floor(rng.random(len(bags)) * cum[:, -1])
    kinds = (cum <= picks[:, None]).sum(1)
    bags[np.arange(len(bags)), kinds] -= 1
    return kinds


class Entries:
    """Seeded cup tests played by the rule of thumb, all at once, until at most ``free`` cup spaces are left.

    ``roots`` are ``(bag, cup, tray)`` count tuples about to draw; each gets ``samples`` tests (rows), seeded by ``seed``.
    The draws are made for every row at once (numpy); the decisions are :func:`heuristic_place`'s and the Choice rule
    of :func:`fallback_keep`, with each position's projection remembered and only the gains a decision needs worked
    out. :meth:`down` plays the rows on to fewer free spaces; :func:`valued` then values the rows' positions
    (:meth:`positions`) exactly, so each test counts the exact expected score of best play from where the rule of
    thumb left it.

    >>> from coffeegames.roaster.rules import Rules
    >>> solver = Solver(Rules(card="Zambia Kasama AA"), (), ["bean2", "bean3", "smoke"], 3, None)
    >>> e = Entries(solver, [((4, 4, 2), (0, 0, 0), 0)], 5, seed=1, free=7)
    >>> [sum(cup) for _, cup, _ in e.positions()]
    [3, 3, 3, 3, 3]
    >>> e.gain((4, 4, 2), (1, 0, 0), 2) == projected(solver, (4, 4, 2), (1, 0, 1)) - projected(solver, (4, 4, 2), (1, 0, 0))
    True
    """

    def __init__(self, solver: Solver, roots: list[tuple[Counts, Counts, int]], samples: int, seed: int, free: int) -> None:
        self.solver, self.free = solver, CUP_SPACES
        self.rng = np.random.default_rng(seed)
        k = len(solver.kinds)
        self.bag = np.repeat(np.array([r[0] for r in roots], dtype=np.int64).reshape(len(roots), k), samples, axis=0)
        self.cup = np.repeat(np.array([r[1] for r in roots], dtype=np.int64).reshape(len(roots), k), samples, axis=0)
        self.tray = np.repeat(np.array([r[2] for r in roots], dtype=np.int64), samples)
        self.known: dict[tuple[Counts, Counts], tuple[int, Counts]] = {}
        self.down(free)

    def _projection(self, bag: Counts, cup: Counts) -> tuple[int, Counts]:
        """(:func:`projected` score of ``cup``, the cup with a typical rest one token short), remembered."""
        found = self.known.get((bag, cup))
        if found is None:
            s = self.solver
            room = s.capacity - sum(cup)
            base = s.score(tuple(c + r for c, r in zip(cup, typical_fill(s, bag, room))))
            found = self.known[(bag, cup)] = (base, tuple(c + r for c, r in zip(cup, typical_fill(s, bag, room - 1))))
        return found

    def gain(self, bag: Counts, cup: Counts, j: int) -> int:
        """``projected(bag, cup + j) - projected(bag, cup)``: what a token of kind ``j`` adds to the cup's projection."""
        base, rest = self._projection(bag, cup)
        return self.solver.score(plus(rest, j)) - base

    def to_tray(self, bag: Counts, cup: Counts, tray: int, i: int) -> bool:
        """:func:`heuristic_place`, working out the other kinds' gains only when the drawn kind's is negative."""
        s = self.solver
        left = s.tray_spaces - tray
        if left <= 0:
            return False
        gain = self.gain(bag, cup, i)
        if gain >= 0:
            return False
        total, coming = sum(bag), CUP_SPACES - s.space(sum(cup)) - 1
        if total == 0:
            return True
        worse, unknown = 0, total - bag[i]  # tokens worse than it so far; tokens of kinds not yet weighed
        for j, n in enumerate(bag):  # the tray if fewer worse tokens are expected than it has room: stop once known
            if (worse + unknown) * coming < left * total:
                return True
            if worse * coming >= left * total:
                return False
            if n and j != i:
                unknown -= n
                worse += n if self.gain(bag, cup, j) < gain else 0
        return worse * coming < left * total

    def down(self, free: int) -> None:
        """Play every row on until at most ``free`` cup spaces are left (or its bag is empty)."""
        s, self.free = self.solver, free
        while True:
            size, total = self.cup.sum(1), self.bag.sum(1)
            rows = np.flatnonzero((CUP_SPACES - s.space(size) > free) & (total > 0))
            if not len(rows):
                return
            _, choice, tray_ok = s.step(size[rows], total[rows], self.tray[rows])
            two = choice
            pair = rows[two]
            if len(pair):  # Choice: draw 2, keep the one the projection prefers (among equals the kind that comes first)
                bags = self.bag[pair]
                x, y = _draw(self.rng, bags), _draw(self.rng, bags)
                for n, (r, bag, cup, a, b) in enumerate(zip(pair.tolist(), bags.tolist(), self.cup[pair].tolist(),
                                                            np.minimum(x, y).tolist(), np.maximum(x, y).tolist())):
                    keep_b = self.gain(tuple(bag), tuple(cup), b) > self.gain(tuple(bag), tuple(cup), a)
                    bags[n, a if keep_b else b] += 1
                    self.cup[r, b if keep_b else a] += 1
                self.bag[pair] = bags
            one = rows[~two]  # (at a Choice space with one token left, it goes to the cup)
            if not len(one):
                continue
            bags = self.bag[one]
            kinds = _draw(self.rng, bags)
            self.bag[one] = bags
            for r, bag, cup, tray, i, may in zip(one.tolist(), bags.tolist(), self.cup[one].tolist(),
                                                 self.tray[one].tolist(), kinds.tolist(), tray_ok[~two].tolist()):
                if may and self.to_tray(tuple(bag), tuple(cup), tray, i):
                    self.tray[r] += 1
                else:
                    self.cup[r, i] += 1

    def positions(self) -> list[tuple[Counts, Counts, int]]:
        """Each row's position (``samples`` rows a root, in the roots' order)."""
        return [(tuple(b), tuple(c), t) for b, c, t in zip(self.bag.tolist(), self.cup.tolist(), self.tray.tolist())]


def valued(entries: Entries, budget: int | None,
           dist: bool = False) -> tuple[Layers, list[tuple[Counts, Counts, int]], int]:
    """The rows of ``entries`` valued exactly by one :class:`.cup_layers.Layers` table within ``budget`` positions.

    The rows are played on by the rule of thumb down to :data:`LOW` free cup spaces, their positions kept at each
    number of free spaces; the table is made from the deepest positions first (further down if even those are over
    budget: at a full cup or an empty bag they always fit, being the table themselves), then from the positions one
    space higher while a table :data:`GROWTH` times larger fits the budget. Returns the table, the rows' positions it
    values and the free cup spaces from which play is exact. The table's roots are the distinct positions, or with
    ``dist`` every row's (the distribution weighs the roots alike)."""
    solver = entries.solver
    levels = {entries.free: entries.positions()}
    if budget is None:
        table = _table(solver, levels[entries.free], None, dist)
        assert table is not None  # (no budget: every table fits)
        return table, levels[entries.free], entries.free
    while entries.free > LOW:
        entries.down(entries.free - 1)
        levels[entries.free] = entries.positions()
    table = _table(solver, levels[entries.free], budget, dist)
    while table is None:
        entries.down(entries.free - 1)
        levels[entries.free] = entries.positions()
        table = _table(solver, levels[entries.free], budget if entries.free > 0 else None, dist)
    free = entries.free
    while free + 1 in levels and table.positions * GROWTH <= budget:
        bigger = _table(solver, levels[free + 1], budget, dist)
        if bigger is None:
            break
        table, free = bigger, free + 1
    return table, levels[free], free


def _table(solver: Solver, rows: list[tuple[Counts, Counts, int]], budget: int | None, dist: bool) -> Layers | None:
    """The exact table from the positions ``rows`` (each distinct one once, unless ``dist``) within ``budget``
    positions, or None."""
    roots = rows if dist else list(dict.fromkeys(rows))
    if budget is not None and not fits(solver, roots):
        return None
    try:
        return Layers(solver, roots, budget, dist)
    except OverBudget:
        return None


@dataclass(frozen=True)
class Estimate:
    """:func:`estimate`'s answer: each root's mean value and its standard error, the score distribution (one root, when
    asked), the free cup spaces from which play was exact and the positions valued."""

    values: list[Fraction]
    stderr: list[float]
    dist: Dist | None
    free: int
    positions: int


def estimate(solver: Solver, roots: list[tuple[Counts, Counts, int]], samples: int, seed: int, budget: int | None,
             dist: bool = False) -> Estimate:
    """Each root's cup test (``(bag, cup, tray)`` about to draw) estimated by ``samples`` seeded tests under the fallback
    policy: the rule of thumb (:class:`Entries`) while more than :data:`ENDGAME` cup spaces are free and further down
    while the rest is over ``budget`` positions, then best play, valued exactly by one table for every root
    (:func:`valued`). Each test counts its exact expected score from where the rule of thumb left it, so the mean is
    an unbiased estimate of that policy's value (a lower estimate of optimal play), with little noise from the
    exact part. ``dist`` (one root): the score distribution of those tests, exactly (its mean is the value)."""
    if dist and len(roots) != 1:
        raise ValueError("the distribution is of one root's tests")
    entries = Entries(solver, roots, samples, seed, ENDGAME)
    table, rows, free = valued(entries, budget, dist)
    value = dict(zip([(tuple(b), tuple(c), t) for b, c, t in table.roots], table.values()))
    found = [value[row] for row in rows]
    values, errors = [], []
    for r in range(len(roots)):
        mine = found[r * samples:(r + 1) * samples]
        values.append(sum(mine, Fraction(0)) / samples)
        errors.append(float(np.std([float(v) for v in mine], ddof=1) / np.sqrt(samples)) if samples > 1 else float("inf"))
    return Estimate(values, errors, table.dist() if dist else None, free, table.positions)
