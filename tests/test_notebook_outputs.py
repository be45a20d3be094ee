"""No notebook writes into an ``ipywidgets.Output`` through its context manager (``with out:``) or ``out.capture()``.

Why: while a cell runs, output captured into an Output widget makes nbclient (which runs every notebook for Voilà's
app pages, for nbmake in the suite and for the book) send the widget's new state to the kernel on the shell channel
while it waits on that same channel for the cell's reply. Now and then the reply is never seen and the run waits
forever with the kernel idle: nbclient's issue #312. Coffee Rush's page stalled that way (2 loads of 28 here under
load, none of 45 once its "best plans" cell drew into an HTML widget instead). A cell that follows the view sets an
``HTML`` widget's value (or an Output's ``outputs``), as every notebook here does.
"""

import ast
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for folder in ("notebooks", "tutorials") for p in (ROOT / folder).glob("*.ipynb"))


def captures(source: str) -> list[str]:
    """The Output widgets the code ``source`` writes into by capture: ``with out:`` or ``out.capture()``, where
    ``out`` was made by a call to ``Output`` in the same code."""
    tree = ast.parse(source)
    outputs = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
               and getattr(node.value.func, "attr", getattr(node.value.func, "id", None)) == "Output"
               for target in node.targets if isinstance(target, ast.Name)}
    found = [item.context_expr.id for node in ast.walk(tree) if isinstance(node, ast.With | ast.AsyncWith)
             for item in node.items if isinstance(item.context_expr, ast.Name) and item.context_expr.id in outputs]
    found += [node.func.value.id for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Attribute) and node.func.attr == "capture"
              and isinstance(node.func.value, ast.Name) and node.func.value.id in outputs]
    return found


def test_the_check_finds_a_capture():
    assert captures("import ipywidgets as w\nout = w.Output()\nwith out:\n    print(1)\nout") == ["out"]
    assert captures("from ipywidgets import Output\nbox = Output()\n@box.capture()\ndef f():\n    pass") == ["box"]
    assert captures("import ipywidgets as w\nout = w.HTML()\nout.value = '<b>1</b>'\nwith open('x') as f:\n    pass") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_cell_captures_into_an_output_widget(path):
    cells = json.loads(path.read_text())["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code"
                     and not "".join(c["source"]).lstrip().startswith(("%", "!")))
    assert not captures(code), (f"{path.name} writes into Output widgets {captures(code)} with `with` or `.capture()`: "
                                "nbclient can stall on that (see this test's docstring); set an HTML widget's value")
