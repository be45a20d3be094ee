"""Coffee Roaster at the table: the board, and a solo decision walkthrough with typed draws.

* :func:`roaster_board` draws a position: the thermometer (draws per space, crack spaces,
  smoke still waiting, the marker), the bag's tokens by kind, the tokens drawn this round
  (and any in hand), the cup's ten spaces and the tray, the cup effects on their squares
  (active ones marked) with the immediate effects used and the wild flavour.
* :func:`roaster_walkthrough` builds a :class:`~.decision.DecisionView` valued by
  :func:`~coffeegames.roaster.advise`: the person plays, chance draws (press “Draw”) or
  you type the tokens drawn from a real bag (:func:`~coffeegames.roaster.parse_outcome`). Its words and
  functions are the adapter :data:`ROASTER`: a solo game, so there is no "Bots play".

Example:
    >>> view = roaster_walkthrough(card="Mexico Altura Oaxaca", seed=0)
    >>> view.state.phase, view.state.draw_count
    ('draw', 8)
    >>> view.outcome_text.value = "hard hard hard hard hard moisture acidity acidity"
    >>> view.outcome_button.click()
    >>> view.state.phase, view.message.value
    ('act', '')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from collections.abc import Sequence
from typing import Any

from ..roaster import (CUP_EFFECT_NAMES, CUP_SPACES, NAMES, SWEETNESS, TOKENS, Game, State, greedy_policy,
                       outcome_example, outcome_hint, parse_outcome, show)
from ..validate import check_instance
from .adapter import Board, game_adapter
from .charts import HIGHLIGHT, board_layout
from .board import INK, MUTED, Marks
from .decision import DecisionView
from .factory import check_human, walkthrough_view

__all__ = ["ROASTER", "TOKEN_COLOURS", "draw_owner", "outcome_example", "outcome_hint", "parse_draw", "roaster_board", "roaster_walkthrough"]

parse_draw = parse_outcome
"""The draw box's parser, :func:`coffeegames.roaster.parse_outcome` (its old name here)."""

TOKEN_COLOURS: dict[str, str] = {
    "hard": "#d8f5a2", "bean0": "#f4e3c1", "bean1": "#e0b97a", "bean2": "#b07d3f", "bean3": "#7f4f24", "bean4": "#4a2c12",
    "burnt": "#111111", "defect": "#c92a2a", "smoke": "#adb5bd", "moisture": "#74c0fc", "body": "#e8590c",
    "acidity": "#fcc419", "aroma": "#ae3ec9", "wild": "#ffffff", "sweetness": "#faa2c1",
}
"""How each token is drawn."""
SHORT = {"hard": "H", "bean0": "0", "bean1": "1", "bean2": "2", "bean3": "3", "bean4": "4", "burnt": "B", "defect": "D",
         "smoke": "S", "moisture": "M", "body": "Bo", "acidity": "Ac", "aroma": "Ar", "wild": "W", "sweetness": "Sw"}
DARK = {"bean2", "bean3", "bean4", "burnt", "defect", "body", "aroma"}
WIDTH, LEFT, ROW_X, STEP, CELL = 940, 8, 130, 34, 28
EMPTY, EMPTY_EDGE, NOW = "#ffffff", "#ced4da", "#ffe8cc"
LEGEND = ("H hard · 0-4 bean levels · B burnt · D defect · S smoke · M moisture · Bo/Ac/Ar flavours · W wild · "
          "Sw sweetness · hover for details")


def _ink(token: str) -> str:
    return "#ffffff" if token in DARK else INK


class _Drawing:
    def __init__(self, state: State) -> None:
        self.state = state
        self.tokens, self.labels = Marks(), Marks()
        self.ink: list[str] = []
        self.height = 330

    def at(self, top: float) -> float:
        return self.height - top

    def label(self, x: float, top: float, text: str, colour: str = INK) -> None:
        self.labels.add(x, self.at(top), text, fill=colour)

    def cell(self, x: float, top: float, text: str, hover: str, fill: str, edge: str = INK, ink: str = INK, size: int = CELL) -> None:
        self.tokens.add(x, self.at(top), text, hover, fill=fill, edge=edge, size=size)
        self.ink.append(ink)

    def token(self, x: float, top: float, token: str, hover: str, text: str = "") -> None:
        self.cell(x, top, text or SHORT[token], hover, TOKEN_COLOURS[token], ink=_ink(token))

    def row(self, top: float, title: str, tokens: Any, where: str, empty: str = "-", note: str = "") -> None:
        """A row of tokens (``empty`` when there are none), then ``note`` after them."""
        self.label(LEFT, top, f"<b>{title}</b>")
        counts = Counter(tokens)
        x = ROW_X
        for t in sorted(counts, key=TOKENS.index):
            n = counts[t]
            self.token(x, top, t, f"{where}: {n} × {NAMES[t]}", f"{SHORT[t]}×{n}" if n > 1 else SHORT[t])
            x += STEP + (8 if n > 1 else 0)
        text = " ".join(part for part in ("" if counts else empty, note) if part)
        if text:
            self.label(x - CELL / 2, top, text, MUTED)

    def thermometer(self, top: float) -> None:
        s, rules = self.state, self.state.rules
        therm = rules.thermometer
        self.label(LEFT, top, "<b>thermometer</b>")
        for i, draws in enumerate(therm.draws):
            now = i == s.space
            crack = i in therm.crack
            smoke = s.smoke[i]
            hover = (f"space {i}: draw {draws}" + (", crack (beans roast " + f"{rules.crack_steps} levels)" if crack else "")
                     + (f", {smoke} smoke waiting" if smoke else "") + (" · the marker is here" if now else "")
                     + (" · start" if i == rules.start_space else ""))
            self.cell(ROW_X + i * STEP, top, str(draws), hover, NOW if now else EMPTY, edge=HIGHLIGHT if now else "#e8590c" if crack else EMPTY_EDGE)
            if smoke:
                self.label(ROW_X + i * STEP - 10, top + 22, f"S{smoke}", MUTED)
        x = ROW_X + len(therm.draws) * STEP
        self.label(x - 8, top, f"round {s.round} · space {s.space} draws {rules.draws_at(s.space)}"
                   + (" · crack" if s.space in therm.crack else "") + (" · last space" if s.last_space else ""))

    def cup(self, top: float) -> None:
        s = self.state
        board = s.rules.board
        self.label(LEFT, top, "<b>cup</b>")
        # Sweetness sits on its own space from the start of the cup test; drawn tokens fill the others in order.
        placed: dict[int, str] = {board.sweetness_space: SWEETNESS} if SWEETNESS in s.cup else {}
        free = (i for i in range(CUP_SPACES) if i not in placed)
        placed.update(zip(free, [t for t in s.cup if t != SWEETNESS]))
        for i in range(CUP_SPACES):
            x = ROW_X + i * STEP
            if i in placed:
                t = placed[i]
                self.token(x, top, t, f"cup space {i}: {NAMES[t]}")
            else:
                notes = []
                if SWEETNESS in s.active and i == board.sweetness_space:
                    notes.append("Sweetness goes here")
                if "choice" in s.active and i in board.choice_spaces:
                    notes.append("Choice: draw 2, keep 1")
                self.cell(x, top, "", f"cup space {i}: empty" + (f" ({'; '.join(notes)})" if notes else ""), EMPTY,
                          edge=HIGHLIGHT if notes else EMPTY_EDGE)
        x = ROW_X + CUP_SPACES * STEP + 10
        self.label(x, top, f"<b>tray</b> {len(s.tray)}/{s.tray_spaces}: {show(s.tray)}")

    def effects(self, top: float) -> None:
        s = self.state
        self.label(LEFT, top, "<b>cup effects</b>")
        if not s.squares:
            self.label(ROW_X - CELL / 2, top, "not yet shuffled onto the squares", MUTED)
        x = ROW_X
        for i, (effect, slots) in enumerate(zip(s.squares, s.slots)):
            colours = s.rules.board.cup_slots[i]
            active = all(slots)
            filled = " · ".join(t or f"({c})" for t, c in zip(slots, colours))
            self.label(x - CELL / 2, top, ("✓ " if active else "") + CUP_EFFECT_NAMES[effect], INK if active else MUTED)
            self.label(x - CELL / 2, top + 16, filled, INK if active else MUTED)  # its two slots: filled, or the colour wanted
            x += 160
        wild = "taken" if s.wild_taken else f"paid {show(s.wild_paid)}"
        self.label(LEFT, top + 40, f"wild flavour: {wild} · immediate effects used: {', '.join(s.used) or '-'}"
                   + (f" · starting flavours: {show(s.reserve)}" if s.reserve else ""), MUTED)

    def board(self) -> Board:
        s = self.state
        self.thermometer(24)
        self.row(70, "bag", s.bag, "in the bag")
        drawing = f"(+{s.draw_count} being drawn)" if s.phase == "draw" else ""
        self.row(108, "drawn", s.drawn, "drawn this round", "none", note=drawing)
        self.row(146, "in hand", s.hand, "in hand, waiting for a choice", "none")
        self.cup(184)
        self.effects(226)
        self.label(LEFT, 300, LEGEND, MUTED)
        title = f"Coffee Roaster · {s.rules.card.name} ({s.rules.side} side) · {PHASE_WORDS[s.phase]}"
        if s.phase == "over":
            title += f": the cup scores {s.score().total}"
        squares = self.tokens.squares("tokens", 11)
        squares.textfont.color = self.ink
        layout = board_layout(title, WIDTH, self.height)
        return [squares, self.labels.labels("labels")], layout


PHASE_WORDS = {
    "shuffle": "the cup effects are being shuffled",
    "draw": "drawing tokens from the bag",
    "act": "use effects, then roast",
    "remove_two": "2 of 5: remove two of the tokens drawn",
    "decide": "roast another round, or stop",
    "reserve": "roasting over: which starting flavours go into the bag",
    "cup_draw": "cup test: drawing a token",
    "place": "cup test: put the token in the cup or on the tray",
    "choice_draw": "cup test, Choice: drawing two tokens",
    "choose": "cup test, Choice: keep one of the two",
    "exchange": "cup test, Exchange: return two cup tokens, or not",
    "exchange_draw": "cup test, Exchange: drawing three tokens",
    "exchange_keep": "cup test, Exchange: keep two of the three",
    "over": "game over",
}
"""Each phase in a player's words, for the board's title (the engine's names are for saved games)."""


def game_over(state: State) -> str:
    """The end, as the board shows it: ``'Game over · the cup scores 12'``."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    return f"Game over · the cup scores {state.score().total}"


def roaster_board(state: State) -> Board:
    """The position as two plotly traces (tokens and cells, labels) and a layout; the same traces for every state.

    >>> traces, layout = roaster_board(Game(card="Kenya AA").new_initial_state(seed=0))
    >>> [t.name for t in traces]
    ['tokens', 'labels']
    """
    check_instance(state, State, "state", "a Coffee Roaster state")
    return _Drawing(state).board()


def draw_owner(state: State) -> int | None:
    """Whose draw a chance node is: the player's (0) at a draw from the bag; nobody's at the shuffle of the cup effects."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    return 0 if state.is_chance() and state.phase != "shuffle" else None


ROASTER = game_adapter(
    "roaster",
    board=roaster_board,
    game_over=game_over,
    value_name="expected cup score",
    chance_button="Draw",
    outcome_label="you drew",
    outcome_button="Enter the tokens you drew",
    risk_name="chance a drawn bean burns in the coming roast (no further effects)",
    risk_short="burn",
    risk_summary="the coming roast burns a bean with chance {}",
    exact_toggle="exact values (slower: seconds a decision, more on big bags)",
)
"""How Coffee Roaster shows itself in a :class:`DecisionView`: draws from a bag, the burn chance as the risk, solo."""


def roaster_walkthrough(card: str = "Mexico Altura Oaxaca", side: str = "full", seed: int = 0, human: Sequence[int] = (0,),
                        **options: Any) -> DecisionView:
    """A solo Coffee Roaster game in a :class:`DecisionView`; ``options`` are :class:`~coffeegames.roaster.Rules` options.

    The cup effects are shuffled by ``seed``; then you play: press “Draw” to draw
    (seeded) or type the tokens you drew from a real bag. ``human=()`` lets the greedy bot play (checked as every
    walkthrough checks ``human``: the one seat is player 0).

    >>> view = roaster_walkthrough(seed=0)
    >>> view.chance_button.description, view.outcome_button.description, view.bots_button.layout.display
    ('Draw', 'Enter the tokens you drew', 'none')
    """
    game = Game(card=card, side=side, **options)
    seats = check_human(human, 1)
    adapter = ROASTER if seats else replace(ROASTER, solo=False)  # the bot plays the one seat: "Bots play" shows
    return walkthrough_view(game, lambda names: adapter, human=seats, seed=seed, players=1, parse_outcome=parse_outcome,
                            chance_player=draw_owner, names={0: "player (you)"} if seats else None, chance_event="draw",
                            seeded_start=True, policy=greedy_policy)
