"""Interactive VivaJava odds: the best blend of a roll, the chance to beat a blend, the corporations' METER.

* :class:`BlendExplorer`: sliders for the coffee and flavour dice rolled; a stacked bar
  chart of the exact best-blend distribution (by size, coloured by bean colour); a picked
  blend to beat, whose exact chance is stated and whose beaters are drawn bright.
* :class:`MeterTable`: both solo corporations' exact success chances at each METER
  number, as a plain HTML table (no figure).

Every number comes from :mod:`coffeegames.vivajava` as an exact Fraction.

Example:
    >>> explorer = BlendExplorer(coffee_dice=5, flavour=0, size=3, colour="red")
    >>> explorer.p_beat
    Fraction(41, 486)
    >>> explorer.flavour.value = 2          # two flavour dice, jokers wild
    >>> explorer.p_beat == vivajava.p_beats(Blend.of(3, "red"), coffee_dice=5, flavour=2)
    True
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from .. import vivajava
from ..errors import BadArgument
from ..exact import Dist
from ..validate import Checker, check_instance, renamed_keyword
from ..vivajava import COLOURS, CORPORATIONS, DIFFICULTIES, MAX_COFFEE_DICE, MAX_FLAVOUR, NO_BLEND, SIZE_NAMES, Blend, Rules
from .charts import HIGHLIGHT, View, figure, fraction_text, percent, table_html

__all__ = ["BEAN_COLOURS", "BlendExplorer", "MeterTable", "bean_ink"]

BEAN_COLOURS: dict[str, str] = {
    "white": "#e9ecef",
    "yellow": "#fcc419",
    "brown": "#a0522d",
    "red": "#e03131",
    "green": "#2f9e44",
    "black": "#212529",
    "joker": "#ced4da",
}
"""How each bean colour (and the joker face) is drawn."""
NO_BLEND_COLOUR = "#adb5bd"
EDGE = "#868e96"
FADED = 0.28
SIZES = (0, 2, 3, 4, 5)
SIZE_LABELS = [SIZE_NAMES[s] for s in SIZES]


def bean_ink(colour: str) -> str:
    """A text colour readable on the bean colour ``colour``.

    >>> bean_ink("black"), bean_ink("yellow")
    ('#ffffff', '#212529')
    """
    return "#ffffff" if colour in ("brown", "red", "green", "black") else "#212529"


def _segment(size: int, rank: int) -> Blend | None:
    """The blend one bar segment stands for: colour ``rank`` at ``size`` (rank 0 and size 0: no blend); None if impossible."""
    if size and rank:
        return Blend(size, rank)
    return NO_BLEND if not (size or rank) else None


@dataclass(frozen=True)
class _Roll:
    coffee_dice: int
    flavour: int
    best: Dist
    target: Blend
    p_beat: Fraction
    p_rainbow: Fraction


class BlendExplorer(View):
    """The exact best-blend distribution of a roll, and the chance to beat a picked blend.

    ``coffee_dice`` and ``flavour`` are the sliders (coffee dice 0-10, flavour dice 0-5), named as in the odds
    functions (``p_beats(blend, coffee_dice=5)``); the old keywords ``white=`` and ``coffee=`` still work, with a
    DeprecationWarning. ``size`` and ``colour`` pick the blend to beat (say, the one on the Featured Blend
    coaster). ``fig`` stacks one bar trace per bean colour over the blend sizes (plus one
    for "no blend"); bars that beat the picked blend are bright, the rest faded, and the
    picked blend is outlined. ``result`` states P(beat), P(rainbow) and P(no blend);
    ``p_beat``, ``p_rainbow`` and ``distribution`` hold them exactly.

    >>> BlendExplorer(coffee_dice=2).fig.data[COLOURS.index("red")].customdata[1]
    'Decaf red: 1/36 (2.8%)<br>does not beat Regular red'
    """

    @renamed_keyword("coffee", "coffee_dice")
    @renamed_keyword("white", "coffee_dice")
    def __init__(self, coffee_dice: int = 5, flavour: int = 0, size: int = 3, colour: str = "red") -> None:
        check = Checker("", BadArgument)
        check.whole(coffee_dice, "coffee_dice", 0, MAX_COFFEE_DICE)
        check.whole(flavour, "flavour", 0, MAX_FLAVOUR)
        check.one_of(size, "size", SIZES[1:])
        check.one_of(colour, "colour", COLOURS)
        slider = partial(widgets.IntSlider, continuous_update=False, style={"description_width": "initial"})
        self.coffee_dice = slider(value=coffee_dice, min=0, max=MAX_COFFEE_DICE, description="coffee dice")
        self.flavour = slider(value=flavour, min=0, max=MAX_FLAVOUR, description="flavour dice")
        pick = partial(widgets.Dropdown, layout=widgets.Layout(width="210px"), style={"description_width": "initial"})
        self.size = pick(options=[(f"{SIZE_NAMES[s]} ({s} alike)", s) for s in SIZES[1:]], value=size, description="beat a")
        self.colour = pick(options=list(COLOURS), value=colour, description="of colour")
        self.message = widgets.HTML()
        self.result = widgets.HTML()
        hover = "%{customdata}<extra></extra>"
        bars = [go.Bar(name=c, x=SIZE_LABELS, marker_color=BEAN_COLOURS[c], hovertemplate=hover) for c in COLOURS]
        bars.append(go.Bar(name="no blend", x=SIZE_LABELS, marker_color=NO_BLEND_COLOUR, hovertemplate=hover, showlegend=False))
        chart = figure(
            bars,
            height=400,
            barmode="stack",
            showlegend=True,
            legend=dict(title="best colour", traceorder="normal"),
            xaxis=dict(title="the roll's best blend (largest group of one colour, jokers wild)", type="category"),
            yaxis=dict(title="probability", tickformat=".0%", range=[0, 1]),
            margin=dict(t=70),
        )
        self._start(chart, [self.coffee_dice, self.flavour, self.size, self.colour])
        self.widget = widgets.VBox(
            [widgets.HBox([self.coffee_dice, self.flavour]), widgets.HBox([self.size, self.colour]), self.message, self.result, self.chart]
        )

    @property
    def white(self) -> widgets.IntSlider:
        """The old name of the :attr:`coffee_dice` slider (a DeprecationWarning)."""
        warnings.warn("BlendExplorer.white is deprecated: say coffee_dice", DeprecationWarning, stacklevel=2)
        return self.coffee_dice

    def _compute(self) -> _Roll:
        coffee, flavour = self.coffee_dice.value, self.flavour.value
        target = Blend.of(self.size.value, self.colour.value)
        best = vivajava.best_blend(coffee, flavour)
        return _Roll(coffee, flavour, best, target, vivajava.p_beats(target, coffee, flavour), vivajava.p_rainbow(coffee, flavour))

    def _draw(self, fig: go.Figure, roll: _Roll) -> None:
        for trace, rank in zip(fig.data, list(range(1, len(COLOURS) + 1)) + [0]):
            blends = [_segment(size, rank) for size in SIZES]
            probs = [roll.best[b] if b is not None else Fraction(0) for b in blends]
            trace.update(
                y=[float(p) for p in probs],
                customdata=[self._hover(b, p, roll.target) if b is not None else "" for b, p in zip(blends, probs)],
                marker_opacity=[1.0 if b is not None and b > roll.target else FADED for b in blends],
                marker_line_color=[HIGHLIGHT if b == roll.target else EDGE for b in blends],
                marker_line_width=[4 if b == roll.target else 0.5 for b in blends],
            )
        dice = f"{roll.coffee_dice} coffee + {roll.flavour} flavour dice"
        fig.layout.title.text = f"The best blend of {dice}: bright bars beat {roll.target} ({percent(roll.p_beat)})"

    @staticmethod
    def _hover(blend: Blend, p: Fraction, target: Blend) -> str:
        verdict = "beats" if blend > target else "is the picked blend:" if blend == target else "does not beat"
        return f"{blend}: {fraction_text(p)}<br>{verdict} {target}"

    def _show(self, roll: _Roll) -> None:
        self.distribution, self.p_beat, self.p_rainbow = roll.best, roll.p_beat, roll.p_rainbow
        self.result.value = (
            f"Rolling <b>{roll.coffee_dice} coffee + {roll.flavour} flavour dice</b>: P(the best blend beats "
            f"<b>{roll.target}</b>) = <b>{fraction_text(roll.p_beat)}</b> (the bright bars) · "
            f"P(rainbow: five different colours) = <b>{fraction_text(roll.p_rainbow)}</b> · "
            f"P(no blend) = {fraction_text(roll.best[NO_BLEND])}"
        )


class MeterTable:
    """Both solo corporations' exact chance to make a Featured Blend (three alike or better) at each METER number.

    OmniBlend re-rolls all but its best group up to the METER's number of times; a first
    roll of five colours takes the Rainbow instead unless it holds it already, so it has
    two columns. Sacchar rolls that many flavour dice (with 5 on the flavour coaster).
    ``table`` holds the exact Fractions, ``widget`` the HTML table.

    >>> MeterTable().table.loc[1, "p_omniblend_takes_rainbow"]
    Fraction(169, 324)
    """

    COLUMNS = vivajava.METER_COLUMNS
    """The columns and their words: the same as the command line's ``coffeegames vivajava meter``."""

    def __init__(self, levels: range = vivajava.METER_LEVELS, rules: Rules | None = None) -> None:
        rules = Rules() if rules is None else check_instance(rules, Rules, "rules", "VivaJava Rules or None")
        self.table = vivajava.meter_table(levels, rules.sacchar_rainbow, rules.omniblend_rerolls)
        starts = " · ".join(
            f"{CORPORATIONS[c]}: " + ", ".join(f"{d} {m.values[i]}" for d, i in zip(DIFFICULTIES, m.start))
            for c, m in rules.data.meters
        )
        note = "stand-in data" if rules.stand_in_data else "your data"
        self.widget = widgets.HTML(
            table_html(self.shown(), self.COLUMNS)
            + f"<div style='font-size:13px'>OmniBlend re-rolls: {rules.omniblend_rerolls}; Sacchar rolls at most the "
            f"{MAX_FLAVOUR} flavour dice there are, taken from the flavour coaster: the columns assume enough are there. "
            f"The METER starts at ({note}): {starts}.</div>"
        )

    def shown(self) -> pd.DataFrame:
        """The table as text: every chance as its whole fraction beside its percentage (however long); past the
        flavour dice there are, Sacchar's chance is the one at all of them, and says so.

        >>> MeterTable().shown().loc[6, "p_sacchar"]
        'as at 5 (there are only 5 flavour dice): 102701/104976 (97.8%)'
        """
        frame = self.table.reset_index()
        cells = {c: [f"{p} ({percent(p)})" if isinstance(p, Fraction) else p for p in frame[c]] for c in self.COLUMNS if c != "meter"}
        for column in ("p_sacchar", "p_sacchar_block"):
            cells[column] = [f"as at {MAX_FLAVOUR} (there are only {MAX_FLAVOUR} flavour dice): {text}" if m > MAX_FLAVOUR else text
                             for text, m in zip(cells[column], frame["meter"])]
        return frame.assign(**cells).set_index(frame["meter"], drop=False).rename_axis(None)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
