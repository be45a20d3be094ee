"""The cup test, solved: the exact score distribution if you stop now, the best tray decisions, one more round.

The cup test (docs/rules/roaster.md, "The cup test"; :mod:`.state`) is a small game against
the bag: draw one token at a time, put it in the cup's next space or on the tray (while it
has room); Choice, on its two spaces, draws 2 and keeps 1; Exchange, once the cup is full,
may return 2 cup tokens, draw 3 and keep 2. :func:`stop_now` solves it by dynamic programming
over positions ``(bag left, cup multiset, tray spaces used)``, maximising the expected score;
cups are scored by :func:`.scoring.score_cup` (through ``Rules.score``), never by a copy of the
scoring rules. This module is the public API of stopping now (one more round is :mod:`.round`).
The modules under it: the cup test's rules over count vectors :mod:`.cup_solver` (each rule
once), the exact tables :mod:`.cup_layers` (with :mod:`.cup_codes`) and :mod:`.cup_boxes`, the
fallback policy for tests over budget :mod:`.cup_fallback`.

Exactness notes (each checked against the engine and an independent memoised search,
``tests/roaster_oracle.py``, by ``tests/test_roaster_cup.py`` and ``tests/test_roaster_cup_layers.py``):

* Moisture drawn in the cup test leaves and is redrawn, also for Choice and Exchange, so
  the non-moisture tokens come out in uniformly random order: the solver drops moisture
  from the bag and loses nothing (:func:`.cup_solver.drawable`).
* Only what the cup holds (a multiset: its order never scores), the bag and the number of
  tray tokens matter; Sweetness and the Extra Bean follow from the active cup effects: an
  active Sweetness is in every cup scored, however early the bag runs out, and its space is
  never a drawn token's (``rules_version`` 1: only once filling reached its space).
* Stopping on the easy side, the starting flavours still on the board go into the bag or
  not, token by token: :func:`stop_now` solves each choice and keeps the best.
* The options the cup test reads are respected: ``tray_spaces`` (and the Cardboard Tray's
  bonus) through ``Rules.tray_size``, ``skill_groups``, ``sweetness_flavour`` and
  ``burnt_level`` through ``Rules.score``.
* Tokens that score alike in every cup (:func:`.scoring.scoring_class`: hard beans, smoke and
  burnt beans; flavours the card does not ask for) are one kind to the solver, which halves
  the positions of many bags.
* The solve is vectorised (:mod:`.cup_layers`): every position of a layer (tokens left in the
  bag) at once, values carried as residues modulo primes and rebuilt exactly, decisions compared
  exactly; a decision between draws (phases ``place`` and ``choose``) values its options in one
  table. Single decisions (:meth:`CupTest.decision`, :meth:`CupTest.action`) look their values up
  in a table of the test's positions, made on the first one asked.
* Beyond ``max_states`` positions the solve stops (without Sweetness, Choice and Exchange the
  positions are counted beforehand, exactly, and a solve known to be over budget is not
  started) and :func:`.cup_fallback.estimate` gives an approximate answer, flagged
  ``exact=False`` with its standard error: ``samples`` seeded cup tests, all at once, played
  by a rule of thumb (``heuristic_place``) while more than ``ENDGAME`` cup spaces are free
  (fewer where the rest is still over budget), each then valued exactly (best play from
  there, one vectorised table within ``max_states`` positions). A fixed policy, so a lower
  estimate of optimal play (``CupTest.lower``); its standard error counts the sampling's
  noise, not that bias, which ``benchmarks/bench_roaster.py`` measures. The decisions of such
  an answer (:meth:`CupTest.decision`, :meth:`CupTest.action`) follow the same rule of thumb,
  exact within ``ENDGAME`` free spaces by a table of their own within a quarter of the budget.
* :func:`.round.one_more_round` plays the next round with plain roasting (no effects; pass
  ``act=`` for another round policy), then stops: a lower bound on what that round can be
  worth. Its draws are all weighed when few enough (or ``max_outcomes=None``), else a
  stratified sample is (flagged, with a standard error); every draw's cup test is one vectorised
  table (they share most positions); over ``max_states`` positions, the smallest tests alone within half of
  them, the others by the fallback's estimate within the rest.

Example:
    >>> from coffeegames.roaster.rules import Rules
    >>> r = stop_now(["bean2"] * 6 + ["bean1"] * 6 + ["hard", "smoke", "aroma"], Rules(card="Zambia Kasama AA"))
    >>> r.exact, r.value == r.dist.mean(), sum(r.dist.values())
    (True, True, Fraction(1, 1))
    >>> r.decision("smoke"), r.decision("bean2")
    ('tray', 'cup')
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import BadArgument, BadType, TooBig, shown
from ..exact.collector import collector_paused
from ..exact import Dist, check_count
from ..validate import Checker, check_instance
from .actions import ROASTING_PHASES, Exchange, Keep, KeepTwo, NoExchange, Phase, Stop, ToCup, ToTray
from .cup_codes import fits
from .cup_fallback import ENDGAME, ENDGAME_BUDGET, estimate, fallback_exchange, fallback_keep, fallback_place, simulate
from .cup_layers import Layers
from .cup_solver import MASK, Counts, OverBudget, Solver, count_positions, drawable, drawn_tokens, minus, plus
from .data import CUP_SPACES
from .rules import Rules
from .state import State
from .tokens import CUP_EFFECTS, EXCHANGE, MOISTURE, TOKENS, msort

__all__ = ["CupTest", "MAX_SAMPLES", "MAX_STATES", "SAMPLES", "stop_now"]

MAX_STATES = 600_000
"""Default budget of positions for an exact solve (about 1 s: ≈ 1.5-2.5 µs of CPU a position with its distribution,
see benchmarks/README.md; every benchmark position fits)."""
SAMPLES = 1_000
"""Default number of seeded cup tests simulated when the exact solve is over budget."""


@dataclass
class CupTest:
    """The cup test from one position: its score distribution under the best (or, if not ``exact``, the fallback) play.

    ``value`` is the expected score (a Fraction: exact, or the simulated mean), ``dist`` the
    distribution of the score, ``states`` the positions solved, ``stderr`` the simulation's
    standard error (0 when exact), ``message`` says how the answer was found.
    """

    value: Fraction
    dist: Dist
    exact: bool
    states: int
    message: str
    stderr: float
    seconds: float
    solver: Solver = field(repr=False)
    full_counts: Counts = field(repr=False)
    reserve: Any = None
    """Easy side, stopping with starting flavours left: the best :class:`~.actions.ReserveToBag` (valued first)."""
    starts: list[tuple[Counts, Counts, int]] = field(default_factory=list, repr=False)
    """The positions (about to draw) the exact solve started from: the table of exact decisions is made from them."""
    table: Layers | None = field(default=None, repr=False)
    cups: list[tuple[Fraction, Counts]] = field(default_factory=list, repr=False)
    """From Exchange's phases or the end: the cups the test ends with, with their chances (then ``starts`` is empty)."""

    def part_dist(self) -> Dist:
        """The exact distribution of the cup's parts under this answer's play, each a packed (roast, flavour, skill,
        minus) points (:func:`.scoring.part_values`); for an exact answer only (one more table as large as its solve)."""
        if not self.exact:
            raise BadArgument("test", "the parts of an estimate are not exact: solve within budget (or max_states=None)")
        s = self.solver
        if not self.starts:
            weights: dict[int, Fraction] = {}
            for p, cup in self.cups:
                code = int(s.parts_many(np.array([cup]))[0])
                weights[code] = weights.get(code, Fraction(0)) + p
            return Dist(weights)
        table = Layers(s, self.starts, None, dist=True)
        values = table.values()
        best = values.index(max(values))  # among equals the first, as the solve chose
        return table.dist([Fraction(i == best) for i in range(len(values))], by=s.parts_many)

    @property
    def lower(self) -> bool:
        """Whether ``value`` is a lower estimate: the fallback policy played, which cannot beat the best play."""
        return not self.exact

    def decision(self, token: str, cup: Sequence[str] = (), tray: Sequence[str] = ()) -> str:
        """``"cup"`` or ``"tray"`` for ``token`` just drawn with ``cup`` and ``tray`` holding these tokens
        (the bag is what remains of this test's tokens). Exact play when ``exact``, else the fallback policy.

        >>> from coffeegames.roaster.rules import Rules
        >>> stop_now(["bean3"] * 5 + ["hard"] * 2, Rules(card="Zambia Kasama AA")).decision("hard", cup=["bean3"])
        'tray'
        """
        s, check = self.solver, Checker("", BadArgument)
        cup, tray = check.sequence(cup, "cup"), check.sequence(tray, "tray")
        c, t = s.counts(drawn_tokens(cup), "cup"), s.counts(tray, "tray")
        i = s.counts([check.text(token, "token")], "token").index(1)
        rest = tuple(f - a - b for f, a, b in zip(self.full_counts, c, t))
        if rest[i] < 1 or min(rest) < 0:
            raise BadArgument("cup", "cup, tray and the drawn token hold more tokens than this cup test has")
        if s.space(sum(c)) >= CUP_SPACES or len(tray) > s.tray_spaces:
            raise BadArgument("cup", f"no token is placed with {s.space(sum(c))} cup spaces filled and {len(tray)} on the tray")
        if not s.step(sum(c), sum(rest), len(tray))[2]:  # the tray full, or a Choice space
            return "cup"
        bag = minus(rest, i)
        if not self.exact:
            return "tray" if fallback_place(s, bag, c, len(tray), i) else "cup"
        in_cup, on_tray = self._values([(bag, plus(c, i), len(tray)), (bag, c, len(tray) + 1)])
        return "cup" if in_cup >= on_tray else "tray"

    def _values(self, positions: list[tuple[Counts, Counts, int]]) -> list[Fraction]:
        """Exact values of positions about to draw: from the table of this test's positions (made on the first
        decision asked, every value kept), else from a table of their own."""
        if self.table is None and self.starts:
            self.table = Layers(self.solver, self.starts, lookup=True)
        found = [None if self.table is None else self.table.value(*p) for p in positions]
        missing = [p for p, v in zip(positions, found) if v is None]
        solved = iter(_table(self.solver, missing, None).values() if missing else [])
        return [next(solved) if v is None else v for v in found]

    def action(self, state: State) -> Any:
        """The engine action this answer plays at a cup-test decision (a policy for :func:`coffeegames.engine.play_out`)."""
        check_instance(state, State, "state", "a Coffee Roaster state")
        if state.phase == Phase.RESERVE and self.reserve is not None:
            return self.reserve
        s = self.solver
        bag, cup = s.counts(drawable(state.bag)), s.counts(drawn_tokens(state.cup))
        tray = len(state.tray)
        if state.phase == Phase.PLACE:
            return ToCup() if self.decision(state.hand[0], state.cup, state.tray) == "cup" else ToTray()
        if state.phase == Phase.CHOOSE:
            a, b = sorted(s.index[t] for t in state.hand)
            if self.exact:  # among equals the kind that comes first, as the solve does
                keep_b, keep_a = self._values([(plus(bag, a), plus(cup, b), tray), (plus(bag, b), plus(cup, a), tray)])
                keep = b if keep_b > keep_a else a
            else:
                keep = fallback_keep(s, bag, cup, tray, a, b)
            return Keep(next(t for t in state.hand if s.index[t] == keep))
        if state.phase == Phase.EXCHANGE:
            pair = s.full(bag, cup)[1] if self.exact else fallback_exchange(s, bag, cup)
            return NoExchange() if pair is None else Exchange(msort(s.pick(drawn_tokens(state.cup), pair)))
        if state.phase == Phase.EXCHANGE_KEEP:
            best = s.keep_two(cup, [s.index[t] for t in state.hand])
            return KeepTwo(msort(s.pick(state.hand, tuple(b - a for a, b in zip(cup, best)))))
        raise BadArgument("state", f"no cup-test decision in phase {state.phase!r}")


def _as_tokens(bag: Any, where: str) -> tuple[str, ...]:
    """The tokens of the argument ``where``: a list of tokens, or token → count (each count checked before any
    list is made: at most the solver's :data:`~.cup_solver.MASK` of one kind)."""
    if isinstance(bag, Mapping):
        for t, n in bag.items():
            check_count(n, f"{where}[{shown(t)}]", maximum=MASK)
        items = tuple(t for t, n in bag.items() for _ in range(n))
    elif isinstance(bag, (str, bytes)) or not isinstance(bag, Iterable):
        raise BadType(where, "a bag is a list of tokens or a mapping token → count", bag)
    else:
        items = tuple(bag)
    bad = [t for t in items if t not in TOKENS]
    if bad:
        raise BadArgument(where, f"not bag tokens: {shown(bad)}; tokens are {', '.join(TOKENS)}")
    return items


@dataclass(frozen=True)
class _Test:
    """A cup test to solve, read from an engine state or from a bag: what :func:`stop_now` starts from."""

    rules: Rules
    active: tuple[str, ...]
    bag: tuple[str, ...]  # drawable: no moisture
    cup: tuple[str, ...]  # drawn tokens: no Sweetness
    tray: tuple[str, ...]
    hand: tuple[str, ...]
    phase: str
    exchange: bool  # Exchange active and unused
    tray_spaces: int

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.bag + self.cup + self.hand + self.tray

    def solver(self, max_states: int | None, tokens: Iterable[str] = ()) -> Solver:
        """A solver for this test (``tokens``: more tokens it should know, to be shared by other tests)."""
        solver = Solver(self.rules, self.active, (*self.tokens, *tokens), self.tray_spaces, max_states)
        solver.exchange = self.exchange
        return solver


def _read(position: State | Iterable[str] | Mapping[str, int], rules: Rules | str | None, active: Iterable[str],
          cup: Sequence[str], tray: Sequence[str]) -> _Test:
    """The cup test ``stop_now`` is asked about (see its arguments), checked."""
    if isinstance(position, State):
        state = position
        if state.phase in ROASTING_PHASES:
            raise BadArgument("position", f"stop_now needs a state where the player may stop (phase 'decide') or the cup test; got {state.phase!r}")
        if state.phase in (Phase.CHOICE_DRAW, Phase.EXCHANGE_DRAW) and state.hand:
            raise BadArgument("position", f"stop_now cannot start halfway through a {state.phase!r} draw; step to the next decision")
        test = _Test(state.rules, tuple(state.active), drawable(state.bag), drawn_tokens(state.cup), tuple(state.tray),
                     tuple(state.hand), state.phase,
                     EXCHANGE in state.active and not state.exchanged, state.tray_spaces)
    else:
        if rules is None:
            raise BadArgument("rules", "stop_now on a bag needs the rules (a Rules or a card name)")
        rules = Rules(card=rules) if isinstance(rules, str) else rules
        if not isinstance(rules, Rules):
            raise BadType("rules", "must be a Rules or a card name", rules)
        active = tuple(active)
        unknown = [e for e in active if e not in CUP_EFFECTS]
        if unknown:
            raise BadArgument("active", f"unknown cup effects {unknown}; they are {', '.join(CUP_EFFECTS)}")
        bag_tokens, cup, tray = _as_tokens(position, "position"), _as_tokens(cup, "cup"), _as_tokens(tray, "tray")
        tray_spaces = rules.tray_size(active)
        if MOISTURE in cup or len(cup) > CUP_SPACES or len(tray) > tray_spaces:
            raise BadArgument("cup", f"a cup holds up to {CUP_SPACES} tokens (no moisture), the tray up to {tray_spaces}")
        test = _Test(rules, active, drawable(bag_tokens), cup, tray, (), Phase.CUP_DRAW,
                     EXCHANGE in active, tray_spaces)
    if not test.tokens:
        raise BadArgument("position", "the bag, cup and tray hold no token the cup test scores (moisture is set aside): "
                          "give beans, flavours or smoke, e.g. {'bean2': 4, 'smoke': 1}", position)
    most = max(Counter(test.tokens).values(), default=0)
    if most > MASK:
        raise TooBig("position", f"the cup-test solver takes at most {MASK} tokens of one kind; got {most}")
    return test


@collector_paused()  # its tables hold no cycles: see coffeegames/exact/collector.py
def stop_now(
    position: State | Iterable[str] | Mapping[str, int],
    rules: Rules | str | None = None,
    *,
    active: Iterable[str] = (),
    cup: Sequence[str] = (),
    tray: Sequence[str] = (),
    max_states: int | None = MAX_STATES,
    samples: int = SAMPLES,
    seed: int = 0,
) -> CupTest:
    """The cup test's score if the player stops now (or from a cup-test position), under the best decisions.

    ``position`` is an engine :class:`~.state.State` (phase ``decide``, or any cup-test phase with a
    token in hand or none), or a bag (tokens, or token → count) with ``rules`` (a :class:`Rules` or a
    card name), the ``active`` cup effects and what the ``cup`` and ``tray`` already hold. Beyond
    ``max_states`` positions (``None``: no limit) the answer is a seeded simulation of ``samples``
    cup tests under the fallback policy (see the module notes), flagged ``exact=False``.

    >>> r = stop_now({"bean3": 3, "bean2": 2, "smoke": 1}, "Zambia Kasama AA", active=["extra_bean"])
    >>> r.value, r.states
    (Fraction(1, 1), 155)

    Stopping on the easy side with starting flavour tokens left, the player then chooses which go into the bag
    (:class:`~.actions.ReserveToBag`): each choice is solved and the best is the answer (``reserve`` names it).
    """
    _check_budget(max_states, samples, seed)
    choices = _choices(position)
    if len(choices) == 1:
        test = _read(choices[0][1], rules, active, cup, tray)
        return _solve(test, test.solver(max_states), samples, seed)
    results = [_solve(t, t.solver(max_states), samples, seed) for t in (_read(s, None, (), (), ()) for _, s in choices)]
    best = max(range(len(results)), key=lambda i: results[i].value)  # among equals the first: all into the bag
    result = results[best]
    result.reserve = choices[best][0]
    result.message = f"best of {len(results)} choices of starting flavours ({result.reserve}); {result.message}"
    return result


MAX_SAMPLES = 100_000
"""The most seeded cup tests (``samples``) or sampled draws (``draws``) one answer simulates."""


def _check_budget(max_states: Any, samples: Any, seed: Any) -> None:
    """The solver's budget arguments: ``max_states`` None (no limit) or 1 or more, ``samples`` 1 to :data:`MAX_SAMPLES`
    (a simulation of 0 cup tests has no mean), ``seed`` a whole number 0 or more."""
    if max_states is not None:
        check_count(max_states, "max_states")
    check_count(samples, "samples", maximum=MAX_SAMPLES)
    if samples == 0:
        raise BadArgument("samples", "must be at least 1 (the simulation's mean needs a cup test)", samples)
    check_count(seed, "seed")


def _choices(position: Any) -> list[tuple[Any, Any]]:
    """Where the cup test starts from ``position``, after stopping: ``[(None, position)]``, or with starting flavours
    to choose, ``[(ReserveToBag(...), state after it), ...]``, all into the bag first."""
    if isinstance(position, State) and position.phase == Phase.DECIDE:
        position = position.apply(Stop())
    if isinstance(position, State) and position.phase == Phase.RESERVE:
        return [(a, position.apply(a)) for a in position.legal_actions()]
    return [(None, position)]


def _solve(test: _Test, solver: Solver, samples: int, seed: int) -> CupTest:
    """Solve ``test`` with ``solver`` (fresh: its memos serve the decisions asked later).

    From a draw (or a decision between draws: the better option first) the exact solve is one table with its
    distribution (:class:`.cup_layers.Layers`); Exchange's phases and the end weigh the cups left. Over ``max_states``
    positions (counted beforehand where they can be, else found by the listing) the answer is
    :func:`.cup_fallback.estimate`'s."""
    started = time.perf_counter()
    bag, c, t = solver.counts(test.bag), solver.counts(test.cup), len(test.tray)
    full = tuple(a + b + h + x for a, b, h, x in zip(bag, c, solver.counts(test.hand), solver.counts(test.tray)))
    hand = [solver.index[x] for x in test.hand]
    max_states = solver.max_states

    def answer(value: Fraction, dist: Dist, states: int, starts: list[tuple[Counts, Counts, int]],
               cups: list[tuple[Fraction, Counts]] | None = None) -> CupTest:
        return CupTest(value, dist, True, states, f"exact: {states:,} positions solved", 0.0, time.perf_counter() - started,
                       solver, full, starts=starts, cups=cups or [])

    if test.phase in (Phase.PLACE, Phase.CHOOSE):  # the decision's options, then the best one's test
        if test.phase == Phase.PLACE:
            options = [(bag, plus(c, hand[0]), t)] + ([(bag, c, t + 1)] if solver.step(sum(c), sum(bag) + 1, t)[2] else [])
        else:
            options = [(plus(bag, b), plus(c, a), t) for a, b in ((hand[0], hand[1]), (hand[1], hand[0]))]
        try:
            table = _table(solver, options, max_states, dist=True)
        except OverBudget:
            raise BadArgument("max_states", f"over budget in phase {test.phase!r}: the simulation starts from a draw; raise max_states") from None
        values = table.values()
        best = values.index(max(values))  # among equals the first: the cup, or the first token kept
        return answer(values[best], table.dist([Fraction(i == best) for i in range(len(options))]), table.positions, options)
    if test.phase not in (Phase.CUP_DRAW, Phase.CHOICE_DRAW):  # Exchange's phases, the end: the cups left, weighed
        cups = _final_cups(solver, test.phase, bag, c, hand)
        weights: dict[int, Fraction] = {}
        for p, cup in cups:
            weights[solver.score(cup)] = weights.get(solver.score(cup), Fraction(0)) + p
        return answer(sum((p * solver.score(cup) for p, cup in cups), Fraction(0)), Dist(weights), 0, [], cups)
    predicted = count_positions(solver, bag, c, t)
    try:
        if max_states is not None and predicted is not None and predicted > max_states:
            raise OverBudget  # known too large: go straight to the estimate (no abandoned solve)
        table = _table(solver, [(bag, c, t)], max_states, dist=True)
        return answer(table.values()[0], table.dist(), table.positions, [(bag, c, t)])
    except OverBudget:
        pass
    assert max_states is not None
    over = f"{predicted:,} positions, over {max_states:,}" if predicted is not None else f"over {max_states:,} positions"
    solver.max_states = max_states // ENDGAME_BUDGET  # decisions asked later: the fallback's exact endgame, this budget each
    if fits(solver, [(bag, c, t)]):
        found = estimate(solver, [(bag, c, t)], samples, seed, max_states, dist=True)
        assert found.dist is not None
        value, stderr, dist = found.values[0], found.stderr[0], found.dist
        how = (f"played by a rule of thumb until at most {found.free} cup spaces were left, each then valued exactly "
               f"({found.positions:,} positions)")
    else:  # a position code too wide for one table: the fallback policy, played out test by test
        solver.played = [0, 0]
        scores = simulate(solver, bag, c, t, samples, seed)
        dist = Dist.from_weights(dict(Counter(scores)))
        value = dist.mean()
        stderr = float(np.std(scores, ddof=1) / np.sqrt(len(scores))) if len(scores) > 1 else float("inf")
        how = (f"played exactly in {solver.played[0] / max(1, sum(solver.played)):.0%} of decisions (those with at most "
               f"{ENDGAME} cup spaces left, within budget) and by a rule of thumb otherwise")
    message = (f"approximate: {over}; mean of {samples:,} seeded cup tests (seed {seed}) {how}: a lower estimate of "
               f"optimal play, standard error {stderr:.2f}")
    return CupTest(value, dist, False, 0, message, stderr, time.perf_counter() - started, solver, full)


def _table(solver: Solver, roots: list[tuple[Counts, Counts, int]], max_states: int | None, **options: bool) -> Layers:
    """The exact table of these positions within ``max_states`` (:class:`OverBudget` over it); a position code too wide
    for an int64 is over any budget, or with none :class:`~coffeegames.errors.TooBig`."""
    if not fits(solver, roots):
        if max_states is not None:
            raise OverBudget
        raise TooBig("position", f"the cup test has too many kinds and tokens for one exact table ({len(solver.kinds)} kinds); "
                     "give max_states for an estimate")
    return Layers(solver, roots, max_states, **options)


def _final_cups(solver: Solver, phase: str, bag: Counts, cup: Counts, hand: list[int]) -> list[tuple[Fraction, Counts]]:
    """The cups a test ends with, with their probabilities, from Exchange's phases or the end (by the engine's phase)."""
    if phase == Phase.OVER:
        return [(Fraction(1), cup)]
    if phase == Phase.EXCHANGE:
        pair = solver.full(bag, cup)[1]
        return [(Fraction(1), cup)] if pair is None else solver.exchange_draws(bag, cup, pair)
    if phase == Phase.EXCHANGE_DRAW:
        return solver.exchange_draws(bag, cup, (0,) * len(bag))
    if phase == Phase.EXCHANGE_KEEP:
        return [(Fraction(1), solver.keep_two(cup, hand))]
    raise BadArgument("position", f"stop_now cannot start in phase {phase!r}")
