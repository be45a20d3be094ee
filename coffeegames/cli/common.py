"""What every command of the command line shares: its tables as text or JSON, option types, deferred defaults.

The tables print each exact value beside its decimal (:func:`print_rows`); ``--json`` writes every
``Fraction`` as ``{"fraction": "1/6", "float": 0.1666...}``. Nothing here imports pandas or a solver, so the
quick answers stay quick (``tests/test_cli_imports.py``).

Example:
    >>> from fractions import Fraction
    >>> print_rows([{"dice": 2, "p_bust": Fraction(11, 12)}], as_json=False)
     dice        p_bust
        2 11/12 (91.7%)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..games import games as registry
from ..text import fraction_text, mean_text, text_table

__all__: list[str] = []  # the command line's own helpers: its public face is coffeegames.cli.main


def _missing(value: object) -> bool:
    """None, or pandas' NA (only a table made by pandas holds it, and pandas is then loaded)."""
    pandas = sys.modules.get("pandas")
    return value is None or (pandas is not None and value is pandas.NA)


def jsonable(value: object) -> object:
    if isinstance(value, Fraction):
        return {"fraction": str(value), "float": float(value)}
    if _missing(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return value


def print_rows(rows: Sequence[Mapping[Any, object]], as_json: bool, extra: dict | None = None) -> None:
    """A table's rows as JSON (beside ``extra``) or as text, each exact value with its decimal."""
    if as_json:
        print(json.dumps({**(extra or {}), "rows": [{k: jsonable(v) for k, v in row.items()} for row in rows]}, indent=2))
        return
    print(text_table([{column: _shown(column, value) for column, value in row.items()} for row in rows]))


def print_rule_of_thumb(found: Mapping[str, Any], against: str, loss: str, rows: Sequence[Mapping[Any, object]]) -> None:
    """The verdict that ends a ``rule`` command (``found``: the rule, and whether it is within 1% of ``against``; ``loss``
    in words), then the rules' table."""
    verdict = "the simplest rule" if found["within_1_percent"] else "no rule is; the best found"
    print(f"\nRule of thumb (within 1% of {against}: {verdict}): {found['rule']}\n  gives up {loss}\n")
    print_rows(rows, False)


def _shown(column: str, value: object) -> object:
    """A table cell as text: a chance (column ``p_...``, ``P(...)`` or ``probability``) or a mean with its decimal; ``-`` if missing."""
    if isinstance(value, Fraction):
        return fraction_text(value) if column.startswith(("p_", "P(")) or column == "probability" else mean_text(value)
    return "-" if _missing(value) else value



class OldFlag(argparse.Action):
    """A flag's old name: it still works, with a note on stderr naming the new one (hidden from ``--help``)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        new = "--" + self.dest.replace("_", "-")
        print(f"coffeegames: note: {option_string} is the old name of {new}; say {new}", file=sys.stderr)
        setattr(namespace, self.dest, values)



def at_least_one(what: str) -> Callable[[str], int]:
    """An option's type: a whole number 1 or more of ``what`` (``1,000`` and ``1_000`` read too)."""
    def read(text: str) -> int:
        try:
            value = int(text.replace(",", "").replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {what}: use a whole number 1 or more") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{value} {what}: use a whole number 1 or more")
        return value
    return read


positions = at_least_one("positions")



def list_games(args: argparse.Namespace) -> None:
    """The games the library implements (from the registry), with their variants."""
    rows = [{"game": info.name, "title": info.title, "what it teaches": info.summary,
             "variants": "; ".join(", ".join(f"{k}={v}" for k, v in variant.items()) or "default" for variant in info.variants)}
            for info in registry().values()]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(text_table(rows))


class Default:
    """An option's default read from the library when it is needed — for ``--help`` (``%(default)s``, with thousands
    separators) or when the command runs without the option (:func:`main`) — so that building the parser imports no
    solver module: the quick answers stay quick."""

    def __init__(self, read: Callable[[], int]) -> None:
        self.read = read

    def __str__(self) -> str:
        return f"{self.read():,}"
