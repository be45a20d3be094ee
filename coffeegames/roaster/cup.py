"""The cup test, solved: the exact score distribution if you stop now, the best tray decisions, one more round.

The cup test (RULES.md §3, :mod:`.state`) is a small game against the bag: draw one token
at a time, put it in the cup's next space or on the tray (while it has room); Choice, on
its two spaces, draws 2 and keeps 1; Exchange, once the cup is full, may return 2 cup
tokens, draw 3 and keep 2. :func:`stop_now` solves it by memoised dynamic programming
over positions ``(bag left, cup multiset, tray spaces used)``, maximising the expected
score; cups are scored by :func:`.rules.score_cup` (through ``Rules.score``), never by a
copy of the scoring rules.

Exactness notes (each checked against the engine by ``tests/test_roaster_cup.py``):

* Moisture drawn in the cup test leaves and is redrawn, also for Choice and Exchange, so
  the non-moisture tokens come out in uniformly random order: the solver drops moisture
  from the bag and loses nothing.
* Only what the cup holds (a multiset: its order never scores), the bag and the number of
  tray tokens matter; Sweetness and the Extra Bean follow from the active cup effects.
* Tokens that score alike in every cup (:func:`.rules.scoring_class`: hard beans, smoke and
  burnt beans; flavours the card does not ask for) are one kind to the solver, which halves
  the positions of many bags; a count vector is packed into one int.
* The search carries integers: every value times one common denominator (``_Solver.unit``,
  a power of ``lcm(1..tokens)`` that every draw probability along a play divides), so no
  Fraction arithmetic runs inside it and the answers are the same exact Fractions.
* Beyond ``max_states`` positions the solve stops and a seeded simulation of a fallback
  policy gives an approximate answer, flagged ``exact=False`` with its standard error: a
  rule of thumb (``_heuristic_place``, ``_heuristic_exchange``) while more than ``ENDGAME``
  cup spaces are free, exact play after (within a quarter of the budget more). A fixed
  policy, so a lower estimate of optimal play (``CupTest.lower``); its standard error counts
  the simulation's noise, not that bias, which ``benchmarks/bench_roaster.py`` measures.
  Without Sweetness, Choice and Exchange the number of positions is counted beforehand
  (exactly), and a solve known to be over budget is not started.
* :func:`one_more_round` plays the next round with plain roasting (no effects; pass
  ``act=`` for another round policy), then stops: a lower bound on what that round can be
  worth. Its draws are all weighed when few enough (or ``max_outcomes=None``), else a
  stratified sample is (flagged, with a standard error); one solver serves every draw's cup
  test, as they share most positions.

Example:
    >>> from coffeegames.roaster.rules import Rules
    >>> r = stop_now(["bean2"] * 6 + ["bean1"] * 6 + ["hard", "smoke", "aroma"], Rules(card="Zambia Kasama AA"))
    >>> r.exact, r.value == r.dist.mean(), sum(r.dist.values())
    (True, True, Fraction(1, 1))
    >>> r.decision("smoke"), r.decision("bean2")
    ('tray', 'cup')
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, lcm, prod
from typing import Any

import numpy as np
import pandas as pd

from ..exact import Dist
from .rules import CUP_SPACES, TRAY_SPACES, Rules
from .state import Continue, Exchange, Keep, KeepTwo, NoExchange, Roast, State, Stop, ToCup, ToTray
from .tokens import CHOICE, CUP_EFFECTS, EXCHANGE, EXTRA_BEAN, MOISTURE, SWEETNESS, TOKENS, TRAY, key, msort, roast

MAX_STATES = 250_000
"""Default budget of positions for an exact solve (about 1 s on a laptop, ≈ 4 µs a position; see benchmarks/README.md)."""
SAMPLES = 1_000
"""Default number of seeded cup tests simulated when the exact solve is over budget."""
ENDGAME = 7
"""The fallback policy plays exactly (by the solver) once at most this many cup spaces are free ..."""
ENDGAME_BUDGET = 4
"""... within another ``max_states // ENDGAME_BUDGET`` positions."""

Counts = tuple[int, ...]


class _OverBudget(Exception):
    pass


# -- the solver ---------------------------------------------------------------------------

_BITS = 6
"""Bits a kind in a packed count vector: a bag holds at most 63 tokens of one kind."""
_MASK = (1 << _BITS) - 1

Node = tuple[int, int, int, int, int]
"""A position inside the search: (packed bag, packed cup, tray tokens, tokens in the bag, tokens in the cup)."""


class _Solver:
    """Memoised DP over cup-test positions for one game's rules and active cup effects.

    Tokens that score alike (:meth:`.rules.Rules.scoring_class`, e.g. hard beans and smoke) are one kind, named
    by its first token (``rep``); a count vector over the kinds is packed into one int (``_BITS`` bits a kind), so a
    position is one dict key and a draw one subtraction. The methods taking count tuples (``value``, ``score``,
    ``full``, ``position``) are for callers; the packed ones (``_w``, ``_moves``) run the search.
    """

    def __init__(self, rules: Rules, active: Iterable[str], tokens: Iterable[str], tray_spaces: int,
                 max_states: int | None) -> None:
        board = rules.board
        active = set(active)
        self.rules, self.tray_spaces, self.max_states = rules, tray_spaces, max_states
        first: dict[tuple, str] = {}
        self.rep = {t: first.setdefault(rules.scoring_class(t), t) for t in sorted(set(tokens), key=key)}
        self.kinds = tuple(first.values())
        self.index = {t: self.kinds.index(r) for t, r in self.rep.items()}
        self.shifts = tuple(_BITS * i for i in range(len(self.kinds)))
        self.cup_shift, self.tray_shift = _BITS * len(self.kinds), 2 * _BITS * len(self.kinds)
        self.sweet_space = board.sweetness_space if SWEETNESS in active else None
        self.choice_spaces = frozenset(board.choice_spaces) if CHOICE in active else frozenset()
        self.exchange = EXCHANGE in active
        self.extra = (EXTRA_BEAN,) if EXTRA_BEAN in active else ()
        self.values: dict[int, int] = {}
        self.exchanges: dict[tuple[Counts, Counts], tuple[int, Counts | None]] = {}
        self.scores: dict[int, int] = {}
        self.tuple_scores: dict[Counts, int] = {}
        self.work = 0  # Exchange's draws weighed, in positions' worth of time (they count toward the budget)
        self.threes: dict[Counts, list[tuple[tuple[int, ...], int]]] = {}  # bag → its draws of 3 (kind indices, ways)
        self.kept: dict[tuple[Counts, tuple[int, ...]], Counts] = {}
        self.fallback = False  # whether a solve went over budget (and the fallback policy got its own budget)
        self.played = [0, 0]  # the fallback's decisions: [exact, by the rule of thumb]
        self.scale(0)

    def scale(self, tokens: int) -> None:
        """Fix the common denominator ``unit`` for a test of at most ``tokens`` tokens (bag, cup, hand and tray).

        Values are held as integers ``unit × expected score``. Every probability along a play is a product of at most
        ``tokens + 8`` factors ``ways / t`` with ``t ≤ tokens`` (a single draw is one factor, Choice's ordered pair
        two, Exchange's draw of 3 three), so ``unit = lcm(1..tokens) ** (tokens + 8)`` times any value or reach
        probability is an integer, and each weighted sum below divides exactly (checked) — the same exact Fractions
        as a Fraction search, at integer cost.
        """
        n = max(tokens, 3)
        self.unit = lcm(*range(1, n + 1)) ** (n + 8)

    # -- count tuples (for callers) -----------------------------------------------------
    def counts(self, tokens: Iterable[str]) -> Counts:
        out = [0] * len(self.kinds)
        for t in tokens:
            if t not in self.index:
                raise ValueError(f"{t!r} is not among this cup test's tokens ({', '.join(self.rep)})")
            out[self.index[t]] += 1
        return tuple(out)

    def tokens(self, counts: Counts) -> tuple[str, ...]:
        return tuple(k for k, n in zip(self.kinds, counts) for _ in range(n))

    def pick(self, tokens: Iterable[str], counts: Counts) -> tuple[str, ...]:
        """Tokens from ``tokens`` (actual tokens, e.g. a hand) whose kinds make up ``counts``."""
        need, out = list(counts), []
        for t in tokens:
            i = self.index[t]
            if need[i]:
                need[i] -= 1
                out.append(t)
        return tuple(out)

    def pack(self, counts: Counts) -> int:
        return sum(n << s for n, s in zip(counts, self.shifts))

    def unpack(self, code: int) -> Counts:
        return tuple((code >> s) & _MASK for s in self.shifts)

    def node(self, bag: Counts, cup: Counts, tray: int) -> Node:
        return self.pack(bag), self.pack(cup), tray, sum(bag), sum(cup)

    def sweet(self, size: int) -> bool:
        return self.sweet_space is not None and size >= self.sweet_space

    def position(self, cup: Counts) -> int:
        return self._position(sum(cup))

    def _position(self, size: int) -> int:
        return size + self.sweet(size)

    def score(self, cup: Counts) -> int:
        found = self.tuple_scores.get(cup)
        if found is None:
            found = self.tuple_scores[cup] = self._score(self.pack(cup))
        return found

    def _score(self, cup: int) -> int:
        found = self.scores.get(cup)
        if found is None:
            tokens = self.tokens(self.unpack(cup))
            found = self.rules.score(tokens + ((SWEETNESS,) if self.sweet(len(tokens)) else ()) + self.extra).total
            self.scores[cup] = found
        return found

    # -- values -----------------------------------------------------------------------
    def value(self, bag: Counts, cup: Counts, tray: int) -> Fraction:
        """Expected score under optimal play from a position about to draw (cup_draw / choice_draw)."""
        return Fraction(self.w(bag, cup, tray), self.unit)

    def w(self, bag: Counts, cup: Counts, tray: int) -> int:
        """:meth:`value` times ``unit`` (an integer)."""
        return self._w(*self.node(bag, cup, tray))

    def _w(self, bag: int, cup: int, tray: int, total: int, size: int) -> int:
        state = bag | cup << self.cup_shift | tray << self.tray_shift
        found = self.values.get(state)
        if found is not None:
            return found
        if self.max_states is not None and len(self.values) + self.work >= self.max_states:
            raise _OverBudget
        if self._position(size) >= CUP_SPACES:
            result = self.full(self.unpack(bag), self.unpack(cup))[0] if self.exchange else self._score(cup) * self.unit
        elif not total:
            result = self._score(cup) * self.unit
        else:
            moves, d = self._moves(bag, cup, tray, total, size)
            result = _div(sum(p * v for p, v, _ in moves), d)
        self.values[state] = result
        return result

    def _moves(self, bag: int, cup: int, tray: int, total: int, size: int) -> tuple[list[tuple[int, int, Node]], int]:
        """Each chance outcome's weight (its probability times the returned denominator), its value (times ``unit``)
        under the best decision, and that decision's next position. Among equal values the cup goes first, and
        Choice keeps the kind that comes first."""
        out = []
        values, cs, ts, w = self.values, self.cup_shift, self.tray_shift, self._w
        present = [(1 << s, n) for s in self.shifts if (n := (bag >> s) & _MASK)]
        position = self._position(size)
        if position in self.choice_spaces and total >= 2:
            kept = [(bag - o, cup + o, tray, total - 1, size + 1) for o, _ in present]  # the other token goes back
            found = [w(*k) for k in kept]
            for a, (_, na) in enumerate(present):
                if na >= 2:
                    out.append((na * (na - 1), found[a], kept[a]))
                for b in range(a + 1, len(present)):
                    best = b if found[b] > found[a] else a
                    out.append((2 * na * present[b][1], found[best], kept[best]))
            return out, total * (total - 1)
        tray_ok = tray < self.tray_spaces and position not in self.choice_spaces
        cup_tray, tray_tray = cup << cs | tray << ts, cup << cs | (tray + 1) << ts  # the key's cup and tray parts
        for o, n in present:
            rest = bag - o
            v = values.get(rest | cup_tray + (o << cs))
            if v is None:
                v = w(rest, cup + o, tray, total - 1, size + 1)
            if tray_ok:
                v2 = values.get(rest | tray_tray)
                if v2 is None:
                    v2 = w(rest, cup, tray + 1, total - 1, size)
                if v2 > v:
                    out.append((n, v2, (rest, cup, tray + 1, total - 1, size)))
                    continue
            out.append((n, v, (rest, cup + o, tray, total - 1, size + 1)))
        return out, total

    def full(self, bag: Counts, cup: Counts) -> tuple[int, Counts | None]:
        """A full cup with Exchange unused: (value times ``unit``, the pair of kinds to return, or None to keep the cup)."""
        found = self.exchanges.get((bag, cup))
        if found is not None:
            return found
        best: tuple[int, Counts | None] = (self.score(cup) * self.unit, None)
        weighed = 0
        for pair in _pairs(cup):
            draws, d = self.exchange_weights(bag, cup, pair)
            weighed += len(draws)
            v = _div(sum(p * self.score(c) for p, c in draws) * self.unit, d)
            if v > best[0]:
                best = (v, pair)
        self.work += weighed // 8  # about 8 draws weighed take the time of one position
        self.exchanges[(bag, cup)] = best
        return best

    def exchange_draws(self, bag: Counts, cup: Counts, pair: Counts) -> list[tuple[Fraction, Counts]]:
        """After returning ``pair``: each draw of 3 with its probability and the best cup keeping 2 of them."""
        draws, d = self.exchange_weights(bag, cup, pair)
        return [(Fraction(p, d), c) for p, c in draws]

    def exchange_weights(self, bag: Counts, cup: Counts, pair: Counts) -> tuple[list[tuple[int, Counts]], int]:
        """:meth:`exchange_draws` as integer weights over a common denominator (returned)."""
        bag2 = tuple(b + r for b, r in zip(bag, pair))
        cup2 = tuple(c - r for c, r in zip(cup, pair))
        total = sum(bag2)
        if total <= 2:
            return [(1, tuple(c + b for c, b in zip(cup2, bag2)))], 1
        draws = self.threes.get(bag2)
        if draws is None:
            present = [i for i, n in enumerate(bag2) if n]
            draws = self.threes[bag2] = [(three, prod(comb(bag2[i], three.count(i)) for i in set(three)))
                                         for three in combinations_with_replacement(present, 3)
                                         if all(three.count(i) <= bag2[i] for i in three)]
        return [(ways, self.keep_two(cup2, drawn)) for drawn, ways in draws], comb(total, 3)

    def keep_two(self, cup: Counts, drawn: Sequence[int]) -> Counts:
        """Exchange's last step: the best cup keeping 2 of the 3 drawn kinds (indices)."""
        drawn = tuple(drawn)
        found = self.kept.get((cup, drawn))
        if found is None:
            found = self.kept[(cup, drawn)] = max((tuple(c + p.count(k) for k, c in enumerate(cup)) for p in _sub_pairs(drawn)),
                                                  key=self.score)
        return found

    # -- the exact distribution ----------------------------------------------------------
    def dist(self, roots: list[tuple[Fraction, Any]]) -> Dist:
        """Spread probability forward from root positions (count tuples ``(bag, cup, tray)``, or final cups as
        ``("cup", counts)``) under the best decisions."""
        final: dict[int, int] = {}
        layers: dict[int, dict] = {}
        unit = self.unit

        def add(p: int, node: Any) -> None:  # p: reach probability times ``unit``
            if node[0] == "cup":
                s = self.score(node[1])
                final[s] = final.get(s, 0) + p
            else:
                layer = layers.setdefault(node[3], {})
                layer[node] = layer.get(node, 0) + p

        for p, node in roots:
            q = p * unit
            if q.denominator != 1:
                raise AssertionError("cup-test denominator does not divide a root probability")
            add(q.numerator, node if node[0] == "cup" else self.node(*node))
        while layers:
            for (bag, cup, tray, total, size), mass in layers.pop(max(layers)).items():
                if self._position(size) >= CUP_SPACES:
                    b, c = self.unpack(bag), self.unpack(cup)
                    pair = self.full(b, c)[1] if self.exchange else None
                    draws, d = ([(1, c)], 1) if pair is None else self.exchange_weights(b, c, pair)
                    for p, c2 in draws:
                        add(_div(mass * p, d), ("cup", c2))
                elif not total:
                    add(mass, ("cup", self.unpack(cup)))
                else:
                    moves, d = self._moves(bag, cup, tray, total, size)
                    for p, _, nxt in moves:
                        add(_div(mass * p, d), nxt)
        return Dist({s: Fraction(m, unit) for s, m in final.items()})


def _div(a: int, d: int) -> int:
    """``a / d``, known to be an integer (see :meth:`_Solver.scale`); checked."""
    q, r = divmod(a, d)
    if r:
        raise AssertionError("cup-test denominator does not divide a weighted sum")
    return q


def _count_positions(solver: _Solver, bag: Counts, cup: Counts, tray: int) -> int | None:
    """How many positions the exact solve from ``(bag, cup, tray)`` (about to draw) visits, counted without solving;
    None with Sweetness, Choice or Exchange active (only plain draws, the Extra Bean and a larger tray are counted).

    Without those effects every draw goes to the cup or (while it has room) the tray, so the positions reached are
    exactly ``(bag − X − Y, cup + X, tray + |Y|)`` for multisets ``X + Y`` within the bag, ``|X|`` at most the cup's
    free spaces and ``|Y|`` at most the tray's (none once the cup is full): counted per kind by a small convolution.
    """
    if solver.sweet_space is not None or solver.choice_spaces or solver.exchange:
        return None
    room, tray_room = CUP_SPACES - solver.position(cup), solver.tray_spaces - tray
    if room <= 0:
        return 1
    tray_room = max(tray_room, 0)
    ways = [[0] * (tray_room + 1) for _ in range(room + 1)]  # ways[|X|][|Y|]
    ways[0][0] = 1
    for n in bag:
        new = [[0] * (tray_room + 1) for _ in range(room + 1)]
        for a in range(room + 1):
            for b in range(tray_room + 1):
                if ways[a][b]:
                    for c in range(min(n, room - a) + 1):
                        for d in range(min(n - c, tray_room - b) + 1):
                            new[a + c][b + d] += ways[a][b]
        ways = new
    return sum(map(sum, ways))


def _minus(counts: Counts, i: int) -> Counts:
    return counts[:i] + (counts[i] - 1,) + counts[i + 1:]


def _plus(counts: Counts, i: int) -> Counts:
    return counts[:i] + (counts[i] + 1,) + counts[i + 1:]


def _pairs(counts: Counts) -> list[Counts]:
    """Every sub-multiset of two (as count tuples)."""
    kinds = [i for i, n in enumerate(counts) if n]
    out = []
    for a, b in combinations_with_replacement(kinds, 2):
        if a != b or counts[a] >= 2:
            pair = [0] * len(counts)
            pair[a] += 1
            pair[b] += 1
            out.append(tuple(pair))
    return out


def _sub_pairs(drawn: tuple) -> list[tuple]:
    return list(dict.fromkeys(tuple(sorted(p)) for p in ((drawn[0], drawn[1]), (drawn[0], drawn[2]), (drawn[1], drawn[2]))))


# -- the fallback policy: a rule of thumb, exact in the endgame ---------------------------------------------------

def _fill(solver: _Solver, bag: Counts, k: int) -> Counts:
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


def _projected(solver: _Solver, bag: Counts, cup: Counts) -> int:
    """The score of ``cup`` completed with a typical rest from ``bag``."""
    room = CUP_SPACES - (solver.sweet_space is not None) - sum(cup)
    rest = _fill(solver, bag, room)
    return solver.score(tuple(c + r for c, r in zip(cup, rest)))


def _heuristic_place(solver: _Solver, bag: Counts, cup: Counts, tray: int, i: int) -> bool:
    """Whether the heuristic puts kind ``i`` (just drawn) on the tray: it projects worse in the cup than an average
    token, and fewer tokens worse than it are expected among the draws still to come than the tray has room for."""
    left = solver.tray_spaces - tray
    if left <= 0:
        return False
    base = _projected(solver, bag, cup)
    gain = [_projected(solver, bag, _plus(cup, j)) - base if n or j == i else 0 for j, n in enumerate(bag)]
    if gain[i] >= 0:
        return False
    total = sum(bag)
    worse = sum(n for j, n in enumerate(bag) if gain[j] < gain[i])
    coming = CUP_SPACES - solver.position(cup) - 1
    return total == 0 or worse * coming / total < left


def _heuristic_exchange(solver: _Solver, bag: Counts, cup: Counts) -> Counts | None:
    """Return the pair whose removal, refilled with 2 typical tokens, projects best (if better than keeping)."""
    best, choice = solver.score(cup), None
    for pair in _pairs(cup):
        bag2 = tuple(b + r for b, r in zip(bag, pair))
        v = _projected(solver, bag2, tuple(c - r for c, r in zip(cup, pair)))
        if v > best:
            best, choice = v, pair
    return choice


def _endgame(solver: _Solver, cup: Counts, exact: Callable[[], Any]) -> Any:
    """``exact()`` (a decision from exact values) once the rest of the test is small and within budget, else None."""
    if CUP_SPACES - solver.position(cup) > ENDGAME:
        return None
    try:
        return exact()
    except _OverBudget:
        return None


def _place(solver: _Solver, bag: Counts, cup: Counts, tray: int, i: int) -> bool:
    """Whether the fallback policy puts kind ``i``, just drawn (``bag`` is without it), on the tray."""
    if tray >= solver.tray_spaces or solver.position(cup) in solver.choice_spaces:
        return False
    found = _endgame(solver, cup, lambda: solver.w(bag, cup, tray + 1) > solver.w(bag, _plus(cup, i), tray))
    solver.played[found is None] += 1
    return _heuristic_place(solver, bag, cup, tray, i) if found is None else found


def _keep(solver: _Solver, bag: Counts, cup: Counts, tray: int, x: int, y: int) -> int:
    """The kind the fallback policy keeps of a Choice pair ``x, y`` (``bag`` is without both)."""
    x, y = sorted((x, y))
    found = _endgame(solver, cup, lambda: y if solver.w(_plus(bag, x), _plus(cup, y), tray) > solver.w(_plus(bag, y), _plus(cup, x), tray)
                     else x)
    solver.played[found is None] += 1
    if found is None:
        found = y if _projected(solver, bag, _plus(cup, y)) > _projected(solver, bag, _plus(cup, x)) else x
    return found


def _exchange(solver: _Solver, bag: Counts, cup: Counts) -> Counts | None:
    """The pair the fallback policy returns for Exchange (None: keep the cup): exact if already solved, else the rule of thumb."""
    found = solver.exchanges.get((bag, cup))
    return found[1] if found is not None else _heuristic_exchange(solver, bag, cup)


def _simulate(solver: _Solver, bag: Counts, cup: Counts, tray: int, n: int, seed: int) -> list[int]:
    """``n`` seeded cup tests under the fallback policy, on count tuples (same rules as the engine)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        b, c, t = list(bag), cup, tray

        def draw() -> int:
            i = int(rng.choice(len(b), p=np.array(b) / sum(b)))
            b[i] -= 1
            return i

        while solver.position(c) < CUP_SPACES and sum(b):
            if solver.position(c) in solver.choice_spaces and sum(b) >= 2:
                x, y = draw(), draw()
                keep = _keep(solver, tuple(b), c, t, x, y)
                b[x + y - keep] += 1
                c = _plus(c, keep)
                continue
            i = draw()
            if _place(solver, tuple(b), c, t, i):
                t += 1
            else:
                c = _plus(c, i)
        if solver.position(c) >= CUP_SPACES and solver.exchange:
            pair = _exchange(solver, tuple(b), c)
            if pair is not None:
                b = [x + r for x, r in zip(b, pair)]
                c = tuple(x - r for x, r in zip(c, pair))
                drawn = [draw() for _ in range(min(3, sum(b)))]
                c = solver.keep_two(c, drawn) if len(drawn) == 3 else tuple(x + drawn.count(k) for k, x in enumerate(c))
        out.append(solver.score(c))
    return out


# -- the public API -------------------------------------------------------------------------

@dataclass
class CupTest:
    """The cup test from one position: its score distribution under the best (or, if not ``exact``, the fallback) play.

    ``value`` is the expected score (a Fraction: exact, or the simulated mean), ``dist`` the
    distribution of the score, ``states`` the positions solved, ``stderr`` the simulation's
    standard error (0 when exact), ``message`` says how the answer was found.
    """

    value: Fraction
    dist: Dist
    exact: bool
    states: int
    message: str
    stderr: float
    seconds: float
    _solver: _Solver = field(repr=False)
    _full: Counts = field(repr=False)

    @property
    def lower(self) -> bool:
        """Whether ``value`` is a lower estimate: the fallback policy played, which cannot beat the best play."""
        return not self.exact

    def decision(self, token: str, cup: Sequence[str] = (), tray: Sequence[str] = ()) -> str:
        """``"cup"`` or ``"tray"`` for ``token`` just drawn with ``cup`` and ``tray`` holding these tokens
        (the bag is what remains of this test's tokens). Exact play when ``exact``, else the fallback policy.

        >>> from coffeegames.roaster.rules import Rules
        >>> stop_now(["bean3"] * 5 + ["hard"] * 2, Rules(card="Zambia Kasama AA")).decision("hard", cup=["bean3"])
        'tray'
        """
        s = self._solver
        c, t = s.counts(x for x in cup if x != SWEETNESS), s.counts(tray)
        i = s.counts([token]).index(1)
        rest = tuple(f - a - b for f, a, b in zip(self._full, c, t))
        if rest[i] < 1 or min(rest) < 0:
            raise ValueError("cup, tray and the drawn token hold more tokens than this cup test has")
        if s.position(c) >= CUP_SPACES or len(tray) > s.tray_spaces:
            raise ValueError(f"no token is placed with {s.position(c)} cup spaces filled and {len(tray)} on the tray")
        if len(tray) >= s.tray_spaces or s.position(c) in s.choice_spaces:
            return "cup"
        bag = _minus(rest, i)
        if not self.exact:
            return "tray" if _place(s, bag, c, len(tray), i) else "cup"
        return "cup" if s.value(bag, _plus(c, i), len(tray)) >= s.value(bag, c, len(tray) + 1) else "tray"

    def action(self, state: State) -> Any:
        """The engine action this answer plays at a cup-test decision (a policy for :func:`coffeegames.engine.play_out`)."""
        s = self._solver
        bag, cup = s.counts(t for t in state.bag if t != MOISTURE), s.counts(t for t in state.cup if t != SWEETNESS)
        tray = len(state.tray)
        if state.phase == "place":
            return ToCup() if self.decision(state.hand[0], state.cup, state.tray) == "cup" else ToTray()
        if state.phase == "choose":
            a, b = sorted(s.index[t] for t in state.hand)
            if self.exact:  # among equals the kind that comes first, as the solve does
                keep = b if s.w(_plus(bag, a), _plus(cup, b), tray) > s.w(_plus(bag, b), _plus(cup, a), tray) else a
            else:
                keep = _keep(s, bag, cup, tray, a, b)
            return Keep(next(t for t in state.hand if s.index[t] == keep))
        if state.phase == "exchange":
            pair = s.full(bag, cup)[1] if self.exact else _exchange(s, bag, cup)
            return NoExchange() if pair is None else Exchange(msort(s.pick((t for t in state.cup if t != SWEETNESS), pair)))
        if state.phase == "exchange_keep":
            best = s.keep_two(cup, [s.index[t] for t in state.hand])
            return KeepTwo(msort(s.pick(state.hand, tuple(b - a for a, b in zip(cup, best)))))
        raise ValueError(f"no cup-test decision in phase {state.phase!r}")


def _as_tokens(bag: Any) -> tuple[str, ...]:
    if isinstance(bag, Mapping):
        items = tuple(t for t, n in bag.items() for _ in range(n))
    elif isinstance(bag, (str, bytes)) or not isinstance(bag, Iterable):
        raise TypeError(f"a bag is a list of tokens or a mapping token → count; got {bag!r}")
    else:
        items = tuple(bag)
    bad = [t for t in items if t not in TOKENS]
    if bad:
        raise ValueError(f"not bag tokens: {bad}; tokens are {', '.join(TOKENS)}")
    return items


@dataclass(frozen=True)
class _Test:
    """A cup test to solve, read from an engine state or from a bag: what :func:`stop_now` starts from."""

    rules: Rules
    active: tuple[str, ...]
    bag: tuple[str, ...]  # no moisture (it leaves and is redrawn)
    cup: tuple[str, ...]  # no Sweetness (it follows from the cup's size)
    tray: tuple[str, ...]
    hand: tuple[str, ...]
    phase: str
    exchange: bool  # Exchange active and unused
    tray_spaces: int

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.bag + self.cup + self.hand + self.tray

    def solver(self, max_states: int | None, tokens: Iterable[str] = ()) -> _Solver:
        """A solver for this test (``tokens``: more tokens it should know, to be shared by other tests)."""
        solver = _Solver(self.rules, self.active, (*self.tokens, *tokens), self.tray_spaces, max_states)
        solver.exchange = self.exchange
        return solver

    def shares(self, other: _Test) -> bool:
        """Whether one solver can solve both tests: same rules, cup effects, tray and number of tokens."""
        return (self.rules, set(self.active), self.exchange, self.tray_spaces, len(self.tokens)) == \
            (other.rules, set(other.active), other.exchange, other.tray_spaces, len(other.tokens))


def _read(position: State | Iterable[str] | Mapping[str, int], rules: Rules | str | None, active: Iterable[str],
          cup: Sequence[str], tray: Sequence[str]) -> _Test:
    """The cup test ``stop_now`` is asked about (see its arguments), checked."""
    if isinstance(position, State):
        state = position
        if state.phase == "decide":
            state = state.apply(Stop())
        elif state.phase in ("shuffle", "draw", "act", "remove_two"):
            raise ValueError(f"stop_now needs a state where the player may stop (phase 'decide') or the cup test; got {state.phase!r}")
        if state.phase in ("choice_draw", "exchange_draw") and state.hand:
            raise ValueError(f"stop_now cannot start halfway through a {state.phase!r} draw; step to the next decision")
        test = _Test(state.rules, tuple(state.active), tuple(t for t in state.bag if t != MOISTURE),
                     tuple(t for t in state.cup if t != SWEETNESS), tuple(state.tray), tuple(state.hand), state.phase,
                     EXCHANGE in state.active and not state.exchanged, state.tray_spaces)
    else:
        if rules is None:
            raise ValueError("stop_now on a bag needs the rules (a Rules or a card name)")
        rules = Rules(card=rules) if isinstance(rules, str) else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules or a card name; got {rules!r}")
        active = tuple(active)
        unknown = [e for e in active if e not in CUP_EFFECTS]
        if unknown:
            raise ValueError(f"unknown cup effects {unknown}; they are {', '.join(CUP_EFFECTS)}")
        bag_tokens, cup, tray = _as_tokens(position), _as_tokens(cup), _as_tokens(tray)
        tray_spaces = TRAY_SPACES + (rules.tray_bonus if TRAY in active else 0)
        if MOISTURE in cup or len(cup) > CUP_SPACES or len(tray) > tray_spaces:
            raise ValueError(f"a cup holds up to {CUP_SPACES} tokens (no moisture), the tray up to {tray_spaces}")
        test = _Test(rules, active, tuple(t for t in bag_tokens if t != MOISTURE), cup, tray, (), "cup_draw",
                     EXCHANGE in active, tray_spaces)
    most = max(Counter(test.tokens).values(), default=0)
    if most > _MASK:
        raise ValueError(f"the cup-test solver takes at most {_MASK} tokens of one kind; got {most}")
    return test


def stop_now(
    position: State | Iterable[str] | Mapping[str, int],
    rules: Rules | str | None = None,
    *,
    active: Iterable[str] = (),
    cup: Sequence[str] = (),
    tray: Sequence[str] = (),
    max_states: int | None = MAX_STATES,
    samples: int = SAMPLES,
    seed: int = 0,
) -> CupTest:
    """The cup test's score if the player stops now (or from a cup-test position), under the best decisions.

    ``position`` is an engine :class:`~.state.State` (phase ``decide``, or any cup-test phase with a
    token in hand or none), or a bag (tokens, or token → count) with ``rules`` (a :class:`Rules` or a
    card name), the ``active`` cup effects and what the ``cup`` and ``tray`` already hold. Beyond
    ``max_states`` positions (``None``: no limit) the answer is a seeded simulation of ``samples``
    cup tests under the fallback policy (see the module notes), flagged ``exact=False``.

    >>> r = stop_now({"bean3": 3, "bean2": 2, "smoke": 1}, "Zambia Kasama AA", active=["extra_bean"])
    >>> r.value, r.states
    (Fraction(1, 1), 155)
    """
    test = _read(position, rules, active, cup, tray)
    return _solve(test, test.solver(max_states), samples, seed)


def _solve(test: _Test, solver: _Solver, samples: int, seed: int) -> CupTest:
    """Solve ``test`` with ``solver`` (fresh, or shared with tests of the same size: its positions are reused)."""
    started, before = time.perf_counter(), len(solver.values)
    bag, c, t = solver.counts(test.bag), solver.counts(test.cup), len(test.tray)
    full = tuple(a + b + h + x for a, b, h, x in zip(bag, c, solver.counts(test.hand), solver.counts(test.tray)))
    solver.scale(sum(full))
    roots = _roots(solver, test.phase, bag, c, t, test.hand)
    drawing = test.phase in ("cup_draw", "choice_draw")
    predicted = _count_positions(solver, bag, c, t) if drawing and not before else None
    max_states = solver.max_states
    try:
        if max_states is not None and predicted is not None and predicted > max_states:
            raise _OverBudget  # known too large: go straight to the simulation (no abandoned solve)
        value = sum((p * (Fraction(solver.score(n[1])) if n[0] == "cup" else solver.value(*n)) for p, n in roots), Fraction(0))
        dist = solver.dist(roots)
        exact, stderr = True, 0.0
        message = f"exact: {len(solver.values):,} positions solved" if not before else \
            f"exact: {len(solver.values) - before:,} new positions solved ({len(solver.values):,} shared)"
    except _OverBudget:
        if not drawing:
            raise ValueError(f"over budget in phase {test.phase!r}: the simulation starts from a draw; raise max_states") from None
        if not solver.fallback:  # the fallback's exact endgames get a budget of their own
            solver.fallback = True
            solver.max_states = len(solver.values) + solver.work + max_states // ENDGAME_BUDGET if max_states is not None else None
        solver.played = [0, 0]
        scores = _simulate(solver, bag, c, t, samples, seed)
        exactly = solver.played[0] / max(1, sum(solver.played))
        dist = Dist.from_weights(Counter(scores))
        value, exact = dist.mean(), False
        stderr = float(np.std(scores, ddof=1) / np.sqrt(len(scores))) if len(scores) > 1 else float("inf")
        over = f"{predicted:,} positions, over {max_states:,}" if predicted is not None and max_states is not None and \
            predicted > max_states else f"over {max_states:,} positions"
        message = (f"approximate: {over}; mean of {samples:,} seeded cup tests (seed {seed}) played exactly in "
                   f"{exactly:.0%} of decisions (those with at most {ENDGAME} cup spaces left, within budget) and by a "
                   f"rule of thumb otherwise: a lower estimate of optimal play, standard error {stderr:.2f}")
    states = len(solver.values) - before if exact else 0
    return CupTest(value, dist, exact, states, message, stderr, time.perf_counter() - started, solver, full)


def _roots(solver: _Solver, phase: str, bag: Counts, cup: Counts, tray: int, hand: Sequence[str]) -> list[tuple[Fraction, Any]]:
    """Where the solve starts, by the engine's phase: positions (bag, cup, tray) or final cups ``("cup", counts)``."""
    one = Fraction(1)
    if phase in ("cup_draw", "choice_draw"):
        return [(one, (bag, cup, tray))]
    if phase == "over":
        return [(one, ("cup", cup))]
    h = [solver.index[x] for x in hand]
    if phase == "place":
        options = [(bag, _plus(cup, h[0]), tray)] + ([(bag, cup, tray + 1)] if tray < solver.tray_spaces else [])
        return [(one, max(options, key=lambda o: solver.value(*o)))]
    if phase == "choose":
        options = [(_plus(bag, b), _plus(cup, a), tray) for a, b in ((h[0], h[1]), (h[1], h[0]))]
        return [(one, max(options, key=lambda o: solver.value(*o)))]
    if phase == "exchange":
        pair = solver.full(bag, cup)[1]
        return [(one, ("cup", cup))] if pair is None else [(p, ("cup", c)) for p, c in solver.exchange_draws(bag, cup, pair)]
    if phase == "exchange_draw":
        return [(p, ("cup", c)) for p, c in solver.exchange_draws(bag, cup, (0,) * len(bag))]
    if phase == "exchange_keep":
        return [(one, ("cup", solver.keep_two(cup, h)))]
    raise ValueError(f"stop_now cannot start in phase {phase!r}")


# -- one more round -----------------------------------------------------------------------------

@dataclass(frozen=True)
class RoundValue:
    """The expected score of roasting once more, then stopping: exact or an estimate (``stderr``).

    ``outcomes`` is how many different draws the round can make, ``weighed`` how many of them
    were solved (all, when exact), ``positions`` the cup-test positions solved for them. ``lower``
    says the value is a lower estimate (some cup tests were simulated by the fallback policy;
    ``stderr`` does not count that bias); otherwise an estimate is unbiased.
    """

    value: Fraction
    exact: bool
    outcomes: int
    weighed: int
    positions: int
    message: str
    stderr: float
    seconds: float
    lower: bool = False


def _plain_roast(state: State) -> Any:
    return Roast()


def _solve_all(tests: Sequence[_Test], max_states: int | None, samples: int, seed: int) -> list[CupTest]:
    """:func:`stop_now` for many tests, one solver for each group of tests that can share it (``max_states`` each)."""
    groups: list[tuple[_Test, _Solver]] = []
    out = []
    for test in tests:
        solver = next((s for t, s in groups if t.shares(test) and all(x in s.index for x in test.tokens)), None)
        if solver is None:
            similar = [t.tokens for t in tests if t.shares(test)]
            solver = test.solver(max_states, (x for tokens in similar for x in tokens))
            groups.append((test, solver))
        out.append(_solve(test, solver, samples, seed))
    return out


def _stratified(after: State, listed: Sequence[tuple[Any, Fraction]], n: int, rng: np.random.Generator) -> list[Any]:
    """``n`` draws picked one from each of ``n`` equally likely strata of ``listed`` (draw, probability), the draws
    ordered by a quick projection of the cup their roasted bag makes: an unbiased sample with less spread."""
    steps = after.rules.roast_steps(after.space)
    solver = _Solver(after.rules, after.active, [t for t in TOKENS if t != MOISTURE], after.tray_spaces, None)
    bag = Counter(t for t in after.bag if t != MOISTURE)
    none = (0,) * len(solver.kinds)

    def projection(drawn: Any) -> int:
        rest = bag - Counter(drawn.tokens)
        rest.update(roast(t, steps) for t in drawn.tokens if t != MOISTURE)
        return _projected(solver, solver.counts(rest.elements()), none)

    ordered = sorted(listed, key=lambda dp: projection(dp[0]))
    ends = np.cumsum([float(p) for _, p in ordered])
    picks = (np.arange(n) + rng.random(n)) / n
    return [ordered[min(int(i), len(ordered) - 1)][0] for i in np.searchsorted(ends, picks * ends[-1], side="right")]


def one_more_round(
    state: State,
    *,
    act: Callable[[State], Any] = _plain_roast,
    max_outcomes: int | None = 200,
    draws: int = 24,
    seed: int = 0,
    max_states: int | None = 4 * MAX_STATES,
    samples: int = 300,
) -> RoundValue:
    """Expected score of one more round (draw, effects by ``act`` — plain roasting by default —, roast) then stopping.

    With at most ``max_outcomes`` different draws (``None``: any number) every draw is weighed by its
    exact probability; otherwise ``draws`` draws are picked by seeded stratified sampling (one from each
    of ``draws`` equally likely strata, the draws ordered by a quick projection of their cup) and
    averaged, an unbiased estimate flagged ``exact=False``. Each draw's cup test is solved by
    :func:`stop_now`, all with one solver, since they share most positions: ``max_states`` positions
    in all, past which the remaining cup tests are simulated (flagged).

    >>> from coffeegames.roaster.state import Game
    >>> s = Game(card="Zambia Kasama AA").new_initial_state(seed=1)
    >>> s = s.apply(s.sample_chance(np.random.default_rng(1))).apply(Roast())
    >>> r = one_more_round(s, draws=4)
    >>> r.exact, r.outcomes, r.weighed, r.message.split(",")[0]
    (False, 477, 4, 'approximate: 4 of 477 possible draws (stratified sample')
    """
    started = time.perf_counter()
    if state.phase != "decide":
        raise ValueError(f"one_more_round needs a state where the player may continue (phase 'decide'); got {state.phase!r}")
    after = state.apply(Continue())
    rng = np.random.default_rng(seed)

    def finish(s: State) -> _Test:
        while s.phase in ("act", "remove_two") or (s.is_chance() and s.phase == "draw"):
            s = s.apply(s.sample_chance(rng) if s.is_chance() else act(s))
        return _read(s, None, (), (), ())

    count = after.chance_outcome_count if after.phase == "draw" else 1
    sampled = after.phase == "draw" and max_outcomes is not None and count > max_outcomes
    if after.phase != "draw":
        weights, tests = [Fraction(1)], [finish(after)]
    elif not sampled:
        listed = after.chance_outcomes()
        weights, tests = [p for _, p in listed], [finish(after.apply(d)) for d, _ in listed]
    else:
        picked = _stratified(after, after.chance_outcomes(), draws, rng)
        weights, tests = [Fraction(1, draws)] * draws, [finish(after.apply(d)) for d in picked]
    results = _solve_all(tests, max_states, samples, seed)
    value = sum((w * r.value for w, r in zip(weights, results)), Fraction(0))
    inner = float(np.sqrt(sum(float(w) ** 2 * r.stderr ** 2 for w, r in zip(weights, results))))
    spread = 0.0
    if sampled:  # strata collapsed in pairs: a conservative standard error of a stratified mean
        v = [float(r.value) for r in results]
        spread = float(np.sqrt(sum((v[i] - v[i + 1]) ** 2 for i in range(0, len(v) - 1, 2)))) / len(v)
    simulated = sum(not r.exact for r in results)
    plain = act is _plain_roast
    exact = not sampled and not simulated and plain
    positions = sum(r.states for r in results)
    how = f"all {count:,} draws" if not sampled else f"{draws} of {count:,} possible draws (stratified sample, seed {seed})"
    solves = f"every cup test exact ({positions:,} positions)" if not simulated else \
        f"{simulated} of {len(results)} cup tests simulated by the fallback over {max_states:,} positions (a lower estimate)"
    stderr = float(np.hypot(spread, inner))
    message = f"{'exact' if exact else 'approximate'}: {how}, {'plain roasting' if plain else 'the given act policy'}, {solves}" + \
        (f"; standard error {stderr:.2f}" if stderr else "")
    return RoundValue(value, exact, count, len(results), positions, message, stderr, time.perf_counter() - started,
                      simulated > 0)


def stop_or_continue(state: State, **options: Any) -> pd.DataFrame:
    """Both numbers for the stop/continue decision: stop now, or roast one more round and then stop.

    ``options`` go to :func:`one_more_round`. On the last thermometer space there is no continuing.
    """
    now = stop_now(state)
    rows = {"stop now": {"expected score": float(now.value), "exact": now.exact, "stderr": now.stderr, "how": now.message}}
    if not state.last_space:
        more = one_more_round(state, **options)
        rows["one more round, then stop"] = {"expected score": float(more.value), "exact": more.exact, "stderr": more.stderr,
                                             "how": more.message}
    return pd.DataFrame.from_dict(rows, orient="index")


__all__ = ["CupTest", "MAX_STATES", "RoundValue", "SAMPLES", "one_more_round", "stop_now", "stop_or_continue"]
