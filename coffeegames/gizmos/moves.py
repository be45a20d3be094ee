"""What each Gizmos action changes: functions adding the fields they change to one dict, so a move makes one copy
of the state (:meth:`.state.State._move`).

Filing, building and researching set off the player's triggered gizmos (:func:`trigger`); a fired gizmo's effect
(:func:`fire`) gives point tokens at once, or puts its steps at the front of the queue. Internal to the engine: called
with the engine's own positions and legal actions, nothing is checked.

Example:
    >>> from coffeegames.gizmos import Game
    >>> s = Game().new_initial_state(seed=3)
    >>> changes = {"todo": s.todo[1:]}
    >>> file_card(s, s.display[0][0], changes)
    >>> changes["players"][0].archive == (s.display[0][0],), sorted(changes)
    (True, ['display', 'players', 'ready', 'todo'])
    >>> changes["ready"], s.players[0].built   # the starting gizmo, set off by a File, waits to fire
    ((0,), (0,))
"""

from __future__ import annotations

from functools import lru_cache
from operator import add, sub
from typing import TYPE_CHECKING, Any

from .actions import Build, File, Phase, Skip, Step
from .gear import _Gear, _gear_plus
from .player import add_id, holding, remove_id

if TYPE_CHECKING:
    from .state import State

__all__: list[str] = []

# Steps are immutable: one shared object for each.
_ACTION = Step(Phase.ACTION)
_ROW = Step(Phase.ROW)
_DISPLAY, _DRAW, _CHOOSE = ({level: Step(phase, level) for level in (1, 2, 3)} for phase in (Phase.DISPLAY, Phase.DRAW, Phase.CHOOSE))


@lru_cache(maxsize=None)
def _effect_steps(kind: str, count: int, level: int) -> tuple[Step, ...]:
    """The steps a fired gizmo's effect puts at the front of the queue."""
    return {
        "draw_random": (Step(Phase.ENERGY),) * count,
        "pick": (Step(Phase.PICK),) * count,
        "file": (Step(Phase.FILE),),
        "research": (Step(Phase.RESEARCH),),
        "build_free": (Step(Phase.FREE_BUILD, level),),
    }[kind]


def file_card(state: State, card: int, changes: dict[str, Any]) -> None:
    """File ``card`` (from the display, or the research: the caller removes it there) and set off File gizmos."""
    level = state.rules.deck[card].level
    display = state.display
    if card in display[level - 1]:
        changes["display"] = (*display[:level - 1], remove_id(display[level - 1], card), *display[level:])
    me = state.players[state.turn]
    changes["players"] = holding(state.players, state.turn, me.energy, add_id(me.archive, card), me.built, me.tokens)
    trigger(state, changes, state._my, "file")


def build(state: State, action: Build, changes: dict[str, Any]) -> None:
    """Pay, move the card to the built gizmos, set off Build gizmos (not the card itself) and check the end
    (``changes`` holds the queue after the action)."""
    me, card, rules, paid = state.players[state.turn], action.card, state.rules, action.paid
    changes["dispenser"] = tuple(map(add, state.dispenser, paid))
    archive = me.archive
    if action.source == "display":
        level = rules.deck[card].level
        display = state.display
        changes["display"] = (*display[:level - 1], remove_id(display[level - 1], card), *display[level:])
        changes["todo"] = (_DISPLAY[level], *changes["todo"])
    elif action.source == "archive":
        archive = remove_id(archive, card)
    built = add_id(me.built, card)
    changes["players"] = holding(state.players, state.turn, tuple(map(sub, me.energy, paid)), archive, built, me.tokens)
    used = state.used
    if rules.converters_per == "turn" and action.converters:
        used = changes["used"] = tuple(sorted({*used, *action.converters}))
    gear = _gear_plus(rules, state._my, built, card)
    if gear.level3 >= rules.end_level3 or len(built) >= rules.end_gizmos:
        changes["ending"] = True
    trigger(state, changes, gear, "build", used, "", card, action.source)


def chosen(state: State, action: Any) -> dict[str, Any]:
    """The researched card chosen (or none): the others go under the deck, in card-number order (Ruling)."""
    rest = state.research if isinstance(action, Skip) else remove_id(state.research, action.card)
    changes: dict[str, Any] = {"todo": state.todo[1:]}
    put_back(changes, state.todo[0].level, rest, state.bottom, state.bottom_by, state.turn)
    if isinstance(action, File):
        file_card(state, action.card, changes)
    elif isinstance(action, Build):
        build(state, action, changes)
    return changes


def put_back(changes: dict[str, Any], level: int, cards: tuple[int, ...], bottom: tuple[tuple[int, ...], ...],
             by: tuple[tuple[int, ...], ...], turn: int) -> None:
    """The researched ``cards`` not chosen (sorted) go under the deck of ``level`` (``bottom``, put there ``by``), in
    card-number order (Ruling), put there by ``turn``; the research is over."""
    changes["research"] = ()
    changes["bottom"] = (*bottom[:level - 1], bottom[level - 1] + cards, *bottom[level:])
    changes["bottom_by"] = (*by[:level - 1], by[level - 1] + (turn,) * len(cards), *by[level:])


def trigger(state: State, changes: dict[str, Any], gear: _Gear, kind: str, used: tuple[int, ...] | None = None,
               colour: str = "", built: int = -1, source: str = "") -> None:
    """An action happened: every gizmo of the player to move (whose gizmos are ``gear``) that it triggers (and that
    has not fired this turn (``used``), and is not the gizmo just built) waits to fire."""
    gizmos = gear.triggered.get(kind)
    if not gizmos:  # (the commonest)
        return
    used = state.used if used is None else used
    ready = state.ready
    card = state.rules.deck[built] if built >= 0 else None
    found = []
    for gizmo in gizmos:
        ident, t = gizmo.id, gizmo.trigger
        assert t is not None
        if ident == built or ident in used or ident in ready:
            continue
        if kind == "pick":
            if colour not in t.colours:
                continue
        elif kind == "build":
            assert card is not None
            if t.colours and card.colour not in t.colours and card.colour != "any":
                continue
            if (t.level and card.level != t.level) or (t.from_archive and source != "archive"):
                continue
        found.append(ident)
    if found:
        changes["ready"] = tuple(sorted((*ready, *found)))


def fire(state: State, gizmo: int, changes: dict[str, Any]) -> dict[str, Any]:
    """A waiting gizmo's effect: tokens at once; draws and actions as steps at the front of the queue."""
    e = state.rules.deck[gizmo].effect
    if e.kind == "vp_tokens":
        me = state.players[state.turn]
        changes["players"] = holding(state.players, state.turn, me.energy, me.archive, me.built, me.tokens + e.count)
    else:
        changes["todo"] = (*_effect_steps(e.kind, e.count, e.level), *state.todo)
    return changes
