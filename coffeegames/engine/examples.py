"""Tiny games under the State contract, for doctests, tests and teaching."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .state import CHANCE, TERMINAL, State

__all__ = ["Keep", "KeepOrReroll", "Reroll"]

_D6 = [(v, Fraction(1, 6)) for v in range(1, 7)]


@dataclass(frozen=True)
class Keep:
    """Keep the die."""


@dataclass(frozen=True)
class Reroll:
    """Roll the die once more."""


@dataclass(frozen=True)
class KeepOrReroll(State):
    """Roll a d6; keep it or reroll once; score the die. Optimal play is worth 17/4."""

    die: int | None = None
    rerolled: bool = False
    kept: bool = False

    def current_player(self) -> int:
        if self.die is None:
            return CHANCE
        return TERMINAL if self.kept or self.rerolled else 0

    def _chance_outcomes(self):
        return _D6

    def _legal_actions(self):
        return (Keep(), Reroll())

    def _apply(self, move):
        if self.die is None:
            return KeepOrReroll(move, self.rerolled, self.kept)
        if move == Keep():
            return KeepOrReroll(self.die, self.rerolled, True)
        return KeepOrReroll(None, True, False)

    def returns(self):
        return (self.die,)
