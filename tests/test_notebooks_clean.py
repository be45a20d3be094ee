"""Committed notebooks carry no outputs: ``nbstripout --verify``, run in process (nbstripout's own ``strip_output``,
the command's defaults) rather than one ``nbstripout`` process per notebook (83 s of the suite)."""

import copy
import pathlib
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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stripped(path):
    assert not would_strip(path.read_text(encoding="utf-8")), f"{path.name} has outputs; run nbstripout on it"
