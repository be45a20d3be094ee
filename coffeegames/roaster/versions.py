"""Saved Coffee Roaster games across rules versions: the game a saved walkthrough was played under, and the save replayed.

Both are written once for every game, in :class:`coffeegames.engine.saved.GameBase`; these are
their bindings to this game's :class:`~.game.Game`. Coffee Roaster's version 2 (issue 12) places Sweetness on its cup space from the start of the cup test and
lets you choose the easy side's starting flavours; a save naming no ``rules_version`` is version 1 and
replays under those older rules. ``data``: ``cards`` / ``board`` if the save used your own files.

Example:
    >>> game_for_options({"card": "Kenya AA", "side": "easy"}).rules.rules_version
    1
    >>> game_for_options({"card": "Kenya AA", "side": "easy", "rules_version": 2}).options["rules_version"]
    2
"""

from __future__ import annotations

from .game import Game

__all__ = ["game_for_options", "load_walkthrough", "saved_game"]

game_for_options = Game.from_saved
"""``game_for_options(options, **data)``: the game a walkthrough saved with these ``options`` was played under (the
same as :func:`saved_game` given the options dict)."""
saved_game = Game.from_saved
"""``saved_game(save, **data)``: the :class:`~.game.Game` a walkthrough saved by ``Walkthrough.to_json(game)`` was
played under, from its JSON text or its ``options`` dict (:meth:`~coffeegames.engine.saved.GameBase.from_saved`)."""
load_walkthrough = Game.load_walkthrough
"""``load_walkthrough(text, seeded_start=False, **data)``: ``(game, walkthrough)``, a saved walkthrough replayed under
the game it was played under (:meth:`~coffeegames.engine.saved.GameBase.load_walkthrough`)."""
