"""Sphinx configuration of the coffeegames book.

Build it from the project folder (the source root is the project folder, so the README,
``docs/``, ``tutorials/``, ``notebooks/`` and ``benchmarks/`` (README, JOURNAL) keep the relative
links they have on GitHub)::

    python -m sphinx -W -c docs . build/book

The tutorials are executed while the book is built (myst-nb); the app-like notebooks in
``notebooks/`` are shown with their code only, with links to run them on Binder or as a
Voilà app. The API reference comes from the docstrings (``docs/api.md``).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from pathlib import Path
from urllib.parse import quote

from docutils import nodes

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

project = "coffeegames"
author = "the coffeegames developers"
copyright = "2026, the coffeegames developers"

extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.napoleon",
              "sphinx-mathjax-offline"]  # MathJax copied into the book (_static/mathjax), not fetched from a CDN
root_doc = "docs/index"
include_patterns = ["README.md", "docs/**.md", "tutorials/*.ipynb", "tutorials/README.md",
                    "notebooks/*.ipynb", "benchmarks/README.md", "benchmarks/JOURNAL.md",
                    "coffeegames/*/data/README.md"]
exclude_patterns = ["build", ".venv", "**/.ipynb_checkpoints", "test-artifacts"]

# The tutorials teach through their code: run them at build time, fail the build on an
# error. The notebooks are apps (widgets that need a live kernel): shown, not run.
nb_execution_mode = os.environ.get("CG_BOOK_EXECUTE", "force")
nb_execution_excludepatterns = ["notebooks/*"]
nb_execution_timeout = 600
nb_execution_raise_on_error = True
myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath"]

# A name re-exported by a package (``coffeegames.roaster.Rules``) is also found in its module:
# such references are ambiguous by design, and resolve to the same object.
suppress_warnings = ["ref.python"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_google_docstring = True

html_theme = "alabaster"
html_title = "coffeegames"
html_theme_options = {"page_width": "1180px", "sidebar_width": "240px"}
html_static_path: list[str] = []

# Plotly figures in executed tutorials: plain HTML with plotly.js inside the page (the
# book works offline; the kernels myst-nb starts inherit this setting).
os.environ["PLOTLY_RENDERER"] = "notebook"

# The repository's address (pyproject.toml, [project.urls]): launch links are made from it.
_URLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
REPOSITORY = _URLS["Repository"].removeprefix("https://github.com/")
"""GitHub ``owner/name`` of the project."""


def binder_url(path: str) -> str:
    """Run the notebook at ``path`` (from the project folder) in JupyterLab on Binder."""
    return f"https://mybinder.org/v2/gh/{REPOSITORY}/HEAD?labpath={quote(path, safe='')}"


def voila_url(path: str) -> str:
    """Run the notebook at ``path`` as a Voilà app on Binder (code hidden)."""
    return f"https://mybinder.org/v2/gh/{REPOSITORY}/HEAD?urlpath={quote('voila/render/' + path, safe='')}"


def is_app(path: str) -> bool:
    """The app-like notebooks (a Voilà link makes sense: widgets, no code to read)."""
    return path.startswith("notebooks/") and not path.endswith("00_start_here.ipynb")


def _launch_links(app, doctree, docname) -> None:  # type: ignore[no-untyped-def]
    """Put "run it on Binder" (and, for apps, "as an app") under each notebook's title."""
    source = Path(app.env.doc2path(docname))
    if source.suffix != ".ipynb":
        return
    path = source.resolve().relative_to(ROOT).as_posix()
    para = nodes.paragraph(classes=["cg-launch"])
    para += nodes.reference("", "Run this notebook on Binder", refuri=binder_url(path))
    if is_app(path):
        para += nodes.Text(" · ")
        para += nodes.reference("", "open it as an app (Voilà)", refuri=voila_url(path))
    para += nodes.Text(f" · source: {path}")
    titles = list(doctree.findall(nodes.title))
    if titles:
        section = titles[0].parent
        section.insert(section.index(titles[0]) + 1, para)
    else:
        doctree.insert(0, para)


def _without_outputs(app, docname, source) -> None:  # type: ignore[no-untyped-def]
    """The book shows a notebook of ``notebooks/`` as code only, whatever its file holds: a notebook someone ran and
    saved (JupyterLab autosaves outputs) is read with its outputs dropped, so the book never depends on them. The
    tutorials are executed afresh while the book is built (``nb_execution_mode``), so their saved outputs never count."""
    if not docname.startswith("notebooks/"):
        return
    notebook = json.loads(source[0])
    notebook.get("metadata", {}).pop("widgets", None)  # saved widget state: the book would fetch a widget manager
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
    source[0] = json.dumps(notebook)


_CDN_MATHJAX = re.compile(r'"https://cdnjs\.cloudflare\.com/ajax/libs/mathjax/[^"]*/(tex-[a-z]+)(?:\.min)?\.js"')


def _local_mathjax(app, exception) -> None:  # type: ignore[no-untyped-def]
    """Plotly's figures in the executed tutorials load MathJax from a CDN; point them at the copy shipped with the
    book (``_static/mathjax``, from sphinx-mathjax-offline), so every page reads offline."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if "cdnjs.cloudflare.com/ajax/libs/mathjax" in text:
            up = "../" * (len(page.relative_to(out).parts) - 1)
            page.write_text(_CDN_MATHJAX.sub(lambda m: f'"{up}_static/mathjax/{m.group(1)}.js"', text), encoding="utf-8")


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("source-read", _without_outputs)
    app.connect("build-finished", _local_mathjax)
    app.connect("doctree-resolved", _launch_links)
