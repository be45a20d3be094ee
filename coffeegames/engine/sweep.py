"""Sweeps: games × bots × seeds into one pandas DataFrame, in this process, through joblib, or on a Dask cluster.

Every game of a sweep is one *task* ``(game, bots, seed)``, and everything random in it comes
from the seed: chance moves from ``default_rng([seed, 0])``, the bots from
``default_rng([seed, 1])``. Bots are therefore given as *bot makers*: a function from a NumPy
generator to a policy (or to one policy per player), called afresh for every game, so no bot
carries its random state from one game to the next. ``random_policy`` is already a bot maker;
a bot without randomness is wrapped as ``lambda rng: greedy_policy``. A task's result depends
on its seed alone, so the table is the same wherever the tasks run:

* in this process (the default);
* through joblib (``jobs=2``, or ``jobs=-1`` for every core; inside
  ``joblib.parallel_config("dask")`` joblib itself sends them to the Dask cluster of the
  current ``distributed.Client``);
* on a Dask distributed cluster: ``client=`` a ``distributed.Client``, or the scheduler's
  address (``"tcp://10.0.0.5:8786"``; a client is opened and closed around the sweep).
  ``dask`` and ``distributed`` are imported only then (``pip install dask distributed``).

Every game and bot maker must be picklable for joblib and Dask (module-level functions and
lambdas are: joblib and Dask pickle with cloudpickle), and the workers must import the same
version of ``coffeegames``.

A long sweep is neither repeated nor lost: with ``save="games.jsonl"`` each finished game's row
is written to that file as it comes (JSON Lines after a format line), and the same sweep run
again reads the rows already there and plays only the rest. Interrupted (Ctrl-C), a sweep
returns the rows finished so far, marked incomplete (``table.attrs["incomplete"]``) with a
warning. Games lost to the cluster (a worker killed again and again, a cancelled task) raise
:class:`SweepIncomplete`, which names the lost games and why and holds the finished rows
(``error.table``); a bug in a game or a bot still raises its own traceback.

Example:
    >>> from coffeegames.engine import random_policy
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> class Dice:  # anything with new_initial_state() is a game
    ...     def new_initial_state(self): return KeepOrReroll()
    >>> table = sweep({"keep or reroll": Dice()}, {"random": random_policy}, seeds=3, progress=False)
    >>> list(table.columns)
    ['game', 'bots', 'seed', 'moves', 'player_0', 'winners']
    >>> table["seed"].tolist(), len(table)
    ([0, 1, 2], 3)
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pandas as pd

from ..errors import BadArgument, BadData, BadType, shown
from ..validate import check_count, check_flag, check_path
from .solve import Policy, play_out

__all__ = ["BotMaker", "SweepIncomplete", "load_rows", "play_task", "sweep"]

SWEEP_FORMAT = "coffeegames-sweep/1"
"""The first line of a saved sweep (``{"format": ...}``); every later line is one game's row."""
MAX_SAVED_BYTES = 512_000_000
"""A saved sweep larger than this is refused unread (a million games' rows take about 100 MB)."""
LOST_SHOWN = 5
"""How many lost games a :class:`SweepIncomplete` message names (all are in ``error.lost``)."""


class SweepIncomplete(RuntimeError):
    """Some games of a sweep were lost to the cluster: ``lost`` lists each ``(game, bots, seed, why)``, ``table`` the
    rows that finished (a saved sweep keeps them too: run it again to play only the lost ones)."""

    def __init__(self, lost: list[tuple[str, str, int, str]], table: pd.DataFrame) -> None:
        self.lost, self.table = lost, table
        named = "; ".join(f"{g} / {b} / seed {s}: {why}" for g, b, s, why in lost[:LOST_SHOWN])
        more = f" (and {len(lost) - LOST_SHOWN} more)" if len(lost) > LOST_SHOWN else ""
        super().__init__(f"{len(lost)} of {len(lost) + len(table)} games were lost: {named}{more}")

BotMaker = Callable[[np.random.Generator], Policy | Sequence[Policy]]
"""Makes the bots of one game from that game's generator: one policy for every player, or one each."""

Task = tuple[str, str, int]
"""One game of a sweep: (game label, bots label, seed)."""


def play_task(game: Any, make_bots: BotMaker, seed: int, max_steps: int = 100_000, shape: bool = False) -> dict[str, Any]:
    """Play one game of a sweep and return its row (moves, each player's return as a float, the winners).

    Chance draws from ``default_rng([seed, 0])``, the bots from ``default_rng([seed, 1])``. ``shape=True`` adds
    the game's shape (:data:`SHAPE_COLUMNS`, counted by replaying its moves: the game played is the same).

    >>> from coffeegames.engine import random_policy
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> class Dice:
    ...     def new_initial_state(self): return KeepOrReroll()
    >>> play_task(Dice(), random_policy, seed=7) == play_task(Dice(), random_policy, seed=7)
    True
    """
    if not callable(getattr(game, "new_initial_state", None)):
        raise BadType("game", "must be a game (anything with new_initial_state(): Game(players=3))", game)
    if not callable(make_bots):
        raise BadType("make_bots", "must be a bot maker: a function from a NumPy generator to a policy", make_bots)
    check_count(seed, "seed")
    check_count(max_steps, "max_steps")
    check_flag(shape, "shape")
    bots = make_bots(np.random.default_rng([seed, 1]))
    final, log = play_out(game.new_initial_state(), bots, np.random.default_rng([seed, 0]), max_steps)
    returns = [float(r) for r in final.returns()]
    best = max(returns)
    row: dict[str, Any] = {"moves": len(log)}
    row.update({f"player_{i}": r for i, r in enumerate(returns)})
    row["winners"] = tuple(i for i, r in enumerate(returns) if r == best)
    if shape:
        row.update(_shape(game.new_initial_state(), log))
    return row


SHAPE_COLUMNS = ("decisions", "choices_per_decision", "chance_events", "outcomes_per_chance_event")
"""The columns ``shape=True`` adds to a row: the game's decisions (positions where a player acts), the mean number of
legal actions at them, its chance events, and the mean number of possible outcomes at them (0.0 when there are none)."""


def _shape(state: Any, log: list) -> dict[str, Any]:
    """The shape columns of the game ``log`` played from ``state`` (replayed: :data:`SHAPE_COLUMNS`)."""
    decisions = choices = chances = outcomes = 0
    for move in log:
        if state.is_chance():
            chances += 1
            outcomes += state.chance_outcome_count()
        else:
            decisions += 1
            choices += len(state._legal_now())
        state = state._apply(move)
    return {"decisions": decisions, "choices_per_decision": choices / decisions if decisions else 0.0,
            "chance_events": chances, "outcomes_per_chance_event": outcomes / chances if chances else 0.0}


def _play_chunk(games: Mapping[str, Any], bots: Mapping[str, BotMaker], chunk: Sequence[Task], max_steps: int,
                shape: bool = False) -> list[dict[str, Any]]:
    """The rows of several tasks, labelled (the unit of work sent to joblib or a Dask worker)."""
    return [{"game": g, "bots": b, "seed": s, **play_task(games[g], bots[b], s, max_steps, shape)} for g, b, s in chunk]


def sweep(
    games: Mapping[str, Any],
    bots: Mapping[str, BotMaker],
    seeds: int | Iterable[int] = 100,
    *,
    jobs: int = 1,
    client: Any = None,
    chunk_size: int | None = None,
    max_steps: int = 100_000,
    progress: bool = True,
    save: str | Path | None = None,
    shape: bool = False,
) -> pd.DataFrame:
    """Play every game of ``games`` with every bot maker of ``bots`` on every seed: one row per game played.

    ``games`` maps a label to a game (anything with ``new_initial_state()``: ``Game(players=3)``);
    ``bots`` maps a label to a :data:`BotMaker`; ``seeds`` is a count (``range(seeds)``) or the
    seeds themselves. Rows come in the order games × bots × seeds whichever way the sweep runs.
    ``jobs`` > 1 (or -1) runs through joblib; ``client`` (a ``distributed.Client`` or a scheduler
    address) runs on that Dask cluster. Tasks travel in chunks of ``chunk_size`` (default: about
    four chunks a worker or job). Columns: ``game``, ``bots``, ``seed``, ``moves``,
    ``player_0`` … (each player's return), ``winners`` (a tuple of players). ``save`` (a file path)
    keeps every finished row in that file and resumes from it (see the module's text). ``shape=True`` adds the
    columns of :data:`SHAPE_COLUMNS` (decisions, choices per decision, chance events, outcomes per chance event).
    """
    games, bots = _labelled(games, "games"), _labelled(bots, "bots")
    seed_list = _seeds(seeds)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs == 0:
        raise BadArgument("jobs", "must be 1 (this process), 2 or more, or -1 (every core)", jobs)
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1):
        raise BadArgument("chunk_size", "must be a whole number 1 or more (or None: about four chunks a worker)", chunk_size)
    if client is not None and jobs != 1:
        raise BadArgument("jobs", "give jobs (joblib) or client (Dask), not both", jobs)
    check_flag(shape, "shape")
    steps = (max_steps, shape)  # what every chunk is played with
    tasks: list[Task] = [(g, b, s) for g in games for b in bots for s in seed_list]
    path = None if save is None else check_path(save, "save")
    done = {} if path is None or not os.path.lexists(path) else _saved_rows(path, set(tasks))
    todo = [task for task in tasks if task not in done]
    from tqdm.auto import tqdm  # here, not at the top: importing it costs a tenth of `import coffeegames`

    bar = tqdm(total=len(tasks), initial=len(done), disable=not progress, desc="games")
    lost: list[tuple[str, str, int, str]] = []
    with _Keeper(done, path) as keep:
        try:
            if client is not None:
                lost = _on_dask(client, games, bots, todo, chunk_size, steps, bar, keep)
            elif jobs != 1:
                lost = _on_joblib(jobs, games, bots, todo, chunk_size, steps, bar, keep)
            else:
                for task in todo:
                    keep(_play_chunk(games, bots, [task], *steps))
                    bar.update(1)
        except KeyboardInterrupt:
            table = _frame([done[t] for t in tasks if t in done])
            table.attrs["incomplete"] = {"why": "interrupted", "games": len(tasks), "finished": len(table)}
            where = f"; they are saved in {shown(str(path), 200)}: run the same sweep again to play the rest" if path else ""
            warnings.warn(f"sweep interrupted: {len(table)} of {len(tasks)} games finished{where}", stacklevel=2)
            return table
        finally:
            bar.close()
    table = _frame([done[t] for t in tasks if t in done])
    if lost:
        raise SweepIncomplete(lost, table)
    return table


class _Keeper:
    """Collects finished rows by task, and appends each to the save file (if any) as it comes."""

    def __init__(self, done: dict[Task, dict[str, Any]], path: Path | None) -> None:
        self.done, self.path = done, path
        self.file: TextIO | None = None

    def __enter__(self) -> _Keeper:
        if self.path is not None:
            new = not os.path.lexists(self.path)
            try:
                self.file = open(self.path, "a", encoding="utf-8")
            except OSError as error:
                raise BadArgument("save", f"cannot be written ({error.strerror or error})", str(self.path)) from None
            if new:
                self.file.write(json.dumps({"format": SWEEP_FORMAT}) + "\n")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()

    def __call__(self, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            self.done[(row["game"], row["bots"], row["seed"])] = row
            if self.file is not None:
                self.file.write(json.dumps({**row, "winners": list(row["winners"])}) + "\n")
        if self.file is not None:
            self.file.flush()


def load_rows(path: str | Path) -> pd.DataFrame:
    """The rows a sweep saved (``sweep(..., save=path)``), as the sweep's table, in the order they finished.

    >>> import tempfile, pathlib
    >>> from coffeegames.engine import random_policy
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> class Dice:
    ...     def new_initial_state(self): return KeepOrReroll()
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
    >>> table = sweep({"dice": Dice()}, {"random": random_policy}, seeds=3, progress=False, save=file)
    >>> load_rows(file).equals(table)
    True
    """
    path = check_path(path)
    return _frame(list(_saved_rows(path, None).values()))


def _saved_rows(path: Path, tasks: set[Task] | None) -> dict[Task, dict[str, Any]]:
    """The rows of a saved sweep, checked whole (a line cut short by an interrupted write, the last, is dropped)."""
    from ..validate import read_json, read_text

    source = f"saved sweep {shown(str(path), 200)}"
    text = read_text(path, source, MAX_SAVED_BYTES)
    lines = text.split("\n")
    if lines[-1]:  # the last line was being written when the sweep stopped
        lines.pop()
    lines = [line for line in lines if line]
    if not lines or read_json(lines[0], source) != {"format": SWEEP_FORMAT}:
        raise BadData("(first line)", f'must be {{"format": "{SWEEP_FORMAT}"}}: a file sweep(save=...) wrote',
                      lines[0] if lines else "", source=source)
    rows: dict[Task, dict[str, Any]] = {}
    for number, line in enumerate(lines[1:], start=2):
        row = read_json(line, f"{source} line {number}")
        ok = (isinstance(row, dict) and isinstance(row.get("game"), str) and isinstance(row.get("bots"), str)
              and isinstance(row.get("seed"), int) and isinstance(row.get("moves"), int)
              and isinstance(row.get("winners"), list))
        if not ok:
            raise BadData(f"line {number}", "must be one game's row: game, bots, seed, moves, player_0 ..., winners",
                          line, source=source)
        task = (row["game"], row["bots"], row["seed"])
        if tasks is not None and task not in tasks:
            raise BadData(f"line {number}", "is a game of another sweep (its game, bots or seed is not in this one): "
                          "save each sweep to its own file", line, source=source)
        rows[task] = {**row, "winners": tuple(row["winners"])}
    return rows


def _labelled(items: Any, what: str) -> dict[str, Any]:
    if not isinstance(items, Mapping):
        raise BadType(what, "must be a dict from a label to a " + ("game" if what == "games" else "bot maker"), items)
    if not items:
        raise BadArgument(what, "must not be empty", items)
    if what == "bots" and not all(callable(m) for m in items.values()):
        raise BadType(what, "must map labels to bot makers: functions from a NumPy generator to a policy", items)
    return {str(label): item for label, item in items.items()}


def _seeds(seeds: int | Iterable[int]) -> list[int]:
    if isinstance(seeds, bool):
        raise BadType("seeds", "must be a count or a list of whole numbers", seeds)
    if isinstance(seeds, int):
        if seeds < 0:
            raise BadArgument("seeds", "a count of seeds must be 0 or more", seeds)
        return list(range(seeds))
    out = list(seeds)
    if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in out):
        raise BadType("seeds", "must be a count or a list of whole numbers 0 or more", seeds)
    return out


def _chunks(tasks: list[Task], size: int) -> list[list[Task]]:
    return [tasks[i : i + size] for i in range(0, len(tasks), max(1, size))]


def _default_size(tasks: list[Task], workers: int) -> int:
    return max(1, -(-len(tasks) // (4 * max(1, workers))))


def _on_joblib(jobs: int, games: dict, bots: dict, tasks: list[Task], chunk_size: int | None, steps: tuple[int, bool], bar: Any,
               keep: _Keeper) -> list[tuple[str, str, int, str]]:
    from joblib import Parallel, cpu_count, delayed
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    size = chunk_size or _default_size(tasks, cpu_count() if jobs < 0 else jobs)
    chunks = _chunks(tasks, size)
    results = Parallel(n_jobs=jobs, return_as="generator")(delayed(_play_chunk)(games, bots, c, *steps) for c in chunks)
    finished = 0
    try:
        for done in results:  # in submission order
            keep(done)
            finished += 1
            bar.update(len(done))
    except TerminatedWorkerError as error:  # a worker process died: the chunks not yet returned are lost
        why = _why(error)
        return [(g, b, s, why) for chunk in chunks[finished:] for g, b, s in chunk]
    return []


def _on_dask(client: Any, games: dict, bots: dict, tasks: list[Task], chunk_size: int | None, steps: tuple[int, bool], bar: Any,
             keep: _Keeper) -> list[tuple[str, str, int, str]]:
    from distributed import Client, as_completed

    own = isinstance(client, str)
    if own:
        client = Client(client)
    elif not isinstance(client, Client):
        raise BadType("client", "must be a distributed.Client or a scheduler address such as 'tcp://10.0.0.5:8786'", client)
    try:
        workers = max(1, sum(client.nthreads().values()))
        chunks = _chunks(tasks, chunk_size or _default_size(tasks, workers))
        # hash=False: keys of their own. Keys from the content (the default) are the same in the next sweep of the
        # same games, whose data the release of this sweep's futures may then delete ("lost dependencies").
        [games_data, bots_data] = client.scatter([games, bots], broadcast=True, hash=False)
        futures = [client.submit(_play_chunk, games_data, bots_data, c, *steps, pure=False) for c in chunks]
        order = {f.key: i for i, f in enumerate(futures)}
        lost: list[tuple[str, str, int, str]] = []
        for future in as_completed(futures):
            chunk = chunks[order[future.key]]
            try:
                keep(future.result())
            except Exception as error:  # noqa: BLE001 - sorted below: the cluster's faults are reported, bugs raised
                if not _lost_to_cluster(error):
                    raise
                lost += [(g, b, s, _why(error)) for g, b, s in chunk]
            bar.update(len(chunk))
        return sorted(lost, key=lambda item: tasks.index(item[:3]))
    finally:
        if own:
            client.close()


def _lost_to_cluster(error: BaseException) -> bool:
    """Whether a task failed because of the cluster (a worker killed, a task cancelled or forgotten, a connection
    closed), not because of the game or bot it ran."""
    from concurrent.futures import CancelledError

    names = {cls.__name__ for cls in type(error).__mro__}
    return isinstance(error, (CancelledError, OSError)) or bool(names & {"KilledWorker", "FutureCancelledError",
                                                                          "CommClosedError", "CancelledError"})


def _why(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}" + (f" ({shown(text[0], 120)[1:-1]})" if text else "")


def _frame(rows: list[dict]) -> pd.DataFrame:
    columns = ["game", "bots", "seed", "moves"]
    table = pd.DataFrame(rows)
    if table.empty:
        return pd.DataFrame(columns=[*columns, "winners"])
    players = sorted((c for c in table.columns if c.startswith("player_")), key=lambda c: int(c.split("_")[1]))
    return table[[*columns, *players, "winners", *(c for c in SHAPE_COLUMNS if c in table.columns)]]

