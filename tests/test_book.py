"""The rendered book: ``docs/`` built with Sphinx, warnings as errors, then read in a real browser.

What it checks:

* ``python -m sphinx -W -c docs . <tmp>`` builds: every page, the API reference from the
  docstrings, and every tutorial **executed** by myst-nb (an error in a tutorial, a broken
  cross-reference or a docstring that does not render fails the build);
* every tutorial page holds its outputs and its figures (plotly drawn in the page);
* every page opened in headless Chromium (served on 127.0.0.1): no link inside the book
  leads to a missing page or anchor, no image is missing, no request to the book fails;
  links leaving the book are checked for their form only (CI has no network);
* every notebook and tutorial has a Binder launch link in the README and on its page,
  and the app-like notebooks a Voilà link (the tutorials teach through their code, so no
  Voilà link for them).

The browser part needs Debian's ``chromium`` like ``tests/test_browser.py`` (skipped
without it, a failure when ``CI=true``).
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import coffeegames

pytestmark = pytest.mark.xdist_group("book")
"""One worker builds the book once: the module-scoped ``book`` fixture is per process, so tests spread over two xdist
workers built it (and executed every tutorial) twice."""

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tutorials").glob("*.ipynb"))
NOTEBOOKS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("*.ipynb"))


@functools.cache
def conf() -> ModuleType:
    """``docs/conf.py``, where the launch links are made."""
    spec = importlib.util.spec_from_file_location("coffeegames_book_conf", ROOT / "docs" / "conf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The book, built once into a temporary folder with warnings as errors."""
    pytest.importorskip("myst_nb", reason="the book needs the `test` extra (sphinx, myst-nb)")
    out = tmp_path_factory.mktemp("book")
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "CG_BOOK_EXECUTE": "force"}
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-c", "docs", ".", str(out)],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    log = "\n".join(line for line in (run.stdout + run.stderr).splitlines() if "IPKernelApp" not in line)
    assert run.returncode == 0, f"the book did not build (warnings are errors):\n{log[-6000:]}"
    return out


def test_the_book_is_built_by_one_worker(request: pytest.FixtureRequest) -> None:
    """Run by xdist with ``--dist loadgroup`` (pyproject's addopts), this module's tests carry their group in their id,
    which sends them all to one worker: one book built (tests/conftest.py restores the id's group under pytest 9.2)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by an xdist worker with --dist loadgroup")
    assert request.node.nodeid.endswith("@book"), request.node.nodeid


def _html(book: Path, source: str) -> str:
    return (book / Path(source).with_suffix(".html")).read_text(encoding="utf-8")


def test_the_book_has_every_page(book: Path) -> None:
    pages = ["docs/index", "README", "docs/architecture", "docs/api", "benchmarks/README", "tutorials/README"]
    pages += [f"docs/rules/{name}" for name in coffeegames.games()]
    pages += [Path(p).with_suffix("").as_posix() for p in TUTORIALS + NOTEBOOKS]
    missing = [p for p in pages if not (book / f"{p}.html").exists()]
    assert not missing, f"pages missing from the book: {missing}"


def test_the_api_reference_documents_every_game(book: Path) -> None:
    api = _html(book, "docs/api.md")
    for name in coffeegames.games():
        assert f'id="coffeegames.{name}.Game"' in api, f"docs/api.md documents no coffeegames.{name}.Game"
        assert f'id="coffeegames.{name}.advise"' in api, f"docs/api.md documents no coffeegames.{name}.advise"


@pytest.mark.parametrize("tutorial", TUTORIALS)
def test_tutorials_are_executed_with_their_figures(book: Path, tutorial: str) -> None:
    page = _html(book, tutorial)
    assert page.count('class="cell_output') >= 3, f"{tutorial}: the book shows it without outputs"
    shows = sum(cell.count("fig.show()") for cell in re.findall(r'"source": \[(.*?)\]',
                                                                  (ROOT / tutorial).read_text(encoding="utf-8"), re.S))
    assert page.count('class="plotly-graph-div"') >= shows, f"{tutorial}: a figure is missing from its page"


def test_the_book_fetches_nothing_from_the_network(book: Path) -> None:
    """Every script and stylesheet a page loads ships with the book (MathJax included): it reads offline."""
    remote = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\shref)="(https?:)?//[^"]*"')
    fetching = {page.relative_to(book).as_posix(): remote.findall(page.read_text(encoding="utf-8"))
                for page in book.rglob("*.html")}
    assert not {page: found for page, found in fetching.items() if found}


def test_a_notebook_saved_with_outputs_is_shown_without_them() -> None:
    """A notebook run and saved in JupyterLab holds outputs and widget state; the book reads it without them (the
    outputs' plotly mime type failed the build, and widget state made the page fetch a widget manager)."""
    notebook = json.loads((ROOT / NOTEBOOKS[0]).read_text(encoding="utf-8"))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    code[0]["outputs"] = [{"output_type": "display_data", "metadata": {},
                           "data": {"application/vnd.plotly.v1+json": {}, "text/plain": ["Figure"]}}]
    code[0]["execution_count"] = 3
    notebook["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    source = [json.dumps(notebook)]
    conf()._without_outputs(None, Path(NOTEBOOKS[0]).with_suffix("").as_posix(), source)
    read = json.loads(source[0])
    assert "widgets" not in read["metadata"]
    assert all(not c["outputs"] and c["execution_count"] is None for c in read["cells"] if c["cell_type"] == "code")
    assert [c["source"] for c in read["cells"]] == [c["source"] for c in notebook["cells"]]


@pytest.mark.parametrize("path", TUTORIALS + NOTEBOOKS)
def test_every_notebook_has_its_launch_links(book: Path, path: str) -> None:
    binder, voila = conf().binder_url(path), conf().voila_url(path)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    page = _html(book, path)
    for where, text in (("README.md", readme), ("its page in the book", page.replace("&amp;", "&"))):
        assert binder in text, f"{path}: no Binder link ({binder}) in {where}"
        assert (voila in text) == conf().is_app(path), (
            f"{path}: a Voilà link belongs to the app-like notebooks only ({where})")


def test_launch_links_have_the_right_form() -> None:
    binder = urllib.parse.urlsplit(conf().binder_url("notebooks/roaster.ipynb"))
    assert (binder.scheme, binder.netloc) == ("https", "mybinder.org")
    assert re.fullmatch(r"/v2/gh/[\w.-]+/[\w.-]+/HEAD", binder.path)
    assert urllib.parse.parse_qs(binder.query) == {"labpath": ["notebooks/roaster.ipynb"]}
    voila = urllib.parse.parse_qs(urllib.parse.urlsplit(conf().voila_url("notebooks/roaster.ipynb")).query)
    assert voila == {"urlpath": ["voila/render/notebooks/roaster.ipynb"]}
    assert not conf().is_app("tutorials/02_when_to_stop.ipynb") and conf().is_app("notebooks/roaster.ipynb")


# -- the browser: every page, every link and image ----------------------------------------------------

@pytest.fixture(scope="module")
def served(book: Path) -> Iterator[str]:
    """The built book on an HTTP server on the loopback address."""
    handler = functools.partial(_QuietHandler, directory=str(book))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        pass


_READ_PAGE = """() => ({
  links: Array.from(document.querySelectorAll('a[href]'), a => a.href),
  images: Array.from(document.querySelectorAll('img'), i => [i.src, i.complete && i.naturalWidth > 0]),
  plots: document.querySelectorAll('.plotly-graph-div .main-svg').length,
  ids: Array.from(document.querySelectorAll('[id]'), e => e.id),
})"""


@pytest.mark.browser
def test_every_page_in_a_browser_has_no_broken_link_or_image(book: Path, served: str) -> None:
    import test_browser  # the same browser, and the same rule for a missing one

    missing_tools = test_browser._missing()
    if missing_tools is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"book browser check: {missing_tools} (CI=true: a failure, not a skip)")
        pytest.skip(f"book browser check: {missing_tools}")
    from playwright.sync_api import sync_playwright

    pages = sorted(p.relative_to(book).as_posix() for p in book.rglob("*.html")
                   if not p.relative_to(book).as_posix().startswith(("_", "genindex", "search")))
    problems: list[str] = []
    ids: dict[str, set[str]] = {}
    links: list[tuple[str, str]] = []
    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=test_browser.CHROMIUM, args=test_browser.CHROMIUM_ARGS)
        tab = chromium.new_page()
        failed: list[str] = []
        tab.on("requestfailed", lambda request: failed.append(request.url))
        tab.on("response", lambda response: failed.append(response.url) if response.status >= 400 else None)
        for page in pages:
            failed.clear()
            tab.goto(f"{served}/{page}", wait_until="load", timeout=120_000)
            seen = tab.evaluate(_READ_PAGE)
            ids[page] = set(seen["ids"])
            links += [(page, href) for href in seen["links"]]
            problems += [f"{page}: image {src} did not load" for src, ok in seen["images"] if not ok]
            problems += [f"{page}: request failed: {url}" for url in failed if url.startswith(served)]
            if page.startswith("tutorials/") and "plotly-graph-div" in (book / page).read_text(encoding="utf-8"):
                if not seen["plots"]:
                    problems.append(f"{page}: plotly drew no figure")
        chromium.close()
    for page, href in links:
        url = urllib.parse.urlsplit(href)
        if href.startswith(served):
            target = url.path.removeprefix("/") or "index.html"
            if not (book / target).is_file():
                problems.append(f"{page}: link to a missing page {target}")
            elif url.fragment and target in ids and url.fragment not in ids[target]:
                problems.append(f"{page}: link to a missing anchor {target}#{url.fragment}")
        elif url.scheme in ("http", "https"):
            if not url.netloc or " " in href:
                problems.append(f"{page}: malformed external link {href}")
        elif url.scheme not in ("mailto",):
            problems.append(f"{page}: link of an unexpected kind {href}")
    assert not problems, "\n".join(problems[:40])
