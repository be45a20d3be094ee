"""Slow work for a view, off the notebook's main thread: the view shows what it has at once, says it is working, and
can cancel.

:class:`Background` runs one function in a daemon thread and hands its result to ``done`` unless the work was
cancelled first. Cancelling stops the waiting, and the work itself at its next
:func:`~coffeegames.engine.cancel.checkpoint` (the Coffee Roaster's exact solvers call one between layers); work
without checkpoints runs on and its result, when it comes, is dropped (``done`` is not called). The decision view uses it for the values asked exact (its "exact values"
box): the budgeted estimates are shown at once, the exact ones replace them when ready, and a Cancel button goes back
to the estimates.

Example:
    >>> got = []
    >>> work = Background(lambda: 6 * 7, got.append)
    >>> work.join(), got
    (True, [42])
    >>> late = Background(lambda: 1, got.append, start=False)
    >>> late.cancel(); late.start(); _ = late.join(); late.cancelled, got
    (True, [42])
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..engine.cancel import Cancelled, cancellable
from ..errors import BadArgument
from ..validate import Checker

__all__ = ["Background"]


class Background:
    """``work()`` in a daemon thread, then ``done(result)`` in that thread unless :meth:`cancel` came first. An
    exception in ``work`` is kept in ``error`` (and ``done`` not called)."""

    def __init__(self, work: Callable[[], Any], done: Callable[[Any], None], start: bool = True) -> None:
        self.cancelled = False
        self._stop = threading.Event()
        self.error: BaseException | None = None
        self._work, self._done = work, done
        self._thread = threading.Thread(target=self._run, daemon=True, name="coffeegames-background")
        if start:
            self.start()

    def start(self) -> None:
        """Start the work (made with ``start=False``: once whoever waits for it holds it)."""
        self._thread.start()

    def _run(self) -> None:
        try:
            with cancellable(self._stop):
                result = self._work()
        except Cancelled:  # stopped at a checkpoint: nothing to hand over
            return
        except BaseException as error:  # noqa: BLE001 - shown by the view, never raised in a thread
            self.error = error
            return
        if not self.cancelled:  # (``done`` checks again under its own lock where a late cancel matters)
            self._done(result)

    @property
    def running(self) -> bool:
        """Whether the work is still going (cancelled or not)."""
        return self._thread.is_alive()

    def cancel(self) -> None:
        """Stop waiting (the result, when it comes, is dropped) and the work at its next checkpoint."""
        self.cancelled = True
        self._stop.set()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the work to end (at most ``timeout`` seconds, ``None`` for as long as it takes); whether it ended."""
        if timeout is not None:
            number = isinstance(timeout, (int, float)) and not isinstance(timeout, bool)
            Checker("", BadArgument).need(number and 0 <= timeout <= threading.TIMEOUT_MAX, "timeout",
                                          f"must be None or a number of seconds from 0 to {threading.TIMEOUT_MAX:.0f}",
                                          timeout)
        self._thread.join(timeout)
        return not self._thread.is_alive()


class ExactOnRequest:
    """The decision view's values asked exact: the budgeted rows at once, the exact ones worked out in the background
    (:class:`Background`), then ``ready()`` (the view redraws). ``cancel_button`` shows while it works; clicked, it
    stops and unticks ``toggle`` (any change of ``toggle`` stops it too). The view draws holding ``lock``, so the exact rows never land in the middle of a
    redraw (the worker's ``ready`` waits for it)."""

    def __init__(self, exact_advise: Callable[[Any], list[Any]], ready: Callable[[], None], toggle: Any) -> None:
        import ipywidgets as widgets

        self.exact_advise, self.ready = exact_advise, ready
        self.lock = threading.RLock()
        self.found: dict[Any, list[Any]] = {}
        self.work: Background | None = None
        self.state: Any = None
        self.cancel_button = widgets.Button(description="Cancel", icon="stop", tooltip="stop working out the exact values",
                                            layout=widgets.Layout(width="auto", display="none"))
        self.cancel_button.add_class("cg-exact-cancel")
        self.cancel_button.on_click(lambda _: self._cancel(toggle))
        toggle.observe(lambda _: self.stop(), names="value")  # ticked or not, what was being worked out is dropped

    def _cancel(self, toggle: Any) -> None:
        self.stop()
        toggle.value = False  # (the view redraws with the estimates)

    @property
    def working(self) -> bool:
        """Whether exact values are being worked out for the view (not cancelled)."""
        return self.work is not None and not self.work.cancelled and self.state not in self.found

    def rows(self, state: Any, estimate: Callable[[Any], list[Any]]) -> list[Any]:
        """The exact rows at ``state`` if found, else ``estimate(state)``'s, the exact ones started in the background."""
        if state in self.found:
            self.cancel_button.layout.display = "none"
            return self.found[state]
        if self.state != state or self.work is None or self.work.cancelled:
            self.stop()
            self.state = state
            work = self.work = Background(lambda: self.exact_advise(state), lambda rows: self._done(work, state, rows), False)
            work.start()
        self.cancel_button.layout.display = None
        return estimate(state)

    def _done(self, work: Background, state: Any, rows: list[Any]) -> None:
        with self.lock:
            if work.cancelled or work is not self.work:
                return
            self.found = {state: rows}  # one position's: the view's current one
            self.cancel_button.layout.display = "none"
            self.ready()

    def stop(self) -> None:
        """Stop waiting for the exact values being worked out (the Cancel button; a new position does it too)."""
        if self.work is not None:
            self.work.cancel()
        self.cancel_button.layout.display = "none"

    def note(self) -> str:
        """The summary's line while working: what is shown meanwhile and how to stop."""
        return ("<br><i>Working out every value exactly (no budget: seconds, more on big bags). Meanwhile the values "
                "shown are the estimates; <b>Cancel</b> stops and keeps them.</i>") if self.working else ""
