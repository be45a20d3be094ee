"""The decision walkthrough, driven through its callbacks as a user would: Dairyman and a tiny generic game."""

from __future__ import annotations

import base64
import dataclasses
import html
import json
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from coffeegames import dairyman
from coffeegames.dairyman import Drawn, Game, Lock, Rolled, Stop, advise, optimal_turn
from coffeegames.engine import CHANCE, Expectimax, IllegalAction, Sample, Session
from coffeegames.engine.examples import Keep, KeepOrReroll, Reroll
from coffeegames.widgets.adapter import Adapter
from coffeegames.widgets.charts import BASE, HIGHLIGHT, StaticPlot, figure, figure_dict, mean_text, plot_output
from coffeegames.widgets.dairyman_game import dairyman_board, dairyman_walkthrough, parse_roll, roll_owner
from coffeegames.widgets.dairyman_policy import PolicyExplorer
from coffeegames.engine.advice import solver_advice
from coffeegames.widgets.decision import STAR, DecisionView
from coffeegames.widgets.gizmos_game import gizmos_walkthrough
from coffeegames.widgets.roaster_game import roaster_walkthrough
from coffeegames.widgets.rush_game import rush_walkthrough
from coffeegames.widgets.vivajava_game import vivajava_walkthrough

ROLL = "4 6 5 5 1 3 2 y5"
ROLLED = Rolled(dice=(1, 2, 3, 4, 5, 5, 6), yellow=5)


def shown(widget: object) -> str:
    """What an HTML widget shows, as plain text."""
    return html.unescape(widget.value)


def at_first_lock(seed: int = 3, text: str = ROLL) -> DecisionView:
    """You (player 0) against a bot: the bot deals, you type your first roll."""
    view = dairyman_walkthrough(players=2, human=(0,), seed=seed)
    view.bots_button.click()
    view.outcome_text.value = text
    view.outcome_button.click()
    return view


def assert_chart_shows_advice(view: DecisionView) -> None:
    """Bars = the exact advise() values as floats, best first, the best highlighted and starred."""
    rows = advise(view.state)
    valued = sorted((row.value for row in rows if row.value is not None), reverse=True)[: view.max_bars]
    bars = view.chart_fig.data[0]
    assert list(bars.x) == [float(v) for v in valued]
    top = max(valued)
    assert list(bars.marker.color) == [HIGHLIGHT if v == top else BASE for v in valued]
    assert [y.startswith(STAR) for y in bars.y] == [v == top for v in valued]
    assert {row.action for row in view.advice} == {row.action for row in rows}  # every legal action is offered
    assert [row.label for row in view.advice] == [dairyman.describe(row.action) for row in view.advice]  # a player's words
    assert view.actions.options[0][0].startswith(STAR) and len(view.actions.options) == len(rows)


# -- Dairyman: take, undo, type, bots, new game -------------------------------------------


def test_the_chart_shows_every_choice_with_its_exact_value() -> None:
    view = at_first_lock()
    assert view.session.walkthrough.moves[-1] == ROLLED and view.state.phase == "lock"
    assert_chart_shows_advice(view)
    best = view.advice[0]
    assert best.label == "Lock 4+6, 5+5 and 2+3+5 (the yellow die in a set)" and best.value == 30
    assert "30" in view.summary.value and "100%" in view.summary.value  # exact value and bust chance in words
    hover = view.chart_fig.data[0].customdata[1]
    assert "18990515/839808" in hover and "3365/46656" in hover  # Lock(4+6): exact whole-turn value and bust chance


def test_taking_an_action_advances_the_game_and_the_history() -> None:
    view = at_first_lock()
    before, moves = view.state, len(view.session.walkthrough.moves)
    view.actions.value = 1  # not the best: lock one set and roll on
    chosen = view.advice[1].action
    view.take_button.click()
    assert view.message.value == ""
    assert chosen == Lock(sets=((4, 6),)) and view.state == before.apply(chosen)
    assert len(view.session.walkthrough.moves) == moves + 1
    assert view.session.history()[-1] == ("player 0 (you)", "Lock(4+6)")
    assert view.history()[-1] == ("player 0 (you)", "Lock 4+6") and "Lock 4+6" in view.history_panel.value
    assert_chart_shows_advice(view)  # now Stop() against Roll()
    assert {str(row.action) for row in view.advice} >= {"Stop()", "Roll()"}


def test_undo_returns_to_the_state_before_your_move_exactly() -> None:
    view = at_first_lock()
    before, moves = view.state, list(view.session.walkthrough.moves)
    view.take_button.click()
    view.take_button.click()  # two decisions: lock, then stop or roll
    view.undo_button.click()
    view.undo_button.click()
    assert view.state == before and view.session.walkthrough.moves == moves
    assert_chart_shows_advice(view)
    view.undo_button.click()  # back over the typed roll: your roll is to make again
    assert view.state.is_chance() and roll_owner(view.state) == 0


def test_a_typed_roll_becomes_the_rolled_outcome() -> None:
    view = at_first_lock()
    assert view.session.walkthrough.moves[-1] == ROLLED
    assert view.session.history()[-1] == ("chance · player 0 (you)'s roll", "rolled 1 2 3 4 5 5 6, yellow 5")
    assert view.outcome_text.value == ""  # cleared for the next roll


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("4 6 9 5 1 3 2 y2", "1-6"),
        ("4 6 5 y2", "type 7 values (you typed 3)"),
        ("4 6 5 5 1 3 2", "yellow die exactly once"),
        ("4 6 5 5 1 3 2 y5 y6", "yellow die exactly once"),
        ("4 6 5 5 1 3 2 y7", "1-6"),
        ("4 6 5 5 1 3 2 y", "after the y"),
        ("four six", "not a die value"),
        ("", "type the dice you rolled: 7 dice + yellow"),
    ],
)
def test_a_bad_roll_shows_an_error_and_changes_nothing(text: str, says: str) -> None:
    view = dairyman_walkthrough(seed=3)
    view.bots_button.click()
    before, moves = view.state, len(view.session.walkthrough.moves)
    view.outcome_text.value = text
    view.outcome_button.click()
    assert "⚠" in shown(view.message) and says in shown(view.message)
    assert view.state == before and len(view.session.walkthrough.moves) == moves
    view.outcome_text.value = ROLL  # then a good one still works, and the error goes away
    view.outcome_button.click()
    assert view.message.value == "" and view.session.walkthrough.moves[-1] == ROLLED


def test_parse_roll_reads_frozen_rolls_and_draws() -> None:
    state = Game().new_initial_state(seed=1)
    frozen = dataclasses.replace(state, dice=(5,), rolling=2, yellow=4, yellow_at="locked")  # one die kept by ice
    assert not frozen.rolls_yellow
    assert parse_roll("6 4", frozen) == Rolled((4, 6), None)
    with pytest.raises(ValueError, match="yellow die is not rolled"):
        parse_roll("6 4 y3", frozen)
    with pytest.raises(ValueError, match="frozen 5 keep"):
        parse_roll("6 4 5", frozen)
    deal = Game().new_initial_state()
    assert parse_roll("10:cheese1, 20:cheese5 30:cheese3", deal) == Drawn(("10:cheese1", "20:cheese5", "30:cheese3"))
    with pytest.raises(ValueError, match="milk-tile code"):
        parse_roll("10:cheese9x", deal)
    with pytest.raises(IllegalAction, match="type the 3 tile"):
        parse_roll("10:cheese1 10:cheese1 10:cheese1", deal)  # there is only one such tile
    with pytest.raises(IllegalAction, match="no dice are being rolled"):
        parse_roll(ROLL, deal.apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3"))).apply(ROLLED))


def test_wrong_moves_from_the_buttons_show_a_message_and_change_nothing() -> None:
    view = at_first_lock()
    before, moves = view.state, len(view.session.walkthrough.moves)
    for button, says in [
        (view.chance_button, "not chance's move"),
        (view.outcome_button, "nothing to enter"),
        (view.bots_button, "nothing for the bots to do"),
    ]:
        button.click()
        assert says in shown(view.message) and view.state == before and len(view.session.walkthrough.moves) == moves
    with pytest.raises(IllegalAction, match="legal actions are"):
        view.take(Stop())  # an illegal action from code raises and changes nothing
    assert view.state == before
    fresh = dairyman_walkthrough()
    fresh.undo_button.click()
    assert "nothing to undo" in fresh.message.value
    assert fresh.take_button.disabled and not fresh.chance_button.disabled


def test_bots_play_until_a_person_decides_or_rolls() -> None:
    view = dairyman_walkthrough(players=3, human=(1,), seed=5)
    view.bots_button.click()
    assert view.state.is_chance() and roll_owner(view.state) == 1  # stops before your own roll
    assert {who for who, _ in view.session.history()} >= {"player 0 (bot)", "chance"}
    assert view.bots_button.disabled and not view.chance_button.disabled
    view.chance_button.click()
    assert view.state.current_player() == 1 and not view.take_button.disabled
    assert_chart_shows_advice(view)


def test_bots_only_play_to_the_end_and_undo_steps_back_one_decision() -> None:
    view = dairyman_walkthrough(players=2, human=(), seed=2)
    view.bots_button.click()
    assert view.state.is_terminal() and shown(view.status).startswith("<b>Game over · winner:")
    assert shown(view.status) == f"<b>{view.board_fig.layout.title.text}</b>"  # the status and the board say the same scores
    assert view.chart_box.layout.display == "none" and view.summary.value == ""  # said once, not in an empty chart
    end = len(view.session.walkthrough.moves)
    view.undo_button.click()
    assert not view.state.is_chance() and len(view.session.walkthrough.moves) < end
    assert_chart_shows_advice(view)


def test_new_game_with_a_seed_reproduces_the_same_luck() -> None:
    def first_roll(view: DecisionView, seed: int) -> object:
        view.seed_box.value = seed
        view.new_game_button.click()
        assert view.session.walkthrough.moves == [] and "no moves yet" in view.history_panel.value
        view.bots_button.click()  # deal, stop at your roll
        view.chance_button.click()
        return view.session.walkthrough.moves[:2]

    view = dairyman_walkthrough(seed=0)
    assert first_roll(view, 11) == first_roll(view, 11)
    assert first_roll(view, 11) != first_roll(view, 12)
    view.seed_box.value = -1
    view.new_game_button.click()
    assert "0 or more" in view.message.value


def test_the_board_follows_the_game() -> None:
    view = dairyman_walkthrough(players=3, human=(), seed=4)
    w = view.session.walkthrough
    w.run(lambda s: view.session.bots[s.current_player()](s))
    for state in w.states[:: max(1, len(w.states) // 60)] + [w.state]:
        traces, layout = dairyman_board(state)
        assert [t.name for t in traces] == ["dice", "tiles", "labels"] and layout["height"] > 0
    view.refresh()
    dice, tiles, _ = dairyman_board(w.state, view.session.names)[0]
    assert view.board_fig.data[0].x == tuple(dice.x) and view.board_fig.data[1].text == tuple(tiles.text)


def test_many_choices_show_the_best_bars_and_list_them_all() -> None:
    view = at_first_lock()
    view.max_bars = 4
    view.refresh()
    assert len(view.chart_fig.data[0].x) == 4 and "the 4 best of" in view.chart_fig.layout.title.text
    assert len(view.actions.options) == len(advise(view.state))


# -- the policy explorer ------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "points", "cost"), [(8, 10, 5), (12, 1, 5), (6, 3, 0), (3, 10, 60), (2, 10, 5)])
def test_policy_explorer_sliders_redraw_the_policy_table(dice: int, points: int, cost: int) -> None:
    explorer = PolicyExplorer()
    explorer.dice.value, explorer.points_per_set.value, explorer.bust_cost.value = dice, points, cost
    turn = optimal_turn(dice, points, cost)
    table, free = turn.policy_table(), optimal_turn(dice, points, 0).policy_table()
    assert explorer.table.equals(table)
    heat = explorer.fig.data[0]
    assert list(heat.x) == list(table.columns) and list(heat.y) == list(table.index)
    for i, d in enumerate(table.index):
        for j, s in enumerate(table.columns):
            choice = table.loc[d, s]
            if choice == "":
                assert heat.z[i][j] is None
            else:
                margin = turn.roll_value(d, s) - turn.stop_value(d, s)
                assert heat.z[i][j] == float(margin) and (margin > 0) == (choice == "roll")
                assert heat.text[i][j].startswith(choice)
    outlined = {(int(shape.y0 + 0.5), int(shape.x0 + 0.5)) for shape in explorer.fig.layout.shapes}
    assert outlined == {(d, s) for d in table.index for s in table.columns if table.loc[d, s] != free.loc[d, s]}
    assert mean_text(turn.value) in explorer.result.value


# -- generic: a tiny game that is not Dairyman --------------------------------------------


def test_decision_view_is_generic_keep_or_reroll() -> None:
    solver = Expectimax()
    session = Session(KeepOrReroll(), seed=7, parse_outcome=lambda text, state: int(text))
    view = DecisionView(session, Adapter(advise=solver_advice(solver)))
    assert view.board_fig is None and "KeepOrReroll" in view.board_text.value
    assert "cg-board" in view.board_text._dom_classes and view.board_text in view.widget.children
    view.outcome_text.value = "7"  # not a face of a die
    view.outcome_button.click()
    assert "not a possible outcome" in view.message.value and view.state == KeepOrReroll()
    view.outcome_text.value = "2"
    view.outcome_button.click()
    assert view.state == KeepOrReroll(die=2)
    values = dict(solver.action_values(view.state))
    assert list(view.chart_fig.data[0].x) == [3.5, 2.0] == [float(values[Reroll()]), float(values[Keep()])]
    assert view.advice[0].action == Reroll() and view.chart_fig.data[0].y[0] == STAR + "Reroll()"
    assert list(view.table().columns) == ["expected value", "then", "how"]  # no risk column in this game
    view.take_button.click()
    assert view.state == KeepOrReroll(None, rerolled=True) and view.state.current_player() == CHANCE
    view.undo_button.click()
    assert view.state == KeepOrReroll(die=2)
    view.take(Keep())
    assert view.state.is_terminal() and "game is over" in view.status.value


def test_decision_view_without_advice_lists_the_actions_and_bots_play() -> None:
    view = DecisionView(Session(KeepOrReroll(), seed=1))
    assert view.bots_button.layout.display == "none"  # no bots: no "Bots play"
    view.chance_button.click()
    assert [label for label, _ in view.actions.options] == ["Keep()", "Reroll()"]
    assert view.chart_fig.data[0].x in (None, ()) or len(view.chart_fig.data[0].x) == 0
    view.take_button.click()
    assert view.state.is_terminal()
    bots = DecisionView(Session(KeepOrReroll(), seed=1, bots={0: Expectimax().policy()}), Adapter(advise=solver_advice()))
    assert bots.bots_button.layout.display is None
    bots.bots_button.click()
    assert bots.state.is_terminal() and bots.state.returns()[0] == view.state.returns()[0] >= 4
    assert [who for who, _ in bots.session.history()] == ["chance", "player 0 (bot)"]


def test_a_solo_adapter_shows_no_bots_button() -> None:
    solo = DecisionView(Session(KeepOrReroll(), bots={0: Expectimax().policy()}), Adapter(solo=True))
    assert solo.bots_button.layout.display == "none"


# -- static plots: every move redraws what the browser shows ---------------------------------


def _decoded(value: Any) -> Any:
    """Plotly JSON with its typed arrays (``{"dtype": ..., "bdata": ...}``) decoded to lists."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return (array.reshape([int(k) for k in str(shape).split(",")]) if shape else array).tolist()
    if isinstance(value, dict):
        return {k: _decoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decoded(v) for v in value]
    return value


def drawn(plot: StaticPlot) -> dict[str, Any]:
    """The plot the browser draws now: the one output of a StaticPlot, decoded."""
    (output,) = plot.outputs
    return _decoded(output["data"]["application/vnd.plotly.v1+json"])


def descendants(widget: widgets.Widget) -> list[widgets.Widget]:
    return [widget] + [d for child in getattr(widget, "children", ()) for d in descendants(child)]


@pytest.mark.parametrize("make", [
    lambda: dairyman_walkthrough(seed=3),
    lambda: vivajava_walkthrough(solo="omniblend", seed=1),
    lambda: roaster_walkthrough(seed=0),
], ids=["dairyman", "vivajava", "roaster"])
def test_board_and_chart_are_static_plots_with_their_css_classes(make: Any) -> None:
    view = make()
    inside = descendants(view.widget)
    assert not any(isinstance(w, go.FigureWidget) for w in inside)
    assert isinstance(view.board_plot, StaticPlot) and view.board_plot in inside
    assert "cg-board" in view.board_plot._dom_classes and "cg-chart" in view.chart_box._dom_classes
    assert view.chart_box.children == (view.chart,) and isinstance(view.chart, StaticPlot)
    assert drawn(view.board_plot)["layout"]["title"]["text"] == view.board_fig.layout.title.text
    assert drawn(view.board_plot)["config"] == {"displayModeBar": False}


def test_every_move_from_code_redraws_the_board_and_chart() -> None:
    """take() and enter_outcome() redraw the view themselves: no refresh() by hand."""
    view = dairyman_walkthrough(players=2, human=(0,), seed=3)
    view.bots_play()
    board = drawn(view.board_plot)
    view.enter_outcome(ROLL)
    assert drawn(view.board_plot) != board and "lock sets" in drawn(view.board_plot)["layout"]["title"]["text"]
    chart = drawn(view.chart)
    expected = sorted((float(r.value) for r in advise(view.state) if r.value is not None), reverse=True)[: view.max_bars]
    assert chart["data"][0]["x"] == expected
    view.take(view.advice[1].action)
    assert drawn(view.chart) != chart
    assert drawn(view.chart)["data"][0]["x"] == list(view.chart_fig.data[0].x)
    assert [who for who, _ in view.session.history()][-1] in view.history_panel.value


def test_the_exact_box_asks_advise_for_exact_values_and_the_why_panel_follows() -> None:
    """A game whose advise takes ``exact`` and has no explain of its own: ticked, the list and the why panel both come
    from ``advise(state, exact=True)`` (here: expectimax against a deliberately rounded quick value)."""
    solved = solver_advice()
    asked: list[bool] = []

    def advise(state: KeepOrReroll, exact: bool = False) -> Any:
        asked.append(exact)
        rows = solved(state)
        return rows if exact else [dataclasses.replace(r, value=Fraction(round(r.value or 0)), sample=Sample(None, 0.5)) for r in rows]

    view = DecisionView(Session(KeepOrReroll(die=2), seed=1), Adapter(advise=advise, exact_toggle="exact values"))
    assert view.exact_toggle.layout.display is None and {r.value for r in view.advice} == {4, 2}  # 7/2 rounded
    view.exact_toggle.value = True
    assert view.exact.work is not None and view.exact.work.join(60)  # worked out in the background, then redrawn
    assert view.state == KeepOrReroll(die=2) and {r.value for r in view.advice} == {Fraction(7, 2), 2}
    assert view.why is not None and view.why.chosen.value == Fraction(7, 2) and asked[-1] is True


def test_a_bug_in_advise_or_a_board_is_a_traceback_not_a_message() -> None:
    """Buttons catch only the library's input errors; a bug raises (ipywidgets shows its traceback under the cell)."""
    broken = {"advise": False, "board": False}

    def advise(state: KeepOrReroll) -> Any:
        if broken["advise"]:
            raise ZeroDivisionError("a bug in advise")
        return solver_advice()(state)

    def board(state: KeepOrReroll) -> Any:
        if broken["board"]:
            raise KeyError("a bug in the board")
        return [go.Scatter(x=[0], y=[state.die or 0])], {}

    view = DecisionView(Session(KeepOrReroll(), seed=1), Adapter(advise=advise, board=board))
    broken["advise"] = True
    with pytest.raises(ZeroDivisionError):
        view._attempt(view.chance_step)  # what the "Let chance roll" button runs
    assert view.message.value == ""
    broken["advise"], broken["board"] = False, True
    with pytest.raises(KeyError):
        view._attempt(view.undo)
    assert view.message.value == ""
    broken["board"] = False
    view._attempt(lambda: view.take(Keep()))  # a refused move (chance moves now) is a message, not an error
    assert "no player decides now" in view.message.value


def _plotly_json(fig: Any) -> Any:
    """A figure (or its dict) as the JSON the browser receives."""
    return json.loads(pio.to_json(fig, validate=False))


@pytest.mark.parametrize("game", ["dairyman", "vivajava", "roaster", "gizmos", "rush"])
def test_board_figure_dict_is_plotlys_own_figure(game: str) -> None:
    """figure_dict skips plotly's checks for speed: along a seeded game its board must be exactly the figure plotly
    itself makes from the same traces and layout (template expanded, nothing added or dropped)."""
    make = {"dairyman": dairyman_walkthrough, "vivajava": vivajava_walkthrough, "roaster": roaster_walkthrough,
            "gizmos": gizmos_walkthrough, "rush": rush_walkthrough}[game]
    view = make(seed=2)
    rng = np.random.default_rng(5)
    board, state = view.adapter.board, view.state
    assert board is not None
    for _ in range(12):
        traces, layout = board(state)
        assert _plotly_json(figure_dict(traces, layout)) == _plotly_json(go.Figure(data=list(traces), layout=dict(layout)))
        if state.is_terminal():
            break
        state = state.apply(state.sample_chance(rng) if state.is_chance() else state.legal_actions()[-1])
    assert drawn(view.board_plot)["layout"]["template"] == _plotly_json(go.Figure(layout={"template": "plotly_white"}))["layout"]["template"]


@pytest.mark.parametrize("config", [None, {"displayModeBar": False}])
def test_plot_output_is_what_plotlys_mimetype_renderer_makes(config: dict[str, Any] | None) -> None:
    """plot_output builds plotly's mimetype bundle itself (plotly's renderers import nbformat and jsonschema): it must
    be what plotly's own "plotly_mimetype" renderer makes, for a figure and for a board's figure dict."""
    view = roaster_walkthrough(seed=2)
    assert view.adapter.board is not None
    traces, layout = view.adapter.board(view.state)
    for fig in (figure([go.Bar(x=["a", "b"], y=[1, 2.5])], title="two bars"), figure_dict(traces, layout)):
        plain = fig.to_dict() if isinstance(fig, go.Figure) else dict(fig)
        theirs = pio.renderers["plotly_mimetype"].to_mimebundle(dict(plain))
        if config:
            theirs["application/vnd.plotly.v1+json"]["config"] = config
        ours = plot_output(fig, config)["data"]
        assert ours.pop("text/plain") and ours == theirs


def test_a_decision_is_advised_once_for_the_list_the_chart_and_the_why_panel() -> None:
    """The view remembers its advice per position: the "why" panel (here built from ``advise`` alone) and a second
    choice picked in the list reuse it; a new position is advised once more."""
    solved = solver_advice()
    asked: list[KeepOrReroll] = []

    def advise(state: KeepOrReroll) -> Any:
        asked.append(state)
        return solved(state)

    view = DecisionView(Session(KeepOrReroll(), seed=1), Adapter(advise=advise))
    view.chance_step()
    assert view.why is not None and view.why.other is not None  # the panel compares both choices
    view.actions.value = 1  # the other choice, taken apart
    assert view.why is not None and view.why.chosen.label == view.advice[1].label
    assert asked == [view.state]
    view.undo()
    view.chance_step()
    assert len(asked) == len(set(asked)) == (1 if view.state == asked[0] else 2)
