"""Analyse a whole game at scale: is it fair, how much is luck, what each rule option changes, what it is like.

``coffeegames.analyse`` is this package, and calling it runs :func:`~coffeegames.analyse.report.analyse`:
``coffeegames.analyse("gizmos", seeds=200)`` returns a :class:`~coffeegames.analyse.report.Report` whose
``table(question)`` (a pandas DataFrame) and ``figure(question)`` (plotly, with intervals) answer the questions
``"fairness"``, ``"luck"``, ``"options"`` and ``"shape"`` (``docs/analyse.md`` defines each measure). The games are
played by :func:`coffeegames.engine.sweep` (here, through joblib with ``jobs=``, or on a Dask cluster with
``client=``: the same numbers for the same seeds); ``save="games.jsonl"`` keeps every game played in the sweep's
file format and resumes from it, and :func:`load` reads it back.

Example:
    >>> import coffeegames
    >>> report = coffeegames.analyse("roaster", seeds=3, bots=["greedy"], options={}, progress=False)
    >>> report.table("fairness")[["variant", "games"]].values.tolist()
    [['side=full', 3], ['side=easy', 3]]
    >>> low, high = coffeegames.analyse.wilson(59, 100)
    >>> round(low, 3), round(high, 3)
    (0.492, 0.681)
"""

import inspect
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import bots, stats
    from .bots import Bot, bot_makers
    from .report import Report, analyse, load
    from .stats import games_to_separate, newcombe, skill_share, wilson
else:
    from ..lazy import _Package, lazy_exports

    __getattr__, __dir__, __all__ = lazy_exports(__name__)

    class _Callable(_Package):
        """This package, callable as its :func:`analyse` (``coffeegames.analyse("gizmos", seeds=100)``)."""

        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            try:
                inspect.signature(self.analyse).bind(*args, **kwargs)
            except TypeError as error:  # a missing or unknown argument: the library's own error, naming it
                from ..errors import BadArgument

                given = inspect.signature(self.analyse).bind_partial
                try:
                    bound = given(*args, **kwargs).arguments
                except TypeError:
                    raise BadArgument("arguments", f"{error}: coffeegames.analyse(name, seeds=100, ...)") from None
                missing = [name for name in ("name", "seeds") if name not in bound]
                raise BadArgument(missing[0] if missing else "arguments",
                                  "is needed: coffeegames.analyse(name, seeds=100, ...)") from None
            return self.analyse(*args, **kwargs)

        @property
        def __signature__(self) -> inspect.Signature:
            return inspect.signature(self.analyse)

    import sys as _sys

    _sys.modules[__name__].__class__ = _Callable
