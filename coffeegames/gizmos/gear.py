"""What a player's built gizmos give them: their limits, whether they may still File and Research, their converters,
discounts and triggered gizmos. The same for every position with those gizmos, so it is worked out once per set of
built gizmos and memoised on the rules (the engine asks at every step).

Internal to the engine (:mod:`.state`); a player reads the same facts through ``State.owned``, ``State.limits`` and
``State.can``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .actions import SOURCES
from .data import Card as CardFacts
from .data import COLOURS
from .payment import Help, Helping, _build_cost, _help, _helping
from .rules import Rules

__all__: list[str] = []

MEMO_SIZE = 100_000
"""Sets of built gizmos remembered per rules before the memo starts again (a game meets a few hundred)."""


class _Gear(NamedTuple):
    """What a player's built gizmos give them (the same for every state with those gizmos: memoised on the rules)."""

    owned: tuple[CardFacts, ...]
    limits: tuple[int, int, int]
    can_file: bool
    can_research: bool
    converters: tuple[CardFacts, ...]
    aid: Help
    """What the converters can do in a Build (:func:`.payment._help`)."""
    discounts: tuple[CardFacts, ...]
    triggered: dict[str, tuple[CardFacts, ...]]
    """The gizmos with a trigger, by its kind (file, pick, build)."""
    costs: dict[str, tuple[tuple[int, int], ...]]
    """For the legal moves (:func:`.legal._builds`): ``source`` -> for each card id, (where its colour is in the reaches,
    :data:`COLOUR_AT`, its cost after the discounts), shared by every set of gizmos with the same discount gizmos
    (:func:`_costs`)."""
    converter_ids: tuple[int, ...]
    """The ids of ``converters``."""
    helping: Helping
    """Those of ``converters`` that can help pay for each colour, then a multicolour card (:func:`.payment._helping`)."""
    level3: int
    """How many of the gizmos are of level III (the end condition)."""


def _gear(rules: Rules, built: tuple[int, ...]) -> _Gear:
    """What the gizmos ``built`` (card ids) give their owner under ``rules``."""
    memo: dict[tuple[int, ...], _Gear] = rules.__dict__["_gear"]
    found = memo.get(built)
    if found is None:
        deck = rules.deck
        owned = tuple([deck[i] for i in built])
        energy, archive, research = rules.energy_limit, rules.archive_limit, rules.research_limit
        can_file = can_research = True
        converters: list[CardFacts] = []
        discounts: list[CardFacts] = []
        triggered: dict[str, list[CardFacts]] = {}
        for card in owned:  # (one pass; each list in the order of ``owned``)
            effect = card.effect
            kind = effect.kind
            if kind == "upgrade":
                energy += effect.energy
                archive += effect.archive
                research += effect.research
            elif kind == "no_file":
                can_file = False
            elif kind == "no_research":
                can_research = False
            elif kind == "discount":
                discounts.append(card)
            if card.type == "converter":
                converters.append(card)
            if card.trigger is not None:
                triggered.setdefault(card.trigger.kind, []).append(card)
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        held = tuple(converters)
        found = memo[built] = _Gear(owned, (energy, archive, research), can_file, can_research, held, _help(held),
                                    tuple(discounts), {kind: tuple(cards) for kind, cards in triggered.items()},
                                    _costs(rules, discounts),
                                    tuple([c.id for c in held]), _helping(held), sum([c.level == 3 for c in owned]))
    return found


def _gear_plus(rules: Rules, gear: _Gear, built: tuple[int, ...], card: int) -> _Gear:
    """:func:`_gear` of ``built``: the gizmos of ``gear`` and ``card`` (a Build's new set), worked out from ``gear``
    (the same value: each list in the order of ``owned``; what the new card does not change is shared)."""
    memo: dict[tuple[int, ...], _Gear] = rules.__dict__["_gear"]
    found = memo.get(built)
    if found is not None:
        return found
    facts = rules.deck[card]
    owned = gear.owned
    i = built.index(card)
    owned = (*owned[:i], facts, *owned[i:])
    effect = facts.effect
    kind = effect.kind
    limits, can_file, can_research = gear.limits, gear.can_file, gear.can_research
    converters, aid, converter_ids, helping = gear.converters, gear.aid, gear.converter_ids, gear.helping
    discounts, costs, triggered = gear.discounts, gear.costs, gear.triggered
    if kind == "upgrade":
        limits = (limits[0] + effect.energy, limits[1] + effect.archive, limits[2] + effect.research)
    elif kind == "no_file":
        can_file = False
    elif kind == "no_research":
        can_research = False
    elif kind == "discount":
        discounts = _inserted(discounts, facts)
        costs = _costs(rules, discounts)
    if facts.type == "converter":
        converters = _inserted(converters, facts)
        aid, converter_ids, helping = _help(converters), tuple([c.id for c in converters]), _helping(converters)
    if facts.trigger is not None:
        fired = facts.trigger.kind
        cards = triggered.get(fired, ())
        triggered = {**triggered, fired: _inserted(cards, facts)}
        if not cards or facts.id < cards[0].id:  # (the kinds in the order of their first gizmo in ``owned``, as _gear)
            triggered = dict(sorted(triggered.items(), key=lambda item: item[1][0].id))
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    found = memo[built] = _Gear(owned, limits, can_file, can_research, converters, aid, discounts, triggered, costs,
                                converter_ids, helping, gear.level3 + (facts.level == 3))
    return found


def _costs(rules: Rules, discounts: Sequence[CardFacts]) -> dict[str, tuple[tuple[int, int], ...]]:
    """The :attr:`_Gear.costs` of the gizmos sets with the discount gizmos ``discounts`` (memoised on the rules; a
    starting gizmo, never built, costs more than any reach)."""
    memo: dict[tuple[int, ...], dict[str, tuple[tuple[int, int], ...]]] = rules.__dict__["_costs"]
    key = tuple([c.id for c in discounts])
    found = memo.get(key)
    if found is None:
        owned = tuple(discounts)
        found = memo[key] = {source: tuple([(COLOUR_AT[card.colour], _build_cost(card, source, owned) if owned else card.cost)
                                            if card.colour in COLOUR_AT else _NEVER for card in rules.deck]) for source in SOURCES}
    return found


COLOUR_AT = {**{c: i for i, c in enumerate(COLOURS)}, "any": len(COLOURS)}
"""Where a card's colour is in the reaches (:func:`.payment._reaches`: the four colours, then ``"any"``)."""
_NEVER = (0, 1 << 30)


def _inserted(cards: tuple[CardFacts, ...], card: CardFacts) -> tuple[CardFacts, ...]:
    """``cards`` (in id order) with ``card``, in id order."""
    i = 0
    while i < len(cards) and cards[i].id < card.id:
        i += 1
    return (*cards[:i], card, *cards[i:])
