"""A Coffee Rush choice's value taken apart (issue 27): the parts add up to the advised value exactly, and each part
is what the engine does when the choice and the rest of its plan are played (the orders completed, the penalty
cards taken, the upgrade flipped), read from the states the engine reaches, not from the search."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from coffeegames import rush
from coffeegames.engine.explain import why
from coffeegames.errors import BadArgument
from coffeegames.widgets.why import why_html

DECISIONS = (rush.Phase.UPGRADE, rush.Phase.MOVE, rush.Phase.EMPTY, rush.Phase.POUR, rush.Phase.COMPLETE)


def decisions(players: int, seed: int, most: int = 8) -> list[rush.State]:
    """Decisions of a seeded game (greedy bot with some random choices, so orders do get completed)."""
    rng, s, found = np.random.default_rng(seed), rush.Game(players=players).new_initial_state(seed=seed), []
    while not s.is_terminal() and len(found) < most:
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
            continue
        if s.phase in DECISIONS and rng.random() < 0.5:
            found.append(s)
        legal = s.legal_actions()
        s = s.apply(rush.greedy_policy(s) if rng.random() < 0.8 else legal[int(rng.integers(len(legal)))])
    return found


def played(state: rush.State, actions: tuple) -> rush.State:
    """``actions`` played, then chance deals the first listed card until the player's turn is over."""
    for action in actions:
        state = state.apply(action)
    while state.is_chance():
        state = state.apply(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1), (4, 2)])
def test_the_parts_add_up_to_the_advised_value_and_are_what_the_engine_does(players: int, seed: int) -> None:
    completing = 0
    for s in decisions(players, seed):
        who, me = s.player, s.players[s.player]
        plans = dict(rush.action_values(s))
        for row in rush.advise(s):
            b = rush.explain(s, row.action)
            assert b.value == row.value and b.exact and b.total == b.value
            assert sum(amount for _, amount in b.parts) == b.value  # exactly, no balancing term
            end = played(s, plans[row.action].actions)
            after = end.players[who]
            assert end.scores[who] - s.scores[who] == b.value
            done = Counter(after.completed) - Counter(me.completed[3 * (len(after.upgrades) - len(me.upgrades)):])
            named = Counter(re.match(r"completes (\S+) ", what).group(1) for what, _ in b.parts if what.startswith("completes"))
            assert named == done
            penalties = [what for what, amount in b.parts if "penalty card" in what and amount == -1]
            assert len(penalties) == len(after.penalties) - len(me.penalties)
            assert Counter(p.split()[0] for p in penalties) == Counter(after.penalties[len(me.penalties):])
            assert any("upgrade" in what for what, _ in b.parts) == (len(after.upgrades) > len(me.upgrades))
            completing += bool(done)
    assert completing >= 1


def test_the_why_panel_shows_the_parts() -> None:
    s = next(t for t in decisions(3, 1, most=20) if t.phase == rush.Phase.MOVE and rush.best_plan(t).completed)
    panel = why_html(why(s, rush.advise(s), rush.explain), "score change this turn")
    assert "what makes the value" in panel and "completes " in panel and "played as advised" not in panel
    b = rush.explain(s, rush.best_plan(s).actions[0])
    assert b.equation().endswith(f"= {b.value}") and b.value == Fraction(rush.best_plan(s).value)


def test_a_choice_not_legal_here_is_refused() -> None:
    s = decisions(3, 1)[0]
    with pytest.raises(BadArgument, match="action"):
        rush.explain(s, rush.Place(99))
