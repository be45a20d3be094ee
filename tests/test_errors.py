"""Errors stay short and files are read safely: a bad value is quoted by a short prefix (quoting it never walks the
whole value), a hostile path is cut, and a loader reads only regular files."""

from __future__ import annotations

import importlib
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest

from coffeegames.errors import SHOWN_CHARS, BadArgument, BadData, shown


class Counted:
    """An element that counts how often it is quoted."""

    calls = 0

    def __repr__(self) -> str:
        Counted.calls += 1
        return "c"


def test_a_huge_list_is_quoted_by_a_few_of_its_elements() -> None:
    Counted.calls = 0
    text = shown([Counted() for _ in range(100_000)])
    assert len(text) <= SHOWN_CHARS
    assert Counted.calls <= SHOWN_CHARS  # reprlib stops at maxlist elements; a plain repr would quote all 100,000


def test_a_huge_text_gives_a_short_message_that_starts_with_it() -> None:
    error = BadArgument("name", "must be a colour", "x" * 10_000_000)
    assert len(str(error)) < 300
    assert "got 'xxxxxxxx" in str(error) and str(error).endswith("…")


def test_small_values_are_quoted_whole_as_repr_gives_them() -> None:
    for value in ([1, 2, 3], {"a": [1, (2, 3)]}, "tea", b"abc", 2.5, None, frozenset({4})):
        assert shown(value) == repr(value)


LOADERS = ["dairyman.load_tiles", "vivajava.load_data", "roaster.load_cards", "roaster.load_board", "gizmos.load_cards",
           "rush.load_orders", "rush.load_board", "rush.load_upgrades"]


def _loader(name: str) -> Callable[[Path], object]:
    game, function = name.split(".")
    return cast(Callable[[Path], object], getattr(importlib.import_module(f"coffeegames.{game}"), function))


@pytest.mark.parametrize("load", LOADERS)
def test_every_loader_reads_only_regular_files(load: str, tmp_path: Path) -> None:
    """A named pipe would block a reader forever, /dev/zero never ends, a folder is no file: each is refused unread."""
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    signal.alarm(20)  # a loader that opens the pipe for reading would wait for a writer: fail instead of hanging
    try:
        for path in (pipe, Path("/dev/zero"), tmp_path):
            with pytest.raises(BadData, match="must be a regular file"):
                _loader(load)(path)
    finally:
        signal.alarm(0)


@pytest.mark.parametrize("load", LOADERS)
def test_a_hostile_path_is_not_repeated_whole(load: str, tmp_path: Path) -> None:
    with pytest.raises(BadData) as error:
        _loader(load)(Path("/" + "a" * 5000))
    assert len(str(error.value)) < 400 and "cannot be read" in str(error.value)
