"""The Dairyman odds widgets, driven through their callbacks as a user would."""

from __future__ import annotations

import base64
import html
import itertools
import re
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import numpy as np
import plotly.graph_objects as go
import pytest

from coffeegames import dairyman
from coffeegames.widgets import (
    BustChanceExplorer,
    MostLockedExplorer,
    RollAdvisor,
    dairyman_walkthrough,
    SimulationCheck,
    fraction_text,
    mean_text,
    parse_dice,
    percent,
)
from coffeegames.widgets.charts import HIGHLIGHT, StaticPlot
from coffeegames.widgets.dairyman_game import outcome_example

PLOTLY_MIME = "application/vnd.plotly.v1+json"


def table_rows(html: str) -> list[list[str]]:
    """The body cells of an HTML table made by ``table_html``."""
    body = re.search(r"<tbody>(.*)</tbody>", html, re.S)
    assert body is not None, html
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body.group(1))]


# -- helpers -----------------------------------------------------------------------


def test_parse_dice_accepts_spaces_and_commas() -> None:
    assert parse_dice(" 4 6,5  5 ") == (4, 5, 5, 6)
    assert parse_dice("") == ()


@pytest.mark.parametrize("text", ["4 x", "4 7", "0", "4.5", " ".join(["1"] * 13)])
def test_parse_dice_rejects_bad_input_clearly(text: str) -> None:
    with pytest.raises((ValueError, TypeError), match="die|dice"):
        parse_dice(text)


def test_fraction_text_and_percent() -> None:
    assert fraction_text(Fraction(1, 12)) == "1/12 (8.3%)"
    assert fraction_text(Fraction(0)) == "0 (0%)"
    assert percent(Fraction(1)) == "100%"
    assert percent(dairyman.p_bust(12)) == "0.05%"  # a real chance never shows as 0.0%
    assert percent(dairyman.p_any_set(12)) == "99.95%"  # nor as 100.0%
    assert mean_text(Fraction(3)) == "3"


def views() -> list:
    return [BustChanceExplorer(), MostLockedExplorer(), RollAdvisor(), SimulationCheck(trials=100)]


def test_widgets_display_as_jupyter_widgets() -> None:
    for view in views():
        assert "application/vnd.jupyter.widget-view+json" in view._repr_mimebundle_()


def _decoded(value: Any) -> Any:
    """Plotly JSON with its typed arrays (``{"dtype": ..., "bdata": ...}``) decoded to numpy arrays."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return array.reshape([int(k) for k in str(shape).split(",")]) if shape else array
    if isinstance(value, dict):
        return {k: _decoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decoded(v) for v in value]
    return value


def shown(view: Any) -> go.Figure:
    """The figure the browser draws now: the one output of the view's StaticPlot, decoded."""
    assert isinstance(view.chart, StaticPlot) and len(view.chart.outputs) == 1
    return go.Figure(_decoded(view.chart.outputs[0]["data"][PLOTLY_MIME]))


def assert_shows_its_figure(view: Any) -> None:
    picture = shown(view)
    assert picture.layout.title.text == view.fig.layout.title.text
    assert len(picture.data) == len(view.fig.data)
    for drawn, trace in zip(picture.data, view.fig.data):
        for axis in ("x", "y"):
            want, got = getattr(trace, axis), getattr(drawn, axis)
            assert (want is None) == (got is None), (type(view).__name__, axis)
            if want is not None:
                assert list(np.asarray(got)) == list(np.asarray(want)), (type(view).__name__, axis)


def test_no_figure_widgets_on_the_page() -> None:
    """Each view shows a plain plot in an Output widget, not a FigureWidget.

    Each FigureWidget (an anywidget) has ~2 s in the browser to start; four on the
    notebook's Voila page left the later ones frozen after their first drawing.
    """

    def descendants(widget: widgets.Widget) -> list[widgets.Widget]:
        return [widget] + [d for child in getattr(widget, "children", ()) for d in descendants(child)]

    for view in views():
        inside = descendants(view.widget)
        assert view.chart in inside
        assert not any(isinstance(w, go.FigureWidget) for w in inside), type(view).__name__


def test_figures_are_shown_with_their_data() -> None:
    """The plot a browser first draws already holds every trace's data and the title."""
    for view in views():
        assert_shows_its_figure(view)
        assert view.chart.outputs[0]["data"]["text/plain"] == view.fig.layout.title.text


def _move(view: Any) -> str:
    """Change the view's main control as a learner would; return a piece of the new title."""
    if isinstance(view, BustChanceExplorer):
        view.frozen.value = "5"
        return "with 5 frozen"
    if isinstance(view, MostLockedExplorer):
        view.dice.value = 5
        return "of 5 dice"
    if isinstance(view, RollAdvisor):
        view.roll.value = "1 1 2 3"
        view.button.click()
        return "Roll 1 1 2 3"
    view.seed.value = 5
    return "(seed 5)"


def test_a_control_change_redraws_the_shown_plot() -> None:
    for view in views():
        before = view.chart.outputs
        title = _move(view)
        assert view.chart.outputs != before, type(view).__name__
        assert title in shown(view).layout.title.text
        assert_shows_its_figure(view)


def test_first_static_plot_in_a_kernel_preloads_plotly(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a kernel, the first StaticPlot displays one tiny plain plot first, so the browser loads plotly.js early.

    Without it the first chart's plotly.js load, inside the widget restore, blocked a slow
    browser long enough that Voila showed "Error displaying widget: model not found".
    """
    from coffeegames.widgets import charts

    shown_outputs: list[dict] = []
    monkeypatch.setattr(charts, "get_ipython", lambda: type("Shell", (), {"kernel": object()})())
    monkeypatch.setattr(charts, "display", lambda obj, raw=False: shown_outputs.append(obj))
    monkeypatch.setattr(StaticPlot, "_preloaded", False)
    views()
    assert len(shown_outputs) == 1 and PLOTLY_MIME in shown_outputs[0]


def test_no_preload_without_a_kernel(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(StaticPlot, "_preloaded", False)
    SimulationCheck(trials=100)
    assert capsys.readouterr().out == "" and not StaticPlot._preloaded


def test_bad_input_keeps_the_shown_plot() -> None:
    check = SimulationCheck(trials=100)
    before = check.chart.outputs
    check.seed.value = -1
    assert "⚠" in check.message.value and check.chart.outputs == before


# -- BustChanceExplorer ------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 8, 12])
def test_bust_explorer_highlights_the_chosen_number_of_dice(n: int) -> None:
    explorer = BustChanceExplorer(dice=1)
    explorer.dice.value = n
    bar = explorer.fig.data[0]
    assert list(bar.x) == list(range(1, 13))
    assert list(bar.y) == [float(dairyman.p_bust(k)) for k in range(1, 13)]
    assert [i for i, c in enumerate(bar.marker.color) if c == HIGHLIGHT] == [n - 1]
    assert bar.customdata[n - 1] == fraction_text(dairyman.p_bust(n))
    assert explorer.p_bust == dairyman.p_bust(n)
    assert fraction_text(dairyman.p_bust(n)) in explorer.result.value
    assert fraction_text(dairyman.p_any_set(n)) in explorer.result.value


def test_bust_explorer_with_frozen_dice() -> None:
    explorer = BustChanceExplorer(dice=2)
    explorer.frozen.value = "5"
    bar = explorer.fig.data[0]
    assert explorer.dice.max == 11 and list(bar.x) == list(range(1, 12))
    assert list(bar.y) == [float(dairyman.p_bust(k, [5])) for k in range(1, 12)]
    assert explorer.p_bust == dairyman.p_bust(2, [5]) == Fraction(19, 36)
    assert "beside frozen 5" in explorer.result.value
    # the plain answer is beside it, so a frozen die typed earlier is not mistaken for it
    assert f"With nothing frozen, 2 dice bust with chance {fraction_text(dairyman.p_bust(2))}" in explorer.result.value
    explorer.frozen.value = "5 5"  # a frozen set: nothing can bust
    assert set(explorer.fig.data[0].y) == {0.0}


def test_bust_explorer_keeps_dice_plus_frozen_within_twelve() -> None:
    explorer = BustChanceExplorer(dice=11)
    explorer.frozen.value = "1 2 3"
    assert (explorer.dice.max, explorer.dice.value) == (9, 9)
    assert explorer.fig.data[0].marker.color[-1] == HIGHLIGHT
    assert explorer.p_bust == dairyman.p_bust(9, [1, 2, 3])


@pytest.mark.parametrize("bad", ["5 seven", "5 7", " ".join(["5"] * 12)])
def test_bust_explorer_bad_frozen_shows_error_and_keeps_chart(bad: str) -> None:
    explorer = BustChanceExplorer(dice=4, frozen="3")
    before = (explorer.fig.data[0].to_plotly_json(), explorer.result.value)
    explorer.frozen.value = bad
    assert "⚠" in explorer.message.value
    assert (explorer.fig.data[0].to_plotly_json(), explorer.result.value) == before
    assert explorer.p_bust == dairyman.p_bust(4, [3])
    explorer.frozen.value = "3 3"
    assert explorer.message.value == ""
    assert explorer.p_bust == dairyman.p_bust(4, [3, 3])


# -- MostLockedExplorer ------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 8, 12])
def test_most_locked_bars_are_the_exact_distributions(n: int) -> None:
    explorer = MostLockedExplorer(dice=3)
    explorer.dice.value = n
    dice_bar, sets_bar, dice_mean, sets_mean = explorer.fig.data
    for bar, line, dist in (
        (dice_bar, dice_mean, dairyman.most_dice_locked(n)),
        (sets_bar, sets_mean, dairyman.most_sets_locked(n)),
    ):
        assert set(dist) <= set(bar.x)
        assert list(bar.y) == [float(dist[x]) for x in bar.x]
        assert list(bar.customdata) == [fraction_text(dist[x]) for x in bar.x]
        assert list(line.x) == [float(dist.mean())] * 2
        assert mean_text(dist.mean()) in explorer.result.value
    assert list(dice_bar.x) == list(range(n + 1))
    if n >= 2:
        assert dice_bar.y[1] == 0  # one die alone is never a set
    assert fraction_text(dairyman.p_bust(n)) in explorer.result.value


# -- RollAdvisor -------------------------------------------------------------------


@pytest.mark.parametrize("roll", ["4 6 5 5 1 3 2 2", "4 6 5 5", "2 2 6 2 2 6 1 3 6 4 4 4"])
def test_roll_advisor_lists_every_lock(roll: str) -> None:
    advisor = RollAdvisor("1")
    advisor.roll.value = roll
    options = dairyman.lock_options(parse_dice(roll))
    rows = table_rows(advisor.locks.value)
    assert len(rows) == len(options) == len(advisor.fig.data[0].y)
    assert [r[-1] for r in rows] == [fraction_text(o.p_bust_next) for o in options]
    assert list(advisor.fig.data[0].x) == [float(o.p_bust_next) for o in options]
    assert [int(r[2]) for r in rows] == [len(o.left) for o in options]
    assert len(table_rows(advisor.rerolls.value)) == len(dairyman.reroll_table(parse_dice(roll)))
    assert advisor.message.value == ""


@pytest.mark.parametrize("bad", ["4 6 7", "four six", "", " ".join(["5"] * 13)])
def test_roll_advisor_bad_roll_keeps_previous_answer(bad: str) -> None:
    advisor = RollAdvisor("4 6 5 5 1 3 2 2")
    before = (advisor.locks.value, advisor.rerolls.value, advisor.fig.data[0].to_plotly_json())
    advisor.roll.value = bad
    advisor.button.click()
    assert "⚠" in advisor.message.value
    assert (advisor.locks.value, advisor.rerolls.value, advisor.fig.data[0].to_plotly_json()) == before
    assert len(advisor.options) == 12


def test_roll_advisor_bust_roll_points_to_ice_cream() -> None:
    advisor = RollAdvisor("1 2 2")
    assert advisor.options == [] and len(advisor.fig.data[0].y) == 0
    assert "busts" in advisor.summary.value
    rows = table_rows(advisor.rerolls.value)
    assert rows[0] == ["nothing (keep the roll)", "", "0", "1 (100%)"]
    assert ["all 2s", "reroll-2s or chosen-value tile", "2", fraction_text(dairyman.reroll_p_bust([1, 2, 2], 2))] in rows
    assert len(rows) == 3  # keep, the 1s, the 2s: each reroll once
    assert "busts" in advisor.fig.layout.annotations[0].text and not advisor.fig.layout.xaxis.visible
    advisor.roll.value = "4 6"
    assert advisor.fig.layout.annotations == () and advisor.fig.layout.xaxis.visible


def test_roll_advisor_button_recomputes() -> None:
    advisor = RollAdvisor("4 6 5 5")
    advisor.locks.value = ""
    advisor.button.click()
    assert len(table_rows(advisor.locks.value)) == 3


# -- SimulationCheck ---------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 6, 12])
def test_simulation_converges_to_the_exact_line(n: int) -> None:
    check = SimulationCheck(dice=1, trials=1_000)
    check.trials.value = 30_000
    check.dice.value = n
    exact = dairyman.p_any_set(n)
    low, high, exact_line, simulated = check.fig.data
    assert check.exact == exact and list(exact_line.y) == [float(exact)] * 2
    assert check.estimate is not None and check.estimate.trials == 30_000
    assert check.estimate.contains(exact)
    assert simulated.x[-1] == 30_000 and simulated.y[-1] == check.estimate.p
    assert all(lo <= float(exact) <= hi for lo, hi in zip(low.y, high.y))
    assert fraction_text(exact) in check.result.value and "inside" in check.result.value


def test_simulation_is_reproducible_from_its_seed() -> None:
    check = SimulationCheck(dice=4, trials=3_000, seed=7)
    first = list(check.fig.data[3].y)
    check.seed.value = 8
    assert list(check.fig.data[3].y) != first
    check.seed.value = 7
    assert list(check.fig.data[3].y) == first


def test_the_board_says_flip_or_end_once_ordered() -> None:
    """With flip_after_order (the default) the turn goes on after ordering: the board's headline says so."""
    from coffeegames.engine import Walkthrough
    from coffeegames.widgets.dairyman_game import dairyman_board

    game = dairyman.Game()
    for seed in range(20):
        walk = Walkthrough(game.new_initial_state(), seed=seed)
        walk.run(dairyman.greedy_policy, until=lambda s: bool(getattr(s, "ordered", False)) and not s.is_chance())
        if not walk.state.is_terminal():
            break
    state = walk.state
    assert state.ordered and state.phase == "order"
    _, layout = dairyman_board(state)
    assert "ordered: flip tiles, or end the turn" in layout["title"]["text"]
    assert dairyman.EndTurn() in state.legal_actions()


def test_the_opening_draw_deals_for_a_learner_and_asks_for_no_tile_codes() -> None:
    """Against bots the opening display is dealt by the view: one line says so, the outcome box is hidden and the
    status asks for nothing typed; ticking "type the tiles on your table" brings the box back for a real table."""
    view = dairyman_walkthrough(seed=1)
    assert view.state.phase == "draw" and not view.state.display  # the opening display is dealt first
    assert view.outcome_row.layout.display == "none" and view.deal_row.layout.display is None
    assert not view.type_toggle.value and view.type_toggle.description == "type the tiles on your table"
    assert "The display is dealt: 3 milk tiles from the shuffled deck" in view.deal_note.value
    assert view.chance_button.description == "Deal the tiles for me" and "Deal the tiles for me" in view.status.value
    assert "tile" not in view.status.value.replace("Deal the tiles for me", "") and "code" not in view.status.value
    assert {"cg-deal-note"} <= set(view.deal_note._dom_classes) and {"cg-type-toggle"} <= set(view.type_toggle._dom_classes)
    view.chance_button.click()  # "deal for me"
    assert len(view.state.display) == 3 and not view.message.value
    assert view.deal_row.layout.display == "none"  # no deal now: no note, no checkbox

    at_table = dairyman_walkthrough(seed=1)
    at_table.type_toggle.value = True  # a player at a real table types the display they laid out
    assert at_table.outcome_row.layout.display is None and "enter the tiles drawn" in at_table.status.value
    assert (at_table.outcome_text.description, at_table.outcome_button.description) == ("tiles drawn", "Enter the tiles drawn")
    example = outcome_example(at_table.state)
    assert example in at_table.outcome_text.placeholder and "real table only" not in at_table.outcome_text.placeholder
    at_table.outcome_text.value = example
    at_table.outcome_button.click()
    assert not at_table.message.value and " ".join(at_table.state.display) == example


def test_companion_mode_shows_the_tile_box_from_the_start() -> None:
    view = dairyman_walkthrough(human=(0, 1), seed=1)  # everyone at a real table: no bots
    assert view.type_toggle.value and view.outcome_row.layout.display is None
    assert "enter the tiles drawn" in view.status.value and "The display is dealt" in view.deal_note.value
    view.type_toggle.value = False  # they may still let the view deal
    assert view.outcome_row.layout.display == "none" and "enter the tiles drawn" not in view.status.value


def test_the_outcome_box_names_what_chance_does_at_each_node() -> None:
    """A tile draw asks for tiles, a roll for dice: the box, its button and the status say which."""
    view = dairyman_walkthrough(seed=1)
    view.type_toggle.value = True
    assert view.state.phase == "draw"  # the opening display is dealt first
    assert (view.outcome_text.description, view.outcome_button.description) == ("tiles drawn", "Enter the tiles drawn")
    assert "enter the tiles drawn" in view.status.value
    view.chance_button.click()
    while view.state.phase != "roll":
        view.chance_button.click() if view.state.is_chance() else view.take(view.state.legal_actions()[0])
    assert (view.outcome_text.description, view.outcome_button.description) == ("you rolled", "Enter the dice you rolled")
    assert "enter the dice you rolled" in view.status.value
    assert view.outcome_row.layout.display is None and view.deal_row.layout.display == "none"  # a roll: the box shows


# -- the policy explorer with a display ---------------------------------------------------


@pytest.mark.parametrize(("dice", "tiles", "cost"), [(12, (10, 40, 40), 5), (8, (20, 20, 30), 5), (10, (40, 40, 40), 0)])
def test_policy_explorer_display_redraws_the_map(dice: int, tiles: tuple[int, int, int], cost: int) -> None:
    from coffeegames.widgets import PolicyExplorer

    explorer = PolicyExplorer()
    assert all(t.disabled for t in explorer.tiles)  # points per set first: the tiles do not enter
    explorer.dice.value, explorer.bust_cost.value = dice, cost
    explorer.scoring.value = "display"
    for widget, value in zip(explorer.tiles, tiles):
        widget.value = value
    turn = dairyman.optimal_turn(dice, bust_cost=cost, payoff=dairyman.display_payoff(list(tiles)))
    table, linear = turn.policy_table(), dairyman.optimal_turn(dice, 10, cost).policy_table()
    assert explorer.table.equals(table) and explorer.turn.value == turn.value
    assert not any(t.disabled for t in explorer.tiles)
    outlined = {(int(shape.y0 + 0.5), int(shape.x0 + 0.5)) for shape in explorer.fig.layout.shapes}
    assert outlined == set(explorer.changed) == {(d, s) for d in table.index for s in table.columns if table.loc[d, s] != linear.loc[d, s]}
    assert "tiles " + " / ".join(map(str, tiles)) in explorer.fig.layout.title.text
    assert turn.assumptions in explorer.result.value


def test_policy_explorer_defaults_are_the_games_numbers() -> None:
    from coffeegames.widgets import PolicyExplorer

    explorer = PolicyExplorer()
    assert (explorer.dice.value, explorer.points_per_set.value, explorer.bust_cost.value) == (8, dairyman.POINTS_PER_SET, dairyman.BUST_COST)
    assert explorer.turn.value == dairyman.optimal_turn().value
    assert PolicyExplorer(display=(10, 40, 40)).turn.value == dairyman.optimal_turn(payoff=dairyman.display_payoff([10, 40, 40])).value


def test_order_choices_name_tiles_as_the_board_shows_them_not_by_code() -> None:
    """At an order decision the list reads "Order 20 (cheese 5)", the words on the board's tiles, not "20:cheese5"."""
    view = dairyman_walkthrough(players=2, seed=1)
    for _ in range(80):
        state = view.state
        if not state.is_chance() and any(isinstance(a, dairyman.Order) and a.tiles for a in state.legal_actions()):
            break
        (view.chance_button if state.is_chance() else view.take_button).click()
    else:
        pytest.fail("no order decision within 80 steps")
    orders = [(r.action, r.label) for r in view.advice if isinstance(r.action, dairyman.Order) and r.action.tiles]
    for action, label in orders:
        tiles = [dairyman.tile_of(code) for code in action.tiles]
        assert not any(code in label for code in action.tiles), label
        assert all(f"{t.value} (cheese {t.cheese})" in label for t in tiles if t.cheese is not None), label
    texts = " ".join(text for text, _ in view.actions.options)
    assert not re.search(r"\d+:(cheese|ice)", texts), texts


# -- the policy map's why panel, against a brute force over the dice ----------------------


def _locks(roll: tuple[int, ...]) -> set[tuple[int, int]]:
    """Every lock the rules allow from ``roll`` as (sets, dice used): one or more disjoint sets of 2 or 3 dice summing to ten."""
    found: set[tuple[int, int]] = set()

    def walk(free: tuple[int, ...], sets: int, used: int) -> None:
        if sets:
            found.add((sets, used))
        if not free:
            return
        first, rest = free[0], free[1:]
        walk(rest, sets, used)  # the first free die stays out of every further set
        for i, b in enumerate(rest):
            if first + b == 10:
                walk(rest[:i] + rest[i + 1:], sets + 1, used + 2)
            for j in range(i + 1, len(rest)):
                if first + b + rest[j] == 10:
                    walk(tuple(x for k, x in enumerate(rest) if k not in (i, j)), sets + 1, used + 3)

    walk(roll, 0, 0)
    return found


def _brute_turn(points: int, cost: int) -> Any:
    """best(d, s) and the next roll's law at (d, s), by listing all 6^d ordered rolls (written from the rules)."""
    from functools import cache

    @cache
    def best(d: int, s: int) -> Fraction:
        stop = Fraction(points * s)
        return stop if d == 0 else max(stop, sum((v * p for v, p in roll(d, s).items()), Fraction(0)))

    @cache
    def roll(d: int, s: int) -> dict[Fraction, Fraction]:
        law: dict[Fraction, Fraction] = {}
        for r in itertools.product(range(1, 7), repeat=d):
            locks = _locks(r)
            v = max((best(d - u, s + t) for t, u in locks), default=Fraction(-cost))
            law[v] = law.get(v, Fraction(0)) + Fraction(1, 6**d)
        return law

    return best, roll


@pytest.mark.parametrize(("dice", "points", "cost", "cell"), [(8, 10, 5, (5, 1)), (8, 1, 5, (5, 1)), (8, 10, 5, (4, 2)), (6, 3, 0, (3, 1))])
def test_policy_map_cell_why_panel_equals_a_brute_force_over_the_dice(dice: int, points: int, cost: int, cell: tuple[int, int]) -> None:
    """Issue 27: "5 dice left, 1 set locked, 10 points a set, a bust costs 5: roll or stop, and why?" answered by the map's panel."""
    from coffeegames.widgets import PolicyExplorer

    explorer = PolicyExplorer()
    explorer.dice.value, explorer.points_per_set.value, explorer.bust_cost.value = dice, points, cost
    explorer.cell.value = cell
    d, s = cell
    best, roll = _brute_turn(points, cost)
    law = roll(d, s)
    rolled, stopped = sum((v * p for v, p in law.items()), Fraction(0)), Fraction(points * s)
    why = explorer.why
    assert why is not None
    chosen, other = (why.chosen, why.other) if why.chosen.label == "roll on" else (why.other, why.chosen)
    assert other is not None and other.label == "stop" and other.value == stopped and other.certain
    assert chosen.value == rolled and chosen.total == rolled and sum(t.chance for t in chosen.terms) == 1
    by_value: dict[Fraction, Fraction] = {}
    for term in chosen.terms:  # each outcome with its exact chance: the same law of values as the brute force
        by_value[term.value] = by_value.get(term.value, Fraction(0)) + term.chance
    assert by_value == law
    bust = [t for t in chosen.terms if t.outcome.startswith("bust")]
    assert [t.chance for t in bust] == [law.get(Fraction(-cost), Fraction(0))] and bust[0].value == -cost
    shown = why.chosen.label  # the map's own choice comes first (ties stop), and the cell's label says it
    assert shown == ("roll on" if rolled > stopped else "stop") and explorer.cell.label.endswith("roll" if rolled > stopped else "stop")
    panel = explorer.why_panel.value
    assert chosen.equation() in html.unescape(panel) and other.equation() in html.unescape(panel)
    gap = abs(rolled - stopped)
    assert (str(gap) in why.difference or f"{float(gap):.2f}" in why.difference) and "runner-up" in why.difference


def test_why_panels_speak_plain_words_first_and_show_the_model_behind_the_toggle() -> None:
    """Issue 27: no "whole-turn model: … net of the ice held" in the panel until the learner asks for the model's details."""
    from coffeegames.engine import Session
    from coffeegames.engine.examples import KeepOrReroll
    from coffeegames.widgets import PolicyExplorer
    from coffeegames.widgets.decision import Adapter, DecisionView, solver_advice

    view = dairyman_walkthrough(players=2, human=(0,), seed=3)
    view.bots_button.click()
    view.chance_button.click()  # a roll: the lock decision, valued by the whole-turn model
    assert view.why is not None and view.details_toggle.layout.display is None and not view.details_toggle.value
    plain = view.why_panel.value
    assert "whole-turn model" not in plain and "net of the ice" not in plain and "expected to bring" in plain
    view.details_toggle.value = True  # the checkbox's callback redraws the same panel with the model's details
    detailed = view.why_panel.value
    assert "whole-turn model" in detailed and "a stop buys from the display" in detailed and plain.split("<table")[1] in detailed
    explorer = PolicyExplorer()
    assert "plain-turn model" not in explorer.why_panel.value
    explorer.details_toggle.value = True
    assert "plain-turn model" in explorer.why_panel.value
    other = DecisionView(Session(KeepOrReroll(), seed=1), Adapter(advise=solver_advice()))
    other.chance_button.click()
    assert other.why is not None and other.details_toggle.layout.display == "none"  # no details given: no toggle


def test_a_walkthrough_starts_from_a_position_the_learner_types() -> None:
    """Issue 27: dice left, sets locked and the display typed into the view's boxes; the button starts there."""
    view = dairyman_walkthrough(players=2, human=(0,), seed=4)
    view.position_dice.value, view.position_sets.value, view.position_display.value = 5, 1, "10:cheese1, 20:cheese5 30:cheese3"
    view.position_button.click()
    state = view.state
    assert (state.turn, state.phase, state.dice_left, state.sets_locked) == (0, "continue", 5, 1)
    assert state.display == ("10:cheese1", "20:cheese5", "30:cheese3") and view.message.value == ""
    labels = {row.label: row.value for row in view.advice}
    assert labels["Stop and order"] == 10  # one set (barn value 10) buys the 10 tile, by hand
    no_set = sum(1 for r in itertools.product(range(1, 7), repeat=5) if not _locks(r))
    view.actions.value = next(i for i, row in enumerate(view.advice) if row.label == "Roll again")
    why = view.why
    assert why is not None and why.chosen.value == labels["Roll again"] == why.chosen.total
    bust = [t for t in why.chosen.terms if t.outcome.startswith("bust")]
    assert [t.chance for t in bust] == [Fraction(no_set, 6**5)] and bust[0].value == -5
    view.take_button.click()  # play on from there; New game comes back to the typed position
    assert view.state.phase == "roll"
    view.new_game_button.click()
    assert (view.state.dice_left, view.state.sets_locked, view.state.display) == (5, 1, state.display)
    before = view.state
    for dice, sets, display in ((6, 2, "10:cheese1 20:cheese5 30:cheese3"), (5, 0, "10:cheese1 20:cheese5 30:cheese3"),
                                (5, 1, "10:cheese1 99:nothing 30:cheese3"), (5, 1, "10:cheese1")):
        view.position_dice.value, view.position_sets.value, view.position_display.value = dice, sets, display
        view.position_button.click()
        assert view.state is before and "⚠" in view.message.value  # refused with a reason, nothing changed
    assert "2-4 after 2 sets" in _position_error(6, 2)


def _position_error(dice: int, sets: int) -> str:
    with pytest.raises(ValueError) as error:
        dairyman.turn_position(dice, sets, "10:cheese1 20:cheese5 30:cheese3")
    return str(error.value)
