"""Saved Dairyman positions: the JSON field parsers and :func:`check`, the position invariants.

A saved state is read field by field with the shared parsers of
:mod:`coffeegames.engine.saved` (a bad field raises ``BadData`` naming it), then checked
whole by :func:`check`: every component is conserved (dice, tiles, ice and backorder
tokens) and the phase agrees with the rest. A malformed save never loads.

Format ``coffeegames-dairyman-state/2`` added the field ``ordered`` (option
``flip_after_order``); a ``/1`` save, made before it, is read with ``ordered`` false
(:data:`OLD_STATE_FORMATS`): no position saved then was past its order.

Example:
    >>> from coffeegames.dairyman import Game
    >>> game = Game()
    >>> state = game.new_initial_state(seed=1)
    >>> game.state_from_json(state.to_json()) == state
    True
    >>> game.state_from_json(state.to_json().replace('"ice_supply": 20', '"ice_supply": 19'))
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: saved state: field 'ice_supply': supply 19 + held 0 ≠ 20 ice tokens
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine.saved import SAVED, Parser, bad, check_state, flag, list_of, record, text, whole
from ..errors import CoffeeGamesError
from .actions import Phase, Where, set_order
from .players import PlayerState
from .rules import ABILITIES, BARNS, WHITE_DICE, tile_of
from .sets import SETS

if TYPE_CHECKING:
    from .state import State

__all__ = ["FIELD_PARSERS", "OLD_STATE_FORMATS", "STATE_FORMAT", "TURN_PHASES", "check"]

STATE_FORMAT = "coffeegames-dairyman-state/2"
"""The ``format`` of a saved Dairyman state (``/2``: with ``ordered``)."""
OLD_STATE_FORMATS = {"coffeegames-dairyman-state/1": {"ordered": False}}
"""Earlier formats still read → the fields they lack, with the value every position saved then had."""
TURN_PHASES = (Phase.ROLL, Phase.LOCK, Phase.CONTINUE, Phase.ORDER)
"""The phases inside a player's turn (dice on the table)."""


def _code(value: Any, where: str) -> str:
    try:
        return tile_of(value).code
    except (CoffeeGamesError, TypeError) as error:
        raise bad(where, getattr(error, "why", str(error)), value) from None


_codes = list_of(_code, sort=True)


def _die_values(value: Any, where: str) -> tuple[int, ...]:
    values: tuple[int, ...] = list_of(whole, sort=True)(value, where)
    if any(not 1 <= v <= 6 for v in values):
        raise bad(where, "die values must be 1-6", value)
    return values


def _choice(kind: type[Phase] | type[Where]) -> Parser:
    def parse(value: Any, where: str) -> Any:
        return kind(SAVED.one_of(value, where, [m.value for m in kind]))

    return parse


def _barn(value: Any, where: str) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(list_of(_die_values)(value, where), key=set_order))


_player = record(PlayerState, {"milk": _codes, "cheese": _codes, "ice_cream": _codes, "ice": whole, "backorders": whole})

FIELD_PARSERS: Mapping[str, Parser] = {
    "players": list_of(_player),
    "ice_supply": whole,
    "backorder_supply": whole,
    "deck": list_of(_codes),
    "display": _codes,
    "phase": _choice(Phase),
    "turn": whole,
    "roll": whole,
    "red": whole,
    "dice": _die_values,
    "rolling": whole,
    "yellow": whole,
    "yellow_at": _choice(Where),
    "cheese_made": flag,
    "barns": list_of(_barn),
    "abilities_used": list_of(text, sort=True),
    "ordered": flag,
    "discarding": list_of(whole),
    "discards": _codes,
}
"""State field → parser of its saved JSON value."""


def check(state: State) -> None:
    """Raise ``BadData`` naming the field if a component count or the phase is inconsistent."""
    check_state(state, "dairyman", "a Dairyman state")
    rules, n = state.rules, len(state.players)
    need = SAVED.need
    need(state.phase in tuple(Phase), "phase", f"must be one of {', '.join(Phase)}", state.phase)
    need(n == rules.players, "players", f"holds {n} players; the game has {rules.players}")
    need(0 <= state.turn < n, "turn", f"must be a player 0-{n - 1}", state.turn)
    held_ice = sum(p.ice for p in state.players)
    need(state.ice_supply + held_ice == rules.ice_supply, "ice_supply",
         f"supply {state.ice_supply} + held {held_ice} ≠ {rules.ice_supply} ice tokens")
    held_bo = sum(p.backorders for p in state.players)
    need(
        state.backorder_supply >= 1 and state.backorder_supply + held_bo == rules.backorder_tokens,
        "backorder_supply",
        f"supply {state.backorder_supply} (at least 1) + held {held_bo} must be {rules.backorder_tokens} backorder tokens",
    )
    tiles = Counter(c for pile in state.deck for c in pile) + Counter(state.display) + Counter(state.discards)
    for p in state.players:
        tiles.update(p.tiles)
    expected = Counter(rules.tile_codes)
    need(
        tiles == expected,
        "deck",
        f"the tiles in deck, display, discards and hands differ from the game's: extra {sorted((tiles - expected).elements())}, "
        f"missing {sorted((expected - tiles).elements())}",
    )
    need(all(state.deck), "deck", "holds an empty pile")
    need(len(state.display) <= rules.display_size, "display", f"holds more than {rules.display_size} tiles")
    need((state.phase == Phase.DISCARD) == bool(state.discarding), "discarding", "must list players exactly in the discard phase")
    need(all(0 <= i < n for i in state.discarding), "discarding", "names a player who does not exist")
    need(not state.discards or state.phase == Phase.DISCARD, "discards", "holds tiles outside the discard phase")
    need(all(ab in ABILITIES for ab in state.abilities_used), "abilities_used", f"abilities are {tuple(ABILITIES)}")
    need(state.yellow_at in tuple(Where), "yellow_at", f"must be one of {', '.join(Where)}", state.yellow_at)
    need(0 <= state.yellow <= 6 and all(1 <= v <= 6 for v in state.dice), "dice", "die values are 1-6 (yellow 0 = to roll)")
    for b, barn in enumerate(state.barns):
        need(all(s in SETS for s in barn), f"barns[{b}]", f"sets must be sorted 2-3 dice summing to 10, from {SETS}")
    need(len(state.barns) == BARNS, "barns", f"there are {BARNS} barns")
    need(not state.ordered or state.phase == Phase.ORDER, "ordered", "only a position in the order phase can be past its order")
    need(not state.ordered or rules.flip_after_order, "ordered",
         "is true, but under this game's rules (flip_after_order=False) ordering ends the turn")
    if state.phase in TURN_PHASES:
        sets = sum(len(barn) for barn in state.barns)
        need(1 <= state.roll <= 1 + sets, "roll", f"a turn has rolled at least once, and locked a set before each roll after "
             f"the first ({sets} sets locked)", state.roll)
        owned = Counter(tile_of(c).ice_cream for c in state.players[state.turn].ice_cream)
        for ability, used in Counter(state.abilities_used).items():
            most = owned[ability] if rules.ice_cream_once_per_tile else min(owned[ability], 1)
            need(used <= most, "abilities_used", f"{ability} used {used} times; player {state.turn}'s ice-cream tiles allow {most}")
        red = min(state.players[state.turn].backorders, rules.red_dice_cap)
        need(state.red == red, "red", f"player {state.turn} rolls {red} red dice")
        locked = sum(len(s) for barn in state.barns for s in barn) - (state.yellow_at == Where.LOCKED)
        need(
            len(state.dice) + state.rolling + locked == WHITE_DICE + state.red,
            "dice",
            f"unlocked {len(state.dice)} + rolling {state.rolling} + locked {locked} white/red dice ≠ {WHITE_DICE + state.red}",
        )
        need(state.phase == Phase.ROLL or (state.rolling == 0 and state.yellow > 0), "rolling", "only a pending roll has dice rolling")
        need(
            state.yellow_at != Where.LOCKED or any(state.yellow in s for barn in state.barns for s in barn),
            "yellow_at",
            "the locked yellow die's value is in no locked set",
        )
        need(state.yellow_at == Where.UNLOCKED or state.yellow > 0, "yellow_at", "the yellow die is locked or set aside only once rolled",
             state.yellow_at)
        need((state.yellow_at == Where.ASIDE) <= state.cheese_made and (not state.cheese_made or state.yellow > 0), "cheese_made",
             "cheese is made from a rolled yellow die, and the yellow die is set aside only by making cheese", state.cheese_made)
    else:
        need(
            all(getattr(state, name) == value for name, value in state.BETWEEN_TURNS.items()),
            "phase",
            f"between turns ({str(state.phase)!r}) roll, red, dice, rolling, yellow, barns and abilities_used must be clear",
        )
