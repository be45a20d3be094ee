"""Coffee Roaster's tokens as short strings, and small helpers on multisets of them (docs/rules/roaster.md).

Conventions used by the whole :mod:`coffeegames.roaster` package:

* A **token** is a short string. Bean tokens: ``"hard"`` (a hard, unroasted bean),
  ``"bean0"`` .. ``"bean4"`` (roast levels 0-4) and ``"burnt"``; ``"defect"`` is a defect
  bean (never roasted). Other bag tokens: ``"moisture"``, ``"smoke"``, the flavour tokens
  ``"body"``, ``"acidity"``, ``"aroma"`` and the wild flavour ``"wild"``. The five cup
  effect tokens (:data:`CUP_EFFECTS`) never enter the bag.
* A **multiset** of tokens (a bag, a draw, a cup) is a tuple sorted in :data:`TOKENS`
  order, so equal multisets are equal tuples (hashable, JSON as a list); :func:`madd` and :func:`mremove` are
  :mod:`coffeegames.exact.multiset`'s in that order.

Example:
    >>> roast("hard", 2), roast("bean1", 1), roast("bean3", 2), roast("bean4", 1)
    ('bean0', 'bean2', 'burnt', 'burnt')
    >>> msort(["aroma", "bean2", "hard", "bean2"])
    ('hard', 'bean2', 'bean2', 'aroma')
    >>> mremove(("hard", "bean2", "bean2"), ["bean2"])
    ('hard', 'bean2')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import BadArgument, BadType, TooBig, shown
from ..exact import multiset
from ..exact.bag import MAX_TOKENS
from ..exact.multiset import mcontains as _mcontains
from ..validate import refuses_stray

__all__ = [
    "ACIDITY", "ANY", "AROMA", "BAD", "BEANS", "BODY", "BURNT", "CHOICE", "CUP_EFFECTS", "CUP_EFFECT_NAMES", "DEFECT",
    "EXCHANGE", "EXTRA_BEAN", "FLAVOURS", "HARD", "MOISTURE", "NAMES", "ROASTABLE", "ROASTED", "SLOT_KINDS", "SMOKE", "SWEETNESS",
    "TOKENS", "TRAY", "WILD", "bag_text", "bean", "is_bean", "is_flavour", "key", "madd", "mcontains", "mpairs",
    "mremove", "msort", "parse_bag", "roast", "roast_level", "show",
]

HARD = "hard"
BEANS: tuple[str, ...] = ("bean0", "bean1", "bean2", "bean3", "bean4")
"""Roasted beans by roast level 0-4 (Fact: the bean tokens show levels 0-4)."""
BURNT = "burnt"
DEFECT = "defect"
SMOKE = "smoke"
MOISTURE = "moisture"
BODY, ACIDITY, AROMA = "body", "acidity", "aroma"
FLAVOURS: tuple[str, ...] = (BODY, ACIDITY, AROMA)
"""The three flavour tokens (Rule)."""
WILD = "wild"
"""The wild flavour token: acts as any flavour (Rule)."""
EXTRA_BEAN, SWEETNESS, CHOICE, EXCHANGE, TRAY = "extra_bean", "sweetness", "choice", "exchange", "tray"
CUP_EFFECTS: tuple[str, ...] = (EXTRA_BEAN, SWEETNESS, CHOICE, EXCHANGE, TRAY)
"""The five cup effect tokens (Rule): Extra Bean, Sweetness, Choice, Exchange, Cardboard Tray."""
CUP_EFFECT_NAMES: dict[str, str] = {
    EXTRA_BEAN: "Extra Bean", SWEETNESS: "Sweetness", CHOICE: "Choice", EXCHANGE: "Exchange", TRAY: "Cardboard Tray",
}
TOKENS: tuple[str, ...] = (HARD, *BEANS, BURNT, DEFECT, SMOKE, MOISTURE, *FLAVOURS, WILD)
"""Every token that can be in the bag, in the order multisets are sorted."""
ROASTABLE: tuple[str, ...] = (HARD, *BEANS)
"""Beans that a roast changes (burnt stays burnt; a defect bean is never roasted — Ruling)."""
ROASTED: tuple[str, ...] = (*BEANS, BURNT)
"""Roasted-bean tokens (levels 0-4 and burnt): the box's supply of them may be limited (option ``bean_supply``)."""
BAD: tuple[str, ...] = (BURNT, SMOKE, DEFECT)
"""What the *remove* immediate effect takes out of the game (Rule)."""
ANY = "any"
"""A multicolour slot on the roast board: it takes any flavour token (Rule)."""
SLOT_KINDS: tuple[str, ...] = (*FLAVOURS, ANY)
NAMES: dict[str, str] = {
    HARD: "hard bean", **{b: f"level-{i} bean" for i, b in enumerate(BEANS)}, BURNT: "burnt bean", DEFECT: "defect bean",
    SMOKE: "smoke", MOISTURE: "moisture", BODY: "Body", ACIDITY: "Acidity", AROMA: "Aroma", WILD: "wild flavour",
    **CUP_EFFECT_NAMES,
}
"""A readable name for every token."""

_ORDER = {t: i for i, t in enumerate(TOKENS + CUP_EFFECTS)}


def is_bean(token: str) -> bool:
    """Hard, roasted (levels 0-4), burnt and defect beans are beans.

    >>> [t for t in TOKENS if is_bean(t)]
    ['hard', 'bean0', 'bean1', 'bean2', 'bean3', 'bean4', 'burnt', 'defect']
    """
    return token in (HARD, *BEANS, BURNT, DEFECT)


def is_flavour(token: str) -> bool:
    """Body, Acidity, Aroma and the wild flavour token (Sweetness is a cup effect: see :mod:`.rules`)."""
    return token in FLAVOURS or token == WILD


def roast_level(token: str) -> int | None:
    """The roast level 0-4 of a roasted bean; None for anything else (hard, burnt, defect, ...).

    >>> roast_level("bean3"), roast_level("hard")
    (3, None)
    """
    return BEANS.index(token) if token in BEANS else None


def bean(level: int) -> str:
    """The roasted bean of ``level`` (0-4).

    >>> bean(2)
    'bean2'
    """
    if not isinstance(level, int) or not 0 <= level <= 4:
        raise BadArgument("level", "a roasted bean has a level 0-4", level)
    return BEANS[level]


def roast(token: str, steps: int = 1) -> str:
    """The token after roasting ``steps`` levels: a hard bean becomes level 0 (whatever the steps, Rule);
    a level-4 bean, or one pushed past 4, becomes burnt; anything else is unchanged.

    >>> [roast(t) for t in ("bean0", "bean4", "burnt", "defect", "aroma")]
    ['bean1', 'burnt', 'burnt', 'defect', 'aroma']
    """
    if token == HARD:
        return BEANS[0]
    level = roast_level(token)
    if level is None:
        return token
    return BURNT if level == 4 or level + steps > 4 else BEANS[level + steps]


def key(token: str) -> tuple[int, str]:
    """Sort key putting tokens in :data:`TOKENS` order (cup effects after them)."""
    return (_ORDER.get(token, len(_ORDER)), token)


class _Keys(dict[str, tuple[int, str]]):
    """:func:`key` of every known token, looked up in C when sorting (unknown tokens computed, not stored)."""

    def __missing__(self, token: str) -> tuple[int, str]:
        return key(token)


_KEYS = _Keys({t: key(t) for t in _ORDER})


_TOKEN_LIST = refuses_stray("must be lists of bag token names, e.g. ('hard', 'smoke')")
"""Refuses what is not a list of token names as BadType (the helpers below read their tokens on a hot path)."""

mcontains = _TOKEN_LIST(_mcontains)
"""Whether a multiset holds another (re-exported: a roaster multiset test needs no token order)."""


@_TOKEN_LIST
def msort(tokens: Iterable[str]) -> tuple[str, ...]:
    """A multiset of tokens as a sorted tuple."""
    return tuple(sorted(tokens, key=_KEYS.__getitem__))


@_TOKEN_LIST
def madd(tokens: Sequence[str], more: Iterable[str]) -> tuple[str, ...]:
    """The multiset ``tokens`` with ``more`` added."""
    return multiset.madd(tokens, more, _KEYS.__getitem__)


@_TOKEN_LIST
def mremove(tokens: Sequence[str], taken: Iterable[str]) -> tuple[str, ...]:
    """The multiset ``tokens`` without ``taken``; a ``BadArgument`` naming ``taken`` if any is missing.

    >>> mremove(("hard", "smoke"), ["smoke"])
    ('hard',)
    """
    return multiset.mremove(tokens, taken, _KEYS.__getitem__)


@_TOKEN_LIST
def mpairs(tokens: Sequence[str]) -> list[tuple[str, ...]]:
    """Every sub-multiset of two tokens of ``tokens``, sorted.

    >>> mpairs(("hard", "hard", "aroma"))
    [('hard', 'hard'), ('hard', 'aroma')]
    """
    kinds = msort(set(tokens))
    return [(a, b) for i, a in enumerate(kinds) for b in kinds[i:] if a != b or tokens.count(a) > 1]


@_TOKEN_LIST
def show(tokens: Sequence[str]) -> str:
    """Tokens as a short text: ``hard×2 bean1 aroma`` (``-`` when there are none).

    >>> show(("hard", "hard", "bean1")), show(())
    ('hard×2 bean1', '-')
    """
    counts = Counter(tokens)
    return " ".join(t if counts[t] == 1 else f"{t}×{counts[t]}" for t in sorted(counts, key=key)) or "-"




def _bag_error(why: str, error: type[BadArgument] = BadArgument) -> BadArgument:
    """A :class:`BadArgument` about typed bag text whose message is the reason alone: the CLI and the bag widget
    prefix it with where the bag was typed (``--cup: 'bean3:x': a count is ...``)."""
    made = error("bag", why)
    made.args = (why,)
    return made


_COUNT_ALIASES = ("*", "×", "x")
"""What may stand for the ``:`` of ``kind:count`` (``hard*5``, ``hard×5``, ``hardx5``: the draw box's old forms)."""


def _count_sign(word: str) -> str:
    """``word`` with an alias of the count's ``:`` (:data:`_COUNT_ALIASES`) written as ``:``, where a token's name comes
    before it (no token's name holds an ``x``)."""
    for sign in _COUNT_ALIASES:
        kind, found, number = word.partition(sign)
        if found and kind.strip().lower() in TOKENS:
            return f"{kind}:{number}"
    return word


def parse_bag(text: str) -> dict[str, int]:
    """Tokens typed as ``kind:count`` pairs (a kind alone counts 1; repeats add up), separated by spaces or commas:
    the one syntax of Coffee Roaster's tokens, for the CLI, the bag explorer and the draw box of the walkthrough.
    ``hard*5``, ``hard×5`` and ``hardx5`` are read as ``hard:5`` (:data:`_COUNT_ALIASES`).

    >>> parse_bag("bean2:4 smoke moisture:3 smoke")
    {'bean2': 4, 'smoke': 2, 'moisture': 3}
    >>> parse_bag("bean2*4 smoke moisture×3 smoke") == parse_bag("bean2:4 smoke moisture:3 smoke")
    True
    >>> parse_bag("bean9:2")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: 'bean9' is not a bag token; tokens are hard, bean0, bean1, bean2, bean3, bean4, burnt, defect, smoke, moisture, body, acidity, aroma, wild
    """
    if not isinstance(text, str):
        raise BadType("text", "a bag is typed as text, e.g. 'bean2:4 smoke:1 moisture:3'", text)
    counts: dict[str, int] = {}
    for word in text.replace(",", " ").split():
        kind, sep, number = _count_sign(word).partition(":")
        kind = kind.strip().lower()
        if kind not in TOKENS:
            raise _bag_error(f"{shown(kind)} is not a bag token; tokens are {', '.join(TOKENS)}")
        number = number.strip()
        if sep and not (number.isascii() and number.isdigit()):
            raise _bag_error(f"{shown(word)}: a count is a whole number 0 or more, as in {kind}:3")
        if sep and (len(number) > 6 or int(number) > MAX_TOKENS):
            raise _bag_error(f"{shown(word)}: a count is at most {MAX_TOKENS:,}, the limit of a bag", TooBig)
        counts[kind] = counts.get(kind, 0) + (int(number) if sep else 1)
    counts = {k: n for k, n in counts.items() if n}
    if sum(counts.values()) > MAX_TOKENS:
        raise _bag_error(f"the bag holds {sum(counts.values()):,} tokens, over the limit of {MAX_TOKENS:,}", TooBig)
    if not counts:
        raise _bag_error("the bag is empty: type tokens as kind:count, e.g. bean2:4 smoke:1 moisture:3")
    return counts


@_TOKEN_LIST
def bag_text(tokens: Any) -> str:
    """A bag (tokens, or kind → count) as the text :func:`parse_bag` reads.

    >>> bag_text(["hard", "hard", "smoke"])
    'hard:2 smoke:1'
    """
    counts = dict(tokens) if isinstance(tokens, dict) else {t: list(tokens).count(t) for t in dict.fromkeys(tokens)}
    return " ".join(f"{t}:{counts[t]}" for t in TOKENS if counts.get(t))
