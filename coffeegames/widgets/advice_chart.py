"""The decision view's advice drawn: each valued choice as a bar (best first, the best starred), and in the list.

:func:`advice_figure` makes the empty chart once; :func:`draw_advice` redraws it for a decision's rows (the
:class:`~coffeegames.engine.Advice` a game's ``advise`` gives) in the words of the game's
:class:`~.adapter.Adapter`; :func:`option_text` is a row as the action list shows it.

Example:
    >>> from fractions import Fraction
    >>> from coffeegames.engine import Advice
    >>> from .adapter import Adapter
    >>> rows = [Advice("keep", "Keep()", Fraction(5), best=True), Advice("reroll", "Reroll()", Fraction(7, 2))]
    >>> fig = draw_advice(advice_figure("points"), rows, Adapter(value_name="points"), "you")
    >>> fig.data[0].y, fig.data[0].x, option_text(rows[1], Adapter())
    (('★ Keep()', 'Reroll()'), (5.0, 3.5), 'Reroll() · 3.50')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from ..engine.advice import Advice
from ..text import exact_text
from .adapter import Adapter
from .charts import BASE, HIGHLIGHT, figure, percent

__all__ = ["CHART_WIDTH", "STAR", "advice_figure", "draw_advice", "hover_text", "option_text", "value_text"]

STAR = "★ "
"""What marks the best choice, in the chart and the list."""
CHART_WIDTH = 880


def value_text(value: Fraction | None) -> str:
    """A short decimal for a bar label: ``'30'``, ``'32.00'``, ``'-5'``; ``''`` for None.

    >>> value_text(Fraction(30)), value_text(Fraction(1253971632755, 39182082048))
    ('30', '32.00')
    """
    if value is None:
        return ""
    return str(value) if value.denominator == 1 else f"{float(value):.2f}"


def _short(row: Advice) -> str:
    """A valued row's value for a bar label or the list: a short decimal, an estimate with its standard error and size."""
    return value_text(row.value) if row.sample is None else row.value_text()


def _unique(labels: Sequence[str]) -> list[str]:
    """Labels made unique (a category axis merges equal ones)."""
    seen: dict[str, int] = {}
    unique = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        unique.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return unique


def advice_figure(value_name: str) -> go.Figure:
    """The empty chart: horizontal bars and their labels, the value named on the x axis."""
    hover = "%{y}<br>%{customdata}<extra></extra>"
    labels = go.Scatter(mode="text", textposition="middle right", cliponaxis=False, hoverinfo="skip")  # right of the bar or of 0
    return figure(
        [go.Bar(orientation="h", hovertemplate=hover), labels],
        width=CHART_WIDTH,
        xaxis=dict(title=f"{value_name} (exact; bars drawn as decimals)", zeroline=True, zerolinecolor="#868e96"),
        yaxis=dict(type="category", autorange="reversed", automargin=True),
        margin=dict(l=20, r=20, t=50, b=50),
    )


def hover_text(row: Advice, adapter: Adapter[Any]) -> str:
    """A bar's hover text: the value in words, the risk, what follows, and why it is starred."""
    parts = [f"{adapter.value_name}: {row.value_text()}"]
    if row.risk is not None:
        parts.append(f"{adapter.risk_name}: {exact_text(row.risk, chance=True)}")
    if row.then:
        parts.append(f"then: {row.then}")
    if row.best:
        parts.append("★ the optimal choice" if row.sample is None else "★ the best estimate, clear of the next beyond the noise")
    return "<br>".join(parts)


def draw_advice(fig: go.Figure, advice: Sequence[Advice], adapter: Adapter[Any], who: str, max_bars: int = 12) -> go.Figure:
    """The valued rows of ``advice`` as horizontal bars on ``fig`` (from :func:`advice_figure`), best first, at most
    ``max_bars``; the best highlighted and starred; ``who`` chooses (the title)."""
    valued = [row for row in advice if row.value is not None]
    shown = valued[:max_bars]
    floats = [float(row.value) for row in shown if row.value is not None]
    texts = [_short(row) + (f" · {adapter.risk_short} {percent(row.risk)}" if row.risk is not None else "") for row in shown]
    names = _unique([f"{STAR if row.best else ''}{row.label}" for row in shown])
    bars, labels = fig.data
    bars.update(y=names, x=floats, customdata=[hover_text(row, adapter) for row in shown],
                marker_color=[HIGHLIGHT if row.best else BASE for row in shown])
    labels.update(y=names, x=[max(f, 0.0) for f in floats], text=texts)
    low, high = min([0.0] + floats), max([0.0] + floats)
    span = (high - low) or 1.0
    room = 0.016 * max(map(len, texts), default=0)  # for the labels, about 1.6% of the bars' span per character
    fig.layout.xaxis.range = [low - 0.04 * span if low < 0 else 0, high + span * room]
    more = f" (the {len(shown)} best of {len(valued)}; all are in the list)" if len(valued) > len(shown) else ""
    fig.layout.title.text = f"{who}: the value of each choice{more}" if shown else ""
    fig.layout.height = 130 + 26 * max(len(shown), 2) if shown else 130
    estimated = any(row.sample is not None for row in shown)
    fig.layout.xaxis.title.text = f"{adapter.value_name}<br>(≈ an estimate: mean ± standard error; bars drawn as decimals)" \
        if estimated else f"{adapter.value_name} (exact; bars drawn as decimals)"
    fig.layout.margin.b = 70 if estimated else 50  # room for the caption's second line
    fig.layout.xaxis.visible = fig.layout.yaxis.visible = bool(shown)
    return fig


def option_text(row: Advice, adapter: Adapter[Any]) -> str:
    """A choice in the action list: its label with its value, or, unvalued, its risk."""
    text = f"{STAR if row.best else ''}{row.label}"
    if row.value is not None:
        return f"{text} · {_short(row)}"
    return f"{text} · {adapter.risk_short} {percent(row.risk)}" if row.risk is not None else text
