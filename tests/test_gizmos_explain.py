"""Gizmos' explain: each estimate taken apart into parts averaged over the same playouts, adding up to it exactly.

The parts are checked against public names, not the code that makes them: the points part is
the mean of each playout's final ``score`` (integers, exactly); the parts' sum per playout is the
search's own margin (``evaluate``: points plus engine value, less the best opponent's), to float
rounding; the stored-energy part is written from its definition (0.4 a marble, 0.5 an archived
card, times the share of the game left, ``progress``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from coffeegames.engine import random_policy
from coffeegames.errors import BadArgument
from coffeegames.gizmos import Game, State, advise, evaluate, explain, progress, search_stats
from coffeegames.gizmos import advice as advice_module
from coffeegames.gizmos.advice import PARTS, SEPARATED, searched


def _decisions(seed: int, count: int) -> list[State]:
    """Decisions with several choices along a seeded random game."""
    state = Game().new_initial_state(seed=seed)
    rng, policy, found = np.random.default_rng(seed), random_policy(seed), []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        if len(state.legal_actions()) > 1:
            found.append(state)
        state = state.apply(policy(state))
    return found


@pytest.mark.parametrize("seed", [3, 8])
def test_the_parts_add_up_to_the_estimate_and_each_part_is_what_it_says(seed: int) -> None:
    ran = []
    for state in _decisions(seed, 3)[1:]:
        me = state.current_player()
        rows = advise(state, playouts=24)
        search = searched(state, 24, 0, 2)
        ran.append(search.playouts)
        stats = search_stats(state, search.playouts, 0, 2)  # the same search, run again through the public name
        for row in rows:
            b = explain(state, row.action, playouts=24)
            assert b.value == row.value and [name for name, _ in b.parts] == list(PARTS)
            assert sum((v for _, v in b.parts), Fraction(0)) == b.value  # exactly: no balancing term
            assert b.total == b.value and b.sample is not None and b.sample.size == stats[row.action].n
            ends = stats[row.action].ends
            assert len(ends) == stats[row.action].n
            assert b.parts[0][1] == Fraction(sum(end.score(me) for end in ends), len(ends))
            margins = [evaluate(end)[me] - max(v for i, v in enumerate(evaluate(end)) if i != me) for end in ends]
            assert math.isclose(float(b.value), sum(margins) / len(margins), abs_tol=1e-9)
            stored = [0.0 if end.is_terminal() else
                      (1 - progress(end)) * (0.4 * sum(end.players[me].energy) + 0.5 * len(end.players[me].archive))
                      for end in ends]
            assert math.isclose(float(b.parts[2][1]), sum(stored) / len(stored), abs_tol=1e-9)
            best_other = [max(v for i, v in enumerate(evaluate(end)) if i != me) for end in ends]
            assert math.isclose(float(b.parts[3][1]), -sum(best_other) / len(ends), abs_tol=1e-9)
    assert set(ran) <= {24, 48, 96} and max(ran) > 24  # searches run on past 24 playouts (estimates within the noise)


def test_the_star_only_where_the_best_stands_clear_of_the_next() -> None:
    for state in _decisions(5, 4):
        rows = advise(state, playouts=20)
        advice_module._searched.cache_clear()  # the same answer from a fresh search, not from the remembered one
        again = advise(state, playouts=20)
        assert [(r.action, r.value, r.best) for r in rows] == [(r.action, r.value, r.best) for r in again]
        valued = [r for r in rows if r.value is not None]
        if len(valued) < 2:
            continue
        first, second = valued[0], valued[1]  # best first
        apart = (float(first.value) - float(second.value)  # type: ignore[arg-type]
                 > SEPARATED * math.hypot(first.sample.stderr, second.sample.stderr))  # type: ignore[union-attr]
        assert first.best == apart and not any(r.best for r in rows[1:])
        assert searched(state, 20, 0, 2).playouts <= 4 * 20


def test_explain_refuses_an_action_not_legal_here() -> None:
    state = _decisions(3, 1)[0]
    with pytest.raises(BadArgument, match="action"):
        explain(state, "Build everything", playouts=5)
