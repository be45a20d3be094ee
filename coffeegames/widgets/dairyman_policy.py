"""Dairyman's optimal turn as a map: roll on or stop, for each (dice left, sets locked), with the exact margins.

:class:`PolicyExplorer` draws :func:`~coffeegames.dairyman.optimal_turn`'s policy as a heat
map with sliders for the dice, the points per set and the bust cost, or, instead of the
points per set, three face-up milk tiles: a stopped turn is then worth the tiles its sets
buy (:func:`~coffeegames.dairyman.display_payoff`). Each cell explains itself: pick it in
``cell`` and the "why this value?" panel below the map takes both choices there apart
(:func:`~coffeegames.dairyman.explain_cell`).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import partial
from typing import cast

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from ..dairyman import BUST_COST, POINTS_PER_SET, TILE_VALUES, TurnSolution, display_payoff, explain_cell, optimal_turn
from ..engine.explain import Why
from ..errors import BadArgument
from ..validate import Checker
from .charts import EXACT, View, figure, mean_text
from .decision import exact_text
from .why import details_toggle, has_details, why_html

__all__ = ["PolicyExplorer"]


@dataclass(frozen=True)
class _Policy:
    turn: TurnSolution
    table: pd.DataFrame
    changed: list[tuple[int, int]]
    """(dice left, sets locked) where the decision differs from the baseline policy."""
    free: pd.DataFrame
    """The baseline policy table: no bust cost (points per set), or points per set (display)."""
    baseline: str
    """The baseline in words ("no bust cost", "10 points a set")."""


class PolicyExplorer(View):
    """The exact optimal turn policy: roll on or stop, for each reachable (dice left, sets locked).

    Each cell is coloured by the margin *roll value − stop value* (blue: rolling is
    better, red: stopping is), and reads "roll" or "stop". ``dice``, ``points_per_set``
    and ``bust_cost`` are the sliders; ``turn`` and ``table``
    (:meth:`TurnSolution.policy_table`) hold the current answer.

    ``scoring`` chooses what a stopped turn is worth: ``"points per set"`` (the slider),
    or ``"display"``: the milk tiles its sets buy from the three face-up tiles picked in
    ``tiles`` (values 10-40; defaults 10 / 40 / 40), so the map shows how a lumpy display
    moves the stopping rule. Outlined cells (``changed``) decide differently from a
    baseline: with points per set, the same turn with no bust cost (move ``bust_cost`` to
    see the boundary shift); with a display, the same turn at ``points_per_set`` a set.
    Defaults are the game's own numbers (10 points a set, a bust costs 5).

    >>> explorer = PolicyExplorer(dice=6, points_per_set=10, bust_cost=5)
    >>> explorer.table.loc[4, 1], explorer.fig.data[0].text[3][0]    # 4 dice left, 1 set locked
    ('roll', 'roll<br>+1.56')
    >>> explorer.bust_cost.value = 0      # a bust now only loses the sets: rolling on gains more
    >>> explorer.fig.data[0].text[3][0]
    'roll<br>+3.28'
    >>> explorer.dice.value, explorer.points_per_set.value, explorer.bust_cost.value = 8, 1, 5
    >>> explorer.changed, explorer.table.loc[5, 1]     # a bust costs five sets: stop with 5 dice left
    ([(5, 1)], 'stop')
    >>> explorer.points_per_set.value, explorer.dice.value = 10, 12
    >>> explorer.scoring.value = "display"             # tiles 10 / 40 / 40: three sets buy only the 10
    >>> explorer.table.loc[4, 3], explorer.changed      # so roll on for the fourth set and the 40
    ('roll', [(3, 3), (4, 3)])

    ``cell`` picks a position of the map, ``(dice left, sets locked)``; ``why`` (shown in
    ``why_panel``) takes its two choices apart, outcome by outcome:

    >>> explorer.scoring.value, explorer.dice.value = "points per set", 8
    >>> explorer.cell.value = (5, 1)
    >>> explorer.why.chosen.label, explorer.why.other.label, explorer.why.chosen.value - explorer.why.other.value
    ('roll on', 'stop', Fraction(55745, 7776))
    """

    def __init__(self, dice: int = 8, points_per_set: int = POINTS_PER_SET, bust_cost: int = BUST_COST,
                 display: tuple[int, int, int] | None = None) -> None:
        check = Checker("", BadArgument)
        check.whole(dice, "dice", 2, 12)
        check.whole(points_per_set, "points_per_set", 1, 20)
        check.whole(bust_cost, "bust_cost", 0, 60)
        if display is not None:
            tile = lambda v, where: check.one_of(check.whole(v, where), where, TILE_VALUES)  # noqa: E731
            display = cast(tuple[int, int, int], check.sequence(display, "display", tile, 3, 3))
        slider = partial(widgets.IntSlider, continuous_update=False, style={"description_width": "initial"})
        self.dice = slider(value=dice, min=2, max=12, description="dice rolled")
        self.points_per_set = slider(value=points_per_set, min=1, max=20, description="points per set")
        self.bust_cost = slider(value=bust_cost, min=0, max=60, description="bust cost")
        self.scoring = widgets.ToggleButtons(options=["points per set", "display"], value="display" if display else "points per set",
                                             description="a stopped turn scores", style={"description_width": "initial"})
        self.tiles = [widgets.Dropdown(options=list(TILE_VALUES), value=v, description=f"tile {i + 1}", layout=widgets.Layout(width="130px"),
                                       style={"description_width": "initial"})
                      for i, v in enumerate(display or (10, 40, 40))]
        self.message = widgets.HTML()
        self.result = widgets.HTML()
        self.cell = widgets.Dropdown(description="why at", layout=widgets.Layout(width="360px"), style={"description_width": "initial"})
        self.why: Why | None = None
        self.why_panel = widgets.HTML()
        self.details_toggle = details_toggle(self._show_why)
        heatmap = go.Heatmap(
            colorscale="RdBu",
            zmid=0,
            texttemplate="%{text}",
            hovertemplate="%{customdata}<extra></extra>",
            hoverongaps=False,
            xgap=3,
            ygap=3,
            colorbar=dict(title=dict(text="roll − stop", side="right")),
        )
        chart = figure(
            [heatmap],
            height=460,
            xaxis=dict(title="sets locked this turn", dtick=1),
            yaxis=dict(title="dice left to roll", dtick=1),
            margin=dict(t=70),
        )
        self._start(chart, [self.dice, self.points_per_set, self.bust_cost, self.scoring, *self.tiles])
        self.widget = widgets.VBox([
            widgets.HBox([self.dice, self.points_per_set, self.bust_cost]),
            widgets.HBox([self.scoring, *self.tiles]),
            self.message, self.result, self.chart,
            self.cell, self.why_panel, self.details_toggle,
        ])
        self.cell.observe(lambda _: self._show_why(), "value")

    def _compute(self) -> _Policy:
        dice, pps, cost = self.dice.value, self.points_per_set.value, self.bust_cost.value
        by_display = self.scoring.value == "display"
        for tile in self.tiles:
            tile.disabled = not by_display
        if by_display:
            turn = optimal_turn(dice, bust_cost=cost, payoff=display_payoff([t.value for t in self.tiles]))
            free, baseline = optimal_turn(dice, pps, cost).policy_table(), f"{pps} point{'s' * (pps != 1)} a set"
        else:
            turn = optimal_turn(dice, pps, cost)
            free, baseline = optimal_turn(dice, pps, 0).policy_table(), "no bust cost"
        table = turn.policy_table()
        changed = [(d, s) for d in map(int, table.index) for s in map(int, table.columns) if str(table.loc[d, s]) != str(free.loc[d, s])]
        return _Policy(turn, table, changed, free, baseline)

    def _draw(self, fig: go.Figure, policy: _Policy) -> None:
        turn, table = policy.turn, policy.table
        z, text, hover = [], [], []
        for d in map(int, table.index):
            cells = [(s, str(table.loc[d, s])) for s in map(int, table.columns)]
            margins = {s: turn.roll_value(d, s) - turn.stop_value(d, s) for s, choice in cells if choice}
            z.append([float(margins[s]) if choice else None for s, choice in cells])
            text.append([f"{choice}<br>{float(margins[s]):+.3g}" if choice else "" for s, choice in cells])
            hover.append([self._hover(policy, d, s) if choice else "" for s, choice in cells])
        fig.data[0].update(x=list(table.columns), y=list(table.index), z=z, text=text, customdata=hover)
        outline = dict(type="rect", line=dict(color=EXACT, width=3), fillcolor="rgba(0,0,0,0)")
        fig.layout.shapes = [dict(outline, x0=s - 0.5, x1=s + 0.5, y0=d - 0.5, y1=d + 0.5) for d, s in policy.changed]
        if turn.points_per_set is None:
            scoring = "tiles " + " / ".join(str(t.value) for t in self.tiles) + " (" + ", ".join(f"{s}: {turn.payoff[s]}" for s in range(1, 7)) + ")"
        else:
            scoring = f"{turn.points_per_set} point{'s' * (turn.points_per_set != 1)} per set"
        fig.layout.title.text = f"Roll on or stop? {turn.dice} dice, {scoring}, a bust costs {turn.bust_cost}"
        note = dict(text="the first lock uses both dice: nothing is left to decide", x=0.5, y=0.5, xref="paper", yref="paper", showarrow=False, font_size=15)
        fig.layout.annotations = [] if len(table) else [note]

    @staticmethod
    def _hover(policy: _Policy, d: int, s: int) -> str:
        roll, stop = policy.turn.roll_value(d, s), policy.turn.stop_value(d, s)
        free = f"<br>with {policy.baseline}: {str(policy.free.loc[d, s])}" if (d, s) in policy.changed else ""
        return (
            f"{d} dice left, {s} set{'s' * (s != 1)} locked: <b>{str(policy.table.loc[d, s])}</b>"
            f"<br>roll on: {exact_text(roll)}<br>stop: {exact_text(stop)}<br>margin: {exact_text(roll - stop)}{free}"
        )

    def _show_why(self) -> None:
        """The "why this value?" panel for the cell picked in ``cell`` (hidden where the map has no cell)."""
        if not hasattr(self, "turn"):
            return
        cell = self.cell.value
        self.why = explain_cell(self.turn, *cell) if cell is not None else None
        self.why_panel.value = why_html(self.why, "expected points this turn", self.details_toggle.value)
        self.details_toggle.layout.display = None if has_details(self.why) else "none"

    def _show(self, policy: _Policy) -> None:
        self.turn, self.table, self.changed = policy.turn, policy.table, policy.changed
        rolls = int((self.table.values == "roll").sum())
        if policy.baseline != "no bust cost":
            shift = (f"At {policy.baseline}, <b>{len(self.changed)}</b> of these decisions would differ (outlined): "
                     "the display's lumps move the stopping rule." if self.changed
                     else f"This display decides every position as {policy.baseline} does; only the margins differ.")
        elif self.changed:
            shift = f"With no bust cost, <b>{len(self.changed)}</b> of these decisions would differ (outlined)."
        elif self.turn.bust_cost:
            shift = "A bust cost changes no decision here; it only moves the margins (the colours)."
        else:
            shift = "Raise the bust cost to see which decisions it changes."
        positions = [(d, s) for d in map(int, self.table.index) for s in map(int, self.table.columns) if str(self.table.loc[d, s])]
        options = [(f"{d} {'die' if d == 1 else 'dice'} left, {s} set{'s' * (s != 1)} locked: {str(self.table.loc[d, s])}", (d, s))
                   for d, s in positions]
        keep = self.cell.value if self.cell.value in positions else _first_cell(positions)
        if list(self.cell.options) != options:
            self.cell.options = options
        self.cell.value = keep
        self._show_why()
        cells = self.table.values[self.table.values != ""]
        self.result.value = (
            f"An optimally played turn from {self.turn.dice} dice is worth <b>{mean_text(self.turn.value)}</b> points "
            f"({html.escape(self.turn.assumptions)}). "
            f"Roll on in <b>{rolls}</b> of the {len(cells)} positions a turn can reach; stop in the rest. {shift}"
        )


def _first_cell(cells: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The cell the panel opens on: 5 dice left and 1 set locked where the map has it, else its first cell."""
    return (5, 1) if (5, 1) in cells else (cells[0] if cells else None)
