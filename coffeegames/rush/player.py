"""A Coffee Rush player's board and the rules that act on it alone: completing orders, Flow of Time, scoring.

Each rule here is a pure function over plain tuples, used by the engine (:mod:`.state`)
and the best-move search (:mod:`.best`) alike, so both apply it the same way.

Example:
    >>> tabs = (("coffee+milk",), (), (), ("ice+tea",))
    >>> serve((("coffee", "milk"), ("ice",), ()), tabs)
    (((), ('ice',), ()), ((), (), (), ('ice+tea',)), ('coffee+milk',))
    >>> matching((("coffee", "milk"), ("coffee", "milk"), ("ice", "tea")), tabs)
    [(0, 2), (1, 2), (0,), (1,), (2,), ()]
    >>> flow_of_time(tabs)
    (((), ('coffee+milk',), (), ()), ('ice+tea',))
    >>> score(Player(completed=("coffee+milk",) * 2, penalties=("ice+tea",), upgrades=("diagonal",)))
    3
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from dataclasses import dataclass
from typing import Any

from ..validate import check_instance
from .data import _ARGUMENT, _names, _order_name
from .rules import CUPS, TABS

__all__ = ["Player", "add_to", "flow_of_time", "matching", "score", "serve"]

Tabs = tuple[tuple[str, ...], ...]
Cups = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Player:
    """One player's board: order tabs 1-4 (``tabs[0]`` is tab 1), cups, completed orders kept, penalty cards,
    orders discarded to flip upgrades, flipped upgrade effects, rush tokens and meeple spaces."""

    tabs: Tabs = ((),) * TABS
    cups: Cups = ((),) * CUPS
    completed: tuple[str, ...] = ()
    penalties: tuple[str, ...] = ()
    discarded: tuple[str, ...] = ()
    upgrades: tuple[str, ...] = ()
    rush: int = 0
    meeples: tuple[int, ...] = ()

    @property
    def orders(self) -> tuple[str, ...]:
        """Every order waiting on the tabs (tab 1 first)."""
        return tuple(o for tab in self.tabs for o in tab)

    def cards(self) -> int:
        """Order cards this player holds in any form (tabs, completed, penalties, discarded)."""
        return len(self.orders) + len(self.completed) + len(self.penalties) + len(self.discarded)


def _groups(value: Any, where: str) -> tuple[tuple[str, ...], ...]:
    """A list or tuple of cups or tabs, each a list or tuple of names."""
    return _ARGUMENT.sequence(value, where, _names)


def _plain(groups: Any) -> bool:
    """A tuple of tuples (cups or tabs as the engine holds them): cheap to tell, so the search is not slowed."""
    return type(groups) is tuple and all(type(group) is tuple for group in groups)


def add_to(cup: Iterable[str], ingredients: Iterable[str]) -> tuple[str, ...]:
    """A cup's contents after adding ``ingredients`` (a sorted tuple: cups are multisets).

    Tuples (the engine's own cups, thousands of times in a best-move search) go straight through; anything else is
    checked first, so a string is never read letter by letter.

    >>> add_to(("milk",), ["coffee"])
    ('coffee', 'milk')
    """
    if type(cup) is tuple and type(ingredients) is tuple:
        try:
            return tuple(sorted((*cup, *ingredients)))
        except TypeError:  # names mixed with other things: the checks below name the argument
            pass
    return tuple(sorted((*_names(cup, "cup"), *_names(ingredients, "ingredients"))))


def serve(cups: Cups, tabs: Tabs) -> tuple[Cups, Tabs, tuple[str, ...]]:
    """Complete every order a cup matches exactly: ``(cups, tabs, orders completed)`` after.

    Cups are served in order (cup 1 first); a cup matching several waiting orders completes
    the one on the highest tab (nearest to a penalty: Ruling, the dominant choice, as the
    orders are identical) and is emptied. A cup matching none keeps its contents.
    """
    if _plain(cups) and _plain(tabs):  # the engine's own tuples (the best-move search): no more checks
        try:
            return _serve(cups, tabs)
        except TypeError:  # not names inside: the checks below name the argument
            pass
    return _serve(_groups(cups, "cups"), _groups(tabs, "tabs"))


def matching(cups: Cups, tabs: Tabs) -> list[tuple[int, ...]]:
    """Every set of cups that may complete orders together (0-based, each cup completing one waiting order, served
    as :func:`serve` serves), the largest first, then in cup order; the last is ``()``, completing nothing (Rule:
    completing an order is optional)."""
    if not (_plain(cups) and _plain(tabs)):
        cups, tabs = _groups(cups, "cups"), _groups(tabs, "tabs")
    return _matching(cups, tabs)


def _matching(cups: Cups, tabs: Tabs) -> list[tuple[int, ...]]:
    """:func:`matching` without the checks."""
    waiting = {o for tab in tabs for o in tab}
    able = [c for c, cup in enumerate(cups) if cup and _order_name(cup) in waiting]
    found = [chosen for k in range(len(able), -1, -1) for chosen in combinations(able, k)]
    return [chosen for chosen in found if len(_serve(cups, tabs, chosen)[2]) == len(chosen)]


def _serve(cups: Cups, tabs: Tabs, only: tuple[int, ...] | None = None) -> tuple[Cups, Tabs, tuple[str, ...]]:
    """:func:`serve` without the checks (the engine's own cups and tabs); ``only``: serve just these cups."""
    tabs_now = [list(tab) for tab in tabs]
    cups_now = list(cups)
    done: list[str] = []
    for c, cup in enumerate(cups):
        if not cup or (only is not None and c not in only):
            continue
        name = _order_name(cup)
        for t in reversed(range(len(tabs_now))):
            if name in tabs_now[t]:
                tabs_now[t].remove(name)
                cups_now[c] = ()
                done.append(name)
                break
    return tuple(cups_now), tuple(tuple(t) for t in tabs_now), tuple(done)


def flow_of_time(tabs: Tabs) -> tuple[Tabs, tuple[str, ...]]:
    """Every order moves one tab down: ``(tabs, orders pushed off the last tab)``; those become penalty cards."""
    if not (_plain(tabs) and tabs):  # the engine's own tuples go straight through
        tabs = _ARGUMENT.sequence(tabs, "tabs", _names, low=1)
    return ((), *tabs[:-1]), tabs[-1]


def score(player: Player) -> int:
    """+1 per completed order kept, +2 per flipped upgrade, -1 per penalty card (Fact)."""
    check_instance(player, Player, "player", "a Coffee Rush Player (a state's players[i])")
    return len(player.completed) + 2 * len(player.upgrades) - len(player.penalties)
