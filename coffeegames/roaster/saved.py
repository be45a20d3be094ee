"""Saved Coffee Roaster games: the JSON field parsers of a state, and :func:`check`, the position invariants.

A saved state is ``{"format": "coffeegames-roaster-state/1", "game": "roaster", "state": {...}}``
(:mod:`coffeegames.engine.saved`); each field is read by one parser below, built on the shared
:class:`~coffeegames.validate.Checker`, and the state is then passed through :func:`check`, so a
malformed or impossible save raises :class:`~coffeegames.errors.BadData` naming the field and
nothing half-loads.

Example:
    >>> from coffeegames.roaster.game import Game
    >>> game = Game(card="Kenya AA")
    >>> s = game.new_initial_state(seed=3)
    >>> game.state_from_json(s.to_json()) == s
    True
    >>> game.state_from_json(s.to_json().replace('"phase": "draw"', '"phase": "brewing"'))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: saved state: field 'phase': must be one of shuffle, draw, act, ...; got 'brewing'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..engine.saved import SAVED, check_state, flag, list_of, text, whole
from .actions import DRAW_FOR, ROASTING_PHASES, Phase
from .data import CUP_SPACES, IMMEDIATE, SQUARES
from .effects import fits
from .rules import WILD_COST
from .tokens import CUP_EFFECTS, EXCHANGE, FLAVOURS, MOISTURE, SWEETNESS, TOKENS, WILD, is_bean, mcontains, msort

if TYPE_CHECKING:
    from .state import State

__all__ = ["FIELD_PARSERS", "STATE_FORMAT", "check"]

STATE_FORMAT = "coffeegames-roaster-state/1"
"""The ``format`` of a saved Coffee Roaster state."""

Parser = Callable[[Any, str], Any]


# -- JSON parsers ---------------------------------------------------------------------------

def _token_list(sort: bool = True, extra: tuple[str, ...] = ()) -> Parser:
    """A parser for a list of bag tokens (sorted as a multiset if ``sort``; ``extra``: other tokens allowed)."""
    def parse(value: Any, where: str) -> tuple[str, ...]:
        items = list_of(text)(value, where)
        for t in items:
            SAVED.need(t in TOKENS or t in extra, where, f"tokens are {', '.join(TOKENS + extra)}", value)
        return msort(items) if sort else items

    return parse


def _slots(value: Any, where: str) -> tuple[tuple[str, ...], ...]:
    """The slots beside the five squares."""
    rows = list_of(list_of(text))(value, where)
    SAVED.need(len(rows) == SQUARES and all(len(r) == 2 for r in rows), where,
               "must be 5 lists of 2 slots ('' for a free slot)", value)
    SAVED.need(all(t in ("", *FLAVOURS, WILD) for r in rows for t in r), where, "slots hold '' or a flavour token", value)
    return rows


def _phase(value: Any, where: str) -> Phase:
    """A phase, by its string."""
    return Phase(SAVED.one_of(text(value, where), where, [p.value for p in Phase]))


def _draw_for(value: Any, where: str) -> str:
    """What a pending draw is for ('' when none is)."""
    return str(SAVED.one_of(text(value, where), where, ("",) + DRAW_FOR))


def _positive(value: Any, where: str) -> int:
    """A whole number, 1 or more."""
    return SAVED.whole(value, where, 1)


def _squares(value: Any, where: str) -> tuple[str, ...]:
    """The cup effects in the order they lie on the squares ([] before the shuffle)."""
    items = list_of(text)(value, where)
    SAVED.need(not items or sorted(items) == sorted(CUP_EFFECTS), where,
               f"must be [] or the five cup effects {', '.join(CUP_EFFECTS)} in some order", value)
    return items


def _used(value: Any, where: str) -> tuple[str, ...]:
    """The immediate effects used this game."""
    items = list_of(text)(value, where)
    SAVED.need(all(e in IMMEDIATE for e in items), where, f"immediate effects are {', '.join(IMMEDIATE)}", value)
    return items


FIELD_PARSERS: Mapping[str, Parser] = {
    "phase": _phase,
    "squares": _squares,
    "slots": _slots,
    "space": whole,
    "round": _positive,
    "bag": _token_list(),
    "drawn": _token_list(),
    "reserve": _token_list(),
    "hand": _token_list(sort=False),
    "draw_count": whole,
    "draw_for": _draw_for,
    "smoke": list_of(whole),
    "wild_paid": _token_list(),
    "wild_taken": flag,
    "used": _used,
    "paid": _token_list(),
    "flavour_used": flag,
    "cup": _token_list(sort=False, extra=(SWEETNESS,)),
    "tray": _token_list(),
    "exchanged": flag,
    "removed": _token_list(),
    "supplied": _token_list(),
}
"""The parser of each saved field (every field of :class:`~.state.State` but ``rules``)."""


# -- the position invariants ----------------------------------------------------------------

def check(state: State) -> State:
    """Raise :class:`~coffeegames.errors.BadData` naming the field if ``state`` is inconsistent (tokens not adding
    up included); else return it. ``State.check`` and every loaded save call it.

    >>> from dataclasses import replace
    >>> from coffeegames.roaster.game import Game
    >>> s = Game(card="Kenya AA").new_initial_state(seed=3)
    >>> check(replace(s, bag=s.bag + ("smoke",)))
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: saved state: field 'bag': tokens do not add up to the card's tokens, smoke and wild (off by {'smoke': 1})
    """
    check_state(state, "roaster", "a Coffee Roaster state")
    rules = state.rules

    def need(ok: bool, where: str, why: str) -> None:
        SAVED.need(ok, where, why)

    need(state.phase in tuple(Phase), "phase", f"must be one of {', '.join(Phase)}; got {state.phase!r}")
    need(state.squares == () if state.phase == Phase.SHUFFLE else sorted(state.squares) == sorted(CUP_EFFECTS), "squares",
         "holds the five cup effects once each after the shuffle (none before)")
    need(len(state.slots) == SQUARES and all(len(s) == 2 for s in state.slots), "slots", "needs 5 squares of 2 slots")
    for i, row in enumerate(state.slots):
        for colour, t in zip(rules.board.cup_slots[i], row):
            need(t == "" or (t in (*FLAVOURS, WILD) and fits(t, colour)), "slots", f"square {i}: {t!r} cannot fill a {colour} slot")
    need(0 <= state.space < rules.spaces, "space", f"must be a thermometer space 0-{rules.spaces - 1}")
    need(state.round == state.space - rules.start_space + 1, "round", "counts rounds from the start space (one per space moved)")
    need(len(state.smoke) == rules.spaces, "smoke", f"needs one count per thermometer space ({rules.spaces})")
    need(all(0 <= n <= m for n, m in zip(state.smoke, rules.thermometer.smoke)), "smoke", "cannot exceed the smoke set up")
    need(all(n == m for n, m in zip(state.smoke[state.space + 1:], rules.thermometer.smoke[state.space + 1:])), "smoke",
         "spaces ahead of the marker keep their smoke")
    need(state.draw_for in ("",) + DRAW_FOR, "draw_for", f"must be '' or one of {', '.join(DRAW_FOR)}")
    need((state.phase == Phase.DRAW) == (state.draw_count > 0) and (state.phase == Phase.DRAW) == bool(state.draw_for), "draw_count",
         "a draw is pending exactly in the draw phase")
    need(state.draw_count <= len(state.bag), "draw_count", "cannot exceed the tokens in the bag")
    need(state.phase != Phase.DECIDE or not state.last_space, "phase", "on the last thermometer space roasting stops by itself")
    roasting = state.phase in ROASTING_PHASES
    need(not state.drawn or state.phase in (Phase.DRAW, Phase.ACT, Phase.REMOVE_TWO), "drawn", "drawn tokens lie out only during a round's effects")
    need(not state.hand or state.phase in (Phase.REMOVE_TWO, Phase.PLACE, Phase.CHOOSE, Phase.CHOICE_DRAW, Phase.EXCHANGE_DRAW, Phase.EXCHANGE_KEEP),
         "hand", f"holds no tokens in phase {state.phase!r}")
    need(all(t in (*FLAVOURS, WILD) for t in state.paid), "paid", "holds flavour tokens only")
    need(all(t in WILD_COST for t in state.wild_paid) and len(set(state.wild_paid)) == len(state.wild_paid), "wild_paid",
         "holds at most one level-0 and one level-1 bean")
    need(state.wild_taken == mcontains(state.wild_paid, WILD_COST), "wild_taken", "the wild is taken exactly when both beans are paid")
    need(all(e in IMMEDIATE for e in state.used) and list(state.used) == [e for e in IMMEDIATE if e in state.used], "used",
         f"lists immediate effects among {', '.join(IMMEDIATE)}, in that order")
    need(len(state.paid) == sum(len(rules.board.cost(e)) for e in state.used), "paid",
         "holds exactly the flavour tokens the used immediate effects cost")
    before_first_draw = state.phase == Phase.SHUFFLE or (state.round == 1 and state.phase == Phase.DRAW and state.draw_for == "round")
    need(not (before_first_draw and state.used), "used", "immediate effects are used after a round's draw, never before the first")
    need(not (before_first_draw and state.flavour_used), "flavour_used", "a flavour is used after a round's draw, never before the first")
    need(all(t in (*FLAVOURS,) for t in state.reserve) and (rules.side == "easy" or not state.reserve), "reserve",
         "only the easy side has starting flavour tokens")
    need(not roasting or (not state.cup and not state.tray and not state.exchanged), "cup", "the cup test starts after roasting")
    need(len(state.cup) <= CUP_SPACES and all(t in TOKENS or t == SWEETNESS for t in state.cup) and MOISTURE not in state.cup,
         "cup", f"holds at most {CUP_SPACES} tokens, no moisture")
    need(state.cup.count(SWEETNESS) <= (1 if SWEETNESS in state.active else 0), "cup", "Sweetness is there only when active")
    if not roasting and SWEETNESS in state.active:
        filled = len(state.cup) - (SWEETNESS in state.cup)
        if rules.sweetness_from_start:
            need(SWEETNESS in state.cup, "cup",
                 "Sweetness is on its cup space from the start of the cup test (sweetness_from_start, rules_version 2); "
                 "a game saved before that rule placed it only when filling reached its space: load it with "
                 "Game(..., rules_version=1)")
        elif not state.exchanged:
            need((SWEETNESS in state.cup) == (filled >= rules.board.sweetness_space), "cup",
                 "without sweetness_from_start (rules_version 1): Sweetness is in the cup once filling reaches its space")
    need(state.phase != Phase.RESERVE or (bool(state.reserve) and rules.reserve_choice), "reserve",
         "the starting flavours are chosen (phase 'reserve') only when some are left, with reserve_choice (rules_version 2)")
    need(len(state.tray) <= state.tray_spaces, "tray", f"holds at most {state.tray_spaces} tokens")
    need(not state.exchanged or EXCHANGE in state.active, "exchanged", "needs the Exchange cup effect")
    need(state.phase not in (Phase.PLACE,) or len(state.hand) == 1, "hand", "a token to place is one token")
    need(state.phase != Phase.CHOOSE or len(state.hand) == 2, "hand", "Choice offers two tokens")
    need(state.phase != Phase.EXCHANGE_KEEP or len(state.hand) == 3, "hand", "Exchange offers three tokens")
    need(state.phase != Phase.REMOVE_TWO or len(state.hand) >= 3, "hand", "2 of 5 offers three to five tokens")
    need(all(is_bean(t) for t in state.supplied), "supplied", "lists beans from the box")
    now, expected = state.census()
    if now != expected:
        diff = {k: now[k] - expected[k] for k in set(now) | set(expected) if now[k] != expected[k]}
        need(False, "bag", f"tokens do not add up to the card's tokens, smoke and wild (off by {diff})")
    return state
