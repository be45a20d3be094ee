"""Saved Gizmos games: the JSON field parsers of a state, and :func:`check` (a position's invariants).

A saved state is ``{"format": STATE_FORMAT, "game": "gizmos", "state": {field: value}}``
(the engine's shared ``save_state``); each field is read by one parser below, built on the
shared :class:`~coffeegames.validate.Checker`, and the state must then pass :func:`check`:
52 marbles (13 of each colour) between the row, the storages and the dispenser; the 112
cards each in one known place or unseen, with each deck's unseen count matching the cards
of its level seen nowhere; limits kept; the queue of steps well formed. A malformed or
impossible save raises :class:`~coffeegames.errors.BadData` naming the field; nothing
half-loads.

Example:
    >>> from coffeegames.gizmos import Game
    >>> game = Game(players=2)
    >>> s = game.new_initial_state(seed=1)
    >>> game.state_from_json(s.to_json()) == s
    True
    >>> game.state_from_json(s.to_json().replace('"turn": 0', '"turn": 5'))
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: saved state: field 'turn': must be a player 0-1; got 5
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from ..engine.saved import SAVED, Parser, check_state, flag, list_of, record, text, whole
from .actions import Phase, Step
from .data import COLOURS
from .player import PlayerState
from .rules import MARBLES_PER_COLOUR

if TYPE_CHECKING:
    from .state import State

    S = TypeVar("S", bound=State)
else:
    S = TypeVar("S")

__all__ = ["FIELD_PARSERS", "STATE_FORMAT", "check"]

STATE_FORMAT = "coffeegames-gizmos-state/1"
"""The ``format`` of a saved Gizmos state."""
MAX_TOKENS = 10_000
"""The most point tokens a saved player may hold: far beyond any game (a winning score is a few dozen points), so an
edited save cannot carry numbers the game never reaches."""
_CARD_PHASES = (Phase.DISPLAY, Phase.DRAW, Phase.CHOOSE, Phase.FREE_BUILD)
"""Steps whose level names a deck (1-3)."""


def _counts(value: Any, where: str) -> tuple[int, ...]:
    counts: tuple[int, ...] = list_of(whole)(value, where)
    SAVED.need(len(counts) == len(COLOURS), where, f"needs {len(COLOURS)} counts: {', '.join(COLOURS)}", value)
    return counts


def _ids(value: Any, where: str) -> tuple[int, ...]:
    ids: tuple[int, ...] = list_of(whole, sort=True)(value, where)
    return ids


def _step(value: Any, where: str) -> Step:
    SAVED.need(isinstance(value, dict), where, "must be an object {phase, level}", value)
    SAVED.fields(value, where, ("phase", "level"), ("phase", "level"), comments=False)
    phase = Phase(SAVED.one_of(text(value["phase"], f"{where}.phase"), f"{where}.phase", [p.value for p in Phase if p != Phase.TRIGGERS]))
    level = SAVED.whole(value["level"], f"{where}.level", 0, 3)
    SAVED.need((level > 0) == (phase in _CARD_PHASES), f"{where}.level", "is 1-3 for display / draw / choose / free_build steps, else 0", level)
    return Step(phase, level)


def _per_level(item: Parser) -> Parser:
    def parse(value: Any, where: str) -> tuple[Any, ...]:
        items: tuple[Any, ...] = list_of(item)(value, where)
        SAVED.need(len(items) == 3, where, "needs one entry for each of levels I, II, III", value)
        return items

    return parse


_player = record(PlayerState, {"energy": _counts, "archive": _ids, "built": _ids, "tokens": whole})

FIELD_PARSERS: dict[str, Parser] = {
    "players": list_of(_player),
    "turn": whole,
    "todo": list_of(_step),
    "row": _counts,
    "dispenser": _counts,
    "display": _per_level(_ids),
    "decks": _per_level(whole),
    "bottom": _per_level(list_of(whole)),
    "bottom_by": _per_level(list_of(whole)),
    "research": _ids,
    "ready": _ids,
    "used": _ids,
    "ending": flag,
    "passes": whole,
    "over": flag,
}
"""Each saved field's parser (the State's fields but ``rules``, which come from the Game)."""


def check(state: S) -> S:
    """Raise :class:`~coffeegames.errors.BadData` naming the field if the position breaks an invariant; else return it."""
    check_state(state, "gizmos", "a Gizmos state")
    rules, n, need = state.rules, len(state.players), SAVED.need
    need(n == rules.players, "players", f"holds {n} players; the game has {rules.players}")
    need(0 <= state.turn < n, "turn", f"must be a player 0-{n - 1}", state.turn)
    for c, colour in enumerate(COLOURS):
        total = state.row[c] + state.dispenser[c] + sum(p.energy[c] for p in state.players)
        need(total == MARBLES_PER_COLOUR, "dispenser",
             f"row + storages + dispenser hold {total} {colour} marbles, not {MARBLES_PER_COLOUR} (52 in all)")
    need(sum(state.row) <= rules.row_size, "row", f"holds at most {rules.row_size} marbles")
    for i, p in enumerate(state.players):  # ids first: the limits below read the built cards
        for where, ids in ((f"players[{i}].archive", p.archive), (f"players[{i}].built", p.built)):
            need(all(0 <= ident < len(rules.deck) for ident in ids), where, f"card ids are 0-{len(rules.deck) - 1}", list(ids))
        need(p.tokens <= MAX_TOKENS, f"players[{i}].tokens", f"must be at most {MAX_TOKENS} point tokens", p.tokens)
    places: list[tuple[str, tuple[int, ...]]] = []
    for i, p in enumerate(state.players):
        energy, archive, _ = state.limits(i)
        need(sum(p.energy) <= energy, f"players[{i}].energy", f"more than the energy limit {energy}")
        need(len(p.archive) <= archive, f"players[{i}].archive", f"more than the archive limit {archive}")
        places += [(f"players[{i}].archive", p.archive), (f"players[{i}].built", p.built)]
    for level in (1, 2, 3):
        places += [(f"display[{level - 1}]", state.display[level - 1]), (f"bottom[{level - 1}]", state.bottom[level - 1])]
        need(len(state.display[level - 1]) <= rules.display[level - 1], f"display[{level - 1}]",
             f"holds at most {rules.display[level - 1]} level-{level} cards")
    places.append(("research", state.research))
    seen: set[int] = set()
    for where, ids in places:
        for ident in ids:
            need(0 <= ident < len(rules.deck), where, f"card ids are 0-{len(rules.deck) - 1}", ident)
            need(ident not in seen, where, f"card {ident} is in two places")
            seen.add(ident)
            if where.startswith(("display", "bottom")):
                level = int(where[-2]) + 1
                need(rules.card(ident).level == level, where, f"card {ident} is not of level {level}")
            elif not where.endswith("built"):
                need(rules.card(ident).level > 0, where, f"card {ident} is a starting gizmo")
    for level in (1, 2, 3):
        by = state.bottom_by[level - 1]
        need(len(by) == len(state.bottom[level - 1]) and all(0 <= b < n for b in by), "bottom_by",
             "names the player who put each card under a deck, one per card")
    removed = (0, 0, rules.removed_level3)
    for level in (1, 2, 3):
        unseen = len(state.unseen(level))
        need(unseen == state.decks[level - 1] + removed[level - 1], "decks",
             f"level {level}: {unseen} cards are seen nowhere, but the deck has {state.decks[level - 1]} unseen"
             f"{' and 20 were removed' if level == 3 else ''}")
    choose = [s for s in state.todo if s.phase == Phase.CHOOSE]
    need(len(choose) <= 1 and (bool(state.research) <= bool(choose)), "research", "cards are researched only before a choose step")
    need(all(rules.card(i).level == choose[0].level for i in state.research) if choose else True, "research",
         "cards are of the researched level")
    need(not state.over or (not state.todo and not state.ready), "over", "a finished game has no steps left")
    need(state.over or bool(state.todo) or bool(state.ready), "todo", "a game in progress has a step or a waiting gizmo")
    built = state.players[state.turn].built
    need(set(state.ready) <= set(built) and set(state.used) <= set(built), "ready", "waiting and used gizmos are the mover's built ones")
    need(not set(state.ready) & set(state.used), "ready", "a gizmo that fired this turn cannot wait to fire again")
    need(0 <= state.passes <= n, "passes", f"must be 0-{n}", state.passes)
    need(all(s.phase != Phase.OVER for s in state.todo), "todo", "'over' is not a step")
    return state
