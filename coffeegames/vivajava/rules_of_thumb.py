"""VivaJava's keep or re-roll as a picture, and the plain rule that plays it as well as the one-turn model.

At the start of your turn you score the Featured Blend you hold and degrade it (one die off); then you keep what is
left or re-roll its dice (a Decaf degrades to one die: the re-roll is forced). A position is the degraded blend
(Decaf, Regular or Bold, of a colour). Both values are :func:`~.advice.advise`'s, the one-turn model of
:mod:`.advice`: **Keep** is the coaster's PP times the exact chance nobody beats it before your next turn,
**Re-roll** the exact expectation of the best choice the roll offers. The optimal policy takes the larger (ties keep).

**The start of a turn (an assumption).** The position is built from the game's start (each player's setup research the
first listed colour, then ``player`` 0 holding the Featured Blend, nothing else on the coasters) and the blend held is
distributed as the best blend of a roll of 5 coffee dice, given that the roll makes one
(:func:`~.odds.best_blend`): the blend a player who has just rolled 5 dice takes. The PP scored at the start of the
turn are the same whatever is chosen after it, so the values compared are those of the keep-or-re-roll choice.

The family (:func:`keep_rules`): always keep, always re-roll (size 0); keep a blend at least as good as X (blends
compare by size, then colour), keep any blend of a colour ranked at least c (size 1); either of those (size 2).

Example:
    >>> best = rule_of_thumb()
    >>> best["rule"], best["loss"]
    ('keep a Decaf red or better', Fraction(0, 1))
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from ..engine.rules_of_thumb import TOLERANCE, Rule, best_rule, optimal_policy, policy_figure, rule_values
from ..errors import BadArgument
from ..validate import check_instance
from .actions import Keep, Phase, Reroll
from .advice import advise, roll_value
from .dice import COLOURS, SIZE_NAMES, Blend
from .game import Game
from .odds import best_blend
from .state import State

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

__all__ = ["KEPT_SIZES", "keep_picture", "keep_policy", "keep_rules", "keep_values", "rule_of_thumb", "rule_start_value",
           "rule_table", "start_blends"]

KEPT_SIZES = (2, 3, 4)
"""Sizes of a degraded blend that may be kept (Decaf, Regular, Bold): an Extra Bold degrades to a Bold."""
PLAYERS = (2, 3, 4)


def _players(players: object) -> int:
    if players not in PLAYERS or isinstance(players, bool):
        raise BadArgument("players", "must be 2, 3 or 4 (the keep-or-re-roll model is of a game between players)", players)
    return int(players)


@lru_cache(maxsize=8)
def _start(players: int) -> State:
    """The game's start with every setup research made (the first listed colour): player 0 to roll."""
    state = Game(players=players).new_initial_state()
    while state.phase == Phase.SETUP:
        state = state.apply(state.legal_actions()[0])
    return state


def _turn_start(players: int, blend: Blend) -> State:
    """Player 0's turn starting with ``blend`` on the Featured Blend coaster: scored and degraded."""
    held = dataclasses.replace(_start(players), featured_by=0, featured_colour=blend.colour or "", featured_size=blend.size, funders=())
    return held.start_turn(0)


@lru_cache(maxsize=8)
def _values(players: int) -> dict[Blend, tuple[Fraction, Fraction]]:
    found = {}
    for size in KEPT_SIZES:
        for colour in COLOURS:
            state = _turn_start(players, Blend.of(size + 1, colour))
            rows = {type(r.action): r.value for r in advise(state)}
            keep, reroll = rows[Keep], rows[Reroll]
            assert keep is not None and reroll is not None, "advise values keep and re-roll"
            found[Blend.of(size, colour)] = (keep, reroll)
    return found


def keep_values(players: int = 2) -> dict[Blend, tuple[Fraction, Fraction]]:
    """``{degraded blend: (keep value, re-roll value)}``, exact, from :func:`~.advice.advise` at each position.

    >>> keep, reroll = keep_values()[Blend.of(2, "red")]
    >>> keep > reroll
    True
    """
    return dict(_values(_players(players)))


def start_blends() -> dict[Blend, Fraction]:
    """The blend held at the start of the turn: the best blend of 5 coffee dice, given that they make one (exact).

    >>> sum(start_blends().values())
    Fraction(1, 1)
    """
    dist = best_blend(coffee_dice=5)
    blends = {b: p for b, p in dist.items() if b.size >= 2}
    total = sum(blends.values(), Fraction(0))
    return {b: p / total for b, p in sorted(blends.items())}


@lru_cache(maxsize=8)
def _forced(players: int) -> Fraction:
    """A Decaf degrades to one die: the value of re-rolling it (forced)."""
    return roll_value(_turn_start(players, Blend.of(2, "white")))


def _order(blend: Blend) -> str:
    return f"{SIZE_NAMES[blend.size]} {blend.colour}"


def _at_least(x: Blend) -> Rule:
    return Rule(f"keep a {_order(x)} or better", 1, lambda b: "keep" if b >= x else "re-roll")


def _colour_at_least(rank: int) -> Rule:
    return Rule(f"keep a blend of {COLOURS[rank - 1]} or a colour after it ({', '.join(COLOURS)})", 1,
                lambda b: "keep" if b.rank >= rank else "re-roll")


def _either(x: Blend, rank: int) -> Rule:
    return Rule(f"keep a {_order(x)} or better, or any {COLOURS[rank - 1]} or later colour", 2,
                lambda b: "keep" if b >= x or b.rank >= rank else "re-roll")


@lru_cache(maxsize=1)
def _rules() -> tuple[Rule, ...]:
    found = [Rule("always keep", 0, lambda b: "keep"), Rule("always re-roll", 0, lambda b: "re-roll")]
    blends = [Blend.of(s, c) for s in KEPT_SIZES for c in COLOURS]
    found += [_at_least(x) for x in blends[1:]]
    found += [_colour_at_least(r) for r in range(2, len(COLOURS) + 1)]
    found += [_either(x, r) for x in blends[1:] for r in range(2, len(COLOURS) + 1)]
    return tuple(found)


def keep_rules() -> list[Rule]:
    """The family of plain keep-or-re-roll rules; each decides a degraded :class:`~.dice.Blend`.

    >>> [r.name for r in keep_rules()][:3]
    ['always keep', 'always re-roll', 'keep a Decaf yellow or better']
    """
    return list(_rules())


def rule_start_value(rule: Rule | None = None, players: int = 2) -> Fraction:
    """The exact value of the keep-or-re-roll choice at the start of a turn (module docstring) when ``rule`` makes it
    (None: the optimal policy, the larger value at each position).

    >>> rule_start_value() >= rule_start_value(keep_rules()[0])
    True
    """
    if rule is not None:
        check_instance(rule, Rule, "rule", "a Rule (from keep_rules)")
    values, forced = _values(_players(players)), _forced(_players(players))
    total = Fraction(0)
    for blend, p in start_blends().items():
        if blend.size == 2:
            total += p * forced
            continue
        keep, reroll = values[Blend(blend.size - 1, blend.rank)]
        if rule is None:
            total += p * max(keep, reroll)
        else:
            total += p * (keep if rule.decide(Blend(blend.size - 1, blend.rank)) == "keep" else reroll)
    return total


def keep_policy(players: int = 2) -> pd.DataFrame:
    """The optimal choice, "keep" or "re-roll", for each degraded blend: rows Decaf / Regular / Bold, columns the colours.

    >>> keep_policy().loc["Regular"].tolist()
    ['keep', 'keep', 'keep', 'keep', 'keep', 'keep']
    """
    values = _values(_players(players))

    def decide(size: str, colour: str) -> str:
        keep, reroll = values[Blend.of(_SIZES[size], colour)]
        return "keep" if keep >= reroll else "re-roll"

    return optimal_policy([SIZE_NAMES[s] for s in KEPT_SIZES], COLOURS, decide, "blend after degrading", "colour")


_SIZES = {SIZE_NAMES[s]: s for s in KEPT_SIZES}


def rule_table(players: int = 2, tolerance: Fraction | int = TOLERANCE) -> pd.DataFrame:
    """Every rule of :func:`keep_rules` with its exact start-of-turn value and loss against the optimal policy.

    >>> bool((rule_table()["loss"] >= 0).all())
    True
    """
    n = _players(players)
    return rule_values(rule_start_value(None, n), {r: rule_start_value(r, n) for r in _rules()}, tolerance)


def rule_of_thumb(players: int = 2, tolerance: Fraction | int = TOLERANCE) -> pd.Series:
    """The simplest rule within ``tolerance`` of the optimal policy (else the best found): a row of :func:`rule_table`.

    >>> rule_of_thumb()["within"]
    True
    """
    return best_rule(rule_table(players, tolerance))


def keep_picture(players: int = 2, rule: Rule | None = None) -> go.Figure:
    """:func:`keep_policy` as a heatmap; with a ``rule``, the cells where it chooses otherwise are marked.

    >>> keep_picture().layout.xaxis.title.text
    'colour'
    """
    title = f"VivaJava, {_players(players)} players: keep or re-roll the degraded Featured Blend (one-turn model)"
    return policy_figure(keep_policy(players), title, rule, lambda size, colour: Blend.of(_SIZES[size], colour))
