"""The Gizmos energy dispenser in a widget: type the row and the storages, pick a cost, read the draw odds.

:class:`DispenserExplorer` works out the dispenser (52 marbles minus the row and every
storage, :func:`coffeegames.gizmos.dispenser_from`, or counts typed directly), then shows,
for a cost (colour, amount, energy of it already held) and a number of random draws:

* left chart: how many marbles of that colour the draws bring (bright bars pay the cost);
* right chart: P(able to pay) after 0, 1, … draws (:func:`~coffeegames.gizmos.pay_table`);
* a table of every colour (its share of the dispenser, the chance a refill is that colour,
  P(at least one) in the draws, the expected count);
* the row's make-up after picking a marble and the refill (:func:`~coffeegames.gizmos.row_after_pick`).

Every number is an exact Fraction from :mod:`coffeegames.gizmos`. Bad input shows an error
and keeps the last good answer.

Example:
    >>> explorer = DispenserExplorer(row="red red blue black yellow yellow", colour="red", cost=2, draws=3)
    >>> explorer.p_pay
    Fraction(19, 138)
    >>> explorer.held.value = 1              # one red already stored: one more in three draws
    >>> explorer.p_pay == gizmos.p_can_pay(explorer.dispenser, "red", 2, 3, held=1)
    True
    >>> explorer.row.value = "red red red red red red red"
    >>> "at most 6" in explorer.message.value, explorer.dispenser["red"]
    (True, 11)
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from .. import gizmos
from ..errors import BadArgument, BadEntry
from ..exact import Bag, Dist
from ..gizmos import ANY, COLOURS, MARBLES, marbles_text, parse_marbles
from ..validate import Checker
from .charts import EXACT, View, figure, fraction_text, mean_text, percent, table_html

__all__ = ["DispenserExplorer", "MARBLE_COLOURS", "MAX_DRAWS", "MAX_COST"]

MARBLE_COLOURS: dict[str, str] = {"red": "#e03131", "blue": "#1c7ed6", "black": "#343a40", "yellow": "#fcc419", ANY: "#868e96"}
"""How each energy colour is drawn (``any``: a multicolour cost)."""
MAX_DRAWS = 10
"""The most random draws the sliders ask about."""
MAX_COST = 7
"""The largest cost on a card (the multicolour level-III cards)."""
FADED = 0.3


@dataclass(frozen=True)
class _Odds:
    dispenser: Bag
    typed: bool
    colour: str
    cost: int
    held: int
    draws: int
    dist: Dist
    p_pay: Fraction
    pay: pd.DataFrame
    colours: pd.DataFrame
    picked: str
    refill: Dist | None


class DispenserExplorer(View):
    """The exact odds of random draws from the Gizmos energy dispenser.

    Controls: ``row`` (Text: the marbles on the energy row, ``red red blue`` or ``red:2 blue``),
    ``storages`` (Text: every marble in every player's storage, together), ``typed``
    (Text: the dispenser's counts; empty means 52 − row − storages), ``colour`` and ``cost``
    (the cost to pay; ``any`` is a multicolour cost), ``held`` (energy of that colour already
    stored), ``draws`` (random draws) and ``picked`` (the marble picked from the row, for the
    refill table). Public results: ``dispenser``, ``dist`` (marbles of the colour among the
    draws), ``p_pay``, ``pay`` and ``colours`` (DataFrames of Fractions), ``refill`` (the
    row after the pick, or None when that colour is not on the row).
    """

    def __init__(self, row: str = "red red blue black yellow yellow", storages: str = "", dispenser: str = "",
                 colour: str = "red", cost: int = 2, held: int = 0, draws: int = 3, picked: str = "red") -> None:
        check = Checker("DispenserExplorer", BadArgument)
        for value, where in ((row, "row"), (storages, "storages"), (dispenser, "dispenser")):
            check.text(value, where)  # typed text: a typo in it shows a message, as in the box
        check.one_of(colour, "colour", [*COLOURS, ANY])
        check.whole(cost, "cost", 1, MAX_COST)
        check.whole(held, "held", 0, MAX_COST)
        check.whole(draws, "draws", 1, MAX_DRAWS)
        check.one_of(picked, "picked", COLOURS)
        style = {"description_width": "initial"}
        text = partial(widgets.Text, continuous_update=False, style=style, layout=widgets.Layout(width="520px"))
        self.row = text(value=row, description="energy row", placeholder="six marbles, e.g. red red blue black yellow yellow")
        self.storages = text(value=storages, description="in storages (all players)", placeholder="e.g. red:2 blue black")
        self.typed = text(value=dispenser, description="dispenser",
                          placeholder="empty: 52 marbles minus the row and storages; or counts, e.g. red:9 blue:11")
        slider = partial(widgets.IntSlider, continuous_update=False, style=style)
        pick = partial(widgets.Dropdown, style=style, layout=widgets.Layout(width="200px"))
        self.colour = pick(options=[*COLOURS, ANY], value=colour, description="pay a cost of")
        self.cost = slider(value=cost, min=1, max=MAX_COST, description="energy")
        self.held = slider(value=held, min=0, max=MAX_COST, description="already held")
        self.draws = slider(value=draws, min=1, max=MAX_DRAWS, description="random draws")
        self.picked = pick(options=list(COLOURS), value=picked, description="pick from the row")
        self.message = widgets.HTML()
        self.result = widgets.HTML()
        self.table = widgets.HTML()
        self.refill_table = widgets.HTML()
        hover = "%{customdata}<extra></extra>"
        from plotly.subplots import make_subplots  # plotly's figure machinery loads here, not on import

        chart = figure(
            make_subplots(rows=1, cols=2, column_widths=[0.5, 0.5], horizontal_spacing=0.12,
                          subplot_titles=["marbles of the colour among the draws", "P(able to pay) after k draws"]),
            height=400,
            margin=dict(t=90),
        )
        chart.add_trace(go.Bar(hovertemplate=hover), row=1, col=1)
        chart.add_trace(go.Scatter(mode="lines+markers", line=dict(color=EXACT), hovertemplate=hover), row=1, col=2)
        chart.update_xaxes(title_text="marbles of the colour drawn", dtick=1, row=1, col=1)
        chart.update_xaxes(title_text="random draws", dtick=1, row=1, col=2)
        chart.update_yaxes(title_text="probability", tickformat=".0%", rangemode="tozero", row=1, col=1)
        chart.update_yaxes(tickformat=".0%", range=[0, 1.04], row=1, col=2)
        self._start(chart, [self.row, self.storages, self.typed, self.colour, self.cost, self.held, self.draws, self.picked])
        self.widget = widgets.VBox([
            self.row, self.storages, self.typed,
            widgets.HBox([self.colour, self.cost, self.held]), widgets.HBox([self.draws, self.picked]),
            self.message, self.result, self.chart, self.table, self.refill_table,
        ])
        # its own class names: a walkthrough on the same page owns cg-chart, cg-message, cg-summary (the browser test)
        for part, name in [(self.widget, "cg-dispenser-explorer"), (self.message, "cg-dispenser-message"),
                           (self.result, "cg-dispenser-summary"), (self.chart, "cg-dispenser-chart"),
                           (self.table, "cg-colour-table"), (self.refill_table, "cg-refill-table")]:
            part.add_class(name)

    def _compute(self) -> _Odds:
        row = parse_marbles(self.row.value, "energy row")
        typed = bool(self.typed.value.strip())
        if typed:
            dispenser = gizmos.as_dispenser(parse_marbles(self.typed.value, "dispenser"))
        else:
            dispenser = gizmos.dispenser_from(row, [parse_marbles(self.storages.value, "storages")])
        if dispenser.size == 0:
            raise BadEntry("the dispenser is empty: no marble can be drawn", "dispenser")
        colour, cost, held, draws, picked = (self.colour.value, self.cost.value, self.held.value, self.draws.value,
                                             self.picked.value)
        refill = gizmos.row_after_pick(row, picked, dispenser) if row[picked] else None
        return _Odds(
            dispenser, typed, colour, cost, held, min(draws, dispenser.size), gizmos.colour_dist(dispenser, colour, draws),
            gizmos.p_can_pay(dispenser, colour, cost, draws, held), gizmos.pay_table(dispenser, colour, cost, held, MAX_DRAWS),
            gizmos.colour_table(dispenser, draws), picked, refill,
        )

    def _draw(self, fig: go.Figure, odds: _Odds) -> None:
        xs = list(range(odds.draws + 1))
        probs = [odds.dist[x] for x in xs]
        pays = [odds.held + x >= odds.cost for x in xs]
        fig.data[0].update(
            x=xs, y=[float(p) for p in probs], marker_color=MARBLE_COLOURS[odds.colour],
            marker_opacity=[1.0 if ok else FADED for ok in pays],
            customdata=[f"{x} {odds.colour}: {fraction_text(p)}<br>{'pays' if ok else 'does not pay'} the cost"
                        for x, p, ok in zip(xs, probs, pays)],
        )
        ks, pay = list(odds.pay.index), list(odds.pay["P(can pay)"])
        fig.data[1].update(x=ks, y=[float(p) for p in pay],
                           customdata=[f"after {k} draws: {fraction_text(p)}" for k, p in zip(ks, pay)])
        fig.layout.title.text = (f"Paying {odds.cost} {odds.colour} holding {odds.held}: "
                                 f"{percent(odds.p_pay)} within {odds.draws} draws from {odds.dispenser.size} marbles")

    def _show(self, odds: _Odds) -> None:
        self.dispenser, self.dist, self.p_pay, self.pay, self.colours, self.refill = (
            odds.dispenser, odds.dist, odds.p_pay, odds.pay, odds.colours, odds.refill)
        where = "as typed" if odds.typed else f"{MARBLES} minus the row and storages"
        self.result.value = (
            f"Dispenser ({html.escape(where)}): <b>{html.escape(marbles_text(odds.dispenser))}</b>, "
            f"{odds.dispenser.size} marbles. P(able to pay {odds.cost} {html.escape(odds.colour)} holding {odds.held}, "
            f"within {odds.draws} random draws) = <b>{fraction_text(odds.p_pay)}</b>"
        )
        shown = odds.colours.reset_index()
        for column in ("P(next draw)", "P(at least one)"):
            shown[column] = [fraction_text(p) for p in shown[column]]
        shown["expected"] = [mean_text(m) for m in shown["expected"]]
        self.table.value = table_html(shown, {
            "colour": "colour", "in dispenser": "in dispenser", "P(next draw)": "next draw (a refill)",
            "P(at least one)": f"P(at least one in {odds.draws} draws)", "expected": "expected count",
        })
        if odds.refill is None:
            self.refill_table.value = f"<i>No {html.escape(odds.picked)} marble on the row to pick.</i>"
            return
        rows = pd.DataFrame({"row after the refill": [" ".join(r) for r in odds.refill.outcomes],
                             "probability": list(odds.refill.probabilities)})
        rows = rows.sort_values("probability", ascending=False, kind="stable")
        self.refill_table.value = (f"<b>Pick a {html.escape(odds.picked)} marble</b>: the row after "
                                   "the refill" + table_html(rows))
