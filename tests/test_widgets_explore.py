"""The explore app (``coffeegames.widgets.explore``), driven through its callbacks as the Run button and the controls
call them: first with a stand-in for ``coffeegames.analyse`` (what the widget asks and shows, counted by hand), then
with the real analysis on a few seeds."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import pytest

from coffeegames.errors import BadArgument, BadType, CoffeeGamesError
from coffeegames.widgets import Explorer, explore_view
from coffeegames.widgets.explore import QUESTIONS


class FakeReport:
    """Answers every question with a two-row table and a one-bar figure; ``asked`` lists the questions."""

    def __init__(self, name: str, seeds: int, refuse: str | None = None) -> None:
        self.name, self.seeds, self.refuse, self.asked = name, seeds, refuse, []

    def table(self, question: str) -> pd.DataFrame:
        if question == self.refuse:
            raise BadArgument("question", "cannot be asked of this stand-in", question)
        self.asked.append(question)
        return pd.DataFrame({"seat": [1, 2], "win_rate": [0.123456, 0.876544], "games": [self.seeds] * 2})

    def figure(self, question: str) -> go.Figure:
        return go.Figure([go.Bar(x=["seat 1"], y=[0.123456])], layout={"title": {"text": f"{self.name}: {question}"}})


class FakeAnalyse:
    """A stand-in for ``coffeegames.analyse``: records each call and returns a :class:`FakeReport`."""

    def __init__(self, refuse: str | None = None) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.reports: list[FakeReport] = []
        self.refuse = refuse

    def __call__(self, name: str, **kwargs: Any) -> FakeReport:
        self.calls.append((name, kwargs))
        self.reports.append(FakeReport(name, kwargs["seeds"], self.refuse))
        return self.reports[-1]


def test_run_asks_the_report_and_shows_its_table_and_figure() -> None:
    fake = FakeAnalyse()
    view = Explorer("gizmos", "fairness", 60, progress=False, analyse=fake)
    assert fake.calls == [] and view.answer is None  # nothing is played before Run
    view.button.click()  # the button's own callback
    assert fake.calls == [("gizmos", {"seeds": 60, "progress": False})]
    assert fake.reports[0].asked == ["fairness"]
    assert list(view.answer["win_rate"]) == [0.123456, 0.876544]  # the report's table, every digit
    assert "0.123" in view.table.value and "0.123456" not in view.table.value  # shown rounded
    assert view.fig.layout.title.text == "gizmos: fairness" and view.chart.fig is view.fig
    assert view.chart.outputs[0]["data"]["text/plain"] == "gizmos: fairness"
    assert not view.button.disabled and view.message.value == ""
    assert "95% interval" in view.status.value and "Gizmos" in view.status.value


def test_the_same_game_and_sample_reuse_their_report() -> None:
    fake = FakeAnalyse()
    view = Explorer("dairyman", "fairness", 40, progress=False, analyse=fake)
    view.run()
    view.question.value = "luck"
    assert "reused" in view.status.value  # the control's callback says the games are kept
    view.run()
    assert len(fake.calls) == 1 and fake.reports[0].asked == ["fairness", "luck"]
    view.seeds.value = 80
    assert "reused" not in view.status.value
    view.run()
    view.game.value = "rush"
    view.run()
    assert [(name, kw["seeds"]) for name, kw in fake.calls] == [("dairyman", 40), ("dairyman", 80), ("rush", 80)]
    assert set(view.reports) == {("dairyman", 40), ("dairyman", 80), ("rush", 80)}


def test_a_refused_question_shows_its_message_and_keeps_the_last_answer() -> None:
    fake = FakeAnalyse(refuse="options")
    view = Explorer("vivajava", "fairness", 20, progress=False, analyse=fake)
    view.run()
    shown, fig = view.table.value, view.fig
    view.question.value = "options"
    view.run()
    assert "cannot be asked" in view.message.value and "⚠" in view.message.value
    assert view.table.value == shown and view.fig is fig and list(view.answer["games"]) == [20, 20]
    assert not view.button.disabled  # Run works again after a refusal
    view.question.value = "shape"
    view.run()
    assert view.message.value == "" and fake.reports[0].asked == ["fairness", "shape"]


def test_a_bug_in_the_analysis_raises_and_frees_the_button() -> None:
    def broken(name: str, **kwargs: Any) -> Any:
        raise ZeroDivisionError("a bug")

    view = Explorer("roaster", "shape", 20, progress=False, analyse=broken)
    with pytest.raises(ZeroDivisionError):
        view.run()
    assert not view.button.disabled


@pytest.mark.parametrize("kwargs, where", [
    ({"game": "chess"}, "game"), ({"question": "who wins"}, "question"), ({"seeds": 0}, "seeds"),
    ({"seeds": 10_000}, "seeds"), ({"seeds": True}, "seeds"), ({"seeds": 2.5}, "seeds"), ({"game": ["rush"]}, "game"),
    ({"progress": "yes"}, "progress"),
])
def test_bad_arguments_are_refused_by_name(kwargs: dict[str, Any], where: str) -> None:
    with pytest.raises(CoffeeGamesError) as refused:
        explore_view(**kwargs)
    assert where in str(refused.value) and len(str(refused.value)) < 300


def test_a_stand_in_analysis_must_be_callable() -> None:
    with pytest.raises(BadType, match="analyse"):
        Explorer(analyse="coffeegames.analyse")  # type: ignore[arg-type]


def test_every_question_has_words_and_every_game_is_offered() -> None:
    import coffeegames
    from coffeegames.analyse.report import QUESTIONS as ASKED

    assert tuple(QUESTIONS) == ASKED  # the report's questions, in its order

    view = explore_view()
    assert [value for _, value in view.question.options] == list(QUESTIONS)
    assert [value for _, value in view.game.options] == list(coffeegames.games())
    assert view.widget.children  # it displays as its box


@pytest.mark.parametrize("question", ["fairness", "shape"])
def test_the_real_analysis_answers_in_the_widget(question: str) -> None:
    """Coffee Roaster (solo, quick) over a few seeds: the widget shows what the report itself answers."""
    from coffeegames import analyse
    view = explore_view("roaster", question, 10, progress=False)
    view.run()
    direct = analyse("roaster", seeds=10, progress=False).table(question)
    pd.testing.assert_frame_equal(view.answer, direct)
    assert view.message.value == "" and len(view.fig.data) >= 1
    assert all(trace.error_y.array is not None for trace in view.fig.data)  # every value drawn with its interval
