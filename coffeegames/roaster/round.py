"""One more round: the expected score of roasting once more, then stopping (exact, or a stratified sample), and
both numbers of the stop/continue decision.

Every draw of the coming round is followed by a cup test (:mod:`.cup`, :func:`~.cup.stop_now`'s solve); the draws
share most cup-test positions, so they are solved together where a budget allows (:func:`_solve_all`). The
exactness notes of :mod:`.cup` hold here too; :func:`one_more_round` has a worked example.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ..errors import BadArgument, BadType
from ..exact.collector import collector_paused
from ..exact import check_count
from ..validate import check_instance
from .actions import Continue, Drawn, Phase, Roast
from .cup_codes import fits
from .cup_layers import Layers
from .cup_fallback import estimate, typical_fills
from .cup import MAX_SAMPLES, MAX_STATES, _check_budget, _choices, _read, _solve, _Test, stop_now
from .cup_solver import Counts, OverBudget, Solver, count_positions, drawable
from .odds import _draw_weights
from .state import State
from .tokens import MOISTURE, TOKENS, roast

__all__ = ["RoundValue", "one_more_round", "stop_or_continue"]


@dataclass(frozen=True)
class RoundValue:
    """The expected score of roasting once more, then stopping: exact or an estimate (``stderr``).

    ``outcomes`` is how many different draws the round can make, ``weighed`` how many of them
    were solved (all, when exact), ``positions`` the cup-test positions solved for them. ``lower``
    says the value is a lower estimate (some cup tests were simulated by the fallback policy;
    ``stderr`` does not count that bias); otherwise an estimate is unbiased.
    """

    value: Fraction
    exact: bool
    outcomes: int
    weighed: int
    positions: int
    message: str
    stderr: float
    seconds: float
    lower: bool = False
    parts: tuple[tuple[str, Fraction, Fraction], ...] = ()
    """Each draw weighed: ``(the draw in words, its weight, the cup test's value after it)``; ``value`` is the
    weighted sum exactly (weights: the exact chances, or ``1/draws`` each for a stratified sample)."""


def _plain_roast(state: State) -> Any:
    return Roast()


@dataclass(frozen=True)
class _Solved:
    """One cup test's value in a round: exact, or simulated with its standard error."""

    value: Fraction
    exact: bool = True
    stderr: float = 0.0


def _solve_all(tests: Sequence[_Test], max_states: int | None, samples: int, seed: int) -> tuple[list[_Solved], int]:
    """:func:`stop_now`'s value for many tests (all from a draw): the tests that can share a solver are one vectorised
    solve (:class:`.cup_layers.Layers`, ``max_states`` positions in all; an exact Fraction each). Over that budget
    the smallest tests (counted beforehand: no Sweetness, Choice or Exchange) are solved alone, exactly, within half
    of it, and the others estimated by the fallback (:func:`.cup_fallback.estimate`: ``samples`` seeded tests each,
    valued in one table within the rest). Returns the values and the positions solved."""
    out: list[_Solved] = [_Solved(Fraction(0))] * len(tests)
    positions = 0
    groups: dict[Hashable, list[int]] = {}
    for i, test in enumerate(tests):
        groups.setdefault((test.rules, frozenset(test.active), test.exchange, test.tray_spaces), []).append(i)
    for members in groups.values():
        first = tests[members[0]]
        solver = first.solver(None, (x for i in members for x in tests[i].tokens))
        roots = [(solver.counts(tests[i].bag), solver.counts(tests[i].cup), len(tests[i].tray)) for i in members]
        layered = all(tests[i].phase == Phase.CUP_DRAW and not tests[i].hand for i in members)
        counted: list[int | None] = [None] * len(roots)
        if max_states is not None and layered:  # known (no Sweetness, Choice, Exchange): a test alone over is not listed
            counted = [count_positions(solver, *root) for root in roots]
        alone = [n is not None and n > max_states for n in counted] if max_states is not None else [False] * len(roots)
        table = None
        if layered and not any(alone) and fits(solver, roots):
            try:
                table = Layers(solver, roots, max_states)
            except OverBudget:
                pass
        if table is not None:
            for i, v in zip(members, table.values()):
                out[i] = _Solved(v)
            positions += table.positions
            continue
        if not (layered and fits(solver, roots)):  # not from a draw, or too many kinds for the vectorised solver
            for i in members:
                r = _solve(tests[i], tests[i].solver(max_states), samples, seed)
                out[i], positions = _Solved(r.value, r.exact, r.stderr), positions + r.states
            continue
        assert max_states is not None  # (with no budget the shared table always answers)
        left = max_states // 2  # half the budget for the smallest tests alone (counted beforehand), exactly
        estimated: list[tuple[int, tuple[Counts, Counts, int]]] = []
        for n, i, root in sorted(zip(counted, members, roots), key=lambda x: (x[0] is None, x[0] or 0)):
            if n is not None and n <= left:
                single = Layers(solver, [root], n)
                out[i], positions, left = _Solved(single.values()[0]), positions + single.positions, left - n
            else:
                estimated.append((i, root))
        if estimated:  # the rest: the fallback's estimate, in one table within the rest of the budget
            found = estimate(solver, [root for _, root in estimated], samples, seed, max_states - (max_states // 2 - left))
            for (i, _), value, stderr in zip(estimated, found.values, found.stderr):
                out[i] = _Solved(value, False, stderr)
            positions += found.positions
    return out, positions


def _stratified(after: State, listed: Sequence[tuple[tuple[str, ...], int]], total: int, n: int,
                rng: np.random.Generator) -> list[tuple[str, ...]]:
    """``n`` draws picked one from each of ``n`` equally likely strata of ``listed`` (a draw's tokens, its ways among
    ``total``), the draws ordered by a quick projection of the cup their roasted bag makes: an unbiased sample with
    less spread."""
    steps = after.rules.roast_steps(after.space)
    solver = Solver(after.rules, after.active, drawable(TOKENS), after.tray_spaces, None)
    room = solver.capacity
    bag = np.array(solver.counts(drawable(after.bag)), dtype=np.int64)
    names = sorted(set(after.bag))  # the bag after the round: the drawn tokens roasted (moisture goes back)
    code = {t: i for i, t in enumerate(names)}
    flat = np.array([code[t] for tokens, _ in listed for t in tokens], dtype=np.intp)
    rows = np.repeat(np.arange(len(listed)), [len(tokens) for tokens, _ in listed])
    kept = np.array([t != MOISTURE for t in names], dtype=bool)[flat]
    width = len(bag)
    taken = np.array([solver.index[t] if t != MOISTURE else 0 for t in names], dtype=np.intp)[flat[kept]]
    roasted = np.array([solver.index[roast(t, steps)] if t != MOISTURE else 0 for t in names], dtype=np.intp)[flat[kept]]
    rows = rows[kept] * width
    change = np.bincount(rows + roasted, minlength=len(listed) * width) - np.bincount(rows + taken, minlength=len(listed) * width)
    rests = bag + change.reshape(len(listed), width)
    cups, which = np.unique(typical_fills(rests, room), axis=0, return_inverse=True)  # projected(rest, empty cup)
    projection = solver.score_many(cups)[which.reshape(-1)]
    ordered = [listed[i] for i in np.argsort(projection, kind="stable").tolist()]
    ends = np.cumsum([ways / total for _, ways in ordered])  # (the same floats as the probabilities')
    picks = (np.arange(n) + rng.random(n)) / n
    return [ordered[min(int(i), len(ordered) - 1)][0] for i in np.searchsorted(ends, picks * ends[-1], side="right")]


@collector_paused()  # its tables hold no cycles: see coffeegames/exact/collector.py
def one_more_round(
    state: State,
    *,
    act: Callable[[State], Any] = _plain_roast,
    max_outcomes: int | None = 200,
    draws: int = 24,
    seed: int = 0,
    max_states: int | None = 4 * MAX_STATES,
    samples: int = 300,
    reserve: str = "best",
) -> RoundValue:
    """Expected score of one more round (draw, effects by ``act`` — plain roasting by default —, roast) then stopping.

    On the easy side with starting flavour tokens left, ``reserve="best"`` solves every choice of which go into the
    bag and takes the best for each draw; ``reserve="bag"`` puts them all in (one solve a draw: faster, and still a
    lower bound).

    With at most ``max_outcomes`` different draws (``None``: any number) every draw is weighed by its
    exact probability; otherwise ``draws`` draws are picked by seeded stratified sampling (one from each
    of ``draws`` equally likely strata, the draws ordered by a quick projection of their cup) and
    averaged, an unbiased estimate flagged ``exact=False``. The draws' cup tests are solved as one vectorised
    table, since they share most positions: ``max_states`` positions in all; over that, the smallest tests alone
    (counted beforehand: no Sweetness, Choice or Exchange) within half of them, exactly, the others estimated by the
    fallback policy (:func:`.cup_fallback.estimate`, ``samples`` seeded tests each) within the rest (flagged: a
    lower estimate).

    >>> from coffeegames.roaster.game import Game
    >>> s = Game(card="Zambia Kasama AA").new_initial_state(seed=1)
    >>> s = s.apply(s.sample_chance(np.random.default_rng(1))).apply(Roast())
    >>> r = one_more_round(s, draws=4)
    >>> r.exact, r.outcomes, r.weighed, r.message.split(",")[0]
    (False, 477, 4, 'approximate: 4 of 477 possible draws (stratified sample')
    """
    started = time.perf_counter()
    check_instance(state, State, "state", "a Coffee Roaster state")
    if not callable(act):
        raise BadType("act", "must be a policy (a function of a state)", act)
    if max_outcomes is not None:
        check_count(max_outcomes, "max_outcomes")
    _check_budget(max_states, samples, seed)
    check_count(draws, "draws", maximum=MAX_SAMPLES)
    if draws == 0:
        raise BadArgument("draws", "must be at least 1", draws)
    if reserve not in ("best", "bag"):
        raise BadArgument("reserve", "must be 'best' or 'bag'", reserve)
    if state.phase != Phase.DECIDE:
        raise BadArgument("state", f"one_more_round needs a state where the player may continue (phase 'decide'); got {state.phase!r}")
    after = state.apply(Continue())
    rng = np.random.default_rng(seed)

    def finish(s: State) -> list[_Test]:  # one test per choice of starting flavours (easy side), else one
        while s.phase in (Phase.ACT, Phase.REMOVE_TWO) or (s.is_chance() and s.phase == Phase.DRAW):
            if act is _plain_roast and s.phase == Phase.ACT:  # Roast is always legal here: no listing of every effect
                s = s._apply(Roast())
                continue
            s = s.apply(s.sample_chance(rng) if s.is_chance() else act(s))
        choices = _choices(s)
        return [_read(c, None, (), (), ()) for _, c in (choices if reserve == "best" else choices[:1])]

    count = after.chance_outcome_count() if after.phase == Phase.DRAW else 1
    sampled = after.phase == Phase.DRAW and max_outcomes is not None and count > max_outcomes
    if after.phase != Phase.DRAW:
        names, weights, tests = ["the round"], [Fraction(1)], [finish(after)]
    elif not sampled:
        listed = after.chance_outcomes()
        names, weights, tests = [str(d) for d, _ in listed], [p for _, p in listed], [finish(after.apply(d)) for d, _ in listed]
    else:
        ways, total = _draw_weights(after.bag, after.draw_count)  # (thousands of draws: no object a draw)
        picked = [Drawn(tokens) for tokens in _stratified(after, ways, total, draws, rng)]
        names, weights, tests = [str(d) for d in picked], [Fraction(1, draws)] * draws, [finish(after.apply(d)) for d in picked]
    every, positions = _solve_all([t for choices in tests for t in choices], max_states, samples, seed)
    solved = iter(every)
    results = [max((next(solved) for _ in choices), key=lambda r: r.value) for choices in tests]  # the best choice each
    value = sum((w * r.value for w, r in zip(weights, results)), Fraction(0))
    inner = float(np.sqrt(sum(float(w) ** 2 * r.stderr ** 2 for w, r in zip(weights, results))))
    spread = 0.0
    if sampled:  # strata collapsed in pairs: a conservative standard error of a stratified mean
        v = [float(r.value) for r in results]
        spread = float(np.sqrt(sum((v[i] - v[i + 1]) ** 2 for i in range(0, len(v) - 1, 2)))) / len(v)
    simulated = sum(not r.exact for r in results)
    plain = act is _plain_roast
    exact = not sampled and not simulated and plain
    how = f"all {count:,} draws" if not sampled else f"{draws} of {count:,} possible draws (stratified sample, seed {seed})"
    solves = f"every cup test exact ({positions:,} positions)" if not simulated else \
        f"{simulated} of {len(results)} cup tests simulated by the fallback over {max_states:,} positions (a lower estimate)"
    stderr = float(np.hypot(spread, inner))
    flavours = ", starting flavours all into the bag" if reserve == "bag" and state.reserve else ""
    message = f"{'exact' if exact else 'approximate'}: {how}, {'plain roasting' if plain else 'the given act policy'}{flavours}, {solves}" + \
        (f"; standard error {stderr:.2f}" if stderr else "")
    return RoundValue(value, exact, count, len(results), positions, message, stderr, time.perf_counter() - started,
                      simulated > 0, tuple((n, w, r.value) for n, w, r in zip(names, weights, results)))


def stop_or_continue(state: State, **options: Any) -> pd.DataFrame:
    """Both numbers for the stop/continue decision: stop now, or roast one more round and then stop.

    ``options`` go to :func:`one_more_round`. On the last thermometer space there is no continuing.
    """
    now = stop_now(state)
    rows = {"stop now": {"expected score": float(now.value), "exact": now.exact, "stderr": now.stderr, "how": now.message}}
    if not state.last_space:
        more = one_more_round(state, **options)
        rows["one more round, then stop"] = {"expected score": float(more.value), "exact": more.exact, "stderr": more.stderr,
                                             "how": more.message}
    return pd.DataFrame.from_dict(rows, orient="index")


