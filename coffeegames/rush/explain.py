"""Why a Coffee Rush choice is worth what :func:`~.advice.advise` says: its value taken apart, part by part.

A choice's value is the exact change in your score this turn when the rest of the turn is the
best plan after it (:mod:`.best`). Nothing drawn this turn changes it (the orders dealt go to
the other players, or onto your tab 1 after Flow of Time), so no draw and no look-ahead enters
it: it is certain, and its parts are what the plan does, each an exact number of points:

* ``+1`` for each order it completes (from tab 4: the penalty card it would have become is
  avoided; that is why an order on tab 4 is worth completing first);
* ``-1`` for each order left on tab 4, which Flow of Time pushes off as a penalty card;
* for an upgrade, ``+2`` for the tile and ``-3`` for the three completed orders discarded.

They add up to the value exactly; nothing else is added. The rush tokens gained (a
Specialty order completed, a penalty card) and spent (on the move) are not points: the
breakdown's ``how`` says them beside the value, with the rest of the plan.

Example (the opening: a move that completes two orders):
    >>> from coffeegames.rush.state import Game
    >>> from coffeegames.rush.actions import Drawn, Place
    >>> from coffeegames.rush.best import best_plan
    >>> s = Game(players=3).new_initial_state()
    >>> for order in ["coffee+milk", "coffee+ice", "ice+milk", "coffee+steam", "ice+tea", "coffee+coffee", "milk+tea"]:
    ...     s = s.apply(Drawn(order))
    >>> for space in (15, 10, 0):
    ...     s = s.apply(Place(space))
    >>> b = explain(s, best_plan(s).actions[0])
    >>> b.parts, b.value == sum(amount for _, amount in b.parts)
    ((('completes coffee+ice (tab 1)', Fraction(1, 1)), ('completes coffee+milk (tab 1)', Fraction(1, 1))), True)
    >>> b.equation()
    '1 + 1 = 2'
"""

from __future__ import annotations

from fractions import Fraction

from ..engine.explain import Breakdown, Term
from ..errors import BadArgument
from ..validate import Checker
from .actions import Phase
from .advice import MEASURES, _label
from .best import Plan, action_values, check_state
from .state import State

__all__ = ["explain", "plan_parts"]


def plan_parts(state: State, plan: Plan) -> tuple[tuple[str, Fraction], ...]:
    """What makes ``plan``'s value (:attr:`.best.Plan.value`) at ``state``: ``(in words, points)`` for each order it
    completes, each penalty card it takes and the upgrade it flips; they add up to the value exactly."""
    check_state(state)
    Checker("", BadArgument).need(isinstance(plan, Plan), "plan", "must be a Plan (from best_plan or action_values)",
                                  plan)
    me = state.players[state.player]
    tabs = [list(tab) for tab in me.tabs]
    parts: list[tuple[str, Fraction]] = []
    if plan.upgraded:
        parts += [("upgrade tile flipped", Fraction(2)), ("3 completed orders discarded for it", Fraction(-3))]
    for order in plan.completed:  # each from the highest tab holding it, as the engine completes it
        tab = max(t for t, held in enumerate(tabs) if order in held)
        tabs[tab].remove(order)
        last = " — its penalty card avoided" if tab == len(tabs) - 1 else ""
        parts.append((f"completes {order} (tab {tab + 1}){last}", Fraction(1)))
    parts += [(f"{order} pushed off tab {len(tabs)}: a penalty card", Fraction(-1)) for order in tabs[-1]]
    if not parts:
        parts.append(("no order completed, no penalty card this turn", Fraction(0)))
    assert sum(amount for _, amount in parts) == plan.value and len(tabs[-1]) == plan.penalties
    return tuple(parts)


def _beside(plan: Plan) -> str:
    gained = f"{plan.rush_gained} gained" if plan.rush_gained else "none gained"
    spent = f", {plan.rush_spent} spent on the move" if plan.rush_spent else ""
    return f"rush tokens (not points): {gained}{spent}; progress {plan.progress}"


def explain(state: State, action: object) -> Breakdown:
    """``action``'s value at ``state`` (the one :func:`~.advice.advise` gives it) taken apart into its parts
    (:func:`plan_parts`), with the rest of the best plan after it and the rush tokens beside it in ``how``."""
    check_state(state)
    Checker("", BadArgument).one_of(action, "action", state.legal_actions())
    label = _label(state, action)
    if state.phase == Phase.PLACE:
        return Breakdown(label, None, how="setup: not valued (choose where your meeple starts)")
    plan = dict(action_values(state))[action]
    value = Fraction(plan.value)
    rest = "; ".join(str(a) for a in plan.actions[1:])
    how = (f"{MEASURES}: exact, nothing drawn this turn changes it (no look-ahead). "
           f"{'Then: ' + rest + '. ' if rest else ''}Beside it, {_beside(plan)}.")
    return Breakdown(label, value, (Term("this turn, played as advised", Fraction(1), value),), how,
                     parts=plan_parts(state, plan))

