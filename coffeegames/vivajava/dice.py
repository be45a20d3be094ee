"""VivaJava: The Dice Game — the coloured dice and the blends they make (rules: ``docs/rules/vivajava.md``).

* Coffee dice (white in the box; called coffee dice here, as white is also a bean colour):
  one face of each bean colour, ranked White < Yellow < Brown < Red
  < Green < Black (grades 1–6).
* Black flavour dice: faces White..Green and a **joker** (wild: counts as any colour;
  Ruling: any of the six, black included). No black face.
* A blend's strength is its largest group of one colour — Decaf (pair) < Regular (three)
  < Bold (four) < Extra Bold (five) — then the colour's rank. A **Rainbow** is five dice
  of five different colours (jokers fill missing colours).

Example:
    >>> best_blend_of(["red", "red", "green", "joker", "white"])
    Blend('Regular', 'red')
    >>> is_rainbow(["white", "yellow", "brown", "red", "joker"])
    True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Any, Self

from ..errors import BadArgument, BadType, TooBig, shown
from ..exact import multiset
from ..validate import refuses_stray

__all__ = [
    "COFFEE_DIE",
    "COLOURS",
    "FACES",
    "FLAVOUR_DIE",
    "JOKER",
    "LARGEST_BLEND",
    "NO_BLEND",
    "RAINBOW_SIZE",
    "SIZE_NAMES",
    "WHITE_DIE",
    "Blend",
    "best_blend_of",
    "best_of_counts",
    "check_dice",
    "face_key",
    "is_rainbow",
    "rainbow_of_counts",
    "remove_faces",
    "show_faces",
    "sort_faces",
    "sub_multisets",
]

COLOURS: tuple[str, ...] = ("white", "yellow", "brown", "red", "green", "black")
"""Bean colours from lowest to highest rank (grade = index + 1)."""
JOKER = "joker"
"""The flavour dice's wild face."""
COFFEE_DIE: tuple[str, ...] = COLOURS
"""Faces of a coffee die: one of each bean colour."""
WHITE_DIE: tuple[str, ...] = COFFEE_DIE
"""The old name of :data:`COFFEE_DIE` (kept so old code runs)."""
FLAVOUR_DIE: tuple[str, ...] = COLOURS[:5] + (JOKER,)
"""Faces of a black flavour die: White..Green and a joker."""
FACES: tuple[str, ...] = COLOURS + (JOKER,)
"""Every face name, in sort order (colour rank, then the joker)."""
SIZE_NAMES: dict[int, str] = {0: "no blend", 2: "Decaf", 3: "Regular", 4: "Bold", 5: "Extra Bold"}
"""A blend's name by its size (Rule)."""
LARGEST_BLEND = 5
"""No blend has more than five dice (Rule)."""
RAINBOW_SIZE = 5
"""A Rainbow shows five different colours (Rule)."""


@dataclass(frozen=True, order=True)
class Blend:
    """A blend: ``size`` dice (2–5; 0 for no blend) of the colour with rank ``rank`` (1–6).

    Blends compare by size, then colour rank.

    >>> Blend.of(3, "green") > Blend.of(3, "red"), Blend.of(4, "white") > Blend.of(3, "black")
    (True, True)
    """

    size: int
    rank: int

    @classmethod
    def of(cls, size: int, colour: str) -> Self:
        """The blend of ``size`` dice (2-5) of ``colour``."""
        if colour not in COLOURS:
            raise BadArgument("colour", f"unknown colour {shown(colour)}; the colours are {', '.join(COLOURS)}")
        if size not in (2, 3, 4, 5):
            raise BadArgument("size", "a blend has 2 to 5 dice", size)
        return cls(size, COLOURS.index(colour) + 1)

    @property
    def colour(self) -> str | None:
        """The blend's colour (None for no blend)."""
        return COLOURS[self.rank - 1] if self.rank else None

    @property
    def name(self) -> str:
        """Decaf, Regular, Bold, Extra Bold (or "no blend")."""
        return SIZE_NAMES[self.size]

    def __str__(self) -> str:
        return "no blend" if not self.size else f"{self.name} {self.colour}"

    def __repr__(self) -> str:
        return "NO_BLEND" if not self.size else f"Blend({self.name!r}, {self.colour!r})"


NO_BLEND = Blend(0, 0)
"""Fewer than two dice of any colour."""


MOST_DICE = 15
"""The most dice a list of faces may hold: every coffee and flavour die of the game."""


def check_dice(dice: object, faces: Sequence[str] = FACES) -> tuple[str, ...]:
    """Validate a list of face names, or raise an error naming the bad one and the allowed faces.

    >>> check_dice(["red", "blue"])
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: argument 'dice': 'blue' is not a face; the faces are white, yellow, brown, red, green, black, joker
    """
    if isinstance(faces, (str, bytes)) or not isinstance(faces, (list, tuple)) or not all(isinstance(f, str) for f in faces):
        raise BadType("faces", "must be a list of face names", faces)
    if isinstance(dice, (str, bytes)) or not hasattr(dice, "__iter__"):
        raise BadType("dice", "must be a list of face names such as ['red', 'green', 'joker']", dice)
    values = tuple(islice(dice, MOST_DICE + 1))  # never more: a huge or endless list is refused unread
    if len(values) > MOST_DICE:
        raise TooBig("dice", f"has more than {MOST_DICE} dice; the game has {MOST_DICE} (10 coffee and 5 flavour dice)")
    for face in values:
        if face not in faces:
            raise BadArgument("dice", f"{shown(face)} is not a face; the faces are {', '.join(faces)}")
    return values


_FACE_INDEX = {f: i for i, f in enumerate(FACES)}


def face_key(face: Any) -> tuple[int, str]:
    """The sort key of a face: colour rank order, the joker last (unknown faces after it)."""
    return (_FACE_INDEX.get(face, 99), str(face))


class _FaceKeys(dict[Any, tuple[int, str]]):
    """:func:`face_key` of every face, looked up in C when sorting (unknown faces computed, not stored)."""

    def __missing__(self, face: Any) -> tuple[int, str]:
        return face_key(face)


_FACE_KEYS = _FaceKeys({f: face_key(f) for f in FACES})


def sort_faces(faces: Sequence[str]) -> tuple[str, ...]:
    """``faces`` sorted in colour rank order, the joker last.

    >>> sort_faces(["joker", "red", "white"])
    ('white', 'red', 'joker')
    """
    return tuple(sorted(faces, key=_FACE_KEYS.__getitem__))


@lru_cache(maxsize=1 << 14)
def _tally(faces: tuple[str, ...]) -> tuple[int, ...]:
    """How many of ``faces`` (a tuple of face names) show each face of :data:`FACES` (the six colours, then the joker).

    Cached: the engine asks it of the same few rolls again and again.

    >>> _tally(("red", "red", "joker"))
    (0, 0, 0, 2, 0, 0, 1)
    """
    return tuple(map(faces.count, FACES))


def show_faces(faces: Sequence[str]) -> str:
    """Faces as words for a label (``-`` for none)."""
    return " ".join(faces) or "-"


def sub_multisets(items: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """Every non-empty sub-multiset of sorted ``items``, smallest first.

    >>> list(sub_multisets(("red", "red", "green")))
    [('red',), ('green',), ('red', 'red'), ('red', 'green'), ('red', 'red', 'green')]
    """
    return iter(multiset.sub_multisets(items, key=_FACE_KEYS.__getitem__, least=1))


def remove_faces(items: Sequence[str], taken: Sequence[str]) -> tuple[str, ...]:
    """``items`` without ``taken`` (a sub-multiset), sorted.

    >>> remove_faces(("red", "red", "green"), ["red"])
    ('red', 'green')
    """
    return multiset.mremove(items, taken, _FACE_KEYS.__getitem__)


@refuses_stray("must be per-colour counts (whole numbers) and a number of jokers")
def best_of_counts(counts: Sequence[int], jokers: int) -> Blend:
    """The best blend from per-colour counts (in :data:`COLOURS` order) and wild jokers."""
    best = NO_BLEND
    for rank, n in enumerate(counts, start=1):
        size = min(LARGEST_BLEND, n + jokers)
        if size >= 2 and (size, rank) > (best.size, best.rank):
            best = Blend(size, rank)
    return best


def best_blend_of(dice: Sequence[str]) -> Blend:
    """The best blend a roll can make (jokers wild)."""
    counts = Counter(check_dice(dice))
    return best_of_counts([counts[c] for c in COLOURS], counts[JOKER])


@refuses_stray("must be per-colour counts (whole numbers) and a number of jokers")
def rainbow_of_counts(counts: Sequence[int], jokers: int) -> bool:
    """Whether five different colours can be shown (jokers fill missing colours)."""
    present = sum(1 for n in counts if n)
    return present + min(jokers, len(COLOURS) - present) >= RAINBOW_SIZE


def is_rainbow(dice: Sequence[str]) -> bool:
    """Whether a roll holds a Rainbow Blend: five dice of five different colours."""
    counts = Counter(check_dice(dice))
    return rainbow_of_counts([counts[c] for c in COLOURS], counts[JOKER])
