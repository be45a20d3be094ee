"""The Coffee Roaster widgets, driven through their callbacks as a user would."""

from __future__ import annotations

import html
import threading

import numpy as np
import pandas as pd
import pytest

from coffeegames.exact import Bag
from coffeegames.roaster import Continue, Drawn, Roast, Stop, advise, count_dist, describe, draw_table, parse_bag
from coffeegames.widgets.charts import StaticPlot, fraction_text
from coffeegames.widgets.roaster_game import outcome_hint, parse_draw, roaster_board, roaster_walkthrough
from coffeegames.widgets.roaster_odds import BagExplorer

FIRST_DRAW = "hard hard hard hard hard moisture acidity acidity"


# -- BagExplorer ---------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "draws", "kind"), [
    ("bean2:4 smoke:1 moisture:3", 3, "smoke"),
    ("hard:6 bean3:2 bean4:2 smoke:2", 5, "bean4"),
    ("moisture:3 aroma:1", 9, "moisture"),  # more draws than tokens: the whole bag
])
def test_bag_edit_redraws_the_exact_count_distribution(text: str, draws: int, kind: str) -> None:
    explorer = BagExplorer()
    explorer.bag_text.value, explorer.draws.value, explorer.kind.value = text, draws, kind
    bag = Bag(parse_bag(text))
    dist = count_dist(bag, [kind], draws)
    k = min(draws, bag.size)
    bars = explorer.fig.data[0]
    assert explorer.message.value == "" and explorer.dist == dist
    assert list(bars.x) == list(range(k + 1)) and list(bars.y) == [float(dist[i]) for i in range(k + 1)]
    assert [c.split(": ")[1] for c in bars.customdata] == [fraction_text(dist[i]) for i in range(k + 1)]
    assert explorer.odds.equals(draw_table(bag, draws))
    assert fraction_text(draw_table(bag, draws).loc["P(at least one smoke)", "value"]) in html.unescape(explorer.table.value)


def test_crack_changes_the_burn_odds() -> None:
    explorer = BagExplorer("bean3:3 hard:3", draws=2)
    explorer.crack.value = True
    assert explorer.odds.equals(draw_table(Bag({"bean3": 3, "hard": 3}), 2, 2))


@pytest.mark.parametrize(("text", "says"), [
    ("bean2:4 smoke:two", "a count is a whole number"),
    ("bean9:2", "'bean9' is not a bag token"),
    ("", "the bag is empty"),
    ("smoke:0", "the bag is empty"),
])
def test_bad_bag_text_shows_an_error_and_changes_nothing(text: str, says: str) -> None:
    explorer = BagExplorer("bean2:4 smoke:1 moisture:3", draws=3)
    before = (list(explorer.fig.data[0].y), explorer.dist, explorer.table.value, explorer.result.value)
    explorer.bag_text.value = text
    assert says in html.unescape(explorer.message.value)
    assert (list(explorer.fig.data[0].y), explorer.dist, explorer.table.value, explorer.result.value) == before
    explorer.bag_text.value = "bean2:4 smoke:1"
    assert explorer.message.value == ""


def test_the_explorer_is_a_static_plot_redrawn_on_every_change() -> None:
    """No FigureWidget (a page of several froze in a browser): a plain plot in an Output, redrawn whole."""
    explorer = BagExplorer()
    assert isinstance(explorer.chart, StaticPlot) and explorer.chart in explorer.widget.children
    before = explorer.chart.outputs
    explorer.draws.value = 5
    assert explorer.chart.outputs != before and "a draw of 5" in explorer.chart.outputs[0]["data"]["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in explorer._repr_mimebundle_()


# -- the walkthrough -----------------------------------------------------------------------

def view():
    return roaster_walkthrough(card="Mexico Altura Oaxaca", seed=0)


def test_a_typed_draw_applies_the_drawn_outcome() -> None:
    v = view()
    assert "8 tokens drawn" in v.outcome_text.placeholder == outcome_hint(v.state)
    v.outcome_text.value = FIRST_DRAW
    v.outcome_button.click()
    assert v.message.value == "" and v.outcome_text.value == ""
    assert v.session.walkthrough.moves[-1] == Drawn(tuple(FIRST_DRAW.split()))
    assert v.state.phase == "act" and v.state.drawn.count("hard") == 5


@pytest.mark.parametrize(("text", "says"), [
    ("hard hard", "type 8 (you typed 2)"),
    ("hard*5 moisture acidity purple", "'purple' is not a bag token"),
    ("burnt*8", "cannot be drawn"),
])
def test_a_bad_draw_changes_nothing(text: str, says: str) -> None:
    v = view()
    before = (v.state, len(v.session.walkthrough.moves), list(v.board_fig.data[0].text))
    v.outcome_text.value = text
    v.outcome_button.click()
    assert says in html.unescape(v.message.value)
    assert (v.state, len(v.session.walkthrough.moves), list(v.board_fig.data[0].text)) == before


def test_take_an_action_advances_and_undo_restores() -> None:
    v = view()
    v.outcome_text.value = FIRST_DRAW
    v.outcome_button.click()
    roast = [i for i, row in enumerate(v.advice) if row.action == Roast()][0]
    assert roast == 0  # the move a round usually ends with is offered first
    start, board = v.state, list(v.board_fig.data[0].text)
    v.actions.value = roast
    v.take_button.click()
    assert v.message.value == "" and v.state.phase == "decide"
    labels = [row.label for row in v.advice]
    assert sorted(labels) == ["Roast another round", "Stop roasting: the cup test"] and sum(r.best for r in v.advice) == 1
    assert all(r.value is not None for r in v.advice) and len(v.chart_fig.data[0].x) == 2
    v.undo_button.click()
    assert v.state == start and list(v.board_fig.data[0].text) == board


def test_the_advice_table_reads_exact_values_and_marks_estimates() -> None:
    from coffeegames.widgets.decision import exact_text

    v = view()
    assert v.table().empty  # a draw: nothing to value
    v.enter_outcome(FIRST_DRAW)
    v.take(Roast())
    table = v.table()
    assert list(table.columns) == [v.adapter.value_name, v.adapter.risk_name, "then", "how"] and set(table.index) == {r.label for r in v.advice}
    for row in v.advice:
        shown = table.loc[row.label, v.adapter.value_name]
        if row.sample is None:
            assert shown == exact_text(row.value) and row.exact
        elif row.sample.lower:  # the fallback played: no ± (its bias is not in the standard error)
            assert shown == f"≈ {float(row.value):.2f} or more (a lower estimate)" and pd.isna(row.sample.stderr)
        else:
            assert shown == f"≈ {float(row.value):.2f} ± {row.sample.stderr:.2f} (an estimate)"
        assert row.how in table.loc[row.label, "how"]
    assert not all(r.exact for r in v.advice) and any(table[v.adapter.value_name].str.startswith("≈"))  # Continue is sampled here
    assert table.loc[describe(Stop()), v.adapter.risk_name] == ""  # stopping risks no burn
    assert not any(str(cell).endswith("...") for cell in table.to_numpy().ravel())
    assert "..." not in table._repr_html_() and "..." not in repr(table)  # every cell shown whole


def test_board_draws_the_same_traces_for_every_state() -> None:
    v = view()
    rng = np.random.default_rng(0)
    s = v.state
    names = [t.name for t in roaster_board(s)[0]]
    for _ in range(30):
        if s.is_terminal():
            break
        s = s.apply(s.sample_chance(rng) if s.is_chance() else s.legal_actions()[-1])
        assert [t.name for t in roaster_board(s)[0]] == names


def test_parse_draw_refuses_outside_a_draw() -> None:
    v = view()
    v.outcome_text.value = FIRST_DRAW
    v.outcome_button.click()
    with pytest.raises(ValueError, match="no tokens are being drawn"):
        parse_draw("hard", v.state)


def test_during_a_round_the_list_gives_each_choice_its_burn_chance() -> None:
    from coffeegames.text import percent

    v = view()
    v.enter_outcome(FIRST_DRAW)
    assert v.state.phase == "act" and all(row.value is None for row in v.advice)
    for (text, i), row in zip(v.actions.options, v.advice):
        assert text == f"{row.label} · burn {percent(row.risk)}"
    assert v.chart_box.layout.display == "none"  # no empty chart: the summary says why nothing is valued
    assert "No choice here carries a value" in html.unescape(v.summary.value) and "burns" in html.unescape(v.summary.value)


def test_the_walkthrough_speaks_of_draws_and_has_no_bots() -> None:
    """A bag game in words of a bag (not "Let chance roll" / "Enter the dice you rolled"); solo: no "Bots play"."""
    v = view()
    assert (v.chance_button.description, v.outcome_button.description, v.outcome_text.description) == (
        "Draw", "Enter the tokens you drew", "you drew")
    assert v.bots_button.layout.display == "none"
    assert html.unescape(v.status.value) == "<b>player (you)'s draw: chance moves next (press “Draw” or enter the tokens you drew)</b>"
    v.chance_button.click()
    assert v.session.history()[0][0] == "chance · player (you)'s draw"
    words = " ".join(str(w) for w in (v.status.value, v.outcome_text.placeholder, v.chance_button.description))
    assert "roll" not in words.lower() and "dice" not in words.lower()


def test_the_exact_checkbox_values_every_choice_exactly_and_unticked_goes_back() -> None:
    """Ticking "exact values" lifts the budgets: Continue weighs every draw of the coming round (its exact value is
    checked against the rules in tests/test_roaster_cup.py), the why panel explains the same exact value; unticking
    brings back the quick estimates. The position never changes."""
    from coffeegames.roaster import advise, one_more_round, stop_now

    v = view()
    v.enter_outcome(FIRST_DRAW)
    v.take(Roast())
    state, quick = v.state, list(v.advice)
    assert not all(r.exact for r in quick)  # the quick advice samples Continue here
    assert v.exact_toggle.layout.display is None and "cg-exact-toggle" in v.exact_toggle._dom_classes
    v.exact_toggle.value = True
    assert v.exact.work is not None and v.exact.work.join(120)  # worked out in the background, then redrawn
    assert v.state == state and v.message.value == ""
    assert all(r.exact for r in v.advice) and not any(r.label.endswith("≈") for r in v.advice)
    values = {r.action: r.value for r in v.advice}
    assert values[Stop()] == stop_now(state, max_states=None).value
    assert values[Continue()] == one_more_round(state, max_outcomes=None, max_states=None).value
    assert {r.action: r.value for r in advise(state, exact=True)} == values
    assert v.why is not None and v.why.chosen.value == v.advice[0].value and v.why.chosen.sample is None
    assert v.why.other is not None and v.why.other.sample is None
    assert "worth exactly" in v.summary.value
    v.exact_toggle.value = False
    assert [r.value for r in v.advice] == [r.value for r in quick] and v.state == state


def test_games_without_exact_values_on_request_show_no_checkbox() -> None:
    from coffeegames.widgets.dairyman_game import dairyman_walkthrough

    assert dairyman_walkthrough(seed=1).exact_toggle.layout.display == "none"


def decision_view():
    """The notebook's walkthrough at its stop/continue decision (Continue's value an estimate within the budget), its
    exact values held back until the test sets the returned event (however fast they come: they may be remembered)."""
    game = roaster_walkthrough(card="Mexico Altura Oaxaca", side="full", seed=0)
    game.enter_outcome("hard hard hard hard hard moisture acidity acidity")
    game.take(Roast())
    go_on, exact_advise = threading.Event(), game.exact.exact_advise

    def held(state):
        assert go_on.wait(60)
        return exact_advise(state)

    game.exact.exact_advise = held
    return game, go_on


def test_exact_values_on_request_show_the_estimates_at_once_then_the_exact_ones() -> None:
    game, go_on = decision_view()
    estimates = {row.label: row.value for row in game.advice}
    assert any(row.sample is not None for row in game.advice)
    game.exact_toggle.value = True  # returns at once: the estimates stay until the exact values come
    assert {row.label: row.value for row in game.advice} == estimates
    assert "Working out every value exactly" in game.summary.value and game.exact.cancel_button.layout.display is None
    go_on.set()
    assert game.exact.work is not None and game.exact.work.join(120)
    assert all(row.sample is None for row in game.advice)  # the exact values replaced them, without a click
    exact = {row.action: row.value for row in game.advice}
    assert exact == {row.action: row.value for row in advise(game.state, exact=True)}
    assert "Working" not in game.summary.value and game.exact.cancel_button.layout.display == "none"


def test_cancel_keeps_the_estimates_and_drops_the_late_exact_values() -> None:
    game, go_on = decision_view()
    estimates = {row.label: row.value for row in game.advice}
    game.exact_toggle.value = True
    work = game.exact.work
    game.exact.cancel_button.click()
    go_on.set()
    assert game.exact_toggle.value is False and game.exact.cancel_button.layout.display == "none"
    assert "Working" not in game.summary.value
    assert work is not None and work.cancelled and work.join(120)
    assert {row.label: row.value for row in game.advice} == estimates  # the late result changed nothing shown
    assert any(row.sample is not None for row in game.advice)


def forget_exact_values() -> None:
    """Empty the advice's memo of solved positions, so the next exact advice solves (earlier tests solve the same)."""
    from coffeegames.roaster import advice as advice_module

    advice_module._valued_stop.cache_clear()
    advice_module._valued_round.cache_clear()


def test_cancel_stops_the_exact_solve_itself() -> None:
    """Cancelled, the exact solve stops at its next checkpoint (between layers) instead of running on to the end."""
    forget_exact_values()
    game, go_on = decision_view()
    held, finished = game.exact.exact_advise, []
    game.exact.exact_advise = lambda state: finished.append(held(state))
    game.exact_toggle.value = True
    work = game.exact.work
    game.exact.cancel_button.click()
    go_on.set()  # the solve starts only now, already cancelled
    assert work is not None and work.join(120)
    assert finished == [] and work.error is None  # stopped at a checkpoint: no result, no error


def test_a_checkpoint_stops_the_roaster_solvers() -> None:
    from coffeegames.engine.cancel import Cancelled, cancellable

    forget_exact_values()
    game, _ = decision_view()
    stop = threading.Event()
    stop.set()
    with cancellable(stop), pytest.raises(Cancelled):
        advise(game.state, exact=True)
    assert advise(game.state, exact=True)  # outside, the same call runs to its end
