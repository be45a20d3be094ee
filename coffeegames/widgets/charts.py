"""Display helpers shared by the widgets: colours, HTML tables, styled figures, static plots, the View base.

Probabilities stay :class:`~fractions.Fraction` until the last moment; the text helpers
of :mod:`coffeegames.text` (re-exported here) turn them into what a learner reads.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import pandas as pd
from IPython import get_ipython
from IPython.display import display
import plotly.graph_objects as go
import plotly.io as pio

from ..errors import CoffeeGamesError
from ..text import fraction_text, mean_text, percent  # noqa: F401  (re-exported for the widgets)

if TYPE_CHECKING:  # plotly's trace classes load on first drawing, not on import
    from plotly.basedatatypes import BaseTraceType

__all__ = [
    "ACCENT",
    "BAND",
    "BASE",
    "EXACT",
    "HIGHLIGHT",
    "StaticPlot",
    "View",
    "board_layout",
    "error_html",
    "figure",
    "figure_dict",
    "fraction_text",
    "mean_text",
    "percent",
    "plot_output",
    "table_html",
    "wrap_words",
]

BASE = "#9fb8d3"
"""Colour of ordinary bars."""
HIGHLIGHT = "#d9480f"
"""Colour of the selected bar."""
ACCENT = "#1c7ed6"
"""Colour of a second series (a simulation, a second measure)."""
EXACT = "#212529"
"""Colour of exact reference lines."""
BAND = "rgba(134, 142, 150, 0.18)"
"""Fill of a band of expected wobble."""


def error_html(error: Exception | str) -> str:
    """A red, escaped message for an HTML label."""
    return f'<span style="color:#c92a2a">⚠ {html.escape(str(error))}</span>'


_TABLE_STYLE = (
    "<style>.cg-table{border-collapse:collapse;font-size:13px;margin:4px 0}"
    ".cg-table th,.cg-table td{padding:3px 10px;border-bottom:1px solid #dee2e6;text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".cg-table th{background:#f1f3f5}.cg-table td:first-child,.cg-table th:first-child{text-align:left}</style>"
)


def _cell(value: Any) -> str:
    if isinstance(value, Fraction):
        return fraction_text(value)
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return ""
    return str(value)


def wrap_words(words: Sequence[tuple[str, str]], letters: int) -> list[str]:
    """``words`` (each ``(separator before it, word)``) joined into lines of at most ``letters`` letters, for a board's
    text, which plotly never wraps (a long line runs off the figure). HTML tags are not counted; a word longer than a
    line stands alone; a continued line is indented.

    >>> wrap_words([("", "tabs"), (" ", "<b>1</b>"), (" ", "coffee+milk"), (" ", "tea+ice"), ("   ", "<b>2</b>")], 20)
    ['tabs <b>1</b> coffee+milk', '  tea+ice   <b>2</b>']
    """
    lines: list[str] = []
    line, width = "", 0
    for sep, word in words:
        size = len(html.unescape(_TAG.sub("", word)))
        if line and width + len(sep) + size > letters:
            lines.append(line)
            line, width = "  " + word, 2 + size
        else:
            line, width = line + (sep if line else "") + word, width + (len(sep) if line else 0) + size
    return [*lines, line] if line else lines


_TAG = re.compile(r"<[^>]+>")


def board_layout(title: str, width: int, height: int, shapes: Sequence[Any] = ()) -> dict[str, Any]:
    """The layout of a game board drawn in pixels: hidden axes from 0 to ``width`` × ``height``, no zoom or drag."""
    return dict(
        title=dict(text=title, x=0.01, xanchor="left", font=dict(size=15)),
        width=width,
        height=height + 34,
        margin=dict(l=0, r=0, t=34, b=0),
        xaxis=dict(range=[0, width], visible=False, fixedrange=True),
        yaxis=dict(range=[0, height], visible=False, fixedrange=True),
        shapes=list(shapes),
        template="plotly_white",
        showlegend=False,
        hovermode="closest",
        dragmode=False,
    )


def table_html(frame: pd.DataFrame, columns: Mapping[str, str] | None = None) -> str:
    """An HTML table of ``frame`` (index dropped), Fractions shown as ``'a/b (x.x%)'``.

    ``columns`` picks and renames columns: ``{"p_bust": "bust chance"}``.

    >>> from fractions import Fraction
    >>> "1/12 (8.3%)" in table_html(pd.DataFrame({"p": [Fraction(1, 12)]}))
    True
    """
    if columns is not None:
        frame = frame[list(columns)].rename(columns=dict(columns))
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f'{_TABLE_STYLE}<table class="cg-table"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def figure(data: Sequence[go.Bar | go.Scatter] | go.Figure, height: int = 360, **layout: Any) -> go.Figure:
    """A plain plotly figure in the house style, to fill with data and then wrap.

    ``data`` is a list of traces or a whole figure (e.g. from ``make_subplots``);
    ``layout`` takes plotly's magic-underscore names (``xaxis_title="dice"``); show it
    with a :class:`StaticPlot`.
    """
    fig = go.Figure(data) if isinstance(data, go.Figure) else go.Figure(data=list(data))
    fig.update_layout(
        template="plotly_white",
        height=height,
        margin=dict(l=60, r=20, t=60, b=50),
        font=dict(size=13),
        title=dict(x=0.02, xanchor="left"),
        showlegend=False,
    )
    fig.update_layout(**layout)
    return fig


@lru_cache(maxsize=8)
def _template(name: str) -> dict[str, Any]:
    return pio.templates[name].to_plotly_json()


def figure_dict(traces: Sequence[BaseTraceType], layout: Mapping[str, Any]) -> dict[str, Any]:
    """``go.Figure(data=traces, layout=layout).to_dict()``, without plotly checking the layout and copying its template
    again: a board is redrawn at every step, and that was a fifth of a Coffee Roaster refresh.

    The traces are plotly's (checked when made); ``layout`` holds plain nested values (``line=dict(width=0)``, not
    ``line_width=0``), its ``template`` a name (expanded here, as plotly does); empty lists (no ``shapes``) are left
    out, as plotly leaves them. ``tests/test_widgets_decision.py`` checks the result against plotly's own for every
    game's board.

    >>> fig = figure_dict([go.Bar(y=[1, 2])], {"title": {"text": "two bars"}, "template": "plotly_white"})
    >>> fig["data"][0]["type"], fig["layout"]["title"], "layout" in fig["layout"]["template"]
    ('bar', {'text': 'two bars'}, True)
    """
    plain = {k: v for k, v in layout.items() if not (isinstance(v, list) and not v)}
    if isinstance(plain.get("template"), str):
        plain["template"] = _template(plain["template"])
    return {"data": [trace.to_plotly_json() for trace in traces], "layout": plain}


def plot_output(fig: go.Figure | Mapping[str, Any], config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``fig`` (a plotly figure, or its :func:`figure_dict`) as one Jupyter display output in plotly's own mimetype
    (a plain plot, not a widget).

    JSON-ready (arrays travel as plotly's typed ``bdata``), with the title as the
    ``text/plain`` fallback for a front end without plotly's renderer; ``config`` is
    plotly's config (``{"displayModeBar": False}``).

    >>> out = plot_output(figure([go.Bar(y=[1, 2])], title="two bars"))
    >>> sorted(out["data"]), out["data"]["text/plain"]
    (['application/vnd.plotly.v1+json', 'text/plain'], 'two bars')
    """
    plain = fig.to_dict() if isinstance(fig, go.Figure) else dict(fig)
    # what plotly's own "plotly_mimetype" renderer makes (it adds no config of its own), without importing plotly's
    # renderers: they import nbformat and jsonschema, ~150,000 objects that every full pass of the cycle collector walks
    bundle = {"application/vnd.plotly.v1+json": json.loads(pio.to_json(plain, validate=False, remove_uids=False))}
    if config:
        bundle["application/vnd.plotly.v1+json"]["config"] = dict(config)
    title = plain.get("layout", {}).get("title")
    text = (title.get("text") if isinstance(title, Mapping) else title) or "a plotly figure"
    return {"output_type": "display_data", "data": {**bundle, "text/plain": text}, "metadata": {}}


_PRELOAD = {
    "application/vnd.plotly.v1+json": {
        "data": [],
        "layout": {
            "width": 10,
            "height": 10,
            "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
            "xaxis": {"visible": False},
            "yaxis": {"visible": False},
        },
        "config": {"staticPlot": True, "displayModeBar": False},
    },
    "text/plain": "",
}
"""An empty 10-pixel plot: displayed once, it makes the browser load plotly.js (see :class:`StaticPlot`)."""


class StaticPlot(widgets.Output):
    """An Output widget that shows ``fig`` as a plain plotly plot; :meth:`redraw` shows it again after a change.

    The browser draws it with plotly's own mimetype renderer (shipped with plotly as the
    ``jupyterlab-plotly`` extension), so unlike a ``go.FigureWidget`` it adds no
    anywidget model to the page. Every FigureWidget model carries its own ~5 MB copy of
    plotly.js, which the browser evaluates one model after another (~0.7 s each here),
    and a model still busy when anywidget's fixed 2 s start-up timer fires drops every
    later update from the kernel: on a Voila page with several FigureWidgets the later
    ones draw once and then never redraw. A StaticPlot is redrawn whole (zoom resets)
    but always redraws.

    The first StaticPlot made in a kernel also displays an empty 10-pixel plot (in the
    cell being run, so before the widget): the browser then evaluates its one copy of
    plotly.js while it builds the page. Evaluated later, inside the first widget to
    appear, it can block the page long enough (on a slow computer) that the widget
    manager gives up on the other widgets (its 2 s wait for a model) and shows "Error
    displaying widget: model not found" in their place.
    """

    _preloaded = False

    def __init__(self, fig: go.Figure | Mapping[str, Any], config: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fig, self.config = fig, dict(config or {})
        self.redraw()
        self._preload_plotly()

    def redraw(self) -> None:
        """Replace the shown plot by the current state of ``fig``."""
        self.outputs = (plot_output(self.fig, self.config),)

    @classmethod
    def _preload_plotly(cls) -> None:
        shell = get_ipython()
        if cls._preloaded or getattr(shell, "kernel", None) is None:  # no front end (a script, a test): nothing to load
            return
        StaticPlot._preloaded = True
        display(_PRELOAD, raw=True)


class View:
    """Base of the explorer widgets. The life of every widget here: read the controls, draw the figure, write the labels.

    A subclass builds its controls and a plain styled figure, then calls :meth:`_start`;
    it implements ``_compute`` (controls → what to show, raising a
    :class:`~coffeegames.errors.CoffeeGamesError` such as :class:`~coffeegames.errors.BadEntry`
    with a message for bad input), ``_draw`` (put it into a figure) and ``_show`` (labels
    and public results). The object displays its ``widget`` when it ends a cell.

    ``fig`` is the plain ``go.Figure`` drawn into and ``chart`` the :class:`StaticPlot`
    that shows it, to put in ``widget`` (never a ``FigureWidget``: see :class:`StaticPlot`
    why). Bad input shows in ``message`` and keeps the last good answer; any other error
    is a bug and raises.
    """

    widget: widgets.Box
    fig: go.Figure
    chart: StaticPlot
    message: widgets.HTML

    def _compute(self) -> Any:
        raise NotImplementedError

    def _draw(self, fig: go.Figure, state: Any) -> None:
        raise NotImplementedError

    def _show(self, state: Any) -> None:
        raise NotImplementedError

    def _start(self, chart: go.Figure, controls: Sequence[widgets.ValueWidget]) -> None:
        """Draw the initial state into ``chart``, keep it as ``self.fig`` shown by ``self.chart``, wire ``controls``."""
        state = self._compute()  # bad initial arguments raise here, for the programmer
        self._draw(chart, state)
        self.fig, self.chart = chart, StaticPlot(chart)
        self._show(state)
        for control in controls:
            control.observe(self._update, "value")

    def _update(self, _: Any = None) -> None:
        try:
            state = self._compute()
        except CoffeeGamesError as error:
            self.message.value = error_html(error)  # the figure and labels keep the last good answer
            return
        self.message.value = ""
        self._draw(self.fig, state)
        self.chart.redraw()
        self._show(state)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
