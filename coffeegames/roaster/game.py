"""A Coffee Roaster :class:`Game`: its options (the coffee card, the side), the position after setup, and its saved
states.

The positions and their transitions are in :mod:`.state`; the rules in ``docs/rules/roaster.md``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from ..engine.saved import GameBase
from ..validate import check_seed
from .actions import ACTION_KINDS
from .rules import EASY_FLAVOURS, Rules
from .state import State
from .tokens import mremove, msort

__all__ = ["Game"]


class Game(GameBase):
    """Coffee Roaster, solo, on one coffee card; ``options`` are :class:`~.rules.Rules` fields.

    >>> game = Game(card="Kenya AA", side="easy")
    >>> s = game.new_initial_state(seed=1)
    >>> s.phase, s.reserve, s.space, game.options
    ('draw', ('body', 'acidity'), 4, {'card': 'Kenya AA', 'side': 'easy', 'rules_version': 2})

    ``options`` (saved with a walkthrough) always name ``rules_version`` from version 2 on; games saved before it
    existed name none and are version 1, so ``Game(..., rules_version=1)`` leaves it out to load them
    (:meth:`from_saved`, :meth:`load_walkthrough`).
    """

    name = "roaster"
    action_kinds = ACTION_KINDS
    state_class = State
    rules_class = Rules

    def __init__(self, card: Any = "Mexico Altura Oaxaca", side: str = "full", **options: Any) -> None:
        self._made({"card": card, "side": side, **options}, {"side": side, **options})
        self.options = {"card": self.rules.card.name, **self.options}  # the card by its name, first

    def new_initial_state(self, seed: int | None = None) -> State:
        """The game after setup: chance shuffling the cup effects onto the squares (with ``seed``, already shuffled)."""
        if check_seed(seed) is None:
            return self._setup
        return self._setup.apply(self._setup.sample_chance(np.random.default_rng(seed)))

    @cached_property
    def _setup(self) -> State:
        """The state before the shuffle, made once (a state is a value: every game starts from the same one)."""
        rules = self.rules
        bag = rules.card.bag
        reserve: tuple[str, ...] = ()
        if rules.side == "easy":  # one of each flavour from the card's tokens (those the card has: Ruling)
            reserve = msort(f for f in EASY_FLAVOURS if f in bag)
            bag = mremove(bag, reserve)
        return State(rules=rules, space=rules.start_space, bag=bag, reserve=reserve, smoke=rules.thermometer.smoke)


