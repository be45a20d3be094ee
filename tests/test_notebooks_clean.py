"""Committed notebooks carry no outputs: ``nbstripout --verify``, run in process (nbstripout's own ``strip_output``,
the command's defaults) rather than one ``nbstripout`` process per notebook (83 s of the suite).

The check reads what git would commit (the index), not the file on disk: running a notebook in JupyterLab saves
its outputs to the file, and that must not fail the suite; staging it would (so would the pre-commit hook,
``.githooks/pre-commit``). Outside a git checkout (an unpacked source archive) it reads the files."""

import copy
import pathlib
import shutil
import subprocess
import warnings

import nbformat
import pytest
from nbstripout import strip_output

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for folder in ("notebooks", "tutorials") for p in (ROOT / folder).glob("*.ipynb"))
EXTRA_KEYS = [  # what the nbstripout command also strips by default (its main(); none set in git config here)
    "metadata.signature", "metadata.widgets", "cell.metadata.collapsed", "cell.metadata.ExecuteTime",
    "cell.metadata.execution", "cell.metadata.heading_collapsed", "cell.metadata.hidden", "cell.metadata.scrolled",
]


def would_strip(text: str) -> bool:
    """Whether ``nbstripout --verify`` would fail on this notebook text (stripping would change it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=UserWarning)
        nb = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    before = copy.deepcopy(nb)
    return strip_output(nb, keep_output=False, keep_count=False, keep_id=False, extra_keys=EXTRA_KEYS) != before


def test_there_are_notebooks():
    assert any(p.parent.name == "notebooks" for p in NOTEBOOKS)
    assert any(p.parent.name == "tutorials" for p in NOTEBOOKS)


def test_the_check_finds_outputs_and_counts():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1", id="0")])  # ids as nbstripout numbers them
    assert not would_strip(nbformat.writes(nb))
    nb.cells[0].execution_count = 1
    assert would_strip(nbformat.writes(nb))
    nb.cells[0].execution_count = None
    nb.cells[0].outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"})]
    assert would_strip(nbformat.writes(nb))
    nb.cells[0].outputs = []
    nb.metadata["widgets"] = {"state": {}}
    assert would_strip(nbformat.writes(nb))


def committed_text(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    """The notebook as git would commit it (its staged text); the file itself if git does not track it."""
    if (root / ".git").exists() and shutil.which("git"):
        staged = subprocess.run(["git", "show", f":{path.relative_to(root).as_posix()}"], cwd=root,
                                capture_output=True, text=True, encoding="utf-8")
        if staged.returncode == 0:
            return staged.stdout
    return path.read_text(encoding="utf-8")


def test_outputs_saved_in_the_working_file_are_not_what_is_checked(tmp_path):
    """A notebook run and saved (outputs in the file, not staged) passes; once staged, it fails."""
    if not shutil.which("git"):
        pytest.skip("git is not installed")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1", id="0")])
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    path = tmp_path / "n.ipynb"
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    assert not would_strip(committed_text(path, tmp_path))  # untracked: the file is read
    subprocess.run([*git, "add", "n.ipynb"], cwd=tmp_path, check=True)
    nb.cells[0].outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"})]
    nb.cells[0].execution_count = 1
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    assert would_strip(path.read_text(encoding="utf-8")) and not would_strip(committed_text(path, tmp_path))
    subprocess.run([*git, "add", "n.ipynb"], cwd=tmp_path, check=True)
    assert would_strip(committed_text(path, tmp_path))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stripped(path):
    assert not would_strip(committed_text(path)), f"{path.name} is staged with outputs; run nbstripout on it"
