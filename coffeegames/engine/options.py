"""Game options as documented dataclass fields: every Rule, Fact, Ruling and Stand-in in one table.

Each engine's ``Rules`` dataclass gives every field ``metadata={"kind": ..., "doc": ...}``;
:func:`option_table` lists them for a player or teacher to read.

Example:
    >>> from dataclasses import dataclass, field
    >>> @dataclass(frozen=True)
    ... class Rules:
    ...     goal: int = field(default=21, metadata={"kind": "Rule", "doc": "PP needed to win"})
    >>> option_table(Rules()).loc["goal", "kind"]
    'Rule'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pandas as pd


def option_table(rules: Any, shown: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """One row per option: its value (or ``shown[name]`` for bulky ones), kind and meaning."""
    shown = shown or {}
    rows = {
        f.name: {"value": shown.get(f.name, getattr(rules, f.name)), "kind": f.metadata["kind"], "meaning": f.metadata["doc"]}
        for f in dataclasses.fields(rules)
    }
    return pd.DataFrame.from_dict(rows, orient="index")
