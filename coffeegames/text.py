"""Exact numbers as text for people: ``'1/12 (8.3%)'``, ``'7/2 ≈ 3.50'``.

Values stay :class:`~fractions.Fraction` until shown; these helpers are the last step,
shared by the command line and the widgets.

Example:
    >>> from fractions import Fraction
    >>> fraction_text(Fraction(1, 12))
    '1/12 (8.3%)'
    >>> percent(Fraction(1010573, 2176782336))  # never rounds a real chance to "0.0%"
    '0.05%'
    >>> fraction_text(Fraction(1))
    '1 (100%)'
    >>> mean_text(Fraction(7, 2))
    '7/2 ≈ 3.50'
    >>> print(text_table([{"dice": 1, "p_bust": "1 (100%)"}, {"dice": 2, "p_bust": "11/12 (91.7%)"}]))
     dice        p_bust
        1      1 (100%)
        2 11/12 (91.7%)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from numbers import Integral

LONGEST_FRACTION = 24
"""Fractions written with more characters than this are shown by their decimal alone."""


__all__ = ["action_words", "exact_text", "fraction_text", "labelled_text", "mean_text", "percent", "text_table"]


def percent(p: Fraction | float) -> str:
    """``p`` as a percentage with one decimal, or more when one would round a real chance to 0% or 100%."""
    value = float(p) * 100
    if p in (0, 1):
        return f"{value:.0f}%"
    for digits in range(1, 13):
        text = f"{value:.{digits}f}"
        if float(text) not in (0.0, 100.0):
            return f"{text}%"
    return f"{value:.2g}%"  # pragma: no cover - below 1e-12 %


def fraction_text(p: Fraction) -> str:
    """An exact probability with its percentage: ``'1/12 (8.3%)'`` (the percentage alone if the fraction is very long)."""
    return f"{p} ({percent(p)})" if len(str(p)) <= LONGEST_FRACTION else percent(p)


def mean_text(m: Fraction, digits: int = 2) -> str:
    """An exact mean with its decimal value: ``'7/2 ≈ 3.50'`` (``'3'`` when whole, ``'≈ 41.54'`` when very long)."""
    if m.denominator == 1:
        return str(m)
    return f"{m} ≈ {float(m):.{digits}f}" if len(str(m)) <= LONGEST_FRACTION else f"≈ {float(m):.{digits}f}"


def exact_text(value: Fraction, chance: bool = False) -> str:
    """The whole exact number with its decimal, however long (for hover text, summaries and "worth exactly").

    >>> exact_text(Fraction(1253971632755, 39182082048)), exact_text(Fraction(11, 12), chance=True)
    ('1253971632755/39182082048 ≈ 32.00', '11/12 (91.7%)')
    """
    if chance:
        return f"{value} ({percent(value)})"
    return str(value) if value.denominator == 1 else f"{value} ≈ {float(value):.2f}"


def labelled_text(label: str, value: object) -> str:
    """A value in a table of named odds: a chance if its label reads "P(...)", else a count or mean.

    >>> labelled_text("P(at least one smoke)", Fraction(1, 3)), labelled_text("expected moisture", Fraction(5, 4))
    ('1/3 (33.3%)', '5/4 ≈ 1.25')
    """
    if isinstance(value, Fraction):
        return fraction_text(value) if label.startswith("P(") else mean_text(value)
    return str(value)


def action_words(action: object, names: dict[str, str]) -> str:
    """An action in a player's words: its ``Name(details)`` text with the name put in words (``names``, by class name;
    a name with ``{}`` takes the details there, else they follow a colon).

    >>> action_words("NewTwo(pay acidity, return hard bean0)", {"NewTwo": "New two"})
    'New two: pay acidity, return hard bean0'
    >>> action_words("Research(green)", {"Research": "Research {}"})
    'Research green'
    >>> action_words("ToCup()", {"ToCup": "Put it in the cup"})
    'Put it in the cup'
    """
    text = str(action)
    head, paren, rest = text.partition("(")
    if not paren or not rest.endswith(")") or head not in names:
        return text
    inner, name = rest[:-1], names[head]
    if "{}" in name:
        return name.replace("{}", inner).strip()
    return f"{name}: {inner}" if inner else name


def text_table(rows: Sequence[Mapping[str, object]]) -> str:
    """Rows (dicts with the same keys) as a plain text table, as pandas' ``to_string(index=False)`` prints them, so the
    command line prints its tables without loading pandas: a line of column names, then a line a row, each column
    right-aligned to its widest cell, one space between columns, and one more before a column of numbers only.
    Cells are written as ``str`` writes them. No rows: an empty string.

    >>> print(text_table([{"reroll": "nothing", "value": "-", "dice": 0}, {"reroll": "all 1s", "value": 1, "dice": 2}]))
     reroll value  dice
    nothing     -     0
     all 1s     1     2
    """
    if not rows:
        return ""
    columns = list(rows[0])
    numbers = [all(isinstance(row[c], (Integral, float)) for row in rows) for c in columns]
    lines = [[" " * n + c for c, n in zip(columns, numbers)], *([str(row[c]) for c in columns] for row in rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(columns))]
    return "\n".join(" ".join(cell.rjust(width) for cell, width in zip(line, widths)) for line in lines)
