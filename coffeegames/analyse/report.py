"""``analyse(name, seeds=...)``: a :class:`Report` answering fairness, luck, options and shape for one game.

A report plays its games when a question first needs them (``table`` or ``figure``), through
:func:`coffeegames.engine.sweep` with ``shape=True``, and keeps every row: a game played for one question is not
played again for another. What each question plays (``docs/analyse.md``):

* **fairness** and **shape**: every variant (``players``) with the fairness bot in every seat, the game's own payoff
  (its tie-breaks decide the winner). The fairness bot is ``greedy`` when it is among ``bots``, else the first.
* **luck**: the two-player game (Coffee Roaster: its first variant) with the score payoff; each bot against the next
  stronger one, seats alternating (lineup ``"strong v greedy"`` puts ``strong`` in seat 1), every seed each way.
  One-player games play each bot on every seed and compare scores seed by seed.
* **options**: the first variant with the score payoff and the fairness bot, the default game and every value of
  the option grid (:func:`~.options.option_grid`, or ``options=``), every seed each.

``save="games.jsonl"`` writes every row to that file (the format of ``sweep(..., save=...)``: a format line, then a
game a line); an analysis run again with the same file plays only the games not yet in it, and :func:`load` reads it
back as a report.

Example:
    >>> report = analyse("roaster", seeds=2, bots=["greedy"], options={}, players=None, progress=False)
    >>> report.table("shape")["measure"].tolist()[:2]
    ['moves', 'decisions']
"""

from __future__ import annotations

import json
import os
import tempfile
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..engine.sweep import SWEEP_FORMAT, _saved_rows, _seeds, sweep
from ..errors import BadArgument, BadData, BadType, CoffeeGamesError, TooBig
from ..games import games as registry
from ..validate import Checker, check_flag, check_path
from . import questions
from .bots import BOT_NAMES, Bot
from .options import SCORE_PAYOFF, game_label, option_grid, parse_label, variants

__all__ = ["MAX_SEEDS", "QUESTIONS", "Report", "analyse", "load"]

QUESTIONS = ("fairness", "luck", "options", "shape")
"""The questions a report answers, in the order ``table()`` lists them."""
MAX_SEEDS = 1_000_000
"""The most seeds an analysis plays (each question plays every seed at least once)."""
VARIANT_KEYS = frozenset({"players", "solo", "side"})
"""The options that make a registry variant (the fairness question's rows)."""
MAX_MOVES = 100_000
"""A game of an analysis longer than this stops its sweep: an option setting's sweep is then noted as not ending."""

Task = tuple[str, str, int]


class _Lineup:
    """A two-seat bot maker: seat 1's and seat 2's makers (picklable when they are)."""

    def __init__(self, first: Any, second: Any) -> None:
        self.first, self.second = first, second

    def __call__(self, rng: Any) -> list[Any]:
        return [self.first(rng), self.second(rng)]


class Report:
    """The analysis of game ``name`` over ``seeds`` (a count or the seeds); the arguments are :func:`analyse`'s."""

    def __init__(self, name: str, *, seeds: int | Iterable[int], bots: Sequence[str] | Mapping[str, Any] | None = None,
                 options: Mapping[str, Sequence[Any]] | None = None, players: int | Sequence[int] | None = None,
                 jobs: int | None = None, client: Any = None, progress: bool = True, save: str | Path | None = None) -> None:
        check = Checker("", BadArgument)
        self.name: str = check.one_of(name, "name", list(registry()))
        self.info = registry()[self.name]
        if isinstance(seeds, int) and not isinstance(seeds, bool) and seeds > MAX_SEEDS:
            raise TooBig("seeds", f"must be at most {MAX_SEEDS:,} games", seeds)
        if isinstance(seeds, str | bytes) or not isinstance(seeds, int | Iterable):
            raise BadType("seeds", "must be a count or a list of whole numbers", seeds)
        self.seeds: list[int] = _seeds(seeds if isinstance(seeds, int) else list(seeds)[: MAX_SEEDS + 1])
        if len(self.seeds) > MAX_SEEDS:
            raise TooBig("seeds", f"must be at most {MAX_SEEDS:,} games", len(self.seeds))
        self.bots = _bots(self.name, bots)
        self.fair_bot = "greedy" if "greedy" in self.bots else next(iter(self.bots))
        self.variants = _variants(self.name, players)
        self.options = _options(self.name, self.variants[0], options)
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs == 0 or jobs < -1):
            raise BadArgument("jobs", "must be None or 1 (this process), 2 or more, or -1 (every core)", jobs)
        self.jobs = jobs or 1
        if client is not None and self.jobs != 1:
            raise BadArgument("jobs", "give jobs (joblib) or client (Dask), not both", jobs)
        if client is not None and not isinstance(client, str) and type(client).__name__ != "Client":
            raise BadType("client", "must be a distributed.Client or a scheduler address such as 'tcp://10.0.0.5:8786'", client)
        self.client = client
        self.progress = check_flag(progress, "progress")
        self.path = None if save is None else _jsonl(save, "save")
        self.rows: dict[Task, dict[str, Any]] = {}
        self.unfinished: dict[str, str] = {}
        """Game labels whose sweep stopped on a game that did not end (an option value that loops the bots)."""
        if self.path is not None:
            self._read(self.path)

    def __repr__(self) -> str:
        return f"Report({self.name!r}, seeds={len(self.seeds)}, bots={list(self.bots)}, games played={len(self.rows)})"

    # -- what each question plays ---------------------------------------------------------------------------
    def _label(self, variant: Mapping[str, Any], scored: bool = False, **more: Any) -> str:
        return game_label(self.name, {**variant, **(SCORE_PAYOFF.get(self.name, {}) if scored else {}), **more})

    def _plan(self, question: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """The sweeps a question needs: ``(games, bots)`` pairs, label → options and label → bot maker."""
        fair = {self.fair_bot: self.bots[self.fair_bot]}
        if question in ("fairness", "shape"):
            return [({self._label(v): v for v in self.variants}, fair)]
        if question == "options":
            base = {**self.variants[0], **SCORE_PAYOFF.get(self.name, {})}
            plan = [({self._label(self.variants[0], True): base}, fair)]
            for option, values in self.options.items():  # one sweep a setting: one whose games never end is noted
                for value in values:
                    plan.append(({self._label(self.variants[0], True, **{option: value}): {**base, option: value}}, fair))
            return plan
        variant = self._luck_variant()
        games = {self._label(variant, True): {**variant, **SCORE_PAYOFF.get(self.name, {})}}
        if self.info.solo:
            return [(games, dict(self.bots))]
        names = list(self.bots)
        lineups: dict[str, Any] = {}
        for weak, strong in zip(names, names[1:]):
            lineups[f"{strong} v {weak}"] = _Lineup(self.bots[strong], self.bots[weak])
            lineups[f"{weak} v {strong}"] = _Lineup(self.bots[weak], self.bots[strong])
        return [(games, lineups)] if lineups else []

    def _luck_variant(self) -> dict[str, Any]:
        if self.info.solo:
            return self.variants[0]
        return next((v for v in self.variants if v.get("players") == 2), {"players": 2})

    # -- playing and keeping the rows -----------------------------------------------------------------------
    def _play(self, question: str) -> pd.DataFrame:
        """Every row the question needs, played now where missing."""
        wanted: list[Task] = []
        for games, bots in self._plan(question):
            tasks = [(g, b, s) for g in games for b in bots for s in self.seeds]
            wanted += tasks
            if any(t not in self.rows for t in tasks) and not set(games) & set(self.unfinished):
                try:
                    self._sweep(games, bots, tasks)
                except BadArgument as error:
                    if getattr(error, "where", None) != "max_steps" or question != "options":
                        raise
                    self.unfinished.update(dict.fromkeys(games, f"a game did not end within {MAX_MOVES:,} moves"))
        return _frame([self.rows[t] for t in wanted if t in self.rows])

    def _sweep(self, games: dict[str, dict[str, Any]], bots: dict[str, Any], tasks: list[Task]) -> None:
        made = {label: self.info.game(**options) for label, options in games.items()}
        with tempfile.TemporaryDirectory(prefix="coffeegames-analyse-") as folder:
            part = Path(folder) / "part.jsonl" if self.path is None else self.path.with_name(self.path.name + ".part")
            with open(part, "w", encoding="utf-8") as file:  # the rows already played: the sweep plays only the rest
                file.write(json.dumps({"format": SWEEP_FORMAT}) + "\n")
                for task in tasks:
                    if task in self.rows:
                        file.write(json.dumps({**self.rows[task], "winners": list(self.rows[task]["winners"])}) + "\n")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", category=FutureWarning)
                table = sweep(made, bots, self.seeds, jobs=self.jobs, client=self.client, progress=self.progress,
                              save=part, shape=True, max_steps=MAX_MOVES)
            for row in table.to_dict("records"):
                self.rows[(row["game"], row["bots"], int(row["seed"]))] = _clean(row)
            if self.path is not None:
                self.save(self.path)
            part.unlink()

    def _read(self, path: Path) -> None:
        for source in (path, path.with_name(path.name + ".part")):
            if not os.path.lexists(source):
                continue
            for task, row in _saved_rows(source, None).items():
                name, _ = parse_label(task[0]) if task[0].startswith(f"{self.name} ") else ("", {})
                if name != self.name:
                    raise BadData("game", f"must be a game of {self.name}: save each analysis to its own file", task[0],
                                  source=f"saved analysis {path.name[:100]}")
                self.rows[task] = row

    # -- the answers -----------------------------------------------------------------------------------------
    def table(self, question: str | None = None) -> pd.DataFrame:
        """The answer to ``question`` (one of :data:`QUESTIONS`) as a DataFrame; None: every question, one after
        another, with a ``question`` column first."""
        if question is None:
            parts = [self.table(q).assign(question=q) for q in QUESTIONS]
            frame = pd.concat([p for p in parts if not p.empty], ignore_index=True)
            return frame[["question", *(c for c in frame.columns if c != "question")]]
        question = Checker("", BadArgument).one_of(question, "question", list(QUESTIONS))
        rows = self._play(question)
        if question in ("fairness", "shape"):
            labels = {self._label(v): _variant_text(v) for v in self.variants}
            return getattr(questions, question)(rows, labels)
        if question == "luck":
            return questions.luck(rows, list(self.bots), self.info.solo)
        base = self._label(self.variants[0], True)
        settings = {self._label(self.variants[0], True, **{o: v}): (o, v) for o, vs in self.options.items() for v in vs}
        table = questions.options(rows, base, settings)
        if not table.empty:
            table["note"] = [self.unfinished.get(label, "") for label in settings]
        return table

    def figure(self, question: str) -> Any:
        """A plotly figure answering ``question``, every value with its 95% interval."""
        from .figures import figure

        question = Checker("", BadArgument).one_of(question, "question", list(QUESTIONS))
        return figure(self.table(question), question, self.info.title)

    def save(self, path: str | Path) -> Path:
        """Write every game played to ``path`` (a ``.jsonl`` file, the sweep's format); :func:`load` reads it."""
        path = _jsonl(path, "path")
        fresh = path.with_name(path.name + ".new")
        try:
            with open(fresh, "w", encoding="utf-8") as file:
                file.write(json.dumps({"format": SWEEP_FORMAT}) + "\n")
                for row in self.rows.values():
                    file.write(json.dumps({**row, "winners": list(row["winners"])}) + "\n")
            os.replace(fresh, path)
        except OSError as error:
            raise BadArgument("path", f"cannot be written ({error.strerror or error})", str(path)) from None
        return path


def analyse(name: str, *, seeds: int | Iterable[int], bots: Sequence[str] | Mapping[str, Any] | None = None,
            options: Mapping[str, Sequence[Any]] | None = None, players: int | Sequence[int] | None = None,
            jobs: int | None = None, client: Any = None, progress: bool = True, save: str | Path | None = None) -> Report:
    """The analysis of game ``name`` (a :class:`Report`: its games are played when a question needs them).

    ``seeds``: a count (``range(seeds)``) or the seeds, each question playing every seed; ``bots``: names of
    :data:`~.bots.BOT_NAMES` or a mapping label → bot maker, weakest first (default all three); ``options``: option
    → values to sweep (default :func:`~.options.option_grid`; ``{}`` none); ``players``: a player count or several
    (default every variant of the registry; not for one-player games); ``jobs`` (joblib) or ``client`` (Dask:
    a ``distributed.Client`` or a scheduler address); ``save``: a ``.jsonl`` file keeping every game (resumed).
    """
    return Report(name, seeds=seeds, bots=bots, options=options, players=players, jobs=jobs, client=client,
                  progress=progress, save=save)


def load(path: str | Path, *, progress: bool = False) -> Report:
    """The report saved in ``path`` (by ``Report.save`` or ``analyse(..., save=path)``), with the game, seeds, bots,
    variants and options its rows show; a question whose games are missing plays them (and saves them there)."""
    path = _jsonl(path, "path")
    rows = _saved_rows(path, None)
    if not rows:
        raise BadData("(rows)", "must hold at least one game: a file analyse(..., save=...) wrote", "",
                      source=f"saved analysis {path.name[:100]}")
    name = str(next(iter(rows))[0]).partition(" ")[0]
    seeds = sorted({s for _, _, s in rows})
    plain = [parse_label(g)[1] for g in dict.fromkeys(g for g, _, _ in rows) if g.startswith(f"{name} ")]
    found = [v for v in plain if set(v) <= VARIANT_KEYS]  # the fairness question's games (the game's own payoff)
    lineups = {b for _, b, _ in rows}
    order = [b for b in BOT_NAMES if any(b == part for lineup in lineups for part in lineup.split(" v "))]
    if not order or not all(part in BOT_NAMES for lineup in lineups for part in lineup.split(" v ")):
        raise BadData("bots", f"must be bots of {', '.join(BOT_NAMES)}: an analysis with bots of your own is read by "
                      "analyse(name, bots=..., save=path)", ", ".join(sorted(lineups))[:100], source=f"saved analysis {path.name[:100]}")
    report = Report(name, seeds=seeds, bots=order, options={}, progress=progress, save=path)
    report.variants = found or report.variants
    report.options = _saved_options(report, plain)
    return report


def _saved_options(report: Report, labels: list[dict[str, Any]]) -> dict[str, list[Any]]:
    base = {**report.variants[0], **SCORE_PAYOFF.get(report.name, {})}
    grid: dict[str, list[Any]] = {}
    for options in labels:
        extra = {k: v for k, v in options.items() if k not in base}
        if len(extra) == 1 and all(options.get(k) == v for k, v in base.items()):
            (option, value), = extra.items()
            grid.setdefault(option, []).append(value)
    return grid


def _jsonl(path: Any, where: str) -> Path:
    checked = check_path(path, where)
    if checked.suffix != ".jsonl":
        raise BadArgument(where, "must be a file ending in .jsonl (an analysis's games, a game a line)", str(path)[:100])
    return checked


def _bots(name: str, bots: Any) -> dict[str, Any]:
    if bots is None:
        bots = BOT_NAMES
    if isinstance(bots, Mapping):
        if not bots or not all(isinstance(k, str) and " v " not in k and callable(v) for k, v in bots.items()):
            raise BadType("bots", "must map labels (text without ' v ') to bot makers: functions from a NumPy generator to a policy", bots)
        return dict(bots)
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence) or not bots:
        raise BadType("bots", f"must be a list of bot names ({', '.join(BOT_NAMES)}), weakest first, or a dict of bot makers", bots)
    check = Checker("", BadArgument)
    names = [check.one_of(b, "bots", list(BOT_NAMES)) for b in bots]
    if len(set(names)) != len(names):
        raise BadArgument("bots", "must name each bot once", bots)
    return {b: Bot(name, b) for b in names}


def _variants(name: str, players: Any) -> list[dict[str, Any]]:
    if players is None:
        return variants(name)
    if registry()[name].solo:
        raise BadArgument("players", f"must be None: {registry()[name].title} is played alone (its variants are analysed)", players)
    counts = [players] if isinstance(players, int) and not isinstance(players, bool) else players
    if isinstance(counts, str | bytes) or not isinstance(counts, Sequence) or not counts:
        raise BadType("players", "must be a player count or a list of them", players)
    allowed = sorted({v["players"] for v in variants(name) if "players" in v})
    for count in counts:
        if isinstance(count, bool) or count not in allowed:
            raise BadArgument("players", f"must be player counts of {', '.join(map(str, allowed))}", players)
    return [{"players": c} for c in dict.fromkeys(counts)]


def _options(name: str, variant: dict[str, Any], options: Any) -> dict[str, list[Any]]:
    if options is None:
        return option_grid(name, variant)
    if not isinstance(options, Mapping):
        raise BadType("options", "must map option names to lists of values (or {} for none)", options)
    grid: dict[str, list[Any]] = {}
    for option, values in options.items():
        if isinstance(values, str | bytes) or not isinstance(values, Sequence):
            raise BadType("options", f"must map {str(option)[:40]!r} to a list of values", options)
        for value in values:
            try:
                json.dumps(value)
                registry()[name].game(**variant, **{str(option): value})
            except (TypeError, ValueError, CoffeeGamesError) as error:
                raise BadArgument("options", f"{str(option)[:40]}={str(value)[:40]} is not an option of this game: "
                                  f"{str(error)[:120]}") from None
        grid[str(option)] = list(values)
    return grid


def _variant_text(variant: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in variant.items()) or "default"


def _clean(row: Mapping[Any, Any]) -> dict[str, Any]:
    """A table row as saved JSON holds it (plain ints and floats, winners a tuple)."""
    out = {str(k): (v.item() if hasattr(v, "item") else v) for k, v in row.items() if not (isinstance(v, float) and v != v)}
    out["winners"] = tuple(int(w) for w in row["winners"])
    return out


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows)
    return frame if not frame.empty else pd.DataFrame(columns=["game", "bots", "seed", "moves", "winners"])
