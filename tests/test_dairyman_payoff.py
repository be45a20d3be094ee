"""What a stopped turn buys from the display, and the turn solved under payoff tables.

Independent checks: the tiles a barn buys by a recursive knapsack written from the rules
(not from ``display_payoff``), and the optimal turn under a payoff table by a plain
recursion over *ordered* rolls (every sequence of faces, locks found by choosing dice by
position) on small cases.
"""

from fractions import Fraction
from functools import lru_cache
from itertools import product

import pytest
from conftest import naive_packings

from coffeegames.engine import advice_frame
from coffeegames import dairyman
from coffeegames.dairyman.advice import advice_model
from coffeegames.dairyman import Drawn, Game, Lock, Rolled, Stop, advise, display_payoff, optimal_turn, payoff_table
from coffeegames.errors import BadArgument, BadType


def knapsack(costs, budget):
    """Best total of tile costs fitting in ``budget``: take or leave each tile in turn."""
    if not costs:
        return 0
    first, rest = costs[0], costs[1:]
    leave = knapsack(rest, budget)
    return max(leave, first + knapsack(rest, budget - first)) if first <= budget else leave


@pytest.mark.parametrize("display", list(product((10, 20, 30, 40), repeat=3)))
def test_display_payoff_matches_a_knapsack(display):
    pay = display_payoff(list(display))
    for s in range(dairyman.MAX_SETS + 1):
        assert pay.points[s] == knapsack(list(display), 10 * s)
        assert sum(pay.tiles[s]) == pay.points[s] <= 10 * s


def test_the_issues_displays():
    # 10/40/40: two or three sets buy only the 10 tile; the fourth set buys a 40
    assert display_payoff([10, 40, 40]).points[:5] == (0, 10, 10, 10, 40)
    # 20/20/30: a fifth set adds 10, a sixth adds nothing
    pay = display_payoff(["20:cheese2", "20:ice2:2s", "30:cheese3"])
    assert pay.points[4:] == (40, 50, 50) and pay.bought(5) == ("20:cheese2", "30:cheese3")
    assert list(pay.table()["points"]) == list(pay.points)


def test_bonuses_are_off_by_default_and_counted_when_asked():
    display = ["10:cheese1", "10:ice1:1s", "20:cheese4"]
    assert display_payoff(display).points[1] == 10
    pay = display_payoff(display, cheese_value=Fraction(5, 6), ice_cream_value=2)
    assert pay.points[1] == 12 and pay.bought(1) == ("10:ice1:1s",)
    assert pay.points[2] == 20 + Fraction(5, 6) + 2 and pay.bought(2) == ("10:cheese1", "10:ice1:1s")  # beats 20:cheese4
    assert pay.points[4] == 40 + Fraction(5, 3) + 2


def test_payoff_tables_are_read_exactly():
    assert payoff_table([0, 10]) == (0, 10, 10, 10, 10, 10, 10)
    assert payoff_table({2: 20, 4: Fraction(81, 2)}) == (0, 0, 20, 20, Fraction(81, 2), Fraction(81, 2), Fraction(81, 2))
    assert payoff_table(dairyman.linear_payoff(10)) == tuple(range(0, 70, 10))
    for bad, error in (([0, 0.5], BadType), ("0 10", BadType), ([], BadType), ({7: 1}, BadArgument), ({True: 1}, BadArgument),
                       ([0] * 8, BadArgument)):
        with pytest.raises(error, match="payoff"):
            payoff_table(bad)
    with pytest.raises(BadArgument, match="not both"):
        optimal_turn(8, points_per_set=10, payoff=[0, 10])
    for bad in (0.5, "5", True):
        with pytest.raises(BadType, match="bust_cost"):
            optimal_turn(8, bust_cost=bad)
    with pytest.raises(BadArgument, match=r"display\[1\]"):
        display_payoff([10, 25, 30])


def test_the_games_own_numbers_are_the_default():
    assert optimal_turn(8).value == optimal_turn(8, points_per_set=10, bust_cost=5).value
    assert dairyman.compare_policies(6).equals(dairyman.compare_policies(6, 10, 5))
    assert dairyman.evaluate_turn(6) == dairyman.evaluate_turn(6, points_per_set=10, bust_cost=5)
    assert optimal_turn(8).assumptions == "a stopped turn scores 10 points a set; a bust scores -5"


# Values computed by optimal_turn before payoff tables existed (points per set, bust cost).
BEFORE = {
    (8, 10, 5): Fraction(890240448505, 39182082048),
    (8, 1, 0): Fraction(45214263331, 19591041024),
    (12, 10, 5): Fraction(661249974783197462992704475, 15917322219892801768783872),
    (6, 1, 3): Fraction(6521, 5832),
    (10, 10, 5): Fraction(76114103353805305195, 2369190669160808448),
}


@pytest.mark.parametrize("n, pps, cost", list(BEFORE))
def test_the_linear_payoff_reproduces_the_values_before_payoff_tables(n, pps, cost):
    linear = optimal_turn(n, pps, cost)
    table = optimal_turn(n, bust_cost=cost, payoff=[pps * s for s in range(7)])
    assert linear.value == table.value == BEFORE[n, pps, cost]
    assert linear.policy_table().equals(table.policy_table())
    assert table.points_per_set is None and linear.points_per_set == pps


def ordered_turn_value(dice, payoff, bust_cost):
    """Optimal turn value by recursion over every ordered roll (6**d sequences), locks chosen by position."""

    @lru_cache(maxsize=None)
    def best(d, s):
        return payoff[s] if d == 0 else max(payoff[s], roll(d, s))

    @lru_cache(maxsize=None)
    def roll(d, s):
        total = Fraction(0)
        for faces in product(range(1, 7), repeat=d):
            locks = naive_packings(faces) - {()}
            total += max((best(d - sum(map(len, p)), s + len(p)) for p in locks), default=-bust_cost)
        return total / 6**d

    return roll(dice, 0)


LUMPY = [
    [0, 0, 30],            # nothing until two sets
    [0, 10, 10, 10, 40],   # the 10/40/40 display
    [0, 0, 20, 30, 40],    # 20/20/30
    [0, 5, 5, 40],
]


@pytest.mark.parametrize("payoff", LUMPY)
@pytest.mark.parametrize("n, cost", [(4, 5), (5, 0), (5, 5)])
def test_payoff_tables_match_a_recursion_over_ordered_rolls(n, cost, payoff):
    turn = optimal_turn(n, bust_cost=cost, payoff=payoff)
    assert turn.value == ordered_turn_value(n, payoff_table(payoff), cost)


def test_a_lumpy_payoff_moves_the_threshold():
    linear, lumpy = optimal_turn(8), optimal_turn(8, payoff=display_payoff([10, 40, 40]))
    assert lumpy.value < linear.value / 2                          # the issue: "well under half"
    assert linear.should_roll(5, 1) and not lumpy.should_roll(5, 1)  # one set buys the 10 tile: keep it
    # with 12 dice, three sets buy the 10 tile as one does: roll on for the fourth set (the 40)
    linear, lumpy = optimal_turn(12), optimal_turn(12, payoff=display_payoff([10, 40, 40]))
    assert [lumpy.should_roll(d, 3) for d in (3, 4)] == [True, True]
    assert [linear.should_roll(d, 3) for d in (3, 4)] == [False, False]


def test_every_view_takes_the_payoff():
    pay = display_payoff([10, 40, 40])
    turn = optimal_turn(8, payoff=pay)
    assert turn.stop_value(4, 2) == 10 and turn.stop_value(2, 4) == 40
    choices = turn.choices([4, 6, 5, 5, 1, 3, 2, 2])
    assert choices.loc[choices["best"], "value"].iloc[0] == max(choices["value"])
    table = dairyman.compare_policies(8, payoff=pay)
    assert table["value"].iloc[0] == turn.value and table["policy"].iloc[0] == "optimal"
    assert dairyman.evaluate_turn(8, payoff=pay, stop_rule=lambda d, s: True) == turn.evaluate(stop_rule=lambda d, s: True)
    scores = turn.simulate(300, seed=2)
    assert set(scores) <= {-5.0, 0.0, 10.0, 40.0, 50.0}


def test_advice_uses_the_display_on_the_table():
    display = ("10:cheese1", "40:cheese6", "40:ice3:chosen")
    s = Game().new_initial_state().apply(Drawn(display)).apply(Rolled(dice=(1, 2, 3, 4, 4, 6, 6), yellow=5))
    table = advice_frame(advise(s))
    turn = optimal_turn(12, payoff=display_payoff(display))
    assert advice_model(s)[0].points == turn.payoff
    for action, value in zip(table["action"], table["value"]):
        assert value == turn.best_value(8 - sum(map(len, action.sets)), len(action.sets))
    assert "10:cheese1 from the display" in table["how"].iloc[0]
    after = advice_frame(advise(s.apply(Lock(sets=((4, 6), (1, 3, 6)))))).set_index("label")
    assert after.loc["Stop()", "value"] == 10                     # two sets still buy only the 10 tile
    assert advice_frame(advise(s.apply(Lock(sets=((4, 6),))).apply(Stop()))).set_index("label").loc["Order(10:cheese1)", "value"] == 10
