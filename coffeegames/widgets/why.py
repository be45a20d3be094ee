"""The "why this value?" panel of a decision view: a choice's value taken apart, beside the best other choice.

:func:`why_html` draws a :class:`~coffeegames.engine.explain.Why` as HTML: for the chosen
action and for the one it is compared with, the outcomes that follow with their exact
chance and value and each product, the weighted sum written out equal to the value, what
the value measures, the sample behind an estimate; then the difference in one sentence. An
estimate reads as a decimal ± its standard error with its sample's size, never as a fraction;
one that is not taken apart into outcomes shows its sample instead: a table of its size, mean,
standard error and spread.

Example:
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> from coffeegames.engine.explain import solver_explainer, why
    >>> from coffeegames.engine.advice import solver_advice
    >>> state = KeepOrReroll(die=3)
    >>> page = why_html(why(state, solver_advice()(state), solver_explainer()), "points")
    >>> "1/6 × 1 + 1/6 × 2" in page, "more than the runner-up, Keep() (3)" in page
    (True, True)
"""

from __future__ import annotations

import html
from fractions import Fraction

from ..engine.advice import Sample
from ..engine.explain import Breakdown, Why
from ..errors import BadArgument
from ..text import exact_text, mean_text, percent
from ..validate import Checker, check_instance

__all__ = ["breakdown_html", "why_html"]

_CELL = "padding:2px 10px;border-bottom:1px solid #dee2e6;text-align:right;font-variant-numeric:tabular-nums"
_LEFT = "padding:2px 10px;border-bottom:1px solid #dee2e6;text-align:left"
_MUTED = "color:#495057;font-size:12px"


def _chance(p: object) -> str:
    text = str(p)
    return f"{text} ({percent(p)})" if len(text) <= 15 else percent(p)  # type: ignore[arg-type]


def _texts(**texts: object) -> None:
    check = Checker("", BadArgument)
    for where, text in texts.items():
        check.text(text, where)


def breakdown_html(b: Breakdown, value_name: str, role: str) -> str:
    """One breakdown: a heading, what the value measures, the terms as a table, the sum written out.

    ``role`` names it (``"your choice"``, ``"the runner-up"``).
    """
    check_instance(b, Breakdown, "b", "a Breakdown (coffeegames.engine.explain)")
    _texts(value_name=value_name, role=role)
    head = f"<div><b>{html.escape(role)}: {html.escape(b.label)}</b>"
    if b.value is None:
        return head + f" — {html.escape(b.how or 'not valued')}</div>"
    if b.sample is not None:  # a sample mean: a decimal ± its standard error, never a fraction
        head += f", worth <b>{html.escape(b.sample.value_short(b.value))}</b> ({html.escape(value_name)}; " \
                f"{html.escape(b.sample.size_text())})</div>"
        if b.certain:  # the estimate alone, not a sum over outcomes: show the sample behind it instead
            return head + _sample_html(b.sample, b.value)
    else:
        head += f", worth exactly <b>{html.escape(exact_text(b.value))}</b> ({html.escape(value_name)})</div>"
    how = f"<div style='{_MUTED}'>{html.escape(b.how)}</div>" if b.how else ""
    chance = "chance" if b.sample is None else "share of the sample"
    rows = "".join(
        f"<tr><td style='{_LEFT}'>{html.escape(t.outcome)}</td><td style='{_CELL}'>{html.escape(_chance(t.chance))}</td>"
        f"<td style='{_CELL}'>{html.escape(mean_text(t.value))}</td><td style='{_CELL}'>{html.escape(mean_text(t.chance * t.value))}</td></tr>"
        for t in b.terms
    )
    th = "style='padding:2px 10px;background:#f1f3f5;text-align:right'"
    table = (
        "<table style='border-collapse:collapse;font-size:13px;margin:3px 0'>"
        f"<tr><th style='padding:2px 10px;background:#f1f3f5;text-align:left'>what follows</th><th {th}>{chance}</th>"
        f"<th {th}>value from there</th><th {th}>{chance} × value</th></tr>{rows}"
        f"<tr><td style='{_LEFT}'><b>sum</b></td><td style='{_CELL}'>{html.escape(_chance(sum(t.chance for t in b.terms)))}</td>"
        f"<td style='{_CELL}'></td><td style='{_CELL}'><b>{html.escape(mean_text(b.total))}</b></td></tr></table>"
    )
    equation = f"<div style='font-family:monospace;font-size:12px'>{html.escape(b.equation())}</div>"
    sample = f"<div style='{_MUTED}'>⚠ {html.escape(b.sample.text())}</div>" if b.sample is not None else ""
    return head + how + _parts_html(b) + table + equation + sample + _table_html(b.table)


def _parts_html(b: Breakdown) -> str:
    """The value as the sum of its parts (when the game splits it), written out: ``'roast 3 + flavour 2 − minus 1 = 4'``."""
    if not b.parts:
        return ""
    cells = "".join(f"<tr><td style='{_LEFT}'>{html.escape(name)}</td><td style='{_CELL}'>{html.escape(mean_text(v))}</td></tr>"
                    for name, v in b.parts)
    total = f"<tr><td style='{_LEFT}'><b>sum: the value</b></td><td style='{_CELL}'><b>{html.escape(mean_text(b.parts_total))}</b></td></tr>"
    return ("<table style='border-collapse:collapse;font-size:13px;margin:3px 0'><tr><th style='padding:2px 10px;"
            f"background:#f1f3f5;text-align:left'>part of the value</th><th style='padding:2px 10px;background:#f1f3f5;"
            f"text-align:right'>expected</th></tr>{cells}{total}</table>")


def _table_html(rows: tuple[tuple[str, ...], ...]) -> str:
    """A breakdown's small table (its first row the headings), e.g. a plan draw by draw.

    >>> "<th" in _table_html((("draw", "goes to"), ("1", "the cup"))), _table_html(())
    (True, '')
    """
    if not rows:
        return ""
    th = "style='padding:2px 10px;background:#f1f3f5;text-align:left'"
    head = "".join(f"<th {th}>{html.escape(h)}</th>" for h in rows[0])
    body = "".join("<tr>" + "".join(f"<td style='{_LEFT}'>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows[1:])
    return f"<table style='border-collapse:collapse;font-size:12px;margin:3px 0'><tr>{head}</tr>{body}</table>"


def _sample_html(sample: Sample, value: Fraction) -> str:
    """The sample behind an estimate as a small table: its size, mean, standard error (and the 95% interval it gives),
    how it spreads (the adviser's rows), and how it was taken.

    >>> page = _sample_html(Sample(40, 0.5, unit="playouts", spread=(("ended ahead", "25 of 40 (62.5%)"),)), Fraction(3, 2))
    >>> "40 playouts" in page, "1.50" in page, "0.50" in page, "ended ahead" in page, "3/2" in page
    (True, True, True, True, False)
    """
    mean = float(value)
    rows = [("sample", f"{sample.size:,} {sample.unit}" if sample.size is not None else "its size is not given"),
            ("mean (the estimate)", f"{mean:.2f}" + (" or more (a lower estimate)" if sample.lower else ""))]
    if sample.stderr == sample.stderr and not sample.lower:
        rows += [("standard error of the mean", f"{sample.stderr:.2f}"),
                 ("95% interval of the mean (± 1.96 standard errors)",
                  f"{mean - 1.96 * sample.stderr:.2f} to {mean + 1.96 * sample.stderr:.2f}")]
    rows += list(sample.spread)
    cells = "".join(f"<tr><td style='{_LEFT}'>{html.escape(what)}</td><td style='{_CELL}'>{html.escape(much)}</td></tr>"
                    for what, much in rows)
    note = f"<div style='{_MUTED}'>{html.escape(sample.note)}</div>" if sample.note else ""
    return (f"<div style='{_MUTED}'>⚠ an estimate: the mean of a sample, not an exact sum over outcomes</div>"
            f"<table style='border-collapse:collapse;font-size:13px;margin:3px 0'>{cells}</table>{note}")


def why_html(why: Why | None, value_name: str) -> str:
    """The whole panel: the chosen action, the one it is compared with, the difference ('' for no choice)."""
    if why is not None:
        check_instance(why, Why, "why", "a Why (coffeegames.engine.explain.why) or None")
    _texts(value_name=value_name)
    if why is None:
        return ""
    about = "the sample behind the estimate of the choice picked in the list: its size, mean, standard error and spread" \
        if why.chosen.sample is not None and why.chosen.certain else \
        "the outcomes that follow the choice picked in the list, each with its exact chance; chance × value, added up, " \
        "is the choice's value"
    parts = ["<div style='font-size:14px;margin-bottom:2px'><b>Why this value?</b> "
             f"<span style='color:#495057'>({about})</span></div>",
             breakdown_html(why.chosen, value_name, "your choice")]
    if why.other is not None:
        parts.append(breakdown_html(why.other, value_name, why.other_role))
    if why.difference:
        parts.append(f"<div style='margin-top:4px'>{html.escape(why.difference)}</div>")
    return "<div style='border-left:3px solid #d9480f;padding:2px 10px'>" + "".join(parts) + "</div>"
