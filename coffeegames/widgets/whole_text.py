"""A pandas table shown with every cell's whole text (the decision view's :meth:`~.decision.DecisionView.table`).

    >>> print(WholeText({"how": ["x" * 60]}).to_string().count("..."))
    0
"""

from __future__ import annotations

import pandas as pd

__all__: list[str] = []  # used by the decision view; a pandas DataFrame, not a public function


class WholeText(pd.DataFrame):
    """A table shown with every cell's whole text: pandas cuts cells at 50 characters with "...", and the advice's
    words ("the rest of the cup test, played optimally") are meant to be read whole."""

    @property
    def _constructor(self) -> type[WholeText]:
        return WholeText

    def _repr_html_(self) -> str | None:
        with pd.option_context("display.max_colwidth", None):
            html_text: str | None = pd.DataFrame(self)._repr_html_()  # type: ignore[operator]
            return html_text

    def __repr__(self) -> str:
        with pd.option_context("display.max_colwidth", None, "display.width", None, "display.max_columns", None):
            return super().__repr__()
