"""Exact solvers and policies over the State contract.

* :class:`Expectimax` — exact values by memoised search: each player picks the action
  that maximises their own return, chance averages with its exact odds. Finite trees
  only (a turn, an endgame, a small game).
* a *policy* is any ``policy(state) -> action``; :func:`evaluate` gives its exact
  expected returns on a small tree, :func:`simulate` a seeded estimate on a large one.

Example (a two-roll game: keep a die or reroll it once):
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> Expectimax().value(KeepOrReroll())
    (Fraction(17, 4),)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from itertools import compress, repeat
from operator import is_
from typing import Any

import numpy as np

from ..errors import BadArgument, BadType, TooBig
from ..exact.draws import uniform_below
from ..validate import check_count, check_instance, check_seed
from .state import CHANCE, TERMINAL, Action, Outcome, State

__all__ = ["Expectimax", "MAX_GAMES", "MAX_OUTCOMES", "Policy", "Returns", "check_policies", "evaluate", "play_out", "random_policy",
           "simulate"]

MAX_OUTCOMES = 100_000
"""The largest chance node the exact solvers list. A larger one (a VivaJava roll of many dice: up to
1,333,584 outcomes) is refused with :class:`~coffeegames.errors.TooBig` before it is listed: estimate
such a game with :func:`simulate`, or ask the game's ``odds`` module for the exact law of what matters."""

Policy = Callable[[State], Action]
"""A way to play: ``policy(state) -> action`` at the states where a player acts."""
Returns = tuple[Fraction, ...]
"""Each player's expected return, exactly."""


class Expectimax:
    """Memoised exact expectimax. One instance shares its cache across calls."""

    def __init__(self) -> None:
        self.cache: dict[State, Returns] = {}

    def value(self, state: State) -> Returns:
        """Expected returns of every player under optimal play from ``state``."""
        return self._value(check_instance(state, State, "state", "a game state (e.g. Game().new_initial_state())"))

    def _value(self, state: State) -> Returns:
        cached = self.cache.get(state)
        if cached is not None:
            return cached
        if state.is_terminal():
            result = tuple(Fraction(r) for r in state.returns())
        elif state.is_chance():
            values = [(p, self._value(state._apply(o))) for o, p in _listed(state)]
            result = tuple(sum((p * v[i] for p, v in values), Fraction(0)) for i in range(len(values[0][1])))
        else:
            player = state.current_player()
            result = max((self._value(state._apply(a)) for a in state.legal_actions()), key=lambda v: v[player])
        self.cache[state] = result
        return result

    def action_values(self, state: State) -> list[tuple[Action, Fraction]]:
        """Each legal action with the acting player's exact expected return after it."""
        check_instance(state, State, "state", "a game state (e.g. Game().new_initial_state())")
        if not state.legal_actions():
            raise BadArgument("state", "must be a decision (a player to move), not a chance node or the end", state)
        player = state.current_player()
        return [(a, self._value(state._apply(a))[player]) for a in state.legal_actions()]

    def best_action(self, state: State) -> Action:
        """An optimal action (the first listed among equals)."""
        return max(self.action_values(state), key=lambda av: av[1])[0]

    def policy(self) -> Policy:
        """This solver as a policy."""
        return self.best_action


def _listed(state: State) -> list[tuple[Outcome, Fraction]]:
    """The chance node's outcomes, or :class:`TooBig` if it has more than :data:`MAX_OUTCOMES` (counted, not listed)."""
    count = state.chance_outcome_count()
    if count > MAX_OUTCOMES:
        raise TooBig("state", f"a chance node with {count:,} outcomes is over the exact solvers' limit of {MAX_OUTCOMES:,}; "
                     "estimate with simulate, or use the game's odds module")
    return state.chance_outcomes()


def random_policy(rng: np.random.Generator | int | None = None) -> Policy:
    """A policy choosing uniformly among the kinds of legal action (lock, roll, ...), then uniformly within the kind.

    Choosing the kind first keeps many variants of one action (say, every way to freeze
    dice before a reroll) from crowding out the others (say, stopping).

    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> random_policy(0)(KeepOrReroll(die=3)) in KeepOrReroll(die=3).legal_actions()
    True
    """
    generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(check_seed(rng, "rng"))
    below = uniform_below(generator).__call__  # (a bound method: called faster than the instance)

    def draw(decision: bool, state: State) -> Action:
        engines_own = state._draw_legal
        if engines_own is not None:  # the engine may draw the same action its own way (State._draw_legal)
            drawn = engines_own(below)
            if drawn is not None:
                return drawn
        legal = state._legal_actions() if decision else state._legal_now()  # (decision: a player acts, known)
        kinds = dict.fromkeys(map(type, legal))  # in the order they first appear
        if len(kinds) == 1:
            options = legal
        else:  # (no legal action: below(0) raises numpy's ValueError, as it always did)
            kind = list(kinds)[below(len(kinds))]
            options = list(compress(legal, map(is_, map(type, legal), repeat(kind))))  # of that kind, in order (C loops)
        return options[below(len(options))]

    def policy(state: State) -> Action:
        return draw(False, state)

    policy._at_decision = partial(draw, True)  # type: ignore[attr-defined]
    # (what play_out calls, having asked current_player(): _legal_now's own question is skipped; a positional
    # partial is called as fast as a function, a keyword one three times slower)
    return policy


MAX_GAMES = 1_000_000
"""The most games :func:`simulate` and :func:`~.play.play` play in one call (a million takes hours; beyond
it a mistyped number is refused at once)."""


def check_policies(policies: Any) -> Policy | Sequence[Policy]:
    """``policies`` if it is one policy (a callable) for every player or a list of them, one per player; else
    :class:`~coffeegames.errors.BadType` naming ``policies``.

    >>> check_policies("greedy")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadType: argument 'policies': must be a policy (a function of a state) or a list of them, one per player; got 'greedy'
    """
    if callable(policies) or (isinstance(policies, (list, tuple)) and policies and all(callable(p) for p in policies)):
        return policies
    raise BadType("policies", "must be a policy (a function of a state) or a list of them, one per player", policies)


def _policy_for(policies: Policy | Sequence[Policy], player: int) -> Policy:
    if callable(policies):
        return policies
    if not 0 <= player < len(policies):
        raise BadArgument("policies", f"lists {len(policies)} policies, but player {player} is to move: give one per player "
                          "(or one policy for all)")
    return policies[player]


def evaluate(state: State, policies: Policy | Sequence[Policy], cache: dict | None = None) -> Returns:
    """Exact expected returns when each player follows its policy (one policy for all, or one each)."""
    check_instance(state, State, "state", "a game state (e.g. Game().new_initial_state())")
    return _evaluate(state, check_policies(policies), {} if cache is None else check_instance(cache, dict, "cache", "a dict"))


def _evaluate(state: State, policies: Policy | Sequence[Policy], cache: dict) -> Returns:
    if state in cache:
        return cache[state]
    if state.is_terminal():
        result = tuple(Fraction(r) for r in state.returns())
    elif state.is_chance():
        values = [(p, _evaluate(state._apply(o), policies, cache)) for o, p in _listed(state)]
        result = tuple(sum((p * v[i] for p, v in values), Fraction(0)) for i in range(len(values[0][1])))
    else:
        result = _evaluate(state.apply(_policy_for(policies, state.current_player())(state)), policies, cache)
    cache[state] = result
    return result


def play_out(state: State, policies: Policy | Sequence[Policy], rng: np.random.Generator, max_steps: int = 100_000) -> tuple[State, list]:
    """Play from ``state`` to the end; returns the final state and the log of actions and outcomes."""
    check_instance(state, State, "state", "a game state (e.g. Game().new_initial_state())")
    check_policies(policies)
    check_instance(rng, np.random.Generator, "rng", "a numpy Generator (numpy.random.default_rng(seed))")
    check_count(max_steps, "max_steps")
    log: list[Action] = []
    append = log.append
    one: Policy | None = getattr(policies, "_at_decision", policies) if callable(policies) else None  # (random_policy's)
    each: Sequence[Policy] = () if callable(policies) else policies
    for _ in range(max_steps):
        player = state.current_player()
        if player == CHANCE:  # an outcome the draw gives is possible (the contract tests check every game's)
            move = state._draw_chance(rng)  # sample_chance, rng checked above
            append(move)
            state = state._apply(move)
        elif player == TERMINAL:
            return state, log
        else:
            move = one(state) if one is not None else _policy_for(each, player)(state)
            append(move)
            state = state._apply_as(player, move)  # a policy's illegal move is refused
    raise BadArgument("max_steps", f"the game did not end within {max_steps:,} steps: give more (or a policy that ends it)")


def simulate(state: State, policies: Policy | Sequence[Policy], n: int, seed: int | None = 0) -> np.ndarray:
    """Returns of ``n`` seeded playthroughs from ``state`` (at most :data:`MAX_GAMES`), one row per game (floats)."""
    check_instance(state, State, "state", "a game state (e.g. Game().new_initial_state())")
    check_policies(policies)
    check_count(n, "n", maximum=MAX_GAMES)
    rng = np.random.default_rng(check_seed(seed))
    return np.array([[float(r) for r in play_out(state, policies, rng)[0].returns()] for _ in range(n)])
