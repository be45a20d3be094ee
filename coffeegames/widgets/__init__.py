"""Notebook widgets: ipywidgets controls drawing plotly plots, one module per game.

Import explicitly (plotly and ipywidgets load only when you do). Each name loads its own module on first use
(:mod:`coffeegames.lazy`), so a Dairyman notebook does not load the other four games' views:

>>> from coffeegames.widgets import BustChanceExplorer
>>> BustChanceExplorer(dice=2).p_bust
Fraction(11, 12)

A game's decision walkthrough is a :class:`DecisionView` of a
:class:`~coffeegames.engine.Session` (the game control) through the game's :class:`Adapter`
(its advice, board and words): :func:`dairyman_walkthrough`, :func:`vivajava_walkthrough`,
:func:`roaster_walkthrough`, :func:`gizmos_walkthrough`, :func:`rush_walkthrough` build one each,
through the one factory that checks who plays and the seed (:mod:`.factory`).
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .adapter import Adapter
    from .charts import StaticPlot, View, fraction_text, mean_text, percent, table_html
    from .dairyman_game import dairyman_adapter, dairyman_board, dairyman_walkthrough, parse_roll
    from .dairyman_odds import BustChanceExplorer, MostLockedExplorer, RollAdvisor, SimulationCheck, parse_dice
    from .dairyman_policy import PolicyExplorer
    from .decision import DecisionView, exact_text, solver_advice
    from .explore import Explorer, explore_view
    from .gizmos_game import gizmos_adapter, gizmos_board, gizmos_walkthrough
    from .gizmos_odds import DispenserExplorer
    from .roaster_game import ROASTER, roaster_board, roaster_walkthrough
    from .roaster_odds import BagExplorer
    from .rush_game import rush_adapter, rush_board, rush_walkthrough
    from .rush_odds import DeckExplorer, parse_orders
    from .vivajava_game import vivajava_adapter, vivajava_board, vivajava_walkthrough
    from .vivajava_odds import BlendExplorer, MeterTable
else:
    from ..lazy import lazy_exports

    __getattr__, __dir__, __all__ = lazy_exports(__name__)

