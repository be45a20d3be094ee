"""Gizmos in words: a card's trigger and effect (:func:`card_text`) and a position as plain text (:func:`board_text`).

Example:
    >>> from coffeegames.gizmos import Game
    >>> rules = Game().rules
    >>> card_text(rules.card(24))
    '#24 yellow I, cost 1, 1 pt: picking red → draw 1 random energy'
    >>> card_text(rules.card(106))
    '#106 blue III, cost 5, 5 pts: converter: 1 red or 1 black counts as 2 of its colour'
    >>> print(board_text(Game().new_initial_state(seed=1)).splitlines()[0])
    row: 1 red + 3 blue + 2 yellow · dispenser: 12 red + 10 blue + 13 black + 11 yellow (46)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import BadArgument
from ..validate import Checker, check_instance
from .actions import Fire, Phase, energy_words
from .data import Card, Effect, Trigger
from .state import State

__all__ = ["board_text", "card_text", "chain_text", "effect_text", "trigger_text"]

_LEVELS = ("0", "I", "II", "III")


def trigger_text(t: Trigger | None) -> str:
    """When a gizmo fires, in words ('' for converters and upgrades)."""
    check_instance(t, (Trigger, type(None)), "t", "a card's trigger (or None)")
    if t is None:
        return ""
    if t.kind == "file":
        return "any File"
    colours = "/".join(t.colours)
    if t.kind == "pick":
        return f"picking {colours}"
    if t.from_archive:
        return "building from the archive"
    if t.level:
        return f"building a level-{_LEVELS[t.level]} gizmo"
    return f"building a {colours or 'any'} gizmo"


def effect_text(e: Effect) -> str:
    """What an effect does, in words."""
    check_instance(e, Effect, "e", "a card's effect")
    n = e.count
    s = "s" if n > 1 else ""
    texts = {
        "draw_random": f"draw {n} random energy",
        "vp_tokens": f"gain {n} point token{s}",
        "pick": f"perform {n} Pick{s}" if n > 1 else "perform a Pick",
        "file": "perform a File",
        "research": "perform a Research",
        "build_free": f"build a level-{_LEVELS[e.level]} gizmo for free",
        "convert": f"converter: {'any' if len(e.colours) == 4 else ' or '.join(e.colours)} energy "
                   f"({'up to ' + str(e.uses) if e.uses > 1 else 'one'}) counts as any colour",
        "double": f"converter: 1 {' or 1 '.join(e.colours)} counts as 2 of its colour",
        "upgrade": ", ".join(f"{name} limit +{v}" for name, v in (("energy", e.energy), ("archive", e.archive),
                                                                  ("research", e.research)) if v),
        "no_file": "you can no longer File",
        "no_research": "you can no longer Research",
        "discount": {"archive": "builds from the archive", "research": "builds from a Research",
                     "level2": "level-II gizmos"}.get(e.when, e.when) + f" cost {e.amount} less",
        "score": "scores the energy you hold at the end" if e.counts == "energy" else "scores your point tokens again",
    }
    return texts[e.kind]


def card_text(card: Card) -> str:
    """``'#24 yellow I, cost 1, 1 pt: picking red → draw 1 random energy'``."""
    check_instance(card, Card, "card", "a Gizmos card (rules.card(id))")
    pts = f"{card.vp} pt{'s' if card.vp != 1 else ''}"
    when = trigger_text(card.trigger)
    what = effect_text(card.effect)
    return f"#{card.id} {card.colour} {_LEVELS[card.level]}, cost {card.cost}, {pts}: " + (f"{when} → {what}" if when else what)


def board_text(state: State) -> str:
    """The position as plain text: the row and dispenser, the decks and display, each player's holdings, the next step."""
    check_instance(state, State, "state", "a Gizmos state")
    rules = state.rules
    lines = [f"row: {energy_words(state.row)} · dispenser: {energy_words(state.dispenser)} ({sum(state.dispenser)})"]
    for level in (1, 2, 3):
        shown = ", ".join(f"#{i}" for i in state.display[level - 1]) or "-"
        lines.append(f"level {_LEVELS[level]}: display {shown} · deck {state.deck_size(level)} "
                     f"({state.decks[level - 1]} unseen, {len(state.bottom[level - 1])} put under)")
    for i, p in enumerate(state.players):
        energy, archive, research = state.limits(i)
        lines.append(f"player {i}{' (to move)' if i == state.turn and not state.over else ''}: {state.score(i)} points · "
                     f"energy {energy_words(p.energy)} ({sum(p.energy)}/{energy}) · archive "
                     f"{', '.join(f'#{c}' for c in p.archive) or '-'} ({len(p.archive)}/{archive}) · research {research} · "
                     f"tokens {p.tokens} · gizmos {', '.join(f'#{c}' for c in p.built)}")
    if state.research:
        lines.append(f"researching: {', '.join(card_text(rules.card(c)) for c in state.research)}")
    if state.ready:
        lines.append(f"waiting to fire: {', '.join(card_text(rules.card(c)) for c in state.ready)}")
    if state.ending and not state.over:
        lines.append("the end is triggered: the round is being completed")
    lines.append("game over" if state.over else f"next: {', '.join(map(str, state.todo)) or 'fire or end the turn'}")
    return "\n".join(lines)


def chain_text(states: Sequence[State], moves: Sequence[Any]) -> list[str]:
    """The latest turn step by step (``states[i + 1] == states[i].apply(moves[i])``, as a walkthrough keeps them):
    the main action, each draw, each gizmo it set off and what firing it did.

    >>> from coffeegames.gizmos import Game, Pick
    >>> s = Game().new_initial_state(seed=1)
    >>> after = s.apply(Pick("red"))
    >>> chain_text([s, after, after.apply(after.chance_outcomes()[0][0])], [Pick("red"), after.chance_outcomes()[0][0]])
    ['player 0: Pick red', '  chance: red marble (onto the row)']
    """
    check = Checker("chain_text", BadArgument)
    check.need(isinstance(states, (list, tuple)) and all(isinstance(s, State) for s in states), "states",
               "must be a list of Gizmos states (a walkthrough's states)", states)
    check.need(isinstance(moves, (list, tuple)) and len(moves) == len(states) - 1, "moves",
               "must be a list of the moves between the states (one fewer than the states)", moves)
    start = max((i for i in range(len(moves)) if states[i].phase == Phase.ACTION and not states[i].is_chance()), default=0)
    lines = []
    for before, move, after in zip(states[start:], moves[start:], states[start + 1:]):
        if before.is_chance():
            where = {Phase.ROW: "onto the row", Phase.ENERGY: "into storage", Phase.DISPLAY: "onto the display",
                     Phase.DRAW: "into the research"}[before.phase]
            lines.append(f"  chance: {move} ({where})")
        else:
            what = f": {effect_text(before.rules.card(move.gizmo).effect)}" if isinstance(move, Fire) else ""
            lines.append(f"player {before.turn}: {move}{what}")
        new = [g for g in after.ready if g not in before.ready] if after.turn == before.turn and not after.over else []
        if new:
            lines.append("  sets off " + ", ".join(card_text(after.rules.card(g)) for g in new))
    return lines
