"""Where a meeple may go: every legal path of one move (docs/rules/rush.md, "The move").

A path is the tuple of spaces entered, in order (the start space not included). A move
is 1 to ``steps`` steps to an adjacent space (orthogonal; diagonal too with the Diagonal
upgrade); every space entered is collected; a path may pass through a space holding a
meeple but not end on one; with ``revisit`` off (the default Ruling) no space is entered
twice and the start is never re-entered.

Example (the 4×4 board, a meeple in the corner a1 = space 0, another on b1 = space 1):
    >>> from coffeegames.rush.data import stand_in_board
    >>> board = stand_in_board()
    >>> ps = paths(board, 0, blocked=frozenset({1}), steps=2)
    >>> [p for p in ps if len(p) == 1], (1, 2) in ps, (1,) in ps
    ([(4,)], True, False)
    >>> len(paths(board, 5, frozenset(), 3)), len(paths(board, 5, frozenset(), 3, diagonal=True))
    (34, 195)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import TooBig
from ..validate import MAX_OUTCOMES, check_count, check_instance, is_whole
from .data import _ARGUMENT, Board

__all__ = ["MAX_PATHS", "collected", "neighbours", "paths"]

MAX_PATHS = MAX_OUTCOMES
""":func:`paths` refuses a question of more paths than this (100,000; a real move has at most a few thousand)."""
MAX_SIDE = 6
"""A board has at most 6 rows and 6 columns (the board file's limit)."""


def _space(board: Board, space: Any, where: str) -> int:
    return _ARGUMENT.whole(space, where, 0, len(board.spaces) - 1)


def neighbours(rows: int, cols: int, space: int, diagonal: bool = False) -> tuple[int, ...]:
    """The spaces one step from ``space`` on a ``rows`` × ``cols`` board (row by row from 0).

    >>> neighbours(4, 4, 5), neighbours(4, 4, 0, diagonal=True)
    ((1, 4, 6, 9), (1, 4, 5))
    """
    for value, where in ((rows, "rows"), (cols, "cols")):
        _ARGUMENT.whole(value, where, 1, MAX_SIDE)
    return _neighbours(rows, cols, _ARGUMENT.whole(space, "space", 0, rows * cols - 1), _ARGUMENT.flag(diagonal, "diagonal"))


@lru_cache(maxsize=256)
def _neighbours(rows: int, cols: int, space: int, diagonal: bool = False) -> tuple[int, ...]:
    r, c = divmod(space, cols)
    steps = [(-1, 0), (0, -1), (0, 1), (1, 0)]
    if diagonal:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    return tuple(sorted((r + dr) * cols + c + dc for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < cols))


def paths(board: Board, start: int, blocked: frozenset[int], steps: int, diagonal: bool = False,
          revisit: bool = False) -> list[tuple[int, ...]]:
    """Every legal path of 1..``steps`` steps from ``start`` (shortest first); ``blocked`` holds the other meeples'
    spaces (passed through, never ended on). More than :data:`MAX_PATHS` paths are refused (``TooBig``)."""
    check_instance(board, Board, "board", "a Coffee Rush Board (rush.load_board())")
    start = _space(board, start, "start")
    if isinstance(blocked, (str, bytes)) or not isinstance(blocked, (set, frozenset, list, tuple)):
        raise _ARGUMENT.error("blocked", "must be a set of spaces (whole numbers) where other meeples stand", blocked)
    if not all(is_whole(s) for s in blocked):
        raise _ARGUMENT.error("blocked", "must hold spaces: whole numbers", sorted(map(str, blocked))[:5])
    check_count(steps, "steps", maximum=4 * len(board.spaces))
    return _paths(board, start, frozenset(blocked), steps, _ARGUMENT.flag(diagonal, "diagonal"),
                  _ARGUMENT.flag(revisit, "revisit"), MAX_PATHS)


def _paths(board: Board, start: int, blocked: frozenset[int], steps: int, diagonal: bool = False,
           revisit: bool = False, limit: int | None = None) -> list[tuple[int, ...]]:
    """:func:`paths` without the checks (the engine's own arguments); over ``limit`` paths listed: ``TooBig``."""
    found: list[tuple[int, ...]] = []
    frontier: list[tuple[int, ...]] = [()]
    for _ in range(steps):
        longer: list[tuple[int, ...]] = []
        for path in frontier:
            if limit is not None and len(found) + len(longer) > limit:
                raise TooBig("steps", f"the paths of {steps} steps are more than the limit of {limit:,}", steps)
            here = path[-1] if path else start
            for nxt in _neighbours(board.rows, board.cols, here, diagonal):
                if not revisit and (nxt == start or nxt in path):
                    continue
                longer.append((*path, nxt))
        found += [p for p in longer if p[-1] not in blocked]
        frontier = longer
        if not frontier:
            break
    return found


def collected(board: Board, path: tuple[int, ...], double: bool = False) -> tuple[str, ...]:
    """The ingredients a path collects (sorted): one per space entered, two from the last with the Double upgrade.

    >>> from coffeegames.rush.data import stand_in_board
    >>> collected(stand_in_board(), (1, 5), double=True)
    ('milk', 'tea', 'tea')
    """
    check_instance(board, Board, "board", "a Coffee Rush Board (rush.load_board())")
    spaces = _ARGUMENT.sequence(path, "path", lambda space, where: _space(board, space, where))
    return _collected(board, spaces, _ARGUMENT.flag(double, "double"))


def _collected(board: Board, path: tuple[int, ...], double: bool = False) -> tuple[str, ...]:
    """:func:`collected` without the checks (the engine's own paths)."""
    taken = [board.spaces[s] for s in path]
    if double and path:
        taken.append(board.spaces[path[-1]])
    return tuple(sorted(taken))
