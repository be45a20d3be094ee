"""Research tracks and their abilities: marking RP, unlocking and activating abilities, spending tokens.

These are transitions of the :class:`~.state.State` (each takes a state and returns the
next one); the State's ``_apply`` calls them. The rules they implement are in
``docs/rules/vivajava.md``; which abilities exist is in :mod:`.data`.

Example (the stand-in red track: 7 RP, marks at 3 and 5, Flip Bean on it):
    >>> from coffeegames.vivajava import Game, SetupResearch
    >>> s = Game(players=2).new_initial_state()
    >>> after = mark(s, 1, "red", 3)
    >>> after.players[1].research, after.pending
    ((0, 0, 0, 3, 0), ('red',))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from .actions import ACTIVATE, OVER, ROLL, Boost, Flip, GainToken, KeepRolling, Upgrade
from .dice import COLOURS, remove_faces, sort_faces
from .legal import activation_choices
from .player import PlayerState
from .rules import ABILITIES, TRACK_COLOURS

if TYPE_CHECKING:
    from .state import State

    S = TypeVar("S", bound=State)
else:
    S = TypeVar("S")

__all__ = ["boost", "flip", "gain_token", "keep_rolling", "mark", "next_activation", "plain_mark", "take_flavour", "upgrade"]


def mark(state: S, p: int, colour: str, n: int, unlock: bool = True) -> S:
    """Mark ``n`` RP on ``p``'s ``colour`` track: queue abilities at 1X/2X; completing scores, closes, returns tokens.

    A token ability queues one more at its 2X mark (one token per mark: the rules), an
    immediate or negative one ``activations_at_2x`` more (Ruling, default 1; one research
    crossing both marks queues it 1 + that many times). Completing the track scores its PP, returns
    its tokens and (Ruling ``completion_cancels``) cancels abilities it unlocked this turn.
    """
    rules = state.rules
    i = TRACK_COLOURS.index(colour)
    track = rules.data.tracks[i]
    me = state.players[p]
    old = me.research[i]
    new = min(old + n, track.length)
    if new == old:
        return state
    research = me.research[:i] + (new,) + me.research[i + 1 :]
    kind = ABILITIES[track.ability].kind
    added: list[str] = []
    if unlock:
        if old < track.x1 <= new:
            added.append(colour)
        if old < track.x2 <= new:
            added += [colour] * (1 if kind == "token" else rules.activations_at_2x)
    if new < track.length:
        return state._with(players=state._with_player(p, research=research), pending=state.pending + tuple(added))
    tokens = me.tokens[:i] + (0,) + me.tokens[i + 1 :]  # completing returns the track's tokens
    pending = state.pending
    if rules.completion_cancels:
        pending = tuple(c for c in pending if c != colour)
        added = []
    elif kind == "token":
        added = []
    return state._award([(p, track.pp)], {"players": state._with_player(p, research=research, tokens=tokens), "pending": pending + tuple(added)})


def plain_mark(state: S, p: int, colour: str, n: int) -> tuple[PlayerState, ...] | None:
    """The players after :func:`mark` (``unlock=True``) when it only moves ``p``'s marker on the ``colour`` track: no
    ability reached, the track not completed (None otherwise, or when the marker does not move: then mark it)."""
    i = TRACK_COLOURS.index(colour)
    track = state.rules.data.tracks[i]
    old = state.players[p].research[i]
    new = min(old + n, track.length)
    if new == old or new == track.length or old < track.x1 <= new or old < track.x2 <= new:
        return None
    research = state.players[p].research
    return state._with_player(p, research=research[:i] + (new,) + research[i + 1 :])


def next_activation(state: S) -> S:
    """Activate the abilities gained this turn in order: stop at a choice, apply forced ones, skip impossible ones.

    A negative ability (on an unblocked track) is forced: lose 1 PP, never below 0.
    With nothing left to activate the turn ends.
    """
    while state.pending:
        ability = state.rules.ability(state.pending[0])
        if ability.kind == "negative" and state.pending[0] != state.blocked:
            p = state.turn
            state = state._with(players=state._with_player(p, pp=max(0, state.players[p].pp - 1)), pending=state.pending[1:])
            continue
        if not activation_choices(state):
            state = state._with(pending=state.pending[1:])
            continue
        return state._with(phase=ACTIVATE)
    return state.end_turn()


def boost(state: S, action: Boost) -> S:
    """Research Boost: mark 1 RP on the chosen track (its marks may unlock more abilities)."""
    state = mark(state._with(pending=state.pending[1:]), state.turn, action.target, 1)
    return state if state.phase == OVER else next_activation(state)


def take_flavour(state: S) -> S:
    """Extra Flavour: take one flavour die from the flavour coaster."""
    p = state.turn
    return next_activation(state._with(
        players=state._with_player(p, flavour=state.players[p].flavour + 1),
        flavour_coaster=state.flavour_coaster - 1,
        pending=state.pending[1:],
    ))


def gain_token(state: S, action: GainToken) -> S:
    """A token ability: put a marker token on its track (moving one from track ``move_from`` if no marker is free)."""
    p, colour = state.turn, state.pending[0]
    tokens = list(state.players[p].tokens)
    tokens[TRACK_COLOURS.index(colour)] += 1
    if action.move_from is not None:
        tokens[TRACK_COLOURS.index(action.move_from)] -= 1
    return next_activation(state._with(players=state._with_player(p, tokens=tuple(tokens)), pending=state.pending[1:]))


def _spend_token(state: S, ability: str) -> tuple[PlayerState, ...]:
    p = state.turn
    i = TRACK_COLOURS.index(state.rules.track_with(ability) or "")  # a token is only ever held on its ability's track
    tokens = list(state.players[p].tokens)
    tokens[i] -= 1
    return state._with_player(p, tokens=tuple(tokens))


def _change_die(state: S, old: str, new: str, ability: str) -> S:
    return state._with(players=_spend_token(state, ability), white=sort_faces(remove_faces(state.white, [old]) + (new,)))


def upgrade(state: S, action: Upgrade) -> S:
    """Upgrade Bean: one rolled coffee die goes up one grade (white→yellow→brown→red→green→black)."""
    return _change_die(state, action.face, COLOURS[COLOURS.index(action.face) + 1], "upgrade_bean")


def flip(state: S, action: Flip) -> S:
    """Flip Bean: one rolled coffee die turns to the opposite face, grade g → 7 − g (Ruling)."""
    return _change_die(state, action.face, COLOURS[len(COLOURS) - 1 - COLOURS.index(action.face)], "flip_bean")


def keep_rolling(state: S, action: KeepRolling) -> S:
    """Keep Rolling: re-roll the chosen rolled coffee dice (a chance node follows)."""
    return state._with(
        players=_spend_token(state, "keep_rolling"),
        white=remove_faces(state.white, action.dice),
        rolling_white=len(action.dice),
        phase=ROLL,
    )
