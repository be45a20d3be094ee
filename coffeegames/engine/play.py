"""Play many seeded games with policies, with a progress bar, into a pandas DataFrame."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import BadArgument, BadType
from ..validate import check_count, check_seed, is_whole
from .solve import MAX_GAMES, Policy, check_policies, play_out

__all__ = ["play"]


def _one_game(game: Any, policies: Policy | Sequence[Policy], seed: int | None, index: int) -> dict:
    rng = np.random.default_rng(None if seed is None else [seed, index])
    final, log = play_out(game.new_initial_state(), policies, rng)
    returns = [float(r) for r in final.returns()]
    best = max(returns)
    row: dict = {"game": index, "moves": len(log)}
    row.update({f"player_{i}": r for i, r in enumerate(returns)})
    row["winners"] = tuple(i for i, r in enumerate(returns) if r == best)
    return row


def play(
    game: Any,
    policies: Policy | Sequence[Policy],
    n_games: int = 100,
    seed: int | None = 0,
    jobs: int = 1,
    progress: bool = True,
) -> pd.DataFrame:
    """Play ``n_games`` games of ``game`` (anything with ``new_initial_state()``).

    Game ``i`` draws its chance moves from ``default_rng([seed, i])``. With ``jobs != 1``
    games run through joblib; inside ``joblib.parallel_config("dask")``, with a
    ``distributed.Client`` open, joblib sends them to that Dask cluster
    (``tests/test_sweep.py`` checks it). Results do not depend on ``jobs`` when the policies
    hold no random state of their own (a greedy bot); a random bot's generator is copied to
    each worker, so for random bots use :func:`~coffeegames.engine.sweep.sweep`, which makes
    every game's bots afresh from its seed.
    One row per game: number of moves, each player's return, and the winners.
    """
    if not callable(getattr(game, "new_initial_state", None)):
        raise BadType("game", "must be a game (anything with new_initial_state(), e.g. dairyman.Game())", game)
    check_policies(policies)
    check_count(n_games, "n_games", maximum=MAX_GAMES)
    check_seed(seed)
    if not (is_whole(jobs) and jobs != 0 and abs(jobs) <= 1024):
        raise BadArgument("jobs", "must be a whole number of processes, 1 or more (-1: every core)", jobs)
    from tqdm.auto import tqdm  # here, not at the top: importing it costs a tenth of `import coffeegames`

    indices = range(n_games)
    if jobs == 1:
        rows = [_one_game(game, policies, seed, i) for i in tqdm(indices, disable=not progress, desc="games")]
    else:
        from joblib import Parallel, delayed

        tasks = (delayed(_one_game)(game, policies, seed, i) for i in indices)
        rows = list(tqdm(Parallel(n_jobs=jobs, return_as="generator")(tasks), total=n_games, disable=not progress, desc="games"))
    columns = ["game", "moves", *(f"player_{i}" for i in range(len(rows[0]) - 3)), "winners"] if rows else ["game", "moves", "winners"]
    return pd.DataFrame(rows, columns=columns).set_index("game")
