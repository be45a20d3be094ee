"""Every choice at a Dairyman decision, with its exact odds and value.

Each table's values share one scale, and which scale depends on the part of the turn:

* **While dice are rolled and locked** (lock, continue): the exact **whole-turn** model
  of :mod:`.whole_turn`, scored by **the display actually on the table**: a stopped turn
  is worth the milk tiles its sets can buy from the face-up tiles
  (:func:`~.payoff.display_payoff` with the rules' ``set_value``; what a bought tile may
  bring later is not counted), a bust costs the backorder penalty, and the rest of the
  turn is played optimally with the player's ice tokens (freezing), the ice-cream
  abilities still unused this turn and the token taken before the 3rd and later rolls
  (options ``ice_token_from_roll``, ``optional_actions_before_bust``,
  ``ice_cream_once_per_tile``). Values are **net** of the ice held now: points this turn
  plus :data:`~.whole_turn.ICE_TOKEN_VALUE` per token gained (minus per token spent). Every
  choice is valued, freezes, ice-cream rerolls and flips too (a flip by its cheese or
  ice-cream points and what it changes: the yellow die set aside, ice spent, an ability
  gained). Where the whole-turn model needs more than ``max_states`` new positions
  (:data:`ADVICE_STATES`), or the ice supply holds fewer tokens than the rolls left may
  take (each roll locks two dice or more, so at most half the unlocked dice, rounded up;
  the model assumes a token for every roll that takes one), advise **falls back** to the plain turn of :mod:`.turn` (sets and
  busts only; freezes and rerolls valued by their immediate effect; flips not valued) and
  says so. The rows say what they assumed: each row's ``how`` names the tiles each stop
  buys (and the fallback), its ``measures`` the model, and :func:`advice_model` gives the
  :class:`~.payoff.DisplayPayoff` and the model (``"whole turn"`` or
  ``"plain turn (fallback: …)"``). Not counted either way: the cheese the yellow die may
  make later in the turn (all dice are alike in the model). Option
  ``optional_actions_before_bust`` (default on): on a roll with no set the player may try
  an ice-cream reroll or a flip before ``Bust()``, which is valued at minus the penalty;
  with the option off such a roll busts at once: no choice.
* **While ordering** (order phase): the points the rest of the turn adds to the player's
  score, exactly: the tiles bought, plus ``cheese_points`` for a cheese flip. Option
  ``flip_after_order`` (default on): an order is worth its tiles plus the cheese a flip
  right after it can still make (a bought or owned tile showing the unlocked yellow die's
  number); after the order ``EndTurn()`` is worth 0 and a cheese flip ``cheese_points``.
  With the option off an order ends the turn, so a cheese flip must come before it.
  An ice-cream flip is not valued: the ice tokens it spends and the ability it gives
  count only in later turns, which the model does not see.

Discards carry no value.

Example:
    >>> from coffeegames.dairyman import Game, Drawn, Rolled
    >>> s = Game().new_initial_state().apply(Drawn(("10:cheese1", "20:cheese5", "30:cheese3")))
    >>> s = s.apply(Rolled(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5))
    >>> [row.label for row in advise(s) if row.best]
    ['Lock(4+6, 4+6, 2+3+5; yellow)']
    >>> s = s.apply(Lock(sets=((4, 6), (1, 3, 6)))).apply(Stop())   # the yellow 5 is still unlocked
    >>> [(row.label, row.value) for row in advise(s)]                  # 20:cheese5 then flips: 20 + 5
    [('Order(20:cheese5)', Fraction(25, 1)), ('Order(10:cheese1)', Fraction(10, 1)), ('Order()', Fraction(0, 1))]
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from ..engine.advice import Advice, ranked
from ..errors import BadArgument, TooBig
from ..validate import Checker, cached, check_count, check_instance
from .actions import Bust, EndTurn, Flip, IceCream, Lock, Order, Phase, Roll, Stop
from .odds import p_bust, reroll_p_bust
from .payoff import DisplayPayoff, Payoff, display_payoff
from .rules import tile_of
from .state import State
from .turn import TurnSolution, optimal_turn
from .whole_turn import WholeTurn

__all__ = ["ADVICE_STATES", "WHOLE_TURN", "abilities_left", "advice_model", "advise", "in_turn_value", "turn_model",
           "whole_turn_model"]

ADVICE_STATES = 20_000
"""New whole-turn positions one advice table may solve before it falls back to the plain turn
(about half a second on one core; positions solved before are kept and free)."""

WHOLE_TURN = "whole turn"
"""The model of :func:`advise`'s values while dice are rolled, unless it falls back to the plain turn."""
MEASURES = {WHOLE_TURN: "expected points this turn, net of the ice held (the whole-turn model)",
            "plain": "expected points this turn (the plain turn: sets and busts only)",
            "order": "the points the rest of the turn adds to your score"}


@cached(maxsize=None)
def turn_model(set_value: int, bust_cost: int, payoff: Payoff | None = None) -> TurnSolution:
    """The exact turn solution for these scores (shared: values depend only on dice left and sets).

    ``payoff`` (points for 0..6 sets) replaces ``set_value`` per set when given."""
    check = Checker("", BadArgument)
    check.whole(set_value, "set_value", None)
    check.whole(bust_cost, "bust_cost", None)
    if payoff is None:
        return optimal_turn(dice=12, points_per_set=set_value, bust_cost=bust_cost)
    return optimal_turn(dice=12, bust_cost=bust_cost, payoff=payoff)


@cached(maxsize=4)
def whole_turn_model(payoff: Payoff, bust_cost: int, ice_token_from_roll: int, optional_actions_before_bust: bool) -> WholeTurn:
    """The shared whole-turn solver for these scores and rules (its memo serves every position of a turn)."""
    return WholeTurn(payoff=payoff, bust_cost=bust_cost, ice_token_from_roll=ice_token_from_roll,
                     optional_actions_before_bust=optional_actions_before_bust)


def abilities_left(state: State) -> list[str]:
    """The ice-cream abilities the player to move may still use this turn (option ``ice_cream_once_per_tile``)."""
    check_instance(state, State, "state", "a Dairyman state")
    owned = Counter(str(tile_of(c).ice_cream) for c in state.players[state.turn].ice_cream)
    used = Counter(state.abilities_used)
    if not state.rules.ice_cream_once_per_tile:
        return [a for a in owned if not used[a]]
    return [a for a in sorted(owned) for _ in range(owned[a] - used[a])]


def in_turn_value(model: WholeTurn, s: State, player: int) -> Fraction:
    """The whole-turn value of a position of ``player``'s turn (tokens held at the end counted, not net)."""
    check_instance(model, WholeTurn, "model", "a whole-turn model (whole_turn_model(...))")
    check_instance(s, State, "s", "a Dairyman state")
    check_count(player, "player", maximum=len(s.players) - 1)
    ice = s.players[player].ice
    if s.turn != player or s.phase not in (Phase.LOCK, Phase.CONTINUE, Phase.ROLL, Phase.ORDER):
        return -model.bust_cost + model.ice_value * ice  # the turn ended: a bust
    args = (s.sets_locked, ice, s.roll, abilities_left(s))
    if s.phase == Phase.ORDER:
        return model.payoff[s.sets_locked] + model.ice_value * ice
    if s.phase == Phase.CONTINUE:
        return model.value_after_lock(s.unlocked, *args)
    if s.phase == Phase.LOCK:
        return model.value_after_roll(s.unlocked, *args)
    return model.value_of_roll(s.unlocked, s.rolling + s.rolls_yellow, *args)


def _whole_turn_rows(state: State, pay: DisplayPayoff, max_states: int) -> list[Advice]:
    """Every choice valued by the whole-turn model (raises TooBig past the budget)."""
    rules, player = state.rules, state.turn
    model = whole_turn_model(pay.points, rules.backorder_penalty, rules.ice_token_from_roll, rules.optional_actions_before_bust)
    held = model.ice_value * state.players[player].ice
    rows = []
    with model.budget(max_states):
        for action in state.legal_actions():
            after = state.apply(action)
            value = in_turn_value(model, after, player) - held
            if isinstance(action, Flip):
                tile = tile_of(action.tile)
                value += rules.cheese_points if tile.cheese is not None else rules.ice_cream_points
            then, how, risk = "", "", None
            if isinstance(action, Lock):
                best = model.after_lock(after.unlocked, after.sets_locked, after.players[player].ice, after.roll, abilities_left(after))[0]
                then = "stop" if best.kind == "stop" else "roll"
                how = f"then stop: {_buys(pay, after.sets_locked)}" if then == "stop" else f"then {best.label}"
                risk = p_bust(after.dice_left)
            elif isinstance(action, Stop):
                how = _buys(pay, state.sets_locked)
            elif isinstance(action, Bust):
                how = "a bust takes a backorder token"
            elif isinstance(action, Roll):
                risk = p_bust(after.rolling + after.rolls_yellow, after.unlocked)
            elif isinstance(action, IceCream):
                risk = reroll_p_bust(state.unlocked, action.value)
            rows.append(_row(action, WHOLE_TURN, value, risk, then, how))
    return rows


def _row(action: object, model: str, value: Fraction | None = None, p_bust_next: Fraction | None = None, then: str = "",
         how: str = "") -> Advice:
    return Advice(action, str(action), value, measures=MEASURES[model] if value is not None else "", then=then, how=how,
                  risk=p_bust_next)


def _buys(pay: DisplayPayoff, sets: int, would: bool = False) -> str:
    """What stopping with ``sets`` sets buys from the display, in words."""
    tiles = " + ".join(pay.bought(sets))
    verb = ("would buy" if would else "buy") if sets != 1 else ("would buy" if would else "buys")
    return f"{sets} set{'s' * (sets != 1)} {verb} {tiles or 'nothing'} from the display" + (f" ({pay.points[sets]})" if tiles else "")


def _order_value(state: State, order: Order) -> Fraction:
    """The tiles bought, plus the cheese a flip right after the order can make (option ``flip_after_order``)."""
    value = Fraction(sum(tile_of(c).value for c in order.tiles))
    die = state.cheese_die
    milk = state.players[state.turn].milk + order.tiles
    if state.rules.flip_after_order and die and any(tile_of(c).cheese == die for c in milk):
        value += state.rules.cheese_points
    return value


def _ordering_value(state: State) -> Fraction:
    """What the rest of the turn adds to the score from an order-phase position under best play (0 once it is over)."""
    if state.phase != Phase.ORDER:
        return Fraction(0)
    values = [v for v in (_choice_value(state, a) for a in state.legal_actions()) if v is not None]
    return max(values, default=Fraction(0))


def _choice_value(state: State, action: object) -> Fraction | None:
    """An order-phase choice's exact value (None: an ice-cream flip, which the model cannot value)."""
    if isinstance(action, Order):
        return _order_value(state, action)
    if isinstance(action, EndTurn):
        return Fraction(0)
    if isinstance(action, Flip) and tile_of(action.tile).cheese is not None:
        return state.rules.cheese_points + _ordering_value(state.apply(action))
    return None


_TABLES: dict[tuple[State, int], tuple[tuple[Advice, ...], DisplayPayoff, str]] = {}
_KEEP_TABLES = 32


def advise(state: State, max_states: int = ADVICE_STATES) -> list[Advice]:
    """One row per legal action, best first: its exact value (scale: see the module; None where the model cannot value
    it), ``risk`` the bust chance of the roll it leads to, ``then`` ("roll"/"stop" after a lock), ``how`` (what a stop
    buys from the display, the freeze after a lock, a fallback), ``measures`` the model. ``max_states``: the whole-turn
    model's budget (0 asks for the plain turn).

    The same rows each time a position is asked again: the last few answers are remembered (the whole-turn model
    keeps the positions it solved, so a position that fell back to the plain turn might fit the budget when asked
    again; remembering the answer keeps the advice, and :func:`~.explain.explain` taking its values apart, on one
    model).
    """
    return list(_advised(state, max_states)[0])


def advice_model(state: State, max_states: int = ADVICE_STATES) -> tuple[DisplayPayoff, str]:
    """The display's payoff and the model (:data:`WHOLE_TURN`, or ``"plain turn (fallback: …)"``) of
    :func:`advise`'s values at ``state``."""
    _, pay, model = _advised(state, max_states)
    return pay, model


def _advised(state: State, max_states: int) -> tuple[tuple[Advice, ...], DisplayPayoff, str]:
    check_instance(state, State, "state", "a Dairyman state")
    key = (state, check_count(max_states, "max_states"))
    if key not in _TABLES:
        if len(_TABLES) >= _KEEP_TABLES:
            del _TABLES[next(iter(_TABLES))]
        _TABLES[key] = _advice(state, max_states)
    return _TABLES[key]


def _advice(state: State, max_states: int) -> tuple[tuple[Advice, ...], DisplayPayoff, str]:
    pay = display_payoff(state.display, state.rules.set_value)
    rows: list[Advice] = []
    model, fallback = WHOLE_TURN, ""
    if state.phase in (Phase.LOCK, Phase.CONTINUE) and state.legal_actions():
        if max_states == 0:
            fallback = "asked for with max_states=0"
        elif state.ice_supply < -(-len(state.unlocked) // 2):
            fallback = (f"the ice supply holds {state.ice_supply} token{'s' * (state.ice_supply != 1)}, fewer than the rolls left "
                        "may take (the whole-turn model assumes a token for every roll that takes one)")
        else:
            try:
                rows = _whole_turn_rows(state, pay, max_states)
            except TooBig:
                fallback = f"the whole turn needs more than {max_states:,} new positions here"
    if fallback:
        model = f"plain turn (fallback: {fallback})"
    if not rows:
        rows = _plain_rows(state, pay, fallback)
    return tuple(ranked(rows)), pay, model


def _plain_rows(state: State, pay: DisplayPayoff, fallback: str) -> list[Advice]:
    """The order phase's exact values, or the plain turn's (:mod:`.turn`) while dice are rolled."""
    turn = turn_model(state.rules.set_value, state.rules.backorder_penalty, pay.points)
    dice, sets = state.dice_left, state.sets_locked
    note = f"plain turn: {fallback}" if fallback else ""
    rows: list[Advice] = []
    for action in state.legal_actions():
        if state.phase == Phase.ORDER:
            rows.append(_row(action, "order", _choice_value(state, action)))
        elif isinstance(action, Lock):
            d, s = dice - sum(map(len, action.sets)), sets + len(action.sets)
            then = "roll" if turn.should_roll(d, s) else "stop"
            how = f"then stop: {_buys(pay, s)}" if then == "stop" else f"then roll on (stopping, {_buys(pay, s, would=True)})"
            rows.append(_row(action, "plain", turn.best_value(d, s), p_bust(d), then, f"{how}; {note}" if note else how))
        elif isinstance(action, Bust):
            rows.append(_row(action, "plain", -turn.bust_cost, how="a bust takes a backorder token"))
        elif isinstance(action, Stop):
            rows.append(_row(action, "plain", turn.stop_value(dice, sets), how=_buys(pay, sets)))
        elif isinstance(action, Roll):
            kept = action.freeze + ((state.yellow,) if action.freeze_yellow else ())
            rows.append(_row(action, "plain", turn.roll_value_kept(dice, sets, kept), p_bust(dice - len(kept), kept), how=note))
        elif isinstance(action, IceCream):
            kept = tuple(v for v in state.unlocked if v != action.value)
            rows.append(_row(action, "plain", turn.roll_value_kept(dice, sets, kept), reroll_p_bust(state.unlocked, action.value),
                             how=note))
        else:
            rows.append(_row(action, "plain", how=note))
    return rows
