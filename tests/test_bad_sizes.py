"""Games that never end are refused, every size a user can type has a limit (TooBig before work starts), and the
stray exceptions issue 29 found are the project's errors."""

from __future__ import annotations

import pytest

from coffeegames import dairyman, roaster
from coffeegames.cli import main
from coffeegames.dairyman.rules import MOST_SETS
from coffeegames.errors import BadArgument, TooBig


@pytest.mark.parametrize("set_value", [0, 1])
def test_dairyman_refuses_a_set_value_that_can_never_buy_a_tile(set_value: int) -> None:
    cheapest = min(t.value for t in dairyman.Game(players=2).rules.tiles)
    assert MOST_SETS * set_value < cheapest  # six sets of this value buy nothing: the deck never shrinks
    with pytest.raises(BadArgument, match="set_value.*never ends"):
        dairyman.Game(players=2, set_value=set_value)


def test_dairyman_accepts_the_least_set_value_that_buys_the_cheapest_tile() -> None:
    cheapest = min(t.value for t in dairyman.Game(players=2).rules.tiles)
    least = -(-cheapest // MOST_SETS)
    assert dairyman.Game(players=2, set_value=least).rules.set_value == least


def test_a_display_too_big_to_try_every_subset_is_refused_before_work() -> None:
    with pytest.raises(TooBig, match="display"):
        dairyman.display_payoff([10] * 5000)


@pytest.mark.parametrize("ice", [101, 10**10])
def test_the_whole_turn_refuses_more_ice_than_any_game_holds(ice: int) -> None:
    with pytest.raises(TooBig, match="ice"):
        dairyman.WholeTurn().value(8, ice)


@pytest.mark.parametrize("bag", [{}, {"moisture": 5}])
def test_stop_now_on_a_bag_with_nothing_to_score_is_refused(bag: dict[str, int]) -> None:
    with pytest.raises(BadArgument, match="position"):
        roaster.stop_now(bag, "Kenya AA")


@pytest.mark.parametrize("argv", [
    ["roaster", "draw", "bean2:²"],
    ["roaster", "cup", "moisture:5", "--card", "zambia"],
    ["dairyman", "turn", "--ice", "10000000000"],
    ["dairyman", "decide", "4", "6", "--display", *["10"] * 5000],
])
def test_the_cli_answers_with_a_short_error_not_a_traceback(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    err = capsys.readouterr().err
    assert ended.value.code == 2 and "Traceback" not in err
    assert err.startswith("coffeegames: error:") and len(err) < 400

