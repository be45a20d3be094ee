"""The Coffee Roaster engine under the State contract (RULES.md §3, DESIGN.md "The State contract").

Conventions (tokens are the short strings of :mod:`.tokens`; every multiset is a sorted tuple):

* **Where tokens are.** ``bag``; ``drawn`` (this round's draw, on the table); ``reserve``
  (easy side: the starting Body/Acidity/Aroma, usable every round as if just drawn);
  ``hand`` (tokens drawn by *2 of 5*, Choice or Exchange, waiting for a choice); ``paid``
  (flavour tokens beside the immediate effects used); ``wild_paid`` (beans on the wild
  flavour's two spaces; the wild token itself lies on the board until ``wild_taken``);
  ``slots`` (the flavour tokens beside each square space of the roast board, ``""`` for a
  free slot); ``smoke`` (smoke tokens still on each thermometer space); ``cup`` (in the
  order filled, ``"sweetness"`` on its space) and ``tray``; ``removed`` (out of the game:
  moisture, tokens removed by effects, beans merged or split away). ``supplied`` lists the
  beans taken from the box by Concentrate and Disperse. Roasting swaps a bean for the next
  level's token, so beans are conserved by count and every other token kind by kind
  (:meth:`State.census`).
* **Cup effects.** ``squares`` holds the five cup effect tokens in the order chance laid
  them on the square spaces; a square whose two slots are filled has moved its token to the
  cup board: it is *active* (:attr:`State.active`).
* **Phases.** ``"shuffle"`` (chance: the cup effects onto the squares), ``"draw"`` (chance: a
  multiset of ``draw_count`` tokens, for the round or for an effect named by ``draw_for``),
  ``"act"`` (effects, then :class:`Roast`), ``"remove_two"`` (*2 of 5*), ``"decide"``
  (:class:`Continue` or :class:`Stop`), and the cup test: ``"cup_draw"`` (chance: one token),
  ``"place"`` (:class:`ToCup` or :class:`ToTray`), ``"choice_draw"`` / ``"choose"`` (Choice),
  ``"exchange"`` / ``"exchange_draw"`` / ``"exchange_keep"`` (Exchange), ``"over"``.
  Steps without a choice happen by themselves: moisture leaving, the forced stop on the
  last thermometer space, a token going to the cup when the tray is full, keeping the only
  token drawn for Choice, and so on.
* **Chance.** A draw of k tokens is a :class:`Drawn` multiset with its exact multivariate
  hypergeometric probability (:meth:`coffeegames.exact.Bag.draw_weights`); the cup test
  draws one token at a time. ``sample_chance`` and ``is_legal_outcome`` never list outcomes.

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

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path
from itertools import combinations_with_replacement
from math import comb
from typing import Any

import numpy as np

from ..engine import CHANCE, TERMINAL, IllegalAction
from ..engine import State as BaseState
from ..engine.saved import GameBase, SavedState, bad, flag, list_of, text, whole
from ..exact import Bag
from .rules import CUP_SPACES, EASY_FLAVOURS, FLAVOUR_EFFECTS, IMMEDIATE, TRAY_SPACES, WILD_COST, CupScore, Rules
from .tokens import (
    ANY,
    BAD,
    BEANS,
    CHOICE,
    CUP_EFFECT_NAMES,
    CUP_EFFECTS,
    EXCHANGE,
    EXTRA_BEAN,
    FLAVOURS,
    MOISTURE,
    ROASTABLE,
    SMOKE,
    SWEETNESS,
    TOKENS,
    TRAY,
    WILD,
    bean,
    is_bean,
    key,
    madd,
    mcontains,
    mremove,
    msort,
    roast,
    roast_level,
    show,
)

STATE_FORMAT = "coffeegames-roaster-state/1"
PHASES = ("shuffle", "draw", "act", "remove_two", "decide", "cup_draw", "place", "choice_draw", "choose",
          "exchange", "exchange_draw", "exchange_keep", "over")
CHANCE_PHASES = ("shuffle", "draw", "cup_draw", "choice_draw", "exchange_draw")
DRAW_FOR = ("round", "plus_two", "new_two", "two_of_five")
SQUARES = 5
_EMPTY_SLOTS = (("", ""),) * SQUARES
_EFFECT_OF = {v: k for k, v in FLAVOUR_EFFECTS.items()}  # effect name → flavour kind


def _tokens(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise ValueError(f"field {where!r} must be a list of tokens such as ['bean2', 'aroma']; got {value!r}")
    items = tuple(value)
    if any(t not in TOKENS for t in items):
        raise ValueError(f"field {where!r} must hold tokens among {', '.join(TOKENS)}; got {value!r}")
    return msort(items)


# -- actions ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shuffled:
    """Chance: the five cup effect tokens in the order they land on the roast board's square spaces."""

    order: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", tuple(self.order))

    def __str__(self) -> str:
        return "cup effects on the squares: " + ", ".join(CUP_EFFECT_NAMES.get(e, e) for e in self.order)


@dataclass(frozen=True)
class Drawn:
    """Chance: the tokens drawn from the bag (a multiset).

    >>> str(Drawn(("aroma", "hard", "hard")))
    'drew hard×2 aroma'
    """

    tokens: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", _tokens(self.tokens, "Drawn.tokens"))

    def __str__(self) -> str:
        return f"drew {show(self.tokens)}"


@dataclass(frozen=True)
class PayWild:
    """Put a drawn ``bean`` (level 0 or 1) on its space beside the wild flavour; both filled → take the wild."""

    bean: str

    def __str__(self) -> str:
        return f"PayWild({self.bean})"


@dataclass(frozen=True)
class PlusTwo:
    """Immediate effect +2 tokens: pay ``paid`` (flavour tokens) and draw 2 more."""

    paid: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "paid", _tokens(self.paid, "PlusTwo.paid"))

    def __str__(self) -> str:
        return f"PlusTwo(pay {show(self.paid)})"


@dataclass(frozen=True)
class NewTwo:
    """Immediate effect 2 new tokens: pay ``paid``, put the drawn tokens ``returned`` back in the bag, draw 2."""

    paid: tuple[str, ...]
    returned: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "paid", _tokens(self.paid, "NewTwo.paid"))
        object.__setattr__(self, "returned", _tokens(self.returned, "NewTwo.returned"))

    def __str__(self) -> str:
        return f"NewTwo(pay {show(self.paid)}, return {show(self.returned)})"


@dataclass(frozen=True)
class TwoOfFive:
    """Immediate effect 2 of 5: pay ``paid``, draw 5, remove 2 of them from the game, return the rest."""

    paid: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "paid", _tokens(self.paid, "TwoOfFive.paid"))

    def __str__(self) -> str:
        return f"TwoOfFive(pay {show(self.paid)})"


@dataclass(frozen=True)
class RemoveBad:
    """Immediate effect remove: pay ``paid``; drawn burnt beans, smoke and defect beans leave the game."""

    paid: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "paid", _tokens(self.paid, "RemoveBad.paid"))

    def __str__(self) -> str:
        return f"RemoveBad(pay {show(self.paid)})"


@dataclass(frozen=True)
class RemoveTwo:
    """2 of 5: these two of the five drawn tokens leave the game (the others go back in the bag)."""

    tokens: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", _tokens(self.tokens, "RemoveTwo.tokens"))

    def __str__(self) -> str:
        return f"RemoveTwo({show(self.tokens)})"


@dataclass(frozen=True)
class Concentrate:
    """Body → Concentrate: merge two drawn beans (levels 1-3) into one of their summed level, into the bag.

    ``flavour`` is the token spent (``"body"`` or ``"wild"``), placed beside square ``square``.

    >>> str(Concentrate(("bean2", "bean1"), "body", 0))
    'Concentrate(bean1+bean2 → bean3, body at square 0)'
    """

    beans: tuple[str, ...]
    flavour: str
    square: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "beans", _tokens(self.beans, "Concentrate.beans"))

    def __str__(self) -> str:
        total = sum(roast_level(b) or 0 for b in self.beans)
        return f"Concentrate({'+'.join(self.beans)} → bean{total}, {self.flavour} at square {self.square})"


@dataclass(frozen=True)
class Preserve:
    """Acidity → Preserve: put exactly two drawn beans (levels 0-4) back in the bag unroasted."""

    beans: tuple[str, ...]
    flavour: str
    square: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "beans", _tokens(self.beans, "Preserve.beans"))

    def __str__(self) -> str:
        return f"Preserve({'+'.join(self.beans)}, {self.flavour} at square {self.square})"


@dataclass(frozen=True)
class Disperse:
    """Aroma → Disperse: split a drawn bean of level 2-4 into two lower beans ``into`` of the same total, into the bag."""

    bean: str
    into: tuple[str, ...]
    flavour: str
    square: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "into", _tokens(self.into, "Disperse.into"))

    def __str__(self) -> str:
        return f"Disperse({self.bean} → {'+'.join(self.into)}, {self.flavour} at square {self.square})"


@dataclass(frozen=True)
class Roast:
    """End the effects: roast the drawn beans and put every drawn token back in the bag."""


@dataclass(frozen=True)
class Continue:
    """Roast another round: the marker moves one space right."""


@dataclass(frozen=True)
class Stop:
    """Stop roasting and cup-test."""


@dataclass(frozen=True)
class ToCup:
    """Put the token just drawn into the next cup space."""


@dataclass(frozen=True)
class ToTray:
    """Put the token just drawn on the cardboard tray (it will not score)."""


@dataclass(frozen=True)
class Keep:
    """Choice: keep ``token`` (of the two drawn) in the cup space; the other goes back in the bag."""

    token: str

    def __str__(self) -> str:
        return f"Keep({self.token})"


@dataclass(frozen=True)
class Exchange:
    """Exchange: put these two cup tokens back in the bag, draw 3 and keep 2."""

    returned: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "returned", _tokens(self.returned, "Exchange.returned"))

    def __str__(self) -> str:
        return f"Exchange(return {show(self.returned)})"


@dataclass(frozen=True)
class NoExchange:
    """Do not use the Exchange cup effect: the cup test ends."""


@dataclass(frozen=True)
class KeepTwo:
    """Exchange: keep these two of the three drawn tokens in the cup; the third goes back in the bag."""

    tokens: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", _tokens(self.tokens, "KeepTwo.tokens"))

    def __str__(self) -> str:
        return f"KeepTwo({show(self.tokens)})"


ACTION_KINDS = (
    Shuffled, Drawn, PayWild, PlusTwo, NewTwo, TwoOfFive, RemoveBad, RemoveTwo, Concentrate, Preserve, Disperse,
    Roast, Continue, Stop, ToCup, ToTray, Keep, Exchange, NoExchange, KeepTwo,
)
"""Every action and chance-outcome class, for JSON."""
IMMEDIATE_ACTIONS = {"plus_two": PlusTwo, "new_two": NewTwo, "two_of_five": TwoOfFive, "remove": RemoveBad}


# -- chance odds -------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def draw_outcomes(bag: tuple[str, ...], k: int) -> tuple[tuple[Drawn, Fraction], ...]:
    """Every multiset of ``k`` tokens drawn at once from ``bag`` with its exact probability.

    >>> outcomes = draw_outcomes(("hard", "hard", "smoke"), 2)
    >>> [(str(d), p) for d, p in outcomes]
    [('drew hard×2', Fraction(1, 3)), ('drew hard smoke', Fraction(2, 3))]
    """
    total = comb(len(bag), k)
    weights = sorted(((msort(tokens), w) for tokens, w in Bag(Counter(bag)).draw_weights(k)), key=lambda tw: [key(t) for t in tw[0]])
    return tuple((Drawn(tokens), Fraction(w, total)) for tokens, w in weights)


def draw_outcome_count(bag: Sequence[str], k: int) -> int:
    """How many distinct multisets a draw of ``k`` from ``bag`` has (without listing them).

    >>> draw_outcome_count(("hard", "hard", "smoke"), 2)
    2
    """
    counts = list(Counter(bag).values())
    ways = [1] + [0] * k
    for n in counts:
        ways = [sum(ways[j - i] for i in range(0, min(n, j) + 1)) for j in range(k + 1)]
    return ways[k]


def _pairs(tokens: Sequence[str]) -> list[tuple[str, ...]]:
    """Every sub-multiset of two tokens."""
    kinds = msort(set(tokens))
    return [p for p in combinations_with_replacement(kinds, 2) if mcontains(tokens, p)]


def _fits(token: str, slot: str) -> bool:
    return token == WILD or slot == ANY or token == slot


def _payments(cost: Sequence[str], pool: Sequence[str]) -> list[tuple[str, ...]]:
    """Every multiset of flavour tokens from ``pool`` that fills the slots ``cost`` (one token per slot)."""
    found: set[tuple[str, ...]] = set()

    def rec(i: int, left: Counter, chosen: tuple[str, ...]) -> None:
        if i == len(cost):
            found.add(msort(chosen))
            return
        for t in sorted(left):
            if left[t] and _fits(t, cost[i]):
                left[t] -= 1
                rec(i + 1, left, chosen + (t,))
                left[t] += 1

    rec(0, Counter(pool), ())
    return sorted(found)


# -- the state ----------------------------------------------------------------------------

@dataclass(frozen=True)
class State(SavedState, BaseState):
    """A Coffee Roaster position (immutable, hashable). Build the first one with :meth:`Game.new_initial_state`."""

    rules: Rules = field(repr=False)
    phase: str = "shuffle"
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
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase == "over":
            return TERMINAL
        return 0

    def _legal_actions(self) -> tuple:
        return self._legal

    @cached_property
    def _legal(self) -> tuple:
        phase = self.phase
        if phase == "act":
            return self._act_actions()
        if phase == "remove_two":
            return tuple(RemoveTwo(p) for p in _pairs(self.hand))
        if phase == "decide":
            return (Continue(), Stop())
        if phase == "place":
            return (ToCup(), ToTray())
        if phase == "choose":
            return tuple(Keep(t) for t in dict.fromkeys(self.hand))
        if phase == "exchange":
            returnable = [t for t in self.cup if t != SWEETNESS]
            return tuple(Exchange(p) for p in _pairs(returnable)) + (NoExchange(),)
        if phase == "exchange_keep":
            return tuple(KeepTwo(p) for p in _pairs(self.hand))
        return ()

    @property
    def _draw_size(self) -> int:
        return self.draw_count if self.phase == "draw" else 1

    def _chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        if self.phase == "shuffle":
            return _shuffles()
        return draw_outcomes(self.bag, self._draw_size)

    @property
    def chance_outcome_count(self) -> int:
        """How many outcomes :meth:`chance_outcomes` would list here (0 away from chance nodes)."""
        if not self.is_chance():
            return 0
        if self.phase == "shuffle":
            return len(_shuffles())
        return draw_outcome_count(self.bag, self._draw_size)

    def is_legal_outcome(self, outcome: Any) -> bool:
        if self.phase == "shuffle":
            return isinstance(outcome, Shuffled) and sorted(outcome.order) == sorted(CUP_EFFECTS)
        return isinstance(outcome, Drawn) and len(outcome.tokens) == self._draw_size and mcontains(self.bag, outcome.tokens)

    def sample_chance(self, rng: np.random.Generator) -> Any:
        """One chance outcome drawn with its exact probability, without listing the outcomes."""
        if not self.is_chance():
            raise IllegalAction("sample_chance needs a chance node")
        if self.phase == "shuffle":
            return Shuffled(tuple(CUP_EFFECTS[i] for i in rng.permutation(len(CUP_EFFECTS))))
        picks = rng.choice(len(self.bag), size=self._draw_size, replace=False)
        return Drawn(tuple(self.bag[int(i)] for i in picks))

    def _apply(self, move: Any) -> State:
        if isinstance(move, Shuffled):
            return self._with(squares=move.order)._start_round()
        if isinstance(move, Drawn):
            return self._drawn(move.tokens)
        handler = {
            PayWild: self._do_pay_wild,
            PlusTwo: self._do_immediate,
            NewTwo: self._do_immediate,
            TwoOfFive: self._do_immediate,
            RemoveBad: self._do_immediate,
            RemoveTwo: self._do_remove_two,
            Concentrate: self._do_flavour,
            Preserve: self._do_flavour,
            Disperse: self._do_flavour,
            Roast: lambda _: self._do_roast(),
            Continue: lambda _: self._do_continue(),
            Stop: lambda _: self._start_cup(),
            ToCup: lambda _: self._with(cup=self.cup + self.hand, hand=())._next_cup_space(),
            ToTray: lambda _: self._with(tray=madd(self.tray, self.hand), hand=())._next_cup_space(),
            Keep: self._do_keep,
            Exchange: self._do_exchange,
            NoExchange: lambda _: self._with(phase="over"),
            KeepTwo: self._do_keep_two,
        }[type(move)]
        return handler(move)

    def returns(self) -> tuple[int]:
        """The cup's score (RULES.md §3 "Scoring")."""
        return (self.score().total,)

    # -- derived values ---------------------------------------------------------------
    @property
    def active(self) -> tuple[str, ...]:
        """Cup effects moved to the cup board (both slots beside their square filled)."""
        return tuple(e for e, s in zip(self.squares, self.slots) if all(s))

    @property
    def tray_spaces(self) -> int:
        """Tray spaces: 3, plus the Cardboard Tray's bonus when it is active."""
        return TRAY_SPACES + (self.rules.tray_bonus if TRAY in self.active else 0)

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

    def census(self) -> tuple[Counter, Counter]:
        """Every token by kind, wherever it is (cup effects apart), and the count the game started with plus supplies.

        Returns ``(now, expected)``: beans are compared by total count (roasting changes their
        kind), under the key ``"beans"``; every other kind by itself.
        """
        places = (self.bag, self.drawn, self.reserve, self.hand, self.paid, self.wild_paid,
                  tuple(t for s in self.slots for t in s if t), tuple(t for t in self.cup if t != SWEETNESS),
                  self.tray, self.removed, (SMOKE,) * sum(self.smoke), () if self.wild_taken else (WILD,))
        now: Counter = Counter()
        for place in places:
            for t in place:
                now["beans" if is_bean(t) else t] += 1
        expected: Counter = Counter()
        for t in (*self.rules.card.bag, *(SMOKE,) * sum(self.rules.thermometer.smoke), WILD, *self.supplied):
            expected["beans" if is_bean(t) else t] += 1
        return now, expected

    # -- helpers ----------------------------------------------------------------------
    def _with(self, **changes: Any) -> State:
        return dataclasses.replace(self, **changes)

    def _take(self, tokens: Sequence[str]) -> State:
        """Take flavour tokens from the drawn ones first, then from the reserve."""
        drawn, reserve = list(self.drawn), list(self.reserve)
        for t in tokens:
            if t in drawn:
                drawn.remove(t)
            elif t in reserve:
                reserve.remove(t)
            else:
                raise IllegalAction(f"{t} is not among the drawn tokens or the reserve")
        return self._with(drawn=msort(drawn), reserve=msort(reserve))

    def _start_round(self) -> State:
        return self._with(flavour_used=False)._begin_draw(self.rules.draws_at(self.space), "round")

    def _begin_draw(self, count: int, purpose: str) -> State:
        k = min(count, len(self.bag))
        state = self._with(draw_for=purpose)
        if k == 0:
            return state._drawn(())
        return state._with(phase="draw", draw_count=k)

    def _drawn(self, tokens: tuple[str, ...]) -> State:
        if self.phase in ("cup_draw", "choice_draw", "exchange_draw"):
            return self._drawn_one(tokens[0])
        purpose = self.draw_for
        kept = tuple(t for t in tokens if t != MOISTURE)
        state = self._with(
            bag=mremove(self.bag, tokens), removed=madd(self.removed, (t for t in tokens if t == MOISTURE)),
            draw_count=0, draw_for="", phase="act",
        )
        if purpose != "two_of_five":
            return state._with(drawn=madd(state.drawn, kept))
        if len(kept) <= 2:  # moisture left fewer than three: they all leave (Ruling: remove as many as possible up to 2)
            return state._with(removed=madd(state.removed, kept))
        return state._with(hand=msort(kept), phase="remove_two")

    # -- the roasting round -----------------------------------------------------------
    def _act_actions(self) -> tuple:
        actions: list = []
        drawn, pool = self.drawn, self.pool
        if not self.flavour_used:
            if not self.wild_taken:
                actions += [PayWild(b) for b in WILD_COST if b in drawn and b not in self.wild_paid]
            for effect in IMMEDIATE:
                if effect in self.used or not self._immediate_possible(effect):
                    continue
                for payment in _payments(self.rules.board.cost(effect), pool):
                    if effect == "new_two":
                        left = self._take(payment).drawn
                        actions += [NewTwo(payment, p) for p in _pairs(left)]
                    else:
                        actions.append(IMMEDIATE_ACTIONS[effect](payment))
        for kind, effect in FLAVOUR_EFFECTS.items():
            tokens = [t for t in (kind, WILD) if t in pool]
            squares = [i for i, s in enumerate(self.slots) if self._free_slot(i, kind) is not None]
            if not tokens or not squares:
                continue
            for t in tokens:
                for i in squares:
                    actions += self._flavour_actions(effect, t, i)
        actions.append(Roast())
        return tuple(actions)

    def _immediate_possible(self, effect: str) -> bool:
        if effect == "plus_two":
            return len(self.bag) >= 2
        if effect == "two_of_five":
            return len(self.bag) >= 5
        if effect == "new_two":
            return len(self.drawn) >= 2
        return any(t in BAD for t in self.drawn)  # remove: only with something to remove (Ruling)

    def _free_slot(self, square: int, kind: str) -> int | None:
        """The slot beside ``square`` a ``kind`` flavour goes into: a free one of its colour, else a free multicolour one."""
        colours = self.rules.board.cup_slots[square]
        for want in (kind, ANY):
            for j, (colour, filled) in enumerate(zip(colours, self.slots[square])):
                if colour == want and not filled:
                    return j
        return None

    def _flavour_actions(self, effect: str, token: str, square: int) -> list:
        beans = [t for t in self.drawn if t in BEANS]
        if effect == "concentrate":
            limit = self.rules.concentrate_limit
            return [Concentrate(p, token, square) for p in _pairs([b for b in beans if 1 <= roast_level(b) <= 3])
                    if sum(roast_level(b) for b in p) <= limit]
        if effect == "preserve":
            return [Preserve(p, token, square) for p in _pairs(beans)]
        out = []
        for b in dict.fromkeys(b for b in beans if roast_level(b) >= 2):
            level = roast_level(b)
            for low in range(1, level // 2 + 1):
                out.append(Disperse(b, (bean(low), bean(level - low)), token, square))
        return out

    def _do_pay_wild(self, action: PayWild) -> State:
        paid = msort((*self.wild_paid, action.bean))
        state = self._with(drawn=mremove(self.drawn, [action.bean]), wild_paid=paid)
        if mcontains(paid, WILD_COST):
            state = state._with(wild_taken=True, drawn=madd(state.drawn, [WILD]))
        return state

    def _do_immediate(self, action: Any) -> State:
        effect = {PlusTwo: "plus_two", NewTwo: "new_two", TwoOfFive: "two_of_five", RemoveBad: "remove"}[type(action)]
        state = self._take(action.paid)._with(used=tuple(e for e in IMMEDIATE if e in self.used or e == effect),
                                              paid=madd(self.paid, action.paid))
        if effect == "plus_two":
            return state._begin_draw(2, "plus_two")
        if effect == "two_of_five":
            return state._begin_draw(5, "two_of_five")
        if effect == "new_two":
            state = state._with(drawn=mremove(state.drawn, action.returned), bag=madd(state.bag, action.returned))
            return state._begin_draw(2, "new_two")
        out = [t for t in state.drawn if t in BAD]
        return state._with(drawn=mremove(state.drawn, out), removed=madd(state.removed, out))

    def _do_remove_two(self, action: RemoveTwo) -> State:
        rest = mremove(self.hand, action.tokens)
        return self._with(hand=(), removed=madd(self.removed, action.tokens), bag=madd(self.bag, rest), phase="act")

    def _do_flavour(self, action: Any) -> State:
        kind = _EFFECT_OF[{Concentrate: "concentrate", Preserve: "preserve", Disperse: "disperse"}[type(action)]]
        j = self._free_slot(action.square, kind)
        state = self._take([action.flavour])
        row = list(self.slots[action.square])
        row[j] = action.flavour
        slots = tuple(tuple(row) if i == action.square else s for i, s in enumerate(self.slots))
        state = state._with(slots=slots, flavour_used=True)
        if isinstance(action, Concentrate):
            made = bean(sum(roast_level(b) for b in action.beans))
            return state._with(drawn=mremove(state.drawn, action.beans), removed=madd(state.removed, action.beans),
                               supplied=madd(state.supplied, [made]), bag=madd(state.bag, [made]))
        if isinstance(action, Preserve):
            return state._with(drawn=mremove(state.drawn, action.beans), bag=madd(state.bag, action.beans))
        return state._with(drawn=mremove(state.drawn, [action.bean]), removed=madd(state.removed, [action.bean]),
                           supplied=madd(state.supplied, action.into), bag=madd(state.bag, action.into))

    def _do_roast(self) -> State:
        steps = self.rules.roast_steps(self.space)
        roasted = [roast(t, steps) if t in ROASTABLE else t for t in self.drawn]
        state = self._with(drawn=(), bag=madd(self.bag, roasted), phase="decide")
        return state._start_cup() if self.last_space else state

    def _do_continue(self) -> State:
        space = self.space + 1
        smoke = list(self.smoke)
        arriving, smoke[space] = smoke[space], 0
        state = self._with(space=space, round=self.round + 1, smoke=tuple(smoke), bag=madd(self.bag, (SMOKE,) * arriving))
        return state._start_round()

    # -- the cup test -----------------------------------------------------------------
    def _start_cup(self) -> State:
        state = self._with(phase="cup_draw", flavour_used=False)
        if self.reserve and self.rules.reserve_to_bag:
            state = state._with(bag=madd(self.bag, self.reserve), reserve=())
        return state._next_cup_space()

    def _next_cup_space(self) -> State:
        position = len(self.cup)
        active = self.active
        if position < CUP_SPACES and SWEETNESS in active and position == self.rules.board.sweetness_space and SWEETNESS not in self.cup:
            return self._with(cup=self.cup + (SWEETNESS,))._next_cup_space()
        if position >= CUP_SPACES:
            return self._with(phase="exchange" if EXCHANGE in active and not self.exchanged else "over")
        if not self.bag:
            return self._with(phase="over")
        choice = CHOICE in active and position in self.rules.board.choice_spaces
        return self._with(phase="choice_draw" if choice else "cup_draw")

    def _drawn_one(self, token: str) -> State:
        state = self._with(bag=mremove(self.bag, [token]))
        if token == MOISTURE:  # leaves the game; draw again
            state = state._with(removed=madd(state.removed, [token]))
            if self.phase == "cup_draw":
                return state._next_cup_space()
        else:
            state = state._with(hand=state.hand + (token,))
        if self.phase == "cup_draw":
            if len(state.tray) >= state.tray_spaces:  # no room on the tray: into the cup
                return state._with(cup=state.cup + state.hand, hand=())._next_cup_space()
            return state._with(phase="place")
        want = 2 if self.phase == "choice_draw" else 3
        if len(state.hand) < want and state.bag:
            return state
        if self.phase == "choice_draw":
            if not state.hand:
                return state._with(phase="over")
            if len(set(state.hand)) == 1:
                return state._do_keep(Keep(state.hand[0]))
            return state._with(phase="choose")
        if len(state.hand) <= 2:
            return state._with(cup=state.cup + msort(state.hand), hand=(), phase="over")
        return state._with(phase="exchange_keep")

    def _do_keep(self, action: Keep) -> State:
        rest = mremove(self.hand, [action.token])
        return self._with(cup=self.cup + (action.token,), hand=(), bag=madd(self.bag, rest))._next_cup_space()

    def _do_exchange(self, action: Exchange) -> State:
        cup = list(self.cup)
        for t in action.returned:
            del cup[len(cup) - 1 - cup[::-1].index(t)]
        return self._with(cup=tuple(cup), bag=madd(self.bag, action.returned), exchanged=True, phase="exchange_draw")

    def _do_keep_two(self, action: KeepTwo) -> State:
        rest = mremove(self.hand, action.tokens)
        return self._with(cup=self.cup + action.tokens, hand=(), bag=madd(self.bag, rest), phase="over")

    # -- checks, text and JSON ----------------------------------------------------
    def check(self) -> State:
        """Raise ``ValueError`` naming the field if the state is inconsistent (tokens not adding up included); else return self."""
        rules = self.rules

        def need(ok: bool, where: str, why: str) -> None:
            if not ok:
                raise ValueError(f"saved state field {where!r}: {why}")

        need(self.phase in PHASES, "phase", f"must be one of {', '.join(PHASES)}; got {self.phase!r}")
        need(self.squares == () if self.phase == "shuffle" else sorted(self.squares) == sorted(CUP_EFFECTS), "squares",
             "holds the five cup effects once each after the shuffle (none before)")
        need(len(self.slots) == SQUARES and all(len(s) == 2 for s in self.slots), "slots", "needs 5 squares of 2 slots")
        for i, row in enumerate(self.slots):
            for colour, t in zip(rules.board.cup_slots[i], row):
                need(t == "" or (t in (*FLAVOURS, WILD) and _fits(t, colour)), "slots", f"square {i}: {t!r} cannot fill a {colour} slot")
        need(0 <= self.space < rules.spaces, "space", f"must be a thermometer space 0-{rules.spaces - 1}")
        need(self.round == self.space - rules.start_space + 1, "round", "counts rounds from the start space (one per space moved)")
        need(len(self.smoke) == rules.spaces, "smoke", f"needs one count per thermometer space ({rules.spaces})")
        need(all(0 <= n <= m for n, m in zip(self.smoke, rules.thermometer.smoke)), "smoke", "cannot exceed the smoke set up")
        need(all(n == m for n, m in zip(self.smoke[self.space + 1:], rules.thermometer.smoke[self.space + 1:])), "smoke",
             "spaces ahead of the marker keep their smoke")
        need(self.draw_for in ("",) + DRAW_FOR, "draw_for", f"must be '' or one of {', '.join(DRAW_FOR)}")
        need((self.phase == "draw") == (self.draw_count > 0) and (self.phase == "draw") == bool(self.draw_for), "draw_count",
             "a draw is pending exactly in the draw phase")
        need(self.draw_count <= len(self.bag), "draw_count", "cannot exceed the tokens in the bag")
        need(self.phase != "decide" or not self.last_space, "phase", "on the last thermometer space roasting stops by itself")
        roasting = self.phase in ("shuffle", "draw", "act", "remove_two", "decide")
        need(not self.drawn or self.phase in ("draw", "act", "remove_two"), "drawn", "drawn tokens lie out only during a round's effects")
        need(not self.hand or self.phase in ("remove_two", "place", "choose", "choice_draw", "exchange_draw", "exchange_keep"),
             "hand", f"holds no tokens in phase {self.phase!r}")
        need(all(t in (*FLAVOURS, WILD) for t in self.paid), "paid", "holds flavour tokens only")
        need(all(t in WILD_COST for t in self.wild_paid) and len(set(self.wild_paid)) == len(self.wild_paid), "wild_paid",
             "holds at most one level-0 and one level-1 bean")
        need(self.wild_taken == mcontains(self.wild_paid, WILD_COST), "wild_taken", "the wild is taken exactly when both beans are paid")
        need(all(e in IMMEDIATE for e in self.used) and list(self.used) == [e for e in IMMEDIATE if e in self.used], "used",
             f"lists immediate effects among {', '.join(IMMEDIATE)}, in that order")
        need(all(t in (*FLAVOURS,) for t in self.reserve) and (rules.side == "easy" or not self.reserve), "reserve",
             "only the easy side has starting flavour tokens")
        need(not roasting or (not self.cup and not self.tray and not self.exchanged), "cup", "the cup test starts after roasting")
        need(len(self.cup) <= CUP_SPACES and all(t in TOKENS or t == SWEETNESS for t in self.cup) and MOISTURE not in self.cup,
             "cup", f"holds at most {CUP_SPACES} tokens, no moisture")
        need(self.cup.count(SWEETNESS) <= (1 if SWEETNESS in self.active else 0), "cup", "Sweetness is there only when active")
        need(len(self.tray) <= self.tray_spaces, "tray", f"holds at most {self.tray_spaces} tokens")
        need(not self.exchanged or EXCHANGE in self.active, "exchanged", "needs the Exchange cup effect")
        need(self.phase not in ("place",) or len(self.hand) == 1, "hand", "a token to place is one token")
        need(self.phase != "choose" or len(self.hand) == 2, "hand", "Choice offers two tokens")
        need(self.phase != "exchange_keep" or len(self.hand) == 3, "hand", "Exchange offers three tokens")
        need(self.phase != "remove_two" or len(self.hand) >= 3, "hand", "2 of 5 offers three to five tokens")
        need(all(is_bean(t) for t in self.supplied), "supplied", "lists beans from the box")
        now, expected = self.census()
        if now != expected:
            diff = {k: now[k] - expected[k] for k in set(now) | set(expected) if now[k] != expected[k]}
            need(False, "bag", f"tokens do not add up to the card's tokens, smoke and wild (off by {diff})")
        return self

    def __str__(self) -> str:
        who = {CHANCE: "chance", TERMINAL: "game over"}.get(self.current_player(), "player")
        rules = self.rules
        lines = [
            f"Coffee Roaster · {rules.card.name} ({rules.side} side) · round {self.round} · thermometer space {self.space} "
            f"(draws {rules.draws_at(self.space)}{', crack' if self.space in rules.thermometer.crack else ''}) · {self.phase} · {who}",
            f"bag ({len(self.bag)}): {show(self.bag)}",
        ]
        if self.drawn or self.phase in ("act", "draw"):
            lines.append(f"drawn: {show(self.drawn)}" + (f" + {self.draw_count} being drawn" if self.phase == "draw" else ""))
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
        if self.phase not in ("shuffle", "draw", "act", "remove_two", "decide"):
            lines.append(f"cup: {' '.join(self.cup) or '-'} · tray ({len(self.tray)}/{self.tray_spaces}): {show(self.tray)}")
        if self.phase == "over":
            lines.append(f"score: {self.score()}")
        return "\n".join(lines)



@lru_cache(maxsize=1)
def _shuffles() -> tuple[tuple[Shuffled, Fraction], ...]:
    from itertools import permutations

    orders = list(permutations(CUP_EFFECTS))
    return tuple((Shuffled(o), Fraction(1, len(orders))) for o in orders)


# -- JSON parsing -------------------------------------------------------------------------

def _token_list(sort: bool = True, extra: tuple[str, ...] = ()) -> Any:
    def parse(value: Any, where: str) -> tuple[str, ...]:
        items = list_of(text)(value, where)
        for t in items:
            if t not in TOKENS and t not in extra:
                raise bad(where, f"tokens are {', '.join(TOKENS + extra)}", value)
        return msort(items) if sort else items

    return parse


def _slots(value: Any, where: str) -> tuple[tuple[str, ...], ...]:
    rows = list_of(list_of(text))(value, where)
    if len(rows) != SQUARES or any(len(r) != 2 for r in rows):
        raise bad(where, "must be 5 lists of 2 slots ('' for a free slot)", value)
    if any(t not in ("", *FLAVOURS, WILD) for r in rows for t in r):
        raise bad(where, "slots hold '' or a flavour token", value)
    return rows


def _choice(options: tuple[str, ...]) -> Any:
    def parse(value: Any, where: str) -> str:
        v = text(value, where)
        if v not in options:
            raise bad(where, f"must be one of {', '.join(repr(o) for o in options)}", value)
        return v

    return parse


def _positive(value: Any, where: str) -> int:
    v = whole(value, where)
    if v < 1:
        raise bad(where, "must be 1 or more", value)
    return v


def _squares(value: Any, where: str) -> tuple[str, ...]:
    items = list_of(text)(value, where)
    if items and sorted(items) != sorted(CUP_EFFECTS):
        raise bad(where, f"must be [] or the five cup effects {', '.join(CUP_EFFECTS)} in some order", value)
    return items


def _used(value: Any, where: str) -> tuple[str, ...]:
    items = list_of(text)(value, where)
    if any(e not in IMMEDIATE for e in items):
        raise bad(where, f"immediate effects are {', '.join(IMMEDIATE)}", value)
    return items


_FIELD_PARSERS = {
    "phase": _choice(PHASES),
    "squares": _squares,
    "slots": _slots,
    "space": whole,
    "round": _positive,
    "bag": _token_list(),
    "drawn": _token_list(),
    "reserve": _token_list(),
    "hand": _token_list(sort=False),
    "draw_count": whole,
    "draw_for": _choice(("",) + DRAW_FOR),
    "smoke": list_of(whole),
    "wild_paid": _token_list(),
    "wild_taken": flag,
    "used": _used,
    "paid": _token_list(),
    "flavour_used": flag,
    "cup": _token_list(sort=False, extra=(SWEETNESS,)),
    "tray": _token_list(),
    "exchanged": flag,
    "removed": _token_list(),
    "supplied": _token_list(),
}
State.GAME, State.FORMAT, State.FIELD_PARSERS = "roaster", STATE_FORMAT, _FIELD_PARSERS


# -- the game -----------------------------------------------------------------------------

class Game(GameBase):
    """Coffee Roaster, solo, on one coffee card; ``options`` are :class:`~.rules.Rules` fields.

    >>> game = Game(card="Kenya AA", side="easy")
    >>> s = game.new_initial_state(seed=1)
    >>> s.phase, s.reserve, s.space, game.options
    ('draw', ('body', 'acidity'), 4, {'card': 'Kenya AA', 'side': 'easy'})
    """

    name = "roaster"
    action_kinds = ACTION_KINDS
    state_class = State

    def __init__(self, card: Any = "Mexico Altura Oaxaca", side: str = "full", **options: Any) -> None:
        self.rules = Rules(card=card, side=side, **options)
        shown = {k: str(v) if isinstance(v, Path) else v for k, v in options.items()}  # JSON-ready for saved walkthroughs
        self.options: dict[str, Any] = {"card": self.rules.card.name, "side": side, **shown}

    def new_initial_state(self, seed: int | None = None) -> State:
        """The game after setup: chance shuffling the cup effects onto the squares (with ``seed``, already shuffled)."""
        rules = self.rules
        bag = rules.card.bag
        reserve: tuple[str, ...] = ()
        if rules.side == "easy":  # one of each flavour from the card's tokens (those the card has: Ruling)
            reserve = msort(f for f in EASY_FLAVOURS if f in bag)
            bag = mremove(bag, reserve)
        state = State(rules=rules, space=rules.start_space, bag=bag, reserve=reserve, smoke=rules.thermometer.smoke)
        if seed is not None:
            state = state.apply(state.sample_chance(np.random.default_rng(seed)))
        return state



__all__ = [
    "ACTION_KINDS", "Concentrate", "Continue", "Disperse", "Drawn", "Exchange", "Game", "Keep", "KeepTwo", "NewTwo",
    "NoExchange", "PayWild", "PlusTwo", "Preserve", "RemoveBad", "RemoveTwo", "Roast", "Shuffled", "State", "Stop",
    "ToCup", "ToTray", "TwoOfFive", "draw_outcome_count", "draw_outcomes",
]
