"""VivaJava: The Dice Game's rules as data: every parameter, ruling and stand-in in one frozen :class:`Rules`.

RULES.md §2 sorts statements into *Rule* (the seed text), *Fact* (a public source),
*Ruling* (our decision where neither says enough) and *Stand-in* data (numbers we had
to invent). Each option of :class:`Rules` carries its kind and a one-line reason in its
field metadata, so ``Rules().table()`` lists them all; a player who owns the game can
correct a ruling by passing an option (``Game(players=3, offer_flavour=False)``) and the
stand-in numbers by loading their own data file (``Game(data="my_vivajava.json")``).

The data file (``data/vivajava.json``, format in ``data/README.md``) holds what we had
to invent: the Featured and Rainbow Blend PP by player count, the five research tracks
(length, 1X and 2X marks, completion PP, the ability on each) and the two METERs.

Abilities: the German rulebook names nine; the engine implements six effects
(:data:`ABILITIES`): five named ones and one *invented* negative ability so that the
"negative abilities are forced" rule can be exercised. The stand-in research coaster
uses only the five positive ones.

Example:
    >>> rules = Rules(players=4)
    >>> rules.featured_pp, rules.rainbow_pp, rules.track("green").length
    (3, 2, 8)
    >>> Rules(players=2, solo="sacchar", meter="red").meter_values[Rules(players=2, solo="sacchar", meter="red").meter_start]
    3
    >>> Rules(players=5)
    Traceback (most recent call last):
    ...
    ValueError: option 'players' must be 2, 3 or 4; got 5
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd

from ..engine.options import option_table
from .dice import COLOURS

TRACK_COLOURS: tuple[str, ...] = COLOURS[:5]
"""The five research tracks, white..green (Rule: there is no black track)."""
RESEARCH_COLOURS: tuple[str, ...] = COLOURS
"""Colours a player may research: the five tracks, and black (flavour dice instead of RP)."""
DIFFICULTIES: tuple[str, ...] = ("green", "yellow", "red")
"""METER start positions: green easy, yellow normal, red hard (Rule)."""
CORPORATIONS: dict[str, str] = {"omniblend": "OmniBlend TransGlobal", "sacchar": "Sacchar Inc."}
"""The two solo opponents (Rule), by option value."""
CORPORATION = 1
"""In solo games the corporation is player 1; the human player is player 0 and goes first (Ruling)."""
STAND_IN_DATA = Path(__file__).parent / "data" / "vivajava.json"
"""The shipped stand-in data file (NOT the published components)."""
COFFEE_DICE = 10
"""White coffee dice in the game (Fact)."""
FLAVOUR_DICE = 5
"""Black flavour dice in the game (Fact)."""
ROLL_DICE = 5
"""Coffee dice rolled on a turn, unless re-rolling a degraded Featured Blend (Rule)."""
MAX_TRACK = 20
"""Longest research track a data file may declare."""


@dataclass(frozen=True)
class Ability:
    """One research ability the engine implements.

    ``kind``: ``"token"`` (gain a marker token on the track, spend it later for one use),
    ``"immediate"`` (optional, used once as it is gained; twice at a 2X mark) or
    ``"negative"`` (forced as it is gained; twice at a 2X mark).
    """

    key: str
    name: str
    kind: str
    doc: str
    source: str


ABILITIES: dict[str, Ability] = {
    a.key: a
    for a in (
        Ability("upgrade_bean", "Upgrade Bean", "token",
                "after a roll, spend the token: one of your rolled coffee (white) dice goes up one grade "
                "(white→yellow→brown→red→green→black)", "Fact (name); effect Ruling"),
        Ability("flip_bean", "Flip Bean", "token",
                "after a roll, spend the token: turn one of your rolled coffee dice to the opposite face, "
                "grade g → 7 − g (white↔black, yellow↔green, brown↔red)", "Fact (name); Ruling 7 − g (RULES.md)"),
        Ability("keep_rolling", "Keep Rolling", "token",
                "after a roll, spend the token: re-roll any of your rolled coffee dice once", "Fact (name); effect Ruling"),
        Ability("research_boost", "Research Boost", "immediate",
                "mark 1 RP on another open track of your choice (its marks may unlock more abilities)", "Fact (name); effect Ruling"),
        Ability("extra_flavour", "Extra Flavour", "immediate",
                "take one flavour die from the flavour coaster", "Fact (name); effect Ruling"),
        Ability("spilt_beans", "Spilt Beans (invented)", "negative",
                "lose 1 PP (never below 0). INVENTED so forced negative abilities can be played; "
                "not on the stand-in coaster", "Stand-in (invented)"),
    )
}
"""Ability key → :class:`Ability`: the implemented subset of the game's nine abilities."""

_TRACK_FIELDS = ("length", "x1", "x2", "pp", "ability")
_TOP_FIELDS = ("featured_pp", "rainbow_pp", "tracks", "meter", "stand_in")
_METER_FIELDS = ("values", "start")


@dataclass(frozen=True)
class Track:
    """One research track: ``length`` RP completes it (scoring ``pp``); marks at RP ``x1`` and ``x2`` unlock ``ability``.

    >>> Track("white", 5, 2, 4, 2, "extra_flavour").marks
    (2, 4)
    """

    colour: str
    length: int
    x1: int
    x2: int
    pp: int
    ability: str

    @property
    def marks(self) -> tuple[int, int]:
        return (self.x1, self.x2)

    def to_data(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in _TRACK_FIELDS}


@dataclass(frozen=True)
class Meter:
    """A solo coaster's METER: the number shown at each position (low to high) and the start positions."""

    values: tuple[int, ...]
    start: tuple[int, int, int]  # green, yellow, red

    def to_data(self) -> dict[str, Any]:
        return {"values": list(self.values), "start": dict(zip(DIFFICULTIES, self.start))}


@dataclass(frozen=True)
class VivaData:
    """Everything the data file holds, validated. Tuples by player count are for 2, 3, 4 players."""

    featured_pp: tuple[int, int, int]
    rainbow_pp: tuple[int, int, int]
    tracks: tuple[Track, ...]
    meters: tuple[tuple[str, Meter], ...]

    def meter(self, corporation: str) -> Meter:
        return dict(self.meters)[corporation]

    def to_data(self) -> dict[str, Any]:
        """The data as a dict in the file format."""
        return {
            "featured_pp": {str(n): v for n, v in zip((2, 3, 4), self.featured_pp)},
            "rainbow_pp": {str(n): v for n, v in zip((2, 3, 4), self.rainbow_pp)},
            "tracks": {t.colour: t.to_data() for t in self.tracks},
            "meter": {c: m.to_data() for c, m in self.meters},
        }


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fields(value: Any, where: str, allowed: tuple[str, ...], source: str) -> dict:
    if not isinstance(value, Mapping):
        raise ValueError(f"{source}: field {where!r} must be an object; got {value!r}")
    for name in value:
        if name not in allowed and not str(name).startswith("_"):
            path = name if where == "(top level)" else f"{where}.{name}"
            raise ValueError(f"{source}: field {path!r}: unknown; expected {', '.join(allowed)} (and '_'-prefixed comments)")
    return dict(value)


def _by_players(value: Any, where: str, source: str) -> tuple[int, int, int]:
    entries = _fields(value, where, ("2", "3", "4"), source)
    out = []
    for n in ("2", "3", "4"):
        v = entries.get(n)
        if not _whole(v) or not 0 <= v <= 21:
            raise ValueError(f"{source}: field {f'{where}.{n}'!r}: must be a whole number of PP 0-21 for {n} players; got {v!r}")
        out.append(v)
    return tuple(out)  # type: ignore[return-value]


def _track(colour: str, value: Any, source: str) -> Track:
    where = f"tracks.{colour}"
    entry = _fields(value, where, _TRACK_FIELDS, source)

    def bad(name: str, why: str) -> ValueError:
        return ValueError(f"{source}: field {f'{where}.{name}'!r}: {why}; got {entry.get(name)!r}")

    for name in _TRACK_FIELDS:
        if name not in entry:
            raise ValueError(f"{source}: field {f'{where}.{name}'!r}: missing")
    length, x1, x2, pp, ability = (entry[k] for k in _TRACK_FIELDS)
    if not _whole(length) or not 2 <= length <= MAX_TRACK:
        raise bad("length", f"must be a whole number of RP 2-{MAX_TRACK}")
    if not _whole(x1) or not 1 <= x1 < length:
        raise bad("x1", f"must be an RP position 1-{length - 1} (before the end of the track)")
    if not _whole(x2) or not x1 < x2 < length:
        raise bad("x2", f"must be an RP position after x1 ({x1}) and before the end ({length})")
    if not _whole(pp) or not 0 <= pp <= 21:
        raise bad("pp", "must be a whole number of PP 0-21")
    if ability not in ABILITIES:
        raise bad("ability", f"must be one of {', '.join(ABILITIES)}")
    return Track(colour, length, x1, x2, pp, ability)


def _meter(corporation: str, value: Any, source: str) -> Meter:
    where = f"meter.{corporation}"
    entry = _fields(value, where, _METER_FIELDS, source)
    for name in _METER_FIELDS:
        if name not in entry:
            raise ValueError(f"{source}: field {f'{where}.{name}'!r}: missing")
    values = entry["values"]
    top = 5 if corporation == "sacchar" else 10
    what = "flavour dice (0-5: there are 5)" if corporation == "sacchar" else "re-rolls (0-10)"
    if (
        not isinstance(values, list)
        or len(values) < 2
        or any(not _whole(v) or not 0 <= v <= top for v in values)
        or any(a > b for a, b in zip(values, values[1:]))
    ):
        raise ValueError(f"{source}: field {f'{where}.values'!r}: must be a list of at least 2 non-decreasing numbers of {what}; got {values!r}")
    start = _fields(entry["start"], f"{where}.start", DIFFICULTIES, source)
    positions = []
    for d in DIFFICULTIES:
        v = start.get(d)
        if not _whole(v) or not 0 <= v < len(values):
            raise ValueError(f"{source}: field {f'{where}.start.{d}'!r}: must be a METER position 0-{len(values) - 1}; got {v!r}")
        positions.append(v)
    return Meter(tuple(values), tuple(positions))  # type: ignore[arg-type]


def data_from_dict(data: Any, source: str = "VivaJava data") -> VivaData:
    """Validate VivaJava data (a data file's parsed JSON) completely and build :class:`VivaData`.

    Nothing is returned unless every field is valid; the error names the field.

    >>> bad = load_data().to_data()
    >>> bad["tracks"]["red"]["x2"] = 9
    >>> data_from_dict(bad)
    Traceback (most recent call last):
    ...
    ValueError: VivaJava data: field 'tracks.red.x2': must be an RP position after x1 (3) and before the end (7); got 9
    """
    top = _fields(data, "(top level)", _TOP_FIELDS, source)
    for name in ("featured_pp", "rainbow_pp", "tracks", "meter"):
        if name not in top:
            raise ValueError(f"{source}: field {name!r}: missing")
    if "stand_in" in top and not isinstance(top["stand_in"], bool):
        raise ValueError(f"{source}: field 'stand_in': must be true or false; got {top['stand_in']!r}")
    featured = _by_players(top["featured_pp"], "featured_pp", source)
    rainbow = _by_players(top["rainbow_pp"], "rainbow_pp", source)
    tracks_in = _fields(top["tracks"], "tracks", TRACK_COLOURS, source)
    for colour in TRACK_COLOURS:
        if colour not in tracks_in:
            raise ValueError(f"{source}: field {f'tracks.{colour}'!r}: missing (every track white..green needs an entry)")
    tracks = tuple(_track(c, tracks_in[c], source) for c in TRACK_COLOURS)
    seen: dict[str, str] = {}
    for t in tracks:
        if t.ability in seen:
            raise ValueError(
                f"{source}: field {f'tracks.{t.colour}.ability'!r}: {t.ability!r} is already on the {seen[t.ability]} track; "
                "the research coaster holds five different ability tiles"
            )
        seen[t.ability] = t.colour
    meters_in = _fields(top["meter"], "meter", tuple(CORPORATIONS), source)
    for corp in CORPORATIONS:
        if corp not in meters_in:
            raise ValueError(f"{source}: field {f'meter.{corp}'!r}: missing")
    meters = tuple((c, _meter(c, meters_in[c], source)) for c in CORPORATIONS)
    return VivaData(featured, rainbow, tracks, meters)


def load_data(path: str | Path | None = None) -> VivaData:
    """Read a VivaJava data file (the shipped stand-in by default) and validate it completely.

    >>> data = load_data()
    >>> data.featured_pp, [t.ability for t in data.tracks][:2]
    ((2, 3, 3), ['extra_flavour', 'upgrade_bean'])
    """
    file = STAND_IN_DATA if path is None else Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"cannot read VivaJava data file {str(file)!r}: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"VivaJava data file {str(file)!r} is not valid JSON: {error}") from None
    return data_from_dict(data, source=f"VivaJava data file {str(file)!r}")


@lru_cache(maxsize=1)
def _stand_in() -> VivaData:
    return load_data()


def _option(kind: str, doc: str, default: Any, shown: bool = True) -> Any:
    return field(default=default, repr=shown, metadata={"kind": kind, "doc": doc})


@dataclass(frozen=True)
class Rules:
    """Every parameter of a VivaJava dice game. Options are validated; an error names the option.

    ``data`` may be ``None`` (the shipped stand-in file), a path to a data file, a dict in the
    file format, or a :class:`VivaData`; it is always a :class:`VivaData` afterwards.

    >>> Rules().table().loc["offer_flavour", "kind"]
    'Ruling'
    """

    players: int = _option("Rule", "2-4 players (solo games are a two-player setup against a corporation)", 2)
    solo: str | None = _option("Rule", f"None, or the corporation the single player faces: {', '.join(CORPORATIONS)}", None)
    meter: str = _option("Rule", "solo difficulty, the METER's start: green (easy), yellow (normal), red (hard)", "yellow")
    win_pp: int = _option("Rule", "the first player to this many PP wins at once", 21)
    markers: int = _option("Rule", "markers per player (funding marks and ability tokens)", 3)
    research_cap: int = _option("Rule", "most RP (or flavour dice) one research gives", 5)
    offer_flavour: bool = _option(
        "Ruling",
        "True: every other player rolls all the flavour dice they hold with the active player's roll, offering them "
        "for a Featured Blend (the seed's 'may'); False: nobody offers (smaller chance nodes)",
        True,
    )
    funding_needs_marker: bool = _option(
        "Ruling", "a funded die needs a free marker of its owner (markers are 3); False: funding needs no marker", True
    )
    jokers_in_research: bool = _option("Ruling", "a joker counts as the researched colour (it is wild), black included", True)
    return_flavour_first: bool = _option(
        "Ruling",
        "researching black, your rolled flavour dice go back to the flavour coaster before you take new ones "
        "(every flavour die you rolled returns there at the end of your action, used or not)",
        True,
    )
    both_blends: str = _option(
        "Ruling",
        "a player holding the Rainbow who makes a Featured Blend: 'return_rainbow' (the Rainbow coaster goes back "
        "to the supply) or 'no_featured' (no Featured Blend while holding the Rainbow)",
        "return_rainbow",
    )
    token_at_2x: int = _option(
        "Ruling", "tokens a 'gain a token' ability gives at its 2X mark (seed: one more); immediate and negative abilities apply twice there", 1
    )
    setup_unlocks: bool = _option("Ruling", "the setup RP of non-first players can unlock abilities (False: it marks only)", False)
    completion_cancels: bool = _option(
        "Ruling",
        "abilities unlocked this turn on a track that is completed this turn are cancelled with it "
        "(False: immediate/negative ones still apply once per mark)",
        True,
    )
    corp_holds_both: bool = _option("Rule", "a corporation may hold the Featured and Rainbow Blends at once (seed: 'they are sneaky')", True)
    corp_success_size: int = _option(
        "Ruling", "a corporation's Featured Blend needs this many of a kind (seed's '(Bold)' label conflicts with its table: three)", 3
    )
    omniblend_stops: bool = _option(
        "Ruling", "OmniBlend stops re-rolling once it holds a Featured Blend (False: it uses every METER re-roll to improve it)", True
    )
    black_block: bool = _option(
        "Ruling", "Sacchar's extra white die showing black forbids taking flavour dice by researching black next turn", True
    )
    payoff: str = _option("Ruling", "returns(): 'win' (1 for the winner, 0 otherwise) or 'pp' (each player's PP)", "win")
    data: Any = _option(
        "Stand-in", "blend PP, research tracks, abilities on them, METERs: None = shipped stand-in file, a path, or a dict", None, shown=False
    )

    def __post_init__(self) -> None:
        def need(ok: bool, name: str, why: str) -> None:
            if not ok:
                raise ValueError(f"option {name!r} {why}; got {getattr(self, name)!r}")

        need(_whole(self.players) and 2 <= self.players <= 4, "players", "must be 2, 3 or 4")
        need(self.solo is None or self.solo in CORPORATIONS, "solo", f"must be None or one of {', '.join(CORPORATIONS)}")
        need(self.solo is None or self.players == 2, "players", "must be 2 in a solo game (a two-player setup against the corporation)")
        need(self.meter in DIFFICULTIES, "meter", f"must be one of {', '.join(DIFFICULTIES)}")
        need(_whole(self.win_pp) and self.win_pp >= 1, "win_pp", "must be a whole number, 1 or more")
        need(_whole(self.markers) and 0 <= self.markers <= 10, "markers", "must be a whole number 0-10")
        need(_whole(self.research_cap) and self.research_cap >= 1, "research_cap", "must be a whole number, 1 or more")
        for name in ("offer_flavour", "funding_needs_marker", "jokers_in_research", "return_flavour_first", "setup_unlocks",
                     "completion_cancels", "corp_holds_both", "omniblend_stops", "black_block"):
            need(isinstance(getattr(self, name), bool), name, "must be True or False")
        need(self.both_blends in ("return_rainbow", "no_featured"), "both_blends", "must be 'return_rainbow' or 'no_featured'")
        need(_whole(self.token_at_2x) and 0 <= self.token_at_2x <= 2, "token_at_2x", "must be 0, 1 or 2")
        need(_whole(self.corp_success_size) and 2 <= self.corp_success_size <= 5, "corp_success_size", "must be 2-5")
        need(self.payoff in ("win", "pp"), "payoff", "must be 'win' or 'pp'")
        if self.data is None:
            data = _stand_in()
        elif isinstance(self.data, VivaData):
            data = self.data
        elif isinstance(self.data, (str, Path)):
            data = load_data(self.data)
        else:
            data = data_from_dict(self.data, source="option 'data'")
        object.__setattr__(self, "data", data)

    # -- derived values -------------------------------------------------------------
    @property
    def featured_pp(self) -> int:
        """PP the Featured Blend's holder gains at the start of each turn (Stand-in, by player count)."""
        return self.data.featured_pp[self.players - 2]

    @property
    def rainbow_pp(self) -> int:
        """PP the Rainbow Blend's holder gains at the start of each turn (Stand-in, by player count)."""
        return self.data.rainbow_pp[self.players - 2]

    def track(self, colour: str) -> Track:
        """The research track of ``colour`` (white..green)."""
        return self.data.tracks[TRACK_COLOURS.index(colour)]

    def ability(self, colour: str) -> Ability:
        """The ability on the track of ``colour``."""
        return ABILITIES[self.track(colour).ability]

    def track_with(self, ability: str) -> str | None:
        """The colour of the track carrying ``ability`` (None if it is not on the research coaster)."""
        return next((t.colour for t in self.data.tracks if t.ability == ability), None)

    @property
    def meter_values(self) -> tuple[int, ...]:
        """The solo corporation's METER (numbers shown, low to high); () outside solo games."""
        return self.data.meter(self.solo).values if self.solo else ()

    @property
    def meter_start(self) -> int:
        """The METER's start position for the chosen difficulty (0 outside solo games)."""
        return self.data.meter(self.solo).start[DIFFICULTIES.index(self.meter)] if self.solo else 0

    @property
    def stand_in_data(self) -> bool:
        """Whether the data are the shipped stand-in file."""
        return self.data == _stand_in()

    def table(self) -> pd.DataFrame:
        """Every parameter with its value, its kind (Rule / Fact / Ruling / Stand-in) and what it means."""
        shown = {"data": "stand-in file" if self.stand_in_data else "user data"}
        return option_table(self, shown)


__all__ = [
    "ABILITIES",
    "Ability",
    "CORPORATION",
    "CORPORATIONS",
    "COFFEE_DICE",
    "FLAVOUR_DICE",
    "ROLL_DICE",
    "DIFFICULTIES",
    "Meter",
    "RESEARCH_COLOURS",
    "Rules",
    "STAND_IN_DATA",
    "TRACK_COLOURS",
    "Track",
    "VivaData",
    "data_from_dict",
    "load_data",
]
