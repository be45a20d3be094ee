"""The exact best move of a turn: every legal path × every way to empty and pour, each valued exactly.

A *plan* is the rest of the current player's turn, from the decision they face now to the
end of their pour: an upgrade (or none), a move, which cups to empty and the pour. Once
the pour is made everything else in the turn is fixed by the rules (completing orders,
Specialty rush tokens, Flow of Time), except the orders dealt to *other* players, which
never change this player's score this turn. So each plan has an exact value, computed
with the engine's own rules (:func:`.player.serve`, :func:`.player.flow_of_time`):

**The immediate value of a plan** (``value``) is the change in the player's score from
now to the end of this turn: ``+1`` per order it completes, ``-1`` per penalty card this
turn's Flow of Time gives (the orders left on tab 4), and ``-1`` for an upgrade flipped
(the tile's ``+2`` minus the three completed orders, ``+1`` each, discarded for it).
Beside it, never added to it: ``rush`` (rush tokens gained this turn, Specialty orders
and penalties, as far as the supply holds, minus those spent on the move) and
``progress`` (ingredients left in cups that are part of some order still waiting after
Flow of Time: a cup counts its size if its contents fit inside one such order, else 0).
Plans are ranked by ``(value, rush, progress)``, highest first; ties keep the order in
which the plans are listed (upgrades first as the engine lists them, then moves as
:meth:`.state.State.moves` lists them, then the cups emptied, then the pours).

The search is exhaustive: every move is tried; moves collecting the same ingredients with the
same rush tokens share their pours; the pours tried are every pour no other pour beats
(:func:`live_pours`: each cup it changes ends empty or holding part of a waiting order),
listing once the pours that only swap interchangeable cups; every distinct set of cups
after the pour is valued once. ``plans(state, every=True)`` lists every legal plan
instead, and the tests check the two agree on the best value.

Example:
    >>> from coffeegames.rush.state import Game
    >>> from coffeegames.rush.actions import Drawn, Place
    >>> s = Game(players=3).new_initial_state()
    >>> for order in ["coffee+milk", "coffee+ice", "ice+milk", "coffee+steam", "ice+tea", "coffee+coffee", "milk+tea"]:
    ...     s = s.apply(Drawn(order))
    >>> for space in (15, 10, 0):
    ...     s = s.apply(Place(space))
    >>> best = best_moves(s, top=3)
    >>> print(best.loc[0, "move"], "|", best.loc[0, "pour"], "|", best.loc[0, "completed"], "|", best.loc[0, "value"])
    meeple 1: a1→a2→a3→b3 | pour: cup 1 ice, cup 2 coffee+milk | coffee+ice, coffee+milk | 2
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..errors import BadArgument
from .actions import Empty, Move, NoUpgrade, Phase, Pour, Upgrade
from .data import order_needs
from .player import add_to, flow_of_time, serve
from .pours import empties, pours

if TYPE_CHECKING:
    from .state import State

__all__ = ["Plan", "action_values", "best_moves", "best_plan", "describe", "live_pours", "plans", "top_plans"]

Cups = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Plan:
    """The rest of one turn (``actions``, from the decision faced now) and what it does this turn."""

    actions: tuple[Any, ...]
    completed: tuple[str, ...]
    """Orders the pour completes."""
    upgraded: bool
    penalties: int
    """Penalty cards this turn's Flow of Time gives."""
    rush_gained: int
    rush_spent: int
    progress: int

    @property
    def value(self) -> int:
        """The exact immediate value: the change in the player's score this turn (see the module's text)."""
        return len(self.completed) - self.penalties - self.upgraded

    @property
    def rush(self) -> int:
        """Rush tokens gained minus spent."""
        return self.rush_gained - self.rush_spent

    @property
    def key(self) -> tuple[int, int, int]:
        """What plans are ranked by: ``(value, rush, progress)``."""
        return self.value, self.rush, self.progress


@dataclass(frozen=True)
class _Outcome:
    """What the cups after a pour do this turn (the same whatever the path that filled them)."""

    completed: tuple[str, ...]
    specialty: int
    penalties: int
    progress: int


class _Valuer:
    """Values the cups after a pour, each distinct multiset of cups once (the rules do not care which cup is which)."""

    def __init__(self, state: State) -> None:
        me = state.players[state.player]
        self.tabs, self.board, self.cups = me.tabs, state.rules.board, me.cups
        self.capacity = state.rules.cup_capacity
        self.live = _live(me.orders, self.capacity)
        most: Counter[str] = Counter()
        for order in me.orders:
            most |= Counter(order_needs(order))
        self.useful = {x: n * len(me.cups) for x, n in most.items()}
        """The most of each ingredient a live pour can use: more (or others) always go back, so they are dropped."""
        self.cache: dict[Cups, _Outcome] = {}
        self.listed: dict[tuple[tuple[str, ...], bool, bool], list[tuple[tuple[int, ...] | None, Cups, _Outcome]]] = {}

    def pours(self, collected: tuple[str, ...], ask_empty: bool,
              every: bool) -> list[tuple[tuple[int, ...] | None, Cups, _Outcome]]:
        """``(cups emptied or None, added to each cup, what the cups after do)`` for every pour listed (all of them
        if ``every``, else :func:`live_pours`), once per ingredients collected."""
        if not every:  # live pours never use what no waiting order needs: drop it, so more moves share a listing
            counts = Counter(collected)
            collected = tuple(sorted(Counter({x: min(n, self.useful.get(x, 0)) for x, n in counts.items()}).elements()))
        key = (collected, ask_empty, every)
        found = self.listed.get(key)
        if found is None:
            cups = self.cups
            options: Iterable[tuple[tuple[int, ...] | None, Cups]]
            if every:
                options = [(emptied if ask_empty else None, added)
                           for emptied in (empties(cups) if ask_empty else [()])
                           for added in pours(tuple(() if c in emptied else cup for c, cup in enumerate(cups)),
                                              collected, self.capacity)]
            else:
                options = live_pours(cups, collected, self.live, ask_empty)
            found = []
            for emptied, added in options:
                kept = cups if emptied is None else tuple(() if c in emptied else cup for c, cup in enumerate(cups))
                found.append((emptied, added, self(tuple(add_to(cup, more) for cup, more in zip(kept, added)))))
            self.listed[key] = found
        return found

    def __call__(self, cups: Cups) -> _Outcome:
        key = tuple(sorted(cups))
        found = self.cache.get(key)
        if found is None:
            left, tabs, done = serve(cups, self.tabs)
            tabs, pushed = flow_of_time(tabs)
            waiting = [Counter(order_needs(o)) for tab in tabs for o in tab]
            progress = sum(len(cup) for cup in left if cup and any(Counter(cup) <= w for w in waiting))
            found = _Outcome(done, sum(self.board.is_specialty(o) for o in done), len(pushed), progress)
            self.cache[key] = found
        return found


def plans(state: State, every: bool = False) -> Iterator[Plan]:
    """The plans for the rest of the current player's turn (at an upgrade, move, empty or pour decision).

    By default only the plans no other plan beats (:func:`live_pours`), which always include
    the best; ``every=True`` lists every legal plan (slow at wide positions: a check for tests).
    """
    for prefix, moves, found in _groups(state, every):
        for move in moves:
            head = (*prefix, move) if move is not None else prefix
            for plan in found:
                yield Plan((*head, *plan.actions), plan.completed, plan.upgraded, plan.penalties, plan.rush_gained,
                           plan.rush_spent, plan.progress)


def _groups(state: State, every: bool) -> Iterator[tuple[tuple[Any, ...], list[Move | None], list[Plan]]]:
    """The plans in groups, in listing order: ``(actions before the move, the moves, the plans after any of them)``;
    the moves of a group collect the same ingredients and spend the same rush tokens (``[None]`` once moved)."""
    phase = state.phase
    if phase == Phase.UPGRADE:
        for action in state.legal_actions():
            yield from _move_groups(state.apply(action), (action,), isinstance(action, Upgrade), every)
    elif phase == Phase.MOVE:
        yield from _move_groups(state, (), False, every)
    elif phase in (Phase.EMPTY, Phase.POUR):
        yield (), [None], list(_pours(state, _Valuer(state), False, state.collected, 0, phase == Phase.EMPTY, every))
    else:
        raise BadArgument("state", f"must be at a player's upgrade, move, empty or pour decision, not phase {phase!r}")


def _move_groups(state: State, prefix: tuple[Any, ...], upgraded: bool,
                 every: bool) -> Iterator[tuple[tuple[Any, ...], list[Move | None], list[Plan]]]:
    valuer = _Valuer(state)
    me = state.players[state.player]
    groups: dict[tuple[tuple[str, ...], int], list[Move | None]] = {}
    for move in state.moves():
        groups.setdefault((state.collects(move), move.rush), []).append(move)
    for (collected, rush), moves in groups.items():
        yield prefix, moves, list(_pours(state, valuer, upgraded, collected, rush, any(me.cups), every))


def _pours(state: State, valuer: _Valuer, upgraded: bool, collected: tuple[str, ...],
           rush: int, ask_empty: bool, every: bool) -> Iterator[Plan]:
    """Every (cups emptied, pour) after a move collecting ``collected`` and spending ``rush`` tokens; ``ask_empty``:
    whether the empty step is asked (some cup holds something)."""
    supply = state.supply + rush
    for emptied, added, outcome in valuer.pours(collected, ask_empty, every):
        from_orders = min(supply, outcome.specialty)
        from_penalties = min(supply - from_orders, outcome.penalties)
        steps = () if emptied is None else (Empty(emptied),)
        yield Plan((*steps, Pour(added)), outcome.completed, upgraded, outcome.penalties,
                   from_orders + from_penalties, rush, outcome.progress)


def _live(orders: tuple[str, ...], capacity: int) -> list[tuple[str, ...]]:
    """Every non-empty sub-multiset of a waiting order's ingredients (sorted tuples)."""
    found: set[tuple[str, ...]] = set()
    for order in set(orders):
        needs = order_needs(order)
        for mask in range(1, 2 ** len(needs)):
            found.add(tuple(needs[i] for i in range(len(needs)) if mask >> i & 1))
    return sorted(f for f in found if len(f) <= capacity)


def live_pours(cups: Cups, collected: tuple[str, ...], live: list[tuple[str, ...]],
               ask_empty: bool) -> Iterator[tuple[tuple[int, ...] | None, Cups]]:
    """The pours no other pour beats: ``(cups emptied or None, added to each cup)`` leaving every cup it changes
    holding a *live* multiset (one of ``live``: part of a waiting order's ingredients) or empty.

    Pours that differ only by swapping two cups holding the same (and emptied alike) are listed once.
    Why no other pour beats them: take any pour, and in every cup it changes to a dead multiset
    (part of no waiting order), return what it poured there instead (and empty the cup if the
    pour emptied it). A dead cup completes nothing and counts no progress; the cup as it was
    (or empty) completes an order or not, and counts progress or not: completions can only
    grow, so the penalties can only shrink, and nothing else changes. So the changed pour,
    which is one of these, is at least as good by every part of :attr:`Plan.key`.
    """
    names = tuple(sorted({x for group in (*live, *cups, collected) for x in group}))
    options = _cup_options(cups, tuple(live), ask_empty, names)
    pack, guard = _packer(names)
    done: list[tuple[tuple[int, ...] | None, Cups]] = []

    def rec(i: int, left: int, emptied: tuple[int, ...], added: tuple[tuple[str, ...], ...]) -> None:
        if i == len(cups):
            done.append(((emptied if ask_empty else None), added))
            return
        for empty, more, need in options[i]:
            if need and ((left | guard) - need) & guard != guard:
                continue  # more than what is left to pour
            # cups holding the same and emptied alike are interchangeable: list each such pour once (non-increasing)
            twin = next((j for j in range(i - 1, -1, -1) if cups[j] == cups[i] and (j in emptied) == empty), None)
            if twin is not None and more > added[twin]:
                continue
            rec(i + 1, left - need, (*emptied, i) if empty else emptied, (*added, more))

    rec(0, pack(collected), (), ())
    return iter(done)


@lru_cache(maxsize=64)
def _packer(names: tuple[str, ...]) -> tuple[Callable[[Iterable[str]], int], int]:
    """A multiset of ingredients as one integer, 5 bits per ingredient (counts up to 15) with a guard bit each:
    ``a <= b`` (as multisets) exactly when ``((b | guard) - a) & guard == guard``, and ``b - a`` is then the difference."""
    index = {name: i for i, name in enumerate(names)}
    guard = sum(1 << (5 * i + 4) for i in index.values())

    def pack(items: Iterable[str]) -> int:
        return sum(1 << (5 * index[x]) for x in items)

    return pack, guard


@lru_cache(maxsize=256)
def _cup_options(cups: Cups, live: tuple[tuple[str, ...], ...], ask_empty: bool,
                 names: tuple[str, ...]) -> list[list[tuple[bool, tuple[str, ...], int]]]:
    """For each cup: ``(emptied, ingredients added, those packed)`` leaving it as it was, empty or live."""
    pack, _ = _packer(names)
    found = []
    for cup in cups:
        old = Counter(cup)
        options: list[tuple[bool, tuple[str, ...], int]] = [(False, (), 0)]
        for f in live:
            need = Counter(f)
            if old <= need and f != cup:
                more = tuple(sorted((need - old).elements()))
                options.append((False, more, pack(more)))
        if ask_empty and cup:
            options.append((True, (), 0))
            options += [(True, f, pack(f)) for f in live]
        found.append(options)
    return found


def best_plan(state: State) -> Plan:
    """The first of the highest-ranked plans (:attr:`Plan.key`), in the order :func:`plans` lists them."""
    return top_plans(state, 1)[0]


def top_plans(state: State, top: int) -> list[Plan]:
    """The ``top`` highest-ranked plans, best first (earlier listed first among equals), without listing every plan:
    within a group only its ``top`` best plans and its first ``top`` moves can be among them."""
    ranked: list[tuple[tuple[int, int, int], int, Plan]] = []
    order = 0
    for prefix, moves, found in _groups(state, every=False):
        best = heapq.nlargest(top, enumerate(found), key=lambda t: (t[1].key, -t[0]))
        for m, move in enumerate(moves[:top]):
            head = (*prefix, move) if move is not None else prefix
            for i, plan in best:
                ranked.append((plan.key, -(order + m * len(found) + i), Plan((*head, *plan.actions), plan.completed,
                               plan.upgraded, plan.penalties, plan.rush_gained, plan.rush_spent, plan.progress)))
        order += len(moves) * len(found)
    return [plan for _, _, plan in heapq.nlargest(top, ranked, key=lambda t: (t[0], t[1]))]


def action_values(state: State) -> list[tuple[Any, Plan]]:
    """Each legal action of the decision faced now with the best plan that starts with it, in the engine's order.

    At a pour every legal pour is valued on its own (it is the whole plan); earlier, each action
    gets the best of the plans after it (:func:`plans`)."""
    if state.phase == Phase.POUR:
        return [(plan.actions[0], plan) for plan in _pours(state, _Valuer(state), False, state.collected, 0, False, True)]
    best: dict[Any, Plan] = {}
    for prefix, moves, found in _groups(state, every=False):
        if not prefix and moves == [None]:  # at the empty step: each plan starts with its own Empty
            candidates = [(plan.actions[0], plan) for plan in found]
        else:
            top = max(found, key=lambda plan: plan.key)  # the first of the best (max keeps the first of equals)
            candidates = []
            for move in moves:
                head = (*prefix, move) if move is not None else prefix
                candidates.append((head[0], Plan((*head, *top.actions), top.completed, top.upgraded, top.penalties,
                                                 top.rush_gained, top.rush_spent, top.progress)))
        for first, plan in candidates:
            if first not in best or plan.key > best[first].key:
                best[first] = plan
    return [(action, best[action]) for action in state.legal_actions()]


def best_moves(state: State, top: int = 10) -> pd.DataFrame:
    """The ``top`` best plans, best first: a row each with its steps in words and its exact value and parts."""
    if not isinstance(top, int) or isinstance(top, bool) or top < 1:
        raise BadArgument("top", "must be a whole number, 1 or more", top)
    return pd.DataFrame([describe(state, plan) for plan in top_plans(state, top)])


def describe(state: State, plan: Plan) -> dict[str, Any]:
    """One plan as a table row: its steps in words, what it completes, its value and the parts beside it."""
    me, cols = state.players[state.player], state.rules.board.cols
    row: dict[str, Any] = {"upgrade": "", "move": "", "empty": "", "pour": ""}
    for action in plan.actions:
        if isinstance(action, (Upgrade, NoUpgrade)):
            row["upgrade"] = str(action)
        elif isinstance(action, Move):
            start = me.meeples[action.meeple] if me.meeples else 0
            row["move"] = action.describe(start, cols)
        elif isinstance(action, Empty):
            row["empty"] = str(action)
        else:
            row["pour"] = str(action)
    row.update(completed=", ".join(plan.completed), value=plan.value, rush=plan.rush, progress=plan.progress,
               penalties=plan.penalties, rush_gained=plan.rush_gained, rush_spent=plan.rush_spent, plan=plan)
    return row
