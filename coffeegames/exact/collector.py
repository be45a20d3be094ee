"""Pausing Python's cycle collector while a solver fills large tables of tuples and Fractions.

A solver's positions and values hold no reference cycles, so the cycle collector finds no garbage among them; yet
every few hundred new objects it runs, and now and then it walks *every* live object of the process (a Jupyter
kernel with widgets and plotly loaded holds hundreds of thousands). :func:`collector_paused` switches it off for
the length of a call and back on after, the way long parsers in other projects do; reference counting still frees
every object as usual, and whatever cycles other code makes meanwhile are collected when it runs again.

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True

It also decorates a function (``@collector_paused()``). Nested uses leave the collector off until the outermost ends,
and a collector already off stays off.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Switch the cycle collector off inside the ``with`` block (or the decorated call), then back on if it was on."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
