"""Coffee Roaster's rules as read line by line (issue 12): Sweetness in the cup from the start of the cup test, the
easy side's starting flavours as the player's choice, the options for the seed's open readings, and games saved
before these changes. Expected numbers are hand-computed or found by a brute force written here, never copied from
the library's own output."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from pathlib import Path

import pytest

from coffeegames.engine import advice_frame
from coffeegames.engine import Expectimax, Walkthrough
from coffeegames.errors import BadArgument, BadData, BadType
from coffeegames.roaster import (
    Disperse,
    Drawn,
    Game,
    Phase,
    ReserveToBag,
    Roast,
    Rules,
    Shuffled,
    Stop,
    ToCup,
    ToTray,
    advise,
    greedy_policy,
    load_walkthrough,
    msort,
    score_cup,
    stop_now,
)

ORDER = ("extra_bean", "sweetness", "choice", "exchange", "tray")  # squares 0-4
FULL = (("body", "body"), ("acidity", "acidity"), ("aroma", "aroma"), ("body", "acidity"), ("acidity", "aroma"))
ZAMBIA = "Zambia Kasama AA"  # asks Body, Aroma, Acidity; roast table 12→2 13→4 14→6 15→8 16→10 17→6 18→3 19→1
SAVES = Path(__file__).parent / "data" / "roaster_saves_v1.json"


def cup_position(bag, active=(), card=ZAMBIA, side="full", **options):
    """An engine position about to start the cup test (tokens not conserved: never ``check()`` it)."""
    state = Game(card=card, side=side, **options).new_initial_state().apply(Shuffled(ORDER))
    slots = tuple(FULL[i] if e in active else ("", "") for i, e in enumerate(ORDER))
    return replace(state, phase="decide", bag=msort(bag), drawn=(), draw_count=0, draw_for="", slots=slots)


# -- a scorer and a cup test written here, from the rulebook, independently of the library ----------------------

def roast_points(level: int) -> int:
    return {12: 2, 13: 4, 14: 6, 15: 8, 16: 10, 17: 6, 18: 3, 19: 1}.get(level, 0)  # Zambia's stand-in card


def my_score(cup: list[str], sweetness: bool) -> int:
    """Zambia Kasama AA, by the rulebook: roast, flavour (1/3/6/10), skill (largest group), minus."""
    level = sum(int(t[-1]) for t in cup if t.startswith("bean"))
    wanted = ["body", "aroma", "acidity"]
    matches = 0
    for f in list(wanted):
        if f in cup:
            matches += min(cup.count(f), 1)
    jokers = cup.count("wild") + sweetness
    matches = min(3, matches + jokers)
    flavour = [0, 1, 3, 6, 10][matches]
    beans = Counter(t for t in cup if t.startswith("bean"))
    most = max(beans.values(), default=0)
    skill = {3: 1, 4: 2, 5: 3, 6: 4}.get(most, 5 if most >= 7 else 0)
    minus = sum({"hard": 1, "burnt": 1, "smoke": 1, "defect": 2}.get(t, 0) for t in cup)
    if not any(t in ("body", "acidity", "aroma", "wild") for t in cup) and not sweetness:
        minus += 3
    if len(cup) + sweetness < 10:
        minus += 5
    return roast_points(level) + flavour + skill - minus


def brute_force(bag: tuple[str, ...], sweetness: bool, tray_room: int = 3) -> Fraction:
    """The best expected score of the cup test, by trying every decision on every draw. Sweetness, when earned, sits
    on its own space from the start: the drawn tokens have 9 spaces, and it is in the cup however early the test ends."""
    spaces = 10 - sweetness

    @lru_cache(maxsize=None)
    def value(bag: tuple[str, ...], cup: tuple[str, ...], tray: int) -> Fraction:
        if len(cup) == spaces or not bag:
            return Fraction(my_score(list(cup), sweetness))
        total = Fraction(0)
        for t, n in Counter(bag).items():
            rest = list(bag)
            rest.remove(t)
            rest_ = tuple(rest)
            best = value(rest_, tuple(sorted(cup + (t,))), tray)
            if tray < tray_room:
                best = max(best, value(rest_, cup, tray + 1))
            total += Fraction(n, len(bag)) * best
        return total

    return value(tuple(sorted(bag)), (), 0)


def test_my_scorer_matches_the_rulebook_example():
    # the rulebook's example (Zambia, total roast level 17: 6 points; two Aroma and Sweetness: 3 matches: 6; three
    # level-2 beans: skill 1; one burnt bean: minus 1) -- nine tokens and Sweetness
    cup = ["bean2"] * 3 + ["bean3", "bean4", "bean4", "aroma", "aroma", "burnt"]
    assert my_score(cup, sweetness=True) == 6 + 3 + 1 - 1


# -- 1. Sweetness is in the cup from the start of the cup test ------------------------------------------------------

def test_issue_example_by_hand():
    # Six tokens, nine free spaces: hard and smoke go on the tray (-1 each in the cup), the four beans in the cup.
    # Cup: 2+2+3+3 = 10 (not on Zambia's table: 0), Sweetness is one flavour match (1 point) and lifts the -3;
    # empty spaces -5. Total 0 + 1 + 0 - 5 = -4 (was -8: no Sweetness, -3 for no flavour, no match).
    bag = {"bean3": 2, "bean2": 2, "hard": 1, "smoke": 1}
    r = stop_now(bag, ZAMBIA, active=["sweetness"], max_states=None)
    assert r.exact and r.value == -4 and dict(r.dist) == {-4: 1}
    assert stop_now(bag, Rules(card=ZAMBIA, rules_version=1), active=["sweetness"], max_states=None).value == -8
    # the change is the named option sweetness_from_start, whose default the rules version sets
    assert Rules(card=ZAMBIA).sweetness_from_start and not Rules(card=ZAMBIA, rules_version=1).sweetness_from_start
    assert stop_now(bag, Rules(card=ZAMBIA, rules_version=1, sweetness_from_start=True), active=["sweetness"],
                    max_states=None).value == -4
    assert stop_now(bag, Rules(card=ZAMBIA, sweetness_from_start=False), active=["sweetness"], max_states=None).value == -8
    # the fallback (over budget) plays the same rule
    assert stop_now(bag, ZAMBIA, active=["sweetness"], max_states=1, samples=20).value == -4


def test_issue_example_by_brute_force():
    bag = ("bean3", "bean3", "bean2", "bean2", "hard", "smoke")
    assert brute_force(bag, sweetness=True) == -4
    assert brute_force(bag, sweetness=False) == -8


@pytest.mark.parametrize("bag", [
    ("bean3", "bean3", "bean2", "bean4", "hard", "smoke", "aroma", "bean1"),
    ("bean1", "bean2", "bean3", "bean4", "defect", "body", "hard", "bean2", "bean2"),
    ("bean4", "bean4", "bean4", "bean3", "bean3", "smoke", "smoke", "acidity", "hard", "bean0", "bean2"),
    ("bean2",) * 6 + ("bean3", "hard", "aroma", "bean4", "bean4", "smoke"),
])
def test_solver_agrees_with_brute_force_every_draw_order(bag):
    # bags smaller than, equal to and larger than the 9 free spaces (+3 tray): the test ends early or full
    for sweet in (True, False):
        active = ["sweetness"] if sweet else []
        assert stop_now(list(bag), ZAMBIA, active=active, max_states=None).value == brute_force(bag, sweet)


def test_every_draw_order_of_a_small_bag_scores_with_sweetness():
    # with every token going into the cup, each of the 5! draw orders ends with the same cup: Sweetness and 5 tokens
    bag = ("bean4", "bean4", "bean4", "bean2", "body")
    for order in set(permutations(bag)):
        s = cup_position(order, active=["sweetness"]).apply(Stop())
        assert s.cup == ("sweetness",)  # on its space before anything is drawn
        for t in order:
            s = s.apply(Drawn((t,)))
            s = s.apply(ToCup()) if s.phase == Phase.PLACE else s
        assert s.phase == Phase.OVER and Counter(s.cup) == Counter(bag + ("sweetness",))
        # 14 → 6; body and Sweetness match 2 → 3; three level-4 beans → 1; empty spaces -5
        assert s.returns() == (6 + 3 + 1 - 5,) == (my_score(list(bag), True),)


def test_engine_expectimax_agrees_with_the_solver_and_the_brute_force():
    bag = ("bean3", "bean3", "bean2", "bean4", "hard", "smoke", "bean1")
    s = cup_position(bag, active=["sweetness"]).apply(Stop())
    assert Expectimax().value(s)[0] == stop_now(s, max_states=None).value == brute_force(bag, True)


def test_sweetness_sits_on_its_own_space_and_the_cup_fills_around_it():
    s = cup_position(["bean2"] * 12, active=["sweetness"]).apply(Stop())
    space = s.rules.board.sweetness_space
    assert s.cup == ("sweetness",) and s.cup_space == (0 if space else 1)
    while s.phase != Phase.OVER:
        s = s.apply(Drawn(("bean2",)) if s.is_chance() else ToCup())
        if s.phase != Phase.OVER:
            assert s.cup.index("sweetness") == min(len(s.cup) - 1, space)
    assert len(s.cup) == 10 and s.cup[space] == "sweetness" and s.bag == ("bean2",) * 3


# -- 2. the easy side's starting flavours: the player's choice ------------------------------------------------------

def test_starting_flavours_are_chosen_token_by_token_when_roasting_ends():
    s = cup_position(["bean2", "bean2"], side="easy")
    assert s.reserve == ("body", "acidity", "aroma")
    r = s.apply(Stop())
    assert r.phase == Phase.RESERVE and r.current_player() == 0
    assert len(r.legal_actions()) == 8 and r.legal_actions()[0] == ReserveToBag(("body", "acidity", "aroma"))
    one = r.apply(ReserveToBag(("aroma",)))
    assert one.reserve == ("body", "acidity") and one.bag.count("aroma") == 1 and one.phase == Phase.CUP_DRAW
    kept = r.apply(ReserveToBag(()))
    assert kept.reserve == ("body", "acidity", "aroma") and kept.bag == ("bean2", "bean2")


def test_starting_flavours_valued_by_advise_by_hand():
    # Zambia asks Body, Aroma, Acidity. Bag: two level-2 beans. Whatever goes into the bag ends in the cup (level 4:
    # no roast points; 7 or fewer tokens: -5), so each flavour put in is one more match: 1, 2, 3 matches score 1, 3, 6,
    # and none scores 0 and -3. Relative to leaving all three out: +4, +6, +9.
    r = cup_position(["bean2", "bean2"], side="easy").apply(Stop())
    table = advice_frame(advise(r))
    values = {a.tokens: v for a, v in zip(table["action"], table["value"])}
    none = values[()]
    assert none == -8
    assert values[("aroma",)] - none == 4 and values[("body", "acidity")] - none == 6
    assert values[("body", "acidity", "aroma")] - none == 9
    assert table["exact"].all() and table.loc[table["best"], "action"].tolist() == [ReserveToBag(("body", "acidity", "aroma"))]
    # Stop, at the decision before, is worth the best choice
    before = cup_position(["bean2", "bean2"], side="easy")
    stop = stop_now(before, max_states=None)
    assert stop.value == none + 9 and stop.reserve == ReserveToBag(("body", "acidity", "aroma"))
    assert stop.action(r) == stop.reserve


def test_starting_flavours_valued_by_advise_against_brute_force():
    # Zambia: four level-4 and six level-0 beans fill the cup exactly (16: 10 points). With no tray, a flavour put into
    # the bag may push a bean out of the cup: each choice valued by advise equals the brute force written here.
    beans = ["bean4"] * 4 + ["bean0"] * 6
    r = cup_position(beans, side="easy", tray_spaces=0).apply(Stop())
    table = advice_frame(advise(r))
    assert len(table) == 8 and table["exact"].all()
    for action, value in zip(table["action"], table["value"]):
        assert value == brute_force(tuple(beans) + action.tokens, sweetness=False, tray_room=0), action
    assert brute_force(tuple(beans), False, 0) == 10 + 4 - 3  # leaving all out: 16 → 10, six level-0 beans 4, no flavour


def test_rules_version_1_still_forces_them_into_the_bag():
    s = cup_position(["bean2", "bean2"], side="easy", rules_version=1).apply(Stop())
    assert s.phase != Phase.RESERVE and s.reserve == () and s.bag.count("body") == 1
    kept = cup_position(["bean2", "bean2"], side="easy", rules_version=1, reserve_to_bag=False).apply(Stop())
    assert kept.reserve == ("body", "acidity", "aroma")
    with pytest.raises(BadArgument, match="reserve_to_bag"):
        Game(card=ZAMBIA, side="easy", reserve_to_bag=False)
    # the choice is the named option reserve_choice, whose default the rules version sets
    chosen = cup_position(["bean2", "bean2"], side="easy", rules_version=1, reserve_choice=True).apply(Stop())
    assert chosen.phase == Phase.RESERVE
    forced = cup_position(["bean2", "bean2"], side="easy", reserve_choice=False).apply(Stop())
    assert forced.phase != Phase.RESERVE and forced.bag.count("body") == 1


def test_greedy_bot_and_full_games_with_the_choice_stay_consistent():
    game = Game(card="Kenya AA", side="easy")
    for seed in range(3):
        w = Walkthrough(game.new_initial_state(), seed=seed).run(greedy_policy)
        assert w.state.is_terminal()
        for state in w.states:
            state.check()
        again = Walkthrough.from_json(w.to_json(game), game.new_initial_state(), game.action_kinds, game)
        assert again.state == w.state


# -- 3. options for the seed's open readings ------------------------------------------------------------------------

def test_tray_spaces_option_in_engine_and_solver():
    # three smoke tokens: each on the tray scores nothing, each in the cup -1. No flavour -3, empty -5.
    bag = ["smoke"] * 3
    assert stop_now(bag, ZAMBIA, max_states=None).value == -8
    assert stop_now(bag, Rules(card=ZAMBIA, tray_spaces=2), max_states=None).value == -9
    assert stop_now(bag, Rules(card=ZAMBIA, tray_spaces=0), max_states=None).value == -11
    s = cup_position(bag, tray_spaces=1).apply(Stop())
    assert s.tray_spaces == 1
    s = s.apply(Drawn(("smoke",))).apply(ToTray()).apply(Drawn(("smoke",)))
    assert s.phase == Phase.CUP_DRAW and s.cup == ("smoke",)  # tray full: into the cup
    assert cup_position(bag, active=["tray"], tray_spaces=1).apply(Stop()).tray_spaces == 1 + 2
    with pytest.raises(BadArgument, match="tray_spaces"):
        Game(card=ZAMBIA, tray_spaces=11)


def test_skill_groups_option():
    cup = ["bean2"] * 3 + ["bean3"] * 4 + ["body", "aroma", "acidity"]  # groups of 3 (1 point) and 4 (2 points)
    card = Rules(card=ZAMBIA).card
    assert score_cup(cup, card).skill == 2
    assert score_cup(cup, card, skill_groups="each").skill == 3
    # the solver scores through the option: an empty bag, the cup as it is
    assert stop_now([], Rules(card=ZAMBIA, skill_groups="each"), cup=cup).value - stop_now([], ZAMBIA, cup=cup).value == 1
    with pytest.raises(BadArgument, match="skill_groups"):
        Rules(card=ZAMBIA, skill_groups="two")


def test_sweetness_flavour_option():
    # the issue's example with Sweetness not lifting the penalty: -4 - 3
    bag = {"bean3": 2, "bean2": 2, "hard": 1, "smoke": 1}
    assert stop_now(bag, Rules(card=ZAMBIA, sweetness_flavour=False), active=["sweetness"], max_states=None).value == -7
    with pytest.raises(BadType):
        Rules(card=ZAMBIA, sweetness_flavour=1)


def test_bean_supply_option():
    # Zambia's bag holds no roasted beans: with 2 roasted tokens in the box, only 2 drawn hard beans roast
    game = Game(card=ZAMBIA, bean_supply=2)
    s = game.new_initial_state().apply(Shuffled(ORDER)).apply(Drawn(("hard",) * 5 + ("moisture", "body")))
    s = s.apply(Roast())
    assert s.bag.count("bean0") == 2 and s.bag.count("hard") == 11 - 2 and s.roasted_in_play == 2
    s.check()
    unlimited = Game(card=ZAMBIA).new_initial_state().apply(Shuffled(ORDER)).apply(Drawn(("hard",) * 5 + ("moisture", "body")))
    assert unlimited.apply(Roast()).bag.count("bean0") == 5
    # Disperse needs a token from the box
    full = replace(s, phase="act", drawn=("bean4", "aroma"), bag=s.bag)
    assert not any(isinstance(a, Disperse) for a in full.legal_actions())
    roomy = replace(full, rules=Rules(card=ZAMBIA, bean_supply=4))  # 3 in play: one left in the box
    assert any(isinstance(a, Disperse) for a in roomy.legal_actions())
    with pytest.raises(BadArgument, match="bean_supply"):
        Rules(card="Indonesia Sumatra Mandheling", bean_supply=1)  # its bag holds 2 roasted beans


def test_options_are_named_in_the_table():
    table = Rules(card=ZAMBIA).table()
    for name, kind in [("tray_spaces", "Stand-in"), ("skill_groups", "Ruling"), ("sweetness_flavour", "Ruling"),
                       ("bean_supply", "Ruling"), ("rules_version", "Rule")]:
        assert table.loc[name, "kind"] == kind


# -- saved games from before these changes --------------------------------------------------------------------------

def saves():
    return json.loads(SAVES.read_text())


@pytest.mark.parametrize("which", ["easy", "sweetness"])
def test_old_walkthroughs_replay_under_the_rules_they_were_played_under(which):
    saved = saves()[which]
    game, w = load_walkthrough(json.dumps(saved["walkthrough"]))
    assert game.rules.rules_version == 1 and game.options == saved["walkthrough"]["options"]
    again = json.loads(w.state.to_json())  # saved again, it names the rules version it was played under
    assert again.pop("rules_version") == 1 and again == saved["final_state"] and w.state.returns() == (saved["score"],)


def test_old_walkthrough_refused_under_the_new_rules_with_the_reason():
    saved = saves()["easy"]["walkthrough"]
    game = Game(**saved["options"])
    with pytest.raises(BadData, match="rules_version"):
        Walkthrough.from_json(json.dumps(saved), game.new_initial_state(), game.action_kinds, game)


def test_old_cup_test_state_refused_under_the_new_rules_loads_under_the_old():
    saved = json.dumps(saves()["sweetness"]["cup_test_state"])
    with pytest.raises(BadData, match="rules_version=1"):
        Game(card=ZAMBIA).state_from_json(saved)
    old = Game(card=ZAMBIA, rules_version=1).state_from_json(saved)
    assert "sweetness" in old.active and "sweetness" not in old.cup
    while not old.is_terminal():  # rules_version 1: Sweetness arrives when filling reaches its space
        old = old.apply(greedy_policy(old) if not old.is_chance() else old.chance_outcomes()[0][0])
    assert "sweetness" in old.cup


def test_new_saves_name_their_rules_version():
    game = Game(card="Kenya AA", side="easy")
    assert game.options["rules_version"] == 2
    w = Walkthrough(game.new_initial_state(), seed=4).run(greedy_policy)
    again, loaded = load_walkthrough(w.to_json(game))
    assert again.rules.rules_version == 2 and loaded.state == w.state
    assert Game(card="Kenya AA", rules_version=1).options == {"card": "Kenya AA", "side": "full"}
    with pytest.raises(BadData, match="options"):
        load_walkthrough(json.dumps({"format": "coffeegames-walkthrough/1", "moves": []}))


@pytest.mark.parametrize("active", [("sweetness", "choice"), ("sweetness", "extra_bean", "tray"), ("sweetness", "exchange")])
def test_sweetness_with_other_cup_effects_matches_the_engine_expectimax(active):
    # 7 tokens: the bag runs out before the cup is full; the engine's own states
    # searched whole against the solver
    bag = ("bean3", "bean3", "bean2", "bean4", "hard", "smoke", "aroma")
    s = cup_position(bag, active=active).apply(Stop())
    assert "sweetness" in s.cup
    assert Expectimax().value(s)[0] == stop_now(s, max_states=None).value


def test_values_without_an_early_end_do_not_move():
    # rules_version 1 and 2 differ only when Sweetness is active and the bag runs out before the cup is full
    big = ["bean2"] * 5 + ["bean3"] * 4 + ["bean1"] * 2 + ["hard", "smoke", "aroma"]  # 14 tokens: 9 cup + 3 tray < 14
    small = ["bean2", "bean3", "bean3", "hard", "aroma"]
    old = Rules(card=ZAMBIA, rules_version=1)
    for bag, active in [(big, ()), (big, ("sweetness",)), (small, ()), (small, ("choice", "extra_bean"))]:
        assert stop_now(bag, ZAMBIA, active=active, max_states=None).value == stop_now(bag, old, active=active, max_states=None).value
    assert stop_now(small, ZAMBIA, active=["sweetness"], max_states=None).value != \
        stop_now(small, old, active=["sweetness"], max_states=None).value
