"""The two readings of "when the optional actions may happen" (docs/rules/dairyman.md): options
``flip_after_order`` and ``optional_actions_before_bust``, in the engine and in ``advise``.

Expected numbers are worked out by hand in the comments, or found by a brute-force search
through the engine's own moves (not by the library's calculators).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from coffeegames.engine import advice_frame
from coffeegames.dairyman import (
    Bust,
    Drawn,
    EndTurn,
    Flip,
    Game,
    IceCream,
    Lock,
    Order,
    Phase,
    PlayerState,
    Rolled,
    State,
    Stop,
    advise,
    greedy_policy,
    tile_of,
)
from coffeegames.engine import Walkthrough


def position(game: Game, display=("10:cheese1", "20:cheese5", "40:cheese6"), **hands: dict) -> State:
    """Player 0 about to roll with this display and hands (``p0={"milk": [...], "ice": 2}``); supplies stay conserved."""
    start = game.new_initial_state().apply(Drawn(display))
    players = tuple(PlayerState(**{k: tuple(sorted(v)) if isinstance(v, (list, tuple)) else v
                                   for k, v in hands.get(f"p{i}", {}).items()}) for i in range(game.rules.players))
    owned = Counter(c for p in players for c in p.tiles)
    state = replace(
        start,
        players=players,
        deck=(tuple(sorted((Counter(start.deck[0]) - owned).elements())),),
        ice_supply=start.ice_supply - sum(p.ice for p in players),
        backorder_supply=start.backorder_supply - sum(p.backorders for p in players),
    )
    return state.start_turn(0).check()


def ordering(game: Game, yellow: int = 5, **hands: dict) -> State:
    """Player 0 ordering with 20 in the barns (4+6, 1+3+6 locked) and the yellow die unlocked showing ``yellow``."""
    state = position(game, **hands).apply(Rolled((4, 6, 1, 3, 6, 2, 2), yellow=yellow))
    return state.apply(Lock(((4, 6), (1, 3, 6)))).apply(Stop())


# -- flip_after_order -----------------------------------------------------------------------


def test_a_tile_bought_this_turn_flips_with_the_unlocked_yellow_die():
    state = ordering(Game())
    assert state.phase == Phase.ORDER and state.yellow == 5 and state.yellow_at == "unlocked"
    ordered = state.apply(Order(("20:cheese5",)))
    assert ordered.phase == Phase.ORDER and ordered.ordered and ordered.turn == 0
    assert ordered.legal_actions() == [Flip("20:cheese5"), EndTurn()]
    flipped = ordered.apply(Flip("20:cheese5"))  # nothing left to do: the turn ends by itself
    assert flipped.players[0].cheese == ("20:cheese5",) and flipped.players[0].milk == ()
    assert flipped.score(0) == 20 + 5  # the tile's value + cheese (by hand)
    assert flipped.phase == Phase.DRAW and flipped.turn == 1 and not flipped.ordered and flipped.dice == ()
    ended = ordered.apply(EndTurn())
    assert ended.players[0].milk == ("20:cheese5",) and ended.score(0) == 20
    assert ended.phase == Phase.DRAW and ended.turn == 1 and ended.display == ("10:cheese1", "40:cheese6")


def test_without_the_option_ordering_ends_the_turn():
    state = ordering(Game(flip_after_order=False))
    after = state.apply(Order(("20:cheese5",)))
    assert after.phase == Phase.DRAW and after.turn == 1 and not after.ordered
    assert after.players[0].milk == ("20:cheese5",) and after.score(0) == 20
    # a flip is still open before the order
    owned = ordering(Game(flip_after_order=False), p0={"milk": ["30:cheese5"]})
    assert Flip("30:cheese5") in owned.legal_actions()


def test_with_no_flip_open_the_order_ends_the_turn_at_once():
    # the yellow 5 makes no cheese for 10:cheese1, and the player has no ice: nothing to wait for
    for flag in (True, False):
        after = ordering(Game(flip_after_order=flag)).apply(Order(("10:cheese1",)))
        assert after.phase == Phase.DRAW and after.turn == 1 and not after.ordered


def test_ice_cream_flip_after_the_order_and_the_locked_yellow_die():
    game = Game()
    state = position(game, display=("10:cheese1", "20:ice2:2s", "40:cheese6"), p0={"ice": 2})
    # the yellow 6 is locked in 4+6: it cannot make cheese; the bought ice-cream tile flips for 2 ice
    state = state.apply(Rolled((4, 1, 3, 6, 2, 2, 5), yellow=6)).apply(Lock(((4, 6), (1, 3, 6)), yellow=True)).apply(Stop())
    ordered = state.apply(Order(("20:ice2:2s",)))
    assert ordered.legal_actions() == [Flip("20:ice2:2s"), EndTurn()]
    flipped = ordered.apply(Flip("20:ice2:2s"))
    assert flipped.players[0].ice_cream == ("20:ice2:2s",) and flipped.players[0].ice == 0
    assert flipped.ice_supply == 20 and flipped.turn == 1
    # a locked yellow die offers no cheese after the order (cheese_from_locked_yellow=False): the turn just ends
    after = state.apply(Order(("10:cheese1",)))
    assert after.turn == 1 and after.players[0].milk == ("10:cheese1",)


def test_one_cheese_per_turn_also_after_the_order():
    state = ordering(Game(), p0={"milk": ["30:cheese5"]})
    state = state.apply(Flip("30:cheese5"))  # cheese before ordering: the yellow die is set aside
    assert state.yellow_at == "aside"
    after = state.apply(Order(("20:cheese5",)))
    assert after.turn == 1 and after.players[0].milk == ("20:cheese5",)


def test_greedy_bot_flips_after_ordering():
    state = ordering(Game())
    step = state.apply(greedy_policy(state))
    assert step.ordered or step.turn == 1
    while step.turn == 0:
        step = step.apply(greedy_policy(step))
    assert step.players[0].cheese  # it bought 20:cheese5 (the most value) and flipped it


# -- optional_actions_before_bust -------------------------------------------------------------


def test_a_roll_with_no_set_waits_for_the_optional_actions_or_busts_at_once():
    # 1s and 2s: no 2 or 3 of them reach 10 (at most 2+2+2 = 6), so the roll has no set
    roll = Rolled((1, 1, 1, 1, 2, 2, 2), yellow=2)
    hand = {"milk": ["20:cheese2"], "ice_cream": ["20:ice1:1s"]}
    waiting = position(Game(), p0=hand).apply(roll)
    assert waiting.phase == Phase.LOCK and waiting.busted
    assert waiting.legal_actions() == [IceCream("reroll_1s", 1), Flip("20:cheese2"), Bust()]
    at_once = position(Game(optional_actions_before_bust=False), p0=hand).apply(roll)
    assert at_once.turn == 1 and at_once.players[0].backorders == 1 and at_once.players[0].milk == ("20:cheese2",)
    # the flip first, then the bust: 20 + 20 + 5 - 5 against 20 + 20 - 5 (by hand)
    flipped = waiting.apply(Flip("20:cheese2"))
    assert flipped.legal_actions() == [IceCream("reroll_1s", 1), Bust()]
    assert flipped.apply(Bust()).score(0) == 40 and at_once.score(0) == 35


def test_a_reroll_that_finds_no_set_leaves_the_second_ability_only_with_the_option():
    # 1+4+5 is the only set; rerolling the 1 into a 2 leaves 2 2 2 2 2 4 5: no two or three of them make 10
    hand = {"ice_cream": ["20:ice1:1s", "10:ice2:chosen"]}
    for flag in (True, False):
        state = position(Game(optional_actions_before_bust=flag), p0=hand).apply(Rolled((1, 4, 5, 2, 2, 2, 2), yellow=2))
        assert state.phase == Phase.LOCK and IceCream("reroll_1s", 1) in state.legal_actions()
        after = state.apply(IceCream("reroll_1s", 1)).apply(Rolled((2,), None))
        if flag:
            assert after.busted and after.legal_actions() == [IceCream("reroll_chosen", v) for v in (2, 4, 5)] + [Bust()]
        else:
            assert after.turn == 1 and after.players[0].backorders == 1


def test_a_saved_busted_roll_loaded_without_the_option_can_only_bust():
    hand = {"ice_cream": ["20:ice1:1s"]}
    waiting = position(Game(), p0=hand).apply(Rolled((1, 1, 1, 1, 2, 2, 2), yellow=2))
    strict = Game(optional_actions_before_bust=False).state_from_json(waiting.to_json())
    assert strict.legal_actions() == [Bust()]


# -- advise ---------------------------------------------------------------------------------------


def test_advise_values_an_order_with_the_cheese_it_can_still_make():
    # barn 20, yellow 5 unlocked: 20:cheese5 then flips (20 + 5); without the option the order ends the turn
    for flag, values in ((True, [0, 10, 25]), (False, [0, 10, 20])):
        table = advice_frame(advise(ordering(Game(flip_after_order=flag))))
        assert table["label"].tolist() == ["Order(20:cheese5)", "Order(10:cheese1)", "Order()"]  # best first
        assert table["value"].tolist() == values[::-1] and table.loc[table.best, "label"].tolist() == ["Order(20:cheese5)"]
    ordered = advice_frame(advise(ordering(Game()).apply(Order(("20:cheese5",)))))
    assert ordered[["label", "value"]].values.tolist() == [["Flip(20:cheese5 → cheese)", 5], ["EndTurn()", 0]]


def test_advise_values_an_owned_cheese_before_or_after_the_order_alike():
    # an owned 30:cheese3 with the yellow 3 unlocked: +5 whenever it is flipped in this turn
    table = advice_frame(advise(ordering(Game(cheese_points=7), yellow=3, p0={"milk": ["30:cheese3"]})))
    values = dict(zip(table["label"], table["value"]))
    assert values == {"Order()": 7, "Order(10:cheese1)": 17, "Order(20:cheese5)": 27, "Flip(30:cheese3 → cheese)": 27}
    strict = advice_frame(advise(ordering(Game(cheese_points=7, flip_after_order=False), yellow=3, p0={"milk": ["30:cheese3"]})))
    assert dict(zip(strict["label"], strict["value"]))["Flip(30:cheese3 → cheese)"] == 27
    assert strict.loc[strict.best, "label"].tolist() == ["Flip(30:cheese3 → cheese)"]  # flip first, or lose it


def test_advise_does_not_value_an_ice_cream_flip():
    state = position(Game(), display=("10:cheese1", "20:ice2:2s", "40:cheese6"), p0={"ice": 2})
    state = state.apply(Rolled((4, 1, 3, 6, 2, 2, 5), yellow=6)).apply(Lock(((4, 6), (1, 3, 6)), yellow=True)).apply(Stop())
    table = advice_frame(advise(state.apply(Order(("20:ice2:2s",)))))
    assert table[["label", "value", "best"]].values.tolist() == [["EndTurn()", 0, True], ["Flip(20:ice2:2s → ice cream)", None, False]]


def _best_gain(state: State, player: int) -> Fraction:
    """Brute force: the most ``player``'s score can rise by the end of this turn, over every sequence of moves."""
    if state.phase != Phase.ORDER:
        return Fraction(0)
    return max(_gain(state, a, player) for a in state.legal_actions())


def _gain(state: State, action: object, player: int) -> Fraction:
    after = state.apply(action)
    return after.score(player) - state.score(player) + _best_gain(after, player)


@pytest.mark.parametrize("options", [{}, {"flip_after_order": False}, {"cheese_points": 7, "players": 3}])
def test_advise_in_the_order_phase_matches_a_brute_force_search(options):
    """Every order-phase position of seeded greedy games: advise's value = the best score gain over all move sequences."""
    game = Game(**options)
    checked = 0
    for seed in range(3):
        walk = Walkthrough(game.new_initial_state(), seed=seed).run(greedy_policy)
        for state in walk.states:
            if state.phase != Phase.ORDER:
                continue
            table = advice_frame(advise(state))
            for action, value in zip(table["action"], table["value"]):
                if isinstance(action, Flip) and tile_of(action.tile).cheese is None:
                    assert value is None  # ice tokens and abilities are not valued
                else:
                    assert value == _gain(state, action, state.turn), (str(state), str(action))
                    checked += 1
    assert checked > 50
