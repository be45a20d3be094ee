"""Why a VivaJava choice is worth what :func:`~.advice.advise` says: its value taken apart, term by term.

The advice's one-turn model (see :mod:`.advice`) values a choice by what happens before
your next turn. Each breakdown lists those outcomes with their exact chances and values,
adding up to the advised value exactly:

* a Featured Blend: kept until your next turn (1 PP now and its PP then) or beaten (1 PP now);
  the Rainbow Blend and Keep alike; research while you hold the Rainbow: the Rainbow kept or taken;
* a re-roll (Reroll, Keep Rolling, a degrade that re-rolls): the roll, grouped by the best
  choice it offers (:func:`~.advice.roll_groups`);
* research and the other choices whose value comes for sure (the research proxy, an
  activation, an upgrade's best follow-up): one term.

Example (a 2-player opening: a Regular red against the other player's next roll):
    >>> from coffeegames.vivajava import Featured, Game, Rolled, SetupResearch
    >>> s = Game(players=2).new_initial_state().apply(SetupResearch("green"))
    >>> s = s.apply(Rolled(white=("red", "red", "red", "green", "black")))
    >>> b = explain(s, Featured("red", 3))
    >>> [(t.outcome, t.chance, t.value) for t in b.terms]
    [('not beaten before your next turn: 1 PP now + 2 PP then', Fraction(445, 486), Fraction(3, 1)), ('beaten before your next turn: the 1 PP now', Fraction(41, 486), Fraction(1, 1))]
    >>> b.total == b.value == Fraction(688, 243)
    True
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ..engine.advice import advice_of
from ..engine.explain import Breakdown, certain, grouped
from ..errors import BadArgument
from ..validate import Checker, check_instance
from .actions import Featured, Keep, KeepRolling, Phase, Rainbow, Reroll, Research
from .advice import _featured, _rainbow, advise, roll_groups, roll_value
from .dice import Blend
from .outlook import Outlook, rainbow_kept
from .state import State

__all__ = ["explain"]

HOW = "expected PP up to your next turn's scoring (a one-turn model: later turns are not valued)"


def _kept(label: str, value: Fraction, kept: Fraction, now: Fraction, then: Fraction, what: str, lost: str) -> Breakdown:
    """A value ``now + then × kept``: kept until your next turn, or lost before it."""
    terms = grouped([(f"{what}: {now} PP now + {then} PP then" if now else f"{what}: {then} PP then", kept, now + then),
                     (f"{lost}: the {now} PP now" if now else f"{lost}: nothing", 1 - kept, now)])
    return Breakdown(label, value, terms, HOW)


def _rolled(label: str, after: State, how: str) -> Breakdown:
    groups, rolls = roll_groups(after)
    terms = grouped([(f"the best choice is {name}", Fraction(n, rolls), total / n) for name, n, total in groups])
    return Breakdown(label, roll_value(after), terms, f"{HOW}; {how}")


def explain(state: State, action: object) -> Breakdown:
    """``action``'s value at ``state`` (the one :func:`~.advice.advise` gives it), taken apart into exact terms."""
    check_instance(state, State, "state", "a VivaJava state")
    Checker("", BadArgument).one_of(action, "action", state.legal_actions())
    label, o = str(action), Outlook.of(state)
    rules = state.rules
    holds_rainbow = state.rainbow_by == state.turn
    if isinstance(action, Featured):
        value, lost = _featured(o, Blend.of(action.size, action.colour), action.funded)
        back = " (taking it gives the Rainbow back)" if holds_rainbow else ""
        b = _kept(label, value, 1 - lost, Fraction(1), Fraction(rules.featured_pp), "not beaten before your next turn",
                  "beaten before your next turn")
        return replace(b, how=HOW + back)
    if isinstance(action, Rainbow):
        value, lost = _rainbow(o)
        return _kept(label, value, 1 - lost, Fraction(int(not holds_rainbow)), Fraction(rules.rainbow_pp),
                     "not taken before your next turn", "taken before your next turn")
    if isinstance(action, Keep) and state.phase == Phase.KEEP:
        row = advice_of(advise(state), action)
        assert row.value is not None and row.risk is not None
        return _kept(label, row.value, 1 - row.risk, Fraction(0), Fraction(rules.featured_pp),
                     "not beaten before your next turn", "beaten before your next turn")
    if isinstance(action, (Reroll, KeepRolling)):
        return _rolled(label, state.apply(action), "the roll's outcomes grouped by the best choice each offers")
    row = advice_of(advise(state), action)
    if row.value is None:
        return Breakdown(label, None, how="not valued by the advice")
    value, then = row.value, row.then
    after = state.apply(action)
    if state.phase == Phase.DEGRADE and after.phase == Phase.ROLL:
        return _rolled(label, after, "one die left: the roll's outcomes grouped by the best choice each offers")
    if isinstance(action, Research) and holds_rainbow:
        kept = rainbow_kept(o)
        now = value - rules.rainbow_pp * kept
        terms = grouped([(f"the Rainbow not taken: research {now} + {rules.rainbow_pp} PP", kept, now + rules.rainbow_pp),
                         (f"the Rainbow taken: research {now}", 1 - kept, now)])
        return Breakdown(label, value, terms, f"{HOW}; research by its proxy (each RP: its track's PP ÷ its length)")
    proxy = "; research and abilities by the proxy (each RP: its track's PP ÷ its length)"
    return certain(label, value, then or "for sure", HOW + proxy)
