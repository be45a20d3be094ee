"""Companion mode: at every chance node of every game's walkthrough, the outcome box's example, typed in, is accepted.

Parametrised over ``coffeegames.games()``; a game's view is ``coffeegames.widgets.<name>_walkthrough``. Its
adapter's ``outcome_example`` (or, without one, the text after "e.g." in the hint) is entered through the
session's parser, as the outcome button does, along a seeded game.
"""

from __future__ import annotations

import pytest

import coffeegames
import coffeegames.widgets

STEPS = 60


def _example(view: object, state: object) -> str | None:
    adapter = view.adapter  # type: ignore[attr-defined]
    if adapter.outcome_example is not None:
        return adapter.outcome_example(state)  # type: ignore[no-any-return]
    hint = adapter.outcome_hint(state) if adapter.outcome_hint is not None else ""
    return hint.split("e.g. ", 1)[1] if "e.g. " in hint else None


@pytest.mark.parametrize("name", list(coffeegames.games()))
def test_every_hint_example_is_accepted(name: str) -> None:
    factory = getattr(coffeegames.widgets, f"{name}_walkthrough", None)
    if factory is None:
        pytest.skip(f"{name} has no walkthrough view")
    view = factory(seed=2)
    session = view.session
    if session.parse_outcome is None:
        pytest.skip(f"{name}'s walkthrough takes no typed outcomes")
    entered = 0
    for _ in range(STEPS):
        state = session.state
        if state.is_terminal():
            break
        if not state.is_chance():
            session.take(state.legal_actions()[-1])
            continue
        example = _example(view, state)
        hint = view.adapter.outcome_hint(state) if view.adapter.outcome_hint is not None else ""
        if example is None:
            assert "e.g." not in hint
            session.chance_step()
            continue
        assert example in hint, (hint, example)
        before = len(session.walkthrough.moves)
        session.enter_outcome(example)  # a refused example raises here
        assert len(session.walkthrough.moves) == before + 1
        entered += 1
    assert entered >= 2
