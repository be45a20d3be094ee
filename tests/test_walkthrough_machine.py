"""A Hypothesis state machine over the ``Walkthrough`` of every registered game: move, undo, save, load.

For each game of ``coffeegames.games()`` (and a variant drawn from its entry) Hypothesis
runs short random sequences of: a legal move, a chosen chance outcome (listed when the
node is small, sampled when huge), chance rolling by itself, undo, undo to the last
decision, an illegal move, and saving the walkthrough (and the state) to JSON and loading
it back. After every step the walkthrough must equal a replay of its move log from the
start, and save/load must round-trip. A game added to the registry gets its machine here
with no change to this file.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import coffeegames
from coffeegames.engine import IllegalAction, Walkthrough
from contract_support import LIST_LIMIT, Alien, foreign_actions, outcome_count, snapshot

SETTINGS = settings(
    max_examples=8,
    stateful_step_count=25,
    deadline=None,
    derandomize=True,  # the same sequences on every run: a conformance check, not a search that drifts
    suppress_health_check=[HealthCheck.too_slow],
)


def machine_for(name: str) -> type[RuleBasedStateMachine]:
    """The state machine class for the registered game ``name``."""
    info = coffeegames.games()[name]

    class WalkthroughMachine(RuleBasedStateMachine):
        game: Any
        seed: int
        w: Walkthrough

        def __init__(self) -> None:
            super().__init__()
            self.foreign = foreign_actions(name, steps=10)

        @initialize(options=st.sampled_from(info.variants), seed=st.integers(0, 2**16))
        def start(self, options: dict[str, Any], seed: int) -> None:
            self.game, self.seed = info.game(**options), seed
            self.w = Walkthrough(self.game.new_initial_state(seed=seed), seed=seed)

        def fresh(self) -> Any:
            return self.game.new_initial_state(seed=self.seed)

        def load(self, text: str) -> Walkthrough:
            return Walkthrough.from_json(text, self.fresh(), self.game.action_kinds, self.game)

        # -- rules --------------------------------------------------------------------------
        @precondition(lambda self: not self.w.state.is_terminal())
        @rule(data=st.data())
        def move(self, data: st.DataObject) -> None:
            """A legal move chosen by Hypothesis; at chance, a listed outcome or (huge node) a sampled one."""
            state = self.w.state
            if not state.is_chance():
                choices = state.legal_actions()
                assert choices, "a player to move has no legal action"
                self.w.step(choices[data.draw(st.integers(0, len(choices) - 1), label="action")])
            elif outcome_count(state) <= LIST_LIMIT:
                outcomes = state.chance_outcomes()
                self.w.step(outcomes[data.draw(st.integers(0, len(outcomes) - 1), label="outcome")][0])
            else:
                rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="roll seed"))
                self.w.step(state.sample_chance(rng))

        @precondition(lambda self: self.w.state.is_chance())
        @rule()
        def chance_rolls(self) -> None:
            """Chance moves by itself, from the walkthrough's own generator."""
            self.w.step()

        @precondition(lambda self: len(self.w.moves) > 0)
        @rule(data=st.data())
        def undo(self, data: st.DataObject) -> None:
            steps = data.draw(st.integers(1, min(3, len(self.w.moves))), label="undo")
            kept = self.w.states[:-steps]
            self.w.undo(steps)
            assert self.w.states == kept

        @precondition(lambda self: len(self.w.moves) > 0)
        @rule()
        def undo_to_decision(self) -> None:
            self.w.undo_to_decision()
            assert not self.w.moves or not self.w.state.is_chance()

        @rule(data=st.data())
        def refuse_illegal(self, data: st.DataObject) -> None:
            """Nonsense, another game's action or a move made earlier but not legal now: refused, nothing recorded."""
            state = self.w.state
            candidates: list[Any] = ["stop", Alien(), *self.foreign]
            if not state.is_chance():
                here = set(state.legal_actions())  # empty at the end: every move is refused
                candidates += [m for m in self.w.moves if m not in here]
            elif outcome_count(state) <= LIST_LIMIT:  # a huge node is not listed: earlier rolls may be possible
                here = {o for o, _ in state.chance_outcomes()}
                candidates += [m for m in self.w.moves if m not in here]
            move = data.draw(st.sampled_from(candidates), label="illegal move")
            before, count = snapshot(state), len(self.w.moves)
            try:
                self.w.step(move)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{move!r} was accepted")
            assert len(self.w.moves) == count and self.w.state is state and snapshot(state) == before

        @rule()
        def save_and_load(self) -> None:
            """Save to JSON and go on from the loaded copy; its generator rolls on with the same luck."""
            text = self.w.to_json(self.game)
            loaded = self.load(text)
            assert loaded.states == self.w.states and loaded.moves == self.w.moves
            assert loaded.to_json(self.game) == text
            if loaded.state.is_chance():
                assert loaded.step().moves[-1] == self.w.step().moves[-1], "the loaded game rolled differently"
            self.w = loaded

        @rule()
        def save_and_load_state(self) -> None:
            state = self.w.state
            text = state.to_json()
            again = self.game.state_from_json(text)
            assert again == state and hash(again) == hash(state) and again.to_json() == text

        # -- invariants ---------------------------------------------------------------------
        @invariant()
        def equals_a_replay_of_its_log(self) -> None:
            assert len(self.w.states) == len(self.w.moves) + 1
            replayed = Walkthrough.replay(self.fresh(), self.w.moves, self.seed)
            assert replayed.states == self.w.states

        @invariant()
        def round_trips(self) -> None:
            text = self.w.to_json(self.game)
            assert self.load(text).to_json(self.game) == text

    WalkthroughMachine.__name__ = WalkthroughMachine.__qualname__ = f"WalkthroughMachine_{name}"
    return WalkthroughMachine


for _name in coffeegames.games():
    _case = machine_for(_name).TestCase
    _case.settings = SETTINGS
    globals()[f"TestWalkthrough_{_name}"] = _case
    _case.__name__ = _case.__qualname__ = f"TestWalkthrough_{_name}"
del _name, _case
