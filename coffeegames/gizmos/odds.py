"""Exact Gizmos odds (docs/rules/gizmos.md): draws from the energy dispenser and from the level decks.

Both are draws without replacement, so every answer is a hypergeometric count from
:class:`coffeegames.exact.Bag` or :func:`math.comb`, kept as a :class:`~fractions.Fraction`.
Nothing here knows the engine's states or cards: the dispenser is a mapping colour → count,
and a deck is any sequence of cards with a predicate saying which ones you hope for.

**The dispenser.** 52 marbles, 13 of each of :data:`COLOURS`. What is not on the energy row
or in a player's storage is in the dispenser (spent energy goes back), so its contents are
public: :func:`dispenser_from`. A random draw, or the row's refill after a Pick, takes a
marble blindly from it; k draws in a row (a chain of "draw 1 random energy" effects) are
one draw of k at once, since nothing returns in between. Ruling: a draw from an empty
dispenser gives nothing, so k draws from a dispenser of n < k marbles take all n.
The storage limit is not applied here: ask about as many draws as can be kept.

**The decks.** What a player can see of a level's deck: the *unseen* cards of that level
(not on display, not built, not archived, not seen in their own Research), the deck's size,
and the cards they put under it by Research (known to them, and drawn only after the unseen
ones). The unseen part of the deck is a uniform random subset of the unseen cards; for
level III the 20 cards removed at setup are unseen too, so the deck holds only some of them.

Example:
    >>> dispenser = dispenser_from(row=["red", "red", "blue", "black", "yellow", "yellow"])
    >>> dispenser["red"], dispenser.size
    (11, 46)
    >>> p_at_least(dispenser, "red", 1, draws=2)
    Fraction(88, 207)
    >>> p_can_pay(dispenser, "blue", cost=2, draws=1, held=1)
    Fraction(6, 23)
    >>> p_research_shows(pool=range(34), match=7, deck_size=14, research=3)  # a given level-III card
    Fraction(3, 34)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import BadArgument, BadEntry, BadType, TooBig
from ..exact import Bag, Dist, check_count
from .data import CARD_COUNT, COLOURS, MARBLES_PER_COLOUR

if TYPE_CHECKING:
    import pandas as pd  # imported by the table functions only: the command line's answers do without it

__all__ = [
    "ANY",
    "COLOURS",
    "LEVEL_CARDS",
    "MARBLES",
    "MARBLES_PER_COLOUR",
    "MAX_CARDS",
    "MAX_PLAYERS",
    "REMOVED_LEVEL_III",
    "ROW_SIZE",
    "as_dispenser",
    "colour_dist",
    "colour_rows",
    "colour_table",
    "dispenser_from",
    "draw_dist",
    "marbles_text",
    "p_at_least",
    "p_can_pay",
    "p_research_shows",
    "parse_marbles",
    "pay_rows",
    "pay_table",
    "research_dist",
    "research_matches",
    "row_after_pick",
]

ANY = "any"
"""The cost colour of the multicolour level-III cards: energy of any colour pays."""
MARBLES = MARBLES_PER_COLOUR * len(COLOURS)
"""Marbles in the game: 52."""
ROW_SIZE = 6
"""Marbles on the energy row (Rule)."""
MAX_PLAYERS = 4
"""Gizmos is for 2-4 players (Rule): at most this many storages."""
LEVEL_CARDS = 36
"""Cards of each of levels I, II and III (Fact)."""
REMOVED_LEVEL_III = 20
"""Level-III cards removed unseen at setup (Rule)."""
MAX_CARDS = CARD_COUNT
"""The most cards a deck question may involve (every card of the game)."""

Item = TypeVar("Item")
Marbles = Mapping[str, int] | Sequence[str]
"""Marbles as colour → count, or as a list of colour names (``["red", "red", "blue"]``)."""


# -- the dispenser ------------------------------------------------------------------------------------


def _marbles(value: object, where: str) -> dict[str, int]:
    """``value`` (colour → count, or a list of colour names) as counts in :data:`COLOURS` order, checked."""
    if isinstance(value, (str, bytes)):
        raise BadType(where, "must be colour → count or a list of colours such as ['red', 'blue'] "
                             "(a string would be read letter by letter)", value)
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, Sequence):
        if len(value) > MARBLES:
            raise TooBig(where, f"holds at most the {MARBLES} marbles of the game", f"{len(value)} marbles")
        pairs = [(colour, 1) for colour in value]
    else:
        raise BadType(where, "must be colour → count, e.g. {'red': 2, 'blue': 1}, or a list of colours", value)
    counts = dict.fromkeys(COLOURS, 0)
    for colour, n in pairs:
        if not isinstance(colour, str) or colour not in counts:
            raise BadArgument(where, f"colours are {', '.join(COLOURS)}", colour)
        counts[colour] += check_count(n, f"{where}: count of {colour}")
    for colour, n in counts.items():
        if n > MARBLES_PER_COLOUR:
            raise BadArgument(where, f"holds {n} {colour} marbles; the game has {MARBLES_PER_COLOUR} of each colour")
    return counts


def _row(row: object) -> dict[str, int]:
    """The energy row's marbles as counts: at most :data:`ROW_SIZE` of them."""
    counts = _marbles(row, "row")
    if sum(counts.values()) > ROW_SIZE:
        raise BadArgument("row", f"the energy row holds at most {ROW_SIZE} marbles", sum(counts.values()))
    return counts


def as_dispenser(dispenser: object) -> Bag:
    """The dispenser's contents (colour → count, 0-13 of each) as a :class:`~coffeegames.exact.Bag`.

    >>> as_dispenser({"red": 2, "yellow": 1})
    Bag({'red': 2, 'yellow': 1})
    >>> as_dispenser({"green": 1})
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: argument 'dispenser': colours are red, blue, black, yellow; got 'green'
    """
    return Bag(_marbles(dispenser, "dispenser"))


def dispenser_from(row: Marbles, storages: Sequence[Marbles] = ()) -> Bag:
    """What is in the dispenser: the 52 marbles minus the row and every player's storage.

    >>> dispenser_from(["red"] * 6, storages=[{"red": 3}, ["blue", "red"]])
    Bag({'red': 3, 'blue': 12, 'black': 13, 'yellow': 13})
    >>> dispenser_from(["red"] * 6, storages=[{"red": 8}])
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: argument 'storages': the row and storages hold 14 red marbles; the game has 13
    """
    on_row = _row(row)
    if isinstance(storages, (str, bytes, Mapping)) or not isinstance(storages, Sequence):
        raise BadType("storages", "must be a list of storages, one per player (each colour → count or a list of colours)",
                      storages)
    if len(storages) > MAX_PLAYERS:
        raise BadArgument("storages", f"one storage per player: Gizmos has at most {MAX_PLAYERS} players",
                          f"{len(storages)} storages")
    used = dict(on_row)
    for i, storage in enumerate(storages):
        for colour, n in _marbles(storage, f"storages[{i}]").items():
            used[colour] += n
            if used[colour] > MARBLES_PER_COLOUR:
                raise BadArgument("storages", f"the row and storages hold {used[colour]} {colour} marbles; "
                                              f"the game has {MARBLES_PER_COLOUR}")
    return Bag({colour: MARBLES_PER_COLOUR - n for colour, n in used.items()})


def _draws(dispenser: Bag, draws: int) -> int:
    """``draws`` (0-52), or the whole dispenser if fewer marbles remain (the Ruling above)."""
    return min(check_count(draws, "draws", MARBLES), dispenser.size)


def draw_dist(dispenser: Mapping[str, int], draws: int) -> Dist:
    """The exact joint law of ``draws`` random draws: each multiset of colours (a sorted tuple, in
    :data:`COLOURS` order) with its multivariate hypergeometric probability.

    >>> draw_dist({"red": 2, "blue": 1}, 2)
    Dist({('red', 'blue'): 2/3, ('red', 'red'): 1/3})
    """
    bag = as_dispenser(dispenser)
    return bag.draw(_draws(bag, draws))


def colour_dist(dispenser: Mapping[str, int], colour: str, draws: int) -> Dist:
    """How many marbles of ``colour`` (or of :data:`ANY` colour) ``draws`` random draws bring: hypergeometric.

    >>> colour_dist({"red": 2, "blue": 2}, "red", 2)
    Dist({0: 1/6, 1: 2/3, 2: 1/6})
    """
    bag = as_dispenser(dispenser)
    k = _draws(bag, draws)
    if colour == ANY:
        return Dist.certain(k)
    if colour not in COLOURS:
        raise BadArgument("colour", f"colours are {', '.join(COLOURS)} (or {ANY!r} for a multicolour cost)", colour)
    return bag.count_dist(colour, k)


def p_at_least(dispenser: Mapping[str, int], colour: str, at_least: int, draws: int) -> Fraction:
    """P(at least ``at_least`` marbles of ``colour`` among ``draws`` random draws).

    >>> p_at_least({"red": 1, "blue": 3}, "red", 1, draws=2)
    Fraction(1, 2)
    """
    check_count(at_least, "at_least", MARBLES)
    return colour_dist(dispenser, colour, draws).at_least(at_least)


def p_can_pay(dispenser: Mapping[str, int], colour: str, cost: int, draws: int, held: int = 0) -> Fraction:
    """P(``held`` energy of ``colour`` already stored plus what ``draws`` random draws bring pays ``cost``).

    ``colour`` :data:`ANY` is a multicolour cost (any energy pays); ``held`` then counts all stored energy.
    "Within k draws" and "after k draws" are the same question: the count only grows.

    >>> p_can_pay({"red": 2, "blue": 2}, "red", cost=3, draws=2, held=1)
    Fraction(1, 6)
    >>> p_can_pay({"red": 2, "blue": 2}, ANY, cost=7, draws=2, held=5)
    Fraction(1, 1)
    """
    need = check_count(cost, "cost", MARBLES) - check_count(held, "held", MARBLES)
    return colour_dist(dispenser, colour, draws).at_least(max(need, 0))


def pay_rows(dispenser: Mapping[str, int], colour: str, cost: int, held: int = 0, max_draws: int = 6
             ) -> list[dict[str, object]]:
    """The rows of :func:`pay_table` as dicts (``draws`` first), without pandas.

    >>> [row["P(can pay)"] for row in pay_rows({"red": 1, "blue": 1}, "red", cost=1, max_draws=2)]
    [Fraction(0, 1), Fraction(1, 2), Fraction(1, 1)]
    """
    check_count(max_draws, "max_draws", MARBLES)
    bag = as_dispenser(dispenser)
    return [{"draws": k, "P(can pay)": p_can_pay(bag, colour, cost, k, held)} for k in range(max_draws + 1)]


def pay_table(dispenser: Mapping[str, int], colour: str, cost: int, held: int = 0, max_draws: int = 6) -> pd.DataFrame:
    """P(able to pay ``cost`` in ``colour``) after 0, 1, … ``max_draws`` random draws, exact Fractions.

    >>> pay_table({"red": 1, "blue": 1}, "red", cost=1, max_draws=2)["P(can pay)"].tolist()
    [Fraction(0, 1), Fraction(1, 2), Fraction(1, 1)]
    """
    import pandas as pd

    return pd.DataFrame(pay_rows(dispenser, colour, cost, held, max_draws)).set_index("draws")


def colour_rows(dispenser: Mapping[str, int], draws: int) -> list[dict[str, object]]:
    """The rows of :func:`colour_table` as dicts (``colour`` first), without pandas.

    >>> colour_rows({"red": 1, "blue": 3}, 2)[0]
    {'colour': 'red', 'in dispenser': 1, 'P(next draw)': Fraction(1, 4), 'P(at least one)': Fraction(1, 2), 'expected': Fraction(1, 2)}
    """
    bag = as_dispenser(dispenser)
    if bag.size == 0:
        raise BadArgument("dispenser", "is empty: no draw can be made from it")
    rows: list[dict[str, object]] = []
    for colour in COLOURS:
        dist = colour_dist(bag, colour, draws)
        rows.append({"colour": colour, "in dispenser": bag[colour], "P(next draw)": Fraction(bag[colour], bag.size),
                     "P(at least one)": dist.at_least(1), "expected": dist.mean()})
    return rows


def colour_table(dispenser: Mapping[str, int], draws: int) -> pd.DataFrame:
    """Each colour in the dispenser and what ``draws`` random draws bring of it, exact Fractions.

    Columns: ``in dispenser``, ``P(next draw)`` (its share: the chance a refill or one random
    draw is this colour), ``P(at least one)`` in the draws and ``expected`` count.

    >>> colour_table({"red": 1, "blue": 3}, 2).loc["red", ["P(next draw)", "P(at least one)", "expected"]].tolist()
    [Fraction(1, 4), Fraction(1, 2), Fraction(1, 2)]
    """
    import pandas as pd

    return pd.DataFrame(colour_rows(dispenser, draws)).set_index("colour")


def row_after_pick(row: Marbles, picked: str, dispenser: Mapping[str, int]) -> Dist:
    """The energy row's make-up after a Pick: ``row`` minus the ``picked`` marble plus one random draw.

    Each row is a sorted tuple of colours in :data:`COLOURS` order. An empty dispenser leaves
    the row one short.

    >>> row_after_pick(["red", "blue"], "red", {"red": 1, "yellow": 3})
    Dist({('blue', 'yellow'): 3/4, ('red', 'blue'): 1/4})
    """
    counts = _row(row)
    if picked not in COLOURS or counts[picked] == 0:
        raise BadArgument("picked", f"must be a colour on the row: {marbles_text(counts) or 'the row is empty'}", picked)
    counts[picked] -= 1
    left = [colour for colour in COLOURS for _ in range(counts[colour])]
    bag = as_dispenser(dispenser)
    if bag.size == 0:
        return Dist.certain(tuple(left))
    return bag.draw(1).map(lambda drawn: tuple(sorted(left + list(drawn), key=COLOURS.index)))


def parse_marbles(text: str, what: str = "marbles") -> dict[str, int]:
    """Marbles typed as colour names or ``colour:count`` pairs (``"red red blue"``, ``"red:2 blue"``).

    >>> parse_marbles("red:2 blue, red")
    {'red': 3, 'blue': 1, 'black': 0, 'yellow': 0}
    >>> parse_marbles("red:x")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadEntry: marbles: 'red:x': a count is a whole number, as in red:3
    """
    if not isinstance(text, str):
        raise BadType(what, "must be text such as 'red:2 blue'", text)
    if len(text) > 1000:
        raise TooBig(what, "must be at most 1000 characters", f"{len(text)} characters")
    counts = dict.fromkeys(COLOURS, 0)
    for word in text.replace(",", " ").split():
        colour, sep, number = word.partition(":")
        colour = colour.strip().lower()
        if colour not in counts:
            raise BadEntry(f"{what}: {colour!r} is not a colour; colours are {', '.join(COLOURS)}", what)
        if sep and not number.strip().isdigit():
            raise BadEntry(f"{what}: {word!r}: a count is a whole number, as in {colour}:3", what)
        counts[colour] += int(number) if sep else 1
        if counts[colour] > MARBLES_PER_COLOUR:
            raise BadEntry(f"{what}: {counts[colour]} {colour} marbles; the game has {MARBLES_PER_COLOUR} of each colour",
                           what)
    return counts


def marbles_text(counts: Mapping[str, int]) -> str:
    """Marble counts as the text :func:`parse_marbles` reads (colours with none left out).

    >>> marbles_text({"red": 2, "blue": 0, "yellow": 1})
    'red:2 yellow:1'
    """
    checked = _marbles(counts, "counts")
    return " ".join(f"{colour}:{checked[colour]}" for colour in COLOURS if checked[colour])


# -- the decks --------------------------------------------------------------------------------------


def research_dist(unseen: int, matching: int, deck_size: int, research: int,
                  known_bottom: Sequence[bool] = ()) -> Dist:
    """How many cards you hope for a Research shows, from counts alone.

    ``unseen`` cards of the level are unseen by you, ``matching`` of them the kind you hope for.
    The deck holds ``deck_size`` cards: on top a uniform random subset of the unseen cards, then
    the cards you put under it (``known_bottom``, in the order they will come: whether each is
    one you hope for). A Research draws ``min(research, deck_size)`` cards from the top.

    Levels I and II: every unseen card is in the deck, so ``deck_size = unseen + len(known_bottom)``.
    Level III: the 20 cards removed at setup are unseen too, so the deck holds fewer.

    Cards an opponent put under the deck are unseen by you (you know how many, not which): they
    count among ``unseen`` and in the deck's unseen part. Their place under the never-seen
    cards changes nothing while you know nothing about them (each unseen card is as likely as
    any other to be one of them); the model takes your own cards to come after theirs, which
    matters only for a Research reaching past every card no one has seen.

    >>> research_dist(unseen=10, matching=2, deck_size=10, research=3)[0]  # C(8, 3) / C(10, 3)
    Fraction(7, 15)
    >>> research_dist(unseen=30, matching=2, deck_size=10, research=3)[0]  # C(28, 3) / C(30, 3)
    Fraction(117, 145)
    >>> research_dist(unseen=6, matching=2, deck_size=4, research=4, known_bottom=[True])  # 3 from the top, then yours
    Dist({1: 1/5, 2: 3/5, 3: 1/5})
    """
    for name, value in (("unseen", unseen), ("deck_size", deck_size), ("research", research)):
        check_count(value, name, MAX_CARDS)
    if check_count(matching, "matching", MAX_CARDS) > unseen:
        raise BadArgument("matching", f"at most the {unseen} unseen cards can match", matching)
    if isinstance(known_bottom, (str, bytes)) or not isinstance(known_bottom, Sequence):
        raise BadType("known_bottom", "must be a list of True/False: whether each known card under the deck matches",
                      known_bottom)
    if len(known_bottom) > MAX_CARDS:
        raise TooBig("known_bottom", f"must hold at most {MAX_CARDS} cards", f"{len(known_bottom)} cards")
    if not all(isinstance(flag, bool) for flag in known_bottom):
        raise BadType("known_bottom", "must hold True/False for each known card under the deck", known_bottom)
    top = deck_size - len(known_bottom)
    if not 0 <= top <= unseen:
        raise BadArgument("deck_size", f"a deck of {deck_size} with {len(known_bottom)} known cards under it would hold "
                                       f"{top} unseen cards; there are {unseen} unseen cards", deck_size)
    drawn = min(research, deck_size)
    from_top = min(drawn, top)
    sure = sum(known_bottom[: drawn - from_top])
    return Dist.from_weights({
        sure + j: comb(matching, j) * comb(unseen - matching, from_top - j) for j in range(min(matching, from_top) + 1)
    })


def _sequence(value: object, where: str) -> Sequence[Any]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise BadType(where, "must be a list (or other sequence) of cards", value)
    if len(value) > MAX_CARDS:
        raise TooBig(where, f"must hold at most {MAX_CARDS} cards", f"{len(value)} cards")
    return value


def research_matches(pool: Sequence[Item], match: Callable[[Item], bool] | Item, deck_size: int, research: int,
                     known_bottom: Sequence[Item] = ()) -> Dist:
    """How many cards that ``match`` a Research shows, from the cards themselves.

    ``pool`` is the unseen cards of the level (any objects: the engine's cards, ids, names),
    ``match`` a predicate on a card (a colour, a trigger type, …) or one card (compared with
    ``==``), ``known_bottom`` the cards you put under the deck, in the order they will come.
    See :func:`research_dist` for the model.

    >>> cards = ["red build", "red pick", "blue file", "blue build", "black pick"]
    >>> research_matches(cards, lambda c: c.startswith("red"), deck_size=5, research=2)
    Dist({0: 3/10, 1: 3/5, 2: 1/10})
    """
    pool = _sequence(pool, "pool")
    known_bottom = _sequence(known_bottom, "known_bottom")
    hit: Callable[[Item], bool] = match if callable(match) else (lambda card: card == match)
    return research_dist(len(pool), sum(bool(hit(card)) for card in pool), deck_size, research,
                         [bool(hit(card)) for card in known_bottom])


def p_research_shows(pool: Sequence[Item], match: Callable[[Item], bool] | Item, deck_size: int, research: int,
                     known_bottom: Sequence[Item] = (), at_least: int = 1) -> Fraction:
    """P(a Research of ``research`` cards shows at least ``at_least`` cards that ``match``) (see :func:`research_matches`).

    One given unseen card shows with probability min(research, unseen part) / unseen.

    >>> p_research_shows(range(36), lambda card: card < 9, deck_size=36, research=3)  # 9 of 36 match
    Fraction(281, 476)
    """
    check_count(at_least, "at_least", MAX_CARDS)
    return research_matches(pool, match, deck_size, research, known_bottom).at_least(at_least)
