"""Notebook widgets: ipywidgets controls wired to plotly figures, one module per game.

Import explicitly (plotly and ipywidgets load only when you do):

>>> from coffeegames.widgets import BustChanceExplorer
>>> BustChanceExplorer(dice=2).p_bust
Fraction(11, 12)
"""

from .charts import fraction_text, mean_text, percent, table_html
from .dairyman_odds import BustChanceExplorer, MostLockedExplorer, RollAdvisor, SimulationCheck, parse_dice

__all__ = [
    "BustChanceExplorer",
    "MostLockedExplorer",
    "RollAdvisor",
    "SimulationCheck",
    "fraction_text",
    "mean_text",
    "parse_dice",
    "percent",
    "table_html",
]
