"""Deals typed as text, as a player at a real table reads them: the one text syntax of Coffee Rush's orders.

Orders are typed everywhere in the game with their ingredients joined by ``+`` and orders separated by commas
(:func:`~coffeegames.rush.parse_orders`: the command line's ``--seen``, the deck explorer); one order alone
(:func:`~coffeegames.rush.odds.parse_order`, the walkthrough's deal box) also reads its ingredients separated by
spaces or commas, as aliases. :func:`parse_outcome` reads the order card dealt at a chance node,
:func:`outcome_hint` says what to type there and :func:`outcome_example` gives one to type.

Example:
    >>> from coffeegames.rush import Game
    >>> state = Game(players=3).new_initial_state()
    >>> parse_outcome(outcome_example(state), state)
    Drawn(order='coffee+coffee')
"""

from __future__ import annotations

from ..engine import BadEntry, IllegalAction
from ..validate import check_instance
from .actions import Drawn
from .data import order_name
from .odds import parse_order, parse_orders
from .state import State

__all__ = ["outcome_example", "outcome_hint", "parse_order", "parse_orders", "parse_outcome"]

def outcome_example(state: State) -> str | None:
    """An order card the deck can give here, typed as :func:`parse_outcome` reads it (None where nothing is typed).

    >>> from coffeegames.rush import Game
    >>> outcome_example(Game(players=3).new_initial_state())
    'coffee+coffee'
    """
    check_instance(state, State, "state", "a Coffee Rush state")
    if not state.is_chance() or state.is_terminal():
        return None
    outcome = state.chance_outcomes()[0][0]
    assert isinstance(outcome, Drawn)
    return outcome.order


def outcome_hint(state: State) -> str:
    """What to type at a deal: the order's ingredients joined by ``+``.

    >>> from coffeegames.rush import Game
    >>> outcome_hint(Game(players=3).new_initial_state())
    'the order card drawn for player 0 (its ingredients), e.g. coffee+coffee'
    """
    check_instance(state, State, "state", "a Coffee Rush state")
    if not state.is_chance():
        return "no order is being drawn now"
    who = state.deals[0][0] if state.deals else 0
    return f"the order card drawn for player {who} (its ingredients), e.g. {outcome_example(state)}"


def parse_outcome(text: str, state: State) -> Drawn:
    """The order card typed at a deal, as every order of the game is typed (:func:`~coffeegames.rush.odds.parse_order`):
    its ingredients joined by ``+`` (``coffee+milk``; separated by spaces or commas reads the same).

    >>> from coffeegames.rush import Game
    >>> s = Game(players=3).new_initial_state()
    >>> parse_outcome("milk+coffee", s), parse_outcome("milk, coffee", s)
    (Drawn(order='coffee+milk'), Drawn(order='coffee+milk'))
    >>> parse_outcome("milk", s)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadEntry: an order needs 2-4 ingredients (you typed 1)
    """
    check_instance(text, str, "text", "the order typed as text, e.g. coffee+milk")
    check_instance(state, State, "state", "a Coffee Rush state")
    if not state.is_chance():
        raise IllegalAction("no order is being drawn now: the outcome box is for order cards dealt")
    words = parse_order(text)
    if not 2 <= len(words) <= 4:
        raise BadEntry(f"an order needs 2-4 ingredients (you typed {len(words)})")
    known = state.rules.board.ingredients
    for word in words:
        if word not in known:
            raise BadEntry(f"{word!r} is not an ingredient; they are {', '.join(known)}")
    outcome = Drawn(order_name(words))
    if not state.is_legal_outcome(outcome):
        raise IllegalAction(f"{outcome.order} cannot be drawn: the deck has no such card left")
    return outcome
