"""The cup test over count vectors: its rules in one place, for the tables that solve it.

The cup test (docs/rules/roaster.md, "The cup test") is a small game against the bag: draw one token at a time, put
it in the cup's next space or on the tray (while it has room); Choice, on its two spaces, draws 2 and keeps 1;
Exchange, once the cup is full, may return 2 cup tokens, draw 3 and keep 2. A :class:`Solver` holds one test's
rules and active cup effects over *kinds* (tokens that score alike are one kind), and states each rule once, for a
cup of ``size`` drawn tokens (an int, or a numpy array of them):

* :meth:`Solver.space`: the space the next drawn token fills (Sweetness's own space skipped);
* :meth:`Solver.sweet_in`: whether Sweetness is in the cup (``rules_version`` 1: only once filling reached it);
* :meth:`Solver.step`: what the next draw is (the test over, Choice's two tokens, the tray allowed);
* :meth:`Solver.score` and :meth:`Solver.score_many`: a cup's score (:func:`.scoring.score_cup`'s rules through
  ``Rules``, never a copy), with Sweetness and the Extra Bean;
* :meth:`Solver.full`: Exchange at a full cup, its best pair and exact value.

The positions ``(bag, cup, tray)`` are solved by the vectorised tables (:mod:`.cup_layers`, :mod:`.cup_boxes`); the
public API is :func:`.cup.stop_now`, the fallback for tests over budget :mod:`.cup_fallback`. Moisture never reaches a
solver: drawn in the cup test it leaves and another token is drawn, so :func:`drawable` drops it from the bag.

Example:
    >>> from coffeegames.roaster.rules import Rules
    >>> solver = Solver(Rules(card="Zambia Kasama AA"), ["sweetness"], ["bean3", "hard"], 3, None)
    >>> [solver.space(n) for n in range(10)]  # Sweetness sits on space 9 (stand-in board): the 10th drawn token has none
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 10]
    >>> solver.capacity, solver.score(solver.counts(["bean3"] * 3))  # skill 1, Sweetness a flavour, -5 for empty spaces
    (9, -3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Any

import numpy as np

from ..errors import BadArgument, shown
from .data import CUP_SPACES
from .rules import Rules
from .tokens import CHOICE, EXCHANGE, EXTRA_BEAN, MOISTURE, SWEETNESS, key

__all__ = [
    "BITS", "Counts", "MASK", "OverBudget", "SHARED_SCORES", "Solver", "count_pairs", "count_positions", "drawable", "drawn_tokens",
    "minus", "plus", "sub_pairs",
]

Counts = tuple[int, ...]
"""A multiset as counts per kind of one solver (its ``kinds``)."""


class OverBudget(Exception):
    """Raised by a solve that would pass its ``max_states`` positions."""


BITS = 6
"""Bits a kind's count takes: a bag holds at most 63 tokens of one kind."""
MASK = (1 << BITS) - 1


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


def drawable(tokens: Iterable[str]) -> tuple[str, ...]:
    """The tokens a cup test can draw from ``tokens``: moisture drawn in the cup test leaves and another token is
    drawn (also for Choice and Exchange), so the others come out in uniformly random order without it (Rule)."""
    return tuple(t for t in tokens if t != MOISTURE)


def drawn_tokens(cup: Iterable[str]) -> tuple[str, ...]:
    """The drawn tokens of a cup: Sweetness is not drawn (where it is follows from the active effects, :meth:`Solver.sweet_in`)."""
    return tuple(t for t in cup if t != SWEETNESS)


class Solver:
    """One cup test's rules and active cup effects over kinds (see the module notes), for the solving tables.

    Tokens that score alike (:meth:`.rules.Rules.scoring_class`, e.g. hard beans and smoke) are one kind, named by its
    first token (``rep``). ``max_states`` is the budget of positions the tables get (None: no limit).
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
        self.sweet_space = board.sweetness_space if SWEETNESS in active else None
        self.sweet_from_start = rules.sweetness_from_start  # Sweetness in the cup from the start of the test (Rule)
        self.capacity = CUP_SPACES - (self.sweet_space is not None)
        """The drawn tokens a full cup holds."""
        self.choice_spaces = frozenset(board.choice_spaces) if CHOICE in active else frozenset()
        self.exchange = EXCHANGE in active
        self.extra = (EXTRA_BEAN,) if EXTRA_BEAN in active else ()
        self.exchanges: dict[tuple[Counts, Counts], tuple[Fraction, Counts | None]] = {}
        self.scores: dict[Counts, int] = {}
        self.shared_scores = _shared_scores(rules)  # by the tokens scored (this solver's representatives)
        self.threes: dict[Counts, list[tuple[tuple[int, ...], int]]] = {}  # bag → its draws of 3 (kind indices, ways)
        self.kept: dict[tuple[Counts, tuple[int, ...]], Counts] = {}
        self.endgames: dict[tuple[Counts, Counts, int], Fraction] = {}  # the fallback's exact values (cup_fallback)
        self.played = [0, 0]  # the fallback's decisions: [exact, by the rule of thumb]

    # -- count tuples ---------------------------------------------------------------------
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

    # -- the rules, for a cup of ``size`` drawn tokens (ints or numpy arrays) ---------------------
    def space(self, size: Any) -> Any:
        """The cup space the next drawn token fills (``CUP_SPACES`` or more: the cup is full): spaces fill from the
        left, and an active Sweetness sits on its own space (Rule), which no drawn token takes."""
        return size if self.sweet_space is None else size + (size >= self.sweet_space)

    def sweet_in(self, size: Any) -> Any:
        """Whether the cup holds Sweetness: when active always, however early the test ends (Rule); ``rules_version``
        1: once filling reached its space."""
        if self.sweet_space is None:
            return size < 0  # (False, or an array of them)
        return (size >= self.sweet_space) | self.sweet_from_start

    def step(self, size: Any, total: Any, tray: Any) -> tuple[Any, Any, Any]:
        """The next draw with ``total`` tokens in the bag and ``tray`` on the tray: ``(full, choice, tray_ok)`` —
        the cup is full (the test ends, after Exchange if active; with an empty bag it ends too), Choice draws two
        (with fewer left the one drawn goes into the cup), a single token drawn may go on the tray (not for Choice)."""
        space = np.asarray(self.space(size))
        full = space >= CUP_SPACES
        at_choice = np.isin(space, list(self.choice_spaces)) if self.choice_spaces else np.zeros(np.shape(space), dtype=bool)
        live = ~full & (np.asarray(total) > 0)
        return full, live & at_choice & (np.asarray(total) >= 2), live & ~at_choice & (np.asarray(tray) < self.tray_spaces)

    def extras(self, size: int) -> tuple[str, ...]:
        """The cup effects a cup of ``size`` drawn tokens scores with them: Sweetness (:meth:`sweet_in`), the Extra
        Bean (when active)."""
        return ((SWEETNESS,) if self.sweet_in(size) else ()) + self.extra

    def score(self, cup: Counts) -> int:
        """The score of a cup holding these counts (with :meth:`extras`)."""
        found = self.scores.get(cup)
        if found is None:
            tokens = self.tokens(cup)
            tokens += self.extras(len(tokens))
            found = self.shared_scores.get(tokens)
            if found is None:
                found = self.shared_scores[tokens] = self.rules._score_counts(Counter(tokens)).total
            self.scores[cup] = found
        return found

    def score_many(self, cups: np.ndarray) -> np.ndarray:
        """:meth:`score` of many cups at once (rows of counts over ``kinds``), with the same rules in one pass of numpy."""
        return self.rules._score_columns(self._columns(cups))

    def parts_many(self, cups: np.ndarray) -> np.ndarray:
        """Like :meth:`score_many`, each cup's roast, flavour, skill and minus points packed in one int
        (:func:`.scoring.part_values` unpacks it)."""
        return self.rules._part_columns(self._columns(cups))

    def _columns(self, cups: np.ndarray) -> dict[str, np.ndarray]:
        """Cups as rows of counts over ``kinds`` → token → its count in each cup, with the cup effects scored."""
        columns = {t: cups[:, i] for i, t in enumerate(self.kinds)}
        sizes = cups.sum(1)
        if self.sweet_space is not None:
            columns[SWEETNESS] = np.zeros(len(cups), dtype=np.int64) + self.sweet_in(sizes)
        for extra in self.extra:
            columns[extra] = np.ones(len(cups), dtype=np.int64)
        return columns

    # -- Exchange -------------------------------------------------------------------------
    def full(self, bag: Counts, cup: Counts) -> tuple[Fraction, Counts | None]:
        """A full cup with Exchange unused: its exact value under the best play and the pair of kinds to return (None:
        keep the cup; a pair only when strictly better, the first such in :func:`count_pairs`' order)."""
        found = self.exchanges.get((bag, cup))
        if found is not None:
            return found
        best: tuple[Fraction, Counts | None] = (Fraction(self.score(cup)), None)
        for pair in count_pairs(cup):
            draws, d = self.exchange_weights(bag, cup, pair)
            v = Fraction(sum(p * self.score(c) for p, c in draws), d)
            if v > best[0]:
                best = (v, pair)
        self.exchanges[(bag, cup)] = best
        return best

    def exchange_draws(self, bag: Counts, cup: Counts, pair: Counts) -> list[tuple[Fraction, Counts]]:
        """After returning ``pair``: each draw of 3 with its probability and the best cup keeping 2 of them."""
        draws, d = self.exchange_weights(bag, cup, pair)
        return [(Fraction(p, d), c) for p, c in draws]

    def exchange_weights(self, bag: Counts, cup: Counts, pair: Counts) -> tuple[list[tuple[int, Counts]], int]:
        """:meth:`exchange_draws` as integer weights over a common denominator (returned). With 2 tokens in the bag
        (no more to draw) both go into the cup."""
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


def count_positions(solver: Solver, bag: Counts, cup: Counts, tray: int) -> int | None:
    """How many positions the exact solve from ``(bag, cup, tray)`` (about to draw) visits, counted without solving;
    None with Sweetness, Choice or Exchange active (only plain draws, the Extra Bean and a larger tray are counted).

    Without those effects every draw goes to the cup or (while it has room) the tray, so the positions reached are
    exactly ``(bag − X − Y, cup + X, tray + |Y|)`` for multisets ``X + Y`` within the bag, ``|X|`` at most the cup's
    free spaces and ``|Y|`` at most the tray's (none once the cup is full): counted per kind by a small convolution.
    """
    if solver.sweet_space is not None or solver.choice_spaces or solver.exchange:
        return None
    room, tray_room = solver.capacity - sum(cup), solver.tray_spaces - tray
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
