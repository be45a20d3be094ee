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

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import BadArgument, BadType
from ..validate import check_count
from .solve import Policy, play_out

__all__ = ["BotMaker", "play_task", "sweep"]

BotMaker = Callable[[np.random.Generator], Policy | Sequence[Policy]]
"""Makes the bots of one game from that game's generator: one policy for every player, or one each."""

Task = tuple[str, str, int]
"""One game of a sweep: (game label, bots label, seed)."""


def play_task(game: Any, make_bots: BotMaker, seed: int, max_steps: int = 100_000) -> dict[str, Any]:
    """Play one game of a sweep and return its row (moves, each player's return as a float, the winners).

    Chance draws from ``default_rng([seed, 0])``, the bots from ``default_rng([seed, 1])``.

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
    bots = make_bots(np.random.default_rng([seed, 1]))
    final, log = play_out(game.new_initial_state(), bots, np.random.default_rng([seed, 0]), max_steps)
    returns = [float(r) for r in final.returns()]
    best = max(returns)
    row: dict[str, Any] = {"moves": len(log)}
    row.update({f"player_{i}": r for i, r in enumerate(returns)})
    row["winners"] = tuple(i for i, r in enumerate(returns) if r == best)
    return row


def _play_chunk(games: Mapping[str, Any], bots: Mapping[str, BotMaker], chunk: Sequence[Task], max_steps: int) -> list[dict[str, Any]]:
    """The rows of several tasks, labelled (the unit of work sent to joblib or a Dask worker)."""
    return [{"game": g, "bots": b, "seed": s, **play_task(games[g], bots[b], s, max_steps)} for g, b, s in chunk]


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
) -> pd.DataFrame:
    """Play every game of ``games`` with every bot maker of ``bots`` on every seed: one row per game played.

    ``games`` maps a label to a game (anything with ``new_initial_state()``: ``Game(players=3)``);
    ``bots`` maps a label to a :data:`BotMaker`; ``seeds`` is a count (``range(seeds)``) or the
    seeds themselves. Rows come in the order games × bots × seeds whichever way the sweep runs.
    ``jobs`` > 1 (or -1) runs through joblib; ``client`` (a ``distributed.Client`` or a scheduler
    address) runs on that Dask cluster. Tasks travel in chunks of ``chunk_size`` (default: about
    four chunks a worker or job). Columns: ``game``, ``bots``, ``seed``, ``moves``,
    ``player_0`` … (each player's return), ``winners`` (a tuple of players).
    """
    games, bots = _labelled(games, "games"), _labelled(bots, "bots")
    seed_list = _seeds(seeds)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs == 0:
        raise BadArgument("jobs", "must be 1 (this process), 2 or more, or -1 (every core)", jobs)
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1):
        raise BadArgument("chunk_size", "must be a whole number 1 or more (or None: about four chunks a worker)", chunk_size)
    if client is not None and jobs != 1:
        raise BadArgument("jobs", "give jobs (joblib) or client (Dask), not both", jobs)
    tasks: list[Task] = [(g, b, s) for g in games for b in bots for s in seed_list]
    from tqdm.auto import tqdm  # here, not at the top: importing it costs a tenth of `import coffeegames`

    bar = tqdm(total=len(tasks), disable=not progress, desc="games")
    try:
        if client is not None:
            rows = _on_dask(client, games, bots, tasks, chunk_size, max_steps, bar)
        elif jobs != 1:
            rows = _on_joblib(jobs, games, bots, tasks, chunk_size, max_steps, bar)
        else:
            rows = []
            for task in tasks:
                rows += _play_chunk(games, bots, [task], max_steps)
                bar.update(1)
    finally:
        bar.close()
    return _frame(rows)


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


def _on_joblib(jobs: int, games: dict, bots: dict, tasks: list[Task], chunk_size: int | None, max_steps: int, bar: Any) -> list[dict]:
    from joblib import Parallel, cpu_count, delayed

    size = chunk_size or _default_size(tasks, cpu_count() if jobs < 0 else jobs)
    chunks = _chunks(tasks, size)
    rows: list[dict] = []
    results = Parallel(n_jobs=jobs, return_as="generator")(delayed(_play_chunk)(games, bots, c, max_steps) for c in chunks)
    for done in results:  # in submission order
        rows += done
        bar.update(len(done))
    return rows


def _on_dask(client: Any, games: dict, bots: dict, tasks: list[Task], chunk_size: int | None, max_steps: int, bar: Any) -> list[dict]:
    from distributed import Client, as_completed

    own = isinstance(client, str)
    if own:
        client = Client(client)
    elif not isinstance(client, Client):
        raise BadType("client", "must be a distributed.Client or a scheduler address such as 'tcp://10.0.0.5:8786'", client)
    try:
        workers = max(1, sum(client.nthreads().values()))
        chunks = _chunks(tasks, chunk_size or _default_size(tasks, workers))
        [games_data, bots_data] = client.scatter([games, bots], broadcast=True)
        futures = [client.submit(_play_chunk, games_data, bots_data, c, max_steps, pure=False) for c in chunks]
        order = {f.key: i for i, f in enumerate(futures)}
        done: list[list[dict] | None] = [None] * len(futures)
        for future in as_completed(futures):
            done[order[future.key]] = future.result()
            bar.update(len(chunks[order[future.key]]))
        return [row for part in done if part is not None for row in part]
    finally:
        if own:
            client.close()


def _frame(rows: list[dict]) -> pd.DataFrame:
    columns = ["game", "bots", "seed", "moves"]
    table = pd.DataFrame(rows)
    if table.empty:
        return pd.DataFrame(columns=[*columns, "winners"])
    players = sorted((c for c in table.columns if c.startswith("player_")), key=lambda c: int(c.split("_")[1]))
    return table[[*columns, *players, "winners"]]

