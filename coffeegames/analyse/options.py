"""Which options an analysis sweeps, over which values, and the variants and payoffs it plays.

Every named option of a game's ``Rules`` is swept except those that are not a rule of play: the player count and
the variant (the fairness question's rows), ``payoff`` (what ``returns()`` reports), ``rules_version`` (a bundle
of the other options' defaults), the data files (``tiles``, ``data``, ``cards``, ``board``, ``orders``,
``upgrades``), Coffee Roaster's coffee ``card``, and options holding tuples (``backorder_supply``, ``display``,
``tiebreak``). The values (``docs/analyse.md`` states the same):

* an option of True/False: the other value;
* an option with named choices: each choice other than the default (:data:`CHOICES`);
* a whole-number option: its default minus one and plus one, each kept only if the game accepts it;
* ``None`` for "no limit" (``bean_supply``, ``rush_per_turn``): the default's neighbours as above, or 81
  tokens for Coffee Roaster's bean supply (the component list's count).

Example:
    >>> option_grid("gizmos")["converters_per"]
    ['build']
    >>> option_grid("rush")["rush_per_turn"]
    [1, 3, None]
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..errors import BadArgument, BadType, CoffeeGamesError
from ..games import games as registry
from ..validate import Checker

__all__ = ["CHOICES", "SCORE_PAYOFF", "NOT_SWEPT", "game_label", "option_grid", "parse_label", "variants"]

NOT_SWEPT = frozenset({"players", "solo", "side", "meter", "payoff", "rules_version", "tiles", "data", "cards", "board",
                       "orders", "upgrades", "card", "backorder_supply", "display", "tiebreak", "tile_count"})
"""Options never swept (see the module's text)."""

CHOICES: dict[str, tuple[Any, ...]] = {
    "both_blends": ("return_rainbow", "no_featured"), "solo_first": ("random", "you"),
    "omniblend_rerolls": ("seed", "stop_at_blend", "always"), "sacchar_rainbow": ("success", "block"),
    "skill_groups": ("largest", "each"), "converters_per": ("build", "turn"), "completion": ("choice", "forced"),
}
"""The named choices of each option that has them (the games' own checks list the same)."""

NONE_GRID = {"bean_supply": (81,), "rush_per_turn": (1, 3, None)}
"""The values swept for the options whose value may be ``None`` (no limit)."""

SCORE_PAYOFF = {"vivajava": {"payoff": "pp"}, "gizmos": {"payoff": "points"}, "dairyman": {"payoff": "score"}}
"""The options that make ``returns()`` every player's score (Coffee Rush and Coffee Roaster always return scores)."""


def _game(name: Any) -> str:
    return Checker("", BadArgument).one_of(name, "name", list(registry()))


def variants(name: str) -> list[dict[str, Any]]:
    """The variants of game ``name`` the registry plays (each a dict of ``Game`` options)."""
    return [dict(v) for v in registry()[_game(name)].variants]


def option_grid(name: str, base: dict[str, Any] | None = None) -> dict[str, list[Any]]:
    """Each swept option of game ``name`` → the values swept besides its default (see the module's text), checked
    against ``Game(**base, option=value)``; an option with no value the game accepts is left out."""
    info = registry()[_game(name)]
    if base is not None and not isinstance(base, dict):
        raise BadType("base", "must be a dict of the game's options (a variant: {'players': 2})", base)
    base = dict(base or {})
    try:
        rules = info.game(**base).rules
    except TypeError:
        raise BadArgument("base", "must be options of the game (a variant: {'players': 2})", base) from None
    grid: dict[str, list[Any]] = {}
    for field in dataclasses.fields(rules):
        if field.name in NOT_SWEPT or field.metadata.get("kind") == "Fact" or field.name in base:
            continue
        default = getattr(rules, field.name)
        if field.name in CHOICES:
            values: list[Any] = [c for c in CHOICES[field.name] if c != default]
        elif field.name in NONE_GRID:
            values = [v for v in NONE_GRID[field.name] if v != default]
        elif isinstance(default, bool):
            values = [not default]
        elif isinstance(default, int):
            values = [default - 1, default + 1]
        else:
            continue
        accepted = []
        for value in values:
            try:
                info.game(**base, **{field.name: value})
            except CoffeeGamesError:
                continue
            accepted.append(value)
        if accepted:
            grid[field.name] = accepted
    return grid


def game_label(name: str, options: dict[str, Any]) -> str:
    """The label of a game in a sweep's rows: its name, then its options as JSON (``parse_label`` reads it back).

    >>> game_label("gizmos", {"players": 2})
    'gizmos {"players": 2}'
    """
    return f"{name} {json.dumps(options)}"


def parse_label(label: str) -> tuple[str, dict[str, Any]]:
    """``(name, options)`` of a label :func:`game_label` made; else :class:`~coffeegames.errors.BadArgument`."""
    name, _, text = str(label).partition(" ")
    try:
        options = json.loads(text)
    except ValueError:
        options = None
    if name not in registry() or not isinstance(options, dict):
        raise BadArgument("label", "must be a game's name and its options as JSON (a row of coffeegames.analyse)", label)
    return name, options
