"""Every choice at a VivaJava decision, with its exact value under a one-turn-lookahead model.

**What ``value`` measures.** The PP you can expect from a choice *up to and including the
scoring at the start of your next turn*: PP gained now, plus each blend coaster's PP times
the exact chance that you still hold that coaster when your turn comes round again. It is
a one-turn lookahead, **not** full-game optimal play: later turns, abilities used later
and the race to 21 PP are not valued. Research earns no PP this turn, so it is valued by
a documented *proxy* (below); compare research with blends with that in mind.

* **Featured Blend**: 1 PP now + the coaster's PP × P(nobody beats it before your next
  turn). Taking one while you hold the Rainbow gives the Rainbow back (Ruling
  ``both_blends``), so its Rainbow term is lost.
* **Rainbow Blend**: 1 PP now (0 if you hold it already) + the Rainbow's PP × P(nobody
  takes it before your next turn).
* **Keep** a degraded Featured Blend: its PP × P(nobody beats it). **Re-roll** (and a
  forced re-roll, and Keep Rolling): the exact expectation, over the roll, of the best
  value above for the dice you would roll. Only your own dice count there; tokens are
  not spent again.
* **Research** (the proxy): each RP gained is worth its track's completion PP ÷ its
  length (:func:`rp_value`), so the RP that fill a track add up to exactly its PP; a
  flavour die (researching black, Extra Flavour) is worth the mean of those five rates
  (:func:`flavour_die_value`); abilities unlocked are not valued. Research Boost is the
  RP it marks; a token gained is valued like one RP of its track (moving one: the
  difference); Decline is 0; Upgrade / Flip Bean are worth the best choice they lead to.
  While you hold the Rainbow, research also carries the Rainbow term above.

**The other players until your next turn** (the model behind every chance):

* With other players: each, in seat order, rolls 5 coffee dice plus the flavour dice
  they hold once your choice is made, makes a Featured Blend whenever that roll beats
  the coaster, and otherwise takes the Rainbow when their roll shows one (what
  :func:`~.policy.greedy_policy` does). One who holds the Featured Blend degrades it,
  keeps it with 3+ dice and otherwise re-rolls what is left. Flavour dice offered by
  others (Ruling ``offer_flavour``), flavour dice won during their turns, tokens and
  abilities are not counted: the chances are those of the engine exactly when nobody
  can fund with offered dice (two players and you hold none, or ``offer_flavour=False``),
  and otherwise the chance of losing a blend is a lower bound.
* Solo: the corporation exactly as the engine plays it, for the METER it shows now:
  Sacchar rolls 5 coffee dice and as many flavour dice as the METER shows (at most those
  on the flavour coaster); OmniBlend re-rolls all but its best group up to the METER's
  number of times (:func:`omniblend_beats`), and a first roll of five colours takes the
  Rainbow instead unless it holds it.

Columns of :func:`advise`: ``action``, ``label``, ``value`` (exact Fraction or None),
``p_lost`` (the chance of losing the blend: beaten, or the Rainbow taken, before your
next turn; for a re-roll the chance it does not beat the blend you gave up), ``rp`` (RP,
or flavour dice, gained), ``then`` (what follows, in words) and ``best``.

Example (a 2-player opening: a Regular red against the other player's next roll):
    >>> from coffeegames.vivajava import Game, Rolled, SetupResearch
    >>> s = Game(players=2).new_initial_state().apply(SetupResearch("green"))
    >>> s = s.apply(Rolled(white=("red", "red", "red", "green", "black")))
    >>> table = advise(s).set_index("label")
    >>> table.loc["Featured(Regular red)", ["value", "p_lost"]].tolist()
    [Fraction(688, 243), Fraction(41, 486)]
    >>> table.index[table.best].tolist()
    ['Featured(Regular red)']
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import prod

import numpy as np
import pandas as pd

from ..exact import count_vectors
from .dice import COLOURS, JOKER, LARGEST_BLEND, NO_BLEND, Blend
from .odds import best_blend_codes, colour_table, p_beats
from .rules import ABILITIES, CORPORATION, ROLL_DICE, TRACK_COLOURS, Rules
from .state import (
    Boost,
    Decline,
    Featured,
    Flip,
    GainToken,
    Keep,
    KeepRolling,
    Rainbow,
    Reroll,
    Research,
    SetupResearch,
    State,
    TakeFlavour,
    Upgrade,
)

__all__ = [
    "COLUMNS",
    "Outlook",
    "advise",
    "corporation_chance",
    "flavour_die_value",
    "omniblend_beats",
    "p_featured_lost",
    "p_rainbow_lost",
    "roll_value",
    "rp_value",
]

COLUMNS = ["action", "label", "value", "p_lost", "rp", "then", "best"]
_FACES = COLOURS + (JOKER,)


# -- proxies ------------------------------------------------------------------------------

def rp_value(rules: Rules, colour: str) -> Fraction:
    """The proxy PP of one RP on the track of ``colour``: its completion PP ÷ its length.

    >>> rp_value(Rules(), "red")      # stand-in data: the red track has 7 RP and pays 4 PP
    Fraction(4, 7)
    """
    track = rules.track(colour)
    return Fraction(track.pp, track.length)


def flavour_die_value(rules: Rules) -> Fraction:
    """The proxy PP of one flavour die: the mean of the five tracks' :func:`rp_value`.

    >>> flavour_die_value(Rules())
    Fraction(727, 1400)
    """
    return sum((rp_value(rules, c) for c in TRACK_COLOURS), Fraction(0)) / len(TRACK_COLOURS)


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
    def of(cls, state: State) -> Outlook:
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
    for counts, w in count_vectors(rolling):
        counts = list(counts)
        if kept:
            counts[rank - 1] += kept
        weights[_best_group(counts)] += w
    return tuple((g, Fraction(w, 6**rolling)) for g, w in sorted(weights.items()))


@lru_cache(maxsize=None)
def omniblend_beats(target: Blend, rerolls: int, takes_rainbow: bool = True) -> Fraction:
    """P(OmniBlend TransGlobal ends its roll with a blend beating ``target``), re-rolling up to ``rerolls`` times.

    It keeps its largest group (ties: the higher colour) and re-rolls the rest, stopping
    once it beats ``target``. With ``takes_rainbow``, a first roll of five different colours
    takes the Rainbow instead (as the engine plays it when the corporation does not hold
    it). Pass ``target=Blend(2, 6)`` (a Decaf black) for "three of a kind or better".

    >>> from coffeegames.vivajava.odds import omniblend_success
    >>> omniblend_beats(Blend(2, 6), 1, takes_rainbow=False) == omniblend_success(1)
    True
    >>> omniblend_beats(Blend(2, 6), 1)
    Fraction(169, 324)
    """

    def beats(group: tuple[int, int]) -> bool:
        size, rank = group
        return size >= 2 and Blend(min(size, LARGEST_BLEND), rank) > target

    won, live = Fraction(0), defaultdict(Fraction)
    for group, p in _omni_roll(0, 0):
        if beats(group):
            won += p
        elif not (takes_rainbow and group[0] == 1):  # one of each colour: a rainbow
            live[group] += p
    for _ in range(rerolls):
        after: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for group, p in live.items():
            if group[0] >= ROLL_DICE:  # five alike that still lose: nothing to re-roll
                after[group] += p
                continue
            for new, q in _omni_roll(*group):
                if beats(new):
                    won += p * q
                else:
                    after[new] += p * q
        live = after
    return won


def _corp_beats(o: Outlook, blend: Blend) -> Fraction:
    """P(the corporation makes a Featured Blend beating ``blend`` on its next roll)."""
    target = max(blend, o.corp_floor)
    if o.rules.solo == "sacchar":
        return p_beats(target, white=ROLL_DICE, flavour=o.corp_flavour)
    return omniblend_beats(target, o.rules.meter_values[o.meter], takes_rainbow=o.rainbow_by != CORPORATION)


def corporation_chance(state: State) -> Fraction:
    """The solo corporation's exact chance to make a Featured Blend when it next rolls, at the METER it shows now.

    It must beat the coaster as it stands (a blend the corporation holds itself is given up
    before it rolls) with three of a kind or better.

    >>> from coffeegames.vivajava import Game
    >>> corporation_chance(Game(solo="omniblend", meter="yellow").new_initial_state())
    Fraction(169, 324)
    """
    if not state.solo:
        raise ValueError("only a solo game has a corporation")
    o = Outlook.of(state)
    coaster = state.featured if state.featured_by not in (-1, CORPORATION) else NO_BLEND
    return _corp_beats(o, coaster)


# -- losing a blend before your next turn ----------------------------------------------------

def _rainbow_flags(counts: np.ndarray) -> np.ndarray:
    present = (counts[:, :6] > 0).sum(axis=1)
    return present + np.minimum(counts[:, 6], len(COLOURS) - present) >= 5


@lru_cache(maxsize=512)
def _roll_effects(white: int, flavour: int, coaster: Blend) -> tuple[dict[Blend, Fraction], Fraction]:
    """A roll against ``coaster``: the law of the new blend when it beats it, and P(no blend beats it but a rainbow shows)."""
    counts, weights = colour_table(white, flavour)
    codes = best_blend_codes(counts)
    beat = codes > coaster.size * 10 + coaster.rank
    total = 6 ** (white + flavour)
    new = {Blend(int(c) // 10, int(c) % 10): Fraction(int(weights[codes == c].sum()), total) for c in np.unique(codes[beat])}
    return new, Fraction(int(weights[~beat & _rainbow_flags(counts)].sum()), total)


@lru_cache(maxsize=4096)
def _featured_kept(o: Outlook) -> Fraction:
    """P(you still hold the Featured Blend ``o.featured`` when your next turn starts)."""
    if o.rules.solo:
        return 1 - _corp_beats(o, o.featured)
    return prod((1 - p_beats(o.featured, white=ROLL_DICE, flavour=o.flavour[q]) for q in o.others), start=Fraction(1))


@lru_cache(maxsize=4096)
def _rainbow_kept(o: Outlook) -> Fraction:
    """P(you still hold the Rainbow when your next turn starts)."""
    if o.rules.solo:
        holds = o.featured_by == CORPORATION
        if holds and o.featured.size - 1 > 2:  # it degrades, keeps its blend and does not roll
            return Fraction(1)
        coaster = NO_BLEND if holds or o.featured_by < 0 else o.featured
        return 1 - _roll_effects(ROLL_DICE, o.corp_flavour, max(coaster, o.corp_floor))[1]
    alive: dict[tuple[Blend, int], Fraction] = {(o.featured, o.featured_by): Fraction(1)}
    for q in o.others:
        after: dict[tuple[Blend, int], Fraction] = defaultdict(Fraction)
        for (coaster, holder), p in alive.items():
            if holder == q:  # they score, degrade, keep 3+ dice or re-roll the rest
                size = coaster.size - 1
                if size >= 3:
                    after[(Blend(size, coaster.rank), q)] += p
                    continue
                white, faced, unchanged = size, NO_BLEND, (NO_BLEND, -1)
            else:
                white, faced, unchanged = ROLL_DICE, coaster, (coaster, holder)
            new, p_rainbow = _roll_effects(white, o.flavour[q], faced)
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
    return 1 - _featured_kept(_with_featured(Outlook.of(state), blend, funded))


def p_rainbow_lost(state: State) -> Fraction:
    """P(the Rainbow, held by the player to move once their turn ends, is taken before their next turn).

    >>> from coffeegames.vivajava import Game, p_rainbow
    >>> p_rainbow_lost(Game(players=2).new_initial_state()) == p_rainbow(5)
    True
    """
    o = Outlook.of(state)
    return 1 - _rainbow_kept(replace(o, rainbow_by=o.you))


def _with_featured(o: Outlook, blend: Blend, funded: tuple[tuple[int, int], ...]) -> Outlook:
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


# -- values of single choices ---------------------------------------------------------------

def _holding(o: Outlook) -> Fraction:
    """The expected PP of the Rainbow you hold, scored at your next turn (0 if you do not hold it)."""
    return o.rules.rainbow_pp * _rainbow_kept(o) if o.rainbow_by == o.you else Fraction(0)


def _featured(o: Outlook, blend: Blend, funded: tuple[tuple[int, int], ...] = ()) -> tuple[Fraction, Fraction]:
    kept = _featured_kept(_with_featured(o, blend, funded))
    return 1 + o.rules.featured_pp * kept, 1 - kept


def _rainbow(o: Outlook) -> tuple[Fraction, Fraction]:
    kept = _rainbow_kept(replace(o, rainbow_by=o.you))
    return int(o.rainbow_by != o.you) + o.rules.rainbow_pp * kept, 1 - kept


def _research_gain(state: State, colour: str, count: int) -> int:
    """RP a research of ``colour`` marks with ``count`` dice showing it (black: flavour dice taken)."""
    rules = state.rules
    if colour == "black":
        if state.blocked == "black" and rules.black_block:
            return 0
        supply = state.flavour_coaster + (len(state.own) + state.rolling_own if rules.return_flavour_first else 0)
        return min(count, supply)
    have = state.players[state.turn].research[TRACK_COLOURS.index(colour)]
    return min(count, rules.track(colour).length - have)


def _research_value(state: State, colour: str, gained: int) -> Fraction:
    rate = flavour_die_value(state.rules) if colour == "black" else rp_value(state.rules, colour)
    return gained * rate


def _research_then(state: State, colour: str, gained: int) -> str:
    if colour == "black":
        return f"+{gained} flavour {'die' if gained == 1 else 'dice'}"
    track = state.rules.track(colour)
    old = state.players[state.turn].research[TRACK_COLOURS.index(colour)]
    new = old + gained
    text = f"+{gained} RP on {colour}: {new} of {track.length}"
    if new >= track.length:
        return text + f", completes it (+{track.pp} PP now)"
    marks = [mark for mark, at in (("1X", track.x1), ("2X", track.x2)) if old < at <= new]
    return text + (f", unlocks {' and '.join(marks)} {ABILITIES[track.ability].name}" if marks else "")


# -- the roll: exact expectation of the best choice ------------------------------------------

def _counts_row(faces: Iterable[str]) -> np.ndarray:
    """Counts of ``faces`` as one row of a colour table (six colours, then jokers)."""
    row = np.zeros(7, dtype=np.int16)
    for face in faces:
        row[_FACES.index(face)] += 1
    return row


def _researchable(state: State) -> list[str]:
    """Colours the player to move may research after their roll (open tracks not blocked, and black)."""
    return [c for c in TRACK_COLOURS if state.is_open(state.turn, c) and c != state.blocked] + ["black"]


def roll_value(state: State) -> Fraction:
    """The exact expected value of the best blend or research after the roll pending at ``state``.

    Counts the roller's own dice (those still showing and those rolling); tokens are not
    spent again and offered dice are not used.

    >>> from coffeegames.vivajava import Game, SetupResearch
    >>> s = Game(players=2).new_initial_state().apply(SetupResearch("green"))   # player 0 rolls 5 dice next
    >>> roll_value(s) > 1
    True
    """
    if state.phase != "roll":
        raise ValueError(f"roll_value needs the player's roll (phase 'roll'), not phase {state.phase!r}")
    rules, o = state.rules, Outlook.of(state)
    held = _counts_row(state.white + state.own)
    counts, weights = colour_table(state.rolling_white, state.rolling_own)
    counts = counts + held
    codes = best_blend_codes(counts)
    jokers = counts[:, 6:7] if rules.jokers_in_research else 0
    found = np.minimum(counts[:, :6] + jokers, rules.research_cap)
    keys, where = np.unique(np.column_stack([codes, _rainbow_flags(counts), found]), axis=0, return_inverse=True)
    mass = np.zeros(len(keys), dtype=np.int64)
    np.add.at(mass, where.reshape(-1), weights)

    coaster = state.featured.size * 10 + state.featured.rank
    may_feature = not (rules.both_blends == "no_featured" and state.rainbow_by == state.turn)
    colours = _researchable(state)
    holding = _holding(o)

    @lru_cache(maxsize=None)
    def featured(code: int) -> Fraction:
        return _featured(o, Blend(code // 10, code % 10))[0]

    @lru_cache(maxsize=None)
    def research(colour: str, count: int) -> Fraction:
        return _research_value(state, colour, _research_gain(state, colour, count)) + holding

    total = Fraction(0)
    for key, m in zip(keys.tolist(), mass.tolist()):
        code, rainbow, found_by_colour = key[0], key[1], dict(zip(COLOURS, key[2:]))
        best = max(research(c, found_by_colour[c]) for c in colours)
        if may_feature and code > coaster:
            best = max(best, featured(code))
        if rainbow:
            best = max(best, _rainbow(o)[0])
        total += m * best
    return total / 6 ** (state.rolling_white + state.rolling_own)


# -- the table ---------------------------------------------------------------------------

def _row(action: object, value: Fraction | None = None, p_lost: Fraction | None = None, rp: int | None = None, then: str = "") -> dict:
    return {"action": action, "label": str(action), "value": value, "p_lost": p_lost, "rp": rp, "then": then}


def _act_rows(state: State, tokens: bool = True) -> list[dict]:
    o = Outlook.of(state)
    holding = _holding(o)
    rows = []
    for action in state.legal_actions():
        if isinstance(action, Featured):
            value, lost = _featured(o, Blend.of(action.size, action.colour), action.funded)
            gives_back = ", and gives the Rainbow back" if state.rainbow_by == state.turn else ""
            rows.append(_row(action, value, lost, then=f"scores {state.rules.featured_pp} PP at your next turn if not beaten{gives_back}"))
        elif isinstance(action, Rainbow):
            value, lost = _rainbow(o)
            held = "scores nothing now (you hold it); " if state.rainbow_by == state.turn else ""
            rows.append(_row(action, value, lost, then=f"{held}scores {state.rules.rainbow_pp} PP at your next turn if not taken"))
        elif isinstance(action, Research):
            gained = _research_gain(state, action.colour, state.research_count(action.colour))
            value = _research_value(state, action.colour, gained) + holding
            rows.append(_row(action, value, rp=gained, then=_research_then(state, action.colour, gained)))
        elif not tokens:
            continue
        elif isinstance(action, KeepRolling):
            rows.append(_row(action, roll_value(state.apply(action)), then=f"re-roll {len(action.dice)} dice"))
        elif isinstance(action, (Upgrade, Flip)):
            after = _act_rows(state.apply(action), tokens=False)
            best = max(after, key=lambda r: r["value"])
            rows.append(_row(action, best["value"], then=f"then {best['label']}"))
        else:  # pragma: no cover - every act-phase action is handled above
            rows.append(_row(action))
    return rows


def _keep_rows(state: State) -> list[dict]:
    o = Outlook.of(state)
    kept = state.featured
    keep = _featured_kept(o)
    dice, flavour = state.featured_size, state.players[state.turn].flavour
    rolled = f"roll {dice} dice" + (f" + {flavour} flavour" if flavour else "")
    return [
        _row(Keep(), state.rules.featured_pp * keep, 1 - keep, then=f"scores {state.rules.featured_pp} PP at your next turn if not beaten"),
        _row(Reroll(), roll_value(state.apply(Reroll())), 1 - p_beats(kept, white=dice, flavour=flavour), then=f"{rolled}, give up {kept}"),
    ]


def _degrade_rows(state: State) -> list[dict]:
    rows = []
    for action in state.legal_actions():
        after = state.apply(action)
        if after.phase == "keep":
            value, then = max(r["value"] for r in _keep_rows(after)), f"{after.featured}: keep it or re-roll"
        else:
            value, then = roll_value(after), "one die left: it is re-rolled"
        if action.funder is not None:
            then += f"; player {action.funder}'s marker goes home"
        rows.append(_row(action, value, then=then))
    return rows


def _activate_rows(state: State) -> list[dict]:
    rules, colour = state.rules, state.pending[0]
    rows = []
    for action in state.legal_actions():
        if isinstance(action, Boost):
            rows.append(_row(action, rp_value(rules, action.target), rp=1, then=f"+1 RP on {action.target}"))
        elif isinstance(action, TakeFlavour):
            rows.append(_row(action, flavour_die_value(rules), rp=1, then="+1 flavour die"))
        elif isinstance(action, GainToken):
            moved = rp_value(rules, action.move_from) if action.move_from else Fraction(0)
            rows.append(_row(action, rp_value(rules, colour) - moved, then=f"a {rules.ability(colour).name} token"))
        elif isinstance(action, Decline):
            rows.append(_row(action, Fraction(0)))
        else:  # pragma: no cover - every activation choice is handled above
            rows.append(_row(action))
    return rows


def advise(state: State) -> pd.DataFrame:
    """One row per legal action: its exact value (the one-turn model above), the chance of losing the blend, the best marked.

    At chance nodes and at the end the table is empty.
    """
    phase = state.phase
    if state.is_chance() or state.is_terminal():
        rows: list[dict] = []
    elif phase == "setup":
        rows = [_row(a, rp_value(state.rules, a.colour), rp=1, then=f"+1 RP on {a.colour}") for a in state.legal_actions() if isinstance(a, SetupResearch)]
    elif phase == "degrade":
        rows = _degrade_rows(state)
    elif phase == "keep":
        rows = _keep_rows(state)
    elif phase == "act":
        rows = _act_rows(state)
    else:
        rows = _activate_rows(state)
    frame = pd.DataFrame(rows, columns=COLUMNS[:-1], dtype=object)  # exact Fractions and whole RP, never floats
    valued = [v for v in frame["value"] if v is not None]
    top = max(valued) if valued else None
    frame["best"] = [v is not None and v == top for v in frame["value"]]
    return frame
