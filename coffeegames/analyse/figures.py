"""Plotly figures of a report's tables: every value drawn with its 95% interval as an error bar.

Example:
    >>> import pandas as pd
    >>> table = pd.DataFrame({"variant": ["players=2"] * 2, "seat": [1, 2], "win_rate": [0.4, 0.6],
    ...                       "low": [0.35, 0.55], "high": [0.45, 0.65]})
    >>> [round(x, 3) for x in figure(table, "fairness", "Gizmos").data[0].error_y.array]
    [0.05, 0.05]
"""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["figure"]

_TITLES = {
    "fairness": "Is it fair? Win rate by seat, or a one-player game's mean score (95% intervals)",
    "luck": "How much is luck? The stronger bot's win rate and edge, and the skill share (95% intervals)",
    "options": "What does a rule change? The change against the default rules (95% intervals)",
    "shape": "What is the game like? Mean a game (95% intervals)",
}


def _bars(table: pd.DataFrame, x: str, y: str, group: str | None) -> list[Any]:
    import plotly.graph_objects as go

    traces = []
    parts = table.groupby(group, sort=False) if group else [("", table)]
    for name, part in parts:
        traces.append(go.Bar(
            x=part[x].astype(str), y=part[y], name=str(name),
            error_y={"type": "data", "symmetric": False, "array": (part["high"] - part[y]).tolist(),
                     "arrayminus": (part[y] - part["low"]).tolist()}))
    return traces


def figure(table: pd.DataFrame, question: str, title: str = "") -> Any:
    """The figure of ``question``'s ``table`` (a report's ``table(question)``)."""
    import plotly.graph_objects as go

    fig = go.Figure()
    head = f"{title}: {_TITLES.get(question, question)}" if title else _TITLES.get(question, question)
    if table.empty:
        fig.update_layout(title=head + " (no games)")
        return fig
    if question == "fairness" and "win_rate" in table.columns:
        traces, axis = _bars(table.dropna(subset=["win_rate"]), "seat", "win_rate", "variant"), "win rate"
        fig.update_xaxes(title="seat")
    elif question == "fairness":
        traces, axis = _bars(table, "variant", "mean_score", None), "mean score"
    elif question == "luck":  # shares only: a one-player game's score difference (points) is in the table
        shares = table[table["measure"] != "score difference"]
        traces, axis = _bars(shares.assign(what=shares["measure"] + ": " + shares["bots"]), "what", "value", None), "share"
    elif question == "options":
        column = "seat1_change" if "seat1_change" in table.columns else "score_change"
        low, high = ("seat1_low", "seat1_high") if column == "seat1_change" else ("score_low", "score_high")
        shown = table.assign(setting=table["option"] + "=" + table["value"].astype(str), low=table[low], high=table[high])
        traces = _bars(shown, "setting", column, None)
        axis = "change in seat 1's win rate" if column == "seat1_change" else "change in mean score"
    else:
        traces, axis = _bars(table, "measure", "mean", "variant"), "mean a game"
    for trace in traces:
        fig.add_trace(trace)
    fig.update_layout(title=head, barmode="group", yaxis_title=axis)
    return fig
