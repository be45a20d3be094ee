"""Coffee Rush at the table: the board, and a decision walkthrough with typed order draws.

* :func:`rush_board` draws a position: the ingredient board (every ingredient named whole,
  specialty spaces outlined) with the meeples, and for each player their order tabs 1-4,
  cups, completed orders, penalty cards, rush tokens and flipped upgrades; optionally a
  move's path and a runner-up's, with a key under the board.
* :func:`rush_walkthrough` builds a :class:`~.decision.DecisionView` valued by
  :func:`~coffeegames.rush.advise` (every choice's exact immediate value): the ``human``
  players choose, the others are greedy bots; chance deals orders (press “Draw”) or you
  type the order drawn from a real deck (:func:`~coffeegames.rush.parse_outcome`, companion mode). Its board
  (:func:`rush_decision_board`) draws, at a move decision, the paths of the list's first
  two moves (:func:`best_two`).

Example:
    >>> view = rush_walkthrough(players=2, seed=0)
    >>> view.state.phase, view.chance_button.description
    ('deal', 'Draw')
    >>> view.outcome_text.value = "coffee+milk"
    >>> view.outcome_button.click()
    >>> view.state.players[0].tabs[0], view.message.value
    (('coffee+milk',), '')
"""

from __future__ import annotations

import html

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any

import plotly.graph_objects as go

from ..engine.advice import Advice
from ..errors import BadArgument, BadType
from ..rush import Game, Move, Phase, State, advise, greedy_policy, outcome_example, outcome_hint, parse_outcome
from ..validate import Checker, check_instance
from .adapter import Adapter, Board, game_adapter
from .charts import HIGHLIGHT, board_layout, wrap_words
from .board import INK, MUTED, Marks
from .decision import DecisionView
from .factory import player_labels, walkthrough_view

__all__ = ["INGREDIENT_COLOURS", "PLAYER_COLOURS", "best_two", "cell_text", "deal_owner", "game_over", "outcome_example", "outcome_hint",
           "parse_order", "rush_adapter", "rush_board", "rush_decision_board", "rush_walkthrough"]

parse_order = parse_outcome
"""The deal box's parser, :func:`coffeegames.rush.parse_outcome` (its old name here)."""

INGREDIENT_COLOURS: dict[str, str] = {
    "coffee": "#7f4f24", "milk": "#f8f9fa", "steam": "#dee2e6", "ice": "#a5d8ff", "tea": "#8ce99a",
    "chocolate": "#5c3d2e", "caramel": "#f59f00", "water": "#74c0fc",
}
"""How each ingredient's space is drawn (other ingredients of your own board: grey)."""
PLAYER_COLOURS = ("#e03131", "#1971c2", "#2f9e44", "#f08c00")
DARK = {"coffee", "chocolate"}
CELL, LEFT, TOP, BOTTOM = 72, 40, 40, 70
WIDTH = 960
PANEL_LETTERS = 78
"""The most letters on one line of a player's panel, beside the grid (within :data:`WIDTH` at 13 px): a longer line
(a player's tabs with several orders each, their upgrades, their cups) is wrapped at a word."""
FIT = 10
"""The most letters of a name on one line of a space (a longer word is split with a hyphen)."""
RUNNER_UP = "#5c7cfa"
"""The runner-up's path: a lighter blue beside the best move's :data:`~.charts.HIGHLIGHT`."""
PATHS = ((HIGHLIGHT, -1, 3), (RUNNER_UP, 1, 2))
"""How the two paths are drawn: colour, corner of their step numbers (-1 left, 1 right), arrow width."""
LEGEND = ("move drawn", "runner-up")
"""The key's default words for the two paths."""


_ARGUMENT = Checker("", BadArgument)

PHASE_WORDS = {"deal": "dealing orders", "place": "placing meeples", "upgrade": "step 1: upgrade?", "move": "step 2: move",
               "empty": "step 3: empty cups?", "pour": "step 3: pour", "complete": "step 4: complete orders?",
               "rush_orders": "Too Many Orders: new orders dealt", "extra_order": "the extra order", "over": "game over"}
"""Each phase in a player's words, for the board's title."""


def cell_text(ingredient: str) -> str:
    """An ingredient's whole name as its space shows it: a word a line, a word longer than :data:`FIT` letters split
    with a hyphen.

    >>> cell_text("chocolate"), cell_text("tea leaves"), cell_text("pumpkin_spice_syrup")
    ('chocolate', 'tea<br>leaves', 'pumpkin<br>spice<br>syrup')
    >>> cell_text("marshmallowcream")
    'marshmall-<br>owcream'
    """
    _ARGUMENT.text(ingredient, "ingredient")
    lines: list[str] = []
    for word in ingredient.replace("_", " ").split():
        while len(word) > FIT:
            lines.append(word[: FIT - 1] + "-")
            word = word[FIT - 1 :]
        lines.append(word)
    return "<br>".join(lines)


def _legal_move(state: State, move: Any, where: str) -> Move | None:
    """``move`` if it is None or a move the current player may make here; else the library's error naming ``where``."""
    if move is None:
        return None
    check_instance(move, Move, where, "a Move of this position (one of state.legal_actions()), or None")
    if move not in state.legal_actions():
        raise BadArgument(where, "must be a move the player to act may make here (one of state.legal_actions())", move)
    return move


def _legend_text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise BadType(where, "must be a text naming the path in the key", value)
    _ARGUMENT.need(len(value) <= 80, where, "must be at most 80 characters", value)
    return value


def _path_steps(at: Any, start: int, path: tuple[int, ...], shift: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each step of a path as an arrow across the border between two spaces, ``shift`` pixels to its side: clear of
    the names at the spaces' centres, and of the other path along the same step."""
    found = []
    for a, b in zip((start, *path), path):
        (xa, ya), (xb, yb) = at(a), at(b)
        dx, dy = xb - xa, yb - ya
        length = (dx * dx + dy * dy) ** 0.5
        sx, sy = -dy / length * shift, dx / length * shift
        found.append(((xa + 0.22 * dx + sx, ya + 0.22 * dy + sy), (xa + 0.78 * dx + sx, ya + 0.78 * dy + sy)))
    return found


def _step_badges(at: Any, path: tuple[int, ...], name: str, colour: str, dx: float, dy: float) -> go.Scatter:
    """The number of each step in a corner of the space it enters (``dx``, ``dy`` from its centre): "1,3" where a
    path enters a space twice."""
    numbers: dict[int, list[str]] = {}
    for i, space in enumerate(path):
        numbers.setdefault(space, []).append(str(i + 1))
    badges = Marks()
    for space, steps in numbers.items():
        x, y = at(space)
        badges.add(x + dx, y + dy, ",".join(steps), f"step {', '.join(steps)} of the {name}", fill=colour, edge="#ffffff",
                   size=18 if len(steps) == 1 else 26)
    marks = badges.squares(f"path: {name}", 10)
    marks.marker.symbol = "circle"
    marks.textfont.color = "#ffffff"
    return marks


def rush_board(state: State, move: Move | None = None, runner_up: Move | None = None,
               legend: Sequence[str] = LEGEND) -> Board:
    """The position as plotly traces (cells, meeples, labels, and each path drawn) and a layout.

    ``move`` draws that move's path: an arrow across each step and the step's number in the top-left corner of each
    space entered; ``runner_up`` draws a second move's the same way, lighter, numbered in the top-right corner.
    ``legend`` names the two in the key under the board (:func:`rush_decision_board` passes "best move" and the
    values). Every space shows its ingredient's whole name (:func:`cell_text`).

    >>> traces, layout = rush_board(Game(players=3).new_initial_state(seed=0))
    >>> [t.name for t in traces]
    ['cells', 'meeples', 'labels']
    """
    check_instance(state, State, "state", "a Coffee Rush state")
    move, runner_up = _legal_move(state, move, "move"), _legal_move(state, runner_up, "runner_up")
    names = _ARGUMENT.sequence(legend, "legend", _legend_text, 0, 2)
    board, rules = state.rules.board, state.rules
    panels = [_panel(state, who) for who in range(len(state.players))]
    height = BOTTOM + max(TOP + board.rows * CELL, sum(24 * len(lines) + 24 for lines in panels))
    cells, meeples, labels = Marks(), Marks(), Marks()
    ink: list[str] = []

    def at(space: int) -> tuple[float, float]:
        r, c = divmod(space, board.cols)
        return LEFT + c * CELL + CELL / 2, height - TOP - r * CELL - CELL / 2

    for space, ingredient in enumerate(board.spaces):
        x, y = at(space)
        special = ingredient in board.specialty
        cells.add(x, y, cell_text(ingredient), f"{board.name(space)}: {ingredient}" + (" (specialty)" if special else ""),
                  fill=INGREDIENT_COLOURS.get(ingredient, "#ced4da"), edge="#e8590c" if special else "#adb5bd", size=CELL - 6)
        ink.append("#ffffff" if ingredient in DARK else INK)
    for c in range(board.cols):
        labels.add(at(c)[0] - 4, height - TOP + 14, "abcdef"[c], fill=MUTED)
    for r in range(board.rows):
        labels.add(LEFT - 16, at(r * board.cols)[1], str(r + 1), fill=MUTED)
    corner = CELL / 2 - 13
    for who, p in enumerate(state.players):
        for m, space in enumerate(p.meeples):
            x, y = at(space)
            meeples.add(x + corner - 14 * m, y - corner, f"P{who}", f"player {who}'s meeple {m + 1} on {board.name(space)}",
                        fill=PLAYER_COLOURS[who], edge="#ffffff", size=20)
    me = state.players[state.player]
    traces: list[Any] = []
    arrows: list[dict[str, Any]] = []
    for i, (path_move, name, (colour, side, width)) in enumerate(zip((move, runner_up), (*names, *LEGEND[len(names):]), PATHS)):
        if path_move is None:
            continue
        start = me.meeples[path_move.meeple]
        arrows += [dict(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y", text="", showarrow=True,
                        arrowhead=2, arrowsize=1.1, arrowwidth=width, arrowcolor=colour, standoff=0, startstandoff=0)
                   for (x0, y0), (x1, y1) in _path_steps(at, start, path_move.path, 10 * side)]
        traces.append(_step_badges(at, path_move.path, html.escape(name), colour, side * corner, corner))
        labels.add(LEFT - 20, BOTTOM - 16 - 20 * i, f"{'━' if i == 0 else '┅'}➜ <b>{html.escape(name)}</b>: "
                   f"{path_move.describe(start, board.cols)}", fill=colour)
    x0, top = LEFT + board.cols * CELL + 40, height - 24
    for who, lines in enumerate(panels):
        for i, line in enumerate(lines):
            labels.add(x0, top - 24 * i, line, fill=PLAYER_COLOURS[who] if i == 0 else INK)
        top -= 24 * len(lines) + 24
    footer = f"deck {state.deck_left} cards · rush supply {state.supply}" + (" · CLOSED" if state.closed else "")
    if state.collected:
        footer += f" · collected: {', '.join(state.collected)}"
    labels.add(LEFT - 20, 14, footer, fill=MUTED)
    squares = cells.squares("cells", 11)
    squares.textfont.color = ink
    people = meeples.squares("meeples", 9)
    people.marker.symbol = "circle"
    people.textfont.color = "#ffffff"
    title = f"Coffee Rush · {rules.players} players · round {state.round} · {PHASE_WORDS.get(state.phase, str(state.phase))}"
    text = labels.labels("labels")
    text.textposition = "middle right"
    layout = board_layout(title, WIDTH, height)
    layout["annotations"] = arrows
    return [squares, people, text, *traces], layout


def _panel(state: State, who: int) -> list[str]:
    """A player's lines beside the grid: who, score and counts (and upgrades); their order tabs; their cups. Each
    wrapped at a word within :data:`PANEL_LETTERS`, so a long tab or cup stays on the board."""
    p = state.players[who]
    turn = "▶ " if who == state.player and not state.is_terminal() else ""
    head = [(" · ", f"<b>{turn}player {who}</b>"), (" · ", f"score {state.scores[who]}"),
            (" · ", f"completed {len(p.completed)}"), (" · ", f"penalties {len(p.penalties)}"), (" · ", f"rush {p.rush}")]
    if p.upgrades:
        head += [(" · ", "upgrades:")] + [(", " if i else " ", u) for i, u in enumerate(p.upgrades)]
    tabs = [("", "tabs")] + [(sep, word) for t, tab in enumerate(p.tabs)
                             for sep, word in [("   " if t else " ", f"<b>{t + 1}</b>")] + [(" ", order) for order in tab or ("-",)]]
    cups = [(sep, word) for c, cup in enumerate(p.cups)
            for sep, word in [("   " if c else "", f"<b>cup {c + 1}</b>"), (" ", "+".join(cup) or "empty")]]
    return [line for words in (head, tabs, cups) for line in wrap_words(words, PANEL_LETTERS)]


@lru_cache(maxsize=4)
def _advised(state: State) -> tuple[Advice, ...]:
    return tuple(advise(state))


def _advise(state: State) -> list[Advice]:
    """:func:`~coffeegames.rush.advise`, worked out once per position for both the list and the board."""
    return list(_advised(state))


def best_two(state: State) -> list[tuple[Move, Fraction]]:
    """At a move decision, the first two moves of the walkthrough's list (best first) with their exact values; else
    ``[]``.

    >>> s = Game(players=3).new_initial_state(seed=1)
    >>> while s.is_chance() or s.phase == "place":
    ...     s = s.apply(s.chance_outcomes()[0][0] if s.is_chance() else s.legal_actions()[0])
    >>> [(str(move), value) for move, value in best_two(s)]
    [('move d1→d2→c2', Fraction(1, 1)), ('move c2→d2→d1', Fraction(1, 1))]
    """
    check_instance(state, State, "state", "a Coffee Rush state")
    if state.is_chance() or state.is_terminal() or state.phase != Phase.MOVE:
        return []
    return [(row.action, row.value) for row in _advise(state)[:2] if row.value is not None]  # best first, as the list


def rush_decision_board(state: State) -> Board:
    """The board as the walkthrough shows it: at a move decision, the best move's path (the first of the list, its
    value in the key) and the runner-up's, lighter; elsewhere the position alone (:func:`rush_board`).

    >>> traces, layout = rush_decision_board(Game(players=3).new_initial_state(seed=0))
    >>> len(layout["annotations"])
    0
    """
    check_instance(state, State, "state", "a Coffee Rush state")
    ranked = best_two(state)
    legend = [f"{name} ({_signed(value)} this turn)" for name, (_, value) in zip(("best move", "runner-up"), ranked)]
    moves = [move for move, _ in ranked] + [None, None]
    return rush_board(state, moves[0], moves[1], legend)


def _signed(value: Fraction) -> str:
    return f"+{value}" if value > 0 else str(value)


def game_over(state: State, names: Sequence[str] | None = None) -> str:
    """The end in points: the winner (or the players tied for the most points), then the others.

    >>> s = Game(players=2).new_initial_state()
    >>> game_over(s, ["Ann", "Bo"])
    'Game over · Ann and Bo tie with 0 points'
    """
    check_instance(state, State, "state", "a Coffee Rush state")
    shown = player_labels(len(state.players), names)
    scores = state.scores
    top = max(scores)
    won = [shown[i] for i, v in enumerate(scores) if v == top]
    rest = ", ".join(f"{shown[i]} {v}" for i, v in enumerate(scores) if v != top)
    head = f"{won[0]} wins" if len(won) == 1 else f"{', '.join(won[:-1])} and {won[-1]} tie"
    return f"Game over · {head} with {top} points" + (f" ({rest})" if rest else "")


def deal_owner(state: State) -> int | None:
    """Who receives the card being dealt (None away from a deal)."""
    check_instance(state, State, "state", "a Coffee Rush state")
    return state.deals[0][0] if state.is_chance() and state.deals else None


def rush_adapter(names: Sequence[str] | None = None) -> Adapter:
    """How Coffee Rush shows itself in a :class:`DecisionView`: :func:`~coffeegames.rush.advise`, its value taken
    apart (:func:`~coffeegames.rush.explain`), the board, deals."""
    return game_adapter(
        "rush",
        advise=_advise,
        game_over=partial(game_over, names=names),
        board=rush_decision_board,
        value_name="score change this turn",
        chance_button="Draw",
        outcome_label="order drawn",
        outcome_button="Enter the order drawn",
    )


def rush_walkthrough(players: int = 3, human: Sequence[int] = (0,), seed: int = 0, **options: Any) -> DecisionView:
    """A Coffee Rush game in a :class:`DecisionView`: ``human`` players choose, the others are greedy bots (the exact
    best move of each turn); ``options`` are :class:`~coffeegames.rush.Rules` options.

    >>> view = rush_walkthrough(players=2, seed=1)
    >>> view.outcome_button.description, view.bots_button.layout.display != 'none'
    ('Enter the order drawn', True)
    """
    return walkthrough_view(Game(players=players, **options), rush_adapter, human=human, seed=seed, players=players,
                            parse_outcome=parse_outcome, chance_player=deal_owner, policy=greedy_policy, chance_event="draw")
