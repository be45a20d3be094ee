"""A decision walkthrough for any game under the State contract: the board, every choice with its exact value, the moves so far.

:class:`DecisionView` shows a :class:`~coffeegames.engine.Session` (the game control: moves,
bots, undo, typed outcomes, history) through a game's :class:`~.adapter.Adapter` (its
advice, board and words). At each decision it lists every legal action with its exact
consequences (from the adapter's ``advise``) as a bar chart, marks the optimal one (★,
highlighted), and lets you take any action, let chance move, let the bots play, undo, or
type what real dice showed (companion mode). Input the library refuses (a
:class:`~coffeegames.errors.CoffeeGamesError`) changes nothing and shows why; any other
error is a bug and surfaces as a traceback.

The board and the chart are plain plotly plots redrawn whole in an Output widget
(:class:`~.charts.StaticPlot`), never plotly ``FigureWidget`` objects: on a page of several of those
a browser stops redrawing some. ``board_fig`` and ``chart_fig`` are the figures last drawn.

:func:`~coffeegames.engine.advice.solver_advice` makes an ``advise`` function from exact expectimax for any small game.

Example (roll a die, keep it or reroll once; values by exact expectimax):
    >>> from coffeegames.engine import Session
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> view = DecisionView(Session(KeepOrReroll(), seed=1), Adapter(advise=solver_advice()))
    >>> view.chance_button.click()                  # chance rolls the die
    >>> view.state.die, [row.label for row in view.advice if row.best]
    (4, ['Keep()'])
    >>> view.chart_fig.data[0].x                    # exact values 4 and 7/2, drawn as floats
    (4.0, 3.5)
    >>> view.take_button.click()                    # take the selected action: the best
    >>> view.session.history()
    [('chance', '4'), ('player 0 (you)', 'Keep()')]
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any, Generic, cast

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from ..engine import IllegalAction, Session
from ..engine.advice import Advice, Advisor, ranked, remembered, solver_advice
from ..engine.explain import Explainer, Why, advice_explainer
from ..engine.explain import why as explain_why
from ..engine.session import S
from ..engine.state import Action
from ..errors import CoffeeGamesError
from ..text import exact_text
from .adapter import Adapter, Board
from .background import ExactOnRequest
from .advice_chart import STAR, advice_figure, draw_advice, option_text, value_text
from .charts import StaticPlot, error_html, figure_dict
from .whole_text import WholeText
from .why import details_toggle, has_details, why_html

__all__ = ["Adapter", "Board", "DecisionView", "exact_text", "solver_advice", "value_text"]

BOARD_CONFIG = {"displayModeBar": False}
"""A board is not a chart to zoom."""


class DecisionView(Generic[S]):
    """Step through a game decision by decision, with every choice's exact value.

    Args:
        session: the game being played (:class:`~coffeegames.engine.Session`): who is a bot,
            whose roll a chance node is, how typed outcomes are read.
        adapter: how the game shows itself (:class:`~.adapter.Adapter`): advice, board, words.
        max_bars: the most actions drawn as bars (all are in the list).

    Every move (a button, or :meth:`take`, :meth:`chance_step`, :meth:`enter_outcome`,
    :meth:`bots_play`, :meth:`undo`, :meth:`new_game` from code) redraws the view. From code
    a refused move raises; from a button it shows why in ``message``.

    Public parts, for code and tests: ``session``, ``adapter``, ``state``, ``advice`` (the
    current rows, :class:`~coffeegames.engine.Advice`, best first; a decision is advised once, the list and the
    "why" panel share it), ``board_fig`` / ``board_plot`` (or ``board_text`` without a
    board), ``chart_fig`` / ``chart``, ``actions`` (dropdown) with ``take_button`` and ``exact_toggle`` (shown
    when the adapter has an ``exact_toggle``: ticked, every value exact, no budget), ``chance_button``,
    ``bots_button``, ``undo_button``, ``outcome_text`` with ``outcome_button`` (in ``outcome_row``; at a deal the
    adapter explains in ``deal_note``, the row is hidden unless ``type_toggle`` is ticked), ``seed_box`` with ``new_game_button``, ``status``, ``summary`` (the
    best choice in words), ``why`` / ``why_panel`` (the "why this value?" panel: the choice picked in
    the list taken apart into its outcomes, beside the best other choice, see
    :mod:`coffeegames.engine.explain`; ``details_toggle`` adds the model's details where the game gives some), ``message``, ``history_panel``; ``widget`` is the box a notebook shows.
    """

    def __init__(self, session: Session[S], adapter: Adapter[S] | None = None, *, max_bars: int = 12) -> None:
        self.session = session
        adapter = adapter if adapter is not None else Adapter()
        self.adapter: Adapter[S] = adapter
        self.max_bars = max_bars
        self.advice: list[Advice] = []
        self._advise: Advisor | None = remembered(adapter.advise) if adapter.advise else None
        self._exact_advise: Advisor | None = None  # with the exact box ticked: advise with exact=True, in the background
        if adapter.exact_toggle and adapter.advise:
            self._exact_advise = remembered(partial(cast(Callable[..., list[Advice]], adapter.advise), exact=True))

        self.status = widgets.HTML()
        self.summary = widgets.HTML()
        self.message = widgets.HTML()
        self.board_text = widgets.HTML()
        self.actions = widgets.Dropdown(description="action", layout=widgets.Layout(width="auto", min_width="520px", max_width="100%"))
        self.take_button = widgets.Button(description="Take", button_style="primary", tooltip="take the chosen action")
        self.chance_button = widgets.Button(description=adapter.chance_button, icon="random", layout=widgets.Layout(width="auto"))
        self.bots_button = widgets.Button(description="Bots play", icon="play", tooltip="bots and chance move until a person decides")
        self.undo_button = widgets.Button(description="Undo", icon="undo", tooltip="take back your last move")
        self.outcome_text = widgets.Text(description=adapter.outcome_label, layout=widgets.Layout(width="600px"))
        self.outcome_button = widgets.Button(description=adapter.outcome_button, layout=widgets.Layout(width="210px"))
        self.outcome_row = widgets.HBox([self.outcome_text, self.outcome_button])
        self.deal_note = widgets.HTML()
        self.type_toggle = widgets.Checkbox(value=not session.bots, description=adapter.deal_toggle, indent=False,
                                            layout=widgets.Layout(width="auto"))
        self.deal_row = widgets.VBox([self.deal_note, self.type_toggle])  # the box under the note, not inside its sentence
        self.exact_toggle = widgets.Checkbox(value=False, description=adapter.exact_toggle or "", indent=False,
                                             layout=widgets.Layout(width="auto", display=None if adapter.exact_toggle else "none"))
        self.exact = ExactOnRequest(self._exact_advise or (lambda _: []), lambda: self._attempt(self.refresh), self.exact_toggle)
        self.seed_box = widgets.IntText(value=session.seed or 0, description="seed", layout=widgets.Layout(width="160px"))
        self.new_game_button = widgets.Button(description="New game", icon="refresh")
        self.history_panel = widgets.HTML()
        self.why_panel = widgets.HTML()
        self.why: Why | None = None
        self.details_toggle = details_toggle(self._show_why)  # the model's details in the panel (the why is cached)
        self.explain: Explainer | None = adapter.explain or (advice_explainer(self._advise) if self._advise else None)
        self.exact_explain: Explainer | None = None  # with the exact box ticked: explain (or advise) with exact=True
        if adapter.exact_toggle and adapter.explain:
            self.exact_explain = partial(cast(Callable[..., Any], adapter.explain), exact=True)
        elif self._exact_advise is not None:
            self.exact_explain = advice_explainer(self._exact_advise)
        self._why_cache: dict[Any, Why | None] = {}

        self._show_texts()
        self.chart = StaticPlot(self._draw_chart(advice_figure(self.adapter.value_name)))
        self.board_plot = StaticPlot(self._board_figure(), config=BOARD_CONFIG) if adapter.board is not None else None

        self.take_button.on_click(lambda _: self._attempt(lambda: self.take(self._chosen())))
        self.chance_button.on_click(lambda _: self._attempt(self.chance_step))
        self.bots_button.on_click(lambda _: self._attempt(self.bots_play))
        self.undo_button.on_click(lambda _: self._attempt(self.undo))
        self.outcome_button.on_click(lambda _: self._attempt(self.enter_outcome))
        self.new_game_button.on_click(lambda _: self._attempt(lambda: self.new_game(self.seed_box.value)))
        self.actions.observe(lambda _: self._show_why(), names="value")
        self.type_toggle.observe(lambda _: self._toggled(), names="value")
        self.exact_toggle.observe(lambda _: self._attempt(self.refresh), names="value")

        board: widgets.Widget = self.board_plot if self.board_plot is not None else self.board_text
        # Stable CSS classes: the real-browser test (tests/test_browser.py) finds the parts by them.
        for part, css in [(self.status, "cg-status"), (board, "cg-board"), (self.summary, "cg-summary"),
                          (self.actions, "cg-actions"), (self.take_button, "cg-take"), (self.chance_button, "cg-chance"),
                          (self.bots_button, "cg-bots"), (self.undo_button, "cg-undo"), (self.outcome_text, "cg-outcome-text"),
                          (self.outcome_button, "cg-outcome-enter"), (self.message, "cg-message"),
                          (self.history_panel, "cg-history"), (self.new_game_button, "cg-new-game"), (self.why_panel, "cg-why"),
                          (self.deal_note, "cg-deal-note"), (self.type_toggle, "cg-type-toggle"),
                          (self.exact_toggle, "cg-exact-toggle")]:
            part.add_class(css)
        self.bots_button.layout.display = None if self._bots_shown else "none"  # a solo game, or no bots: no such button
        self.chart_box = chart_box = widgets.Box([self.chart])
        chart_box.add_class("cg-chart")
        chart_box.layout.display = None if self._charted else "none"
        self.widget = widgets.VBox(
            [
                self.status,
                board,
                self.summary,
                chart_box,
                widgets.HBox([self.actions, self.take_button, self.exact_toggle, self.exact.cancel_button]),
                self.why_panel,
                self.details_toggle,
                widgets.HBox([self.chance_button, self.bots_button, self.undo_button]),
                self.deal_row,
                self.outcome_row,
                self.message,
                widgets.HTML("<b>Moves so far</b> (newest last)"),
                self.history_panel,
                widgets.HBox([self.seed_box, self.new_game_button]),
            ]
        )
        self.widget.add_class("cg-decision-view")

    # -- the game ------------------------------------------------------------------
    @property
    def state(self) -> S:
        """The current state."""
        return self.session.state

    @property
    def chart_fig(self) -> go.Figure:
        """The chart as last drawn."""
        return self.chart.fig

    @property
    def board_fig(self) -> go.Figure | None:
        """The board as last drawn (None without a board function)."""
        return go.Figure(self.board_plot.fig) if self.board_plot is not None else None

    @property
    def _charted(self) -> bool:
        """Whether the chart has bars to show: some choice here carries a value."""
        return self.adapter.advise is not None and any(row.value is not None for row in self.advice)

    @property
    def _exact(self) -> bool:
        """Whether the person asked for every value exact (the adapter's ``exact_toggle``)."""
        return self.adapter.exact_toggle is not None and self.exact_toggle.value

    @property
    def _bots_shown(self) -> bool:
        return not self.adapter.solo and bool(self.session.bots)

    def take(self, action: Action) -> None:
        """Take ``action`` at the current decision (any player's) and redraw; an illegal one raises and changes nothing."""
        self.session.take(action)
        self.refresh()

    def chance_step(self) -> None:
        """Let chance move once, with its exact odds (seeded), and redraw."""
        self.session.chance_step()
        self.refresh()

    def enter_outcome(self, text: str | None = None) -> None:
        """Apply a chance outcome typed as text (default: the outcome box) and redraw; bad text raises and changes nothing."""
        self.session.enter_outcome(self.outcome_text.value if text is None else text)
        self.outcome_text.value = ""
        self.refresh()

    def bots_play(self) -> None:
        """Bots and chance move until a person decides (or rolls), or the game ends; then redraw."""
        self.session.bots_play()
        self.refresh()

    def undo(self) -> None:
        """Take back moves to the last point where a person decided or rolled (else to the last decision), and redraw."""
        self.session.undo()
        self.refresh()

    def new_game(self, seed: int | None = None) -> None:
        """Start again from the initial state, chance seeded by ``seed`` (a seed replays the same luck), and redraw."""
        self.session.new_game(seed)
        self.refresh()

    def history(self) -> list[tuple[str, str]]:
        """The moves so far as the view lists them, ``(who, move)``, oldest first: the session's history with each
        move in the game's words (the adapter's ``describe``)."""
        describe = self.adapter.describe
        lines = self.session.history()
        if describe is None:
            return lines
        return [(who, describe(move)) for (who, _), move in zip(lines, self.session.walkthrough.moves)]

    def _whose_move(self) -> str:
        """Whose move it is, with the buttons that make it."""
        session, state = self.session, self.state
        if state.is_terminal() and self.adapter.game_over is not None:
            return self.adapter.game_over(state)
        text = session.describe()
        if state.is_chance():
            bots = ", “Bots play”" if self._bots_shown and session.bots_can_play() else ""
            typed = f" or {self.adapter.words_at(state)[1].lower()}" if self._typed_here() else ""
            return f"{text} (press “{self.adapter.chance_at(state)}”{bots}{typed})"
        if state.current_player() in session.bots and not state.is_terminal():
            return f"{text} (press “Bots play”, or choose for it)"
        return text

    def _typed_here(self) -> bool:
        """Whether the outcome box is offered now: the game reads typed outcomes, and this is no deal (or the
        person ticked ``type_toggle`` to type the deal on their table)."""
        return self.session.parse_outcome is not None and (self.adapter.note_at(self.state) is None or self.type_toggle.value)

    def _chosen(self) -> Action:
        if self.actions.value is None:
            raise IllegalAction(f"no action to take: {self.session.describe()}")
        action: Action = self.advice[self.actions.value].action
        return action

    def _attempt(self, move: Callable[[], object]) -> None:
        """Run a user's move; input the library refuses is shown and leaves the game as it was (a bug raises)."""
        try:
            move()
        except CoffeeGamesError as error:
            self.message.value = error_html(error)
            return
        self.message.value = ""

    # -- drawing -------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the session's current state (every move does this itself).

        The chart is shown only where some choice carries a value: at a chance node, at the end and where no choice
        is valued it is hidden (the status and the summary say what is going on, once)."""
        with self.exact.lock:  # (exact values worked out in the background wait for a redraw to end)
            self._show_texts()
            self._draw_chart(self.chart.fig)
            self.chart.redraw()
            self.chart_box.layout.display = None if self._charted else "none"
            if self.board_plot is not None:
                self.board_plot.fig = self._board_figure()
                self.board_plot.redraw()

    def _board_figure(self) -> dict[str, Any]:
        assert self.adapter.board is not None
        return figure_dict(*self.adapter.board(self.state))

    def _show_texts(self) -> None:
        """Advice table, action list, status, history, button states."""
        state, session, adapter = self.state, self.session, self.adapter
        deciding = not state.is_chance() and not state.is_terminal()
        rows: list[Advice] = []
        if deciding:
            if self._advise is None:
                rows = [Advice(a, str(a)) for a in state.legal_actions()]
            elif self._exact and self._exact_advise is not None:  # no budget: the estimates until the exact rows come
                rows = self.exact.rows(state, self._advise)
            else:
                rows = self._advise(state)
            if adapter.describe is not None:  # the words a player reads
                rows = [replace(row, label=row.label.replace(str(row.action), adapter.describe(row.action), 1)) for row in rows]
        self.advice = ranked(rows, mark=False)
        options = [(option_text(row, self.adapter), i) for i, row in enumerate(self.advice)]
        self._why_cache = {}
        self.actions.options = options
        self.actions.value = 0 if options else None
        self._show_why()
        self.status.value = f"<b>{html.escape(self._whose_move())}</b>"
        self.summary.value = self._summary() + (self.exact.note() if self._exact else "")
        if adapter.board is None:
            self.board_text.value = f"<pre style='line-height:1.3'>{html.escape(str(state))}</pre>"
        moves = "".join(f"<li><b>{html.escape(who)}</b>: {html.escape(move)}</li>" for who, move in self.history())
        self.history_panel.value = (
            "<div style='max-height:200px;overflow-y:auto;display:flex;flex-direction:column-reverse;"
            "border:1px solid #dee2e6;padding:2px 8px;font-size:13px'>"
            f"<ol style='margin:0;padding-left:28px'>{moves or '<i>no moves yet</i>'}</ol></div>"
        )
        self.take_button.disabled = self.actions.disabled = not deciding
        self.chance_button.disabled = self.outcome_button.disabled = self.outcome_text.disabled = not state.is_chance()
        self.bots_button.disabled = not session.bots_can_play()
        self.undo_button.disabled = not session.walkthrough.moves
        self.chance_button.description = adapter.chance_at(state) if state.is_chance() else adapter.chance_button
        self._show_outcome_box()

    def _toggled(self) -> None:
        """``type_toggle`` changed: show or hide the outcome box, and say so in the status."""
        self._show_outcome_box()
        self.status.value = f"<b>{html.escape(self._whose_move())}</b>"

    def _show_outcome_box(self) -> None:
        """The deal note, the checkbox and the outcome box with its words and hint, as this node wants them."""
        state, session, adapter = self.state, self.session, self.adapter
        note = adapter.note_at(state)
        self.deal_note.value = f"<span style='font-size:13px'>{html.escape(note)}</span>" if note else ""
        self.deal_row.layout.display = None if note else "none"
        self.type_toggle.layout.display = None if session.parse_outcome else "none"
        self.outcome_row.layout.display = None if self._typed_here() else "none"
        if not state.is_chance():
            self.outcome_text.placeholder = self.outcome_text.tooltip = ""  # no stale hint from the last chance node
        else:
            self.outcome_text.description, self.outcome_button.description = adapter.words_at(state)
            if adapter.outcome_hint is not None:  # a deal nobody owns, in a game with bots, is typed only at a real table
                real = "real table only: " if session.bots and session.roller(state) is None and note is None else ""
                self.outcome_text.placeholder = self.outcome_text.tooltip = real + adapter.outcome_hint(state)

    def _show_why(self) -> None:
        """The "why this value?" panel for the action chosen in the list (hidden where no choice is valued)."""
        chosen = self.actions.value
        explain = self.exact_explain if self._exact and self.exact_explain and self.state in self.exact.found else self.explain
        if explain is None or chosen is None or not self.advice:
            self.why = None
        else:
            if chosen not in self._why_cache:
                self._why_cache[chosen] = explain_why(self.state, self.advice, explain, self.advice[chosen].action,
                                                      self.adapter.describe)
            self.why = self._why_cache[chosen]
        self.why_panel.value = why_html(self.why, self.adapter.value_name, self.details_toggle.value)
        self.why_panel.layout.display = None if self.why is not None else "none"
        self.details_toggle.layout.display = None if has_details(self.why) else "none"

    def _summary(self) -> str:
        """The best choice in words, with its exact value and risk."""
        if not self.adapter.advise or not self.advice:
            return ""
        best = self.advice[0]
        if best.value is None:
            return self._unvalued_note()
        sample = best.sample
        worth = f"worth exactly <b>{exact_text(best.value)}</b> ({self.adapter.value_name})" if sample is None else \
            f"worth <b>{html.escape(sample.value_short(best.value))}</b> ({self.adapter.value_name}, {html.escape(sample.size_text())})"
        tied = sample is not None and not best.best  # estimates the adviser could not tell apart: no star
        text = ("No ★: the top choices are tied within the noise (more playouts did not separate them); the highest "
                "estimate: " if tied else f"{STAR}Best: ") + f"<b>{html.escape(best.label)}</b>, {worth}"
        if best.risk is not None:
            text += f"; {self.adapter.risk_summary.format(exact_text(best.risk, chance=True))}"
        if best.then:
            text += f"; after it: <b>{html.escape(best.then)}</b>"
        return text + ". Hover over a bar for the value of any choice; “Why this value?” below takes the choice picked in the list apart."

    def _unvalued_note(self) -> str:
        """What the summary says where no choice carries a value: why (the advice's ``then``), and the risk column."""
        reasons = {row.then.removeprefix("not valued: ") for row in self.advice if row.then}
        why = f": {html.escape(reasons.pop())}" if len(reasons) == 1 else ""
        risky = any(row.risk is not None for row in self.advice)
        risk = f"; the list gives each one's {html.escape(self.adapter.risk_name)}" if risky else ""
        return f"No choice here carries a value{why}{risk}."

    def _draw_chart(self, fig: go.Figure) -> go.Figure:
        """The valued actions as horizontal bars, best first (:func:`~.advice_chart.draw_advice`)."""
        valued = any(row.value is not None for row in self.advice)  # else no title, and maybe no player to move
        who = self.session.name(self.state.current_player()) if valued else ""
        return draw_advice(fig, self.advice, self.adapter, who, self.max_bars)

    def table(self) -> WholeText:
        """The advice to read: every choice with its value in words (exact, or ``≈`` an estimate), its risk (where the
        game has one), what follows and how the value was found (the columns the game's ``advise`` gives)."""
        value, risk_name = self.adapter.value_name, self.adapter.risk_name
        risky = any(row.risk is not None for row in self.advice)
        columns = ["choice", value] + ([risk_name] if risky else []) + ["then", "how"]
        rows = [{"choice": row.label, value: row.value_text(), "then": row.then, "how": row.how,
                 risk_name: exact_text(row.risk, chance=True) if row.risk is not None else ""} for row in self.advice]
        return WholeText(pd.DataFrame(rows, columns=columns).set_index("choice"))

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
