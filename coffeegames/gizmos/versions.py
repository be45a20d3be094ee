"""Saved Gizmos games across rules versions: the game a saved walkthrough was played under, and the save replayed.

Both are written once for every game, in :class:`coffeegames.engine.saved.GameBase`; these are
their bindings to this game's :class:`~.state.Game`. Gizmos has two rules versions (2: converters once a turn; 1: once a Build); a save naming none is version 1.

Example:
    >>> from coffeegames.engine import Walkthrough
    >>> game = Game(players=2)
    >>> w = Walkthrough(game.new_initial_state(), seed=1)
    >>> _ = w.step().step()
    >>> again, loaded = load_walkthrough(w.to_json(game))
    >>> loaded.state == w.state, again.options == game.options
    (True, True)
"""

from __future__ import annotations

from .state import Game

__all__ = ["load_walkthrough", "saved_game"]

saved_game = Game.from_saved
"""``saved_game(save, **data)``: the :class:`~.state.Game` a walkthrough saved by ``Walkthrough.to_json(game)`` was
played under, from its JSON text or its ``options`` dict (:meth:`~coffeegames.engine.saved.GameBase.from_saved`)."""
load_walkthrough = Game.load_walkthrough
"""``load_walkthrough(text, seeded_start=False, **data)``: ``(game, walkthrough)``, a saved walkthrough replayed under
the game it was played under (:meth:`~coffeegames.engine.saved.GameBase.load_walkthrough`)."""
