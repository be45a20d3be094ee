"""The Dairyman engine under the State contract: the position (:class:`State`) and its transitions;
:class:`~.game.Game` makes the first one.

The rules are in ``docs/rules/dairyman.md``; the State contract in ``docs/architecture.md``.
This module holds the transitions only: the moves are in :mod:`.actions`, the deck's odds
in :mod:`.deck`, scoring in :mod:`.players`, saved games and the position checks in
:mod:`.saved`, what a position offers (memoised) in :mod:`.offers`, and the :class:`~.game.Game` in :mod:`.game`.

Conventions:

* **Dice.** White and red dice behave alike for sets, so the unlocked ones are one
  sorted tuple ``dice``; the yellow die is kept apart (``yellow``, 0 while it is to be
  rolled; ``yellow_at`` a :class:`~.actions.Where`) because cheese needs it. A pending
  roll holds the frozen dice in ``dice`` and how many others roll in ``rolling``.
* **Tiles** are named by their codes (``"30:cheese4"``, see :mod:`.rules`); equal tiles
  are interchangeable, so hands, display and deck are sorted tuples of codes.
* **Phases** are :class:`~.actions.Phase` values (strings in saved games).

Readings of the rules that have no option yet (the ice token taken before a roll may
freeze a die in it, ...) are listed as *fixed* Rulings in ``docs/rules/dairyman.md``,
each with the method here that implements it; so are the readings that are options
(``optional_actions_before_bust``: :meth:`State._settle`; ``flip_after_order``:
:meth:`State._do_order`).

Example (a scripted opening: chance outcomes may be given, like actions):
    >>> from coffeegames.dairyman.game import Game
    >>> game = Game(players=2)
    >>> s = game.new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
    >>> s = s.apply(Rolled(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5))
    >>> [str(a) for a in s.legal_actions()][:3]     # most dice first
    ['Lock(4+6, 4+6, 2+3+5; yellow)', 'Lock(1+3+6, 2+4+4)', 'Lock(4+6, 1+3+6)']
    >>> s = s.apply(Lock(sets=((4, 6), (1, 3, 6)))).apply(Stop())
    >>> s.barn_value, [str(a) for a in s.legal_actions()]
    (20, ['Order()', 'Order(10:cheese1)', 'Order(20:cheese5)'])
    >>> s = s.apply(Order(("10:cheese1",)))    # the yellow 5 is still unlocked: no flip for a 1
    >>> s.phase, s.turn
    (<Phase.DRAW: 'draw'>, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace  # replace: the doctests
from fractions import Fraction
from typing import Any, ClassVar, Self

import numpy as np

from ..engine import CHANCE, TERMINAL, IllegalAction
from ..engine import State as BaseState
from ..engine.saved import SavedState
from ..engine.actions import unchecked
from ..engine.state import cached_state
from ..exact.draws import _draws_below
from ..validate import check_count, check_instance
from . import players as scoring
from . import saved
from .actions import (Bust, DieSet, Discard, Drawn, EndTurn, Flip, IceCream, Lock, Order, Phase, Roll,
                      Rolled, Stop, Where, _locks_of, _made, roll_outcomes, sets_text)
from ..exact.multiset import mremove
from .deck import Deck, deck_size, draw_outcomes, sample_draw, take
from .players import PlayerState
from .rules import BARNS, WHITE_DICE, Rules, tile_of
from .offers import (_abilities_left, _left_after, _barn_with, _flip_choices, _ice_cream_choices, _roll_choices, _order_choices)

__all__ = ["State"]

_NO_BARNS: tuple[tuple[DieSet, ...], ...] = ((),) * BARNS

# Hot paths (a random playout takes every step here) name the phases by these module constants: an enum
# member looked up on its class costs more than the comparison itself. Moves without fields are made once.
_DRAW, _ROLL, _LOCK, _CONTINUE, _ORDER, _DISCARD, _OVER = (
    Phase.DRAW, Phase.ROLL, Phase.LOCK, Phase.CONTINUE, Phase.ORDER, Phase.DISCARD, Phase.OVER)
_UNLOCKED, _LOCKED = Where.UNLOCKED, Where.LOCKED
_BUST, _STOP, _END_TURN = Bust(), Stop(), EndTurn()
_FACES = frozenset(range(1, 7))


@dataclass(frozen=True)
class State(SavedState, BaseState):
    """A Dairyman position (immutable, hashable). Build the first one with :meth:`~.game.Game.new_initial_state`."""

    # GAME, FORMAT and FIELD_PARSERS are declared (as class attributes) by SavedState.
    GAME = "dairyman"
    FORMAT = saved.STATE_FORMAT
    FIELD_PARSERS = saved.FIELD_PARSERS
    OLD_FORMATS = saved.OLD_STATE_FORMATS
    TURN_PHASES: ClassVar[tuple[Phase, ...]] = saved.TURN_PHASES
    BETWEEN_TURNS: ClassVar[Mapping[str, Any]] = {
        "roll": 0, "red": 0, "dice": (), "rolling": 0, "yellow": 0, "yellow_at": Where.UNLOCKED,
        "cheese_made": False, "barns": _NO_BARNS, "abilities_used": (), "ordered": False,
    }
    """The turn's fields as they are between turns (no dice on the table)."""

    rules: Rules = field(repr=False)
    players: tuple[PlayerState, ...]
    ice_supply: int
    backorder_supply: int
    deck: Deck
    display: tuple[str, ...] = ()
    phase: Phase = Phase.DRAW
    turn: int = 0
    roll: int = 0
    red: int = 0
    dice: tuple[int, ...] = ()
    rolling: int = 0
    yellow: int = 0
    yellow_at: Where = Where.UNLOCKED
    cheese_made: bool = False
    barns: tuple[tuple[DieSet, ...], ...] = _NO_BARNS
    abilities_used: tuple[str, ...] = ()
    ordered: bool = False
    """In the order phase: the order is made and only flips and ``EndTurn()`` are left (option ``flip_after_order``)."""
    discarding: tuple[int, ...] = ()
    discards: tuple[str, ...] = ()

    # -- the contract -------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase is _LOCK or phase is _CONTINUE or phase is _ORDER:  # the usual answer first
            return self.turn
        if phase == _DRAW or phase == _ROLL:
            return CHANCE
        if phase == _OVER:
            return TERMINAL
        return self.discarding[0] if phase == _DISCARD else self.turn

    def _legal_actions(self) -> tuple[Any, ...]:
        return self._legal

    @cached_state
    def _legal(self) -> tuple[Any, ...]:
        phase = self.phase
        if phase == _LOCK:
            locks = self._locks()  # none: the dice bust (self.busted)
            if not locks and not self.rules.optional_actions_before_bust:
                return (_BUST,)  # only a position loaded from a save waits here: play busts at once
            return locks + self._ice_creams() + self._flips() + (() if locks else (_BUST,))
        if phase == _CONTINUE:
            return (_STOP,) + self._rolls() + self._flips()
        if phase == _ORDER:
            return self._flips() + (_END_TURN,) if self.ordered else self._orders() + self._flips()
        if phase == _DISCARD:
            return tuple(Discard(c) for c in self._discard_choices(self.discarding[0]))
        return ()

    def _chance_outcomes(self) -> Sequence[tuple[Rolled | Drawn, Fraction]]:
        if self.phase == _ROLL:
            return roll_outcomes(self.rolling, self.rolls_yellow)
        return tuple((Drawn(tiles), p) for tiles, p in draw_outcomes(self.deck, self._draw_need))

    def is_legal_outcome(self, outcome: Any) -> bool:
        if self.phase == _ROLL:
            return (
                isinstance(outcome, Rolled)
                and len(outcome.dice) == self.rolling
                and _FACES.issuperset(outcome.dice)  # Rolled's check admits ints only (no bools, no floats)
                and (
                    isinstance(outcome.yellow, int) and 1 <= outcome.yellow <= 6
                    if self.yellow_at == _UNLOCKED and self.yellow == 0  # self.rolls_yellow
                    else outcome.yellow is None
                )
            )
        if not isinstance(outcome, Drawn):
            return False
        try:
            take(self.deck, outcome.tiles, self._draw_need)
        except ValueError:
            return False
        return True

    def _draw_chance(self, rng: np.random.Generator) -> Rolled | Drawn:
        """One chance outcome drawn with its exact probability, without listing them all
        (:meth:`sample_chance`, ``rng`` checked by the caller)."""
        if self.phase == _ROLL:
            yellow = self.yellow_at == _UNLOCKED and self.yellow == 0  # self.rolls_yellow
            values = [v + 1 for v in _draws_below(rng, 6, self.rolling + yellow)]  # rng.integers(1, 7, ...), yellow last
            rolled = values.pop() if yellow else None
            values.sort()
            return _made(Rolled, dice=tuple(values), yellow=rolled)
        if self.phase != _DRAW:
            raise IllegalAction("sample_chance needs a chance node")
        return _made(Drawn, tiles=tuple(sorted(sample_draw(self.deck, self._draw_need, rng))))

    def _apply(self, move: Any) -> Self:
        return _HANDLERS[type(move)](self, move)

    def returns(self) -> tuple[int, ...]:
        """Final scores (option ``payoff="score"``) or 1 for each winner and 0 otherwise (``"win"``)."""
        if self.rules.payoff == "win":
            won = self.winners()
            return tuple(int(p in won) for p in range(len(self.players)))
        return self.scores()

    def check(self) -> Self:
        """Raise ``BadData`` naming the field if a component count or the phase is inconsistent; else return self."""
        saved.check(self)
        return self

    # -- scoring (the rules are in .players) -------------------------------------
    def score(self, player: int) -> int:
        """Tile values + cheese points per cheese (+ ice-cream points) − penalty per backorder token.

        >>> from coffeegames.dairyman.game import Game
        >>> game = Game()
        >>> s = game.new_initial_state()
        >>> s = replace(s, players=(PlayerState(milk=("20:cheese5",), cheese=("30:cheese3",), backorders=1), PlayerState()))
        >>> s.score(0)
        50
        """
        return scoring.score(self.rules, self.players[check_count(player, "player", maximum=len(self.players) - 1)])

    def scores(self) -> tuple[int, ...]:
        """Every player's score now."""
        return tuple(self.score(i) for i in range(len(self.players)))

    def winners(self) -> tuple[int, ...]:
        """The players with the highest score after the tiebreakers in ``rules.tiebreak`` (Ruling: none, shared victory)."""
        return scoring.winners(self.rules, self.players)

    # -- derived facts ------------------------------------------------------------
    @property
    def sets_locked(self) -> int:
        """Sets locked this turn."""
        return sum(map(len, self.barns))

    @property
    def barn_value(self) -> int:
        """What the sets locked this turn can order."""
        return self.rules.set_value * self.sets_locked

    @property
    def dice_left(self) -> int:
        """Unlocked dice that a reroll would roll (the yellow one included when unlocked)."""
        return len(self.dice) + (self.yellow_at == _UNLOCKED)

    @property
    def rolls_yellow(self) -> bool:
        """Whether the pending roll includes the yellow die."""
        return self.phase == _ROLL and self.yellow_at == _UNLOCKED and self.yellow == 0

    @property
    def unlocked(self) -> tuple[int, ...]:
        """The unlocked dice showing, yellow included."""
        return self.dice + ((self.yellow,) if self.yellow_at == _UNLOCKED and self.yellow else ())

    @property
    def busted(self) -> bool:
        """In the lock phase: the dice showing make no set (:func:`~.sets.is_bust`), so the turn busts."""
        return self.phase == _LOCK and not self._locks()  # no lock: no set (lock_actions)

    @property
    def deck_size(self) -> int:
        """Tiles left in the deck."""
        return deck_size(self.deck)

    @property
    def _draw_need(self) -> int:
        return self.rules.display_size - len(self.display)

    @property
    def cheese_die(self) -> int:
        """The value the yellow die offers for cheese now (0: none): unlocked (or locked, option
        ``cheese_from_locked_yellow``), and no cheese made with it this turn."""
        usable = self.yellow_at == _UNLOCKED or (self.yellow_at == _LOCKED and self.rules.cheese_from_locked_yellow)
        return self.yellow if usable and not self.cheese_made else 0

    # -- legal actions ------------------------------------------------------------
    def _locks(self) -> tuple[Lock, ...]:
        return _locks_of(self.dice, self.yellow if self.yellow_at == _UNLOCKED else 0)  # lock_actions, for the engine's own dice

    def _ice_creams(self) -> tuple[IceCream, ...]:
        player = self.players[self.turn]
        if not player.ice_cream:
            return ()
        left = _abilities_left(player.ice_cream, self.abilities_used, self.rules.ice_cream_once_per_tile)
        return _ice_cream_choices(left, frozenset(self.unlocked))

    def _flips(self) -> tuple[Flip, ...]:
        player = self.players[self.turn]
        return _flip_choices(player.milk, self.cheese_die, player.ice) if player.milk else ()

    def _rolls(self) -> tuple[Roll, ...]:
        if self.dice_left == 0:
            return ()
        gain = self._ice_gain()
        if gain is None:
            return ()
        return _roll_choices(self.dice, self.players[self.turn].ice + gain, self.yellow_at == _UNLOCKED)

    def _ice_gain(self) -> int | None:
        """Ice tokens taken before the next roll (0 or 1); None if the roll is not allowed."""
        if self.roll + 1 < self.rules.ice_token_from_roll:
            return 0
        if self.ice_supply > 0:
            return 1
        return 0 if self.rules.roll_without_ice_token else None

    def _orders(self) -> tuple[Order, ...]:
        return _order_choices(self.display, self.barn_value)

    def _discard_choices(self, player: int) -> tuple[str, ...]:
        milk = self.players[player].milk
        top = max((tile_of(c).value for c in milk), default=None)
        return tuple(sorted({c for c in milk if tile_of(c).value == top}))

    # -- transitions --------------------------------------------------------------
    def start_turn(self, player: int) -> Self:
        """This position with ``player`` about to make the first roll of a turn (7 white dice, the yellow one and red ones).

        The engine calls it when a turn begins; it is public for setting up positions to study.

        >>> from coffeegames.dairyman.game import Game
        >>> s = Game().new_initial_state(seed=0).start_turn(1)
        >>> s.turn, s.phase, s.rolling, s.rolls_yellow
        (1, <Phase.ROLL: 'roll'>, 7, True)
        """
        return self._with(**self._turn_start(self.players, player))

    def _turn_start(self, players: tuple[PlayerState, ...], player: int) -> dict[str, Any]:
        """The fields that change when ``player`` (holding as in ``players``) starts a turn: the dice cleared, the first roll pending.

        Transitions pass them to one :meth:`_with` with their own changes: one copy of the state per move.
        """
        red = min(players[player].backorders, self.rules.red_dice_cap)
        return {**self.BETWEEN_TURNS, "phase": _ROLL, "turn": player, "roll": 1, "red": red, "rolling": WHITE_DICE + red}

    def _with_player(self, index: int, **changes: Any) -> tuple[PlayerState, ...]:
        players = list(self.players)
        players[index] = unchecked(PlayerState, players[index].__dict__, changes)
        return tuple(players)

    def _next_player(self) -> int:
        return (self.turn + 1) % len(self.players)

    def _settle(self) -> Self:
        """Where nothing is left to choose, play goes on by itself.

        A roll with no set busts at once unless the player has an optional action to try on
        it first (option ``optional_actions_before_bust``: a flip, an ice-cream reroll); after
        the order, with no flip left the turn ends (option ``flip_after_order``).
        """
        if self.phase == _LOCK and self._legal == (_BUST,):  # busted, nothing else to try (the legal moves, made once)
            return self._bust()
        if self.ordered and self._legal == (_END_TURN,):
            return self._pass_turn(self.players, self.display)
        return self

    def _do_rolled(self, rolled: Rolled) -> Self:
        dice = tuple(sorted(self.dice + rolled.dice))
        yellow = self.yellow if rolled.yellow is None else rolled.yellow
        return self._with(phase=_LOCK, dice=dice, rolling=0, yellow=yellow)._settle()

    def _do_drawn(self, drawn: Drawn) -> Self:
        deck = take(self.deck, drawn.tiles, self._draw_need)
        return self._with(deck=deck, display=tuple(sorted(self.display + drawn.tiles)), **self._turn_start(self.players, self.turn))

    def _do_lock(self, lock: Lock) -> Self:
        barn = min(self.roll, BARNS) - 1
        barns = list(self.barns)
        barns[barn] = _barn_with(barns[barn], lock.sets)
        return self._with(
            phase=_CONTINUE,
            dice=_left_after(self.dice, lock.sets, self.yellow if lock.yellow else 0),
            yellow_at=_LOCKED if lock.yellow else self.yellow_at,
            barns=tuple(barns),
        )

    def _do_roll(self, roll: Roll) -> Self:
        gain = self._ice_gain() or 0
        spent = len(roll.freeze) + roll.freeze_yellow
        players = self._with_player(self.turn, ice=self.players[self.turn].ice + gain - spent) if gain != spent else self.players
        unlocked_yellow = self.yellow_at == _UNLOCKED
        return self._with(
            phase=_ROLL,
            roll=self.roll + 1,
            players=players,
            ice_supply=self.ice_supply - gain + spent,
            dice=roll.freeze,
            rolling=len(self.dice) - len(roll.freeze),
            yellow=self.yellow if roll.freeze_yellow or not unlocked_yellow else 0,
        )

    def _do_ice_cream(self, use: IceCream) -> Self:
        kept = tuple(v for v in self.dice if v != use.value)
        rerolls_yellow = self.yellow_at == _UNLOCKED and self.yellow == use.value
        return self._with(
            phase=_ROLL,
            dice=kept,
            rolling=len(self.dice) - len(kept),
            yellow=0 if rerolls_yellow else self.yellow,
            abilities_used=tuple(sorted(self.abilities_used + (use.ability,))),
        )

    def _do_flip(self, flip: Flip) -> Self:
        player, tile = self.players[self.turn], tile_of(flip.tile)
        milk = mremove(player.milk, [flip.tile])
        if tile.cheese is not None:
            players = self._with_player(self.turn, milk=milk, cheese=tuple(sorted(player.cheese + (flip.tile,))))
            aside = Where.ASIDE if self.yellow_at == _UNLOCKED else self.yellow_at
            return self._with(players=players, yellow_at=aside, cheese_made=True)._settle()
        snowflakes = tile.snowflakes or 0
        players = self._with_player(
            self.turn, milk=milk, ice_cream=tuple(sorted(player.ice_cream + (flip.tile,))), ice=player.ice - snowflakes
        )
        return self._with(players=players, ice_supply=self.ice_supply + snowflakes)._settle()

    def _do_order(self, order: Order) -> Self:
        """Buy the tiles; the turn ends, or (option ``flip_after_order``) flips stay open until ``EndTurn()``
        (as :meth:`_settle` would leave them: while a flip is left)."""
        player = self.players[self.turn]
        milk = tuple(sorted(player.milk + order.tiles))
        players, display = self._with_player(self.turn, milk=milk), mremove(self.display, order.tiles)
        if self.rules.flip_after_order and _flip_choices(milk, self.cheese_die, player.ice):
            return self._with(players=players, display=display, ordered=True)
        return self._pass_turn(players, display)

    def _pass_turn(self, players: tuple[PlayerState, ...], display: tuple[str, ...]) -> Self:
        """The turn ends after ordering, leaving ``players`` and ``display``: refill the display (a draw), or end the
        game if it cannot be refilled."""
        turn, bought = self._next_player(), {"players": players, "display": display}
        need = self.rules.display_size - len(display)
        if need > self.deck_size:  # the display cannot be refilled: the game ends at once
            return self._with(**self.BETWEEN_TURNS, turn=turn, phase=_OVER, **bought)
        if need == 0:
            return self._with(**self._turn_start(players, turn), **bought)
        return self._with(**self.BETWEEN_TURNS, turn=turn, phase=_DRAW, **bought)

    def _bust(self) -> Self:
        """The bust: the player takes a backorder token, loses the turn's sets, and play passes on."""
        players = self._with_player(self.turn, backorders=self.players[self.turn].backorders + 1)
        supply = self.backorder_supply - 1
        if supply == 0:
            return self._with(**self.BETWEEN_TURNS, players=players, backorder_supply=supply)._backorder_phase()
        return self._with(backorder_supply=supply, **self._turn_start(players, self._next_player()), players=players)

    def _backorder_phase(self) -> Self:
        """Everyone returns their tokens; the most-tokens players discard; display + discards go under the deck."""
        most = max(p.backorders for p in self.players)
        order = [(self.turn + i) % len(self.players) for i in range(len(self.players))]
        discarding = tuple(i for i in order if self.players[i].backorders == most and self.players[i].milk)
        players = tuple(unchecked(PlayerState, p.__dict__, {"backorders": 0}) for p in self.players)
        returned = sum(p.backorders for p in self.players)
        state = self._with(
            players=players, backorder_supply=self.backorder_supply + returned, phase=_DISCARD, discarding=discarding
        )
        return state._go_on_discarding()

    def _discard(self, player: int, code: str) -> Self:
        players = self._with_player(player, milk=mremove(self.players[player].milk, [code]))
        return self._with(players=players, discards=tuple(sorted(self.discards + (code,))), discarding=self.discarding[1:])

    def _go_on_discarding(self) -> Self:
        """Discard for each player in turn; stop where one has a real choice; then refill the display."""
        state = self
        while state.discarding:
            choices = state._discard_choices(state.discarding[0])
            if len(choices) > 1:
                return state
            state = state._discard(state.discarding[0], choices[0])
        pile = tuple(sorted(state.display + state.discards))
        return state._with(deck=state.deck + (pile,), display=(), discards=(), phase=_DRAW, turn=state._next_player())

    # -- text ---------------------------------------------------------------------
    def __str__(self) -> str:
        who = {CHANCE: "chance", TERMINAL: "game over"}.get(self.current_player(), f"player {self.current_player()}")
        ordered = " (ordered: flip or end the turn)" if self.ordered else ""
        lines = [
            f"Dairyman, {len(self.players)} players · {self.phase}{ordered} · {who} · turn of player {self.turn}, roll {self.roll}",
            f"display: {' '.join(self.display) or '-'} · deck {self.deck_size} · supply: ice {self.ice_supply}, backorders {self.backorder_supply}",
        ]
        if self.phase in self.TURN_PHASES:
            yellow = {"unlocked": str(self.yellow or "?"), "locked": f"{self.yellow} (locked)", "aside": f"{self.yellow} (aside)"}[self.yellow_at]
            rolling = f" + {self.rolling} rolling" if self.rolling else ""
            barns = " ".join(f"[{sets_text(b)}]" for b in self.barns)
            lines.append(f"dice: {' '.join(map(str, self.dice)) or '-'}{rolling} · yellow {yellow} · barns {barns} = {self.barn_value}")
        lines += [f"player {i}: {p} · score {self.score(i)}" for i, p in enumerate(self.players)]
        return "\n".join(lines)


_HANDLERS: dict[type, Callable[[Any, Any], Any]] = {
    Rolled: State._do_rolled,
    Drawn: State._do_drawn,
    Lock: State._do_lock,
    Bust: lambda state, _: state._bust(),
    Stop: lambda state, _: state._with(phase=_ORDER),
    Roll: State._do_roll,
    Order: State._do_order,
    EndTurn: lambda state, _: state._pass_turn(state.players, state.display),
    Flip: State._do_flip,
    IceCream: State._do_ice_cream,
    Discard: lambda state, a: state._discard(state.discarding[0], a.tile)._go_on_discarding(),
}
"""Each move's and chance outcome's transition (State._apply dispatches on the class)."""
