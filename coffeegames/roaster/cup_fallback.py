"""The cup-test solver's fallback when a test is over budget: a rule of thumb, exact in the endgame.

Beyond ``max_states`` positions :func:`.cup.stop_now` simulates seeded cup tests under this
policy instead of solving: a rule of thumb (:func:`heuristic_place`,
:func:`heuristic_exchange`) while more than :data:`ENDGAME` cup spaces are free, exact play
(by the :class:`~.cup_solver.Solver`) after, within a budget of its own. A fixed policy, so a
lower estimate of optimal play. It plays the solver's rules: an active Sweetness takes its own
space and is in every cup it scores, however early the bag runs out (:meth:`.Solver.sweet_in`).

Example:
    >>> from coffeegames.roaster.rules import Rules
    >>> from coffeegames.roaster.cup_solver import Solver
    >>> solver = Solver(Rules(card="Zambia Kasama AA"), (), ["bean2", "bean3", "smoke"], 3, None)
    >>> typical_fill(solver, (4, 4, 2), 5)
    (2, 2, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .cup_solver import Counts, OverBudget, Solver, count_pairs, plus
from .data import CUP_SPACES

__all__ = [
    "ENDGAME", "ENDGAME_BUDGET", "endgame", "fallback_exchange", "fallback_keep", "fallback_place", "heuristic_exchange",
    "heuristic_place", "projected", "simulate", "typical_fill",
]

ENDGAME = 7
"""The fallback policy plays exactly (by the solver) once at most this many cup spaces are free ..."""
ENDGAME_BUDGET = 4
"""... within another ``max_states // ENDGAME_BUDGET`` positions."""


def typical_fill(solver: Solver, bag: Counts, k: int) -> Counts:
    """``k`` tokens shared out in the bag's proportions (largest remainders): a typical rest of the cup."""
    total = sum(bag)
    if total == 0 or k <= 0:
        return (0,) * len(bag)
    k = min(k, total)
    exact = [n * k / total for n in bag]
    out = [int(x) for x in exact]
    for i in sorted(range(len(bag)), key=lambda i: exact[i] - out[i], reverse=True)[: k - sum(out)]:
        out[i] += 1
    return tuple(out)


def projected(solver: Solver, bag: Counts, cup: Counts) -> int:
    """The score of ``cup`` completed with a typical rest from ``bag``."""
    room = CUP_SPACES - (solver.sweet_space is not None) - sum(cup)
    rest = typical_fill(solver, bag, room)
    return solver.score(tuple(c + r for c, r in zip(cup, rest)))


def heuristic_place(solver: Solver, bag: Counts, cup: Counts, tray: int, i: int) -> bool:
    """Whether the heuristic puts kind ``i`` (just drawn) on the tray: it projects worse in the cup than an average
    token, and fewer tokens worse than it are expected among the draws still to come than the tray has room for."""
    left = solver.tray_spaces - tray
    if left <= 0:
        return False
    base = projected(solver, bag, cup)
    gain = [projected(solver, bag, plus(cup, j)) - base if n or j == i else 0 for j, n in enumerate(bag)]
    if gain[i] >= 0:
        return False
    total = sum(bag)
    worse = sum(n for j, n in enumerate(bag) if gain[j] < gain[i])
    coming = CUP_SPACES - solver.position(cup) - 1
    return total == 0 or worse * coming / total < left


def heuristic_exchange(solver: Solver, bag: Counts, cup: Counts) -> Counts | None:
    """Return the pair whose removal, refilled with 2 typical tokens, projects best (if better than keeping)."""
    best, choice = solver.score(cup), None
    for pair in count_pairs(cup):
        bag2 = tuple(b + r for b, r in zip(bag, pair))
        v = projected(solver, bag2, tuple(c - r for c, r in zip(cup, pair)))
        if v > best:
            best, choice = v, pair
    return choice


def endgame(solver: Solver, cup: Counts, exact: Callable[[], Any]) -> Any:
    """``exact()`` (a decision from exact values) once the rest of the test is small and within budget, else None."""
    if CUP_SPACES - solver.position(cup) > ENDGAME:
        return None
    try:
        return exact()
    except OverBudget:
        return None


def fallback_place(solver: Solver, bag: Counts, cup: Counts, tray: int, i: int) -> bool:
    """Whether the fallback policy puts kind ``i``, just drawn (``bag`` is without it), on the tray."""
    if tray >= solver.tray_spaces or solver.position(cup) in solver.choice_spaces:
        return False
    found = endgame(solver, cup, lambda: solver.w(bag, cup, tray + 1) > solver.w(bag, plus(cup, i), tray))
    solver.played[found is None] += 1
    return heuristic_place(solver, bag, cup, tray, i) if found is None else found


def fallback_keep(solver: Solver, bag: Counts, cup: Counts, tray: int, x: int, y: int) -> int:
    """The kind the fallback policy keeps of a Choice pair ``x, y`` (``bag`` is without both)."""
    x, y = sorted((x, y))
    found = endgame(solver, cup, lambda: y if solver.w(plus(bag, x), plus(cup, y), tray) > solver.w(plus(bag, y), plus(cup, x), tray)
                     else x)
    solver.played[found is None] += 1
    if found is None:
        found = y if projected(solver, bag, plus(cup, y)) > projected(solver, bag, plus(cup, x)) else x
    return found


def fallback_exchange(solver: Solver, bag: Counts, cup: Counts) -> Counts | None:
    """The pair the fallback policy returns for Exchange (None: keep the cup): exact if already solved, else the rule of thumb."""
    found = solver.exchanges.get((bag, cup))
    return found[1] if found is not None else heuristic_exchange(solver, bag, cup)


def simulate(solver: Solver, bag: Counts, cup: Counts, tray: int, n: int, seed: int) -> list[int]:
    """``n`` seeded cup tests under the fallback policy, on count tuples (same rules as the engine)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        b, c, t = list(bag), cup, tray

        def draw() -> int:
            i = int(rng.choice(len(b), p=np.array(b) / sum(b)))
            b[i] -= 1
            return i

        while solver.position(c) < CUP_SPACES and sum(b) > 0:
            if solver.position(c) in solver.choice_spaces and sum(b) >= 2:
                x, y = draw(), draw()
                keep = fallback_keep(solver, tuple(b), c, t, x, y)
                b[x + y - keep] += 1
                c = plus(c, keep)
                continue
            i = draw()
            if fallback_place(solver, tuple(b), c, t, i):
                t += 1
            else:
                c = plus(c, i)
        if solver.position(c) >= CUP_SPACES and solver.exchange:
            pair = fallback_exchange(solver, tuple(b), c)
            if pair is not None:
                b = [x + r for x, r in zip(b, pair)]
                c = tuple(x - r for x, r in zip(c, pair))
                drawn = [draw() for _ in range(min(3, sum(b)))]
                c = solver.keep_two(c, drawn) if len(drawn) == 3 else tuple(x + drawn.count(k) for k, x in enumerate(c))
        out.append(solver.score(c))
    return out

