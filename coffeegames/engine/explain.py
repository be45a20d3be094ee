"""Why a choice is worth its value: the chance outcomes that follow it, each with its exact chance and value.

An adviser (a game's ``advise``) values each legal action. This module says *why*: a
:class:`Breakdown` of one action's value into :class:`Term` s, the outcomes that follow
the action grouped by what they lead to ("bust", "2 sets locked, then stop"), each with
its exact chance and the value from there, so that

    value = Σ chance × value-from-there      (exactly, as Fractions)

and the terms' chances sum to 1. A certain value is one term of chance 1. An estimated
value says which sample it rests on (:class:`~.advice.Sample`: its size and standard error) and its
terms are the sample's parts, whose weighted sum is the estimate exactly.
:func:`why` compares the chosen action with the best other one (the runner-up when the
chosen action is the best) in one plain sentence.

**The interface a game implements** (optional): ``explain(state, action) -> Breakdown``,
exported from its package beside ``advise``, whose ``value`` is the value ``advise`` gives
that action. A game without one gets :func:`advice_explainer`, built on its ``advise``
alone: the action's next chance node (if it is small), each outcome valued by ``advise``
at the decision it leads to; when those do not add up to the advised value (the adviser
looks further ahead than one chance node), the breakdown is the advised value alone, said
so honestly. :func:`explainer_for` picks the one a game package offers.

Example (roll a die, keep it or reroll once; values by exact expectimax):
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> from coffeegames.engine.examples import Reroll
    >>> explain = solver_explainer()
    >>> b = explain(KeepOrReroll(die=3), Reroll())
    >>> b.value, b.total == b.value, [(t.outcome, t.chance, t.value) for t in b.terms][:2]
    (Fraction(7, 2), True, [('rolls 1', Fraction(1, 6), Fraction(1, 1)), ('rolls 2', Fraction(1, 6), Fraction(2, 1))])
    >>> print(b.equation())
    1/6 × 1 + 1/6 × 2 + 1/6 × 3 + 1/6 × 4 + 1/6 × 5 + 1/6 × 6 = 7/2 ≈ 3.50
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import ModuleType
from typing import Any

from ..errors import BadArgument, BadType
from ..text import fraction_text, mean_text, percent
from ..validate import Checker, check_count, check_instance
from .advice import Advice, Advisor, Sample, advice_of, remembered
from .solve import Expectimax
from .state import Action, State

__all__ = [
    "Breakdown",
    "Explainer",
    "MAX_OUTCOMES",
    "MAX_TERMS",
    "Term",
    "Why",
    "advice_explainer",
    "certain",
    "explainer_for",
    "grouped",
    "number_text",
    "solver_explainer",
    "why",
]

MAX_TERMS = 8
"""The most terms a breakdown lists; smaller groups beyond them merge into one "other outcomes" term (exactly)."""
MAX_OUTCOMES = 64
"""The largest chance node :func:`advice_explainer` lists; beyond it the advised value is shown alone."""


def number_text(value: Fraction) -> str:
    """A value in a sum: whole as is, else its short fraction, else a decimal: ``'-5'``, ``'103/6'``, ``'≈ 17.17'``."""
    check_instance(value, (int, Fraction), "value", "an exact number (an int or a Fraction)")
    value = Fraction(value)
    if value.denominator == 1:
        return str(value)
    text = str(value)
    return text if len(text) <= 9 else f"≈ {float(value):.2f}"


def _factor(value: Fraction) -> str:
    text = number_text(value)
    return f"({text})" if text.startswith(("-", "≈")) else text


@dataclass(frozen=True)
class Term:
    """Outcomes that lead to one thing: their total exact ``chance`` and the (mean) ``value`` from there."""

    outcome: str
    """What these outcomes lead to, in words (``"bust"``, ``"2 sets locked, 3 dice left: roll on"``)."""
    chance: Fraction
    value: Fraction

    def text(self) -> str:
        """``'bust: 11/12 (91.7%) → -5'``."""
        return f"{self.outcome}: {fraction_text(self.chance)} → {mean_text(self.value)}"


@dataclass(frozen=True)
class Breakdown:
    """One action's value, taken apart: ``value = Σ term.chance × term.value`` (exactly) when valued.

    ``value`` is None for an action the adviser does not value (then ``how`` says why and there are no terms).
    """

    label: str
    value: Fraction | None
    terms: tuple[Term, ...] = ()
    how: str = ""
    """What the value measures and how it is made up, in one line."""
    sample: Sample | None = None
    """The sample behind an estimate; None for an exact value."""
    parts: tuple[tuple[str, Fraction], ...] = ()
    """The value as a sum of named parts (a penalty negative), each an exact mean over the same outcomes as the terms:
    ``Σ part = value`` exactly; () when the game does not split it."""
    table: tuple[tuple[str, ...], ...] = ()
    """A small table of how the value comes about (a plan, draw by draw), its first row the headings; () for none."""

    @property
    def parts_total(self) -> Fraction:
        """The parts' sum (equal to ``value`` whenever there are parts)."""
        return sum((v for _, v in self.parts), Fraction(0))

    @property
    def total(self) -> Fraction:
        """The terms' weighted sum (equal to ``value`` for every valued breakdown)."""
        return sum((t.chance * t.value for t in self.terms), Fraction(0))

    @property
    def exact(self) -> bool:
        return self.sample is None

    @property
    def certain(self) -> bool:
        """One outcome only: the value comes for sure."""
        return len(self.terms) == 1 and self.terms[0].chance == 1

    def equation(self) -> str:
        """The weighted sum written out: ``'11/12 × (-5) + 1/12 × 31 = -2'``."""
        if self.value is None:
            return ""
        sides = " + ".join(f"{t.chance} × {_factor(t.value)}" if len(str(t.chance)) <= 13 else
                           f"{percent(t.chance)} × {_factor(t.value)}" for t in self.terms)
        return f"{sides} = {mean_text(self.value)}"


Explainer = Callable[[Any, Any], Breakdown]
"""``explain(state, action) -> Breakdown``: one action's value at a decision, taken apart."""


def certain(label: str, value: Fraction, outcome: str, how: str = "") -> Breakdown:
    """A value that comes for sure: one term of chance 1.

    >>> certain("Stop()", Fraction(20), "bank 2 sets").equation()
    '1 × 20 = 20'
    """
    return Breakdown(label, value, (Term(outcome, Fraction(1), value),), how)


def grouped(parts: Iterable[tuple[str, Fraction, Fraction]], keep: int = MAX_TERMS) -> tuple[Term, ...]:
    """Terms from ``(outcome words, chance, value)`` parts: equal words merged (chance added, value averaged by chance,
    exactly), the likeliest first; beyond ``keep`` groups the rest become one ``"other outcomes"`` term.

    >>> [(t.outcome, t.chance, t.value) for t in grouped([("bust", Fraction(1, 2), Fraction(-5)),
    ...     ("a set", Fraction(1, 4), Fraction(10)), ("bust", Fraction(1, 4), Fraction(-5))])]
    [('bust', Fraction(3, 4), Fraction(-5, 1)), ('a set', Fraction(1, 4), Fraction(10, 1))]
    """
    parts = _parts(parts)
    check_count(keep, "keep")
    if keep < 1:
        raise BadArgument("keep", "must be 1 or more (the most terms listed)", keep)
    mass: dict[str, Fraction] = {}
    weight: dict[str, Fraction] = {}
    for outcome, chance, value in parts:
        mass[outcome] = mass.get(outcome, Fraction(0)) + chance
        weight[outcome] = weight.get(outcome, Fraction(0)) + chance * value
    order = sorted((o for o in mass if mass[o]), key=lambda o: -mass[o])
    head, tail = order[: keep - 1] if len(order) > keep else order, order[keep - 1:] if len(order) > keep else []
    terms = [Term(o, mass[o], weight[o] / mass[o]) for o in head]
    if tail:
        rest = sum((mass[o] for o in tail), Fraction(0))
        terms.append(Term(f"other outcomes ({len(tail)} kinds)", rest, sum((weight[o] for o in tail), Fraction(0)) / rest))
    return tuple(terms)


def _parts(parts: Any) -> list[tuple[str, Fraction, Fraction]]:
    """``parts`` of :func:`grouped` as a list, each an (outcome words, exact chance, exact value); else the library's error."""
    check = Checker("", BadArgument)
    if isinstance(parts, (str, bytes, dict)) or not isinstance(parts, Iterable):
        raise check.error("parts", "must be a list of (outcome words, chance, value) triples", parts)
    out = []
    for i, part in enumerate(parts):
        check.need(isinstance(part, tuple) and len(part) == 3, f"parts[{i}]", "must be an (outcome words, chance, value) triple", part)
        outcome, chance, value = part
        check.text(outcome, f"parts[{i}]")
        check.need(_exact(chance) and 0 <= chance <= 1, f"parts[{i}]", "must have an exact chance 0-1 (an int or Fraction)", chance)
        check.need(_exact(value), f"parts[{i}]", "must have an exact value (an int or Fraction)", value)
        out.append((outcome, Fraction(chance), Fraction(value)))
    return out


def _exact(value: Any) -> bool:  # an int (not a bool) or a Fraction
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


def _outcome_words(outcome: object) -> str:
    return f"rolls {outcome}" if isinstance(outcome, int) else str(outcome)


def solver_explainer(solver: Expectimax | None = None) -> Explainer:
    """The explainer of :func:`~coffeegames.engine.advice.solver_advice`: the action's next chance node, each
    outcome valued by exact expectimax (for games small enough to solve whole)."""
    solver = solver or Expectimax()

    def explain(state: State, action: Action) -> Breakdown:
        player = state.current_player()
        value = solver.value(state.apply(action))[player]
        after = state.apply(action)
        how = "the expected return under optimal play afterwards"
        if not after.is_chance():
            return certain(str(action), value, "what follows, played optimally", how)
        parts = [(_outcome_words(o), p, solver.value(after.apply(o))[player]) for o, p in after.chance_outcomes()]
        return Breakdown(str(action), value, grouped(parts), how)

    return explain


def _best(rows: Sequence[Advice]) -> Fraction | None:
    return max((row.value for row in rows if row.value is not None), default=None)


def advice_explainer(advise: Advisor, max_outcomes: int = MAX_OUTCOMES) -> Explainer:
    """An explainer for any game from its ``advise`` alone (the fallback for a game with no ``explain`` of its own).

    The action's value is the one ``advise`` gives. If the action leads (for the same player) straight to a
    decision, or to a chance node of at most ``max_outcomes`` outcomes each leading to one, and the best
    advised value there (averaged over the outcomes with their exact chances) is that value exactly, the
    outcomes are the terms. Otherwise the adviser looks further ahead than that, and the breakdown is the
    advised value alone, saying so. Answers of ``advise`` are remembered (:func:`~.advice.remembered`): pass the
    view's remembered adviser, and a decision is advised once for the list and the panel.

    >>> from coffeegames.engine.examples import KeepOrReroll, Reroll
    >>> from coffeegames.engine.advice import solver_advice
    >>> b = advice_explainer(solver_advice())(KeepOrReroll(die=3), Reroll())
    >>> b.value, b.total, len(b.terms)
    (Fraction(7, 2), Fraction(7, 2), 6)
    """
    advised = remembered(advise, 4 * check_count(max_outcomes, "max_outcomes"))

    def value_at(state: State, player: int) -> Fraction | None:
        if state.is_terminal():
            return Fraction(state.returns()[player])
        if state.is_chance() or state.current_player() != player:
            return None
        return _best(advised(state))

    def explain(state: State, action: Action) -> Breakdown:
        row = advice_of(advised(state), action)
        value, label, sample = row.value, row.label, row.sample
        if value is None:
            return Breakdown(label, None, how=row.then or "the advice gives this choice no value")
        player, after = state.current_player(), state.apply(action)
        whole = "the sample's mean (not taken apart: it is no sum over one chance node)" if sample is not None else \
            "the advised value (its model looks further ahead than the next chance)"
        alone = Breakdown(label, value, (Term(whole, Fraction(1), value),), "as the advice values it", sample)
        if sample is not None:  # an estimate is not an exact sum over the next chance node: never expand it
            return alone
        if after.is_chance():
            if after.chance_outcome_count() > max_outcomes:
                return alone
            parts = []
            for outcome, p in after.chance_outcomes():
                v = value_at(after.apply(outcome), player)
                if v is None:
                    return alone
                parts.append((_outcome_words(outcome), p, v))
            terms = grouped(parts)
        else:
            v = value_at(after, player)
            if v is None:
                return alone
            terms = (Term("what follows, played as advised", Fraction(1), v),)
        found = Breakdown(label, value, terms, "the best advised value after each outcome", sample)
        return found if found.total == value else alone

    return explain


def explainer_for(package: ModuleType) -> Explainer:
    """The explainer a game package offers (its ``explain``), else :func:`advice_explainer` over its ``advise``.

    >>> import coffeegames
    >>> explainer_for(coffeegames.games()["dairyman"].module).__module__
    'coffeegames.dairyman.explain'
    """
    if not callable(getattr(package, "explain", None)) and not callable(getattr(package, "advise", None)):
        raise BadType("package", "must be a game package (offering explain or advise, e.g. coffeegames.dairyman)", package)
    own = getattr(package, "explain", None)
    return own if callable(own) else advice_explainer(package.advise)


@dataclass(frozen=True)
class Why:
    """The chosen action's breakdown, the best other one's, and their difference in one sentence."""

    chosen: Breakdown
    other: Breakdown | None
    """The runner-up when the chosen action is the best; else the best."""
    difference: str
    other_role: str = ""
    """``"the runner-up"`` or ``"the best choice"``."""


def _amount(b: Breakdown, value: Fraction) -> str:
    """A value in the sentence: exact as a short fraction, an estimate as a decimal ± its standard error."""
    return b.sample.value_short(value) if b.sample is not None else number_text(value)


def _stderr(b: Breakdown) -> float:
    return b.sample.stderr if b.sample is not None and not b.sample.lower else 0.0


def _gap(chosen: Breakdown, other: Breakdown, diff: Fraction) -> str:
    """The difference of two values: exact, or about so much ± the standard error of a difference of estimates."""
    if chosen.sample is None and other.sample is None:
        return mean_text(diff)
    se = (_stderr(chosen) ** 2 + _stderr(other) ** 2) ** 0.5
    return f"about {float(diff):.2f}" + (f" ± {se:.2f}" if se and se == se else "")


def _noise(chosen: Breakdown, other: Breakdown, diff: Fraction) -> str:
    """Where estimates differ by less than two standard errors of their difference: more samples could reverse them."""
    se = (_stderr(chosen) ** 2 + _stderr(other) ** 2) ** 0.5
    sample = chosen.sample or other.sample
    if sample is None or not (se == se and float(diff) < 2 * se):
        return ""
    return f"; the gap is within two standard errors, so more {sample.unit} could reverse the order"


def _gamble(b: Breakdown) -> str:
    worst = min(b.terms, key=lambda t: t.value)
    return f"{b.label} depends on chance (at worst {worst.outcome}: {mean_text(worst.value)}, chance {percent(worst.chance)})"


def why(state: Any, advice: Sequence[Advice], explain: Explainer, action: Any = None,
        describe: Callable[[Any], str] | None = None) -> Why | None:
    """Why ``action`` (default: the best valued one of ``advice``) is worth its value, beside the best other choice.

    ``advice`` is the adviser's rows at ``state`` (a list of :class:`~.advice.Advice`). None if it is empty.
    ``describe`` names the actions in the breakdowns and the sentence (default: their ``label``).

    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> from coffeegames.engine.advice import solver_advice
    >>> w = why(KeepOrReroll(die=3), solver_advice()(KeepOrReroll(die=3)), solver_explainer())
    >>> w.chosen.label, w.other.label
    ('Reroll()', 'Keep()')
    >>> w.difference
    'Reroll() (7/2) is worth 1/2 ≈ 0.50 more than the runner-up, Keep() (3); Keep() is certain, Reroll() depends on chance (at worst rolls 1: 1, chance 16.7%).'
    """
    if isinstance(advice, (str, bytes)) or not isinstance(advice, Sequence) or not all(isinstance(r, Advice) for r in advice):
        raise BadType("advice", "must be the adviser's rows: a list of Advice", advice)
    if not callable(explain):
        raise BadType("explain", "must be an explainer: a function (state, action) -> Breakdown", explain)
    if describe is not None and not callable(describe):
        raise BadType("describe", "must be a function naming an action, or None", describe)
    if not advice:
        return None
    if action is not None and not any(r.action == action for r in advice):
        raise BadArgument("action", "must be one of the advice's choices here (an action of its rows), or None", action)
    valued = sorted((r for r in advice if r.value is not None), key=lambda r: -(r.value or 0))
    if action is None:
        action = (valued or list(advice))[0].action

    def named(b: Breakdown, a: Any) -> Breakdown:
        return replace(b, label=describe(a)) if describe is not None else b

    chosen = named(explain(state, action), action)
    if chosen.value is None or not valued:
        return Why(chosen, None, "")
    others = [r for r in valued if r.action != action]
    if not others:
        return Why(chosen, None, f"{chosen.label} is the only choice with a value here.")
    other = named(explain(state, others[0].action), others[0].action)
    assert other.value is not None
    diff = chosen.value - other.value
    a, b = f"{chosen.label} ({_amount(chosen, chosen.value)})", f"{other.label} ({_amount(other, other.value)})"
    role = "the best choice" if diff < 0 or (diff == 0 and valued[0].action != action) else "the runner-up"
    gap = _gap(chosen, other, abs(diff))
    if diff == 0:
        sentence = f"{chosen.label} and {other.label} are worth the same, {_amount(chosen, chosen.value)}"
    elif diff > 0:
        sentence = f"{a} is worth {gap} more than the runner-up, {b}"
    else:
        sentence = f"{a} is worth {gap} less than the best choice, {b}"
    if chosen.sample is not None or other.sample is not None:
        return Why(chosen, other, sentence + _noise(chosen, other, abs(diff)) + ".", role)
    if chosen.certain != other.certain:
        sure, risky = (chosen, other) if chosen.certain else (other, chosen)
        sentence += f"; {sure.label} is certain, {_gamble(risky)}"
    return Why(chosen, other, sentence + ".", role)

