"""The others' turns until you play again: the exact chances that a blend you hold is lost.

An :class:`Outlook` is what those turns depend on once your choice is made (flavour dice
held, the coasters, the METER). From it: :func:`featured_kept` and :func:`rainbow_kept`
(the chance you still hold each blend when your next turn starts), the solo corporations'
chances (:func:`omniblend_beats`, :func:`corporation_chance`), and the public questions
:func:`p_featured_lost` and :func:`p_rainbow_lost`. The model (what the other players are
assumed to do) is described in :mod:`.advice`, which values choices with these chances.

Example:
    >>> from coffeegames.vivajava import Game
    >>> p_rainbow_lost(Game(players=2).new_initial_state())
    Fraction(5, 54)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import prod
from typing import Self

import numpy as np

from ..validate import cached, check_count, check_flag, check_instance
from ..errors import BadArgument
from ..exact import count_vectors
from .dice import COLOURS, LARGEST_BLEND, NO_BLEND, Blend
from .odds import best_blend_codes, check_omniblend_rerolls, colour_table, p_beats, rainbow_flags
from .rules import CORPORATION, ROLL_DICE, Rules
from .state import State

__all__ = [
    "Outlook",
    "corp_beats",
    "corporation_chance",
    "featured_kept",
    "omniblend_beats",
    "p_featured_lost",
    "p_rainbow_lost",
    "rainbow_kept",
    "roll_effects",
    "with_featured",
]


# -- the position the others play from -------------------------------------------------------

@dataclass(frozen=True)
class Outlook:
    """What the others' turns until ``you`` play again depend on, once your choice is made.

    ``flavour``: flavour dice each player holds; ``flavour_coaster``: dice on the flavour
    coaster; ``featured`` held by ``featured_by`` and the Rainbow by ``rainbow_by`` (-1: nobody).
    """

    rules: Rules
    you: int
    flavour: tuple[int, ...]
    flavour_coaster: int
    meter: int
    featured: Blend
    featured_by: int
    rainbow_by: int

    @classmethod
    def of(cls, state: State) -> Self:
        """The outlook at a decision (or roll) of ``state.turn``: the dice they rolled go back as the turn ends."""
        return cls(
            state.rules,
            state.turn,
            tuple(p.flavour for p in state.players),
            state.flavour_coaster + len(state.own) + state.rolling_own,
            state.meter,
            state.featured,
            state.featured_by,
            state.rainbow_by,
        )

    @property
    def others(self) -> list[int]:
        """The other players in the order they play before your next turn."""
        n = len(self.flavour)
        return [(self.you + i) % n for i in range(1, n)]

    @property
    def corp_flavour(self) -> int:
        """Flavour dice a solo corporation rolls: Sacchar's METER number (at most the coaster's dice); 0 for OmniBlend."""
        return min(self.rules.meter_values[self.meter], self.flavour_coaster) if self.rules.solo == "sacchar" else 0

    @property
    def corp_floor(self) -> Blend:
        """The best blend that is still not a corporation's Featured Blend (Ruling ``corp_success_size``: a Decaf black)."""
        return Blend(self.rules.corp_success_size - 1, len(COLOURS))


# -- the corporations ------------------------------------------------------------------------

def _best_group(counts: Iterable[int]) -> tuple[int, int]:
    """(size, rank) of the largest group of one colour, ties to the higher colour (OmniBlend's keep rule)."""
    return max((n, r) for r, n in enumerate(counts, start=1))


@lru_cache(maxsize=None)
def _omni_roll(kept: int, rank: int) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    """Keep ``kept`` dice of colour ``rank`` (0 on the first roll), roll the others: the new best group's law."""
    rolling = ROLL_DICE - kept
    weights: dict[tuple[int, int], int] = defaultdict(int)
    for faces, w in count_vectors(rolling):
        counts = list(faces)
        if kept:
            counts[rank - 1] += kept
        weights[_best_group(counts)] += w
    return tuple((g, Fraction(w, 6**rolling)) for g, w in sorted(weights.items()))


MAX_REROLLS = 20
"""The most re-rolls :func:`omniblend_beats` weighs (the METER gives OmniBlend at most 3)."""


@cached(maxsize=None)
def omniblend_beats(target: Blend, rerolls: int, takes_rainbow: bool = True, omniblend_rerolls: str = "seed") -> Fraction:
    """P(OmniBlend TransGlobal ends its roll with a blend beating ``target``), re-rolling up to ``rerolls`` times.

    It keeps its largest group (ties: the higher colour) and re-rolls the rest, as option
    ``omniblend_rerolls`` says: ``"seed"`` (the rules) ends its roll at a first roll that
    beats ``target``, else uses every re-roll and its last dice decide; ``"stop_at_blend"``
    stops once it beats ``target``; ``"always"`` uses every re-roll. With ``takes_rainbow``, a
    first roll of five different colours that does not beat ``target`` takes the Rainbow
    instead (as the engine plays it when the corporation does not hold it). Pass
    ``target=Blend(2, 6)`` (a Decaf black) for "three of a kind or better".

    >>> from coffeegames.vivajava.odds import omniblend_success
    >>> omniblend_beats(Blend(2, 6), 1, takes_rainbow=False) == omniblend_success(1)
    True
    >>> omniblend_beats(Blend(2, 6), 1)
    Fraction(169, 324)
    """
    check_instance(target, Blend, "target", "a Blend such as Blend(2, 6)")
    check_count(rerolls, "rerolls", maximum=MAX_REROLLS)
    check_flag(takes_rainbow, "takes_rainbow")
    check_omniblend_rerolls(omniblend_rerolls)

    def beats(group: tuple[int, int]) -> bool:
        size, rank = group
        return size >= 2 and Blend(min(size, LARGEST_BLEND), rank) > target

    won, live = Fraction(0), defaultdict[tuple[int, int], Fraction](Fraction)
    for group, p in _omni_roll(0, 0):
        if beats(group) and omniblend_rerolls != "always":
            won += p
        elif not (takes_rainbow and group[0] == 1):  # one of each colour: a rainbow
            live[group] += p
    for _ in range(rerolls):
        after = defaultdict[tuple[int, int], Fraction](Fraction)
        for group, p in live.items():
            if group[0] >= ROLL_DICE:  # five alike: nothing to re-roll
                after[group] += p
                continue
            for new, q in _omni_roll(*group):
                if beats(new) and omniblend_rerolls == "stop_at_blend":
                    won += p * q
                else:
                    after[new] += p * q
        live = after
    return won + sum((p for group, p in live.items() if beats(group)), Fraction(0))


def corp_beats(o: Outlook, blend: Blend) -> Fraction:
    """P(the corporation makes a Featured Blend beating ``blend`` on its next roll)."""
    target = max(blend, o.corp_floor)
    if o.rules.solo == "sacchar":
        return p_beats(target, coffee_dice=ROLL_DICE, flavour=o.corp_flavour)
    return omniblend_beats(target, o.rules.meter_values[o.meter], takes_rainbow=o.rainbow_by != CORPORATION,
                           omniblend_rerolls=o.rules.omniblend_rerolls)


def corporation_chance(state: State) -> Fraction:
    """The solo corporation's exact chance to make a Featured Blend when it next rolls, at the METER it shows now.

    It must beat the coaster as it stands with ``corp_success_size`` of a kind (three): a blend
    the corporation holds itself counts only as the Decaf it keeps while rolling (Ruling
    ``corp_keeps_decaf``; any three alike beats it, so that option does not change the number
    at the default size). OmniBlend re-rolls as option ``omniblend_rerolls`` says (its group never shrinks, so
    all three ways give the same chance);
    Sacchar's Rainbow (``sacchar_rainbow``) is no Featured Blend and is not counted.

    >>> from coffeegames.vivajava import Game
    >>> corporation_chance(Game(solo="omniblend", meter="yellow").new_initial_state())
    Fraction(169, 324)
    """
    check_instance(state, State, "state", "a VivaJava state")
    if not state.solo:
        raise BadArgument("state", "only a solo game has a corporation")
    o = Outlook.of(state)
    return corp_beats(o, _corp_target(o))


def _corp_target(o: Outlook) -> Blend:
    """The coaster the corporation's next roll must beat: a player's blend, or the Decaf it keeps while rolling
    (Ruling ``corp_keeps_decaf``: its blend of three degrades to a Decaf that stays on the coaster); else none."""
    if o.featured_by == CORPORATION:
        return Blend(2, o.featured.rank) if o.rules.corp_keeps_decaf and o.featured.size == 3 else NO_BLEND
    return o.featured if o.featured_by >= 0 else NO_BLEND


# -- losing a blend before your next turn ----------------------------------------------------

@cached(maxsize=512)
def roll_effects(coffee_dice: int, flavour: int, coaster: Blend) -> tuple[dict[Blend, Fraction], Fraction]:
    """A roll against ``coaster``: the law of the new blend when it beats it, and P(no blend beats it but a rainbow shows)."""
    counts, weights = colour_table(coffee_dice, flavour)
    codes = best_blend_codes(counts)
    beat = codes > coaster.size * 10 + coaster.rank
    total = 6 ** (coffee_dice + flavour)
    new = {Blend(int(c) // 10, int(c) % 10): Fraction(int(weights[codes == c].sum()), total) for c in np.unique(codes[beat])}
    return new, Fraction(int(weights[~beat & rainbow_flags(counts)].sum()), total)


@cached(maxsize=4096)
def featured_kept(o: Outlook) -> Fraction:
    """P(you still hold the Featured Blend ``o.featured`` when your next turn starts)."""
    if o.rules.solo:
        return 1 - corp_beats(o, o.featured)
    return prod((1 - p_beats(o.featured, coffee_dice=ROLL_DICE, flavour=o.flavour[q]) for q in o.others), start=Fraction(1))


@cached(maxsize=4096)
def rainbow_kept(o: Outlook) -> Fraction:
    """P(you still hold the Rainbow when your next turn starts)."""
    if o.rules.solo:
        holds = o.featured_by == CORPORATION
        if holds and o.featured.size - 1 > 2:  # it degrades, keeps its blend and does not roll
            return Fraction(1)
        return 1 - roll_effects(ROLL_DICE, o.corp_flavour, max(_corp_target(o), o.corp_floor))[1]
    alive: dict[tuple[Blend, int], Fraction] = {(o.featured, o.featured_by): Fraction(1)}
    for q in o.others:
        after: dict[tuple[Blend, int], Fraction] = defaultdict(Fraction)
        for (coaster, holder), p in alive.items():
            if holder == q:  # they score, degrade, keep 3+ dice or re-roll the rest
                size = coaster.size - 1
                if size >= 3:
                    after[(Blend(size, coaster.rank), q)] += p
                    continue
                coffee, faced, unchanged = size, NO_BLEND, (NO_BLEND, -1)
            else:
                coffee, faced, unchanged = ROLL_DICE, coaster, (coaster, holder)
            new, p_rainbow = roll_effects(coffee, o.flavour[q], faced)
            for blend, pb in new.items():
                after[(blend, q)] += p * pb
            after[unchanged] += p * (1 - sum(new.values(), Fraction(0)) - p_rainbow)
        alive = after
    return sum(alive.values(), Fraction(0))


def p_featured_lost(state: State, blend: Blend, funded: tuple[tuple[int, int], ...] = ()) -> Fraction:
    """P(a Featured Blend ``blend`` that the player to move holds once their turn ends is beaten before their next turn).

    ``funded``: other players' flavour dice used in it, ((player, dice), ...).

    >>> from coffeegames.vivajava import Game, p_beats
    >>> s = Game(players=3).new_initial_state()
    >>> p_featured_lost(s, Blend.of(3, "red")) == 1 - (1 - p_beats(Blend.of(3, "red")))**2
    True
    """
    check_instance(state, State, "state", "a VivaJava state")
    return 1 - featured_kept(with_featured(Outlook.of(state), blend, funded))


def p_rainbow_lost(state: State) -> Fraction:
    """P(the Rainbow, held by the player to move once their turn ends, is taken before their next turn).

    >>> from coffeegames.vivajava import Game, p_rainbow
    >>> p_rainbow_lost(Game(players=2).new_initial_state()) == p_rainbow(5)
    True
    """
    check_instance(state, State, "state", "a VivaJava state")
    o = Outlook.of(state)
    return 1 - rainbow_kept(replace(o, rainbow_by=o.you))


def with_featured(o: Outlook, blend: Blend, funded: tuple[tuple[int, int], ...] = ()) -> Outlook:
    flavour = list(o.flavour)
    for q, n in funded:
        flavour[q] -= n
    return replace(
        o,
        flavour=tuple(flavour),
        flavour_coaster=o.flavour_coaster + sum(n for _, n in funded),
        featured=blend,
        featured_by=o.you,
        rainbow_by=-1 if o.rainbow_by == o.you else o.rainbow_by,
    )
