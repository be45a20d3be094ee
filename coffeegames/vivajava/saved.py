"""Saving and loading VivaJava states: the field parsers for JSON, and :func:`check` (a position's invariants).

A saved state is ``{"format": STATE_FORMAT, "game": "vivajava", "state": {field: value}}``
(written by the engine's shared ``save_state``); each field is parsed by the parser named
in :data:`FIELD_PARSERS` (built on the shared :class:`~coffeegames.validate.Checker`), and
the loaded state must pass :func:`check`, so a malformed or impossible position never
loads: the :class:`~coffeegames.errors.BadData` names the field. Phases are saved as their
lower-case names (:class:`~.actions.Phase`).

Example:
    >>> from coffeegames.vivajava import Game
    >>> game = Game(players=3)
    >>> s = game.new_initial_state(seed=1)
    >>> game.state_from_json(s.to_json()) == s
    True
    >>> game.state_from_json(s.to_json().replace('"turn": 1', '"turn": 7'))
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: saved state: field 'turn': must be a player 0-2
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..engine.saved import SAVED, Parser, bad, check_state, flag, list_of, record, text, whole
from .actions import CHANCE_PHASES, Phase
from .dice import COFFEE_DIE, COLOURS, FACES, FLAVOUR_DIE, sort_faces
from .player import NO_TRACKS, PlayerState
from .rules import ABILITIES, COFFEE_DICE, CORPORATION, FLAVOUR_DICE, ROLL_DICE, TRACK_COLOURS

if TYPE_CHECKING:
    from .state import State

    S = TypeVar("S", bound=State)
else:
    S = TypeVar("S")

__all__ = ["FIELD_PARSERS", "PHASES", "STATE_FORMAT", "check"]

STATE_FORMAT = "coffeegames-vivajava-state/1"
"""The ``format`` of a saved VivaJava state."""
PHASES: tuple[Phase, ...] = tuple(Phase)
"""Every phase, in turn order."""


# -- field parsers ----------------------------------------------------------------------------

def _index(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < -1:
        raise bad(where, "must be a player number, or -1 for nobody", value)
    return value


def _phase(value: Any, where: str) -> Phase:
    return Phase(SAVED.one_of(text(value, where), where, PHASES))


def _face_list(value: Any, where: str) -> tuple[str, ...]:
    faces = list_of(text)(value, where)
    if any(f not in FACES for f in faces):
        raise bad(where, f"faces are {', '.join(FACES)}", value)
    return sort_faces(faces)


def _track_values(value: Any, where: str) -> tuple[int, ...]:
    values: tuple[int, ...] = list_of(whole)(value, where)
    if len(values) != len(TRACK_COLOURS):
        raise bad(where, f"needs {len(TRACK_COLOURS)} numbers, one per track white..green", value)
    return values


_player = record(PlayerState, {"pp": whole, "research": _track_values, "tokens": _track_values, "flavour": whole})


def _owner_pair(second: Parser) -> Parser:
    def parse(value: Any, where: str) -> tuple[int, Any]:
        if not isinstance(value, list) or len(value) != 2:
            raise bad(where, "must be a [player, ...] pair", value)
        return (whole(value[0], f"{where}[0]"), second(value[1], f"{where}[1]"))

    return parse


def _colour_or_blank(value: Any, where: str) -> str:
    colour = text(value, where)
    if colour not in ("",) + COLOURS:
        raise bad(where, f"must be '' or one of {', '.join(COLOURS)}", value)
    return colour


FIELD_PARSERS: dict[str, Parser] = {
    "players": list_of(_player),
    "phase": _phase,
    "turn": whole,
    "setting_up": flag,
    "flavour_coaster": whole,
    "featured_by": _index,
    "featured_colour": _colour_or_blank,
    "featured_size": whole,
    "funders": list_of(whole, sort=True),
    "rainbow_by": _index,
    "white": _face_list,
    "own": _face_list,
    "offered": list_of(_owner_pair(_face_list), sort=True),
    "rolling_white": whole,
    "rolling_own": whole,
    "rolling_offered": list_of(_owner_pair(whole), sort=True),
    "pending": list_of(_colour_or_blank),
    "meter": whole,
    "blocked": _colour_or_blank,
    "corp_rerolls": whole,
    "corp_first": flag,
    "winner": _index,
}
"""Each saved field's parser (the State's fields but ``rules``, which come from the Game)."""


# -- the invariants of a position ----------------------------------------------------------------

def check(state: S) -> S:
    """Raise :class:`~coffeegames.errors.BadData` naming the field if a component count or the phase is inconsistent; else return ``state``.

    Dice, markers and flavour dice are conserved; holders, funders and offers are real
    players; dice roll exactly at chance nodes; each phase has what it needs.
    """
    check_state(state, "vivajava", "a VivaJava state")
    rules, n = state.rules, len(state.players)
    need: Callable[[bool, str, str], None] = SAVED.need

    need(state.phase in PHASES, "phase", f"must be one of {', '.join(PHASES)}, got {str(state.phase)!r}")
    need(n == rules.players, "players", f"holds {n} players; the game has {rules.players}")
    need(0 <= state.turn < n, "turn", f"must be a player 0-{n - 1}")
    for i, p in enumerate(state.players):
        need(len(p.research) == len(TRACK_COLOURS), f"players[{i}].research", "needs one entry per track white..green")
        need(len(p.tokens) == len(TRACK_COLOURS), f"players[{i}].tokens", "needs one entry per track white..green")
        need(state.phase == Phase.OVER or p.pp < rules.win_pp, f"players[{i}].pp",
             f"reaching {rules.win_pp} PP ends the game: mid-game every player has less")
        for c, rp, tok in zip(TRACK_COLOURS, p.research, p.tokens):
            track = rules.track(c)
            need(0 <= rp <= track.length, f"players[{i}].research", f"{c} RP must be 0-{track.length}")
            need(tok == 0 or rp < track.length, f"players[{i}].tokens", f"a completed {c} track holds no tokens")
            need(tok == 0 or (ABILITIES[track.ability].kind == "token" and rp >= track.x1), f"players[{i}].tokens",
                 f"{c}: tokens lie only on a token ability's track, from its 1X mark ({track.x1} RP) on; it has {rp} RP")
        marks = sum(p.tokens) + (state.funders.count(i) if rules.funding_needs_marker else 0)
        need(marks <= rules.markers, f"players[{i}].tokens", f"tokens and funding marks {marks} exceed {rules.markers} markers")
        need(not (state.solo and i == CORPORATION) or (p.research == NO_TRACKS and p.flavour == 0), f"players[{i}].research",
             "a corporation never researches and holds no flavour dice")
    for where, faces, allowed in (("white", state.white, COFFEE_DIE), ("own", state.own, FLAVOUR_DIE)):
        need(all(f in allowed for f in faces), where, f"faces must be among {allowed}")
    in_roll = len(state.own) + state.rolling_own
    held = sum(p.flavour for p in state.players)
    need(
        state.flavour_coaster + held + in_roll == FLAVOUR_DICE,
        "flavour_coaster",
        f"coaster {state.flavour_coaster} + held {held} + rolled {in_roll} ≠ {FLAVOUR_DICE} flavour dice",
    )
    rolled = len(state.white) + state.rolling_white
    need(rolled <= ROLL_DICE and state.featured_size + rolled <= COFFEE_DICE, "white",
         f"{rolled} coffee dice rolled with {state.featured_size} on the coaster: at most {ROLL_DICE} and {COFFEE_DICE} in all")
    holder = state.featured_by
    need(-1 <= holder < n, "featured_by", f"must be -1 (nobody) or a player 0-{n - 1}")
    if holder < 0:
        need(state.featured_size == 0 and state.featured_colour == "" and not state.funders, "featured_size",
             "with nobody holding the Featured Blend, size 0, colour '' and no funders")
    else:
        need(2 <= state.featured_size <= 5, "featured_size", "a held Featured Blend has 2-5 dice")
        need(state.featured_colour in COLOURS, "featured_colour", f"must be one of {COLOURS}")
        need(len(state.funders) <= state.featured_size and all(0 <= q < n and q != holder for q in state.funders), "funders",
             "lists other players' marks, at most one per die")
    need(-1 <= state.rainbow_by < n, "rainbow_by", f"must be -1 (nobody) or a player 0-{n - 1}")
    if not (state.solo and rules.corp_holds_both and holder == CORPORATION):
        need(holder < 0 or holder != state.rainbow_by, "rainbow_by", "a player cannot hold both blends")
    need(state.offered == tuple(sorted(state.offered)) and all(0 <= q < n and q != state.turn for q, _ in state.offered), "offered",
         "lists other players, in seat number order")
    for q, faces in state.offered:
        need(len(faces) == state.players[q].flavour and all(f in FLAVOUR_DIE for f in faces), "offered",
             f"player {q} offers the {state.players[q].flavour} flavour dice they hold")
    for q, k in state.rolling_offered:
        need(0 <= q < n and q != state.turn and k == state.players[q].flavour, "rolling_offered",
             f"player {q} rolls the {state.players[q].flavour if 0 <= q < n else '?'} flavour dice they hold")
    rolling = state.rolling_white + state.rolling_own + len(state.rolling_offered)
    dice_phase = state.phase in CHANCE_PHASES and state.phase != Phase.FIRST
    need(dice_phase == (rolling > 0), "rolling_white", "dice are rolling exactly at chance nodes (not at the first-player draw)")
    need(state.phase != Phase.FIRST or (state.solo and rules.solo_first == "random" and state.turn == 0 and state.setting_up
                                        and all(p == type(p)() for p in state.players)),
         "phase", "the first-player draw starts a solo game (option solo_first='random'), before anything else")
    if state.phase in (Phase.ACT, Phase.ROLL):
        need(len(state.white) + len(state.own) + state.rolling_white + state.rolling_own > 0, "white", "a roll has dice")
    elif state.phase != Phase.CORP:
        need(not (state.white or state.own or state.offered), "white", f"no dice are out in phase {str(state.phase)!r}")
    need((state.phase == Phase.ACTIVATE) == bool(state.pending), "pending", "abilities wait exactly in the activate phase")
    need(all(c in TRACK_COLOURS for c in state.pending), "pending", f"names tracks among {TRACK_COLOURS}")
    need(state.phase != Phase.DEGRADE or state.featured_by == state.turn, "phase", "only the Featured Blend's holder degrades it")
    need(state.phase != Phase.KEEP or (state.featured_by == state.turn and state.featured_size >= 2), "phase",
         "keep-or-reroll needs a held blend of 2+ dice")
    need(not state.setting_up or state.phase in (Phase.FIRST, Phase.SETUP, Phase.ACTIVATE), "setting_up", "setup ends before the first roll")
    corp_phase = state.phase in (Phase.CORP, Phase.BLOCK)
    need(not corp_phase or (state.solo and state.turn == CORPORATION), "phase", "only a solo corporation takes corp/block steps")
    need(state.corp_rerolls >= 0 and (state.phase == Phase.CORP or (state.corp_rerolls == 0 and not state.corp_first)), "corp_rerolls",
         "re-rolls are counted only during a corporation's roll")
    need(not (state.solo and state.turn == CORPORATION and state.phase in (Phase.DEGRADE, Phase.KEEP, Phase.ACT, Phase.ACTIVATE, Phase.SETUP)), "turn",
         "the corporation makes no decisions")
    if state.solo:
        need(0 <= state.meter < len(rules.meter_values), "meter", f"must be a METER position 0-{len(rules.meter_values) - 1}")
    else:
        need(state.meter == 0 and state.blocked == "", "meter", "only solo games have a METER and a blocked colour")
    need(state.blocked in ("",) + COLOURS, "blocked", f"must be '' or one of {COLOURS}")
    need((state.phase == Phase.OVER) == (state.winner >= 0), "winner", "is set exactly when the game is over")
    if state.winner >= 0:
        need(state.winner < n and state.players[state.winner].pp >= rules.win_pp, "winner", f"the winner has {rules.win_pp}+ PP")
    need(all(p.pp >= 0 and p.flavour >= 0 and min(p.tokens) >= 0 for p in state.players), "players", "counts are 0 or more")
    return state
