"""Notebook widgets: ipywidgets controls wired to plotly figures, one module per game.

Import explicitly (plotly and ipywidgets load only when you do):

>>> from coffeegames.widgets import BustChanceExplorer
>>> BustChanceExplorer(dice=2).p_bust
Fraction(11, 12)
"""

from .charts import View, fraction_text, mean_text, percent, table_html
from .dairyman_game import PolicyExplorer, dairyman_board, dairyman_walkthrough, parse_roll
from .dairyman_odds import BustChanceExplorer, MostLockedExplorer, RollAdvisor, SimulationCheck, parse_dice
from .decision import DecisionView, exact_text, solver_advice
from .roaster_game import roaster_board, roaster_walkthrough
from .roaster_odds import BagExplorer
from .vivajava_game import vivajava_board, vivajava_walkthrough
from .vivajava_odds import BlendExplorer, MeterTable

__all__ = [
    "BagExplorer",
    "roaster_board",
    "roaster_walkthrough",
    "BlendExplorer",
    "MeterTable",
    "vivajava_board",
    "vivajava_walkthrough",
    "DecisionView",
    "PolicyExplorer",
    "View",
    "dairyman_board",
    "dairyman_walkthrough",
    "exact_text",
    "parse_roll",
    "solver_advice",
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
