"""Why a Gizmos choice is worth what :func:`~.advice.advise` says: its estimate taken apart into its parts.

The estimate is the mean margin of the search playouts that took the choice first (the
mover's points plus the engine value of their gizmos, less the best opponent's, where each
playout ended). Each playout's margin is the sum of four parts (:data:`~.advice.PARTS`):
your points, your gizmos' engine value, what your stored energy and archive should still
bring, less the best opponent's value. Each part is averaged over the same playouts, so the
parts' means add up to the estimate exactly (Fractions of the playout sums; no balancing
term). The breakdown's one term is the estimate itself (the playouts, all of them, share 1),
with the parts in :attr:`~coffeegames.engine.explain.Breakdown.parts`.

Example:
    >>> from coffeegames.gizmos import Game, advise
    >>> s = Game().new_initial_state(seed=1)
    >>> row = advise(s, playouts=40)[0]
    >>> b = explain(s, row.action, playouts=40)
    >>> b.value == row.value == sum(value for _, value in b.parts), [name for name, _ in b.parts][0]
    (True, 'your points')
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..engine.explain import Breakdown, Term
from ..errors import BadArgument
from ..validate import Checker, check_instance
from .advice import ENGINE_VALUE_WORDS, MEASURES, PARTS, _sample, searched
from .policy import check_search
from .state import State

__all__ = ["explain"]


def explain(state: State, action: Any, playouts: int = 300, seed: int | None = 0, horizon: int | None = 2) -> Breakdown:
    """``action``'s estimate at ``state`` (the one :func:`~.advice.advise` gives it, with the same search arguments),
    taken apart into the means of its parts over the same playouts."""
    check_instance(state, State, "state", "a Gizmos state")
    check_search(playouts, seed, horizon)
    legal = state.legal_actions()
    Checker("", BadArgument).one_of(action, "action", legal)
    label = str(action)
    if len(legal) < 2:
        return Breakdown(label, None, how="not valued: the only legal choice")
    search = searched(state, playouts, seed, horizon)
    stats = search.stats.get(action)
    if stats is None or stats.n == 0:
        return Breakdown(label, None, how="not valued: no playout tried it")
    n, sums = stats.n, search.sums[action]
    parts = tuple((name, total / n) for name, total in zip(PARTS, sums))
    value = search.values[action]
    how = (f"{MEASURES}: the mean over {n} playouts of each part, added up ({ENGINE_VALUE_WORDS}; stored energy "
           "and archive: 0.4 a marble and 0.5 an archived card, times the share of the game left)")
    return Breakdown(label, value, (Term(f"the mean of {n} playouts", Fraction(1), value),), how,
                     _sample(stats, horizon), parts=parts)
