"""The whole Dairyman turn, exactly: freezing and the ice-cream rerolls inside the optimal-play recursion.

:mod:`.turn` solves the plain turn, where only the dice left and the sets locked matter.
Here the turn also has (docs/rules/dairyman.md, "A turn" step 7 and "Optional actions"):

* **ice tokens**: one is taken before the 3rd roll and every later one (option
  ``ice_token_from_roll``), and before a reroll each token may **freeze** an unlocked die,
  which keeps its value for that reroll (the token goes back to the supply);
* **ice-cream abilities**, each once this turn, after a roll and before the lock: reroll
  every die showing 1 (``reroll_1s``), showing 2 (``reroll_2s``) or a chosen value
  (``reroll_chosen``); by option ``optional_actions_before_bust`` (default on) also on a
  roll with no set, before it is judged a bust.

So a position carries what those need. **After a lock**: the unlocked dice's values (a
multiset: freezing keeps values), the sets locked, the ice tokens held, how many rolls
were made (only "fewer than ``ice_token_from_roll`` − 1" or not matters) and the
abilities still unused. **After a roll**: the dice showing, with the same numbers.

    after_lock(U, s, i, r, A) = max(stop = payoff[s] + ice_value × i,
                                    max over frozen F ⊆ U, |F| ≤ i + g:  rolled_from(F, |U| − |F|, s, i + g − |F|, r + 1, A))
    rolled_from(F, k, …)      = Σ over rolls c of k dice  P(c) × rolled(F + c, …)
    rolled(R, s, i, r, A)     = max(max over locks of after_lock(R − lock, s + t, i, r, A),
                                    max over abilities a usable on a value v showing:
                                        rolled_from(R without its v's, R[v], s, i, r, A − a),
                                    −bust_cost + ice_value × i  only when no lock exists)

with ``g`` = 1 when the next roll is the ``ice_token_from_roll``-th or later, else 0.
Ice tokens still held when the turn ends are worth ``ice_value`` points each (default
:data:`ICE_TOKEN_VALUE`), so the solver does not spend them for nothing; a turn's value
is reported **net**: points this turn plus ``ice_value`` × (tokens at the end − tokens at
the start). What a stop scores is a payoff table (:mod:`.payoff`) as in :mod:`.turn`.

What it leaves out: the yellow die's cheese (all dice are alike here), flipping a
snowflake tile mid-turn to gain an ability, and an empty ice supply (the supply is
assumed to hold a token for every roll that takes one). With no ice and no abilities it
is exactly :func:`~.turn.optimal_turn` (tested), which needs only two numbers a position.

**Size and cost.** Values are exact: whole numbers over one common denominator inside the
recursion (cheaper than Fractions, and every expectation divides exactly), Fractions
outside; memoised on the positions above; the
number of positions grows with the dice, the ice held and the abilities (see
``docs/rules/dairyman.md``, "What the library computes", for measured sizes and times).
``max_states`` bounds the positions solved: past it :class:`~coffeegames.errors.TooBig`
is raised, and :func:`~.advice.advise` then falls back to the plain turn and says so.

Example:
    >>> turn = WholeTurn()                       # 10 points a set, a bust costs 5
    >>> turn.value(dice=4) == optimal_turn(4).value          # no ice, no ability: the plain turn
    True
    >>> turn.value(dice=4, abilities=["reroll_chosen"]) > turn.value(dice=4)
    True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import gcd
from itertools import product
from typing import cast

from ..errors import BadArgument, BadType, TooBig
from ..exact import check_count, count_vectors
from .payoff import exact_points
from .rules import ABILITIES
from .sets import MAX_DICE, SET_COUNTS, Counts, check_roll, counts_of, dice_of
from .turn import BUST_COST, PayoffArg, optimal_turn, scoring

__all__ = ["ICE_TOKEN_VALUE", "MAX_STATES", "WholeTurn", "WholeTurnChoice", "whole_turn_value"]

ICE_TOKEN_VALUE = Fraction(1)
"""Stand-in: points an ice token still held at the end of a turn is worth (default 1).

A token kept can freeze a die in a later turn or help pay for an ice-cream flip; what
that is worth depends on the game, so this is a named, documented stand-in. One point is
about what holding one token adds to the exact value of a later 8-dice turn (measured in
``docs/rules/dairyman.md``). Pass ``ice_value=0`` to let the solver spend tokens freely."""

MAX_ABILITIES = 10
"""Most ice-cream abilities one turn may hold in the model (the stand-in tiles have 10 snowflake tiles)."""
MAX_ICE = 100
"""The most ice tokens a whole-turn question may hold (the game's supply is 10 or 20)."""
MAX_ROLLS = 100
"""The most rolls made so far a whole-turn question may name (a turn locks a set before each roll after the first)."""

MAX_STATES = 200_000
"""Default budget: positions solved before :class:`~coffeegames.errors.TooBig` is raised."""

Abilities = tuple[int, int, int]
"""Unused ice-cream abilities this turn: counts of reroll_1s, reroll_2s, reroll_chosen."""
_ABILITY_KEYS = tuple(ABILITIES)
_ABILITY_VALUES = tuple(values for _, values in ABILITIES.values())
_NO_DICE: Counts = (0, 0, 0, 0, 0, 0)


@lru_cache(maxsize=None)
def _rolls(k: int) -> tuple[tuple[Counts, int], ...]:
    return tuple((cast(Counts, c), w) for c, w in count_vectors(k))


@lru_cache(maxsize=None)
def _locks(counts: Counts) -> frozenset[tuple[int, Counts]]:
    """Every non-empty lock from these dice as (sets taken, dice left)."""
    found: set[tuple[int, Counts]] = set()
    for s in SET_COUNTS:
        if all(a <= b for a, b in zip(s, counts)):
            rest: Counts = tuple(b - a for a, b in zip(s, counts))  # type: ignore[assignment]
            found.add((1, rest))
            found.update((t + 1, left) for t, left in _locks(rest))
    return frozenset(found)


def _sub_counts(counts: Counts, most: int) -> Iterator[Counts]:
    """Every sub-multiset (as counts) with at most ``most`` dice."""
    for sub in product(*(range(c + 1) for c in counts)):
        if sum(sub) <= most:
            yield sub  # type: ignore[misc]


@dataclass(frozen=True)
class WholeTurnChoice:
    """One choice in a whole-turn position, with its exact value (net, see the module)."""

    kind: str
    """"lock", "ice cream", "bust" (after a roll); "stop", "roll" (after a lock)."""
    label: str
    value: Fraction
    detail: tuple[object, ...] = ()
    """lock: (sets taken, dice left); ice cream: (ability, value rerolled); roll: (frozen dice,)."""


class WholeTurn:
    """The exact optimal whole turn, with ice tokens, freezing and ice-cream rerolls. Build it once, ask many positions.

    Args:
        points_per_set, payoff, bust_cost: what a stopped turn and a bust score, as in
            :func:`~.turn.optimal_turn` (defaults: 10 a set, a bust costs 5).
        ice_value: points per ice token held at the end (default :data:`ICE_TOKEN_VALUE`).
        ice_token_from_roll: the roll from which a token is taken before each roll (option, 3).
        optional_actions_before_bust: an ice-cream reroll may rescue a roll with no set (option, True).
        max_states: new positions one question may solve before :class:`~coffeegames.errors.TooBig`
            (default :data:`MAX_STATES`); positions solved by earlier questions are kept and free.
    """

    def __init__(
        self,
        points_per_set: Fraction | int | None = None,
        bust_cost: Fraction | int = BUST_COST,
        *,
        payoff: PayoffArg | None = None,
        ice_value: Fraction | int = ICE_TOKEN_VALUE,
        ice_token_from_roll: int = 3,
        optional_actions_before_bust: bool = True,
        max_states: int = MAX_STATES,
    ) -> None:
        self.payoff, self.bust_cost, _ = scoring(points_per_set, bust_cost, payoff)
        self.ice_value = exact_points(ice_value, "ice_value")
        # Values are kept as whole numbers × 1/scale: exact, and far cheaper than Fractions.
        # scale = lcm(denominators of the scores) × 6**N, N bounding the dice any position
        # can still roll (12 + 10 + … + 2 with locks, 12 more per ice-cream ability), so
        # every expectation divides exactly (checked).
        lcm = 1
        for f in (*self.payoff, self.bust_cost, self.ice_value):
            lcm = lcm * f.denominator // gcd(lcm, f.denominator)
        self._scale = lcm * 6 ** (42 + 12 * MAX_ABILITIES)
        self._pay = tuple(int(p * self._scale) for p in self.payoff)
        self._bust = int(self.bust_cost * self._scale)
        self._ice = int(self.ice_value * self._scale)
        self.ice_token_from_roll = check_count(ice_token_from_roll, "ice_token_from_roll", MAX_ROLLS)
        if not isinstance(optional_actions_before_bust, bool):
            raise BadType("optional_actions_before_bust", "must be True or False", optional_actions_before_bust)
        self.rescue = optional_actions_before_bust
        self._cap_at = max(self.ice_token_from_roll - 1, 0)
        self.max_states = check_count(max_states, "max_states")
        self._limit = self.max_states
        self._shared = False
        self._after: dict[tuple[Counts, int, int, int, Abilities], int] = {}
        self._rolled: dict[tuple[Counts, int, int, int, Abilities], int] = {}
        self._from: dict[tuple[Counts, int, int, int, int, Abilities], int] = {}

    # -- the recursion ------------------------------------------------------------------
    @property
    def states(self) -> int:
        """Positions solved so far (after a lock, after a roll, and rolls from a frozen part)."""
        return len(self._after) + len(self._rolled) + len(self._from)

    def _count(self) -> None:
        if self.states >= self._limit:
            raise TooBig("max_states", f"the whole-turn model needs more than {self.max_states:,} new positions here", self.max_states)

    def _ask(self) -> None:
        """Start a question: it may solve ``max_states`` new positions (inside :meth:`budget`: all its questions together)."""
        if not self._shared:
            self._limit = self.states + self.max_states

    @contextmanager
    def budget(self, max_states: int) -> Iterator[None]:
        """All questions inside ``with turn.budget(n):`` share one budget of ``n`` new positions (for one advice table)."""
        check_count(max_states, "max_states")
        self._limit, self._shared = self.states + max_states, True
        try:
            yield
        finally:
            self._shared = False

    def _cap(self, rolls: int) -> int:
        """Rolls made, as far as they matter: only whether the next roll takes a token."""
        return rolls if rolls < self._cap_at else self._cap_at

    def _gain(self, rolls: int) -> int:
        return 1 if rolls + 1 >= self.ice_token_from_roll else 0

    def _stop(self, sets: int, ice: int) -> int:
        return self._pay[sets] + self._ice * ice

    def _exact(self, value: int) -> Fraction:
        return Fraction(value, self._scale)

    def _after_lock(self, left: Counts, sets: int, ice: int, rolls: int, abilities: Abilities) -> int:
        key = (left, sets, ice, self._cap(rolls), abilities)
        value = self._after.get(key)
        if value is None:
            self._count()
            value = max(v for v, _ in self._continue_options(left, sets, ice, rolls, abilities))
            self._after[key] = value
        return value

    def _continue_options(self, left: Counts, sets: int, ice: int, rolls: int, abilities: Abilities) -> Iterator[tuple[int, Counts | None]]:
        """(value, frozen dice) of each choice after a lock; frozen None is the stop."""
        yield self._stop(sets, ice), None
        if not any(left):
            return
        tokens, dice = ice + self._gain(rolls), sum(left)
        for frozen in _sub_counts(left, tokens):
            kept = sum(frozen)
            yield self._rolled_from(frozen, dice - kept, sets, tokens - kept, rolls + 1, abilities), frozen

    def _rolled_from(self, kept: Counts, rolling: int, sets: int, ice: int, roll: int, abilities: Abilities) -> int:
        key = (kept, rolling, sets, ice, self._cap(roll), abilities)
        value = self._from.get(key)
        if value is None:
            self._count()
            total = 0
            if any(kept):
                for c, w in _rolls(rolling):
                    total += w * self._rolled_value(tuple(a + b for a, b in zip(kept, c)), sets, ice, roll, abilities)  # type: ignore[arg-type]
            else:
                for c, w in _rolls(rolling):
                    total += w * self._rolled_value(c, sets, ice, roll, abilities)
            value, rest = divmod(total, 6**rolling)
            assert not rest, "the scale must make every expectation whole"
            self._from[key] = value
        return value

    def _rolled_value(self, dice: Counts, sets: int, ice: int, roll: int, abilities: Abilities) -> int:
        key = (dice, sets, ice, self._cap(roll), abilities)
        value = self._rolled.get(key)
        if value is None:
            self._count()
            value = max(v for v, _ in self._roll_options(dice, sets, ice, roll, abilities))
            self._rolled[key] = value
        return value

    def _roll_options(self, dice: Counts, sets: int, ice: int, roll: int, abilities: Abilities) -> Iterator[tuple[int, tuple[object, ...]]]:
        """(value, what) of each choice after a roll: ("lock", sets, dice left), ("ice cream", ability index, value) or ("bust",)."""
        locks = _locks(dice)
        for t, left in locks:
            yield self._after_lock(left, sets + t, ice, roll, abilities), ("lock", t, left)
        if (locks or self.rescue) and any(abilities):
            for a, (n, values) in enumerate(zip(abilities, _ABILITY_VALUES)):
                if not n:
                    continue
                rest: Abilities = tuple(k - (j == a) for j, k in enumerate(abilities))  # type: ignore[assignment]
                for v in values:
                    if dice[v - 1]:
                        kept: Counts = tuple(0 if i == v - 1 else k for i, k in enumerate(dice))  # type: ignore[assignment]
                        yield self._rolled_from(kept, dice[v - 1], sets, ice, roll, rest), ("ice cream", a, v)
        if not locks:
            yield -self._bust + self._ice * ice, ("bust",)

    # -- public questions ---------------------------------------------------------------
    def value(self, dice: int = 8, ice: int = 0, abilities: Sequence[str] = ()) -> Fraction:
        """The whole turn's exact value from its first roll of ``dice`` dice, holding ``ice`` tokens and these abilities (net)."""
        check_count(dice, "number of dice", MAX_DICE)
        a, held = _abilities(abilities), check_count(ice, "ice", MAX_ICE)
        self._ask()
        return self._exact(self._rolled_from(_NO_DICE, dice, 0, held + self._gain(0), 1, a)) - self.ice_value * held

    def after_lock(self, dice_left: Sequence[int], sets_locked: int, ice: int = 0, rolls: int = 1,
                   abilities: Sequence[str] = ()) -> list[WholeTurnChoice]:
        """Stop, or roll freezing each possible part of ``dice_left``: every choice with its value, best first.

        ``rolls`` counts the rolls made this turn (the next roll takes a token from
        ``ice_token_from_roll``, and that token may freeze at once). Values count the ``ice`` tokens held at
        the end (``ice_value`` each), not net of those held at the start of the turn.

        >>> best = WholeTurn().after_lock([5, 5, 1], sets_locked=1, ice=1, rolls=2)[0]
        >>> best.label, best.value      # the 3rd roll brings a token: freeze the unlocked 5+5, lock it next roll
        ('roll 1, freeze 5 5', Fraction(20, 1))
        """
        left, s, i, r, a = self._position(dice_left, sets_locked, ice, rolls, abilities, "dice_left")
        self._ask()
        choices = []
        for value, frozen in self._continue_options(left, s, i, r, a):
            if frozen is None:
                choices.append(WholeTurnChoice("stop", "stop", self._exact(value)))
            else:
                kept = dice_of(frozen)
                label = f"roll {sum(left) - len(kept)}" + (f", freeze {' '.join(map(str, kept))}" if kept else "")
                choices.append(WholeTurnChoice("roll", label, self._exact(value), (kept,)))
        return sorted(choices, key=lambda c: -c.value)

    def after_roll(self, roll: Sequence[int], sets_locked: int = 0, ice: int = 0, rolls: int = 1,
                   abilities: Sequence[str] = ()) -> list[WholeTurnChoice]:
        """Every lock, ice-cream reroll (and the bust, on a roll with no set) after ``roll``, valued, best first.

        ``rolls`` counts this roll (1 for the first of the turn). A lock is described by
        the number of sets it takes and the dice it leaves (locks leaving the same dice are one choice).

        >>> [c.label for c in WholeTurn().after_roll([1, 1, 2], abilities=["reroll_1s"])]
        ['reroll_1s: reroll the 1s', 'bust']
        """
        dice, s, i, r, a = self._position(roll, sets_locked, ice, rolls, abilities, "roll")
        self._ask()
        choices = [self._choice(value, what) for value, what in self._roll_options(dice, s, i, r, a)]
        return sorted(choices, key=lambda c: -c.value)

    def next_roll(self, kept: Sequence[int], rolling: int, sets_locked: int = 0, ice: int = 0, rolls: int = 1,
                  abilities: Sequence[str] = ()) -> list[tuple[tuple[int, ...], Fraction, WholeTurnChoice]]:
        """The roll of :meth:`value_of_roll`, outcome by outcome: ``(dice showing, exact chance, best choice)``
        for each multiset of the ``rolling`` dice (multinomial chances), the ``kept`` dice keeping their values.
        Chance times the best choice's value adds up to :meth:`value_of_roll` exactly (not net).

        >>> parts = WholeTurn().next_roll([], 2, sets_locked=1)
        >>> sum(p * c.value for _, p, c in parts) == WholeTurn().value_of_roll([], 2, sets_locked=1)
        True
        """
        dice, s, i, r, a = self._position(kept, sets_locked, ice, rolls, abilities, "kept")
        check_count(rolling, "rolling", MAX_DICE - sum(dice))
        self._ask()
        parts = []
        for c, w in _rolls(rolling):
            showing: Counts = tuple(x + y for x, y in zip(dice, c))  # type: ignore[assignment]
            value, what = max(self._roll_options(showing, s, i, r, a), key=lambda o: o[0])
            parts.append((dice_of(showing), Fraction(w, 6**rolling), self._choice(value, what)))
        return parts

    def _choice(self, value: int, what: tuple[object, ...]) -> WholeTurnChoice:
        """A choice after a roll, from :meth:`_roll_options`, in words."""
        if what[0] == "lock":
            t, left = cast(int, what[1]), dice_of(cast(Counts, what[2]))
            label = f"lock {t} set{'s' * (t != 1)}, leaving {' '.join(map(str, left)) or 'no dice'}"
            return WholeTurnChoice("lock", label, self._exact(value), (t, left))
        if what[0] == "ice cream":
            key, v = _ABILITY_KEYS[cast(int, what[1])], what[2]
            return WholeTurnChoice("ice cream", f"{key}: reroll the {v}s", self._exact(value), (key, v))
        return WholeTurnChoice("bust", "bust", self._exact(value))

    def value_after_lock(self, dice_left: Sequence[int], sets_locked: int, ice: int = 0, rolls: int = 1,
                         abilities: Sequence[str] = ()) -> Fraction:
        """The value after a lock (the best of :meth:`after_lock`; tokens held at the end counted, not net)."""
        left, s, i, r, a = self._position(dice_left, sets_locked, ice, rolls, abilities, "dice_left")
        self._ask()
        return self._exact(self._after_lock(left, s, i, r, a))

    def value_after_roll(self, roll: Sequence[int], sets_locked: int = 0, ice: int = 0, rolls: int = 1,
                         abilities: Sequence[str] = ()) -> Fraction:
        """The value of a roll showing ``roll`` (the best of :meth:`after_roll`; not net)."""
        dice, s, i, r, a = self._position(roll, sets_locked, ice, rolls, abilities, "roll")
        self._ask()
        return self._exact(self._rolled_value(dice, s, i, r, a))

    def value_of_roll(self, kept: Sequence[int], rolling: int, sets_locked: int = 0, ice: int = 0, rolls: int = 1,
                      abilities: Sequence[str] = ()) -> Fraction:
        """The value of rolling ``rolling`` fresh dice beside the ``kept`` ones (frozen, or spared by an
        ice-cream reroll), ``rolls`` counting this roll, tokens for it already taken (not net).

        >>> turn = WholeTurn()
        >>> turn.value_of_roll([], 2, sets_locked=1) == optimal_turn(8).roll_value(2, 1)
        True
        """
        dice, s, i, r, a = self._position(kept, sets_locked, ice, rolls, abilities, "kept")
        check_count(rolling, "rolling", MAX_DICE - sum(dice))
        self._ask()
        return self._exact(self._rolled_from(dice, rolling, s, i, r, a))

    def _position(self, dice: Sequence[int], sets: int, ice: int, rolls: int, abilities: Sequence[str],
                  where: str) -> tuple[Counts, int, int, int, Abilities]:
        counts = counts_of(check_roll(dice, where))
        check_count(sets, "sets_locked", MAX_DICE // 2)
        return counts, sets, check_count(ice, "ice", MAX_ICE), check_count(rolls, "rolls", MAX_ROLLS), _abilities(abilities)


def _abilities(abilities: Sequence[str]) -> Abilities:
    if isinstance(abilities, (str, bytes)) or not isinstance(abilities, Sequence):
        raise BadType("abilities", f"must be a list of ability names from {', '.join(_ABILITY_KEYS)}", abilities)
    if len(abilities) > MAX_ABILITIES:
        raise TooBig("abilities", f"the whole-turn model takes at most {MAX_ABILITIES} ice-cream abilities", abilities)
    for a in abilities:
        if not isinstance(a, str) or a not in ABILITIES:
            raise BadArgument("abilities", f"an ability is one of {', '.join(_ABILITY_KEYS)}", a)
    return tuple(list(abilities).count(k) for k in _ABILITY_KEYS)  # type: ignore[return-value]


def whole_turn_value(dice: int = 8, ice: int = 0, abilities: Sequence[str] = (), **scoring: object) -> Fraction:
    """The exact value of a whole turn (see :class:`WholeTurn` for ``scoring``: ``points_per_set``, ``payoff``, ``bust_cost``, ``ice_value``…).

    >>> whole_turn_value(3, ice=0) == optimal_turn(3).value
    True
    """
    return WholeTurn(**scoring).value(dice, ice, abilities)  # type: ignore[arg-type]
