"""A Coffee Roaster bot stronger than the greedy one: the rule of thumb to stop, the exact solver for the cup test.

:func:`strong_policy` plays

* **the stop-or-continue decision** by the plain rule :mod:`.rules_of_thumb` found best (``docs/rules_of_thumb.md``):
  stop once the forecast cup level (:func:`~.policy.expected_cup_level`) is at least the card's optimum less
  :data:`STOP_MARGIN`. The greedy bot's rule (less 1) roasts on too long; the solver's own choice there (Stop against
  :func:`~.round.one_more_round`, one round then stop: a lower bound of continuing) stops far too early;
* **the starting flavours and the cup test** by :func:`~.advice.advise`'s best choice: each valued by the cup-test
  solver (:func:`~.cup.stop_now`, exact within the advice's budget, else its seeded estimate);
* **the roasting rounds' effects** as the greedy bot does (the solver does not value effects).

It reads the bag only as the player knows it, a multiset of tokens (its order is a chance node still to come).

Example:
    >>> from coffeegames.engine import play_out
    >>> import numpy as np
    >>> from coffeegames.roaster import Game
    >>> final, log = play_out(Game(card="Zambia Kasama AA").new_initial_state(), strong_policy, np.random.default_rng(0))
    >>> final.is_terminal()
    True
"""

from __future__ import annotations

from ..validate import check_instance
from .actions import Continue, Phase
from .advice import CUP_PHASES, advise
from .policy import expected_cup_level, greedy_policy
from .rules_of_thumb import stop_rules
from .state import State

__all__ = ["STOP_MARGIN", "STOP_RULE", "strong_policy"]

STOP_MARGIN = 5
"""The forecast cup level's margin below the card's optimum at which :func:`strong_policy` stops roasting: the best rule
of :func:`~.rules_of_thumb.stop_rules` on Zambia Kasama AA (2.5% ± 1.0% below the hindsight bound on held-out games,
``docs/rules_of_thumb.md``); margins 4 to 7 played alike against greedy on the default card."""
STOP_RULE = f"stop once the forecast cup level is at least the optimum less {STOP_MARGIN}"
"""The name of that rule in :func:`~.rules_of_thumb.stop_rules`."""


def strong_policy(state: State) -> object:
    """The bot described in the module docstring: the rule of thumb stops, the cup-test solver tests the cup.

    >>> from coffeegames.roaster import Drawn, Game, Roast, Shuffled
    >>> s = Game(card="Mexico Altura Oaxaca").new_initial_state()
    >>> s = s.apply(Shuffled(("extra_bean", "sweetness", "choice", "exchange", "tray")))
    >>> s = s.apply(Drawn(("hard",) * 5 + ("moisture", "acidity", "acidity"))).apply(Roast())
    >>> strong_policy(s)
    Continue()
    """
    check_instance(state, State, "state", "a Coffee Roaster state")
    legal = state.legal_actions()
    if state.phase == Phase.DECIDE:
        if Continue() not in legal:
            return legal[0]
        rule = next(r for r in stop_rules() if r.name == STOP_RULE)
        choice = rule.decide((state.space, expected_cup_level(state) - state.rules.card.optimum))
        return Continue() if choice == "continue" else next(a for a in legal if not isinstance(a, Continue))
    if state.phase in CUP_PHASES:
        rows = advise(state)
        return next((row.action for row in rows if row.best), rows[0].action if rows else legal[0])
    return greedy_policy(state)
