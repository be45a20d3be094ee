"""The whole turn (ice tokens, freezing, ice-cream rerolls) against a recursion over ordered rolls written from the rules."""

from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

import pytest
from conftest import naive_packings

from coffeegames.engine import advice_frame
from coffeegames import dairyman
from coffeegames.dairyman import WholeTurn, optimal_turn, whole_turn_value
from coffeegames.errors import BadArgument, BadType, TooBig

TARGETS = {"reroll_1s": (1,), "reroll_2s": (2,), "reroll_chosen": (1, 2, 3, 4, 5, 6)}


def naive_whole_turn(dice, ice=0, abilities=(), payoff=tuple(range(0, 70, 10)), bust_cost=5, ice_value=1,
                     token_from=3, rescue=True):
    """Optimal value by plain recursion: every ordered roll, every subset of dice (by position) to freeze."""

    def roll_fresh(kept, k, sets, ice, roll_no, abilities):
        total = Fraction(0)
        for new in product(range(1, 7), repeat=k):
            total += after_roll(tuple(sorted(kept + new)), sets, ice, roll_no, abilities)
        return total / 6**k

    @lru_cache(maxsize=None)
    def after_roll(values, sets, ice, roll_no, abilities):
        options = []
        packs = naive_packings(values) - {()}
        for pack in packs:
            rest = list(values)
            for v in (v for s in pack for v in s):
                rest.remove(v)
            options.append(after_lock(tuple(rest), sets + len(pack), ice, roll_no, abilities))
        if packs or rescue:
            for name in set(abilities):
                left = list(abilities)
                left.remove(name)
                for v in TARGETS[name]:
                    if v in values:
                        kept = tuple(x for x in values if x != v)
                        options.append(roll_fresh(kept, values.count(v), sets, ice, roll_no, tuple(sorted(left))))
        if not packs:
            options.append(-bust_cost + ice_value * ice)
        return max(options)

    @lru_cache(maxsize=None)
    def after_lock(values, sets, ice, rolls_made, abilities):
        options = [payoff[sets] + ice_value * ice]
        if values:
            tokens = ice + (1 if rolls_made + 1 >= token_from else 0)
            for n in range(min(tokens, len(values)) + 1):
                for idx in combinations(range(len(values)), n):
                    frozen = tuple(values[i] for i in idx)
                    options.append(roll_fresh(frozen, len(values) - n, sets, tokens - n, rolls_made + 1, abilities))
        return max(options)

    start_tokens = ice + (1 if token_from <= 1 else 0)
    return roll_fresh((), dice, 0, start_tokens, 1, tuple(sorted(abilities))) - ice_value * ice


CASES = [
    # dice, ice, abilities, token_from, ice_value, payoff
    (3, 0, (), 3, 1, None),
    (3, 1, ("reroll_1s",), 3, 1, None),
    (3, 2, ("reroll_chosen",), 1, 0, None),
    (4, 1, (), 2, 1, None),
    (4, 2, (), 1, Fraction(1, 2), None),
    (4, 0, ("reroll_2s", "reroll_chosen"), 3, 1, None),
    (4, 1, ("reroll_1s", "reroll_1s"), 2, 0, (0, 0, 30)),
    (4, 2, ("reroll_chosen",), 2, 2, (0, 10, 10, 40)),
]


@pytest.mark.parametrize("dice, ice, abilities, token_from, ice_value, payoff", CASES)
def test_whole_turn_matches_a_recursion_over_ordered_rolls(dice, ice, abilities, token_from, ice_value, payoff):
    table = dairyman.payoff_table(payoff) if payoff else dairyman.linear_payoff(10)
    turn = WholeTurn(payoff=table, ice_value=ice_value, ice_token_from_roll=token_from)
    expected = naive_whole_turn(dice, ice, abilities, table, 5, ice_value, token_from)
    assert turn.value(dice, ice, abilities) == expected


def test_no_rescue_before_a_bust_when_the_option_is_off():
    on = WholeTurn(ice_token_from_roll=2)
    off = WholeTurn(ice_token_from_roll=2, optional_actions_before_bust=False)
    expected = naive_whole_turn(3, 1, ("reroll_chosen",), token_from=2, rescue=False)
    assert off.value(3, 1, ["reroll_chosen"]) == expected < on.value(3, 1, ["reroll_chosen"])
    assert [c.kind for c in off.after_roll([1, 1, 2], abilities=["reroll_1s"])] == ["bust"]


@pytest.mark.parametrize("n", range(2, 9))
def test_without_ice_or_abilities_it_is_the_plain_turn(n):
    no_tokens = WholeTurn(ice_token_from_roll=99)  # no token is ever taken: nothing to freeze with
    assert no_tokens.value(n) == optimal_turn(n).value
    lumpy = dairyman.display_payoff([10, 40, 40])
    assert WholeTurn(payoff=lumpy, ice_token_from_roll=99).value(n) == optimal_turn(n, payoff=lumpy).value


def test_ice_and_abilities_only_help():
    turn = WholeTurn()
    plain = turn.value(6)
    assert plain >= optimal_turn(6).value
    assert turn.value(6, ice=1) > plain and turn.value(6, abilities=["reroll_1s"]) > plain
    assert turn.value(6, abilities=["reroll_chosen"]) >= turn.value(6, abilities=["reroll_1s"])


def test_choices_name_the_freeze_and_the_reroll():
    turn = WholeTurn()
    choices = turn.after_lock([5, 5, 1], sets_locked=1, ice=1, rolls=2)
    # the next roll is the 3rd, so a token comes first: freeze the unlocked 5+5 with both and lock it next roll
    assert choices[0].label == "roll 1, freeze 5 5" and choices[0].detail == ((5, 5),) and choices[0].value == 20
    assert {c.label for c in choices} == {"stop", "roll 3", "roll 2, freeze 5", "roll 2, freeze 1", "roll 1, freeze 1 5", "roll 1, freeze 5 5"}
    assert all(a.value >= b.value for a, b in zip(choices, choices[1:]))
    one_token = turn.after_lock([5, 5, 1], sets_locked=1, ice=1, rolls=1)   # no token before the 2nd roll
    assert "roll 1, freeze 5 5" not in {c.label for c in one_token}
    rescue = turn.after_roll([1, 1, 2], abilities=["reroll_1s"])
    assert [c.kind for c in rescue] == ["ice cream", "bust"] and rescue[1].value == -5
    both = turn.after_roll([4, 6, 1, 1], abilities=["reroll_chosen"])
    assert {c.kind for c in both} == {"lock", "ice cream"}
    assert max(c.value for c in both) == turn.after_roll([4, 6, 1, 1], abilities=["reroll_chosen"])[0].value


def test_kept_tokens_are_worth_ice_value():
    # with a token worth a lot, stopping with it beats freezing for a small gain
    rich = WholeTurn(ice_value=100, ice_token_from_roll=99).after_lock([5, 5, 1], sets_locked=1, ice=1, rolls=2)
    assert rich[0].label == "stop" and rich[0].value == 10 + 100
    free = WholeTurn(ice_value=0, ice_token_from_roll=99).after_lock([5, 5, 1], sets_locked=1, ice=1, rolls=2)
    assert free[0].label == "stop" and free[0].value == 10  # a kept token is worth nothing here
    assert whole_turn_value(4, ice=2, ice_value=0) == whole_turn_value(4, ice=0, ice_value=0)  # 4 dice: no roll to freeze for


def test_budget_and_bad_arguments():
    with pytest.raises(TooBig, match="max_states"):
        WholeTurn(max_states=50).value(8)
    with pytest.raises(BadArgument, match="abilities"):
        WholeTurn().value(4, abilities=["reroll_3s"])
    with pytest.raises(BadType, match="abilities"):
        WholeTurn().value(4, abilities="reroll_1s")
    with pytest.raises(BadType, match="ice_value"):
        WholeTurn(ice_value=0.5)
    with pytest.raises(BadArgument, match="not both"):
        WholeTurn(10, payoff=[0, 10])


# -- advise at game positions: the whole turn against the engine's own moves ---------------------

from collections import Counter  # noqa: E402
from dataclasses import replace  # noqa: E402

from coffeegames.dairyman import ICE_TOKEN_VALUE, Drawn, Flip, Game, IceCream, Lock, Phase, PlayerState, Rolled, advise, tile_of  # noqa: E402
from coffeegames.dairyman.advice import advice_model  # noqa: E402

DISPLAY = ("10:cheese1", "20:cheese5", "40:cheese6")


def position(game, roll, yellow, display=DISPLAY, **p0):
    """Player 0 has rolled ``roll`` + yellow with this display and hand (supplies conserved)."""
    start = game.new_initial_state().apply(Drawn(display))
    players = (PlayerState(**{k: tuple(sorted(v)) if isinstance(v, list) else v for k, v in p0.items()}),) + (PlayerState(),) * (game.rules.players - 1)
    owned = Counter(c for p in players for c in p.tiles)
    state = replace(start, players=players, deck=(tuple(sorted((Counter(start.deck[0]) - owned).elements())),),
                    ice_supply=start.ice_supply - sum(p.ice for p in players))
    return state.start_turn(0).check().apply(Rolled(tuple(roll), yellow=yellow))


def engine_value(state, player, payoff, cost=5, ice_value=ICE_TOKEN_VALUE, memo=None):
    """Expectimax through the engine's own moves until the turn ends: a stop scores the display's payoff
    (plus ice_value per token held), a bust −cost (plus the same); flips are not explored."""
    memo = {} if memo is None else memo
    if state in memo:
        return memo[state]
    ice = state.players[player].ice
    if state.turn != player or state.phase not in (Phase.LOCK, Phase.CONTINUE, Phase.ROLL, Phase.ORDER):
        value = -cost + ice_value * ice
    elif state.phase == Phase.ORDER:
        value = payoff[state.sets_locked] + ice_value * ice
    elif state.is_chance():
        value = sum(p * engine_value(state.apply(o), player, payoff, cost, ice_value, memo) for o, p in state.chance_outcomes())
    else:
        value = max(engine_value(state.apply(a), player, payoff, cost, ice_value, memo)
                    for a in state.legal_actions() if not isinstance(a, Flip))
    memo[state] = value
    return value


@pytest.mark.parametrize("roll, yellow, lock, hand", [
    ((4, 6, 1, 1, 5, 5, 2), 3, ((4, 6), (5, 5)), {"ice": 1, "ice_cream": ["20:ice1:1s"]}),
    ((4, 6, 1, 2, 5, 5, 2), 2, ((4, 6), (5, 5)), {"ice": 2}),
    ((4, 6, 4, 6, 5, 5, 3), 1, ((4, 6), (4, 6)), {"ice": 0, "ice_cream": ["10:ice2:chosen"]}),
])
def test_advise_matches_expectimax_through_the_engine(roll, yellow, lock, hand):
    state = position(Game(), roll, yellow, **hand).apply(Lock(lock))
    assert state.phase == Phase.CONTINUE
    table = advice_frame(advise(state))
    assert advice_model(state)[1] == "whole turn"
    payoff = dairyman.display_payoff(DISPLAY).points
    held = ICE_TOKEN_VALUE * state.players[0].ice
    memo: dict = {}
    for action, value in zip(table["action"], table["value"]):
        assert value + held == engine_value(state.apply(action), 0, payoff, memo=memo), str(action)
    assert table.loc[table["best"], "value"].iloc[0] == max(table["value"])


def test_advise_at_a_roll_values_every_lock_rescue_and_flip():
    hand = {"ice": 1, "ice_cream": ["20:ice1:1s"], "milk": ["10:cheese3"]}
    state = position(Game(), (1, 1, 2, 2, 6, 6, 6), 3, **hand)
    table = advice_frame(advise(state)).set_index("label")
    assert advice_model(state)[1] == "whole turn" and table["value"].notna().all()
    turn = WholeTurn(payoff=dairyman.display_payoff(DISPLAY))
    lock = Lock(((2, 2, 6),))
    after = state.apply(lock)
    assert table.loc[str(lock), "value"] == turn.value_after_lock(after.unlocked, 1, 1, 1, ["reroll_1s"]) - 1
    flip = Flip("10:cheese3")                                        # the yellow 3 makes cheese: +5, the yellow leaves play
    assert table.loc[str(flip), "value"] == 5 + turn.value_after_roll((1, 1, 2, 2, 6, 6, 6), 0, 1, 1, ["reroll_1s"]) - 1
    rescue = [a for a in table["action"] if isinstance(a, IceCream)]
    assert rescue == [IceCream("reroll_1s", 1)]
    spared = state.apply(rescue[0])                                  # the 1s rerolled, the rest kept
    assert table.loc[str(rescue[0]), "value"] == turn.value_of_roll(spared.unlocked, 2, 0, 1, 1, []) - 1


def test_advise_falls_back_to_the_plain_turn_and_says_so():
    state = position(Game(), (4, 6, 1, 1, 5, 5, 2), 3, ice=1).apply(Lock(((4, 6),)))
    plain = advice_frame(advise(state, max_states=0))
    assert advice_model(state, max_states=0)[1].startswith("plain turn (fallback:")
    turn = optimal_turn(12, payoff=dairyman.display_payoff(DISPLAY))
    assert plain.set_index("label").loc["Roll()", "value"] == turn.roll_value(6, 1)
    assert "plain turn" in plain.set_index("label").loc["Roll()", "how"]
    whole = advice_frame(advise(state))
    assert advice_model(state)[1] == "whole turn"
    assert whole.set_index("label").loc["Stop()", "value"] == plain.set_index("label").loc["Stop()", "value"] == 10


def test_advise_falls_back_when_the_ice_supply_may_run_short():
    short = position(Game(ice_supply=10), (4, 6, 1, 1, 5, 5, 2), 3, ice=9).apply(Lock(((4, 6),)))   # supply 1, 6 dice left
    assert short.ice_supply == 1
    table = advice_frame(advise(short))
    assert "fewer than the rolls left may take" in advice_model(short)[1]
    plenty = position(Game(ice_supply=20), (4, 6, 1, 1, 5, 5, 2), 3, ice=9).apply(Lock(((4, 6),)))
    assert advice_model(plenty)[1] == "whole turn"
