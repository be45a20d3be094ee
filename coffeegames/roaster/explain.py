"""Why a Coffee Roaster choice is worth what :func:`~.advice.advise` says: its value taken apart, term by term.

* **Stop**, the starting flavours and every cup-test choice are valued by the cup-test
  solver (:func:`~.cup.stop_now`): the breakdown is the cup's score distribution, each
  score with its exact chance (or, over budget, its share of the simulated cup tests:
  then the sample is named), and the chances times the scores add up to the value.
  An exact value also comes split into its ``parts`` (expected roast, flavour and skill
  points, minus the expected minus points: they add up to it exactly) and with its
  ``table``: the plan for the next draws, where each token that may be drawn goes
  (:func:`~.cup_plan.cup_plan`).
* **Continue** is :func:`~.round.one_more_round`: each draw of the coming round with its
  exact chance and the cup test's value after it (or, with too many draws, the stratified
  sample of draws, each weighing ``1/draws``, with the estimate's standard error).
* Choices during a roasting round are not valued (the solver does not value effects).

Example (stop now, with eight tokens in the bag):
    >>> from coffeegames.roaster import Drawn, Game, Roast, Shuffled, Stop
    >>> s = Game(card="Mexico Altura Oaxaca").new_initial_state()
    >>> s = s.apply(Shuffled(("extra_bean", "sweetness", "choice", "exchange", "tray")))
    >>> s = s.apply(Drawn(("hard",) * 5 + ("moisture", "acidity", "acidity"))).apply(Roast())
    >>> b = explain(s, Stop())
    >>> b.total == b.value == b.parts_total, b.terms[0].outcome.startswith("the cup scores")
    (True, True)
    >>> [name for name, _ in b.parts]
    ['roast points', 'flavour points', 'skill points', 'minus points']
    >>> b.table[:2]
    (('draw', 'cup so far', 'tray so far', 'chance', 'to the tray', 'into the cup'), ('1', 'empty', 'empty', '1 (100%)', 'defect', 'hard, bean0, body, acidity, aroma'))
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ..engine.advice import Sample
from ..engine.explain import Breakdown, Term, grouped
from ..errors import BadArgument
from ..text import fraction_text
from ..validate import Checker, check_instance
from .actions import Continue, Phase, Stop
from .advice import CONTINUE_OPTIONS, CUP_PHASES, STOP_OPTIONS, valued_round, valued_stop
from .cup import CupTest
from .cup_plan import cup_plan
from .state import State

__all__ = ["explain"]

HOW = "the expected score of your cup at the end of the game"
PLAN_ROWS = 12
"""The most rows of the plan a breakdown lists (the first draws, the likeliest positions of each first)."""
PLAN_HEADINGS = ("draw", "cup so far", "tray so far", "chance", "to the tray", "into the cup")


def _cup(label: str, result: CupTest, how: str, start: State) -> Breakdown:
    """The cup test's breakdown from ``start`` (where ``result`` was solved from): its distribution, and for an exact
    result its parts and the plan's first draws."""
    terms = tuple(Term(f"the cup scores {score}", p, Fraction(score))
                  for score, p in sorted(result.dist.items(), key=lambda sp: -Fraction(sp[0])) if p)
    sample = None if result.exact else Sample(int(STOP_OPTIONS["samples"]), result.stderr, True, result.message)
    found = Breakdown(label, result.value, grouped((t.outcome, t.chance, t.value) for t in terms), f"{HOW}: {how}", sample)
    if not result.exact:
        return found
    plan = cup_plan(result, start)
    parts = tuple((name, -v if name == "minus points" else v) for name, v in plan.parts)
    rows = tuple((str(s.draw), " ".join(s.cup) or "empty", " ".join(s.tray) or "empty", fraction_text(s.chance),
                  ", ".join(s.to_tray) or "—", ", ".join(s.to_cup) or "—") for s in plan.steps[:PLAN_ROWS])
    more = len(plan.steps) - len(rows)
    how = found.how + (f"; the plan lists the first {len(rows)} of {len(plan.steps)} choices of where a token goes"
                       if more else "")
    return replace(found, how=how, parts=parts, table=(PLAN_HEADINGS, *rows) if rows else ())


def explain(state: State, action: object, exact: bool = False) -> Breakdown:
    """``action``'s value at ``state`` (the one :func:`~.advice.advise` gives it, with the same ``exact``), taken apart
    into exact terms."""
    check_instance(state, State, "state", "a Coffee Roaster state")
    check = Checker("", BadArgument)
    check.one_of(action, "action", state.legal_actions())
    exact = check.flag(exact, "exact")
    label = str(action)
    if state.phase == Phase.DECIDE and isinstance(action, Stop):
        return _cup(label, valued_stop(state, exact), "stop now; the cup test played as well as possible", state.apply(action))
    if state.phase == Phase.DECIDE and isinstance(action, Continue):
        more = valued_round(state, exact)
        terms = grouped(more.parts)
        sample = None
        if not more.exact:
            sampled = more.weighed < more.outcomes
            note = (f"{more.weighed} of {more.outcomes:,} possible draws, one from each of {CONTINUE_OPTIONS['draws']} "
                    f"equally likely strata" if sampled else "every draw weighed") + \
                ("; some cup tests simulated by the fallback play" if more.lower else "")
            sample = Sample(more.weighed, more.stderr, more.lower, note)
        return Breakdown(label, more.value, terms,
                         f"{HOW}: one more round of plain roasting, then stop (a lower bound of continuing); "
                         "each draw with the cup test's value after it", sample)
    if state.phase in CUP_PHASES:
        after = state.apply(action)
        return _cup(label, valued_stop(after, exact), "the rest of the cup test played as well as possible", after)
    return Breakdown(label, None, how="not valued: the solver values stopping and the cup test, not a roasting round's effects")
