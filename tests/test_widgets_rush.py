"""The Coffee Rush decision view, driven through its callbacks as a user would; advice and bots."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import numpy as np
import pytest

from coffeegames.engine import advice_frame
from coffeegames import rush
from coffeegames.errors import BadArgument, BadType, IllegalAction
from coffeegames.rush import Drawn, Move, Phase, Place
from coffeegames.widgets.charts import HIGHLIGHT
from coffeegames.widgets.decision import STAR
from coffeegames.widgets.rush_game import (CELL, LEFT, PANEL_LETTERS, RUNNER_UP, best_two, cell_text, deal_owner, outcome_hint,
                                           parse_order, rush_board, rush_walkthrough)


def shown(widget: object) -> str:
    return html.unescape(widget.value)  # type: ignore[attr-defined]


def at_first_move(players: int = 3) -> object:
    """A walkthrough with every player human, dealt and placed: player 0 to move."""
    view = rush_walkthrough(players=players, human=tuple(range(players)), seed=3)
    while view.state.is_chance():
        view.chance_button.click()
    while view.state.phase == Phase.PLACE:
        view.take_button.click()
    assert view.state.phase == Phase.MOVE and view.message.value == ""
    return view


def test_a_typed_order_is_dealt_and_a_bad_one_changes_nothing() -> None:
    view = rush_walkthrough(players=3, seed=0)
    assert deal_owner(view.state) == 0 and "player 0" in view.outcome_text.placeholder
    view.outcome_text.value = "milk + coffee"
    view.outcome_button.click()
    assert view.message.value == "" and view.session.walkthrough.moves[-1] == Drawn("coffee+milk")
    before, moves = view.state, len(view.session.walkthrough.moves)
    for text, says in [("milk", "2-4 ingredients"), ("milk sugar", "'sugar' is not an ingredient"),
                       ("tea tea", "no such card left")]:
        view.outcome_text.value = text
        view.outcome_button.click()
        assert "⚠" in shown(view.message) and says in shown(view.message)
        assert view.state == before and len(view.session.walkthrough.moves) == moves
    assert outcome_hint(view.state).startswith("the order card drawn for player 0")
    with pytest.raises(IllegalAction):
        parse_order("coffee milk", at_first_move().state)


def test_the_chart_shows_every_choice_best_first_with_its_exact_value() -> None:
    view = at_first_move()
    frame = advice_frame(rush.advise(view.state))
    assert len(frame) == len(view.state.legal_actions())
    assert all(isinstance(v, Fraction) for v in frame["value"])
    bars, _ = view.chart_fig.data
    assert bars.x[0] == max(float(v) for v in frame["value"]) and bars.y[0].startswith(STAR)
    assert list(bars.marker.color)[0] == HIGHLIGHT
    best = view.advice[0]
    assert best.value == rush.best_plan(view.state).value
    assert isinstance(best.action, Move) and "score change this turn" in view.summary.value


def test_taking_the_steps_of_a_turn_and_undo() -> None:
    view = at_first_move()
    before = view.state
    view.take_button.click()  # the best move
    assert view.state.phase in (Phase.EMPTY, Phase.POUR) and view.state.collected
    while view.state.player == 0 and view.state.phase in (Phase.EMPTY, Phase.POUR, Phase.COMPLETE):
        view.take_button.click()
    assert view.message.value == ""
    assert view.state.is_chance() or view.state.player == 1
    view.undo_button.click()
    assert view.state.player == 0
    while view.session.walkthrough.moves and view.state != before:
        view.undo_button.click()
    assert view.state == before


SHORT_DECK = {"orders": [{"needs": ["coffee", "milk"], "cards": 6}, {"needs": ["ice", "tea"], "cards": 4},
                         {"needs": ["coffee", "ice", "steam"], "cards": 4}]}


def test_bots_play_to_the_end() -> None:
    view = rush_walkthrough(players=2, human=(), seed=2, orders=SHORT_DECK)  # 14 cards: a short game
    view.bots_button.click()
    assert view.state.is_terminal() and view.message.value == ""
    assert "over" in view.board_fig.layout.title.text


def test_the_board_draws_the_grid_meeples_players_and_a_path() -> None:
    s = at_first_move().state
    traces, layout = rush_board(s)
    cells, meeples, labels = traces
    assert len(cells.x) == 16 and list(cells.text) == [cell_text(i) for i in s.rules.board.spaces]
    assert "chocolate" in cells.text and "caramel" in cells.text  # whole names, not "choc", "cara"
    assert len(meeples.x) == 3 and not layout["annotations"]
    text = " ".join(labels.text)
    assert "player 2" in text and f"deck {s.deck_left} cards" in text
    move, other = s.legal_actions()[-1], s.legal_actions()[0]
    traces, with_path = rush_board(s, move, other, ["mine", "yours"])
    assert [a["arrowcolor"] for a in with_path["annotations"]] == [HIGHLIGHT] * len(move.path) + [RUNNER_UP] * len(other.path)
    assert [t.name for t in traces[3:]] == ["path: mine", "path: yours"]
    assert sorted(traces[3].text) == sorted(str(i + 1) for i in range(len(move.path)))
    key = " ".join(traces[2].text)
    assert "<b>mine</b>: move " in key and "meeple" not in key and "<b>yours</b>" in key


def test_long_tabs_wrap_within_the_board_and_every_order_is_shown() -> None:
    """A player with several orders on each tab: their line would run off the board's right edge (clipped where a
    page is narrower), so the panel wraps at a word and the panels below move down."""
    s, rng, longest = rush.Game(players=3).new_initial_state(seed=4), np.random.default_rng(4), 0
    while longest <= PANEL_LETTERS + 20:  # play on until some player's tabs, on one line, are far too long
        s = s.apply(s.sample_chance(rng) if s.is_chance() else rush.greedy_policy(s))
        longest = max(len("tabs " + "   ".join(f"{t + 1} " + " ".join(tab) for t, tab in enumerate(p.tabs))) for p in s.players)
    traces, layout = rush_board(s)
    labels = traces[2]
    beside = [(y, re.sub("<[^>]+>", "", html.unescape(t))) for x, y, t in zip(labels.x, labels.y, labels.text)
              if x > LEFT + s.rules.board.cols * CELL]  # the players' panels
    assert all(len(line) <= PANEL_LETTERS or " " not in line.strip() for _, line in beside)
    shown_text = " ".join(line for _, line in beside)
    for p in s.players:
        for tab in p.tabs:
            assert all(order in shown_text for order in tab)
    heights = [y for y, _ in beside]
    assert len(set(heights)) == len(heights) and 0 < min(heights) and max(heights) < layout["yaxis"]["range"][1]


def test_a_long_ingredient_name_is_shown_whole_on_lines() -> None:
    assert cell_text("chocolate") == "chocolate"
    assert cell_text("tea leaves") == "tea<br>leaves"
    assert cell_text("pumpkin_spice") == "pumpkin<br>spice"
    assert cell_text("marshmallowcream").replace("-<br>", "") == "marshmallowcream"


def test_the_walkthrough_draws_the_best_moves_of_its_list_on_the_board() -> None:
    view = at_first_move()
    first, second = view.advice[0].action, view.advice[1].action
    assert [move for move, _ in best_two(view.state)] == [first, second]
    arrows = view.board_fig.layout.annotations
    assert [a.arrowcolor for a in arrows] == [HIGHLIGHT] * len(first.path) + [RUNNER_UP] * len(second.path)
    key = " ".join(view.board_fig.data[2].text)
    value = view.advice[0].value
    assert f"best move ({'+' if value > 0 else ''}{value} this turn)" in key and "runner-up" in key
    view.take_button.click()  # the best move: now the pour, no path drawn
    assert view.state.phase in (Phase.EMPTY, Phase.POUR) and not view.board_fig.layout.annotations
    assert best_two(view.state) == [] and best_two(rush.Game(players=2).new_initial_state()) == []


def test_the_board_refuses_a_move_that_is_not_legal_here() -> None:
    s = at_first_move().state
    with pytest.raises(BadArgument, match="move"):
        rush_board(s, Move(0, (15,), 0))
    with pytest.raises(BadType, match="runner_up"):
        rush_board(s, None, "a1")  # type: ignore[arg-type]
    with pytest.raises(BadType, match="legend"):
        rush_board(s, legend="best")


def test_advice_at_setup_and_at_the_pour() -> None:
    s = rush.Game(players=2).new_initial_state(seed=0)
    table = advice_frame(rush.advise(s))
    assert set(table["action"]) == set(s.legal_actions()) and table["value"].isna().all()
    while s.phase == Phase.PLACE:
        s = s.apply(Place(next(a.space for a in s.legal_actions())))
    s = s.apply(rush.best_plan(s).actions[0])
    if s.phase == Phase.EMPTY:
        s = s.apply(rush.best_plan(s).actions[0])
    table = advice_frame(rush.advise(s))
    assert len(table) == len(s.legal_actions())  # every pour valued on its own
    assert table["value"].iat[0] == rush.best_plan(s).value


@pytest.mark.parametrize("policy", [rush.greedy_policy, rush.lookahead_policy, rush.random_policy(0)])
def test_bots_choose_legal_actions(policy: object) -> None:
    s = rush.Game(players=3).new_initial_state(seed=4)
    for _ in range(12):
        while s.is_chance():
            s = s.apply(s.chance_outcomes()[0][0])
        action = policy(s)  # type: ignore[operator]
        assert action in s.legal_actions()
        s = s.apply(action)


def test_the_next_turn_estimate_is_seeded_and_agrees_with_its_samples() -> None:
    s = rush.Game(players=2).new_initial_state(seed=3)
    while s.phase == Phase.PLACE:
        s = s.apply(s.legal_actions()[0])
    plan = rush.best_plan(s)
    one = rush.next_turn_estimate(s, plan, samples=5, seed=1, opponent=rush.random_policy(0))
    again = rush.next_turn_estimate(s, plan, samples=5, seed=1, opponent=rush.random_policy(0))
    assert one == again and one.samples == 5
    assert one.mean == Fraction(sum(one.values), 5)
    assert "estimate" in str(one)
    with pytest.raises(BadArgument):
        rush.next_turn_estimate(s, plan, samples=0)
