"""Scoring a Coffee Roaster cup (docs/rules/roaster.md, "Scoring"): roast points, flavour, skill and minus points.

:func:`score_cup` scores a cup; its rules live in one place (``_parts``), which scores one cup with Python's
``min``/``max`` or many cups at once with numpy's (``_score_columns``: the cup solvers score thousands of cups a
table). :func:`scoring_class` lists what they read of a token, so the cup solver can merge tokens that always score
alike.

Example:
    >>> from coffeegames.roaster.data import load_cards
    >>> zambia = [c for c in load_cards() if c.name == "Zambia Kasama AA"][0]
    >>> print(score_cup(["bean4"] * 4 + ["bean0"] * 6, zambia))  # 16 levels: 10 points; six level-0 beans: skill 4
    roast level 16 → 10 · flavour 0 matches → 0 · skill 4 · minus 3 · total 11
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np

from ..errors import BadArgument, BadType, TooBig
from ..validate import Checker, check_instance, refuses_stray
from .data import CUP_SPACES, Board, Card, stand_in_board
from .tokens import BEANS, BURNT, DEFECT, EXTRA_BEAN, FLAVOURS, HARD, MOISTURE, SMOKE, SWEETNESS, TOKENS, WILD, roast_level

__all__ = [
    "CupScore", "EMPTY_SPACE_MINUS", "FLAVOUR_POINTS", "MINUS", "NO_FLAVOUR_MINUS", "SKILL_POINTS", "flavour_matches",
    "score_cup", "scoring_class",
]

FLAVOUR_POINTS: tuple[int, ...] = (0, 1, 3, 6, 10)
"""Flavour points for 0-4 matches (Rule)."""
SKILL_POINTS: dict[int, int] = {3: 1, 4: 2, 5: 3, 6: 4, 7: 5}
"""Skill points for a group of beans of one roast level: 3 → 1 ... 7 or more → 5 (Rule; which groups score: option
``skill_groups``)."""
MINUS: dict[str, int] = {HARD: 1, BURNT: 1, SMOKE: 1, DEFECT: 2}
"""Minus points per token in the cup (Rule)."""
NO_FLAVOUR_MINUS = 3
"""Minus points when the cup holds no flavour token (Rule)."""
EMPTY_SPACE_MINUS = 5
"""Minus points when any cup space is empty (Rule; once, however many are empty)."""


@dataclass(frozen=True)
class CupScore:
    """A cup's score, part by part (``total = roast + flavour + skill - minus``)."""

    roast_level: int
    roast: int
    matches: int
    flavour: int
    skill: int
    minus: int

    @property
    def total(self) -> int:
        """The cup's score."""
        return self.roast + self.flavour + self.skill - self.minus

    def __str__(self) -> str:
        return (f"roast level {self.roast_level} → {self.roast} · flavour {self.matches} matches → {self.flavour}"
                f" · skill {self.skill} · minus {self.minus} · total {self.total}")


@refuses_stray("must be lists of token names, e.g. ('aroma', 'body')")
def flavour_matches(tokens: Iterable[str], wanted: Sequence[str]) -> int:
    """How many entries of a card's flavour list the cup's tokens satisfy (each token once).

    A flavour token matches its own kind, the wild flavour matches anything, Sweetness matches
    any flavour unless the card requires Sweetness (then it matches only that) (Rule).

    >>> flavour_matches(["aroma", "aroma", "sweetness"], ["aroma", "aroma", "acidity"])
    3
    >>> flavour_matches(["aroma", "sweetness"], ["aroma", "acidity", "sweetness"])
    2
    """
    return _matches(Counter(tokens), Counter(wanted))


@dataclass(frozen=True)
class _Ops:
    """What the scoring rules do to counts, for one cup (Python ints) or many at once (int arrays, one entry a cup)."""

    minimum: Callable[[Any, Any], Any]
    maximum: Callable[[Any, Any], Any]
    entry: Callable[[tuple[int, ...], Any], Any]  # a table's entry at an index (or at each of an array's)


_ONE = _Ops(min, max, lambda table, i: table[i])
_MANY = _Ops(np.minimum, np.maximum, lambda table, i: np.asarray(table, dtype=np.int64)[i])


def _matches(have: Mapping[str, Any], need: Counter[str], ops: _Ops = _ONE) -> Any:
    """:func:`flavour_matches` on counts: the cup's ``have`` (token → a count, or with ``_MANY`` an array of counts, one
    per cup), the card's ``need`` (only read)."""
    matched = sum(ops.minimum(need[f], have.get(f, 0)) for f in FLAVOURS)
    jokers = have.get(WILD, 0)
    if need[SWEETNESS]:
        matched = matched + ops.minimum(need[SWEETNESS], have.get(SWEETNESS, 0))
    else:
        jokers = jokers + have.get(SWEETNESS, 0)
    return matched + ops.minimum(jokers, sum(need.values()) - matched)


@functools.lru_cache(maxsize=64)
def _need(wanted: tuple[str, ...]) -> Counter[str]:
    """A card's flavour list counted, once (read only)."""
    return Counter(wanted)


_LEVELS = {t: roast_level(t) or 0 for t in (*TOKENS, SWEETNESS, EXTRA_BEAN)}
""":func:`~.tokens.roast_level` of every cup token, 0 for those that are not roasted beans."""


def score_cup(tokens: Iterable[str], card: Card, board: Board | None = None, burnt_level: int = 0,
              skill_groups: str = "largest", sweetness_flavour: bool = True) -> CupScore:
    """Score a cup (docs/rules/roaster.md, "Scoring"). ``tokens`` are the cup's tokens, including ``"sweetness"`` if it fills a
    space and ``"extra_bean"`` if that cup effect is active (it is not a space). Tray tokens are not passed: they do not score.
    The rulings are options of :class:`~.rules.Rules`: ``burnt_level``, ``skill_groups`` ("largest": only the largest
    group of 3+ beans of one level scores; "each": every such group does) and ``sweetness_flavour`` (Sweetness lifts
    the "no flavour" penalty).

    The rulebook's example cup (three level-2, one level-3 and two level-4 beans: roast level 17, 6 points on Zambia
    Kasama AA; two Aroma, Sweetness, a burnt bean) on the stand-in Zambia card, which asks Body, Aroma, Acidity: 9 here.
    The rulebook's own card asks two Aroma and one Acidity, where the cup scores the rulebook's 12
    (``tests/test_roaster_example.py``):

    >>> from coffeegames.roaster.data import load_cards
    >>> zambia = [c for c in load_cards() if c.name == "Zambia Kasama AA"][0]
    >>> cup = ["bean2"] * 3 + ["bean3", "bean4", "bean4", "aroma", "aroma", "sweetness", "burnt"]
    >>> s = score_cup(cup, zambia)
    >>> s.roast_level, s.roast, s.matches, s.flavour, s.skill, s.minus, s.total
    (17, 6, 2, 3, 1, 1, 9)
    """
    check_instance(card, Card, "card", "a coffee Card (from load_cards())")
    options = Checker("score_cup", BadArgument)
    options.whole(burnt_level, "burnt_level", 0, 6)
    options.one_of(skill_groups, "skill_groups", ("largest", "each"))
    options.flag(sweetness_flavour, "sweetness_flavour")
    board = stand_in_board() if board is None else check_instance(board, Board, "board", "a Board (from load_board()) or None")
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Iterable):
        raise BadType("tokens", "must be a list of the cup's tokens (not a string)", tokens)
    cup = list(islice(tokens, CUP_SPACES + 3))  # never more: a huge list is refused unread
    if len(cup) > CUP_SPACES + 2:
        raise TooBig("tokens", f"a cup holds at most {CUP_SPACES} tokens, with sweetness and extra_bean", cup, source="score_cup")
    for t in cup:
        if t not in TOKENS and t not in (SWEETNESS, EXTRA_BEAN):
            raise BadArgument("tokens", f"{t!r} cannot be in a cup", cup, source="score_cup")
    if MOISTURE in cup:
        raise BadArgument("tokens", "moisture never stays in a cup", cup, source="score_cup")
    counts = Counter(cup)
    if len(cup) - counts[EXTRA_BEAN] > CUP_SPACES or counts[EXTRA_BEAN] > 1 or counts[SWEETNESS] > 1:
        raise BadArgument("tokens", f"a cup holds at most {CUP_SPACES} tokens, one Sweetness and one Extra Bean", cup,
                          source="score_cup")
    return _score_counts(counts, card, board, burnt_level, skill_groups, sweetness_flavour)


def _score_counts(counts: Counter[str], card: Card, board: Board, burnt_level: int, skill_groups: str,
                 sweetness_flavour: bool) -> CupScore:
    """:func:`score_cup` of a cup given as token → count, with nothing checked: for the cup solver, which scores
    thousands of cups it built itself (``score_cup`` checks its arguments, then comes here)."""
    level, matches, skill, minus = _parts(counts, board, card.flavours, burnt_level, skill_groups, sweetness_flavour, _ONE)
    return CupScore(level, card.roast_points(level), matches, FLAVOUR_POINTS[matches], skill, minus)


def _score_columns(counts: Mapping[str, np.ndarray], card: Card, board: Board, burnt_level: int, skill_groups: str,
                  sweetness_flavour: bool) -> np.ndarray:
    """The totals of many cups at once: ``counts`` maps a token to its count in each cup (int arrays of one length),
    nothing checked (the cup solvers' cups). The same rules as :func:`score_cup` (both go through ``_parts``)."""
    level, matches, skill, minus = _parts(counts, board, card.flavours, burnt_level, skill_groups, sweetness_flavour, _MANY)
    level = np.asarray(level, dtype=np.int64)
    roast = np.array([card.roast_points(n) for n in range(int(level.max(initial=0)) + 1)], dtype=np.int64)
    return roast[level] + _MANY.entry(FLAVOUR_POINTS, matches) + skill - minus


PART_BASE = 256
""":func:`_part_columns` packs a cup's four parts (each 0-255) in one int: ``((roast × 256 + flavour) × 256 + skill) × 256
+ minus``; :func:`part_values` unpacks it."""


def _part_columns(counts: Mapping[str, np.ndarray], card: Card, board: Board, burnt_level: int, skill_groups: str,
                  sweetness_flavour: bool) -> np.ndarray:
    """Like :func:`_score_columns`, each cup's (roast, flavour, skill, minus) points packed in one int (:data:`PART_BASE`)."""
    level, matches, skill, minus = _parts(counts, board, card.flavours, burnt_level, skill_groups, sweetness_flavour, _MANY)
    level = np.asarray(level, dtype=np.int64)
    roast = np.array([card.roast_points(n) for n in range(int(level.max(initial=0)) + 1)], dtype=np.int64)
    parts = [roast[level], _MANY.entry(FLAVOUR_POINTS, matches), np.asarray(skill, dtype=np.int64), np.asarray(minus, dtype=np.int64)]
    code = np.zeros(len(level), dtype=np.int64)
    for part in parts:
        if len(part) and (part.min() < 0 or part.max() >= PART_BASE):
            raise ValueError("a part of a cup's score beyond 0-255")
        code = code * PART_BASE + part
    return code


def part_values(code: int) -> tuple[int, int, int, int]:
    """(roast, flavour, skill, minus) points from :func:`_part_columns`' code.

    >>> part_values(((6 * 256 + 3) * 256 + 1) * 256 + 1)
    (6, 3, 1, 1)
    """
    out = []
    for _ in range(4):
        code, part = divmod(code, PART_BASE)
        out.append(part)
    return out[3], out[2], out[1], out[0]


_SKILL = (0, 0, 0, *(SKILL_POINTS[n] for n in range(3, 8)))
"""Skill points of a group of ``n`` beans of one level, ``n`` = 0..7 (7 or more: the last)."""


def _parts(counts: Mapping[str, Any], board: Board, flavours: Sequence[str], burnt_level: int, skill_groups: str,
           sweetness_flavour: bool, ops: _Ops) -> tuple[Any, Any, Any, Any]:
    """(roast level, flavour matches, skill points, minus points) of a cup (``ops`` ``_ONE``), or of many cups at once
    (``_MANY``: each count an int array): the scoring rules, in one place, for :func:`_score_counts` and
    :func:`_score_columns`."""
    spaces = level = minus = 0
    for t, n in counts.items():
        if t != EXTRA_BEAN:
            spaces = spaces + n
        level, minus = level + _LEVELS[t] * n, minus + MINUS.get(t, 0) * n
    level = level + burnt_level * counts.get(BURNT, 0) + board.extra_bean_level * counts.get(EXTRA_BEAN, 0)
    matches = ops.minimum(4, _matches(counts, _need(tuple(flavours)), ops))
    groups = [ops.entry(_SKILL, ops.minimum(counts.get(b, 0), 7)) for b in BEANS]  # 0 for fewer than 3 beans
    skill = sum(groups) if skill_groups == "each" else functools.reduce(ops.maximum, groups)
    flavoured = sum(counts.get(f, 0) for f in (*FLAVOURS, WILD, *((SWEETNESS,) if sweetness_flavour else ())))
    minus = minus + NO_FLAVOUR_MINUS * (flavoured == 0) + EMPTY_SPACE_MINUS * (spaces < CUP_SPACES)
    return level, matches, skill, minus


def scoring_class(token: str, card: Card, burnt_level: int = 0) -> tuple[Hashable, ...]:
    """All that :func:`score_cup` sees of one bag token: two tokens of one class score alike in every cup, so a
    solver may count them as one kind. Keep it beside :func:`score_cup`: it lists what that function reads of a
    token (roast level, skill level, minus points, flavour role).

    >>> from coffeegames.roaster.data import load_cards
    >>> zambia = [c for c in load_cards() if c.name == "Zambia Kasama AA"][0]  # asks Body, Aroma, Acidity
    >>> scoring_class("hard", zambia) == scoring_class("smoke", zambia) == scoring_class("burnt", zambia)
    True
    >>> scoring_class("burnt", zambia, burnt_level=1) == scoring_class("hard", zambia), scoring_class("body", zambia) == scoring_class("aroma", zambia)
    (False, False)
    """
    if token not in TOKENS:
        raise BadArgument("token", f"is not a bag token; tokens are {', '.join(TOKENS)}", token, source="scoring_class")
    level = (roast_level(token) or 0) + (burnt_level if token == BURNT else 0)
    role = token if token == WILD or token in card.flavours else "unlisted flavour" if token in FLAVOURS else None
    return (level, token if token in BEANS else None, MINUS.get(token, 0), role)


