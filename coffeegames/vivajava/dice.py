"""VivaJava: The Dice Game — the coloured dice and the blends they make (RULES.md §2).

* White coffee dice: one face of each bean colour, ranked White < Yellow < Brown < Red
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
from collections.abc import Sequence
from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("white", "yellow", "brown", "red", "green", "black")
"""Bean colours from lowest to highest rank (grade = index + 1)."""
JOKER = "joker"
WHITE_DIE: tuple[str, ...] = COLOURS
"""Faces of a white coffee die."""
FLAVOUR_DIE: tuple[str, ...] = COLOURS[:5] + (JOKER,)
"""Faces of a black flavour die: White..Green and a joker."""
FACES: tuple[str, ...] = COLOURS + (JOKER,)
SIZE_NAMES: dict[int, str] = {0: "no blend", 2: "Decaf", 3: "Regular", 4: "Bold", 5: "Extra Bold"}
LARGEST_BLEND = 5
RAINBOW_SIZE = 5


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
    def of(cls, size: int, colour: str) -> Blend:
        if colour not in COLOURS:
            raise ValueError(f"unknown colour {colour!r}; the colours are {', '.join(COLOURS)}")
        if size not in (2, 3, 4, 5):
            raise ValueError(f"a blend has 2 to 5 dice, got {size}")
        return cls(size, COLOURS.index(colour) + 1)

    @property
    def colour(self) -> str | None:
        return COLOURS[self.rank - 1] if self.rank else None

    @property
    def name(self) -> str:
        return SIZE_NAMES[self.size]

    def __str__(self) -> str:
        return "no blend" if not self.size else f"{self.name} {self.colour}"

    def __repr__(self) -> str:
        return "NO_BLEND" if not self.size else f"Blend({self.name!r}, {self.colour!r})"


NO_BLEND = Blend(0, 0)
"""Fewer than two dice of any colour."""


def check_dice(dice: object, faces: Sequence[str] = FACES) -> tuple[str, ...]:
    """Validate a list of face names, or raise an error naming the bad one and the allowed faces."""
    if isinstance(dice, (str, bytes)) or not hasattr(dice, "__iter__"):
        raise TypeError(f"dice are a list of face names such as ['red', 'green', 'joker']; got {dice!r}")
    values = tuple(dice)  # type: ignore[arg-type]
    for face in values:
        if face not in faces:
            raise ValueError(f"{face!r} is not a face; the faces are {', '.join(faces)}")
    return values


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


def rainbow_of_counts(counts: Sequence[int], jokers: int) -> bool:
    """Whether five different colours can be shown (jokers fill missing colours)."""
    present = sum(1 for n in counts if n)
    return present + min(jokers, len(COLOURS) - present) >= RAINBOW_SIZE


def is_rainbow(dice: Sequence[str]) -> bool:
    """Whether a roll holds a Rainbow Blend: five dice of five different colours."""
    counts = Counter(check_dice(dice))
    return rainbow_of_counts([counts[c] for c in COLOURS], counts[JOKER])
