"""Coffee Rush saved states: the JSON field parsers, and :func:`check` (the position invariants).

Example:
    >>> from coffeegames.rush.state import Game
    >>> game = Game(players=2)
    >>> s = game.new_initial_state(seed=4)
    >>> game.state_from_json(s.to_json()) == s
    True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine.saved import SAVED, Parser, check_state, list_of, record, text, whole
from .actions import CHANCE_PHASES, Phase
from .player import Player
from .rules import CUPS, TABS

if TYPE_CHECKING:
    from .state import State

__all__ = ["FIELD_PARSERS", "STATE_FORMAT", "check"]

STATE_FORMAT = "coffeegames-rush-state/1"
"""The ``format`` of a saved Coffee Rush state."""


def _phase(value: Any, where: str) -> Phase:
    return Phase(SAVED.one_of(value, where, tuple(Phase)))


def _bag(value: Any, where: str) -> tuple[str, ...]:
    """A multiset of names (sorted)."""
    return tuple(sorted(list_of(text)(value, where)))


def _pair(value: Any, where: str) -> tuple[int, int]:
    a, b = SAVED.sequence(value, where, whole, 2, 2)
    return a, b


_PLAYER = record(Player, {
    "tabs": list_of(list_of(text)),
    "cups": list_of(_bag),
    "completed": list_of(text),
    "penalties": list_of(text),
    "discarded": list_of(text),
    "upgrades": list_of(text),
    "rush": whole,
    "meeples": list_of(whole),
})

FIELD_PARSERS: Mapping[str, Parser] = {
    "phase": _phase,
    "player": whole,
    "round": whole,
    "deck": list_of(whole),
    "supply": whole,
    "closed": SAVED.flag,
    "players": list_of(_PLAYER),
    "deals": list_of(_pair),
    "collected": _bag,
}
"""The parser of each saved field (every field of :class:`~.state.State` but ``rules``)."""


def check(state: State) -> State:
    """Raise :class:`~coffeegames.errors.BadData` naming the field if ``state`` is inconsistent; else return it.

    Orders are conserved (deck + tabs + completed + penalties + discarded for upgrades = the deck's make-up, kind by
    kind), rush tokens too (supply + players' = ``rules.rush_tokens``), and every count is in range.

    >>> from dataclasses import replace
    >>> from coffeegames.rush.state import Game
    >>> s = Game(players=3).new_initial_state(seed=1)
    >>> check(replace(s, supply=s.supply - 1))
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: saved state: field 'supply': rush tokens do not add up: supply 14 + players' 0 is not 15
    """
    check_state(state, "rush", "a Coffee Rush state")
    rules, need = state.rules, SAVED.need
    n, kinds = rules.players, rules.deck.kinds
    need(len(state.players) == n, "players", f"must hold {n} players", len(state.players))
    need(state.player < n, "player", f"must be a player 0-{n - 1}", state.player)
    most = (sum(rules.deck.cards) + 1) * TABS + 1  # a held order is served or pushed off within TABS rounds; none held: CLOSED
    need(1 <= state.round <= most, "round", f"counts from 1, at most {most} (every order is served or pushed off within "
         f"{TABS} rounds, and a round with none held ends the game)", state.round)
    need(len(state.deck) == len(kinds) and all(0 <= c <= m for c, m in zip(state.deck, rules.deck.cards)), "deck",
         f"must count the cards left of each of the {len(kinds)} order kinds, each at most the make-up's", list(state.deck))
    rush = sum(p.rush for p in state.players)
    need(state.supply + rush == rules.rush_tokens, "supply",
         f"rush tokens do not add up: supply {state.supply} + players' {rush} is not {rules.rush_tokens}")
    held: Counter[str] = Counter()
    placed: list[int] = []
    tiles = {t.name: t.effect for t in rules.tiles}
    board = rules.board
    for i, p in enumerate(state.players):
        where = f"players[{i}]"
        for name in ("tabs", "completed", "penalties", "discarded"):
            value = getattr(p, name)
            for order in (o for tab in value for o in tab) if name == "tabs" else value:
                need(order in kinds, f"{where}.{name}", "holds an order the deck has no card of", order)
        held.update(p.orders + p.completed + p.penalties + p.discarded)
        need(len(p.tabs) == TABS, f"{where}.tabs", f"must be {TABS} tabs", len(p.tabs))
        need(len(set(p.upgrades)) == len(p.upgrades) and all(u in tiles for u in p.upgrades), f"{where}.upgrades",
             f"names each flipped tile once, among {', '.join(tiles)}", list(p.upgrades))
        need(len(p.discarded) == 3 * len(p.upgrades), f"{where}.discarded", "holds 3 completed orders per flipped tile")
        cups = CUPS + sum(tiles[u] == "extra_cup" for u in p.upgrades)
        need(len(p.cups) == cups, f"{where}.cups", f"must be {cups} cups", len(p.cups))
        for c, cup in enumerate(p.cups):
            need(len(cup) <= rules.cup_capacity and all(x in board.spaces for x in cup), f"{where}.cups[{c}]",
                 f"holds at most {rules.cup_capacity} ingredients of the board", list(cup))
        setup = state.phase in (Phase.DEAL, Phase.PLACE)
        need(len(p.meeples) <= rules.meeples and (setup or len(p.meeples) == rules.meeples), f"{where}.meeples",
             f"must place {rules.meeples} meeple(s)", list(p.meeples))
        placed += p.meeples
    need(all(0 <= s < len(board.spaces) for s in placed) and len(set(placed)) == len(placed), "players",
         "meeples stand on distinct spaces of the board", placed)
    for k, kind in enumerate(kinds):
        need(state.deck[k] + held[kind] == rules.deck.cards[k], "deck",
             f"order cards do not add up: {kind!r} has {state.deck[k]} in the deck and {held[kind]} on the table, "
             f"not the {rules.deck.cards[k]} the deck is made of")
    chance = state.phase in CHANCE_PHASES
    need(bool(state.deals) == chance, "deals", "lists the cards to deal exactly while chance deals them")
    need(not chance or sum(state.deck) > 0, "deck", "cannot be empty while cards are dealt")
    need(all(w < n and t < TABS for w, t in state.deals), "deals", "names players and tabs that exist", list(state.deals))
    need(not state.collected or state.phase in (Phase.EMPTY, Phase.POUR), "collected", "holds ingredients only before the pour")
    need(all(x in board.spaces for x in state.collected), "collected", "holds ingredients of the board", list(state.collected))
    need(state.phase != Phase.OVER or state.closed, "closed", "the game ends only once CLOSED")
    penalised = any(len(p.penalties) >= rules.penalty_limit for p in state.players)
    none_held = not any(p.orders for p in state.players)
    need(not state.closed or sum(state.deck) == 0 or penalised or (none_held and state.phase not in (Phase.DEAL, Phase.PLACE)),
         "closed", "the game is CLOSED only once the deck is empty, a player reaches the penalty limit or no order is held")
    if state.phase in (Phase.DEAL, Phase.PLACE):
        from .state import placement_order  # (the state module imports this one)

        standing, order = sum(len(p.meeples) for p in state.players), placement_order(n)
        need(state.round == 1 and not any(p.completed or p.penalties or p.upgrades for p in state.players), "phase",
             f"{str(state.phase)!r} is a setup phase: round 1, nothing served, penalised or flipped yet")
        need(standing == 0 if state.phase == Phase.DEAL else standing < len(order) and state.player == order[standing], "players",
             "meeples are placed one by one in the placement order, after the deal")
    return state
