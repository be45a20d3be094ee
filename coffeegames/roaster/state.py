"""The Coffee Roaster engine under the State contract (docs/rules/roaster.md, docs/architecture.md): transitions only.

(Just over 600 lines: the cup test's transitions stay in the one State class with the roasting's, the roasting
round's effects being already in :mod:`.effects` and the cup test's solvers in ``cup*.py``, so that every transition
reads in one place; what remains beside the class is a few small helpers its hot paths share.)

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, ClassVar, Self

import numpy as np

from ..engine import CHANCE, TERMINAL, IllegalAction
from ..engine import State as BaseState
from ..engine.saved import GameBase, SavedState
from ..exact.draws import draw_below
from ..engine.state import cached_state
from ..validate import check_instance, check_seed
from .actions import (
    ACTION_KINDS,
    CHANCE_PHASES,
    ROASTING_PHASES,
    Concentrate,
    Continue,
    Disperse,
    Drawn,
    Exchange,
    Keep,
    KeepTwo,
    NewTwo,
    NoExchange,
    PayWild,
    Phase,
    PlusTwo,
    Preserve,
    RemoveBad,
    RemoveTwo,
    ReserveToBag,
    Roast,
    Shuffled,
    Stop,
    ToCup,
    ToTray,
    TwoOfFive,
    _made,
)
from .data import CUP_SPACES, SQUARES
from .effects import effect_actions, pay_wild, remove_two, use_flavour, use_immediate
from .odds import draw_outcome_count, draw_outcomes, shuffle_outcomes
from .rules import EASY_FLAVOURS, Rules
from .saved import FIELD_PARSERS, STATE_FORMAT, check
from .scoring import CupScore
from .tokens import (
    CHOICE,
    CUP_EFFECT_NAMES,
    CUP_EFFECTS,
    EXCHANGE,
    EXTRA_BEAN,
    FLAVOURS,
    HARD,
    MOISTURE,
    ROASTABLE,
    ROASTED,
    SMOKE,
    SWEETNESS,
    WILD,
    is_bean,
    madd,
    mcontains,
    mpairs,
    mremove,
    msort,
    roast,
    show,
)

__all__ = ["Game", "State"]

_EMPTY_SLOTS = (("", ""),) * SQUARES

_SHUFFLE, _DRAW, _ACT, _PLACING, _CUP_DRAW = Phase.SHUFFLE, Phase.DRAW, Phase.ACT, Phase.PLACE, Phase.CUP_DRAW
"""Phases compared at every step, as module names: quicker to reach than ``Phase.X`` (an enum attribute) in Python 3.11."""


# -- the state ----------------------------------------------------------------------------

@dataclass(frozen=True)
class State(SavedState, BaseState):
    """A Coffee Roaster position (immutable, hashable). Build the first one with :meth:`Game.new_initial_state`."""

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

    def sample_chance(self, rng: np.random.Generator) -> Any:
        """One chance outcome drawn with its exact probability, without listing the outcomes."""
        check_instance(rng, np.random.Generator, "rng", "a numpy Generator (numpy.random.default_rng(seed))")
        phase, bag = self.phase, self.bag
        if phase in _ONE_AT_A_TIME:  # rng.choice(len(bag), size=1, replace=False) is this one draw (Floyd's algorithm)
            return _made(Drawn, (bag[draw_below(rng, len(bag))],))
        if phase == _DRAW:  # the bag is a sorted multiset: the tokens at sorted positions are one too
            return _made(Drawn, tuple([bag[i] for i in sorted(rng.choice(len(bag), size=self.draw_count, replace=False).tolist())]))
        if phase == _SHUFFLE:
            return _made(Shuffled, tuple([CUP_EFFECTS[i] for i in rng.permutation(len(CUP_EFFECTS)).tolist()]))
        raise IllegalAction("sample_chance needs a chance node")

    def _apply(self, move: Any) -> Self:
        if isinstance(move, Drawn):
            return self._drawn(move.tokens)
        if isinstance(move, Shuffled):
            return self._with(squares=move.order)._start_round()
        return _HANDLERS[type(move)](self, move)

    def _to_cup(self, _: ToCup) -> Self:
        return self._cup_next(self._placed(self.hand), self.bag, hand=())

    def _to_tray(self, _: ToTray) -> Self:
        return self._cup_next(self.cup, self.bag, tray=madd(self.tray, self.hand), hand=())

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
        return _cup_space(self.cup, self.active, self.rules.board.sweetness_space)

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
            return self._drawn_one(tokens[0])
        purpose = self.draw_for
        kept = tuple(t for t in tokens if t != MOISTURE)
        bag, removed = _without(self.bag, tokens), madd(self.removed, (t for t in tokens if t == MOISTURE))
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
        return state._start_cup() if self.last_space else state

    def _do_continue(self) -> Self:
        space = self.space + 1
        smoke = list(self.smoke)
        arriving, smoke[space] = smoke[space], 0
        state = self._with(space=space, round=self.round + 1, smoke=tuple(smoke), bag=madd(self.bag, (SMOKE,) * arriving))
        return state._start_round()

    # -- the cup test -----------------------------------------------------------------
    def _start_cup(self) -> Self:
        if self.reserve and self.rules.rules_version >= 2:  # the player's choice, token by token (Rule)
            return self._with(phase=Phase.RESERVE, flavour_used=False)
        if self.reserve and self.rules.reserve_to_bag:  # rules_version 1: all forced into the bag
            return self._cup_next(self.cup, madd(self.bag, self.reserve), reserve=(), flavour_used=False)
        return self._cup_next(self.cup, self.bag, flavour_used=False)

    def _do_reserve(self, action: ReserveToBag) -> Self:
        if not mcontains(self.reserve, action.tokens):
            raise IllegalAction(f"{show(action.tokens)} are not all starting flavour tokens on the board")
        return self._cup_next(self.cup, madd(self.bag, action.tokens), reserve=mremove(self.reserve, action.tokens))

    def _placed(self, tokens: Sequence[str]) -> tuple[str, ...]:
        """The cup with ``tokens`` put in its next spaces (before Sweetness while the spaces before its own fill)."""
        cup = list(self.cup)
        space = self.rules.board.sweetness_space
        for t in tokens:
            at = cup.index(SWEETNESS) if SWEETNESS in cup else len(cup)
            cup.insert(at if at < space else len(cup), t)
        return tuple(cup)

    def next_cup_space(self) -> Self:
        """Move a cup-test position on to its next chance node or decision: Sweetness fills its space, a full cup
        goes to Exchange or ends the game, an empty bag ends it, a Choice space draws two. The engine calls it after
        every token placed; it is public so a position built by hand (``dataclasses.replace``) can be settled."""
        return self._cup_next(self.cup, self.bag)

    def _cup_next(self, cup: tuple[str, ...], bag: tuple[str, ...], **changes: Any) -> Self:
        """``self._with(cup=cup, bag=bag, **changes).next_cup_space()`` in one copy (``changes`` leave the squares,
        slots and ``exchanged`` as they are)."""
        rules, active = self.rules, self.active
        sweetness = rules.board.sweetness_space
        position = _cup_space(cup, active, sweetness)
        if SWEETNESS in active and SWEETNESS not in cup and (rules.rules_version >= 2 or position == sweetness + 1):
            # on its space from the start of the cup test (Rule); rules_version 1 placed it when filling reached it
            at = min(len(cup), sweetness)
            cup = cup[:at] + (SWEETNESS,) + cup[at:]
            position = _cup_space(cup, active, sweetness)
        if position >= CUP_SPACES:
            phase = Phase.EXCHANGE if EXCHANGE in active and not self.exchanged else Phase.OVER
        elif not bag:
            phase = Phase.OVER
        else:
            phase = Phase.CHOICE_DRAW if CHOICE in active and position in rules.board.choice_spaces else _CUP_DRAW
        return self._with(cup=cup, bag=bag, phase=phase, **changes)

    def _drawn_one(self, token: str) -> Self:
        phase = self.phase
        bag = _without(self.bag, (token,))
        if token == MOISTURE:  # leaves the game; draw again
            removed = madd(self.removed, [token])
            if phase == _CUP_DRAW:
                return self._cup_next(self.cup, bag, removed=removed)
            state = self._with(bag=bag, removed=removed)
        else:
            hand = self.hand + (token,)
            if phase == _CUP_DRAW:
                if len(self.tray) >= self.tray_spaces:  # no room on the tray: into the cup
                    return self._cup_next(self._placed(hand), bag, hand=())
                return self._with(bag=bag, hand=hand, phase=_PLACING)
            state = self._with(bag=bag, hand=hand)
        want = 2 if phase == Phase.CHOICE_DRAW else 3
        if len(state.hand) < want and state.bag:
            return state
        if phase == Phase.CHOICE_DRAW:
            if not state.hand:
                return state._with(phase=Phase.OVER)
            if len(set(state.hand)) == 1:
                return state._do_keep(Keep(state.hand[0]))
            return state._with(phase=Phase.CHOOSE)
        if len(state.hand) <= 2:
            return state._with(cup=state.cup + msort(state.hand), hand=(), phase=Phase.OVER)
        return state._with(phase=Phase.EXCHANGE_KEEP)

    def _do_keep(self, action: Keep) -> Self:
        rest = mremove(self.hand, [action.token])
        return self._cup_next(self._placed([action.token]), madd(self.bag, rest), hand=())

    def _do_exchange(self, action: Exchange) -> Self:
        cup = list(self.cup)
        for t in action.returned:
            del cup[len(cup) - 1 - cup[::-1].index(t)]
        return self._with(cup=tuple(cup), bag=madd(self.bag, action.returned), exchanged=True, phase=Phase.EXCHANGE_DRAW)

    def _do_keep_two(self, action: KeepTwo) -> Self:
        rest = mremove(self.hand, action.tokens)
        return self._with(cup=self.cup + action.tokens, hand=(), bag=madd(self.bag, rest), phase=Phase.OVER)

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
    Stop: lambda state, _: state._start_cup(),
    ReserveToBag: State._do_reserve,
    ToCup: State._to_cup,
    ToTray: State._to_tray,
    Keep: State._do_keep,
    Exchange: State._do_exchange,
    NoExchange: lambda state, _: state._with(phase=Phase.OVER),
    KeepTwo: State._do_keep_two,
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


def _without(bag: tuple[str, ...], tokens: Iterable[str]) -> tuple[str, ...]:
    """``mremove(bag, tokens)`` for a bag (a sorted multiset, as every bag of a state is): what is left is sorted
    already, so it is not sorted again."""
    left = list(bag)
    for t in tokens:
        left.remove(t)
    return tuple(left)


_roast = lru_cache(maxsize=256)(roast)
""":func:`~.tokens.roast` of each (token, steps), worked out once."""


def _cup_space(cup: tuple[str, ...], active: tuple[str, ...], sweetness_space: int) -> int:
    """:attr:`State.cup_space` of a cup with these cup effects ``active``."""
    filled = len(cup) - (SWEETNESS in cup)
    return filled + (SWEETNESS in active and filled >= sweetness_space)


class Game(GameBase):
    """Coffee Roaster, solo, on one coffee card; ``options`` are :class:`~.rules.Rules` fields.

    >>> game = Game(card="Kenya AA", side="easy")
    >>> s = game.new_initial_state(seed=1)
    >>> s.phase, s.reserve, s.space, game.options
    ('draw', ('body', 'acidity'), 4, {'card': 'Kenya AA', 'side': 'easy', 'rules_version': 2})

    ``options`` (saved with a walkthrough) always name ``rules_version`` from version 2 on; games saved before it
    existed name none and are version 1, so ``Game(..., rules_version=1)`` leaves it out to load them
    (:meth:`from_saved`, :meth:`load_walkthrough`).
    """

    name = "roaster"
    action_kinds = ACTION_KINDS
    state_class = State
    rules_class = Rules

    def __init__(self, card: Any = "Mexico Altura Oaxaca", side: str = "full", **options: Any) -> None:
        self.rules = Rules(card=card, side=side, **options)
        shown = {k: str(v) if isinstance(v, Path) else v for k, v in options.items()}  # JSON-ready for saved walkthroughs
        self.options: dict[str, Any] = self._recorded({"card": self.rules.card.name, "side": side, **shown})

    def new_initial_state(self, seed: int | None = None) -> State:
        """The game after setup: chance shuffling the cup effects onto the squares (with ``seed``, already shuffled)."""
        if check_seed(seed) is None:
            return self._setup
        return self._setup.apply(self._setup.sample_chance(np.random.default_rng(seed)))

    @cached_property
    def _setup(self) -> State:
        """The state before the shuffle, made once (a state is a value: every game starts from the same one)."""
        rules = self.rules
        bag = rules.card.bag
        reserve: tuple[str, ...] = ()
        if rules.side == "easy":  # one of each flavour from the card's tokens (those the card has: Ruling)
            reserve = msort(f for f in EASY_FLAVOURS if f in bag)
            bag = mremove(bag, reserve)
        return State(rules=rules, space=rules.start_space, bag=bag, reserve=reserve, smoke=rules.thermometer.smoke)


