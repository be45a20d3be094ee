"""The Coffee Roaster engine under the State contract (docs/rules/roaster.md, docs/architecture.md): transitions only.

The :class:`State` dispatches each move to its transition: the roasting round's here, its effects' in
:mod:`.effects`, the cup test's in :mod:`.cupping`; the cup test's solvers are in ``cup*.py`` and the
:class:`~.game.Game` in :mod:`.game`.

Conventions (tokens are the short strings of :mod:`.tokens`; every multiset is a sorted tuple):

* **Where tokens are.** ``bag``; ``drawn`` (this round's draw, on the table); ``reserve``
  (easy side: the starting Body/Acidity/Aroma, usable every round as if just drawn);
  ``hand`` (tokens drawn by *2 of 5*, Choice or Exchange, waiting for a choice); ``paid``
  (flavour tokens beside the immediate effects used); ``wild_paid`` (beans on the wild
  flavour's two spaces; the wild token itself lies on the board until ``wild_taken``);
  ``slots`` (the flavour tokens beside each square space of the roast board, ``""`` for a
  free slot); ``smoke`` (smoke tokens still on each thermometer space); ``cup`` (in the
  order of its spaces, ``"sweetness"`` in it from the start of the cup test when active, before the tokens of the
  spaces after its own: :attr:`State.cup_space`) and ``tray``; ``removed`` (out of the game:
  moisture, tokens removed by effects, beans merged or split away). ``supplied`` lists the
  beans taken from the box by Concentrate and Disperse. Roasting swaps a bean for the next
  level's token, so beans are conserved by count and every other token kind by kind
  (:meth:`State.census`).
* **Cup effects.** ``squares`` holds the five cup effect tokens in the order chance laid
  them on the square spaces; a square whose two slots are filled has moved its token to the
  cup board: it is *active* (:attr:`State.active`).
* **Phases** (:class:`~.actions.Phase`). ``"shuffle"`` (chance: the cup effects onto the squares), ``"draw"`` (chance: a
  multiset of ``draw_count`` tokens, for the round or for an effect named by ``draw_for``),
  ``"act"`` (effects, then :class:`Roast`), ``"remove_two"`` (*2 of 5*), ``"decide"``
  (:class:`Continue` or :class:`Stop`), ``"reserve"`` (easy side: :class:`ReserveToBag`, which starting flavour
  tokens go into the bag), and the cup test: ``"cup_draw"`` (chance: one token),
  ``"place"`` (:class:`ToCup` or :class:`ToTray`), ``"choice_draw"`` / ``"choose"`` (Choice),
  ``"exchange"`` / ``"exchange_draw"`` / ``"exchange_keep"`` (Exchange), ``"over"``.
  Steps without a choice happen by themselves: moisture leaving, the forced stop on the
  last thermometer space, a token going to the cup when the tray is full, keeping the only
  token drawn for Choice, and so on.
* **Chance.** A draw of k tokens is a :class:`Drawn` multiset with its exact multivariate
  hypergeometric probability (:meth:`coffeegames.exact.Bag.draw_weights`); the cup test
  draws one token at a time. ``sample_chance`` and ``is_legal_outcome`` never list outcomes.
* **Elsewhere.** The actions and phases are in :mod:`.actions`, the roasting round's effects
  in :mod:`.effects`, the chance law in :mod:`.odds`, the saved-game parsers and the position
  invariants (:func:`.saved.check`) in :mod:`.saved`, the options in :mod:`.rules`, cup
  scoring in :mod:`.scoring`.

Example (a scripted start: chance outcomes may be given, like actions):
    >>> from coffeegames.roaster.game import Game
    >>> game = Game(card="Mexico Altura Oaxaca")
    >>> s = game.new_initial_state()
    >>> s = s.apply(Shuffled(("extra_bean", "sweetness", "choice", "exchange", "tray")))
    >>> s.phase, s.space, s.draw_count
    ('draw', 3, 8)
    >>> s = s.apply(Drawn(("hard",) * 5 + ("moisture", "acidity", "acidity")))
    >>> s.drawn, s.removed
    (('hard', 'hard', 'hard', 'hard', 'hard', 'acidity', 'acidity'), ('moisture',))
    >>> s = s.apply(Roast())
    >>> s.phase, s.bag.count("bean0")
    ('decide', 5)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar, Self

import numpy as np

from ..engine import CHANCE, TERMINAL, IllegalAction
from ..engine import State as BaseState
from ..engine.saved import SavedState
from ..exact.draws import distinct_below, draw_below, permutation_below  # numpy's choice and permutation, the same numbers
from ..engine.state import cached_state
from ..validate import check_instance
from .actions import (
    CHANCE_PHASES, ROASTING_PHASES, Concentrate, Continue, Disperse, Drawn, Exchange, Keep, KeepTwo, NewTwo,
    NoExchange, PayWild, Phase, PlusTwo, Preserve, RemoveBad, RemoveTwo, ReserveToBag, Roast, Shuffled, Stop, ToCup,
    ToTray, TwoOfFive, _made,
)
from .cupping import (cup_next, cup_space, drawn_one, exchange, keep, keep_two, reserve_to_bag, start_cup, to_cup, to_tray,
                      without)
from .data import CUP_SPACES, SQUARES
from .effects import effect_actions, pay_wild, remove_two, use_flavour, use_immediate
from .odds import draw_outcome_count, draw_outcomes, shuffle_outcomes
from .rules import Rules
from .saved import FIELD_PARSERS, STATE_FORMAT, check
from .scoring import CupScore
from .tokens import (
    CHOICE, CUP_EFFECT_NAMES, CUP_EFFECTS, EXCHANGE, EXTRA_BEAN, FLAVOURS, HARD, MOISTURE, ROASTABLE, ROASTED,
    SMOKE, SWEETNESS, WILD, is_bean, madd, mcontains, mpairs, msort, roast, show,
)

__all__ = ["State"]

_EMPTY_SLOTS = (("", ""),) * SQUARES

_SHUFFLE, _DRAW, _ACT, _PLACING, _CUP_DRAW = Phase.SHUFFLE, Phase.DRAW, Phase.ACT, Phase.PLACE, Phase.CUP_DRAW
"""Phases compared at every step, as module names: quicker to reach than ``Phase.X`` (an enum attribute) in Python 3.11."""


# -- the state ----------------------------------------------------------------------------

@dataclass(frozen=True)
class State(SavedState, BaseState):
    """A Coffee Roaster position (immutable, hashable). Build the first one with :meth:`~.game.Game.new_initial_state`."""

    GAME = "roaster"
    FORMAT = STATE_FORMAT
    FIELD_PARSERS = FIELD_PARSERS
    SQUARES: ClassVar[int] = SQUARES
    """Square spaces on the roast board (Rule)."""
    CUP_SPACES: ClassVar[int] = CUP_SPACES
    """Spaces in the cup (Rule)."""
    """Spaces on the cardboard tray without the Cardboard Tray effect by default (Stand-in; option ``tray_spaces``)."""

    rules: Rules = field(repr=False)
    phase: Phase = Phase.SHUFFLE
    squares: tuple[str, ...] = ()
    slots: tuple[tuple[str, ...], ...] = _EMPTY_SLOTS
    space: int = 0
    round: int = 1
    bag: tuple[str, ...] = ()
    drawn: tuple[str, ...] = ()
    reserve: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    draw_count: int = 0
    draw_for: str = ""
    smoke: tuple[int, ...] = ()
    wild_paid: tuple[str, ...] = ()
    wild_taken: bool = False
    used: tuple[str, ...] = ()
    paid: tuple[str, ...] = ()
    flavour_used: bool = False
    cup: tuple[str, ...] = ()
    tray: tuple[str, ...] = ()
    exchanged: bool = False
    removed: tuple[str, ...] = ()
    supplied: tuple[str, ...] = ()

    # -- the contract -------------------------------------------------------------
    def current_player(self) -> int:
        """0 (the one player), ``CHANCE`` in the drawing phases, ``TERMINAL`` once the game is over."""
        return _PLAYER.get(self.phase, 0)

    def _legal_actions(self) -> tuple[Any, ...]:
        fixed = _FIXED_ACTIONS.get(self.phase)
        return self._legal if fixed is None else fixed

    @cached_state
    def _legal(self) -> tuple[Any, ...]:
        phase = self.phase
        if phase == _ACT:
            return effect_actions(self)
        if phase == Phase.REMOVE_TWO:
            return tuple(RemoveTwo(p) for p in mpairs(self.hand))
        if phase == Phase.RESERVE:  # every sub-multiset, all into the bag first (what the game did before the choice)
            kept = tuple(msort(self.reserve[i] for i in range(len(self.reserve)) if mask >> i & 1)
                         for mask in range(2 ** len(self.reserve)))
            return tuple(ReserveToBag(t) for t in sorted(set(kept), key=lambda t: (-len(t), t)))
        if phase == Phase.CHOOSE:
            return tuple(Keep(t) for t in dict.fromkeys(self.hand))
        if phase == Phase.EXCHANGE:
            returnable = [t for t in self.cup if t != SWEETNESS]
            return tuple(Exchange(p) for p in mpairs(returnable)) + (NoExchange(),)
        if phase == Phase.EXCHANGE_KEEP:
            return tuple(KeepTwo(p) for p in mpairs(self.hand))
        return ()

    @property
    def _draw_size(self) -> int:
        return self.draw_count if self.phase == _DRAW else 1

    def _chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        if self.phase == Phase.SHUFFLE:
            return shuffle_outcomes()
        return draw_outcomes(self.bag, self._draw_size)

    def chance_outcome_count(self) -> int:
        """How many outcomes :meth:`chance_outcomes` would list here (0 away from chance nodes), counted without
        listing them (a draw of 10 from a big bag has thousands)."""
        if not self.is_chance():
            return 0
        if self.phase == Phase.SHUFFLE:
            return len(shuffle_outcomes())
        return draw_outcome_count(self.bag, self._draw_size)

    def is_legal_outcome(self, outcome: Any) -> bool:
        """Whether ``outcome`` can happen here (checked without listing the outcomes)."""
        if self.phase == _SHUFFLE:
            return isinstance(outcome, Shuffled) and sorted(outcome.order) == sorted(CUP_EFFECTS)
        if not isinstance(outcome, Drawn):
            return False
        tokens = outcome.tokens
        return len(tokens) == self._draw_size and mcontains(self.bag, tokens)

    def _draw_chance(self, rng: np.random.Generator) -> Any:
        """One chance outcome drawn with its exact probability, without listing the outcomes
        (:meth:`sample_chance`, ``rng`` checked by the caller)."""
        phase, bag = self.phase, self.bag
        if phase in _ONE_AT_A_TIME:  # rng.choice(len(bag), size=1, replace=False) is this one draw (Floyd's algorithm)
            return _made(Drawn, (bag[draw_below(rng, len(bag))],))
        if phase == _DRAW:  # the bag is a sorted multiset: the tokens at sorted positions are one too
            return _made(Drawn, tuple([bag[i] for i in sorted(distinct_below(rng, len(bag), self.draw_count))]))
        if phase == _SHUFFLE:
            return _made(Shuffled, tuple([CUP_EFFECTS[i] for i in permutation_below(rng, len(CUP_EFFECTS))]))
        raise IllegalAction("sample_chance needs a chance node")

    def _apply(self, move: Any) -> Self:
        if isinstance(move, Drawn):
            return self._drawn(move.tokens)
        if isinstance(move, Shuffled):
            return self._with(squares=move.order)._start_round()
        return _HANDLERS[type(move)](self, move)

    def returns(self) -> tuple[int]:
        """The cup's score (docs/rules/roaster.md, "Scoring")."""
        return (self.score().total,)

    # -- derived values ---------------------------------------------------------------
    @property
    def active(self) -> tuple[str, ...]:
        """Cup effects moved to the cup board (both slots beside their square filled)."""
        return _active(self.squares, self.slots)

    @property
    def tray_spaces(self) -> int:
        """Tray spaces: option ``tray_spaces`` (3), plus the Cardboard Tray's bonus when it is active."""
        return self.rules.tray_size(self.active)

    @property
    def cup_space(self) -> int:
        """The cup space the next drawn token goes to (0-9; 10 once full): spaces fill from the left, skipping
        Sweetness's space when that cup effect is active."""
        return cup_space(self.cup, self.active, self.rules.board.sweetness_space)

    @property
    def roasted_in_play(self) -> int:
        """Roasted-bean tokens (levels 0-4 and burnt) out of the box: everywhere but among the removed tokens."""
        places = (self.bag, self.drawn, self.hand, self.wild_paid, self.cup, self.tray)
        return sum(1 for place in places for t in place if t in ROASTED)

    @property
    def last_space(self) -> bool:
        """Whether the marker is on the thermometer's last space (it cannot move: you must stop)."""
        return self.space >= self.rules.spaces - 1

    def cup_tokens(self) -> tuple[str, ...]:
        """What the cup scores: its tokens, plus ``"extra_bean"`` when that cup effect is active."""
        return self.cup + ((EXTRA_BEAN,) if EXTRA_BEAN in self.active else ())

    def score(self) -> CupScore:
        """The cup's score as it stands (final at the end of the game)."""
        return self.rules.score(self.cup_tokens())

    @property
    def pool(self) -> tuple[str, ...]:
        """Flavour tokens usable for effects now: this round's drawn ones, then the easy side's reserve."""
        return msort(t for t in (*self.drawn, *self.reserve) if t in FLAVOURS or t == WILD)

    def census(self) -> tuple[Counter[str], Counter[str]]:
        """Every token by kind, wherever it is (cup effects apart), and the count the game started with plus supplies.

        Returns ``(now, expected)``: beans are compared by total count (roasting changes their
        kind), under the key ``"beans"``; every other kind by itself.
        """
        places = (self.bag, self.drawn, self.reserve, self.hand, self.paid, self.wild_paid,
                  tuple(t for s in self.slots for t in s if t), tuple(t for t in self.cup if t != SWEETNESS),
                  self.tray, self.removed, (SMOKE,) * sum(self.smoke), () if self.wild_taken else (WILD,))
        now: Counter[str] = Counter()
        for place in places:
            for t in place:
                now["beans" if is_bean(t) else t] += 1
        expected: Counter[str] = Counter()
        for t in (*self.rules.card.bag, *(SMOKE,) * sum(self.rules.thermometer.smoke), WILD, *self.supplied):
            expected["beans" if is_bean(t) else t] += 1
        return now, expected

    # -- helpers ----------------------------------------------------------------------
    def _start_round(self) -> Self:
        return self._begin_draw(self.rules.draws_at(self.space), "round", flavour_used=False)

    def _begin_draw(self, count: int, purpose: str, **changes: Any) -> Self:
        """A draw of ``count`` tokens (all that are left, if fewer) for ``purpose``, with ``changes`` to other fields than the bag."""
        k = min(count, len(self.bag))
        if k == 0:
            return self._with(draw_for=purpose, **changes)._drawn(())
        return self._with(draw_for=purpose, phase=_DRAW, draw_count=k, **changes)

    def _drawn(self, tokens: tuple[str, ...]) -> Self:
        if self.phase in _ONE_AT_A_TIME:
            return drawn_one(self, tokens[0])
        purpose = self.draw_for
        kept = tuple(t for t in tokens if t != MOISTURE)
        bag, removed = without(self.bag, tokens), madd(self.removed, (t for t in tokens if t == MOISTURE))
        if purpose != "two_of_five":
            return self._with(bag=bag, removed=removed, draw_count=0, draw_for="", phase=_ACT, drawn=madd(self.drawn, kept))
        if len(kept) <= 2:  # moisture left fewer than three: they all leave (Ruling: remove as many as possible up to 2)
            return self._with(bag=bag, removed=madd(removed, kept), draw_count=0, draw_for="", phase=_ACT)
        return self._with(bag=bag, removed=removed, draw_count=0, draw_for="", hand=msort(kept), phase=Phase.REMOVE_TWO)

    # -- the roasting round -----------------------------------------------------------
    def _do_roast(self) -> Self:
        steps = self.rules.roast_steps(self.space)
        supply = self.rules.bean_supply
        left = len(self.drawn) if supply is None else supply - self.roasted_in_play  # roasted tokens left in the box
        roasted = []
        for t in self.drawn:
            if t in ROASTABLE and (t != HARD or left > 0):  # with no roasted token left, a hard bean stays hard (Ruling)
                left -= t == HARD
                roasted.append(_roast(t, steps))
            else:
                roasted.append(t)
        state = self._with(drawn=(), bag=madd(self.bag, roasted), phase=Phase.DECIDE)
        return start_cup(state) if self.last_space else state

    def _do_continue(self) -> Self:
        space = self.space + 1
        smoke = list(self.smoke)
        arriving, smoke[space] = smoke[space], 0
        state = self._with(space=space, round=self.round + 1, smoke=tuple(smoke), bag=madd(self.bag, (SMOKE,) * arriving))
        return state._start_round()

    def next_cup_space(self) -> Self:
        """Move a cup-test position on to its next chance node or decision: Sweetness fills its space, a full cup
        goes to Exchange or ends the game, an empty bag ends it, a Choice space draws two. The engine calls it after
        every token placed; it is public so a position built by hand (``dataclasses.replace``) can be settled."""
        return cup_next(self, self.cup, self.bag)

    # -- checks, text and JSON ----------------------------------------------------
    def check(self) -> Self:
        """Raise :class:`~coffeegames.errors.BadData` naming the field if the state is inconsistent (tokens not
        adding up included); else return self (:func:`.saved.check`)."""
        check(self)
        return self


    def __str__(self) -> str:
        who = {CHANCE: "chance", TERMINAL: "game over"}.get(self.current_player(), "player")
        rules = self.rules
        lines = [
            f"Coffee Roaster · {rules.card.name} ({rules.side} side) · round {self.round} · thermometer space {self.space} "
            f"(draws {rules.draws_at(self.space)}{', crack' if self.space in rules.thermometer.crack else ''}) · {self.phase} · {who}",
            f"bag ({len(self.bag)}): {show(self.bag)}",
        ]
        if self.drawn or self.phase in (Phase.ACT, Phase.DRAW):
            lines.append(f"drawn: {show(self.drawn)}" + (f" + {self.draw_count} being drawn" if self.phase == Phase.DRAW else ""))
        if self.reserve:
            lines.append(f"starting flavours: {show(self.reserve)}")
        if self.hand:
            lines.append(f"in hand: {show(self.hand)}")
        squares = " · ".join(
            f"{CUP_EFFECT_NAMES[e]} [{'/'.join(t or c for t, c in zip(s, rules.board.cup_slots[i]))}]{' ✓' if all(s) else ''}"
            for i, (e, s) in enumerate(zip(self.squares, self.slots))
        )
        if squares:
            lines.append(f"cup effects: {squares}")
        wild = "taken" if self.wild_taken else f"paid {show(self.wild_paid)}"
        lines.append(f"wild flavour: {wild} · immediate effects used: {', '.join(self.used) or '-'}")
        if self.phase not in ROASTING_PHASES:
            lines.append(f"cup: {' '.join(self.cup) or '-'} · tray ({len(self.tray)}/{self.tray_spaces}): {show(self.tray)}")
        if self.phase == Phase.OVER:
            lines.append(f"score: {self.score()}")
        return "\n".join(lines)


# -- the game -----------------------------------------------------------------------------

_HANDLERS: dict[type, Callable[[Any, Any], Any]] = {
    PayWild: pay_wild,
    PlusTwo: use_immediate,
    NewTwo: use_immediate,
    TwoOfFive: use_immediate,
    RemoveBad: use_immediate,
    RemoveTwo: remove_two,
    Concentrate: use_flavour,
    Preserve: use_flavour,
    Disperse: use_flavour,
    Roast: lambda state, _: state._do_roast(),
    Continue: lambda state, _: state._do_continue(),
    Stop: lambda state, _: start_cup(state),
    ReserveToBag: reserve_to_bag,
    ToCup: to_cup,
    ToTray: to_tray,
    Keep: keep,
    Exchange: exchange,
    NoExchange: lambda state, _: state._with(phase=Phase.OVER),
    KeepTwo: keep_two,
}
"""Each action's transition, ``_HANDLERS[type(move)](state, move)`` (one table, not rebuilt at every step)."""
_CHANCE_PHASES = frozenset(CHANCE_PHASES)
_PLAYER: dict[str, int] = {**dict.fromkeys(CHANCE_PHASES, CHANCE), Phase.OVER: TERMINAL}
"""``current_player()`` by phase (0, the player, in the others)."""
_ONE_AT_A_TIME = frozenset((Phase.CUP_DRAW, Phase.CHOICE_DRAW, Phase.EXCHANGE_DRAW))
"""The chance phases drawing one token at a time."""
_FIXED_ACTIONS: dict[str, tuple[Any, ...]] = {Phase.PLACE: (ToCup(), ToTray()), Phase.DECIDE: (Continue(), Stop())}
"""The legal actions of the phases that always offer the same ones (nothing to work out, so nothing kept on a state)."""


def _active(squares: tuple[str, ...], slots: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """:attr:`State.active`. Asked at every token of the cup test, where each copy of a state shares the same
    ``squares`` and ``slots`` objects: the last answer is kept with them, and given again for the same objects."""
    global _last_active
    last = _last_active
    if last[0] is squares and last[1] is slots:
        return last[2]
    active = tuple(e for e, s in zip(squares, slots) if all(s))
    _last_active = (squares, slots, active)  # one assignment: another thread reads the old triple or the new one
    return active


_last_active: tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...]] = ((), (), ())


_roast = lru_cache(maxsize=256)(roast)
""":func:`~.tokens.roast` of each (token, steps), worked out once."""

