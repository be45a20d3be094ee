"""The board-drawing kit every game's view draws with: its ink colours, :class:`Marks` (points of one plotly
trace, collected row by row) and the players' names.

Example:
    >>> marks = Marks()
    >>> marks.add(120, 38, "5", hover="a white die")
    >>> trace = marks.squares("dice", font_size=16)
    >>> list(trace.x), trace.marker.size, player_names(2, human=(0,))
    ([120], (34,), ['player 0 (you)', 'player 1 (bot)'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

__all__ = ["ACTIVE_ROW", "INK", "MUTED", "ROLLING", "SQUARE", "WHITE", "Marks", "player_names"]

INK, MUTED = "#212529", "#868e96"
"""Text and edges; secondary text."""
WHITE, ROLLING, ACTIVE_ROW = "#ffffff", "#f1f3f5", "#fff4e6"
"""A plain square's fill; a die still rolling; the row of the player to move."""
SQUARE = 34
"""A square's default size in pixels (a die)."""


class Marks:
    """Points of one board trace, collected row by row."""

    def __init__(self) -> None:
        self.x: list[float] = []
        self.y: list[float] = []
        self.text: list[str] = []
        self.hover: list[str] = []
        self.fill: list[str] = []
        self.edge: list[str] = []
        self.size: list[int] = []
        self.opacity: list[float] = []

    def add(
        self, x: float, y: float, text: str, hover: str = "", fill: str = WHITE, edge: str = INK, size: int = SQUARE, opacity: float = 1.0
    ) -> None:
        """One point: a square's fill colour (or, for a label, its text colour), edge, size and opacity."""
        self.x.append(x)
        self.y.append(y)
        self.text.append(text)
        self.hover.append(hover)
        self.fill.append(fill)
        self.edge.append(edge)
        self.size.append(size)
        self.opacity.append(opacity)

    def _trace(self, name: str, mode: str, **style: Any) -> go.Scatter:
        return go.Scatter(name=name, x=self.x, y=self.y, mode=mode, text=self.text, **style)

    def squares(self, name: str, font_size: int) -> go.Scatter:
        """The points as squares with their text inside (hover: each point's hover text)."""
        return self._trace(
            name,
            "markers+text",
            hovertext=self.hover,
            hovertemplate="%{hovertext}<extra></extra>",
            textfont=dict(size=font_size, color=INK),
            marker=dict(symbol="square", size=self.size, color=self.fill, opacity=self.opacity, line=dict(width=2, color=self.edge)),
        )

    def labels(self, name: str) -> go.Scatter:
        """The points as text only, each in its fill colour, left-aligned at its point."""
        return self._trace(
            name,
            "text",
            textposition="middle right",
            textfont=dict(size=13, color=self.fill),
            hoverinfo="skip",
        )


def player_names(players: int, human: Sequence[int]) -> list[str]:
    """``["player 0 (you)", "player 1 (bot)", ...]``.

    >>> player_names(3, human=(1,))
    ['player 0 (bot)', 'player 1 (you)', 'player 2 (bot)']
    """
    return [f"player {i} ({'you' if i in human else 'bot'})" for i in range(players)]
