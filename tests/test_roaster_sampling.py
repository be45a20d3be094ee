"""Coffee Roaster's chance draws are numpy's ``Generator.choice`` draws, whatever makes them faster: a seeded game
stays the same game (benchmarks/trajectory_hash.py), and the legal actions stay the same list in the same order."""

from __future__ import annotations

import numpy as np
import pytest

from coffeegames.engine import play_out, random_policy
from coffeegames.roaster import CUP_EFFECTS, Drawn, Game, Shuffled


def _chance_states(game: Game, games: int) -> list:
    """Every chance node of ``games`` seeded random games."""
    found = []
    for i in range(games):
        state, bot, chance = game.new_initial_state(), random_policy(np.random.default_rng([1, i])), np.random.default_rng([2, i])
        while not state.is_terminal():
            if state.is_chance():
                found.append(state)
                move = state.sample_chance(chance)
            else:
                move = bot(state)
            state = state.apply(move)
    return found


@pytest.mark.parametrize("side", ["full", "easy"])
def test_draws_are_numpys_choice_without_replacement(side: str) -> None:
    states = _chance_states(Game(side=side), 6)
    assert {s.phase for s in states} >= {"shuffle", "draw", "cup_draw"}
    for bits in (np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64):
        ours, numpys = np.random.Generator(bits(7)), np.random.Generator(bits(7))
        for n, state in enumerate(states):
            if n % 3 == 0:  # a 32-bit draw between: the generator's buffered half-word is part of its position
                assert ours.integers(9) == numpys.integers(9)
            drawn = state.sample_chance(ours)
            if state.phase == "shuffle":
                expected = Shuffled(tuple(CUP_EFFECTS[i] for i in numpys.permutation(len(CUP_EFFECTS))))
            else:
                size = state.draw_count if state.phase == "draw" else 1
                expected = Drawn(tuple(state.bag[i] for i in numpys.choice(len(state.bag), size=size, replace=False)))
            assert drawn == expected
            assert state.is_legal_outcome(drawn)
        assert ours.random() == numpys.random()  # both generators left in the same place


@pytest.mark.parametrize(("side", "steps", "score", "first"), [
    ("full", 24, -7, ["drew hard×3 defect moisture×3 body", "RemoveBad(pay body)", "Roast()", "Stop()", "drew acidity"]),
    ("easy", 33, -3, ["drew hard×5 moisture×2 acidity", "NewTwo(pay acidity, return hard×2)", "drew hard defect"]),
])
def test_a_seeded_game_is_the_one_it_was(side: str, steps: int, score: int, first: list[str]) -> None:
    """A seeded random game as the engine played it before its stepping was made faster (recorded then)."""
    final, log = play_out(Game(side=side).new_initial_state(), random_policy(np.random.default_rng(1)), np.random.default_rng(0))
    assert str(log[0]) == "cup effects on the squares: Choice, Cardboard Tray, Exchange, Extra Bean, Sweetness"
    assert [str(m) for m in log[1:1 + len(first)]] == first
    assert (len(log), final.returns()) == (steps, (score,))
