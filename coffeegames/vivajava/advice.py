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

**The options of the re-read rules** (``docs/rules/vivajava.md``): ``corp_keeps_decaf`` is
modelled (the Decaf a corporation keeps while rolling is the coaster its roll must beat,
:func:`corporation_chance`; the Decaf on the coaster limits your Featured Blends through the
legal actions); ``activations_at_2x`` changes no value, since abilities unlocked are not
valued (the ``then`` text says how often one activates); ``solo_first`` only decides the
first decision (the draw itself is a chance node, with no rows; your setup RP, when the
corporation starts, is valued like any RP); ``sacchar_rainbow`` decides whether Sacchar's
coming turn rolls the block die, which is not valued (a block in force now is: blocked
colours cannot be researched).

Each row of :func:`advise` (an :class:`~coffeegames.engine.Advice`): ``value`` (exact, or None),
``risk`` (the chance of losing the blend: beaten, or the Rainbow taken, before your
next turn; for a re-roll the chance it does not beat the blend you gave up), the detail
``rp`` (RP, or flavour dice, gained), ``then`` (what follows, in words) and ``best``.

Example (a 2-player opening: a Regular red against the other player's next roll):
    >>> from coffeegames.vivajava import Game, Rolled, SetupResearch
    >>> s = Game(players=2).new_initial_state().apply(SetupResearch("green"))
    >>> s = s.apply(Rolled(white=("red", "red", "red", "green", "black")))
    >>> best = advise(s)[0]
    >>> best.label, best.value, best.risk, best.best
    ('Featured(Regular red)', Fraction(688, 243), Fraction(41, 486), True)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
import numpy as np

from ..engine.advice import Advice, ranked
from ..validate import check_instance
from ..errors import BadArgument
from .actions import (
    Boost, Decline, Featured, Flip, GainToken, Keep, KeepRolling, Phase, Rainbow, Reroll, Research, SetupResearch,
    TakeFlavour, Upgrade,
)
from .dice import COLOURS, FACES, Blend
from .odds import best_blend_codes, colour_table, p_beats, rainbow_flags
from .outlook import (
    Outlook, corporation_chance, featured_kept, omniblend_beats, p_featured_lost, p_rainbow_lost, rainbow_kept,
    with_featured,
)
from .legal import degrade_choices
from .rules import ABILITIES, TRACK_COLOURS, Rules
from .state import State

__all__ = [
    "Outlook",
    "advise",
    "corporation_chance",
    "flavour_die_value",
    "omniblend_beats",
    "p_featured_lost",
    "p_rainbow_lost",
    "roll_groups",
    "roll_value",
    "rp_value",
]
# Outlook, corporation_chance, omniblend_beats, p_featured_lost and p_rainbow_lost live in
# .outlook; they stay importable from here (and from the package) as before.

MEASURES = "expected PP up to your next turn's scoring (a one-turn model: later turns are not valued)"
Row = Advice


# -- proxies ------------------------------------------------------------------------------

def rp_value(rules: Rules, colour: str) -> Fraction:
    """The proxy PP of one RP on the track of ``colour``: its completion PP ÷ its length.

    >>> rp_value(Rules(), "red")      # stand-in data: the red track has 7 RP and pays 4 PP
    Fraction(4, 7)
    """
    check_instance(rules, Rules, "rules", "VivaJava Rules")
    track = rules.track(colour)
    return Fraction(track.pp, track.length)


def flavour_die_value(rules: Rules) -> Fraction:
    """The proxy PP of one flavour die: the mean of the five tracks' :func:`rp_value`.

    >>> flavour_die_value(Rules())
    Fraction(727, 1400)
    """
    check_instance(rules, Rules, "rules", "VivaJava Rules")
    return sum((rp_value(rules, c) for c in TRACK_COLOURS), Fraction(0)) / len(TRACK_COLOURS)


# -- values of single choices ---------------------------------------------------------------

def _holding(o: Outlook) -> Fraction:
    """The expected PP of the Rainbow you hold, scored at your next turn (0 if you do not hold it)."""
    return o.rules.rainbow_pp * rainbow_kept(o) if o.rainbow_by == o.you else Fraction(0)


def _featured(o: Outlook, blend: Blend, funded: tuple[tuple[int, int], ...] = ()) -> tuple[Fraction, Fraction]:
    kept = featured_kept(with_featured(o, blend, funded))
    return 1 + o.rules.featured_pp * kept, 1 - kept


def _rainbow(o: Outlook) -> tuple[Fraction, Fraction]:
    kept = rainbow_kept(replace(o, rainbow_by=o.you))
    return int(o.rainbow_by != o.you) + o.rules.rainbow_pp * kept, 1 - kept


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
    ability = ABILITIES[track.ability]
    times = len(marks) + (state.rules.activations_at_2x - 1 if "2X" in marks and ability.kind != "token" else 0)
    return text + (f", unlocks {' and '.join(marks)} {ability.name}" + (f" ({times} activations)" if times > 1 else "") if marks else "")


# -- the roll: exact expectation of the best choice ------------------------------------------

def _counts_row(faces: Iterable[str]) -> np.ndarray:
    """Counts of ``faces`` as one row of a colour table (six colours, then jokers)."""
    row = np.zeros(7, dtype=np.int16)
    for face in faces:
        row[FACES.index(face)] += 1
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
    check_instance(state, State, "state", "a VivaJava state")
    groups, rolls = roll_groups(state)
    return sum((total for _, _, total in groups), Fraction(0)) / rolls


def roll_groups(state: State) -> tuple[list[tuple[str, int, Fraction]], int]:
    """The roll pending at ``state`` grouped by the best choice it offers: ``([(choice, rolls, Σ value), ...], all rolls)``.

    Each group says which choice is best after its rolls (``"a Featured Blend Double red"``,
    ``"the Rainbow Blend"``, ``"research green (+2 RP)"``), how many of the equally likely
    rolls make it best, and those rolls' values added up: :func:`roll_value` is the sum of
    the totals over all rolls, exactly.

    >>> from coffeegames.vivajava import Game, SetupResearch
    >>> s = Game(players=2).new_initial_state().apply(SetupResearch("green"))
    >>> groups, rolls = roll_groups(s)
    >>> rolls, sum(n for _, n, _ in groups), sum(t for _, _, t in groups) / rolls == roll_value(s)
    (7776, 7776, True)
    """
    check_instance(state, State, "state", "a VivaJava state")
    if state.phase != Phase.ROLL:
        raise BadArgument("state", f"roll_value needs the player's roll (phase 'roll'), not phase {str(state.phase)!r}")
    rules, o = state.rules, Outlook.of(state)
    held = _counts_row(state.white + state.own)
    counts, weights = colour_table(state.rolling_white, state.rolling_own)
    counts = counts + held
    codes = best_blend_codes(counts)
    jokers = counts[:, 6:7] if rules.jokers_in_research else 0
    found = np.minimum(counts[:, :6] + jokers, rules.research_cap)
    keys, where = np.unique(np.column_stack([codes, rainbow_flags(counts), found]), axis=0, return_inverse=True)
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
        return _research_value(state, colour, state.research_gain(colour, count)) + holding

    groups: dict[str, tuple[int, Fraction]] = {}
    for key, m in zip(keys.tolist(), mass.tolist()):
        code, rainbow, found_by_colour = key[0], key[1], dict(zip(COLOURS, key[2:]))
        colour = max(colours, key=lambda c: research(c, found_by_colour[c]))  # the first among equals, as max() keeps
        best, name = research(colour, found_by_colour[colour]), \
            f"research {colour} (+{state.research_gain(colour, found_by_colour[colour])} {'flavour' if colour == 'black' else 'RP'})"
        if may_feature and code > coaster and featured(code) > best:
            best, name = featured(code), f"a Featured Blend {Blend(code // 10, code % 10)}"
        if rainbow and _rainbow(o)[0] > best:
            best, name = _rainbow(o)[0], "the Rainbow Blend"
        n, total = groups.get(name, (0, Fraction(0)))
        groups[name] = (n + m, total + m * best)
    return [(name, n, total) for name, (n, total) in groups.items()], 6 ** (state.rolling_white + state.rolling_own)


# -- the table ---------------------------------------------------------------------------

def _row(action: Hashable, value: Fraction | None = None, p_lost: Fraction | None = None, rp: int | None = None, then: str = "") -> Row:
    return Advice(action, str(action), value, measures=MEASURES if value is not None else "", then=then, risk=p_lost,
                  details=(("rp", rp),))


def _act_rows(state: State, tokens: bool = True) -> list[Row]:
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
            gained = state.research_gain(action.colour)
            value = _research_value(state, action.colour, gained) + holding
            rows.append(_row(action, value, rp=gained, then=_research_then(state, action.colour, gained)))
        elif not tokens:
            continue
        elif isinstance(action, KeepRolling):
            rows.append(_row(action, roll_value(state.apply(action)), then=f"re-roll {len(action.dice)} dice"))
        elif isinstance(action, (Upgrade, Flip)):
            after = _act_rows(state.apply(action), tokens=False)
            best = max(after, key=lambda r: r.value or 0)
            rows.append(_row(action, best.value, then=f"then {best.label}"))
        else:  # pragma: no cover - every act-phase action is handled above
            rows.append(_row(action))
    return rows


def _keep_rows(state: State) -> list[Row]:
    o = Outlook.of(state)
    kept = state.featured
    keep = featured_kept(o)
    dice, flavour = state.featured_size, state.players[state.turn].flavour
    rolled = f"roll {dice} dice" + (f" + {flavour} flavour" if flavour else "")
    return [
        _row(Keep(), state.rules.featured_pp * keep, 1 - keep, then=f"scores {state.rules.featured_pp} PP at your next turn if not beaten"),
        _row(Reroll(), roll_value(state.apply(Reroll())), 1 - p_beats(kept, coffee_dice=dice, flavour=flavour), then=f"{rolled}, give up {kept}"),
    ]


def _degrade_rows(state: State) -> list[Row]:
    rows = []
    for action in degrade_choices(state):  # the legal actions of the degrade phase
        after = state.apply(action)
        if after.phase == Phase.KEEP:
            value, then = max(r.value for r in _keep_rows(after) if r.value is not None), f"{after.featured}: keep it or re-roll"
        else:
            value, then = roll_value(after), "one die left: it is re-rolled"
        if action.funder is not None:
            then += f"; player {action.funder}'s marker goes home"
        rows.append(_row(action, value, then=then))
    return rows


def _activate_rows(state: State) -> list[Row]:
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


def advise(state: State) -> list[Advice]:
    """One row per legal action, best first: its exact value (the one-turn model above), the chance of losing the blend
    (``risk``), the best marked.

    At chance nodes and at the end there are no rows.
    """
    check_instance(state, State, "state", "a VivaJava state")
    phase = state.phase
    if state.is_chance() or state.is_terminal():
        rows: list[Row] = []
    elif phase == Phase.SETUP:
        rows = [_row(a, rp_value(state.rules, a.colour), rp=1, then=f"+1 RP on {a.colour}") for a in state.legal_actions() if isinstance(a, SetupResearch)]
    elif phase == Phase.DEGRADE:
        rows = _degrade_rows(state)
    elif phase == Phase.KEEP:
        rows = _keep_rows(state)
    elif phase == Phase.ACT:
        rows = _act_rows(state)
    else:
        rows = _activate_rows(state)
    return ranked(rows)
