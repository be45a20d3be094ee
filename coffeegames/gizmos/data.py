"""Gizmos' cards as data: the file format of ``data/cards.json``, its validation, and the two sources' readings.

Each card has one trigger (what sets it off: a File, a Pick of some colours, a Build of
some colours / level / from the archive; none for converters and upgrades) and one effect,
a named kind with parameters (:data:`EFFECTS`), never free text read at run time. The
shipped file is a *fact list* transcribed from two public fan implementations; where they
disagree (level-III ids 88/89, 94 and 101) ``cards`` follows the first and ``sources`` holds
the other reading, chosen by the option ``card_source`` (:func:`cards_for`). A file is
validated whole with the shared :class:`~coffeegames.validate.Checker`: a bad one raises
:class:`~coffeegames.errors.BadData` naming the card and field, and nothing of it is used.
The format is in ``data/README.md``.

Example:
    >>> deck = cards_for(shipped_cards(), "elinia")
    >>> len(deck), deck[0].effect, deck[40].effect
    (112, Effect(kind='draw_random', count=1), Effect(kind='double', colours=('black',)))
    >>> cards_for(shipped_cards(), "mirondorin")[101].cost
    4
    >>> cards_from_dict({"cards": []})
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: Gizmos cards: field 'cards': must hold 112-112 items; got []
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import BadArgument
from ..validate import Checker, check_instance, check_path, read_json

__all__ = [
    "CARD_COUNT", "COLOURS", "CardData", "Card", "EFFECTS", "Effect", "LEVEL_SIZES", "MARBLES_PER_COLOUR", "SHIPPED_CARDS", "TRIGGERS",
    "Trigger", "cards_for", "cards_from_dict", "load_cards", "shipped_cards",
]

COLOURS: tuple[str, ...] = ("red", "blue", "black", "yellow")
"""The four energies (the official effect sheet calls them Heat, Atomic, Battery and Electric), in the order of
every count tuple of the engine."""
MARBLES_PER_COLOUR = 13
"""Marbles of each colour in the dispenser (Rule: 52 in all)."""
CARD_COUNT = 112
"""Cards in the box (Rule): ids 0-111."""
LEVEL_SIZES: tuple[int, ...] = (4, 36, 36, 36)
"""Cards of level 0 (the starting gizmos), I, II and III (Rule)."""
TYPES: tuple[str, ...] = ("file", "pick", "build", "converter", "upgrade")
"""A card's type: where it sits on the dashboard (its trigger kind, or converter / upgrade)."""
TRIGGERS: tuple[str, ...] = ("file", "pick", "build")
"""Trigger kinds: any File action; a Pick of one of ``colours``; a Build matching colours / level / from the archive."""
EFFECTS: dict[str, tuple[str, ...]] = {
    "draw_random": ("count",),          # draw count random energy from the dispenser (not a Pick)
    "vp_tokens": ("count",),            # gain count point tokens
    "pick": ("count",),                 # perform count Pick actions
    "file": (),                         # perform a File action
    "research": (),                     # perform a Research action
    "build_free": ("level",),           # build a gizmo of this level for free
    "convert": ("colours", "uses"),     # while paying: up to `uses` energies of `colours` count as any colour
    "double": ("colours",),             # while paying: one energy of each of `colours` counts as two of its colour
    "upgrade": ("energy", "archive", "research"),  # raise the limits by these amounts
    "no_file": (),                      # you can no longer File
    "no_research": (),                  # you can no longer Research
    "discount": ("when", "amount"),     # a build costs `amount` less: when 'archive', 'research' or 'level2'
    "score": ("counts",),               # scores what it counts at the end: 'energy' stored or 'vp_tokens'
}
"""Every effect kind and its parameters."""
DISCOUNTS: tuple[str, ...] = ("archive", "research", "level2")
SCORES: tuple[str, ...] = ("energy", "vp_tokens")
SHIPPED_CARDS = Path(__file__).with_name("data") / "cards.json"
"""The shipped fact list."""
_CHECK = Checker("Gizmos cards")
_CARD_FIELDS = ("id", "level", "colour", "cost", "vp", "type", "trigger", "effect")
_EFFECT_FIELDS = ("kind", "count", "colours", "uses", "energy", "archive", "research", "level", "when", "amount", "counts")


@dataclass(frozen=True)
class Trigger:
    """What sets a gizmo off: ``kind`` file / pick / build; for pick and build, ``colours`` (empty: any), for build
    also ``level`` (0: any) and ``from_archive``."""

    kind: str
    colours: tuple[str, ...] = ()
    level: int = 0
    from_archive: bool = False

    def __repr__(self) -> str:
        shown = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if getattr(self, f.name) != f.default}
        return f"Trigger({', '.join(f'{k}={v!r}' for k, v in shown.items())})"


@dataclass(frozen=True)
class Effect:
    """A card's effect: one kind of :data:`EFFECTS` with its parameters (the others keep their defaults)."""

    kind: str
    count: int = 0
    colours: tuple[str, ...] = ()
    uses: int = 0
    energy: int = 0
    archive: int = 0
    research: int = 0
    level: int = 0
    when: str = ""
    amount: int = 0
    counts: str = ""

    def __repr__(self) -> str:
        shown = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                 if f.name == "kind" or getattr(self, f.name) != f.default}
        return f"Effect({', '.join(f'{k}={v!r}' for k, v in shown.items())})"


@dataclass(frozen=True)
class Card:
    """One gizmo card. ``colour`` is one of :data:`COLOURS`, ``"any"`` (the multicolour cost-7 cards: paid with any
    energy, built they count as every colour) or ``"none"`` (the starting gizmos)."""

    id: int
    level: int
    colour: str
    cost: int
    vp: int
    type: str
    trigger: Trigger | None
    effect: Effect

    def __hash__(self) -> int:  # cards are compared whole, but hashed by id (fast: payment caches key on them)
        return hash(self.id)


@dataclass(frozen=True)
class CardData:
    """A whole card file: the cards as its first source reads them, and each other source's readings."""

    cards: tuple[Card, ...]
    base_source: str
    sources: tuple[tuple[str, tuple[tuple[int, str], ...]], ...]
    """Each other source's readings: ``(name, ((card id, the changed fields as JSON text), ...))``."""

    @property
    def source_names(self) -> tuple[str, ...]:
        """Every source the option ``card_source`` may name."""
        return (self.base_source, *(name for name, _ in self.sources))


def _colours(value: Any, where: str) -> tuple[str, ...]:
    items = _CHECK.sequence(value, where, lambda v, w: _CHECK.one_of(v, w, COLOURS), 1, 4)
    _CHECK.need(len(set(items)) == len(items), where, "names a colour twice", value)
    return tuple(sorted(items, key=COLOURS.index))


def _trigger(value: Any, where: str) -> Trigger:
    data = _CHECK.fields(value, where, ("kind", "colours", "level", "from_archive"), ("kind",))
    kind = _CHECK.one_of(data["kind"], f"{where}.kind", TRIGGERS)
    colours = _colours(data["colours"], f"{where}.colours") if "colours" in data else ()
    level = _CHECK.whole(data.get("level", 0), f"{where}.level", 0, 3)
    archive = _CHECK.flag(data.get("from_archive", False), f"{where}.from_archive")
    _CHECK.need(kind == "build" or (level == 0 and not archive), where, "only a build trigger has a level or from_archive", value)
    _CHECK.need(kind != "file" or not colours, where, "a file trigger has no colours", value)
    _CHECK.need(kind != "pick" or bool(colours), f"{where}.colours", "a pick trigger names the colours picked", value)
    return Trigger(kind, colours, level, archive)


def _effect(value: Any, where: str) -> Effect:
    data = _CHECK.fields(value, where, _EFFECT_FIELDS, ("kind",))
    kind = _CHECK.one_of(data["kind"], f"{where}.kind", tuple(EFFECTS))
    params = EFFECTS[kind]
    for name in data:
        _CHECK.need(name in params or name == "kind" or name.startswith("_"), f"{where}.{name}",
                    f"is not a parameter of effect {kind!r} (its parameters: {', '.join(params) or 'none'})")
    for name in params:
        _CHECK.need(name in data, f"{where}.{name}", f"missing (effect {kind!r} needs {', '.join(params)})")
    args: dict[str, Any] = {}
    for name in params:
        at, v = f"{where}.{name}", data[name]
        if name == "colours":
            args[name] = _colours(v, at)
        elif name == "when":
            args[name] = _CHECK.one_of(v, at, DISCOUNTS)
        elif name == "counts":
            args[name] = _CHECK.one_of(v, at, SCORES)
        elif name in ("energy", "archive", "research"):
            args[name] = _CHECK.whole(v, at, 0, 10)
        elif name == "level":
            args[name] = _CHECK.whole(v, at, 1, 3)
        else:
            args[name] = _CHECK.whole(v, at, 1, 10)
    return Effect(kind, **args)


def _card(value: Any, where: str) -> Card:
    data = _CHECK.fields(value, where, _CARD_FIELDS, [f for f in _CARD_FIELDS if f != "trigger"])
    ident = _CHECK.whole(data["id"], f"{where}.id", 0, CARD_COUNT - 1)
    at = f"card {ident}" if where.startswith("cards") else f"{where} card {ident}"
    level = _CHECK.whole(data["level"], f"{at}.level", 0, 3)
    colour = _CHECK.one_of(data["colour"], f"{at}.colour", (*COLOURS, "any", "none"))
    _CHECK.need((colour == "none") == (level == 0), f"{at}.colour", "is 'none' exactly for the level-0 starting gizmos", colour)
    card = Card(
        id=ident, level=level, colour=colour,
        cost=_CHECK.whole(data["cost"], f"{at}.cost", 0, 10),
        vp=_CHECK.whole(data["vp"], f"{at}.vp", 0, 20),
        type=_CHECK.one_of(data["type"], f"{at}.type", TYPES),
        trigger=_trigger(data["trigger"], f"{at}.trigger") if data.get("trigger") is not None else None,
        effect=_effect(data["effect"], f"{at}.effect"),
    )
    triggered = card.type in TRIGGERS
    _CHECK.need(triggered == (card.trigger is not None), f"{at}.trigger",
                "a file / pick / build card has a trigger of its type; converters and upgrades have none", data.get("trigger"))
    _CHECK.need(not triggered or card.trigger is None or card.trigger.kind == card.type, f"{at}.trigger.kind",
                f"must be the card's type {card.type!r}", data.get("trigger"))
    passive = card.effect.kind in ("convert", "double", "upgrade", "no_file", "no_research", "discount", "score")
    _CHECK.need(passive != triggered, f"{at}.effect.kind",
                "a triggered card has an action effect (draw_random, vp_tokens, pick, file, research, build_free); "
                "a converter or upgrade a lasting one", card.effect.kind)
    _CHECK.need((card.type == "converter") == (card.effect.kind in ("convert", "double")), f"{at}.type",
                "converters (and only they) have a convert or double effect", card.type)
    return card


def _reading(value: Any, where: str) -> tuple[int, str]:
    data = _CHECK.fields(value, where, _CARD_FIELDS, ("id",))
    ident = _CHECK.whole(data["id"], f"{where}.id", 0, CARD_COUNT - 1)
    changes = {k: v for k, v in data.items() if k != "id" and not k.startswith("_")}
    _CHECK.need(bool(changes), where, "changes nothing", value)
    return ident, json.dumps(changes, sort_keys=True)


def cards_from_dict(data: Any, source: str = "Gizmos cards") -> CardData:
    """Validate a whole card file (already parsed from JSON); a bad one raises ``BadData`` naming the card and field."""
    check = Checker(source) if source != _CHECK.source else _CHECK
    top = check.fields(data, "", ("cards", "base_source", "sources"), ("cards",))
    cards = check.sequence(top["cards"], "cards", _card, CARD_COUNT, CARD_COUNT)
    ids = sorted(c.id for c in cards)
    check.need(ids == list(range(CARD_COUNT)), "cards", f"must hold ids 0-{CARD_COUNT - 1}, each once")
    for level, size in enumerate(LEVEL_SIZES):
        found = sum(c.level == level for c in cards)
        check.need(found == size, "cards", f"must hold {size} cards of level {level}; found {found}")
    base = check.text(top.get("base_source", "base"), "base_source", nonempty=True)
    sources = check.fields(top.get("sources", {}), "sources", [k for k in top.get("sources", {}) if isinstance(k, str)])
    readings = tuple(
        (name, check.sequence(changes, f"sources.{name}", _reading)) for name, changes in sorted(sources.items())
        if not name.startswith("_")
    )
    check.need(base not in dict(readings), "base_source", "names a source of 'sources' too", base)
    data_ = CardData(tuple(sorted(cards, key=lambda c: c.id)), base, readings)
    for name in data_.source_names:
        cards_for(data_, name)  # every reading must make a valid deck
    return data_


def cards_for(data: CardData, source: str) -> tuple[Card, ...]:
    """The deck as ``source`` reads it: the base cards with that source's changes; a change that breaks a card is
    refused (``BadData`` naming it)."""
    check_instance(data, CardData, "data", "a Gizmos card file as read (load_cards)")
    Checker("cards_for", BadArgument).one_of(source, "source", data.source_names)
    if source == data.base_source:
        return data.cards
    changes = dict(data.sources)[source]
    by_id = {c.id: c for c in data.cards}
    for ident, fields in changes:
        raw = _raw(by_id[ident])
        raw.update(json.loads(fields))
        by_id[ident] = _card(raw, f"sources.{source}")
    return tuple(by_id[i] for i in range(CARD_COUNT))


def _raw(card: Card) -> dict[str, Any]:
    """A card back in its file form (for applying a source's changes)."""
    def effect(e: Effect) -> dict[str, Any]:
        return {"kind": e.kind, **{p: list(getattr(e, p)) if p == "colours" else getattr(e, p) for p in EFFECTS[e.kind]}}

    raw: dict[str, Any] = {"id": card.id, "level": card.level, "colour": card.colour, "cost": card.cost, "vp": card.vp,
                           "type": card.type, "effect": effect(card.effect)}
    t = card.trigger
    if t is not None:
        raw["trigger"] = {"kind": t.kind, **({"colours": list(t.colours)} if t.colours else {}),
                          **({"level": t.level} if t.level else {}), **({"from_archive": True} if t.from_archive else {})}
    return raw


def load_cards(path: str | Path) -> CardData:
    """Read and validate a card file (the format of ``data/cards.json``)."""
    where = check_path(path)
    return cards_from_dict(read_json(where, f"Gizmos cards {where.name}"), f"Gizmos cards {where.name}")


@lru_cache(maxsize=1)
def shipped_cards() -> CardData:
    """The shipped fact list (read once)."""
    return load_cards(SHIPPED_CARDS)
