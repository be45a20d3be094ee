"""The solo corporations' play: OmniBlend TransGlobal and Sacchar Inc. make no decisions.

In a solo game the corporation is player 1 (:data:`~.rules.CORPORATION`). Its whole turn
is a chain of chance nodes: :func:`corp_turn` scores and degrades its blends and starts its
roll (phase ``corp``), :func:`corp_resolve` reads each roll (OmniBlend may re-roll), and
Sacchar then rolls its block die, one more coffee die (phase ``block``), which blocks that colour for the
human's next turn (``State._rolled``). The rules are in ``docs/rules/vivajava.md``.

Example:
    >>> from coffeegames.vivajava import Game
    >>> from coffeegames.vivajava import FirstPlayer, SetupResearch
    >>> s = Game(solo="sacchar").new_initial_state().apply(FirstPlayer(1))   # drawn: Sacchar starts
    >>> s = s.apply(SetupResearch("green"))                                  # you mark your setup RP
    >>> s.turn, str(s.phase), s.rolling_white, s.rolling_own, s.meter_shows  # Sacchar rolls 5 + 1 flavour die
    (1, 'corp', 5, 1, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from .actions import BLOCK, CORP, OVER
from .dice import COLOURS, JOKER, LARGEST_BLEND, best_of_counts, rainbow_of_counts
from .rules import CORPORATION, ROLL_DICE

if TYPE_CHECKING:
    from .state import State

    S = TypeVar("S", bound=State)
else:
    S = TypeVar("S")

__all__ = ["corp_resolve", "corp_turn"]


def corp_turn(state: S) -> S:
    """The corporation's turn starts: it scores both blends it holds, then degrades its Featured Blend.

    It keeps a degraded blend above Decaf (all its dice are alike, so no choice); degraded to
    Decaf it rolls, keeping the Decaf on the coaster meanwhile (Ruling ``corp_keeps_decaf``;
    False: it gives it up first); a Decaf it still holds at its next turn scores and
    degrades below a blend, so it is given up. Then it rolls 5 coffee dice (Sacchar adds as many flavour dice
    from the flavour coaster as its METER shows, at most those there; OmniBlend may re-roll as
    many times as its METER shows).
    """
    rules, c = state.rules, CORPORATION
    if state.rainbow_by == c:
        state = state._award([(c, rules.rainbow_pp)])
        if state.phase == OVER:
            return state
    if state.featured_by == c:
        state = state._award([(c, rules.featured_pp)])
        if state.phase == OVER:
            return state
        size = state.featured_size - 1  # it degrades (all its dice are alike: no choice)
        if size > 2:  # and keeps it above Decaf
            return state._with(featured_size=size).end_turn()
        if size == 2 and rules.corp_keeps_decaf:  # degraded to Decaf: the Decaf stays on the coaster while it rolls 5
            state = state._with(featured_size=size)
        else:  # it gives the blend up (Ruling corp_keeps_decaf=False, or below Decaf) and rolls 5
            state = state._clear_featured()
    shows = state.meter_shows
    flavour = min(shows, state.flavour_coaster) if rules.solo == "sacchar" else 0
    return state._with(
        phase=CORP,
        rolling_white=ROLL_DICE,
        rolling_own=flavour,
        flavour_coaster=state.flavour_coaster - flavour,
        corp_rerolls=shows if rules.solo == "omniblend" else 0,
        corp_first=True,
    )


def corp_resolve(state: S) -> S:
    """The corporation's dice have landed: a Featured Blend, a Rainbow, a re-roll (OmniBlend) or nothing.

    A Featured Blend needs ``corp_success_size`` of a kind (Ruling) and must beat the coaster
    (its own Decaf too, if it kept one: Ruling ``corp_keeps_decaf``); it may hold both blends
    (Rule ``corp_holds_both``). A first roll with no Featured Blend that shows five colours takes
    the Rainbow unless it holds it (Sacchar then rolls its block die too if Ruling
    ``sacchar_rainbow="block"``). OmniBlend keeps its largest group (ties: the higher colour)
    and re-rolls the rest while it has re-rolls (option ``omniblend_rerolls``: the rules' ``"seed"``
    ends the roll at a first-roll Featured Blend, else uses every re-roll, its last dice making its
    blend; ``"stop_at_blend"`` stops at any blend; ``"always"`` re-rolls a first-roll blend too).
    Success moves the METER down a position, a turn without a blend moves it up.
    """
    rules, c = state.rules, CORPORATION
    counts = [state.white.count(col) + state.own.count(col) for col in COLOURS]
    jokers = state.own.count(JOKER)
    best = best_of_counts(counts, jokers)
    coaster = state.featured  # its own Decaf, if it kept one (corp_keeps_decaf), must be beaten like any blend
    success = best.size >= rules.corp_success_size and best > coaster
    omni_reroll = rules.solo == "omniblend" and state.corp_rerolls > 0
    goes_on = omni_reroll and best.size < LARGEST_BLEND and (
        rules.omniblend_rerolls == "always" or (rules.omniblend_rerolls == "seed" and not state.corp_first))
    if success and not goes_on:
        won = state._clear_roll()._clear_featured()._with(
            featured_by=c, featured_colour=best.colour, featured_size=best.size,
            rainbow_by=state.rainbow_by if (rules.corp_holds_both or state.rainbow_by != c) else -1,
            meter=max(0, state.meter - 1),
        )
        won = won._award([(c, 1)])
        return won if won.phase == OVER else won.end_turn()
    if not success and state.corp_first and state.rainbow_by != c and rainbow_of_counts(counts, jokers):
        won = state._clear_roll()._with(rainbow_by=c, meter=max(0, state.meter - 1))
        if won.featured_by == c and not rules.corp_holds_both:  # the Decaf it kept goes: it cannot hold both
            won = won._clear_featured()
        won = won._award([(c, 1)])
        if won.phase == OVER:
            return won
        if rules.solo == "sacchar" and rules.sacchar_rainbow == "block":  # no Featured Blend: it still rolls the block die
            return won._with(phase=BLOCK, rolling_white=1, corp_rerolls=0, corp_first=False)
        return won.end_turn()
    if omni_reroll:
        size, rank = max((n, r) for r, n in enumerate(counts, start=1))
        if size < ROLL_DICE:  # keep the best group, re-roll the rest
            return state._with(
                phase=CORP, white=(COLOURS[rank - 1],) * size, rolling_white=ROLL_DICE - size,
                corp_rerolls=state.corp_rerolls - 1, corp_first=False,
            )
    if success:  # OmniBlend that went on improving a blend it already had, and holds five alike
        return corp_resolve(state._with(corp_rerolls=0))
    lost = state._clear_roll()._with(meter=min(len(rules.meter_values) - 1, state.meter + 1), corp_rerolls=0, corp_first=False)
    if rules.solo == "sacchar":
        return lost._with(phase=BLOCK, rolling_white=1)
    return lost.end_turn()
