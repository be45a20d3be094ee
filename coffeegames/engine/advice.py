"""Advice: every choice at a decision with its value, as typed rows (one :class:`Advice` per legal action).

Every game's ``advise(state)`` returns a ``list[Advice]``, best first: each row names the
action and its label, its value (an exact ``Fraction``, or an estimate with its
:class:`Sample`, or None where the adviser does not value it), what the value measures,
what follows the choice and how the value was found (``then``, ``how``), the game's risk
(a chance: Dairyman's bust on the next roll, VivaJava's losing the blend, ...), whether it
is best, and the game's further exact facts about it (``details``). The decision view and
:func:`~coffeegames.engine.explain.why` read these rows; :func:`advice_frame` turns them into
a pandas DataFrame for a notebook. :func:`solver_advice` advises any small game by exact
expectimax.

Example (roll a die, keep it or reroll once):
    >>> from coffeegames.engine.examples import KeepOrReroll, Keep
    >>> rows = solver_advice()(KeepOrReroll(die=5))
    >>> [(row.label, row.value, row.best) for row in rows]
    [('Keep()', Fraction(5, 1), True), ('Reroll()', Fraction(7, 2), False)]
    >>> advice_of(rows, Keep()).value_text()
    '5'
    >>> advice_frame(rows)[["label", "value", "exact", "best"]].values.tolist()
    [['Keep()', Fraction(5, 1), True, True], ['Reroll()', Fraction(7, 2), True, False]]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import BadArgument, BadType
from ..text import exact_text
from ..validate import check_count, check_instance
from .solve import Expectimax
from .state import State

if TYPE_CHECKING:  # pandas loads when a frame is made, not on import
    import pandas as pd

__all__ = ["Advice", "Advisor", "Sample", "advice_frame", "advice_of", "ranked", "remembered", "solver_advice"]


@dataclass(frozen=True)
class Sample:
    """The sample behind an estimated value.

    >>> s = Sample(200, 0.42, unit="playouts")
    >>> s.value_text(Fraction(-515, 449)), s.value_short(Fraction(-515, 449))
    ('≈ -1.15 ± 0.42 (an estimate from 200 playouts)', '≈ -1.15 ± 0.42')
    """

    size: int | None
    """How many draws (or games) were solved or simulated (None: the adviser does not say)."""
    stderr: float
    """The estimate's standard error."""
    lower: bool = False
    """The estimate is a lower one: a fixed fallback policy played, which cannot beat the best play."""
    note: str = ""
    """How the sample was taken, in words."""
    unit: str = "samples"
    """What the sample counts, a plural word (``"playouts"``, ``"seeded games"``)."""
    spread: tuple[tuple[str, str], ...] = ()
    """How the sample spreads, as ``(what, how much)`` rows in words (how many playouts ended ahead, a few quantiles)."""

    def __post_init__(self) -> None:
        if self.size is not None:
            check_count(self.size, "size")
        if isinstance(self.stderr, bool) or not isinstance(self.stderr, (int, float, Fraction)) or self.stderr < 0:
            raise BadType("stderr", "must be a standard error: a number 0 or more (nan: not known)", self.stderr)

    def text(self) -> str:
        """``'an estimate from 200 playouts, standard error 0.42 (how they were played)'``."""
        stderr = f", standard error {self.stderr:.2f}" if self.stderr == self.stderr else ""
        return f"{self.size_text()}{stderr}" + (f" ({self.note})" if self.note else "")

    def value_short(self, value: Fraction | float) -> str:
        """The estimate as a decimal with its standard error (``'≈ -1.15 ± 0.42'``), never as a fraction: a sample mean
        is not exact. A lower estimate reads ``'≈ 3.20 or more'`` (its bias is not in the standard error)."""
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            raise BadType("value", "must be the estimated value, a number", value)
        if self.lower:
            return f"≈ {float(value):.2f} or more"
        return f"≈ {float(value):.2f}" + (f" ± {self.stderr:.2f}" if self.stderr == self.stderr else "")

    def size_text(self) -> str:
        """``'an estimate from 200 playouts'``, ``'a lower estimate'`` (size unknown)."""
        kind = "a lower estimate" if self.lower else "an estimate"
        return kind + (f" from {self.size:,} {self.unit}" if self.size is not None else "")

    def value_text(self, value: Fraction | float) -> str:
        """:meth:`value_short` with what it is: ``'≈ -1.15 ± 0.42 (an estimate from 200 playouts)'``."""
        return f"{self.value_short(value)} ({self.size_text()})"


@dataclass(frozen=True)
class Advice:
    """One choice at a decision: the action, its value and what explains it.

    >>> Advice("stop", "Stop()", Fraction(20), then="bank 2 sets").exact
    True
    >>> Advice("go", "Go()", Fraction(3), Sample(40, 0.5, unit="playouts")).value_text()
    '≈ 3.00 ± 0.50 (an estimate from 40 playouts)'
    """

    action: Any
    label: str
    """The action in words, as the list shows it."""
    value: Fraction | None = None
    """The value: exact (``sample`` None), or an estimate's mean; None where the adviser does not value the choice."""
    sample: Sample | None = None
    """The sample behind an estimated value; None for an exact one."""
    measures: str = ""
    """What the value measures, in words (``"expected points this turn"``)."""
    then: str = ""
    """What follows the choice, in words (``"roll"``, the rest of the best plan; why it is not valued)."""
    how: str = ""
    """How the value was found (the model, a fallback, the solver's message)."""
    risk: Fraction | None = None
    """The game's risk of this choice, an exact chance (its adviser says of what); None where it has none."""
    best: bool = False
    """A best choice (the highest value; a game may break ties, as Coffee Rush does by rush tokens and progress)."""
    details: tuple[tuple[str, Any], ...] = ()
    """The game's further facts about the choice, ``(name, value)`` pairs (Gizmos' points and energy, Rush's orders)."""

    def __post_init__(self) -> None:
        check_instance(self.label, str, "label", "the action in words (a str)")
        if self.value is not None and (isinstance(self.value, bool) or not isinstance(self.value, (int, Fraction))):
            raise BadType("value", "must be a Fraction (an estimate's mean as one), or None", self.value)
        check_instance(self.sample, (Sample, type(None)), "sample", "the sample behind an estimate (a Sample), or None")
        if self.value is not None:
            object.__setattr__(self, "value", Fraction(self.value))

    @property
    def exact(self) -> bool | None:
        """True for an exact value, False for an estimate, None where there is no value."""
        return None if self.value is None else self.sample is None

    def detail(self, name: str, default: Any = None) -> Any:
        """The detail called ``name`` (``default`` where the row has none)."""
        return next((value for key, value in self.details if key == name), default)

    def value_text(self) -> str:
        """The value in words: exact (``'7/2 ≈ 3.50'``), an estimate with its sample, or ``''``."""
        if self.value is None:
            return ""
        return exact_text(self.value) if self.sample is None else self.sample.value_text(self.value)


Advisor = Callable[[Any], list[Advice]]
"""``advise(state) -> list[Advice]``: every legal action with its value, best first."""


def ranked(rows: Iterable[Advice], mark: bool = True) -> list[Advice]:
    """``rows`` best first: by value, highest first, a row marked best before the others of its value, then the rows
    with no value, each group in its order. ``mark``: mark the rows of the highest value best (else keep the marks).

    >>> [(r.label, r.best) for r in ranked([Advice(1, "a", Fraction(1)), Advice(2, "b"), Advice(3, "c", Fraction(2))])]
    [('c', True), ('a', False), ('b', False)]
    """
    rows = _rows(rows)
    if mark:
        top = max((r.value for r in rows if r.value is not None), default=None)
        rows = [replace(r, best=r.value is not None and r.value == top) for r in rows]
    return sorted(rows, key=lambda r: (r.value is None, -(r.value or 0), not r.best))


def _rows(rows: Any) -> list[Advice]:
    """``rows`` as a list of advice rows; else :class:`~coffeegames.errors.BadType`."""
    if isinstance(rows, (str, bytes, dict)) or not isinstance(rows, Iterable):
        raise BadType("rows", "must be advice rows (a list of Advice)", rows)
    rows = list(rows)
    for row in rows:
        check_instance(row, Advice, "rows", "advice rows (a list of Advice)")
    return rows


def advice_of(rows: Sequence[Advice], action: Hashable) -> Advice:
    """The row of ``rows`` for ``action``; else :class:`~coffeegames.errors.BadArgument`."""
    for row in _rows(rows):
        if row.action == action:
            return row
    raise BadArgument("action", "must be one of the advice's choices here (an action of its rows)", action)


def advice_frame(rows: Iterable[Advice]) -> pd.DataFrame:
    """The rows as a pandas DataFrame to read in a notebook: one row per choice, columns ``action``, ``label``,
    ``value`` (exact Fractions, or an estimate's mean), ``exact``, ``stderr``, ``risk``, ``then``, ``how``,
    ``measures``, ``best``, then each detail's name. Values stay Fractions (the columns hold objects, never floats).

    >>> advice_frame([]).columns.tolist()[:4]
    ['action', 'label', 'value', 'exact']
    """
    import pandas as pd

    rows = _rows(rows)
    columns = ["action", "label", "value", "exact", "stderr", "risk", "then", "how", "measures", "best"]
    extra = list(dict.fromkeys(name for row in rows for name, _ in row.details))
    records = []
    for row in rows:
        stderr = row.sample.stderr if row.sample is not None and row.sample.stderr == row.sample.stderr else None
        records.append([row.action, row.label, row.value, row.exact, stderr, row.risk, row.then, row.how, row.measures,
                        row.best] + [row.detail(name) for name in extra])
    frame = pd.DataFrame(records, columns=columns + extra, dtype=object)
    frame["best"] = frame["best"].astype(bool)
    return frame


def remembered(advise: Callable[[Any], Sequence[Advice]], keep: int = 64) -> Advisor:
    """``advise`` remembering its answers for the last ``keep`` states, so that one decision is advised once (the list,
    the summary and the "why" panel share it).

    >>> calls = []
    >>> advise = remembered(lambda state: calls.append(state) or [])
    >>> advise(1), advise(1), calls
    ([], [], [1])
    """
    if not callable(advise):
        raise BadType("advise", "must be an adviser: a function state -> list of Advice", advise)
    check_count(keep, "keep")
    answers: dict[Any, tuple[Advice, ...]] = {}

    def advised(state: Any) -> list[Advice]:
        if state not in answers:
            if len(answers) >= max(keep, 1):
                del answers[next(iter(answers))]
            answers[state] = tuple(advise(state))
        return list(answers[state])

    return advised


def solver_advice(solver: Expectimax | None = None) -> Advisor:
    """An ``advise`` function from exact expectimax, for games small enough to solve whole.

    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> [(row.label, row.value) for row in solver_advice()(KeepOrReroll(die=2))]
    [('Reroll()', Fraction(7, 2)), ('Keep()', Fraction(2, 1))]
    """
    solver = solver or Expectimax()

    def advise(state: State) -> list[Advice]:
        measures = "the expected return under optimal play afterwards"
        return ranked(Advice(a, str(a), v, measures=measures) for a, v in solver.action_values(state))

    return advise
