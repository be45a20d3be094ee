"""The bots an analysis measures with: ``random``, ``greedy`` and ``strong`` for every game, as sweep bot makers.

A bot maker (:data:`coffeegames.engine.sweep.BotMaker`) is called afresh for each game with that game's generator,
so a game's result depends on its seed alone. Every maker here is a small picklable object, so joblib and Dask
workers can run it.

* ``random`` — any legal action, uniformly (:func:`coffeegames.engine.random_policy`).
* ``greedy`` — the game's own ``greedy_policy``.
* ``strong`` — the bot meant to beat greedy: Gizmos' :class:`~coffeegames.gizmos.SearchBot` (greedy rollouts to
  the end of the game, 32 a main action, seeded from the game's generator), Coffee Rush's look-ahead (:data:`~coffeegames.rush.lookahead_policy`),
  VivaJava's :func:`~coffeegames.vivajava.strong_policy` (greedy that keeps the Rainbow, funds nothing and values
  flavour dice more), Coffee Roaster's :func:`~coffeegames.roaster.strong_policy` (the rule of thumb stops, the
  cup-test solver tests the cup), and for Dairyman the action its exact adviser ``advise`` ranks best. Whether each
  really is stronger is measured, not assumed: ``analyse(name, ...).table("luck")`` states its edge over greedy with
  an interval (README.md lists the measured edges).

No bot reads what its player could not see: the order of a shuffled deck or bag is hidden in the state the
policies are given only through the chance nodes they cannot see ahead of.

Example:
    >>> import numpy as np
    >>> from coffeegames.analyse.bots import bot_makers
    >>> makers = bot_makers("dairyman")
    >>> list(makers)
    ['random', 'greedy', 'strong']
    >>> callable(makers["greedy"](np.random.default_rng(0)))
    True
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import BadArgument
from ..games import game as registry_game, games as registry
from ..validate import Checker

__all__ = ["BOT_NAMES", "Bot", "bot_makers"]

BOT_NAMES = ("random", "greedy", "strong")
"""The bots every game has, weakest first (the order the luck question pairs them in)."""

SEARCH_PLAYOUTS = 32
"""Playouts a main action of Gizmos' strong bot (the benchmark's ``SearchBot(playouts=32)``, its default)."""


@dataclass(frozen=True)
class Bot:
    """The maker of one bot of one game (picklable): ``Bot("gizmos", "strong")(rng)`` is a policy.

    >>> Bot("roaster", "greedy")(np.random.default_rng(0)).__name__
    'greedy_policy'
    """

    game: str
    kind: str

    def __post_init__(self) -> None:
        check = Checker("", BadArgument)
        check.one_of(self.game, "game", list(registry()))
        check.one_of(self.kind, "kind", list(BOT_NAMES))

    def __call__(self, rng: np.random.Generator) -> Any:
        package = importlib.import_module(f"coffeegames.{self.game}")
        if self.kind == "random":
            from ..engine import random_policy

            return random_policy(rng)
        if self.kind == "greedy":
            return package.greedy_policy
        if self.game == "gizmos":
            return package.SearchBot(playouts=SEARCH_PLAYOUTS, seed=int(rng.integers(2**31)))
        if self.game == "rush":
            return package.lookahead_policy
        if self.game in ("vivajava", "roaster"):
            return package.strong_policy
        return _Advised(self.game)


@dataclass(frozen=True)
class _Advised:
    """The policy playing the action its game's adviser ranks best (the first row marked best)."""

    game: str

    def __call__(self, state: Any) -> Any:
        rows = importlib.import_module(f"coffeegames.{self.game}").advise(state)
        if not rows:
            return state.legal_actions()[0]
        return next((row.action for row in rows if row.best), rows[0].action)


def bot_makers(name: str) -> dict[str, Bot]:
    """The ``random``, ``greedy`` and ``strong`` bot makers of game ``name``, weakest first."""
    registry_game(name)
    return {kind: Bot(name, kind) for kind in BOT_NAMES}
