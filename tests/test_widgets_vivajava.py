"""The VivaJava widgets, driven through their callbacks as a user would."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from coffeegames.engine import advice_frame
from coffeegames import vivajava
from coffeegames.errors import BadArgument
from coffeegames.vivajava import COLOURS, NO_BLEND, Blend, Featured, Rolled, advise, corporation_chance
from coffeegames.widgets.charts import BASE, HIGHLIGHT, StaticPlot, fraction_text, percent
from coffeegames.widgets.decision import STAR
from coffeegames.widgets.vivajava_game import (METER_LETTERS, outcome_example, outcome_hint, parse_roll, roll_owner, vivajava_board,
                                               vivajava_walkthrough)
from coffeegames.widgets.vivajava_odds import BEAN_COLOURS, FADED, BlendExplorer, MeterTable

FIRST_ROLL = "red red red green black"
ROLLED = Rolled(white=("red", "red", "red", "green", "black"))


def shown(widget: object) -> str:
    """What an HTML widget shows, as plain text."""
    return html.unescape(widget.value)


def table_rows(text: str) -> list[list[str]]:
    body = re.search(r"<tbody>(.*)</tbody>", text, re.S)
    assert body is not None, text
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body.group(1))]


# -- BlendExplorer -------------------------------------------------------------------------


@pytest.mark.parametrize(("coffee", "flavour"), [(5, 0), (0, 3), (2, 1), (10, 5), (0, 0), (1, 0)])
def test_sliders_redraw_the_exact_best_blend_distribution(coffee: int, flavour: int) -> None:
    explorer = BlendExplorer(coffee_dice=3, flavour=2)
    explorer.coffee_dice.value, explorer.flavour.value = coffee, flavour
    best = vivajava.best_blend(coffee, flavour)
    bars = explorer.fig.data
    assert [t.name for t in bars] == list(COLOURS) + ["no blend"]
    for rank, trace in enumerate(bars[:-1], start=1):
        assert list(trace.y) == [0.0] + [float(best[Blend(size, rank)]) for size in (2, 3, 4, 5)]
        assert trace.marker.color == BEAN_COLOURS[COLOURS[rank - 1]]
        for size, text in zip((2, 3, 4, 5), trace.customdata[1:]):
            assert text.startswith(f"{Blend(size, rank)}: {fraction_text(best[Blend(size, rank)])}")
    assert list(bars[-1].y) == [float(best[NO_BLEND]), 0.0, 0.0, 0.0, 0.0]
    assert sum(sum(t.y) for t in bars) == pytest.approx(1.0)
    assert explorer.distribution == best and explorer.p_rainbow == vivajava.p_rainbow(coffee, flavour)
    assert fraction_text(vivajava.p_rainbow(coffee, flavour)) in explorer.result.value
    assert f"{coffee} coffee + {flavour} flavour dice" in explorer.result.value and "white" not in explorer.result.value


@pytest.mark.parametrize(("size", "colour"), [(2, "white"), (3, "red"), (4, "black"), (5, "green")])
def test_the_beat_picker_states_p_beats_and_highlights_the_beaters(size: int, colour: str) -> None:
    explorer = BlendExplorer(coffee_dice=5, flavour=1)
    explorer.size.value, explorer.colour.value = size, colour
    target = Blend.of(size, colour)
    assert explorer.p_beat == vivajava.p_beats(target, coffee_dice=5, flavour=1)
    assert fraction_text(explorer.p_beat) in explorer.result.value and str(target) in explorer.fig.layout.title.text
    for rank, trace in enumerate(explorer.fig.data[:-1], start=1):
        for s, opacity, line in zip((2, 3, 4, 5), trace.marker.opacity[1:], trace.marker.line.color[1:]):
            assert opacity == (1.0 if Blend(s, rank) > target else FADED)
            assert (line == HIGHLIGHT) == (Blend(s, rank) == target)


def test_the_explorers_old_keywords_white_and_coffee_still_work_with_a_warning() -> None:
    new = BlendExplorer(coffee_dice=4, flavour=1, size=2, colour="green")
    for old in ("white", "coffee"):
        with pytest.warns(DeprecationWarning, match=f"BlendExplorer\\({old}=...\\) is deprecated: say coffee_dice"):
            explorer = BlendExplorer(**{old: 4}, flavour=1, size=2, colour="green")  # type: ignore[arg-type]
        assert (explorer.distribution, explorer.p_beat, explorer.p_rainbow) == (new.distribution, new.p_beat, new.p_rainbow)
        assert explorer.result.value == new.result.value
        with pytest.raises(BadArgument, match=f"argument '{old}': is the old name of 'coffee_dice'"):
            BlendExplorer(3, **{old: 4})  # type: ignore[arg-type]
    with pytest.warns(DeprecationWarning, match="BlendExplorer.white is deprecated"):
        assert new.white is new.coffee_dice
    assert new.coffee_dice.description == "coffee dice"


def test_the_explorer_is_a_static_plot_of_its_traces() -> None:
    """A plain plot in an Output (no FigureWidget: a page of several froze in a browser), redrawn on a change."""
    explorer = BlendExplorer()
    assert isinstance(explorer.chart, StaticPlot) and explorer.chart in explorer.widget.children
    (sent,) = explorer.chart.outputs
    assert len(sent["data"]["application/vnd.plotly.v1+json"]["data"]) == len(explorer.fig.data) == 7
    explorer.flavour.value = 2
    assert explorer.chart.outputs[0] != sent and "flavour" in explorer.chart.outputs[0]["data"]["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in explorer._repr_mimebundle_()


def test_the_notebooks_meter_table_and_the_command_lines_say_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from coffeegames.cli import main

    main(["vivajava", "meter", "--json"])
    cli = json.loads(capsys.readouterr().out)
    main(["vivajava", "meter"])
    text = capsys.readouterr().out
    meter = MeterTable()
    assert [row["meter"] for row in cli["rows"]] == list(meter.table.index) == list(range(7))  # the same levels
    assert list(cli["rows"][0]) == ["meter", *meter.table.columns] == list(cli["columns"])  # the same columns
    headers = [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", meter.widget.value)]
    assert headers == list(cli["columns"].values()) and all(words in text for words in headers)  # the same words
    for row in cli["rows"]:
        for column, p in meter.table.loc[row["meter"]].items():
            assert Fraction(row[column]["fraction"]) == p


def test_meter_table_lists_both_corporations_exact_odds() -> None:
    meter = MeterTable()
    rows = table_rows(meter.widget.value)
    exact = vivajava.meter_table(range(0, 7))
    assert [int(r[0]) for r in rows] == list(range(7))
    for row, (m, p) in zip(rows, exact.iterrows()):
        assert row[1] == f"{p['p_omniblend']} ({percent(p['p_omniblend'])})"  # the whole fraction, however long
        sacchar = vivajava.sacchar_success(min(m, 5))  # 5 flavour dice at most
        assert row[3].endswith(f"{sacchar} ({percent(sacchar)})") and ("only 5 flavour" in row[3]) == (m > 5)
    assert meter.table.loc[1, "p_omniblend_takes_rainbow"] == Fraction(169, 324)
    assert "stand-in data" in meter.widget.value and "yellow 1" in meter.widget.value
    assert "application/vnd.jupyter.widget-view+json" in meter._repr_mimebundle_()


# -- typed rolls ---------------------------------------------------------------------------


def solo_view(solo: str = "omniblend", **kwargs: object) -> object:
    view = vivajava_walkthrough(solo=solo, meter="yellow", seed=1, **kwargs)
    view.outcome_text.value = "0"  # you start (the first player is drawn)
    view.outcome_button.click()
    return view


def test_a_typed_roll_applies_the_rolled_outcome() -> None:
    view = solo_view()
    assert roll_owner(view.state) == 0 and "5 coffee dice" in view.outcome_text.placeholder
    view.outcome_text.value = FIRST_ROLL
    view.outcome_button.click()
    assert view.message.value == "" and view.session.walkthrough.moves[-1] == ROLLED and view.outcome_text.value == ""
    assert view.session.history()[-1] == ("chance · player 0 (you)'s roll", "rolled red red red green black")
    assert view.state.phase == "act"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("red red green joker white", "the joker is only on flavour dice"),
        ("red red green", "type 5 colours (you typed 3)"),
        ("red red green white purple", "'purple' is not a face of a coffee die"),
        ("red red green white black | joker", "unexpected part"),
        ("", "type the dice rolled: 5 coffee dice"),
    ],
)
def test_a_bad_roll_shows_an_error_and_changes_nothing(text: str, says: str) -> None:
    view = solo_view()
    before, moves = view.state, len(view.session.walkthrough.moves)
    view.outcome_text.value = text
    view.outcome_button.click()
    assert "⚠" in shown(view.message) and says in shown(view.message)
    assert view.state == before and len(view.session.walkthrough.moves) == moves
    view.outcome_text.value = FIRST_ROLL
    view.outcome_button.click()
    assert view.message.value == "" and view.session.walkthrough.moves[-1] == ROLLED


def test_flavour_and_offered_dice_are_typed_after_bars() -> None:
    state = vivajava.Game(players=3).new_initial_state()
    state = state.apply(vivajava.SetupResearch("green")).apply(vivajava.SetupResearch("green"))
    players = list(state.players)
    players[0] = vivajava.PlayerState()  # their 2 flavour dice are rolling
    players[2] = vivajava.PlayerState(flavour=1, research=players[2].research)
    state = replace(state, players=tuple(players), flavour_coaster=2, rolling_own=2, rolling_offered=((2, 1),)).check()
    hint = outcome_hint(state)
    assert "| 2 flavour dice" in hint and "| 2: player 2's 1 flavour dice" in hint
    assert hint.endswith(f"e.g. {outcome_example(state)}") and parse_roll(outcome_example(state), state).offered[0][0] == 2
    outcome = parse_roll("red red green white black | joker green | 2: yellow", state)
    assert outcome == Rolled(("red", "red", "green", "white", "black"), ("joker", "green"), ((2, ("yellow",)),))
    with pytest.raises(ValueError, match="no black face"):
        parse_roll("red red green white black | joker black | 2: yellow", state)
    with pytest.raises(ValueError, match="player 2: 1"):
        parse_roll("red red green white black | joker green", state)
    with pytest.raises(ValueError, match="type them after a"):
        parse_roll("red red green white black | 2: yellow", state)


# -- the walkthrough -----------------------------------------------------------------------


def at_first_decision(solo: str = "omniblend") -> object:
    view = solo_view(solo)
    view.outcome_text.value = FIRST_ROLL
    view.outcome_button.click()
    return view


@pytest.mark.parametrize("solo", ["omniblend", "sacchar"])
def test_the_chart_shows_every_choice_with_its_exact_value_and_risk(solo: str) -> None:
    view = at_first_decision(solo)
    frame = advice_frame(advise(view.state))
    valued = sorted(frame["value"], reverse=True)
    bars, labels = view.chart_fig.data
    assert list(bars.x) == [float(v) for v in valued]
    assert list(bars.marker.color) == [HIGHLIGHT] + [BASE] * (len(valued) - 1) and bars.y[0].startswith(STAR)
    best = view.advice[0]
    assert best.action == Featured("red", 3) and best.risk is not None and best.value is not None
    assert labels.text[0].endswith(f"lost {percent(best.risk)}")
    assert best.risk == 1 - (best.value - 1) / 2
    assert str(best.value) in view.summary.value and "chance of losing it" in view.summary.value
    assert "chance of losing it before your next turn" in bars.customdata[0]


def test_taking_an_action_advances_and_undo_restores() -> None:
    view = at_first_decision()
    before, moves = view.state, list(view.session.walkthrough.moves)
    view.actions.value = 1  # not the best: a Decaf red
    chosen = view.advice[1].action
    view.take_button.click()
    assert view.message.value == "" and view.session.walkthrough.moves[len(moves)] == chosen
    assert view.session.history()[len(moves)] == ("player 0 (you)", str(chosen))
    assert view.state.turn == 1 and view.state.is_chance()  # the corporation rolls next
    assert "re-rolls up to 1 time" in " ".join(view.board_fig.data[2].text)
    view.undo_button.click()
    assert view.state == before and view.session.walkthrough.moves == moves


def test_the_board_shows_the_meter_and_the_corporations_exact_odds() -> None:
    view = at_first_decision()
    labels = " ".join(view.board_fig.data[2].text)
    assert f"<b>{fraction_text(corporation_chance(view.state))}</b>" in labels
    cells = view.board_fig.data[1]
    now = [t for t, edge in zip(cells.text, cells.marker.line.color) if edge == HIGHLIGHT and t]
    assert now == [str(view.state.meter_shows)]
    dice = view.board_fig.data[0]
    assert list(dice.marker.color) == [BEAN_COLOURS[f] for f in view.state.white]
    view.take_button.click()  # the Regular red goes on the coaster; the corporation must now beat it
    labels = " ".join(view.board_fig.data[2].text)
    assert "beating player 0 (you)'s Regular red" in labels and "<b>Regular red</b>" in labels
    assert list(view.board_fig.data[0].marker.color)[:3] == [BEAN_COLOURS["red"]] * 3


def test_the_meter_sentence_wraps_within_the_board_and_keeps_the_chance() -> None:
    """The corporation's sentence beside the METER, with a Featured Blend to beat held by a long-named player, would
    run off the board's right edge, hiding the chance: it wraps, and the players' rows move down when it needs more
    than the row's two lines."""
    view = at_first_decision()
    view.take_button.click()  # a Featured Blend for the corporation to beat
    state, chance = view.state, f"<b>{fraction_text(corporation_chance(view.state))}</b>"
    for name, lines in [("player 0 (you)", 2), ("Alexandra, head roaster of the Tuesday evening coffee club", 3)]:
        traces, layout = vivajava_board(state, [name, "OmniBlend TransGlobal"])
        labels = traces[2]
        sentence = next(t for t in labels.text if "next roll makes" in t)
        shown_lines = [re.sub("<[^>]+>", "", html.unescape(line)) for line in sentence.split("<br>")]
        assert len(shown_lines) == lines and all(len(line) <= METER_LETTERS for line in shown_lines)
        assert chance in sentence and name in " ".join(line.strip() for line in shown_lines)
        meter_y = labels.y[list(labels.text).index(sentence)]
        below = [y for y, t in zip(labels.y, labels.text) if t in ("white", "tokens · flavour dice")]  # the players' header
        assert below and max(below) < meter_y - 8 * lines - 6  # under the sentence's last line (13 px letters)


@pytest.mark.parametrize("solo", ["omniblend", "sacchar"])
def test_a_solo_game_with_bots_plays_to_the_end(solo: str) -> None:
    view = vivajava_walkthrough(solo=solo, meter="red", human=(), seed=3)
    view.bots_button.click()
    assert view.state.is_terminal() and "Game over" in view.status.value
    winner = view.state.players[view.state.winner].pp
    assert f"wins with {winner} PP" in html.unescape(view.status.value)  # PP, as the board shows, not the 1/0 payoff
    assert html.unescape(view.status.value) == f"<b>{view.board_fig.layout.title.text}</b>"
    view.undo_button.click()
    assert not view.state.is_terminal() and not view.state.is_chance()
    assert list(view.chart_fig.data[0].x) == [float(v) for v in sorted(advice_frame(advise(view.state))["value"], reverse=True)][: view.max_bars]


def test_a_multiplayer_game_the_board_keeps_its_three_traces() -> None:
    view = vivajava_walkthrough(players=4, human=(), seed=5)
    walk = view.session.walkthrough
    walk.run(lambda s: view.session.bots[s.current_player()](s))
    assert walk.state.is_terminal()
    for state in walk.states[:: max(1, len(walk.states) // 40)] + [walk.state]:
        traces, layout = vivajava_board(state, view.session.names)
        assert [t.name for t in traces] == ["dice", "cells", "labels"] and layout["height"] > 0
        assert len(traces[0].x) == len(traces[0].marker.color)


def test_humans_are_checked() -> None:
    with pytest.raises(ValueError, match="player 1 plays itself"):
        vivajava_walkthrough(solo="sacchar", human=(1,))
    with pytest.raises(ValueError, match="players 0-2"):
        vivajava_walkthrough(players=3, human=(3,))


def test_the_outcome_box_asks_who_starts_then_for_dice() -> None:
    view = vivajava_walkthrough(solo="omniblend", meter="yellow", seed=1)
    assert view.outcome_button.description == "Enter who starts" and "enter who starts" in view.status.value
    view.outcome_text.value = "0"
    view.outcome_button.click()
    assert view.outcome_button.description == "Enter the dice you rolled"


def test_the_board_shows_omniblends_rolls_even_when_they_made_nothing() -> None:
    """Issue 27: after OmniBlend's failed re-rolls the position is as before; the board shows each roll."""
    from coffeegames.vivajava import Research

    view = vivajava_walkthrough(solo="omniblend", meter="yellow", solo_first="you", seed=1)
    walk = view.session.walkthrough
    walk.step(Rolled(("red", "red", "green", "white", "black"))).step(Research("red"))
    before = view.adapter.board(walk.state)
    walk.step(Rolled(("red", "red", "white", "yellow", "black")))  # no blend: keeps the reds, one re-roll (METER 1)
    walk.step(Rolled(("green", "brown", "black")))  # still none: the METER goes up, your turn again
    assert walk.state.turn == 0 and walk.state.white == () and walk.state.featured_by == -1
    traces, _ = view.adapter.board(walk.state)
    dice = [text for text in traces[0].hovertext if "OmniBlend" in text]
    assert dice == [f"OmniBlend TransGlobal, first roll: {f}" for f in ("white", "yellow", "red", "red", "black")] + [
        f"OmniBlend TransGlobal, re-roll 1: {f}" for f in ("red", "red", "brown", "green", "black")]  # the kept dice first
    assert any("no blend: the METER goes up" in text for text in traces[2].text)
    assert not any("first roll" in text for text in before[0][0].hovertext)  # nothing before its first turn
    # a roll that makes a blend says so
    walk.step(Rolled(("white", "yellow", "brown", "black", "black"))).step(Research("yellow"))
    walk.step(Rolled(("green", "green", "green", "red", "white")))
    traces, _ = view.adapter.board(walk.state)
    assert [t for t in traces[0].hovertext if "OmniBlend" in t] == [
        f"OmniBlend TransGlobal, first roll: {f}" for f in ("white", "red", "green", "green", "green")]
    assert any("a Featured Blend: Regular green" in text for text in traces[2].text)
