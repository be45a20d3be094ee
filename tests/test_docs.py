"""The project's documents stand alone and stay true to the code.

- every registered game has its rules page, ``docs/rules/<game>.md``, holding the options
  table that :func:`~coffeegames.engine.options.option_markdown` makes today (so an option
  changed in code and not in the page fails here);
- every relative link in the Markdown files and in the Markdown cells of the notebooks
  and tutorials points to a file or folder of the project that exists (resolved from the
  file the link is in, as JupyterLab and GitHub resolve it);
- no file cites documents that are not part of the project;
- the README's Python examples (``>>>`` lines) print what they say.
"""

from __future__ import annotations

import doctest
import json
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

import coffeegames
from coffeegames.engine.options import OPTIONS_BEGIN, OPTIONS_END, option_markdown

ROOT = Path(__file__).resolve().parent.parent
GAMES = coffeegames.games()

FORBIDDEN = ("RULES" + ".md", "DESIGN" + ".md", ".." + "/shared")
"""Documents outside the project (spelt in pieces so this file does not cite them itself)."""

_SKIPPED_DIRS = {"build", "dist", "node_modules", "__pycache__"}


def project_files() -> list[Path]:
    """The project's files: tracked or new but not ignored (by git), else every file outside build folders."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout.decode("utf-8").split("\0")
        files = {ROOT / name for name in listed if name}
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked sdist, say)
        files = {
            path for path in ROOT.rglob("*")
            if path.is_file() and not any(
                part.startswith(".") or part in _SKIPPED_DIRS or part.endswith(".egg-info")
                for part in path.relative_to(ROOT).parts[:-1]
            )
        }
    return sorted(path for path in files if path.is_file())


FILES = project_files()


def _text(path: Path) -> str | None:
    """The file's text, or None for a binary file."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# -- (a) every game's rules page holds its current options table ---------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_rules_page_holds_the_options_table(name):
    page = ROOT / "docs" / "rules" / f"{name}.md"
    assert page.is_file(), f"{_name(page)} is missing: every game in coffeegames.games() needs its rules page"
    table = option_markdown(GAMES[name].game().rules)
    text = page.read_text(encoding="utf-8")
    assert table in text, (
        f"{_name(page)} does not hold the current options table: replace the text from\n{OPTIONS_BEGIN}\n"
        f"to\n{OPTIONS_END}\nwith the output of option_markdown(coffeegames.games()[{name!r}].game().rules):\n\n{table}"
    )


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_is_indexed(name):
    """The docs index and the README name every implemented game and link its rules page."""
    info = GAMES[name]
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"(rules/{name}.md)" in index, f"docs/README.md does not link rules/{name}.md"
    assert f"(docs/rules/{name}.md)" in readme, f"README.md does not link docs/rules/{name}.md"
    assert info.title in readme, f"README.md does not name {info.title}"


def test_architecture_page_exists():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for heading in ("## The State contract", "## Which file owns each rule", "## Which names are public",
                    "## Which files a player is meant to edit"):
        assert heading in text


# -- (b) every relative link points to something that exists ------------------------

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,}).*?^\1\2[`~]*[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
_INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)", re.MULTILINE)
_HTML = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_links(text: str) -> list[str]:
    """The link targets in Markdown text (inline, reference and HTML), outside code.

    >>> markdown_links("See [a](x.md#top), ![b](<y z.png>) and `[not](code.md)`.\\n\\n[c]: w.md")
    ['x.md#top', 'y z.png', 'w.md']
    """
    text = _CODE_SPAN.sub("", _FENCE.sub("", text))
    targets = [m.group(1) for m in _INLINE.finditer(text)]
    targets += [m.group(1) for m in _REFERENCE.finditer(text)]
    targets += [m.group(1) for m in _HTML.finditer(text)]
    return [t[1:-1] if t.startswith("<") and t.endswith(">") else t for t in targets]


def _markdown_of(path: Path) -> str:
    """A Markdown file's text, or a notebook's Markdown cells joined."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n\n".join(
            "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells if c["cell_type"] == "markdown"
        )
    return path.read_text(encoding="utf-8")


DOCUMENTS = [path for path in FILES if path.suffix in (".md", ".ipynb")]


def test_the_documents_are_found():
    names = {_name(p) for p in DOCUMENTS}
    assert {"README.md", "docs/README.md", "docs/architecture.md", "tutorials/README.md",
            "notebooks/00_start_here.ipynb"} <= names


def broken_links(path: Path) -> list[str]:
    """The relative links in ``path`` that lead nowhere in the project."""
    broken = []
    for target in markdown_links(_markdown_of(path)):
        if _SCHEME.match(target) or target.startswith(("#", "//")):
            continue  # a web address, mail, a notebook attachment, or a place on the same page
        relative = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if not relative:
            continue
        if relative.startswith("/"):
            broken.append(f"{target} (absolute: use a link relative to {_name(path)})")
            continue
        resolved = (path.parent / relative).resolve()
        if not resolved.is_relative_to(ROOT):
            broken.append(f"{target} (outside the project)")
        elif not resolved.exists():
            broken.append(f"{target} (no {resolved.relative_to(ROOT).as_posix()})")
    return broken


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_relative_links_lead_somewhere(path):
    broken = broken_links(path)
    assert not broken, f"{_name(path)} links to what does not exist:\n" + "\n".join(broken)


def test_readme_starts_jupyterlab_at_the_project_root():
    """Started in notebooks/, JupyterLab could not open the start page's links to ../tutorials/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [line for line in readme.splitlines() if "jupyter lab" in line]
    assert commands, "README.md gives no command starting JupyterLab"
    for line in commands:
        assert "--notebook-dir=." in line or "--ServerApp.root_dir=." in line, line


def test_the_readme_examples_print_what_they_say():
    """The ``>>>`` examples in the README's Python blocks ("A taste", "Why this value?") run as doctests."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"^```python\n(.*?)^```", readme, re.MULTILINE | re.DOTALL) if ">>>" in b]
    assert len(blocks) >= 2, "the README's examples were not found"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for number, block in enumerate(blocks):
        runner.run(doctest.DocTestParser().get_doctest(block, {}, f"README example {number + 1}", "README.md", 0))
    failed, tried = runner.summarize(verbose=False)
    assert failed == 0 and tried >= 10, f"{failed} of the README's {tried} example lines printed something else (see above)"


# -- (c) the project cites only itself ------------------------------------------------

def test_no_file_cites_documents_outside_the_project():
    citing = []
    for path in FILES:
        text = _text(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for word in FORBIDDEN:
                if word in line:
                    citing.append(f"{_name(path)}:{number}: {word}: {line.strip()[:100]}")
    assert not citing, (
        "these lines cite documents that are not part of the project; cite docs/rules/<game>.md "
        "or docs/architecture.md instead:\n" + "\n".join(citing)
    )


@pytest.mark.parametrize("path", ["README.md", "notebooks/00_start_here.ipynb", "coffeegames/__init__.py"])
def test_the_front_pages_say_what_exists(path):
    """The README, the start page and help(coffeegames) name every implemented game and claim no more."""
    text = (ROOT / path).read_text(encoding="utf-8")
    if path.endswith(".ipynb"):
        text = " ".join("".join(c["source"]) for c in json.loads(text)["cells"] if c["cell_type"] == "markdown")
    text = " ".join(text.split())
    for info in coffeegames.games().values():
        assert info.title.split(":")[0] in text, f"{path} does not name {info.title}"
    count = len(coffeegames.games())
    words = {3: "three", 4: "four", 5: "five"}
    for n, word in words.items():
        if n != count:
            assert f"{word} games" not in text.lower() and f"{word} coffee" not in text.lower(), f"{path} claims {word} games"
