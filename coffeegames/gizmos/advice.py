"""Every choice at a Gizmos decision: its value by search playouts (an estimate), and its exact immediate consequences.

**What ``value`` measures.** The mover's *margin*: their points plus the engine value of
their gizmos, less the best opponent's (:func:`~.policy.evaluate`), at the end of a horizon
of rounds (or the end of the game), averaged over the playouts of the search bot's tree
search (:func:`~.policy.search_stats`) that took this action first. It is an **estimate**:
each row's ``sample`` (a :class:`~coffeegames.engine.Sample`) gives its standard error, how
many playouts it rests on and how they spread (how many ended ahead, the margin's quartiles):
the decision view shows it as a decimal ± its standard error, never as a fraction. ``value``
is the playouts' mean, the exact sum of its parts' means (:data:`PARTS`, :func:`margin_parts`;
:func:`~.explain.explain` shows them); it is an estimate all the same. The best is marked only
where it stands clear of the next (:data:`SEPARATED` standard errors; more playouts are run
until it does, within :data:`BUDGET`); else none is: the top choices are tied within the noise.
Seeded: the same state and seed give the same table.

**Exact immediate consequences** (the engine applied once, no estimate), the row's details:
``points`` (the mover's score change: a Build's printed points, a token effect's tokens),
``energy`` (the change in energy stored: a Pick's marble, a Build's payment), ``sets_off``
(the gizmos the action makes wait to fire), ``colour``; and its ``risk``: for an action that
sets off random draws into the mover's storage (a gizmo drawing energy), the exact chance
that they bring at least one marble of ``colour``: the colour of the card you name
(``card=``), or of the mover's best target, the card they value most per energy still
missing (:func:`target`); None for other actions. ``then`` says them in words.

The playouts use only what the mover knows: the cards another player put under a deck are
re-drawn from the cards the mover cannot tell them from in every playout
(:meth:`~.state.State.determinise`).

Example:
    >>> from coffeegames.gizmos import Game
    >>> s = Game().new_initial_state(seed=1)
    >>> rows = advise(s, playouts=40)
    >>> len(rows) == len(s.legal_actions()), sum(row.best for row in rows) <= 1, any(row.exact for row in rows)
    (True, True, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ..engine.advice import Advice, Sample, ranked
from ..errors import BadArgument
from ..text import percent
from ..validate import Checker, check_instance, is_whole
from .actions import Fire, Phase, energy_words
from .data import COLOURS
from .data import Card as CardFacts
from .odds import p_at_least
from .policy import Stats, _card_value, _progress, _value_parts, check_search, search_stats
from .state import State

__all__ = ["ENGINE_VALUE_WORDS", "PARTS", "Searched", "advise", "margin_parts", "phase_words", "searched", "target"]

_QUARTILES = (0.0, 0.25, 0.5, 0.75, 1.0)

MEASURES = "the margin over the best opponent (points plus engine value), estimated by search playouts"


def target(state: State) -> tuple[CardFacts | None, str]:
    """The mover's best target: the display or archive card of one colour they value most per energy still missing,
    and that colour ('' if none lacks energy)."""
    check_instance(state, State, "state", "a Gizmos state")
    me, best, score = state.me, None, 0.0
    for ident in state.display[0] + state.display[1] + state.display[2] + me.archive:
        card = state.rules.card(ident)
        if card.colour not in COLOURS:
            continue
        short = card.cost - me.energy[COLOURS.index(card.colour)]
        if short > 0:
            value = _card_value(state, state.turn, card) / short
            if value > score:
                best, score = card, value
    return best, best.colour if best is not None else ""


def _draws_set_off(state: State, action: Any) -> int:
    """How many random marbles into the mover's storage ``action`` sets off at once (a gizmo's draw effect), within
    the room left."""
    if not isinstance(action, Fire):
        return 0
    effect = state.rules.card(action.gizmo).effect
    if effect.kind != "draw_random":
        return 0
    room = state.limits(state.turn)[0] - sum(state.me.energy)
    return max(0, min(effect.count, room))


def _consequences(state: State, action: Any, colour: str) -> tuple[tuple[tuple[str, Any], ...], Fraction | None, str]:
    """An action's exact immediate consequences: its details, its risk (``p_colour``) and them in words."""
    me = state.turn
    after = state.apply(action)
    points = after.score(me) - state.score(me)
    energy = sum(after.players[me].energy) - sum(state.players[me].energy)
    new = [g for g in after.ready if g not in state.ready] if after.turn == me and not after.over else []
    draws = _draws_set_off(state, action)
    p = p_at_least(dict(zip(COLOURS, state.dispenser)), colour, 1, draws) if draws and colour else None
    words = []
    if points:
        words.append(f"{points:+d} points")
    if energy:
        delta = tuple(a - b for a, b in zip(after.players[me].energy, state.players[me].energy))
        gained = tuple(max(0, d) for d in delta)
        spent = tuple(max(0, -d) for d in delta)
        words += [f"+{energy_words(gained)}"] if any(gained) else []
        words += [f"pays {energy_words(spent)}"] if any(spent) else []
    if draws:
        words.append(f"draws {draws} random marble{'s' if draws > 1 else ''}"
                     + (f" (P(a {colour}) = {p})" if p is not None else ""))
    if new:
        words.append("sets off " + ", ".join(f"#{g}" for g in new))
    if after.turn != me or after.over:
        words.append("ends the turn")
    details = (("points", points), ("energy", energy), ("sets_off", tuple(new)), ("colour", colour if draws else ""))
    return details, p, "; ".join(words)


def _sample(stats: Stats, horizon: int | None) -> Sample:
    """The playouts behind one action's estimate: their size, standard error and spread, in words."""
    n, margins = stats.n, stats.margins
    counts = [("ended ahead of the best opponent", sum(m > 0 for m in margins)),
              ("ended level with the best opponent", sum(m == 0 for m in margins)),
              ("ended behind the best opponent", sum(m < 0 for m in margins))]
    spread = tuple((f"playouts that {what}", f"{k} of {n} ({percent(Fraction(k, n))})") for what, k in counts if k)
    spread += (("margin: lowest · quartiles · highest", " · ".join(f"{q:.2f}" for q in np.quantile(margins, _QUARTILES))),)
    reach = f"{horizon} more round{'s' if horizon != 1 else ''}" if horizon is not None else "the end of the game"
    note = (f"seeded search playouts (UCT), each played to {reach}; margin: points plus engine value, less the best "
            f"opponent's; {ENGINE_VALUE_WORDS}")
    return Sample(n, stats.se if n > 1 else float("nan"), note=note, unit="playouts", spread=spread)


PARTS = ("your points", "your gizmos' engine value", "your stored energy and archive", "less the best opponent's value")
"""The parts of a playout's margin, in order (:func:`margin_parts`); they add up to the margin exactly."""
ENGINE_VALUE_WORDS = ("engine value: what the bots expect a built gizmo's effect to bring over the rest of the game "
                      "(a points estimate, not points on the card: its effect's worth per use times the share of the "
                      "game left)")
""""Engine value" defined, in the words shown beside it."""
SEPARATED = 2.0
"""The best choice is marked only when its estimate is this many standard errors of the difference above the next."""
BUDGET = 4
"""Without it separated, the search is run again with twice the playouts, up to this many times those asked for."""


def margin_parts(end: State, me: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """A playout's margin for ``me`` where it ended (``end``), in the :data:`PARTS`: exact Fractions of the search's own
    numbers, whose sum is the margin (at the end of the game, points only)."""
    check_instance(end, State, "end", "a Gizmos state (where a playout ended)")
    Checker("margin_parts", BadArgument).whole(me, "me", 0, len(end.players) - 1)
    if end.is_terminal():
        values = [(Fraction(end._score(i)), Fraction(0), Fraction(0)) for i in range(len(end.players))]
    else:
        left = 1.0 - _progress(end)
        values = [tuple(Fraction(x) for x in _value_parts(end, i, left)) for i in range(len(end.players))]  # type: ignore[misc]
    best = max(sum(v) for i, v in enumerate(values) if i != me)
    return (*values[me], -best)  # type: ignore[return-value]


@dataclass(frozen=True)
class Searched:
    """One search: the playouts it ran (``playouts``, with the budget's doublings), each root action's statistics and
    the sums of its playouts' margin parts (exact); ``separated``: whether the best estimate stands clear of the next."""

    playouts: int
    stats: dict[Any, Stats]
    sums: dict[Any, tuple[Fraction, ...]]
    values: dict[Any, Fraction]
    """Each action's estimate: the mean of its playouts' margins, exactly the sum of its parts' means."""
    separated: bool


def _apart(first: Stats, second: Stats) -> bool:
    return first.mean - second.mean > SEPARATED * math.hypot(first.se, second.se) and first.n > 1 and second.n > 1


def searched(state: State, playouts: int, seed: int | None, horizon: int | None) -> Searched:
    """The search behind :func:`advise` and :func:`~.explain.explain` (remembered: they share it). Seeded, so the same
    position always gives the same answer: with the best two estimates within the noise after ``playouts``, it runs on
    to twice as many (the same seeded playouts continued, as a search of that many would run them), until they are
    apart or the budget (:data:`BUDGET` times ``playouts``) is reached."""
    check_instance(state, State, "state", "a Gizmos state")
    check_search(playouts, seed, horizon)
    return _searched(state, playouts, seed, horizon)


@lru_cache(maxsize=8)
def _searched(state: State, playouts: int, seed: int | None, horizon: int | None) -> Searched:
    """:func:`searched`, checked, remembered for the last few positions."""
    checks = {playouts << k for k in range(BUDGET.bit_length()) if playouts << k <= BUDGET * playouts}

    def apart(stats: dict[Any, Stats]) -> bool:
        valued = sorted((st for st in stats.values() if st.n > 0), key=lambda st: -st.mean)
        return len(valued) < 2 or _apart(valued[0], valued[1])

    stats = search_stats(state, max(checks, default=0), seed, horizon, stop=lambda k, stats: k in checks and apart(stats))
    n, separated = sum(st.n for st in stats.values()), apart(stats)
    me = state.turn
    sums = {a: tuple(sum(column, Fraction(0)) for column in zip(*(margin_parts(end, me) for end in st.ends)))
            for a, st in stats.items() if st.n > 0}
    values = {a: sum(parts, Fraction(0)) / stats[a].n for a, parts in sums.items()}
    return Searched(n, stats, sums, values, separated)


def advise(state: State, playouts: int = 300, seed: int | None = 0, horizon: int | None = 2,
           card: int | None = None) -> list[Advice]:
    """Every legal action at ``state`` once, best first: its estimated margin from search playouts (see the module
    notes), its exact immediate consequences, and the best (highest estimate) marked only where it stands clear of the
    next (:func:`searched`: ``playouts``, doubled within a budget until it does; else none is marked: the top choices
    are tied within the noise). ``card``: the card whose colour ``p_colour`` asks about (default: :func:`target`)."""
    check_instance(state, State, "state", "a Gizmos state")
    check_search(playouts, seed, horizon)
    if card is not None:
        Checker("advise", BadArgument).need(is_whole(card) and 0 <= card < len(state.rules.deck), "card",
                                            f"must be a card id 0-{len(state.rules.deck) - 1}", card)
    legal = state.legal_actions()
    search = searched(state, playouts, seed, horizon) if len(legal) > 1 else None
    stats = search.stats if search is not None else {}
    if card is None:
        _, colour = target(state)
    else:
        colour = state.rules.card(card).colour
        colour = colour if colour in COLOURS else ""
    rows = []
    for action in legal:
        st = stats.get(action)
        details, risk, then = _consequences(state, action, colour)
        if st is not None and st.n > 0:
            rows.append(Advice(action, str(action), search.values[action], _sample(st, horizon),  # type: ignore[union-attr]
                               MEASURES, then, risk=risk, details=details))
        else:
            rows.append(Advice(action, str(action), then=then, risk=risk, details=details))
    valued_at = [(row.value, i) for i, row in enumerate(rows) if row.value is not None]
    top = max(valued_at)[1] if valued_at else 0 if len(rows) == 1 else None  # ties: the last of the legal actions
    if search is not None and not search.separated:
        top = None  # the top choices are tied within the noise: no star
    return ranked([replace(row, best=i == top) for i, row in enumerate(rows)], mark=False)


def phase_words(state: State) -> str:
    """What the player to move is asked, in words."""
    check_instance(state, State, "state", "a Gizmos state")
    return {
        Phase.ACTION: "your action: File, Pick, Build or Research",
        Phase.TRIGGERS: "fire a waiting gizmo, or end the turn",
        Phase.PICK: "an effect: pick a marble from the row",
        Phase.FILE: "an effect: file a card from the display",
        Phase.FREE_BUILD: "an effect: build a gizmo for free",
        Phase.RESEARCH: "an effect: research a deck",
        Phase.CHOOSE: "research: file or build one card, or none",
    }.get(state.phase, str(state.phase))
