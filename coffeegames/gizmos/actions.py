"""Gizmos' phases, actions and chance outcomes: small frozen dataclasses with a readable ``str``.

A turn is one main action (:class:`File`, :class:`Pick`, :class:`Build`, :class:`Research`,
or :class:`Pass` when none is possible), then the chain it sets off: every gizmo whose
trigger matched waits, and the owner fires them one at a time in the order they choose
(:class:`Fire`), or ends the turn (:class:`EndTurn`, forgoing the rest). An effect that
performs an action ("perform a Pick action", "perform a File action", "build a level-I
gizmo for free", "perform a Research action") asks for that action, which may be declined
(:class:`Skip`). Chance outcomes are one marble (:class:`Marble`) or one card
(:class:`Card`) at a time. What happens next is a queue of :class:`Step` s; each step's
:class:`Phase` says who acts.

Example:
    >>> str(Build(card=40, source="display", paid=(0, 0, 2, 0)))
    'Build #40 from the display paying 2 black'
    >>> str(Build(card=12, source="archive", paid=(1, 0, 0, 0), converters=(36,)))
    'Build #12 from the archive paying 1 red (converters #36)'
    >>> Phase.PICK.is_chance, Phase.ROW.is_chance
    (False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from ..engine.actions import action
from ..errors import BadArgument
from ..validate import Checker
from .data import COLOURS

__all__ = [
    "ACTION_KINDS", "Build", "Card", "EndTurn", "File", "Fire", "Marble", "Pass", "Phase", "Pick", "Research", "SOURCES",
    "Skip", "Step", "describe", "energy_words",
]

SOURCES: tuple[str, ...] = ("display", "archive", "research")
"""Where a built card comes from."""


class Phase(StrEnum):
    """What the next step of the game is (the head of ``State.todo``); saved games keep these strings."""

    ACTION = "action"          # the player to move takes a main action
    TRIGGERS = "triggers"      # the player fires a waiting gizmo, or ends the turn
    PICK = "pick"              # an effect: perform a Pick action (or skip)
    FILE = "file"              # an effect: perform a File action (or skip)
    FREE_BUILD = "free_build"  # an effect: build a gizmo of the step's level for free (or skip)
    RESEARCH = "research"      # an effect: perform a Research action (choose a deck, or skip)
    CHOOSE = "choose"          # choose one researched card to file or build (or none)
    DISPLAY = "display"        # chance: a card fills the display of the step's level
    DRAW = "draw"              # chance: a card of the step's level joins the research
    ROW = "row"                # chance: a marble rolls onto the energy row
    ENERGY = "energy"          # chance: a random marble from the dispenser into the player's storage
    OVER = "over"              # the game is over

    @property
    def is_chance(self) -> bool:
        """Whether chance takes this step (when anything is left to draw)."""
        return self._value_ in _CHANCE_PHASES  # by value: an Enum member hashes in Python, its str value in C


# Phases as module constants, for the step path (legal.py, state.py): an enum member read off its class costs ~0.2 µs in
# Python 3.11, several times a step.
_P_ACTION, _P_TRIGGERS, _P_PICK, _P_FILE = Phase.ACTION, Phase.TRIGGERS, Phase.PICK, Phase.FILE
_P_FREE_BUILD, _P_RESEARCH, _P_CHOOSE = Phase.FREE_BUILD, Phase.RESEARCH, Phase.CHOOSE
_P_DISPLAY, _P_DRAW, _P_ROW, _P_ENERGY = Phase.DISPLAY, Phase.DRAW, Phase.ROW, Phase.ENERGY
_MARBLE_PHASES = (Phase.ROW, Phase.ENERGY)


_CHANCE_PHASES = frozenset({Phase.DISPLAY.value, Phase.DRAW.value, Phase.ROW.value, Phase.ENERGY.value})


@dataclass(frozen=True)
class Step:
    """One step waiting in the queue: a phase and its level (1-3 for card steps, 0 otherwise)."""

    phase: Phase
    level: int = 0

    def __post_init__(self) -> None:
        # ``phase.is_chance`` kept on the step (not a field: not compared, shown or saved), asked at every step
        object.__setattr__(self, "chance", isinstance(self.phase, str) and self.phase in _CHANCE_PHASES)

    chance: ClassVar[bool]  # (set on each instance by __post_init__)

    def __str__(self) -> str:
        return f"{self.phase}{self.level or ''}"


def energy_words(counts: tuple[int, ...]) -> str:
    """``(2, 0, 1, 0)`` as ``'2 red + 1 black'`` (``'nothing'`` if empty)."""
    check = Checker("energy_words", BadArgument)
    check.need(isinstance(counts, (tuple, list)) and len(counts) == len(COLOURS), "counts",
               f"must be {len(COLOURS)} whole numbers (red, blue, black, yellow)", counts)
    for n in counts:
        check.whole(n, "counts", 0)
    return " + ".join(f"{n} {c}" for n, c in zip(counts, COLOURS) if n) or "nothing"


@action("File #{card}")
class File:
    """File ``card`` (from the display, or from the cards being researched) into your archive."""

    card: int


@action("Pick {colour}")
class Pick:
    """Take a marble of ``colour`` from the energy row into your storage."""

    colour: str


@action()
class Build:
    """Build ``card`` from ``source``, spending ``paid`` (marbles per colour, red/blue/black/yellow; nothing for an
    effect's free build), helped by the converters ``converters`` (one way they turn that energy into the cost: the
    engine lists one plan per distinct set of marbles spent, never permutations)."""

    card: int
    source: str
    paid: tuple[int, ...] = (0, 0, 0, 0)
    converters: tuple[int, ...] = ()

    def __str__(self) -> str:
        where = {"display": "from the display", "archive": "from the archive", "research": "from the research"}[self.source]
        pay = f" paying {energy_words(self.paid)}" if any(self.paid) else " for free"
        helped = f" (converters {', '.join(f'#{c}' for c in self.converters)})" if self.converters else ""
        return f"Build #{self.card} {where}{pay}{helped}"


@action()
class Research:
    """Research the deck of ``level`` (1-3): draw as many cards as your research limit, keep one to file or build."""

    level: int

    def __str__(self) -> str:
        return f"Research level {'I' * self.level}"


@action("Pass")
class Pass:
    """Take no main action (legal only when none is possible)."""


@action("Fire #{gizmo}")
class Fire:
    """Fire the waiting gizmo ``gizmo`` (each fires at most once a turn)."""

    gizmo: int


@action("End turn")
class EndTurn:
    """End the turn, leaving the waiting gizmos unfired."""


@action("Skip")
class Skip:
    """Decline the action an effect offers (or, researching, take none of the cards)."""


@action("{colour} marble")
class Marble:
    """Chance: a marble of ``colour`` comes out of the dispenser."""

    colour: str


@action("card #{card}")
class Card:
    """Chance: the card ``card`` comes off a deck."""

    card: int


ACTION_KINDS: tuple[type, ...] = (File, Pick, Build, Research, Pass, Fire, EndTurn, Skip, Marble, Card)
"""Every action and outcome class, for loading saved walkthroughs."""


def describe(action: object) -> str:
    """An action or chance outcome as a player reads it (the views show this; ``str`` stays the short code of saved logs).

    >>> describe(Pick("red")), describe(Fire(36)), describe(Research(2))
    ('Pick a red marble from the row', 'Fire gizmo #36', 'Research the level-II deck')
    >>> describe(Build(card=40, source="display", paid=(0, 0, 2, 0))), describe(Marble("blue"))
    ('Build gizmo #40 from the display paying 2 black', 'a blue marble is drawn')
    """
    if isinstance(action, Build):
        return str(action).replace("Build #", "Build gizmo #", 1)
    words: dict[type, str] = {
        File: "File gizmo #{card} into your archive", Pick: "Pick a {colour} marble from the row",
        Research: "Research the level-{roman} deck", Pass: "Pass (no main action is possible)",
        Fire: "Fire gizmo #{gizmo}", EndTurn: "End the turn (gizmos still waiting do not fire)",
        Skip: "Skip the action the effect offers", Marble: "a {colour} marble is drawn", Card: "card #{card} is drawn",
    }
    template = words.get(type(action))
    if template is None:
        return str(action)
    fields = dict(vars(action))
    if isinstance(action, Research):
        fields["roman"] = "I" * action.level
    return template.format(**fields)
