"""Interactive Dairyman odds: bust chances, the biggest lock, your roll, a simulation check.

Each class builds its controls and one plotly figure ``fig`` (with its traces from
the start), wires them with ``observe`` / ``on_click``, and redraws it. The figure is
shown as a plain plot redrawn whole (``chart``, a :class:`~.charts.StaticPlot`), not as
a ``FigureWidget``: with four FigureWidgets on the notebook's Voila page the later ones
often stopped redrawing. Every number comes from :mod:`coffeegames.dairyman` as an
exact Fraction; :class:`SimulationCheck` sets a seeded simulation beside one.

The controls, labels and ``fig`` are public attributes, so a test (or a curious
learner) can drive a widget from code; ``.widget`` is the box a notebook displays,
and the object displays itself when it ends a cell.

Example:
    >>> explorer = BustChanceExplorer(dice=2)
    >>> explorer.frozen.value = "5"         # one die frozen on a 5, two rolled
    >>> explorer.p_bust
    Fraction(19, 36)
    >>> explorer.frozen.value = "5 7"       # a bad entry: an error, the chart is kept
    >>> "1-6" in explorer.message.value, explorer.p_bust
    (True, Fraction(19, 36))
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import ipywidgets as widgets
import numpy as np
import plotly.graph_objects as go

from ..dairyman import (
    MAX_DICE,
    LockOption,
    check_roll,
    has_set_array,
    lock_options,
    lock_table,
    most_dice_locked,
    most_sets_locked,
    p_any_set,
    p_bust,
    parse_dice,  # the game's own text parser (coffeegames.dairyman.typed); still importable from here
    reroll_table,
)
from ..engine import BadEntry
from ..errors import BadArgument
from ..validate import Checker
from ..exact import Dist, Estimate, estimate, face_counts, roll_array, running_estimate
from .charts import (
    ACCENT,
    BAND,
    BASE,
    EXACT,
    HIGHLIGHT,
    View,
    figure,
    fraction_text,
    mean_text,
    percent,
    table_html,
)

__all__ = ["BustChanceExplorer", "MostLockedExplorer", "RollAdvisor", "SimulationCheck", "parse_dice"]


_ARGUMENT = Checker("", BadArgument)
"""Checks the views' arguments, naming each."""


def _dice_slider(value: int, **kwargs: Any) -> widgets.IntSlider:
    _ARGUMENT.whole(value, "dice", 1, MAX_DICE)
    return widgets.IntSlider(value=value, min=1, max=MAX_DICE, description="dice rolled", **kwargs)


def _dice_text(dice: Sequence[int]) -> str:
    return " ".join(map(str, dice))


def _n_dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _lock_text(option: LockOption) -> str:
    return " ".join("+".join(map(str, s)) for s in option.sets)


# --------------------------------------------------------------------------------------
class BustChanceExplorer(View):
    """P(bust) for 1, 2, ... dice rolled, optionally beside frozen dice; the chosen number highlighted.

    ``dice`` is the slider, ``frozen`` the text box of frozen values (e.g. ``"5 5"``; dice
    plus frozen stay within 12), ``result`` states the exact answer, ``message`` shows
    bad input.

    >>> BustChanceExplorer(dice=3).p_bust
    Fraction(143, 216)
    """


    def __init__(self, dice: int = 3, frozen: str = "") -> None:
        self.dice = _dice_slider(dice)
        _ARGUMENT.text(frozen, "frozen")
        self.frozen = widgets.Text(value=frozen, description="frozen", placeholder="e.g. 5 5", continuous_update=False)
        self.message = widgets.HTML()
        self.result = widgets.HTML()
        self.frozen_dice: tuple[int, ...] = ()
        chart = figure(
            [go.Bar(hovertemplate="%{x} rolled<br>P(bust) = %{customdata}<extra></extra>", textposition="outside")],
            yaxis=dict(title="P(bust)", tickformat=".0%", range=[0, 1.12]),
            xaxis=dict(title="dice rolled", dtick=1),
        )
        self._start(chart, [self.dice, self.frozen])
        self.widget = widgets.VBox([widgets.HBox([self.dice, self.frozen]), self.message, self.result, self.chart])

    @property
    def p_bust(self) -> Fraction:
        """The exact bust chance for the chosen dice and the last valid frozen dice."""
        return p_bust(self.dice.value, self.frozen_dice)

    def _compute(self) -> tuple[int, tuple[int, ...], list[Fraction]]:
        frozen = parse_dice(self.frozen.value, "frozen dice")
        if len(frozen) >= MAX_DICE:
            raise BadEntry(f"freeze at most {MAX_DICE - 1} dice, so at least one is left to roll")
        self.dice.max = MAX_DICE - len(frozen)  # may lower dice.value, which redraws first: harmless
        return self.dice.value, frozen, [p_bust(k, frozen) for k in range(1, self.dice.max + 1)]

    def _draw(self, fig: go.Figure, state: tuple[int, tuple[int, ...], list[Fraction]]) -> None:
        n, frozen, busts = state
        counts = range(1, len(busts) + 1)
        fig.data[0].update(
            x=list(counts),
            y=[float(p) for p in busts],
            customdata=[fraction_text(p) for p in busts],
            text=[percent(p) for p in busts],
            marker_color=[HIGHLIGHT if k == n else BASE for k in counts],
        )
        frozen_note = f", with {_dice_text(frozen)} frozen" if frozen else ""
        fig.layout.title.text = f"Chance that a roll makes no set{frozen_note}"

    def _show(self, state: tuple[int, tuple[int, ...], list[Fraction]]) -> None:
        n, self.frozen_dice, busts = state
        frozen = f" <b style='color:{HIGHLIGHT}'>beside frozen {_dice_text(self.frozen_dice)}</b>" if self.frozen_dice else ""
        self.result.value = (
            f"Rolling <b>{_n_dice(n)}</b>{frozen}: P(bust) = <b>{fraction_text(busts[n - 1])}</b>, "
            f"P(at least one set) = <b>{fraction_text(1 - busts[n - 1])}</b>"
        )
        if self.frozen_dice:  # a frozen die typed earlier changes every number: say so, beside the plain answer
            self.result.value += (f"<br>With nothing frozen, {_n_dice(n)} bust with chance {fraction_text(p_bust(n))} "
                                  "(empty the “frozen” box for the plain answer).")


# --------------------------------------------------------------------------------------
class MostLockedExplorer(View):
    """Distributions of the most dice and the most sets that one roll of ``n`` dice can lock.

    ``dice`` is the slider; ``fig`` holds two bar traces (most dice, most sets) and two
    dashed mean lines, with exact fractions in the hover text; ``result`` states both
    exact means.

    >>> explorer = MostLockedExplorer(dice=2)
    >>> explorer.fig.data[0].customdata[2]   # locking both dice: a 4+6 or a 5+5
    '1/12 (8.3%)'
    """


    MEASURES = (("most dice locked", "dice", MAX_DICE, BASE), ("most sets locked", "sets", MAX_DICE // 2, ACCENT))

    def __init__(self, dice: int = 8) -> None:
        self.dice = _dice_slider(dice)
        self.message = widgets.HTML()
        self.result = widgets.HTML()
        from plotly.subplots import make_subplots  # plotly's figure machinery loads here, not on import

        chart = make_subplots(rows=1, cols=2, shared_yaxes=True, subplot_titles=[m[0] for m in self.MEASURES])
        for col, (name, unit, top, colour) in enumerate(self.MEASURES, start=1):
            hover = f"{name}: %{{x}}<br>probability %{{customdata}}<extra></extra>"
            chart.add_trace(go.Bar(name=name, marker_color=colour, hovertemplate=hover), row=1, col=col)
            chart.update_xaxes(title_text=unit, dtick=1, range=[-0.6, top + 0.6], row=1, col=col)
        for col in (1, 2):
            mean_line = go.Scatter(name="mean", mode="lines", y=[0, 1], line=dict(color=EXACT, dash="dash"))
            chart.add_trace(mean_line, row=1, col=col)
        chart = figure(chart, yaxis=dict(title="probability", tickformat=".0%", range=[0, 1.02]), margin=dict(t=80))
        self._start(chart, [self.dice])
        self.widget = widgets.VBox([self.dice, self.result, self.chart])

    def _compute(self) -> tuple[int, Dist, Dist]:
        n = self.dice.value
        return n, most_dice_locked(n), most_sets_locked(n)

    def _draw(self, fig: go.Figure, state: tuple[int, Dist, Dist]) -> None:
        n, *dists = state
        for bar, line, dist, limit in zip(fig.data[:2], fig.data[2:], dists, (n, n // 2)):
            xs = list(range(limit + 1))
            bar.update(x=xs, y=[float(dist[x]) for x in xs], customdata=[fraction_text(dist[x]) for x in xs])
            line.update(x=[float(dist.mean())] * 2, hovertemplate=f"mean {mean_text(dist.mean())}<extra></extra>")
        fig.layout.title.text = f"The biggest lock one roll of {n} dice allows (0 = bust)"

    def _show(self, state: tuple[int, Dist, Dist]) -> None:
        n, most_dice, most_sets = state
        self.result.value = (
            f"With <b>{_n_dice(n)}</b>, on average you can lock <b>{mean_text(most_dice.mean())}</b> dice "
            f"in <b>{mean_text(most_sets.mean())}</b> sets (dashed lines). "
            f"Bust (nothing to lock): {fraction_text(most_dice[0])}."
        )


# --------------------------------------------------------------------------------------
class RollAdvisor(View):
    """Type your roll; see every way to lock it, the bust chance of rolling on, and the ice-cream rerolls.

    ``roll`` is the text box (press Enter or click ``button``); ``locks`` and ``rerolls``
    are HTML tables; ``fig`` plots the bust chance of the next roll for each lock. A bad
    roll shows ``message`` and keeps the previous answer.

    >>> advisor = RollAdvisor("4 6 5 5")
    >>> [str(o) for o in advisor.options][1]
    'lock 4+6; reroll 2 dice (bust 91.7%)'
    """


    LOCK_COLUMNS = {
        "sets": "lock",
        "dice_locked": "dice locked",
        "dice_left": "dice left",
        "p_bust_next": "bust chance of the next roll",
    }
    REROLL_COLUMNS = {
        "reroll": "reroll",
        "ice_cream": "ice-cream tile that can",
        "dice_rerolled": "dice rerolled",
        "p_bust": "bust chance",
    }

    def __init__(self, roll: str = "4 6 5 5 1 3 2 2") -> None:
        _ARGUMENT.text(roll, "roll")
        self.roll = widgets.Text(
            value=roll,
            description="your roll",
            placeholder="e.g. 4 6 5 5 1 3 2 2",
            continuous_update=False,
            layout=widgets.Layout(width="340px"),
        )
        self.button = widgets.Button(description="Show my options", button_style="primary")
        self.message = widgets.HTML()
        self.summary = widgets.HTML()
        self.locks = widgets.HTML()
        self.rerolls = widgets.HTML()
        self.dice: tuple[int, ...] = ()
        self.options: list[LockOption] = []
        hover = "lock %{y}<br>bust chance of the next roll: %{customdata}<extra></extra>"
        chart = figure(
            [go.Bar(orientation="h", marker_color=BASE, textposition="outside", hovertemplate=hover)],
            xaxis=dict(
                title="bust chance of the next roll",
                tickformat=".0%",
                tickvals=[0, 0.2, 0.4, 0.6, 0.8, 1],
                range=[0, 1.12],
            ),
            yaxis=dict(type="category", autorange="reversed"),
            margin=dict(l=110),
        )
        self._start(chart, [self.roll])
        self.button.on_click(self._update)
        self.widget = widgets.VBox(
            [
                widgets.HBox([self.roll, self.button]),
                self.message,
                self.summary,
                self.locks,
                self.chart,
                widgets.HTML("<b>Ice cream first?</b> The bust chance of this roll after each ice-cream reroll:"),
                self.rerolls,
            ]
        )

    def _compute(self) -> tuple[tuple[int, ...], list[LockOption]]:
        dice = parse_dice(self.roll.value)
        if not dice:
            raise BadEntry("type the dice you rolled, e.g. 4 6 5 5 1 3 2 2")
        return dice, lock_options(dice)

    def _draw(self, fig: go.Figure, state: tuple[tuple[int, ...], list[LockOption]]) -> None:
        dice, options = state
        busts = [o.p_bust_next for o in options]
        fig.data[0].update(
            y=[_lock_text(o) for o in options],
            x=[float(p) for p in busts],
            text=[percent(p) for p in busts],
            customdata=[fraction_text(p) for p in busts],
        )
        fig.layout.height = 150 + 24 * max(len(options), 2)
        fig.layout.title.text = f"Roll {_dice_text(dice)}: the bust chance if you lock, then roll on"
        fig.layout.xaxis.visible = fig.layout.yaxis.visible = bool(options)
        bust_note = dict(text="this roll busts: there is nothing to lock", x=0.5, y=0.5, xref="paper", yref="paper")
        fig.layout.annotations = [] if options else [dict(bust_note, showarrow=False, font_size=16)]

    def _show(self, state: tuple[tuple[int, ...], list[LockOption]]) -> None:
        self.dice, self.options = state
        if self.options:
            self.summary.value = (
                f"<b>{_n_dice(len(self.dice))}</b>: <b>{len(self.options)}</b> ways to lock one or more sets. "
                "Locking fewer dice leaves more to roll, and more dice bust less often."
            )
            self.locks.value = table_html(lock_table(self.dice), self.LOCK_COLUMNS)
        else:
            self.summary.value = f"No two or three of {_dice_text(self.dice)} sum to ten: <b>this roll busts</b>."
            self.locks.value = ""
        self.rerolls.value = table_html(reroll_table(self.dice), self.REROLL_COLUMNS) + (
            "<div style='font-size:13px'>One row per ice-cream tile and the dice it would reroll: a tile that rerolls "
            "a fixed value (“reroll all 1s”) and one that rerolls a chosen value can reroll the same dice, and then "
            "their rows agree.</div>")


# --------------------------------------------------------------------------------------
TRIALS = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
"""Choices of the trials slider."""


@dataclass(frozen=True)
class _Run:
    dice: int
    seed: int
    exact: Fraction
    estimate: Estimate
    shown: np.ndarray
    running: np.ndarray


class SimulationCheck(View):
    """A seeded simulation of P(at least one set) converging to the exact answer.

    ``dice``, ``trials`` and ``seed`` are the controls; ``fig`` draws the running
    estimate, the exact line and the funnel where 99% of fair simulations stay;
    ``result`` prints the exact value beside the estimate and its 99% interval.

    >>> check = SimulationCheck(dice=3, trials=10_000, seed=1)
    >>> check.estimate.contains(check.exact)
    True
    """

    CONFIDENCE = 0.99

    def __init__(self, dice: int = 3, trials: int = 10_000, seed: int = 0) -> None:
        self.dice = _dice_slider(dice, continuous_update=False)
        _ARGUMENT.one_of(trials, "trials", TRIALS)
        _ARGUMENT.whole(seed, "seed")
        self.trials = widgets.SelectionSlider(
            options=[(f"{t:,}", t) for t in TRIALS], value=trials, description="trials", continuous_update=False
        )
        self.seed = widgets.IntText(value=seed, description="seed", layout=widgets.Layout(width="160px"))
        self.message = widgets.HTML()
        self.result = widgets.HTML()
        self.exact = Fraction(0)
        self.estimate: Estimate | None = None
        no_hover = dict(mode="lines", line=dict(width=0), hoverinfo="skip")
        chart = figure(
            [
                go.Scatter(name="low", showlegend=False, **no_hover),
                go.Scatter(name="99% of simulations", fill="tonexty", fillcolor=BAND, **no_hover),
                go.Scatter(name="exact", mode="lines", line=dict(color=EXACT, dash="dash")),
                go.Scatter(
                    name="simulation",
                    mode="lines",
                    line=dict(color=ACCENT, width=2),
                    hovertemplate="after %{x:,} rolls: %{y:.2%}<extra></extra>",
                ),
            ],
            xaxis=dict(title="rolls simulated (log scale)", type="log"),
            yaxis=dict(title="share of rolls with a set", tickformat=".0%"),
            showlegend=True,
            legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1, xanchor="right"),
            margin=dict(t=80),
        )
        self._start(chart, [self.dice, self.trials, self.seed])
        self.widget = widgets.VBox(
            [widgets.HBox([self.dice, self.trials, self.seed]), self.message, self.result, self.chart]
        )

    def _compute(self) -> _Run:
        n, trials, seed = self.dice.value, self.trials.value, self.seed.value
        if seed < 0:
            raise BadEntry(f"the seed must be a whole number 0 or more, got {seed}")

        def sampler(rng: np.random.Generator, k: int) -> np.ndarray:
            return roll_array(rng, k, dice=n)

        def event(rolls: np.ndarray) -> np.ndarray:
            return has_set_array(face_counts(rolls))

        # The same seed draws the same rolls, so the running line ends at the estimate.
        est = estimate(sampler, event, trials, seed=seed, confidence=self.CONFIDENCE)
        shown = np.unique(np.geomspace(1, trials, 400).round().astype(int))  # evenly spread on a log axis
        running = running_estimate(sampler, event, trials, seed=seed)[shown - 1]
        return _Run(n, seed, p_any_set(n), est, shown, running)

    def _draw(self, fig: go.Figure, run: _Run) -> None:
        p = float(run.exact)
        wobble = NormalDist().inv_cdf(0.5 + self.CONFIDENCE / 2) * np.sqrt(p * (1 - p) / run.shown)
        low, high, exact, simulated = fig.data
        low.update(x=run.shown, y=np.clip(p - wobble, 0, 1))
        high.update(x=run.shown, y=np.clip(p + wobble, 0, 1))
        exact_hover = f"exact {fraction_text(run.exact)}<extra></extra>"
        exact.update(x=[1, run.estimate.trials], y=[p, p], hovertemplate=exact_hover)
        simulated.update(x=run.shown, y=run.running)
        fig.layout.title.text = f"Simulating {run.estimate.trials:,} rolls of {_n_dice(run.dice)} (seed {run.seed})"

    def _show(self, run: _Run) -> None:
        self.exact, self.estimate = run.exact, run.estimate
        verdict = (
            "the exact value lies inside the interval ✓"
            if run.estimate.contains(run.exact)
            else "the exact value lies outside: a 99% interval misses about 1 time in 100"
        )
        self.result.value = (
            f"Exact P(at least one set) with {_n_dice(run.dice)}: <b>{fraction_text(run.exact)}</b>"
            f"<br>Simulated: <b>{html.escape(str(run.estimate))}</b>: {verdict}"
        )
