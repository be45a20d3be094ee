"""The Dairyman engine under the State contract (RULES.md §1, DESIGN.md "The State contract").

Conventions:

* **Dice.** White and red dice behave alike for sets, so the unlocked ones are one
  sorted tuple ``dice``; the yellow die is kept apart (``yellow``, 0 while it is to be
  rolled; ``yellow_at`` ``"unlocked"``, ``"locked"`` or ``"aside"``) because cheese
  needs it. A pending roll holds the frozen dice in ``dice`` and how many others roll
  in ``rolling``.
* **Tiles** are named by their codes (``"30:cheese4"``, see :mod:`.rules`); equal tiles
  are interchangeable, so hands, display and deck are sorted tuples of codes.
* **The deck** is a tuple of shuffled piles, top pile first: the opening deck is one
  pile, and each backorder phase puts the display and discards, shuffled, under it as a
  new pile. A draw takes whole piles while it can, then a uniformly random multiset of
  the next pile (:class:`~coffeegames.exact.Bag` odds), so every draw's odds are exact.
* **Phases.** ``"draw"`` (chance: fill the display, then the turn starts), ``"roll"``
  (chance: dice), ``"lock"`` (lock sets, use ice cream, flip; ``Bust()`` when no set
  can be made but something else could still be tried — with nothing to try, the bust
  happens by itself), ``"continue"`` (``Stop()`` or ``Roll(freeze=...)``, flip),
  ``"order"`` (``Order(tiles=...)``, flip), ``"discard"`` (a backorder-phase discard
  with a choice), ``"over"``.

Readings of the rules (the rulings proper are options of :class:`~.rules.Rules`):

* The ice token taken before a roll may freeze a die in that same roll (it is taken "first").
* Freezing applies to the turn's rolls; an ice-cream reroll rerolls *all* dice showing
  its value, and is offered only when at least one unlocked die shows it.
* A tile flipped to ice cream gives its ability at once, in the same turn.
* Flips are offered after a roll, after a lock and while ordering (flipping before the
  first roll would change nothing: there is no die to use yet).
* Backorder phase: among equally valued highest tiles the discarding player chooses;
  play then passes to the player after the one who busted.
* Red dice are counted at the start of the turn (tokens only change when a turn ends).

Example (a scripted opening: chance outcomes may be given, like actions):
    >>> game = Game(players=2)
    >>> s = game.new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
    >>> s = s.apply(Rolled(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5))
    >>> [str(a) for a in s.legal_actions()][:3]     # most dice first
    ['Lock(4+6, 4+6, 2+3+5; yellow)', 'Lock(1+3+6, 2+4+4)', 'Lock(4+6, 1+3+6)']
    >>> s = s.apply(Lock(sets=((4, 6), (1, 3, 6)))).apply(Stop())
    >>> s.barn_value, [str(a) for a in s.legal_actions()]
    (20, ['Order()', 'Order(10:cheese1)', 'Order(20:cheese5)'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import product
from math import comb
from typing import Any

import numpy as np

from ..engine import CHANCE, TERMINAL, IllegalAction
from ..engine import State as BaseState
from ..engine.saved import GameBase, SavedState, bad, flag, list_of, record, text, whole
from ..exact import Bag, count_vectors, multinomial
from .rules import ABILITIES, BARNS, WHITE_DICE, Rules, tile_of
from .sets import SETS, counts_of, dice_of, has_set, packings

STATE_FORMAT = "coffeegames-dairyman-state/1"
PHASES = ("draw", "roll", "lock", "continue", "order", "discard", "over")
TURN_PHASES = ("roll", "lock", "continue", "order")
WHERE = ("unlocked", "locked", "aside")

DieSet = tuple[int, ...]


def _set_order(s: DieSet) -> tuple[int, DieSet]:
    return (SETS.index(s) if s in SETS else len(SETS), s)


def _items(value: Any, where: str, kind: type) -> tuple:
    """``value`` as a tuple of ``kind`` items, or a ValueError naming the field."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise ValueError(f"field {where!r} must be a list of {kind.__name__}; got {value!r}")
    items = tuple(value)
    if any(not isinstance(v, kind) or isinstance(v, bool) for v in items):
        raise ValueError(f"field {where!r} must hold only {kind.__name__} values; got {value!r}")
    return items


def _sets_text(sets: Sequence[DieSet]) -> str:
    return ", ".join("+".join(map(str, s)) for s in sets)


# -- actions ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Lock:
    """Lock disjoint sets from the dice just rolled; ``yellow=True`` if the yellow die is one of them.

    >>> str(Lock(sets=([2, 5, 3], (6, 4))))
    'Lock(4+6, 2+3+5)'
    """

    sets: tuple[DieSet, ...]
    yellow: bool = False

    def __post_init__(self) -> None:
        sets = (tuple(sorted(_items(s, "Lock.sets", int))) for s in _items(self.sets, "Lock.sets", object))
        object.__setattr__(self, "sets", tuple(sorted(sets, key=_set_order)))

    def __str__(self) -> str:
        return f"Lock({_sets_text(self.sets)}{'; yellow' if self.yellow else ''})"


@dataclass(frozen=True)
class Bust:
    """Accept the bust (no set can be made): take a backorder token; the turn ends."""


@dataclass(frozen=True)
class Stop:
    """Stop rolling and go to ordering."""


@dataclass(frozen=True)
class Roll:
    """Roll the unlocked dice again, freezing some with ice tokens (one token each).

    >>> str(Roll()), str(Roll(freeze=(5, 1))), str(Roll(freeze_yellow=True))
    ('Roll()', 'Roll(freeze=(1, 5))', 'Roll(freeze=(), yellow)')
    """

    freeze: tuple[int, ...] = ()
    freeze_yellow: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "freeze", tuple(sorted(_items(self.freeze, "Roll.freeze", int))))

    def __str__(self) -> str:
        if not self.freeze and not self.freeze_yellow:
            return "Roll()"
        return f"Roll(freeze={self.freeze}{', yellow' if self.freeze_yellow else ''})"


@dataclass(frozen=True)
class Order:
    """Buy these face-up milk tiles (codes); their values total at most the barn value."""

    tiles: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(_items(self.tiles, "Order.tiles", str))))

    def __str__(self) -> str:
        return f"Order({', '.join(self.tiles)})"


@dataclass(frozen=True)
class Flip:
    """Flip an owned milk tile: to cheese (yellow die shows its number) or ice cream (pay snowflakes)."""

    tile: str

    def __str__(self) -> str:
        try:
            kind = "cheese" if tile_of(self.tile).cheese else "ice cream"
        except ValueError:
            kind = "?"
        return f"Flip({self.tile} → {kind})"


@dataclass(frozen=True)
class IceCream:
    """Use an ice-cream ability: reroll every unlocked die showing ``value``.

    >>> str(IceCream("reroll_chosen", 4))
    'IceCream(reroll all of a chosen value: 4s)'
    """

    ability: str
    value: int

    def __str__(self) -> str:
        return f"IceCream({ABILITIES[self.ability][0] if self.ability in ABILITIES else self.ability}: {self.value}s)"


@dataclass(frozen=True)
class Discard:
    """Backorder phase: discard this one of your highest-value unflipped tiles."""

    tile: str

    def __str__(self) -> str:
        return f"Discard({self.tile})"


@dataclass(frozen=True)
class Rolled:
    """Chance: the values rolled (white/red dice, sorted) and the yellow die's (None if it did not roll)."""

    dice: tuple[int, ...] = ()
    yellow: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", tuple(sorted(_items(self.dice, "Rolled.dice", int))))

    def __str__(self) -> str:
        shown = " ".join(map(str, self.dice)) or "-"
        return f"rolled {shown}" + ("" if self.yellow is None else f", yellow {self.yellow}")


@dataclass(frozen=True)
class Drawn:
    """Chance: the milk tiles drawn from the deck (sorted codes)."""

    tiles: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(_items(self.tiles, "Drawn.tiles", str))))

    def __str__(self) -> str:
        return f"drew {', '.join(self.tiles)}"


ACTION_KINDS = (Lock, Bust, Stop, Roll, Order, Flip, IceCream, Discard, Rolled, Drawn)
"""Every action and chance-outcome class, for JSON."""


# -- chance odds -------------------------------------------------------------------------

@lru_cache(maxsize=None)
def roll_outcomes(rolling: int, yellow: bool) -> tuple[tuple[Rolled, Fraction], ...]:
    """Every roll of ``rolling`` white/red dice (and the yellow die if ``yellow``) with its exact odds.

    >>> sum(p for _, p in roll_outcomes(3, True))
    Fraction(1, 1)
    """
    total = 6 ** (rolling + yellow)
    faces = range(1, 7) if yellow else (None,)
    return tuple(
        (Rolled(dice_of(c), y), Fraction(multinomial(c), total)) for c, _ in count_vectors(rolling) for y in faces
    )


@lru_cache(maxsize=None)
def lock_actions(dice: tuple[int, ...], yellow: int = 0) -> tuple[Lock, ...]:
    """Every legal lock from unlocked white/red ``dice`` and the yellow die's value (0: not unlocked), most dice first.

    >>> [str(a) for a in lock_actions((4, 6), yellow=6)]
    ['Lock(4+6)', 'Lock(4+6; yellow)']
    """
    plain = counts_of(dice)
    locks = []
    for sets in packings(counts_of(dice + ((yellow,) if yellow else ()))):
        used = sum(s.count(yellow) for s in sets) if yellow else 0
        for with_yellow in ((False, True) if 0 < used <= plain[yellow - 1] else (used > 0,)):
            locks.append(Lock(sets, with_yellow))
    locks.sort(key=lambda a: (-sum(map(len, a.sets)), -len(a.sets), [_set_order(s) for s in a.sets], a.yellow))
    return tuple(a for a in locks if a.sets)


def _remove(items: Sequence, taken: Sequence) -> tuple:
    """Sorted ``items`` without ``taken`` (a sub-multiset; an error if it is not one)."""
    left = Counter(items)
    left.subtract(taken)
    if any(n < 0 for n in left.values()):
        raise ValueError(f"{tuple(taken)} is not among {tuple(items)}")
    return tuple(sorted(left.elements()))


def _sub_multisets(items: Sequence, most: int) -> Iterator[tuple]:
    """Every sub-multiset of sorted ``items`` with at most ``most`` elements, smallest first."""
    counts = sorted(Counter(items).items())
    found = []
    for picks in product(*(range(n + 1) for _, n in counts)):
        if sum(picks) <= most:
            found.append(tuple(v for (v, _), k in zip(counts, picks) for _ in range(k)))
    return iter(sorted(found, key=lambda t: (len(t), t)))


# -- players and state -------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerState:
    """One player's tiles (codes) and tokens."""

    milk: tuple[str, ...] = ()
    cheese: tuple[str, ...] = ()
    ice_cream: tuple[str, ...] = ()
    ice: int = 0
    backorders: int = 0

    @property
    def tiles(self) -> tuple[str, ...]:
        return self.milk + self.cheese + self.ice_cream

    def __str__(self) -> str:
        def show(codes: tuple[str, ...]) -> str:
            return " ".join(codes) or "-"

        return f"milk {show(self.milk)} · cheese {show(self.cheese)} · ice cream {show(self.ice_cream)} · ice {self.ice} · backorders {self.backorders}"


_NO_BARNS: tuple[tuple[DieSet, ...], ...] = ((),) * BARNS


@dataclass(frozen=True)
class State(SavedState, BaseState):
    """A Dairyman position (immutable, hashable). Build the first one with :meth:`Game.new_initial_state`."""

    rules: Rules = field(repr=False)
    players: tuple[PlayerState, ...]
    ice_supply: int
    backorder_supply: int
    deck: tuple[tuple[str, ...], ...]
    display: tuple[str, ...] = ()
    phase: str = "draw"
    turn: int = 0
    roll: int = 0
    red: int = 0
    dice: tuple[int, ...] = ()
    rolling: int = 0
    yellow: int = 0
    yellow_at: str = "unlocked"
    cheese_made: bool = False
    barns: tuple[tuple[DieSet, ...], ...] = _NO_BARNS
    abilities_used: tuple[str, ...] = ()
    discarding: tuple[int, ...] = ()
    discards: tuple[str, ...] = ()

    # -- the contract -------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase in ("draw", "roll"):
            return CHANCE
        if self.phase == "over":
            return TERMINAL
        return self.discarding[0] if self.phase == "discard" else self.turn

    def _legal_actions(self) -> tuple:
        return self._legal

    @cached_property
    def _legal(self) -> tuple:
        phase = self.phase
        if phase == "discard":
            return tuple(Discard(c) for c in self._discard_choices(self.discarding[0]))
        flips = tuple(self._flips()) if phase in ("lock", "continue", "order") else ()
        if phase == "lock":
            locks = self._locks()
            return locks + tuple(self._ice_creams()) + flips + (() if locks else (Bust(),))
        if phase == "continue":
            return (Stop(),) + tuple(self._rolls()) + flips
        if phase == "order":
            return tuple(self._orders()) + flips
        return ()

    def _chance_outcomes(self) -> Sequence[tuple[Rolled | Drawn, Fraction]]:
        if self.phase == "roll":
            return roll_outcomes(self.rolling, self.rolls_yellow)
        return tuple((Drawn(tiles), p) for tiles, p in self._draw_dist())

    def is_legal_outcome(self, outcome: Any) -> bool:
        if self.phase == "roll":
            return (
                isinstance(outcome, Rolled)
                and len(outcome.dice) == self.rolling
                and all(isinstance(v, int) and 1 <= v <= 6 for v in outcome.dice)
                and (
                    isinstance(outcome.yellow, int) and 1 <= outcome.yellow <= 6
                    if self.rolls_yellow
                    else outcome.yellow is None
                )
            )
        if not isinstance(outcome, Drawn):
            return False
        try:
            self._take_from_deck(outcome.tiles)
        except ValueError:
            return False
        return True

    def sample_chance(self, rng: np.random.Generator) -> Rolled | Drawn:
        """One chance outcome drawn with its exact probability, without listing them all."""
        if self.phase == "roll":
            values = rng.integers(1, 7, size=self.rolling).tolist()
            return Rolled(tuple(values), int(rng.integers(1, 7)) if self.rolls_yellow else None)
        if self.phase != "draw":
            raise IllegalAction("sample_chance needs a chance node")
        need, taken = self._draw_need, []
        for pile in self.deck:
            if need >= len(pile):
                taken += pile
                need -= len(pile)
            else:
                taken += [pile[i] for i in rng.choice(len(pile), size=need, replace=False)]
                break
        return Drawn(tuple(taken))

    def _apply(self, move: Any) -> State:
        if isinstance(move, Rolled):
            dice = tuple(sorted(self.dice + move.dice))
            yellow = self.yellow if move.yellow is None else move.yellow
            return self._with(phase="lock", dice=dice, rolling=0, yellow=yellow)._settle()
        if isinstance(move, Drawn):
            deck = self._take_from_deck(move.tiles)
            return self._with(deck=deck, display=tuple(sorted(self.display + move.tiles)))._start_turn(self.turn)
        handler = {
            Lock: self._do_lock,
            Bust: lambda _: self._bust(),
            Stop: lambda _: self._with(phase="order"),
            Roll: self._do_roll,
            Order: self._do_order,
            Flip: self._do_flip,
            IceCream: self._do_ice_cream,
            Discard: lambda a: self._discard(self.discarding[0], a.tile)._go_on_discarding(),
        }[type(move)]
        return handler(move)

    def returns(self) -> tuple[int, ...]:
        """Final scores (option ``payoff="score"``) or 1 for each winner and 0 otherwise (``"win"``)."""
        if self.rules.payoff == "win":
            won = self.winners()
            return tuple(int(p in won) for p in range(len(self.players)))
        return self.scores()

    # -- scoring ------------------------------------------------------------------
    def score(self, player: int) -> int:
        """Tile values + cheese points per cheese (+ ice-cream points) − penalty per backorder token.

        >>> game = Game()
        >>> s = game.new_initial_state()
        >>> s = replace(s, players=(PlayerState(milk=("20:cheese5",), cheese=("30:cheese3",), backorders=1), PlayerState()))
        >>> s.score(0)
        50
        """
        p, r = self.players[player], self.rules
        values = sum(tile_of(c).value for c in p.tiles)
        return values + r.cheese_points * len(p.cheese) + r.ice_cream_points * len(p.ice_cream) - r.backorder_penalty * p.backorders

    def scores(self) -> tuple[int, ...]:
        """Every player's score now."""
        return tuple(self.score(i) for i in range(len(self.players)))

    def winners(self) -> tuple[int, ...]:
        """The players with the highest score after the tiebreakers in ``rules.tiebreak`` (Ruling: none, shared victory)."""
        scores = self.scores()
        best = [i for i, s in enumerate(scores) if s == max(scores)]
        keys = {
            "fewest_backorders": lambda i: -self.players[i].backorders,
            "most_cheese": lambda i: len(self.players[i].cheese),
            "most_tiles": lambda i: len(self.players[i].tiles),
        }
        for name in self.rules.tiebreak:
            top = max(keys[name](i) for i in best)
            best = [i for i in best if keys[name](i) == top]
        return tuple(best)

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
        return len(self.dice) + (self.yellow_at == "unlocked")

    @property
    def rolls_yellow(self) -> bool:
        """Whether the pending roll includes the yellow die."""
        return self.phase == "roll" and self.yellow_at == "unlocked" and self.yellow == 0

    @property
    def unlocked(self) -> tuple[int, ...]:
        """The unlocked dice showing, yellow included."""
        return self.dice + ((self.yellow,) if self.yellow_at == "unlocked" and self.yellow else ())

    @property
    def deck_size(self) -> int:
        return sum(map(len, self.deck))

    @property
    def _draw_need(self) -> int:
        return self.rules.display_size - len(self.display)

    def _cheese_die(self) -> int:
        """The value the yellow die offers for cheese now (0: none)."""
        usable = self.yellow_at == "unlocked" or (self.yellow_at == "locked" and self.rules.cheese_from_locked_yellow)
        return self.yellow if usable and not self.cheese_made else 0

    # -- legal actions ------------------------------------------------------------
    def _locks(self) -> tuple[Lock, ...]:
        return lock_actions(self.dice, self.yellow if self.yellow_at == "unlocked" else 0)

    def _ice_creams(self) -> Iterator[IceCream]:
        player, rules = self.players[self.turn], self.rules
        owned = Counter(tile_of(c).ice_cream for c in player.ice_cream)
        used = Counter(self.abilities_used)
        showing = set(self.unlocked)
        for ability, (_, values) in ABILITIES.items():
            left = owned[ability] - used[ability] if rules.ice_cream_once_per_tile else int(owned[ability] > 0 and not used[ability])
            if left > 0:
                yield from (IceCream(ability, v) for v in values if v in showing)

    def _flips(self) -> Iterator[Flip]:
        player = self.players[self.turn]
        cheese_value = self._cheese_die()
        for code in sorted(set(player.milk)):
            tile = tile_of(code)
            if (tile.cheese is not None and tile.cheese == cheese_value) or (tile.snowflakes is not None and player.ice >= tile.snowflakes):
                yield Flip(code)

    def _rolls(self) -> Iterator[Roll]:
        if self.dice_left == 0:
            return
        gain = self._ice_gain()
        if gain is None:
            return
        tokens = self.players[self.turn].ice + gain
        for freeze in _sub_multisets(self.dice, tokens):
            yield Roll(freeze)
            if self.yellow_at == "unlocked" and len(freeze) < tokens:
                yield Roll(freeze, True)

    def _ice_gain(self) -> int | None:
        """Ice tokens taken before the next roll (0 or 1); None if the roll is not allowed."""
        if self.roll + 1 < self.rules.ice_token_from_roll:
            return 0
        if self.ice_supply > 0:
            return 1
        return 0 if self.rules.roll_without_ice_token else None

    def _orders(self) -> Iterator[Order]:
        budget = self.barn_value
        for tiles in _sub_multisets(self.display, len(self.display)):
            if sum(tile_of(c).value for c in tiles) <= budget:
                yield Order(tiles)

    def _discard_choices(self, player: int) -> tuple[str, ...]:
        milk = self.players[player].milk
        top = max((tile_of(c).value for c in milk), default=None)
        return tuple(sorted({c for c in milk if tile_of(c).value == top}))

    # -- transitions --------------------------------------------------------------
    def _with_player(self, index: int, **changes: Any) -> tuple[PlayerState, ...]:
        players = list(self.players)
        players[index] = replace(players[index], **changes)
        return tuple(players)

    def _start_turn(self, player: int) -> State:
        red = min(self.players[player].backorders, self.rules.red_dice_cap)
        return self._end_turn()._with(phase="roll", turn=player, roll=1, red=red, rolling=WHITE_DICE + red)

    def _end_turn(self) -> State:
        """This state with the turn's dice and barns cleared."""
        return self._with(
            roll=0, red=0, dice=(), rolling=0, yellow=0, yellow_at="unlocked", cheese_made=False, barns=_NO_BARNS, abilities_used=()
        )

    def _next_player(self) -> int:
        return (self.turn + 1) % len(self.players)

    def _settle(self) -> State:
        """In the lock phase with no set and nothing else to try, the bust happens by itself."""
        if self.phase == "lock" and not has_set(counts_of(self.unlocked)) and self._legal == (Bust(),):
            return self._bust()
        return self

    def _do_lock(self, lock: Lock) -> State:
        used = [v for s in lock.sets for v in s]
        if lock.yellow:
            used.remove(self.yellow)
        barn = min(self.roll, BARNS) - 1
        barns = list(self.barns)
        barns[barn] = tuple(sorted(barns[barn] + lock.sets, key=_set_order))
        return self._with(
            phase="continue",
            dice=_remove(self.dice, used),
            yellow_at="locked" if lock.yellow else self.yellow_at,
            barns=tuple(barns),
        )

    def _do_roll(self, roll: Roll) -> State:
        gain = self._ice_gain() or 0
        ice = self.players[self.turn].ice + gain - len(roll.freeze) - roll.freeze_yellow
        unlocked_yellow = self.yellow_at == "unlocked"
        return self._with(
            phase="roll",
            roll=self.roll + 1,
            players=self._with_player(self.turn, ice=ice),
            ice_supply=self.ice_supply - gain + len(roll.freeze) + roll.freeze_yellow,
            dice=roll.freeze,
            rolling=len(self.dice) - len(roll.freeze),
            yellow=self.yellow if roll.freeze_yellow or not unlocked_yellow else 0,
        )

    def _do_ice_cream(self, use: IceCream) -> State:
        kept = tuple(v for v in self.dice if v != use.value)
        rerolls_yellow = self.yellow_at == "unlocked" and self.yellow == use.value
        return self._with(
            phase="roll",
            dice=kept,
            rolling=len(self.dice) - len(kept),
            yellow=0 if rerolls_yellow else self.yellow,
            abilities_used=tuple(sorted(self.abilities_used + (use.ability,))),
        )

    def _do_flip(self, flip: Flip) -> State:
        player, tile = self.players[self.turn], tile_of(flip.tile)
        milk = _remove(player.milk, [flip.tile])
        if tile.cheese is not None:
            players = self._with_player(self.turn, milk=milk, cheese=tuple(sorted(player.cheese + (flip.tile,))))
            aside = "aside" if self.yellow_at == "unlocked" else self.yellow_at
            return self._with(players=players, yellow_at=aside, cheese_made=True)._settle()
        players = self._with_player(
            self.turn, milk=milk, ice_cream=tuple(sorted(player.ice_cream + (flip.tile,))), ice=player.ice - tile.snowflakes
        )
        return self._with(players=players, ice_supply=self.ice_supply + tile.snowflakes)._settle()

    def _do_order(self, order: Order) -> State:
        player = self.players[self.turn]
        players = self._with_player(self.turn, milk=tuple(sorted(player.milk + order.tiles)))
        state = self._end_turn()._with(players=players, display=_remove(self.display, order.tiles), turn=self._next_player())
        need = state._draw_need
        if need > state.deck_size:
            return state._with(phase="over")  # the display cannot be refilled: the game ends at once
        return state._start_turn(state.turn) if need == 0 else state._with(phase="draw")

    def _bust(self) -> State:
        player = self.players[self.turn]
        state = self._end_turn()._with(
            players=self._with_player(self.turn, backorders=player.backorders + 1),
            backorder_supply=self.backorder_supply - 1,
        )
        if state.backorder_supply == 0:
            return state._backorder_phase()
        return state._start_turn(state._next_player())

    def _backorder_phase(self) -> State:
        """Everyone returns their tokens; the most-tokens players discard; display + discards go under the deck."""
        most = max(p.backorders for p in self.players)
        order = [(self.turn + i) % len(self.players) for i in range(len(self.players))]
        discarding = tuple(i for i in order if self.players[i].backorders == most and self.players[i].milk)
        players = tuple(replace(p, backorders=0) for p in self.players)
        returned = sum(p.backorders for p in self.players)
        state = self._with(players=players, backorder_supply=self.backorder_supply + returned, phase="discard", discarding=discarding)
        return state._go_on_discarding()

    def _discard(self, player: int, code: str) -> State:
        players = self._with_player(player, milk=_remove(self.players[player].milk, [code]))
        return self._with(players=players, discards=tuple(sorted(self.discards + (code,))), discarding=self.discarding[1:])

    def _go_on_discarding(self) -> State:
        """Discard for each player in turn; stop where one has a real choice; then refill the display."""
        state = self
        while state.discarding:
            choices = state._discard_choices(state.discarding[0])
            if len(choices) > 1:
                return state
            state = state._discard(state.discarding[0], choices[0])
        pile = tuple(sorted(state.display + state.discards))
        return state._with(deck=state.deck + (pile,), display=(), discards=(), phase="draw", turn=state._next_player())

    # -- the deck -----------------------------------------------------------------
    def _draw_dist(self) -> Iterator[tuple[tuple[str, ...], Fraction]]:
        need, whole = self._draw_need, ()
        for pile in self.deck:
            if need >= len(pile):
                whole += pile
                need -= len(pile)
                continue
            bag, ways = Bag(pile), comb(len(pile), need)
            for part, w in bag.draw_weights(need):
                yield tuple(sorted(whole + part)), Fraction(w, ways)
            return
        yield tuple(sorted(whole)), Fraction(1)

    def _take_from_deck(self, tiles: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """The deck after drawing ``tiles``; a ValueError if that draw cannot happen."""
        if len(tiles) != self._draw_need:
            raise ValueError(f"a draw here takes {self._draw_need} tiles, not {len(tiles)}")
        left, piles = list(tiles), list(self.deck)
        while piles and len(left) >= len(piles[0]):
            left = list(_remove(left, piles.pop(0)))
        if left:
            piles[0] = _remove(piles[0], left)
        return tuple(p for p in piles if p)

    # -- checks, text and JSON ----------------------------------------------------
    def check(self) -> State:
        """Raise ``ValueError`` naming the field if a component count or the phase is inconsistent; else return self."""
        rules, n = self.rules, len(self.players)

        def need(ok: bool, where: str, why: str) -> None:
            if not ok:
                raise ValueError(f"saved state field {where!r}: {why}")

        need(self.phase in PHASES, "phase", f"must be one of {PHASES}, got {self.phase!r}")
        need(n == rules.players, "players", f"holds {n} players; the game has {rules.players}")
        need(0 <= self.turn < n, "turn", f"must be a player 0-{n - 1}")
        held_ice = sum(p.ice for p in self.players)
        need(self.ice_supply + held_ice == rules.ice_supply, "ice_supply", f"supply {self.ice_supply} + held {held_ice} ≠ {rules.ice_supply} ice tokens")
        held_bo = sum(p.backorders for p in self.players)
        need(
            self.backorder_supply >= 1 and self.backorder_supply + held_bo == rules.backorder_tokens,
            "backorder_supply",
            f"supply {self.backorder_supply} (at least 1) + held {held_bo} must be {rules.backorder_tokens} backorder tokens",
        )
        tiles = Counter(c for pile in self.deck for c in pile) + Counter(self.display) + Counter(self.discards)
        for p in self.players:
            tiles.update(p.tiles)
        expected = Counter(rules.tile_codes)
        need(
            tiles == expected,
            "deck",
            f"the tiles in deck, display, discards and hands differ from the game's: extra {sorted((tiles - expected).elements())}, "
            f"missing {sorted((expected - tiles).elements())}",
        )
        need(all(self.deck), "deck", "holds an empty pile")
        need(len(self.display) <= rules.display_size, "display", f"holds more than {rules.display_size} tiles")
        need((self.phase == "discard") == bool(self.discarding), "discarding", "must list players exactly in the discard phase")
        need(all(0 <= i < n for i in self.discarding), "discarding", "names a player who does not exist")
        need(not self.discards or self.phase == "discard", "discards", "holds tiles outside the discard phase")
        need(all(ab in ABILITIES for ab in self.abilities_used), "abilities_used", f"abilities are {tuple(ABILITIES)}")
        need(self.yellow_at in WHERE, "yellow_at", f"must be one of {WHERE}")
        need(0 <= self.yellow <= 6 and all(1 <= v <= 6 for v in self.dice), "dice", "die values are 1-6 (yellow 0 = to roll)")
        for b, barn in enumerate(self.barns):
            need(all(s in SETS for s in barn), f"barns[{b}]", f"sets must be sorted 2-3 dice summing to 10, from {SETS}")
        need(len(self.barns) == BARNS, "barns", f"there are {BARNS} barns")
        if self.phase in TURN_PHASES:
            need(1 <= self.roll, "roll", "a turn has rolled at least once")
            red = min(self.players[self.turn].backorders, rules.red_dice_cap)
            need(self.red == red, "red", f"player {self.turn} rolls {red} red dice")
            locked = sum(len(s) for barn in self.barns for s in barn) - (self.yellow_at == "locked")
            need(
                len(self.dice) + self.rolling + locked == WHITE_DICE + self.red,
                "dice",
                f"unlocked {len(self.dice)} + rolling {self.rolling} + locked {locked} white/red dice ≠ {WHITE_DICE + self.red}",
            )
            need((self.phase == "roll") or (self.rolling == 0 and self.yellow > 0), "rolling", "only a pending roll has dice rolling")
            need(
                self.yellow_at != "locked" or any(self.yellow in s for barn in self.barns for s in barn),
                "yellow_at",
                "the locked yellow die's value is in no locked set",
            )
        else:
            need(
                self == self._end_turn(),
                "phase",
                f"between turns ({self.phase!r}) roll, red, dice, rolling, yellow, barns and abilities_used must be clear",
            )
        return self

    def __str__(self) -> str:
        who = {CHANCE: "chance", TERMINAL: "game over"}.get(self.current_player(), f"player {self.current_player()}")
        lines = [
            f"Dairyman, {len(self.players)} players · {self.phase} · {who} · turn of player {self.turn}, roll {self.roll}",
            f"display: {' '.join(self.display) or '-'} · deck {self.deck_size} · supply: ice {self.ice_supply}, backorders {self.backorder_supply}",
        ]
        if self.phase in TURN_PHASES:
            yellow = {"unlocked": str(self.yellow or "?"), "locked": f"{self.yellow} (locked)", "aside": f"{self.yellow} (aside)"}[self.yellow_at]
            rolling = f" + {self.rolling} rolling" if self.rolling else ""
            barns = " ".join(f"[{_sets_text(b)}]" for b in self.barns)
            lines.append(f"dice: {' '.join(map(str, self.dice)) or '-'}{rolling} · yellow {yellow} · barns {barns} = {self.barn_value}")
        lines += [f"player {i}: {p} · score {self.score(i)}" for i, p in enumerate(self.players)]
        return "\n".join(lines)



# -- JSON parsing -------------------------------------------------------------------------

def _code(value: Any, where: str) -> str:
    try:
        return tile_of(value).code
    except ValueError as error:
        raise bad(where, str(error), value) from None


_codes = list_of(_code, sort=True)


def _die_values(value: Any, where: str) -> tuple[int, ...]:
    values = list_of(whole, sort=True)(value, where)
    if any(not 1 <= v <= 6 for v in values):
        raise bad(where, "die values must be 1-6", value)
    return values


_player = record(PlayerState, {"milk": _codes, "cheese": _codes, "ice_cream": _codes, "ice": whole, "backorders": whole})


_FIELD_PARSERS = {
    "players": list_of(_player),
    "ice_supply": whole,
    "backorder_supply": whole,
    "deck": list_of(_codes),
    "display": _codes,
    "phase": text,
    "turn": whole,
    "roll": whole,
    "red": whole,
    "dice": _die_values,
    "rolling": whole,
    "yellow": whole,
    "yellow_at": text,
    "cheese_made": flag,
    "barns": list_of(lambda b, wb: tuple(sorted(list_of(_die_values)(b, wb), key=_set_order))),
    "abilities_used": list_of(text, sort=True),
    "discarding": list_of(whole),
    "discards": _codes,
}
State.GAME, State.FORMAT, State.FIELD_PARSERS = "dairyman", STATE_FORMAT, _FIELD_PARSERS


# -- the game -----------------------------------------------------------------------------

class Game(GameBase):
    """Dairyman for 2-4 players; ``options`` are :class:`Rules` fields.

    >>> game = Game(players=3, ice_supply=10)
    >>> game.rules.backorder_tokens, game.options
    (4, {'players': 3, 'ice_supply': 10})
    """

    name = "dairyman"
    action_kinds = ACTION_KINDS
    state_class = State

    def __init__(self, players: int = 2, **options: Any) -> None:
        self.rules = Rules(players=players, **options)
        self.options: dict[str, Any] = {"players": players, **options}

    def new_initial_state(self, seed: int | None = None) -> State:
        """The game before the opening display is dealt (a chance node); with ``seed``, dealt from that seed."""
        rules = self.rules
        state = State(
            rules=rules,
            players=tuple(PlayerState() for _ in range(rules.players)),
            ice_supply=rules.ice_supply,
            backorder_supply=rules.backorder_tokens,
            deck=(rules.tile_codes,),
        )
        return state if seed is None else state.apply(state.sample_chance(np.random.default_rng(seed)))



__all__ = [
    "ACTION_KINDS",
    "Bust",
    "Discard",
    "Drawn",
    "Flip",
    "Game",
    "IceCream",
    "Lock",
    "Order",
    "PlayerState",
    "Roll",
    "Rolled",
    "State",
    "Stop",
    "lock_actions",
    "roll_outcomes",
]
