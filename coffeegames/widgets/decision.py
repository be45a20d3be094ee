"""A decision walkthrough for any game under the State contract: the board, every choice with its exact value, the moves so far.

:class:`DecisionView` steps through a :class:`~coffeegames.engine.Walkthrough`. At each
decision it lists every legal action with its exact consequences (from an ``advise``
function) as a bar chart, marks the optimal one (★, highlighted), and lets you take any
action, let chance roll, let the bots play, undo, or type what real dice showed
(companion mode). Illegal or malformed input changes nothing and shows why.

Games plug in through small functions, all optional:

* ``advise(state) -> DataFrame`` with columns ``action``, ``label``, ``value`` (exact
  ``Fraction`` or None), a risk column (Fraction or None; ``p_bust_next`` unless
  ``risk_column`` names another) and ``best``, like :func:`coffeegames.dairyman.advise`;
  an optional ``then`` column is shown too.
  :func:`solver_advice` makes one from exact expectimax for any small game.
* ``board(state) -> (traces, layout)``: plotly traces and a layout dict drawing the
  position. Return the same number and kinds of traces for every state, so the board
  updates in place (otherwise it is rebuilt).
* ``bots``: ``{player: policy}``; players without a policy are people.
* ``parse_outcome(text, state) -> outcome`` and ``outcome_hint(state) -> str`` for
  typed chance outcomes; ``chance_player(state)`` says whose roll a chance node is, so
  "Bots play" stops before a person's roll and "Undo" goes back to it.

Example (roll a die, keep it or reroll once; values by exact expectimax):
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> view = DecisionView(KeepOrReroll(), seed=1, advise=solver_advice())
    >>> view.chance_button.click()                  # chance rolls the die
    >>> view.state.die, view.advice.loc[view.advice.best, "label"].tolist()
    (4, ['Keep()'])
    >>> view.chart.data[0].x                        # exact values 4 and 7/2, drawn as floats
    (4.0, 3.5)
    >>> view.take_button.click()                    # take the selected action: the best
    >>> view.history()
    [('chance', '4'), ('player 0 (you)', 'Keep()')]
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go
from plotly.basedatatypes import BaseTraceType

from ..engine import CHANCE, TERMINAL, Expectimax, IllegalAction, State, Walkthrough
from ..engine.state import Action, Outcome
from .charts import BASE, HIGHLIGHT, error_html, figure, percent

__all__ = ["Board", "DecisionView", "exact_text", "solver_advice", "value_text"]

Board = tuple[Sequence[BaseTraceType], Mapping[str, Any]]
"""What a board function returns: plotly traces and a layout dict."""
Advisor = Callable[[State], pd.DataFrame]
Policy = Callable[[State], Action]

COLUMNS = ["action", "label", "value", "p_bust_next", "best"]
"""The columns an ``advise`` function returns (``then`` is optional)."""
STAR = "★ "
CHART_WIDTH = 880


def value_text(value: Fraction | None) -> str:
    """A short decimal for a bar label: ``'30'``, ``'32.00'``, ``'-5'``; ``''`` for None.

    >>> value_text(Fraction(30)), value_text(Fraction(1253971632755, 39182082048))
    ('30', '32.00')
    """
    if value is None:
        return ""
    return str(value) if value.denominator == 1 else f"{float(value):.2f}"


def exact_text(value: Fraction, chance: bool = False) -> str:
    """The whole exact number with its decimal, however long (for hover text and summaries).

    >>> exact_text(Fraction(1253971632755, 39182082048)), exact_text(Fraction(11, 12), chance=True)
    ('1253971632755/39182082048 ≈ 32.00', '11/12 (91.7%)')
    """
    if chance:
        return f"{value} ({percent(value)})"
    return str(value) if value.denominator == 1 else f"{value} ≈ {float(value):.2f}"


def _lower(row: Any) -> bool:
    """Whether an advice row's value is a lower estimate (its ``lower`` column, where the game's advice has one)."""
    lower = row.get("lower") if isinstance(row, pd.Series) else getattr(row, "lower", None)
    return _has_value(lower) and bool(lower)


def _worth(row: Any) -> str:
    """An advice row's value in words: exact, or an estimate (``exact`` False), with its standard error (``stderr``)
    or as a lower estimate (``lower``) when the advice frame says so."""
    if bool(getattr(row, "exact", True)):
        return exact_text(row.value)
    if _lower(row):
        return f"≈ {float(row.value):.2f} or more (a lower estimate)"
    stderr = getattr(row, "stderr", None)
    return f"≈ {float(row.value):.2f}" + (f" ± {stderr:.2f}" if _has_value(stderr) else "") + " (an estimate)"


def solver_advice(solver: Expectimax | None = None) -> Advisor:
    """An ``advise`` function from exact expectimax, for games small enough to solve whole.

    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> solver_advice()(KeepOrReroll(die=5))[["label", "value", "best"]].values.tolist()
    [['Keep()', Fraction(5, 1), True], ['Reroll()', Fraction(7, 2), False]]
    """
    solver = solver or Expectimax()

    def advise(state: State) -> pd.DataFrame:
        pairs = solver.action_values(state)
        top = max((v for _, v in pairs), default=None)
        rows = [{"action": a, "label": str(a), "value": v, "p_bust_next": None, "best": v == top} for a, v in pairs]
        return pd.DataFrame(rows, columns=COLUMNS)

    return advise


def _unique(labels: Sequence[str]) -> list[str]:
    """Labels made unique (a category axis merges equal ones)."""
    seen: dict[str, int] = {}
    unique = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        unique.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return unique


def _has_value(value: Any) -> bool:
    return value is not None and value == value  # None and NaN mean "no value"


def _best_first(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows sorted by exact value, highest first; actions without a value last (as None), in their order."""
    values = [v if _has_value(v) else None for v in frame["value"]]
    order = sorted(range(len(frame)), key=lambda i: (values[i] is None, -(values[i] or 0)))
    return frame.assign(value=pd.Series(values, index=frame.index, dtype=object)).iloc[order].reset_index(drop=True)


class DecisionView:
    """Step through a game decision by decision, with every choice's exact value.

    Args:
        game: a :class:`Walkthrough` to continue, or an initial state (then ``seed`` seeds chance).
        advise: ``advise(state) -> DataFrame`` (see the module notes); without it only the actions are listed.
        board: ``board(state) -> (traces, layout)`` drawing the position; without it the state's text is shown.
        bots: ``{player: policy}``; the other players are people.
        parse_outcome: ``parse_outcome(text, state) -> outcome`` for typed chance outcomes (companion mode).
        outcome_hint: ``outcome_hint(state) -> str``, the placeholder of the outcome box.
        chance_player: ``chance_player(state) -> player or None``, whose roll a chance node is.
        names: a display name per player (default ``"player 0 (you)"``, ``"player 1 (bot)"``).
        value_name: what the values measure, for the chart's axis.
        max_bars: the most actions drawn as bars (all are in the list).
        risk_column: the advice column holding each choice's risk, a chance (Fraction or None).
        risk_name: what that chance is, for the hover text.
        risk_short: a word or two for the bar labels (``"bust next 8.3%"``).
        risk_summary: the best choice's risk in words, ``{}`` standing for the exact chance.

    Public parts, for code and tests: ``walkthrough``, ``state``, ``advice`` (the current
    table, best first), ``board_fig`` / ``board_text``, ``chart``, ``actions`` (dropdown)
    with ``take_button``, ``chance_button``, ``bots_button``, ``undo_button``,
    ``outcome_text`` with ``outcome_button``, ``seed_box`` with ``new_game_button``,
    ``status``, ``summary`` (the best choice in words), ``message``, ``history_panel``;
    ``widget`` is the box a notebook shows.
    """

    def __init__(
        self,
        game: Walkthrough | State,
        *,
        seed: int | None = 0,
        advise: Advisor | None = None,
        board: Callable[[State], Board] | None = None,
        bots: Mapping[int, Policy] | None = None,
        parse_outcome: Callable[[str, State], Outcome] | None = None,
        outcome_hint: Callable[[State], str] | None = None,
        chance_player: Callable[[State], int | None] | None = None,
        names: Sequence[str] | None = None,
        value_name: str = "expected value",
        max_bars: int = 12,
        risk_column: str = "p_bust_next",
        risk_name: str = "bust chance of the next roll",
        risk_short: str = "bust next",
        risk_summary: str = "if you roll on, the next roll busts with chance {}",
    ) -> None:
        self.walkthrough = game if isinstance(game, Walkthrough) else Walkthrough(game, seed)
        self.initial = self.walkthrough.states[0]
        self.advise, self.board, self.bots = advise, board, dict(bots or {})
        self.parse_outcome, self.outcome_hint, self.chance_player = parse_outcome, outcome_hint, chance_player
        self.names, self.value_name, self.max_bars = names, value_name, max_bars
        self.risk_column, self.risk_name, self.risk_short, self.risk_summary = risk_column, risk_name, risk_short, risk_summary
        self.columns = [risk_column if c == "p_bust_next" else c for c in COLUMNS]
        self.advice = pd.DataFrame(columns=self.columns)

        self.status = widgets.HTML()
        self.summary = widgets.HTML()
        self.message = widgets.HTML()
        self.board_text = widgets.HTML()
        self.board_fig: go.FigureWidget | None = None
        self.actions = widgets.Dropdown(description="action", layout=widgets.Layout(width="520px"))
        self.take_button = widgets.Button(description="Take", button_style="primary", tooltip="take the chosen action")
        self.chance_button = widgets.Button(description="Let chance roll", icon="random")
        self.bots_button = widgets.Button(description="Bots play", icon="play", tooltip="bots and chance move until a person decides")
        self.undo_button = widgets.Button(description="Undo", icon="undo", tooltip="take back your last move")
        self.outcome_text = widgets.Text(description="you rolled", layout=widgets.Layout(width="520px"))
        self.outcome_button = widgets.Button(description="Enter the dice you rolled", layout=widgets.Layout(width="210px"))
        self.seed_box = widgets.IntText(value=self.walkthrough.seed or 0, description="seed", layout=widgets.Layout(width="160px"))
        self.new_game_button = widgets.Button(description="New game", icon="refresh")
        self.history_panel = widgets.HTML()

        self._show_texts()
        self._shown = False
        self._build_figures()

        self.take_button.on_click(lambda _: self._attempt(lambda: self.take(self._chosen())))
        self.chance_button.on_click(lambda _: self._attempt(self.let_chance_roll))
        self.bots_button.on_click(lambda _: self._attempt(self.bots_play))
        self.undo_button.on_click(lambda _: self._attempt(self.undo))
        self.outcome_button.on_click(lambda _: self._attempt(self.enter_outcome))
        self.new_game_button.on_click(lambda _: self._attempt(lambda: self.new_game(self.seed_box.value)))

        # Stable CSS classes: the real-browser test (tests/test_browser.py) finds the parts by them.
        for part, css in [(self.status, "cg-status"), (self.board_text, "cg-board"), (self.summary, "cg-summary"),
                          (self.actions, "cg-actions"), (self.take_button, "cg-take"), (self.chance_button, "cg-chance"),
                          (self.bots_button, "cg-bots"), (self.undo_button, "cg-undo"), (self.outcome_text, "cg-outcome-text"),
                          (self.outcome_button, "cg-outcome-enter"), (self.message, "cg-message"),
                          (self.history_panel, "cg-history"), (self.new_game_button, "cg-new-game")]:
            part.add_class(css)
        outcome_row = widgets.HBox([self.outcome_text, self.outcome_button])
        outcome_row.layout.display = None if parse_outcome else "none"
        self.chart_box = chart_box = widgets.Box([self.chart])
        chart_box.add_class("cg-chart")
        chart_box.layout.display = None if advise else "none"
        self.widget = widgets.VBox(
            [
                self.status,
                self.board_fig if self.board_fig is not None else self.board_text,
                self.summary,
                chart_box,
                widgets.HBox([self.actions, self.take_button]),
                widgets.HBox([self.chance_button, self.bots_button, self.undo_button]),
                outcome_row,
                self.message,
                widgets.HTML("<b>Moves so far</b> (newest last)"),
                self.history_panel,
                widgets.HBox([self.seed_box, self.new_game_button]),
            ]
        )
        self.widget.add_class("cg-decision-view")

    # -- the game ------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current state."""
        return self.walkthrough.state

    def name(self, player: int) -> str:
        """How a player (or chance) is shown."""
        if player == CHANCE:
            return "chance"
        if self.names is not None:
            return self.names[player]
        return f"player {player} ({'bot' if player in self.bots else 'you'})"

    def history(self) -> list[tuple[str, str]]:
        """``(who, move)`` for every move made, oldest first; a person's roll is ``"chance · <name>'s roll"``."""
        found = []
        for state, (player, move) in zip(self.walkthrough.states, self.walkthrough.history()):
            roller = self.chance_player(state) if player == CHANCE and self.chance_player else None
            found.append((self.name(player) + (f" · {self.name(roller)}'s roll" if roller is not None else ""), move))
        return found

    def take(self, action: Action) -> None:
        """Take ``action`` at the current decision (any player's); an illegal one raises and changes nothing."""
        if self.state.is_chance():
            raise IllegalAction("chance moves now: let chance roll, or enter what you rolled")
        self.walkthrough.step(action)

    def let_chance_roll(self) -> None:
        """Let chance move once, with its exact odds (seeded)."""
        if not self.state.is_chance():
            raise IllegalAction(f"it is not chance's move: {self._whose_move()}")
        self.walkthrough.step()

    def enter_outcome(self, text: str | None = None) -> None:
        """Apply a chance outcome typed as text (default: the outcome box); bad text raises and changes nothing."""
        if self.parse_outcome is None:
            raise ValueError("this game takes no typed outcomes")
        if not self.state.is_chance():
            raise IllegalAction(f"nothing to enter: {self._whose_move()}")
        self.walkthrough.step(self.parse_outcome(self.outcome_text.value if text is None else text, self.state))
        self.outcome_text.value = ""

    def bots_play(self) -> None:
        """Bots and chance move until a person decides (or rolls), or the game ends."""
        if not self.bots:
            raise ValueError("there are no bots in this game")
        if self._persons_turn(self.state):
            raise ValueError(f"nothing for the bots to do: {self._whose_move()}")
        self.walkthrough.run(lambda s: self.bots[s.current_player()](s), until=self._persons_turn)

    def undo(self) -> None:
        """Take back moves to the last point where a person decided or rolled (else to the last decision)."""
        w = self.walkthrough
        if not w.moves:
            raise ValueError("nothing to undo: no move has been made")
        points = [i for i in range(len(w.moves)) if self._persons_turn(w.states[i])]
        if points:
            w.undo(len(w.moves) - points[-1])
        else:
            w.undo_to_decision()

    def new_game(self, seed: int | None = None) -> None:
        """Start again from the initial state; chance is seeded by ``seed``, so a seed replays the same luck."""
        if seed is not None and seed < 0:
            raise ValueError(f"the seed must be a whole number 0 or more, got {seed}")
        self.walkthrough = Walkthrough(self.initial, seed)

    def _persons_turn(self, state: State) -> bool:
        """Whether a person acts here: a decision of a non-bot, or a chance node that is a non-bot's roll."""
        player = state.current_player()
        if player == CHANCE:
            player = self.chance_player(state) if self.chance_player else None
            return player is not None and player not in self.bots
        return player != TERMINAL and player not in self.bots

    def _whose_move(self, state: State | None = None) -> str:
        state = self.state if state is None else state
        player = state.current_player()
        if player == TERMINAL:
            returns = ", ".join(f"{self.name(p)} {r}" for p, r in enumerate(state.returns()))
            return f"the game is over ({returns})"
        if player == CHANCE:
            who = self.chance_player(state) if self.chance_player else None
            roll = f"{self.name(who)}'s roll: " if who is not None else ""
            bots = ", “Bots play”" if self.bots and not self._persons_turn(state) else ""
            typed = " or enter the outcome" if self.parse_outcome else ""
            return f"{roll}chance moves next (press “Let chance roll”{bots}{typed})"
        bot = " (press “Bots play”, or choose for it)" if player in self.bots else ""
        return f"{self.name(player)} to move{bot}"

    def _chosen(self) -> Action:
        if self.actions.value is None:
            raise IllegalAction(f"no action to take: {self._whose_move()}")
        return self.advice["action"].iat[self.actions.value]

    def _attempt(self, move: Callable[[], object]) -> None:
        """Run a user's move; an error is shown and the game is left as it was."""
        try:
            move()
        except (ValueError, TypeError) as error:  # IllegalAction is a ValueError
            self.message.value = error_html(error)
            return
        self.message.value = ""
        self.refresh()

    # -- drawing -------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the walkthrough's current state."""
        self._show_texts()
        with self.chart.batch_update():
            self._draw_chart(self.chart)
        if self.board is not None and self.board_fig is not None:
            self._draw_board(*self.board(self.state))

    def _show_texts(self) -> None:
        """Advice table, action list, status, history, button states."""
        state = self.state
        deciding = not state.is_chance() and not state.is_terminal()
        if deciding:
            frame = self.advise(state) if self.advise else pd.DataFrame({"action": state.legal_actions()})
            frame = frame.assign(label=[str(a) for a in frame["action"]]) if "label" not in frame else frame
            for column in self.columns:
                if column not in frame:
                    frame[column] = False if column == "best" else None
            self.advice = _best_first(frame)
        else:
            self.advice = pd.DataFrame(columns=self.columns)
        options = [
            (self._option(row), i) for i, row in enumerate(self.advice.itertuples(index=False))
        ]
        self.actions.options = options
        self.actions.value = 0 if options else None
        self.status.value = f"<b>{html.escape(self._whose_move())}</b>"
        self.summary.value = self._summary()
        if self.board is None:
            self.board_text.value = f"<pre style='line-height:1.3'>{html.escape(str(state))}</pre>"
        moves = "".join(f"<li><b>{html.escape(who)}</b>: {html.escape(move)}</li>" for who, move in self.history())
        self.history_panel.value = (
            "<div style='max-height:200px;overflow-y:auto;display:flex;flex-direction:column-reverse;"
            "border:1px solid #dee2e6;padding:2px 8px;font-size:13px'>"
            f"<ol style='margin:0;padding-left:28px'>{moves or '<i>no moves yet</i>'}</ol></div>"
        )
        self.take_button.disabled = self.actions.disabled = not deciding
        self.chance_button.disabled = self.outcome_button.disabled = self.outcome_text.disabled = not state.is_chance()
        self.bots_button.disabled = not self.bots or state.is_terminal() or self._persons_turn(state)
        self.undo_button.disabled = not self.walkthrough.moves
        if self.outcome_hint is not None and state.is_chance():
            self.outcome_text.placeholder = self.outcome_hint(state)

    def _summary(self) -> str:
        """The best choice in words, with its exact value and risk."""
        if not self.advise or self.advice.empty or self.advice["value"].iat[0] is None:
            return ""
        best = self.advice.iloc[0]
        exact = bool(best.get("exact", True))  # an advise frame may flag estimates with an ``exact`` column
        lower = _lower(best)
        worth = f"worth exactly <b>{exact_text(best.value)}</b> ({self.value_name})" if exact else \
            f"worth about <b>{float(best.value):.2f}</b>{' or more' if lower else ''} ({self.value_name}, " \
            f"{'a lower estimate' if lower else 'an estimate'})"
        text = f"{STAR}Best: <b>{html.escape(best.label)}</b>, {worth}"
        risk = best[self.risk_column]
        if _has_value(risk):
            text += f"; {self.risk_summary.format(exact_text(risk, chance=True))}"
        if "then" in best and best.then:
            text += f"; then <b>{html.escape(str(best.then))}</b>"
        return text + ". Hover over a bar for the value of any choice."

    def _chart_figure(self) -> go.Figure:
        hover = "%{y}<br>%{customdata}<extra></extra>"
        labels = go.Scatter(mode="text", textposition="middle right", cliponaxis=False, hoverinfo="skip")  # right of the bar or of 0
        return figure(
            [go.Bar(orientation="h", hovertemplate=hover), labels],
            width=CHART_WIDTH,
            xaxis=dict(title=f"{self.value_name} (exact; bars drawn as decimals)", zeroline=True, zerolinecolor="#868e96"),
            yaxis=dict(type="category", autorange="reversed", automargin=True),
            margin=dict(l=20, r=20, t=50, b=50),
        )

    def _draw_chart(self, fig: go.Figure) -> go.Figure:
        """The valued actions as horizontal bars, best first; the best highlighted and starred."""
        valued = self.advice.loc[[v is not None for v in self.advice["value"]]]
        shown = valued.head(self.max_bars)
        values = list(shown["value"])
        floats = [float(v) for v in values]
        risks = shown[self.risk_column]
        texts = [value_text(v) + (f" · {self.risk_short} {percent(p)}" if _has_value(p) else "") for v, p in zip(values, risks)]
        names = _unique([f"{STAR if b else ''}{label}" for label, b in zip(shown["label"], shown["best"])])
        bars, labels = fig.data
        bars.update(
            y=names,
            x=floats,
            customdata=[self._hover(row) for row in shown.itertuples(index=False)],
            marker_color=[HIGHLIGHT if b else BASE for b in shown["best"]],
        )
        labels.update(y=names, x=[max(f, 0.0) for f in floats], text=texts)
        low, high = min([0.0] + floats), max([0.0] + floats)
        span = (high - low) or 1.0
        room = 0.016 * max(map(len, texts), default=0)  # for the labels, about 1.6% of the bars' span per character
        fig.layout.xaxis.range = [low - 0.04 * span if low < 0 else 0, high + span * room]
        more = f" (the {len(shown)} best of {len(valued)}; all are in the list)" if len(valued) > len(shown) else ""
        player = self.state.current_player()
        fig.layout.title.text = f"{self.name(player)}: the value of each choice{more}" if values else ""
        fig.layout.height = 130 + 26 * max(len(values), 2) if values else 130
        estimated = "exact" in shown and not all(shown["exact"])
        fig.layout.xaxis.title.text = f"{self.value_name} ({'≈ marks estimates' if estimated else 'exact'}; bars drawn as decimals)"
        fig.layout.xaxis.visible = fig.layout.yaxis.visible = bool(values)
        risks = not values and any(_has_value(r) for r in self.advice[self.risk_column])
        note = "" if values else self._whose_move() if self.advice.empty else \
            f"no choice here carries a value; the list gives each one's {self.risk_short} chance" if risks else \
            "no choice here carries a value"
        fig.layout.annotations = [dict(text=html.escape(note), x=0.5, y=0.5, xref="paper", yref="paper", showarrow=False, font_size=15)] if note else []
        return fig

    def _option(self, row: Any) -> str:
        """A choice in the action list: its label with its value, or, unvalued, its risk."""
        text = f"{STAR if row.best else ''}{row.label}"
        if row.value is not None:
            return f"{text} · {value_text(row.value)}"
        risk = getattr(row, self.risk_column)
        return f"{text} · {self.risk_short} {percent(risk)}" if _has_value(risk) else text

    def table(self) -> pd.DataFrame:
        """The advice to read: every choice with its value in words (exact, or ``≈`` an estimate), its risk, what
        follows and how the value was found (the columns the game's ``advise`` gives)."""
        rows = []
        for row in self.advice.itertuples():
            risk = getattr(row, self.risk_column, None)
            rows.append({"choice": row.label, self.value_name: "" if row.value is None else _worth(row),
                         self.risk_name: exact_text(risk, chance=True) if _has_value(risk) else "",
                         "then": getattr(row, "then", ""), "how": getattr(row, "how", "")})
        return pd.DataFrame(rows, columns=["choice", self.value_name, self.risk_name, "then", "how"]).set_index("choice")

    def _hover(self, row: Any) -> str:
        parts = [f"{self.value_name}: {_worth(row)}"]
        risk = getattr(row, self.risk_column, None)
        if _has_value(risk):
            parts.append(f"{self.risk_name}: {exact_text(risk, chance=True)}")
        then = getattr(row, "then", "")
        if then:
            parts.append(f"then: {then}")
        if row.best:
            parts.append("★ the optimal choice")
        return "<br>".join(parts)

    def _draw_board(self, traces: Sequence[BaseTraceType], layout: Mapping[str, Any]) -> None:
        """Update the board in place when the traces line up, else rebuild it."""
        fig = self.board_fig
        assert fig is not None
        if [t.type for t in fig.data] != [t.type for t in traces]:
            fig.data = ()
            fig.add_traces(list(traces))
        with fig.batch_update():
            for old, new in zip(fig.data, traces):
                props = new.to_plotly_json()
                props.pop("type", None)
                old.update(props, overwrite=True)
            fig.layout.update(dict(layout), overwrite=True)

    def _build_figures(self) -> None:
        """Make the chart and board figures from the current state, with their traces (so Voila draws them)."""
        self._built_for = self.state
        self.chart = go.FigureWidget(self._draw_chart(self._chart_figure()))
        if self.board is not None:
            traces, layout = self.board(self.state)
            self.board_fig = go.FigureWidget(data=list(traces), layout=dict(layout))
            self.board_fig._config = {"displayModeBar": False}  # a board, not a chart to zoom
            self.board_fig.add_class("cg-board")

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        if not self._shown and self._built_for != self.state:
            # Moves made before the view is first shown: plotly drops figure updates sent before
            # the front end has drawn the figure, so show fresh figures built from this state.
            old_board = self.board_fig
            self._show_texts()
            self._build_figures()
            self.chart_box.children = (self.chart,)
            if old_board is not None:
                self.widget.children = tuple(self.board_fig if c is old_board else c for c in self.widget.children)
        self._shown = True
        return self.widget._repr_mimebundle_(**kwargs)
