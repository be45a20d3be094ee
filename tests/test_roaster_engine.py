"""The Coffee Roaster engine (docs/rules/roaster.md) under the State contract: whole seeded games on every card,
token conservation, replay, exact chance odds, errors, and one focused test per rule on a constructed state."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from coffeegames.engine import IllegalAction, Walkthrough, play
from coffeegames.errors import BadArgument, BadData, BadType
from coffeegames.roaster import greedy_policy, random_policy
from coffeegames.roaster import (
    STAND_IN_BOARD,
    STAND_IN_CARDS,
    Menu,
    Rules,
    cards_from_dict,
    flavour_matches,
    load_board,
    load_cards,
    next_difficulty,
    score_cup,
    scoring_class,
)
from coffeegames.roaster import (
    Concentrate,
    Continue,
    Disperse,
    Drawn,
    Exchange,
    Game,
    Keep,
    KeepTwo,
    NewTwo,
    NoExchange,
    PayWild,
    PlusTwo,
    Preserve,
    ReserveToBag,
    RemoveBad,
    RemoveTwo,
    Roast,
    Shuffled,
    State,
    Stop,
    ToCup,
    ToTray,
    TwoOfFive,
    draw_outcome_count,
    draw_outcomes,
)
from coffeegames.roaster import BEANS, CUP_EFFECTS, is_bean, msort, roast, roast_level

CARDS = load_cards()
ORDER = ("extra_bean", "sweetness", "choice", "exchange", "tray")  # squares 0-4
FULL = (("body", "body"), ("acidity", "acidity"), ("aroma", "aroma"), ("body", "acidity"), ("acidity", "aroma"))
# stand-in slot colours: [body any] [acidity any] [aroma any] [body acidity] [acidity aroma]


# -- helpers -----------------------------------------------------------------------------

def start(card: str = "Zambia Kasama AA", **options) -> State:
    """A game just after the cup effects were shuffled in ORDER (the round-1 draw pending)."""
    return Game(card=card, **options).new_initial_state().apply(Shuffled(ORDER))


def acting(state: State, drawn, bag=None, **changes) -> State:
    """The effects step with these drawn tokens (taken from the bag if they are there, so counts stay right)."""
    drawn = msort(drawn)
    if bag is None:  # take each drawn token from the bag; a roasted bean not there replaces a hard bean (beans count)
        bag = list(state.bag)
        for t in drawn:
            if t in bag:
                bag.remove(t)
            elif is_bean(t) and "hard" in bag:
                bag.remove("hard")
    return replace(state, phase="act", drawn=drawn, bag=msort(bag), draw_count=0, draw_for="", **changes)


def cup_test(state: State, bag, cup=(), tray=(), slots=None, phase="cup_draw", **changes) -> State:
    """A cup test position (bag, cup, tray as given); tokens are not conserved, so do not ``check()`` it."""
    s = replace(state, phase=phase, bag=msort(bag), cup=tuple(cup), tray=msort(tray), drawn=(), draw_count=0, draw_for="",
                slots=slots if slots is not None else state.slots, **changes)
    return s


def census(state: State) -> None:
    """Count every token independently of State.check: non-beans by kind, beans by count."""
    places = [state.bag, state.drawn, state.reserve, state.hand, state.paid, state.wild_paid,
              [t for s in state.slots for t in s if t], [t for t in state.cup if t != "sweetness"], state.tray, state.removed,
              ["smoke"] * sum(state.smoke), [] if state.wild_taken else ["wild"]]
    now = Counter()
    for place in places:
        for t in place:
            now["beans" if is_bean(t) else t] += 1
    rules = state.rules
    start = Counter("beans" if is_bean(t) else t for t in rules.card.bag)
    start["smoke"] += sum(rules.thermometer.smoke)
    start["wild"] += 1
    start["beans"] += len(state.supplied)
    assert +now == +start, (now, start)
    assert state.cup.count("sweetness") <= 1 and len(state.cup) <= 10
    assert len(state.tray) <= state.tray_spaces
    assert sorted(state.squares) in ([], sorted(CUP_EFFECTS))


def run_checked(game: Game, policy, seed: int, odds_checked: set, json_every: int = 0) -> Walkthrough:
    """Play one game step by step, checking counts, the state's own check, exact odds and (sometimes) JSON."""
    walk = Walkthrough(game.new_initial_state(), seed=seed)
    step = 0
    while not walk.state.is_terminal():
        state = walk.state
        census(state)
        state.check()
        if json_every and step % json_every == 0:
            assert game.state_from_json(state.to_json()) == state
        if state.is_chance():
            key = (state.bag, state.draw_count if state.phase == "draw" else 1, state.phase == "shuffle")
            if key not in odds_checked and state.chance_outcome_count() <= 3000:
                odds_checked.add(key)
                outcomes = state.chance_outcomes()
                assert len(outcomes) == state.chance_outcome_count()
                assert sum(p for _, p in outcomes) == 1
                assert len({o for o, _ in outcomes}) == len(outcomes)
                assert all(state.is_legal_outcome(o) for o, _ in outcomes[:: max(1, len(outcomes) // 20)])
            walk.step()
        else:
            legal = state.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            walk.step(policy(state))
        step += 1
    census(walk.state)
    walk.state.check()
    assert isinstance(walk.state.returns()[0], int)
    return walk


# -- whole games ---------------------------------------------------------------------------

@pytest.mark.parametrize("card", [c.name for c in CARDS])
def test_seeded_games_on_every_card_finish_and_conserve_tokens(card):
    odds_checked: set = set()
    for side in ("full", "easy"):
        game = Game(card=card, side=side)
        for seed in range(4):
            run_checked(game, greedy_policy, seed, odds_checked)
            run_checked(game, random_policy(seed), seed, odds_checked)


def test_hundreds_of_games_finish_quickly():
    for i, card in enumerate(CARDS):
        for side in ("full", "easy"):
            results = play(Game(card=card.name, side=side), greedy_policy if i % 2 else random_policy(i), n_games=12,
                           seed=i, progress=False)
            assert len(results) == 12 and results["moves"].min() > 5


def test_sampling_follows_the_exact_odds():
    bag = ("hard", "hard", "hard", "bean1", "smoke", "moisture")
    s = replace(start(), bag=bag, draw_count=3)
    exact = dict(s.chance_outcomes())
    rng = np.random.default_rng(7)
    n = 6000
    seen = Counter(s.sample_chance(rng) for _ in range(n))
    assert set(seen) <= set(exact)
    for outcome, p in exact.items():
        assert abs(seen[outcome] / n - float(p)) < 0.03
    assert exact[Drawn(("hard", "hard", "hard"))] == Fraction(1, 20)


def test_draw_odds_are_exact_multivariate_hypergeometric():
    bag = msort(["hard"] * 5 + ["bean2"] * 3 + ["smoke", "moisture", "aroma"])
    outcomes = draw_outcomes(bag, 4)
    assert sum(p for _, p in outcomes) == 1 and len(outcomes) == draw_outcome_count(bag, 4)
    assert dict(outcomes)[Drawn(("hard", "hard", "bean2", "smoke"))] == Fraction(10 * 3 * 1, 330)
    big = start("Hawaii Kona")
    assert big.chance_outcome_count() == draw_outcome_count(big.bag, big.draw_count)
    assert big.is_legal_outcome(Drawn(big.bag[: big.draw_count]))
    assert not big.is_legal_outcome(Drawn(big.bag[: big.draw_count - 1]))
    assert not big.is_legal_outcome(Drawn(("smoke",) * big.draw_count))
    shuffle = Game(card="Kenya AA").new_initial_state()
    assert len(shuffle.chance_outcomes()) == 120 and sum(p for _, p in shuffle.chance_outcomes()) == 1


# -- the contract: errors, JSON, data ------------------------------------------------------

def test_illegal_action_names_the_legal_ones_and_changes_nothing():
    s = acting(start(), ["hard", "bean1", "body"])
    before = s.to_json()
    with pytest.raises(IllegalAction, match=r"Stop\(\) is not legal here; the legal actions are: .*Roast\(\)"):
        s.apply(Stop())
    assert s.to_json() == before
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        start().apply(Drawn(("wild",)))
    terminal = cup_test(start(), (), phase="over")
    with pytest.raises(IllegalAction, match="game is over"):
        terminal.apply(Roast())


def test_actions_are_normalised_and_readable():
    assert Drawn(["aroma", "hard", "bean1"]).tokens == ("hard", "bean1", "aroma")
    assert str(NewTwo(("acidity",), ("smoke", "hard"))) == "NewTwo(pay acidity, return hard smoke)"
    assert str(Disperse("bean4", ("bean3", "bean1"), "aroma", 2)) == "Disperse(bean4 → bean1+bean3, aroma at square 2)"
    assert str(Preserve(("bean4", "bean3"), "wild", 1)) == "Preserve(bean3+bean4, wild at square 1)"
    with pytest.raises(ValueError, match="Drawn.tokens"):
        Drawn(("coffee",))
    text = str(start())
    assert "Zambia Kasama AA" in text and "Extra Bean" in text


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"phase": "roasting"}, "phase"),
        ({"bag": ["hard", "latte"]}, "bag"),
        ({"space": -1}, "space"),
        ({"round": 0}, "round"),
        ({"slots": [["", ""]]}, "slots"),
        ({"squares": ["extra_bean"]}, "squares"),
        ({"wild_taken": "yes"}, "wild_taken"),
        ({"used": ["teleport"]}, "used"),
        ({"removed": ["hard"]}, "bag"),  # tokens no longer add up
        ({"cup": ["sweetness"]}, "cup"),
    ],
)
def test_malformed_saved_state_names_the_field(changes, field):
    game = Game(card="Zambia Kasama AA")
    data = json.loads(start().to_json())
    data["state"].update(changes)
    with pytest.raises(ValueError, match=f"field '{field}"):
        game.state_from_json(json.dumps(data))


def test_malformed_saved_state_and_game_are_rejected():
    game = Game(card="Kenya AA")
    with pytest.raises(ValueError, match="not valid JSON"):
        game.state_from_json("{")
    data = json.loads(start("Kenya AA").to_json())
    del data["state"]["tray"]
    with pytest.raises(ValueError, match="'tray': missing"):
        game.state_from_json(json.dumps(data))
    with pytest.raises(ValueError, match="unknown action type"):
        Walkthrough.from_json(json.dumps({"format": "coffeegames-walkthrough/1", "moves": [{"type": "Brew"}]}),
                              game.new_initial_state(), game.action_kinds)


def test_stand_in_files_say_so_first():
    for path in (STAND_IN_CARDS, STAND_IN_BOARD):
        data = json.loads(path.read_text())
        first_key = next(iter(data))
        assert first_key == "_comment" and data[first_key].startswith("STAND-IN DATA, NOT THE PUBLISHED COMPONENTS")
        assert data["stand_in"] is True
    assert len(CARDS) == 22 and sum(c.specialty for c in CARDS) == 5
    assert Counter(c.roast_class for c in CARDS) == {"I": 7, "II": 8, "III": 7}
    assert all(c.difficulty == "expert" for c in CARDS if c.specialty)
    for c in CARDS:
        for side in ("full", "easy"):
            Rules(card=c.name, side=side)  # every card fits the board


def test_facts_in_the_stand_in_data():
    zambia = Rules(card="Zambia Kasama AA").card
    assert zambia.optimum == 16 and zambia.roast_points(16) == 10 and zambia.roast_points(17) == 6
    oaxaca = Rules(card="Mexico Altura Oaxaca")
    assert oaxaca.card.optimum == 14 and oaxaca.draws_at(oaxaca.start_space) == 8
    assert start("Mexico Altura Oaxaca").draw_count == 8
    board = load_board()
    assert sorted(n for n in board.side("full").smoke if n) == [2, 3]
    assert board.titles[-1][1] == "Meister"


def _card_data():
    return json.loads(STAND_IN_CARDS.read_text())


@pytest.mark.parametrize(
    "index, key, value, field",
    [
        (7, "class", "IV", "class"),
        (7, "difficulty", "guru", "difficulty"),
        (7, "tokens", {"hard": 3, "espresso": 1}, "tokens.espresso"),
        (7, "tokens", {"hard": -1}, "tokens.hard"),
        (7, "roast", {"sixteen": 10}, "roast.sixteen"),
        (7, "roast", {"16": 10.5}, "roast.16"),
        (7, "flavour", ["body", "umami"], "flavour"),
        (13, "difficulty", "beginner", "difficulty"),  # a specialty coffee is expert
    ],
)
def test_bad_cards_file_names_card_and_field(tmp_path, index, key, value, field):
    data = _card_data()
    data["cards"][index][key] = value
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    name = data["cards"][index]["name"]
    with pytest.raises(BadData, match=f"card '{name}': field '{field}'"):
        load_cards(path)


def test_cards_file_other_errors(tmp_path):
    data = _card_data()
    data["cards"][1]["name"] = data["cards"][0]["name"]
    with pytest.raises(ValueError, match="two cards have this name"):
        cards_from_dict(data)
    with pytest.raises(ValueError, match="field 'cards'"):
        cards_from_dict({"cards": []})
    with pytest.raises(ValueError, match="field 'deck': unknown"):
        cards_from_dict({"cards": data["cards"], "deck": 1})
    (tmp_path / "broken.json").write_text("[")
    with pytest.raises(BadData, match="not valid JSON"):
        load_cards(tmp_path / "broken.json")
    data = _card_data()
    data["cards"][0]["tokens"]["moisture"] = 9
    with pytest.raises(BadData, match="card 'Mexico Altura Oaxaca': field 'tokens.moisture'"):
        Game(card="Mexico Altura Oaxaca", cards=data)


@pytest.mark.parametrize(
    "path, value, field",
    [
        (("sides", "full", "draws"), [8], "sides.full.draws"),
        (("sides", "full", "crack"), [40], "sides.full.crack"),
        (("sides", "easy", "smoke"), {"99": 2}, "sides.easy.smoke.99"),
        (("sides", "full", "start_by_moisture"), {"4": 12}, "sides.full.start_by_moisture.4"),
        (("immediate", "plus_two"), ["coffee"], "immediate.plus_two"),
        (("cup", "choice_spaces"), [9, 8], "cup.choice_spaces"),
        (("cup", "extra_bean_level"), 7, "cup.extra_bean_level"),
        (("tokens", "wild"), 0, "tokens.wild"),
        (("titles",), [[10, "A"], [5, "B"]], "titles"),
    ],
)
def test_bad_board_file_names_the_field(tmp_path, path, value, field):
    data = json.loads(STAND_IN_BOARD.read_text())
    target = data
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    file = tmp_path / "board.json"
    file.write_text(json.dumps(data))
    with pytest.raises(BadData, match=f"field '{field}'"):
        load_board(file)


def test_a_players_own_data_files_are_used(tmp_path):
    board = json.loads(STAND_IN_BOARD.read_text())
    board["sides"]["full"]["draws"] = [5] * 12
    board["stand_in"] = False
    cards = {"cards": [dict(_card_data()["cards"][7], name="My Zambia")]}
    (tmp_path / "b.json").write_text(json.dumps(board))
    (tmp_path / "c.json").write_text(json.dumps(cards))
    game = Game(card="My Zambia", cards=tmp_path / "c.json", board=tmp_path / "b.json")
    assert game.new_initial_state(seed=0).draw_count == 5
    assert not game.rules.stand_in_data and Rules(card="Kenya AA").stand_in_data
    assert game.rules.table().loc["board", "value"] == "user data"


@pytest.mark.parametrize("option, value", [("side", "back"), ("crack_steps", 0), ("burnt_level", "x"), ("concentrate_limit", 5),
                                           ("reserve_to_bag", 1), ("card", 3)])
def test_bad_option_is_named(option, value):
    options = {"card": "Kenya AA", option: value}
    with pytest.raises((BadArgument, BadType), match=f"argument '{option}'"):
        Rules(**options)


# -- setup and the roasting round ------------------------------------------------------------

def test_setup_bag_marker_smoke_and_shuffle():
    game = Game(card="Zambia Kasama AA")
    s = game.new_initial_state()
    assert s.phase == "shuffle" and s.is_chance() and s.bag == game.rules.card.bag
    assert s.space == game.rules.start_space == 2 and s.smoke == game.rules.thermometer.smoke
    s = s.apply(Shuffled(ORDER))
    assert s.squares == ORDER and s.phase == "draw" and s.draw_count == 7 and s.round == 1
    easy = Game(card="Colombia Supremo", side="easy").new_initial_state()
    assert easy.reserve == ("body", "aroma")  # the card has no Acidity token: only those it has (Ruling)
    assert easy.bag.count("body") == 1 and sum(easy.smoke) == 3


def test_moisture_leaves_and_draw_takes_all_if_fewer():
    s = start().apply(Drawn(("hard", "hard", "moisture", "moisture", "body", "defect", "hard")))
    assert s.phase == "act" and s.drawn == ("hard", "hard", "hard", "defect", "body") and s.removed == ("moisture", "moisture")
    small = replace(start(), phase="decide", bag=("hard", "bean1"), space=4, round=3)
    nxt = small.apply(Continue())
    assert nxt.phase == "draw" and nxt.draw_count == 2


def test_roasting_one_level_two_in_crack_spaces_hard_to_zero_and_burnt():
    s = acting(start(), ["hard", "bean0", "bean3", "bean4", "burnt", "defect", "aroma"])
    after = s.apply(Roast())
    assert after.phase == "decide" and after.drawn == ()
    added = Counter(after.bag) - Counter(s.bag)
    assert added == Counter(["bean0", "bean1", "bean4", "burnt", "burnt", "defect", "aroma"])
    crack = replace(s, space=7, round=6, smoke=(0,) * 12)
    added = Counter(crack.apply(Roast()).bag) - Counter(crack.bag)
    assert added == Counter(["bean0", "bean2", "burnt", "burnt", "burnt", "defect", "aroma"])
    gentle = replace(acting(start(crack_steps=1), ["bean3"]), space=7, round=6, smoke=(0,) * 12)
    assert "bean4" in gentle.apply(Roast()).bag
    assert roast("bean2", 2) == "bean4" and roast("bean3", 2) == "burnt" and roast("hard", 2) == "bean0"


def test_continue_moves_the_marker_and_smoke_goes_into_the_bag():
    s = replace(acting(start(), []), space=5, round=4).apply(Roast())
    assert s.phase == "decide" and s.legal_actions() == [Continue(), Stop()]
    nxt = s.apply(Continue())
    assert nxt.space == 6 and nxt.round == 5 and nxt.bag.count("smoke") == 2 and nxt.smoke[6] == 0
    nxt.check()


def test_the_last_space_forces_the_stop():
    s = replace(acting(start(), []), space=11, round=10, smoke=(0,) * 12)
    after = s.apply(Roast())
    assert after.phase in ("cup_draw", "choice_draw") and after.is_chance()


def test_wild_flavour_paid_over_two_rounds_then_usable():
    s = acting(start(), ["bean0", "bean2"])
    assert PayWild("bean0") in s.legal_actions() and PayWild("bean1") not in s.legal_actions()
    s = s.apply(PayWild("bean0")).apply(Roast()).apply(Continue())
    s = acting(s, ["bean1", "bean2", "bean3"])
    assert s.wild_paid == ("bean0",) and PayWild("bean0") not in s.legal_actions()
    s = s.apply(PayWild("bean1"))
    assert s.wild_taken and "wild" in s.drawn and s.wild_paid == ("bean0", "bean1")
    assert any(isinstance(a, Preserve) and a.flavour == "wild" for a in s.legal_actions())
    assert not any(isinstance(a, PayWild) for a in s.legal_actions())
    s.check()


def test_plus_two_draws_two_more_and_moisture_is_not_redrawn():
    s = acting(start(), ["body", "hard"])
    assert PlusTwo(("body",)) in s.legal_actions()
    s = s.apply(PlusTwo(("body",)))
    assert s.phase == "draw" and s.draw_count == 2 and s.draw_for == "plus_two" and s.paid == ("body",)
    s = s.apply(Drawn(("moisture", "hard")))
    assert s.phase == "act" and s.drawn == ("hard", "hard") and "plus_two" in s.used
    assert not any(isinstance(a, PlusTwo) for a in s.legal_actions())  # once per game
    s.check()
    few = acting(start(), ["body"], bag=["hard"])
    assert not any(isinstance(a, PlusTwo) for a in few.legal_actions())


def test_new_two_returns_two_then_draws_two():
    s = acting(start(), ["acidity", "defect", "body", "hard"])
    action = NewTwo(("acidity",), ("defect", "body"))
    assert action in s.legal_actions()
    s2 = s.apply(action)
    assert s2.drawn == ("hard",) and s2.bag.count("defect") == s.bag.count("defect") + 1 and s2.draw_for == "new_two"
    s3 = s2.apply(Drawn(("hard", "body")))
    assert s3.drawn == ("hard", "hard", "body")
    s3.check()


def test_two_of_five_removes_exactly_two():
    s = acting(start(), ["aroma", "body"])
    assert TwoOfFive(("body", "aroma")) in s.legal_actions()
    s = s.apply(TwoOfFive(("body", "aroma")))
    assert s.draw_count == 5 and s.drawn == ()
    s = s.apply(Drawn(("hard", "hard", "defect", "moisture", "hard")))
    assert s.phase == "remove_two" and s.hand == ("hard", "hard", "hard", "defect")
    assert RemoveTwo(("hard", "defect")) in s.legal_actions() and all(len(a.tokens) == 2 for a in s.legal_actions())
    s = s.apply(RemoveTwo(("hard", "defect")))
    assert s.phase == "act" and s.hand == () and {"defect", "hard", "moisture"} <= set(s.removed)
    s.check()
    tiny = acting(start(), ["aroma", "body"], bag=["hard"] * 4)
    assert not any(isinstance(a, TwoOfFive) for a in tiny.legal_actions())


def test_remove_takes_out_burnt_smoke_and_defect():
    s = acting(start(), ["burnt", "smoke", "defect", "bean2", "acidity"], bag=list(start().bag) + ["burnt", "smoke"])
    assert s.apply(RemoveBad(("acidity",))).removed == ("burnt", "defect", "smoke")
    clean = acting(start(), ["bean2", "acidity"])
    assert not any(isinstance(a, RemoveBad) for a in clean.legal_actions())


def test_flavour_effects_concentrate_preserve_disperse():
    s = acting(start(), ["bean1", "bean2", "bean3", "bean4", "body", "acidity", "aroma"])
    legal = s.legal_actions()
    assert Concentrate(("bean1", "bean2"), "body", 0) in legal and Concentrate(("bean1", "bean3"), "body", 3) in legal
    assert Concentrate(("bean2", "bean3"), "body", 0) not in legal  # level 5 does not exist (Ruling)
    assert not any(isinstance(a, Concentrate) and "bean4" in a.beans for a in legal)
    c = s.apply(Concentrate(("bean1", "bean2"), "body", 0))
    assert c.bag.count("bean3") == s.bag.count("bean3") + 1 and c.supplied == ("bean3",) and c.slots[0] == ("body", "")
    c.check()
    p = s.apply(Preserve(("bean3", "bean4"), "acidity", 1))
    assert p.drawn == ("bean1", "bean2", "body", "aroma") and p.slots[1] == ("acidity", "")
    assert "bean4" in p.apply(Roast()).bag and "burnt" not in p.apply(Roast()).bag
    d = s.apply(Disperse("bean4", ("bean1", "bean3"), "aroma", 2))
    assert d.removed == ("bean4",) and d.supplied == ("bean1", "bean3") and d.slots[2] == ("aroma", "")
    assert Disperse("bean4", ("bean2", "bean2"), "aroma", 2) in legal and Disperse("bean2", ("bean1", "bean1"), "aroma", 4) in legal
    assert not any(isinstance(a, Disperse) and a.square == 3 for a in legal)  # square 3's slots are Body and Acidity
    d.check()
    # after a flavour effect, no immediate effect this round
    assert not any(isinstance(a, (PlusTwo, NewTwo, TwoOfFive, RemoveBad, PayWild)) for a in d.legal_actions())


def test_two_filled_slots_move_the_cup_effect_and_full_squares_refuse_flavours():
    s = acting(start(), ["bean1", "bean2", "bean1", "bean2", "body", "body"])
    s = s.apply(Concentrate(("bean1", "bean2"), "body", 0))
    assert s.active == ()
    s = s.apply(Concentrate(("bean1", "bean2"), "body", 0))
    assert s.slots[0] == ("body", "body") and s.active == ("extra_bean",)
    assert not any(isinstance(a, Concentrate) and a.square == 0 for a in s.legal_actions())
    s.check()


def test_easy_side_reserve_is_used_and_chosen_token_by_token_at_the_stop():
    game = Game(card="Zambia Kasama AA", side="easy")
    s = game.new_initial_state().apply(Shuffled(ORDER))
    s = acting(s, ["bean4", "bean3"])
    assert s.reserve == ("body", "acidity", "aroma") and Preserve(("bean3", "bean4"), "acidity", 1) in s.legal_actions()
    s = s.apply(Preserve(("bean3", "bean4"), "acidity", 1))
    assert s.reserve == ("body", "aroma")
    s = s.apply(Roast())
    assert s.reserve == ("body", "aroma")  # stays on the board across rounds
    c = s.apply(Stop())
    assert c.phase == "reserve" and c.reserve == ("body", "aroma") and len(c.legal_actions()) == 4
    c.check()
    one = c.apply(ReserveToBag(("body",)))
    assert one.reserve == ("aroma",) and one.bag.count("body") == s.bag.count("body") + 1 and one.phase == "cup_draw"
    one.check()
    old = Game(card="Zambia Kasama AA", side="easy", rules_version=1).new_initial_state().apply(Shuffled(ORDER))
    forced = replace(old, phase="decide").apply(Stop())
    assert forced.reserve == () and forced.phase == "cup_draw"  # rules_version 1: all forced into the bag
    kept = Game(card="Zambia Kasama AA", side="easy", rules_version=1, reserve_to_bag=False).new_initial_state().apply(Shuffled(ORDER))
    assert replace(kept, phase="decide").apply(Stop()).reserve == ("body", "acidity", "aroma")


# -- the cup test --------------------------------------------------------------------------------

def test_cup_test_places_tokens_and_moisture_is_redrawn():
    s = cup_test(start(), ["bean2", "moisture", "hard"])
    assert s.is_chance()
    s1 = s.apply(Drawn(("moisture",)))
    assert s1.phase == "cup_draw" and s1.removed[-1] == "moisture"
    s2 = s1.apply(Drawn(("hard",)))
    assert s2.phase == "place" and s2.legal_actions() == [ToCup(), ToTray()]
    s3 = s2.apply(ToTray())
    assert s3.tray == ("hard",) and s3.phase == "cup_draw"
    s4 = s3.apply(Drawn(("bean2",))).apply(ToCup())
    assert s4.cup == ("bean2",) and s4.phase == "over"  # the bag is empty: the cup test ends with empty spaces
    assert s4.returns() == (s4.rules.score(("bean2",)).total,) and s4.score().minus == 3 + 5


def test_full_tray_sends_the_token_to_the_cup_and_cardboard_tray_adds_spaces():
    s = cup_test(start(), ["hard", "hard"], tray=["smoke"] * 3)
    assert s.apply(Drawn(("hard",))).cup == ("hard",)
    tray_active = tuple(("acidity", "aroma") if i == 4 else row for i, row in enumerate(start().slots))
    s = cup_test(start(), ["hard", "hard"], tray=["smoke"] * 3, slots=tray_active)
    assert s.tray_spaces == 5 and s.apply(Drawn(("hard",))).phase == "place"
    easy = cup_test(start(side="easy"), ["hard"], slots=tray_active)
    assert easy.tray_spaces == 6


def test_sweetness_fills_its_space_and_extra_bean_adds_to_the_roast_level():
    slots = (("body", "body"), ("acidity", "acidity"), ("", ""), ("", ""), ("", ""))
    s = cup_test(start(), ["bean2"] * 5, cup=("bean1",) * 9, slots=slots)
    s = s.next_cup_space()
    assert s.cup[-1] == "sweetness" and s.phase == "over"
    assert s.cup_tokens()[-1] == "extra_bean"
    assert s.score().roast_level == 9 + 2 and s.score().minus == 0


def test_choice_draws_two_keeps_one_returns_the_other():
    slots = (("", ""), ("", ""), ("aroma", "aroma"), ("", ""), ("", ""))
    s = cup_test(start(), ["bean2", "defect", "moisture", "hard"], cup=("bean1",) * 7, slots=slots).next_cup_space()
    assert s.phase == "choice_draw"
    s = s.apply(Drawn(("defect",))).apply(Drawn(("moisture",)))
    assert s.phase == "choice_draw" and s.hand == ("defect",)  # moisture redrawn until two
    s = s.apply(Drawn(("bean2",)))
    assert s.phase == "choose" and set(s.legal_actions()) == {Keep("defect"), Keep("bean2")}
    s = s.apply(Keep("bean2"))
    assert s.cup[-1] == "bean2" and "defect" in s.bag and s.phase == "choice_draw"


def test_exchange_returns_two_draws_three_keeps_two():
    slots = (("", ""), ("", ""), ("", ""), ("body", "acidity"), ("", ""))
    s = cup_test(start(), ["bean3", "bean3", "aroma", "moisture"], cup=("bean2",) * 8 + ("defect", "burnt"), slots=slots)
    s = s.next_cup_space()
    assert s.phase == "exchange" and NoExchange() in s.legal_actions()
    assert s.apply(NoExchange()).phase == "over"
    s = s.apply(Exchange(("defect", "burnt")))
    assert s.cup == ("bean2",) * 8 and s.exchanged and s.phase == "exchange_draw"
    s = s.apply(Drawn(("moisture",))).apply(Drawn(("bean3",))).apply(Drawn(("burnt",))).apply(Drawn(("aroma",)))
    assert s.phase == "exchange_keep" and KeepTwo(("bean3", "aroma")) in s.legal_actions()
    s = s.apply(KeepTwo(("bean3", "aroma")))
    assert s.phase == "over" and len(s.cup) == 10 and "burnt" in s.bag


# -- scoring and the menu --------------------------------------------------------------------------

def test_scoring_the_rulebook_examples():
    zambia = Rules(card="Zambia Kasama AA").card
    beans = ["bean2"] * 3 + ["bean3"] + ["bean4"] * 2
    s = score_cup(beans + ["aroma", "body", "acidity", "burnt"], zambia)
    assert (s.roast_level, s.roast, s.matches, s.flavour, s.skill, s.minus) == (17, 6, 3, 6, 1, 1)
    assert s.total == 12  # Joy's example total
    assert score_cup(["bean4"] * 4, zambia).roast == 10 and score_cup(["bean4"] * 4, zambia).roast_level == 16
    # flavour: a card asking two Aroma and an Acidity; Sweetness stands in for the Acidity
    assert flavour_matches(["aroma", "aroma", "sweetness"], ["aroma", "aroma", "acidity"]) == 3
    # a card that requires Sweetness: Sweetness counts only for it; wild matches anything
    assert flavour_matches(["sweetness", "sweetness"], ["body", "sweetness"]) == 1
    assert flavour_matches(["wild", "body"], ["body", "sweetness"]) == 2
    assert flavour_matches(["body"] * 5, ["body", "body"]) == 2


def test_scoring_points_and_minus():
    card = Rules(card="Kenya AA").card
    assert score_cup(["bean1"] * 7 + ["bean2"] * 3, card).skill == 5
    assert score_cup(["bean1"] * 6 + ["bean2"] * 4, card).skill == 4
    s = score_cup(["hard", "burnt", "smoke", "defect"] + ["bean0"] * 6, card)
    assert s.minus == 1 + 1 + 1 + 2 + 3 and s.skill == 4 and s.roast == 0
    assert score_cup(["bean2"] * 9, card).minus == 3 + 5  # no flavour, an empty space (−5 once)
    assert score_cup(["bean2"] * 9 + ["sweetness"], card).minus == 0
    assert score_cup(["burnt"] * 10, card, burnt_level=5).roast_level == 50
    with pytest.raises(ValueError, match="moisture"):
        score_cup(["moisture"], card)


@pytest.mark.parametrize("burnt_level", [0, 2])
def test_tokens_of_one_scoring_class_score_alike_in_every_cup(burnt_level):
    """The cup-test solver merges tokens of one class: swapping one for another never changes a score (random cups,
    every stand-in card, with and without Sweetness and the Extra Bean), and tokens of different classes differ somewhere."""
    from coffeegames.roaster import MOISTURE, TOKENS

    rng = np.random.default_rng(burnt_level)
    tokens = [t for t in TOKENS if t != MOISTURE]
    merged = 0
    for card in load_cards():
        cls = {t: scoring_class(t, card, burnt_level) for t in tokens}
        pairs = [(a, b) for a in tokens for b in tokens if a < b and cls[a] == cls[b]]
        merged += len(pairs)
        for _ in range(40):
            cup = list(rng.choice(tokens, size=int(rng.integers(1, 10))))
            extras = [e for e in ("sweetness", "extra_bean") if rng.random() < 0.3]
            for a, b in pairs:
                if a in cup:
                    swapped = [b if t == a else t for t in cup]
                    assert score_cup(cup + extras, card, burnt_level=burnt_level) == \
                        score_cup(swapped + extras, card, burnt_level=burnt_level), (card.name, a, b, cup)
        for a in tokens:
            for b in tokens:
                if cls[a] != cls[b]:  # some small cup tells them apart
                    cups = ([a] + ["bean2"] * 9, [a, b] + ["bean2"] * 8, [a, "smoke"] + ["bean2"] * 7, [a] * 3 + ["bean2"] * 7)
                    assert any(score_cup(c, card, burnt_level=burnt_level) != score_cup([b if t == a else t for t in c], card,
                                                                                           burnt_level=burnt_level) for c in cups), (a, b)
    assert merged > 0
    with pytest.raises(ValueError, match="not a bag token"):
        scoring_class("sugar", load_cards()[0])


def test_menu_difficulty_and_title():
    assert [next_difficulty(s) for s in (-3, 9, 10, 14, 15, 30)] == ["beginner", "beginner", "advanced", "advanced", "expert", "expert"]
    m = Menu()
    assert (m.next_class, m.next_difficulty) == ("I", "beginner")
    assert all(c.roast_class == "I" and c.difficulty == "beginner" for c in m.choices())
    m = m.record("Mexico Altura Oaxaca", 15)
    assert (m.next_class, m.next_difficulty) == ("II", "expert")
    assert {c.name for c in m.choices()} == {"Jamaica Blue Mountain", "Hawaii Kona"}
    m = m.record("Hawaii Kona", 9)
    assert (m.next_class, m.next_difficulty, m.title()) == ("III", "beginner", None)
    m = m.record("India Monsooned Malabar", 40)
    assert m.finished and m.total == 64 and m.title() == "Meister" and m.next_class is None
    with pytest.raises(ValueError):
        m.record("Kenya AA", 1)
    assert Menu(first="expert").next_difficulty == "expert"


def test_state_contract_basics():
    s = Game(card="Kenya AA").new_initial_state(seed=3)
    assert s.is_chance() and s.legal_actions() == [] and hash(s) == hash(replace(s))
    a = acting(start(), ["hard"])
    assert a.current_player() == 0 and a.chance_outcomes() == [] and a.legal_actions() == [Roast()]
    assert {BEANS[roast_level(b)] for b in BEANS} == set(BEANS)
