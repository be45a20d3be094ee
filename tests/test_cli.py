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
    assert rows[1]["reroll"] == "all 1s" and rows[0]["value"] is None
    assert Fraction(rows[1]["p_bust"]["fraction"]) == dairyman.reroll_p_bust([1, 1, 2, 3], 1)
    _, out = run(capsys, "dairyman", "reroll", "1", "1", "2", "3")
    assert "<NA>" not in out and "None" not in out and "NaN" not in out
    assert out.count("all 1s") == 1  # one row per value rerolled, with the tiles that can do it


@pytest.mark.parametrize(
    "argv, message",
    [
        (["dairyman", "odds", "--bogus"], "unrecognized arguments: --bogus"),
        (["dairyman", "odds", "--dice", "13"], "Dairyman rolls 1-12 dice"),
        (["dairyman", "odds", "--dice", "x"], "not a number of dice"),
        (["dairyman", "lock", "4", "7"], "7 is not a die value"),
        (["dairyman", "odds", "--dice", "11", "--frozen", "5", "5"], "more than Dairyman's 12 dice"),
        (["chess"], "invalid choice"),
        (["dairyman", "turn", "--display", "10", "25", "40"], "display[1]"),
        (["dairyman", "turn", "--points-per-set", "2", "--display", "10"], "not allowed with"),
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
    assert Fraction(data["value"]["fraction"]) == dairyman.optimal_turn(6, points_per_set=1, bust_cost=0).value
    assert data["rows"][0]["policy"] == "optimal" and data["assumes"] == "a stopped turn scores 1 point a set; a bust scores 0"
    _, out = run(capsys, "dairyman", "turn", "--dice", "8")
    assert "Roll or stop after a lock" in out and "optimal" in out
    turn = dairyman.optimal_turn(8)  # the CLI's defaults are the API's
    assert f"expected score {turn.value} ≈ 22.72" in out and "10 points a set; a bust scores -5" in out
    policies = dairyman.compare_policies(8)
    for v in policies["value"]:  # every policy's value with its fraction, long or not
        assert str(v) in out


def test_points_per_set_is_the_apis_name_and_points_its_alias(capsys):
    _, long = run(capsys, "dairyman", "turn", "--dice", "6", "--points-per-set", "3", "--json")
    _, short = run(capsys, "dairyman", "turn", "--dice", "6", "--points", "3", "--json")
    assert long == short
    assert Fraction(json.loads(long)["value"]["fraction"]) == dairyman.optimal_turn(6, points_per_set=3).value


def test_turn_and_decide_against_a_display(capsys):
    _, out = run(capsys, "dairyman", "turn", "--display", "10", "40", "40", "--json")
    value = dairyman.optimal_turn(8, payoff=dairyman.display_payoff([10, 40, 40])).value
    assert Fraction(json.loads(out)["value"]["fraction"]) == value
    _, out = run(capsys, "dairyman", "turn", "--display", "10", "40", "40")
    assert "4 sets: 40; 5 sets: 10 + 40" in out and f"{value} ≈ 9.82" in out
    _, out = run(capsys, "dairyman", "turn", "--payoff", "0", "10", "10", "10", "40", "50", "--json")
    assert Fraction(json.loads(out)["value"]["fraction"]) == value
    _, out = run(capsys, "dairyman", "decide", "4", "6", "5", "5", "1", "3", "2", "2", "--display", "10:cheese1", "40:cheese6", "40:ice3:chosen")
    assert "Assumes: a stopped turn scores by sets locked 0, 1, 2, …: 0, 10, 10, 10, 40, 50" in out


def test_decide_says_what_it_assumes_and_marks_the_best_in_words(capsys):
    _, out = run(capsys, "dairyman", "decide", "4", "6", "5", "5", "1", "3", "2", "2")
    assert "Assumes: a stopped turn scores 10 points a set; a bust scores -5." in out
    assert "← best" in out and "True" not in out and "False" not in out


def test_vivajava_odds_and_meter(capsys):
    from coffeegames import vivajava

    _, out = run(capsys, "vivajava", "odds", "--coffee-dice", "5", "--flavour", "1", "--beat", "regular", "red", "--json")
    data = json.loads(out)
    assert data["coffee_dice"] == 5 and "white" not in data
    assert Fraction(data["beat"]["p_beats"]["fraction"]) == vivajava.p_beats(vivajava.Blend.of(3, "red"), 5, 1)
    assert Fraction(data["p_rainbow"]["fraction"]) == vivajava.p_rainbow(5, 1)
    assert sum(Fraction(r["probability"]["fraction"]) for r in data["rows"]) == 1
    _, out = run(capsys, "vivajava", "meter", "--json")
    rows = json.loads(out)["rows"]
    assert Fraction(rows[2]["p_omniblend"]["fraction"]) == vivajava.omniblend_success(2)


def test_vivajava_odds_says_coffee_dice_and_its_old_flag_white_gives_the_same_numbers(capsys):
    new, out_new = run(capsys, "vivajava", "odds", "--coffee-dice", "4", "--flavour", "2", "--beat", "regular", "red")
    assert new == 0 and "best blend of 4 coffee dice + 2 flavour dice" in out_new
    assert "white +" not in out_new
    code = main(["vivajava", "odds", "--white", "4", "--flavour", "2", "--beat", "regular", "red"])
    old = capsys.readouterr()
    assert code == 0 and old.out == out_new and "--white is the old name of --coffee-dice" in old.err
    main(["vivajava", "odds", "--coffee-dice", "4", "--flavour", "2", "--json"])
    as_json = capsys.readouterr().out
    main(["vivajava", "odds", "--white", "4", "--flavour", "2", "--json"])
    assert capsys.readouterr().out == as_json
    with pytest.raises(SystemExit):
        main(["vivajava", "odds", "--help"])
    shown = capsys.readouterr().out
    assert "--coffee-dice" in shown and "--white" not in shown  # the old name is hidden


@pytest.mark.parametrize(
    "argv, message",
    [
        (["vivajava", "odds", "--coffee-dice", "11"], "at most 10"),
        (["vivajava", "odds", "--white", "11"], "at most 10"),
        (["vivajava", "odds", "--white", "3", "--coffee-dice", "4"], "not allowed with"),
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
        (["roaster", "draw", "smoke:1", "--draws", "-1"], "'draws': must be 0 or more"),
        (["roaster", "draw", "smoke:x"], "a count is a whole number"),
    ],
)
def test_roaster_bad_arguments(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


CUP_BAG = {"bean2": 2, "bean3": 2, "bean4": 2, "hard": 2, "smoke": 1, "aroma": 1}
CUP_ARGS = ["roaster", "cup", "bean2:2 bean3:2 bean4:2 hard:2 smoke:1 aroma:1", "--card", "Zambia Kasama AA"]


def test_roaster_cup_json_is_the_solver_s_answer(capsys):
    from coffeegames.roaster.cup import stop_now

    _, out = run(capsys, *CUP_ARGS, "--cup", "bean3:3", "--json")
    data = json.loads(out)
    direct = stop_now(CUP_BAG, "Zambia Kasama AA", cup=["bean3"] * 3)
    assert data["exact"] is True and Fraction(data["value"]["fraction"]) == direct.value
    dist = {int(s): Fraction(p["fraction"]) for s, p in data["distribution"].items()}
    assert dist == dict(direct.dist) and sum(dist.values()) == 1
    assert data["message"] == direct.message and data["cup"] == ["bean3"] * 3 and data["tray"] == []
    assert data["decisions"] == {k: direct.decision(k, cup=["bean3"] * 3) for k in CUP_BAG}
    assert data["decisions"]["bean4"] == "tray" and data["decisions"]["bean2"] == "cup"


def test_roaster_cup_passes_effects_cup_and_tray_through(capsys):
    from coffeegames.roaster.cup import stop_now

    cup, tray = ["bean3"] * 3, ["smoke"]
    bag = {**CUP_BAG, "moisture": 2}  # moisture is redrawn in the cup test: no decision for it
    argv = ["roaster", "cup", "bean2:2 bean3:2 bean4:2 hard:2 smoke:1 aroma:1 moisture:2", "--card", "zambia"]
    _, out = run(capsys, *argv, "--active", "choice,tray", "--cup", "bean3:3", "--tray", "smoke:1", "--json")
    data = json.loads(out)
    direct = stop_now(bag, "Zambia Kasama AA", active=["choice", "tray"], cup=cup, tray=tray)
    assert data["active"] == ["choice", "tray"] and data["card"] == "Zambia Kasama AA"
    assert Fraction(data["value"]["fraction"]) == direct.value
    assert {int(s): Fraction(p["fraction"]) for s, p in data["distribution"].items()} == dict(direct.dist)
    assert data["decisions"] == {k: direct.decision(k, cup=cup, tray=tray) for k in CUP_BAG}
    # each option changes the answer, so a dropped one would show
    plain = stop_now(bag, "Zambia Kasama AA", cup=cup, tray=tray)
    assert direct.value != plain.value
    assert data["decisions"]["bean3"] == "tray" != plain.decision("bean3", cup=cup, tray=tray)
    assert plain.value != stop_now(bag, "Zambia Kasama AA", cup=cup).value
    assert plain.value != stop_now(bag, "Zambia Kasama AA", tray=tray).value


def test_roaster_cup_table_is_readable(capsys):
    from coffeegames.roaster.cup import stop_now
    from coffeegames.text import mean_text, percent

    _, out = run(capsys, *CUP_ARGS, "--cup", "bean3:3", "--tray", "smoke:1")
    direct = stop_now(CUP_BAG, "Zambia Kasama AA", cup=["bean3"] * 3, tray=["smoke"])
    assert "Zambia Kasama AA: the cup test if you stop now" in out and "cup bean3×3; tray smoke" in out
    assert f"expected score: {mean_text(direct.value)}\n" in out
    assert f"how: {direct.message}" in out
    top = max(direct.dist)
    top_row = [str(top), percent(direct.dist[top]), percent(direct.dist[top])]  # the best score: its chance twice
    assert any(line.split() == top_row for line in out.splitlines())
    assert "tray these when drawn now: bean4; into the cup: hard, bean2, bean3, smoke, aroma" in out


def test_roaster_cup_over_budget_is_a_stated_estimate(capsys):
    from coffeegames.roaster.cup import stop_now

    _, out = run(capsys, *CUP_ARGS, "--cup", "bean3:3", "--max-states", "100")
    direct = stop_now(CUP_BAG, "Zambia Kasama AA", cup=["bean3"] * 3, max_states=100)
    assert not direct.exact and direct.stderr > 0
    assert f"expected score: ≈ {float(direct.value):.2f} ± {direct.stderr:.2f} (standard error)" in out
    assert f"how: {direct.message}" in out
    assert "tray these when drawn now (the fallback's play):" in out


def test_roaster_cup_when_nothing_is_left_to_decide(capsys):
    _, out = run(capsys, "roaster", "cup", "bean2:2", "--card", "zambia", "--cup", "bean2:5 bean3:5")
    assert "the cup is full: nothing more is drawn" in out
    _, out = run(capsys, "roaster", "cup", "bean2:2 smoke", "--card", "zambia", "--cup", "bean2:7", "--active", "choice")
    assert "the next space is a Choice space" in out
    _, out = run(capsys, "roaster", "cup", "bean2:2 smoke", "--card", "kenya aa", "--tray", "hard:3", "--json")
    data = json.loads(out)
    assert data["card"] == "Kenya AA" and data["decisions"] == {"bean2": "cup", "smoke": "cup"}
    _, out = run(capsys, "roaster", "cup", "bean2:2 smoke", "--card", "kenya aa", "--tray", "hard:3")
    assert "the tray is full: every token drawn goes into the cup" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (CUP_ARGS[:3] + ["--card", "Nowhere Blend"], "argument '--card': no coffee card has this name; the cards are Mexico"),
        (CUP_ARGS[:3] + ["--card", "AA"], "argument '--card': could be Kenya AA, Zambia Kasama AA"),
        (["roaster", "cup", "bean9:2", "--card", "zambia"], "'bean9' is not a bag token; tokens are hard"),
        (CUP_ARGS + ["--active", "choice,espresso"], "argument '--active': is not a cup effect; cup effects are extra_bean,"),
        (CUP_ARGS + ["--cup", "bean3:x"], "argument '--cup': 'bean3:x': a count is a whole number"),
        (CUP_ARGS + ["--tray", "cream"], "argument '--tray': 'cream' is not a bag token"),
        (CUP_ARGS + ["--cup", "bean3:2 sweetness"], "argument '--cup': is a cup effect: name it in --active"),
        (CUP_ARGS + ["--cup", "bean3:11"], "a cup holds up to 10 tokens"),
        (CUP_ARGS + ["--max-states", "0"], "0 positions: use a whole number 1 or more"),
        (["roaster", "cup", "bean2:2"], "the following arguments are required: --card"),
    ],
)
def test_roaster_cup_bad_arguments(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_games_lists_the_registry(capsys):
    import coffeegames

    _, out = run(capsys, "games", "--json")
    listed = json.loads(out)
    assert [row["game"] for row in listed] == list(coffeegames.games())
    assert all(row["title"] == coffeegames.games()[row["game"]].title for row in listed)


def test_turn_solves_the_whole_turn_with_ice_and_abilities(capsys):
    _, out = run(capsys, "dairyman", "turn", "--dice", "6", "--ice", "1", "--ability", "reroll_1s", "--json")
    whole = json.loads(out)["whole_turn"]
    assert Fraction(whole["value"]["fraction"]) == dairyman.WholeTurn().value(6, 1, ["reroll_1s"]) and whole["positions"] > 0
    _, out = run(capsys, "dairyman", "turn", "--dice", "6", "--ice", "1")
    assert "With 1 ice token, freezing and ice cream played optimally too" in out
    _, out = run(capsys, "dairyman", "turn", "--dice", "6")
    assert "whole-turn" not in out


# -- Gizmos and Coffee Rush: checked against brute force over the marbles and cards themselves -----------------------

def _marbles(dispenser):
    return [colour for colour, n in dispenser.items() for _ in range(n)]


def test_gizmos_draw_gives_each_colours_exact_odds(capsys):
    from itertools import combinations

    dispenser = {"red": 5, "blue": 3, "black": 4, "yellow": 2}
    code, out = run(capsys, "gizmos", "draw", *(f"{c}:{n}" for c, n in dispenser.items()), "--draws", "3", "--json")
    rows = {row["colour"]: row for row in json.loads(out)["rows"]}
    hands = list(combinations(_marbles(dispenser), 3))  # every 3 marbles of the 14, each as likely
    for colour, n in dispenser.items():
        assert rows[colour]["in dispenser"] == n
        assert Fraction(rows[colour]["P(at least one)"]["fraction"]) == Fraction(sum(colour in h for h in hands), len(hands))
        assert Fraction(rows[colour]["expected"]["fraction"]) == Fraction(sum(h.count(colour) for h in hands), len(hands))
    assert code == 0
    _, out = run(capsys, "gizmos", "draw", "red:2", "blue:1", "--draws", "5")
    assert "3 random draw(s) from a dispenser of 3 marbles" in out and "1 (100%)" in out  # all drawn


def test_gizmos_pay_counts_what_the_draws_bring_with_what_is_held(capsys):
    from itertools import combinations

    dispenser = {"red": 3, "blue": 4, "yellow": 3}
    _, out = run(capsys, "gizmos", "pay", "red:3", "blue:4", "yellow:3", "--colour", "blue", "--cost", "3", "--held", "1",
                 "--max-draws", "4", "--json")
    rows = json.loads(out)["rows"]
    assert [row["draws"] for row in rows] == [0, 1, 2, 3, 4]
    for row in rows:
        hands = list(combinations(_marbles(dispenser), row["draws"]))
        paid = sum(1 + h.count("blue") >= 3 for h in hands)
        assert Fraction(row["P(can pay)"]["fraction"]) == Fraction(paid, len(hands))
    _, out = run(capsys, "gizmos", "pay", "red:3", "blue:4", "--colour", "blue", "--cost", "2")
    assert "paying 2 blue energy, 0 held" in out and "(100%)" in out


def test_rush_orders_are_the_stand_in_deck_less_the_orders_seen(capsys):
    from itertools import permutations

    from coffeegames import rush

    cards = [order for order, n in rush.load_orders().orders().items() for _ in range(n)]
    for seen in (("coffee", "milk"), ("milk", "steam")):
        cards.remove(seen)
    _, out = run(capsys, "rush", "orders", "--next", "2", "--seen", "milk+coffee; steam+milk", "--held", "tea", "--json")
    data = json.loads(out)
    assert data["unseen"] == len(cards) and data["next"] == 2
    pairs = list(permutations(range(len(cards)), 2))  # the next two cards, in order, each pair as likely
    for row in data["rows"]:
        needed = sum(row["ingredient"] in cards[i] or row["ingredient"] in cards[j] for i, j in pairs)
        assert Fraction(row["P(needed)"]["fraction"]) == Fraction(needed, len(pairs))
        assert row["specialty"] == (row["ingredient"] in rush.load_board().specialty)
    tea = next(row for row in data["rows"] if row["ingredient"] == "tea")
    assert data["held"]["p_needs"] == tea["P(needed)"]
    _, out = run(capsys, "rush", "orders")
    assert "the next 1 of 80 unseen orders, the stand-in deck" in out and "P(at least one" not in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["gizmos", "draw", "purple:3"], "'purple' is not a colour"),
        (["gizmos", "draw", "red:2", "--draws", "-1"], "'draws': must be 0 or more"),
        (["gizmos", "pay", "red:3", "--colour", "green", "--cost", "2"], "colours are red, blue, black, yellow"),
        (["gizmos", "pay", "red:3", "--colour", "red"], "the following arguments are required: --cost"),
        (["rush", "orders", "--next", "0"], "0 orders: use a whole number 1 or more"),
        (["rush", "orders", "--seen", "cheese+milk"], "is not in the deck's make-up"),
        (["rush", "orders", "--seen", "milk++tea"], "joined by '+'"),
        (["rush", "orders", "--held", "tea", "cheese"], "each must be one of the deck's ingredients: caramel, chocolate"),
        (["rush", "orders", "--orders", "/nonexistent/orders.json"], "orders.json"),
    ],
)
def test_gizmos_and_rush_bad_arguments(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_every_command_the_readme_shows_runs(capsys):
    """The README's terminal examples ("From a terminal, at the table") run as written (a renamed option fails here)."""
    import re
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    lines = [re.split(r"\s#", line)[0] for line in readme.splitlines() if line.startswith("coffeegames ")]
    assert len(lines) >= 14 and any(line.startswith("coffeegames rush ") for line in lines)
    for line in lines:
        assert main(shlex.split(line)[1:]) == 0, line
        assert capsys.readouterr().out.strip(), line
