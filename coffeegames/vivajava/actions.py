"""VivaJava's actions, its chance outcome (:class:`Rolled`) and its phases (:class:`Phase`).

Every choice a player makes is one small frozen dataclass; the rules that decide when
each is legal live in :mod:`.state` (see ``docs/rules/vivajava.md``). Dice are face names
(:data:`~.dice.COLOURS` and ``"joker"``) kept as sorted tuples, so equal rolls are equal
actions. JSON (``action_to_json`` / ``action_from_json`` in :mod:`coffeegames.engine`)
reads and writes them by class name (:data:`ACTION_KINDS`).

Example:
    >>> str(Featured("green", 4, funded=((2, 1), (1, 0))))
    'Featured(Bold green, funded by player 2 ×1)'
    >>> Rolled(white=("red", "white")) == Rolled(white=["white", "red"])
    True
    >>> Phase("act") == "act", str(Phase.ROLL)
    (True, 'roll')
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, TypeVar

from ..engine.actions import action, listed
from ..errors import BadArgument, BadType
from ..text import action_words
from .dice import COLOURS, SIZE_NAMES, face_key, show_faces

__all__ = [
    "WORDS",
    "describe",
    "ACTION_KINDS",
    "Action",
    "Boost",
    "CHANCE_PHASES",
    "Decline",
    "Degrade",
    "Featured",
    "FirstPlayer",
    "Flip",
    "GainToken",
    "Keep",
    "KeepRolling",
    "Phase",
    "Rainbow",
    "Reroll",
    "Research",
    "Rolled",
    "SetupResearch",
    "TakeFlavour",
    "Upgrade",
]

T = TypeVar("T")


class Phase(StrEnum):
    """Where a turn stands. A ``StrEnum``: each phase equals (and saves as) its lower-case name.

    ``FIRST`` (chance: a solo game's first player is drawn, option ``solo_first``),
    ``SETUP`` (a non-first player marks 1 RP), ``DEGRADE`` (choose the die to remove from
    your Featured Blend), ``KEEP`` (keep it or re-roll), ``ROLL`` (chance), ``ACT`` (Featured
    / Rainbow / Research, or spend a token first), ``ACTIVATE`` (abilities gained this turn),
    ``CORP`` and ``BLOCK`` (chance: a solo corporation's rolls), ``OVER``.

    >>> [str(p) for p in Phase][:3]
    ['first', 'setup', 'degrade']
    """

    FIRST = "first"
    SETUP = "setup"
    DEGRADE = "degrade"
    KEEP = "keep"
    ROLL = "roll"
    ACT = "act"
    ACTIVATE = "activate"
    CORP = "corp"
    BLOCK = "block"
    OVER = "over"


CHANCE_PHASES: frozenset[Phase] = frozenset({Phase.FIRST, Phase.ROLL, Phase.CORP, Phase.BLOCK})
"""The phases at which chance acts (dice are rolling, or in ``FIRST`` the first player is drawn)."""

FIRST, SETUP, DEGRADE, KEEP, ROLL, ACT, ACTIVATE, CORP, BLOCK, OVER = (
    Phase.FIRST, Phase.SETUP, Phase.DEGRADE, Phase.KEEP, Phase.ROLL, Phase.ACT, Phase.ACTIVATE, Phase.CORP, Phase.BLOCK, Phase.OVER
)
# Each phase as a plain name, for the engine's inner loops (state, legal, tracks, corporations): in Python 3.11
# reading ``Phase.ACT`` goes through the hook of ``EnumType.__getattr__`` (about 0.3 µs), many times a step.

_FACES = listed(str, "face names such as ['red', 'joker']", key=face_key)
"""A list of dice faces, kept sorted in colour rank order (the joker last)."""


def _count(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadArgument(where, "must hold whole numbers", value)
    return value


def _pairs(value: Any, where: str, second: Callable[[Any, str], T]) -> tuple[tuple[int, T], ...]:
    """``value`` as a tuple of (player, x) pairs sorted by player, or an error naming the argument."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise BadType(where, "must be a list of [player, ...] pairs", value)
    out = []
    for item in value:
        if not isinstance(item, (tuple, list)) or len(item) != 2 or not isinstance(item[0], int) or isinstance(item[0], bool):
            raise BadArgument(where, "must hold [player, ...] pairs", item)
        out.append((item[0], second(item[1], where)))
    return tuple(sorted(out, key=lambda pair: pair[0]))


def _funding(value: Any, where: str) -> tuple[tuple[int, int], ...]:
    """Featured's funding: (player, dice) pairs sorted by player, those of no dice left out."""
    return tuple((q, n) for q, n in _pairs(value, where, _count) if n)


def _offered(value: Any, where: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Rolled's offered flavour dice: (player, faces) pairs sorted by player."""
    return _pairs(value, where, _FACES)


# -- actions ---------------------------------------------------------------------------

@action("SetupResearch({colour})")
class SetupResearch:
    """Setup: a non-first player marks 1 RP on the track of ``colour``."""

    colour: str


@action()
class Degrade:
    """Remove one die from your Featured Blend: one funded by player ``funder`` (its marker goes home), or an unfunded one (None).

    >>> str(Degrade()), str(Degrade(2))
    ('Degrade(unfunded die)', 'Degrade(die funded by player 2)')
    """

    funder: int | None = None

    def __str__(self) -> str:
        return "Degrade(unfunded die)" if self.funder is None else f"Degrade(die funded by player {self.funder})"


@action()
class Keep:
    """Keep the degraded Featured Blend; your turn ends."""


@action()
class Reroll:
    """Give up the degraded Featured Blend and roll the dice that were left on it."""


@action(funded=_funding)
class Featured:
    """Make a Featured Blend of ``size`` dice of ``colour``; ``funded`` = ((player, dice), ...) from other players' flavour dice.

    The rest of the blend comes from your own dice (coffee dice first, then flavour dice).

    >>> Featured("red", 3, funded=((1, 2), (2, 0))).funded_dice
    2
    """

    colour: str
    size: int
    funded: tuple[tuple[int, int], ...] = ()

    @property
    def funded_dice(self) -> int:
        """How many of the blend's dice other players fund."""
        return sum(n for _, n in self.funded)

    def __str__(self) -> str:
        name = SIZE_NAMES[self.size] if self.size in (2, 3, 4, 5) else f"{self.size} dice"
        funds = "".join(f", funded by player {q} ×{n}" for q, n in self.funded)
        return f"Featured({name} {self.colour}{funds})"


@action()
class Rainbow:
    """Make a Rainbow Blend from your own dice: take its coaster (1 PP unless you already hold it)."""


@action("Research({colour})")
class Research:
    """Research ``colour``: 1 RP per die of it (at most 5); black gives that many flavour dice instead."""

    colour: str


@action()
class Upgrade:
    """Spend an Upgrade Bean token: one rolled coffee die showing ``face`` goes up one grade.

    >>> str(Upgrade("red"))
    'Upgrade(red → green)'
    """

    face: str

    def __str__(self) -> str:
        up = COLOURS[COLOURS.index(self.face) + 1] if self.face in COLOURS[:-1] else "?"
        return f"Upgrade({self.face} → {up})"


@action()
class Flip:
    """Spend a Flip Bean token: one rolled coffee die showing ``face`` flips to grade 7 − g.

    >>> str(Flip("yellow"))
    'Flip(yellow → green)'
    """

    face: str

    def __str__(self) -> str:
        flipped = COLOURS[len(COLOURS) - 1 - COLOURS.index(self.face)] if self.face in COLOURS else "?"
        return f"Flip({self.face} → {flipped})"


@action(lambda a: f"KeepRolling({show_faces(a.dice)})", dice=_FACES)
class KeepRolling:
    """Spend a Keep Rolling token: re-roll these rolled coffee dice.

    >>> str(KeepRolling(("red", "white")))
    'KeepRolling(white red)'
    """

    dice: tuple[str, ...]


@action("Boost(+1 RP {target})")
class Boost:
    """Research Boost: mark 1 RP on the track of ``target``."""

    target: str


@action()
class TakeFlavour:
    """Extra Flavour: take one flavour die from the flavour coaster."""


@action()
class GainToken:
    """Gain a marker token on the ability's track; with no free marker, move your token from track ``move_from``."""

    move_from: str | None = None

    def __str__(self) -> str:
        return "GainToken()" if self.move_from is None else f"GainToken(moved from {self.move_from})"


@action()
class Decline:
    """Do not use the (positive) ability just gained."""


@action(white=_FACES, own=_FACES, offered=_offered)
class Rolled:
    """Chance: the faces rolled — the active player's coffee dice, their flavour dice, and other players' offered flavour dice.

    >>> str(Rolled(white=("red", "white"), own=("joker",), offered=((2, ("green",)),)))
    'rolled white red | flavour joker | player 2: green'
    """

    white: tuple[str, ...] = ()
    own: tuple[str, ...] = ()
    offered: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def __str__(self) -> str:
        parts = [f"rolled {show_faces(self.white)}"]
        if self.own:
            parts.append(f"flavour {show_faces(self.own)}")
        parts += [f"player {q}: {show_faces(f)}" for q, f in self.offered]
        return " | ".join(parts)


@action("first player: {player}", player=_count)
class FirstPlayer:
    """Chance: who starts a solo game (0: you, 1: the corporation), each with chance 1/2 (option ``solo_first``).

    >>> str(FirstPlayer(1))
    'first player: 1'
    """

    player: int


Action = (
    SetupResearch | Degrade | Keep | Reroll | Featured | Rainbow | Research | Upgrade | Flip | KeepRolling
    | Boost | TakeFlavour | GainToken | Decline
)
"""Any player's action (not the chance outcomes :class:`Rolled` and :class:`FirstPlayer`)."""

ACTION_KINDS: tuple[type, ...] = (
    SetupResearch, Degrade, Keep, Reroll, Featured, Rainbow, Research, Upgrade, Flip, KeepRolling,
    Boost, TakeFlavour, GainToken, Decline, Rolled, FirstPlayer,
)
"""Every action and chance-outcome class, for JSON."""


WORDS = {
    "SetupResearch": "Mark 1 RP on {}", "Degrade": "Remove a die", "Keep": "Keep the blend", "Reroll": "Re-roll the blend's dice",
    "Featured": "Featured Blend", "Rainbow": "Rainbow Blend", "Research": "Research {}", "Upgrade": "Upgrade a die",
    "Flip": "Flip a die", "KeepRolling": "Keep rolling", "Boost": "Research Boost: {}", "TakeFlavour": "Take a flavour die",
    "GainToken": "Gain a token", "Decline": "Decline",
}
"""Each action's name in a player's words (by class name), for :func:`describe`."""


def describe(action: object) -> str:
    """An action as a player reads it (the views show this; ``str`` stays the short code of saved logs).

    >>> describe(Featured("red", 3)), describe(Rainbow()), describe(Research("green"))
    ('Featured Blend: Regular red', 'Rainbow Blend', 'Research green')
    """
    return action_words(action, WORDS)
