"""Sweeps (``coffeegames.engine.sweep``): the same table in this process, through joblib and on a real Dask cluster.

The cluster is a ``distributed.LocalCluster`` on the loopback address: a scheduler and two
workers talking TCP, so the games and bot makers really travel by pickle (threads, not
processes, so that no worker spends seconds importing ``coffeegames`` afresh; joblib's own
test uses worker processes). Games are small (Coffee Roaster's and 2-player VivaJava's random
and greedy games) so the whole file takes seconds.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd
import pytest

from coffeegames import roaster, vivajava
from coffeegames.engine import play, play_out, random_policy, sweep
from coffeegames.errors import BadArgument, BadType

distributed = pytest.importorskip("distributed")
joblib = pytest.importorskip("joblib")

GAMES = {"roaster": roaster.Game(), "vivajava 2p": vivajava.Game(players=2)}
BOTS = {"random": random_policy, "greedy": lambda rng: vivajava.greedy_policy}
ROASTER_BOTS = {"random": random_policy, "greedy": lambda rng: roaster.greedy_policy}


def bots_for(name: str):
    return ROASTER_BOTS if name == "roaster" else BOTS


def reference() -> pd.DataFrame:
    """The in-process sweep, one game at a time (each game with its own bots)."""
    parts = [sweep({name: game}, bots_for(name), seeds=4, progress=False) for name, game in GAMES.items()]
    return pd.concat(parts, ignore_index=True)


def sweep_all(**how) -> pd.DataFrame:
    parts = [sweep({name: game}, bots_for(name), seeds=4, progress=False, **how) for name, game in GAMES.items()]
    return pd.concat(parts, ignore_index=True)


@pytest.fixture(scope="module")
def expected() -> pd.DataFrame:
    return reference()


@pytest.fixture(scope="module")
def cluster() -> Iterator:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=None
    ) as local:
        yield local


@pytest.fixture(scope="module")
def client(cluster) -> Iterator:
    with distributed.Client(cluster) as c:
        yield c


def test_rows_are_every_game_bot_and_seed_in_order(expected: pd.DataFrame) -> None:
    assert list(expected.columns[:4]) == ["game", "bots", "seed", "moves"]
    assert len(expected) == 2 * 2 * 4
    assert list(expected["seed"][:4]) == [0, 1, 2, 3]
    assert list(expected["bots"][:8]) == ["random"] * 4 + ["greedy"] * 4
    assert list(expected["game"].unique()) == ["roaster", "vivajava 2p"]
    assert (expected["moves"] > 0).all()


def test_a_row_is_the_game_played_by_hand_from_its_seed(expected: pd.DataFrame) -> None:
    """Row (vivajava, random, seed 2) replayed with play_out: chance from [seed, 0], the bot from [seed, 1]."""
    game = GAMES["vivajava 2p"]
    final, log = play_out(game.new_initial_state(), random_policy(np.random.default_rng([2, 1])), np.random.default_rng([2, 0]))
    row = expected[(expected["game"] == "vivajava 2p") & (expected["bots"] == "random") & (expected["seed"] == 2)].iloc[0]
    assert row["moves"] == len(log)
    assert [row["player_0"], row["player_1"]] == [float(r) for r in final.returns()]


def test_a_seed_gives_the_same_game_alone_or_among_others(expected: pd.DataFrame) -> None:
    alone = sweep({"roaster": GAMES["roaster"]}, {"random": random_policy}, seeds=[3, 1], progress=False)
    among = expected[(expected["game"] == "roaster") & (expected["bots"] == "random")].set_index("seed")
    for _, row in alone.iterrows():
        assert row["moves"] == among.loc[row["seed"], "moves"]
        assert row["player_0"] == among.loc[row["seed"], "player_0"]


def test_joblib_gives_the_same_table(expected: pd.DataFrame) -> None:
    """Two worker processes (joblib's loky backend); Coffee Roaster only, to keep their imports short."""
    mine = sweep({"roaster": GAMES["roaster"]}, ROASTER_BOTS, seeds=4, jobs=2, chunk_size=3, progress=False)
    pd.testing.assert_frame_equal(mine, expected[expected["game"] == "roaster"].dropna(axis=1, how="all"))


def test_a_dask_cluster_gives_the_same_table(expected: pd.DataFrame, client) -> None:
    pd.testing.assert_frame_equal(sweep_all(client=client), expected)
    pd.testing.assert_frame_equal(sweep_all(client=client, chunk_size=1), expected)


def test_a_scheduler_address_gives_the_same_table(expected: pd.DataFrame, cluster, client) -> None:
    address = cluster.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    pd.testing.assert_frame_equal(sweep_all(client=address), expected)


def test_joblib_dask_backend_gives_the_same_table(expected: pd.DataFrame, client) -> None:
    """What engine.play's docstring promises: joblib's Dask backend spreads the games over the cluster."""
    with joblib.parallel_config(backend="dask"):
        pd.testing.assert_frame_equal(sweep_all(jobs=2), expected)
        on_cluster = play(GAMES["roaster"], roaster.greedy_policy, n_games=6, seed=5, jobs=2, progress=False)
    pd.testing.assert_frame_equal(on_cluster, play(GAMES["roaster"], roaster.greedy_policy, n_games=6, seed=5, progress=False))


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"games": [roaster.Game()]}, BadType, "games"),
        ({"games": {}}, BadArgument, "games"),
        ({"bots": {"x": 3}}, BadType, "bots"),
        ({"seeds": -1}, BadArgument, "seeds"),
        ({"seeds": ["a"]}, BadType, "seeds"),
        ({"seeds": True}, BadType, "seeds"),
        ({"jobs": 2, "client": "tcp://127.0.0.1:1"}, BadArgument, "jobs"),
        ({"jobs": 0}, BadArgument, "jobs"),
        ({"chunk_size": 0}, BadArgument, "chunk_size"),
        ({"client": 42}, BadType, "client"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict, error: type, words: str) -> None:
    args = {"games": {"roaster": roaster.Game()}, "bots": {"random": random_policy}, "seeds": 1, "progress": False} | kwargs
    with pytest.raises(error, match=words):
        sweep(**args)
