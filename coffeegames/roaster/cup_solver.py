"""The cup test's exact solver: memoised dynamic programming over cup-test positions, in integers.

The cup test (docs/rules/roaster.md, "The cup test") is a small game against the bag: draw one
token at a time, put it in the cup's next space or on the tray (while it has room); Choice,
on its two spaces, draws 2 and keeps 1; Exchange, once the cup is full, may return 2 cup
tokens, draw 3 and keep 2. :class:`Solver` finds the best decisions and the exact score
distribution over positions ``(bag left, cup multiset, tray spaces used)``; cups are scored by
:func:`.scoring.score_cup` (through ``Rules.score``), never by a copy of the scoring rules. An active Sweetness is in
every cup scored, however early the test ends (Rule; ``rules_version`` 1: only once filling reached its space), and
its space is skipped by the drawn tokens (:meth:`Solver.position`).
The public API (:func:`.cup.stop_now`) and the fallback for tests over budget
(:mod:`.cup_fallback`) are built on it; the exactness notes are in :mod:`.cup`.

Example:
    >>> from coffeegames.roaster.rules import Rules
    >>> solver = Solver(Rules(card="Zambia Kasama AA"), (), ["bean3", "hard"], 3, None)
    >>> solver.scale(4)
    >>> # three level-3 beans (skill 1), the hard bean on the tray; no flavour (-3), empty spaces (-5)
    >>> solver.value(solver.counts(["bean3", "bean3", "hard"]), solver.counts(["bean3"]), 0)
    Fraction(-7, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, lcm, prod
from typing import Any

import numpy as np

from ..errors import BadArgument, shown
from ..exact import Dist
from .data import CUP_SPACES
from .rules import Rules
from .tokens import CHOICE, EXCHANGE, EXTRA_BEAN, SWEETNESS, key

__all__ = [
    "BITS", "Counts", "MASK", "Node", "OverBudget", "SHARED_SCORES", "Solver", "count_pairs", "count_positions",
    "exact_div", "minus", "plus", "sub_pairs",
]

Counts = tuple[int, ...]
"""A multiset as counts per kind of one solver (its ``kinds``)."""


class OverBudget(Exception):
    """Raised inside a solve that reaches its ``max_states`` positions."""


BITS = 6
"""Bits a kind in a packed count vector: a bag holds at most 63 tokens of one kind."""
MASK = (1 << BITS) - 1

Node = tuple[int, int, int, int, int]
"""A position inside the search: (packed bag, packed cup, tray tokens, tokens in the bag, tokens in the cup)."""


SHARED_SCORES = 200_000
"""The most cup scores remembered across solvers of the same rules (:meth:`Solver.score`: the advice of one game asks
about the same cups again and again, refresh after refresh)."""
_scores: dict[Rules, dict[tuple[str, ...], int]] = {}


def _shared_scores(rules: Rules) -> dict[tuple[str, ...], int]:
    """The scores remembered for ``rules`` (a few rules at a time, up to :data:`SHARED_SCORES` cups each)."""
    found = _scores.get(rules)
    if found is None or len(found) > SHARED_SCORES:
        if len(_scores) >= 4:
            _scores.clear()
        found = _scores[rules] = {}
    return found


class Solver:
    """Memoised DP over cup-test positions for one game's rules and active cup effects.

    Tokens that score alike (:meth:`.rules.Rules.scoring_class`, e.g. hard beans and smoke) are one kind, named
    by its first token (``rep``); a count vector over the kinds is packed into one int (``BITS`` bits a kind), so a
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
        self.shifts = tuple(BITS * i for i in range(len(self.kinds)))
        self.cup_shift, self.tray_shift = BITS * len(self.kinds), 2 * BITS * len(self.kinds)
        self.sweet_space = board.sweetness_space if SWEETNESS in active else None
        self.sweet_from_start = rules.rules_version >= 2  # Sweetness in the cup from the start of the test (Rule)
        self.choice_spaces = frozenset(board.choice_spaces) if CHOICE in active else frozenset()
        self.exchange = EXCHANGE in active
        self.extra = (EXTRA_BEAN,) if EXTRA_BEAN in active else ()
        self.values: dict[int, int] = {}
        self.exchanges: dict[tuple[Counts, Counts], tuple[int, Counts | None]] = {}
        self.scores: dict[int, int] = {}
        self.tuple_scores: dict[Counts, int] = {}
        self.shared_scores = _shared_scores(rules)  # by the tokens scored (this solver's representatives)
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
    def counts(self, tokens: Iterable[str], where: str = "tokens") -> Counts:
        out = [0] * len(self.kinds)
        for t in tokens:
            if not isinstance(t, str) or t not in self.index:
                raise BadArgument(where, f"{shown(t)} is not among this cup test's tokens ({', '.join(self.rep)})")
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
        return tuple((code >> s) & MASK for s in self.shifts)

    def node(self, bag: Counts, cup: Counts, tray: int) -> Node:
        return self.pack(bag), self.pack(cup), tray, sum(bag), sum(cup)

    def sweet(self, size: int) -> bool:
        """Whether the next free space of a cup holding ``size`` drawn tokens is past Sweetness's space (skipped)."""
        return self.sweet_space is not None and size >= self.sweet_space

    def sweet_in(self, size: int) -> bool:
        """Whether a cup holding ``size`` drawn tokens holds Sweetness: always when active (Rule); ``rules_version`` 1:
        once filling reached its space."""
        return self.sweet_space is not None and (self.sweet_from_start or size >= self.sweet_space)

    def position(self, cup: Counts) -> int:
        return self._position(sum(cup))

    def _position(self, size: int) -> int:
        return size + self.sweet(size)

    def score(self, cup: Counts) -> int:
        found = self.tuple_scores.get(cup)
        if found is None:
            found = self.tuple_scores[cup] = self._score(self.pack(cup))
        return found

    def score_many(self, cups: np.ndarray) -> np.ndarray:
        """:meth:`score` of many cups at once (rows of counts over ``kinds``), with the same rules in one pass of numpy."""
        columns = {t: cups[:, i] for i, t in enumerate(self.kinds)}
        if self.sweet_space is not None:
            columns[SWEETNESS] = np.ones(len(cups), dtype=np.int64) if self.sweet_from_start else \
                (cups.sum(1) >= self.sweet_space).astype(np.int64)
        if self.extra:
            columns[EXTRA_BEAN] = np.ones(len(cups), dtype=np.int64)
        return self.rules._score_columns(columns)

    def _score(self, cup: int) -> int:
        found = self.scores.get(cup)
        if found is None:
            tokens = self.tokens(self.unpack(cup))
            tokens += ((SWEETNESS,) if self.sweet_in(len(tokens)) else ()) + self.extra
            found = self.shared_scores.get(tokens)
            if found is None:
                found = self.shared_scores[tokens] = self.rules._score_counts(Counter(tokens)).total
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
            raise OverBudget
        if self._position(size) >= CUP_SPACES:
            result = self.full(self.unpack(bag), self.unpack(cup))[0] if self.exchange else self._score(cup) * self.unit
        elif not total:
            result = self._score(cup) * self.unit
        else:
            moves, d = self.moves(bag, cup, tray, total, size)
            result = exact_div(sum(p * v for p, v, _ in moves), d)
        self.values[state] = result
        return result

    def moves(self, bag: int, cup: int, tray: int, total: int, size: int) -> tuple[list[tuple[int, int, Node]], int]:
        """Each chance outcome's weight (its probability times the returned denominator), its value (times ``unit``)
        under the best decision, and that decision's next position. Among equal values the cup goes first, and
        Choice keeps the kind that comes first."""
        out = []
        values, cs, ts, w = self.values, self.cup_shift, self.tray_shift, self._w
        present = [(1 << s, n) for s in self.shifts if (n := (bag >> s) & MASK)]
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
        for pair in count_pairs(cup):
            draws, d = self.exchange_weights(bag, cup, pair)
            weighed += len(draws)
            v = exact_div(sum(p * self.score(c) for p, c in draws) * self.unit, d)
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
            found = self.kept[(cup, drawn)] = max((tuple(c + p.count(k) for k, c in enumerate(cup)) for p in sub_pairs(drawn)),
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
                    for weight, c2 in draws:
                        add(exact_div(mass * weight, d), ("cup", c2))
                elif not total:
                    add(mass, ("cup", self.unpack(cup)))
                else:
                    moves, d = self.moves(bag, cup, tray, total, size)
                    for weight, _, nxt in moves:
                        add(exact_div(mass * weight, d), nxt)
        return Dist({s: Fraction(m, unit) for s, m in final.items()})


def exact_div(a: int, d: int) -> int:
    """``a / d``, known to be an integer (see :meth:`Solver.scale`); checked."""
    q, r = divmod(a, d)
    if r:
        raise AssertionError("cup-test denominator does not divide a weighted sum")
    return q


def count_positions(solver: Solver, bag: Counts, cup: Counts, tray: int) -> int | None:
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


def minus(counts: Counts, i: int) -> Counts:
    return counts[:i] + (counts[i] - 1,) + counts[i + 1:]


def plus(counts: Counts, i: int) -> Counts:
    return counts[:i] + (counts[i] + 1,) + counts[i + 1:]


def count_pairs(counts: Counts) -> list[Counts]:
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


def sub_pairs(drawn: tuple) -> list[tuple]:
    return list(dict.fromkeys(tuple(sorted(p)) for p in ((drawn[0], drawn[1]), (drawn[0], drawn[2]), (drawn[1], drawn[2]))))

