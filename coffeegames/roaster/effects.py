"""The roasting round's effects: which may be used now, what they cost, and what each does.

Used between a round's draw and :class:`~.actions.Roast` (docs/rules/roaster.md, "Effects"):
the wild flavour (paid with a level-0 and a level-1 bean), the four immediate effects paid
with flavour tokens (+2 tokens, 2 new tokens, 2 of 5, remove) and the three flavour effects
(Body → Concentrate, Acidity → Preserve, Aroma → Disperse), one flavour effect a round.
Each function takes and returns a :class:`~.state.State` (its transitions call them, and
they build the next state with the State's own ``_with`` and ``_begin_draw``: this module is
the State's roasting-round half, split off so each file reads in one sitting);
:func:`effect_actions` lists the legal ones.

Example:
    >>> payments(["any", "aroma"], ["aroma", "body", "wild"])
    [('aroma', 'wild'), ('body', 'aroma'), ('body', 'wild')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from ..engine import IllegalAction
from .actions import (
    IMMEDIATE_ACTIONS, Concentrate, Disperse, NewTwo, PayWild, Phase, PlusTwo, Preserve, RemoveBad, RemoveTwo,
    Roast, TwoOfFive, _made,
)
from .data import IMMEDIATE
from .rules import FLAVOUR_EFFECTS, WILD_COST
from .tokens import ANY, BAD, BEANS, WILD, bean, madd, mcontains, mpairs, mremove, msort

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "effect_actions", "fits", "flavour_actions", "free_slot", "immediate_possible", "pay_wild", "payments", "remove_two",
    "take", "use_flavour", "use_immediate",
]

S = TypeVar("S", bound="State")
_EFFECT_OF = {v: k for k, v in FLAVOUR_EFFECTS.items()}  # effect name → flavour kind


def fits(token: str, slot: str) -> bool:
    """Whether a flavour ``token`` may fill a slot of colour ``slot``: its own colour or a multicolour slot; the wild
    flavour fills any (Rule).

    >>> fits("aroma", "any"), fits("wild", "body"), fits("aroma", "body")
    (True, True, False)
    """
    return token == WILD or slot == ANY or token == slot


_LEVELS = {b: i for i, b in enumerate(BEANS)}


def _level(bean_: str) -> int:
    """The roast level of a roasted bean (levels 0-4)."""
    return _LEVELS[bean_]


def payments(cost: Sequence[str], pool: Sequence[str]) -> list[tuple[str, ...]]:
    """Every multiset of flavour tokens from ``pool`` that fills the slots ``cost`` (one token per slot)."""
    found: set[tuple[str, ...]] = set()
    if len(pool) < len(cost):  # one token a slot: too few tokens pay nothing
        return []

    def rec(i: int, left: Counter[str], chosen: tuple[str, ...]) -> None:
        if i == len(cost):
            found.add(msort(chosen))
            return
        for t in sorted(left):
            if left[t] and fits(t, cost[i]):
                left[t] -= 1
                rec(i + 1, left, chosen + (t,))
                left[t] += 1

    rec(0, Counter(pool), ())
    return sorted(found)


# -- which effects, paid how -------------------------------------------------------------


@lru_cache(maxsize=1024)
def _payments(cost: tuple[str, ...], pool: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """:func:`payments`, kept: a round's pool of flavour tokens comes back again and again."""
    return tuple(payments(cost, pool))


def take(state: S, tokens: Sequence[str]) -> S:
    """Take flavour tokens from the drawn ones first, then from the reserve (Ruling: the player does not choose)."""
    drawn, reserve = _taken(state.drawn, state.reserve, tokens)
    return state._with(drawn=drawn, reserve=reserve)


def _taken(drawn: Sequence[str], reserve: Sequence[str], tokens: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The drawn tokens and the reserve left once :func:`take` took ``tokens``."""
    left, kept = list(drawn), list(reserve)
    for t in tokens:
        if t in left:
            left.remove(t)
        elif t in kept:
            kept.remove(t)
        else:
            raise IllegalAction(f"{t} is not among the drawn tokens or the reserve")
    return msort(left), msort(kept)


def effect_actions(state: S) -> tuple[Any, ...]:
    """Every action legal in the ``act`` phase: the wild flavour, immediate effects (each payment), flavour effects
    (each token and square), and :class:`~.actions.Roast`."""
    actions: list[Any] = []
    drawn, pool, board = state.drawn, state.pool, state.rules.board
    if not state.flavour_used:
        if not state.wild_taken:
            actions += [_made(PayWild, b) for b in WILD_COST if b in drawn and b not in state.wild_paid]
        for effect in IMMEDIATE:
            cost = board.cost(effect)
            if len(cost) > len(pool) or effect in state.used or not immediate_possible(state, effect):
                continue  # (one token a slot: too few tokens pay nothing)
            kind = IMMEDIATE_ACTIONS[effect]
            for payment in _payments(cost, pool):
                if effect == "new_two":
                    left = _taken(drawn, state.reserve, payment)[0]
                    actions += [_made(NewTwo, payment, p) for p in mpairs(left)]
                else:
                    actions.append(_made(kind, payment))
    for flavour, effect in FLAVOUR_EFFECTS.items() if pool else ():
        tokens = [t for t in (flavour, WILD) if t in pool]
        if not tokens:
            continue
        squares = _free_squares(board.cup_slots, state.slots, flavour)
        if not squares:
            continue
        kind, choices = _flavour_choices(state, effect)
        for t in tokens:
            for i in squares:
                actions += [_made(kind, *choice, t, i) for choice in choices]
    actions.append(_ROAST)
    return tuple(actions)


_ROAST = Roast()


def immediate_possible(state: S, effect: str) -> bool:
    """Whether an immediate effect can do anything now (+2 tokens: 2 in the bag; 2 of 5: 5; 2 new tokens: 2 drawn;
    remove: a bad token drawn, a Ruling)."""
    if effect == "plus_two":
        return len(state.bag) >= 2
    if effect == "two_of_five":
        return len(state.bag) >= 5
    if effect == "new_two":
        return len(state.drawn) >= 2
    return any(t in BAD for t in state.drawn)  # remove: only with something to remove (Ruling)


def free_slot(state: S, square: int, kind: str) -> int | None:
    """The slot beside ``square`` a ``kind`` flavour goes into: a free one of its colour, else a free multicolour one."""
    return _free_slot(state.rules.board.cup_slots[square], state.slots[square], kind)


def _free_slot(colours: Sequence[str], slots: Sequence[str], kind: str) -> int | None:
    for want in (kind, ANY):
        for j, (colour, filled) in enumerate(zip(colours, slots)):
            if colour == want and not filled:
                return j
    return None


@lru_cache(maxsize=1024)
def _free_squares(colours: tuple[tuple[str, ...], ...], slots: tuple[tuple[str, ...], ...], kind: str) -> tuple[int, ...]:
    """The squares with a slot a ``kind`` flavour may fill (:func:`free_slot`), for the board's slot ``colours``."""
    return tuple(i for i, (c, s) in enumerate(zip(colours, slots)) if _free_slot(c, s, kind) is not None)


def flavour_actions(state: S, effect: str, token: str, square: int) -> list[Any]:
    """The flavour effect ``effect`` paid with ``token`` beside ``square``, on each choice of drawn beans it allows."""
    kind, choices = _flavour_choices(state, effect)
    return [_made(kind, *choice, token, square) for choice in choices]


def _flavour_choices(state: S, effect: str) -> tuple[type[Any], tuple[tuple[Any, ...], ...]]:
    """A flavour effect's action class, and each choice of drawn beans it allows: the fields of its action before the
    flavour and square."""
    if effect == "concentrate" or effect == "preserve":
        return _FLAVOUR_KINDS[effect], _bean_choices(state.drawn, effect, state.rules.concentrate_limit)
    supply = state.rules.bean_supply
    if supply is not None and state.roasted_in_play >= supply:  # Disperse needs one more roasted token (Ruling)
        return Disperse, ()
    return Disperse, _bean_choices(state.drawn, "disperse", state.rules.concentrate_limit)


@lru_cache(maxsize=4096)
def _bean_choices(drawn: tuple[str, ...], effect: str, limit: int) -> tuple[tuple[Any, ...], ...]:
    """:func:`_flavour_choices` for these ``drawn`` tokens (Concentrate making a bean of level ``limit`` at most)."""
    beans = [t for t in drawn if t in BEANS]
    if effect == "concentrate":
        return tuple((p,) for p in mpairs([b for b in beans if 1 <= _level(b) <= 3]) if sum(_level(b) for b in p) <= limit)
    if effect == "preserve":
        return tuple((p,) for p in mpairs(beans))
    out: list[tuple[Any, ...]] = []
    for b in dict.fromkeys(b for b in beans if _level(b) >= 2):
        level = _level(b)
        for low in range(1, level // 2 + 1):
            out.append((b, (bean(low), bean(level - low))))
    return tuple(out)


_FLAVOUR_KINDS: dict[str, type[Any]] = {"concentrate": Concentrate, "preserve": Preserve, "disperse": Disperse}


def pay_wild(state: S, action: PayWild) -> S:
    """Put a level-0 or level-1 bean beside the wild flavour; both paid, the wild joins this round's drawn tokens
    (Ruling)."""
    paid = msort((*state.wild_paid, action.bean))
    new = state._with(drawn=mremove(state.drawn, [action.bean]), wild_paid=paid)
    if mcontains(paid, WILD_COST):
        new = new._with(wild_taken=True, drawn=madd(new.drawn, [WILD]))
    return new


def use_immediate(state: S, action: Any) -> S:
    """Pay for an immediate effect and use it (each once a game)."""
    effect = {PlusTwo: "plus_two", NewTwo: "new_two", TwoOfFive: "two_of_five", RemoveBad: "remove"}[type(action)]
    new = take(state, action.paid)._with(used=tuple(e for e in IMMEDIATE if e in state.used or e == effect),
                                          paid=madd(state.paid, action.paid))
    if effect == "plus_two":
        return new._begin_draw(2, "plus_two")
    if effect == "two_of_five":
        return new._begin_draw(5, "two_of_five")
    if effect == "new_two":
        new = new._with(drawn=mremove(new.drawn, action.returned), bag=madd(new.bag, action.returned))
        return new._begin_draw(2, "new_two")
    out = [t for t in new.drawn if t in BAD]
    return new._with(drawn=mremove(new.drawn, out), removed=madd(new.removed, out))


def remove_two(state: S, action: RemoveTwo) -> S:
    """2 of 5: two of the drawn tokens leave the game, the rest go back into the bag."""
    rest = mremove(state.hand, action.tokens)
    return state._with(hand=(), removed=madd(state.removed, action.tokens), bag=madd(state.bag, rest), phase=Phase.ACT)


def use_flavour(state: S, action: Any) -> S:
    """Concentrate, Preserve or Disperse: the flavour token fills a slot beside its square (its colour first, then
    a multicolour one: a Ruling); a filled square's cup effect becomes active."""
    kind = _EFFECT_OF[{Concentrate: "concentrate", Preserve: "preserve", Disperse: "disperse"}[type(action)]]
    j = free_slot(state, action.square, kind)
    assert j is not None, "a legal flavour effect has a free slot"
    new = take(state, [action.flavour])
    row = list(state.slots[action.square])
    row[j] = action.flavour
    slots = tuple(tuple(row) if i == action.square else s for i, s in enumerate(state.slots))
    new = new._with(slots=slots, flavour_used=True)
    if isinstance(action, Concentrate):
        made = bean(sum(_level(b) for b in action.beans))
        return new._with(drawn=mremove(new.drawn, action.beans), removed=madd(new.removed, action.beans),
                           supplied=madd(new.supplied, [made]), bag=madd(new.bag, [made]))
    if isinstance(action, Preserve):
        return new._with(drawn=mremove(new.drawn, action.beans), bag=madd(new.bag, action.beans))
    return new._with(drawn=mremove(new.drawn, [action.bean]), removed=madd(new.removed, [action.bean]),
                       supplied=madd(new.supplied, action.into), bag=madd(new.bag, action.into))

