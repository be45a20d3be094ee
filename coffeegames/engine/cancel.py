"""Stopping long exact work from outside it: the work calls :func:`checkpoint` between its steps, and whoever runs it
under :func:`cancellable` can stop it at the next one by setting the event.

The decision view's exact values run in a background thread this way (:class:`~coffeegames.widgets.background.Background`):
its Cancel button, or a move to another position, stops the Coffee Roaster's exact solvers between two layers, so a
cancelled solve gives back its memory instead of running on. Outside :func:`cancellable`, :func:`checkpoint` does
nothing.

Example:
    >>> import threading
    >>> stop = threading.Event()
    >>> with cancellable(stop):
    ...     checkpoint()          # not set: goes on
    ...     stop.set()
    ...     checkpoint()
    Traceback (most recent call last):
    ...
    coffeegames.engine.cancel.Cancelled: the work was cancelled
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["Cancelled", "cancellable", "checkpoint"]

_STOP: ContextVar[threading.Event | None] = ContextVar("coffeegames_stop", default=None)


class Cancelled(Exception):
    """Raised by :func:`checkpoint` once the event of the enclosing :func:`cancellable` is set."""


@contextmanager
def cancellable(stop: threading.Event) -> Iterator[None]:
    """Run the ``with`` block so that a :func:`checkpoint` in it raises :class:`Cancelled` once ``stop`` is set (in
    this thread or task only: a context variable)."""
    token = _STOP.set(stop)
    try:
        yield
    finally:
        _STOP.reset(token)


def checkpoint() -> None:
    """Raise :class:`Cancelled` if the work this runs in was cancelled; else nothing (cheap: call it between steps)."""
    stop = _STOP.get()
    if stop is not None and stop.is_set():
        raise Cancelled("the work was cancelled")
