"""The VivaJava: The Dice Game engine under the State contract (RULES.md §2, DESIGN.md "The State contract").

Conventions:

* **Dice** are face names (:data:`~.dice.COLOURS` and ``"joker"``), kept as sorted tuples.
  A roll keeps three parts apart because ownership matters: ``white`` (the active
  player's coffee dice), ``own`` (the flavour dice they hold, which they must roll) and
  ``offered`` (each other player's flavour dice, rolled at the same time and offered
  for funding a Featured Blend: ``((player, faces), ...)``). A pending roll says how
  many dice of each part roll in ``rolling_white``, ``rolling_own``, ``rolling_offered``.
* **The Featured Blend coaster** holds ``featured_size`` white dice of
  ``featured_colour`` (only the blend's group goes on it; flavour dice are replaced by
  white ones), held by ``featured_by`` (-1: nobody); ``funders`` lists the owner's marker
  on each funded die (sorted; a player may fund several dice).
* **Players** (:class:`PlayerState`) have PP, RP marked on each track (white..green;
  a track is complete, and closed, at its length), marker tokens on each track, and
  flavour dice held. Free markers = markers − tokens − funding marks on the coaster.
* **Phases.** ``"setup"`` (a non-first player marks 1 RP), ``"degrade"`` (choose the die
  to remove from your Featured Blend), ``"keep"`` (``Keep()`` ends the turn, ``Reroll()``
  rolls the dice left on the coaster), ``"roll"`` (chance), ``"act"`` (Featured / Rainbow /
  Research, or spend a token first), ``"activate"`` (abilities gained this turn, in the
  order gained), ``"corp"`` and ``"block"`` (chance: a solo corporation's rolls),
  ``"over"``. Steps without a choice happen by themselves: scoring, a degrade with only
  one kind of die, the forced re-roll of a single die, forced negative abilities, and
  the whole of a corporation's turn (a chain of chance nodes).
* **Chance.** A roll's outcome is a :class:`Rolled` with each part's faces; its exact
  probability is the product of the parts' multinomial weights over 6**dice
  (:func:`roll_outcomes`). Other players' flavour dice are modelled as part of the
  outcome (Ruling ``offer_flavour``: they always offer all of them). Since that list can
  reach millions of outcomes, ``sample_chance`` and ``is_legal_outcome`` never list it.

Readings of the rules (the rulings proper are options of :class:`~.rules.Rules`):

* A Featured Blend is 2-5 dice of one colour (jokers wild) that beats the coaster; a
  player chooses the colour, how many of their own dice and how many of each other
  player's offered dice; own coffee dice are used before own flavour dice. Every die
  rolled that is not on the coaster goes back: coffee dice to the supply, the active
  player's flavour dice to the flavour coaster, other players' unused ones to them;
  a funded flavour die goes to the flavour coaster and its owner's marker onto the die.
* Re-rolling a degraded Featured Blend gives it up: its dice leave the coaster (markers
  go home) and are rolled, with the flavour dice the player holds.
* A funder gains 1 PP per funded die when the die is placed and at each of the holder's
  scores, until the die is removed by degrading or the blend leaves the coaster.
* Researching a colour whose track is closed, or (solo) blocked, is not allowed;
  researching black is always allowed. A Rainbow while holding it is allowed and scores
  nothing. PP are gained in seat order from the active player; the first to reach the
  goal wins at once.
* Solo: the human is player 0 and goes first; the corporation (player 1) scores both
  blends it holds, then degrades; it gives up a blend degraded to Decaf and rolls 5.
  It ignores a rainbow while it holds the Rainbow. OmniBlend keeps its largest group
  (ties: the higher colour) and re-rolls the rest. Sacchar takes its flavour dice from the
  flavour coaster (as many as are there) and puts them back after its roll; its extra
  white die blocks that colour for the human's next turn.

Example (a scripted 2-player opening: chance outcomes may be given, like actions):
    >>> game = Game(players=2)
    >>> s = game.new_initial_state().apply(SetupResearch("green"))
    >>> s.phase, s.players[1].research
    ('roll', (0, 0, 0, 0, 1))
    >>> s = s.apply(Rolled(white=("red", "red", "red", "green", "black")))
    >>> [str(a) for a in s.legal_actions()][:3]
    ['Featured(Regular red)', 'Featured(Decaf red)', 'Research(white)']
    >>> s = s.apply(Featured("red", 3))
    >>> s.featured, s.featured_by, s.players[0].pp, s.turn
    (Blend('Regular', 'red'), 0, 1, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import product
from math import comb, prod
from typing import Any

import numpy as np

from ..engine import CHANCE, TERMINAL, IllegalAction
from ..engine import State as BaseState
from ..engine.saved import GameBase, SavedState, bad, flag, list_of, record, text, whole
from ..exact import multisets
from .dice import COLOURS, FLAVOUR_DIE, JOKER, NO_BLEND, SIZE_NAMES, WHITE_DIE, Blend, best_of_counts, rainbow_of_counts
from .rules import (
    ABILITIES,
    COFFEE_DICE,
    CORPORATION,
    CORPORATIONS,
    FLAVOUR_DICE,
    ROLL_DICE,
    TRACK_COLOURS,
    Rules,
)

STATE_FORMAT = "coffeegames-vivajava-state/1"
PHASES = ("setup", "degrade", "keep", "roll", "act", "activate", "corp", "block", "over")
CHANCE_PHASES = ("roll", "corp", "block")
_FACE_INDEX = {f: i for i, f in enumerate(COLOURS + (JOKER,))}
_NO_TRACKS = (0,) * len(TRACK_COLOURS)


def _face_key(face: Any) -> tuple[int, str]:
    return (_FACE_INDEX.get(face, 99), str(face))


def _faces(value: Any, where: str) -> tuple[str, ...]:
    """``value`` as a sorted tuple of face-name strings, or a ValueError naming the field."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise ValueError(f"field {where!r} must be a list of face names such as ['red', 'joker']; got {value!r}")
    items = tuple(value)
    if any(not isinstance(f, str) for f in items):
        raise ValueError(f"field {where!r} must hold face names (strings); got {value!r}")
    return tuple(sorted(items, key=_face_key))


def _pairs(value: Any, where: str, second: Any) -> tuple[tuple[int, Any], ...]:
    """``value`` as a tuple of (player, x) pairs sorted by player, or a ValueError naming the field."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise ValueError(f"field {where!r} must be a list of [player, ...] pairs; got {value!r}")
    out = []
    for item in value:
        if not isinstance(item, (tuple, list)) or len(item) != 2 or not isinstance(item[0], int) or isinstance(item[0], bool):
            raise ValueError(f"field {where!r} must hold [player, ...] pairs; got {item!r}")
        out.append((item[0], second(item[1], where)))
    return tuple(sorted(out, key=lambda pair: pair[0]))


def _count(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"field {where!r} must hold whole numbers; got {value!r}")
    return value


def _show(faces: Sequence[str]) -> str:
    return " ".join(faces) or "-"


# -- actions ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SetupResearch:
    """Setup: a non-first player marks 1 RP on the track of ``colour``."""

    colour: str

    def __str__(self) -> str:
        return f"SetupResearch({self.colour})"


@dataclass(frozen=True)
class Degrade:
    """Remove one die from your Featured Blend: one funded by player ``funder`` (its marker goes home), or an unfunded one (None).

    >>> str(Degrade()), str(Degrade(2))
    ('Degrade(unfunded die)', 'Degrade(die funded by player 2)')
    """

    funder: int | None = None

    def __str__(self) -> str:
        return "Degrade(unfunded die)" if self.funder is None else f"Degrade(die funded by player {self.funder})"


@dataclass(frozen=True)
class Keep:
    """Keep the degraded Featured Blend; your turn ends."""


@dataclass(frozen=True)
class Reroll:
    """Give up the degraded Featured Blend and roll the dice that were left on it."""


@dataclass(frozen=True)
class Featured:
    """Make a Featured Blend of ``size`` dice of ``colour``; ``funded`` = ((player, dice), ...) from other players' flavour dice.

    The rest of the blend comes from your own dice (coffee dice first, then flavour dice).

    >>> str(Featured("green", 4, funded=((2, 1), (1, 0))))
    'Featured(Bold green, funded by player 2 ×1)'
    """

    colour: str
    size: int
    funded: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        pairs = _pairs(self.funded, "Featured.funded", _count)
        object.__setattr__(self, "funded", tuple((q, n) for q, n in pairs if n))

    @property
    def funded_dice(self) -> int:
        return sum(n for _, n in self.funded)

    def __str__(self) -> str:
        name = SIZE_NAMES[self.size] if self.size in (2, 3, 4, 5) else f"{self.size} dice"
        funds = "".join(f", funded by player {q} ×{n}" for q, n in self.funded)
        return f"Featured({name} {self.colour}{funds})"


@dataclass(frozen=True)
class Rainbow:
    """Make a Rainbow Blend from your own dice: take its coaster (1 PP unless you already hold it)."""


@dataclass(frozen=True)
class Research:
    """Research ``colour``: 1 RP per die of it (at most 5); black gives that many flavour dice instead."""

    colour: str

    def __str__(self) -> str:
        return f"Research({self.colour})"


@dataclass(frozen=True)
class Upgrade:
    """Spend an Upgrade Bean token: one rolled coffee die showing ``face`` goes up one grade."""

    face: str

    def __str__(self) -> str:
        up = COLOURS[COLOURS.index(self.face) + 1] if self.face in COLOURS[:-1] else "?"
        return f"Upgrade({self.face} → {up})"


@dataclass(frozen=True)
class Flip:
    """Spend a Flip Bean token: one rolled coffee die showing ``face`` flips to grade 7 − g."""

    face: str

    def __str__(self) -> str:
        flipped = COLOURS[len(COLOURS) - 1 - COLOURS.index(self.face)] if self.face in COLOURS else "?"
        return f"Flip({self.face} → {flipped})"


@dataclass(frozen=True)
class KeepRolling:
    """Spend a Keep Rolling token: re-roll these rolled coffee dice.

    >>> str(KeepRolling(("red", "white")))
    'KeepRolling(white red)'
    """

    dice: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", _faces(self.dice, "KeepRolling.dice"))

    def __str__(self) -> str:
        return f"KeepRolling({_show(self.dice)})"


@dataclass(frozen=True)
class Boost:
    """Research Boost: mark 1 RP on the track of ``target``."""

    target: str

    def __str__(self) -> str:
        return f"Boost(+1 RP {self.target})"


@dataclass(frozen=True)
class TakeFlavour:
    """Extra Flavour: take one flavour die from the flavour coaster."""


@dataclass(frozen=True)
class GainToken:
    """Gain a marker token on the ability's track; with no free marker, move your token from track ``move_from``."""

    move_from: str | None = None

    def __str__(self) -> str:
        return "GainToken()" if self.move_from is None else f"GainToken(moved from {self.move_from})"


@dataclass(frozen=True)
class Decline:
    """Do not use the (positive) ability just gained."""


@dataclass(frozen=True)
class Rolled:
    """Chance: the faces rolled — the active player's coffee dice, their flavour dice, and other players' offered flavour dice.

    >>> str(Rolled(white=("red", "white"), own=("joker",), offered=((2, ("green",)),)))
    'rolled white red | flavour joker | player 2: green'
    """

    white: tuple[str, ...] = ()
    own: tuple[str, ...] = ()
    offered: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "white", _faces(self.white, "Rolled.white"))
        object.__setattr__(self, "own", _faces(self.own, "Rolled.own"))
        object.__setattr__(self, "offered", _pairs(self.offered, "Rolled.offered", _faces))

    def __str__(self) -> str:
        parts = [f"rolled {_show(self.white)}"]
        if self.own:
            parts.append(f"flavour {_show(self.own)}")
        parts += [f"player {q}: {_show(f)}" for q, f in self.offered]
        return " | ".join(parts)


ACTION_KINDS = (
    SetupResearch, Degrade, Keep, Reroll, Featured, Rainbow, Research, Upgrade, Flip, KeepRolling,
    Boost, TakeFlavour, GainToken, Decline, Rolled,
)
"""Every action and chance-outcome class, for JSON."""
TOKEN_ACTIONS = {"upgrade_bean": Upgrade, "flip_bean": Flip, "keep_rolling": KeepRolling}


# -- chance odds -------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _group(n: int, flavour: bool) -> tuple[tuple[tuple[str, ...], int], ...]:
    return tuple(multisets(n, FLAVOUR_DIE if flavour else WHITE_DIE))


def roll_outcome_count(white: int, own: int = 0, offered: Sequence[tuple[int, int]] = ()) -> int:
    """How many distinct outcomes a roll has (multisets per part, multiplied).

    >>> roll_outcome_count(5), roll_outcome_count(5, 5, ((1, 2),))
    (252, 1333584)
    """
    return prod(comb(n + 5, 5) for n in (white, own, *(k for _, k in offered)))


@lru_cache(maxsize=64)
def roll_outcomes(white: int, own: int = 0, offered: tuple[tuple[int, int], ...] = ()) -> tuple[tuple[Rolled, Fraction], ...]:
    """Every outcome of rolling ``white`` coffee dice, ``own`` flavour dice and each other player's ``offered`` flavour dice.

    Probabilities are exact multinomial Fractions summing to 1 (see :func:`roll_outcome_count`
    for the size first: it is a product over the parts).

    >>> outcomes = roll_outcomes(2, 1)
    >>> len(outcomes), sum(p for _, p in outcomes)
    (126, Fraction(1, 1))
    >>> dict(outcomes)[Rolled(white=("red", "red"), own=("joker",))]
    Fraction(1, 216)
    """
    groups = [_group(white, False), _group(own, True)] + [_group(n, True) for _, n in offered]
    total = 6 ** (white + own + sum(n for _, n in offered))
    owners = [q for q, _ in offered]
    return tuple(
        (Rolled(combo[0][0], combo[1][0], tuple(zip(owners, (c[0] for c in combo[2:])))), Fraction(prod(c[1] for c in combo), total))
        for combo in product(*groups)
    )


def _sub_multisets(items: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """Every non-empty sub-multiset of sorted ``items``, smallest first."""
    counts = sorted(Counter(items).items(), key=lambda kv: _face_key(kv[0]))
    found = [
        tuple(f for (f, _), k in zip(counts, picks) for _ in range(k))
        for picks in product(*(range(n + 1) for _, n in counts))
        if sum(picks)
    ]
    return iter(sorted(found, key=lambda t: (len(t), [_face_key(f) for f in t])))


def _remove(items: Sequence[str], taken: Sequence[str]) -> tuple[str, ...]:
    left = Counter(items)
    left.subtract(taken)
    if any(n < 0 for n in left.values()):
        raise ValueError(f"{tuple(taken)} is not among {tuple(items)}")
    return tuple(sorted(left.elements(), key=_face_key))


# -- players and state -------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerState:
    """One player's score sheet: PP, RP on each track (white..green), marker tokens on each track, flavour dice held."""

    pp: int = 0
    research: tuple[int, ...] = _NO_TRACKS
    tokens: tuple[int, ...] = _NO_TRACKS
    flavour: int = 0

    def __str__(self) -> str:
        rp = " ".join(f"{c[0].upper()}{n}" for c, n in zip(TRACK_COLOURS, self.research))
        tokens = " ".join(f"{c}×{n}" for c, n in zip(TRACK_COLOURS, self.tokens) if n) or "-"
        return f"PP {self.pp} · RP {rp} · tokens {tokens} · flavour dice {self.flavour}"


@dataclass(frozen=True)
class State(SavedState, BaseState):
    """A VivaJava position (immutable, hashable). Build the first one with :meth:`Game.new_initial_state`."""

    rules: Rules = field(repr=False)
    players: tuple[PlayerState, ...]
    phase: str = "setup"
    turn: int = 0
    setting_up: bool = False
    flavour_coaster: int = FLAVOUR_DICE
    featured_by: int = -1
    featured_colour: str = ""
    featured_size: int = 0
    funders: tuple[int, ...] = ()
    rainbow_by: int = -1
    white: tuple[str, ...] = ()
    own: tuple[str, ...] = ()
    offered: tuple[tuple[int, tuple[str, ...]], ...] = ()
    rolling_white: int = 0
    rolling_own: int = 0
    rolling_offered: tuple[tuple[int, int], ...] = ()
    pending: tuple[str, ...] = ()
    meter: int = 0
    blocked: str = ""
    corp_rerolls: int = 0
    corp_first: bool = False
    winner: int = -1

    # -- the contract -------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase == "over":
            return TERMINAL
        return self.turn

    def _legal_actions(self) -> tuple:
        return self._legal

    @cached_property
    def _legal(self) -> tuple:
        phase = self.phase
        if phase == "setup":
            return tuple(SetupResearch(c) for c in TRACK_COLOURS)
        if phase == "degrade":
            return self._degrade_choices()
        if phase == "keep":
            return (Keep(), Reroll())
        if phase == "act":
            return self._act_actions()
        if phase == "activate":
            return self._activation_choices() + (() if self._head_ability.kind == "negative" else (Decline(),))
        return ()

    def _chance_outcomes(self) -> Sequence[tuple[Rolled, Fraction]]:
        return roll_outcomes(self.rolling_white, self.rolling_own, self.rolling_offered)

    @property
    def chance_outcome_count(self) -> int:
        """How many outcomes :meth:`chance_outcomes` would list here (0 away from chance nodes)."""
        return roll_outcome_count(self.rolling_white, self.rolling_own, self.rolling_offered) if self.is_chance() else 0

    def is_legal_outcome(self, outcome: Any) -> bool:
        if not isinstance(outcome, Rolled):
            return False
        if len(outcome.white) != self.rolling_white or any(f not in WHITE_DIE for f in outcome.white):
            return False
        if len(outcome.own) != self.rolling_own or any(f not in FLAVOUR_DIE for f in outcome.own):
            return False
        if [q for q, _ in outcome.offered] != [q for q, _ in self.rolling_offered]:
            return False
        return all(len(f) == n and all(x in FLAVOUR_DIE for x in f) for (_, f), (_, n) in zip(outcome.offered, self.rolling_offered))

    def sample_chance(self, rng: np.random.Generator) -> Rolled:
        """One roll drawn with its exact probability, without listing the outcomes."""
        if not self.is_chance():
            raise IllegalAction("sample_chance needs a chance node")
        sizes = [self.rolling_white, self.rolling_own] + [n for _, n in self.rolling_offered]
        draws = rng.integers(0, 6, size=sum(sizes)).tolist()
        parts, at = [], 0
        for i, n in enumerate(sizes):
            die = WHITE_DIE if i == 0 else FLAVOUR_DIE
            parts.append(tuple(die[v] for v in draws[at : at + n]))
            at += n
        return Rolled(parts[0], parts[1], tuple((q, f) for (q, _), f in zip(self.rolling_offered, parts[2:])))

    def _apply(self, move: Any) -> State:
        if isinstance(move, Rolled):
            return self._rolled(move)
        handler = {
            SetupResearch: self._do_setup,
            Degrade: self._do_degrade,
            Keep: lambda _: self._end_turn(),
            Reroll: lambda _: self._do_reroll(),
            Featured: self._do_featured,
            Rainbow: lambda _: self._do_rainbow(),
            Research: self._do_research,
            Upgrade: self._do_upgrade,
            Flip: self._do_flip,
            KeepRolling: self._do_keep_rolling,
            Boost: self._do_boost,
            TakeFlavour: lambda _: self._do_take_flavour(),
            GainToken: self._do_gain_token,
            Decline: lambda _: self._with(pending=self.pending[1:])._next_activation(),
        }[type(move)]
        return handler(move)

    def returns(self) -> tuple[int, ...]:
        """1 for the winner and 0 for the others (option ``payoff="win"``), or every player's PP (``"pp"``)."""
        if self.rules.payoff == "pp":
            return tuple(p.pp for p in self.players)
        return tuple(int(i == self.winner) for i in range(len(self.players)))

    # -- derived facts ------------------------------------------------------------
    @property
    def featured(self) -> Blend:
        """The blend on the Featured Blend coaster (NO_BLEND when nobody holds it)."""
        if self.featured_by < 0 or self.featured_size < 2:
            return NO_BLEND
        return Blend(self.featured_size, COLOURS.index(self.featured_colour) + 1)

    @property
    def dice(self) -> tuple[str, ...]:
        """The active player's own rolled dice (coffee and flavour), sorted."""
        return tuple(sorted(self.white + self.own, key=_face_key))

    @property
    def solo(self) -> bool:
        return self.rules.solo is not None

    @property
    def meter_shows(self) -> int:
        """The number the solo METER shows (0 outside solo games)."""
        return self.rules.meter_values[self.meter] if self.solo else 0

    def free_markers(self, player: int) -> int:
        """Markers of ``player`` neither on a track as tokens nor on the coaster as funding marks."""
        p = self.players[player]
        marks = self.funders.count(player) if self.rules.funding_needs_marker else 0
        return self.rules.markers - sum(p.tokens) - marks

    def is_open(self, player: int, colour: str) -> bool:
        """Whether ``player``'s track of ``colour`` is not yet complete."""
        return self.players[player].research[TRACK_COLOURS.index(colour)] < self.rules.track(colour).length

    def research_count(self, colour: str) -> int:
        """RP (or, for black, flavour dice) that researching ``colour`` would give now (at most the cap)."""
        n = self.white.count(colour) + self.own.count(colour)
        if self.rules.jokers_in_research:
            n += self.own.count(JOKER)
        return min(n, self.rules.research_cap)

    def _seat_order(self, first: int) -> list[int]:
        n = len(self.players)
        return [(first + i) % n for i in range(n)]

    @property
    def _head_ability(self):
        return self.rules.ability(self.pending[0])

    # -- legal actions ------------------------------------------------------------
    def _degrade_choices(self) -> tuple[Degrade, ...]:
        choices = [Degrade(None)] if self.featured_size > len(self.funders) else []
        return tuple(choices + [Degrade(q) for q in sorted(set(self.funders))])

    def _act_actions(self) -> tuple:
        p, rules = self.turn, self.rules
        actions: list = []
        if not (rules.both_blends == "no_featured" and self.rainbow_by == p):
            actions += self._featured_actions()
        counts = [self.white.count(c) + self.own.count(c) for c in COLOURS]
        if rainbow_of_counts(counts, self.own.count(JOKER)):
            actions.append(Rainbow())
        actions += [Research(c) for c in TRACK_COLOURS if self.is_open(p, c) and c != self.blocked]
        actions.append(Research("black"))
        actions += self._token_actions()
        return tuple(actions)

    def _featured_actions(self) -> list[Featured]:
        rules, coaster = self.rules, self.featured
        found: list[tuple[tuple, Featured]] = []
        for rank in range(len(COLOURS), 0, -1):
            colour = COLOURS[rank - 1]
            mine = self.white.count(colour) + self.own.count(colour) + self.own.count(JOKER)
            offers = []
            for q, faces in self.offered:
                usable = faces.count(colour) + faces.count(JOKER)
                if rules.funding_needs_marker:
                    usable = min(usable, rules.markers - sum(self.players[q].tokens))  # the old coaster's marks go home
                offers.append((q, usable))
            for picks in product(*(range(u + 1) for _, u in offers)):
                funded = sum(picks)
                for used in range(mine + 1):
                    size = used + funded
                    if 2 <= size <= 5 and Blend(size, rank) > coaster:
                        action = Featured(colour, size, tuple((q, n) for (q, _), n in zip(offers, picks) if n))
                        found.append(((-size, -rank, funded, [-n for n in picks]), action))
        return [a for _, a in sorted(found, key=lambda kv: kv[0])]

    def _token_actions(self) -> list:
        me, actions = self.players[self.turn], []
        for i, colour in enumerate(TRACK_COLOURS):
            if not me.tokens[i] or colour == self.blocked:
                continue
            key = self.rules.track(colour).ability
            distinct = sorted(set(self.white), key=_face_key)
            if key == "upgrade_bean":
                actions += [Upgrade(f) for f in distinct if f != "black"]
            elif key == "flip_bean":
                actions += [Flip(f) for f in distinct]
            elif key == "keep_rolling":
                actions += [KeepRolling(sub) for sub in _sub_multisets(self.white)]
        return actions

    def _activation_choices(self) -> tuple:
        p, colour = self.turn, self.pending[0]
        ability = self.rules.ability(colour)
        if colour == self.blocked:
            return ()
        if ability.key == "research_boost":
            return tuple(Boost(t) for t in TRACK_COLOURS if t != colour and t != self.blocked and self.is_open(p, t))
        if ability.key == "extra_flavour":
            return (TakeFlavour(),) if self.flavour_coaster > 0 else ()
        if ability.kind == "token":
            if not self.is_open(p, colour):
                return ()
            if self.free_markers(p) > 0:
                return (GainToken(),)
            tokens = self.players[p].tokens
            return tuple(GainToken(c) for i, c in enumerate(TRACK_COLOURS) if tokens[i] and c != colour)
        return ()

    # -- transitions --------------------------------------------------------------
    def _with_player(self, index: int, **changes: Any) -> tuple[PlayerState, ...]:
        players = list(self.players)
        players[index] = replace(players[index], **changes)
        return tuple(players)

    def _award(self, gains: Sequence[tuple[int, int]]) -> State:
        """Give PP in this order; the first player to reach the goal wins at once."""
        players = list(self.players)
        for q, n in gains:
            if n <= 0:
                continue
            players[q] = replace(players[q], pp=players[q].pp + n)
            if players[q].pp >= self.rules.win_pp:
                return self._with(players=tuple(players))._clear_roll()._with(
                    phase="over", winner=q, pending=(), corp_rerolls=0, corp_first=False
                )
        return self._with(players=tuple(players))

    def _clear_roll(self) -> State:
        """Every rolled die goes back: coffee dice to the supply, the roller's flavour dice to the flavour coaster."""
        back = len(self.own) + self.rolling_own
        return self._with(
            flavour_coaster=self.flavour_coaster + back, white=(), own=(), offered=(),
            rolling_white=0, rolling_own=0, rolling_offered=(),
        )

    def _clear_featured(self) -> State:
        return self._with(featured_by=-1, featured_colour="", featured_size=0, funders=())

    def _start_turn(self, player: int) -> State:
        rules = self.rules
        state = self._with(turn=player, phase="act")
        if rules.solo and player == CORPORATION:
            return state._corp_turn()
        if state.rainbow_by == player:
            state = state._award([(player, rules.rainbow_pp)])
            if state.phase == "over":
                return state
        if state.featured_by == player:
            order = state._seat_order(player)
            state = state._award([(player, rules.featured_pp)] + [(q, state.funders.count(q)) for q in order[1:]])
            if state.phase == "over":
                return state
            choices = state._degrade_choices()
            if len(choices) == 1:
                return state._do_degrade(choices[0])
            return state._with(phase="degrade")
        return state._begin_roll(ROLL_DICE)

    def _begin_roll(self, coffee: int) -> State:
        p = self.turn
        offered: tuple[tuple[int, int], ...] = ()
        if self.rules.offer_flavour and not self.rules.solo:
            offered = tuple((q, self.players[q].flavour) for q in self._seat_order(p)[1:] if self.players[q].flavour)
        return self._with(
            phase="roll",
            players=self._with_player(p, flavour=0),
            white=(), own=(), offered=(),
            rolling_white=coffee,
            rolling_own=self.players[p].flavour,
            rolling_offered=tuple(sorted(offered)),
        )

    def _end_turn(self) -> State:
        n = len(self.players)
        keep_block = self.solo and self.turn == CORPORATION
        state = self._clear_roll()._with(pending=(), corp_rerolls=0, corp_first=False, blocked=self.blocked if keep_block else "")
        nxt = (self.turn + 1) % n
        if self.setting_up:
            if nxt != 0:
                return state._with(phase="setup", turn=nxt)
            state = state._with(setting_up=False)
        return state._start_turn(nxt)

    def _rolled(self, outcome: Rolled) -> State:
        state = self._with(
            white=tuple(sorted(self.white + outcome.white, key=_face_key)),
            own=tuple(sorted(self.own + outcome.own, key=_face_key)),
            offered=self.offered + outcome.offered,
            rolling_white=0, rolling_own=0, rolling_offered=(),
        )
        if self.phase == "roll":
            return state._with(phase="act")
        if self.phase == "corp":
            return state._corp_resolve()
        return state._with(blocked=outcome.white[0])._end_turn()  # "block"

    def _do_setup(self, action: SetupResearch) -> State:
        state = self._mark(self.turn, action.colour, 1, unlock=self.rules.setup_unlocks)
        return state._next_activation()

    def _do_degrade(self, action: Degrade) -> State:
        funders = list(self.funders)
        if action.funder is not None:
            funders.remove(action.funder)
        state = self._with(featured_size=self.featured_size - 1, funders=tuple(funders))
        if state.featured_size <= 1:
            return state._do_reroll()  # one die left: the re-roll is forced
        return state._with(phase="keep")

    def _do_reroll(self) -> State:
        return self._clear_featured()._begin_roll(self.featured_size)

    def _do_featured(self, action: Featured) -> State:
        p = self.turn
        funded = dict(action.funded)
        players = list(self.players)
        to_coaster = 0
        for q, n in funded.items():
            players[q] = replace(players[q], flavour=players[q].flavour - n)
            to_coaster += n
        rainbow_by = -1 if self.rainbow_by == p else self.rainbow_by  # cannot hold both (Ruling both_blends)
        state = self._with(
            players=tuple(players),
            flavour_coaster=self.flavour_coaster + to_coaster,
            featured_by=p,
            featured_colour=action.colour,
            featured_size=action.size,
            funders=tuple(sorted(q for q, n in funded.items() for _ in range(n))),
            rainbow_by=rainbow_by,
        )._clear_roll()
        order = self._seat_order(p)
        state = state._award([(p, 1)] + [(q, funded.get(q, 0)) for q in order[1:]])
        return state if state.phase == "over" else state._end_turn()

    def _do_rainbow(self) -> State:
        p = self.turn
        if self.rainbow_by == p:  # holding it already: a new rainbow scores nothing
            return self._end_turn()
        state = self._clear_roll()._with(rainbow_by=p)
        state = state._award([(p, 1)])
        return state if state.phase == "over" else state._end_turn()

    def _do_research(self, action: Research) -> State:
        p, rules, colour = self.turn, self.rules, action.colour
        n = self.research_count(colour)
        if colour == "black":
            state = self._clear_roll() if rules.return_flavour_first else self
            take = 0 if (self.blocked == "black" and rules.black_block) else min(n, state.flavour_coaster)
            state = state._with(
                players=state._with_player(p, flavour=state.players[p].flavour + take),
                flavour_coaster=state.flavour_coaster - take,
            )
            return state._end_turn()
        state = self._clear_roll()._mark(p, colour, n)
        return state if state.phase == "over" else state._next_activation()

    def _mark(self, p: int, colour: str, n: int, unlock: bool = True) -> State:
        """Mark ``n`` RP on ``p``'s ``colour`` track: queue abilities at 1X/2X; completing scores, closes, returns tokens."""
        rules = self.rules
        i, track = TRACK_COLOURS.index(colour), rules.track(colour)
        me = self.players[p]
        old = me.research[i]
        new = min(old + n, track.length)
        if new == old:
            return self
        research = me.research[:i] + (new,) + me.research[i + 1 :]
        kind = ABILITIES[track.ability].kind
        added: list[str] = []
        if unlock:
            if old < track.x1 <= new:
                added.append(colour)
            if old < track.x2 <= new:
                added += [colour] * (rules.token_at_2x if kind == "token" else 2)
        if new < track.length:
            return self._with(players=self._with_player(p, research=research), pending=self.pending + tuple(added))
        tokens = me.tokens[:i] + (0,) + me.tokens[i + 1 :]  # completing returns the track's tokens
        pending = self.pending
        if rules.completion_cancels:
            pending = tuple(c for c in pending if c != colour)
            added = []
        elif kind == "token":
            added = []
        state = self._with(players=self._with_player(p, research=research, tokens=tokens), pending=pending + tuple(added))
        return state._award([(p, track.pp)])

    def _next_activation(self) -> State:
        """Activate the abilities gained this turn in order: stop at a choice, apply forced ones, skip impossible ones."""
        state = self
        while state.pending:
            ability = state._head_ability
            if ability.kind == "negative" and state.pending[0] != state.blocked:
                p = state.turn
                state = state._with(
                    players=state._with_player(p, pp=max(0, state.players[p].pp - 1)), pending=state.pending[1:]
                )
                continue
            if not state._activation_choices():
                state = state._with(pending=state.pending[1:])
                continue
            return state._with(phase="activate")
        return state._end_turn()

    def _do_boost(self, action: Boost) -> State:
        state = self._with(pending=self.pending[1:])._mark(self.turn, action.target, 1)
        return state if state.phase == "over" else state._next_activation()

    def _do_take_flavour(self) -> State:
        p = self.turn
        return self._with(
            players=self._with_player(p, flavour=self.players[p].flavour + 1),
            flavour_coaster=self.flavour_coaster - 1,
            pending=self.pending[1:],
        )._next_activation()

    def _do_gain_token(self, action: GainToken) -> State:
        p, colour = self.turn, self.pending[0]
        tokens = list(self.players[p].tokens)
        tokens[TRACK_COLOURS.index(colour)] += 1
        if action.move_from is not None:
            tokens[TRACK_COLOURS.index(action.move_from)] -= 1
        return self._with(players=self._with_player(p, tokens=tuple(tokens)), pending=self.pending[1:])._next_activation()

    def _spend_token(self, ability: str) -> tuple[PlayerState, ...]:
        p = self.turn
        i = TRACK_COLOURS.index(self.rules.track_with(ability))  # type: ignore[arg-type]
        tokens = list(self.players[p].tokens)
        tokens[i] -= 1
        return self._with_player(p, tokens=tuple(tokens))

    def _change_die(self, old: str, new: str, ability: str) -> State:
        white = _remove(self.white, [old]) + (new,)
        return self._with(players=self._spend_token(ability), white=tuple(sorted(white, key=_face_key)))

    def _do_upgrade(self, action: Upgrade) -> State:
        return self._change_die(action.face, COLOURS[COLOURS.index(action.face) + 1], "upgrade_bean")

    def _do_flip(self, action: Flip) -> State:
        return self._change_die(action.face, COLOURS[len(COLOURS) - 1 - COLOURS.index(action.face)], "flip_bean")

    def _do_keep_rolling(self, action: KeepRolling) -> State:
        return self._with(
            players=self._spend_token("keep_rolling"),
            white=_remove(self.white, action.dice),
            rolling_white=len(action.dice),
            phase="roll",
        )

    # -- the solo corporation -----------------------------------------------------
    def _corp_turn(self) -> State:
        rules, c = self.rules, CORPORATION
        state = self
        if state.rainbow_by == c:
            state = state._award([(c, rules.rainbow_pp)])
            if state.phase == "over":
                return state
        if state.featured_by == c:
            state = state._award([(c, rules.featured_pp)])
            if state.phase == "over":
                return state
            if state.featured_size - 1 > 2:  # degrades (all its dice are alike) and keeps it above Decaf
                return state._with(featured_size=state.featured_size - 1)._end_turn()
            state = state._clear_featured()  # degraded to Decaf: it gives the blend up and rolls 5
        shows = state.meter_shows
        flavour = min(shows, state.flavour_coaster) if rules.solo == "sacchar" else 0
        return state._with(
            phase="corp",
            rolling_white=ROLL_DICE,
            rolling_own=flavour,
            flavour_coaster=state.flavour_coaster - flavour,
            corp_rerolls=shows if rules.solo == "omniblend" else 0,
            corp_first=True,
        )

    def _corp_resolve(self) -> State:
        rules, c = self.rules, CORPORATION
        counts = [self.white.count(col) + self.own.count(col) for col in COLOURS]
        jokers = self.own.count(JOKER)
        best = best_of_counts(counts, jokers)
        coaster = self.featured if self.featured_by != c else NO_BLEND
        success = best.size >= rules.corp_success_size and best > coaster
        omni_reroll = rules.solo == "omniblend" and self.corp_rerolls > 0
        if success and not (omni_reroll and not rules.omniblend_stops and best.size < 5):
            state = self._clear_roll()._clear_featured()._with(
                featured_by=c, featured_colour=best.colour, featured_size=best.size,
                rainbow_by=self.rainbow_by if (rules.corp_holds_both or self.rainbow_by != c) else -1,
                meter=max(0, self.meter - 1),
            )
            state = state._award([(c, 1)])
            return state if state.phase == "over" else state._end_turn()
        if not success and self.corp_first and self.rainbow_by != c and rainbow_of_counts(counts, jokers):
            state = self._clear_roll()._with(rainbow_by=c, meter=max(0, self.meter - 1))
            state = state._award([(c, 1)])
            return state if state.phase == "over" else state._end_turn()
        if omni_reroll:
            size, rank = max((n, r) for r, n in enumerate(counts, start=1))
            if size < ROLL_DICE:  # keep the best group, re-roll the rest
                return self._with(
                    phase="corp", white=(COLOURS[rank - 1],) * size, rolling_white=ROLL_DICE - size,
                    corp_rerolls=self.corp_rerolls - 1, corp_first=False,
                )
        if success:  # OmniBlend that went on improving a blend it already had
            return self._with(corp_rerolls=0)._corp_resolve()
        state = self._clear_roll()._with(meter=min(len(rules.meter_values) - 1, self.meter + 1), corp_rerolls=0, corp_first=False)
        if rules.solo == "sacchar":
            return state._with(phase="block", rolling_white=1)
        return state._end_turn()

    # -- checks, text and JSON ----------------------------------------------------
    def check(self) -> State:
        """Raise ``ValueError`` naming the field if a component count or the phase is inconsistent; else return self."""
        rules, n = self.rules, len(self.players)

        def need(ok: bool, where: str, why: str) -> None:
            if not ok:
                raise ValueError(f"saved state field {where!r}: {why}")

        need(self.phase in PHASES, "phase", f"must be one of {PHASES}, got {self.phase!r}")
        need(n == rules.players, "players", f"holds {n} players; the game has {rules.players}")
        need(0 <= self.turn < n, "turn", f"must be a player 0-{n - 1}")
        for i, p in enumerate(self.players):
            need(len(p.research) == len(TRACK_COLOURS), f"players[{i}].research", "needs one entry per track white..green")
            need(len(p.tokens) == len(TRACK_COLOURS), f"players[{i}].tokens", "needs one entry per track white..green")
            for c, rp, tok in zip(TRACK_COLOURS, p.research, p.tokens):
                need(0 <= rp <= rules.track(c).length, f"players[{i}].research", f"{c} RP must be 0-{rules.track(c).length}")
                need(tok == 0 or rp < rules.track(c).length, f"players[{i}].tokens", f"a completed {c} track holds no tokens")
            marks = sum(p.tokens) + (self.funders.count(i) if rules.funding_needs_marker else 0)
            need(marks <= rules.markers, f"players[{i}].tokens", f"tokens and funding marks {marks} exceed {rules.markers} markers")
            need(not (self.solo and i == CORPORATION) or (p.research == _NO_TRACKS and p.flavour == 0), f"players[{i}].research",
                 "a corporation never researches and holds no flavour dice")
        for where, faces, allowed in (("white", self.white, WHITE_DIE), ("own", self.own, FLAVOUR_DIE)):
            need(all(f in allowed for f in faces), where, f"faces must be among {allowed}")
        in_roll = len(self.own) + self.rolling_own
        held = sum(p.flavour for p in self.players)
        need(
            self.flavour_coaster + held + in_roll == FLAVOUR_DICE,
            "flavour_coaster",
            f"coaster {self.flavour_coaster} + held {held} + rolled {in_roll} ≠ {FLAVOUR_DICE} flavour dice",
        )
        rolled = len(self.white) + self.rolling_white
        need(rolled <= ROLL_DICE and self.featured_size + rolled <= COFFEE_DICE, "white",
             f"{rolled} coffee dice rolled with {self.featured_size} on the coaster: at most {ROLL_DICE} and {COFFEE_DICE} in all")
        holder = self.featured_by
        need(-1 <= holder < n, "featured_by", f"must be -1 (nobody) or a player 0-{n - 1}")
        if holder < 0:
            need(self.featured_size == 0 and self.featured_colour == "" and not self.funders, "featured_size",
                 "with nobody holding the Featured Blend, size 0, colour '' and no funders")
        else:
            need(2 <= self.featured_size <= 5, "featured_size", "a held Featured Blend has 2-5 dice")
            need(self.featured_colour in COLOURS, "featured_colour", f"must be one of {COLOURS}")
            need(len(self.funders) <= self.featured_size and all(0 <= q < n and q != holder for q in self.funders), "funders",
                 "lists other players' marks, at most one per die")
        need(-1 <= self.rainbow_by < n, "rainbow_by", f"must be -1 (nobody) or a player 0-{n - 1}")
        if not (self.solo and rules.corp_holds_both and holder == CORPORATION):
            need(holder < 0 or holder != self.rainbow_by, "rainbow_by", "a player cannot hold both blends")
        need(self.offered == tuple(sorted(self.offered)) and all(0 <= q < n and q != self.turn for q, _ in self.offered), "offered",
             "lists other players, in seat number order")
        for q, faces in self.offered:
            need(len(faces) == self.players[q].flavour and all(f in FLAVOUR_DIE for f in faces), "offered",
                 f"player {q} offers the {self.players[q].flavour} flavour dice they hold")
        for q, k in self.rolling_offered:
            need(0 <= q < n and q != self.turn and k == self.players[q].flavour, "rolling_offered",
                 f"player {q} rolls the {self.players[q].flavour if 0 <= q < n else '?'} flavour dice they hold")
        rolling = self.rolling_white + self.rolling_own + len(self.rolling_offered)
        need((self.phase in CHANCE_PHASES) == (rolling > 0), "rolling_white", "dice are rolling exactly at chance nodes")
        if self.phase in ("act", "roll"):
            need(len(self.white) + len(self.own) + self.rolling_white + self.rolling_own > 0, "white", "a roll has dice")
        elif self.phase not in ("corp",):
            need(not (self.white or self.own or self.offered), "white", f"no dice are out in phase {self.phase!r}")
        need((self.phase == "activate") == bool(self.pending), "pending", "abilities wait exactly in the activate phase")
        need(all(c in TRACK_COLOURS for c in self.pending), "pending", f"names tracks among {TRACK_COLOURS}")
        need(self.phase != "degrade" or self.featured_by == self.turn, "phase", "only the Featured Blend's holder degrades it")
        need(self.phase != "keep" or (self.featured_by == self.turn and self.featured_size >= 2), "phase",
             "keep-or-reroll needs a held blend of 2+ dice")
        need(not self.setting_up or self.phase in ("setup", "activate"), "setting_up", "setup ends before the first roll")
        corp_phase = self.phase in ("corp", "block")
        need(not corp_phase or (self.solo and self.turn == CORPORATION), "phase", "only a solo corporation takes corp/block steps")
        need(self.corp_rerolls >= 0 and (self.phase == "corp" or (self.corp_rerolls == 0 and not self.corp_first)), "corp_rerolls",
             "re-rolls are counted only during a corporation's roll")
        need(not (self.solo and self.turn == CORPORATION and self.phase in ("degrade", "keep", "act", "activate", "setup")), "turn",
             "the corporation makes no decisions")
        if self.solo:
            need(0 <= self.meter < len(rules.meter_values), "meter", f"must be a METER position 0-{len(rules.meter_values) - 1}")
        else:
            need(self.meter == 0 and self.blocked == "", "meter", "only solo games have a METER and a blocked colour")
        need(self.blocked in ("",) + COLOURS, "blocked", f"must be '' or one of {COLOURS}")
        need((self.phase == "over") == (self.winner >= 0), "winner", "is set exactly when the game is over")
        if self.winner >= 0:
            need(self.winner < n and self.players[self.winner].pp >= rules.win_pp, "winner", f"the winner has {rules.win_pp}+ PP")
        need(all(p.pp >= 0 and p.flavour >= 0 and min(p.tokens) >= 0 for p in self.players), "players", "counts are 0 or more")
        return self

    def __str__(self) -> str:
        who = {CHANCE: "chance", TERMINAL: "game over"}.get(self.current_player(), f"player {self.current_player()}")
        coaster = "empty" if self.featured_by < 0 else f"{self.featured} held by player {self.featured_by}"
        if self.funders:
            coaster += f" (funded by {', '.join(map(str, self.funders))})"
        rainbow = "supply" if self.rainbow_by < 0 else f"player {self.rainbow_by}"
        lines = [
            f"VivaJava dice, {len(self.players)} players{' vs ' + CORPORATIONS[self.rules.solo] if self.solo else ''}"
            f" · {self.phase} · {who} · turn of player {self.turn}",
            f"Featured Blend: {coaster} · Rainbow: {rainbow} · flavour coaster {self.flavour_coaster}",
        ]
        if self.solo:
            lines.append(f"METER position {self.meter} shows {self.meter_shows}" + (f" · blocked colour {self.blocked}" if self.blocked else ""))
        if self.white or self.own or self.offered or self.phase in CHANCE_PHASES:
            extra = f" + {self.rolling_white} coffee / {self.rolling_own} flavour rolling" if self.is_chance() else ""
            offered = "".join(f" · player {q} offers {_show(f)}" for q, f in self.offered)
            lines.append(f"dice: {_show(self.white)} | flavour {_show(self.own)}{extra}{offered}")
        if self.pending:
            lines.append(f"abilities to activate: {', '.join(f'{c} ({self.rules.ability(c).name})' for c in self.pending)}")
        lines += [f"player {i}: {p}" for i, p in enumerate(self.players)]
        return "\n".join(lines)



# -- JSON parsing -------------------------------------------------------------------------

def _index(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < -1:
        raise bad(where, "must be a player number, or -1 for nobody", value)
    return value


def _face_list(value: Any, where: str) -> tuple[str, ...]:
    faces = list_of(text)(value, where)
    if any(f not in _FACE_INDEX for f in faces):
        raise bad(where, f"faces are {', '.join(_FACE_INDEX)}", value)
    return tuple(sorted(faces, key=_face_key))


def _track_values(value: Any, where: str) -> tuple[int, ...]:
    values = list_of(whole)(value, where)
    if len(values) != len(TRACK_COLOURS):
        raise bad(where, f"needs {len(TRACK_COLOURS)} numbers, one per track white..green", value)
    return values


_player = record(PlayerState, {"pp": whole, "research": _track_values, "tokens": _track_values, "flavour": whole})


def _owner_pair(second: Any) -> Any:
    def parse(value: Any, where: str) -> tuple[int, Any]:
        if not isinstance(value, list) or len(value) != 2:
            raise bad(where, "must be a [player, ...] pair", value)
        return (whole(value[0], f"{where}[0]"), second(value[1], f"{where}[1]"))

    return parse


def _colour_or_blank(value: Any, where: str) -> str:
    colour = text(value, where)
    if colour not in ("",) + COLOURS:
        raise bad(where, f"must be '' or one of {', '.join(COLOURS)}", value)
    return colour


_FIELD_PARSERS = {
    "players": list_of(_player),
    "phase": text,
    "turn": whole,
    "setting_up": flag,
    "flavour_coaster": whole,
    "featured_by": _index,
    "featured_colour": _colour_or_blank,
    "featured_size": whole,
    "funders": list_of(whole, sort=True),
    "rainbow_by": _index,
    "white": _face_list,
    "own": _face_list,
    "offered": list_of(_owner_pair(_face_list), sort=True),
    "rolling_white": whole,
    "rolling_own": whole,
    "rolling_offered": list_of(_owner_pair(whole), sort=True),
    "pending": list_of(_colour_or_blank),
    "meter": whole,
    "blocked": _colour_or_blank,
    "corp_rerolls": whole,
    "corp_first": flag,
    "winner": _index,
}
State.GAME, State.FORMAT, State.FIELD_PARSERS = "vivajava", STATE_FORMAT, _FIELD_PARSERS


# -- the game -----------------------------------------------------------------------------

class Game(GameBase):
    """VivaJava: The Dice Game for 2-4 players, or solo against a corporation; ``options`` are :class:`Rules` fields.

    >>> game = Game(players=3)
    >>> game.rules.featured_pp, game.options
    (3, {'players': 3})
    >>> solo = Game(solo="omniblend", meter="red")
    >>> s = solo.new_initial_state()
    >>> s.is_chance(), s.turn, s.meter_shows
    (True, 0, 3)
    """

    name = "vivajava"
    action_kinds = ACTION_KINDS
    state_class = State

    def __init__(self, players: int = 2, solo: str | None = None, meter: str = "yellow", **options: Any) -> None:
        self.rules = Rules(players=players, solo=solo, meter=meter, **options)
        self.options: dict[str, Any] = {"players": players, **({"solo": solo, "meter": meter} if solo else {}), **options}

    def new_initial_state(self, seed: int | None = None) -> State:
        """The game after setup: player 1 choosing their setup RP (solo: the player's first roll, a chance node).

        With ``seed``, a chance node at the start is rolled from that seed.
        """
        rules = self.rules
        state = State(
            rules=rules,
            players=tuple(PlayerState() for _ in range(rules.players)),
            phase="setup",
            turn=1,
            setting_up=True,
            meter=rules.meter_start,
        )
        if rules.solo:
            state = state._with(setting_up=False)._start_turn(0)
        if seed is not None and state.is_chance():
            state = state.apply(state.sample_chance(np.random.default_rng(seed)))
        return state



__all__ = [
    "ACTION_KINDS",
    "Boost",
    "Decline",
    "Degrade",
    "Featured",
    "Flip",
    "Game",
    "GainToken",
    "Keep",
    "KeepRolling",
    "PlayerState",
    "Rainbow",
    "Reroll",
    "Research",
    "Rolled",
    "SetupResearch",
    "State",
    "TakeFlavour",
    "Upgrade",
    "roll_outcome_count",
    "roll_outcomes",
]
