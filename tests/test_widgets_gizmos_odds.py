"""The Gizmos dispenser explorer, driven through its callbacks as a user would."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest

from coffeegames import gizmos
from coffeegames.widgets import DispenserExplorer, StaticPlot
from coffeegames.widgets.charts import fraction_text
from coffeegames.widgets.gizmos_odds import FADED, MARBLE_COLOURS, MAX_DRAWS


def shown(widget: object) -> str:
    return html.unescape(widget.value)  # type: ignore[attr-defined]


def table_rows(text: str) -> list[list[str]]:
    body = re.search(r"<tbody>(.*)</tbody>", text, re.S)
    assert body is not None, text
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body.group(1))]


@pytest.mark.parametrize(("row", "storages", "colour", "cost", "held", "draws"), [
    ("red red blue black yellow yellow", "", "red", 2, 0, 3),
    ("blue:6", "red:5 blue:2, black", "blue", 3, 1, 6),
    ("yellow yellow", "yellow:11", "yellow", 1, 0, 4),  # no yellow left in the dispenser
    ("red blue", "", "any", 7, 4, 2),
])
def test_controls_redraw_the_exact_odds(row, storages, colour, cost, held, draws) -> None:
    explorer = DispenserExplorer()
    explorer.row.value, explorer.storages.value = row, storages
    explorer.colour.value, explorer.cost.value, explorer.held.value, explorer.draws.value = colour, cost, held, draws
    dispenser = gizmos.dispenser_from(gizmos.parse_marbles(row), [gizmos.parse_marbles(storages)])
    dist = gizmos.colour_dist(dispenser, colour, draws)
    assert explorer.message.value == "" and explorer.dispenser == dispenser
    assert explorer.dist == dist and explorer.p_pay == gizmos.p_can_pay(dispenser, colour, cost, draws, held)
    bars, curve = explorer.fig.data
    assert list(bars.x) == list(range(draws + 1)) and list(bars.y) == [float(dist[n]) for n in range(draws + 1)]
    assert list(bars.marker.opacity) == [1.0 if held + n >= cost else FADED for n in range(draws + 1)]
    assert bars.marker.color == MARBLE_COLOURS[colour]
    pay = gizmos.pay_table(dispenser, colour, cost, held, MAX_DRAWS)
    assert explorer.pay.equals(pay) and list(curve.y) == [float(p) for p in pay["P(can pay)"]]
    assert fraction_text(explorer.p_pay) in shown(explorer.result)
    rows = table_rows(shown(explorer.table))
    assert [r[0] for r in rows] == list(gizmos.COLOURS)
    assert [r[1] for r in rows] == [str(dispenser[c]) for c in gizmos.COLOURS]
    assert [r[2] for r in rows] == [fraction_text(Fraction(dispenser[c], dispenser.size)) for c in gizmos.COLOURS]


def test_typed_dispenser_counts_replace_the_row_and_storages() -> None:
    explorer = DispenserExplorer(colour="black", cost=1, draws=2)
    explorer.typed.value = "black:1 red:3"
    assert dict(explorer.dispenser) == {"red": 3, "black": 1}
    assert explorer.p_pay == Fraction(1, 2) and "as typed" in shown(explorer.result)
    explorer.typed.value = ""
    assert explorer.dispenser == gizmos.dispenser_from(gizmos.parse_marbles(explorer.row.value))


def test_the_refill_table_follows_the_picked_marble() -> None:
    explorer = DispenserExplorer(row="red red blue black yellow yellow", picked="blue")
    assert explorer.refill == gizmos.row_after_pick(["red", "red", "blue", "black", "yellow", "yellow"], "blue",
                                                    explorer.dispenser)
    rows = table_rows(shown(explorer.refill_table))
    assert len(rows) == 4 and sum(Fraction(r[1].split()[0]) for r in rows) == 1
    assert ["red red black black yellow yellow", fraction_text(Fraction(12, 46))] in rows
    explorer.row.value = "red red"  # no blue on the row to pick: said, not an error
    assert explorer.refill is None and "No blue marble" in shown(explorer.refill_table) and explorer.message.value == ""


@pytest.mark.parametrize(("control", "text", "says"), [
    ("row", "red red red red red red red", "at most 6"),
    ("row", "green", "'green' is not a colour"),
    ("storages", "red:x", "a count is a whole number"),
    ("storages", "red:13", "hold 15 red marbles"),
    ("typed", "red:14", "the game has 13"),
    ("typed", "red:0", "the dispenser is empty"),
])
def test_bad_text_shows_an_error_and_keeps_the_last_answer(control: str, text: str, says: str) -> None:
    explorer = DispenserExplorer(row="red red blue", storages="red")
    before = (list(explorer.fig.data[0].y), explorer.p_pay, explorer.table.value, explorer.result.value)
    getattr(explorer, control).value = text
    assert says in shown(explorer.message)
    assert (list(explorer.fig.data[0].y), explorer.p_pay, explorer.table.value, explorer.result.value) == before
    getattr(explorer, control).value = ""
    assert explorer.message.value == ""


def test_a_static_plot_with_stable_classes() -> None:
    explorer = DispenserExplorer()
    assert isinstance(explorer.chart, StaticPlot) and explorer.chart in explorer.widget.children
    assert "cg-dispenser-explorer" in explorer.widget._dom_classes
    assert {"cg-dispenser-chart", "cg-dispenser-message", "cg-dispenser-summary", "cg-colour-table", "cg-refill-table"} <= {
        c for part in explorer.widget.children for c in part._dom_classes}
    before = explorer.chart.outputs
    explorer.draws.value = 5
    assert explorer.chart.outputs != before and "within 5 draws" in explorer.chart.outputs[0]["data"]["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in explorer._repr_mimebundle_()
