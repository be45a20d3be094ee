"""Drawing tokens from a bag without replacement (the multivariate hypergeometric law).

A bag holding K1 tokens of kind 1, K2 of kind 2, ... (N in all) gives a draw of k
tokens with k1, k2, ... of each kind in C(K1, k1) C(K2, k2) ... of its C(N, k)
equally likely ways. Draws are reported as sorted tuples of tokens, in the order the
bag lists its kinds.

Example:
    >>> bag = Bag({"bean": 3, "smoke": 1})
    >>> bag.draw(2)[("bean", "smoke")]
    Fraction(1, 2)
    >>> bag.p_at_least("smoke", 1, draws=2)
    Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from math import comb, prod

from ..validate import MAX_OUTCOMES, check_count, check_hashable, check_items, check_size, is_whole
from .dist import Dist

Token = Hashable
"""A kind of token in a bag: any hashable value (usually a short string)."""

from ..errors import BadArgument, BadType, shown

__all__ = ["Bag", "MAX_TOKENS", "Token", "as_bag"]

MAX_TOKENS = 2_000
"""A bag asked a drawing question may hold at most this many tokens (a game's bag holds tens): the exact
counts grow with the bag (C(2000, 1000) has 600 digits) and a larger question is refused at once."""


class Bag(Mapping):
    """An immutable bag of tokens: kind → how many.

    >>> Bag({"a": 2, "b": 1}).remove(["a"])
    Bag({'a': 1, 'b': 1})
    """

    __slots__ = ("_counts",)

    def __init__(self, counts: Mapping[Token, int] | Iterable[Token]) -> None:
        if isinstance(counts, (str, bytes)):  # a string is not a bag of one-letter tokens
            raise BadType("counts", "must be a mapping kind → count, or a list of tokens (not a string)", counts)
        if not isinstance(counts, Mapping | Iterable):
            raise BadType("counts", "must be a mapping kind → count, or a list of tokens", counts)
        pairs = counts.items() if isinstance(counts, Mapping) else ((t, 1) for t in counts)
        merged: dict[Token, int] = {}
        for token, n in pairs:
            check_hashable(token, "counts")
            check_count(n, f"counts[{shown(token)}]")
            merged[token] = merged.get(token, 0) + n
        self._counts = {t: n for t, n in merged.items() if n}

    @classmethod
    def _of(cls, counts: dict[Token, int]) -> Bag:
        """A bag of ``counts`` already checked (hashable kinds, whole counts from a bag's own): not checked again."""
        bag = object.__new__(cls)
        bag._counts = {t: n for t, n in counts.items() if n}
        return bag

    def __getitem__(self, token: Token) -> int:
        return self._counts.get(token, 0)

    def __iter__(self) -> Iterator[Token]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bag) and self._counts == other._counts

    def __hash__(self) -> int:
        return hash(frozenset(self._counts.items()))

    def __repr__(self) -> str:
        return f"Bag({self._counts!r})"

    @property
    def size(self) -> int:
        """How many tokens are in the bag."""
        return sum(self._counts.values())

    def add(self, tokens: Iterable[Token]) -> Bag:
        """A new bag with ``tokens`` put in."""
        merged = dict(self._counts)
        for t in check_items(tokens, "tokens"):
            merged[t] = merged.get(t, 0) + 1
        return Bag._of(merged)

    def remove(self, tokens: Iterable[Token]) -> Bag:
        """A new bag with ``tokens`` taken out; an error if any is not there."""
        left = dict(self._counts)
        for t in check_items(tokens, "tokens"):
            if left.get(t, 0) == 0:
                raise BadArgument("tokens", f"cannot take {shown(t)} out of the bag: it holds {shown(self._counts)}")
            left[t] -= 1
        return Bag._of(left)

    def _check_draws(self, draws: int) -> int:
        check_count(draws, "draws")
        if draws > self.size:
            raise BadArgument("draws", f"cannot draw {draws} tokens from a bag of {self.size}")
        check_size(self.size, "bag", "tokens", limit=MAX_TOKENS)
        return draws

    def draw_count(self, draws: int, most: int | None = None) -> int:
        """How many distinct draws of ``draws`` tokens there are, counted without listing them; with ``most``,
        any count over ``most`` is reported as ``most + 1`` (quick, for a size check).

        >>> Bag({"a": 2, "b": 1}).draw_count(2), Bag({i: 1 for i in range(60)}).draw_count(30, most=10)
        (2, 11)
        """
        self._check_draws(draws)
        if most is not None:
            check_count(most, "most")
        k = min(draws, self.size - draws)  # drawing k leaves size - k: as many draws either way
        ways = [1] + [0] * k  # ways[j]: draws of j tokens from the kinds seen so far (never fewer as kinds are added)
        for n in sorted((min(n, k) for n in self._counts.values()), reverse=True):
            running = [0]
            for w in ways:
                running.append(running[-1] + w)
            ways = [running[j + 1] - running[max(0, j - n)] for j in range(k + 1)]
            if most is not None:
                ways = [min(w, most + 1) for w in ways]
                if ways[k] > most:
                    break
        return ways[k]

    def draw_weights(self, draws: int) -> Iterator[tuple[tuple[Token, ...], int]]:
        """Every distinct draw of ``draws`` tokens with its number of ways (they sum to C(N, draws)); more than
        :data:`~coffeegames.validate.MAX_OUTCOMES` distinct draws are refused before the first is listed."""
        check_size(self.draw_count(draws, MAX_OUTCOMES), "draws", "distinct draws", draws, exact=False)
        kinds = list(self._counts.items())
        rest = [sum(n for _, n in kinds[i:]) for i in range(len(kinds) + 1)]  # tokens of kind i onwards
        memo: dict[tuple[int, int], list[tuple[tuple[Token, ...], int]]] = {}

        def tails(i: int, left: int) -> list[tuple[tuple[Token, ...], int]]:
            """The draws of ``left`` tokens among kinds ``i`` onwards (each list made once, shared by every head)."""
            if i == len(kinds):
                return [((), 1)] if left == 0 else []
            found = memo.get((i, left))
            if found is None:
                token, have = kinds[i]
                found = memo[i, left] = []
                for k in range(max(0, left - rest[i + 1]), min(have, left) + 1):
                    head, ways = (token,) * k, comb(have, k)
                    found += [(head + tail, ways * w) for tail, w in tails(i + 1, left - k)]
            return found

        yield from tails(0, draws)

    def draw(self, draws: int) -> Dist:
        """The exact distribution of the multiset drawn when taking ``draws`` tokens at once."""
        return Dist.from_weights(self.draw_weights(draws))

    def count_dist(self, token: Token, draws: int) -> Dist:
        """How many ``token`` appear among ``draws`` tokens (the hypergeometric law)."""
        check_hashable(token, "token")
        self._check_draws(draws)
        good, total = self[token], self.size
        return Dist.from_weights(
            {k: comb(good, k) * comb(total - good, draws - k) for k in range(0, min(good, draws) + 1)}
        )

    def p_at_least(self, token: Token, k: int, draws: int) -> Fraction:
        """P(at least ``k`` of ``token`` among ``draws`` tokens drawn)."""
        if not is_whole(k):
            raise BadType("k", "must be a whole number", k)
        return self.count_dist(token, draws).at_least(k)

    def p_draw(self, tokens: Mapping[Token, int] | Iterable[Token]) -> Fraction:
        """P(a draw of that many tokens is exactly this multiset)."""
        want = Bag(tokens)
        n = want.size
        self._check_draws(n)
        return Fraction(prod(comb(self[t], k) for t, k in want.items()), comb(self.size, n))


def as_bag(value: object, where: str = "bag") -> Bag:
    """``value`` as a :class:`Bag`: a Bag, or a mapping kind → count; anything else is refused naming ``where``.

    >>> as_bag({"smoke": 1, "bean2": 2})
    Bag({'smoke': 1, 'bean2': 2})
    """
    if isinstance(value, Bag):
        return value
    if isinstance(value, Mapping):
        try:
            return Bag(value)
        except (BadArgument, BadType) as error:  # named as the caller's argument: bag['bean2'], not counts['bean2']
            raise type(error)(where + error.where[len("counts"):], error.why, error.value) from None
    raise BadType(where, "must be a Bag or a mapping kind → count, e.g. {'smoke': 1, 'bean2': 4}", value)
