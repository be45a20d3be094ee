"""What a player's built gizmos give them: their limits, whether they may still File and Research, their converters,
discounts and triggered gizmos. The same for every position with those gizmos, so it is worked out once per set of
built gizmos and memoised on the rules (the engine asks at every step).

Internal to the engine (:mod:`.state`); a player reads the same facts through ``State.owned``, ``State.limits`` and
``State.can``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .data import Card as CardFacts
from .payment import Help, _help
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
    costs: dict[tuple[int, str], tuple[int, int]]
    """A memo of the legal moves (:func:`.legal._builds`): ``(card id, source)`` -> (where its colour is in the reaches,
    its cost after the discounts), shared by every set of gizmos with the same discount gizmos."""
    converter_ids: tuple[int, ...]
    """The ids of ``converters``."""


def _gear(rules: Rules, built: tuple[int, ...]) -> _Gear:
    """What the gizmos ``built`` (card ids) give their owner under ``rules``."""
    memo: dict[tuple[int, ...], _Gear] = rules.__dict__["_gear"]
    found = memo.get(built)
    if found is None:
        owned = tuple(rules.deck[i] for i in built)
        energy, archive, research = rules.energy_limit, rules.archive_limit, rules.research_limit
        for card in owned:
            if card.effect.kind == "upgrade":
                energy += card.effect.energy
                archive += card.effect.archive
                research += card.effect.research
        kinds = {card.effect.kind for card in owned}
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        converters = tuple(c for c in owned if c.type == "converter")
        discounts = tuple(c for c in owned if c.effect.kind == "discount")
        costs = rules.__dict__["_costs"].setdefault(tuple(c.id for c in discounts), {})
        found = memo[built] = _Gear(owned, (energy, archive, research), "no_file" not in kinds, "no_research" not in kinds,
                                    converters, _help(converters), discounts,
                                    {kind: tuple(c for c in owned if c.trigger is not None and c.trigger.kind == kind)
                                     for kind in {c.trigger.kind for c in owned if c.trigger is not None}}, costs,
                                    tuple(c.id for c in converters))
    return found
