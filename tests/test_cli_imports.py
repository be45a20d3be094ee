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
from coffeegames.lazy import public_names

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

HEAVY = ("pandas", "scipy", "coffeegames.engine.state", "coffeegames.engine.solve", "coffeegames.dairyman.turn", "coffeegames.roaster.cup", "coffeegames.gizmos.state",
         "coffeegames.rush.state")
"""Modules none of the quick answers needs (``coffeegames.engine`` itself is lazy: a rules module takes its option
helper from it)."""


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


LAZY_PACKAGES = (*GAMES, "engine")
"""Every package whose names :mod:`coffeegames.lazy` derives from its ``if TYPE_CHECKING:`` block."""


def _eager_namespace(package: str) -> dict[str, object]:
    """What the package's ``if TYPE_CHECKING:`` block binds when Python itself runs it (every module imported up front):
    the oracle for the lazy package, independent of how :mod:`coffeegames.lazy` reads the block."""
    path = Path(coffeegames.__file__).with_name(package).joinpath("__init__.py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    namespace: dict[str, object] = {"__name__": f"coffeegames.{package}", "__package__": f"coffeegames.{package}"}
    exec(compile(ast.Module(body=block.body, type_ignores=[]), str(path), "exec"), namespace)
    return {name: value for name, value in namespace.items() if not name.startswith("__")}


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_a_lazy_package_gives_what_importing_every_module_up_front_gives(package: str) -> None:
    lazy = importlib.import_module(f"coffeegames.{package}")
    eager = _eager_namespace(package)
    assert sorted(lazy.__all__) == sorted(eager)
    assert len(lazy.__all__) == len(set(lazy.__all__))
    assert set(lazy.__all__) <= set(dir(lazy))
    for name, value in eager.items():
        assert getattr(lazy, name) is value, name
    with pytest.raises(AttributeError, match="no attribute"):
        getattr(lazy, "no_such_name")


@pytest.mark.parametrize("block", [
    "x = 1",                        # not an import
    "from coffeegames import exact",  # not relative to the package
    "import os",
])
def test_a_type_checking_block_holds_only_the_packages_imports(block: str) -> None:
    source = f"from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .odds import p_bust\n    {block}\n"
    with pytest.raises(ImportError, match="line 4: the TYPE_CHECKING block holds only"):
        public_names(source, "coffeegames.example")
    with pytest.raises(ImportError, match="needs one `if TYPE_CHECKING:` block"):
        public_names("from .odds import p_bust\n", "coffeegames.example")


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


@pytest.mark.parametrize("game", LAZY_PACKAGES)
def test_a_lazy_package_pickles_by_name_as_a_module_does(game: str) -> None:
    """A function that uses ``roaster.greedy_policy`` goes to a worker process (joblib, Dask: cloudpickle) with it."""
    import pickle

    import cloudpickle

    package = importlib.import_module(f"coffeegames.{game}")
    assert pickle.loads(pickle.dumps(package)) is package
    uses = eval(f"lambda: coffeegames.{game}")  # a function naming the package, as a bot factory would
    assert pickle.loads(cloudpickle.dumps(uses))() is package
