"""The notebooks as a learner sees them: Voilà, a real headless Chromium, real clicks.

What it checks (``python -m pytest -m browser`` runs only this file):

* every notebook in ``notebooks/`` renders under Voilà with no widget error on the page
  ("Error displaying widget", "model not found", "Failed to initialize model", a Python
  traceback), and no link on the start page leads to an error page;
* the page's widget manager, asked for a model it does not hold yet, says so at once
  instead of polling for it against a fixed deadline: an output drawn before the manager
  has the kernel's models then waits for them however busy the machine (issue 27);
* the explore app answers a question: a game and a question picked, Run pressed, the
  analysis report's table and its bars with intervals appear;
* every walkthrough (a :class:`~coffeegames.widgets.DecisionView`) is clicked through
  more than a dozen moves (taking the best or the second choice, letting chance roll,
  one typed companion-mode entry, one undo), loaded several times. After each click the
  texts must show the new state *and* the board and the chart must show it too: their
  plotly data (``_fullData`` / ``_fullLayout`` of the ``.js-plotly-plot`` inside
  ``.cg-board`` and ``.cg-chart``, whether a live figure or a static plot) are compared
  with what the same moves give in this process (same notebook cell, same seed). A view
  whose figure stops redrawing fails here, whatever its texts say;
* no output on a walkthrough page still shows an earlier position, after each move and
  after **New game** (a new seed typed, then a few more moves): the view's status, moves,
  summary and "why this value?" panel, and every notebook output that follows the view
  (a later cell that uses ``game`` and shows a widget: Gizmos' latest turn as a chain,
  Rush's best plans, Roaster's numbers behind the bars) show what the position needs,
  worked out afresh in this process after the same moves: a new view of the same game, and
  each such cell's own drawing function called again (the notebook's cells run here, print
  and display in an Output widget caught). A later cell that uses ``game`` but shows no widget is a snapshot: the
  Markdown cell before it must say "snapshot", else the test fails.

Every wait is for a condition (Voilà done, widgets drawn, the texts showing the move, the
plots showing it: read again until they match), with a generous limit for a busy machine;
no fixed pause.

It needs Debian's ``chromium`` (``apt-get install chromium``; no ``playwright install``)
and the Python driver and Voilà (``pip install -e '.[test]'``). Without them it is
skipped with that message, unless ``CI=true``: then a missing browser is a failure.
Screenshots of failures go to ``test-artifacts/browser/`` (git ignores it).
Environment: ``CG_CHROMIUM`` (the browser, default ``/usr/bin/chromium``),
``CG_BROWSER_LOADS`` (loads per walkthrough, default 2).
"""

from __future__ import annotations

import html
import json
import os
import re
import ast
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]  # one worker: one Voilà server and browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
WALKTHROUGHS = ["dairyman_walkthrough.ipynb", "vivajava.ipynb", "roaster.ipynb", "gizmos.ipynb", "rush.ipynb"]
LOADS = int(os.environ.get("CG_BROWSER_LOADS", "2"))
CLICKS = 14  # per load: at least a dozen decisions, one of them typed, one an undo
MORE_CLICKS = {"rush.ipynb": 24}
"""Walkthroughs clicked longer: the Coffee Rush page opens at your first move (its notebook skips the setup), and
the orders you draw yourself, typed once, come only after a round of moves, pours and the bots' deals."""
CHROMIUM = os.environ.get("CG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
INSTALL = ("install Debian's browser (`apt-get install chromium`) and the driver and Voilà "
           "(`pip install -e '.[test]'`); do not run `playwright install`")
ERRORS = ["Error displaying widget", "model not found", "Failed to initialize model", "Traceback (most recent call last)"]
"""Never on a page, nor (checked last) in its console: "Error displaying widget: model not found" is issue 27 (an output
giving up on its widget model while the page is busy: :func:`test_an_output_waits_for_its_model_without_deadline`)."""
RENDER_TIMEOUT = 240.0  # s, a page's cells run in the kernel (slow on a loaded 2-core machine)
WIDGET_TIMEOUT = 120.0  # s, from the notebook having run to every widget drawn
AFTER_FAILURE = 4  # clicks made after a plot was first wrong, to tell a lost update from a plot that stopped redrawing
TEXT_TIMEOUT = 120.0  # s, limit from a click to the texts showing the move (the kernel computes the advice)
PLOT_TIMEOUT = 60.0  # s, limit from the texts to the plots: updated in the same kernel callback, drawn by the browser
NEW_SEED = 5  # typed before New game: a game other than the notebook's
AFTER_NEW_GAME = 3  # moves made after New game


# -- what the page must show: computed here, from the notebook's own cells -----------------------------

def _text(markup: str) -> str:
    """HTML as the browser's innerText shows it, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def _flat(markup: str) -> str:
    """HTML as the browser shows it, its <style> blocks dropped, with no whitespace at all (innerText puts tabs and
    line breaks where HTML had tags: the letters are what must match).

    >>> _flat("<style>td {x: 1}</style><b>Best</b>: roll, <i>worth</i>&nbsp;3")
    'Best:roll,worth3'
    """
    shown = re.sub(r"<style[^>]*>.*?</style>", "", markup, flags=re.S | re.I)
    return "".join(html.unescape(re.sub(r"<[^>]+>", "", shown)).split())


class _Outputs:
    """What each Output widget of a notebook run here (no kernel) would show: the ``print`` and ``display`` of the
    notebook's code (given to its cells) go to the Output being entered, as :func:`_flat` texts; ``clear_output``
    empties it. :meth:`patched` puts the Output methods in place for a ``with``."""

    def __init__(self) -> None:
        self.entered: list[Any] = []
        self.held: dict[int, list[str]] = {}

    def _add(self, text: str) -> None:
        if self.entered:
            self.held.setdefault(id(self.entered[-1]), []).append(text)

    def print(self, *args: Any, sep: str = " ", **_: Any) -> None:
        self._add(_flat(html.escape(sep.join(map(str, args)))))

    def display(self, *objects: Any, **_: Any) -> None:
        for obj in objects:
            shown = obj._repr_html_() if hasattr(obj, "_repr_html_") else None
            self._add(_flat(shown if shown is not None else html.escape(str(obj))))

    def text(self, widget: Any) -> str:
        """What ``widget`` (an HTML or Output widget) shows, flat."""
        import ipywidgets

        if isinstance(widget, ipywidgets.Output):
            return "".join(self.held.get(id(widget), []))
        return _flat(widget.value)

    def patched(self) -> ExitStack:
        import ipywidgets

        def enter(widget: Any) -> Any:
            self.entered.append(widget)
            return widget

        stack = ExitStack()
        stack.enter_context(mock.patch.object(ipywidgets.Output, "__enter__", enter))
        stack.enter_context(mock.patch.object(ipywidgets.Output, "__exit__", lambda *_: self.entered.pop() and None))
        stack.enter_context(mock.patch.object(ipywidgets.Output, "clear_output",
                                              lambda widget, *_, **__: self.held.pop(id(widget), None) and None))
        return stack


def _norm(value: Any) -> Any:
    """Plot data comparable between Python and the browser: lists, floats rounded, strings."""
    if value is None or isinstance(value, str | bool):
        return value
    if isinstance(value, int | float | Fraction | np.number):
        return round(float(value), 9)
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    return [_norm(v) for v in value]


def _board_summary(traces: Any, layout: Any) -> dict[str, Any]:
    """What a board shows: each trace's type and data, the title and annotation texts."""
    import plotly.graph_objects as go

    fig = go.Figure(data=list(traces), layout=dict(layout))
    shown = []
    for trace in fig.to_plotly_json()["data"]:
        item = {"type": trace.get("type", "scatter")}
        for key in ("x", "y", "z", "text", "labels", "values"):
            if trace.get(key) is not None:
                item[key] = _norm(trace[key])
        color = (trace.get("marker") or {}).get("color")
        if color is not None:
            item["marker.color"] = _norm(color)
        shown.append(item)
    title = fig.layout.title.text
    return {"traces": shown, "title": title or "",
            "annotations": [a.text or "" for a in fig.layout.annotations]}


def _snapshot(live: Any, followers: dict[int, tuple[Any, Any]], outputs: _Outputs) -> dict[str, Any]:
    """Everything the page must show after a move: texts, the chart's bars, the board, the outputs following the view.

    Worked out afresh, not read from the views the moves were made in (a view or an output that forgot to redraw
    would be as stale here as on the page): a new view of the same game (same session, same adapter) for the texts
    and the chart, and each follower cell's own drawing function called again for its output.
    ``texts`` holds what :data:`READ_TEXTS` reads from the page, flat: the status, each move listed, the summary, the
    "why" panel (None when hidden) and each follower cell's output, as ``[cell-index, text]``."""
    view = type(live)(live.session, live.adapter, max_bars=live.max_bars)
    for _, draw in followers.values():
        draw()
    valued = [row for row in view.advice if row.value is not None]
    bars = [[("★ " if row.best else "") + row.label, round(float(row.value), 9)] for row in valued[: view.max_bars]]
    status = _text(view.status.value)
    moves = [f"{who}: {move}" for who, move in view.history()]  # moves in the game's words, as listed
    return {
        "texts": {
            "status": _flat(view.status.value),
            "history": [_flat(html.escape(move)) for move in moves],
            "summary": _flat(view.summary.value),
            "why": None if view.why_panel.layout.display == "none" else _flat(view.why_panel.value),
            "followers": [[index, outputs.text(widget)] for index, (widget, _) in sorted(followers.items())],
        },
        "status": status,
        "history": moves,
        "bars": bars,
        # With nothing to value (a chance node, the end, a roasting round) the chart box is hidden: nothing to compare.
        "chart_hidden": view.chart_box.layout.display == "none",
        "board": _board_summary(*view.adapter.board(view.state)) if view.adapter.board else None,
    }


def typed_text(outcome: Any) -> str:
    """An outcome as a player types it into the companion-mode box (dice, colours, tokens, marbles, cards or orders).

    >>> from coffeegames.roaster import Drawn
    >>> typed_text(Drawn(("hard", "smoke")))
    'hard smoke'
    >>> from coffeegames import gizmos, rush
    >>> typed_text(gizmos.Marble("red")), typed_text(gizmos.Card(45)), typed_text(rush.Drawn("coffee+milk"))
    ('red', '#45', 'coffee milk')
    """
    from coffeegames import gizmos, rush

    if isinstance(outcome, gizmos.Marble):  # Gizmos: a marble by its colour
        return outcome.colour
    if isinstance(outcome, gizmos.Card):  # Gizmos: a card by its number
        return f"#{outcome.card}"
    if isinstance(outcome, rush.Drawn):  # Coffee Rush: the order card's ingredients
        return " ".join(outcome.order.split("+"))
    if hasattr(outcome, "yellow"):  # Dairyman: the dice, the yellow die as y<value>
        return " ".join(map(str, outcome.dice)) + (f" y{outcome.yellow}" if outcome.yellow else "")
    if hasattr(outcome, "own"):  # VivaJava: coffee dice, then | and the flavour dice
        return " ".join(outcome.white) + (" | " + " ".join(outcome.own) if outcome.own else "")
    if hasattr(outcome, "tokens"):  # Coffee Roaster: the tokens drawn
        return " ".join(outcome.tokens)
    raise TypeError(f"no typed form for {outcome!r}")


def _notebook_view(notebook: str, outputs: _Outputs) -> tuple[Any, dict[int, tuple[Any, Any]]]:
    """Run the notebook's code cells up to the one showing ``game`` (displays dropped), then each later cell that uses
    ``game``; the DecisionView, and by the page's ``cell-index`` (1 + the cell's place in the notebook) the widget each
    later cell shows with the function that draws it.

    Such a cell must show an HTML or Output widget that follows the view, drawn by the one function the cell defines
    (called with no argument, it draws the position the view shows now), or the Markdown cell before it must say its
    output is a "snapshot"."""
    cells = json.loads((ROOT / "notebooks" / notebook).read_text())["cells"]
    space: dict[str, Any] = {"display": outputs.display, "print": outputs.print}
    view, followers = None, {}
    for number, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse(source)
        if view is None:
            exec(compile(tree, f"{notebook}:cell", "exec"), space)
            if source.strip().splitlines()[-1].strip() == "game":
                view = space["game"]
            continue
        if "game" not in {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}:
            continue  # it shows no position of the view
        shown = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
            exec(compile(tree, f"{notebook}:cell", "exec"), space)
            shown = eval(compile(last, f"{notebook}:cell", "eval"), space)
        else:
            exec(compile(tree, f"{notebook}:cell", "exec"), space)
        import ipywidgets

        if isinstance(shown, ipywidgets.HTML | ipywidgets.Output):
            defined = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
            assert len(defined) == 1, f"{notebook}: cell {number} follows the view but defines {defined}, not one drawing function"
            followers[number + 1] = (shown, space[defined[0]])
        else:
            before = "".join(cells[number - 1]["source"]) if number else ""
            assert "snapshot" in before.lower(), (f"{notebook}: cell {number} uses `game` but shows no HTML or Output "
                                                  "widget following the view, and the text before it does not say it is a snapshot")
    assert view is not None, f"{notebook}: no cell ends by showing `game`"
    return view, followers


@cache
def plan(notebook: str) -> list[tuple[str, Any, dict[str, Any]]]:
    """The clicks to make on a walkthrough page, each with what the page must show after it.

    Deterministic (seeded chance, fixed choices), so every load replays the same game:
    ``("take", i)`` takes the i-th choice of the list (the best, every third time the
    second), ``("chance", None)`` lets chance roll, ``("type", text)`` enters a roll in
    companion mode (once), ``("bots", None)`` lets the bots play, ``("undo", None)`` once,
    ``("new", seed)`` types ``seed`` and presses New game (after the clicks, or when the game is over), followed by
    :data:`AFTER_NEW_GAME` more moves. The first entry, ``("load", None)``, is the page as loaded.
    """
    outputs = _Outputs()
    with outputs.patched():
        return _plan(notebook, outputs)


def _plan(notebook: str, outputs: _Outputs) -> list[tuple[str, Any, dict[str, Any]]]:
    view, followers = _notebook_view(notebook, outputs)
    snapshot = lambda: _snapshot(view, followers, outputs)  # noqa: E731
    steps: list[tuple[str, Any, dict[str, Any]]] = [("load", None, snapshot())]
    typed = undone = False
    taken = 0
    clicks = MORE_CLICKS.get(notebook, CLICKS)
    renewed = 0  # the step of New game
    while not renewed or len(steps) <= renewed + AFTER_NEW_GAME:
        step: tuple[str, Any]
        over = all(b.disabled for b in (view.chance_button, view.take_button, view.bots_button))
        if not renewed and (len(steps) == clicks + 1 or over):  # New game, on another seed
            renewed = len(steps)
            view.seed_box.value = NEW_SEED
            view.new_game_button.click()
            step = ("new", NEW_SEED)
        elif len(steps) == 8 and not undone and not view.undo_button.disabled:
            view.undo_button.click()
            step, undone = ("undo", None), True
        elif not view.chance_button.disabled:
            text = None
            if not typed and view.session.parse_outcome and view.bots_button.disabled:  # a person's roll: type it
                outcome = view.state.sample_chance(np.random.default_rng(len(steps)))
                text = typed_text(outcome)
                assert view.session.parse_outcome(text, view.state) == outcome, text
            if text is not None:
                view.outcome_text.value = text
                view.outcome_button.click()
                step, typed = ("type", text), True
            else:
                view.chance_button.click()
                step = ("chance", None)
        elif not view.take_button.disabled:
            index = 1 if taken % 3 == 1 and len(view.actions.options) > 1 else 0
            view.actions.value = index
            view.take_button.click()
            step, taken = ("take", index), taken + 1
        elif not view.bots_button.disabled:
            view.bots_button.click()
            step = ("bots", None)
        else:
            break  # the game is over
        assert not view.message.value, f"{notebook}: {step} was refused: {_text(view.message.value)}"
        steps.append((*step, snapshot()))
    kinds = [kind for kind, _, _ in steps]
    assert {"take", "type", "undo", "new"} <= set(kinds) and len(steps) > 12, f"{notebook}: the plan {kinds} misses a part"
    assert kinds[-1] != "new", f"{notebook}: no move after New game"
    return steps


# -- reading the page -------------------------------------------------------------------------------

READ_TEXTS = """(cells) => {
  // flat (no whitespace), in the order of _snapshot's "texts": the page's texts to compare whole
  const flat = s => s === null || s === undefined ? null : s.replace(/\\s+/g, '');
  const text = cls => { const e = document.querySelector('.' + cls); return e ? e.innerText : null; };
  const history = document.querySelector('.cg-history');
  const why = document.querySelector('.cg-why');
  return {
    status: flat(text('cg-status')),
    history: history ? [...history.querySelectorAll('li')].map(li => flat(li.innerText)) : null,
    summary: flat(text('cg-summary')),
    why: why && why.checkVisibility() ? flat(why.innerText) : null,
    followers: cells.map(c => { const e = document.querySelector(`[cell-index="${c}"]`); return [c, e ? flat(e.innerText) : null]; }),
  };
}"""
"""The texts a learner reads on a walkthrough page; ``cells``: the cell-index of each output following the view."""

READ_PAGE = """(cells) => {
  const plain = v => ArrayBuffer.isView(v) ? Array.from(v)
      : Array.isArray(v) ? v.map(plain) : v;
  const plotIn = cls => {
    const box = document.querySelector('.' + cls);
    if (!box) return null;
    return box.classList.contains('js-plotly-plot') ? box : box.querySelector('.js-plotly-plot');
  };
  const summary = el => {
    if (!el || !el._fullData || !el._fullLayout) return null;
    const traces = el._fullData.map(t => {
      const item = {type: t.type};
      for (const key of ['x', 'y', 'z', 'text', 'labels', 'values']) if (t[key] !== undefined) item[key] = plain(t[key]);
      if (t.marker && t.marker.color !== undefined) item['marker.color'] = plain(t.marker.color);
      return item;
    });
    const L = el._fullLayout;
    return {traces, title: (L.title && L.title.text) || '',
            annotations: (L.annotations || []).map(a => a.text || '')};
  };
  const text = cls => { const e = document.querySelector('.' + cls); return e ? e.innerText : null; };
  const history = document.querySelector('.cg-history');
  return {
    status: text('cg-status'),
    history: history ? [...history.querySelectorAll('li')].map(li => li.innerText) : null,
    board: summary(plotIn('cg-board')),
    chart: summary(plotIn('cg-chart')),
    texts: (READ_TEXTS)(cells),
  };
}""".replace("READ_TEXTS", READ_TEXTS)

TEXTS_SHOWN = f"""(want) => JSON.stringify(({READ_TEXTS})(want.cells)) === JSON.stringify(want.texts)"""
"""True once the page's texts (flat) are the expected ones: what a wait for the kernel's redraw waits on."""


SHUTDOWN_KERNEL = """async () => {
  const config = document.getElementById('jupyter-config-data');
  if (!config) return null;
  const base = JSON.parse(config.textContent).baseUrl || '/';
  const cookie = () => document.cookie.match(/(?:^|; )_xsrf=([^;]*)/);
  // Voilà checks the form's _xsrf against the cookie of that name, which this server never set: set one (32 hex digits)
  if (!cookie()) document.cookie = `_xsrf=${[...crypto.getRandomValues(new Uint8Array(16))].map(b => b.toString(16).padStart(2, '0')).join('')}; path=/`;
  const form = new FormData(), xsrf = cookie();
  form.append('_xsrf', (xsrf && xsrf[1]) || '');
  const answer = await fetch(`${base}voila/api/shutdown/${JSON.parse(config.textContent).kernelId}`, {method: 'POST', body: form});
  return answer.status;
}"""
"""Shut the page's kernel down as Voilà's page does when its tab closes; the answer's status."""


def _squash(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, list):
        return [_squash(v) for v in value]
    return value


def _same(expected: Any, shown: Any) -> bool:
    """Plot data equal, numbers to 1e-6, strings up to whitespace (plotly.js keeps the data it was given)."""
    if expected == [] and shown is None:  # plotly.js leaves an empty array out of its full data
        return True
    if isinstance(expected, float) and isinstance(shown, int | float):
        return abs(expected - shown) <= 1e-6 * max(1.0, abs(expected))
    if isinstance(expected, list) and isinstance(shown, list):
        return len(expected) == len(shown) and all(_same(e, s) for e, s in zip(expected, shown))
    if isinstance(expected, str) and isinstance(shown, str):
        return _squash(expected) == _squash(shown)
    return expected == shown


def texts_differ(expected: dict[str, Any], page: dict[str, Any]) -> list[str]:
    """Where the page's texts differ from what they must show: the status, the moves so far, the summary, the "why"
    panel, each output following the view (compared flat, without whitespace; shown here shortened)."""
    found = []
    want, shown = expected["texts"], page["texts"]
    if shown["status"] != want["status"]:
        found.append(f"status {page['status']!r}, expected {expected['status']!r}")
    if shown["history"] != want["history"]:
        found.append(f"moves so far ({len(page['history'] or [])}) end {(page['history'] or [])[-2:]!r}, "
                     f"expected ({len(expected['history'])}) ending {expected['history'][-2:]!r}")
    for key in ("summary", "why"):
        if shown[key] != want[key]:
            found.append(f"the {key} {_short(shown[key])}, expected {_short(want[key])}")
    for (cell, text), (_, wanted) in zip(shown["followers"], want["followers"]):
        if text != wanted:
            found.append(f"the output of notebook cell {cell - 1} (following the view) {_short(text)}, expected {_short(wanted)}")
    return found


def _short(text: str | None) -> str:
    """The start of a flat text, for a message (None: not on the page, or hidden)."""
    return "hidden or missing" if text is None else repr(text[:150] + ("…" if len(text) > 150 else ""))


def plots_differ(expected: dict[str, Any], page: dict[str, Any]) -> list[str]:
    """Where the page's board and chart differ from the state they must show (their data, not pixels)."""
    found = []
    chart = page["chart"]
    if expected["chart_hidden"]:
        pass  # the box is hidden: what its plot holds is not shown
    elif chart is None:
        found.append("the chart (.cg-chart) has no drawn plotly plot")
    else:
        bars = [t for t in chart["traces"] if t["type"] == "bar"]
        # the view tells equal labels apart by " #2", " #3"...; a label may end so itself ("File #41"): strip both sides
        shown = [[re.sub(r" #\d+$", "", label), x] for t in bars for label, x in zip(t.get("y") or [], t.get("x") or [])]
        if not _same([[re.sub(r" #\d+$", "", label), x] for label, x in expected["bars"]], shown):
            found.append(f"chart bars {shown!r}, expected {expected['bars']!r}")
    board = expected["board"]
    if board is not None:
        shown_board = page["board"]
        if shown_board is None:
            found.append("the board (.cg-board) has no drawn plotly plot")
        else:
            for i, trace in enumerate(board["traces"]):
                drawn = shown_board["traces"][i] if i < len(shown_board["traces"]) else {}
                for key, value in trace.items():
                    if not _same(value, drawn.get(key)):
                        found.append(f"board trace {i} {key}: {str(drawn.get(key))[:160]}, expected {str(value)[:160]}")
            for key in ("title", "annotations"):
                if not _same(board[key], shown_board[key]):
                    found.append(f"board {key}: {str(shown_board[key])[:160]}, expected {str(board[key])[:160]}")
    return found


# -- the machinery: Voilà, the browser ---------------------------------------------------------------

def _missing() -> str | None:
    """What is missing to run a browser here, or None."""
    if not Path(CHROMIUM).exists():
        return f"no browser at {CHROMIUM}"
    for module in ("playwright", "voila"):
        try:
            __import__(module)
        except ImportError:
            return f"the Python package {module!r} is not installed"
    return None


@pytest.fixture(scope="module")
def tools() -> None:
    missing = _missing()
    if missing is not None:
        message = f"real-browser test: {missing}; {INSTALL}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message} (CI=true: a missing browser is a failure, not a skip)")
        pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def voila(tools: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Voilà server on the loopback address serving the project root; its base URL."""
    port = _free_port()
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1"}
    command = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
               "--MappingKernelManager.cull_idle_timeout=600", "--MappingKernelManager.cull_interval=60",
               "--show_tracebacks=True"]
    with log.open("w") as out:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if server.poll() is not None:
                pytest.fail(f"voila exited ({server.returncode}):\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/voila/tree", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"voila did not answer in 90 s:\n{log.read_text()[-3000:]}")
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


@pytest.fixture(scope="module")
def browser(tools: None) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Page:
    """A browser tab on one notebook, its console errors collected; a screenshot when a check fails."""

    def __init__(self, browser: Any, url: str, name: str) -> None:
        self.name = name
        self.context = browser.new_context(viewport={"width": 1280, "height": 1000})
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.page.on("pageerror", lambda error: self.console.append(f"page error: {error}"))
        self.page.on("console", lambda m: self.console.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        self.url = url

    def fail(self, message: str) -> None:
        """Fail the test with ``message``, the console's errors, and screenshots (the page, the walkthrough)."""
        if self.console:
            message += "\nbrowser console errors:\n  " + "\n  ".join(c[:300] for c in self.console[-8:])
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shots = []
        try:
            self.page.screenshot(path=str(ARTIFACTS / f"{self.name}.png"), full_page=True)
            shots.append(f"{self.name}.png")
            view = self.page.query_selector(".cg-decision-view")
            if view is not None:
                view.screenshot(path=str(ARTIFACTS / f"{self.name}-view.png"))
                shots.append(f"{self.name}-view.png")
        except Exception as error:  # the page may be gone; the message matters more
            message += f"\n(screenshot failed: {error})"
        if shots:
            message += f"\nscreenshots in {ARTIFACTS.relative_to(ROOT)}: {', '.join(shots)}"
        pytest.fail(message, pytrace=False)

    def load(self) -> None:
        """Open the page and wait until Voilà has run every cell and the widgets are drawn."""
        try:
            self.page.goto(self.url, wait_until="domcontentloaded", timeout=RENDER_TIMEOUT * 1000)
        except Exception:  # noqa: BLE001 - playwright's TimeoutError
            self.fail(f"{self.name}: Voilà did not send the page in {RENDER_TIMEOUT:.0f} s (a cell never finished; "
                      "see tests/test_notebook_outputs.py for the one cause found)")
        try:
            self.page.wait_for_selector("#loading", state="detached", timeout=RENDER_TIMEOUT * 1000)
        except Exception:
            self.fail(f"{self.name}: Voilà did not finish running the notebook in {RENDER_TIMEOUT:.0f} s")
        self.wait_widgets()

    def wait_widgets(self) -> None:
        """Wait until every widget output of the page is drawn (or shows an error): no "Loading widget...", and every
        plotly plot inside a widget drawn."""
        try:
            self.page.wait_for_function("""() => ![...document.querySelectorAll('.jp-OutputArea-output')]
                    .some(e => e.innerText.includes('Loading widget'))
                && !document.querySelector('.jupyter-widgets .js-plotly-plot:not(:has(.main-svg))')""",
                                        timeout=WIDGET_TIMEOUT * 1000, polling=200)
        except Exception:
            self.fail(f"{self.name}: widgets were still not drawn (\"Loading widget...\") {WIDGET_TIMEOUT:.0f} s after the notebook ran")

    def check_errors(self, when: str, console: bool = True) -> None:
        """No widget error or traceback on the page; with ``console``, no widget model that failed to start either
        (anywidget logs "Failed to initialize model" when a figure missed its start-up time: it never redraws)."""
        body = self.page.inner_text("body")
        found = [e for e in ERRORS if e in body]
        logged = [c for c in self.console if any(e in c for e in ERRORS)] if console else []
        if found or logged:
            # where: the notebook cells showing an error (cell-index - 1), to tell one widget from the page's start-up
            where = self.page.evaluate("""(errors) => [...document.querySelectorAll('[cell-index]')]
                .filter(e => errors.some(x => e.innerText.includes(x))).map(e => Number(e.getAttribute('cell-index')) - 1)""",
                                       ERRORS)
            self.fail(f"{self.name} {when}: widget errors on the page {found} (notebook cells {where}), "
                      f"in the console {logged[:5]}")

    def read(self, cells: list[int] | None = None) -> dict[str, Any]:
        """The page's texts, board and chart (:data:`READ_PAGE`); ``cells``: the cell-index of each output to read."""
        return self.page.evaluate(READ_PAGE, cells or [])

    def wait_texts(self, expected: dict[str, Any], timeout: float) -> bool:
        """Wait until the page's texts are ``expected["texts"]`` (:data:`TEXTS_SHOWN`); whether they came in time."""
        cells = [cell for cell, _ in expected["texts"]["followers"]]
        try:
            self.page.wait_for_function(TEXTS_SHOWN, arg={"cells": cells, "texts": expected["texts"]},
                                        timeout=timeout * 1000, polling=100)
        except Exception:
            return False
        return True

    def close(self) -> int | None:
        """Close the tab and shut its kernel down (:data:`SHUTDOWN_KERNEL`), as Voilà's page means to on
        ``beforeunload``: closing a playwright context skips that, and Voilà's own request fails here anyway (403:
        this server never sets the XSRF cookie it checks), so each load's kernel would live on until the idle cull
        (ten minutes) and a run's dozens of kernels load the machine. The answer's status (204: shut down), or None."""
        status = None
        try:
            status = self.page.evaluate(SHUTDOWN_KERNEL)
        except Exception:  # the page may be gone or broken; closing matters more
            pass
        self.context.close()
        return status


# -- the tests --------------------------------------------------------------------------------------

def _render_url(voila: str, notebook: str) -> str:
    return f"{voila}/voila/render/notebooks/{urllib.parse.quote(notebook)}"


@pytest.mark.parametrize("notebook", [n for n in NOTEBOOKS if n not in WALKTHROUGHS])
def test_notebook_renders_without_widget_errors(voila: str, browser: Any, notebook: str) -> None:
    """Each notebook (the walkthroughs are loaded below) renders with its widgets and no error."""
    tab = Page(browser, _render_url(voila, notebook), f"{notebook.removesuffix('.ipynb')}-render")
    try:
        tab.load()
        tab.check_errors("after loading")
        if notebook == "00_start_here.ipynb":
            _check_links(tab, voila)
    finally:
        tab.close()


LOOKUP_UNKNOWN_MODEL = """async () => {
  const manager = window.jupyterapp && window.jupyterapp.widgetManager;
  if (!manager) return null;
  const start = performance.now();
  try { await manager.get_model('no-such-model-' + Math.random()); return {found: true}; }
  catch (error) { return {found: false, seconds: (performance.now() - start) / 1000, error: String(error)}; }
}"""
"""Ask the page's widget manager for a model it does not hold: how long it took to say so, and what it said."""


def test_an_output_waits_for_its_model_without_deadline(voila: str, browser: Any) -> None:
    """Issue 27: an output drawn before the page's widget manager has its models (Voilà draws the outputs as soon as
    the page starts, while the manager is still getting the models from the kernel) asks the manager for its model;
    told "not found" while the manager is still restoring, it waits for the restore and draws then, whatever the time.

    jupyterlab_widgets 3.0.17 (with ipywidgets 8.1.9) made that lookup poll for two seconds instead: on a busy machine
    the poll's last turn can come after the restore, the model there all along, and the output gives up for good with
    "Error displaying widget: model not found". So the lookup must answer at once (pyproject.toml keeps 3.0.16): a
    lookup that waits more than a second is that poll back, whether or not this run's timing shows the error."""
    tab = Page(browser, _render_url(voila, "dairyman_odds.ipynb"), "lookup-unknown-model")
    try:
        tab.load()
        answer = tab.page.evaluate(LOOKUP_UNKNOWN_MODEL)
        if answer is None:
            tab.fail("lookup-unknown-model: no widget manager on the page (window.jupyterapp.widgetManager)")
        if answer["found"] or "not found" not in answer["error"]:
            tab.fail(f"lookup-unknown-model: asking for a model the page does not hold answered {answer}")
        if answer["seconds"] > 1.0:
            import jupyterlab_widgets

            tab.fail(f"lookup-unknown-model: the widget manager took {answer['seconds']:.1f} s to say a model is not "
                     f"there (jupyterlab_widgets {getattr(jupyterlab_widgets, '__version__', '?')}): it polls for it "
                     "against a deadline, and a busy page then shows \"Error displaying widget: model not found\" "
                     "(issue 27; keep jupyterlab_widgets < 3.0.17, pyproject.toml)")
        tab.check_errors("after loading")
    finally:
        tab.close()


def _check_links(tab: Page, voila: str) -> None:
    """No link of the page leads to an error page: a notebook link names an existing notebook, any other answers."""
    links = tab.page.evaluate("() => [...document.querySelectorAll('#rendered_cells a[href]')].map(a => a.href)")
    bad = []
    for link in links:
        if not link.startswith(voila) or "#" in link and link.split("#")[0] == tab.url:
            continue  # another site, or a place on this page
        path = urllib.parse.urlparse(link).path
        if path.startswith("/voila/render/") and path.endswith(".ipynb"):
            # Opening it would run the notebook: it is enough that Voilà can find it.
            if not (ROOT / urllib.parse.unquote(path.removeprefix("/voila/render/"))).is_file():
                bad.append(f"{link}: no such notebook")
            continue
        try:
            with urllib.request.urlopen(link, timeout=30) as answer:
                status = answer.status
        except urllib.error.HTTPError as error:
            status = error.code
        if status >= 400:
            bad.append(f"{link}: {status}")
    if bad:
        tab.fail(f"{tab.name}: links leading to an error page under Voilà: {bad}")


def test_the_explore_app_answers_a_question(voila: str, browser: Any) -> None:
    """explore.ipynb: pick Coffee Roaster and "What is the game like?", press Run: the games are played in the kernel
    behind the page and the report's table and figure (bars with their intervals) appear, with no widget error."""
    from coffeegames.widgets.explore import QUESTIONS

    tab = Page(browser, _render_url(voila, "explore.ipynb"), "explore-run")
    page = tab.page
    try:
        tab.load()
        page.select_option(".cg-explore-game select", label="Coffee Roaster")
        page.select_option(".cg-explore-question select", label=QUESTIONS["shape"])
        page.click(".cg-explore-run")
        try:
            page.wait_for_selector(".cg-explore-table table", timeout=RENDER_TIMEOUT * 1000)
            page.wait_for_function("""() => { const plot = document.querySelector('.cg-explore-chart .js-plotly-plot');
                return plot && plot._fullData && plot._fullData.some(t => t.type === 'bar' && t.error_y.visible); }""",
                                   timeout=PLOT_TIMEOUT * 1000)
        except Exception:
            tab.fail("explore-run: after Run, no table or no bars with intervals appeared")
        table = page.inner_text(".cg-explore-table")
        if not all(word in table for word in ("side=full", "moves", "decisions")):
            tab.fail(f"explore-run: the table does not show Coffee Roaster's shape: {table[:300]!r}")
        tab.check_errors("after Run")
    finally:
        tab.close()


@pytest.mark.parametrize("load", range(1, LOADS + 1), ids=lambda n: f"load{n}")
@pytest.mark.parametrize("notebook", WALKTHROUGHS)
def test_walkthrough_redraws_after_every_click(voila: str, browser: Any, notebook: str, load: int) -> None:
    """Click through a walkthrough, then New game and a few more moves; after each click the texts, every output
    following the view, the board and the chart show the new state."""
    steps = plan(notebook)  # computed once per notebook, before the browser is busy with the page
    name = f"{notebook.removesuffix('.ipynb')}-load{load}"
    tab = Page(browser, _render_url(voila, notebook), name)
    page = tab.page
    try:
        tab.load()
        tab.check_errors("after loading", console=False)  # the console's widget errors are checked last, after
        # the clicks, so that a figure that stopped redrawing is reported as what the learner sees
        if page.query_selector(".cg-decision-view") is None:
            tab.fail(f"{name}: no walkthrough (.cg-decision-view) on the page")
        first, first_number = "", 0  # the first click after which a plot was wrong
        stale: dict[str, list[int]] = {"board": [], "chart": []}  # clicks after which each plot was wrong
        for number, (kind, arg, expected) in enumerate(steps):
            what = f"click {number} ({kind}{'' if arg is None else f' {arg!r}'})" if number else "the page as loaded"
            if kind == "take":
                page.select_option(".cg-actions select", index=arg)
                page.click(".cg-take")
            elif kind == "type":
                page.fill(".cg-outcome-text input", arg)
                page.click(".cg-outcome-enter")
            elif kind == "new":  # the seed box is the one beside the button
                page.locator(".cg-new-game").locator("xpath=preceding-sibling::*[1]").locator("input").fill(str(arg))
                page.keyboard.press("Tab")  # leaving the box sends its value to the kernel
                page.click(".cg-new-game")
            elif kind != "load":
                page.click(f".cg-{kind}")
            cells = [cell for cell, _ in expected["texts"]["followers"]]
            if not tab.wait_texts(expected, TEXT_TIMEOUT):
                problems = texts_differ(expected, tab.read(cells))
                tab.fail(f"{name}, {what}: the page did not show the new position in {TEXT_TIMEOUT:.0f} s "
                         f"(an output still shows an earlier one, or the move was lost): {problems}" + first)
            # Once a plot was wrong, a few more clicks tell whether it recovers (a shorter wait), then stop.
            if first and number > first_number + AFTER_FAILURE:
                break
            # the plots: compared here in Python (numbers to 1e-6), read until they match or the limit passes
            deadline = time.monotonic() + (PLOT_TIMEOUT if not first else 2.0)
            while plots_differ(expected, shown := tab.read()) and time.monotonic() < deadline:
                page.wait_for_timeout(100)
            if problems := plots_differ(expected, shown):
                for part in stale:
                    if any(part in problem.split(":")[0] for problem in problems):
                        stale[part].append(number)
                if not first:
                    first_number = number
                    first = (f"\n{what}: the texts show the new state ({expected['status']!r}, "
                             f"{len(expected['history'])} moves) but the plots do not, {PLOT_TIMEOUT:.0f} s later: "
                             + "; ".join(problems))
        if first:
            wrong = ", ".join(f"the {part} after clicks {clicks}" for part, clicks in stale.items() if clicks)
            tab.fail(f"{name}: a plot did not show the state the texts show ({wrong}; clicks {first_number}-{number} "
                     f"checked of {len(steps) - 1})" + first)
        tab.check_errors(f"after {len(steps) - 1} clicks")
    finally:
        tab.close()
