"""The cup test's transitions, as functions of a Coffee Roaster state (docs/rules/roaster.md, "The cup test").

:class:`~.state.State` dispatches the cup test's moves and draws here, as it dispatches the roasting round's effects
to :mod:`.effects`: the tokens drawn one at a time, placed in the cup or on the tray, Choice, Exchange and the end.
The solvers that value a cup test are in ``cup*.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..engine import IllegalAction
from .actions import Exchange, Keep, KeepTwo, Phase, ReserveToBag, ToCup, ToTray
from .data import CUP_SPACES
from .tokens import CHOICE, EXCHANGE, MOISTURE, SWEETNESS, madd, mcontains, mremove, msort, show

if TYPE_CHECKING:
    from .state import State

__all__ = ["cup_next", "cup_space", "drawn_one", "exchange", "keep", "keep_two", "placed", "reserve_to_bag", "start_cup",
           "to_cup", "to_tray", "without"]

S = TypeVar("S", bound="State")
_CUP_DRAW, _PLACING = Phase.CUP_DRAW, Phase.PLACE


def cup_space(cup: tuple[str, ...], active: tuple[str, ...], sweetness_space: int) -> int:
    """:attr:`~.state.State.cup_space` of a cup with these cup effects ``active``."""
    filled = len(cup) - (SWEETNESS in cup)
    return filled + (SWEETNESS in active and filled >= sweetness_space)


def without(bag: tuple[str, ...], tokens: Iterable[str]) -> tuple[str, ...]:
    """``mremove(bag, tokens)`` for a bag (a sorted multiset, as every bag of a state is): what is left is sorted
    already, so it is not sorted again."""
    left = list(bag)
    for t in tokens:
        left.remove(t)
    return tuple(left)


def to_cup(state: S, _: ToCup) -> S:
    """The drawn token goes into the cup."""
    return cup_next(state, placed(state, state.hand), state.bag, hand=())


def to_tray(state: S, _: ToTray) -> S:
    """The drawn token goes onto the tray."""
    return cup_next(state, state.cup, state.bag, tray=madd(state.tray, state.hand), hand=())


def start_cup(state: S) -> S:
    """The roasting ends: the easy side's starting flavours go to the bag (the player's choice with option
    ``reserve_choice``, rules_version 2 on), then the cup test begins."""
    if state.reserve and state.rules.reserve_choice:  # the player's choice, token by token (Rule)
        return state._with(phase=Phase.RESERVE, flavour_used=False)
    if state.reserve and state.rules.reserve_to_bag:  # without the choice (rules_version 1): all forced into the bag
        return cup_next(state, state.cup, madd(state.bag, state.reserve), reserve=(), flavour_used=False)
    return cup_next(state, state.cup, state.bag, flavour_used=False)


def reserve_to_bag(state: S, action: ReserveToBag) -> S:
    """The chosen starting flavour tokens go into the bag; the cup test begins."""
    if not mcontains(state.reserve, action.tokens):
        raise IllegalAction(f"{show(action.tokens)} are not all starting flavour tokens on the board")
    return cup_next(state, state.cup, madd(state.bag, action.tokens), reserve=mremove(state.reserve, action.tokens))


def placed(state: S, tokens: Sequence[str]) -> tuple[str, ...]:
    """The cup with ``tokens`` put in its next spaces (before Sweetness while the spaces before its own fill)."""
    cup = list(state.cup)
    space = state.rules.board.sweetness_space
    for t in tokens:
        at = cup.index(SWEETNESS) if SWEETNESS in cup else len(cup)
        cup.insert(at if at < space else len(cup), t)
    return tuple(cup)


def cup_next(state: S, cup: tuple[str, ...], bag: tuple[str, ...], **changes: Any) -> S:
    """``state._with(cup=cup, bag=bag, **changes).next_cup_space()`` in one copy (``changes`` leave the squares,
    slots and ``exchanged`` as they are)."""
    rules, active = state.rules, state.active
    sweetness = rules.board.sweetness_space
    position = cup_space(cup, active, sweetness)
    if SWEETNESS in active and SWEETNESS not in cup and (rules.sweetness_from_start or position == sweetness + 1):
        # on its space from the start of the cup test (Rule, option sweetness_from_start); else when filling reaches it
        at = min(len(cup), sweetness)
        cup = cup[:at] + (SWEETNESS,) + cup[at:]
        position = cup_space(cup, active, sweetness)
    if position >= CUP_SPACES:
        phase = Phase.EXCHANGE if EXCHANGE in active and not state.exchanged else Phase.OVER
    elif not bag:
        phase = Phase.OVER
    else:
        phase = Phase.CHOICE_DRAW if CHOICE in active and position in rules.board.choice_spaces else _CUP_DRAW
    return state._with(cup=cup, bag=bag, phase=phase, **changes)


def drawn_one(state: S, token: str) -> S:
    """A token drawn in the cup test (one at a time): moisture leaves and another is drawn; else it waits to be
    placed, goes into the cup (tray full), or joins the tokens drawn for Choice or Exchange."""
    phase = state.phase
    bag = without(state.bag, (token,))
    if token == MOISTURE:  # leaves the game; draw again
        removed = madd(state.removed, [token])
        if phase == _CUP_DRAW:
            return cup_next(state, state.cup, bag, removed=removed)
        after = state._with(bag=bag, removed=removed)
    else:
        hand = state.hand + (token,)
        if phase == _CUP_DRAW:
            if len(state.tray) >= state.tray_spaces:  # no room on the tray: into the cup
                return cup_next(state, placed(state, hand), bag, hand=())
            return state._with(bag=bag, hand=hand, phase=_PLACING)
        after = state._with(bag=bag, hand=hand)
    want = 2 if phase == Phase.CHOICE_DRAW else 3
    if len(after.hand) < want and after.bag:
        return after
    if phase == Phase.CHOICE_DRAW:
        if not after.hand:
            return after._with(phase=Phase.OVER)
        if len(set(after.hand)) == 1:
            return keep(after, Keep(after.hand[0]))
        return after._with(phase=Phase.CHOOSE)
    if len(after.hand) <= 2:
        return after._with(cup=after.cup + msort(after.hand), hand=(), phase=Phase.OVER)
    return after._with(phase=Phase.EXCHANGE_KEEP)


def keep(state: S, action: Keep) -> S:
    """Choice: the kept token goes into the cup, the other back into the bag."""
    rest = mremove(state.hand, [action.token])
    return cup_next(state, placed(state, [action.token]), madd(state.bag, rest), hand=())


def exchange(state: S, action: Exchange) -> S:
    """Exchange: two cup tokens go back into the bag; three are drawn."""
    cup = list(state.cup)
    for t in action.returned:
        del cup[len(cup) - 1 - cup[::-1].index(t)]
    return state._with(cup=tuple(cup), bag=madd(state.bag, action.returned), exchanged=True, phase=Phase.EXCHANGE_DRAW)


def keep_two(state: S, action: KeepTwo) -> S:
    """Exchange: two of the three drawn go into the cup, the third back into the bag; the game ends."""
    rest = mremove(state.hand, action.tokens)
    return state._with(cup=state.cup + action.tokens, hand=(), bag=madd(state.bag, rest), phase=Phase.OVER)
