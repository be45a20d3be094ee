"""Dairyman's rules as data: every parameter, ruling and stand-in in one frozen :class:`Rules`.

``docs/rules/dairyman.md`` sorts every statement about the game into *Rule* (the game's
own rules), *Fact* (a public source about the published game), *Ruling* (our decision
where the rules say too little) and *Stand-in* (numbers we had to invent). Each
parameter below carries its kind and a one-line reason in its field metadata, so
``Rules().table()`` lists them all, and a player who owns the game can correct any ruling
by passing an option (``Game(players=3, ice_supply=10)``) and any stand-in by loading
their own milk-tile file (``Game(tiles="my_tiles.json")``).

This module also owns the milk-tile file format (:func:`load_tiles`). Milk tiles are
named by a short *code* that says everything printed on them: ``"30:cheese4"`` (worth 30,
flips to cheese when the yellow die shows 4) or ``"20:ice2:1s"`` (worth 20, flips to ice
cream for 2 ice tokens, giving the reroll-all-1s ability).

Example:
    >>> rules = Rules(players=3)
    >>> rules.backorder_tokens, rules.ice_supply, len(rules.tiles)
    (4, 20, 22)
    >>> Tile.from_code("20:ice2:1s")
    Tile(value=20, cheese=None, snowflakes=2, ice_cream='reroll_1s')
    >>> Rules(players=5)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: Dairyman options: argument 'players': must be 2, 3 or 4; got 5
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from ..engine.options import option as _option
from ..errors import PATH_CHARS, BadArgument, shown
from ..validate import Checker, cached, check_instance, check_path, is_whole, read_json
from ..versions import RulesVersions

if TYPE_CHECKING:
    import pandas as pd  # the options table's only: the odds load these rules without pandas or the engine

__all__ = [
    "ABILITIES",
    "BACKORDER_TOKENS",
    "BARNS",
    "ICE_CREAM_ABILITIES",
    "MAX_SNOWFLAKES",
    "RED_DICE",
    "Rules",
    "STAND_IN_TILES",
    "TIEBREAKS",
    "TILE_COUNT",
    "TILE_VALUES",
    "Tile",
    "WHITE_DICE",
    "load_tiles",
    "parse_tile",
    "tile_of",
    "tiles_from_data",
]

WHITE_DICE = 7
"""White dairy dice (Rule); with the 1 yellow die they make the 8 dairy dice."""
RED_DICE = 4
"""Red backorder dice that exist (Rule)."""
MOST_SETS = (WHITE_DICE + RED_DICE + 1) // 2
"""The most sets a turn can lock: every die (white, red, the yellow) in sets of 2 or more."""
BARNS = 3
"""Barn tiles 1, 2, 3 (Rule): sets from roll 1, roll 2, and roll 3 onwards."""
BACKORDER_TOKENS = 5
"""Backorder tokens in the box (Rule); how many go in the supply depends on the player count."""
TILE_VALUES = (10, 20, 30, 40)
"""Milk-tile values (Fact)."""
TILE_COUNT = 22
"""Milk tiles in the box (Rule)."""
MAX_SNOWFLAKES = 20
"""Upper bound accepted for a tile's snowflakes: there are at most 20 ice tokens (Fact)."""

ABILITIES: dict[str, tuple[str, tuple[int, ...]]] = {
    "reroll_1s": ("reroll all 1s", (1,)),
    "reroll_2s": ("reroll all 2s", (2,)),
    "reroll_chosen": ("reroll all of a chosen value", (1, 2, 3, 4, 5, 6)),
}
"""Ice-cream ability key → (description, die values it may target) (Rule)."""
ICE_CREAM_ABILITIES: tuple[tuple[str, tuple[int, ...]], ...] = tuple(ABILITIES.values())
"""The three ice-cream rerolls as (description, die values each may target), for the odds tables."""
TIEBREAKS = ("fewest_backorders", "most_cheese", "most_tiles")
"""Tiebreakers that the ``tiebreak`` option may list, applied in order."""
STAND_IN_TILES = Path(__file__).parent / "data" / "milk_tiles.json"
"""The shipped stand-in milk-tile file (NOT the published components)."""

_TILE_FIELDS = ("value", "cheese", "snowflakes", "ice_cream")
_TOP_FIELDS = ("tiles", "stand_in")
_TILE_CODES = Checker("milk-tile code", BadArgument)


@dataclass(frozen=True, order=True)
class Tile:
    """One milk tile: its value and either a cheese number or a snowflake cost with an ice-cream ability.

    >>> str(Tile(30, cheese=4)), str(Tile(40, snowflakes=3, ice_cream="reroll_chosen"))
    ('30:cheese4', '40:ice3:chosen')
    """

    value: int
    cheese: int | None = None
    snowflakes: int | None = None
    ice_cream: str | None = None

    @property
    def code(self) -> str:
        """The tile's short name, used in states and actions."""
        if self.cheese is not None:
            return f"{self.value}:cheese{self.cheese}"
        return f"{self.value}:ice{self.snowflakes}:{str(self.ice_cream).removeprefix('reroll_')}"

    def __str__(self) -> str:
        return self.code

    @classmethod
    def from_code(cls, code: str) -> Self:
        """Parse a tile code; a ``BadArgument`` (a ``ValueError``) says what is wrong."""
        return cls(**dataclasses.asdict(tile_of(code)))

    def to_data(self) -> dict[str, Any]:
        """The tile as a dict in the milk-tile file format."""
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


@cached(maxsize=None)
def tile_of(code: str) -> Tile:
    """The :class:`Tile` a code names (cached: codes are the engine's tile identities).

    >>> tile_of("10:cheese1").cheese
    1
    >>> tile_of("10:cheese01")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: milk-tile code: argument 'code': is not a milk-tile code; did you mean '10:cheese1'?; got '10:cheese01'
    """
    example = "must be a milk-tile code like '30:cheese4' or '20:ice2:1s'"
    _TILE_CODES.need(isinstance(code, str), "code", example, code)
    parts = code.split(":")
    try:
        value = int(parts[0])
        if len(parts) == 2 and parts[1].startswith("cheese"):
            data: dict[str, Any] = {"value": value, "cheese": int(parts[1].removeprefix("cheese"))}
        elif len(parts) == 3 and parts[1].startswith("ice"):
            data = {"value": value, "snowflakes": int(parts[1].removeprefix("ice")), "ice_cream": "reroll_" + parts[2]}
        else:
            raise ValueError
    except ValueError:
        raise _TILE_CODES.error("code", example, code) from None
    tile = parse_tile(data, "code", _TILE_CODES)
    _TILE_CODES.need(tile.code == code, "code", f"is not a milk-tile code; did you mean {tile.code!r}?", code)
    return tile


def parse_tile(entry: Any, where: str = "tile", check: Checker | None = None) -> Tile:
    """Validate one tile entry of a milk-tile file (a dict) and build the :class:`Tile`.

    ``where`` names the entry in errors; ``check`` says where the data came from.

    >>> parse_tile({"value": 25, "cheese": 3}, "tiles[4]")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: milk tiles: field 'tiles[4].value': must be one of 10, 20, 30, 40; got 25
    """
    check = Checker("milk tiles") if check is None else check_instance(check, Checker, "check", "a Checker or None")
    check.need(isinstance(entry, dict), where, 'must be an object like {"value": 20, "cheese": 4}', entry)
    check.fields(entry, where, _TILE_FIELDS, required=("value",))
    value = entry["value"]
    check.need(is_whole(value) and value in TILE_VALUES, f"{where}.value", f"must be one of {', '.join(map(str, TILE_VALUES))}", value)
    has_cheese, has_snow = "cheese" in entry, "snowflakes" in entry
    check.need(
        has_cheese != has_snow,
        f"{where}.{'cheese' if has_cheese else 'snowflakes'}",
        "a tile has exactly one of 'cheese' (a number 1-6) or 'snowflakes' (an ice-token cost)",
    )
    if has_cheese:
        cheese = entry["cheese"]
        check.need(is_whole(cheese) and 1 <= cheese <= 6, f"{where}.cheese", "must be a die value 1-6", cheese)
        check.need("ice_cream" not in entry, f"{where}.ice_cream", "only a snowflake tile flips to ice cream; a cheese tile has no ability")
        return Tile(value, cheese=cheese)
    snow = entry["snowflakes"]
    check.need(is_whole(snow) and 1 <= snow <= MAX_SNOWFLAKES, f"{where}.snowflakes",
               f"must be a whole number of ice tokens 1-{MAX_SNOWFLAKES}", snow)
    check.need("ice_cream" in entry, f"{where}.ice_cream", f"missing; a snowflake tile names its ability: one of {', '.join(ABILITIES)}")
    ability = check.one_of(entry["ice_cream"], f"{where}.ice_cream", tuple(ABILITIES))
    return Tile(value, snowflakes=snow, ice_cream=ability)


def tiles_from_data(data: Any, count: int | None = TILE_COUNT, source: str = "milk tiles",
                    check: Checker | None = None) -> tuple[Tile, ...]:
    """Validate milk-tile data (a file's parsed JSON, or just its list of tiles) completely.

    Nothing is returned unless every tile is valid; the error (``BadData`` unless ``check``
    says otherwise) names the field, e.g. ``tiles[3].value``.

    >>> len(tiles_from_data([{"value": 10, "cheese": 1}], count=None))
    1
    """
    check = Checker(source) if check is None else check_instance(check, Checker, "check", "a Checker or None")
    if isinstance(data, dict):
        check.fields(data, "(top level)", _TOP_FIELDS, required=("tiles",))
        if "stand_in" in data:
            check.flag(data["stand_in"], "stand_in")
        data = data["tiles"]
    entries: tuple[Any, ...] = check.sequence(data, "tiles")
    tiles = tuple(parse_tile(e.to_data() if isinstance(e, Tile) else e, f"tiles[{i}]", check) for i, e in enumerate(entries))
    check.need(count is None or len(tiles) == count, "tiles",
               f"has {len(tiles)} tiles; Dairyman has {count} (pass tile_count=None to allow any number)")
    check.need(bool(tiles), "tiles", "is empty")
    return tiles


def load_tiles(path: str | Path | None = None, count: int | None = TILE_COUNT) -> tuple[Tile, ...]:
    """Read a milk-tile file (the shipped stand-in by default) and validate it completely.

    The format is that of ``data/milk_tiles.json`` (see ``data/README.md``):
    ``{"tiles": [{"value": 20, "cheese": 4}, {"value": 30, "snowflakes": 2, "ice_cream":
    "reroll_1s"}, ...]}``, with optional ``"stand_in"`` and ``"_comment"`` fields.
    ``count=None`` accepts any number of tiles. A bad file raises ``BadData`` naming the field.

    >>> tiles = load_tiles()
    >>> len(tiles), tiles[0].code
    (22, '10:cheese1')
    """
    file = STAND_IN_TILES if path is None else check_path(path)
    source = f"milk-tile file {shown(str(file), PATH_CHARS)}"
    data = read_json(file, source)
    Checker(source).need(isinstance(data, dict), "(top level)", "must be a JSON object with a 'tiles' list", data)
    return tiles_from_data(data, count, source)


@lru_cache(maxsize=1)
def _stand_in_codes() -> tuple[str, ...]:
    return tuple(sorted(t.code for t in load_tiles()))


_OPTIONS = Checker("Dairyman options", BadArgument)


RULES_VERSIONS = RulesVersions({
    2: {"flip_after_order": True},  # flips stay open after the order (version 1: ordering ended the turn)
})
"""What each rules version changed (option ``rules_version``; a save naming none was played under 1)."""


@RULES_VERSIONS
@dataclass(frozen=True)
class Rules:
    """Every parameter of a Dairyman game. Options are validated; a ``BadArgument`` names the option.

    ``tiles`` may be ``None`` (the shipped stand-in file), a path to a milk-tile file, or a
    list of tile dicts / :class:`Tile`; it is always a tuple of :class:`Tile` afterwards.

    >>> Rules(ice_supply=10).ice_supply
    10
    >>> Rules().table().loc["red_dice_cap", "kind"]
    'Ruling'
    """

    players: int = _option("Rule", "2-4 players", 2)
    ice_supply: int = _option("Fact", "ice tokens in the supply: 20 in the US edition, 10 in the original", 20)
    red_dice_cap: int = _option("Ruling", "at most this many red dice are rolled, one per backorder token held (4 exist)", 4)
    backorder_supply: tuple[int, int, int] = _option("Rule", "backorder tokens in the supply for 2, 3, 4 players", (3, 4, 5))
    set_value: int = _option("Rule", "barn value of each locked set (its dice sum)", 10)
    cheese_points: int = _option("Rule", "points for each tile flipped to cheese, on top of its value", 5)
    ice_cream_points: int = _option("Ruling", "points for each tile flipped to ice cream, on top of its value", 0)
    backorder_penalty: int = _option("Rule", "points lost per backorder token held at the end", 5)
    display_size: int = _option("Rule", "face-up milk tiles in the display", 3)
    ice_token_from_roll: int = _option("Rule", "before this roll of a turn and every later one, take 1 ice token (four reviews agree on the 3rd)", 3)
    roll_without_ice_token: bool = _option(
        "Ruling", "with the ice supply empty you still roll and take none; False forbids those rolls", True
    )
    cheese_from_locked_yellow: bool = _option(
        "Ruling",
        "False: only an unlocked yellow die makes cheese (then set aside for the turn); "
        "True: a yellow die locked in a set this turn may too (it stays in its set)",
        False,
    )
    ice_cream_once_per_tile: bool = _option(
        "Ruling",
        "True: each ice-cream tile's ability once per turn (two reroll-1s tiles reroll 1s twice); "
        "False: each ability once per turn however many tiles give it",
        True,
    )
    optional_actions_before_bust: bool = _option(
        "Ruling",
        "the rules: with no set you \"immediately end your turn\" (즉시 자신의 차례를 끝냅니다), yet you may flip a tile "
        "\"at any time during your turn\". True: a roll with no set is judged a bust only after the optional actions "
        "you want on it (a cheese or ice-cream flip, an ice-cream reroll); False: it busts at once",
        True,
    )
    flip_after_order: bool = _option(
        "Ruling",
        "the rules: flip your milk tiles \"at any time during your turn\" (자신의 차례 중 언제든지). True: flips stay "
        "open after ordering until you end the turn (EndTurn), so a tile bought this turn can be flipped with the "
        "still-unlocked yellow die or with ice; False: ordering ends the turn (rules_version 1: the default before "
        "this option existed)",
        False,
    )
    tiebreak: tuple[str, ...] = _option("Ruling", f"tiebreakers applied in order, from {TIEBREAKS}; () = shared victory", ())
    payoff: str = _option("Ruling", "returns(): 'score' (final scores) or 'win' (1 for each winner, else 0)", "score")
    tiles: Any = _option("Stand-in", "the milk tiles: None = shipped stand-in file, a path, or a list of tiles", None, shown=False)
    tile_count: int | None = _option("Rule", "tiles a tile file must hold (None: any number)", TILE_COUNT)
    rules_version: int = _option(
        "Ruling", "the version of the rules whose defaults the other options take: 2 (flip_after_order True) or 1 "
        "(flip_after_order False: games saved before that option existed)", RULES_VERSIONS.latest)

    def __post_init__(self) -> None:
        check = _OPTIONS
        check.need(is_whole(self.players) and 2 <= self.players <= 4, "players", "must be 2, 3 or 4", self.players)
        for name in ("ice_supply", "set_value", "cheese_points", "ice_cream_points", "backorder_penalty"):
            check.whole(getattr(self, name), name, 0)
        check.whole(self.red_dice_cap, "red_dice_cap", 0, RED_DICE)
        check.whole(self.display_size, "display_size", 1)
        check.whole(self.ice_token_from_roll, "ice_token_from_roll", 2)
        supply = check.sequence(self.backorder_supply, "backorder_supply",
                                lambda n, where: check.whole(n, where, 1, BACKORDER_TOKENS), low=3, high=3)
        object.__setattr__(self, "backorder_supply", supply)
        for name in ("roll_without_ice_token", "cheese_from_locked_yellow", "ice_cream_once_per_tile",
                     "optional_actions_before_bust", "flip_after_order"):
            check.need(isinstance(getattr(self, name), bool), name, "must be True or False", getattr(self, name))
        ties: tuple[Any, ...] = check.sequence(self.tiebreak, "tiebreak")
        check.need(all(isinstance(t, str) and t in TIEBREAKS for t in ties), "tiebreak",
                   f"must list tiebreakers from {', '.join(TIEBREAKS)}", ties)
        object.__setattr__(self, "tiebreak", ties)
        check.one_of(self.payoff, "payoff", ("score", "win"))
        check.need(self.tile_count is None or (is_whole(self.tile_count) and self.tile_count >= 1), "tile_count",
                   "must be a whole number 1 or more, or None", self.tile_count)
        if self.tiles is None or isinstance(self.tiles, (str, Path)):
            tiles = load_tiles(self.tiles, self.tile_count)
        else:
            tiles = tiles_from_data(self.tiles, self.tile_count, check=Checker("option 'tiles'", BadArgument))
        object.__setattr__(self, "tiles", tiles)
        check.need(len(tiles) >= self.display_size, "display_size",
                   f"a display of {self.display_size} needs that many tiles; option 'tiles' has {len(tiles)}")
        cheapest = min(t.value for t in tiles)  # a turn locks at most MOST_SETS sets: below that no tile is ever bought
        check.need(MOST_SETS * self.set_value >= cheapest, "set_value",
                   f"must let {MOST_SETS} locked sets buy the cheapest tile ({cheapest}), or the game never ends: "
                   f"at least {-(-cheapest // MOST_SETS)}", self.set_value)

    @property
    def backorder_tokens(self) -> int:
        """Backorder tokens in the supply for this player count."""
        return self.backorder_supply[self.players - 2]

    @property
    def tile_codes(self) -> tuple[str, ...]:
        """Every milk tile's code, sorted (duplicates kept)."""
        return tuple(sorted(t.code for t in self.tiles))

    @property
    def stand_in_tiles(self) -> bool:
        """Whether the tiles are the shipped stand-in set."""
        return self.tile_codes == _stand_in_codes()

    def table(self) -> pd.DataFrame:
        """Every parameter with its value, its kind (Rule / Fact / Ruling / Stand-in) and what it means."""
        from ..engine.options import option_table

        shown = {"tiles": "stand-in file" if self.stand_in_tiles else f"{len(self.tiles)} tiles from the user"}
        return option_table(self, shown)
