"""A VivaJava: The Dice Game :class:`Game`: its options (2-4 players, or solo against a corporation), the position
after setup, and its saved states.

The positions and their transitions are in :mod:`.state`; the rules in ``docs/rules/vivajava.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.saved import GameBase
from ..validate import check_seed
from .actions import ACTION_KINDS, FIRST, SETUP
from .player import PlayerState
from .rules import Rules
from .state import State

__all__ = ["Game"]


class Game(GameBase):
    """VivaJava: The Dice Game for 2-4 players, or solo against a corporation; ``options`` are :class:`Rules` fields.

    ``options`` (saved with a walkthrough) records ``rules_version`` from version 2 on; a saved
    game whose options lack it was played under version 1 (:meth:`from_saved`).

    >>> game = Game(players=3)
    >>> game.rules.featured_pp, game.options
    (3, {'players': 3, 'rules_version': 3})
    >>> from coffeegames.vivajava.actions import FirstPlayer
    >>> solo = Game(solo="omniblend", meter="red")
    >>> s = solo.new_initial_state()
    >>> str(s.phase), s.chance_outcomes()
    ('first', [(FirstPlayer(player=0), Fraction(1, 2)), (FirstPlayer(player=1), Fraction(1, 2))])
    >>> s = s.apply(FirstPlayer(1))          # the corporation starts: you mark your setup RP first
    >>> str(s.phase), s.turn, s.meter_shows
    ('setup', 0, 3)
    """

    name = "vivajava"
    action_kinds = ACTION_KINDS
    state_class = State
    rules_class = Rules

    def __init__(self, players: int = 2, solo: str | None = None, meter: str = "yellow", **options: Any) -> None:
        self._made({"players": players, "solo": solo, "meter": meter, **options},
                   {"players": players, **({"solo": solo, "meter": meter} if solo else {}), **options})

    def new_initial_state(self, seed: int | None = None) -> State:
        """The game after setup: player 1 choosing their setup RP. Solo (option ``solo_first``): the draw of the
        first player, a chance node (1/2 each), or with ``solo_first="you"`` your first roll.

        With ``seed``, a chance node at the start is rolled from that seed.
        """
        rules = self.rules
        state = State(
            rules=rules,
            players=tuple(PlayerState() for _ in range(rules.players)),
            phase=SETUP,
            turn=1,
            setting_up=True,
            meter=rules.meter_start,
        )
        if rules.solo and rules.solo_first == "random":
            state = state._with(phase=FIRST, turn=0)
        elif rules.solo:
            state = state._with(setting_up=False).start_turn(0)
        if check_seed(seed) is not None and state.is_chance():
            state = state.apply(state.sample_chance(np.random.default_rng(seed)))
        return state
