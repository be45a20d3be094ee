"""``coffeegames.analyse`` (issue 31): its numbers against hand counts and independent methods, the same table
in this process, through joblib and on a real Dask cluster, saving and resuming, and the intervals' coverage.

Small seeds and cheap games (Coffee Roaster's and VivaJava's greedy games: a hundredth of a second each), so the
file takes seconds, not minutes; no timed asserts.
"""

from __future__ import annotations

import inspect
import math
import pickle
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import coffeegames
from coffeegames.analyse import games_to_separate, newcombe, skill_share, wilson
from coffeegames.analyse.bots import Bot, bot_makers
from coffeegames.analyse.options import game_label, option_grid, parse_label
from coffeegames.analyse.questions import fairness, luck, options, shape
from coffeegames.engine import sweep
from coffeegames.engine.sweep import load_rows
from coffeegames.errors import BadArgument, BadData, BadType, TooBig

Z95 = 1.959963984540054


# -- the statistics, against hand formulas and published values --------------------------------------------


def test_wilson_against_the_formula_written_out_and_its_edges() -> None:
    for k, n in [(3, 10), (59, 100), (1, 2), (7, 7)]:
        p = k / n
        centre = (k + Z95**2 / 2) / (n + Z95**2)
        half = Z95 * math.sqrt(n) / (n + Z95**2) * math.sqrt(p * (1 - p) + Z95**2 / (4 * n))
        low, high = wilson(k, n)
        assert low == pytest.approx(0.0 if k == 0 else centre - half, abs=1e-12)
        assert high == pytest.approx(1.0 if k == n else centre + half, abs=1e-12)
    assert wilson(0, 10) == (0.0, pytest.approx(Z95**2 / (10 + Z95**2)))  # 0 of n: [0, z²/(n+z²)]
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(5, 10, confidence=0.99)[0] < wilson(5, 10)[0]


def test_newcombe_matches_his_published_examples() -> None:
    """Newcombe (1998), Table II, method 10: (a) 56/70 - 48/80: 0.0524 to 0.3339; (d) 10/10 - 0/10: 0.6075 to 1."""
    assert newcombe(56, 70, 48, 80) == (pytest.approx(0.0524, abs=1e-4), pytest.approx(0.3339, abs=1e-4))
    assert newcombe(10, 10, 0, 10) == (pytest.approx(0.6075, abs=1e-4), pytest.approx(1.0, abs=1e-4))
    assert newcombe(9, 10, 3, 10) == (pytest.approx(0.1705, abs=1e-4), pytest.approx(0.8090, abs=1e-4))


def test_games_to_separate_reaches_its_power_in_a_simulation() -> None:
    """n games each for 0.5 and 0.65: a two-sided 5% test rejects in about 80% of simulated pairs of samples."""
    n = games_to_separate(0.5, 0.65)
    assert n == games_to_separate(0.65, 0.5) and 150 < n < 190  # the textbook answer for 0.5 vs 0.65 is 170
    rng = np.random.default_rng(31)
    a, b = rng.binomial(n, 0.5, size=4000), rng.binomial(n, 0.65, size=4000)
    pooled = (a + b) / (2 * n)
    z = (b - a) / n / np.sqrt(pooled * (1 - pooled) * 2 / n)
    assert 0.76 < float(np.mean(np.abs(z) > Z95)) < 0.84
    assert games_to_separate(0.5, 0.6, power=0.9) > games_to_separate(0.5, 0.6)


@pytest.mark.parametrize("p, n", [(0.3, 40), (0.59, 200), (0.05, 60)])
def test_wilson_intervals_cover_the_true_rate_at_about_the_nominal_rate(p: float, n: int) -> None:
    rng = np.random.default_rng([31, n])
    counts = rng.binomial(n, p, size=3000)
    covered = np.mean([lo <= p <= hi for lo, hi in (wilson(int(k), n) for k in counts)])
    assert 0.92 < covered < 0.98


def test_newcombe_intervals_cover_the_true_difference_at_about_the_nominal_rate() -> None:
    rng = np.random.default_rng(7)
    a, b = rng.binomial(80, 0.6, size=3000), rng.binomial(70, 0.45, size=3000)
    covered = np.mean([lo <= 0.15 <= hi for lo, hi in (newcombe(int(x), 80, int(y), 70) for x, y in zip(a, b))])
    assert 0.93 < covered < 0.97


def test_skill_share_is_the_between_bot_share_of_the_sum_of_squares() -> None:
    scores, bots = [1, 2, 3, 7, 8, 9], ["a", "a", "a", "b", "b", "b"]
    total = sum((s - 5) ** 2 for s in scores)  # mean 5: 16+9+4+4+9+16 = 58
    between = 3 * (2 - 5) ** 2 + 3 * (8 - 5) ** 2  # 54
    assert total == 58 and skill_share(scores, bots) == pytest.approx(between / total)
    assert skill_share([4, 4], ["a", "b"]) == 0.0


def test_the_statistics_refuse_bad_counts_by_name() -> None:
    with pytest.raises(BadArgument, match="successes"):
        wilson(11, 10)
    with pytest.raises(BadType, match="confidence"):
        wilson(1, 2, confidence="95%")
    with pytest.raises(BadArgument, match="n1"):
        newcombe(0, 0, 1, 2)
    with pytest.raises(BadArgument, match="p2"):
        games_to_separate(0.5, 0.5)
    with pytest.raises(BadArgument, match="p1"):
        games_to_separate(1.5, 0.5)


# -- the questions' tables on hand-made rows ----------------------------------------------------------------


def rows(**columns) -> pd.DataFrame:
    n = len(columns["winners"])
    base = {"game": ["g"] * n, "bots": ["greedy"] * n, "seed": list(range(n)), "moves": [10] * n}
    return pd.DataFrame({**base, **columns})


def test_fairness_counts_each_seats_wins_and_shared_wins() -> None:
    table = rows(player_0=[3.0, 1, 2, 2, 0], player_1=[1.0, 2, 2, 0, 5], winners=[(0,), (1,), (0, 1), (0,), (1,)])
    got = fairness(table, {"g": "players=2"})
    assert got[["seat", "games", "wins", "ties"]].values.tolist() == [[1, 5, 3, 1], [2, 5, 3, 1]]
    assert got["win_rate"].tolist() == [0.6, 0.6]
    assert (got["low"].tolist()[0], got["high"].tolist()[0]) == wilson(3, 5)


def test_fairness_of_a_one_player_game_is_its_score_distribution() -> None:
    got = fairness(rows(player_0=[4.0, 8, 6, 2], winners=[(0,)] * 4), {"g": "side=full"}).iloc[0]
    sd = math.sqrt(((4 - 5) ** 2 + 3**2 + 1 + 3**2) / 3)
    assert (got["games"], got["mean_score"], got["median"], got["min"], got["max"]) == (4, 5.0, 5.0, 2.0, 8.0)
    assert got["sd"] == pytest.approx(sd) and got["high"] - 5 == pytest.approx(Z95 * sd / 2)


def test_luck_counts_the_stronger_bots_wins_with_seats_alternating() -> None:
    table = pd.DataFrame({
        "game": ["g"] * 6, "seed": [0, 1, 2, 0, 1, 2], "moves": [5] * 6,
        "bots": ["strong v greedy"] * 3 + ["greedy v strong"] * 3,
        "player_0": [9.0, 1, 4, 2, 7, 3], "player_1": [1.0, 8, 4, 6, 3, 9],
        "winners": [(0,), (1,), (0, 1), (1,), (0,), (1,)]})
    got = luck(table, ["greedy", "strong"], solo=False).set_index("measure")
    # strong wins: seed 0 in seat 1; seeds 0 and 2 in seat 2; loses seed 1 twice; one tie
    assert got.loc["win rate", ["games", "wins", "losses", "ties"]].tolist() == [6, 3, 2, 1]
    assert got.loc["edge", "value"] == pytest.approx(1 / 6)
    assert (got.loc["edge", "low"], got.loc["edge", "high"]) == pytest.approx(newcombe(3, 6, 2, 6))
    strong = [9, 1, 4, 6, 3, 9]  # seat 1 in the first three games, seat 2 in the last three
    greedy = [1, 8, 4, 2, 7, 3]
    assert got.loc["skill share", "value"] == pytest.approx(skill_share(strong + greedy, ["s"] * 6 + ["g"] * 6))


def test_luck_of_a_one_player_game_compares_the_same_seeds_scores() -> None:
    table = pd.DataFrame({"game": ["g"] * 6, "seed": [0, 1, 2] * 2, "moves": [5] * 6,
                          "bots": ["random"] * 3 + ["greedy"] * 3, "player_0": [3.0, 9, 5, 7, 8, 5],
                          "winners": [(0,)] * 6})
    got = luck(table, ["random", "greedy"], solo=True).set_index("measure")
    assert got.loc["win rate", ["wins", "losses", "ties"]].tolist() == [1, 1, 1]
    # greedy less random on seeds 0, 1, 2: 7 - 3, 8 - 9, 5 - 5
    sd = math.sqrt(((4 - 1) ** 2 + (-1 - 1) ** 2 + (0 - 1) ** 2) / 2)
    assert got.loc["score difference", "value"] == pytest.approx(1.0)
    assert got.loc["score difference", "high"] - 1.0 == pytest.approx(Z95 * sd / math.sqrt(3))


def test_options_compare_each_setting_with_the_default() -> None:
    table = pd.DataFrame({"game": ["base"] * 4 + ["x=1"] * 4, "bots": ["greedy"] * 8, "seed": [0, 1, 2, 3] * 2,
                          "moves": [10, 12, 14, 16, 20, 20, 22, 22], "player_0": [1.0, 2, 3, 4, 5, 6, 7, 8],
                          "player_1": [1.0, 1, 1, 1, 2, 2, 2, 2],
                          "winners": [(0,), (0,), (0,), (0,), (0,), (0,), (1,), (1,)]})
    got = options(table, "base", {"x=1": ("x", 1)}).iloc[0]
    assert got["seat1_change"] == pytest.approx(0.5 - 1.0)
    assert (got["seat1_low"], got["seat1_high"]) == pytest.approx(newcombe(2, 4, 4, 4))
    assert got["moves_change"] == pytest.approx(21 - 13)
    assert got["score_change"] == pytest.approx((26 + 8) / 8 - (10 + 4) / 8)


def test_shape_is_the_mean_of_each_measure_per_game() -> None:
    table = rows(player_0=[1.0, 2], winners=[(0,), (0,)], decisions=[6, 8], choices_per_decision=[2.0, 3.0],
                 chance_events=[4, 2], outcomes_per_chance_event=[6.0, 6.0])
    got = shape(table, {"g": "v"}).set_index("measure")
    assert got.loc["decisions", "mean"] == 7 and got.loc["choices_per_decision", "mean"] == 2.5
    assert got.loc["outcomes_per_chance_event", "low"] == 6.0 == got.loc["outcomes_per_chance_event", "high"]


# -- the sweep's shape columns ------------------------------------------------------------------------------


def test_shape_columns_leave_the_seeded_games_as_they_were_and_add_up() -> None:
    games = {"vivajava": coffeegames.vivajava.Game(players=2)}
    bots = {"greedy": Bot("vivajava", "greedy")}
    plain = sweep(games, bots, seeds=5, progress=False)
    shaped = sweep(games, bots, seeds=5, progress=False, shape=True)
    pd.testing.assert_frame_equal(shaped[plain.columns], plain)
    assert (shaped["decisions"] + shaped["chance_events"] == shaped["moves"]).all()
    assert (shaped["choices_per_decision"] >= 1).all() and (shaped["outcomes_per_chance_event"] >= 1).all()


def test_shape_counts_by_hand_on_the_keep_or_reroll_game() -> None:
    """KeepOrReroll: a die (6 outcomes), then keep or reroll (2 choices) once; a reroll rolls again and ends."""
    from coffeegames.engine.examples import KeepOrReroll

    class Dice:
        def new_initial_state(self) -> KeepOrReroll:
            return KeepOrReroll()

    table = sweep({"dice": Dice()}, {"random": coffeegames.engine.random_policy}, seeds=20, progress=False, shape=True)
    assert set(table["outcomes_per_chance_event"]) == {6.0}
    assert set(table["decisions"]) == {1} and set(table["choices_per_decision"]) == {2.0}
    assert set(table["chance_events"]) == {1, 2} and (table["moves"] == 1 + table["chance_events"]).all()


# -- the report on real games --------------------------------------------------------------------------------


def test_analyse_is_the_package_and_the_function() -> None:
    assert callable(coffeegames.analyse) and coffeegames.analyse.load is coffeegames.analyse.report.load
    assert list(inspect.signature(coffeegames.analyse).parameters)[:2] == ["name", "seeds"]
    assert "analyse" in coffeegames.__all__ and coffeegames.analyse.wilson is wilson


def test_the_fairness_table_is_the_sweeps_rows_counted() -> None:
    report = coffeegames.analyse("vivajava", seeds=12, bots=["greedy"], players=[2, 3], options={}, progress=False)
    table = report.table("fairness")
    for players in (2, 3):
        played = sweep({"g": coffeegames.vivajava.Game(players=players)}, {"b": Bot("vivajava", "greedy")}, seeds=12,
                       progress=False)
        for seat in range(players):
            wins = sum(seat in w for w in played["winners"])
            row = table[(table["variant"] == f"players={players}") & (table["seat"] == seat + 1)].iloc[0]
            assert (row["wins"], row["games"]) == (wins, 12)
    shape_table = report.table("shape")
    assert len(report.rows) == 24  # the shape question played no game: fairness's rows serve it
    assert set(shape_table["variant"]) == {"players=2", "players=3"}


def test_the_luck_table_plays_every_seed_both_ways() -> None:
    report = coffeegames.analyse("vivajava", seeds=6, bots=["random", "greedy"], players=2, options={}, progress=False)
    got = report.table("luck").set_index("measure")
    assert got.loc["win rate", "games"] == 12
    assert {b for _, b, _ in report.rows} == {"greedy v random", "random v greedy"}
    assert got.loc["win rate", "wins"] + got.loc["win rate", "losses"] + got.loc["win rate", "ties"] == 12


def test_the_options_table_sweeps_each_value_against_the_default() -> None:
    report = coffeegames.analyse("roaster", seeds=4, bots=["greedy"], options={"crack_steps": [1, 3]}, progress=False)
    got = report.table("options")
    assert got[["option", "value", "games"]].values.tolist() == [["crack_steps", 1, 4], ["crack_steps", 3, 4]]
    assert "seat1_change" not in got.columns  # one player: no seat to compare
    assert report.figure("options").data[0].error_y.array is not None


def test_the_default_option_grid_is_the_documented_one() -> None:
    grid = option_grid("gizmos")
    assert grid["converters_per"] == ["build"] and grid["energy_limit"] == [4, 6]
    assert "payoff" not in grid and "players" not in grid and "rules_version" not in grid
    assert parse_label(game_label("gizmos", {"players": 2})) == ("gizmos", {"players": 2})


def test_save_and_load_give_the_same_tables_without_playing_again(tmp_path: Path) -> None:
    file = tmp_path / "roaster.jsonl"
    report = coffeegames.analyse("roaster", seeds=5, bots=["random", "greedy"], options={"crack_steps": [1]},
                                 progress=False, save=file)
    tables = {q: report.table(q) for q in ("fairness", "luck", "options", "shape")}
    again = coffeegames.analyse.load(file)
    assert len(again.rows) == len(report.rows)
    for question, table in tables.items():
        pd.testing.assert_frame_equal(again.table(question), table)
    assert len(again.rows) == len(report.rows)  # nothing was played again
    assert load_rows(file)["seed"].nunique() == 5  # the sweep's own file format


def test_an_analysis_resumes_from_its_file(tmp_path: Path) -> None:
    file = tmp_path / "games.jsonl"
    first = coffeegames.analyse("roaster", seeds=3, bots=["greedy"], options={}, progress=False, save=file)
    first.table("fairness")
    more = coffeegames.analyse("roaster", seeds=6, bots=["greedy"], options={}, progress=False, save=file)
    assert len(more.rows) == 6  # the first three seeds of both sides, read back
    whole = coffeegames.analyse("roaster", seeds=6, bots=["greedy"], options={}, progress=False)
    pd.testing.assert_frame_equal(more.table("fairness"), whole.table("fairness"))


def test_bad_arguments_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(BadArgument, match="name"):
        coffeegames.analyse("chess", seeds=3)
    with pytest.raises(TooBig, match="seeds"):
        coffeegames.analyse("roaster", seeds=10**9)
    with pytest.raises(BadArgument, match="players"):
        coffeegames.analyse("roaster", seeds=3, players=2)
    with pytest.raises(BadArgument, match="bots"):
        coffeegames.analyse("gizmos", seeds=3, bots=["smart"])
    with pytest.raises(BadArgument, match="save"):
        coffeegames.analyse("gizmos", seeds=3, save=tmp_path / "games.csv")
    with pytest.raises(BadArgument, match="options"):
        coffeegames.analyse("gizmos", seeds=3, options={"energy_limit": [-4]})
    with pytest.raises(BadArgument, match="question"):
        coffeegames.analyse("roaster", seeds=1, bots=["greedy"], options={}).table("beauty")
    other = tmp_path / "other.jsonl"
    coffeegames.analyse("roaster", seeds=1, bots=["greedy"], options={}, progress=False, save=other).table("fairness")
    with pytest.raises(BadData, match="roaster"):
        coffeegames.analyse("gizmos", seeds=1, save=other)


def test_the_bots_are_picklable_and_play_legal_moves() -> None:
    for name in coffeegames.games():
        for kind, maker in bot_makers(name).items():
            again = pickle.loads(pickle.dumps(maker))
            assert again == maker
            state = coffeegames.games()[name].game().new_initial_state(seed=3)
            rng = np.random.default_rng(0)
            while state.is_chance():
                state = state.apply(state.sample_chance(rng))
            if kind == "strong" and name in ("gizmos", "rush"):
                continue  # their strong bots cost seconds a decision: played in benchmarks/analyse_findings.py
            assert maker(np.random.default_rng(1))(state) in state.legal_actions()


def test_the_cli_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from coffeegames.cli import main

    assert main(["analyse", "roaster", "--seeds", "3", "--question", "fairness", "--bots", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "Coffee Roaster: fairness (3 seeds)" in out and "side=easy" in out


# -- the same table wherever the games run ---------------------------------------------------------------------


def small(**how) -> coffeegames.analyse.Report:
    return coffeegames.analyse("vivajava", seeds=6, bots=["random", "greedy"], players=2, options={"markers": [4]},
                               progress=False, **how)


@pytest.fixture(scope="module")
def expected() -> dict[str, pd.DataFrame]:
    report = small()
    return {q: report.table(q) for q in ("fairness", "luck", "options", "shape")}


def _same(report: coffeegames.analyse.Report, expected: dict[str, pd.DataFrame]) -> None:
    for question, table in expected.items():
        pd.testing.assert_frame_equal(report.table(question), table)


def test_joblib_gives_the_same_tables(expected: dict[str, pd.DataFrame]) -> None:
    _same(small(jobs=2), expected)


@pytest.fixture(scope="module")
def cluster() -> Iterator:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as local:
        yield local


def test_a_dask_cluster_gives_the_same_tables(expected: dict[str, pd.DataFrame], cluster) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.Client(cluster) as client:
        _same(small(client=client), expected)
    _same(small(client=cluster.scheduler_address), expected)


def test_the_gizmos_bots_choose_alike_whatever_the_hidden_cards_under_the_decks() -> None:
    """Gizmos is the one game whose state holds something a player cannot see (the identity of cards another player
    put under a deck; the other games keep their decks and bag as counts, drawn at chance nodes). Resampled as the
    player sees it (``determinise``), the greedy bot's choice stays the same."""
    from coffeegames import gizmos
    from coffeegames.engine import random_policy

    checked = 0
    for seed in range(40):
        state = gizmos.Game(players=2).new_initial_state(seed=seed)
        rng, policy = np.random.default_rng(seed), random_policy(np.random.default_rng([seed, 1]))
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
                continue
            me = state.current_player()
            if any(by != me for under in state.bottom_by for by in under) and len(state.legal_actions()) > 1:
                for k in range(3):
                    other = state.determinise(me, np.random.default_rng([7, k]))
                    assert gizmos.greedy_policy(other) == gizmos.greedy_policy(state)
                    checked += other != state
                break
            state = state.apply(policy(state))
        if checked >= 30:
            break
    assert checked >= 30  # positions where the hidden cards really moved
