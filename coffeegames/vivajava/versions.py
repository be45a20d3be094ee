"""Saved games across rules versions: the :class:`~.game.Game` a saved walkthrough was played under.

The option ``rules_version`` (:data:`.rules.RULES_VERSIONS`) names the reading of the rules
that the defaults of ``activations_at_2x``, ``solo_first``, ``corp_keeps_decaf`` and
``omniblend_rerolls`` follow: 3 (now: OmniBlend's re-rolls as the rules say), 2 (OmniBlend
stopped at the first blend a re-roll reached) or 1 (the library before its rules were re-read:
an immediate ability applied twice at 2X, you always started a solo game, and a corporation
gave its Decaf up before rolling). A save naming the old flag ``omniblend_stops`` plays
``omniblend_rerolls`` as it did (``true``: ``"stop_at_blend"``, ``false``: ``"always"``).
``Game.options``, which a saved walkthrough records, holds ``rules_version`` from version 2
on, so a save made before it existed has options without it, and it was played under
version 1. :func:`saved_game` reads a saved walkthrough's options and returns the game to
replay it under; :func:`load_walkthrough` also replays it (both written once for every game,
in :class:`coffeegames.engine.saved.GameBase`). Loading an old save with ``Game()`` itself is
refused by :meth:`~coffeegames.engine.Walkthrough.from_json` (its options differ: they lack
``rules_version``). A saved *state* (``State.to_json``) names its ``rules_version``: load it
with the game of that version (one saved before states recorded it loads under the game given).

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

from .game import Game

__all__ = ["load_walkthrough", "saved_game"]

saved_game = Game.from_saved
"""``saved_game(save, **data)``: the :class:`Game` a walkthrough saved by ``Walkthrough.to_json(game)`` was played
under, from its JSON text or its ``options`` dict (:meth:`~coffeegames.engine.saved.GameBase.from_saved`). An old
save may name ``token_at_2x`` only as 1 (later versions always give one token at each mark)."""
load_walkthrough = Game.load_walkthrough
"""``load_walkthrough(text, seeded_start=False, **data)``: ``(game, walkthrough)``, a saved walkthrough replayed under
the game it was played under (:meth:`~coffeegames.engine.saved.GameBase.load_walkthrough`)."""
