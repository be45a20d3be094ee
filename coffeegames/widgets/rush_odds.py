"""Coffee Rush's order deck in a widget: what the next orders may need, exactly.

:class:`DeckExplorer` takes the deck's make-up (a mapping order → count, an order a tuple
of ingredient names), the orders already seen on the table (typed as ``coffee+milk,
milk+tea``: they are taken out of the deck), how many orders come next, an ingredient to
follow and the ingredients you hold. It draws the exact law of how many of the next orders
need that ingredient beside each ingredient's chance to be needed, states the chance a
next order needs something you hold and the sizes of the next order, and lists
:func:`coffeegames.rush.deck_table`. Every number comes from :mod:`coffeegames.rush` as a
Fraction; bad input shows an error and changes nothing.

Without a deck it shows :data:`EXAMPLE_DECK`, a small **example** deck made up to show the
widget (not the game's deck), and says so above its numbers.

Example:
    >>> explorer = DeckExplorer({("coffee", "milk"): 3, ("milk", "tea"): 1, ("ice", "tea"): 2}, draws=2,
    ...                         ingredient="tea", specialty=["tea"])
    >>> explorer.dist[0]                                    # neither of the next two needs tea
    Fraction(1, 5)
    >>> explorer.seen.value = "milk+tea"                    # one order seen on the table
    >>> explorer.deck.size, explorer.dist[0]
    (5, Fraction(3, 10))
    >>> explorer.seen.value = "milk+tea, milk+tea"          # only one was in the deck
    >>> "not left in the deck" in explorer.message.value, explorer.deck.size
    (True, 5)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from ..errors import BadArgument, BadEntry
from ..exact import Bag, Dist
from ..rush import (as_deck, deck_ingredients, deck_table, ingredient_dist, p_needs, parse_orders, size_dist, specialty_dist,
                    unseen_deck)
from ..text import labelled_text
from ..validate import Checker
from .charts import BASE, HIGHLIGHT, View, figure, fraction_text, mean_text, percent, table_html

__all__ = ["CSS_CLASSES", "DeckExplorer", "EXAMPLE_DECK", "EXAMPLE_SPECIALTY", "MAX_SHOWN", "parse_orders"]

EXAMPLE_DECK: dict[tuple[str, ...], int] = {
    ("coffee", "milk"): 3,
    ("coffee", "ice"): 2,
    ("milk", "steam"): 2,
    ("ice", "steam"): 2,
    ("coffee", "coffee", "ice"): 1,
    ("coffee", "milk", "steam"): 2,
    ("ice", "ice", "milk"): 1,
    ("ice", "milk", "tea"): 1,
    ("chocolate", "milk", "steam"): 1,
    ("caramel", "coffee", "ice", "milk"): 1,
    ("coffee", "water"): 1,
    ("steam", "steam", "tea", "water"): 1,
}
"""An EXAMPLE deck of 18 orders, made up to show the widget: not the published deck's make-up."""
EXAMPLE_SPECIALTY = frozenset({"tea", "chocolate", "caramel", "water"})
"""The specialty ingredients of :data:`EXAMPLE_DECK` (the board's 1-space ingredients)."""
MAX_SHOWN = 12
"""The slider offers at most this many next orders."""
_ARGUMENT = Checker("", BadArgument)
CSS_CLASSES = {
    "explorer": "cg-deck-explorer", "seen": "cg-deck-seen", "draws": "cg-deck-draws",
    "ingredient": "cg-deck-ingredient", "held": "cg-deck-held", "message": "cg-deck-message",
    "result": "cg-deck-result", "chart": "cg-deck-chart", "table": "cg-deck-table",
}
"""The stable CSS class of each part of a :class:`DeckExplorer` (for a browser test or a page's style)."""


def _names(value: Any, where: str) -> tuple[str, ...]:
    """Ingredient names: a list, tuple or set of strings (one string alone would be read letter by letter)."""
    if isinstance(value, (set, frozenset)):
        value = sorted(value, key=str)
    return _ARGUMENT.sequence(value, where, _ARGUMENT.text)


@dataclass(frozen=True)
class _Deck:
    makeup: int
    deck: Bag
    draws: int
    ingredient: str
    held: tuple[str, ...]
    dist: Dist
    needed: pd.DataFrame
    p_held: Fraction
    sizes: Dist
    specialty: Dist


class DeckExplorer(View):
    """The exact odds of the next orders from a Coffee Rush deck.

    Controls: ``seen`` (a Text: orders seen on the table, ``coffee+milk, milk+tea``),
    ``draws`` (slider: how many orders come next), ``ingredient`` (dropdown: the one
    followed in the left chart), ``held`` (the ingredients you hold, several may be picked).
    ``fig`` has two bar traces: P(exactly n of the next orders need the ingredient), and
    each ingredient's P(at least one of the next orders needs it) with the followed one
    highlighted (a ★ marks specialty ingredients). Public results: ``deck`` (what is left
    unseen, a Bag), ``dist``, ``p_held``, ``sizes`` (of the next order), ``odds`` (the
    :func:`~coffeegames.rush.deck_table` DataFrame).
    """

    def __init__(self, deck: Mapping[Any, int] | None = None, specialty: Iterable[str] | None = None, draws: int = 3,
                 ingredient: str | None = None, held: Iterable[str] = (), seen: str = "") -> None:
        self.example = deck is None
        if deck is None:
            deck, specialty = EXAMPLE_DECK, EXAMPLE_SPECIALTY if specialty is None else specialty
        self.makeup = as_deck(deck)
        self.specialty = frozenset(_names(specialty or (), "specialty"))
        names = deck_ingredients(self.makeup)
        if not names:
            raise BadArgument("deck", "holds no order: give at least one order with its count")
        _ARGUMENT.whole(draws, "draws", 1, MAX_SHOWN)
        _ARGUMENT.text(seen, "seen")
        if ingredient is not None:
            _ARGUMENT.one_of(ingredient, "ingredient", names)
        held = _names(held, "held")
        for name in held:
            if name not in names:
                raise BadArgument("held", f"each must be one of the deck's ingredients: {', '.join(names)}", name)
        style = {"description_width": "initial"}
        self.seen = widgets.Text(value=seen, description="orders seen", continuous_update=False, style=style,
                                 layout=widgets.Layout(width="560px"),
                                 placeholder="orders on the table, e.g. coffee+milk, milk+steam")
        self.draws = widgets.IntSlider(value=draws, min=1, max=max(1, min(MAX_SHOWN, self.makeup.size)),
                                       description="next orders", continuous_update=False, style=style)
        self.ingredient = widgets.Dropdown(options=[(self._label(n), n) for n in names],
                                           value=ingredient if ingredient is not None else names[0],
                                           description="follow", style=style, layout=widgets.Layout(width="240px"))
        self.held = widgets.SelectMultiple(options=list(names), value=tuple(held), description="you hold",
                                           rows=min(len(names), 8), style=style, layout=widgets.Layout(width="240px"))
        self.message = widgets.HTML()
        self.result = widgets.HTML()
        self.table = widgets.HTML()
        from plotly.subplots import make_subplots  # plotly's figure machinery loads here, not on import

        chart = figure(
            make_subplots(rows=1, cols=2, column_widths=[0.4, 0.6], horizontal_spacing=0.12),
            height=380,
            margin=dict(t=80),
        )
        chart.add_trace(go.Bar(marker_color=HIGHLIGHT, hovertemplate="%{customdata}<extra></extra>"), row=1, col=1)
        chart.add_trace(go.Bar(hovertemplate="%{customdata}<extra></extra>"), row=1, col=2)
        chart.update_xaxes(title_text="orders needing it", dtick=1, row=1, col=1)
        chart.update_xaxes(title_text="ingredient (★ specialty)", type="category", row=1, col=2)
        chart.update_yaxes(title_text="probability", tickformat=".0%", range=[0, 1.02], row=1, col=1)
        chart.update_yaxes(title_text="P(at least one needs it)", tickformat=".0%", range=[0, 1.02], row=1, col=2)
        self._start(chart, [self.seen, self.draws, self.ingredient, self.held])
        self.widget = widgets.VBox([
            self.seen, widgets.HBox([widgets.VBox([self.draws, self.ingredient]), self.held]),
            self.message, self.result, self.chart, self.table,
        ])
        for name, part in [("explorer", self.widget), ("seen", self.seen), ("draws", self.draws),
                           ("ingredient", self.ingredient), ("held", self.held), ("message", self.message),
                           ("result", self.result), ("chart", self.chart), ("table", self.table)]:
            part.add_class(CSS_CLASSES[name])

    def _label(self, name: str) -> str:
        return f"{name} ★" if name in self.specialty else name

    def _compute(self) -> _Deck:
        deck = unseen_deck(self.makeup, parse_orders(self.seen.value))  # a BadArgument names a seen order not left
        if deck.size == 0:
            raise BadEntry("every order of the deck is seen: no order is left to draw")
        draws = min(self.draws.value, deck.size)
        name, held = self.ingredient.value, tuple(self.held.value)
        return _Deck(self.makeup.size, deck, draws, name, held, ingredient_dist(deck, name, draws),
                     deck_table(deck, draws, self.specialty), p_needs(deck, held, draws), size_dist(deck, 1),
                     specialty_dist(deck, self.specialty, draws))

    def _draw(self, fig: go.Figure, odds: _Deck) -> None:
        xs = list(range(odds.draws + 1))
        probs = [odds.dist[x] for x in xs]
        fig.data[0].update(x=xs, y=[float(p) for p in probs],
                           customdata=[f"{x} of {odds.draws} need {odds.ingredient}: {fraction_text(p)}"
                                       for x, p in zip(xs, probs)])
        names = list(self.ingredient.options)
        chance = [odds.needed.loc[n, "P(needed)"] if n in odds.needed.index else Fraction(0) for _, n in names]
        fig.data[1].update(x=[label for label, _ in names], y=[float(p) for p in chance],
                           marker_color=[HIGHLIGHT if n == odds.ingredient else BASE for _, n in names],
                           customdata=[f"P(one of the next {odds.draws} needs {n}) = {fraction_text(p)}"
                                       for (_, n), p in zip(names, chance)])
        fig.layout.title.text = (f"The next {odds.draws} of {odds.deck.size} unseen orders: "
                                 f"how many need {odds.ingredient} (left), what each ingredient's chance is (right)")

    def _show(self, odds: _Deck) -> None:
        self.deck, self.dist, self.p_held, self.sizes, self.odds = odds.deck, odds.dist, odds.p_held, odds.sizes, odds.needed
        seen = odds.makeup - odds.deck.size
        sizes = ", ".join(f"{size[0]} ingredients {percent(p)}" for size, p in odds.sizes.items())
        held = (f"P(one of the next {odds.draws} needs an ingredient you hold: {html.escape(', '.join(odds.held))}) = "
                f"<b>{fraction_text(odds.p_held)}</b>") if odds.held else "Pick the ingredients you hold to see the chance an order needs one."
        special = (f" · Specialty orders among them, on average: <b>{mean_text(odds.specialty.mean())}</b>"
                   if self.specialty else "")
        example = "<i>An example deck made up to show this explorer, not the game's deck.</i><br>" if self.example else ""
        self.result.value = (
            f"{example}<b>{odds.deck.size}</b> orders unseen ({odds.makeup} in the deck's make-up, {seen} seen). "
            f"P(at least one of the next {odds.draws} needs {html.escape(odds.ingredient)}) = "
            f"<b>{fraction_text(odds.dist.at_least(1))}</b>.<br>{held}<br>"
            f"The next order's size: {sizes}{special}"
        )
        shown = odds.needed.reset_index()
        shown["specialty"] = ["★" if s else "" for s in shown["specialty"]]
        for column in ("P(needed)", "E[orders]", "E[units]"):
            shown[column] = [labelled_text(column, v) for v in shown[column]]
        self.table.value = table_html(shown, {
            "ingredient": "ingredient", "specialty": "specialty",
            "P(needed)": f"P(one of the next {odds.draws} needs it)",
            "E[orders]": "orders needing it, on average", "E[units]": "units needed, on average",
        })
