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

from .data import Board

__all__ = ["collected", "neighbours", "paths"]


@lru_cache(maxsize=256)
def neighbours(rows: int, cols: int, space: int, diagonal: bool = False) -> tuple[int, ...]:
    """The spaces one step from ``space`` on a ``rows`` × ``cols`` board (row by row from 0)."""
    r, c = divmod(space, cols)
    steps = [(-1, 0), (0, -1), (0, 1), (1, 0)]
    if diagonal:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    return tuple(sorted((r + dr) * cols + c + dc for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < cols))


def paths(board: Board, start: int, blocked: frozenset[int], steps: int, diagonal: bool = False,
          revisit: bool = False) -> list[tuple[int, ...]]:
    """Every legal path of 1..``steps`` steps from ``start`` (shortest first); ``blocked`` holds the other meeples'
    spaces (passed through, never ended on)."""
    found: list[tuple[int, ...]] = []
    frontier: list[tuple[int, ...]] = [()]
    for _ in range(steps):
        longer = []
        for path in frontier:
            here = path[-1] if path else start
            for nxt in neighbours(board.rows, board.cols, here, diagonal):
                if not revisit and (nxt == start or nxt in path):
                    continue
                longer.append((*path, nxt))
        found += [p for p in longer if p[-1] not in blocked]
        frontier = longer
    return found


def collected(board: Board, path: tuple[int, ...], double: bool = False) -> tuple[str, ...]:
    """The ingredients a path collects (sorted): one per space entered, two from the last with the Double upgrade."""
    taken = [board.spaces[s] for s in path]
    if double and path:
        taken.append(board.spaces[path[-1]])
    return tuple(sorted(taken))
