"""The full menu (roast challenge): three games on a class I, II and III card, and the roaster title.

Example:
    >>> next_difficulty(12)
    'advanced'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

from ..errors import BadArgument
from ..validate import Checker, check_instance
from .data import CLASSES, DIFFICULTIES, Board, Card, load_cards, stand_in_board

__all__ = ["MAX_SCORE", "Menu", "next_difficulty"]

MAX_SCORE = 100
"""A game's score in a menu is a whole number -100 to 100 (a cup scores a few tens at most)."""


def next_difficulty(score: int) -> str:
    """The next card's difficulty from the last score: ≤9 beginner, 10-14 advanced, ≥15 expert (Rule).

    >>> next_difficulty(9), next_difficulty(10), next_difficulty(14), next_difficulty(15)
    ('beginner', 'advanced', 'advanced', 'expert')
    """
    Checker("", BadArgument).whole(score, "score", -MAX_SCORE, MAX_SCORE)
    return "beginner" if score <= 9 else "advanced" if score <= 14 else "expert"


@dataclass(frozen=True)
class Menu:
    """The full menu (roast challenge): three games, a class I, II and III card; each next card's difficulty
    follows the last score; the sum of the three scores gives the roaster title (Rule; titles stand-in).

    ``first`` is the first game's difficulty: beginner (Rule), or expert once a player has earned
    an intermediate title (Rule: a privilege the player claims).

    >>> m = Menu()
    >>> m.next_class, m.next_difficulty
    ('I', 'beginner')
    >>> m = m.record("Mexico Altura Oaxaca", 12)
    >>> m.next_class, m.next_difficulty, [c.name for c in m.choices()]
    ('II', 'advanced', ['Tanzania Kilimanjaro', 'Honduras Marcala', 'Peru Chanchamayo'])
    >>> m = m.record("Peru Chanchamayo", 16).record("Yemen Mocha Mattari", 20)
    >>> m.finished, m.total, m.title()
    (True, 48, 'Senior Roaster')
    """

    results: tuple[tuple[str, int], ...] = ()
    first: str = "beginner"

    def __post_init__(self) -> None:
        check = Checker("Menu", BadArgument)
        check.one_of(self.first, "first", DIFFICULTIES)
        check.sequence(self.results, "results", lambda r, where: check.sequence(r, where, None, 2, 2), 0, len(CLASSES))
        for i, (name, score) in enumerate(self.results):
            check.text(name, f"results[{i}][0]", nonempty=True)
            check.whole(score, f"results[{i}][1]", -MAX_SCORE, MAX_SCORE)

    @property
    def finished(self) -> bool:
        """Whether the three games are played."""
        return len(self.results) == len(CLASSES)

    @property
    def next_class(self) -> str | None:
        """The roast class of the next card (None when the three games are played)."""
        return None if self.finished else CLASSES[len(self.results)]

    @property
    def next_difficulty(self) -> str | None:
        """The difficulty of the next card (None when finished)."""
        if self.finished:
            return None
        return self.first if not self.results else next_difficulty(self.results[-1][1])

    def choices(self, cards: Sequence[Card] | None = None) -> tuple[Card, ...]:
        """The cards the next game may use (specialty coffees are expert cards of their class)."""
        if cards is None:
            cards = load_cards()
        else:
            check = Checker("Menu.choices", BadArgument)
            cards = check.sequence(cards, "cards", lambda c, where: check_instance(c, Card, where, "a Card (load_cards())"))
        return tuple(c for c in cards if c.roast_class == self.next_class and c.difficulty == self.next_difficulty)

    def record(self, card: str | Card, score: int) -> Self:
        """The menu after a game on ``card`` scoring ``score``."""
        if self.finished:
            raise BadArgument("card", "the menu's three games are already played", source="Menu.record")
        check = Checker("Menu.record", BadArgument)
        if isinstance(card, Card):
            name = card.name
        else:
            name = check.one_of(card, "card", [c.name for c in load_cards()])
        check.whole(score, "score", -MAX_SCORE, MAX_SCORE)
        return type(self)(self.results + ((name, score),), self.first)

    @property
    def total(self) -> int:
        """The sum of the scores so far."""
        return sum(s for _, s in self.results)

    def title(self, board: Board | None = None) -> str | None:
        """The roaster title for the three scores' sum (None until the menu is finished)."""
        if board is not None:
            check_instance(board, Board, "board", "a Board (load_board())")
        if not self.finished:
            return None
        return (stand_in_board() if board is None else board).title(self.total)
