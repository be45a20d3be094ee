"""Saved games from every rules version: the game a save was played under, and the save replayed.

Every game package has these two, bound to its ``Game`` (written once, in
:class:`coffeegames.engine.saved.GameBase`): :func:`saved_game` and :func:`load_walkthrough`.
A Dairyman save whose options name no ``rules_version`` is version 1, made before
``flip_after_order`` existed (ordering ended the turn); it replays under that behaviour
(``docs/rules/dairyman.md``, "Saved games").

Example:
    >>> old = '{"format": "coffeegames-walkthrough/1", "game": "dairyman", "options": {"players": 2}, "seed": 1, "moves": []}'
    >>> game, walk = load_walkthrough(old)
    >>> game.rules.flip_after_order, len(walk.moves)
    (False, 0)
"""

from __future__ import annotations

from .game import Game

__all__ = ["load_walkthrough", "saved_game"]

saved_game = Game.from_saved
"""``saved_game(save, **data)``: the :class:`Game` a saved walkthrough was played under, from its JSON text or its
``options`` dict (:meth:`~coffeegames.engine.saved.GameBase.from_saved`)."""
load_walkthrough = Game.load_walkthrough
"""``load_walkthrough(text, seeded_start=False, **data)``: ``(game, walkthrough)``, the save replayed under the game
it was played under (:meth:`~coffeegames.engine.saved.GameBase.load_walkthrough`)."""
