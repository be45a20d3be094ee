"""Coffee Roaster's components as data: the coffee cards and the board, their file formats and loaders.

Two files ship in ``data/`` and both are **stand-in data** (docs/rules/roaster.md, "Stand-in
data"): ``cards.json`` (the 22 coffee cards: bag contents, moisture, roast table, flavour
list) and ``board.json`` (thermometer draws, crack and smoke spaces, start space by
moisture, immediate-effect costs, cup-effect slot colours, cup-board layout, the box's
token counts, titles). A player who owns the game loads their own files
(``Game(card=..., cards="my_cards.json", board="my_board.json")``; the format is in
``data/README.md``). Both are validated completely by the shared
:class:`~coffeegames.validate.Checker`: an error (:class:`~coffeegames.errors.BadData`)
names the card and field, and nothing half-loads.

Example:
    >>> cards = load_cards()
    >>> len(cards), cards[0].name, cards[0].optimum
    (22, 'Mexico Altura Oaxaca', 14)
    >>> load_board().side("full").draws[:3]
    (6, 7, 7)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import PATH_CHARS, BadArgument, BadType, shown
from ..validate import Checker, check_instance, check_path, is_whole, read_json
from .tokens import (
    ACIDITY,
    AROMA,
    BEANS,
    BODY,
    BURNT,
    DEFECT,
    FLAVOURS,
    HARD,
    MOISTURE,
    SLOT_KINDS,
    SMOKE,
    SWEETNESS,
    TOKENS,
    WILD,
    key,
)

__all__ = [
    "Board", "CARD_FLAVOURS", "CARD_TOKENS", "CLASSES", "CUP_SPACES", "Card", "DATA", "DIFFICULTIES", "IMMEDIATE",
    "SIDES", "SQUARES", "STAND_IN_BOARD", "STAND_IN_CARDS", "SUPPLY_KINDS", "Side", "board_from_dict", "cards_from_dict",
    "check_card_on_board", "load_board", "load_cards", "stand_in_board", "stand_in_cards",
]

DATA = Path(__file__).parent / "data"
"""The folder of the shipped data files."""
STAND_IN_CARDS = DATA / "cards.json"
"""The shipped stand-in coffee cards (NOT the published components)."""
STAND_IN_BOARD = DATA / "board.json"
"""The shipped stand-in board numbers (NOT the published components)."""

SIDES: tuple[str, ...] = ("full", "easy")
"""The two sides of the roast board and thermometer (Rule)."""
CLASSES: tuple[str, ...] = ("I", "II", "III")
"""Roast classes of the coffee cards: light, medium, dark brown (Rule)."""
DIFFICULTIES: tuple[str, ...] = ("beginner", "advanced", "expert")
"""Difficulty within a roast class (Rule)."""
CUP_SPACES = 10
"""Spaces in the cup (Rule)."""
SQUARES = 5
"""Square spaces on the roast board, one per cup effect; two flavour slots beside each (Rule)."""
IMMEDIATE: tuple[str, ...] = ("plus_two", "new_two", "two_of_five", "remove")
"""The immediate effects paid with flavour tokens (the wild flavour, paid with beans, is the fifth) (Rule)."""
CARD_TOKENS: tuple[str, ...] = tuple(t for t in TOKENS if t != WILD)
"""Tokens a coffee card may put in the bag."""
SUPPLY_KINDS: tuple[str, ...] = ("hard", "roasted", DEFECT, SMOKE, MOISTURE, BODY, ACIDITY, AROMA, WILD)
"""Token kinds counted in the box (``roasted``: levels 0-4 and burnt together)."""
CARD_FLAVOURS: tuple[str, ...] = (*FLAVOURS, SWEETNESS)
"""What a card's flavour list may name (Sweetness: the card requires the Sweetness cup effect)."""


# -- the components ------------------------------------------------------------------

def _lookup(pairs: tuple[tuple[str, Any], ...], key: object, where: str) -> Any:
    """The value of ``key`` in a table of pairs; an unknown key is refused by name, listing the known ones."""
    for name, value in pairs:
        if name == key:
            return value
    raise BadArgument(where, f"must be one of {', '.join(name for name, _ in pairs)}", key)


def _whole(n: object, where: str) -> int:
    if not is_whole(n):
        raise BadType(where, "must be a whole number", n)
    return n  # type: ignore[return-value]


@dataclass(frozen=True)
class Card:
    """One coffee card: its class and difficulty, the tokens for the bag, the roast table and the flavour list.

    >>> card = Card("Test", "I", "beginner", False, (("hard", 9), ("moisture", 3)), ((13, 8), (14, 10)), ("aroma",))
    >>> card.moisture, card.optimum, card.roast_points(12), card.bag[:2]
    (3, 14, 0, ('hard', 'hard'))
    """

    name: str
    roast_class: str
    difficulty: str
    specialty: bool
    tokens: tuple[tuple[str, int], ...]
    roast: tuple[tuple[int, int], ...]
    flavours: tuple[str, ...]

    @property
    def moisture(self) -> int:
        """The card's moisture count (it sets the round marker's start space)."""
        return dict(self.tokens).get(MOISTURE, 0)

    @property
    def bag(self) -> tuple[str, ...]:
        """The card's tokens as a sorted multiset."""
        return tuple(sorted((t for t, n in self.tokens for _ in range(n)), key=key))

    @property
    def optimum(self) -> int:
        """The total roast level scoring the most roast points (the lowest such, if several)."""
        return max(self.roast, key=lambda lp: (lp[1], -lp[0]))[0]

    def roast_points(self, total: int) -> int:
        """Roast points for a cup's total roast level (0 outside the table, Rule)."""
        return dict(self.roast).get(_whole(total, "total"), 0)

    @property
    def requires_sweetness(self) -> bool:
        """Whether the card's flavour list names Sweetness (only the Sweetness cup effect matches it)."""
        return SWEETNESS in self.flavours

    def to_data(self) -> dict[str, Any]:
        """The card in the file format (``cards_from_dict`` reads it back)."""
        return {
            "name": self.name, "class": self.roast_class, "difficulty": self.difficulty, "specialty": self.specialty,
            "tokens": dict(self.tokens), "roast": {str(k): v for k, v in self.roast}, "flavour": list(self.flavours),
        }


@dataclass(frozen=True)
class Side:
    """One side of the thermometer: draws per space, crack spaces, smoke per space, start space by moisture."""

    draws: tuple[int, ...]
    crack: tuple[int, ...]
    smoke: tuple[int, ...]
    start_by_moisture: tuple[tuple[int, int], ...]

    def to_data(self) -> dict[str, Any]:
        """The side in the file format."""
        return {
            "draws": list(self.draws), "crack": list(self.crack),
            "smoke": {str(i): n for i, n in enumerate(self.smoke) if n},
            "start_by_moisture": {str(m): s for m, s in self.start_by_moisture},
        }


@dataclass(frozen=True)
class Board:
    """Everything ``board.json`` holds, validated."""

    sides: tuple[tuple[str, Side], ...]
    immediate: tuple[tuple[str, tuple[str, ...]], ...]
    cup_slots: tuple[tuple[str, ...], ...]
    sweetness_space: int
    choice_spaces: tuple[int, ...]
    extra_bean_level: int
    tokens: tuple[tuple[str, int], ...]
    titles: tuple[tuple[int, str], ...]

    def side(self, name: str) -> Side:
        """The thermometer side ``name`` (``"full"`` or ``"easy"``)."""
        return _lookup(self.sides, name, "name")

    def cost(self, effect: str) -> tuple[str, ...]:
        """The flavour slots an immediate effect needs filled (``"any"``: a multicolour slot)."""
        return _lookup(self.immediate, effect, "effect")

    def supply(self, kind: str) -> int:
        """How many tokens of ``kind`` (one of :data:`SUPPLY_KINDS`) the box holds."""
        return _lookup(self.tokens, kind, "kind")

    def title(self, total: int) -> str:
        """The roaster title for a three-game total (the highest threshold reached)."""
        _whole(total, "total")
        name = self.titles[0][1]
        for least, title in self.titles:
            if total >= least:
                name = title
        return name

    def to_data(self) -> dict[str, Any]:
        """The board in the file format (``board_from_dict`` reads it back)."""
        return {
            "sides": {s: side.to_data() for s, side in self.sides},
            "immediate": {e: list(c) for e, c in self.immediate},
            "cup_slots": [list(s) for s in self.cup_slots],
            "cup": {"sweetness_space": self.sweetness_space, "choice_spaces": list(self.choice_spaces),
                    "extra_bean_level": self.extra_bean_level},
            "tokens": dict(self.tokens),
            "titles": [list(t) for t in self.titles],
        }



_CARD_FIELDS = ("name", "class", "difficulty", "specialty", "tokens", "roast", "flavour")


def _card_checker(source: str, name: str) -> Checker:
    """The checker for one card's fields: its errors name the card (``card 'Kenya AA': field 'roast.17': ...``)."""
    return Checker(f"{source}: card {name!r}")


def _card(value: Any, index: int, source: str) -> Card:
    """One card of a cards file, validated."""
    check = Checker(source)
    check.need(isinstance(value, Mapping), f"cards[{index}]", "must be an object", value)
    name = check.text(value.get("name"), f"cards[{index}].name", nonempty=True)
    check = _card_checker(source, name)
    entry = check.fields(value, "(top level)", _CARD_FIELDS, _CARD_FIELDS)
    roast_class, difficulty, specialty = entry["class"], entry["difficulty"], entry["specialty"]
    check.one_of(roast_class, "class", CLASSES)
    check.one_of(difficulty, "difficulty", DIFFICULTIES)
    check.flag(specialty, "specialty")
    check.need(not specialty or difficulty == "expert", "difficulty", "a specialty coffee is always expert", difficulty)
    tokens = check.fields(entry["tokens"], "tokens", CARD_TOKENS)
    pairs = []
    for t in CARD_TOKENS:
        if t in tokens:
            n = check.whole(tokens[t], f"tokens.{t}", 0, 30)
            if n:
                pairs.append((t, n))
    beans = sum(n for t, n in pairs if t == HARD or t in BEANS)
    check.need(beans >= 1, "tokens", "the bag needs at least one hard or roasted bean", tokens)
    roast_in = check.fields(entry["roast"], "roast", [str(i) for i in range(0, 101)])
    check.need(len(roast_in) >= 1, "roast", "the roast table needs at least one total roast level", roast_in)
    roast = []
    for k, v in roast_in.items():
        if str(k).startswith("_"):
            continue
        level = check.number_key(k, "roast", 0, 100)
        check.need(is_whole(v) and 0 <= v <= 30, f"roast.{k}", "roast points must be a whole number 0-30", v)
        roast.append((level, v))
    flavours = entry["flavour"]
    check.need(
        isinstance(flavours, list) and 1 <= len(flavours) <= 4 and all(f in CARD_FLAVOURS for f in flavours),
        "flavour", f"must be a list of 1-4 of {', '.join(CARD_FLAVOURS)}", flavours,
    )
    return Card(name, roast_class, difficulty, specialty, tuple(pairs), tuple(sorted(roast)), tuple(flavours))


def cards_from_dict(data: Any, source: str = "Coffee Roaster cards") -> tuple[Card, ...]:
    """Validate a cards file's parsed JSON completely; the error names the card and field.

    >>> bad = {"cards": [load_cards()[7].to_data()]}
    >>> bad["cards"][0]["roast"]["17"] = -6
    >>> cards_from_dict(bad)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: Coffee Roaster cards: card 'Zambia Kasama AA': field 'roast.17': roast points must be a whole number 0-30; got -6
    """
    check = Checker(source)
    top = check.fields(data, "(top level)", ("cards", "stand_in"), ("cards",))
    if "stand_in" in top:
        check.flag(top["stand_in"], "stand_in")
    cards_in = top["cards"]
    check.need(isinstance(cards_in, list) and len(cards_in) >= 1, "cards", "must be a list of at least one card", cards_in)
    cards = tuple(_card(c, i, source) for i, c in enumerate(cards_in))
    seen: set[str] = set()
    for c in cards:
        if c.name in seen:
            raise _card_checker(source, c.name).error("name", "two cards have this name")
        seen.add(c.name)
    return cards


def _side(value: Any, name: str, check: Checker) -> Side:
    """One side of the thermometer, validated."""
    where = f"sides.{name}"
    entry = check.fields(value, where, ("draws", "crack", "smoke", "start_by_moisture"), ("draws", "crack", "smoke", "start_by_moisture"))
    draws = entry["draws"]
    check.need(isinstance(draws, list) and 2 <= len(draws) <= 30 and all(is_whole(d) and 1 <= d <= 30 for d in draws),
               f"{where}.draws", "must be a list of 2-30 whole numbers 1-30 (tokens drawn on each thermometer space)", draws)
    spaces = len(draws)
    crack = entry["crack"]
    check.need(isinstance(crack, list) and all(is_whole(c) and 0 <= c < spaces for c in crack) and len(set(crack)) == len(crack),
               f"{where}.crack", f"must be a list of different thermometer spaces 0-{spaces - 1}", crack)
    smoke_in = check.fields(entry["smoke"], f"{where}.smoke", [str(i) for i in range(spaces)])
    smoke = [0] * spaces
    for k, v in smoke_in.items():
        if str(k).startswith("_"):
            continue
        space = check.number_key(k, f"{where}.smoke", 0, spaces - 1)
        check.need(is_whole(v) and 1 <= v <= 10, f"{where}.smoke.{k}", "must be a whole number of smoke tokens 1-10", v)
        smoke[space] = v
    start_in = check.fields(entry["start_by_moisture"], f"{where}.start_by_moisture", [str(i) for i in range(31)])
    check.need(len(start_in) >= 1, f"{where}.start_by_moisture", "needs at least one moisture count", start_in)
    start = []
    for k, v in start_in.items():
        if str(k).startswith("_"):
            continue
        moisture = check.number_key(k, f"{where}.start_by_moisture", 0, 30)
        check.need(is_whole(v) and 0 <= v < spaces, f"{where}.start_by_moisture.{k}", f"must be a thermometer space 0-{spaces - 1}", v)
        start.append((moisture, v))
    return Side(tuple(draws), tuple(sorted(crack)), tuple(smoke), tuple(sorted(start)))


def board_from_dict(data: Any, source: str = "Coffee Roaster board") -> Board:
    """Validate a board file's parsed JSON completely; the error names the field.

    >>> bad = load_board().to_data()
    >>> bad["cup_slots"][2] = ["aroma", "sweetness"]
    >>> board_from_dict(bad)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: Coffee Roaster board: field 'cup_slots[2]': must be two slot colours among body, acidity, aroma, any; got ['aroma', 'sweetness']
    """
    check = Checker(source)
    names = ("sides", "immediate", "cup_slots", "cup", "tokens", "titles")
    top = check.fields(data, "(top level)", (*names, "stand_in"), names)
    if "stand_in" in top:
        check.flag(top["stand_in"], "stand_in")
    sides_in = check.fields(top["sides"], "sides", SIDES, SIDES)
    sides = tuple((s, _side(sides_in[s], s, check)) for s in SIDES)
    imm_in = check.fields(top["immediate"], "immediate", IMMEDIATE, IMMEDIATE)
    immediate = []
    for effect in IMMEDIATE:
        cost = imm_in[effect]
        check.need(isinstance(cost, list) and 1 <= len(cost) <= 3 and all(c in SLOT_KINDS for c in cost), f"immediate.{effect}",
                   f"must be a list of 1-3 slot colours among {', '.join(SLOT_KINDS)}", cost)
        immediate.append((effect, tuple(cost)))
    slots_in = top["cup_slots"]
    check.need(isinstance(slots_in, list) and len(slots_in) == SQUARES, "cup_slots",
               f"must list the two slots beside each of the {SQUARES} square spaces", slots_in)
    for i, s in enumerate(slots_in):
        check.need(isinstance(s, list) and len(s) == 2 and all(c in SLOT_KINDS for c in s), f"cup_slots[{i}]",
                   f"must be two slot colours among {', '.join(SLOT_KINDS)}", s)
    cup = check.fields(top["cup"], "cup", ("sweetness_space", "choice_spaces", "extra_bean_level"), ("sweetness_space", "choice_spaces", "extra_bean_level"))
    sweet = cup["sweetness_space"]
    check.need(is_whole(sweet) and 0 <= sweet < CUP_SPACES, "cup.sweetness_space", f"must be a cup space 0-{CUP_SPACES - 1}", sweet)
    choice = cup["choice_spaces"]
    check.need(isinstance(choice, list) and len(choice) == 2 and all(is_whole(c) and 0 <= c < CUP_SPACES and c != sweet for c in choice)
               and choice[0] != choice[1], "cup.choice_spaces", f"must be two different cup spaces 0-{CUP_SPACES - 1}, not the Sweetness space", choice)
    extra = cup["extra_bean_level"]
    check.need(is_whole(extra) and 0 <= extra <= 4, "cup.extra_bean_level", "must be a roast level 0-4", extra)
    tokens_in = check.fields(top["tokens"], "tokens", SUPPLY_KINDS, SUPPLY_KINDS)
    for k in SUPPLY_KINDS:
        check.need(is_whole(tokens_in[k]) and 0 <= tokens_in[k] <= 200, f"tokens.{k}", "must be a whole number 0-200", tokens_in[k])
    check.need(tokens_in[WILD] >= 1, "tokens.wild", "the game needs its wild flavour token", tokens_in[WILD])
    for s, side in sides:
        check.need(sum(side.smoke) <= tokens_in[SMOKE], f"sides.{s}.smoke", f"holds {sum(side.smoke)} smoke; the box has {tokens_in[SMOKE]}")
    titles = top["titles"]
    check.need(
        isinstance(titles, list) and len(titles) >= 1
        and all(isinstance(t, list) and len(t) == 2 and is_whole(t[0]) and isinstance(t[1], str) and t[1] for t in titles)
        and all(a[0] < b[0] for a, b in zip(titles, titles[1:])),
        "titles", "must be a list of [least total, title] pairs with increasing totals", titles,
    )
    return Board(
        sides, tuple(immediate), tuple(tuple(s) for s in slots_in), sweet, tuple(sorted(choice)), extra,
        tuple((k, tokens_in[k]) for k in SUPPLY_KINDS), tuple((t[0], t[1]) for t in titles),
    )


def _read(path: str | Path, what: str) -> tuple[Any, str]:
    """A data file's parsed JSON (read within the shared size and nesting limits) and the name its errors give it."""
    source = f"Coffee Roaster {what} file {shown(str(path), PATH_CHARS)}"
    return read_json(check_path(path), source), source


def load_cards(path: str | Path | None = None) -> tuple[Card, ...]:
    """Read a cards file (the shipped stand-in by default) and validate it completely; a bad file raises
    :class:`~coffeegames.errors.BadData` naming the card and field.

    >>> cards = load_cards()
    >>> len(cards), cards[0].name, cards[0].optimum
    (22, 'Mexico Altura Oaxaca', 14)
    """
    if path is None:
        return stand_in_cards()
    data, source = _read(path, "cards")
    return cards_from_dict(data, source)


def load_board(path: str | Path | None = None) -> Board:
    """Read a board file (the shipped stand-in by default) and validate it completely.

    >>> board = load_board()
    >>> board.side("full").smoke.count(0), sorted(n for n in board.side("full").smoke if n)
    (10, [2, 3])
    """
    if path is None:
        return stand_in_board()
    data, source = _read(path, "board")
    return board_from_dict(data, source)


@lru_cache(maxsize=1)
def stand_in_cards() -> tuple[Card, ...]:
    """The shipped stand-in cards, read once."""
    data, source = _read(STAND_IN_CARDS, "cards")
    return cards_from_dict(data, source)


@lru_cache(maxsize=1)
def stand_in_board() -> Board:
    """The shipped stand-in board, read once."""
    data, source = _read(STAND_IN_BOARD, "board")
    return board_from_dict(data, source)


def check_card_on_board(card: Card, board: Board, source: str = "option 'card'") -> None:
    """A card must fit the box and the thermometer: token counts within the supply, a start space for its moisture
    (:class:`~coffeegames.errors.BadData` naming the card and field otherwise)."""
    check_instance(card, Card, "card", "a coffee Card")
    check_instance(board, Board, "board", "a Board")
    check = _card_checker(source, card.name)
    tokens = dict(card.tokens)
    supply = dict(board.tokens)
    roasted = sum(tokens.get(t, 0) for t in (*BEANS, BURNT))
    check.need(roasted <= supply["roasted"], "tokens", f"holds {roasted} roasted beans; the box has {supply['roasted']}")
    for t, n in tokens.items():
        if t in supply:
            check.need(n <= supply[t], f"tokens.{t}", f"the box holds only {supply[t]}", n)
    for s, side in board.sides:
        check.need(tokens.get(SMOKE, 0) + sum(side.smoke) <= supply[SMOKE], "tokens.smoke",
                   f"with the {s} side's thermometer smoke that exceeds the box's {supply[SMOKE]}", tokens.get(SMOKE, 0))
        check.need(card.moisture in dict(side.start_by_moisture), "tokens.moisture",
                   f"the {s} side's thermometer has no start space for this moisture count "
                   f"(it has {', '.join(str(m) for m, _ in side.start_by_moisture)})", card.moisture)
