"""Exact optimal play of one Dairyman turn, by backward induction (dynamic programming).

The plain turn (docs/rules/dairyman.md, "A turn", with identical dice, no ice and no abilities):
roll all dice; lock one or more disjoint sets (or bust: the sets locked this turn are
lost and the turn scores ``-bust_cost``); then stop and score ``payoff[s]`` for the ``s``
sets locked, or roll the dice still unlocked. Two numbers describe a position: the dice
left ``d`` and the sets locked ``s``. Which dice showed which values no longer matters
once the lock is made, so the whole turn is a small table of values:

    stop(d, s) = payoff[s]
    roll(d, s) = Σ over rolls r of d dice  P(r) × (−bust_cost            if r has no set
                                                max over locks of best(d − u, s + t) otherwise)
    best(d, s) = max(stop(d, s), roll(d, s))

where a lock takes ``t`` sets using ``u`` dice. Rolls are counted as multisets, and
rolls offering the same (t, u) choices are grouped, so 2..12 dice solve in well under a
second.

**What a stopped turn scores.** The payoff table (:mod:`.payoff`) gives the points for
0, 1, 2, … sets. ``points_per_set`` is the linear shorthand (``payoff[s] = points_per_set
× s``); the game's own worth is what the sets buy from the face-up tiles,
``payoff=display_payoff(display)``, which is lumpy, and the stopping rule moves with it.
**Defaults** are the game's own numbers: :data:`POINTS_PER_SET` (10, a set's barn value)
and :data:`BUST_COST` (5, the backorder token a bust costs at the end); the CLI and the
policy explorer use the same two constants.

Which rules it models: the sets, the barns' total and the bust only. It has no yellow
die, no ice and no abilities, so none of the optional actions: no freeze, no
flip (option ``flip_after_order`` changes nothing here: a flip changes the score, not the
sets), no ice-cream reroll. A roll with no set is a bust at once, as under option
``optional_actions_before_bust=False`` or for a player with no ice-cream tile and no
flip to make; with the option on, a player who can try an ice-cream reroll does at least
as well as this value. :func:`~coffeegames.dairyman.advise` adds what it can value exactly,
and :mod:`.whole_turn` puts freezing and the ice-cream rerolls inside the recursion.

Example:
    >>> turn = optimal_turn(dice=4, points_per_set=1, bust_cost=0)
    >>> turn.value          # expected sets locked from 4 dice under optimal play
    Fraction(145, 216)
    >>> turn.should_roll(dice_left=2, sets_locked=1)
    False
    >>> from coffeegames.dairyman import display_payoff
    >>> round(float(optimal_turn(8).value), 2), round(float(optimal_turn(8, payoff=display_payoff([10, 40, 40])).value), 2)
    (22.72, 9.82)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from ..errors import BadArgument, BadType, TooBig
from ..exact import check_count
from ..validate import cached
from .payoff import DisplayPayoff, Payoff, exact_points, linear_payoff, payoff_table, payoff_text
from .sets import (MAX_DICE, check_counts, check_roll, counts_of, pack, packed_choices, packed_count_vectors,
                   packed_lock_classes, packed_lock_masks, packings)

POINTS_PER_SET = 10
"""Default points a set scores: its barn value (option ``set_value``)."""
BUST_COST = 5
"""Default cost of a bust: the backorder token it takes costs 5 points at the end (option ``backorder_penalty``)."""

PayoffArg = Sequence[Fraction | int] | Mapping[int, Fraction | int] | DisplayPayoff
"""What ``payoff=`` accepts: points for 0, 1, 2, … sets (see :func:`~.payoff.payoff_table`)."""

Choice = tuple[int, int]
"""A lock as (sets taken, dice used)."""


def lock_choices(counts: tuple[int, ...]) -> frozenset[Choice]:
    """Every (sets, dice used) that some non-empty lock from these dice achieves.

    >>> sorted(lock_choices(counts_of([4, 6, 5, 5])))
    [(1, 2), (2, 4)]
    """
    counts = check_counts(counts)
    dice = sum(counts)
    if dice > MAX_DICE:
        raise TooBig("counts", f"hold {dice} dice; Dairyman has at most {MAX_DICE}", counts)
    return _choice_set(packed_lock_masks(dice)[pack(counts)])


@lru_cache(maxsize=None)
def _choice_set(mask: int) -> frozenset[Choice]:
    return frozenset(packed_choices(mask))


@cached(maxsize=None)
def roll_classes(dice: int) -> tuple[tuple[frozenset[Choice], int], ...]:
    """The rolls of ``dice`` dice grouped by the lock choices they offer, with weights (sum 6**dice).

    The groups come from :func:`~.sets.packed_lock_classes` (packed count vectors and
    bit masks of choices: the solver's fast path).
    """
    return tuple((_choice_set(mask), w) for mask, w in packed_lock_classes(check_count(dice, "dice", MAX_DICE)))


# A lock rule picks one (sets, dice) choice from those a roll offers; a stop rule says
# whether to stop with (dice_left, sets_locked).
LockRule = Callable[[frozenset[Choice]], Choice]
StopRule = Callable[[int, int], bool]


def lock_most_dice(choices: frozenset[Choice]) -> Choice:
    """Lock as many dice as possible (then as many sets)."""
    if not isinstance(choices, Collection) or isinstance(choices, (str, bytes)) or not choices or not all(
            isinstance(c, tuple) and len(c) == 2 for c in choices):
        raise BadType("choices", "must be a non-empty set of choices (sets, dice) as roll_classes lists them", choices)
    return max(choices, key=lambda c: (c[1], c[0]))


@dataclass(frozen=True)
class LockDecision:
    """One lock from a roll, what to do after it ("roll" or "stop"), and its exact value."""

    sets: tuple[tuple[int, ...], ...]
    dice_left: int
    sets_locked: int
    stop_value: Fraction
    roll_value: Fraction | None
    then: str
    value: Fraction

    @property
    def label(self) -> str:
        return " ".join("+".join(map(str, x)) for x in self.sets)


@dataclass
class TurnSolution:
    """The exact values of a turn under optimal play. Build it with :func:`optimal_turn`."""

    dice: int
    payoff: Payoff
    """Points a stopped turn scores for 0..6 sets locked."""
    bust_cost: Fraction
    points_per_set: Fraction | None = None
    """The points a set scores when the payoff is linear (``points_per_set=``); None for a payoff table."""
    _best: dict[tuple[int, int], Fraction] = field(default_factory=dict, repr=False)
    _roll: dict[tuple[int, int], Fraction] = field(default_factory=dict, repr=False)

    @property
    def value(self) -> Fraction:
        """Expected score of the whole turn (the first roll is compulsory)."""
        return self.roll_value(self.dice, 0)

    def _check_position(self, dice_left: int, sets_locked: int) -> None:
        """Refuse a position no Dairyman turn reaches (at most 12 dice, so at most 6 sets; whole numbers only).

        Not bounded by this turn's own ``dice``: advice asks about positions with red dice added."""
        check_count(dice_left, "dice_left", MAX_DICE)
        check_count(sets_locked, "sets_locked", MAX_DICE // 2)

    def stop_value(self, dice_left: int, sets_locked: int) -> Fraction:
        """What stopping now scores: ``payoff[sets_locked]``."""
        self._check_position(dice_left, sets_locked)
        return self.payoff[sets_locked]

    def roll_value(self, dice_left: int, sets_locked: int) -> Fraction:
        """Expected score if you roll the ``dice_left`` dice now and play on optimally."""
        key = (dice_left, sets_locked)
        if key not in self._roll:
            total = sum(w * self._after(packed_choices(m), dice_left, sets_locked) for m, w in packed_lock_classes(dice_left))
            self._roll[key] = total / 6**dice_left
        return self._roll[key]

    def _after(self, choices: Collection[Choice], dice_left: int, sets_locked: int) -> Fraction:
        """The value of a roll offering these lock choices: the best lock, or the bust."""
        if not choices:
            return -self.bust_cost
        return max(self.best_value(dice_left - u, sets_locked + t) for t, u in choices)

    def roll_value_kept(self, dice_left: int, sets_locked: int, kept: Sequence[int] = ()) -> Fraction:
        """Like :meth:`roll_value`, but the ``kept`` dice (frozen, or spared by an ice-cream
        reroll) keep their values while the other ``dice_left - len(kept)`` dice roll.

        >>> turn = optimal_turn(8)
        >>> turn.roll_value_kept(3, 1, kept=[5]) > turn.roll_value(3, 1)   # a kept 5 helps
        True
        """
        kept_dice = check_roll(kept, "kept dice")
        rolling = dice_left - len(kept_dice)
        if rolling < 0:
            raise BadArgument("kept", f"{len(kept)} kept dice but only {dice_left} dice left", kept)
        if not kept_dice:
            return self.roll_value(dice_left, sets_locked)
        masks, k = packed_lock_masks(dice_left), pack(counts_of(kept_dice))
        total = sum(w * self._after(packed_choices(masks[x + k]), dice_left, sets_locked) for x, w in packed_count_vectors(rolling))
        return Fraction(total, 6**rolling)

    def best_value(self, dice_left: int, sets_locked: int) -> Fraction:
        """Expected score from here under optimal play: the better of stopping and rolling."""
        key = (dice_left, sets_locked)
        if key not in self._best:
            stop = self.stop_value(dice_left, sets_locked)
            self._best[key] = stop if dice_left == 0 else max(stop, self.roll_value(dice_left, sets_locked))
        return self._best[key]

    def should_roll(self, dice_left: int, sets_locked: int) -> bool:
        """True if rolling is strictly better than stopping (ties stop)."""
        self._check_position(dice_left, sets_locked)
        return dice_left > 0 and self.roll_value(dice_left, sets_locked) > self.stop_value(dice_left, sets_locked)

    def decisions(self, roll: Sequence[int], sets_locked: int = 0) -> list[LockDecision]:
        """Every lock from ``roll`` with what to do after it and its exact value, best first."""
        dice = check_roll(roll)
        self._check_position(len(dice), sets_locked)
        found = []
        for sets in packings(counts_of(dice)):
            if sets:
                d, s = len(dice) - sum(map(len, sets)), sets_locked + len(sets)
                then = "roll" if self.should_roll(d, s) else "stop"
                found.append(LockDecision(sets, d, s, self.stop_value(d, s), self.roll_value(d, s) if d else None, then, self.best_value(d, s)))
        found.sort(key=lambda x: -x.value)
        return found

    def choices(self, roll: Sequence[int], sets_locked: int = 0) -> pd.DataFrame:
        """:meth:`decisions` as a DataFrame; ``best`` marks the optimal rows. Empty if the roll busts."""
        columns = ["sets", "dice_left", "sets_locked", "stop_value", "roll_value", "then", "value"]
        rows = [{**{c: getattr(x, c) for c in columns}, "sets": x.label} for x in self.decisions(roll, sets_locked)]
        frame = pd.DataFrame(rows, columns=columns)
        frame["best"] = frame["value"] == frame["value"].max() if rows else []
        return frame

    def best_lock(self, roll: Sequence[int], sets_locked: int = 0) -> tuple[tuple[tuple[int, ...], ...], str] | None:
        """The optimal lock for ``roll`` as (sets, "roll" or "stop"); None if the roll busts.

        >>> optimal_turn(8).best_lock([4, 6, 5, 5, 1, 3, 2, 2])
        (((4, 6),), 'roll')
        """
        found = self.decisions(roll, sets_locked)
        return (found[0].sets, found[0].then) if found else None

    def simulate(self, turns: int, seed: int | None = 0) -> np.ndarray:
        """Scores of ``turns`` seeded turns played with the optimal policy (floats), to set beside :attr:`value`."""
        rng = np.random.default_rng(seed)
        scores = np.empty(turns)
        for i in range(turns):
            dice, sets, score = self.dice, 0, None
            while score is None:
                best = self.best_lock(rng.integers(1, 7, size=dice).tolist(), sets)
                if best is None:
                    score = -self.bust_cost
                else:
                    dice, sets = dice - sum(map(len, best[0])), sets + len(best[0])
                    score = self.payoff[sets] if best[1] == "stop" else None
            scores[i] = float(score)
        return scores

    def reachable(self, dice_left: int, sets_locked: int) -> bool:
        """Whether a turn can be at (dice left, sets locked) after a lock: s sets use 2s to 3s dice."""
        used = self.dice - dice_left
        return sets_locked >= 1 and 2 * sets_locked <= used <= 3 * sets_locked

    def policy_table(self) -> pd.DataFrame:
        """"roll" or "stop" for each (dice left, sets locked) that a turn can reach ("" where it cannot).

        With no dice left a turn always stops, so rows start at one die left.
        """
        rows = {
            d: {s: ("roll" if self.should_roll(d, s) else "stop") if self.reachable(d, s) else "" for s in range(1, self.dice // 2 + 1)}
            for d in range(1, self.dice - 1)
        }
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame = frame.loc[:, (frame != "").any()]
        frame.index.name, frame.columns.name = "dice left", "sets locked"
        return frame

    def evaluate(self, lock_rule: LockRule = lock_most_dice, stop_rule: StopRule = lambda d, s: False) -> Fraction:
        """Exact expected score of a simple policy under the same scoring."""
        return evaluate_turn(self.dice, lock_rule, stop_rule, bust_cost=self.bust_cost, payoff=self.payoff)

    @property
    def assumptions(self) -> str:
        """The scoring this solution assumes, in words (shown beside every answer that depends on it).

        >>> optimal_turn(8).assumptions
        'a stopped turn scores 10 points a set; a bust scores -5'
        """
        return f"a stopped turn scores {payoff_text(self.payoff)}; a bust scores {-self.bust_cost}"


def scoring(
    points_per_set: Fraction | int | None = None, bust_cost: Fraction | int = BUST_COST, payoff: PayoffArg | None = None
) -> tuple[Payoff, Fraction, Fraction | None]:
    """(payoff table, bust cost, points per set or None for a table) from the scoring arguments, checked.

    >>> scoring(payoff=[0, 10, 10])[0][:4], scoring()[1:]
    ((Fraction(0, 1), Fraction(10, 1), Fraction(10, 1), Fraction(10, 1)), (Fraction(5, 1), Fraction(10, 1)))
    """
    if payoff is not None and points_per_set is not None:
        raise BadArgument("payoff", "give either payoff (a table) or points_per_set (its linear shorthand), not both", payoff)
    cost = exact_points(bust_cost, "bust_cost")
    if payoff is not None:
        return payoff_table(payoff), cost, None
    table = linear_payoff(POINTS_PER_SET if points_per_set is None else points_per_set)
    return table, cost, table[1]


def _check_turn(
    dice: int, points_per_set: Fraction | int | None, bust_cost: Fraction | int, payoff: PayoffArg | None
) -> tuple[int, Payoff, Fraction, Fraction | None]:
    """(dice, payoff table, bust cost, points per set or None) from the arguments, checked."""
    check_count(dice, "number of dice", maximum=MAX_DICE)
    return (dice, *scoring(points_per_set, bust_cost, payoff))


def optimal_turn(
    dice: int = 8,
    points_per_set: Fraction | int | None = None,
    bust_cost: Fraction | int = BUST_COST,
    *,
    payoff: PayoffArg | None = None,
) -> TurnSolution:
    """Solve one turn exactly.

    Args:
        dice: dice rolled at the start (8 dairy dice plus one red die per backorder token).
        points_per_set: what each locked set scores, the linear shorthand (default
            :data:`POINTS_PER_SET`, 10, its barn value; 1 counts sets).
        bust_cost: what a bust costs on top of losing the turn's sets (default
            :data:`BUST_COST`, 5, the backorder token's −5 at the end).
        payoff: instead of ``points_per_set``, the points a stopped turn scores for 0, 1,
            2, … sets: a sequence, a mapping ``{sets: points}``, or
            :func:`~.payoff.display_payoff` (the tiles the sets buy from a display).

    Barn value buys milk tiles and a backorder token costs victory points, so the
    defaults treat a point of barn value as a victory point; ``payoff=display_payoff(…)``
    counts the tiles actually bought instead.
    The turn is the plain one (module docstring): no freezes, flips or ice cream, so the
    options ``flip_after_order`` and ``optional_actions_before_bust`` do not enter it.

    >>> optimal_turn(dice=8).value > 10
    True
    >>> optimal_turn(12).should_roll(dice_left=4, sets_locked=3)   # 10 a set: keep 30
    False
    >>> optimal_turn(12, payoff=[0, 10, 10, 10, 40, 50]).should_roll(dice_left=4, sets_locked=3)   # 3 sets buy 10: go for the 40
    True
    """
    dice, table, cost, pps = _check_turn(dice, points_per_set, bust_cost, payoff)
    return TurnSolution(dice, table, cost, pps)


def evaluate_turn(
    dice: int,
    lock_rule: LockRule = lock_most_dice,
    stop_rule: StopRule = lambda d, s: False,
    points_per_set: Fraction | int | None = None,
    bust_cost: Fraction | int = BUST_COST,
    *,
    payoff: PayoffArg | None = None,
) -> Fraction:
    """Exact expected score of a fixed policy: ``lock_rule`` picks the lock, ``stop_rule`` when to stop.

    Scoring as in :func:`optimal_turn` (same defaults). The turn always stops with no dice left.

    >>> evaluate_turn(4, stop_rule=lambda d, s: s >= 1, points_per_set=1, bust_cost=0)   # lock the most, stop after one lock
    Fraction(145, 216)
    """
    dice, table, cost, _ = _check_turn(dice, points_per_set, bust_cost, payoff)

    @lru_cache(maxsize=None)
    def after_lock(d: int, s: int) -> Fraction:
        return table[s] if d == 0 or stop_rule(d, s) else rolled(d, s)

    @lru_cache(maxsize=None)
    def rolled(d: int, s: int) -> Fraction:
        total = Fraction(0)
        for choices, w in roll_classes(d):
            if choices:
                t, u = lock_rule(choices)
                total += w * after_lock(d - u, s + t)
            else:
                total -= w * cost
        return total / 6**d

    return rolled(dice, 0)


def simple_policies(dice: int) -> dict[str, tuple[LockRule, StopRule]]:
    """Named simple policies to compare with optimal play."""
    rules: dict[str, tuple[LockRule, StopRule]] = {
        "lock the most, always roll on": (lock_most_dice, _never_stop),
    }
    for k in (1, 2, 3):
        rules[f"lock the most, stop at {k} set{'s' if k > 1 else ''}"] = (lock_most_dice, _stop_at_sets(k))
    for k in (3, 4, 5):
        rules[f"lock the most, stop below {k} dice"] = (lock_most_dice, _stop_below_dice(k))
    return rules


def _never_stop(dice_left: int, sets_locked: int) -> bool:
    return False


def _stop_at_sets(k: int) -> StopRule:
    return lambda dice_left, sets_locked: sets_locked >= k


def _stop_below_dice(k: int) -> StopRule:
    return lambda dice_left, sets_locked: dice_left < k


def compare_policies(
    dice: int = 8,
    points_per_set: Fraction | int | None = None,
    bust_cost: Fraction | int = BUST_COST,
    *,
    payoff: PayoffArg | None = None,
) -> pd.DataFrame:
    """Optimal play beside the simple policies: exact expected score of each, best first (scoring as in :func:`optimal_turn`)."""
    turn = optimal_turn(dice, points_per_set, bust_cost, payoff=payoff)
    rows = [{"policy": "optimal", "value": turn.value}]
    for name, (lock, stop) in simple_policies(dice).items():
        rows.append({"policy": name, "value": turn.evaluate(lock, stop)})
    frame = pd.DataFrame(rows)
    frame["float"] = [float(v) for v in frame["value"]]
    frame["share_of_optimal"] = [float(v / turn.value) if turn.value else float("nan") for v in frame["value"]]
    return frame.sort_values("float", ascending=False, kind="stable").reset_index(drop=True)


__all__ = [
    "BUST_COST",
    "POINTS_PER_SET",
    "LockDecision",
    "PayoffArg",
    "TurnSolution",
    "compare_policies",
    "evaluate_turn",
    "lock_choices",
    "lock_most_dice",
    "optimal_turn",
    "roll_classes",
    "scoring",
    "simple_policies",
]
