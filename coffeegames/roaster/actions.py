"""Coffee Roaster's moves: the phases of a game, the player's actions and chance's outcomes.

Every action and chance outcome is a small frozen dataclass (hashable, JSON through
:func:`coffeegames.engine.action_to_json`); token lists in them are sorted multisets
(:mod:`.tokens`). :class:`Phase` names the steps of a game (docs/rules/roaster.md, "A
round" and "The cup test"); it is a ``StrEnum``, so a saved game keeps the same strings.

Example:
    >>> str(Drawn(("aroma", "hard", "hard"))), Phase.DECIDE == "decide", Phase("over")
    ('drew hard×2 aroma', True, 'over')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from enum import StrEnum
from typing import Any, TypeVar

from ..engine.actions import action
from ..errors import BadArgument, BadType
from ..text import action_words
from .tokens import CUP_EFFECT_NAMES, TOKENS, msort, roast_level, show

__all__ = [
    "WORDS",
    "describe",
    "ACTION_KINDS", "CHANCE_PHASES", "CUP_TEST_PHASES", "Concentrate", "Continue", "DRAW_FOR", "Disperse", "Drawn",
    "Exchange", "IMMEDIATE_ACTIONS", "Keep", "KeepTwo", "NewTwo", "NoExchange", "PayWild", "Phase", "PlusTwo",
    "Preserve", "ROASTING_PHASES", "RemoveBad", "RemoveTwo", "ReserveToBag", "Roast", "Shuffled", "Stop", "ToCup", "ToTray",
    "TwoOfFive",
]


class Phase(StrEnum):
    """The step a game is at. Chance acts in ``SHUFFLE``, ``DRAW``, ``CUP_DRAW``, ``CHOICE_DRAW`` and
    ``EXCHANGE_DRAW``; the player in the others; ``OVER`` ends the game. Shown (``repr``) as its string,
    so tables and saved games read as before."""

    SHUFFLE = "shuffle"
    """Chance lays the five cup effects on the square spaces."""
    DRAW = "draw"
    """Chance draws ``draw_count`` tokens, for the round or for an effect (``draw_for``)."""
    ACT = "act"
    """The player uses effects, then roasts."""
    REMOVE_TWO = "remove_two"
    """*2 of 5*: the player removes two of the tokens drawn."""
    DECIDE = "decide"
    """The player continues roasting or stops."""
    RESERVE = "reserve"
    """The roasting ends (easy side, ``rules_version`` 2): the player puts starting flavour tokens into the bag, or not."""
    CUP_DRAW = "cup_draw"
    """Cup test: chance draws one token."""
    PLACE = "place"
    """Cup test: the player puts the token in the cup or on the tray."""
    CHOICE_DRAW = "choice_draw"
    """Cup test, Choice: chance draws two tokens, one at a time."""
    CHOOSE = "choose"
    """Cup test, Choice: the player keeps one of the two."""
    EXCHANGE = "exchange"
    """Cup test, Exchange: the player returns two cup tokens, or not."""
    EXCHANGE_DRAW = "exchange_draw"
    """Cup test, Exchange: chance draws three tokens, one at a time."""
    EXCHANGE_KEEP = "exchange_keep"
    """Cup test, Exchange: the player keeps two of the three."""
    OVER = "over"
    """The game is over: the cup is scored."""

    def __repr__(self) -> str:
        return repr(self.value)


CHANCE_PHASES: tuple[Phase, ...] = (Phase.SHUFFLE, Phase.DRAW, Phase.CUP_DRAW, Phase.CHOICE_DRAW, Phase.EXCHANGE_DRAW)
"""The phases where chance acts."""
ROASTING_PHASES: tuple[Phase, ...] = (Phase.SHUFFLE, Phase.DRAW, Phase.ACT, Phase.REMOVE_TWO, Phase.DECIDE, Phase.RESERVE)
"""The phases before the cup test."""
CUP_TEST_PHASES: tuple[Phase, ...] = (Phase.PLACE, Phase.CHOOSE, Phase.EXCHANGE, Phase.EXCHANGE_KEEP)
"""The cup test's decisions."""
DRAW_FOR: tuple[str, ...] = ("round", "plus_two", "new_two", "two_of_five")
"""What a pending draw is for: the round, or an immediate effect."""


def _tokens(value: Any, where: str) -> tuple[str, ...]:
    """A multiset of bag tokens given to an action, checked and sorted."""
    if type(value) is not tuple:
        if isinstance(value, (str, bytes, dict)) or not isinstance(value, Iterable):
            raise BadType(where, "must be a list of tokens such as ['bean2', 'aroma']", value)
    items = tuple(value)
    try:
        known = _TOKEN_SET.issuperset(items)
    except TypeError:  # an unhashable item
        known = False
    if not known:
        raise BadArgument(where, f"must hold tokens among {', '.join(TOKENS)}", value)
    return msort(items)


_TOKEN_SET = frozenset(TOKENS)
T = TypeVar("T")


def _made(kind: type[T], *values: Any) -> T:
    """``kind(*values)`` without its checks, for values the engine made itself (token lists already sorted multisets
    of bag tokens): the lists of legal actions and the draws of ``State.sample_chance`` are built this way."""
    made = object.__new__(kind)
    made.__dict__.update(zip(_FIELDS[kind], values))
    return made


# -- chance outcomes, then actions ---------------------------------------------------------

@action()
class Shuffled:
    """Chance: the five cup effect tokens in the order they land on the roast board's square spaces."""

    order: tuple[str, ...]

    def __post_init__(self) -> None:
        if isinstance(self.order, (str, bytes)) or not hasattr(self.order, "__iter__"):
            raise BadType("order", "must be the cup effects in the order they land, a list", self.order)
        object.__setattr__(self, "order", tuple(self.order))

    def __str__(self) -> str:
        return "cup effects on the squares: " + ", ".join(CUP_EFFECT_NAMES.get(e, e) for e in self.order)


@action(lambda a: f"drew {show(a.tokens)}", tokens=_tokens)
class Drawn:
    """Chance: the tokens drawn from the bag (a multiset).

    >>> str(Drawn(("aroma", "hard", "hard")))
    'drew hard×2 aroma'
    """

    tokens: tuple[str, ...]


@action("PayWild({bean})")
class PayWild:
    """Put a drawn ``bean`` (level 0 or 1) on its space beside the wild flavour; both filled → take the wild."""

    bean: str


@action(lambda a: f"PlusTwo(pay {show(a.paid)})", paid=_tokens)
class PlusTwo:
    """Immediate effect +2 tokens: pay ``paid`` (flavour tokens) and draw 2 more."""

    paid: tuple[str, ...]


@action(lambda a: f"NewTwo(pay {show(a.paid)}, return {show(a.returned)})", paid=_tokens, returned=_tokens)
class NewTwo:
    """Immediate effect 2 new tokens: pay ``paid``, put the drawn tokens ``returned`` back in the bag, draw 2."""

    paid: tuple[str, ...]
    returned: tuple[str, ...]


@action(lambda a: f"TwoOfFive(pay {show(a.paid)})", paid=_tokens)
class TwoOfFive:
    """Immediate effect 2 of 5: pay ``paid``, draw 5, remove 2 of them from the game, return the rest."""

    paid: tuple[str, ...]


@action(lambda a: f"RemoveBad(pay {show(a.paid)})", paid=_tokens)
class RemoveBad:
    """Immediate effect remove: pay ``paid``; drawn burnt beans, smoke and defect beans leave the game."""

    paid: tuple[str, ...]


@action(lambda a: f"RemoveTwo({show(a.tokens)})", tokens=_tokens)
class RemoveTwo:
    """2 of 5: these two of the five drawn tokens leave the game (the others go back in the bag)."""

    tokens: tuple[str, ...]


@action(beans=_tokens)
class Concentrate:
    """Body → Concentrate: merge two drawn beans (levels 1-3) into one of their summed level, into the bag.

    ``flavour`` is the token spent (``"body"`` or ``"wild"``), placed beside square ``square``.

    >>> str(Concentrate(("bean2", "bean1"), "body", 0))
    'Concentrate(bean1+bean2 → bean3, body at square 0)'
    """

    beans: tuple[str, ...]
    flavour: str
    square: int

    def __str__(self) -> str:
        total = sum(roast_level(b) or 0 for b in self.beans)
        return f"Concentrate({'+'.join(self.beans)} → bean{total}, {self.flavour} at square {self.square})"


@action(lambda a: f"Preserve({'+'.join(a.beans)}, {a.flavour} at square {a.square})", beans=_tokens)
class Preserve:
    """Acidity → Preserve: put exactly two drawn beans (levels 0-4) back in the bag unroasted."""

    beans: tuple[str, ...]
    flavour: str
    square: int


@action(lambda a: f"Disperse({a.bean} → {'+'.join(a.into)}, {a.flavour} at square {a.square})", into=_tokens)
class Disperse:
    """Aroma → Disperse: split a drawn bean of level 2-4 into two lower beans ``into`` of the same total, into the bag."""

    bean: str
    into: tuple[str, ...]
    flavour: str
    square: int


@action()
class Roast:
    """End the effects: roast the drawn beans and put every drawn token back in the bag."""


@action()
class Continue:
    """Roast another round: the marker moves one space right."""


@action()
class Stop:
    """Stop roasting and cup-test."""


@action(tokens=_tokens)
class ReserveToBag:
    """Easy side, when the roasting ends: put these starting flavour tokens into the bag; the others stay on the board
    (they do not score). The player's choice, token by token (Rule).

    >>> str(ReserveToBag(("body", "aroma"))), str(ReserveToBag(()))
    ('ReserveToBag(body+aroma into the bag)', 'ReserveToBag(none: all stay on the board)')
    """

    tokens: tuple[str, ...]

    def __str__(self) -> str:
        return f"ReserveToBag({'+'.join(self.tokens)} into the bag)" if self.tokens else "ReserveToBag(none: all stay on the board)"


@action()
class ToCup:
    """Put the token just drawn into the next cup space."""


@action()
class ToTray:
    """Put the token just drawn on the cardboard tray (it will not score)."""


@action("Keep({token})")
class Keep:
    """Choice: keep ``token`` (of the two drawn) in the cup space; the other goes back in the bag."""

    token: str


@action(lambda a: f"Exchange(return {show(a.returned)})", returned=_tokens)
class Exchange:
    """Exchange: put these two cup tokens back in the bag, draw 3 and keep 2."""

    returned: tuple[str, ...]


@action()
class NoExchange:
    """Do not use the Exchange cup effect: the cup test ends."""


@action(lambda a: f"KeepTwo({show(a.tokens)})", tokens=_tokens)
class KeepTwo:
    """Exchange: keep these two of the three drawn tokens in the cup; the third goes back in the bag."""

    tokens: tuple[str, ...]


ACTION_KINDS: tuple[type, ...] = (
    Shuffled, Drawn, PayWild, PlusTwo, NewTwo, TwoOfFive, RemoveBad, RemoveTwo, Concentrate, Preserve, Disperse,
    Roast, Continue, Stop, ToCup, ToTray, Keep, Exchange, NoExchange, KeepTwo, ReserveToBag,
)
"""Every action and chance-outcome class, for JSON."""
_FIELDS: dict[type, tuple[str, ...]] = {kind: tuple(f.name for f in fields(kind)) for kind in ACTION_KINDS}
IMMEDIATE_ACTIONS: dict[str, type[Any]] = {"plus_two": PlusTwo, "new_two": NewTwo, "two_of_five": TwoOfFive, "remove": RemoveBad}
"""The action paying for each immediate effect."""


WORDS = {
    "PayWild": "Pay toward the wild flavour", "PlusTwo": "+2 tokens", "NewTwo": "New two", "TwoOfFive": "2 of 5",
    "RemoveBad": "Remove a bad token", "RemoveTwo": "Remove", "Concentrate": "Concentrate", "Preserve": "Preserve",
    "Disperse": "Disperse", "Roast": "Roast", "Continue": "Roast another round", "Stop": "Stop roasting: the cup test",
    "ReserveToBag": "Starting flavours", "ToCup": "Put it in the cup", "ToTray": "Put it on the tray", "Keep": "Keep",
    "Exchange": "Exchange", "NoExchange": "No exchange", "KeepTwo": "Keep",
}
"""Each action's name in a player's words (by class name), for :func:`describe`."""


def describe(action: object) -> str:
    """An action as a player reads it (the views show this; ``str`` stays the short code of saved logs).

    >>> describe(NewTwo(paid=("acidity",), returned=("hard", "bean0"))), describe(ToCup())
    ('New two: pay acidity, return hard bean0', 'Put it in the cup')
    """
    return action_words(action, WORDS)
