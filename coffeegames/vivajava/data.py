"""VivaJava's data file: the numbers we had to invent (Stand-in), in a file a player may replace.

The data file (``data/vivajava.json``, format in ``data/README.md``) holds the Featured
and Rainbow Blend PP by player count, the five research tracks (length, 1X and 2X marks,
completion PP, the ability on each) and the two solo METERs. It is read with the shared
limited JSON reader and checked field by field with the shared
:class:`~coffeegames.validate.Checker`: a bad file is refused whole, with a
:class:`~coffeegames.errors.BadData` naming the field and what is allowed.

Abilities: the published game has nine; the engine implements six effects
(:data:`ABILITIES`): five named ones and one *invented* negative ability so that the
"negative abilities are forced" rule can be played. The stand-in coaster uses only the
five positive ones. See ``docs/rules/vivajava.md``.

Example:
    >>> data = load_data()
    >>> data.featured_pp, [t.ability for t in data.tracks][:2]
    ((2, 3, 3), ['extra_flavour', 'upgrade_bean'])
    >>> bad = data.to_data()
    >>> bad["tracks"]["red"]["x2"] = 9
    >>> data_from_dict(bad)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: VivaJava data: field 'tracks.red.x2': must be an RP position after x1 (3) and before the end (7); got 9
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import PATH_CHARS, BadArgument, shown
from ..validate import Checker, check_path, is_whole, read_json
from .dice import COLOURS

__all__ = [
    "ABILITIES", "Ability", "CORPORATIONS", "DIFFICULTIES", "MAX_TRACK", "OMNIBLEND_REROLLS", "Meter",
    "STAND_IN_DATA", "TRACK_COLOURS", "Track", "VivaData", "data_from_dict", "load_data", "stand_in",
]

TRACK_COLOURS: tuple[str, ...] = COLOURS[:5]
"""The five research tracks, white..green (Rule: there is no black track)."""
DIFFICULTIES: tuple[str, ...] = ("green", "yellow", "red")
"""METER start positions: green easy, yellow normal, red hard (Rule)."""
CORPORATIONS: dict[str, str] = {"omniblend": "OmniBlend TransGlobal", "sacchar": "Sacchar Inc."}
OMNIBLEND_REROLLS: tuple[str, ...] = ("seed", "stop_at_blend", "always")
"""The values of option ``omniblend_rerolls``: the rules' reading (``"seed"``), then the library's two older ones."""
"""The two solo opponents (Rule), by option value."""
STAND_IN_DATA = Path(__file__).parent / "data" / "vivajava.json"
"""The shipped stand-in data file (NOT the published components)."""
MAX_TRACK = 20
"""Longest research track a data file may declare."""
MAX_PP = 21
"""Most PP a data file may give for one blend or track (the game is won at 21)."""


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
                "after a roll, spend the token: one of your rolled coffee dice goes up one grade "
                "(white→yellow→brown→red→green→black)", "Fact (name); effect Ruling"),
        Ability("flip_bean", "Flip Bean", "token",
                "after a roll, spend the token: turn one of your rolled coffee dice to the opposite face, "
                "grade g → 7 − g (white↔black, yellow↔green, brown↔red)", "Fact (name); effect Ruling (7 − g)"),
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
_PLAYER_COUNTS = ("2", "3", "4")


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
        """The RP positions of the 1X and 2X marks."""
        return (self.x1, self.x2)

    def to_data(self) -> dict[str, Any]:
        """The track in the file format."""
        return {k: getattr(self, k) for k in _TRACK_FIELDS}


@dataclass(frozen=True)
class Meter:
    """A solo coaster's METER: the number shown at each position (low to high) and the start positions."""

    values: tuple[int, ...]
    start: tuple[int, int, int]  # green, yellow, red

    def to_data(self) -> dict[str, Any]:
        """The METER in the file format."""
        return {"values": list(self.values), "start": dict(zip(DIFFICULTIES, self.start))}


@dataclass(frozen=True)
class VivaData:
    """Everything the data file holds, validated. Tuples by player count are for 2, 3, 4 players."""

    featured_pp: tuple[int, int, int]
    rainbow_pp: tuple[int, int, int]
    tracks: tuple[Track, ...]
    meters: tuple[tuple[str, Meter], ...]

    def meter(self, corporation: str) -> Meter:
        """The METER of ``corporation`` (a key of :data:`CORPORATIONS`)."""
        for name, meter in self.meters:
            if name == corporation:
                return meter
        raise BadArgument("corporation", f"must be one of {', '.join(name for name, _ in self.meters)}", corporation)

    def to_data(self) -> dict[str, Any]:
        """The data as a dict in the file format."""
        return {
            "featured_pp": {str(n): v for n, v in zip((2, 3, 4), self.featured_pp)},
            "rainbow_pp": {str(n): v for n, v in zip((2, 3, 4), self.rainbow_pp)},
            "tracks": {t.colour: t.to_data() for t in self.tracks},
            "meter": {c: m.to_data() for c, m in self.meters},
        }


def _by_players(check: Checker, value: Any, where: str) -> tuple[int, int, int]:
    entries = check.fields(value, where, _PLAYER_COUNTS)
    out = []
    for n in _PLAYER_COUNTS:
        v: Any = entries.get(n)
        check.need(is_whole(v) and 0 <= v <= MAX_PP, f"{where}.{n}", f"must be a whole number of PP 0-{MAX_PP} for {n} players", v)
        out.append(v)
    return (out[0], out[1], out[2])


def _track(check: Checker, colour: str, value: Any) -> Track:
    where = f"tracks.{colour}"
    entry = check.fields(value, where, _TRACK_FIELDS, _TRACK_FIELDS)
    length, x1, x2, pp, ability = (entry[k] for k in _TRACK_FIELDS)

    def need(ok: bool, name: str, why: str) -> None:
        check.need(ok, f"{where}.{name}", why, entry[name])

    need(is_whole(length) and 2 <= length <= MAX_TRACK, "length", f"must be a whole number of RP 2-{MAX_TRACK}")
    need(is_whole(x1) and 1 <= x1 < length, "x1", f"must be an RP position 1-{length - 1} (before the end of the track)")
    need(is_whole(x2) and x1 < x2 < length, "x2", f"must be an RP position after x1 ({x1}) and before the end ({length})")
    need(is_whole(pp) and 0 <= pp <= MAX_PP, "pp", f"must be a whole number of PP 0-{MAX_PP}")
    need(isinstance(ability, str) and ability in ABILITIES, "ability", f"must be one of {', '.join(ABILITIES)}")
    return Track(colour, length, x1, x2, pp, ability)


def _meter(check: Checker, corporation: str, value: Any) -> Meter:
    where = f"meter.{corporation}"
    entry = check.fields(value, where, _METER_FIELDS, _METER_FIELDS)
    values = entry["values"]
    top = 5 if corporation == "sacchar" else 10
    what = "flavour dice (0-5: there are 5)" if corporation == "sacchar" else "re-rolls (0-10)"
    check.need(
        isinstance(values, list)
        and len(values) >= 2
        and all(is_whole(v) and 0 <= v <= top for v in values)
        and all(a <= b for a, b in zip(values, values[1:])),
        f"{where}.values", f"must be a list of at least 2 non-decreasing numbers of {what}", values,
    )
    start = check.fields(entry["start"], f"{where}.start", DIFFICULTIES)
    positions = []
    for d in DIFFICULTIES:
        v: Any = start.get(d)
        check.need(is_whole(v) and 0 <= v < len(values), f"{where}.start.{d}", f"must be a METER position 0-{len(values) - 1}", v)
        positions.append(v)
    return Meter(tuple(values), (positions[0], positions[1], positions[2]))


def data_from_dict(data: Any, source: str = "VivaJava data") -> VivaData:
    """Validate VivaJava data (a data file's parsed JSON) completely and build :class:`VivaData`.

    Nothing is returned unless every field is valid; the :class:`~coffeegames.errors.BadData` names the field.
    """
    check = Checker(source)
    top = check.fields(data, "(top level)", _TOP_FIELDS, ("featured_pp", "rainbow_pp", "tracks", "meter"))
    if "stand_in" in top:
        check.flag(top["stand_in"], "stand_in")
    featured = _by_players(check, top["featured_pp"], "featured_pp")
    rainbow = _by_players(check, top["rainbow_pp"], "rainbow_pp")
    tracks_in = check.fields(top["tracks"], "tracks", TRACK_COLOURS)
    for colour in TRACK_COLOURS:
        check.need(colour in tracks_in, f"tracks.{colour}", "missing (every track white..green needs an entry)")
    tracks = tuple(_track(check, c, tracks_in[c]) for c in TRACK_COLOURS)
    seen: dict[str, str] = {}
    for t in tracks:
        check.need(t.ability not in seen, f"tracks.{t.colour}.ability",
                   f"{t.ability!r} is already on the {seen.get(t.ability)} track; the research coaster holds five different ability tiles")
        seen[t.ability] = t.colour
    meters_in = check.fields(top["meter"], "meter", tuple(CORPORATIONS), tuple(CORPORATIONS))
    meters = tuple((c, _meter(check, c, meters_in[c])) for c in CORPORATIONS)
    return VivaData(featured, rainbow, tracks, meters)


def load_data(path: str | Path | None = None) -> VivaData:
    """Read a VivaJava data file (the shipped stand-in by default) and validate it completely.

    >>> load_data().rainbow_pp
    (1, 2, 2)
    """
    file = STAND_IN_DATA if path is None else check_path(path)
    where = f"VivaJava data file {shown(str(file), PATH_CHARS)}"
    return data_from_dict(read_json(file, where), source=where)


@lru_cache(maxsize=1)
def stand_in() -> VivaData:
    """The shipped stand-in data, read once."""
    return load_data()
