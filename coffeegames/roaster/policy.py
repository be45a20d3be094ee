"""Simple Coffee Roaster bots: a random player and a greedy one (policies are ``policy(state) -> action``).

The greedy bot is a short list of rules of thumb, not a solver:

* **Roasting.** Save beans that this roast would burn (Preserve two of them, or Disperse
  one); clear out two or more bad tokens with *remove*; pay toward the wild flavour when
  it can; otherwise roast.
* **Stop** once the bag's average roast level per token, times the cup's spaces, reaches
  the card's optimum less one (the cup would be about right), or when forced. On the easy
  side it then puts every starting flavour still on the board into the bag.
* **Cup test.** A token goes on the tray while there is room if it would cost points (hard,
  burnt, smoke, defect) or push the cup's roast level past the optimum by more than one;
  otherwise into the cup. Choice and Exchange keep the tokens it values most; Exchange is
  used when the cup holds two tokens that cost points.

Example:
    >>> from coffeegames.engine import play
    >>> from coffeegames.roaster import Game
    >>> results = play(Game(card="Zambia Kasama AA"), greedy_policy, n_games=3, seed=0, progress=False)
    >>> len(results)
    3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..validate import check_instance
from ..engine import random_policy  # noqa: F401  (re-exported: the Coffee Roaster random bot)
from .actions import (
    Continue,
    Disperse,
    Exchange,
    NoExchange,
    PayWild,
    Phase,
    Preserve,
    RemoveBad,
    Roast,
    Stop,
    ToCup,
    ToTray,
)
from .data import CUP_SPACES
from .scoring import MINUS
from .state import State
from .tokens import BAD, EXTRA_BEAN, FLAVOURS, MOISTURE, SWEETNESS, WILD, roast, roast_level

Policy = Callable[[State], object]


def token_value(state: State, token: str) -> float:
    """What a token in the cup is worth to the greedy bot: minus points negative, beans by level, wanted flavours most."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    check_instance(token, str, "token", "a token name")
    if token in MINUS:
        return -float(MINUS[token])
    level = roast_level(token)
    if level is not None:
        return 0.5 + level / 4
    wanted = Counter(state.rules.card.flavours)
    have = Counter(state.cup)
    if token == WILD:
        return 3.0
    if token in FLAVOURS:
        return 3.0 if have[token] < wanted[token] else 1.5 if not any(have[f] for f in (*FLAVOURS, WILD, SWEETNESS)) else 0.2
    return 0.0


def cup_level(state: State) -> int:
    """The cup's total roast level so far (Extra Bean included when active)."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    return state.rules.score(state.cup_tokens()).roast_level


def expected_cup_level(state: State) -> float:
    """A rough forecast of the cup's roast level if we stop now: the bag's mean level per token times the cup's spaces."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    tokens = [t for t in state.bag + state.drawn if t != MOISTURE]
    if not tokens:
        return 0.0
    mean = sum(roast_level(t) or 0 for t in tokens) / len(tokens)
    extra = state.rules.board.extra_bean_level if EXTRA_BEAN in state.active else 0
    return mean * CUP_SPACES + extra


def _act(state: State, legal: list[Any]) -> object:
    """The greedy bot's roasting-round move (see the module notes)."""
    steps = state.rules.roast_steps(state.space)
    burning = {t for t in state.drawn if roast_level(t) is not None and roast(t, steps) == "burnt"}
    saves: list[Preserve | Disperse] = [a for a in legal if isinstance(a, Preserve) and burning & set(a.beans)]
    saves += [a for a in legal if isinstance(a, Disperse) and a.bean in burning]
    if saves:
        def saved(a: object) -> int:
            return len(burning & set(a.beans)) if isinstance(a, Preserve) else 1

        return max(saves, key=lambda a: (saved(a), a.flavour != WILD))
    if sum(t in BAD for t in state.drawn) >= 2:
        removes = [a for a in legal if isinstance(a, RemoveBad)]
        if removes:
            return min(removes, key=lambda a: a.paid.count(WILD))
    for action in legal:
        if isinstance(action, PayWild):
            return action
    return Roast()


def greedy_policy(state: State) -> object:
    """The greedy bot described in the module docstring."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    legal: list[Any] = state.legal_actions()
    phase = state.phase
    if phase == Phase.ACT:
        return _act(state, legal)
    if phase == Phase.DECIDE:
        return Stop() if expected_cup_level(state) >= state.rules.card.optimum - 1 else Continue()
    if phase == Phase.RESERVE:  # every starting flavour into the bag (listed first)
        return max(legal, key=lambda a: len(a.tokens))
    if phase == Phase.PLACE:
        token = state.hand[0]
        level = roast_level(token) or 0
        too_much = cup_level(state) + level > state.rules.card.optimum + 1
        return ToTray() if token_value(state, token) < 0 or (level and too_much) else ToCup()
    if phase == Phase.REMOVE_TWO:
        return min(legal, key=lambda a: sum(token_value(state, t) for t in a.tokens))
    if phase == Phase.CHOOSE:
        return max(legal, key=lambda a: token_value(state, a.token))
    if phase == Phase.EXCHANGE_KEEP:
        return max(legal, key=lambda a: sum(token_value(state, t) for t in a.tokens))
    if phase == Phase.EXCHANGE:
        worst = min((a for a in legal if isinstance(a, Exchange)), key=lambda a: sum(token_value(state, t) for t in a.returned),
                    default=None)
        if worst is not None and all(token_value(state, t) < 0 for t in worst.returned):
            return worst
        return NoExchange()
    return legal[0]


__all__ = ["cup_level", "expected_cup_level", "greedy_policy", "random_policy", "token_value"]
