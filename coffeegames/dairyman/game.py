"""A Dairyman :class:`Game`: its options, the position before the opening deal, and its saved states.

The positions and their transitions are in :mod:`.state`; the rules in ``docs/rules/dairyman.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.saved import GameBase
from ..validate import check_seed
from .actions import ACTION_KINDS
from .players import PlayerState
from .rules import Rules
from .state import State

__all__ = ["Game"]


class Game(GameBase):
    """Dairyman for 2-4 players; ``options`` are :class:`~.rules.Rules` fields.

    ``options`` (what a saved walkthrough records) name ``rules_version`` from version 2 on
    (:data:`~.rules.RULES_VERSIONS`); a save naming none was made before ``flip_after_order``
    existed, when ordering ended the turn, and :meth:`from_saved` gives it back that game.

    >>> game = Game(players=3, ice_supply=10)
    >>> game.rules.backorder_tokens, game.options
    (4, {'players': 3, 'ice_supply': 10, 'rules_version': 2})
    >>> game
    Game(players=3, ice_supply=10)
    >>> old = Game.from_saved('{"game": "dairyman", "options": {"players": 2}}')
    >>> old, old.rules.flip_after_order, old.options
    (Game(players=2, rules_version=1), False, {'players': 2})
    """

    name = "dairyman"
    action_kinds = ACTION_KINDS
    state_class = State
    rules_class = Rules
    rules: Rules

    def __init__(self, players: int = 2, **options: Any) -> None:
        self._made({"players": players, **options})

    def new_initial_state(self, seed: int | None = None) -> State:
        """The game before the opening display is dealt (a chance node); with ``seed``, dealt from that seed."""
        rules = self.rules
        state = State(
            rules=rules,
            players=tuple(PlayerState() for _ in range(rules.players)),
            ice_supply=rules.ice_supply,
            backorder_supply=rules.backorder_tokens,
            deck=(rules.tile_codes,),
        )
        return state if check_seed(seed) is None else state.apply(state.sample_chance(np.random.default_rng(seed)))

    def state_from_json(self, saved: str) -> State:
        """Load a state saved by :meth:`State.to_json` under this game's rules (``BadData`` names a bad field)."""
        loaded: State = super().state_from_json(saved)
        return loaded
