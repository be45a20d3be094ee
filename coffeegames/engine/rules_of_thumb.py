"""Rules of thumb against the exact optimal policy: the policy as a picture, and what a plain rule gives up.

A push-your-luck decision (Dairyman's roll or stop, VivaJava's keep or re-roll, Coffee Roaster's stop or
draw on) has an exact optimal policy: at each position the choice of largest expected points, as the game's
own solver defines it. This module holds what every game shares (each game's ``rules_of_thumb`` module gives
its positions, its solver's values and its family of rules):

* :class:`Rule`: a plain rule in words, its ``size`` (how many numbers a person must remember: 0 for "always
  the same", 1 for one threshold, 2 for two) and ``decide(position)``, the choice it makes;
* :func:`optimal_policy`: a table of the choice at each cell of a grid of positions (``""`` where no turn goes);
* :func:`rule_values`: each rule's exact expected value from the start of a turn beside the optimal one, with
  what it gives up, ``loss = optimal − value`` and ``loss_share = loss / optimal``, exact Fractions;
* :func:`best_rule`: the simplest rule within a tolerance (1% by default) of the optimal value, the most
  valuable first among equally simple ones; if none is within it, the most valuable rule found;
* :func:`policy_figure`: the table as a plotly heatmap, one colour a choice, a rule's disagreements marked.

Example:
    >>> from fractions import Fraction
    >>> always = Rule("always stop", 0, lambda position: "stop")
    >>> table = rule_values(Fraction(10), {always: Fraction(9)})
    >>> row = best_rule(table, tolerance=Fraction(1, 5))
    >>> row["rule"], row["loss"], row["loss_share"], row["within"]
    ('always stop', Fraction(1, 1), Fraction(1, 10), True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import BadArgument, BadType
from ..validate import check_instance

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = ["TOLERANCE", "Rule", "best_rule", "optimal_policy", "policy_figure", "rule_values"]

TOLERANCE = Fraction(1, 100)
"""How close to the optimal value a rule of thumb must come (1%, of the optimal value's size)."""

COLUMNS = ["rule", "size", "value", "loss", "loss_share", "within", "value_float", "loss_percent"]


@dataclass(frozen=True, eq=False)
class Rule:
    """A plain rule: ``name`` in words, ``size`` (numbers to remember) and ``decide(position) -> choice``.

    >>> Rule("stop with 2 sets", 1, lambda p: "stop" if p[1] >= 2 else "roll").decide((4, 2))
    'stop'
    """

    name: str
    size: int
    decide: Callable[[Any], str]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise BadType("name", "must be a rule's words (non-empty text)", self.name)
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 0:
            raise BadType("size", "must be a whole number 0 or more (the numbers a person remembers)", self.size)
        if not callable(self.decide):
            raise BadType("decide", "must be a function position -> choice", self.decide)

    def __str__(self) -> str:
        return self.name


def _fraction(value: Any, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise BadType(where, "must be an exact number (int or Fraction)", value)
    return Fraction(value)


def _tolerance(tolerance: Any) -> Fraction:
    tol = _fraction(tolerance, "tolerance")
    if not 0 <= tol <= 1:
        raise BadArgument("tolerance", "must be a share of the optimal value from 0 to 1, e.g. Fraction(1, 100)", tolerance)
    return tol


def rule_values(optimal: Fraction | int, values: Mapping[Rule, Fraction | int], tolerance: Fraction | int = TOLERANCE) -> pd.DataFrame:
    """Each rule's exact value beside the ``optimal`` one: a DataFrame, simplest rules first, then most valuable.

    Columns: ``rule`` (its words), ``size``, ``value``, ``loss`` (``optimal − value``), ``loss_share``
    (``loss / |optimal|``; the loss itself when the optimal value is 0), ``within`` (``loss_share ≤ tolerance``), and floats for plotting
    (``value_float``, ``loss_percent``). Exact columns hold Fractions.

    >>> r = Rule("always roll", 0, lambda p: "roll")
    >>> rule_values(4, {r: 3})[["rule", "loss", "loss_share"]].iloc[0].tolist()
    ['always roll', Fraction(1, 1), Fraction(1, 4)]
    """
    import pandas as pd

    best = _fraction(optimal, "optimal")
    tol = _tolerance(tolerance)
    if not isinstance(values, Mapping):
        raise BadType("values", "must be a mapping {Rule: exact value}", values)
    rows = []
    for rule, value in values.items():
        check_instance(rule, Rule, "values", "a mapping whose keys are Rule objects")
        v = _fraction(value, "values")
        loss = best - v
        share = loss / abs(best) if best else loss
        rows.append({"rule": rule.name, "size": rule.size, "value": v, "loss": loss, "loss_share": share,
                     "within": bool(share <= tol), "value_float": float(v), "loss_percent": 100 * float(share)})
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame = frame.sort_values(["size", "value_float"], ascending=[True, False], kind="stable").reset_index(drop=True)
    frame.attrs["optimal"], frame.attrs["tolerance"] = best, tol
    return frame


def best_rule(table: pd.DataFrame, tolerance: Fraction | int | None = None) -> pd.Series:
    """The simplest rule of :func:`rule_values`' ``table`` within ``tolerance`` (default: the table's), the most
    valuable first among equally simple ones; if none is within it, the most valuable rule (``within`` False).

    >>> r, s = Rule("a", 0, str), Rule("b", 1, str)
    >>> best_rule(rule_values(100, {r: 90, s: 99}))["rule"]
    'b'
    """
    import pandas as pd

    check_instance(table, pd.DataFrame, "table", "a table from rule_values")
    if list(table.columns) != COLUMNS or table.empty:
        raise BadArgument("table", "must be a non-empty table from rule_values", f"columns {list(table.columns)}")
    tol = _tolerance(table.attrs.get("tolerance", TOLERANCE) if tolerance is None else tolerance)
    within = [share <= tol for share in table["loss_share"]]
    at = within.index(True) if any(within) else int(table["value_float"].to_numpy().argmax())
    row = table.iloc[at].copy()
    row["within"] = any(within)
    return row.rename(None)


def optimal_policy(rows: Iterable[Hashable], columns: Iterable[Hashable], decide: Callable[[Any, Any], str | None],
                   row_name: str = "row", column_name: str = "column") -> pd.DataFrame:
    """The choice ``decide(row, column)`` at each cell of a grid, as a DataFrame (``""`` where it gives None: no turn goes there).

    >>> optimal_policy([1, 2], [0], lambda d, s: "stop" if d < 2 else "roll").to_dict()
    {0: {1: 'stop', 2: 'roll'}}
    """
    import pandas as pd

    if not callable(decide):
        raise BadType("decide", "must be a function (row, column) -> choice or None", decide)
    row_keys = _keys(rows, "rows")
    column_keys = _keys(columns, "columns")
    cells = {r: {c: decide(r, c) or "" for c in column_keys} for r in row_keys}
    frame = pd.DataFrame.from_dict(cells, orient="index", columns=column_keys)
    frame.index.name, frame.columns.name = str(row_name), str(column_name)
    return frame


def _keys(keys: Any, where: str) -> list[Hashable]:
    if isinstance(keys, (str, bytes, Mapping)) or not isinstance(keys, Iterable):
        raise BadType(where, "must be a list of row or column labels", keys)
    found = list(keys)
    if not found or len(found) > 1000 or not all(isinstance(k, Hashable) for k in found):
        raise BadArgument(where, "must list 1 to 1000 plain labels", found)
    return found


def policy_figure(table: pd.DataFrame, title: str = "The optimal policy", rule: Rule | None = None,
                  position: Callable[[Any, Any], Any] | None = None) -> go.Figure:
    """:func:`optimal_policy`'s table as a plotly heatmap: one colour a choice, blank where no turn goes.

    With a ``rule`` (and ``position(row, column)``, the position it decides; by default ``(row, column)``), each
    cell where the rule chooses otherwise is marked ``✗``: the picture shows where the rule of thumb errs.

    >>> fig = policy_figure(optimal_policy([1, 2], [1], lambda d, s: "stop" if d < 2 else "roll"))
    >>> fig.data[0].type
    'heatmap'
    """
    import pandas as pd
    import plotly.graph_objects as go

    check_instance(table, pd.DataFrame, "table", "a table from optimal_policy")
    if table.empty:
        raise BadArgument("table", "must be a non-empty table from optimal_policy")
    if not isinstance(title, str):
        raise BadType("title", "must be text", title)
    if rule is not None:
        check_instance(rule, Rule, "rule", "a Rule")
    if position is not None and not callable(position):
        raise BadType("position", "must be a function (row, column) -> position", position)
    choices = sorted({str(v) for v in table.to_numpy().ravel() if v})
    code = {c: i for i, c in enumerate(choices)}
    z: list[list[float | None]] = []
    marks: list[list[str]] = []
    for r in table.index:
        z.append([code[str(v)] if v else None for v in table.loc[r]])
        line = []
        for c in table.columns:
            cell = table.loc[r, c]
            off = rule is not None and bool(cell) and rule.decide(position(r, c) if position else (r, c)) != cell
            line.append(f"{cell} ✗" if off else str(cell))
        marks.append(line)
    palette = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2"]
    n = max(len(choices), 1)
    scale: list[list[float | str]] = []
    for i in range(n):
        colour = palette[i % len(palette)]
        scale += [[i / n, colour], [(i + 1) / n, colour]]
    heat = go.Heatmap(z=z, x=[str(c) for c in table.columns], y=[str(r) for r in table.index], text=marks,
                      texttemplate="%{text}", colorscale=scale, zmin=-0.5, zmax=n - 0.5, showscale=False,
                      hovertemplate="%{y}, %{x}: %{text}<extra></extra>")
    fig = go.Figure(heat)
    subtitle = f"<br><sup>✗: where the rule '{rule.name}' chooses otherwise</sup>" if rule is not None else ""
    fig.update_layout(title=title + subtitle, xaxis_title=str(table.columns.name or ""), yaxis_title=str(table.index.name or ""),
                      xaxis_type="category", yaxis_type="category", height=420)
    return fig

