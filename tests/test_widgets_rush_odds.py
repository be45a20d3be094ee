"""The Coffee Rush deck explorer, driven through its callbacks as a user would."""

from __future__ import annotations

import html
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from coffeegames.errors import BadArgument, BadEntry
from coffeegames.rush import deck_table, ingredient_dist, p_needs, size_dist
from coffeegames.widgets import DeckExplorer, parse_orders
from coffeegames.widgets.charts import BASE, HIGHLIGHT, StaticPlot, fraction_text
from coffeegames.widgets.rush_odds import CSS_CLASSES, EXAMPLE_DECK, EXAMPLE_SPECIALTY

DECK = {("coffee", "milk"): 3, ("milk", "tea"): 1, ("ice", "tea"): 2, ("caramel", "coffee", "milk"): 1}
SPECIALTY = ["tea", "caramel"]


def shown(widget: object) -> str:
    return html.unescape(widget.value)


def brute_none_need(deck: dict, ingredient: str, k: int) -> Fraction:
    """P(none of k cards drawn needs the ingredient), over labelled cards."""
    cards = [order for order, n in deck.items() for _ in range(n)]
    hands = list(combinations(range(len(cards)), k))
    return Fraction(sum(all(ingredient not in cards[i] for i in hand) for hand in hands), len(hands))


@pytest.mark.parametrize(("draws", "ingredient"), [(1, "tea"), (2, "milk"), (4, "caramel"), (7, "coffee")])
def test_controls_redraw_the_exact_law(draws: int, ingredient: str) -> None:
    explorer = DeckExplorer(DECK, SPECIALTY)
    explorer.draws.value, explorer.ingredient.value = draws, ingredient
    dist = ingredient_dist(DECK, ingredient, draws)
    assert explorer.message.value == "" and explorer.dist == dist
    assert dist[0] == brute_none_need(DECK, ingredient, draws)
    left, right = explorer.fig.data
    assert list(left.x) == list(range(draws + 1)) and list(left.y) == [float(dist[i]) for i in range(draws + 1)]
    assert [c.split(": ")[1] for c in left.customdata] == [fraction_text(dist[i]) for i in range(draws + 1)]
    table = deck_table(DECK, draws, SPECIALTY)
    assert explorer.odds.equals(table)
    assert list(right.y) == [float(p) for p in table["P(needed)"]]
    assert list(right.marker.color) == [HIGHLIGHT if n == ingredient else BASE for n in table.index]
    assert list(right.x) == ["caramel ★", "coffee", "ice", "milk", "tea ★"]
    assert fraction_text(dist.at_least(1)) in shown(explorer.result)
    assert fraction_text(table.loc["milk", "P(needed)"]) in shown(explorer.table)


def test_held_ingredients_give_the_chance_an_order_needs_one() -> None:
    explorer = DeckExplorer(DECK, SPECIALTY, draws=1)
    assert "Pick the ingredients you hold" in shown(explorer.result)
    explorer.held.value = ("ice", "caramel")
    assert explorer.p_held == p_needs(DECK, ["ice", "caramel"], 1) == Fraction(3, 7)
    assert "ice, caramel" in shown(explorer.result) and fraction_text(Fraction(3, 7)) in shown(explorer.result)
    assert explorer.sizes == size_dist(DECK, 1)


def test_seen_orders_leave_the_deck() -> None:
    explorer = DeckExplorer(DECK, SPECIALTY, draws=2, ingredient="tea")
    explorer.seen.value = "tea + ice, coffee+milk; milk+coffee"
    left = Counter(DECK)
    left.subtract({("ice", "tea"): 1, ("coffee", "milk"): 2})
    left_deck = {o: n for o, n in left.items() if n}
    assert dict(explorer.deck) == left_deck
    assert explorer.dist == ingredient_dist(left_deck, "tea", 2)
    assert "3 seen" in shown(explorer.result)


def test_more_next_orders_than_are_left_draws_them_all() -> None:
    explorer = DeckExplorer(DECK, draws=7)
    explorer.seen.value = "ice+tea, ice+tea"
    assert explorer.deck.size == 5 and len(explorer.fig.data[0].x) == 6
    assert explorer.dist == ingredient_dist(explorer.deck, explorer.ingredient.value, 5)


@pytest.mark.parametrize(("text", "says"), [
    ("coffee+", "joined by '+'"),
    ("tea+water", "not in the deck's make-up"),
    ("ice+tea, ice+tea, ice+tea", "not left in the deck"),
    ("coffee+milk, coffee+milk, coffee+milk, milk+tea, ice+tea, ice+tea, caramel+coffee+milk", "no order is left"),
])
def test_bad_seen_text_shows_an_error_and_changes_nothing(text: str, says: str) -> None:
    explorer = DeckExplorer(DECK, SPECIALTY, draws=2)
    before = (list(explorer.fig.data[0].y), explorer.dist, explorer.table.value, explorer.result.value)
    explorer.seen.value = text
    assert says in shown(explorer.message)
    assert (list(explorer.fig.data[0].y), explorer.dist, explorer.table.value, explorer.result.value) == before
    explorer.seen.value = ""
    assert explorer.message.value == ""


def test_bad_arguments_are_refused_for_the_programmer() -> None:
    with pytest.raises(BadArgument, match="ingredient"):
        DeckExplorer(DECK, ingredient="sugar")
    with pytest.raises(BadArgument, match="held"):
        DeckExplorer(DECK, held=["sugar"])
    with pytest.raises(BadArgument, match="holds no order"):
        DeckExplorer({("coffee", "milk"): 0})
    with pytest.raises(BadEntry):
        parse_orders("milk++tea")


def test_the_example_deck_is_labelled_and_used_only_without_a_deck() -> None:
    explorer = DeckExplorer()
    assert dict(explorer.makeup) == EXAMPLE_DECK and explorer.specialty == EXAMPLE_SPECIALTY
    assert "An example deck made up to show this explorer, not the game's deck" in shown(explorer.result)
    own = DeckExplorer(DECK)
    assert own.specialty == frozenset() and "example" not in shown(own.result)


def test_parts_carry_stable_css_classes_and_a_static_plot() -> None:
    explorer = DeckExplorer(DECK)
    parts = {"explorer": explorer.widget, "seen": explorer.seen, "draws": explorer.draws, "ingredient": explorer.ingredient,
             "held": explorer.held, "message": explorer.message, "result": explorer.result, "chart": explorer.chart,
             "table": explorer.table}
    for name, part in parts.items():
        assert CSS_CLASSES[name] in part._dom_classes
    assert isinstance(explorer.chart, StaticPlot)
    before = explorer.chart.outputs
    explorer.draws.value = 5
    assert explorer.chart.outputs != before and "next 5 of 7" in explorer.chart.outputs[0]["data"]["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in explorer._repr_mimebundle_()
