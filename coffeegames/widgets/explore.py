"""Explore a whole game at scale in one widget: pick a game, a question and a number of games, press Run.

:class:`Explorer` is the app of ``notebooks/explore.ipynb``. The work is :func:`coffeegames.analyse`'s: the
widget only arranges the controls, asks the report for ``table(question)`` and ``figure(question)`` and shows
both (every value with its 95% interval). The questions are those of the report: *is it fair?* (win rate by
seat), *how much is luck?* (the stronger bot against the weaker, the skill share of the scores), *what does each
option change?* and *what is the game like?* (moves, decisions, choices and chance events a game).

One report is kept for each game and number of games, so asking a second question of the same game and sample
plays only the games that question needs. While games are played the sweep's progress bar shows inside the
widget, and the Run button is disabled. A refused request (a :class:`~coffeegames.errors.CoffeeGamesError`)
shows its message and keeps the last answer; any other error is a bug and raises.

Example:
    >>> view = explore_view(game="roaster", question="shape", seeds=20)
    >>> view.game.value, view.question.value, view.seeds.value, view.answer is None
    ('roaster', 'shape', 20, True)
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
import pandas as pd

from ..errors import BadArgument, BadType, CoffeeGamesError
from ..games import games
from ..validate import Checker, check_flag
from .charts import StaticPlot, error_html, figure, table_html

__all__ = ["Explorer", "MAX_GAMES", "QUESTIONS", "explore_view"]

QUESTIONS: dict[str, str] = {
    "fairness": "Is it fair? (win rate by seat)",
    "luck": "How much is luck? (stronger bot against weaker)",
    "options": "What does each option change?",
    "shape": "What is the game like? (moves, choices)",
}
"""The report's questions (``coffeegames.analyse.report.QUESTIONS``, in its order), with the words the dropdown shows."""
MAX_GAMES = 2000
"""The most games (seeds) a question the slider offers; the README's findings use 2,000."""
STEP = 10


def _analyse() -> Callable[..., Any]:
    """``coffeegames.analyse``, imported when the first question is asked (it loads the sweep and the bots)."""
    from ..analyse import analyse

    return analyse


def _shown(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with decimals rounded for reading (3 places; the report's own table keeps every digit)."""
    return table.apply(lambda column: column.round(3) if pd.api.types.is_float_dtype(column) else column)


class Explorer:
    """A game, a question and a number of games; Run shows the report's table and figure.

    Controls: ``game`` and ``question`` (Dropdowns), ``seeds`` (IntSlider: games a question), ``button`` (Run).
    Results: ``answer`` (the last table shown, a DataFrame, or None), ``fig`` (its plotly figure), ``reports``
    (the reports kept, by ``(game, seeds)``). ``analyse`` replaces :func:`coffeegames.analyse` (tests give a stand-in).
    """

    def __init__(self, game: str = "vivajava", question: str = "fairness", seeds: int = 100, *, progress: bool = True,
                 analyse: Callable[..., Any] | None = None) -> None:
        check = Checker("explore_view", BadArgument)
        check.one_of(game, "game", list(games()))
        check.one_of(question, "question", list(QUESTIONS))
        check.whole(seeds, "seeds", STEP, MAX_GAMES)
        self.progress = check_flag(progress, "progress")
        if analyse is not None and not callable(analyse):
            raise BadType("analyse", "must be a function like coffeegames.analyse (or None: that one)", analyse)
        self._analyse = analyse
        self.reports: dict[tuple[str, int], Any] = {}
        self.answer: pd.DataFrame | None = None
        style = {"description_width": "initial"}
        self.game = widgets.Dropdown(options=[(info.title, name) for name, info in games().items()], value=game,
                                     description="game", style=style)
        self.question = widgets.Dropdown(options=[(words, key) for key, words in QUESTIONS.items()], value=question,
                                         description="question", style=style, layout=widgets.Layout(width="420px"))
        self.seeds = widgets.IntSlider(value=seeds, min=STEP, max=MAX_GAMES, step=STEP, continuous_update=False,
                                       description="games (seeds) a question", style=style,
                                       layout=widgets.Layout(width="480px"))
        self.button = widgets.Button(description="Run", button_style="primary", icon="play")
        self.status = widgets.HTML("Pick a game, a question and a number of games, then press <b>Run</b>.")
        self.message = widgets.HTML()
        self.bar = widgets.Output()  # the sweep's progress bar (tqdm) shows here while games are played
        self.fig = figure([], height=120, title="Press Run: the answer's figure appears here",
                          xaxis_visible=False, yaxis_visible=False)
        self.chart = StaticPlot(self.fig)
        self.table = widgets.HTML()
        self.button.on_click(lambda _: self.run())
        for control in (self.game, self.question, self.seeds):
            control.observe(self._changed, "value")
        self.widget = widgets.VBox([
            widgets.HBox([self.game, self.question]), widgets.HBox([self.seeds, self.button]),
            self.status, self.message, self.bar, self.chart, self.table,
        ])
        self.widget.add_class("cg-explore")  # the classes a page test finds the parts by
        for part, name in ((self.game, "game"), (self.question, "question"), (self.seeds, "seeds"), (self.button, "run"),
                           (self.status, "status"), (self.message, "message"), (self.bar, "progress"),
                           (self.chart, "chart"), (self.table, "table")):
            part.add_class(f"cg-explore-{name}")

    def _changed(self, _: Any = None) -> None:
        """A control moved: say what Run will do (played games are kept, so it may be quick)."""
        kept = (self.game.value, self.seeds.value) in self.reports
        self.status.value = (f"Press <b>Run</b> to answer “{html.escape(QUESTIONS[self.question.value])}” "
                             f"for {html.escape(games()[self.game.value].title)} over {self.seeds.value:,} seeds"
                             + (" (the games already played for this game and sample are reused)." if kept else "."))

    def report(self) -> Any:
        """The report of the picked game and number of games: the one kept, or a new one (its games are played
        when a question needs them)."""
        key = (self.game.value, self.seeds.value)
        if key not in self.reports:
            analyse = self._analyse or _analyse()
            self.reports[key] = analyse(key[0], seeds=key[1], progress=self.progress)
        return self.reports[key]

    def run(self) -> None:
        """Answer the picked question: play the games it needs (with a progress bar), then show its table and
        figure. A refused request shows its message and keeps the last answer."""
        name, question = self.game.value, self.question.value
        words = f"“{html.escape(QUESTIONS[question])}” for {html.escape(games()[name].title)}, {self.seeds.value:,} seeds"
        self.button.disabled = True
        self.message.value = ""
        self.status.value = f"Playing the games for {words}…"
        self.bar.clear_output()
        try:
            with self.bar:
                report = self.report()
                table = report.table(question)
                fig = report.figure(question)
        except CoffeeGamesError as error:
            self.message.value = error_html(error)
            self.status.value = "The last answer is still shown."
            return
        finally:
            self.button.disabled = False
        self.bar.clear_output()
        self.answer, self.fig = table, fig
        self.chart.fig = fig
        self.chart.redraw()
        self.table.value = table_html(_shown(table))
        self.status.value = f"{words}: every value with its 95% interval."

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def explore_view(game: str = "vivajava", question: str = "fairness", seeds: int = 100, *, progress: bool = True) -> Explorer:
    """The explore app: an :class:`Explorer` starting at ``game``, ``question`` and ``seeds`` games (nothing is
    played until Run is pressed). It displays itself when it ends a cell.

    >>> explore_view("dairyman", "luck", 200).question.value
    'luck'
    """
    return Explorer(game, question, seeds, progress=progress)
