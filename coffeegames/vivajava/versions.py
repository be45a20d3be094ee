"""Saved games across rules versions: the :class:`~.state.Game` a saved walkthrough was played under.

The option ``rules_version`` (:mod:`.rules`) names the reading of the rules that the
defaults of ``activations_at_2x``, ``solo_first`` and ``corp_keeps_decaf`` follow: 2 (now)
or 1 (the library before its rules were re-read: an immediate ability applied twice at 2X,
you always started a solo game, and a corporation gave its Decaf up before rolling).
``Game.options``, which a saved walkthrough records, holds ``rules_version`` from version 2
on, so a save made before it existed has options without it, and it was played under
version 1. :func:`saved_game` reads a saved walkthrough's options and returns the game to
replay it under; :func:`load_walkthrough` also replays it. Loading an old save with
``Game()`` itself is refused by :meth:`~coffeegames.engine.Walkthrough.from_json` (its
options differ: they lack ``rules_version``). A saved *state* (``State.to_json``) records no
options: load it with the game it was played under (``Game(rules_version=1, ...)`` for one
saved before version 2).

Example:
    >>> import json
    >>> old = json.dumps({"format": "coffeegames-walkthrough/1", "game": "vivajava", "options": {"players": 2}, "seed": 0, "moves": []})
    >>> game = saved_game(old)
    >>> game.rules.rules_version, game.rules.activations_at_2x, game.options
    (1, 2, {'players': 2})
    >>> saved_game(old.replace('"players": 2', '"players": 2, "rules_version": 2')).rules.activations_at_2x
    1
"""

from __future__ import annotations

from ..engine import Walkthrough
from ..engine.saved import game_from_options
from ..engine.saved import load_walkthrough as load_saved_walkthrough
from ..validate import Checker, read_json
from .state import Game

__all__ = ["load_walkthrough", "saved_game"]

_SAVED = Checker("saved game")


def saved_game(text: str) -> Game:
    """The :class:`Game` a walkthrough saved by ``Walkthrough.to_json(game)`` was played under (its saved options).

    A save whose options lack ``rules_version`` was made before the option existed: it is
    version 1, and the game returned has exactly its options (so ``Walkthrough.from_json``
    accepts it). Raises :class:`~coffeegames.errors.BadData` saying why when the save names
    another game, records no options, or has options no version of the rules accepts
    (``token_at_2x`` other than 1: later versions always give one token at each mark).
    """
    data = read_json(text, "saved game")
    _SAVED.need(isinstance(data, dict), "(top level)", "must be a JSON object saved by Walkthrough.to_json", data)
    _SAVED.need(data.get("game") in (None, Game.name), "game", f"this file is for another game, not {Game.name!r}", data.get("game"))
    options = data.get("options")
    _SAVED.need(isinstance(options, dict), "options",
                "records no game options (saved without the game): load it with Walkthrough.from_json and the Game it was played under",
                options)
    saved_options, options = dict(options), dict(options)
    if "rules_version" not in options:  # saved before rules_version existed: version 1
        legacy = options.pop("token_at_2x", 1)
        _SAVED.need(legacy == 1, "options.token_at_2x",
                    "saved under rules version 1 with a token count at 2X other than 1, which no version offers now "
                    "(the rules give one token at each mark): this save cannot be replayed", legacy)
        options["rules_version"] = 1
    game = game_from_options(Game, options)
    game.options = saved_options  # exactly as saved (an old token_at_2x=1 too), so the save loads and re-saves the same
    return game


def load_walkthrough(text: str, seeded_start: bool = False) -> tuple[Game, Walkthrough]:
    """``(game, walkthrough)``: a saved walkthrough replayed under the game it was played under (:func:`saved_game`).

    ``seeded_start``: whether its first state was ``game.new_initial_state(seed=seed)`` (as the
    test suite makes them) rather than ``new_initial_state()`` (the widgets' walkthroughs).
    """
    return load_saved_walkthrough(text, saved_game, seeded_start)
