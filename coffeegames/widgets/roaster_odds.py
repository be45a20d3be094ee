"""Coffee Roaster's bag odds in a widget: edit the bag, pick how many tokens you draw, read the exact odds.

:class:`BagExplorer` reads a bag typed as ``kind:count`` pairs (``bean2:4 smoke:1
moisture:3``), a draw count (slider) and a token kind; it draws the exact distribution of
how many tokens of that kind the draw holds (:func:`coffeegames.roaster.count_dist`, the
multivariate hypergeometric law) and lists the named odds of the draw
(:func:`coffeegames.roaster.draw_table`). Bad input shows an error and changes nothing.

Example:
    >>> explorer = BagExplorer("bean2:4 smoke:1 moisture:3", draws=3, kind="smoke")
    >>> explorer.dist[1]
    Fraction(3, 8)
    >>> explorer.bag_text.value = "bean2:4 smoke:two"
    >>> "smoke:two" in explorer.message.value, explorer.dist[1]
    (True, Fraction(3, 8))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from ..errors import BadArgument
from ..exact import Bag, Dist
from ..roaster import NAMES, TOKENS, bag_text, count_dist, draw_table, parse_bag, show
from ..text import labelled_text
from ..validate import Checker
from .charts import BASE, View, figure, fraction_text, table_html

__all__ = ["BagExplorer"]

MAX_DRAWS = 15


@dataclass(frozen=True)
class _Odds:
    bag: Bag
    counts: dict[str, int]
    draws: int
    kind: str
    dist: Dist
    table: pd.DataFrame


class BagExplorer(View):
    """The exact odds of one draw from a Coffee Roaster bag.

    ``bag_text`` (a Text: ``kind:count`` pairs), ``draws`` (slider, tokens drawn at once;
    the whole bag if fewer remain), ``kind`` (dropdown: the token kind counted), ``crack``
    (checkbox: roasting on a crack space, 2 levels, for the burn odds). ``fig`` has one bar
    trace: P(the draw holds exactly n tokens of that kind), exact fractions in the hover;
    ``table`` shows :func:`~coffeegames.roaster.draw_table`. Public results: ``dist``,
    ``odds`` (the table as a DataFrame of Fractions).
    """

    def __init__(self, bag: Any = "bean2:4 bean3:2 smoke:1 moisture:3 aroma:1", draws: int = 3, kind: str = "smoke",
                 crack: bool = False) -> None:
        check = Checker("", BadArgument)
        check.need(isinstance(bag, (str, Mapping, list, tuple)), "bag", "must be bag text ('bean2:4 smoke:1') or tokens", bag)
        check.whole(draws, "draws", 1, MAX_DRAWS)
        check.one_of(kind, "kind", TOKENS)
        check.flag(crack, "crack")
        text = bag if isinstance(bag, str) else bag_text(bag)
        style = {"description_width": "initial"}
        self.bag_text = widgets.Text(value=text, description="bag", continuous_update=False, style=style,
                                     layout=widgets.Layout(width="560px"),
                                     placeholder="kind:count pairs, e.g. bean2:4 smoke:1 moisture:3")
        self.draws = widgets.IntSlider(value=draws, min=1, max=MAX_DRAWS, description="tokens drawn", continuous_update=False,
                                       style=style)
        self.kind = widgets.Dropdown(options=[(f"{t} ({NAMES[t]})", t) for t in TOKENS], value=kind, description="count",
                                     style=style, layout=widgets.Layout(width="260px"))
        self.crack = widgets.Checkbox(value=crack, description="crack space (beans roast 2 levels)", indent=False)
        self.message = widgets.HTML()
        self.result = widgets.HTML()
        self.table = widgets.HTML()
        chart = figure(
            [go.Bar(marker_color=BASE, hovertemplate="%{customdata}<extra></extra>")],
            height=340,
            xaxis=dict(title="tokens of that kind in the draw", dtick=1),
            yaxis=dict(title="probability", tickformat=".0%", rangemode="tozero"),
        )
        self._start(chart, [self.bag_text, self.draws, self.kind, self.crack])
        self.widget = widgets.VBox([
            self.bag_text, widgets.HBox([self.draws, self.kind, self.crack]), self.message, self.result, self.chart, self.table,
        ])

    def _compute(self) -> _Odds:
        counts = parse_bag(self.bag_text.value)  # a BadArgument about the text typed
        bag = Bag(counts)
        draws, kind = self.draws.value, self.kind.value
        table = draw_table(bag, draws, 2 if self.crack.value else 1)
        return _Odds(bag, counts, min(draws, bag.size), kind, count_dist(bag, [kind], draws), table)

    def _draw(self, fig: go.Figure, odds: _Odds) -> None:
        xs = list(range(0, odds.draws + 1))
        probs = [odds.dist[x] for x in xs]
        fig.data[0].update(
            x=xs, y=[float(p) for p in probs],
            customdata=[f"{x} {odds.kind}: {fraction_text(p)}" for x, p in zip(xs, probs)],
        )
        fig.layout.title.text = f"How many {odds.kind} in a draw of {odds.draws} from {odds.bag.size} tokens"

    def _show(self, odds: _Odds) -> None:
        self.dist, self.odds = odds.dist, odds.table
        self.result.value = (
            f"Bag of <b>{odds.bag.size}</b> tokens ({show([t for t, n in odds.counts.items() for _ in range(n)])}), "
            f"drawing <b>{odds.draws}</b>: P(at least one {odds.kind}) = <b>{fraction_text(odds.dist.at_least(1))}</b>"
        )
        shown = odds.table.reset_index()
        shown["value"] = [labelled_text(q, v) for q, v in zip(shown["question"], shown["value"])]
        self.table.value = table_html(shown, {"question": "the next draw", "value": "exact odds"})
