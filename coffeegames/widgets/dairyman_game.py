"""Dairyman at the table: the board, a decision walkthrough against bots, typed real rolls, the optimal policy.

* :func:`dairyman_board` draws a position: the dice just rolled (the yellow die in
  yellow), the sets locked in barns 1/2/3 (the barn the next lock goes to outlined),
  the display, each player's tiles and tokens, and the supply.
* :func:`dairyman_walkthrough` builds a :class:`~.decision.DecisionView` for a game
  against :func:`~coffeegames.dairyman.greedy_policy` bots, valued by
  :func:`~coffeegames.dairyman.advise` (the view's words and functions: :func:`dairyman_adapter`).
* :func:`~coffeegames.dairyman.parse_roll` (from the game's package, :mod:`coffeegames.dairyman.typed`)
  reads a roll typed as ``"4 6 5 5 1 3 2 y5"``: the white and red dice as numbers 1-6, the
  yellow die written once as ``y`` and its value. At a draw it reads milk-tile codes
  (``"10:cheese1 20:ice2:2s"``).

Example (you are player 0; the bots deal and stop at your roll, which you type):
    >>> view = dairyman_walkthrough(players=2, human=(0,), seed=3)
    >>> view.bots_button.click()
    >>> view.outcome_text.value = "4 6 5 5 1 3 2 y5"
    >>> view.outcome_button.click()
    >>> view.state.dice, view.state.yellow
    ((1, 2, 3, 4, 5, 5, 6), 5)
    >>> best = view.advice[0]                                             # best first
    >>> best.label, best.value, best.then
    ('Lock 4+6, 5+5 and 2+3+5 (the yellow die in a set)', Fraction(30, 1), 'stop')
    >>> view.actions.options[1]                                           # the next best: bank less, roll on
    ('Lock 4+6 · 22.61', 1)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import partial
from typing import Any

import plotly.graph_objects as go

import ipywidgets as widgets

from ..dairyman import (ABILITIES, BARNS, Game, State, greedy_policy, outcome_example, outcome_hint,
                        parse_roll, tile_of, tile_words, turn_position)
from ..engine import Session
from ..errors import BadType
from ..validate import check_instance
from .adapter import Adapter, Board, game_adapter
from .board import ACTIVE_ROW, INK, MUTED, ROLLING, Marks
from .charts import board_layout
from .decision import DecisionView
from .factory import player_labels, walkthrough_view

__all__ = [
    "DairymanView",
    "dairyman_adapter",
    "dairyman_board",
    "dairyman_walkthrough",
    "deal_note",
    "game_over",
    "outcome_example",
    "outcome_hint",
    "parse_roll",
    "roll_owner",
]

# Board geometry in pixels (the axes run in pixels, so markers and text line up).
WIDTH, LEFT = 860, 8
DIE, DIE_STEP, DICE_X = 34, 42, 120
BARN_X, BARN_W, BARN_GAP, SET_LINE = 120, 236, 12, 19
TILE, TILE_STEP = 58, 68
CHIP, CHIP_STEP, CHIPS_X, TOKENS_X = 26, 30, 270, 720
PLAYER_ROW = 38

WHITE_DIE, YELLOW_DIE, FROZEN = "#ffffff", "#fcc419", "#d0ebff"
CHEESE_TILE, ICE_TILE, CHEESE, ICE_CREAM = "#fff3bf", "#e7f5ff", "#fcc419", "#74c0fc"
ACTIVE_BARN = "#d9480f"


# -- the board ---------------------------------------------------------------------------

def _tile_text(code: str) -> str:
    return tile_words(code).replace(" (", "<br>").removesuffix(")")  # "20<br>cheese 5"


def _tile_hover(code: str, flipped: str = "") -> str:
    tile = tile_of(code)
    if flipped == "cheese":
        return f"{code}: cheese, {tile.value} points + cheese bonus"
    if flipped == "ice cream":
        return f"{code}: ice cream, {tile.value} points; ability: {ABILITIES[str(tile.ice_cream)][0]}"
    if tile.cheese is not None:
        return f"{code}: milk worth {tile.value}; flips to cheese when the yellow die shows {tile.cheese}"
    return f"{code}: milk worth {tile.value}; flips to ice cream for {tile.snowflakes} ice ({ABILITIES[str(tile.ice_cream)][0]})"


def _tile_fill(code: str) -> str:
    return CHEESE_TILE if tile_of(code).cheese is not None else ICE_TILE


def _active_barn(state: State) -> int | None:
    """The barn (0-2) the next lock goes to, during a turn."""
    if state.phase in ("roll", "lock"):
        return min(state.roll, BARNS) - 1
    if state.phase == "continue":
        return min(state.roll + 1, BARNS) - 1
    return None


def game_over(state: State, names: Sequence[str] | None = None) -> str:
    """The end in points, as the board shows it: ``'Game over · winner: player 0 (you) with 31 points (player 1 (bot) 12)'``."""
    check_instance(state, State, "state", "a Dairyman state")
    names = player_labels(len(state.players), names)
    scores, won = state.scores(), state.winners()
    others = ", ".join(f"{names[i]} {v}" for i, v in enumerate(scores) if i not in won)
    return f"Game over · winner: {', '.join(names[i] for i in won)} with {max(scores)} points" + (f" ({others})" if others else "")


def _headline(state: State, names: Sequence[str]) -> str:
    who = names[state.turn]
    phase = {
        "draw": "the display is being filled",
        "roll": f"rolling {state.rolling} dice" + (" + the yellow die" if state.rolls_yellow else ""),
        "lock": "lock sets summing to ten",
        "continue": "stop, or roll the unlocked dice again",
        "order": ("ordered: flip tiles, or end the turn" if state.ordered
                  else f"order milk tiles worth up to {state.barn_value}"),
        "discard": f"backorder phase: {names[state.discarding[0]]} discards" if state.discarding else "",
    }
    if state.phase == "over":
        return game_over(state, names)
    roll = f" · roll {state.roll}" if state.roll else ""
    return f"{who}'s turn{roll} · {phase[state.phase]}"


YELLOW_WHERE = {"unlocked": ("", ""), "locked": ("locked", "locked in a set"), "aside": ("aside", "set aside after making cheese")}
"""Where the yellow die is → (short label, hover text)."""
LEGEND = "tiles: pale = milk (yellow: flips to cheese, blue: to ice cream) · gold = cheese · blue = ice cream · hover for details"


class _Drawing:
    """One board being drawn top to bottom; each row method adds its marks and shapes."""

    def __init__(self, state: State, names: Sequence[str]) -> None:
        self.state, self.names = state, names
        self.dice, self.tiles, self.labels = Marks(), Marks(), Marks()
        self.shapes: list[dict[str, Any]] = []
        self.barn_height = 30 + SET_LINE * max([1] + [len(b) for b in state.barns])
        self.height = 26 + 34 + self.barn_height + 22 + TILE + 8 + PLAYER_ROW * len(state.players) + 22

    def at(self, top: float) -> float:
        """The y coordinate of a point ``top`` pixels below the top edge."""
        return self.height - top

    def dice_row(self, top: float) -> None:
        """The yellow die first, then the white/red dice: showing, frozen (blue) or rolling (?)."""
        state, y, x = self.state, self.at(top), DICE_X
        self.labels.add(LEFT, y, "<b>dice</b>", fill=INK)
        if state.phase not in ("roll", "lock", "continue", "order"):
            self.labels.add(DICE_X - DIE / 2, y, "no dice on the table between turns", fill=MUTED)
            return
        short, where = YELLOW_WHERE[state.yellow_at]
        shows = "" if state.rolls_yellow else f", showing {state.yellow}"
        hover = f"the yellow die{': ' + where if where else ''}{shows}"
        self.dice.add(x, y, "?" if state.rolls_yellow else str(state.yellow), hover, fill=YELLOW_DIE, opacity=0.45 if where else 1.0)
        if short:
            self.labels.add(x + DIE / 2 + 2, y, short, fill=MUTED)
        x += DIE_STEP + 10 + (50 if short else 0)
        frozen = state.phase == "roll"  # before a roll, the dice still showing are frozen ones
        for value in state.dice:
            hover = "frozen by an ice token: keeps its value" if frozen else f"unlocked die showing {value}"
            self.dice.add(x, y, str(value), hover, fill=FROZEN if frozen else WHITE_DIE)
            x += DIE_STEP
        for _ in range(state.rolling):
            self.dice.add(x, y, "?", "rolling", fill=ROLLING, edge=MUTED)
            x += DIE_STEP
        count = len(state.dice) + state.rolling + (state.yellow_at == "unlocked")
        red = f" · {state.red} red dice this turn" if state.red else ""
        self.labels.add(x - DIE / 2 + 8, y, f"{count} {'die' if count == 1 else 'dice'} to play{red}", fill=MUTED)

    def barns_row(self, top: float) -> None:
        """Barns 1-3 with the sets locked this turn; the barn the next lock goes to is outlined."""
        state, active = self.state, _active_barn(self.state)
        self.labels.add(LEFT, self.at(top + 18), "<b>barns</b>", fill=INK)
        for b, sets in enumerate(state.barns):
            x0, lit = BARN_X - DIE / 2 + b * (BARN_W + BARN_GAP), b == active
            edge = dict(color=ACTIVE_BARN if lit else "#ced4da", width=3 if lit else 1)
            box = dict(type="rect", x0=x0, x1=x0 + BARN_W, y0=self.at(top + self.barn_height), y1=self.at(top), layer="below")
            self.shapes.append(dict(box, line=edge, fillcolor="#fff9f5" if lit else "#f8f9fa"))
            title = f"<b>barn {b + 1}</b> · {state.rules.set_value * len(sets)}" + (" ← next lock" if lit else "")
            self.labels.add(x0 + 6, self.at(top + 14), title, fill=ACTIVE_BARN if lit else INK)
            for k, locked in enumerate(sets):
                self.labels.add(x0 + 12, self.at(top + 34 + SET_LINE * k), " + ".join(map(str, locked)), fill=INK)

    def display_row(self, top: float) -> None:
        """The face-up milk tiles, then the deck and the supply."""
        state, y = self.state, self.at(top + TILE / 2)
        self.labels.add(LEFT, y, "<b>display</b>", fill=INK)
        for k, code in enumerate(state.display):
            self.tiles.add(DICE_X + 10 + k * TILE_STEP, y, _tile_text(code), _tile_hover(code), fill=_tile_fill(code), edge=MUTED, size=TILE)
        supply = f"deck {state.deck_size} tiles · supply: {state.ice_supply} ice, {state.backorder_supply} backorder tokens"
        self.labels.add(DICE_X + state.rules.display_size * TILE_STEP, y, supply, fill=MUTED)

    def player_rows(self, top: float) -> None:
        """Each player's score, tiles (milk, cheese, ice cream) and tokens; the player to move highlighted."""
        state = self.state
        for i, player in enumerate(state.players):
            row, y = top + PLAYER_ROW * i, self.at(top + PLAYER_ROW * (i + 0.5))
            if i == state.turn and state.phase != "over":
                band = dict(type="rect", x0=0, x1=WIDTH, y0=self.at(row + PLAYER_ROW - 2), y1=self.at(row + 2), layer="below")
                self.shapes.append(dict(band, line=dict(width=0), fillcolor=ACTIVE_ROW))
            self.labels.add(LEFT, y, f"<b>{html.escape(self.names[i])}</b> · {state.score(i)} points", fill=INK)
            x = CHIPS_X
            for codes, fill, flipped in ((player.milk, None, ""), (player.cheese, CHEESE, "cheese"), (player.ice_cream, ICE_CREAM, "ice cream")):
                for code in codes:
                    hover = _tile_hover(code, flipped)
                    self.tiles.add(x, y, str(tile_of(code).value), hover, fill=fill or _tile_fill(code), edge=MUTED, size=CHIP)
                    x += CHIP_STEP
            if not player.tiles:
                self.labels.add(x - CHIP / 2, y, "no tiles yet", fill=MUTED)
            backorders = f"<span style='color:#c92a2a'>{player.backorders} backorder{'s' * (player.backorders != 1)}</span>"
            self.labels.add(TOKENS_X, y, f"{player.ice} ice · {backorders}", fill=INK)

    def board(self) -> Board:
        top = 26
        self.dice_row(top)
        self.barns_row(top := top + 34)
        self.display_row(top := top + self.barn_height + 22)
        self.player_rows(top := top + TILE + 8)
        self.labels.add(LEFT, self.at(top + PLAYER_ROW * len(self.state.players) + 10), LEGEND, fill=MUTED)
        layout = board_layout(_headline(self.state, self.names), WIDTH, self.height, self.shapes)
        return [self.dice.squares("dice", 16), self.tiles.squares("tiles", 10), self.labels.labels("labels")], layout


def dairyman_board(state: State, names: Sequence[str] | None = None) -> Board:
    """The position as plotly traces (dice, tiles, labels) and a layout with the barn boxes.

    The axes run in pixels, so dice and tiles keep their shapes; the same three traces
    come back for every state, so a :class:`DecisionView` updates them in place.

    >>> from coffeegames.dairyman import Game
    >>> traces, layout = dairyman_board(Game().new_initial_state(seed=1))
    >>> [t.name for t in traces], layout["title"]["text"]
    (['dice', 'tiles', 'labels'], "player 0's turn · roll 1 · rolling 7 dice + the yellow die")
    """
    check_instance(state, State, "state", "a Dairyman state")
    names = player_labels(len(state.players), names)
    return _Drawing(state, names).board()


# -- typed outcomes (read by the game's package: parse_roll, outcome_example, outcome_hint), names, the factory --

DEAL_BUTTON = "Deal the tiles for me"
"""The chance button at a tile draw."""
TYPE_TILES = "type the tiles on your table"
"""The checkbox that shows the outcome box at a tile draw (ticked in companion mode)."""


def deal_note(state: State) -> str | None:
    """At a tile draw, what happens in one line (the view hides the outcome box there unless :data:`TYPE_TILES` is
    ticked, so a learner is not asked for tile codes); None at a roll.

    >>> from coffeegames.dairyman import Game
    >>> deal_note(Game().new_initial_state())
    'The display is dealt: 3 milk tiles from the shuffled deck. Press “Deal the tiles for me”. At a real table, tick “type the tiles on your table” to enter the tiles you laid out.'
    """
    check_instance(state, State, "state", "a Dairyman state")
    if state.phase != "draw":
        return None
    need = state.rules.display_size - len(state.display)
    what = "The display is dealt" if not state.display and not any(p.tiles for p in state.players) else "The display is refilled"
    return (f"{what}: {need} milk tile{'s' if need != 1 else ''} from the shuffled deck. Press “{DEAL_BUTTON}”. "
            f"At a real table, tick “{TYPE_TILES}” to enter the tiles you laid out.")


def roll_owner(state: State) -> int | None:
    """Whose roll a chance node is (the player whose turn it is); None for a draw."""
    check_instance(state, State, "state", "a Dairyman state")
    return state.turn if state.phase == "roll" else None


def dairyman_adapter(names: Sequence[str] | None = None) -> Adapter:
    """How Dairyman shows itself in a :class:`DecisionView`: :func:`~coffeegames.dairyman.advise`, the board
    (with these player ``names``), rolls in dice words, the bust chance of the next roll as the risk.

    >>> adapter = dairyman_adapter()
    >>> adapter.chance_button, adapter.outcome_button, adapter.risk_short
    ('Let chance roll', 'Enter the dice you rolled', 'bust next')
    """
    return game_adapter(
        "dairyman",
        board=partial(dairyman_board, names=names),
        game_over=partial(game_over, names=names),
        value_name="expected points this turn",
        chance_button="Let chance roll",
        outcome_label="you rolled",
        outcome_button="Enter the dice you rolled",
        chance_words=lambda state: DEAL_BUTTON if state.phase == "draw" else "Let chance roll",
        deal_note=deal_note,
        deal_toggle=TYPE_TILES,
        outcome_words=lambda state: (("tiles drawn", "Enter the tiles drawn") if state.phase == "draw"
                                     else ("you rolled", "Enter the dice you rolled")),
        risk_name="bust chance of the next roll",
        risk_short="bust next",
        risk_summary="the dice left, if rolled again, bust with chance {}",
    )


def dairyman_walkthrough(players: int = 2, human: Sequence[int] = (0,), seed: int = 0, start: tuple[int, int, str] | None = None,
                         **options: Any) -> DairymanView:
    """A Dairyman game in a :class:`DecisionView`: ``human`` players choose, the others are greedy bots.

    ``options`` are :class:`~coffeegames.dairyman.Rules` options (``ice_supply=10``).
    ``human=()`` lets the bots play each other; ``human=range(players)`` is companion
    mode for a game at a real table: everyone's choices and rolls are typed in, and the
    tiles dealt to the display too (with bots, a tile draw is dealt by the view unless
    ``type_toggle``, "type the tiles on your table", is ticked).

    ``start=(dice left, sets locked, display)`` begins at that position of player 0's turn, after a lock
    (:func:`~coffeegames.dairyman.turn_position`); the view (a :class:`DairymanView`) has a
    ``position_row`` where a learner types one (``position_dice``, ``position_sets``, ``position_display``,
    then ``position_button``); New game comes back to it.

    >>> view = dairyman_walkthrough(human=())
    >>> view.bots_button.click()
    >>> view.state.is_terminal()
    True
    >>> view = dairyman_walkthrough(start=(5, 1, "10:cheese1 20:cheese5 30:cheese3"))   # roll or stop, and why?
    >>> [(row.label, row.value) for row in view.advice]
    [('Roll again', Fraction(133505, 7776)), ('Stop and order', Fraction(10, 1))]
    """
    game = Game(players=players, **options)
    if start is not None and not (isinstance(start, tuple) and len(start) == 3):
        raise BadType("start", "must be (dice left, sets locked, display tile codes), or None", start)
    first: Game | State = game if start is None else turn_position(*start, game=game)
    view = walkthrough_view(first, dairyman_adapter, human=human, seed=seed, players=players,
                            parse_outcome=parse_roll, chance_player=roll_owner, policy=greedy_policy, view=DairymanView)
    assert isinstance(view, DairymanView)
    view.game = game
    if start is not None:
        view.position_dice.value, view.position_sets.value, view.position_display.value = start
    return view


class DairymanView(DecisionView[State]):
    """A Dairyman :class:`DecisionView` with ``position_row``: boxes where a learner types a position (dice left,
    sets locked, display) and a button that starts there (:meth:`start_from`)."""

    game: Game = Game()
    """The game whose rules a typed position is played by (:func:`dairyman_walkthrough` sets it)."""

    def __init__(self, session: Session[State], adapter: Adapter[State] | None = None, *, max_bars: int = 12) -> None:
        check_instance(session, Session, "session", "a Session of a Dairyman game (dairyman_walkthrough makes one)")
        super().__init__(session, adapter, max_bars=max_bars)
        style = {"description_width": "initial"}
        self.position_dice = widgets.BoundedIntText(value=5, min=0, max=8, description="dice left", style=style,
                                                    layout=widgets.Layout(width="130px"))
        self.position_sets = widgets.BoundedIntText(value=1, min=0, max=4, description="sets locked", style=style,
                                                    layout=widgets.Layout(width="140px"))
        self.position_display = widgets.Text(value="10:cheese1 20:cheese5 30:cheese3", description="display", style=style,
                                             layout=widgets.Layout(width="360px"))
        self.position_button = widgets.Button(description="Start from this position", layout=widgets.Layout(width="auto"))
        self.position_button.on_click(lambda _: self._attempt(self.start_from))
        self.position_row = widgets.VBox([
            widgets.HTML("<b>Start from a position</b>: your turn after a lock on the first roll (8 dice): stop or roll on?"),
            widgets.HBox([self.position_dice, self.position_sets, self.position_display, self.position_button]),
        ])
        self.position_row.add_class("cg-position")
        self.widget.children = (*self.widget.children, self.position_row)

    def start_from(self, state: State | None = None) -> None:
        """Play on from ``state`` (default: the position typed in ``position_row``) as a new game: the same players,
        bots and seed; New game comes back to it. A position that cannot happen raises and changes nothing."""
        if state is None:
            state = turn_position(self.position_dice.value, self.position_sets.value, self.position_display.value, game=self.game)
        check_instance(state, State, "state", "a Dairyman state (turn_position(...)), or None: the typed position")
        old = self.session
        self.session = Session(state, seed=old.seed, bots=old.bots, chance_player=old.chance_player,
                               parse_outcome=old.parse_outcome, names=old.names, chance_event=old.chance_event)
        self.refresh()
