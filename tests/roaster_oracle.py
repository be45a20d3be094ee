"""An independent cup-test solver for the tests: Coffee Roaster's cup test written again from docs/rules/roaster.md
("The cup test"), as a plain memoised search in Fractions over multisets of tokens.

It shares no code with the package's solvers (coffeegames.roaster.cup_solver, cup_layers, cup_boxes): it reads only
the public rules (``Rules.score`` for a cup's score, ``Rules.tray_size``, the board's stand-in spaces) and states
the cup test's own rules here, one token drawn at a time:

* the cup's spaces fill from the left; an active Sweetness sits on its own space from the start of the test (rules
  version 1: it is placed when filling reaches its space) and scores with the cup however early the bag runs out;
* a drawn token goes into the cup's next space, or on the tray while it has room (never a token drawn for Choice);
* drawn moisture leaves the game and another token is drawn (also for Choice and Exchange);
* on a Choice space two tokens are drawn (one, if only one is left), one is kept, the other goes back into the bag;
* once the cup is full an active Exchange may return two cup tokens (not Sweetness), draw three and keep two (with
  fewer in the bag, all drawn are kept); the Extra Bean scores with every cup.

Ties between equal values are broken as the package documents them (the cup before the tray; Choice keeps the token
that comes first in ``TOKENS``' order; Exchange keeps the cup unless a pair is strictly better, pairs in ``TOKENS``'
order), so the exact distributions can be compared too. Give it tokens that score differently (one per scoring
class) when comparing distributions or position counts with the package, whose kinds merge tokens that score alike.

It is about a hundred times slower than the package's tables: for small bags (up to a dozen tokens).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

from coffeegames.roaster import TOKENS, Rules

CUP_SPACES = 10
Bag = tuple[tuple[str, int], ...]  # a multiset: sorted (token, count) pairs


_RANK = {token: i for i, token in enumerate(TOKENS)}  # a multiset's order: TOKENS' order


def _bag(tokens) -> Bag:
    return tuple(sorted(Counter(tokens).items(), key=lambda x: _RANK[x[0]]))


def _less(bag: Bag, token: str) -> Bag:
    """``bag`` with one ``token`` less (a count that reaches 0 leaves the multiset)."""
    return tuple((t, n - (t == token)) for t, n in bag if t != token or n > 1)


def _more(bag: Bag, *tokens: str) -> Bag:
    """``bag`` with ``tokens`` added."""
    counts = dict(bag)
    for token in tokens:
        counts[token] = counts.get(token, 0) + 1
    return tuple(sorted(counts.items(), key=lambda x: _RANK[x[0]]))


class CupOracle:
    """The cup test under one game's rules and active cup effects; positions are (bag, cup, tray tokens)."""

    def __init__(self, rules: Rules, active) -> None:
        active = set(active)
        board = rules.board
        self.rules = rules
        self.sweetness = board.sweetness_space if "sweetness" in active else None
        self.from_start = rules.sweetness_from_start  # (rules_version 2 on)
        self.choice = set(board.choice_spaces) if "choice" in active else set()
        self.exchange = "exchange" in active
        self.extra = "extra_bean" in active
        self.tray_spaces = rules.tray_size(active)
        # the spaces drawn tokens fill, in order
        self.spaces = [i for i in range(CUP_SPACES) if i != self.sweetness]
        self.memo: dict[tuple[Bag, Bag, int], tuple[Fraction, dict[int, Fraction]]] = {}

    # -- the rules --------------------------------------------------------------
    def score(self, cup: Bag) -> int:
        tokens = [t for t, n in cup for _ in range(n)]
        filled = len(tokens)
        if self.sweetness is not None:
            reached = filled >= len(self.spaces) or self.spaces[filled] > self.sweetness
            if self.from_start or reached:
                tokens.append("sweetness")
        if self.extra:
            tokens.append("extra_bean")
        return self.rules.score(tokens).total

    def draws(self, bag: Bag) -> list[tuple[Fraction, str, Bag]]:
        """One token drawn (moisture leaves and another is drawn): (probability, token, bag after)."""
        total = sum(n for _, n in bag)
        out: list[tuple[Fraction, str, Bag]] = []
        for token, n in bag:
            if token == "moisture":
                rest = _less(bag, token)
                if any(t != "moisture" for t, _ in rest):
                    out += [(Fraction(n, total) * p, t, b) for p, t, b in self.draws(rest)]
            else:
                out.append((Fraction(n, total), token, _less(bag, token)))
        return out

    # -- values and distributions -------------------------------------------------
    def solve(self, bag, cup=(), tray: int = 0) -> tuple[Fraction, dict[int, Fraction]]:
        """The expected score under best play and the score distribution, about to draw from ``bag`` (tokens)."""
        return self._solve(_bag(bag), _bag(cup), tray)

    def positions(self) -> int:
        """The positions valued so far (about to draw)."""
        return len(self.memo)

    def _solve(self, bag: Bag, cup: Bag, tray: int) -> tuple[Fraction, dict[int, Fraction]]:
        key = (bag, cup, tray)
        if key not in self.memo:
            self.memo[key] = self._value(bag, cup, tray)
        return self.memo[key]

    def _end(self, cup: Bag) -> tuple[Fraction, dict[int, Fraction]]:
        s = self.score(cup)
        return Fraction(s), {s: Fraction(1)}

    def _value(self, bag: Bag, cup: Bag, tray: int) -> tuple[Fraction, dict[int, Fraction]]:
        filled = sum(n for _, n in cup)
        drawable = sum(n for t, n in bag if t != "moisture")
        if filled >= len(self.spaces):
            return self._exchange(bag, cup) if self.exchange else self._end(cup)
        if not drawable:
            return self._end(cup)
        space = self.spaces[filled]
        if space in self.choice and drawable >= 2:
            return self._mix((p * q, self._keep(b2, cup, tray, a, b)) for p, a, b1 in self.draws(bag) for q, b, b2 in self.draws(b1))
        out = []
        for p, token, rest in self.draws(bag):
            options = [self._solve(rest, _more(cup, token), tray)]
            if tray < self.tray_spaces and space not in self.choice:
                options.append(self._solve(rest, cup, tray + 1))
            best = options[0] if options[0][0] >= options[-1][0] else options[-1]  # the cup among equals
            out.append((p, best))
        return self._mix(out)

    def _keep(self, bag: Bag, cup: Bag, tray: int, a: str, b: str) -> tuple[Fraction, dict[int, Fraction]]:
        """Choice: keep one of ``a``, ``b``, the other back into ``bag``; among equals the one first in TOKENS."""
        first, second = sorted((a, b), key=_RANK.__getitem__)
        keep_first = self._solve(_more(bag, second), _more(cup, first), tray)
        keep_second = self._solve(_more(bag, first), _more(cup, second), tray)
        return keep_second if keep_second[0] > keep_first[0] else keep_first

    def _exchange(self, bag: Bag, cup: Bag) -> tuple[Fraction, dict[int, Fraction]]:
        best = self._end(cup)
        tokens = [t for t, n in cup for _ in range(n)]
        for pair in sorted(set(combinations(tokens, 2)), key=lambda p: (_RANK[p[0]], _RANK[p[1]])):
            back, left = _more(bag, *pair), _less(_less(cup, pair[0]), pair[1])
            v = self._mix((p, self._end(self._best_two(left, drawn))) for p, drawn in self._three(back))
            if v[0] > best[0]:
                best = v
        return best

    def _three(self, bag: Bag, n: int = 3) -> list[tuple[Fraction, tuple[str, ...]]]:
        """Up to ``n`` tokens drawn one by one (moisture leaves and is replaced), with probabilities."""
        if n == 0 or not any(t != "moisture" for t, _ in bag):
            return [(Fraction(1), ())]
        return [(p * q, (t, *more)) for p, t, rest in self.draws(bag) for q, more in self._three(rest, n - 1)]

    def _best_two(self, cup: Bag, drawn: tuple[str, ...]) -> Bag:
        if len(drawn) < 3:
            return _more(cup, *drawn)
        return max((_more(cup, *pair) for pair in combinations(drawn, 2)), key=self.score)

    @staticmethod
    def _mix(branches) -> tuple[Fraction, dict[int, Fraction]]:
        value, dist = Fraction(0), {}
        for p, (v, d) in branches:
            value += p * v
            for s, q in d.items():
                dist[s] = dist.get(s, Fraction(0)) + p * q
        return value, dist
