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

The search is exact: every move is tried; moves collecting the same ingredients with the
same rush tokens share their pours; the pours are those no other pour beats
(:func:`live_pours`: each cup it changes ends empty or holding part of a waiting order),
listing once the pours that only swap interchangeable cups; every distinct set of cups
after the pour is valued once. :func:`top_plans` (and :func:`best_plan`) walk that listing
by branch and bound (:meth:`_Valuer.top`): a branch of pours is skipped when a bound on
every plan in it ranks no higher than the best found so far, so they return exactly the
best plans, in the same order, as sorting the whole listing (:func:`plans`) would.
``plans(state, every=True)`` lists every legal plan instead; the tests check all three
agree.

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
    move a1→a2→a3→b3 | pour: cup 1 ice, cup 2 coffee+milk | coffee+ice, coffee+milk | 2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..errors import BadArgument
from ..validate import check_count, check_instance
from .actions import Complete, Empty, Move, Phase, Pour, Upgrade
from .data import order_name, order_needs
from .live import Cups, _cup_options, _live, _live_pours, _packer, live_pours
from .plan import Plan, check_plan, check_state, plan_row
from .player import _matching, _serve, add_to, flow_of_time
from .pours import empties, pours
from .state import State

__all__ = ["MAX_TOP", "Plan", "action_values", "best_moves", "best_plan", "check_plan", "check_state", "live_pours", "plan_row",
           "plans", "top_plans"]

MAX_TOP = 1_000
"""The most plans :func:`top_plans` and :func:`best_moves` rank (``top``)."""


def _check_top(top: Any) -> int:
    if check_count(top, "top", maximum=MAX_TOP) < 1:
        raise BadArgument("top", "must be 1 or more", top)
    return top


@dataclass(frozen=True)
class _Outcome:
    """What the cups after a pour do this turn (the same whatever the path that filled them)."""

    completed: tuple[str, ...]
    specialty: int
    penalties: int
    progress: int


Part = tuple[int, int, int]
"""A cup's share of the bound on a plan's key (see :meth:`_Valuer.part`)."""
Found = tuple[tuple[int, int, int], tuple[int, ...] | None, Cups, _Outcome]
"""A pour found by :meth:`_Valuer.top`: ``(its key, cups emptied or None, added to each cup, what the cups after do)``."""


class _Valuer:
    """Values the cups after a pour, each distinct multiset of cups once (the rules do not care which cup is which)."""

    def __init__(self, state: State, upgraded: bool = False) -> None:
        me = state.players[state.player]
        self.tabs, self.board, self.cups = me.tabs, state.rules.board, me.cups
        self.capacity = state.rules.cup_capacity
        self.supply, self.upgraded = state.supply, int(upgraded)
        self.live = _live(me.orders, self.capacity)
        most: Counter[str] = Counter()
        for order in me.orders:
            most |= Counter(order_needs(order))
        self.useful = {x: n * len(me.cups) for x, n in most.items()}
        """The most of each ingredient a live pour can use: more (or others) always go back, so they are dropped."""
        self.cache: dict[Cups, _Outcome] = {}
        self.listed: dict[tuple[tuple[str, ...], bool, bool], list[tuple[tuple[int, ...] | None, Cups, _Outcome]]] = {}
        # for the bound of :meth:`top`
        self.last = len(me.tabs[-1])
        self.tab = {order: 1 for tab in me.tabs[:-1] for order in tab} | {order: 2 for order in me.tabs[-1]}
        self.early = [Counter(order_needs(order)) for tab in me.tabs[:-1] for order in tab]
        self.names = tuple(sorted({x for group in (*self.live, *self.cups) for x in group}))
        self.options: dict[bool, list[list[tuple[bool, tuple[str, ...], int, tuple[str, ...], Part]]]] = {}
        self.suffixes: dict[tuple[bool, int, int], tuple[Part, tuple[int, int]]] = {}
        self.tops: dict[tuple[tuple[str, ...], bool, int, int], tuple[tuple[int, int, int] | None, list[Found]]] = {}

    def useful_part(self, collected: tuple[str, ...]) -> tuple[str, ...]:
        """What a live pour may use of ``collected``: no more of each ingredient than the cups can hold of it for the
        waiting orders (the rest always goes back), so that more moves share one listing."""
        counts = Counter(collected)
        return tuple(sorted(Counter({x: min(n, self.useful.get(x, 0)) for x, n in counts.items()}).elements()))

    def pours(self, collected: tuple[str, ...], ask_empty: bool,
              every: bool) -> list[tuple[tuple[int, ...] | None, Cups, _Outcome]]:
        """``(cups emptied or None, added to each cup, what the cups after do)`` for every pour listed (all of them
        if ``every``, else :func:`live_pours`), once per ingredients collected."""
        if not every:
            collected = self.useful_part(collected)
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
                options = _live_pours(cups, collected, self.live, ask_empty)
            found = []
            for emptied, added in options:
                kept = cups if emptied is None else tuple(() if c in emptied else cup for c, cup in enumerate(cups))
                found.append((emptied, added, self(tuple(add_to(cup, more) for cup, more in zip(kept, added)))))
            self.listed[key] = found
        return found

    def __call__(self, cups: Cups) -> _Outcome:
        """What ``cups`` do when every matching cup completes its order (forced, or the best choice: see :meth:`served`)."""
        key = tuple(sorted(cups))
        found = self.cache.get(key)
        if found is None:
            found = self.served(cups, None)
            self.cache[key] = found
        return found

    def served(self, cups: Cups, chosen: tuple[int, ...] | None) -> _Outcome:
        """What ``cups`` do this turn when the cups ``chosen`` (None: every matching cup) complete their orders.

        Completing every matching cup ranks first: each order a cup keeps back is one completion less (1 less
        value) and no penalty fewer, so where completing is a choice the listing values only that choice
        (``plans(every=True)`` lists every one)."""
        left, tabs, done = _serve(cups, self.tabs, chosen)
        tabs, pushed = flow_of_time(tabs)
        waiting = [Counter(order_needs(o)) for tab in tabs for o in tab]
        progress = sum(len(cup) for cup in left if cup and any(Counter(cup) <= w for w in waiting))
        return _Outcome(done, sum(self.board.is_specialty(o) for o in done), len(pushed), progress)

    def key(self, outcome: _Outcome, spent: int) -> tuple[int, int, int]:
        """The :attr:`Plan.key` of a plan whose pour does ``outcome``, after a move spending ``spent`` rush tokens."""
        supply = self.supply + spent
        gained = min(supply, outcome.specialty + outcome.penalties)  # Specialty orders first, then penalties
        return len(outcome.completed) - outcome.penalties - self.upgraded, gained - spent, outcome.progress

    def part(self, cup: tuple[str, ...]) -> Part:
        """One cup's share of the bound: ``(v, s, p)``; ``v`` is 2 if the cup matches an order on tab 4, 1 on another
        tab, else 0; ``s`` is 1 if it matches a Specialty order, less 1 if on tab 4; ``p`` is its size if it matches
        no order but fits one on tabs 1-3. See :meth:`top` for why the sums bound every plan's key."""
        if not cup:
            return 0, 0, 0
        tab = self.tab.get(order_name(cup), 0)
        if tab:
            return tab, self.board.is_specialty(order_name(cup)) - (tab == 2), 0
        have = Counter(cup)
        return 0, 0, len(cup) if any(have <= w for w in self.early) else 0

    def cup_options(self, ask_empty: bool) -> list[list[tuple[bool, tuple[str, ...], int, tuple[str, ...], Part]]]:
        """:func:`_cup_options` with each option's cup after and its :meth:`part`, packed by :attr:`names`."""
        found = self.options.get(ask_empty)
        if found is None:
            found = [[(empty, more, need, after, self.part(after))
                      for empty, more, need in options
                      for after in (add_to(() if empty else cup, more),)]
                     for cup, options in zip(self.cups, _cup_options(self.cups, tuple(self.live), ask_empty, self.names))]
            self.options[ask_empty] = found
        return found

    def suffix(self, ask_empty: bool, i: int, left: int) -> tuple[Part, tuple[int, int]]:
        """The most cups ``i``, ``i+1``, ... can add to the parts' sums with ``left`` (packed) to pour:
        ``(the largest (v, s, p) sum, the largest (v, p) sum)``, each largest in that order (lexicographic)."""
        key = (ask_empty, i, left)
        found = self.suffixes.get(key)
        if found is None:
            options = self.cup_options(ask_empty)
            if i == len(options):
                found = (0, 0, 0), (0, 0)
            else:
                _, guard = _packer(self.names)
                best_a: Part | None = None
                best_b: tuple[int, int] | None = None
                for _, _, need, _, (v, s, p) in options[i]:
                    if need and ((left | guard) - need) & guard != guard:
                        continue
                    (av, as_, ap), (bv, bp) = self.suffix(ask_empty, i + 1, left - need)
                    a, b = (v + av, s + as_, p + ap), (v + bv, p + bp)
                    best_a = a if best_a is None or a > best_a else best_a
                    best_b = b if best_b is None or b > best_b else best_b
                assert best_a is not None and best_b is not None  # keeping the cup as it is always fits
                found = best_a, best_b
            self.suffixes[key] = found
        return found

    def top(self, collected: tuple[str, ...], ask_empty: bool, spent: int, k: int,
            floor: tuple[int, int, int] | None) -> list[Found]:
        """The ``k`` best pours of ``live_pours(cups, collected, ...)`` by key, best first (earlier listed first among
        equals), among those whose key is above ``floor`` (None: all), by branch and bound.

        The listing is walked in :func:`live_pours`'s order; a branch (the cups before ``i`` chosen, ``left`` still
        to pour) is skipped when a bound on every key in it is no higher than the ``k``-th best found (or
        ``floor``): those pours would all rank after it. The bound: with ``V``, ``S``, ``P`` the sums of each
        cup's :meth:`part` (the chosen cups', plus the most the others can add, :meth:`suffix`), every key is at
        most ``(V - t4 - upgraded, min(supply + spent, t4 + S) - spent, P)`` (``t4``: orders on tab 4), in
        lexicographic order. Why: each order a cup completes adds 1 to the value, 2 if from tab 4 (one penalty
        less), so the value is at most ``V - t4 - upgraded``, and below it unless every cup matching an order on
        the tabs completes it from the highest tab it is on; in that case the Specialty orders and penalties are
        exactly ``t4 + S``, and the progress (cups left that fit an order waiting after Flow of Time) at most
        ``P``; ``S`` and ``P`` are each the largest among the choices reaching the largest ``V``.
        """
        memo_key = (collected, ask_empty, spent, k)
        known = self.tops.get(memo_key)
        if known is not None and (known[0] is None or (floor is not None and floor >= known[0])):
            return [f for f in known[1] if floor is None or f[0] > floor]  # the best above a higher floor: a subset
        cups, options = self.cups, self.cup_options(ask_empty)
        pack, guard = _packer(self.names)
        supply, last, upgraded = self.supply + spent, self.last, self.upgraded
        found: list[Found] = []

        def rec(i: int, left: int, emptied: tuple[int, ...], added: Cups, after: tuple[tuple[str, ...], ...],
                v: int, s: int, p: int) -> None:
            bar = floor
            if len(found) == k and (bar is None or found[-1][0] > bar):
                bar = found[-1][0]
            if bar is not None:
                (av, as_, _), (_, bp) = self.suffix(ask_empty, i, left)
                if (v + av - last - upgraded, min(supply, last + s + as_) - spent, p + bp) <= bar:
                    return
            if i == len(cups):
                outcome = self(after)
                key = self.key(outcome, spent)
                if bar is None or key > bar:
                    at = next((j for j, f in enumerate(found) if f[0] < key), len(found))
                    found.insert(at, (key, emptied if ask_empty else None, added, outcome))
                    del found[k:]
                return
            for empty, more, need, cup, (cv, cs, cp) in options[i]:
                if need and ((left | guard) - need) & guard != guard:
                    continue  # more than what is left to pour
                twin = next((j for j in range(i - 1, -1, -1) if cups[j] == cups[i] and (j in emptied) == empty), None)
                if twin is not None and more > added[twin]:
                    continue  # as live_pours: interchangeable cups listed once
                rec(i + 1, left - need, (*emptied, i) if empty else emptied, (*added, more), (*after, cup),
                    v + cv, s + cs, p + cp)

        rec(0, pack(collected), (), (), (), 0, 0, 0)
        self.tops[memo_key] = (floor, found)
        return found


@dataclass(frozen=True)
class _Group:
    """Moves sharing their pours: the actions before the move (``prefix``), the moves (``[None]`` once moved), which
    collect the same ingredients and spend the same rush tokens, and the valuer of the position they start from."""

    prefix: tuple[Any, ...]
    moves: list[Move | None]
    valuer: _Valuer
    collected: tuple[str, ...]
    spent: int
    ask_empty: bool
    """Whether the empty step is asked (some cup holds something)."""
    choice: bool = False
    """Whether completing is the player's choice (option ``completion="choice"``): a plan then ends with its
    :class:`~.actions.Complete` wherever a cup after the pour matches a waiting order."""

    def plan(self, move: Move | None, emptied: tuple[int, ...] | None, added: Cups, outcome: _Outcome,
             chosen: tuple[int, ...] | None = None) -> Plan:
        """The plan: this move, then empty ``emptied`` (None: the step is not asked), pour ``added`` and, where
        completing is asked, complete with ``chosen`` (None: every matching cup; ``outcome`` must be its outcome)."""
        head = (*self.prefix, move) if move is not None else self.prefix
        steps: tuple[Any, ...] = () if emptied is None else (Empty(emptied),)
        if self.choice and (outcome.completed or chosen is not None):
            steps_after: tuple[Any, ...] = (Complete(_matching(self.after(emptied, added), self.valuer.tabs)[0]
                                                     if chosen is None else chosen),)
        else:
            steps_after = ()
        supply = self.valuer.supply + self.spent
        gained = min(supply, outcome.specialty + outcome.penalties)  # Specialty orders first, then penalties
        return Plan((*head, *steps, Pour(added), *steps_after), outcome.completed, bool(self.valuer.upgraded),
                    outcome.penalties, gained, self.spent, outcome.progress)

    def after(self, emptied: tuple[int, ...] | None, added: Cups) -> Cups:
        """The cups after emptying ``emptied`` and pouring ``added``."""
        kept = self.valuer.cups if emptied is None else tuple(() if c in emptied else cup for c, cup in enumerate(self.valuer.cups))
        return tuple(add_to(cup, more) for cup, more in zip(kept, added))

    def choices(self, move: Move | None, emptied: tuple[int, ...] | None, added: Cups, outcome: _Outcome) -> Iterator[Plan]:
        """The plan of this pour with each way to complete orders (one plan where completing is not a choice)."""
        if not self.choice:
            yield self.plan(move, emptied, added, outcome)
            return
        cups = self.after(emptied, added)
        sets = _matching(cups, self.valuer.tabs)
        if len(sets) == 1:
            yield self.plan(move, emptied, added, outcome)
            return
        for chosen in sets:
            yield self.plan(move, emptied, added, self.valuer.served(cups, chosen), chosen)

    def listed(self, every: bool) -> list[tuple[tuple[int, ...] | None, Cups, _Outcome]]:
        """Every pour (``every``) or every live pour, in listing order."""
        return self.valuer.pours(self.collected, self.ask_empty, every)

    def top(self, k: int, floor: tuple[int, int, int] | None = None) -> list[Found]:
        """The ``k`` best live pours above ``floor`` (:meth:`_Valuer.top`)."""
        return self.valuer.top(self.valuer.useful_part(self.collected), self.ask_empty, self.spent, k, floor)


def plans(state: State, every: bool = False) -> Iterator[Plan]:
    """The plans for the rest of the current player's turn (at an upgrade, move, empty or pour decision).

    By default only the plans no other plan beats (:func:`live_pours`), which always include
    the best; ``every=True`` lists every legal plan (slow at wide positions: a check for tests).
    Nothing is pruned: this is the listing :func:`top_plans` finds the best of without walking it all.
    """
    check_state(state)
    check_instance(every, bool, "every", "True or False")
    return _plans(state, every)


def _plans(state: State, every: bool) -> Iterator[Plan]:
    if state.phase == Phase.COMPLETE:
        yield from _complete_plans(state)
        return
    for group in _groups(state):
        found = group.listed(every)
        for move in group.moves:
            for emptied, added, outcome in found:
                if every:
                    yield from group.choices(move, emptied, added, outcome)
                else:
                    yield group.plan(move, emptied, added, outcome)


def _complete_plans(state: State) -> list[Plan]:
    """At step 4 (completing is a choice): each legal :class:`~.actions.Complete` as the whole plan."""
    valuer, me = _Valuer(state), state.players[state.player]
    return [Plan((Complete(chosen),), outcome.completed, False, outcome.penalties,
                 min(state.supply, outcome.specialty + outcome.penalties), 0, outcome.progress)
            for chosen in _matching(me.cups, me.tabs) for outcome in (valuer.served(me.cups, chosen),)]


def _groups(state: State) -> Iterator[_Group]:
    """The plans in groups of moves sharing their pours, in listing order."""
    phase = state.phase
    if phase == Phase.UPGRADE:
        for action in state.legal_actions():
            yield from _move_groups(state.apply(action), (action,), isinstance(action, Upgrade))
    elif phase == Phase.MOVE:
        yield from _move_groups(state, (), False)
    elif phase in (Phase.EMPTY, Phase.POUR):
        yield _Group((), [None], _Valuer(state), state.collected, 0, phase == Phase.EMPTY, _choice(state))
    else:
        raise BadArgument("state", f"must be at a player's upgrade, move, empty, pour or complete decision, not phase {phase!r}")


def _choice(state: State) -> bool:
    """Whether completing an order is the player's choice under the state's rules."""
    return bool(state.rules.completion == "choice")


def _move_groups(state: State, prefix: tuple[Any, ...], upgraded: bool) -> Iterator[_Group]:
    valuer = _Valuer(state, upgraded)
    ask_empty = any(state.players[state.player].cups)
    groups: dict[tuple[tuple[str, ...], int], list[Move | None]] = {}
    for move in state.moves():
        groups.setdefault((state.collects(move), move.rush), []).append(move)
    for (collected, rush), moves in groups.items():
        yield _Group(prefix, moves, valuer, collected, rush, ask_empty, _choice(state))


def best_plan(state: State) -> Plan:
    """The first of the highest-ranked plans (:attr:`Plan.key`), in the order :func:`plans` lists them."""
    return _top_plans(check_state(state), 1)[0]


def top_plans(state: State, top: int) -> list[Plan]:
    """The ``top`` highest-ranked plans, best first (earlier listed first among equals), the same as sorting every
    plan of :func:`plans` but without walking them all: each group of moves sharing their pours gives its ``top``
    best pours above the ``top``-th best plan found so far (:meth:`_Valuer.top`, branch and bound), and its first
    ``top`` moves, as only those can be among the best."""
    return _top_plans(check_state(state), _check_top(top))


def _top_plans(state: State, top: int) -> list[Plan]:
    if state.phase == Phase.COMPLETE:
        return sorted(_complete_plans(state), key=lambda plan: plan.key, reverse=True)[:top]  # stable: listed first among equals
    ranked: list[tuple[tuple[int, int, int], Plan]] = []
    for group in _groups(state):
        floor = ranked[-1][0] if len(ranked) == top else None  # a later plan must beat it: equals rank after it
        found = group.top(top, floor)
        for move in group.moves[:top]:
            for key, emptied, added, outcome in found:
                if len(ranked) == top and key <= ranked[-1][0]:
                    break
                at = next((j for j, (k, _) in enumerate(ranked) if k < key), len(ranked))
                ranked.insert(at, (key, group.plan(move, emptied, added, outcome)))
                del ranked[top:]
    return [plan for _, plan in ranked]


def action_values(state: State) -> list[tuple[Any, Plan]]:
    """Each legal action of the decision faced now with the best plan that starts with it, in the engine's order.

    At a pour every legal pour is valued on its own (it is the whole plan); earlier, each action
    gets the best of the plans after it (:func:`plans`)."""
    check_state(state)
    if state.phase == Phase.COMPLETE:
        return [(plan.actions[0], plan) for plan in _complete_plans(state)]
    if state.phase == Phase.POUR:
        group = _Group((), [None], _Valuer(state), state.collected, 0, False, _choice(state))
        return [(plan.actions[0], plan) for plan in (group.plan(None, *pour) for pour in group.listed(every=True))]
    best: dict[Any, Plan] = {}
    for group in _groups(state):
        if not group.prefix and group.moves == [None]:  # at the empty step: each plan starts with its own Empty
            candidates = [(plan.actions[0], plan) for plan in (group.plan(None, *pour) for pour in group.listed(False))]
        else:
            _, emptied, added, outcome = group.top(1)[0]  # the first of the best
            candidates = []
            for move in group.moves:
                plan = group.plan(move, emptied, added, outcome)
                candidates.append((plan.actions[0], plan))
        for first, plan in candidates:
            if first not in best or plan.key > best[first].key:
                best[first] = plan
    return [(action, best[action]) for action in state.legal_actions()]


def best_moves(state: State, top: int = 10) -> pd.DataFrame:
    """The ``top`` best plans, best first: a row each with its steps in words and its exact value and parts."""
    return pd.DataFrame([plan_row(state, plan) for plan in top_plans(state, top)])
