"""numpy's bounded integer draws, the same numbers made faster: a game's chance and a random policy draw a few small
integers at a time, where ``Generator.integers`` spends most of its time on its arguments and arrays.

``rng.integers(n)`` and ``rng.integers(n, size=k)`` for ``n`` under ``2**32`` are Lemire's method on the bit generator's
``next_uint32`` (numpy's ``buffered_bounded_lemire_uint32``), one value after another. These functions do the same
arithmetic on the same C function, through the ``ctypes`` interface numpy gives every bit generator, so seeded games
draw exactly what they drew with ``integers`` (``tests/test_engine.py`` checks it on every numpy bit generator, mixed
with other draws).

>>> import numpy as np
>>> a, b = np.random.default_rng(5), np.random.default_rng(5)
>>> draws_below(a, 6, 4) + [draw_below(a, 10)] == b.integers(6, size=4).tolist() + [int(b.integers(10))]
True
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import BadArgument
from ..validate import check_instance

__all__ = ["MAX_DRAWS", "distinct_below", "draw_below", "draws_below", "permutation_below", "uniform_below"]


_NEXT_UINT32 = ctypes.PYFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p)
"""The C signature of a bit generator's ``next_uint32`` (called holding the GIL: no Python thread draws meanwhile)."""
_NEXT_DOUBLE = ctypes.PYFUNCTYPE(ctypes.c_double, ctypes.c_void_p)
"""The same for its ``next_double``."""


class uniform_below:  # noqa: N801 (used as a function: below = uniform_below(rng))
    """``below = uniform_below(rng)``: ``below(n)`` is ``int(rng.integers(n))`` (the same number, the same generator
    state after) in a quarter of the time.

    ``integers(n)`` for ``n`` under 2**32 is Lemire's method on the bit generator's ``next_uint32`` (numpy's
    ``buffered_bounded_lemire_uint32``): done here on the same C function through ``ctypes``, without
    ``integers``' argument handling (~1.5 µs a call; :func:`random_policy` makes two a move). ``below(1)`` is 0
    and draws nothing, as ``integers(1)`` does; other ``n`` (0, 2**32 and over) go to ``integers`` itself.
    ``tests/test_engine.py`` checks the equality on every numpy bit generator, mixed with other draws. A pickled
    copy carries the generator and binds to the copy's own C state. Like the generator, for one thread at a time.

    >>> import numpy as np
    >>> below, again = uniform_below(np.random.default_rng(3)), np.random.default_rng(3)
    >>> [below(6) for _ in range(8)] == [int(again.integers(6)) for _ in range(8)]
    True
    """

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = check_instance(rng, np.random.Generator, "rng", "a numpy Generator (numpy.random.default_rng(seed))")
        raw = self.rng.bit_generator.ctypes  # the C function and state numpy's own draws use (self.rng keeps them alive)
        self._next32 = _NEXT_UINT32(ctypes.cast(raw.next_uint32, ctypes.c_void_p).value or 0)
        self._state = raw.state.value

    def __call__(self, n: int) -> int:
        if n == 1:
            return 0
        if not 1 < n < 0xFFFFFFFF:
            return int(self.rng.integers(n))
        next32, state = self._next32, self._state  # _lemire, inline (a random policy draws once or twice a move)
        scaled = next32(state) * n
        if scaled & 0xFFFFFFFF < n:
            threshold = (0x100000000 - n) % n
            while scaled & 0xFFFFFFFF < threshold:
                scaled = next32(state) * n
        return scaled >> 32

    def __reduce__(self) -> tuple[type, tuple[np.random.Generator]]:
        return uniform_below, (self.rng,)


def draw_below(rng: np.random.Generator, n: int) -> int:
    """``int(rng.integers(n))`` for ``1 <= n < 2**32`` (the same number, the generator left in the same place), for a
    generator met once per draw (a game's ``sample_chance``): :class:`uniform_below` without binding to ``rng`` first
    (the last generator drawn from stays bound, as for :func:`draws_below`).

    >>> import numpy as np
    >>> a, b = np.random.default_rng(5), np.random.default_rng(5)
    >>> [draw_below(a, 10) for _ in range(5)] == [int(b.integers(10)) for _ in range(5)]
    True
    """
    if type(n) is not int or not 1 <= n < 0xFFFFFFFF:
        raise BadArgument("n", "must be a whole number from 1 to 2**32 - 2 (the choices to draw among)", n)
    if n == 1:
        return 0  # numpy draws nothing either
    last = _LAST  # (read once: another thread may bind another generator meanwhile)
    if last[0] is not rng:
        last = _bind(check_instance(rng, np.random.Generator, "rng", _GENERATOR))
    return _lemire(last[1], last[2], n)


def draws_below(rng: np.random.Generator, n: int, k: int) -> list[int]:
    """``rng.integers(n, size=k).tolist()`` for ``1 <= n < 2**32`` (the same numbers, the generator left in the same
    place: numpy draws an array one value at a time, as :func:`draw_below` does), without the array: a roll of a
    few dice costs a quarter to a half of numpy's call.

    >>> import numpy as np
    >>> a, b = np.random.default_rng(5), np.random.default_rng(5)
    >>> draws_below(a, 6, 7) == b.integers(6, size=7).tolist()
    True
    """
    if type(n) is not int or not 1 <= n < 0xFFFFFFFF:
        raise BadArgument("n", "must be a whole number from 1 to 2**32 - 2 (the choices to draw among)", n)
    if type(k) is not int or not 0 <= k <= MAX_DRAWS:
        raise BadArgument("k", f"must be a whole number from 0 to {MAX_DRAWS:,} (how many draws)", k)
    if n == 1:
        return [0] * k
    return _draws_below(check_instance(rng, np.random.Generator, "rng", _GENERATOR), n, k)


def _draws_below(rng: np.random.Generator, n: int, k: int) -> list[int]:
    """:func:`draws_below` for a caller that has checked ``rng`` (a Generator) and ``n`` (``2 <= n < 2**32 - 1``: a
    die's faces): ``k`` is still checked (a position's count of dice), with the same error (so :func:`draws_below`
    checks it twice: its own errors come in its order)."""
    if type(k) is not int or not 0 <= k <= MAX_DRAWS:
        raise BadArgument("k", f"must be a whole number from 0 to {MAX_DRAWS:,} (how many draws)", k)
    last = _LAST
    if last[0] is not rng:  # a new generator: bound as uniform_below binds it, kept for the next call
        last = _bind(rng)
    _, next32, state, _ = last
    found = []
    for _ in range(k):  # _lemire, inline: a roll is a few draws, and a call each was a third of their cost
        scaled = next32(state) * n
        if scaled & 0xFFFFFFFF < n:
            threshold = (0x100000000 - n) % n
            while scaled & 0xFFFFFFFF < threshold:
                scaled = next32(state) * n
        found.append(scaled >> 32)
    return found


def distinct_below(rng: np.random.Generator, n: int, k: int) -> list[int]:
    """``rng.choice(n, size=k, replace=False).tolist()`` (the same numbers, the generator left in the same place), without
    its arrays: for ``k <= n <= 10,000`` numpy samples by Floyd's algorithm (for each ``j`` from ``n - k`` to ``n - 1``, a
    number below ``j + 1``, or ``j`` itself if that one is taken), then shuffles the sample (Fisher-Yates), each number by
    Lemire's draw; done here the same way. Other sizes are numpy's own call. A draw of tiles from a deck or of tokens
    from a bag costs a fifth of ``choice``.

    >>> import numpy as np
    >>> a, b = np.random.default_rng(7), np.random.default_rng(7)
    >>> distinct_below(a, 30, 4) == b.choice(30, size=4, replace=False).tolist()
    True
    """
    if type(n) is not int or not 0 <= n <= MAX_DRAWS:
        raise BadArgument("n", f"must be a whole number from 0 to {MAX_DRAWS:,} (the choices to draw among)", n)
    if type(k) is not int or not 0 <= k <= n:
        raise BadArgument("k", f"must be a whole number from 0 to n = {n:,} (how many distinct draws)", k)
    if n > 10_000:  # numpy's other algorithm: its own call
        return [int(i) for i in check_instance(rng, np.random.Generator, "rng", _GENERATOR).choice(n, size=k, replace=False)]
    last = _LAST  # (read once: another thread may bind another generator meanwhile)
    if last[0] is not rng:
        last = _bind(check_instance(rng, np.random.Generator, "rng", _GENERATOR))
    _, next32, state, _ = last
    found: list[int] = []
    taken: set[int] = set()
    for j in range(n - k, n):
        value = _lemire(next32, state, j + 1) if j else 0  # (a range of one draws nothing)
        if value in taken:
            value = j
        taken.add(value)
        found.append(value)
    for i in range(k - 1, 0, -1):
        swap = _lemire(next32, state, i + 1)
        found[i], found[swap] = found[swap], found[i]
    return found


def permutation_below(rng: np.random.Generator, n: int) -> list[int]:
    """``rng.permutation(n).tolist()`` for ``0 <= n <=`` :data:`MAX_DRAWS` (the same order, the generator left in the same place),
    without its array: numpy shuffles ``range(n)`` (Fisher-Yates from the end), each swap's place drawn by masked
    rejection on ``next_uint32``; done here the same way.

    >>> import numpy as np
    >>> a, b = np.random.default_rng(7), np.random.default_rng(7)
    >>> permutation_below(a, 9) == b.permutation(9).tolist()
    True
    """
    if type(n) is not int or not 0 <= n <= MAX_DRAWS:
        raise BadArgument("n", f"must be a whole number from 0 to {MAX_DRAWS:,} (the length of the order)", n)
    last = _LAST  # (read once: another thread may bind another generator meanwhile)
    if last[0] is not rng:
        last = _bind(check_instance(rng, np.random.Generator, "rng", _GENERATOR))
    _, next32, state, _ = last
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        mask = (1 << i.bit_length()) - 1  # the smallest all-ones mask covering i
        swap = next32(state) & mask
        while swap > i:
            swap = next32(state) & mask
        order[i], order[swap] = order[swap], order[i]
    return order


_GENERATOR = "a numpy Generator (numpy.random.default_rng(seed))"

_LAST: tuple[Any, Any, Any, Any] = (None, None, None, None)
"""The generator :func:`draws_below`, :func:`draw_below`, :func:`distinct_below`, :func:`permutation_below` or
:func:`_random` last drew from, with its bit generator's ``next_uint32`` bound as :class:`uniform_below` binds it (a C
function called holding the GIL, several times cheaper than the ``ctypes`` interface's own), the address of its state,
and its ``next_double`` bound the same way: a game's chance draws from one generator again and again. Kept as one tuple,
replaced whole and read once a call: a thread sees one generator's four. The generator is held, so its state's address
stays valid."""


def _bind(rng: np.random.Generator) -> tuple[np.random.Generator, Any, int, Any]:
    """``rng`` bound for drawing (:data:`_LAST`), kept for the next call."""
    global _LAST
    raw = rng.bit_generator.ctypes
    _LAST = (rng, _NEXT_UINT32(ctypes.cast(raw.next_uint32, ctypes.c_void_p).value or 0), raw.state.value or 0,
             _NEXT_DOUBLE(ctypes.cast(raw.next_double, ctypes.c_void_p).value or 0))
    return _LAST


def _random(rng: np.random.Generator) -> float:
    """``rng.random()`` for a caller that has checked ``rng`` (a Generator): the same number (numpy's is the bit
    generator's ``next_double``), the generator left in the same place, in half the time."""
    last = _LAST  # (read once: another thread may bind another generator meanwhile)
    if last[0] is not rng:
        last = _bind(rng)
    return last[3](last[2])


MAX_DRAWS = 1_000_000
"""The most values :func:`draws_below` draws in one call (more is numpy's work: ``rng.integers``)."""


def _lemire(next32: Callable[[Any], int], state: Any, n: int) -> int:
    """Lemire's bounded draw as numpy makes it (``buffered_bounded_lemire_uint32``): a 32-bit output times ``n``, the
    high word the answer, redrawn while the low word is under ``2**32 % n``."""
    scaled = next32(state) * n
    if scaled & 0xFFFFFFFF < n:  # maybe in the biased low part: redraw below the threshold
        threshold = (0x100000000 - n) % n
        while scaled & 0xFFFFFFFF < threshold:
            scaled = next32(state) * n
    return scaled >> 32
