"""The "why this value?" panel of the decision view, driven through its callbacks as a user would."""

from __future__ import annotations

import html
import re
from fractions import Fraction

from coffeegames.engine import Session
from coffeegames.engine.examples import KeepOrReroll
from coffeegames.widgets.adapter import Adapter
from coffeegames.widgets.dairyman_game import dairyman_walkthrough
from coffeegames.engine.advice import solver_advice
from coffeegames.widgets.decision import DecisionView
from coffeegames.widgets.vivajava_game import vivajava_walkthrough

CLASSES = ["cg-decision-view", "cg-status", "cg-board", "cg-summary", "cg-chart", "cg-actions", "cg-take", "cg-chance",
           "cg-bots", "cg-undo", "cg-outcome-text", "cg-outcome-enter", "cg-message", "cg-history", "cg-new-game", "cg-why"]


def _classes(widget: object) -> set[str]:
    found = set(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        found |= _classes(child)
    return found


def shown(view: DecisionView) -> str:
    return html.unescape(re.sub("<[^>]+>", " ", view.why_panel.value))


def at_first_lock() -> DecisionView:
    view = dairyman_walkthrough(players=2, human=(0,), seed=3)
    view.bots_button.click()
    view.outcome_text.value = "4 6 5 5 1 3 2 y5"
    view.outcome_button.click()
    return view


def test_the_panel_explains_the_best_choice_and_follows_the_list() -> None:
    view = at_first_lock()
    assert set(CLASSES) <= _classes(view.widget)
    assert view.why is not None and view.why_panel.layout.display is None
    best = view.advice[0].label
    assert view.why.chosen.label == best and view.why.other_role == "the runner-up"
    text = shown(view)
    assert "Why this value?" in text and best in text and view.why.difference in text
    # pick the runner-up in the list: the panel now explains it, beside the best
    view.actions.value = 1
    chosen = view.why.chosen
    assert chosen.label == view.advice[1].label and view.why.other_role == "the best choice"
    assert chosen.value == view.advice[1].value == chosen.total
    assert len(chosen.terms) > 1 and any(t.outcome.startswith("bust") for t in chosen.terms)
    assert chosen.equation() in shown(view) and "bust" in shown(view)
    # taking it and letting chance roll hides the panel (no choice to explain at a chance node)
    view.take_button.click()
    if view.state.is_chance():
        assert view.why is None and view.why_panel.layout.display == "none"


def test_the_panel_comes_free_for_a_game_without_an_explainer() -> None:
    view = DecisionView(Session(KeepOrReroll(), seed=1), Adapter(advise=solver_advice()))
    view.chance_button.click()  # a 4: keep (4) or reroll (7/2)
    assert view.why is not None and view.why.chosen.label == "Keep()"
    view.actions.value = 1
    reroll = view.why.chosen
    assert reroll.label == "Reroll()" and reroll.total == reroll.value == Fraction(7, 2) and len(reroll.terms) == 6
    assert "1/6 × 1 + 1/6 × 2 + 1/6 × 3" in shown(view)
    assert "less than the best choice, Keep() (4)" in shown(view)


def test_vivajava_panel_shows_the_chance_of_keeping_a_blend() -> None:
    view = vivajava_walkthrough(players=2, human=(0,), seed=1)
    for _ in range(6):  # to the first valued decision of player 0
        if view.advice and view.advice[0].value is not None:
            break
        if view.state.is_chance():
            view.chance_button.click()
        else:
            view.bots_button.click() if view.bots_button.disabled is False else view.take_button.click()
    assert view.why is not None
    for i in range(min(len(view.actions.options), 4)):
        view.actions.value = i
        b = view.why.chosen
        assert b.label == view.advice[i].label and b.value == view.advice[i].value
        if b.value is not None:
            assert b.total == b.value and b.label in shown(view)
