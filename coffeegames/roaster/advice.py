"""Every choice at a Coffee Roaster decision, with its value from the cup-test solver (docs/rules/roaster.md).

**What ``value`` measures.** The expected score of the cup at the end of the game under
the model of :mod:`.cup`:

* At the stop/continue decision: **Stop** is :func:`~.cup.stop_now` (the cup test played
  optimally, exact within budget, after the best choice of starting flavours on the easy side), **Continue** is :func:`~.round.one_more_round` (one more
  round of plain roasting, then stop: a lower bound of what continuing is worth; with more
  than a dozen possible draws, a stratified sample of six, each solved exactly within budget,
  with its standard error; on the easy side the starting flavours then all go into the bag,
  which keeps it a lower bound at the cost of one solve a draw).
* When the roasting ends on the easy side: each **ReserveToBag** (which starting flavour
  tokens go into the bag; the others stay on the board) is valued by :func:`~.cup.stop_now`
  from the state it leads to, exactly within budget.
* In the cup test: **ToCup / ToTray**, **Keep** (Choice), **Exchange / NoExchange** and
  **KeepTwo** are valued by :func:`~.cup.stop_now` from the state each leads to.
* During a roasting round (effects, Roast, 2 of 5): no value (``None``), Roast listed first; the ``then``
  column says so. (Using a starting flavour token for an effect is one of these.) The engine lists them; the solver does not value effects. Each still
  gets its exact consequence for the coming roast as its ``risk`` (:func:`round_burn`).

Budgets keep a call near a second: beyond them a value is a seeded simulation, an estimate
(its ``sample`` says so) with the solver's message in ``how``.

Each row (an :class:`~coffeegames.engine.Advice`): ``value`` (Fraction or None), ``sample``
(None for an exact value; for an estimate, its standard error, and ``lower`` when the
solver's fallback played part of the cup test), ``risk`` (the chance a drawn bean burns in
the coming roast, no further effects counted: the next round's for Continue, this round's
during a round; else None), the detail ``p_smoke`` (Continue: the chance the next round
draws smoke), ``then`` (what follows, in words), ``how`` (the solver's message) and ``best``.

Example:
    >>> from coffeegames.roaster.game import Game
    >>> from coffeegames.roaster.actions import Drawn, Roast, Shuffled
    >>> s = Game(card="Mexico Altura Oaxaca").new_initial_state()
    >>> s = s.apply(Shuffled(("extra_bean", "sweetness", "choice", "exchange", "tray")))
    >>> s = s.apply(Drawn(("hard",) * 5 + ("moisture", "acidity", "acidity"))).apply(Roast())
    >>> rows = advise(s)
    >>> sorted(row.label for row in rows), sum(row.best for row in rows)
    (['Continue()', 'Stop()'], 1)
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from ..engine.advice import Advice, Sample, ranked
from ..errors import BadArgument
from ..validate import Checker, check_instance
from ..exact import Bag
from .actions import CUP_TEST_PHASES, Continue, Phase, Roast, Stop
from .cup import CupTest, stop_now
from .round import RoundValue, one_more_round
from .odds import draw_table, p_any, p_burn
from .state import State
from .tokens import SMOKE

__all__ = ["CONTINUE_OPTIONS", "CUP_OPTIONS", "CUP_PHASES", "STOP_OPTIONS", "advise", "next_round_risks",
           "round_burn", "valued_round", "valued_stop"]

MEASURES = "the expected score of your cup at the end of the game"
STOP_OPTIONS: dict[str, Any] = {"max_states": 130_000, "samples": 30, "seed": 0}
"""Budget of each :func:`stop_now` call made by :func:`advise`: exact within 130,000 positions (≈ 0.1 s of CPU with the
distribution, what the estimate costs: 16 of the benchmark's 24 decisions), else the fallback's estimate from 30 seeded
cup tests, valued exactly within as many positions once
the rule of thumb has played their first draws. Chosen so a stop/continue refresh stays under 0.3 s of CPU: the
rule of thumb's bias, not the sampling, is most of the estimate's error (30 tests or 60 miss the exact value by 1.0
or 0.95 points on average at the benchmark's positions: benchmarks/README.md, "fourth pass")."""
CONTINUE_OPTIONS: dict[str, Any] = {"max_outcomes": 12, "draws": 6, "max_states": 30_000, "samples": 5, "seed": 0,
                                    "reserve": "bag"}
"""Budget of the :func:`one_more_round` call made by :func:`advise`: 30,000 positions in all for the draws' cup tests
(beyond them the fallback's estimate from 5 seeded tests each: the spread of the sampled draws and the rule of thumb's
bias are the larger errors)."""
CUP_OPTIONS: dict[str, Any] = dict(STOP_OPTIONS, max_states=100_000)
"""Budget of the :func:`stop_now` calls that value the starting flavours' and the cup test's choices: a refresh there
solves two or three small tests, so they keep the larger budget (exact where they were)."""
CUP_PHASES = (Phase.RESERVE, *CUP_TEST_PHASES)
"""The decisions valued by :func:`stop_now` from the state each action leads to: the starting flavours, the cup test's."""


def valued_stop(state: State, exact: bool = False) -> CupTest:
    """:func:`stop_now` from ``state`` with the advice's budget (:data:`STOP_OPTIONS` at the stop/continue decision, else
    :data:`CUP_OPTIONS`; ``exact=True``: none), remembered for the explainer."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    return _valued_stop(state, Checker("", BadArgument).flag(exact, "exact"))


def valued_round(state: State, exact: bool = False) -> RoundValue:
    """:func:`one_more_round` from ``state`` with the advice's budget (:data:`CONTINUE_OPTIONS`; ``exact=True``: every
    draw, no budget), remembered likewise."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    return _valued_round(state, Checker("", BadArgument).flag(exact, "exact"))


@lru_cache(maxsize=8)  # one decision's few actions: a CupTest keeps its solver, so few are kept
def _valued_stop(state: State, exact: bool) -> CupTest:
    if exact:
        return stop_now(state, max_states=None)
    return stop_now(state, **(STOP_OPTIONS if state.phase == Phase.DECIDE else CUP_OPTIONS))


@lru_cache(maxsize=2)
def _valued_round(state: State, exact: bool) -> RoundValue:
    return one_more_round(state, max_outcomes=None, max_states=None) if exact else one_more_round(state, **CONTINUE_OPTIONS)


def next_round_risks(state: State) -> tuple[Fraction, Fraction]:
    """(P(a drawn bean burns), P(smoke is drawn)) for the round that Continue starts (plain roasting)."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    rules = state.rules
    space = state.space + 1
    bag = Counter(state.bag)
    bag[SMOKE] += state.smoke[space]
    draws = rules.draws_at(space)
    b = Bag(dict(bag))
    return p_burn(b, draws, rules.roast_steps(space)), p_any(b, [SMOKE], draws)


def round_burn(state: State, action: Any) -> Fraction:
    """During a round: the chance a bean burns in this round's roast if the player takes ``action`` and then roasts
    with no further effects (+2 tokens and 2 new tokens draw first; Preserve puts beans back; ...).

    >>> from coffeegames.roaster.game import Game
    >>> from coffeegames.roaster.actions import Drawn, Shuffled
    >>> s = Game(card="Mexico Altura Oaxaca").new_initial_state()
    >>> s = s.apply(Shuffled(("extra_bean", "sweetness", "choice", "exchange", "tray")))
    >>> s = s.apply(Drawn(("hard",) * 5 + ("moisture", "acidity", "acidity")))
    >>> round_burn(s, Roast())
    Fraction(0, 1)
    """
    check_instance(state, State, "state", "a Coffee Roaster state")
    after = state if isinstance(action, Roast) else state.apply(action)
    more = after.draw_count if after.phase == Phase.DRAW and after.draw_for in ("plus_two", "new_two") else 0
    table = draw_table(Bag(dict(Counter(after.bag))), more, state.rules.roast_steps(state.space), after.drawn)
    return cast(Fraction, table.loc["P(a bean burns this round)", "value"])


def _row(action: Any, result: CupTest | RoundValue | None = None, then: str = "", p_burn_: Fraction | None = None,
         p_smoke: Fraction | None = None) -> Advice:
    """One action's row; ``result`` is the solver's answer (a CupTest or RoundValue), None when not valued."""
    details = (("p_smoke", p_smoke),) if p_smoke is not None else ()
    if result is None:
        return Advice(action, str(action), then=then, risk=p_burn_, details=details)
    sample = None if result.exact else Sample(None, float("nan") if result.lower else result.stderr, result.lower,
                                              result.message)
    return Advice(action, str(action), result.value, sample, MEASURES, then, result.message, p_burn_, details=details)


def advise(state: State, exact: bool = False) -> list[Advice]:
    """Every legal action at ``state`` once, best first, valued where the solver can (see the module notes).

    ``exact=True`` lifts every budget: each value is exact, Continue weighing every draw of the coming round
    (at the benchmark's positions half a second of CPU at the median, about six at the largest, where the budgeted
    answer takes a tenth or two: benchmarks/README.md)."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    exact = Checker("", BadArgument).flag(exact, "exact")
    rows = []
    if state.phase == Phase.DECIDE:
        for action in state.legal_actions():
            if isinstance(action, Stop):
                now = valued_stop(state, exact)
                rows.append(_row(action, now, "the cup test, played optimally" if now.exact else
                                 "the cup test (simulated fallback play)"))
            elif isinstance(action, Continue):
                more = valued_round(state, exact)
                burn, smoke = next_round_risks(state)
                rows.append(_row(action, more, "one round of plain roasting, then stop (a lower bound)", burn, smoke))
            else:  # pragma: no cover - the decide phase has only these two
                rows.append(_row(action, then="not valued"))
    elif state.phase in CUP_PHASES:
        for action in state.legal_actions():
            rest = valued_stop(state.apply(action), exact)
            rows.append(_row(action, rest, ("the cup test, played optimally" if state.phase == Phase.RESERVE else
                                            "the rest of the cup test, played optimally") if rest.exact else
                             "the rest of the cup test (simulated fallback play)"))
    else:  # Roast first: the move a round usually ends with, so the list offers it first
        for action in sorted(state.legal_actions(), key=lambda a: not isinstance(a, Roast)):
            risk = round_burn(state, action) if state.phase in (Phase.ACT, Phase.REMOVE_TWO) else None
            rows.append(_row(action, then="not valued: the solver values stopping and the cup test, not effects", p_burn_=risk))
    return ranked(rows)
