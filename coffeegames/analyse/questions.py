"""The four questions' tables, computed from a sweep's rows (one row a game: ``player_0`` ..., ``winners``, ``moves``
and the shape columns). Pure functions of the rows, so a small case can be counted by hand.

* :func:`fairness` — win rate by seat (a seat wins when it is among the winners: a shared win counts for each
  sharer, and ``ties`` counts those), with its Wilson interval; one-player games: the score's distribution.
* :func:`luck` — how often the stronger bot beats the weaker (seats alternating), the edge (its wins' share minus
  its losses' share, Newcombe's interval), one-player games the mean score difference on the same seeds (a normal
  interval of the paired differences), and the skill share of the score variance (:func:`~.stats.skill_share`,
  a percentile bootstrap interval over games).
* :func:`options` — for each option value, the change against the default in seat 1's win rate (Newcombe), in the
  mean moves a game and in the mean score a seat (normal intervals, Welch's standard error).
* :func:`shape` — moves, decisions, choices per decision, chance events and outcomes per chance event a game: the
  mean, a normal 95% interval of the mean, the least and the most.

Example:
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"game": ["g"] * 4, "bots": ["greedy"] * 4, "seed": range(4), "moves": [10, 12, 10, 8],
    ...                      "player_0": [3.0, 1.0, 2.0, 2.0], "player_1": [1.0, 2.0, 2.0, 0.0],
    ...                      "winners": [(0,), (1,), (0, 1), (0,)]})
    >>> fairness(rows, {"g": "players=2"})[["seat", "wins", "ties", "games"]].values.tolist()
    [[1, 3, 1, 4], [2, 2, 1, 4]]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from .stats import newcombe, skill_share, wilson

__all__ = ["BOOTSTRAP", "SHAPE_MEASURES", "fairness", "luck", "options", "shape"]

BOOTSTRAP = 200
"""Resamples of the skill share's bootstrap interval (seeded: the same rows give the same interval)."""
SHAPE_MEASURES = ("moves", "decisions", "choices_per_decision", "chance_events", "outcomes_per_chance_event")
_Z = NormalDist().inv_cdf(0.975)


def _players(rows: pd.DataFrame) -> list[str]:
    return [c for c in rows.columns if c.startswith("player_") and rows[c].notna().all()]


def _mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: a normal 95% interval of the mean (``nan`` bounds below two values)."""
    data = np.asarray(values, dtype=float)
    mean = float(data.mean()) if len(data) else math.nan
    if len(data) < 2:
        return mean, math.nan, math.nan
    half = _Z * float(data.std(ddof=1)) / math.sqrt(len(data))
    return mean, mean - half, mean + half


def _difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """``(mean(a) - mean(b), low, high)``: a normal 95% interval with Welch's standard error."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) < 2 or len(y) < 2:
        return float(x.mean() - y.mean()) if len(x) and len(y) else math.nan, math.nan, math.nan
    d = float(x.mean() - y.mean())
    half = _Z * math.sqrt(float(x.var(ddof=1)) / len(x) + float(y.var(ddof=1)) / len(y))
    return d, d - half, d + half


def fairness(rows: pd.DataFrame, labels: Mapping[str, str]) -> pd.DataFrame:
    """Win rate by seat for each game label of ``labels`` (label → variant text), or the score distribution."""
    out: list[dict[str, Any]] = []
    for label, variant in labels.items():
        games = rows[rows["game"] == label]
        players = _players(games)
        n = len(games)
        if len(players) == 1:
            scores = games[players[0]].astype(float)
            mean, low, high = _mean_interval(scores.tolist())
            out.append({"variant": variant, "seat": 1, "games": n, "mean_score": mean, "low": low, "high": high,
                        "sd": float(scores.std(ddof=1)) if n > 1 else math.nan,
                        "min": float(scores.min()) if n else math.nan, "median": float(scores.median()) if n else math.nan,
                        "max": float(scores.max()) if n else math.nan})
            continue
        for seat in range(len(players)):
            wins = int(sum(seat in w for w in games["winners"]))
            ties = int(sum(seat in w and len(w) > 1 for w in games["winners"]))
            low, high = wilson(wins, n)
            out.append({"variant": variant, "seat": seat + 1, "games": n, "wins": wins, "ties": ties,
                        "win_rate": wins / n if n else math.nan, "low": low, "high": high})
    return pd.DataFrame(out)


def _score_differences(rows: pd.DataFrame, strong: str, weak: str) -> np.ndarray:
    """One player: ``strong``'s score less ``weak``'s on each seed both played."""
    a = rows[rows["bots"] == strong].set_index("seed")["player_0"]
    b = rows[rows["bots"] == weak].set_index("seed")["player_0"]
    both = a.index.intersection(b.index)
    return (a.loc[both] - b.loc[both]).to_numpy(dtype=float)


def _pair_outcomes(rows: pd.DataFrame, strong: str, weak: str, solo: bool) -> tuple[int, int, int]:
    """``(wins, losses, ties)`` of ``strong`` against ``weak``: seats alternating (lineups "A v B" and "B v A"), or,
    one player, the same seed's scores compared."""
    if solo:
        diff = _score_differences(rows, strong, weak)
        return int((diff > 0).sum()), int((diff < 0).sum()), int((diff == 0).sum())
    wins = losses = ties = 0
    for lineup, seat in ((f"{strong} v {weak}", 0), (f"{weak} v {strong}", 1)):
        for winners in rows.loc[rows["bots"] == lineup, "winners"]:
            if seat in winners and len(winners) == 1:
                wins += 1
            elif seat in winners:
                ties += 1
            else:
                losses += 1
    return wins, losses, ties


def _seat_bots(rows: pd.DataFrame, solo: bool) -> tuple[list[float], list[str], list[int]]:
    """Every seat's score with the bot that played it and the game it came from."""
    scores: list[float] = []
    bots: list[str] = []
    games: list[int] = []
    players = _players(rows)
    for index, (lineup, row) in enumerate(zip(rows["bots"], rows[players].itertuples(index=False))):
        names = [lineup] if solo else lineup.split(" v ")
        for seat, score in enumerate(row):
            scores.append(float(score))
            bots.append(names[seat % len(names)])
            games.append(index)
    return scores, bots, games


def luck(rows: pd.DataFrame, order: Sequence[str], solo: bool) -> pd.DataFrame:
    """Each stronger bot against the next weaker (``order`` weakest first), and the skill share of the scores."""
    out: list[dict[str, Any]] = []
    for weak, strong in zip(order, order[1:]):
        wins, losses, ties = _pair_outcomes(rows, strong, weak, solo)
        n = wins + losses + ties
        low, high = wilson(wins, n)
        out.append({"measure": "win rate", "bots": f"{strong} v {weak}", "games": n, "wins": wins, "losses": losses,
                    "ties": ties, "value": wins / n if n else math.nan, "low": low, "high": high})
        if n:
            low, high = newcombe(wins, n, losses, n)
            out.append({"measure": "edge", "bots": f"{strong} v {weak}", "games": n, "wins": wins, "losses": losses,
                        "ties": ties, "value": (wins - losses) / n, "low": low, "high": high})
        if n and solo:
            mean, low, high = _mean_interval(_score_differences(rows, strong, weak).tolist())
            out.append({"measure": "score difference", "bots": f"{strong} v {weak}", "games": n, "wins": wins,
                        "losses": losses, "ties": ties, "value": mean, "low": low, "high": high})
    scores, bots, games = _seat_bots(rows, solo)
    if len(set(bots)) > 1:
        share = skill_share(scores, bots)
        low, high = _bootstrap_share(np.asarray(scores), np.asarray(bots), np.asarray(games))
        out.append({"measure": "skill share", "bots": ", ".join(order), "games": len(set(games)), "value": share,
                    "low": low, "high": high})
    return pd.DataFrame(out)


def _bootstrap_share(scores: np.ndarray, bots: np.ndarray, games: np.ndarray) -> tuple[float, float]:
    """A 95% percentile interval of the skill share, resampling whole games (seeded)."""
    rng = np.random.default_rng(0)
    ids = np.unique(games)
    where = {g: np.flatnonzero(games == g) for g in ids}
    shares = []
    for _ in range(BOOTSTRAP):
        picked = np.concatenate([where[g] for g in rng.choice(ids, size=len(ids))])
        if len(set(bots[picked].tolist())) > 1:
            shares.append(skill_share(scores[picked].tolist(), bots[picked].tolist()))
    if not shares:
        return math.nan, math.nan
    return float(np.quantile(shares, 0.025)), float(np.quantile(shares, 0.975))


def _seat_scores(games: pd.DataFrame) -> list[float]:
    return [float(v) for c in _players(games) for v in games[c]]


def options(rows: pd.DataFrame, base: str, settings: Mapping[str, tuple[str, Any]]) -> pd.DataFrame:
    """Each option setting (label → (option, value)) against the default game ``base``."""
    ref = rows[rows["game"] == base]
    ref_wins = int(sum(0 in w for w in ref["winners"]))
    multi = len(_players(ref)) > 1
    out: list[dict[str, Any]] = []
    for label, (option, value) in settings.items():
        games = rows[rows["game"] == label]
        n = len(games)
        row: dict[str, Any] = {"option": option, "value": value, "games": n}
        if multi and n and len(ref):
            wins = int(sum(0 in w for w in games["winners"]))
            low, high = newcombe(wins, n, ref_wins, len(ref))
            row.update({"seat1_win_rate": wins / n, "seat1_change": wins / n - ref_wins / len(ref),
                        "seat1_low": low, "seat1_high": high})
        d, low, high = _difference(games["moves"].tolist(), ref["moves"].tolist())
        row.update({"moves": float(games["moves"].mean()) if n else math.nan, "moves_change": d, "moves_low": low,
                    "moves_high": high})
        d, low, high = _difference(_seat_scores(games), _seat_scores(ref))
        row.update({"score": float(np.mean(_seat_scores(games))) if n else math.nan, "score_change": d,
                    "score_low": low, "score_high": high})
        out.append(row)
    return pd.DataFrame(out)


def shape(rows: pd.DataFrame, labels: Mapping[str, str]) -> pd.DataFrame:
    """The shape measures of each game label (label → variant text)."""
    out: list[dict[str, Any]] = []
    for label, variant in labels.items():
        games = rows[rows["game"] == label]
        for measure in SHAPE_MEASURES:
            if measure not in games.columns:
                continue
            values = games[measure].astype(float).tolist()
            mean, low, high = _mean_interval(values)
            out.append({"variant": variant, "measure": measure, "games": len(values), "mean": mean, "low": low,
                        "high": high, "min": min(values, default=math.nan), "max": max(values, default=math.nan)})
    return pd.DataFrame(out)
