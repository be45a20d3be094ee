"""VivaJava at the table: the board, a decision walkthrough against bots or a corporation, typed real rolls.

* :func:`vivajava_board` draws a position: the Featured Blend coaster with its dice (and
  funders), the Rainbow's holder, the dice of the roll coloured by bean colour (flavour
  dice marked ``f``, jokers ``★``, dice still rolling ``?``), each player's PP and five
  research tracks (1X / 2X marks outlined), and in solo games the METER with the
  corporation's exact chance to make a Featured Blend on its next roll.
* :func:`vivajava_walkthrough` builds a :class:`~.decision.DecisionView` valued by
  :func:`~coffeegames.vivajava.advise` (the view's words and functions: :func:`vivajava_adapter`) against
  :func:`~coffeegames.vivajava.greedy_policy` bots, or solo against a corporation.
* :func:`~coffeegames.vivajava.parse_roll` reads a roll typed as colour names (see its notation); it lives in
  the game package (:mod:`coffeegames.vivajava.typed`) and is still importable from here.

Example (solo against OmniBlend: you type who starts, your first roll, then see every choice's value):
    >>> view = vivajava_walkthrough(solo="omniblend", meter="yellow")
    >>> view.outcome_text.value = "0"
    >>> view.outcome_button.click()
    >>> view.outcome_text.value = "red red red green black"
    >>> view.outcome_button.click()
    >>> view.advice[0].label, view.advice[0].value
    ('Featured Blend: Regular red', Fraction(14207, 5832))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any, cast

from ..engine import Walkthrough
from ..validate import check_instance
from ..vivajava import (
    COLOURS,
    CORPORATION,
    CORPORATIONS,
    JOKER,
    TRACK_COLOURS,
    Game,
    Rolled,
    State,
    corporation_chance,
    greedy_policy,
    outcome_example,
    outcome_hint,
    parse_roll,
)
from .adapter import Adapter, Board, game_adapter
from .charts import HIGHLIGHT, board_layout, fraction_text, wrap_words
from .board import ACTIVE_ROW, INK, MUTED, ROLLING, Marks
from .decision import DecisionView
from .factory import player_labels, walkthrough_view
from .vivajava_odds import BEAN_COLOURS, bean_ink

__all__ = ["corporation_rolls", "game_over", "outcome_example", "outcome_hint", "parse_roll", "roll_owner", "vivajava_adapter", "vivajava_board", "vivajava_walkthrough"]

# Board geometry in pixels (the axes run in pixels, so squares stay square).
WIDTH, LEFT, ROW_X = 940, 8, 150
DIE, DIE_STEP = 30, 36
CELL, CELL_STEP, TRACK_GAP, TRACKS_X, PP_X, SIDE_X = 12, 15, 13, 262, 196, 806
METER_CELL, METER_STEP = 22, 28
SMALL_DIE = 20
METER_LETTERS = 80
"""The most letters on one line of the METER row's sentence (beside the METER, within :data:`WIDTH` at 13 px)."""
PLAYER_ROW = 32
FLAVOUR_EDGE, EMPTY_CELL, EMPTY_EDGE, METER_NOW = "#7048e8", "#ffffff", "#ced4da", "#ffe8cc"
LEGEND = "dice: f = flavour die · ★ = joker (wild) · ? = rolling · tracks: one cell per RP, outlined cells are the 1X / 2X marks · hover for details"


class _Inked(Marks):
    """Board marks whose text colour is chosen per point (readable on dark beans)."""

    def __init__(self) -> None:
        super().__init__()
        self.ink: list[str] = []

    def add(self, *args: Any, ink: str = INK, **kwargs: Any) -> None:
        super().add(*args, **kwargs)
        self.ink.append(ink)

    def squares(self, name: str, font_size: int) -> Any:
        trace = super().squares(name, font_size)
        trace.textfont.color = self.ink
        return trace


PHASES = {
    "first": "who starts? chance draws the first player (1/2 each)",
    "setup": "setup: mark 1 RP on a track of your choice",
    "degrade": "degrade the Featured Blend: remove one die",
    "keep": "keep the degraded blend (the turn ends), or re-roll its dice",
    "act": "make a Featured Blend, a Rainbow, or research",
    "activate": "activate the abilities gained this turn",
    "block": "Sacchar failed: it rolls one coffee die, blocking that colour for your next turn",
}


def game_over(state: State, names: Sequence[str] | None = None) -> str:
    """The end in PP, as the board shows it: ``'Game over · player 0 (you) wins with 21 PP (player 1 (bot) 18 PP)'``."""
    check_instance(state, State, "state", "a VivaJava state")
    names = player_labels(len(state.players), names)
    others = ", ".join(f"{names[i]} {p.pp} PP" for i, p in enumerate(state.players) if i != state.winner)
    return f"Game over · {names[state.winner]} wins with {state.players[state.winner].pp} PP" + (f" ({others})" if others else "")


def _headline(state: State, names: Sequence[str]) -> str:
    if state.phase == "over":
        return game_over(state, names)
    who = names[state.turn]
    if state.phase == "roll":
        flavour = f" + {state.rolling_own} flavour" if state.rolling_own else ""
        return f"{who}'s turn · rolling {state.rolling_white} coffee{flavour} dice"
    if state.phase == "corp":
        return f"{who}'s turn · it rolls (the METER shows {state.meter_shows})"
    if state.phase == "activate":
        return f"{who}'s turn · activate {state.rules.ability(state.pending[0]).name} ({state.pending[0]} track)"
    return f"{who}'s turn · {PHASES[state.phase]}"


class _Drawing:
    """One board drawn top to bottom; each row method adds its marks."""

    def __init__(self, state: State, names: Sequence[str], rolls: Sequence[tuple[str, ...]] = (), made: str = "") -> None:
        self.state, self.names, self.rolls, self.made = state, names, rolls, made
        self.dice, self.cells, self.labels = _Inked(), _Inked(), Marks()
        self.shapes: list[dict[str, Any]] = []
        self.meter_lines = self._meter_lines() if state.solo else []
        self.rolls_top = 132 + (34 + 16 * max(0, len(self.meter_lines) - 2) if state.solo else 0)
        self.players_top = self.rolls_top + (36 if rolls else 0)
        self.height = self.players_top + 22 + PLAYER_ROW * len(state.players) + 12

    def at(self, top: float) -> float:
        """The y coordinate of a point ``top`` pixels below the top edge."""
        return self.height - top

    def label(self, x: float, top: float, text: str, colour: str = INK) -> None:
        self.labels.add(x, self.at(top), text, fill=colour)

    def die(self, x: float, top: float, face: str, hover: str, flavour: bool = False, text: str = "") -> None:
        """A die showing ``face`` (a colour, the joker, or ``"?"`` while rolling)."""
        if face == "?":
            self.dice.add(x, self.at(top), "?", hover, fill=ROLLING, edge=FLAVOUR_EDGE if flavour else INK, size=DIE)
            return
        mark = "★" if face == JOKER else text or ("f" if flavour else "")
        self.dice.add(
            x, self.at(top), mark, hover, fill=BEAN_COLOURS[face], edge=FLAVOUR_EDGE if flavour else INK, size=DIE,
            ink=bean_ink(face),
        )

    def featured_row(self, top: float) -> None:
        state = self.state
        self.label(LEFT, top, "<b>Featured Blend</b>")
        if state.featured_by < 0:
            self.label(ROW_X - DIE / 2, top, "empty coaster: any blend of two or more alike takes it", MUTED)
            return
        funders = list(state.funders)
        x = ROW_X
        for i in range(state.featured_size):
            funder = funders[i] if i < len(funders) else None
            hover = f"{state.featured} · " + (f"die funded by {self.names[funder]}" if funder is not None else "unfunded die")
            self.die(x, top, state.featured_colour, hover, text=str(funder) if funder is not None else "")
            x += DIE_STEP
        funded = f" · numbers: the funder's seat ({', '.join(self.names[q] for q in sorted(set(funders)))})" if funders else ""
        who = self.names[state.featured_by]
        self.label(x - DIE / 2 + 4, top, f"<b>{state.featured}</b>, held by {who}: {state.rules.featured_pp} PP each turn{funded}")

    def rainbow_row(self, top: float) -> None:
        state = self.state
        self.label(LEFT, top, "<b>Rainbow</b>")
        held = state.rainbow_by >= 0
        for i, colour in enumerate(COLOURS[:5]):
            x = ROW_X + i * (DIE_STEP - 12)
            self.cells.add(x, self.at(top), "", "the Rainbow Blend coaster", fill=BEAN_COLOURS[colour], size=18, opacity=1.0 if held else 0.3)
        who = f"held by {self.names[state.rainbow_by]}: {state.rules.rainbow_pp} PP each turn" if held else "in the supply"
        self.label(ROW_X + 5 * (DIE_STEP - 12) - 4, top, who, INK if held else MUTED)

    def dice_row(self, top: float) -> None:
        state = self.state
        self.label(LEFT, top, "<b>dice</b>")
        out = state.white or state.own or state.offered or state.is_chance()
        if not out:
            self.label(ROW_X - DIE / 2, top, "no dice out", MUTED)
            return
        roller = self.names[state.turn]
        x = ROW_X
        for face in state.white:
            self.die(x, top, face, f"{roller}: coffee die showing {face}")
            x += DIE_STEP
        for _ in range(state.rolling_white):
            self.die(x, top, "?", f"{roller}: coffee die rolling")
            x += DIE_STEP
        for face in state.own:
            self.die(x, top, face, f"{roller}: flavour die showing {face}", flavour=True)
            x += DIE_STEP
        for _ in range(state.rolling_own):
            self.die(x, top, "?", f"{roller}: flavour die rolling", flavour=True)
            x += DIE_STEP
        offers = [(q, list(faces)) for q, faces in state.offered] + [(q, ["?"] * n) for q, n in state.rolling_offered]
        for q, faces in offers:
            x += 12
            self.label(x - DIE / 2, top + 24, f"offered by {q}", MUTED)
            for face in faces:
                self.die(x, top, face, f"{self.names[q]}: flavour die offered for funding", flavour=True)
                x += DIE_STEP

    def meter_row(self, top: float) -> None:
        state, rules = self.state, self.state.rules
        self.label(LEFT, top, "<b>METER</b>")
        for i, shows in enumerate(rules.meter_values):
            now = i == state.meter
            hover = f"METER position {i} shows {shows}" + (" (now)" if now else "")
            self.cells.add(ROW_X + i * METER_STEP, self.at(top), str(shows), hover, fill=METER_NOW if now else EMPTY_CELL,
                           edge=HIGHLIGHT if now else EMPTY_EDGE, size=METER_CELL)
        self.label(ROW_X + len(rules.meter_values) * METER_STEP - 6, top, "<br>".join(self.meter_lines))

    def _meter_lines(self) -> list[str]:
        """What the corporation does at this METER reading and its exact chance of a Featured Blend, in lines of at
        most :data:`METER_LETTERS` (player names can be long)."""
        state, corporation = self.state, self.state.rules.solo
        assert corporation is not None, "the METER row is drawn in solo games only"
        shows = state.meter_shows
        if corporation == "sacchar":
            does = f"rolls {shows} flavour {'die' if shows == 1 else 'dice'}"
        else:
            does = f"re-rolls up to {shows} time{'s' * (shows != 1)}" if shows else "does not re-roll"
        target = f", beating {self.names[state.featured_by]}'s {state.featured}" if 0 <= state.featured_by != CORPORATION else ""
        words = f"{CORPORATIONS[corporation]} {does}: next roll makes a Featured Blend{target} with".split(" ")
        chance = f"<b>{fraction_text(corporation_chance(state))}</b>"
        blocked = f"· blocked colour: {state.blocked}".split(" ") if state.blocked else []
        return wrap_words([(" ", word) for word in (*words, chance, *blocked)], METER_LETTERS)

    def rolls_row(self, top: float) -> None:
        """The corporation's last roll and each re-roll, oldest first, and what they made."""
        state = self.state
        who = CORPORATIONS[state.rules.solo or ""]
        self.label(LEFT, top, "<b>last rolls</b>")
        x = ROW_X
        for n, dice in enumerate(self.rolls):
            what = "first roll" if n == 0 else f"re-roll {n}" if state.rules.solo == "omniblend" else "block die"
            for face in dice:
                self.dice.add(x, self.at(top), "★" if face == JOKER else "", f"{who}, {what}: {face}", fill=BEAN_COLOURS[face],
                              edge=INK, size=SMALL_DIE, ink=bean_ink(face))
                x += SMALL_DIE + 2
            x += 14
        self.label(x - SMALL_DIE, top, self.made, MUTED)

    def players_rows(self, top: float) -> None:
        state, rules = self.state, self.state.rules
        x = TRACKS_X
        for colour in TRACK_COLOURS:  # a header naming the tracks
            self.label(x - CELL / 2, top, colour, MUTED)
            x += rules.track(colour).length * CELL_STEP + TRACK_GAP
        self.label(SIDE_X, top, "tokens · flavour dice", MUTED)
        top += 22
        for i, player in enumerate(state.players):
            y = top + PLAYER_ROW * i
            if i == state.turn and state.phase != "over":
                self.shapes.append(dict(type="rect", x0=2, x1=WIDTH - 2, y0=self.at(y + PLAYER_ROW / 2), y1=self.at(y - PLAYER_ROW / 2),
                                        fillcolor=ACTIVE_ROW, line=dict(width=0), layer="below"))
            self.label(LEFT, y, f"<b>{self.names[i]}</b>")
            self.label(PP_X, y, f"PP <b>{player.pp}</b>/{rules.win_pp}")
            if state.solo and i == CORPORATION:
                self.label(TRACKS_X - CELL / 2, y, "never researches", MUTED)
                continue
            self.tracks(i, y)
            tokens = sum(player.tokens)
            self.label(SIDE_X, y, f"{tokens} token{'s' * (tokens != 1)} · {player.flavour} flavour")

    def tracks(self, player: int, y: float) -> None:
        rules, me = self.state.rules, self.state.players[player]
        x = TRACKS_X
        for colour, rp, tokens in zip(TRACK_COLOURS, me.research, me.tokens):
            track = rules.track(colour)
            ability = rules.ability(colour).name
            done = rp >= track.length
            for cell in range(1, track.length + 1):
                marks = {track.x1: f" · 1X: {ability}", track.x2: f" · 2X: {ability} twice", track.length: f" · completes: +{track.pp} PP"}
                hover = f"{self.names[player]}: {colour} track, RP {rp} of {track.length}{' (complete)' if done else ''}" + (
                    f"<br>cell {cell}{marks.get(cell, '')}" + (f" · {tokens} token(s)" if tokens else "")
                )
                filled = cell <= rp
                edge = HIGHLIGHT if cell in (track.x1, track.x2) else INK if filled else EMPTY_EDGE
                self.cells.add(x, self.at(y), "", hover, fill=BEAN_COLOURS[colour] if filled else EMPTY_CELL, edge=edge, size=CELL)
                x += CELL_STEP
            x += TRACK_GAP

    def board(self) -> Board:
        self.featured_row(22)
        self.rainbow_row(58)
        self.dice_row(92)
        if self.state.solo:
            self.meter_row(132)
        if self.rolls:
            self.rolls_row(self.rolls_top)
        self.players_rows(self.players_top)
        self.label(LEFT, self.height - 12, LEGEND, MUTED)
        layout = board_layout(_headline(self.state, self.names), WIDTH, self.height, self.shapes)
        return [self.dice.squares("dice", 14), self.cells.squares("cells", 10), self.labels.labels("labels")], layout


def vivajava_board(state: State, names: Sequence[str] | None = None, history: Walkthrough | None = None) -> Board:
    """The position as plotly traces (dice, cells, labels) and a layout; the same three traces for every state.

    ``history``: the walkthrough that reached ``state``; in a solo game the board then shows the
    corporation's last rolls (its first roll and each re-roll, :func:`corporation_rolls`), which
    leave no trace on the position when they make no blend.

    >>> from coffeegames.vivajava import FirstPlayer
    >>> traces, layout = vivajava_board(Game(solo="sacchar").new_initial_state().apply(FirstPlayer(0)))
    >>> [t.name for t in traces], layout["title"]["text"]
    (['dice', 'cells', 'labels'], "player 0's turn · rolling 5 coffee dice")
    """
    check_instance(state, State, "state", "a VivaJava state")
    names = player_labels(len(state.players), names)
    rolls, made = _corporation_turn(history, state) if history is not None and state.solo else ([], "")
    return _Drawing(state, names, rolls, made).board()


def corporation_rolls(walk: Walkthrough, state: State | None = None) -> list[tuple[str, ...]]:
    """The dice of the solo corporation's last turn before ``state`` (default: the walkthrough's last), oldest first:
    its first roll, then each re-roll (the dice it kept first), then Sacchar's block die; [] before its first turn.

    >>> from coffeegames.vivajava import Research
    >>> walk = Walkthrough(Game(solo="omniblend", solo_first="you", meter="red").new_initial_state(), seed=0)
    >>> _ = walk.step(Rolled(("red", "red", "green", "white", "black"))).step(Research("red"))
    >>> _ = walk.step(Rolled(("red", "red", "white", "yellow", "black"))).step(Rolled(("red", "brown", "black")))
    >>> corporation_rolls(walk)
    [('white', 'yellow', 'red', 'red', 'black'), ('red', 'red', 'brown', 'red', 'black')]
    """
    check_instance(walk, Walkthrough, "walk", "the Walkthrough of a VivaJava game")
    return _corporation_turn(walk, state)[0]


def _corporation_turn(walk: Walkthrough, state: State | None) -> tuple[list[tuple[str, ...]], str]:
    """The corporation's last rolls before ``state`` and what they made, in words."""
    states, moves = cast(list[State], walk.states), walk.moves
    end = len(states) - 1 if state is None else next((i for i in range(len(states) - 1, -1, -1) if states[i] is state), len(states) - 1)
    last: list[int] = []
    for i in range(min(end, len(moves)) - 1, -1, -1):  # the last run of its rolls, one after the other
        mine = states[i].turn == CORPORATION and states[i].phase in ("corp", "block") and isinstance(moves[i], Rolled)
        if mine:
            last.append(i)
        elif last:
            break
    if not last:
        return [], ""
    rolled = [(states[i], cast(Rolled, moves[i])) for i in reversed(last)]
    rolls = [tuple(at.white) + tuple(roll.white) + tuple(roll.own) for at, roll in rolled]
    before, after = states[last[-1]], states[last[0] + 1]
    if after.featured_by == CORPORATION and (before.featured_by != CORPORATION or after.featured != before.featured):
        made = f"→ a Featured Blend: {after.featured}"
    elif after.rainbow_by == CORPORATION and before.rainbow_by != CORPORATION:
        made = "→ the Rainbow"
    else:
        made = "→ no blend: the METER goes up" + (f", block die {after.blocked}" if after.blocked else "")
    return rolls, made


def roll_owner(state: State) -> int | None:
    """Whose roll a chance node is: the player (or corporation) whose turn it is (nobody's: the first-player draw)."""
    check_instance(state, State, "state", "a VivaJava state")
    return state.turn if state.is_chance() and state.phase != "first" else None


# -- the walkthrough ---------------------------------------------------------------------

def vivajava_adapter(names: Sequence[str] | None = None) -> Adapter:
    """How VivaJava shows itself in a :class:`DecisionView`: :func:`~coffeegames.vivajava.advise`, the board (with
    these player ``names``), rolls in dice words, the chance of losing a blend before your next turn as the risk.

    >>> vivajava_adapter().risk_short, vivajava_adapter().chance_button
    ('lost', 'Let chance roll')
    """
    return game_adapter(
        "vivajava",
        board=partial(vivajava_board, names=names),
        game_over=partial(game_over, names=names),
        value_name="expected PP by your next turn",
        chance_button="Let chance roll",
        outcome_label="you rolled",
        outcome_button="Enter the dice you rolled",
        chance_words=lambda state: "Let chance pick who starts" if state.phase == "first" else "Let chance roll",
        outcome_words=lambda state: (("who starts", "Enter who starts") if state.phase == "first"
                                     else ("you rolled", "Enter the dice you rolled")),
        risk_name="chance of losing it before your next turn (a re-roll: of not beating the blend given up)",
        risk_short="lost",
        risk_summary="chance of losing it before your next turn: {}",
    )  # not solo: a solo game has a corporation, a bot, and "Bots play" lets it move


def vivajava_walkthrough(
    players: int = 2, solo: str | None = None, meter: str = "yellow", human: Sequence[int] = (0,), seed: int = 0, **options: Any
) -> DecisionView:
    """A VivaJava game in a :class:`DecisionView`: ``human`` players choose, the others are greedy bots.

    ``solo="omniblend"`` or ``"sacchar"`` plays against that corporation (player 1, which
    plays itself) from the ``meter`` difficulty (green, yellow, red); ``options`` are
    :class:`~coffeegames.vivajava.Rules` options. ``human=()`` lets the bots play.

    >>> view = vivajava_walkthrough(solo="sacchar", human=())
    >>> view.bots_button.click()
    >>> view.state.is_terminal()
    True
    """
    game = Game(players=players, solo=solo, meter=meter, **options)
    machines = {CORPORATION: CORPORATIONS[solo]} if solo else {}
    view = walkthrough_view(game, vivajava_adapter, human=human, seed=seed, players=game.rules.players, parse_outcome=parse_roll,
                            chance_player=roll_owner, policy=greedy_policy, names=machines, machines=machines)
    if solo:  # the board also shows the corporation's last rolls, read from the game so far
        names = view.session.names
        view.adapter = replace(view.adapter, board=lambda state: vivajava_board(state, names, view.session.walkthrough))
    return view
