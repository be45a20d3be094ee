"""Committed notebooks carry no outputs (nbstripout --verify)."""

import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for folder in ("notebooks", "tutorials") for p in (ROOT / folder).glob("*.ipynb"))


def test_there_are_notebooks():
    assert any(p.parent.name == "notebooks" for p in NOTEBOOKS)
    assert any(p.parent.name == "tutorials" for p in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stripped(path):
    exe = shutil.which("nbstripout", path=str(pathlib.Path(sys.executable).parent)) or shutil.which("nbstripout")
    assert exe, "nbstripout is not installed (it is in the [test] extra)"
    result = subprocess.run([exe, "--verify", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, f"{path.name} has outputs; run nbstripout on it\n{result.stdout}{result.stderr}"
