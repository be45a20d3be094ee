"""The cup test as it is played: where each drawn token goes, draw by draw, and the expected score split into its parts.

:func:`cup_plan` takes a solved cup test (a :class:`~.cup.CupTest`, exact) apart:

* the expected score split into roast points, flavour points, skill points and minus points, each the exact mean of
  that part of the cups the best play makes (:meth:`~.cup.CupTest.part_dist`, the solver's table weighing every cup by
  its chance; each cup's parts as :func:`.scoring.score_cup` gives them): ``roast + flavour + skill - minus`` is the
  expected score exactly;
* the score's distribution;
* the plan for the first draws: the engine's own cup test (:mod:`.cupping`) played from ``start`` by the answer's
  decisions (:meth:`~.cup.CupTest.action`), every draw with its exact chance; at each placement that is a real choice
  (the tray has room), which tokens that may be drawn go on the tray and which into the cup, with the chance of getting
  there. Positions that differ only in the order of the cup's tokens play alike: each is followed once.

Example (stop with eight tokens drawn in the first round):
    >>> from coffeegames.roaster import Drawn, Game, Roast, Shuffled, Stop, stop_now
    >>> s = Game(card="Mexico Altura Oaxaca").new_initial_state()
    >>> s = s.apply(Shuffled(("extra_bean", "sweetness", "choice", "exchange", "tray")))
    >>> s = s.apply(Drawn(("hard",) * 5 + ("moisture", "acidity", "acidity"))).apply(Roast())
    >>> test = stop_now(s)
    >>> plan = cup_plan(test, s.apply(Stop()))
    >>> plan.expected == test.value, sum(p for _, p in plan.dist)
    (True, Fraction(1, 1))
    >>> print(plan.steps[0].text())
    draw 1, cup empty · tray empty (1): tray defect; cup hard, bean0, body, acidity, aroma
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..exact import Dist, check_count
from ..validate import check_instance
from .actions import Phase, ToTray
from .cup import CupTest
from .data import CUP_SPACES
from .scoring import part_values
from .state import State
from .tokens import msort

__all__ = ["CupPlan", "PLAN_DRAWS", "PARTS", "PlanStep", "cup_plan"]

PLAN_DRAWS = 3
"""The draws :func:`cup_plan` lists by default: the first three, where a plan's chances are largest."""
PARTS = ("roast points", "flavour points", "skill points", "minus points")


@dataclass(frozen=True)
class PlanStep:
    """One placement that is a real choice: ``draw`` (1 for the first token drawn in the cup test), the cup and tray
    so far (the cup as a sorted multiset), the chance of getting here, and where each token that may be drawn goes."""

    draw: int
    cup: tuple[str, ...]
    tray: tuple[str, ...]
    chance: Fraction
    to_tray: tuple[str, ...]
    to_cup: tuple[str, ...]

    def text(self) -> str:
        """``'draw 2, cup bean2 · tray 0 (1/3): tray smoke; cup bean2, bean3'``."""
        where = f"cup {' '.join(self.cup) or 'empty'} · tray {' '.join(self.tray) or 'empty'}"
        return (f"draw {self.draw}, {where} ({self.chance}): tray {', '.join(self.to_tray) or '—'}; "
                f"cup {', '.join(self.to_cup) or '—'}")


@dataclass(frozen=True)
class CupPlan:
    """What :func:`cup_plan` finds: the expected parts (name → exact mean: roast, flavour, skill and minus points), the
    distribution of the parts (packed as :func:`.scoring.part_values` reads them → chance), of the score (score →
    chance) and the plan's steps."""

    parts: tuple[tuple[str, Fraction], ...]
    part_dist: Dist
    dist: tuple[tuple[int, Fraction], ...]
    steps: tuple[PlanStep, ...]

    @property
    def expected(self) -> Fraction:
        """The expected score: roast + flavour + skill - minus."""
        roast, flavour, skill, minus = (v for _, v in self.parts)
        return roast + flavour + skill - minus


def _key(state: State) -> tuple[Any, ...]:
    """What the rest of a cup test depends on: the cup as a multiset, the number of tray tokens, the rest as is."""
    return (state.phase, state.bag, msort(state.cup), len(state.tray), state.hand, state.exchanged, state.reserve)


def _order(state: State) -> tuple[bool, int, int]:
    """Positions in the order play reaches them (Exchange once used, then fewer tokens to draw, then more in hand), so
    every way into a position is added up before it is followed."""
    return state.exchanged, -len(state.bag) - len(state.hand), len(state.hand)


def cup_plan(test: CupTest, start: State, draws: int = PLAN_DRAWS) -> CupPlan:
    """``test``'s parts and distribution, and its plan for the next ``draws`` placements from ``start`` (the state
    ``test`` was solved from: after stopping, or in the cup test)."""
    check_instance(test, CupTest, "test", "a CupTest (from stop_now)")
    check_instance(start, State, "start", "a Coffee Roaster state")
    check_count(draws, "draws", maximum=CUP_SPACES + 3)
    part_dist = test.part_dist()
    sums = [Fraction(0)] * 4
    dist: dict[int, Fraction] = {}
    for code, p in part_dist.items():
        parts = part_values(code)
        for i, v in enumerate(parts):
            sums[i] += p * v
        total = parts[0] + parts[1] + parts[2] - parts[3]
        dist[total] = dist.get(total, Fraction(0)) + p
    return CupPlan(tuple(zip(PARTS, sums)), part_dist, tuple(sorted(dist.items(), reverse=True)),
                   _steps(test, start, draws))


def _steps(test: CupTest, start: State, draws: int) -> tuple[PlanStep, ...]:
    """The placements that are real choices among the next ``draws`` placements, as ``test``'s answer plays."""
    placed = len(start.cup) + len(start.tray)
    pending: dict[tuple[Any, ...], tuple[State, Fraction]] = {_key(start): (start, Fraction(1))}
    queue = [(_order(start), 0, _key(start))]
    choices: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[dict[str, str], Fraction]] = {}
    seen = 0
    while queue:
        state, p = pending.pop(heapq.heappop(queue)[2])
        seen += 1
        if state.is_terminal() or len(state.cup) + len(state.tray) - placed >= draws:
            continue
        if state.is_chance():
            nexts = [(state.apply(outcome), p * q) for outcome, q in state.chance_outcomes()]
        else:
            legal = state.legal_actions()
            action = legal[0] if len(legal) == 1 else test.action(state)
            if state.phase == Phase.PLACE and len(legal) > 1:
                where, mass = choices.get((msort(state.cup), msort(state.tray)), ({}, Fraction(0)))
                where[state.hand[0]] = "tray" if isinstance(action, ToTray) else "cup"
                choices[msort(state.cup), msort(state.tray)] = (where, mass + p)
            nexts = [(state.apply(action), p)]
        for after, q in nexts:
            key = _key(after)
            old = pending.get(key)
            if old is None:
                heapq.heappush(queue, (_order(after), seen, key))
            pending[key] = (after, q if old is None else old[1] + q)
    steps = [PlanStep(len(cup) + len(tray) - placed + 1, cup, tray, mass, msort(t for t, a in where.items() if a == "tray"),
                      msort(t for t, a in where.items() if a == "cup"))
             for (cup, tray), (where, mass) in choices.items()]
    return tuple(sorted(steps, key=lambda s: (s.draw, -s.chance, s.cup, s.tray)))
