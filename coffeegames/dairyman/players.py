"""Each player's holdings (:class:`PlayerState`) and how they score: final scores and winners.

Example:
    >>> rules = Rules()
    >>> me = PlayerState(milk=("20:cheese5",), cheese=("30:cheese3",), backorders=1)
    >>> score(rules, me)          # 20 + 30 + 5 for the cheese − 5 for the backorder token
    50
    >>> winners(rules, (me, PlayerState(milk=("40:cheese6", "10:cheese1"))))
    (0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import BadArgument
from ..validate import Checker, check_instance
from .rules import Rules, tile_of

__all__ = ["PlayerState", "score", "winners"]


@dataclass(frozen=True)
class PlayerState:
    """One player's tiles (sorted codes, by side showing) and tokens."""

    milk: tuple[str, ...] = ()
    cheese: tuple[str, ...] = ()
    ice_cream: tuple[str, ...] = ()
    ice: int = 0
    backorders: int = 0

    @property
    def tiles(self) -> tuple[str, ...]:
        """Every tile the player owns, whichever side shows."""
        return self.milk + self.cheese + self.ice_cream

    def __str__(self) -> str:
        def show(codes: tuple[str, ...]) -> str:
            return " ".join(codes) or "-"

        return f"milk {show(self.milk)} · cheese {show(self.cheese)} · ice cream {show(self.ice_cream)} · ice {self.ice} · backorders {self.backorders}"


def score(rules: Rules, player: PlayerState) -> int:
    """Tile values + cheese points per cheese (+ ice-cream points) − the penalty per backorder token held."""
    check_instance(rules, Rules, "rules", "Dairyman Rules")
    check_instance(player, PlayerState, "player", "a PlayerState")
    values = sum(tile_of(c).value for c in player.tiles)
    return (
        values
        + rules.cheese_points * len(player.cheese)
        + rules.ice_cream_points * len(player.ice_cream)
        - rules.backorder_penalty * player.backorders
    )


def winners(rules: Rules, players: Sequence[PlayerState]) -> tuple[int, ...]:
    """The players with the highest score after the tiebreakers in ``rules.tiebreak`` (Ruling: none, shared victory)."""
    Checker("", BadArgument).sequence(players, "players", lambda p, where: check_instance(p, PlayerState, where, "a PlayerState"), 1)
    scores = [score(rules, p) for p in players]
    best = [i for i, s in enumerate(scores) if s == max(scores)]
    keys: dict[str, Callable[[int], int]] = {
        "fewest_backorders": lambda i: -players[i].backorders,
        "most_cheese": lambda i: len(players[i].cheese),
        "most_tiles": lambda i: len(players[i].tiles),
    }
    for name in rules.tiebreak:
        top = max(keys[name](i) for i in best)
        best = [i for i in best if keys[name](i) == top]
    return tuple(best)
