"""Saved Coffee Rush games: ``saved_game(save, **data)``, the game a saved walkthrough was played under, and
``load_walkthrough(text, seeded_start=False, **data)``, the save replayed under it.

Bindings of :meth:`~coffeegames.engine.saved.GameBase.from_saved` and
:meth:`~coffeegames.engine.saved.GameBase.load_walkthrough` (written once for every game) to
:class:`~.state.Game`. Coffee Rush has two rules versions (:data:`~.rules.RULES_VERSIONS`): 2 makes completing an
order a choice, 1 completed every matching cup; a save naming none is version 1 (``tests/test_contract.py`` loads
saves of every variant at every version).
"""

from __future__ import annotations

from .state import Game

__all__ = ["load_walkthrough", "saved_game"]

saved_game = Game.from_saved
load_walkthrough = Game.load_walkthrough
