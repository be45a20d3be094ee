"""How a game shows itself in a :class:`~coffeegames.widgets.DecisionView`: its advice, board and words.

An :class:`Adapter` is everything game-specific about the view that is not game control
(that is the :class:`~coffeegames.engine.Session`'s): the ``advise`` function that values
the choices, the ``board`` drawing, the hint in the outcome box, the words for chance
moves and for values, the words for the risk its advice rows carry, and whether the game
is solo (no "Bots play" button).

Example (a tiny game valued by exact expectimax, with the default words):
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> from coffeegames.engine.advice import solver_advice
    >>> adapter = Adapter(advise=solver_advice())
    >>> adapter.chance_button, adapter.risk_name
    ('Let chance roll', 'risk')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic


from ..engine.advice import Advice
from ..engine.explain import Explainer
from ..engine.session import S
from ..games import game

if TYPE_CHECKING:  # plotly's trace classes load on first drawing, not on import (30 ms)
    from plotly.basedatatypes import BaseTraceType

__all__ = ["Adapter", "Advisor", "Board", "BoardDrawer", "game_adapter"]

Board = tuple[Sequence["BaseTraceType"], Mapping[str, Any]]
"""What a board function returns: plotly traces and a layout dict."""
BoardDrawer = Callable[[S], Board]
"""``board(state) -> (traces, layout)``: the position drawn with plotly."""
Advisor = Callable[[S], list[Advice]]
"""``advise(state) -> list[Advice]``: every legal action with its value, best first (:mod:`coffeegames.engine.advice`)."""


@dataclass(frozen=True)
class Adapter(Generic[S]):
    """What a :class:`~coffeegames.widgets.DecisionView` needs to know about a game to show it.

    Attributes:
        advise: ``advise(state) -> list[Advice]``, one :class:`~coffeegames.engine.Advice` row per legal action
            (its value exact, or an estimate with its sample, or None; its risk, ``then`` and ``how``). The view
            advises each decision once (remembered), for the list and the "why" panel. Without it only the
            actions are listed.
        board: ``board(state) -> (traces, layout)`` drawing the position; without it the state's text is shown.
        outcome_hint: ``outcome_hint(state) -> str``, the placeholder of the outcome box.
        describe: ``describe(action) -> str``, an action (or outcome) as a player reads it, for the list, the chart,
            the summary, the "why" panel and the moves so far (a game package's ``describe``); None: ``str(action)``.
        game_over: ``game_over(state) -> str``, the status at the end in the game's own terms (the final PP or points
            and who won, as the board shows them); None: the players' returns.
        outcome_example: ``outcome_example(state) -> str | None``, an outcome typed as the hint's example says, that
            the session's parser accepts at this chance node (None where nothing is typed); the hint shows it, and a
            test enters it at every chance node of every game's walkthrough.
        explain: ``explain(state, action) -> Breakdown``, the chosen action's value taken apart for the "why this
            value?" panel (:mod:`coffeegames.engine.explain`; a game package's ``explain``). Without it the panel is
            built from ``advise`` alone (:func:`~coffeegames.engine.explain.advice_explainer`).
        value_name: what the values measure (the chart's axis, the summary).
        chance_button: the button that lets chance move (``"Let chance roll"``, ``"Draw"``).
        outcome_label: the outcome box's label (``"you rolled"``, ``"you drew"``).
        outcome_button: the button that enters it (``"Enter the dice you rolled"``).
        chance_words: ``chance_words(state) -> str``, the chance button's words where they differ from one chance node
            to another (Dairyman deals tiles before it rolls dice); None: always ``chance_button``.
        outcome_words: ``outcome_words(state) -> (label, button)`` where the words differ from one chance
            node to another (a Dairyman tile draw between rolls); None: always the two above.
        deal_note: ``deal_note(state) -> str | None``: at a chance node no player has to type (a deal, such as
            Dairyman's tile draws), a one-line explanation of what chance does there. The view shows it and hides the
            outcome box behind the ``deal_toggle`` checkbox (ticked from the start when no bots play, as in companion
            mode at a real table), so a learner is never asked to type a deal. None (or a None answer): the box shows.
        deal_toggle: the words of that checkbox (``"type the tiles on your table"``).
        risk_name: what the advice rows' ``risk`` (a chance) is, for the hover text and the table.
        risk_short: a word or two for the bar labels and the list (``"bust next 8.3%"``).
        risk_summary: the best choice's risk in words, ``{}`` standing for the exact chance.
        solo: one person plays and no bots: the "Bots play" button is not shown.
        exact_toggle: the words of a checkbox asking for every value exact, with no budget (``advise`` and
            ``explain`` then get ``exact=True``, and without an ``explain`` the panel is built from that advice:
            slower, seconds a decision); None: no such checkbox.
    """

    advise: Advisor[S] | None = None
    board: BoardDrawer[S] | None = None
    outcome_hint: Callable[[S], str] | None = None
    outcome_example: Callable[[S], str | None] | None = None
    game_over: Callable[[S], str] | None = None
    describe: Callable[[Any], str] | None = None
    explain: Explainer | None = None
    value_name: str = "expected value"
    chance_button: str = "Let chance roll"
    outcome_label: str = "outcome"
    outcome_button: str = "Enter the outcome"
    outcome_words: Callable[[S], tuple[str, str]] | None = None
    chance_words: Callable[[S], str] | None = None
    deal_note: Callable[[S], str | None] | None = None
    deal_toggle: str = "type the outcome at a real table"
    risk_name: str = "risk"
    risk_short: str = "risk"
    risk_summary: str = "its risk: {}"
    solo: bool = False
    exact_toggle: str | None = None

    def chance_at(self, state: S) -> str:
        """The chance button's words at this chance node."""
        return self.chance_words(state) if self.chance_words is not None else self.chance_button

    def note_at(self, state: S) -> str | None:
        """The deal note at this chance node (None: not a deal, the outcome box shows as usual)."""
        return self.deal_note(state) if self.deal_note is not None and state.is_chance() else None

    def words_at(self, state: S) -> tuple[str, str]:
        """The outcome box's label and button at this chance node."""
        return self.outcome_words(state) if self.outcome_words is not None else (self.outcome_label, self.outcome_button)


def game_adapter(name: str, **fields: Any) -> Adapter[Any]:
    """The :class:`Adapter` of the registry's game ``name`` built from what its package gives every game
    (``advise``, ``explain``, ``describe``, the typed outcomes' ``outcome_hint`` and ``outcome_example``, and the
    registry's ``solo``), with ``fields`` (the board, the words; or a game's own ``advise``) over them.

    >>> adapter = game_adapter("roaster", value_name="expected cup score")
    >>> adapter.solo, adapter.value_name, adapter.outcome_hint.__module__
    (True, 'expected cup score', 'coffeegames.roaster.typed')
    """
    info = game(name)
    package = info.module
    shared = {"advise": package.advise, "explain": package.explain, "describe": package.describe,
              "outcome_hint": package.outcome_hint, "outcome_example": package.outcome_example, "solo": info.solo}
    return Adapter(**{**shared, **fields})
