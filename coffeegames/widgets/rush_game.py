"""Coffee Rush at the table: the board, and a decision walkthrough with typed order draws.

* :func:`rush_board` draws a position: the ingredient board (specialty spaces outlined)
  with the meeples, and for each player their order tabs 1-4, cups, completed orders,
  penalty cards, rush tokens and flipped upgrades; optionally a move's path.
* :func:`rush_walkthrough` builds a :class:`~.decision.DecisionView` valued by
  :func:`~coffeegames.rush.advise` (every choice's exact immediate value): the ``human``
  players choose, the others are greedy bots; chance deals orders (press “Draw”) or you
  type the order drawn from a real deck (:func:`parse_order`, companion mode).

Example:
    >>> view = rush_walkthrough(players=2, seed=0)
    >>> view.state.phase, view.chance_button.description
    ('deal', 'Draw')
    >>> view.outcome_text.value = "coffee milk"
    >>> view.outcome_button.click()
    >>> view.state.players[0].tabs[0], view.message.value
    (('coffee+milk',), '')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import BadEntry, IllegalAction, Session
from ..errors import BadArgument
from ..games import games
from ..rush import Drawn, Game, Move, State, advise, greedy_policy, order_name
from ..validate import check_instance
from .adapter import Adapter, Board
from .charts import HIGHLIGHT, board_layout
from .dairyman_game import INK, MUTED, Marks, player_names
from .decision import DecisionView

__all__ = ["INGREDIENT_COLOURS", "PLAYER_COLOURS", "deal_owner", "outcome_example", "outcome_hint", "parse_order", "rush_adapter", "rush_board",
           "rush_walkthrough"]

INGREDIENT_COLOURS: dict[str, str] = {
    "coffee": "#7f4f24", "milk": "#f8f9fa", "steam": "#dee2e6", "ice": "#a5d8ff", "tea": "#8ce99a",
    "chocolate": "#5c3d2e", "caramel": "#f59f00", "water": "#74c0fc",
}
"""How each ingredient's space is drawn (other ingredients of your own board: grey)."""
PLAYER_COLOURS = ("#e03131", "#1971c2", "#2f9e44", "#f08c00")
DARK = {"coffee", "chocolate"}
CELL, LEFT, TOP, PANEL = 58, 40, 40, 300
WIDTH = 940


PHASE_WORDS = {"deal": "dealing orders", "place": "placing meeples", "upgrade": "step 1: upgrade?", "move": "step 2: move",
               "empty": "step 3: empty cups?", "pour": "step 3: pour", "rush_orders": "Too Many Orders: new orders dealt",
               "extra_order": "the extra order", "over": "game over"}
"""Each phase in a player's words, for the board's title."""


def _short(ingredient: str) -> str:
    return ingredient[:4]


def rush_board(state: State, move: Move | None = None) -> Board:
    """The position as three plotly traces (cells, meeples, labels) and a layout; ``move`` draws that move's path.

    >>> traces, layout = rush_board(Game(players=3).new_initial_state(seed=0))
    >>> [t.name for t in traces]
    ['cells', 'meeples', 'labels']
    """
    board, rules = state.rules.board, state.rules
    n = len(state.players)
    height = max(TOP + board.rows * CELL + 60, 30 + n * 96)
    cells, meeples, labels = Marks(), Marks(), Marks()
    ink: list[str] = []

    def at(row: float, col: float) -> tuple[float, float]:
        return LEFT + col * CELL + CELL / 2, height - TOP - row * CELL - CELL / 2

    for space, ingredient in enumerate(board.spaces):
        r, c = divmod(space, board.cols)
        x, y = at(r, c)
        special = ingredient in board.specialty
        cells.add(x, y, _short(ingredient), f"{board.name(space)}: {ingredient}" + (" (specialty)" if special else ""),
                  fill=INGREDIENT_COLOURS.get(ingredient, "#ced4da"), edge="#e8590c" if special else "#adb5bd", size=CELL - 6)
        ink.append("#ffffff" if ingredient in DARK else INK)
    for c in range(board.cols):
        x, _ = at(0, c)
        labels.add(x, height - TOP + 14, "abcdef"[c], fill=MUTED)
    for r in range(board.rows):
        _, y = at(r, 0)
        labels.add(LEFT - 16, y, str(r + 1), fill=MUTED)
    for who, p in enumerate(state.players):
        for m, space in enumerate(p.meeples):
            r, c = divmod(space, board.cols)
            x, y = at(r, c)
            meeples.add(x + 14 - 10 * m, y - 14, f"P{who}", f"player {who}'s meeple {m + 1} on {board.name(space)}",
                        fill=PLAYER_COLOURS[who], edge="#ffffff", size=20)
    shapes: list[dict[str, Any]] = []
    if move is not None and move.path:
        me = state.players[state.player]
        route = [me.meeples[move.meeple], *move.path]
        points = [at(*divmod(s, board.cols)) for s in route]
        shapes = [dict(type="line", x0=x0, y0=y0, x1=x1, y1=y1, line=dict(color=HIGHLIGHT, width=5))
                  for (x0, y0), (x1, y1) in zip(points, points[1:])]
    x0 = LEFT + board.cols * CELL + 40
    for who, p in enumerate(state.players):
        top = height - 24 - who * 96
        turn = "▶ " if who == state.player and not state.is_terminal() else ""
        upgrades = f" · upgrades: {', '.join(p.upgrades)}" if p.upgrades else ""
        labels.add(x0, top, f"<b>{turn}player {who}</b> · score {state.scores[who]} · completed {len(p.completed)} · "
                   f"penalties {len(p.penalties)} · rush {p.rush}{upgrades}", fill=PLAYER_COLOURS[who])
        tabs = "   ".join(f"<b>{t + 1}</b> {' '.join(tab) or '-'}" for t, tab in enumerate(p.tabs))
        labels.add(x0, top - 24, f"tabs {tabs}", fill=INK)
        cups = "   ".join(f"<b>cup {c + 1}</b> {'+'.join(cup) or 'empty'}" for c, cup in enumerate(p.cups))
        labels.add(x0, top - 48, cups, fill=INK)
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
    return [squares, people, text], board_layout(title, WIDTH, height, shapes)


def outcome_example(state: State) -> str | None:
    """An order card the deck can give here, typed as :func:`parse_order` reads it (None where nothing is typed).

    >>> outcome_example(Game(players=3).new_initial_state())
    'coffee+coffee'
    """
    check_instance(state, State, "state", "a Coffee Rush state")
    if not state.is_chance() or state.is_terminal():
        return None
    outcome = state.chance_outcomes()[0][0]
    assert isinstance(outcome, Drawn)
    return outcome.order


def outcome_hint(state: State) -> str:
    """What to type at a deal: the order's ingredients, separated by spaces, commas or ``+``.

    >>> outcome_hint(Game(players=3).new_initial_state())
    'the order card drawn for player 0 (its ingredients), e.g. coffee+coffee'
    """
    who = state.deals[0][0] if state.deals else 0
    return f"the order card drawn for player {who} (its ingredients), e.g. {outcome_example(state)}"


def parse_order(text: str, state: State) -> Drawn:
    """The order card typed at a deal: its ingredients separated by spaces, commas or ``+``.

    >>> s = Game(players=3).new_initial_state()
    >>> parse_order("milk, coffee", s)
    Drawn(order='coffee+milk')
    >>> parse_order("milk", s)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadEntry: an order needs 2-4 ingredients (you typed 1)
    """
    if not state.is_chance():
        raise IllegalAction("no order is being drawn now: the outcome box is for order cards dealt")
    words = text.replace("+", " ").replace(",", " ").lower().split()
    if not 2 <= len(words) <= 4:
        raise BadEntry(f"an order needs 2-4 ingredients (you typed {len(words)})")
    known = state.rules.board.ingredients
    for word in words:
        if word not in known:
            raise BadEntry(f"{word!r} is not an ingredient; they are {', '.join(known)}")
    outcome = Drawn(order_name(words))
    if not state.is_legal_outcome(outcome):
        raise IllegalAction(f"{outcome.order} cannot be drawn: the deck has no such card left")
    return outcome


def deal_owner(state: State) -> int | None:
    """Who receives the card being dealt (None away from a deal)."""
    return state.deals[0][0] if state.is_chance() and state.deals else None


def rush_adapter(names: Sequence[str] | None = None) -> Adapter:
    """How Coffee Rush shows itself in a :class:`DecisionView`: :func:`~coffeegames.rush.advise`, the board, deals."""
    return Adapter(
        advise=advise,
        board=rush_board,
        outcome_hint=outcome_hint,
        outcome_example=outcome_example,
        value_name="score change this turn",
        chance_button="Draw",
        outcome_label="order drawn",
        outcome_button="Enter the order drawn",
        solo=games()["rush"].solo,
    )


def rush_walkthrough(players: int = 3, human: Sequence[int] = (0,), seed: int = 0, **options: Any) -> DecisionView:
    """A Coffee Rush game in a :class:`DecisionView`: ``human`` players choose, the others are greedy bots (the exact
    best move of each turn); ``options`` are :class:`~coffeegames.rush.Rules` options.

    >>> view = rush_walkthrough(players=2, seed=1)
    >>> view.outcome_button.description, view.bots_button.layout.display != 'none'
    ('Enter the order drawn', True)
    """
    game = Game(players=players, **options)
    bad = [p for p in human if not 0 <= p < players]
    if bad:
        raise BadArgument("human", f"human players are players 0-{players - 1}", bad)
    names = player_names(players, human)
    bots = {p: greedy_policy for p in range(players) if p not in human}
    session = Session(game.new_initial_state(), seed=seed, bots=bots, chance_player=deal_owner, parse_outcome=parse_order,
                      names=names, chance_event="draw")
    return DecisionView(session, rush_adapter(names))
