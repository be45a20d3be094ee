"""Sweeps (``coffeegames.engine.sweep``): the same table in this process, through joblib and on a real Dask cluster.

The cluster is a ``distributed.LocalCluster`` on the loopback address: a scheduler and two
workers talking TCP, so the games and bot makers really travel by pickle (threads, not
processes, so that no worker spends seconds importing ``coffeegames`` afresh; joblib's own
test uses worker processes). Games are small (Coffee Roaster's and 2-player VivaJava's random
and greedy games) so the whole file takes seconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from coffeegames import roaster, vivajava
from coffeegames.engine import play, play_out, random_policy, sweep
from coffeegames.engine.sweep import SweepIncomplete, load_rows
from coffeegames.errors import BadArgument, BadData, BadType

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


# -- a sweep that is neither repeated nor lost: saved rows, interrupts, games lost to the cluster ----------------

ROASTER = {"roaster": GAMES["roaster"]}


def failing_at(seed: int, error: BaseException):
    """A bot maker that plays randomly, except that making the bots of game ``seed`` raises ``error``."""
    def make(rng: np.random.Generator):
        # the sweep seeds a game's bot generator with [seed, 1]: recognise game `seed` by its first draw
        if rng.bit_generator.state == np.random.default_rng([seed, 1]).bit_generator.state:
            raise error
        return random_policy(rng)
    return make


def test_a_saved_sweep_resumes_and_gives_the_same_table(tmp_path) -> None:
    file = tmp_path / "games.jsonl"
    first = sweep(ROASTER, {"random": random_policy}, seeds=3, progress=False, save=file)
    # the second run finds seeds 0-2 in the file: a bot maker failing on any of them shows it is not called again
    resumed = sweep(ROASTER, {"random": failing_at(1, AssertionError("replayed a saved game"))}, seeds=5, progress=False,
                    save=file)
    fresh = sweep(ROASTER, {"random": random_policy}, seeds=5, progress=False)
    pd.testing.assert_frame_equal(resumed, fresh)
    pd.testing.assert_frame_equal(first, fresh.iloc[:3])
    assert len(file.read_text().splitlines()) == 1 + 5  # the format line, then one line a game, none twice


def test_an_interrupted_sweep_returns_the_finished_rows_marked_incomplete(tmp_path) -> None:
    file = tmp_path / "games.jsonl"
    with pytest.warns(UserWarning, match="3 of 6 games finished"):
        part = sweep(ROASTER, {"random": failing_at(3, KeyboardInterrupt())}, seeds=6, progress=False, save=file)
    fresh = sweep(ROASTER, {"random": random_policy}, seeds=6, progress=False)
    pd.testing.assert_frame_equal(part, fresh.iloc[:3])
    assert part.attrs["incomplete"] == {"why": "interrupted", "games": 6, "finished": 3}
    pd.testing.assert_frame_equal(sweep(ROASTER, {"random": random_policy}, seeds=6, progress=False, save=file), fresh)


def test_games_lost_to_the_cluster_are_named_with_the_rows_that_finished(client) -> None:
    # the error Dask raises when the workers running a task die again and again (killing a thread worker would kill
    # this test's own process): raised from the task, it reaches the sweep as it would from the scheduler
    killed = distributed.scheduler.KilledWorker("play", SimpleNamespace(address="tcp://127.0.0.1:1"), allowed_failures=3)
    with pytest.raises(SweepIncomplete, match=r"1 of 4 games were lost: roaster / random / seed 2: KilledWorker") as lost:
        sweep(ROASTER, {"random": failing_at(2, killed)}, seeds=4, progress=False, client=client, chunk_size=1)
    fresh = sweep(ROASTER, {"random": random_policy}, seeds=4, progress=False)
    pd.testing.assert_frame_equal(lost.value.table, fresh.drop(index=2).reset_index(drop=True))
    assert [item[:3] for item in lost.value.lost] == [("roaster", "random", 2)]


def test_a_bug_in_a_bot_is_raised_not_reported_as_lost(client) -> None:
    with pytest.raises(ZeroDivisionError):
        sweep(ROASTER, {"random": failing_at(1, ZeroDivisionError())}, seeds=3, progress=False, client=client)


def test_a_saved_sweep_that_is_not_whole_is_refused(tmp_path) -> None:
    file = tmp_path / "games.jsonl"
    sweep(ROASTER, {"random": random_policy}, seeds=2, progress=False, save=file)
    good = file.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"  # a last line cut short by an interrupted write is dropped, the rest kept
    cut.write_text("\n".join(good) + "\n" + good[-1][:20])
    assert len(load_rows(cut)) == 2
    for lines, words in ((['{"format": "other"}', *good[1:]], "first line"), ([good[0], "[1, 2]", good[2]], "line 2"),
                         ([*good, good[1].replace('"roaster"', '"vivajava"')], "another sweep")):
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join(lines) + "\n")
        with pytest.raises(BadData, match=words):
            sweep(ROASTER, {"random": random_policy}, seeds=2, progress=False, save=bad)
