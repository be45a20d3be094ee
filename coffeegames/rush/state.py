"""The Coffee Rush engine under the State contract (docs/rules/rush.md, docs/architecture.md): transitions only.

Conventions:

* **Seats.** Player 0 starts; play passes to the left, to player 1, 2, ...; the player on
  the start player's right (the last, ``players - 1``) ends every round.
* **Orders** are their names (``"coffee+milk"``, :mod:`.data`). The deck is never an
  ordered pile: ``deck`` counts the cards of each kind still in it (aligned with
  ``rules.deck.kinds``), and every card drawn is a chance node, :class:`~.actions.Drawn`,
  with its exact probability ``count / cards left``.
* **A turn** is :class:`~.actions.Upgrade` / :class:`~.actions.NoUpgrade` (only when
  possible), :class:`~.actions.Move`, :class:`~.actions.Empty` (only when a cup holds
  something), :class:`~.actions.Pour`, :class:`~.actions.Complete` (only when a cup matches a
  waiting order and option ``completion`` is ``"choice"``; else every matching cup completes,
  :func:`.player.serve`); then by themselves: Specialty rush tokens, Too Many Orders (chance deals, ``deals`` lists who gets the next
  card and on which tab), Flow of Time (:func:`.player.flow_of_time`), the two-player extra
  order, and the end of the turn.
* **Rush tokens** are counted: ``supply`` plus every player's ``rush`` is always
  ``rules.rush_tokens``. A token is gained only if the supply has one (Ruling).

Example (a scripted start: chance outcomes may be given, like actions):
    >>> game = Game(players=3)
    >>> s = game.new_initial_state()
    >>> s.phase, s.deals
    ('deal', ((0, 0), (0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)))
    >>> for order in ["coffee+milk", "coffee+ice", "milk+steam", "coffee+milk", "ice+tea", "coffee+coffee", "milk+tea"]:
    ...     s = s.apply(Drawn(order))
    >>> s.phase, s.player, s.players[0].tabs
    ('place', 2, (('coffee+milk', 'coffee+ice'), ('milk+steam',), (), ()))
    >>> for space in (15, 10, 0):  # counter-clockwise from the start player's right: players 2, 1, 0
    ...     s = s.apply(Place(space))
    >>> s.phase, s.player, s.players[0].cups, s.players[2].cups
    ('move', 0, (('coffee',), (), ()), (('water',), (), ()))
    >>> s = s.apply(Move(0, (1,), 0))   # a1 -> b1: collect milk
    >>> s = s.apply(Empty(())).apply(Pour((("milk",), (), ())))
    >>> s.phase, s.legal_actions()   # cup 1 matches coffee+milk: completing it is a choice (step 4)
    ('complete', [Complete(cups=(0,)), Complete(cups=())])
    >>> s = s.apply(Complete((0,)))
    >>> s.players[0].completed, s.phase, s.deals   # coffee+milk done: players 1 and 2 each get an order
    (('coffee+milk',), 'rush_orders', ((1, 0), (2, 0)))
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from ..engine import CHANCE, TERMINAL
from ..engine import State as BaseState
from ..engine.saved import GameBase, SavedState
from ..engine.state import cached_state
from ..validate import check_instance, check_seed, is_whole
from .actions import ACTION_KINDS, CHANCE_PHASES, Complete, Drawn, Empty, Move, NoUpgrade, Phase, Place, Pour, Upgrade
from .data import _ARGUMENT, EFFECTS
from .paths import _collected, _paths
from .player import Player, _matching, _serve, add_to, flow_of_time, score
from .pours import _empties, _pours
from .rules import BASE_STEPS, CUPS, TABS, Rules
from .saved import FIELD_PARSERS, STATE_FORMAT, check

__all__ = ["Game", "State", "placement_order", "receivers"]


def placement_order(players: int) -> tuple[int, ...]:
    """Who places each meeple, in order: counter-clockwise from the start player's right (the last seat, then
    down to 0); with two players, two meeples each, alternately from the non-start player (Rule).

    >>> placement_order(4), placement_order(2)
    ((3, 2, 1, 0), (1, 0, 1, 0))
    """
    _ARGUMENT.whole(players, "players", 2, 4)
    if players == 2:
        return (1, 0, 1, 0)
    return tuple(range(players - 1, -1, -1))


def receivers(players: int, player: int) -> tuple[int, ...]:
    """Who receives Too Many Orders from ``player``, nearer first: the two players to the left (the one opponent
    with two players) (Rule).

    >>> receivers(4, 3), receivers(2, 1)
    ((0, 1), (0,))
    """
    _ARGUMENT.whole(player, "player", 0, _ARGUMENT.whole(players, "players", 2, 4) - 1)
    if players == 2:
        return ((player + 1) % 2,)
    return ((player + 1) % players, (player + 2) % players)


@dataclass(frozen=True)
class State(SavedState, BaseState):
    """A Coffee Rush position (immutable, hashable). Build the first one with :meth:`Game.new_initial_state`."""

    GAME = "rush"
    FORMAT = STATE_FORMAT
    FIELD_PARSERS = FIELD_PARSERS
    TABS: ClassVar[int] = TABS
    """Order tabs per player (Rule)."""
    CUPS: ClassVar[int] = CUPS
    """Cups per player before upgrades (Fact)."""

    rules: Rules = field(repr=False)
    phase: Phase = Phase.DEAL
    player: int = 0
    """Whose turn it is (in the setup: who places next)."""
    round: int = 1
    deck: tuple[int, ...] = ()
    supply: int = 0
    closed: bool = False
    players: tuple[Player, ...] = ()
    deals: tuple[tuple[int, int], ...] = ()
    """Cards still to deal now, in order: ``(player, tab)`` (tab 0 is tab 1)."""
    collected: tuple[str, ...] = ()
    """Ingredients collected by this turn's move, not yet poured."""

    # -- the contract -------------------------------------------------------------
    def current_player(self) -> int:
        """The player to decide, ``CHANCE`` while orders are dealt, ``TERMINAL`` at the end."""
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase == Phase.OVER:
            return TERMINAL
        return self.player

    def returns(self) -> tuple[int, ...]:
        """Each player's score (:func:`.player.score`); all 0 before the end."""
        if self.phase != Phase.OVER:
            return (0,) * len(self.players)
        return self.scores

    @property
    def scores(self) -> tuple[int, ...]:
        """Each player's score now."""
        return tuple(score(p) for p in self.players)

    def check(self) -> State:
        """The position's invariants (:func:`.saved.check`); returns the state."""
        return check(self)

    def _legal_actions(self) -> tuple[Any, ...]:
        return self._legal

    @cached_state
    def _legal(self) -> tuple[Any, ...]:
        me = self.players[self.player] if self.players else Player()
        if self.phase == Phase.PLACE:
            taken = {s for p in self.players for s in p.meeples}
            return tuple(Place(s) for s in range(len(self.rules.board.spaces)) if s not in taken)
        if self.phase == Phase.UPGRADE:
            return (*(Upgrade(t) for t in self._tiles_left(self.player)), NoUpgrade())
        if self.phase == Phase.MOVE:
            return self.moves()
        if self.phase == Phase.EMPTY:
            return tuple(Empty(c) for c in _empties(me.cups))
        if self.phase == Phase.POUR:
            return tuple(Pour(p) for p in _pours(me.cups, self.collected, self.rules.cup_capacity))
        if self.phase == Phase.COMPLETE:
            return tuple(Complete(c) for c in _matching(me.cups, me.tabs))
        return ()

    def _chance_outcomes(self) -> list[tuple[Drawn, Fraction]]:
        left = sum(self.deck)
        return [(Drawn(kind), Fraction(n, left)) for kind, n in zip(self.rules.deck.kinds, self.deck) if n]

    def chance_outcome_count(self) -> int:
        return sum(1 for n in self.deck if n) if self.is_chance() else 0

    def is_legal_outcome(self, outcome: Any) -> bool:
        if not isinstance(outcome, Drawn) or outcome.order not in self.rules.deck.kinds:
            return False
        return self.deck[self.rules.deck.index(outcome.order)] > 0

    # -- what a player has (public methods check ``player``; the engine calls the unchecked ``_`` versions) ---------
    def _seat(self, player: Any) -> int:
        if is_whole(player) and 0 <= player < len(self.players):
            return player
        return _ARGUMENT.whole(player, "player", 0, len(self.players) - 1)

    def has(self, player: int, effect: str) -> bool:
        """Whether ``player`` has flipped an upgrade tile with ``effect`` (:data:`.data.EFFECTS`)."""
        return self._has(self._seat(player), _ARGUMENT.one_of(effect, "effect", tuple(EFFECTS)))

    def _has(self, player: int, effect: str) -> bool:
        return any(t.effect == effect and t.name in self.players[player].upgrades for t in self.rules.tiles)

    def tiles_left(self, player: int) -> tuple[str, ...]:
        """The names of ``player``'s upgrade tiles still face down."""
        return self._tiles_left(self._seat(player))

    def _tiles_left(self, player: int) -> tuple[str, ...]:
        return tuple(t.name for t in self.rules.tiles if t.name not in self.players[player].upgrades)

    def can_upgrade(self, player: int) -> bool:
        """Step 1 is possible: 3 completed orders to discard and a tile face down (Rule)."""
        return self._can_upgrade(self._seat(player))

    def _can_upgrade(self, player: int) -> bool:
        return len(self.players[player].completed) >= 3 and bool(self._tiles_left(player))

    def steps(self, player: int) -> int:
        """Steps a move may take before rush tokens: 3, or 4 with the extra-step upgrade."""
        return self._steps(self._seat(player))

    def _steps(self, player: int) -> int:
        return BASE_STEPS + self._has(player, "extra_step")

    def moves(self) -> tuple[Move, ...]:
        """Every legal :class:`Move` of the player to move (the rule is :func:`.paths.paths`)."""
        me, rules = self.players[self.player], self.rules
        base = self._steps(self.player)
        most = base + (me.rush if rules.rush_per_turn is None else min(me.rush, rules.rush_per_turn))
        found: list[Move] = []
        for m, start in enumerate(me.meeples):
            blocked = frozenset(s for p in self.players for s in p.meeples) - {start}
            for path in _paths(rules.board, start, blocked, most, self._has(self.player, "diagonal"), rules.revisit):
                found.append(Move(m, path, max(0, len(path) - base)))
        if not found:  # every path is blocked (never on the shipped board): the meeple stays, collecting nothing
            found.append(Move(0, (), 0))
        return tuple(found)

    def collects(self, move: Move) -> tuple[str, ...]:
        """The ingredients ``move`` collects (:func:`.paths.collected`), legal now or not; its path must be spaces of
        the board."""
        check_instance(move, Move, "move", "a Move (a meeple and the path of spaces it enters)")
        last = len(self.rules.board.spaces) - 1
        for space in move.path if isinstance(move.path, tuple) else (None,):  # not a tuple: refused
            if not (is_whole(space) and 0 <= space <= last):
                raise _ARGUMENT.error("move", f"must have a path of spaces 0-{last} (a tuple of whole numbers)", move)
        return self._collects(move)

    def _collects(self, move: Move) -> tuple[str, ...]:
        return _collected(self.rules.board, move.path, self._has(self.player, "double"))

    # -- transitions -----------------------------------------------------------------
    def _apply(self, action: Any) -> State:
        if isinstance(action, Drawn):
            return self._draw(action.order)
        if isinstance(action, Place):
            return self._place(action.space)
        if isinstance(action, Upgrade):
            return self._upgrade(action.tile)
        if isinstance(action, NoUpgrade):
            return self._with(phase=Phase.MOVE)
        if isinstance(action, Move):
            return self._move(action)
        if isinstance(action, Empty):
            me = self.players[self.player]
            cups = tuple(() if c in action.cups else cup for c, cup in enumerate(me.cups))
            return self._set(self.player, cups=cups)._with(phase=Phase.POUR)
        if isinstance(action, Complete):
            return self._complete(action.cups)
        assert isinstance(action, Pour)
        return self._pour(action.cups)

    def _set(self, player: int, **changes: Any) -> State:
        """This state with ``changes`` to one player's board."""
        new = replace(self.players[player], **changes)
        return self._with(players=(*self.players[:player], new, *self.players[player + 1:]))

    def _draw(self, order: str) -> State:
        (who, tab), *rest = self.deals
        kind = self.rules.deck.index(order)
        deck = (*self.deck[:kind], self.deck[kind] - 1, *self.deck[kind + 1:])
        tabs = self.players[who].tabs
        state = self._set(who, tabs=(*tabs[:tab], (*tabs[tab], order), *tabs[tab + 1:]))
        closed = self.closed or sum(deck) == 0  # the deck exhausted: CLOSED, and whoever is still owed gets nothing
        state = state._with(deck=deck, closed=closed, deals=() if sum(deck) == 0 else tuple(rest))
        if state.deals:
            return state
        return state._after_deals()

    def _after_deals(self) -> State:
        if self.phase == Phase.DEAL:
            return self._with(phase=Phase.PLACE, player=placement_order(self.rules.players)[0])
        if self.phase == Phase.RUSH_ORDERS:
            return self._flow_of_time()
        return self._end_turn()

    def _place(self, space: int) -> State:
        state = self._set(self.player, meeples=(*self.players[self.player].meeples, space))
        order = placement_order(self.rules.players)
        placed = sum(len(p.meeples) for p in state.players)
        if placed < len(order):
            return state._with(player=order[placed])
        board = self.rules.board  # every meeple placed: each player takes the ingredient under each meeple (own cups)
        for who, p in enumerate(state.players):
            cups = tuple((board.spaces[p.meeples[c]],) if c < len(p.meeples) else () for c in range(CUPS))
            state = state._set(who, cups=cups)
        return state._start_turn(0)

    def _start_turn(self, player: int) -> State:
        phase = Phase.UPGRADE if self._can_upgrade(player) else Phase.MOVE
        return self._with(phase=phase, player=player, collected=())

    def _upgrade(self, tile: str) -> State:
        me = self.players[self.player]
        effect = next(t.effect for t in self.rules.tiles if t.name == tile)
        cups = (*me.cups, ()) if effect == "extra_cup" else me.cups
        state = self._set(self.player, completed=me.completed[3:], discarded=(*me.discarded, *me.completed[:3]),
                          upgrades=(*me.upgrades, tile), cups=cups)
        return state._with(phase=Phase.MOVE)

    def _move(self, move: Move) -> State:
        me = self.players[self.player]
        spots = list(me.meeples)
        if move.path:
            spots[move.meeple] = move.path[-1]
        state = self._set(self.player, meeples=tuple(spots), rush=me.rush - move.rush)
        phase = Phase.EMPTY if any(me.cups) else Phase.POUR
        return state._with(supply=self.supply + move.rush, collected=self._collects(move), phase=phase)

    def _pour(self, added: tuple[tuple[str, ...], ...]) -> State:
        me = self.players[self.player]
        cups = tuple(add_to(cup, more) for cup, more in zip(me.cups, added))
        state = self._set(self.player, cups=cups)._with(collected=())
        if self.rules.completion == "choice" and len(_matching(cups, me.tabs)) > 1:  # step 4 is the player's choice
            return state._with(phase=Phase.COMPLETE)
        return state._complete(None)

    def _complete(self, chosen: tuple[int, ...] | None) -> State:
        """Step 4 and what follows: the cups ``chosen`` (None: every matching cup) complete their orders."""
        me, board = self.players[self.player], self.rules.board
        cups, tabs, done = _serve(me.cups, me.tabs, chosen)
        gained = min(self.supply, sum(board.is_specialty(o) for o in done))
        state = self._set(self.player, cups=cups, tabs=tabs, completed=(*me.completed, *done), rush=me.rush + gained)
        deals = tuple((who, 0) for who in receivers(self.rules.players, self.player) for _ in done)
        state = state._with(supply=self.supply - gained, collected=())
        if deals and self.deck_left > 0:
            return state._with(phase=Phase.RUSH_ORDERS, deals=deals)
        return state._flow_of_time()

    def _flow_of_time(self) -> State:
        me = self.players[self.player]
        tabs, pushed = flow_of_time(me.tabs)
        gained = min(self.supply, len(pushed))
        state = self._set(self.player, tabs=tabs, penalties=(*me.penalties, *pushed), rush=me.rush + gained)
        state = state._with(supply=self.supply - gained)
        if self.rules.players == 2 and self.deck_left > 0:  # the two-player extra order onto tab 1, every turn
            return state._with(phase=Phase.EXTRA_ORDER, deals=((self.player, 0),))
        return state._end_turn()

    def _end_turn(self) -> State:
        limit = self.rules.penalty_limit
        stalled = not any(p.orders for p in self.players)  # Ruling: no order anywhere can ever bring one again
        closed = self.closed or stalled or any(len(p.penalties) >= limit for p in self.players)
        last = self.rules.players - 1
        if closed and self.player == last:
            return self._with(phase=Phase.OVER, closed=True, deals=())
        nxt = (self.player + 1) % self.rules.players
        return self._with(closed=closed, deals=(), round=self.round + (nxt == 0))._start_turn(nxt)

    # -- reading the position ----------------------------------------------------------
    @property
    def deck_left(self) -> int:
        """Cards left in the order deck."""
        return sum(self.deck)

    def unseen(self) -> dict[str, int]:
        """The deck's contents by order kind (what has not been seen), for the odds."""
        return {kind: n for kind, n in zip(self.rules.deck.kinds, self.deck) if n}


class Game(GameBase):
    """Coffee Rush for 2-4 players; ``options`` are :class:`~.rules.Rules` fields.

    >>> game = Game(players=2)
    >>> s = game.new_initial_state(seed=1)
    >>> s.phase, s.player, [len(p.orders) for p in s.players]
    ('place', 1, [3, 2])
    >>> game
    Game(players=2)
    """

    name = "rush"
    action_kinds = ACTION_KINDS
    state_class = State
    rules_class = Rules
    rules: Rules

    def __init__(self, players: int = 3, **options: Any) -> None:
        self._made({"players": players, **options})

    def new_initial_state(self, seed: int | None = None) -> State:
        """The game before setup's deal (chance deals the orders); with ``seed``, dealt, at the first meeple's placing."""
        rules = self.rules
        deals = [(0, 0), (0, 0), (0, 1)] + [(p, t) for p in range(1, rules.players) for t in (0, 1)]
        players = tuple(Player(meeples=()) for _ in range(rules.players))
        state = State(rules=rules, deck=tuple(rules.deck.cards), supply=rules.rush_tokens, players=players, deals=tuple(deals))
        if check_seed(seed) is not None:
            rng = np.random.default_rng(seed)
            while state.is_chance():
                state = state.apply(state.sample_chance(rng))
        return state
