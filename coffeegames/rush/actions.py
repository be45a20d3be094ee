"""Coffee Rush's moves: the phases of a turn, the player's actions and chance's outcome (an order drawn).

A turn is a few small decisions rather than one composite move, so the decision view
lists a readable handful at each step and the best-move search (:mod:`.best`) still
covers every combination: :class:`Upgrade` / :class:`NoUpgrade` (step 1, offered only
with 3 completed orders and a face-down tile), :class:`Move` (step 2: a meeple and its
path), :class:`Empty` (which cups to empty; offered only when a cup holds something),
:class:`Pour` (step 3: what goes into each cup, the rest returned) and :class:`Complete`
(step 4: which matching cups complete their orders; asked only when a cup matches a waiting
order and option ``completion`` is ``"choice"``). Too Many Orders and Flow of Time follow by
themselves (docs/rules/rush.md).

Example:
    >>> str(Move(0, (1, 2), 0)), str(Pour((("milk",), (), ("steam",)))), str(Drawn("coffee+milk"))
    ('move b1→c1', 'pour: cup 1 milk, cup 3 steam', 'drew coffee+milk')
    >>> Phase.MOVE == "move", str(Empty((0, 2))), str(Complete((0,))), str(Complete(()))
    (True, 'empty cups 1, 3', 'complete: cup 1', 'complete no order')
"""

from __future__ import annotations

from enum import StrEnum

from ..engine.actions import action
from .data import _ARGUMENT

__all__ = ["ACTION_KINDS", "CHANCE_PHASES", "Complete", "Drawn", "Empty", "Move", "NoUpgrade", "Phase", "Place", "Pour", "Upgrade", "describe"]


class Phase(StrEnum):
    """The steps of a game (saved games keep these strings)."""

    DEAL = "deal"
    """Chance: setup deals orders onto the tabs."""
    PLACE = "place"
    """A player places a meeple (setup)."""
    UPGRADE = "upgrade"
    """Step 1: flip an upgrade tile for 3 completed orders, or not."""
    MOVE = "move"
    """Step 2: move a meeple."""
    EMPTY = "empty"
    """Step 3a: empty cups (only when some cup holds something)."""
    POUR = "pour"
    """Step 3b: pour the collected ingredients into cups or return them."""
    COMPLETE = "complete"
    """Step 4: choose which cups matching a waiting order complete it (option ``completion="choice"``)."""
    RUSH_ORDERS = "rush_orders"
    """Chance: Too Many Orders deals new orders to the players on the left."""
    EXTRA_ORDER = "extra_order"
    """Chance: the two-player game's extra order after Flow of Time."""
    OVER = "over"
    """The game has ended."""

    def __repr__(self) -> str:  # shown as its string, so tables read plainly
        return repr(self.value)


CHANCE_PHASES = (Phase.DEAL, Phase.RUSH_ORDERS, Phase.EXTRA_ORDER)
"""The phases where chance draws an order."""

_COLUMNS = "abcdef"
_MAX_ROWS = 6
"""A board has at most 6 columns (:data:`_COLUMNS`) and 6 rows (:func:`.data.board_from_dict`)."""


def _space(space: int, cols: int = 4) -> str:
    return f"{_COLUMNS[space % cols]}{space // cols + 1}"


@action()
class Place:
    """Setup: place your next meeple on an empty space (numbered row by row from 0)."""

    space: int

    def __str__(self) -> str:
        return f"place on {_space(self.space)}"


@action("upgrade: {tile}")
class Upgrade:
    """Discard 3 completed orders and flip the upgrade tile named ``tile``."""

    tile: str


@action("no upgrade")
class NoUpgrade:
    """Flip no upgrade tile this turn."""


@action()
class Move:
    """Move meeple ``meeple`` (0, or 0/1 with two players) along ``path`` (the spaces entered, in order), spending
    ``rush`` rush tokens (one per step beyond the move's allowance). The start space is where the meeple stands."""

    meeple: int
    path: tuple[int, ...]
    rush: int = 0

    def __str__(self) -> str:
        spent = f" (+{self.rush} rush)" if self.rush else ""
        return f"move{f' meeple {self.meeple + 1}' if self.meeple else ''} {'→'.join(_space(s) for s in self.path)}{spent}"

    def describe(self, start: int, cols: int = 4) -> str:
        """``'move a1→b1→c1 (+1 rush)'``: the path from the start space (``cols``: the board's width, 2-6). The start
        space says which meeple moves, so no meeple number is shown (it read as a player's number).

        >>> Move(1, (1, 2), 1).describe(0)
        'move a1→b1→c1 (+1 rush)'
        """
        _ARGUMENT.whole(start, "start", 0, _ARGUMENT.whole(cols, "cols", 2, len(_COLUMNS)) * _MAX_ROWS - 1)
        spent = f" (+{self.rush} rush)" if self.rush else ""
        return f"move {'→'.join(_space(s, cols) for s in (start, *self.path))}{spent}"


@action()
class Empty:
    """Empty these cups (0-based) into the supply before pouring."""

    cups: tuple[int, ...]

    def __str__(self) -> str:
        if not self.cups:
            return "empty no cup"
        return f"empty cup{'s' if len(self.cups) > 1 else ''} {', '.join(str(c + 1) for c in self.cups)}"


@action()
class Pour:
    """What goes into each cup (sorted ingredients per cup); the collected ingredients not poured are returned."""

    cups: tuple[tuple[str, ...], ...]

    def __str__(self) -> str:
        parts = [f"cup {i + 1} {'+'.join(added)}" for i, added in enumerate(self.cups) if added]
        return "pour: " + (", ".join(parts) if parts else "nothing (return all)")


@action()
class Complete:
    """Step 4: complete an order with each of these cups (0-based, each matching a waiting order); the others keep
    their contents."""

    cups: tuple[int, ...]

    def __str__(self) -> str:
        if not self.cups:
            return "complete no order"
        return f"complete: cup{'s' if len(self.cups) > 1 else ''} {', '.join(str(c + 1) for c in self.cups)}"


@action("drew {order}")
class Drawn:
    """Chance: the order card drawn (its name, ``'coffee+milk'``)."""

    order: str


ACTION_KINDS: tuple[type, ...] = (Place, Upgrade, NoUpgrade, Move, Empty, Pour, Complete, Drawn)
"""Every action and outcome class, for loading saved walkthroughs."""


def describe(action: object) -> str:
    """An action or chance outcome as a player reads it (the views show this; ``str`` stays the short code of saved logs).

    >>> describe(Place(5)), describe(Upgrade("double shot")), describe(NoUpgrade())
    ('Place a meeple on b2', 'Upgrade: discard 3 completed orders, flip double shot', 'No upgrade this turn')
    >>> describe(Move(0, (1, 2), 1)), describe(Empty((0,))), describe(Drawn("coffee+milk"))
    ('Move b1→c1 (+1 rush)', 'Empty cup 1', 'Order card drawn: coffee+milk')
    """
    if isinstance(action, Place):
        return f"Place a meeple on {_space(action.space)}"
    if isinstance(action, Upgrade):
        return f"Upgrade: discard 3 completed orders, flip {action.tile}"
    if isinstance(action, NoUpgrade):
        return "No upgrade this turn"
    if isinstance(action, Drawn):
        return f"Order card drawn: {action.order}"
    text = str(action)
    return text[:1].upper() + text[1:] if isinstance(action, (Move, Empty, Pour, Complete)) else text
