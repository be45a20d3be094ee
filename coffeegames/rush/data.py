"""Coffee Rush's data files: the ingredient board, the order deck's make-up and the upgrade tiles (all stand-ins).

The shipped files in ``data/`` say in their first field that they are stand-ins; a player
who owns the game loads their own (``Game(board="my_board.json", orders=..., upgrades=...)``,
format in ``data/README.md``). Every file is validated completely when loaded, with the
shared :class:`~coffeegames.validate.Checker`; a bad file is refused whole, naming the field.

An *order* is written as its ingredients, sorted and joined by ``+`` (``"coffee+milk"``);
a cup's contents and a multiset of ingredients are sorted tuples.

Example:
    >>> board = stand_in_board()
    >>> board.rows, board.cols, board.name(5), board.spaces[5], board.count("coffee")
    (4, 4, 'b2', 'tea', 3)
    >>> deck = stand_in_orders()
    >>> deck.total, deck.kinds[0], order_needs("coffee+milk")
    (80, 'coffee+coffee', ('coffee', 'milk'))
    >>> [t.effect for t in stand_in_upgrades()]
    ['diagonal', 'double', 'extra_step', 'extra_cup']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import PATH_CHARS, BadArgument, BadType, shown
from ..validate import Checker, check_path, read_json

__all__ = [
    "Board", "EFFECTS", "ORDER_SIZES", "OrderDeck", "STAND_IN_BOARD", "STAND_IN_ORDERS", "STAND_IN_UPGRADES", "Tile",
    "board_from_dict", "load_board", "load_orders", "load_upgrades", "order_name", "order_needs", "orders_from_dict",
    "stand_in_board", "stand_in_orders", "stand_in_upgrades", "upgrades_from_dict",
]

_HERE = Path(__file__).resolve().parent / "data"
STAND_IN_BOARD = _HERE / "board.json"
STAND_IN_ORDERS = _HERE / "orders.json"
STAND_IN_UPGRADES = _HERE / "upgrades.json"

ORDER_SIZES = (2, 3, 4)
"""An order needs 2-4 ingredients (Fact)."""
EFFECTS: dict[str, str] = {
    "diagonal": "every step of your move may also be diagonal",
    "double": "the space you end your move on gives two of its ingredient",
    "extra_step": "move up to one more step before spending rush tokens",
    "extra_cup": "a fourth cup",
}
"""The effects an upgrade tile may have (the engine implements these; a tile file names one per tile)."""

_NAME = re.compile(r"^[a-z][a-z_ ]{0,30}$")


_ARGUMENT = Checker("", BadArgument)


def _names(value: Any, where: str) -> tuple[str, ...]:
    """A list or tuple of names (never one string: it would be read letter by letter), else the error naming ``where``."""
    return _ARGUMENT.sequence(value, where, lambda name, at: _ARGUMENT.text(name, at, nonempty=True))


def order_name(needs: Iterable[str]) -> str:
    """An order's name: its ingredients sorted and joined by ``+``.

    >>> order_name(["milk", "coffee"])
    'coffee+milk'
    """
    return _order_name(_names(needs, "needs"))


def _order_name(needs: Iterable[str]) -> str:
    """:func:`order_name` without the checks (the engine's own cups)."""
    return "+".join(sorted(needs))


def order_needs(order: str) -> tuple[str, ...]:
    """The ingredients an order needs, as a sorted tuple.

    >>> order_needs("coffee+milk+milk")
    ('coffee', 'milk', 'milk')
    """
    if not isinstance(order, str) or "" in (needs := order.split("+")):
        raise BadType("order", "must be an order's name: its ingredients joined by '+', e.g. 'coffee+milk'", order)
    return tuple(needs)


@dataclass(frozen=True)
class Board:
    """The ingredient board: ``spaces`` row by row (ingredient names), and which ingredients are specialty."""

    rows: int
    cols: int
    spaces: tuple[str, ...]
    specialty: tuple[str, ...]

    def name(self, space: int) -> str:
        """``'a1'`` ... : column letter and row number of ``space`` (0 .. spaces - 1, row by row)."""
        _ARGUMENT.whole(space, "space", 0, len(self.spaces) - 1)
        return f"{'abcdef'[space % self.cols]}{space // self.cols + 1}"

    def count(self, ingredient: str) -> int:
        """Spaces holding ``ingredient``."""
        return self.spaces.count(ingredient)

    @property
    def ingredients(self) -> tuple[str, ...]:
        """The ingredients on the board, each once, in board order."""
        return tuple(dict.fromkeys(self.spaces))

    def is_specialty(self, order: str) -> bool:
        """Whether an order is Specialty (Ruling: it needs a specialty ingredient)."""
        return any(i in self.specialty for i in order_needs(order))


@dataclass(frozen=True)
class OrderDeck:
    """The order deck's make-up: each kind of order (by name) and how many cards of it."""

    kinds: tuple[str, ...]
    cards: tuple[int, ...]

    @property
    def total(self) -> int:
        """Cards in the whole deck."""
        return sum(self.cards)

    def orders(self) -> dict[tuple[str, ...], int]:
        """The make-up as the odds functions read a deck (:mod:`.odds`): each order's ingredients → its cards.

        >>> OrderDeck(("coffee+milk", "tea+water"), (3, 1)).orders()
        {('coffee', 'milk'): 3, ('tea', 'water'): 1}
        """
        return {order_needs(kind): n for kind, n in zip(self.kinds, self.cards)}

    def index(self, order: str) -> int:
        """The position of ``order`` in :attr:`kinds` (:class:`~coffeegames.errors.BadArgument` if the deck has none)."""
        try:
            return self.kinds.index(order)
        except ValueError:
            some = ", ".join(self.kinds[:4]) + (", ..." if len(self.kinds) > 4 else "")
            raise _ARGUMENT.error("order", f"must be an order of this deck ({some})", order) from None


@dataclass(frozen=True)
class Tile:
    """One upgrade tile: its printed name and the effect it gives once flipped."""

    name: str
    effect: str


def _read(path: str | Path, what: str) -> tuple[Any, str]:
    source = f"Coffee Rush {what} file {shown(str(path), PATH_CHARS)}"
    return read_json(Path(path), source), source


def _ingredient(check: Checker, value: Any, where: str) -> str:
    check.need(isinstance(value, str) and _NAME.match(value) is not None, where,
               "must be an ingredient name: lower-case letters, spaces or '_', at most 31", value)
    return value


def board_from_dict(data: Any, source: str = "Coffee Rush board") -> Board:
    """Validate a board file's parsed JSON completely; the error names the field.

    >>> board_from_dict({"rows": [["milk", "ice"], ["ice"]], "specialty": []})
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: Coffee Rush board: field 'rows[1]': every row must hold 2 spaces, as the first does; got ['ice']
    """
    check = Checker(source)
    top = check.fields(data, "(top level)", ("rows", "specialty"), ("rows", "specialty"))
    rows: tuple[Any, ...] = check.sequence(top["rows"], "rows", low=2, high=6)
    width = len(rows[0]) if isinstance(rows[0], list) else 0
    spaces: list[str] = []
    for r, row in enumerate(rows):
        check.need(isinstance(row, list) and 2 <= width <= 6, f"rows[{r}]", "must be a list of 2-6 ingredients", row)
        check.need(len(row) == width, f"rows[{r}]", f"every row must hold {width} spaces, as the first does", row)
        spaces += [_ingredient(check, v, f"rows[{r}][{c}]") for c, v in enumerate(row)]
    specialty = check.sequence(top["specialty"], "specialty", lambda v, w: _ingredient(check, v, w))
    for i, name in enumerate(specialty):
        check.need(name in spaces, f"specialty[{i}]", "must be an ingredient on the board", name)
    check.need(len(set(specialty)) == len(specialty), "specialty", "names an ingredient twice", list(specialty))
    return Board(len(rows), width, tuple(spaces), tuple(specialty))


def orders_from_dict(data: Any, source: str = "Coffee Rush orders") -> OrderDeck:
    """Validate an order file's parsed JSON completely (every order 2-4 ingredients, each kind once).

    >>> orders_from_dict({"orders": [{"needs": ["milk"], "cards": 3}]})
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: Coffee Rush orders: field 'orders[0].needs': must hold 2-4 items; got ['milk']
    """
    check = Checker(source)
    top = check.fields(data, "(top level)", ("orders",), ("orders",))
    kinds: dict[str, int] = {}
    orders: tuple[Any, ...] = check.sequence(top["orders"], "orders", low=1, high=1000)
    for i, item in enumerate(orders):
        where = f"orders[{i}]"
        entry = check.fields(item, where, ("needs", "cards"), ("needs", "cards"))
        needs = check.sequence(entry["needs"], f"{where}.needs", lambda v, w: _ingredient(check, v, w), ORDER_SIZES[0], ORDER_SIZES[-1])
        name = order_name(needs)
        check.need(name not in kinds, f"{where}.needs", "this order is listed twice (give its number of cards once)", list(needs))
        kinds[name] = check.whole(entry["cards"], f"{where}.cards", 1, 200)
    check.need(sum(kinds.values()) <= 1000, "orders", "hold more than 1000 cards in all")
    return OrderDeck(tuple(kinds), tuple(kinds.values()))


def upgrades_from_dict(data: Any, source: str = "Coffee Rush upgrades") -> tuple[Tile, ...]:
    """Validate an upgrade-tile file's parsed JSON completely (1-6 tiles, names unique, effects known).

    >>> upgrades_from_dict({"tiles": [{"name": "Fly", "effect": "teleport"}]})
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadData: Coffee Rush upgrades: field 'tiles[0].effect': must be one of diagonal, double, extra_step, extra_cup; got 'teleport'
    """
    check = Checker(source)
    top = check.fields(data, "(top level)", ("tiles",), ("tiles",))
    tiles: list[Tile] = []
    items: tuple[Any, ...] = check.sequence(top["tiles"], "tiles", low=1, high=6)
    for i, item in enumerate(items):
        entry = check.fields(item, f"tiles[{i}]", ("name", "effect"), ("name", "effect"))
        name = check.text(entry["name"], f"tiles[{i}].name", nonempty=True)
        check.need(len(name) <= 40 and all(t.name != name for t in tiles), f"tiles[{i}].name",
                   "must be at most 40 characters and differ from the other tiles' names", name)
        tiles.append(Tile(name, check.one_of(entry["effect"], f"tiles[{i}].effect", tuple(EFFECTS))))
    return tuple(tiles)


def load_board(path: str | Path | None = None) -> Board:
    """Read a board file (the shipped stand-in by default) and validate it completely."""
    if path is None:
        return stand_in_board()
    return board_from_dict(*_read(check_path(path), "board"))


def load_orders(path: str | Path | None = None) -> OrderDeck:
    """Read an order-deck file (the shipped stand-in by default) and validate it completely."""
    if path is None:
        return stand_in_orders()
    return orders_from_dict(*_read(check_path(path), "orders"))


def load_upgrades(path: str | Path | None = None) -> tuple[Tile, ...]:
    """Read an upgrade-tile file (the shipped stand-in by default) and validate it completely."""
    if path is None:
        return stand_in_upgrades()
    return upgrades_from_dict(*_read(check_path(path), "upgrades"))


@lru_cache(maxsize=1)
def stand_in_board() -> Board:
    """The shipped stand-in board, read once."""
    return board_from_dict(*_read(STAND_IN_BOARD, "board"))


@lru_cache(maxsize=1)
def stand_in_orders() -> OrderDeck:
    """The shipped stand-in order deck, read once."""
    return orders_from_dict(*_read(STAND_IN_ORDERS, "orders"))


@lru_cache(maxsize=1)
def stand_in_upgrades() -> tuple[Tile, ...]:
    """The shipped stand-in upgrade tiles, read once."""
    return upgrades_from_dict(*_read(STAND_IN_UPGRADES, "upgrades"))
