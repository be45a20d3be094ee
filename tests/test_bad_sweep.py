"""The generated sweep of the public API (issue 29): every public callable of every game package, of ``exact``,
``engine`` and the top-level package, called by Hypothesis with hostile values (bools, floats, NaN, infinity,
unknown names, huge and negative sizes, long strings, a named pipe and device files for paths, None, empty and odd
containers) answers with a valid result or one of the library's own errors, with a message under ~300 characters.

Derandomized and bounded (a few examples per callable), so the suite stays quick and a failure reproduces.
"""

from __future__ import annotations

import atexit
import enum
import importlib
import inspect
import math
import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coffeegames.errors import CoffeeGamesError

PACKAGES = ("coffeegames", "coffeegames.exact", "coffeegames.engine", "coffeegames.dairyman", "coffeegames.vivajava",
            "coffeegames.roaster", "coffeegames.gizmos", "coffeegames.rush")
"""Every package whose ``__all__`` is swept (the widgets need a notebook and are swept by their own tests)."""
MESSAGE_CHARS = 300
HANG_SECONDS = 60
"""Not a timing check: a call still running after a minute is a hang (a blocked read, an endless loop)."""

_FOLDER = tempfile.mkdtemp(prefix="coffeegames-sweep-")
atexit.register(shutil.rmtree, _FOLDER, True)
PIPE = os.path.join(_FOLDER, "pipe")
os.mkfifo(PIPE)  # opening it for reading blocks until a writer comes: a loader must refuse it unread

HOSTILE = st.one_of(
    st.booleans(),
    st.sampled_from([2.5, -0.5, math.nan, math.inf, -math.inf, 1e300]),
    st.sampled_from([-1, -(10**9), 10**9, 10**24, 2**63]),
    st.sampled_from(["cofee", "teaa", "smoek", "", "x" * 100_000, "bean2:²", "\x00"]),
    st.text(max_size=12),
    st.sampled_from([PIPE, Path(PIPE), "/dev/zero", Path("/dev/null"), "/etc", _FOLDER + "/missing.json"]),
    st.none(),
    st.sampled_from([[], {}, (), set(), [10**9], {"cofee": 10**24}, [[1]], object(), b"bytes"]),
    st.lists(st.sampled_from([math.nan, -1, "x", None, 10**24]), max_size=4),
)


def _public() -> Iterator[tuple[str, Callable[..., Any]]]:
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            thing = getattr(module, name)
            if not callable(thing) or inspect.isabstract(thing):
                continue
            if isinstance(thing, type) and (issubclass(thing, (BaseException, enum.Enum)) or getattr(thing, "_is_protocol", False)):
                continue  # errors and enums are Python's own (an enum looks its value up)
            try:
                inspect.signature(thing)
            except (TypeError, ValueError):
                continue
            yield f"{package}.{name}", thing


PUBLIC = dict(_public())


def _hang(*_: Any) -> None:
    raise TimeoutError(f"no answer within {HANG_SECONDS} s: a hang")


def call_once(call: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]) -> None:
    """Call; a valid result or a project error with a short message passes, anything else fails the test."""
    previous = signal.signal(signal.SIGALRM, _hang)
    signal.alarm(HANG_SECONDS)
    try:
        call(*args, **kwargs)
    except CoffeeGamesError as error:
        assert len(str(error)) <= MESSAGE_CHARS, f"a {len(str(error))}-character message: {str(error)[:200]}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_the_sweep_covers_every_game_package() -> None:
    for game in ("dairyman", "vivajava", "roaster", "gizmos", "rush"):
        assert sum(name.startswith(f"coffeegames.{game}.") for name in PUBLIC) >= 10, game


@pytest.mark.parametrize("name", sorted(PUBLIC))
@settings(max_examples=6, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_input_gets_a_project_error_or_an_answer(name: str, data: st.DataObject) -> None:
    call = PUBLIC[name]
    parameters = list(inspect.signature(call).parameters.values())
    required = [p for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keywords = [p.name for p in parameters if p.default is not p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    args = [data.draw(HOSTILE, label=p.name) for p in required]
    chosen = data.draw(st.lists(st.sampled_from(keywords), max_size=2, unique=True), label="keywords") if keywords else []
    kwargs = {k: data.draw(HOSTILE, label=k) for k in chosen}
    call_once(call, args, kwargs)
