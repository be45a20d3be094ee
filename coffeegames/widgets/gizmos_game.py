"""Gizmos at the table: the board, and a decision walkthrough that shows each chain step by step.

* :func:`gizmos_board` draws a position: the energy row and the dispenser's counts, the
  display by level with each deck's size, and each player's storage (against its limit),
  archive, built gizmos (those waiting to fire marked) and points; a legend of the marbles; and
  below, each card a player chooses among (and the mover's gizmos) in words: colour, level,
  cost, points, trigger and effect. Hover any card for the same text.
* :func:`gizmos_walkthrough` builds a :class:`~.decision.DecisionView` valued by
  :func:`~coffeegames.gizmos.advise` (search playouts, labelled as estimates, beside each
  action's exact immediate consequences). Every step of a chain — which waiting gizmo
  fires next, the Pick an effect asks for, each marble or card drawn — is a move of its
  own, so the history lists the chain an action set off, step by step. Companion mode:
  type the marble (``red``) or card (``#45``) that came out at the table
  (:func:`~coffeegames.gizmos.parse_outcome`).

Example:
    >>> view = gizmos_walkthrough(players=2, seed=0, playouts=20)
    >>> str(view.state.phase), len(view.advice) == len(view.state.legal_actions())
    ('action', True)
    >>> view.outcome_button.description
    'Enter the marble or card drawn'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ..errors import BadArgument
from ..gizmos import (
    COLOURS, MAX_PLAYOUTS, LEVEL_NAMES, Game, Phase, State, Step, advise, card_text, explain,
    greedy_policy, outcome_example, outcome_hint, parse_outcome, phase_words,
)
from ..validate import Checker, check_count, check_instance
from .adapter import Adapter, Board, game_adapter
from .charts import HIGHLIGHT, board_layout
from .board import INK, MUTED, Marks
from .decision import DecisionView
from .factory import player_labels, walkthrough_view

__all__ = ["CARD_COLOURS", "draw_owner", "game_over", "gizmos_adapter", "gizmos_board", "gizmos_walkthrough", "outcome_example", "outcome_hint",
           "parse_outcome"]

CARD_COLOURS: dict[str, str] = {"red": "#e03131", "blue": "#1c7ed6", "black": "#343a40", "yellow": "#fcc419",
                                "any": "#be4bdb", "none": "#dee2e6"}
"""How each energy and card colour is drawn."""
SHORT = {"red": "R", "blue": "U", "black": "K", "yellow": "Y"}
WIDTH, LEFT, X0, STEP, CELL = 980, 8, 150, 34, 28
PLAYERS_TOP, PLAYER_ROWS = 162, 68
"""Where the players' rows start (clear of the level-III display) and how tall each player's block is, in pixels."""
MARBLE_LEGEND = "marbles: R red · U blue · K black · Y yellow (R2: two red) · squares: cards by number, in words below"
WORDS_TOP, WORD_ROW = 24, 15
"""Where the cards in words start below the players (after the legend) and each line's height, in pixels."""


def _ink(colour: str) -> str:
    return INK if colour in ("yellow", "none") else "#ffffff"


class _Drawing:
    def __init__(self, state: State, names: Sequence[str] | None) -> None:
        self.state = state
        self.names = list(names) if names is not None else [f"player {i}" for i in range(len(state.players))]
        self.marks, self.labels = Marks(), Marks()
        self.ink: list[str] = []
        self.words = self.cards_in_words()
        self.height = PLAYERS_TOP + PLAYER_ROWS * len(state.players) + WORDS_TOP + WORD_ROW * len(self.words)

    def cards_in_words(self) -> list[str]:
        """Each card a player chooses among (the display, a Research, the archives) and the mover's gizmos, in words:
        its colour, level, cost, points and effect, so that the board reads without hovering."""
        s, rules = self.state, self.state.rules
        places = [(f"display {LEVEL_NAMES[level]}", s.display[level - 1]) for level in (1, 2, 3)]
        places += [("being researched", s.research)]
        places += [(f"{self.names[i]}'s archive", p.archive) for i, p in enumerate(s.players)]
        if not s.over:
            places += [(f"{self.names[s.turn]}'s gizmos", tuple(i for i in s.players[s.turn].built if rules.card(i).level))]
        return [f"{where}: {card_text(rules.card(ident))}" for where, cards in places for ident in cards]

    def label(self, x: float, top: float, text: str, colour: str = INK) -> None:
        self.labels.add(x, self.height - top, text, fill=colour)

    def square(self, x: float, top: float, text: str, hover: str, colour: str, edge: str = INK) -> None:
        self.marks.add(x, self.height - top, text, hover, fill=CARD_COLOURS[colour], edge=edge, size=CELL)
        self.ink.append(_ink(colour))

    def marbles(self, x: float, top: float, counts: tuple[int, ...], where: str) -> float:
        for c, n in zip(COLOURS, counts):
            if n:
                self.square(x, top, f"{SHORT[c]}{n if n > 1 else ''}", f"{where}: {n} {c}", c)
                x += STEP
        return x

    def card(self, x: float, top: float, ident: int, where: str, edge: str = INK) -> None:
        card = self.state.rules.card(ident)
        self.square(x, top, str(ident), f"{where}: {card_text(card)}", card.colour, edge)

    def board(self) -> Board:
        s = self.state
        self.label(LEFT, 20, "<b>energy row</b>")
        x = self.marbles(X0, 20, s.row, "on the row")
        self.label(x + 10, 20, f"dispenser: {' · '.join(f'{SHORT[c]} {n}' for c, n in zip(COLOURS, s.dispenser))} "
                               f"({sum(s.dispenser)} marbles)", MUTED)
        for level in (1, 2, 3):
            top = 20 + 34 * level
            self.label(LEFT, top, f"<b>level {LEVEL_NAMES[level]}</b> deck {s.deck_size(level)}")
            for j, ident in enumerate(s.display[level - 1]):
                self.card(X0 + j * STEP, top, ident, f"level {LEVEL_NAMES[level]} display")
            if level == 3 and s.research:
                self.label(X0 + 5 * STEP, top - 34, "<b>researching</b>")
                for j, ident in enumerate(s.research):
                    self.card(X0 + (5 + j) * STEP, top, ident, "being researched", HIGHLIGHT)
        for i, p in enumerate(s.players):
            top = PLAYERS_TOP + PLAYER_ROWS * i
            energy, archive, research = s.limits(i)
            mover = i == s.turn and not s.over
            self.label(LEFT, top, f"<b>{self.names[i]}</b>{' ◀' if mover else ''}", INK)
            # the left column stays short (name; points and tokens; research), clear of the "gizmos" label beside it
            self.label(LEFT, top + 16, f"{s.score(i)} pts · {p.tokens} token{'' if p.tokens == 1 else 's'}", MUTED)
            self.label(LEFT, top + 32, f"research {research}", MUTED)
            x = self.marbles(X0, top, p.energy, f"{self.names[i]}'s storage")
            self.label(x, top, f"{sum(p.energy)}/{energy}", MUTED)
            x = X0 + 7 * STEP
            self.label(x - CELL / 2, top, f"archive {len(p.archive)}/{archive}", MUTED)
            for j, ident in enumerate(p.archive):
                self.card(x + (3 + j) * STEP, top, ident, f"{self.names[i]}'s archive")
            self.label(X0 - CELL / 2, top + 32, "gizmos", MUTED)
            for j, ident in enumerate(p.built):
                waiting = mover and ident in s.ready
                fired = mover and ident in s.used
                self.card(X0 + 50 + j * STEP, top + 32, ident,
                          f"{self.names[i]}'s gizmo{' (waiting to fire)' if waiting else ' (fired this turn)' if fired else ''}",
                          HIGHLIGHT if waiting else MUTED if fired else INK)
        top = PLAYERS_TOP + PLAYER_ROWS * len(s.players) - 8
        self.label(LEFT, top, MARBLE_LEGEND, MUTED)
        for j, line in enumerate(self.words):
            self.label(LEFT, top + WORDS_TOP - 8 + WORD_ROW * j, line, INK)
        title = f"Gizmos · {phase_words(s) if not s.over and not s.is_chance() else s.phase}"
        if s.ending and not s.over:
            title += " · the end is triggered: finishing the round"
        if s.over:
            title += " · " + ", ".join(f"{self.names[i]} {s.score(i)}" for i in range(len(s.players)))
        squares = self.marks.squares("cards and marbles", 11)
        squares.textfont.color = self.ink
        return [squares, self.labels.labels("labels")], board_layout(title, WIDTH, self.height)


def game_over(state: State, names: Sequence[str] | None = None) -> str:
    """The end in points, as the board shows it: the winner by the game's tie-breaks (:meth:`State.standings`), then
    the others best first.

    >>> s = Game().new_initial_state(seed=0)
    >>> game_over(s, ["Ann", "Bo"])  # everyone 0: the tie-breaks rank the later seat first
    'Game over · Bo wins with 0 points (Ann 0)'
    """
    check_instance(state, State, "state", "a Gizmos state")
    shown = player_labels(len(state.players), names)
    first, *others = state.standings()
    rest = ", ".join(f"{shown[i]} {state.score(i)}" for i in others)
    return f"Game over · {shown[first]} wins with {state.score(first)} points" + (f" ({rest})" if rest else "")


def gizmos_board(state: State, names: Sequence[str] | None = None) -> Board:
    """The position as two plotly traces (cards and marbles; labels) and a layout; hover a card for its text.

    >>> traces, layout = gizmos_board(Game(players=3).new_initial_state(seed=0))
    >>> [t.name for t in traces], layout["height"] > 300
    (['cards and marbles', 'labels'], True)
    """
    check_instance(state, State, "state", "a Gizmos state")
    return _Drawing(state, player_labels(len(state.players), names)).board()


def draw_owner(state: State) -> int | None:
    """Whose draw a chance node is: the player to move's, once play has started (nobody's during the setup)."""
    check_instance(state, State, "state", "a Gizmos state")
    return None if Step(Phase.ACTION) in state.todo else state.turn


def gizmos_adapter(names: Sequence[str] | None = None, playouts: int = 200, seed: int = 0) -> Adapter:
    """How Gizmos shows itself in a :class:`DecisionView`: :func:`~coffeegames.gizmos.advise` with ``playouts`` search
    playouts (seeded), the board with these player ``names``, draws typed as marbles or card numbers.

    >>> gizmos_adapter().value_name
    'estimated margin over the best opponent (search playouts)'
    """
    return game_adapter(
        "gizmos",
        advise=partial(advise, playouts=playouts, seed=seed),
        explain=partial(explain, playouts=playouts, seed=seed),
        game_over=partial(game_over, names=names),
        board=partial(gizmos_board, names=names),
        value_name="estimated margin over the best opponent (search playouts)",
        chance_button="Draw",
        outcome_label="drawn",
        outcome_button="Enter the marble or card drawn",
        risk_name="chance the random draws it sets off bring a marble of the colour your best target lacks",
        risk_short="colour",
        risk_summary="its draws bring the colour you need with chance {}",
    )


def gizmos_walkthrough(players: int = 2, human: Sequence[int] = (0,), seed: int = 0, playouts: int = 200,
                       dealt: bool = True, **options: Any) -> DecisionView:
    """A Gizmos game in a :class:`DecisionView`: ``human`` players choose, the others are greedy bots; ``options``
    are :class:`~coffeegames.gizmos.Rules` options. ``human=()`` lets the bots play. ``dealt``: the setup (display
    and row) already drawn from ``seed``; False starts before it, so you can type the cards and marbles of a real
    table (press "Draw" to let chance draw one instead).

    >>> view = gizmos_walkthrough(human=(), playouts=10)
    >>> view.bots_button.click()
    >>> view.state.is_terminal()
    True
    """
    game = Game(players=players, **options)
    check_count(seed, "seed")  # a number, not None: it seeds the search playouts too
    check_count(playouts, "playouts", MAX_PLAYOUTS)
    Checker("gizmos_walkthrough", BadArgument).flag(dealt, "dealt")
    return walkthrough_view(game, lambda names: gizmos_adapter(names, playouts, seed), human=human, seed=seed,
                            players=game.rules.players, parse_outcome=parse_outcome, chance_player=draw_owner,
                            policy=greedy_policy, chance_event="draw", seeded_start=dealt)

