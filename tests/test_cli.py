import json
import subprocess
import sys
from fractions import Fraction

import pytest

from coffeegames import dairyman
from coffeegames.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_odds_json_matches_library(capsys):
    code, out = run(capsys, "dairyman", "odds", "--dice", "8", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["rows"]) == 8
    for row in data["rows"]:
        assert Fraction(row["p_bust"]["fraction"]) == dairyman.p_bust(row["dice"])
    most = {int(k): Fraction(v["fraction"]) for k, v in data["most_dice_locked"].items()}
    assert most == dict(dairyman.most_dice_locked(8))


def test_odds_table_is_readable(capsys):
    _, out = run(capsys, "dairyman", "odds", "--dice", "3", "--frozen", "5")
    assert "frozen [5]" in out
    assert f"{dairyman.p_bust(2, [5])} (" in out


def test_lock_lists_every_choice(capsys):
    _, out = run(capsys, "dairyman", "lock", "4", "6", "5", "5", "--json")
    data = json.loads(out)
    assert [r["sets"] for r in data["rows"]] == ["4+6 5+5", "4+6", "5+5"]
    _, out = run(capsys, "dairyman", "lock", "1", "1", "2")
    assert "busts" in out


def test_reroll(capsys):
    _, out = run(capsys, "dairyman", "reroll", "1", "1", "2", "3", "--json")
    rows = json.loads(out)["rows"]
    assert rows[1]["ability"] == "reroll all 1s"
    assert Fraction(rows[1]["p_bust"]["fraction"]) == dairyman.reroll_p_bust([1, 1, 2, 3], 1)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["dairyman", "odds", "--bogus"], "unrecognized arguments: --bogus"),
        (["dairyman", "odds", "--dice", "13"], "Dairyman rolls 1-12 dice"),
        (["dairyman", "odds", "--dice", "x"], "not a number of dice"),
        (["dairyman", "lock", "4", "7"], "7 is not a die value"),
        (["dairyman", "odds", "--dice", "11", "--frozen", "5", "5"], "more than Dairyman's 12 dice"),
        (["chess"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_python_dash_m_entry_point():
    out = subprocess.run(
        [sys.executable, "-m", "coffeegames", "dairyman", "lock", "5", "5", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert json.loads(out)["rows"][0]["sets"] == "5+5"


def test_decide_ranks_locks_by_exact_value(capsys):
    _, out = run(capsys, "dairyman", "decide", "4", "6", "5", "5", "1", "3", "2", "2", "--json")
    rows = json.loads(out)["rows"]
    turn = dairyman.optimal_turn(12, 10, 5)
    assert len(rows) == len(dairyman.lock_options([4, 6, 5, 5, 1, 3, 2, 2]))
    top = rows[0]
    assert top["best"] and Fraction(top["value"]["fraction"]) == turn.best_value(top["dice_left"], top["sets_locked"])
    assert all(Fraction(r["value"]["fraction"]) <= Fraction(top["value"]["fraction"]) for r in rows)


def test_turn_prints_value_policy_and_comparison(capsys):
    _, out = run(capsys, "dairyman", "turn", "--dice", "6", "--points", "1", "--bust-cost", "0", "--json")
    data = json.loads(out)
    assert Fraction(data["value"]["fraction"]) == dairyman.optimal_turn(6).value
    assert data["rows"][0]["policy"] == "optimal"
    _, out = run(capsys, "dairyman", "turn", "--dice", "8")
    assert "Roll or stop after a lock" in out and "optimal" in out


def test_vivajava_odds_and_meter(capsys):
    from coffeegames import vivajava

    _, out = run(capsys, "vivajava", "odds", "--white", "5", "--flavour", "1", "--beat", "regular", "red", "--json")
    data = json.loads(out)
    assert Fraction(data["beat"]["p_beats"]["fraction"]) == vivajava.p_beats(vivajava.Blend.of(3, "red"), 5, 1)
    assert Fraction(data["p_rainbow"]["fraction"]) == vivajava.p_rainbow(5, 1)
    assert sum(Fraction(r["probability"]["fraction"]) for r in data["rows"]) == 1
    _, out = run(capsys, "vivajava", "meter", "--json")
    rows = json.loads(out)["rows"]
    assert Fraction(rows[2]["p_omniblend"]["fraction"]) == vivajava.omniblend_success(2)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["vivajava", "odds", "--white", "11"], "at most 10"),
        (["vivajava", "odds", "--beat", "huge", "red"], "a blend is a size and a colour"),
        (["vivajava", "odds", "--beat", "bold", "purple"], "unknown colour 'purple'"),
    ],
)
def test_vivajava_bad_arguments(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_roaster_draw(capsys):
    from coffeegames import roaster
    from coffeegames.exact import Bag

    _, out = run(capsys, "roaster", "draw", "bean2:4", "bean4:1", "smoke:1", "moisture:3", "--draws", "4", "--json")
    rows = {r["question"]: r["value"] for r in json.loads(out)["rows"]}
    bag = Bag({"bean2": 4, "bean4": 1, "smoke": 1, "moisture": 3})
    assert Fraction(rows["P(at least one smoke)"]["fraction"]) == roaster.p_any(bag, ["smoke"], 4)
    assert Fraction(rows["expected moisture removed"]["fraction"]) == Fraction(4 * 3, 9)
    _, out = run(capsys, "roaster", "draw", "smoke:1", "bean4:2", "--crack")
    assert "crack space" in out and "P(a bean burns this round)" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["roaster", "draw", "bean9:2"], "'bean9' is not a bag token"),
        (["roaster", "draw", "smoke:1", "--draws", "-1"], "number of tokens drawn must be 0 or more"),
        (["roaster", "draw", "smoke:x"], "a count is a whole number"),
    ],
)
def test_roaster_bad_arguments(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err
