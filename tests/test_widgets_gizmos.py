"""The Gizmos decision walkthrough, driven through its callbacks as a user would."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from coffeegames.engine.explain import Sample
from coffeegames.errors import CoffeeGamesError
from coffeegames.gizmos import Card, Fire, Game, Marble, Phase, Pick, State, card_text, greedy_policy
from coffeegames.gizmos.advice import searched
from coffeegames.widgets.gizmos_game import draw_owner, gizmos_board, gizmos_walkthrough, outcome_hint, parse_outcome

RNG = np.random.default_rng(0)


def test_the_board_draws_every_card_and_marble_with_its_words() -> None:
    state = Game(players=3).new_initial_state(seed=2)
    (squares, labels), layout = gizmos_board(state, names=["Ann", "Bo", "Cy"])
    shown = list(squares.text)
    for level in state.display:
        for ident in level:
            assert str(ident) in shown
            assert any(card_text(state.rules.card(ident)) in h for h in squares.hovertext)
    for i in range(3):  # each player's starting gizmo
        assert str(state.players[i].built[0]) in shown
    text = " ".join(labels.text)
    assert "Ann" in text and "Cy" in text and f"({sum(state.dispenser)} marbles)" in text
    # read without hovering: a marble legend, and each display card's cost, points and effect in words
    assert "R red" in text and "U blue" in text and "K black" in text and "Y yellow" in text
    for level in state.display:
        for ident in level:
            card = state.rules.card(ident)
            assert any(f"cost {card.cost}" in t and card_text(card) in t for t in labels.text), ident
    assert layout["height"] > 300 and "Gizmos" in layout["title"]["text"]


def test_the_board_keeps_its_labels_and_squares_apart() -> None:
    """No two squares overlap, and the short left column of labels ends before the squares and labels beside it
    (the "gizmos" label once ran into a player's points line)."""
    state = Game(players=4).new_initial_state(seed=3)
    while len(state.players[0].built) < 3 and not state.is_terminal():  # some gizmos built: a full player row
        state = state.apply(state.sample_chance(RNG) if state.is_chance() else greedy_policy(state))
    for s in (Game(players=4).new_initial_state(seed=3), state):
        (squares, labels), layout = gizmos_board(s, names=["player 0 (you)", "Bo", "Cy", "Di"])
        cell = squares.marker.size[0]
        points = list(zip(squares.x, squares.y))
        for i, (x, y) in enumerate(points):
            assert all(abs(x - u) > cell or abs(y - v) > cell for u, v in points[i + 1:]), (x, y)
        left, first = min(labels.x), min(squares.x) - cell / 2  # the left column; where the squares begin
        width = 6  # pixels a character, at least, in the board's font
        for x, y, text in zip(labels.x, labels.y, labels.text):
            if x == left and y > min(squares.y) - cell:  # (the cards in words run below every square)
                assert left + width * len(re.sub("<[^>]+>", "", text)) < first, text
        rows = [(x, y) for x, y, text in zip(labels.x, labels.y, labels.text) if text == "gizmos"]
        assert len(rows) == 4
        for x, y in rows:  # the label ends before the row's first gizmo
            assert x + width * len("gizmos") < min(u for u, v in points if v == y) - cell / 2


FRACTION = re.compile(r"\d+\s*/\s*\d+")


def _text(markup: str) -> str:
    return html.unescape(re.sub("<[^>]+>", " ", markup))


def test_estimates_read_as_a_decimal_with_its_standard_error_and_playouts_never_as_a_fraction() -> None:
    view = gizmos_walkthrough(players=2, seed=4, playouts=40)
    advice = view.advice
    assert not any(row.exact for row in advice) and all(isinstance(row.sample, Sample) for row in advice)
    ran = searched(view.state, 40, 0, 2).playouts  # 40, doubled (same seed) while the best two were within the noise
    assert ran in (40, 80, 160) and sum(row.sample.size for row in advice if row.sample is not None) == ran
    first = advice[0]
    sample = first.sample
    worth = f"≈ {float(first.value):.2f} ± {sample.stderr:.2f} (an estimate from {sample.size} playouts)"
    # the summary, the list, the chart's labels and hover, the table: a decimal ± its standard error, with the playouts
    shown = {"summary": _text(view.summary.value), "list": " | ".join(label for label, _ in view.actions.options),
             "bars": " | ".join(view.chart_fig.data[1].text), "hover": " | ".join(view.chart_fig.data[0].customdata),
             "table": " | ".join(view.table().iloc[:, 0])}
    for where, text in shown.items():
        assert "±" in text and "playouts" in text and not FRACTION.search(text), (where, text)
    assert worth in shown["list"] and worth in shown["bars"] and worth in shown["table"]
    assert all(label.count("≈") == 1 for label, _ in view.actions.options)  # said once, in the value
    assert f"≈ {float(first.value):.2f} ± {sample.stderr:.2f}" in shown["summary"]
    # the why panel: the sample behind the estimate (size, mean, standard error, spread), no fraction, no sum of terms
    assert view.why is not None and view.why.chosen.sample is not None
    panel = _text(view.why_panel.value)
    assert not FRACTION.search(panel) and "±" in panel and "advised value" not in panel
    assert f"{sample.size} playouts" in panel and f"{float(first.value):.2f}" in panel and f"{sample.stderr:.2f}" in panel
    assert all(what in panel and much in panel for what, much in sample.spread)
    assert sum(int(much.split(" of ")[0]) for what, much in sample.spread if what.startswith("playouts that")) == sample.size
    assert "more than the runner-up" in view.why.difference and "±" in view.why.difference
    view.actions.value = 1  # the runner-up: the same, compared with the best
    panel = _text(view.why_panel.value)
    assert not FRACTION.search(panel) and "the best choice:" in panel and "±" in panel


def test_the_view_walks_a_chain_step_by_step_and_undo_restores() -> None:
    view = gizmos_walkthrough(players=2, seed=4, playouts=40)
    state = view.state
    assert state.phase == Phase.ACTION and view.session.persons_turn()
    labels = [row.label for row in view.advice]
    assert len(labels) == len(state.legal_actions()) and not any(row.exact for row in view.advice)
    assert not any("≈" in label for label in labels)  # the estimate's value says "≈", its label need not
    assert "estimate" in view.summary.value
    picks = [i for i, row in enumerate(view.advice) if isinstance(row.action, Pick)]
    view.actions.value = picks[0]
    chosen = view.advice[picks[0]].action
    before = len(view.session.walkthrough.moves)
    view.take_button.click()
    assert view.message.value == "" and view.session.walkthrough.moves[before] == chosen
    assert view.state.is_chance() and draw_owner(view.state) == 0, "the row's refill, drawn in the player's turn"
    view.chance_button.click()
    assert len(view.session.walkthrough.moves) == before + 2
    history = view.session.history()
    assert history[before] == ("player 0 (you)", str(chosen)) and "draw" in history[before + 1][0]
    view.undo_button.click()
    assert view.state.is_chance(), "undo goes back to the player's own draw first"
    view.undo_button.click()
    assert view.state == state


def test_a_typed_marble_or_card_is_the_outcome() -> None:
    view = gizmos_walkthrough(players=2, seed=1, playouts=10, dealt=False)
    state = view.state
    assert state.is_chance() and draw_owner(state) is None and "level-I card" in outcome_hint(state)
    ident = state.unseen(1)[5]
    view.outcome_text.value = f"#{ident}"
    view.outcome_button.click()
    assert view.message.value == "" and ident in view.state.display[0]
    view.outcome_text.value = "red"  # a card is drawn here, not a marble
    view.outcome_button.click()
    assert "a card is drawn here" in view.message.value
    view.outcome_text.value = "#50"  # a level-II card cannot come off the level-I deck
    view.outcome_button.click()
    assert "cannot be drawn" in view.message.value


def test_parse_outcome_refuses_what_cannot_be_drawn() -> None:
    s = Game().new_initial_state(seed=0)
    with pytest.raises(CoffeeGamesError, match="nothing is being drawn"):
        parse_outcome("red", s)
    pick = next(a for a in s.legal_actions() if isinstance(a, Pick))
    row = s.apply(pick)
    assert parse_outcome(" Blue ", row) == Marble("blue")
    with pytest.raises(CoffeeGamesError, match="a marble is drawn here"):
        parse_outcome("#4", row)
    research = s.apply(next(a for a in s.legal_actions() if type(a).__name__ == "Research"))
    assert parse_outcome(str(research.unseen(research.todo[0].level)[0]), research) == Card(research.unseen(research.todo[0].level)[0])


def test_bots_play_a_whole_game_and_fire_their_gizmos() -> None:
    view = gizmos_walkthrough(players=3, human=(), seed=3, playouts=5)
    view.bots_button.click()
    state: State = view.state
    assert state.is_terminal()
    fired = [m for m in view.session.walkthrough.moves if isinstance(m, Fire)]
    assert fired, "the greedy bots fire their gizmos"
    assert "Gizmos" in view.board_fig.layout.title.text
