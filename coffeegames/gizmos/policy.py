"""Gizmos bots: random, greedy (points and engine value per energy), and two seeded searches (UCT, greedy rollouts).

A policy is ``policy(state) -> action``. :func:`greedy_policy` values each card by its
points plus what its effect should bring over the rest of the game (:func:`card_value`,
the bot's own estimate, not a rule), builds the best value per energy it can, else picks
the colour its best target needs, else files or researches; it fires every waiting gizmo.
:func:`search_stats` runs UCT (upper-confidence tree search) over the player decisions (the advice's search): each
playout samples every hidden draw afresh from the state's chance law (the marbles in the
dispenser, the unseen cards of each deck), so every playout is one determinisation of what
is hidden, then plays on with a noisy greedy bot up to a horizon and scores the position by
each player's points plus the engine value of their gizmos (:func:`evaluate`).
:class:`SearchBot` is a rollout bot: at each main action it tries every legal action in the
same seeded determinisations, plays each on greedily to the end of the game, and keeps the
one that wins most often (sequential halving shares its budget of playouts out). Both seeded.

Example:
    >>> from coffeegames.engine import play
    >>> from coffeegames.gizmos import Game
    >>> results = play(Game(players=2), greedy_policy, n_games=2, seed=0, progress=False)
    >>> len(results)
    2
    >>> s = Game().new_initial_state(seed=1)
    >>> SearchBot(playouts=20, seed=0)(s) in s.legal_actions()
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine import random_policy  # re-exported: the Gizmos random bot
from ..errors import BadArgument, BadType
from ..validate import Checker, check_count, check_instance, check_seed
from .actions import Build, EndTurn, File, Fire, Pass, Phase, Pick, Research, Skip
from .data import COLOURS
from .data import Card as CardFacts
from .state import State

MAX_PLAYOUTS = 100_000
"""The most playouts one search runs (a playout takes a few milliseconds: 100,000 take minutes)."""
MAX_HORIZON = 100
"""The most rounds a playout looks ahead (a game lasts far fewer: None plays to the end)."""

__all__ = ["ENGINE_VALUE", "MAX_HORIZON", "MAX_PLAYOUTS", "Policy", "SearchBot", "Stats", "card_value", "evaluate",
           "greedy_policy", "noisy_greedy", "progress", "random_policy", "search_stats"]

Policy = Callable[[State], Any]
"""A bot: the action it takes in a state."""

ENGINE_VALUE: dict[str, float] = {
    "draw_random": 0.8, "vp_tokens": 1.2, "pick": 1.0, "file": 0.5, "research": 0.6, "build_free": 1.5,
    "convert": 0.9, "double": 1.0, "discount": 1.0, "no_file": -1.0, "no_research": -0.5,
}
"""What one unit of each effect is worth to the bots per remaining game (their estimate; upgrades and the multicolour
cards are valued by :func:`card_value` itself)."""
_HUGE = 1e100
"""A margin is refused beyond +-this (a game's margins are points, under 1,000; the sum of squares stays finite)."""
_FIRE_ORDER = ("vp_tokens", "build_free", "pick", "file", "draw_random", "research")


def check_search(playouts: Any, seed: Any, horizon: Any) -> None:
    """Refuse a search budget the search cannot take (the library's error naming the argument): ``playouts`` a whole
    number 0 to :data:`MAX_PLAYOUTS`, ``seed`` None or a whole number 0 or more, ``horizon`` None or 0 to
    :data:`MAX_HORIZON` rounds."""
    check_count(playouts, "playouts", MAX_PLAYOUTS)
    check_seed(seed)
    if horizon is not None:
        check_count(horizon, "horizon", MAX_HORIZON)


def progress(state: State) -> float:
    """How near the end the game is, 0 to 1 (the furthest player's gizmos or level-III gizmos against the end)."""
    return _progress(check_instance(state, State, "state", "a Gizmos state"))


def _progress(state: State) -> float:
    rules = state.rules
    built = max(len(p.built) for p in state.players) / rules.end_gizmos
    level3 = max(sum(rules.deck[i].level == 3 for i in p.built) for p in state.players) / rules.end_level3
    return min(1.0, max(built, level3))


def card_value(state: State, player: int, card: CardFacts) -> float:
    """What building ``card`` is worth to ``player`` (the bots' estimate): its points, plus its effect's value times
    the share of the game left."""
    check_instance(state, State, "state", "a Gizmos state")
    Checker("card_value", BadArgument).whole(player, "player", 0, len(state.players) - 1)
    check_instance(card, CardFacts, "card", "a Gizmos card (rules.card(id))")
    return _card_value(state, player, card)


def _card_value(state: State, player: int, card: CardFacts, left: float | None = None) -> float:
    """:func:`card_value` unchecked (the bots call it many times a decision; ``left``, the share of the game left,
    ``1.0 - _progress(state)``, is worked out here unless the caller has it)."""
    if left is None:
        left = 1.0 - _progress(state)
    e = card.effect
    value = float(card.vp)
    if e.kind == "score":
        p = state.players[player]
        value += sum(p.energy) + 2 if e.counts == "energy" else p.tokens * 1.5 + 1
    elif e.kind == "upgrade":
        value += left * (0.6 * e.energy + 0.8 * e.archive + 0.3 * e.research)
    else:
        units = max(1, e.count, e.uses, len(e.colours) if e.kind == "double" else 1, e.amount)
        breadth = 1.0
        if card.trigger is not None:
            t = card.trigger
            breadth = {"file": 1.0, "pick": 0.5 * len(t.colours), "build": 0.6 * len(t.colours) if t.colours else 0.8}[t.kind]
        value += left * 3 * ENGINE_VALUE[e.kind] * units * breadth
    return value


def evaluate(state: State) -> tuple[float, ...]:
    """Each player's points plus the engine value of the gizmos they hold (final scores at the end of the game)."""
    check_instance(state, State, "state", "a Gizmos state")
    # here and in the bots: the unchecked _score, _owned and rules.deck[i] (the seats and ids are the state's own)
    if state.is_terminal():
        return tuple(float(state._score(i)) for i in range(len(state.players)))
    left = 1.0 - _progress(state)
    values = []
    for i in range(len(state.players)):
        points, engine, stored = _value_parts(state, i, left)
        values.append(points + engine + stored)
    return tuple(values)


def _value_parts(state: State, i: int, left: float) -> tuple[int, float, float]:
    """Player ``i``'s value before the end, in its three parts (:func:`evaluate` adds them, left to right): points,
    the engine value of their gizmos (each one's bot value less its printed points) and what their stored energy and
    archive should still bring (``left``: the share of the game left)."""
    p = state.players[i]
    engine = sum(_card_value(state, i, c, left) - c.vp for c in state._owned[i] if c.effect.kind != "score")
    return state._score(i), engine, left * (0.4 * sum(p.energy) + 0.5 * len(p.archive))


def _need(state: State, left: float) -> list[float]:
    """How much the player to move wants each colour: the cost colours of the best cards they could build next."""
    me, want = state.me, [0.1] * len(COLOURS)
    for ident in state.display[0] + state.display[1] + state.display[2] + me.archive:
        card = state.rules.deck[ident]
        if card.colour in COLOURS:
            i = COLOURS.index(card.colour)
            short = max(0, card.cost - me.energy[i])
            if short:
                want[i] += _card_value(state, state.turn, card, left) / (1 + card.cost) / short
    for gizmo in state._owned[state.turn]:  # own pick gizmos set off by a colour
        if gizmo.trigger is not None and gizmo.trigger.kind == "pick" and gizmo.id not in state.used:
            for c in gizmo.trigger.colours:
                want[COLOURS.index(c)] += 0.5
    return want


def _best_build(state: State, builds: list[Build], left: float) -> tuple[Build, float] | None:
    if not builds:
        return None
    deck, turn = state.rules.deck, state.turn
    scored = [(b, _card_value(state, turn, deck[b.card], left) / (1 + 0.5 * sum(b.paid))) for b in builds]
    return max(scored, key=lambda bs: bs[1])


def _research_level(state: State, levels: list[Research]) -> Research:
    built = len(state.me.built)
    wanted = 1 if built < 6 else 2 if built < 11 else 3
    return min(levels, key=lambda r: abs(r.level - wanted))


def greedy_policy(state: State) -> Any:
    """Points and engine value per energy: build the best value per energy spent, else pick the colour most needed,
    else file the best card, else research; fire every waiting gizmo (points first)."""
    check_instance(state, State, "state", "a Gizmos state")
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase == Phase.TRIGGERS:
        fires = [a for a in legal if isinstance(a, Fire)]
        kinds = {a: state.rules.deck[a.gizmo].effect.kind for a in fires}
        return min(fires, key=lambda a: _FIRE_ORDER.index(kinds[a]) if kinds[a] in _FIRE_ORDER else 99)
    left = 1.0 - _progress(state)  # once a decision (every card value below reads it)
    builds = [a for a in legal if isinstance(a, Build)]
    best = _best_build(state, builds, left)
    if best is not None and (phase != Phase.ACTION or best[1] >= 0.5):
        return best[0]
    picks = [a for a in legal if isinstance(a, Pick)]
    if picks:
        want = _need(state, left)
        return max(picks, key=lambda a: want[COLOURS.index(a.colour)])
    files = [a for a in legal if isinstance(a, File)]
    if files:
        return max(files, key=lambda a: _card_value(state, state.turn, state.rules.deck[a.card], left))
    research = [a for a in legal if isinstance(a, Research)]
    if research:
        return _research_level(state, research)
    for default in (Skip(), Pass(), EndTurn()):
        if default in legal:
            return default
    return legal[0]


def noisy_greedy(rng: np.random.Generator, noise: float = 0.15) -> Policy:
    """The greedy bot, but a uniformly random legal action with probability ``noise`` (the search bot's playouts)."""
    def policy(state: State) -> Any:
        if rng.random() < noise:
            legal = state.legal_actions()
            return legal[int(rng.integers(len(legal)))]
        return greedy_policy(state)

    return policy


@dataclass
class Stats:
    """Playout statistics of one action: how many, the sum and the sum of squares of the mover's margin, and the
    margins themselves (how the sample spreads: :func:`~.advice.advise` shows it)."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0
    margins: list[float] = field(default_factory=list, repr=False)
    ends: list[State] = field(default_factory=list, repr=False)
    """Where each kept playout ended (the root's only): :mod:`~.explain` takes its margin apart."""

    def add(self, value: float) -> None:
        """Count one playout whose margin is ``value`` (a finite number)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadType("value", "must be a number (a playout's margin)", value)
        if not -_HUGE < value < _HUGE:
            raise BadArgument("value", f"must be a finite number between -{_HUGE:g} and {_HUGE:g}", value)
        self._add(value)

    def _add(self, value: float, keep: bool = True, end: State | None = None) -> None:
        """:meth:`add` unchecked (the search adds its own margins, once a node of every playout; it keeps the margins
        themselves at the root only, the one sample :func:`~.advice.advise` shows)."""
        self.n += 1
        self.total += value
        self.squares += value * value
        if keep:
            self.margins.append(value)
            if end is not None:
                self.ends.append(end)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def se(self) -> float:
        """The standard error of the mean (0 with fewer than 2 playouts)."""
        if self.n < 2:
            return 0.0
        var = max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))
        return math.sqrt(var / self.n)


@dataclass
class _Node:
    children: dict[Any, _Node] = field(default_factory=dict)
    stats: dict[Any, Stats] = field(default_factory=dict)
    seen: dict[Any, int] = field(default_factory=dict)  # playouts in which each action was legal here


def _margins(values: tuple[float, ...]) -> tuple[float, ...]:
    """Each player's value less the best other player's."""
    return tuple(v - max(w for j, w in enumerate(values) if j != i) for i, v in enumerate(values))


def search_stats(state: State, playouts: int = 200, seed: int | None = 0, horizon: int | None = 2, explore: float = 3.0,
                 stop: Callable[[int, dict[Any, Stats]], bool] | None = None) -> dict[Any, Stats]:
    """UCT from ``state`` (a decision): each legal action's playout statistics of the mover's margin (points plus
    engine value, less the best opponent's: see :func:`evaluate`), after ``playouts`` playouts, each played to the end
    of ``horizon`` more rounds (None: to the end of the game). Seeded: the same arguments, the same numbers.

    Open-loop: the tree is keyed by the player decisions only. Each playout starts from a determinisation of what
    the mover cannot see (:meth:`~.state.State.determinise`: the cards others put under the decks) and samples every
    chance draw afresh, so a node's statistics average over the hidden cards and marbles.

    ``stop(k, stats)``, asked after each playout ``k`` (1, 2, ...), ends the search early when it says True: the
    statistics are then those of ``search_stats(state, k, seed, ...)`` exactly (the playouts run in one seeded order).
    """
    check_instance(state, State, "state", "a Gizmos state")
    if state.is_chance() or state.is_terminal():
        raise BadArgument("state", "must be a decision (a player to move), not a chance node or the end")
    check_search(playouts, seed, horizon)
    if stop is not None and not callable(stop):
        raise BadType("stop", "must be None or a function (playouts run, statistics) -> bool", stop)
    Checker("search_stats", BadArgument).need(isinstance(explore, (int, float)) and not isinstance(explore, bool)
                                              and 0 <= explore < math.inf, "explore", "must be a number 0 or more", explore)
    rng = np.random.default_rng(seed)
    rollout = noisy_greedy(rng)
    root = _Node()
    players = len(state.players)
    me = state.current_player()
    for done in range(playouts):
        if stop is not None and done and stop(done, root.stats):
            break
        s, node, path = state.determinise(me, rng), root, []
        # selection and expansion: down the tree by UCB, until an action never tried here
        while not s.is_terminal():
            while s.is_chance():
                s = s.apply(s.sample_chance(rng))
            if s.is_terminal():
                break
            legal = s.legal_actions()
            for a in legal:
                node.seen[a] = node.seen.get(a, 0) + 1
            mover = s.current_player()
            fresh = [a for a in legal if a not in node.stats]
            if fresh:
                action = fresh[int(rng.integers(len(fresh)))]
                node.stats[action] = Stats()
                path.append((node, action, mover))
                s = s.apply(action)
                break
            here = node
            action = max(legal, key=lambda a: here.stats[a].mean + explore * math.sqrt(math.log(here.seen[a]) / here.stats[a].n))
            path.append((node, action, mover))
            s = s.apply(action)
            node = node.children.setdefault(action, _Node())
        # playout, to the end of `horizon` more rounds
        turns, last = 0, s.turn
        while not s.is_terminal() and (horizon is None or turns < horizon * players):
            s = s.apply(s.sample_chance(rng) if s.is_chance() else rollout(s))
            if s.turn != last:
                turns, last = turns + 1, s.turn
        margins = _margins(evaluate(s))
        for n, a, mover in path:
            n.stats[a]._add(margins[mover], n is root, s)
    return dict(root.stats)


def _playout_value(end: State, me: int) -> float:
    """What a playout that stopped at ``end`` is worth to ``me``: 1 for a win (0 for a loss) plus 0.02 a point of
    margin at the end of the game; before the end, the win chance a logistic curve reads off the margin of
    :func:`evaluate` (4 points of margin: 73%), plus the same 0.02 a point."""
    if end.is_terminal():
        won = float(end.standings()[0] == me)
        margin = _margins(tuple(float(end._score(i)) for i in range(len(end.players))))[me]
    else:
        margin = _margins(evaluate(end))[me]
        won = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -margin / 4))))
    return won + 0.02 * margin


def _greedy_playout(state: State, rng: np.random.Generator, horizon: int | None) -> State:
    """Greedy moves for every player and chance drawn by ``rng``, to the end (or ``horizon`` more rounds)."""
    s, turns, last, players = state, 0, state.turn, len(state.players)
    while not s.is_terminal() and (horizon is None or turns < horizon * players):
        s = s._apply(s.sample_chance(rng) if s.is_chance() else greedy_policy(s))  # both legal by construction
        if s.turn != last:
            turns, last = turns + 1, s.turn
    return s


def _rollout_values(state: State, playouts: int = 32, seed: int | None = 0,
                   horizon: int | None = None) -> dict[Any, tuple[int, float]]:
    """Each legal action's (playouts, mean value) after a sequential-halving search of about ``playouts`` greedy
    playouts in all (:class:`SearchBot`'s main-action search; values as ``_playout_value``, win 1 plus 0.02 a point).

    Every action is tried in the same seeded worlds: playout ``k`` of every action determinises what the mover cannot
    see (:meth:`~.state.State.determinise`) and draws chance from the generator seeded ``[seed, k]``. Each round gives
    the actions still in a share of the budget (one playout each at least), then keeps the better half.
    """
    me, legal = state.current_player(), list(state._legal)
    root = int(np.random.default_rng(seed).integers(2**31)) if seed is None else seed
    totals, counts = dict.fromkeys(legal, 0.0), dict.fromkeys(legal, 0)
    alive, rounds = legal, max(1, math.ceil(math.log2(len(legal))))
    while True:
        each = max(1, playouts // (len(alive) * rounds))
        for a in alive:
            for k in range(counts[a], counts[a] + each):
                rng = np.random.default_rng([root, k])
                world = state.determinise(me, rng)
                totals[a] += _playout_value(_greedy_playout(world._apply(a), rng, horizon), me)
            counts[a] += each
        if len(alive) <= 1:
            break
        alive = sorted(alive, key=lambda a: -totals[a] / counts[a])[: max(1, len(alive) // 2)]  # stable: ties by order
        if len(alive) == 1:
            break
    return {a: (counts[a], totals[a] / counts[a] if counts[a] else 0.0) for a in legal}


@dataclass
class SearchBot:
    """A search bot: at each main action, a rollout search (:func:`_rollout_values`: about ``playouts`` greedy
    playouts to the end of the game, or of ``horizon`` more rounds, shared out by sequential halving) picks the
    action that wins most often (ties: the larger margin); the small choices of a turn (firing, picks and files
    its gizmos ask for) it leaves to :func:`greedy_policy`.

    Its generator is seeded once, so a game it plays from a seed is reproducible. Playouts determinise what the
    mover cannot see, so its choice depends only on what its player knows.
    """

    playouts: int = 32
    seed: int | None = 0
    horizon: int | None = None
    _rng: np.random.Generator = field(init=False, repr=False)

    def __post_init__(self) -> None:
        check_search(self.playouts, self.seed, self.horizon)
        self._rng = np.random.default_rng(self.seed)

    def __call__(self, state: State) -> Any:
        check_instance(state, State, "state", "a Gizmos state")
        legal = state.legal_actions()
        if len(legal) == 1 or state.phase != Phase.ACTION or self.playouts == 0:
            return legal[0] if len(legal) == 1 else greedy_policy(state)
        values = _rollout_values(state, self.playouts, int(self._rng.integers(2**31)), self.horizon)
        return max(legal, key=lambda a: (values[a][0], values[a][1]))
