"""The quick CLI answers load neither pandas nor the solvers, and the game packages import their modules on first use
(``coffeegames/lazy.py``) while showing the same names as before. Timings are in ``benchmarks/`` (import part of
``run_all.py``), never here: these tests check which modules a command imports."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import coffeegames

GAMES = tuple(coffeegames.games())  # the registry: a game's name is its package's

QUICK = [
    ["games"],
    ["games", "--json"],
    ["dairyman", "odds"],
    ["dairyman", "odds", "--dice", "6", "--frozen", "5", "--json"],
    ["dairyman", "lock", "4", "6", "5", "5", "1"],
    ["dairyman", "lock", "1", "1", "2"],
    ["dairyman", "reroll", "1", "1", "2", "3", "--json"],
    ["vivajava", "odds", "--coffee-dice", "4", "--flavour", "1", "--beat", "regular", "red"],
    ["vivajava", "meter"],
    ["roaster", "draw", "bean2:4 bean3:2 smoke:1 moisture:3", "--draws", "2"],
    ["roaster", "draw", "smoke:1", "bean4:2", "--crack", "--json"],
    ["gizmos", "draw", "red:13", "blue:10", "black:12", "yellow:9", "--draws", "3"],
    ["gizmos", "pay", "red:13 blue:10", "--colour", "blue", "--cost", "3", "--held", "1", "--json"],
    ["rush", "orders", "--next", "2", "--seen", "coffee+milk", "--held", "tea", "milk"],
    ["rush", "orders", "--json"],
]
"""The quick-answer commands (the odds-like ones; ``decide``, ``turn`` and ``roaster cup`` run solvers)."""

HEAVY = ("pandas", "scipy", "coffeegames.engine", "coffeegames.dairyman.turn", "coffeegames.roaster.cup", "coffeegames.gizmos.state",
         "coffeegames.rush.state")
"""Modules none of the quick answers needs."""


def _python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_the_quick_cli_answers_do_not_import_pandas_or_the_solvers() -> None:
    code = f"""
import contextlib, io, json, sys
from coffeegames.cli import main
loaded = {{}}
for argv in {QUICK!r}:
    with contextlib.redirect_stdout(io.StringIO()):
        main(argv)
    loaded[" ".join(argv)] = [m for m in {HEAVY!r} if m in sys.modules]
print(json.dumps(loaded))
"""
    loaded = json.loads(_python(code))
    assert loaded == {" ".join(argv): [] for argv in QUICK}


def test_a_game_package_imports_its_modules_on_first_use() -> None:
    code = """
import json, sys
from coffeegames import dairyman, roaster
before = sorted(m for m in sys.modules if m.startswith(("coffeegames.dairyman.", "coffeegames.roaster.")))
dairyman.p_bust
print(json.dumps([before, "coffeegames.dairyman.odds" in sys.modules, "coffeegames.dairyman.state" in sys.modules]))
"""
    assert json.loads(_python(code)) == [[], True, False]


def _checked_names(game: str) -> set[str]:
    """The names the package's ``if TYPE_CHECKING:`` block imports (what readers and mypy see)."""
    tree = ast.parse(Path(coffeegames.__file__).with_name(game).joinpath("__init__.py").read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    return {alias.asname or alias.name for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}


@pytest.mark.parametrize("game", GAMES)
def test_a_lazy_game_package_exports_what_its_type_checking_block_imports(game: str) -> None:
    package = importlib.import_module(f"coffeegames.{game}")
    assert _checked_names(game) == set(package.__all__)
    assert len(package.__all__) == len(set(package.__all__))
    assert set(package.__all__) <= set(dir(package))
    for name in package.__all__:
        value = getattr(package, name)
        if inspect.ismodule(value):
            assert value.__name__ == f"{package.__name__}.{name}"
        else:
            module, original = package._lazy_where[name]  # the run-time table, checked against the block
            assert value is getattr(importlib.import_module(f"{package.__name__}.{module}"), original), name
    with pytest.raises(AttributeError, match="no attribute"):
        getattr(package, "no_such_name")


def test_a_name_that_is_also_a_module_stays_the_name() -> None:
    """``explain`` is a function and a module of three packages (``paths``, ``pours`` of Coffee Rush): importing the
    module first, as another module or a doctest run may, must leave the package's name the function."""
    code = """
import importlib, inspect, json
shadowed = [("dairyman", "explain"), ("vivajava", "explain"), ("roaster", "explain"), ("rush", "paths"), ("rush", "pours")]
for game, name in shadowed:
    importlib.import_module(f"coffeegames.{game}.{name}")
found = []
for game, name in shadowed:
    package = importlib.import_module(f"coffeegames.{game}")
    exec(f"from coffeegames.{game} import {name} as imported")
    found.append(inspect.isfunction(getattr(package, name)) and imported is getattr(package, name))
print(json.dumps(found))
"""
    assert json.loads(_python(code)) == [True] * 5


def test_star_import_gives_every_name() -> None:
    namespace: dict[str, object] = {}
    exec("from coffeegames.roaster import *", namespace)
    assert set(importlib.import_module("coffeegames.roaster").__all__) <= set(namespace)


@pytest.mark.parametrize("game", sorted(coffeegames.games()))
def test_a_lazy_game_package_pickles_by_name_as_a_module_does(game: str) -> None:
    """A function that uses ``roaster.greedy_policy`` goes to a worker process (joblib, Dask: cloudpickle) with it."""
    import pickle

    import cloudpickle

    package = importlib.import_module(f"coffeegames.{game}")
    assert pickle.loads(pickle.dumps(package)) is package
    uses = eval(f"lambda: coffeegames.{game}")  # a function naming the package, as a bot factory would
    assert pickle.loads(cloudpickle.dumps(uses))() is package
