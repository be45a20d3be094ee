"""Coffee Roaster's rules as data: cards, board, every ruling, cup scoring and the three-game menu (RULES.md §3).

RULES.md sorts statements into *Rule* (the seed text), *Fact* (a public source),
*Ruling* (our decision where neither says enough) and *Stand-in* data (numbers we had
to invent). Each option of :class:`Rules` carries its kind and a one-line reason in its
field metadata, so ``Rules(card=...).table()`` lists them; a player who owns the game can
correct a ruling by passing an option (``Game(card="Kenya AA", crack_steps=1)``) and the
stand-in numbers by loading their own data files (``Game(card=..., cards="my_cards.json",
board="my_board.json")``, format in ``data/README.md``).

Two stand-in files ship: ``data/cards.json`` (the 22 coffee cards: bag contents, moisture,
roast table, flavour list) and ``data/board.json`` (thermometer draws, crack and smoke
spaces, start space by moisture, immediate-effect costs, cup-effect slot colours, cup-board
layout, token counts, titles). Both are validated completely; an error names the card and
field, and nothing half-loads.

Rulings that are not options (documented here so they can be found):

* A defect bean is never roasted; a burnt bean stays burnt.
* Flavour tokens paying for an effect come from this round's drawn tokens first, then
  from the easy side's starting tokens (the player does not choose).
* A flavour token goes into a slot of its own colour before a multicolour one.
* The wild flavour gained by paying its beans joins this round's drawn tokens (usable at
  once; unused, it goes into the bag). Only the wild may be paid over several rounds;
  the other immediate effects are paid in full when used.
* The cup is filled space by space from the left (Sweetness pre-fills its space); the
  Choice spaces are the two spaces ``cup.choice_spaces``. With Choice, the token not kept
  goes back into the bag; nothing drawn for Choice goes on the tray.
* Exchange returns two drawn tokens (never Sweetness) and keeps two of the three drawn;
  the third goes back into the bag. It needs a full cup.
* Skill counts roasted beans of levels 0-4 only; hard, burnt and defect beans add 0 to
  the total roast level (burnt: option ``burnt_level``); the Extra Bean adds
  ``cup.extra_bean_level`` (stand-in) and is not a space.
* Sweetness counts as a flavour for the "no flavour" penalty.
* The box never runs out of roasted beans (Concentrate, Disperse and roasting swap tokens
  with the box freely).

Example:
    >>> rules = Rules(card="Zambia Kasama AA")
    >>> rules.card.optimum, rules.card.roast_points(16), rules.card.roast_points(17)
    (16, 10, 6)
    >>> rules.start_space, rules.draws_at(rules.start_space)
    (2, 7)
    >>> Rules(card="Mexico Altura Oaxaca").draws_at(Rules(card="Mexico Altura Oaxaca").start_space)
    8
    >>> Rules(card="Nowhere Blend")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: option 'card': no coffee card named 'Nowhere Blend'; the cards are Mexico Altura Oaxaca, ...
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd

from ..engine.options import option_table
from .tokens import (
    ACIDITY,
    AROMA,
    BEANS,
    BODY,
    BURNT,
    DEFECT,
    EXTRA_BEAN,
    FLAVOURS,
    HARD,
    MOISTURE,
    SLOT_KINDS,
    SMOKE,
    SWEETNESS,
    TOKENS,
    WILD,
    key,
    roast_level,
)

DATA = Path(__file__).parent / "data"
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
TRAY_SPACES = 3
"""Spaces on the cardboard tray (Rule)."""
TRAY_BONUS: dict[str, int] = {"full": 2, "easy": 3}
"""Extra tray spaces the Cardboard Tray cup effect gives, by side (Rule)."""
EASY_FLAVOURS: tuple[str, ...] = FLAVOURS
"""Easy side: one Body, Acidity and Aroma from the card's tokens start on the board as if just drawn (Rule)."""
WILD_COST: tuple[str, ...] = ("bean0", "bean1")
"""The wild flavour is paid with one level-0 and one level-1 bean (Rule)."""
IMMEDIATE: tuple[str, ...] = ("plus_two", "new_two", "two_of_five", "remove")
"""The immediate effects paid with flavour tokens (the wild flavour, paid with beans, is the fifth) (Rule)."""
FLAVOUR_EFFECTS: dict[str, str] = {BODY: "concentrate", ACIDITY: "preserve", AROMA: "disperse"}
"""Flavour token → flavour effect: Body → Concentrate, Acidity → Preserve, Aroma → Disperse (Rule)."""
FLAVOUR_POINTS: tuple[int, ...] = (0, 1, 3, 6, 10)
"""Flavour points for 0-4 matches (Rule)."""
SKILL_POINTS: dict[int, int] = {3: 1, 4: 2, 5: 3, 6: 4, 7: 5}
"""Skill points for the most beans of one roast level: 3 → 1 ... 7 or more → 5 (Rule)."""
MINUS: dict[str, int] = {HARD: 1, BURNT: 1, SMOKE: 1, DEFECT: 2}
"""Minus points per token in the cup (Rule)."""
NO_FLAVOUR_MINUS = 3
"""Minus points when the cup holds no flavour token (Rule)."""
EMPTY_SPACE_MINUS = 5
"""Minus points when any cup space is empty (Rule; once, however many are empty)."""
CARD_TOKENS: tuple[str, ...] = tuple(t for t in TOKENS if t != WILD)
"""Tokens a coffee card may put in the bag."""
SUPPLY_KINDS: tuple[str, ...] = ("hard", "roasted", DEFECT, SMOKE, MOISTURE, BODY, ACIDITY, AROMA, WILD)
"""Token kinds counted in the box (``roasted``: levels 0-4 and burnt together)."""
CARD_FLAVOURS: tuple[str, ...] = (*FLAVOURS, SWEETNESS)
"""What a card's flavour list may name (Sweetness: the card requires the Sweetness cup effect)."""


# -- data ---------------------------------------------------------------------------

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
        return dict(self.roast).get(total, 0)

    @property
    def requires_sweetness(self) -> bool:
        return SWEETNESS in self.flavours

    def to_data(self) -> dict[str, Any]:
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
        return dict(self.sides)[name]

    def cost(self, effect: str) -> tuple[str, ...]:
        """The flavour slots an immediate effect needs filled (``"any"``: a multicolour slot)."""
        return dict(self.immediate)[effect]

    def supply(self, kind: str) -> int:
        return dict(self.tokens)[kind]

    def title(self, total: int) -> str:
        """The roaster title for a three-game total (the highest threshold reached)."""
        name = self.titles[0][1]
        for least, title in self.titles:
            if total >= least:
                name = title
        return name

    def to_data(self) -> dict[str, Any]:
        return {
            "sides": {s: side.to_data() for s, side in self.sides},
            "immediate": {e: list(c) for e, c in self.immediate},
            "cup_slots": [list(s) for s in self.cup_slots],
            "cup": {"sweetness_space": self.sweetness_space, "choice_spaces": list(self.choice_spaces),
                    "extra_bean_level": self.extra_bean_level},
            "tokens": dict(self.tokens),
            "titles": [list(t) for t in self.titles],
        }


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Builds error messages naming the source, (card) and field."""

    def __init__(self, source: str, card: str | None = None) -> None:
        self.source, self.card = source, card

    def error(self, where: str, why: str, value: Any = ...) -> ValueError:
        who = f"card {self.card!r} " if self.card is not None else ""
        got = "" if value is ... else f"; got {value!r}"
        return ValueError(f"{self.source}: {who}field {where!r}: {why}{got}")

    def need(self, ok: bool, where: str, why: str, value: Any = ...) -> None:
        if not ok:
            raise self.error(where, why, value)

    def fields(self, value: Any, where: str, allowed: Sequence[str], required: Sequence[str] = ()) -> dict:
        self.need(isinstance(value, Mapping), where, "must be an object", value)
        for name in value:
            if name not in allowed and not str(name).startswith("_"):
                path = name if where == "(top level)" else f"{where}.{name}"
                raise self.error(path, f"unknown; expected {', '.join(allowed)} (and '_'-prefixed comments)")
        for name in required:
            if name not in value:
                raise self.error(name if where == "(top level)" else f"{where}.{name}", "missing")
        return dict(value)

    def number_key(self, name: Any, where: str, low: int, high: int) -> int:
        ok = isinstance(name, str) and name.isdigit() and low <= int(name) <= high
        self.need(ok, f"{where}.{name}", f"keys must be whole numbers {low}-{high} written as strings")
        return int(name)


_CARD_FIELDS = ("name", "class", "difficulty", "specialty", "tokens", "roast", "flavour")


def _card(value: Any, index: int, source: str) -> Card:
    check = _Checker(source)
    check.need(isinstance(value, Mapping), f"cards[{index}]", "must be an object", value)
    name = value.get("name")
    check.need(isinstance(name, str) and name.strip() != "", f"cards[{index}].name", "must be a non-empty string", name)
    check = _Checker(source, name)
    entry = check.fields(value, "(top level)", _CARD_FIELDS, _CARD_FIELDS)
    roast_class, difficulty, specialty = entry["class"], entry["difficulty"], entry["specialty"]
    check.need(roast_class in CLASSES, "class", f"must be one of {', '.join(CLASSES)}", roast_class)
    check.need(difficulty in DIFFICULTIES, "difficulty", f"must be one of {', '.join(DIFFICULTIES)}", difficulty)
    check.need(isinstance(specialty, bool), "specialty", "must be true or false", specialty)
    check.need(not specialty or difficulty == "expert", "difficulty", "a specialty coffee is always expert", difficulty)
    tokens = check.fields(entry["tokens"], "tokens", CARD_TOKENS)
    pairs = []
    for t in CARD_TOKENS:
        if t in tokens:
            n = tokens[t]
            check.need(_whole(n) and 0 <= n <= 30, f"tokens.{t}", "must be a whole number 0-30", n)
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
        check.need(_whole(v) and 0 <= v <= 30, f"roast.{k}", "roast points must be a whole number 0-30", v)
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
    ValueError: Coffee Roaster cards: card 'Zambia Kasama AA' field 'roast.17': roast points must be a whole number 0-30; got -6
    """
    check = _Checker(source)
    top = check.fields(data, "(top level)", ("cards", "stand_in"), ("cards",))
    check.need("stand_in" not in top or isinstance(top["stand_in"], bool), "stand_in", "must be true or false", top.get("stand_in"))
    cards_in = top["cards"]
    check.need(isinstance(cards_in, list) and len(cards_in) >= 1, "cards", "must be a list of at least one card", cards_in)
    cards = tuple(_card(c, i, source) for i, c in enumerate(cards_in))
    seen: set[str] = set()
    for c in cards:
        if c.name in seen:
            raise _Checker(source, c.name).error("name", "two cards have this name")
        seen.add(c.name)
    return cards


def _side(value: Any, name: str, check: _Checker) -> Side:
    where = f"sides.{name}"
    entry = check.fields(value, where, ("draws", "crack", "smoke", "start_by_moisture"), ("draws", "crack", "smoke", "start_by_moisture"))
    draws = entry["draws"]
    check.need(isinstance(draws, list) and 2 <= len(draws) <= 30 and all(_whole(d) and 1 <= d <= 30 for d in draws),
               f"{where}.draws", "must be a list of 2-30 whole numbers 1-30 (tokens drawn on each thermometer space)", draws)
    spaces = len(draws)
    crack = entry["crack"]
    check.need(isinstance(crack, list) and all(_whole(c) and 0 <= c < spaces for c in crack) and len(set(crack)) == len(crack),
               f"{where}.crack", f"must be a list of different thermometer spaces 0-{spaces - 1}", crack)
    smoke_in = check.fields(entry["smoke"], f"{where}.smoke", [str(i) for i in range(spaces)])
    smoke = [0] * spaces
    for k, v in smoke_in.items():
        if str(k).startswith("_"):
            continue
        space = check.number_key(k, f"{where}.smoke", 0, spaces - 1)
        check.need(_whole(v) and 1 <= v <= 10, f"{where}.smoke.{k}", "must be a whole number of smoke tokens 1-10", v)
        smoke[space] = v
    start_in = check.fields(entry["start_by_moisture"], f"{where}.start_by_moisture", [str(i) for i in range(31)])
    check.need(len(start_in) >= 1, f"{where}.start_by_moisture", "needs at least one moisture count", start_in)
    start = []
    for k, v in start_in.items():
        if str(k).startswith("_"):
            continue
        moisture = check.number_key(k, f"{where}.start_by_moisture", 0, 30)
        check.need(_whole(v) and 0 <= v < spaces, f"{where}.start_by_moisture.{k}", f"must be a thermometer space 0-{spaces - 1}", v)
        start.append((moisture, v))
    return Side(tuple(draws), tuple(sorted(crack)), tuple(smoke), tuple(sorted(start)))


def board_from_dict(data: Any, source: str = "Coffee Roaster board") -> Board:
    """Validate a board file's parsed JSON completely; the error names the field.

    >>> bad = load_board().to_data()
    >>> bad["cup_slots"][2] = ["aroma", "sweetness"]
    >>> board_from_dict(bad)
    Traceback (most recent call last):
    ...
    ValueError: Coffee Roaster board: field 'cup_slots[2]': must be two slot colours among body, acidity, aroma, any; got ['aroma', 'sweetness']
    """
    check = _Checker(source)
    names = ("sides", "immediate", "cup_slots", "cup", "tokens", "titles")
    top = check.fields(data, "(top level)", (*names, "stand_in"), names)
    check.need("stand_in" not in top or isinstance(top["stand_in"], bool), "stand_in", "must be true or false", top.get("stand_in"))
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
    check.need(isinstance(slots_in, list) and len(slots_in) == 5, "cup_slots", "must list the two slots beside each of the 5 square spaces", slots_in)
    for i, s in enumerate(slots_in):
        check.need(isinstance(s, list) and len(s) == 2 and all(c in SLOT_KINDS for c in s), f"cup_slots[{i}]",
                   f"must be two slot colours among {', '.join(SLOT_KINDS)}", s)
    cup = check.fields(top["cup"], "cup", ("sweetness_space", "choice_spaces", "extra_bean_level"), ("sweetness_space", "choice_spaces", "extra_bean_level"))
    sweet = cup["sweetness_space"]
    check.need(_whole(sweet) and 0 <= sweet < CUP_SPACES, "cup.sweetness_space", f"must be a cup space 0-{CUP_SPACES - 1}", sweet)
    choice = cup["choice_spaces"]
    check.need(isinstance(choice, list) and len(choice) == 2 and all(_whole(c) and 0 <= c < CUP_SPACES and c != sweet for c in choice)
               and choice[0] != choice[1], "cup.choice_spaces", f"must be two different cup spaces 0-{CUP_SPACES - 1}, not the Sweetness space", choice)
    extra = cup["extra_bean_level"]
    check.need(_whole(extra) and 0 <= extra <= 4, "cup.extra_bean_level", "must be a roast level 0-4", extra)
    tokens_in = check.fields(top["tokens"], "tokens", SUPPLY_KINDS, SUPPLY_KINDS)
    for k in SUPPLY_KINDS:
        check.need(_whole(tokens_in[k]) and 0 <= tokens_in[k] <= 200, f"tokens.{k}", "must be a whole number 0-200", tokens_in[k])
    check.need(tokens_in[WILD] >= 1, "tokens.wild", "the game needs its wild flavour token", tokens_in[WILD])
    for s, side in sides:
        check.need(sum(side.smoke) <= tokens_in[SMOKE], f"sides.{s}.smoke", f"holds {sum(side.smoke)} smoke; the box has {tokens_in[SMOKE]}")
    titles = top["titles"]
    check.need(
        isinstance(titles, list) and len(titles) >= 1
        and all(isinstance(t, list) and len(t) == 2 and _whole(t[0]) and isinstance(t[1], str) and t[1] for t in titles)
        and all(a[0] < b[0] for a, b in zip(titles, titles[1:])),
        "titles", "must be a list of [least total, title] pairs with increasing totals", titles,
    )
    return Board(
        sides, tuple(immediate), tuple(tuple(s) for s in slots_in), sweet, tuple(sorted(choice)), extra,
        tuple((k, tokens_in[k]) for k in SUPPLY_KINDS), tuple((t[0], t[1]) for t in titles),
    )


def _read(path: str | Path, what: str) -> tuple[Any, str]:
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"cannot read Coffee Roaster {what} file {str(file)!r}: {error}") from None
    try:
        return json.loads(text), f"Coffee Roaster {what} file {str(file)!r}"
    except json.JSONDecodeError as error:
        raise ValueError(f"Coffee Roaster {what} file {str(file)!r} is not valid JSON: {error}") from None


def load_cards(path: str | Path | None = None) -> tuple[Card, ...]:
    """Read a cards file (the shipped stand-in by default) and validate it completely.

    >>> cards = load_cards()
    >>> len(cards), cards[0].name, cards[0].optimum
    (22, 'Mexico Altura Oaxaca', 14)
    """
    if path is None:
        return _stand_in_cards()
    data, source = _read(path, "cards")
    return cards_from_dict(data, source)


def load_board(path: str | Path | None = None) -> Board:
    """Read a board file (the shipped stand-in by default) and validate it completely.

    >>> board = load_board()
    >>> board.side("full").smoke.count(0), sorted(n for n in board.side("full").smoke if n)
    (10, [2, 3])
    """
    if path is None:
        return _stand_in_board()
    data, source = _read(path, "board")
    return board_from_dict(data, source)


@lru_cache(maxsize=1)
def _stand_in_cards() -> tuple[Card, ...]:
    data, source = _read(STAND_IN_CARDS, "cards")
    return cards_from_dict(data, source)


@lru_cache(maxsize=1)
def _stand_in_board() -> Board:
    data, source = _read(STAND_IN_BOARD, "board")
    return board_from_dict(data, source)


def check_card_on_board(card: Card, board: Board, source: str = "option 'card'") -> None:
    """A card must fit the box and the thermometer: token counts within the supply, a start space for its moisture."""
    check = _Checker(source, card.name)
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


# -- scoring ---------------------------------------------------------------------------

@dataclass(frozen=True)
class CupScore:
    """A cup's score, part by part (``total = roast + flavour + skill - minus``)."""

    roast_level: int
    roast: int
    matches: int
    flavour: int
    skill: int
    minus: int

    @property
    def total(self) -> int:
        return self.roast + self.flavour + self.skill - self.minus

    def __str__(self) -> str:
        return (f"roast level {self.roast_level} → {self.roast} · flavour {self.matches} matches → {self.flavour}"
                f" · skill {self.skill} · minus {self.minus} · total {self.total}")


def flavour_matches(tokens: Iterable[str], wanted: Sequence[str]) -> int:
    """How many entries of a card's flavour list the cup's tokens satisfy (each token once).

    A flavour token matches its own kind, the wild flavour matches anything, Sweetness matches
    any flavour unless the card requires Sweetness (then it matches only that) (Rule).

    >>> flavour_matches(["aroma", "aroma", "sweetness"], ["aroma", "aroma", "acidity"])
    3
    >>> flavour_matches(["aroma", "sweetness"], ["aroma", "acidity", "sweetness"])
    2
    """
    have = Counter(tokens)
    need = Counter(wanted)
    matched = 0
    for f in FLAVOURS:
        m = min(need[f], have[f])
        matched += m
        need[f] -= m
    jokers = have[WILD]
    if need[SWEETNESS]:
        m = min(need[SWEETNESS], have[SWEETNESS])
        matched += m
        need[SWEETNESS] -= m
    else:
        jokers += have[SWEETNESS]
    return matched + min(jokers, sum(need.values()))


def score_cup(tokens: Iterable[str], card: Card, board: Board | None = None, burnt_level: int = 0) -> CupScore:
    """Score a cup (RULES.md §3 "Scoring"). ``tokens`` are the cup's tokens, including ``"sweetness"`` if it fills a
    space and ``"extra_bean"`` if that cup effect is active (it is not a space). Tray tokens are not passed: they do not score.

    The rulebook's example: Zambia Kasama AA, three level-2, one level-3 and two level-4 beans
    (total 17: 6 roast points), two Aroma and Sweetness for a card asking Body, Aroma, Acidity:

    >>> zambia = Rules(card="Zambia Kasama AA").card
    >>> cup = ["bean2"] * 3 + ["bean3", "bean4", "bean4", "aroma", "aroma", "sweetness", "burnt"]
    >>> s = score_cup(cup, zambia)
    >>> s.roast_level, s.roast, s.matches, s.flavour, s.skill, s.minus, s.total
    (17, 6, 2, 3, 1, 1, 9)
    """
    board = _stand_in_board() if board is None else board
    cup = list(tokens)
    for t in cup:
        if t not in TOKENS and t not in (SWEETNESS, EXTRA_BEAN):
            raise ValueError(f"score_cup: {t!r} cannot be in a cup")
    if MOISTURE in cup:
        raise ValueError("score_cup: moisture never stays in a cup")
    counts = Counter(cup)
    spaces = len(cup) - counts[EXTRA_BEAN]
    if spaces > CUP_SPACES or counts[EXTRA_BEAN] > 1 or counts[SWEETNESS] > 1:
        raise ValueError(f"score_cup: a cup holds at most {CUP_SPACES} tokens, one Sweetness and one Extra Bean; got {cup}")
    level = sum(roast_level(t) or 0 for t in cup) + burnt_level * counts[BURNT] + board.extra_bean_level * counts[EXTRA_BEAN]
    matches = min(4, flavour_matches(cup, card.flavours))
    most = max((counts[b] for b in BEANS), default=0)
    skill = SKILL_POINTS[min(most, 7)] if most >= 3 else 0
    minus = sum(MINUS.get(t, 0) * n for t, n in counts.items())
    if not any(counts[f] for f in (*FLAVOURS, WILD, SWEETNESS)):
        minus += NO_FLAVOUR_MINUS
    if spaces < CUP_SPACES:
        minus += EMPTY_SPACE_MINUS
    return CupScore(level, card.roast_points(level), matches, FLAVOUR_POINTS[matches], skill, minus)


def scoring_class(token: str, card: Card, burnt_level: int = 0) -> tuple[Any, ...]:
    """All that :func:`score_cup` sees of one bag token: two tokens of one class score alike in every cup, so a
    solver may count them as one kind. Keep it beside :func:`score_cup`: it lists what that function reads of a
    token (roast level, skill level, minus points, flavour role).

    >>> zambia = Rules(card="Zambia Kasama AA").card  # asks Body, Aroma, Acidity
    >>> scoring_class("hard", zambia) == scoring_class("smoke", zambia) == scoring_class("burnt", zambia)
    True
    >>> scoring_class("burnt", zambia, burnt_level=1) == scoring_class("hard", zambia), scoring_class("body", zambia) == scoring_class("aroma", zambia)
    (False, False)
    """
    if token not in TOKENS:
        raise ValueError(f"scoring_class: {token!r} is not a bag token; tokens are {', '.join(TOKENS)}")
    level = (roast_level(token) or 0) + (burnt_level if token == BURNT else 0)
    role = token if token == WILD or token in card.flavours else "unlisted flavour" if token in FLAVOURS else None
    return (level, token if token in BEANS else None, MINUS.get(token, 0), role)


# -- the three-game menu -------------------------------------------------------------------

def next_difficulty(score: int) -> str:
    """The next card's difficulty from the last score: ≤9 beginner, 10-14 advanced, ≥15 expert (Rule).

    >>> next_difficulty(9), next_difficulty(10), next_difficulty(14), next_difficulty(15)
    ('beginner', 'advanced', 'advanced', 'expert')
    """
    return "beginner" if score <= 9 else "advanced" if score <= 14 else "expert"


@dataclass(frozen=True)
class Menu:
    """The full menu (roast challenge): three games, a class I, II and III card; each next card's difficulty
    follows the last score; the sum of the three scores gives the roaster title (Rule; titles stand-in).

    ``first`` is the first game's difficulty: beginner (Rule), or expert once a player has earned
    an intermediate title (Rule: a privilege the player claims).

    >>> m = Menu()
    >>> m.next_class, m.next_difficulty
    ('I', 'beginner')
    >>> m = m.record("Mexico Altura Oaxaca", 12)
    >>> m.next_class, m.next_difficulty, [c.name for c in m.choices()]
    ('II', 'advanced', ['Tanzania Kilimanjaro', 'Honduras Marcala', 'Peru Chanchamayo'])
    >>> m = m.record("Peru Chanchamayo", 16).record("Yemen Mocha Mattari", 20)
    >>> m.finished, m.total, m.title()
    (True, 48, 'Senior Roaster')
    """

    results: tuple[tuple[str, int], ...] = ()
    first: str = "beginner"

    def __post_init__(self) -> None:
        if self.first not in DIFFICULTIES:
            raise ValueError(f"Menu field 'first' must be one of {', '.join(DIFFICULTIES)}; got {self.first!r}")
        if len(self.results) > len(CLASSES):
            raise ValueError(f"Menu field 'results': the menu has {len(CLASSES)} games; got {len(self.results)}")

    @property
    def finished(self) -> bool:
        return len(self.results) == len(CLASSES)

    @property
    def next_class(self) -> str | None:
        """The roast class of the next card (None when the three games are played)."""
        return None if self.finished else CLASSES[len(self.results)]

    @property
    def next_difficulty(self) -> str | None:
        """The difficulty of the next card (None when finished)."""
        if self.finished:
            return None
        return self.first if not self.results else next_difficulty(self.results[-1][1])

    def choices(self, cards: Sequence[Card] | None = None) -> tuple[Card, ...]:
        """The cards the next game may use (specialty coffees are expert cards of their class)."""
        cards = load_cards() if cards is None else cards
        return tuple(c for c in cards if c.roast_class == self.next_class and c.difficulty == self.next_difficulty)

    def record(self, card: str | Card, score: int) -> Menu:
        """The menu after a game on ``card`` scoring ``score``."""
        if self.finished:
            raise ValueError("the menu's three games are already played")
        name = card.name if isinstance(card, Card) else card
        return Menu(self.results + ((name, int(score)),), self.first)

    @property
    def total(self) -> int:
        return sum(s for _, s in self.results)

    def title(self, board: Board | None = None) -> str | None:
        """The roaster title for the three scores' sum (None until the menu is finished)."""
        if not self.finished:
            return None
        return (_stand_in_board() if board is None else board).title(self.total)


# -- options -------------------------------------------------------------------------------

def _option(kind: str, doc: str, default: Any, shown: bool = True) -> Any:
    return field(default=default, repr=shown, metadata={"kind": kind, "doc": doc})


@dataclass(frozen=True)
class Rules:
    """Every parameter of one Coffee Roaster game. Options are validated; an error names the option.

    ``card`` is a card name (from ``cards``) or a :class:`Card`; ``cards`` and ``board`` may be
    ``None`` (the shipped stand-in files), a path, a dict in the file format, or loaded data.

    >>> Rules(card="Kenya AA").table().loc["crack_steps", "kind"]
    'Ruling'
    """

    card: Any = _option("Rule", "the coffee card played (a name, or a Card)", None)
    side: str = _option("Rule", "board side: 'full', or 'easy' (starting Body/Acidity/Aroma, bigger tray bonus)", "full")
    crack_steps: int = _option("Ruling", "levels a bean gains when roasted on a crack space of the thermometer (1 elsewhere)", 2)
    burnt_level: int = _option("Ruling", "roast level a burnt bean adds to the cup's total (hard and defect beans add 0)", 0)
    concentrate_limit: int = _option(
        "Ruling", "Concentrate may only make a bean up to this level (no bean tokens above 4 exist)", 4)
    reserve_to_bag: bool = _option(
        "Ruling", "easy side: starting flavour tokens still unused go into the bag when you stop (False: they stay out)", True)
    cards: Any = _option("Stand-in", "the coffee cards: None = shipped stand-in file, a path, or a dict", None, shown=False)
    board: Any = _option("Stand-in", "board numbers: None = shipped stand-in file, a path, a dict, or a Board", None, shown=False)

    def __post_init__(self) -> None:
        def need(ok: bool, name: str, why: str) -> None:
            if not ok:
                raise ValueError(f"option {name!r} {why}; got {getattr(self, name)!r}")

        need(self.side in SIDES, "side", f"must be one of {', '.join(SIDES)}")
        need(_whole(self.crack_steps) and 1 <= self.crack_steps <= 4, "crack_steps", "must be a whole number 1-4")
        need(_whole(self.burnt_level) and 0 <= self.burnt_level <= 6, "burnt_level", "must be a whole number 0-6")
        need(_whole(self.concentrate_limit) and 2 <= self.concentrate_limit <= 4, "concentrate_limit", "must be 2, 3 or 4")
        need(isinstance(self.reserve_to_bag, bool), "reserve_to_bag", "must be True or False")
        if self.cards is None:
            cards = _stand_in_cards()
        elif isinstance(self.cards, (str, Path)):
            cards = load_cards(self.cards)
        elif isinstance(self.cards, tuple) and all(isinstance(c, Card) for c in self.cards):
            cards = self.cards
        else:
            cards = cards_from_dict(self.cards, source="option 'cards'")
        if self.board is None:
            board = _stand_in_board()
        elif isinstance(self.board, Board):
            board = self.board
        elif isinstance(self.board, (str, Path)):
            board = load_board(self.board)
        else:
            board = board_from_dict(self.board, source="option 'board'")
        card = self.card
        if isinstance(card, str):
            found = [c for c in cards if c.name == card]
            if not found:
                raise ValueError(f"option 'card': no coffee card named {card!r}; the cards are {', '.join(c.name for c in cards)}")
            card = found[0]
        need(isinstance(card, Card), "card", "must be a card name or a Card")
        check_card_on_board(card, board)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "board", board)

    # -- derived values -------------------------------------------------------------
    @property
    def thermometer(self) -> Side:
        return self.board.side(self.side)

    @property
    def spaces(self) -> int:
        """Thermometer spaces."""
        return len(self.thermometer.draws)

    @property
    def start_space(self) -> int:
        """Where the round marker starts, from the card's moisture count."""
        return dict(self.thermometer.start_by_moisture)[self.card.moisture]

    def draws_at(self, space: int) -> int:
        return self.thermometer.draws[space]

    def roast_steps(self, space: int) -> int:
        """Levels a bean gains when roasted with the marker on ``space``."""
        return self.crack_steps if space in self.thermometer.crack else 1

    @property
    def tray_bonus(self) -> int:
        return TRAY_BONUS[self.side]

    @property
    def stand_in_data(self) -> bool:
        """Whether both data files are the shipped stand-ins."""
        return self.cards == _stand_in_cards() and self.board == _stand_in_board()

    def score(self, tokens: Iterable[str]) -> CupScore:
        """:func:`score_cup` for this game's card, board and rulings."""
        return score_cup(tokens, self.card, self.board, self.burnt_level)

    def scoring_class(self, token: str) -> tuple[Any, ...]:
        """:func:`scoring_class` for this game's card and rulings."""
        return scoring_class(token, self.card, self.burnt_level)

    def table(self) -> pd.DataFrame:
        """Every parameter with its value, its kind (Rule / Fact / Ruling / Stand-in) and what it means."""
        shown = {
            "card": self.card.name,
            "cards": "stand-in file" if self.cards == _stand_in_cards() else "user data",
            "board": "stand-in file" if self.board == _stand_in_board() else "user data",
        }
        return option_table(self, shown)


__all__ = [
    "Board", "CARD_FLAVOURS", "CARD_TOKENS", "CLASSES", "CUP_SPACES", "Card", "CupScore", "DIFFICULTIES", "EASY_FLAVOURS",
    "EMPTY_SPACE_MINUS", "FLAVOUR_EFFECTS", "FLAVOUR_POINTS", "IMMEDIATE", "MINUS", "Menu", "NO_FLAVOUR_MINUS", "Rules",
    "SIDES", "SKILL_POINTS", "STAND_IN_BOARD", "STAND_IN_CARDS", "SUPPLY_KINDS", "Side", "TRAY_BONUS", "TRAY_SPACES",
    "WILD_COST", "board_from_dict", "cards_from_dict", "check_card_on_board", "flavour_matches", "load_board", "load_cards",
    "next_difficulty", "score_cup", "scoring_class",
]
