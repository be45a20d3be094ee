"""Saved games from every rules version: the game a save was played under, and the save replayed.

Every game package has these two, with the same signatures: :func:`saved_game` and
:func:`load_walkthrough`. A Dairyman save whose options lack ``flip_after_order`` was made
before that option existed (ordering ended the turn); it replays under that behaviour
(``docs/rules/dairyman.md``, "Saved games").

Example:
    >>> old = '{"format": "coffeegames-walkthrough/1", "game": "dairyman", "options": {"players": 2}, "seed": 1, "moves": []}'
    >>> game, walk = load_walkthrough(old)
    >>> game.rules.flip_after_order, len(walk.moves)
    (False, 0)
"""

from __future__ import annotations

from typing import Any

from ..engine import Walkthrough
from ..engine.saved import load_walkthrough as load_saved_walkthrough
from .state import Game

__all__ = ["load_walkthrough", "saved_game"]


def saved_game(save: Any) -> Game:
    """The :class:`Game` a saved walkthrough was played under, from its JSON text or its ``options`` dict."""
    return Game.from_saved(save)


def load_walkthrough(text: str, seeded_start: bool = False) -> tuple[Game, Walkthrough]:
    """``(game, walkthrough)``: a saved walkthrough replayed under the game it was played under (:func:`saved_game`).

    ``seeded_start``: whether its first state was ``game.new_initial_state(seed=seed)`` rather than the
    unseeded ``new_initial_state()`` the views start from.
    """
    return load_saved_walkthrough(text, saved_game, seeded_start)
