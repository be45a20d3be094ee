"""Draws typed as text, as a player at a real table reads them: the one text syntax of Gizmos' marbles and cards.

Marbles are typed everywhere in the game as colour names or ``colour:count`` pairs
(:func:`~coffeegames.gizmos.parse_marbles`: the command line's dispenser, the dispenser explorer, the walkthrough's
draw box); cards as their number (``#45`` or ``45``). :func:`parse_outcome` reads the marble or card drawn at a
chance node, :func:`outcome_hint` says what to type there and :func:`outcome_example` gives one to type.

Example:
    >>> from coffeegames.gizmos import Game
    >>> state = Game().new_initial_state()
    >>> parse_outcome(outcome_example(state), state)
    Card(card=4)
"""

from __future__ import annotations

import re

from ..engine import BadEntry, IllegalAction
from ..validate import check_instance
from .actions import Card, Marble, Phase, Step
from .odds import parse_marbles
from .state import State

__all__ = ["LEVEL_NAMES", "outcome_example", "outcome_hint", "parse_marbles", "parse_outcome"]

LEVEL_NAMES = ("0", "I", "II", "III")
"""A card level as the cards print it (level 1 is ``I``)."""


def outcome_example(state: State) -> str | None:
    """One outcome this chance node can give, typed as :func:`parse_outcome` reads it (None where nothing is typed).

    >>> from coffeegames.gizmos import Game
    >>> outcome_example(Game().new_initial_state())
    '#4'
    """
    check_instance(state, State, "state", "a Gizmos state")
    if not state.is_chance() or state.is_terminal():
        return None
    outcome = state.chance_outcomes()[0][0]
    if isinstance(outcome, Marble):
        return outcome.colour
    assert isinstance(outcome, Card)
    return f"#{outcome.card}"


def outcome_hint(state: State) -> str:
    """What to type at this chance node, with an example it can give.

    >>> from coffeegames.gizmos import Game
    >>> outcome_hint(Game().new_initial_state())
    'the level-I card put on the display: a number not seen yet, e.g. #4'
    """
    check_instance(state, State, "state", "a Gizmos state")
    if not state.is_chance():
        return "nothing is being drawn now"
    step = state.todo[0] if state.todo else Step(Phase.OVER)
    example = outcome_example(state)
    if step.phase in (Phase.ROW, Phase.ENERGY):
        where = "onto the row" if step.phase == Phase.ROW else "into your storage"
        return f"the marble drawn {where}: red, blue, black or yellow, e.g. {example}"
    where = "put on the display" if step.phase == Phase.DISPLAY else "researched"
    return f"the level-{LEVEL_NAMES[step.level]} card {where}: a number not seen yet, e.g. {example}"  # fits the box


def parse_outcome(text: str, state: State) -> Marble | Card:
    """A marble (``red``, or ``red:1`` as :func:`~coffeegames.gizmos.parse_marbles` reads marbles) or a card (``#45`` or
    ``45``) typed at a chance node.

    >>> from coffeegames.gizmos import Game
    >>> s = Game().new_initial_state()
    >>> parse_outcome("#12", s)
    Card(card=12)
    >>> parse_outcome("red", s)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadEntry: a card is drawn here: type the level-I card put on the display: a number not seen yet, e.g. #4
    """
    check_instance(text, str, "text", "the typed marble or card (text)")
    check_instance(state, State, "state", "a Gizmos state")
    if not state.is_chance():
        raise IllegalAction("nothing is being drawn now: the outcome box is for marbles and cards drawn")
    word = text.strip().lower()
    if state.todo[0].phase in (Phase.ROW, Phase.ENERGY):
        try:  # marbles are typed as everywhere in the game (parse_marbles): red, or red:1
            drawn = [colour for colour, n in parse_marbles(word[:100], "marble").items() for _ in range(n)]
        except BadEntry:
            drawn = []
        if len(drawn) != 1:
            raise BadEntry(f"a marble is drawn here: type {outcome_hint(state)}")
        outcome: Marble | Card = Marble(drawn[0])
    else:
        found = re.fullmatch(r"#?\s*(\d{1,3})", word)
        if not found:
            raise BadEntry(f"a card is drawn here: type {outcome_hint(state)}")
        outcome = Card(int(found.group(1)))
    if not state.is_legal_outcome(outcome):
        raise IllegalAction(f"{outcome} cannot be drawn here: {outcome_hint(state)}")
    return outcome
