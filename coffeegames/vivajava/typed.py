"""Rolls typed at the table: what a player types for a VivaJava roll, read into the engine's outcome.

:func:`parse_roll` reads colour names (coffee dice, then ``|`` and flavour dice, then ``| seat:``
and each offered player's flavour dice); :func:`outcome_hint` says what to type at a roll and
:func:`outcome_example` gives a roll to type. The walkthrough view's outcome box uses them.

Example:
    >>> from coffeegames.vivajava import Game, SetupResearch
    >>> state = Game(players=2).new_initial_state().apply(SetupResearch("green"))
    >>> parse_roll(outcome_example(state), state)
    Rolled(white=('white', 'red', 'red', 'green', 'black'), own=(), offered=())
"""

from __future__ import annotations

import re

from ..engine import BadEntry, IllegalAction
from ..validate import check_instance
from .actions import FirstPlayer, Rolled
from .dice import COFFEE_DIE, FLAVOUR_DIE, JOKER
from .state import State

__all__ = ["outcome_example", "outcome_hint", "parse_outcome", "parse_roll"]

_OFFERED = re.compile(r"^(?:p(?:layer)?\s*)?(\d+)\s*:(.*)$", re.I)


def _faces(text: str, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    faces = []
    for word in text.lower().split():
        if word not in allowed:
            kind = "a flavour die has no black face" if what != "coffee" and word == "black" else (
                "the joker is only on flavour dice" if word == JOKER else f"{what} dice show {', '.join(allowed)}"
            )
            raise BadEntry(f"{word!r} is not a face of a {what} die: {kind}")
        faces.append(word)
    return tuple(faces)


def _example(n: int, faces: tuple[str, ...], start: int = 0) -> str:
    cycle = ("red", "red", "green", "white", "black", "yellow", "brown", "joker")
    picked = [f for f in cycle if f in faces]
    return " ".join(picked[(start + i) % len(picked)] for i in range(n))


def outcome_example(state: State) -> str:
    """A roll to type at this chance node that :func:`parse_roll` accepts (coffee dice, then flavour dice, then offered).

    >>> from coffeegames.vivajava import Game, SetupResearch
    >>> outcome_example(Game(players=2).new_initial_state().apply(SetupResearch("green")))
    'red red green white black'
    """
    check_instance(state, State, "state", "a VivaJava state")
    if state.phase == "first":
        return "0"
    parts = [_example(state.rolling_white, COFFEE_DIE)]
    if state.rolling_own:
        parts.append(_example(state.rolling_own, FLAVOUR_DIE, 2))
    parts += [f"{q}: {_example(n, FLAVOUR_DIE, 3)}" for q, n in state.rolling_offered]
    return " | ".join(parts)


def outcome_hint(state: State) -> str:
    """The outcome box's placeholder: what to type at this roll.

    >>> from coffeegames.vivajava import Game
    >>> outcome_hint(Game(solo="omniblend").new_initial_state())
    'who starts: 0 (you) or 1 (the corporation)'
    >>> outcome_hint(Game(solo="omniblend", solo_first="you").new_initial_state())
    '5 coffee dice as colours, e.g. red red green white black'
    """
    check_instance(state, State, "state", "a VivaJava state")
    if state.phase == "first":
        return "who starts: 0 (you) or 1 (the corporation)"
    parts = [f"{state.rolling_white} coffee dice as colours"]
    if state.rolling_own:
        parts.append(f"| {state.rolling_own} flavour dice")
    parts += [f"| {q}: player {q}'s {n} flavour dice" for q, n in state.rolling_offered]
    shown = f"; the {len(state.white)} kept dice are not typed" if state.white else ""
    return f"{' '.join(parts)}, e.g. {outcome_example(state)}{shown}"


def parse_roll(text: str, state: State) -> Rolled | FirstPlayer:
    """The roll typed at ``state``: colour names separated by spaces, parts separated by ``|``.

    Notation: first the coffee dice rolled (``white yellow brown red green black``), then,
    if flavour dice are rolled, ``|`` and those (``white``..``green`` or ``joker``; they have
    no black face), then for each other player offering flavour dice ``| 2: ...`` with the
    player's seat number. Dice kept from before (Keep Rolling, OmniBlend's kept group) are not
    typed. A wrong count or face raises a :class:`~coffeegames.errors.BadEntry` (a ``ValueError``) that
    says what to type.

    >>> from coffeegames.vivajava import Game, SetupResearch
    >>> state = Game(players=2).new_initial_state().apply(SetupResearch("green"))
    >>> parse_roll("red red green white black", state)
    Rolled(white=('white', 'red', 'red', 'green', 'black'), own=(), offered=())
    >>> parse_roll("red red green joker white", state)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadEntry: 'joker' is not a face of a coffee die: the joker is only on flavour dice
    """
    check_instance(text, str, "text", "the roll typed as text")
    check_instance(state, State, "state", "a VivaJava state")
    if not state.is_chance():
        raise IllegalAction("no dice are being rolled now: the outcome box is for rolls")
    if state.phase == "first":  # a solo game's first player is drawn
        if text.strip() not in ("0", "1"):
            raise BadEntry(f"type {outcome_hint(state)}")
        return FirstPlayer(int(text.strip()))
    groups = [g.strip() for g in text.replace(",", " ").split("|")]
    if not groups[0]:
        raise BadEntry(f"type the dice rolled: {outcome_hint(state)}")
    coffee = _faces(groups[0], COFFEE_DIE, "coffee")
    own: tuple[str, ...] = ()
    offered: dict[int, tuple[str, ...]] = {}
    for group in groups[1:]:
        labelled = _OFFERED.match(group)
        if labelled:
            offered[int(labelled.group(1))] = _faces(labelled.group(2), FLAVOUR_DIE, "flavour")
        elif own or not state.rolling_own:
            raise BadEntry(f"{group!r}: unexpected part; {outcome_hint(state)}")
        else:
            own = _faces(group, FLAVOUR_DIE, "flavour")
    if len(coffee) != state.rolling_white:
        raise BadEntry(f"{state.rolling_white} coffee dice are rolled: type {state.rolling_white} colours (you typed {len(coffee)})")
    if len(own) != state.rolling_own:
        raise BadEntry(f"{state.rolling_own} flavour dice are rolled: type them after a | (you typed {len(own)}); {outcome_hint(state)}")
    expected = dict(state.rolling_offered)
    if set(offered) != set(expected) or any(len(offered[q]) != n for q, n in expected.items()):
        wanted = ", ".join(f"player {q}: {n}" for q, n in expected.items()) or "none"
        raise BadEntry(f"offered flavour dice must be typed as | seat: faces for each player who offers ({wanted})")
    outcome = Rolled(coffee, own, tuple(offered.items()))
    if not state.is_legal_outcome(outcome):  # pragma: no cover - the checks above make every typed roll legal
        raise IllegalAction(f"{outcome} cannot happen here; {outcome_hint(state)}")
    return outcome


parse_outcome = parse_roll
"""The game's outcome parser under the name every game gives it (``parse_outcome(text, state)``)."""
