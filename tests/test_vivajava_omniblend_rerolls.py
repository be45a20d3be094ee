"""OmniBlend's re-rolls as the rules say them (issue 28), against a brute-force count over the dice at every METER level.

The rules (``vivajava-dice.zh.txt``):

    在OT的回合中，如果沒有得到特色調豆的話，依據METER指示物所在的數字執行「重擲」動作
    (in OmniBlend's turn, if it makes no Featured Blend, it re-rolls as many times as the METER shows)

    重擲的過程中，OT永遠保留最好組合的骰子，然後重擲剩下的骰子。除非在一開始的擲骰中，產生彩虹調豆，
    否則要盡可能地使用重骰的能力，得到最好的結果
    (re-rolling, OmniBlend always keeps the dice of its best group, then re-rolls the rest. Unless its
    first roll made a Rainbow, it uses its re-rolls as far as they go, for the best result)

So: a first-roll Featured Blend ends the roll; else a first-roll Rainbow is taken; else every
re-roll the METER gives is used, keeping the best group each time, and the last dice make its
blend (``omniblend_rerolls="seed"``). The library's older readings stay options:
``"stop_at_blend"`` (stop at the first blend a re-roll reaches) and ``"always"`` (re-roll a
first-roll blend too). The brute force below enumerates the dice as colour multisets with
their multinomial weights, written from those sentences, not from the engine or the odds code.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod
from pathlib import Path

import pytest

from coffeegames.errors import BadArgument, BadData, IllegalAction
from coffeegames.vivajava import (
    COLOURS, OMNIBLEND_REROLLS, Blend, Game, load_walkthrough, omniblend_beats, omniblend_groups, omniblend_success,
)
from coffeegames.engine import Walkthrough

LEVELS = range(0, 7)  # every number OmniBlend's stand-in METER shows
WAYS = OMNIBLEND_REROLLS


def rolls(n: int) -> list[tuple[tuple[str, ...], Fraction]]:
    """Every roll of ``n`` coffee dice as a sorted multiset of colours, with its exact chance."""
    return [(faces, Fraction(factorial(n) // prod(factorial(k) for k in Counter(faces).values()), 6**n))
            for faces in combinations_with_replacement(COLOURS, n)]


def best_group(dice: tuple[str, ...]) -> tuple[int, str]:
    """The best group: the most dice of one colour, ties to the higher colour (later in COLOURS)."""
    size, rank = max((dice.count(colour), rank) for rank, colour in enumerate(COLOURS))
    return size, COLOURS[rank]


def blend_of(dice: tuple[str, ...]) -> tuple[object, ...]:
    """What the dice make facing an empty coaster: a Featured Blend needs three alike."""
    size, colour = best_group(dice)
    return ("blend", size, colour) if size >= 3 else ("none",)


@lru_cache(maxsize=None)
def after_rerolls(dice: tuple[str, ...], left: int, way: str) -> tuple[tuple[tuple[object, ...], Fraction], ...]:
    """From dice after a re-roll (or a first roll that goes on), with ``left`` re-rolls: the law of the result."""
    size, colour = best_group(dice)
    if left == 0 or size == 5 or (way == "stop_at_blend" and size >= 3):
        return ((blend_of(dice), Fraction(1)),)
    law: Counter[tuple[object, ...]] = Counter()
    for again, p in rolls(5 - size):  # keep the best group, re-roll the rest
        for result, q in after_rerolls(tuple(sorted((colour,) * size + again)), left - 1, way):
            law[result] += p * q
    return tuple(law.items())


def turn(rerolls: int, holds_rainbow: bool, way: str) -> dict[tuple[object, ...], Fraction]:
    """OmniBlend's whole roll with ``rerolls`` re-rolls, facing an empty coaster: its result's exact law."""
    law: Counter[tuple[object, ...]] = Counter()
    for dice, p in rolls(5):
        size, _ = best_group(dice)
        if size >= 3 and way != "always":  # a first-roll Featured Blend ends the roll
            law[blend_of(dice)] += p
        elif size == 1 and not holds_rainbow:  # a first-roll Rainbow (five colours) is taken
            law[("rainbow",)] += p
        else:
            for result, q in after_rerolls(dice, rerolls, way):
                law[result] += p * q
    assert sum(law.values()) == 1
    return dict(law)


def engine_turn(rerolls: int, holds_rainbow: bool, way: str) -> dict[tuple[object, ...], Fraction]:
    """The same roll played by the engine, every chance node listed exactly."""
    start = Game(solo="omniblend", solo_first="you", omniblend_rerolls=way).new_initial_state()
    start = replace(start, turn=1, phase="corp", meter=rerolls, rolling_white=5, rolling_own=0, corp_rerolls=rerolls,
                    corp_first=True, rainbow_by=1 if holds_rainbow else -1)
    assert start.meter_shows == rerolls and start.is_chance()

    @lru_cache(maxsize=None)
    def law(state: object) -> tuple[tuple[tuple[object, ...], Fraction], ...]:
        if state.phase != "corp":  # its roll is over
            if state.featured_by == 1:
                return ((("blend", state.featured_size, state.featured_colour), Fraction(1)),)
            return ((("rainbow",) if state.rainbow_by == 1 and not holds_rainbow else ("none",), Fraction(1)),)
        total: Counter[tuple[object, ...]] = Counter()
        for outcome, p in state.chance_outcomes():
            for result, q in law(state.apply(outcome)):
                total[result] += p * q
        return tuple(total.items())

    return dict(law(start))


def bold_or_better(law: dict[tuple[object, ...], Fraction]) -> Fraction:
    return sum((p for result, p in law.items() if result[0] == "blend" and result[1] >= 4), Fraction(0))


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_place_that_computes_omniblends_odds_agrees_with_the_count(level: int, way: str) -> None:
    for holds_rainbow in (False, True):
        expected = turn(level, holds_rainbow, way)
        if level <= 3 or not holds_rainbow:  # the engine's exact walk (the higher levels take seconds each)
            assert engine_turn(level, holds_rainbow, way) == expected
        groups = omniblend_groups(level, takes_rainbow=not holds_rainbow, omniblend_rerolls=way)
        by_size: Counter[int] = Counter()
        for result, p in expected.items():
            if result[0] == "blend":
                by_size[result[1]] += p
        assert {g: groups[g] for g in (3, 4, 5)} == {g: by_size[g] for g in (3, 4, 5)}
        success = sum(by_size.values(), Fraction(0))
        assert omniblend_success(level, takes_rainbow=not holds_rainbow, omniblend_rerolls=way) == success
        assert omniblend_beats(Blend.of(2, "black"), level, takes_rainbow=not holds_rainbow, omniblend_rerolls=way) == success


def test_the_rules_reading_is_the_default_and_ends_with_better_blends_than_stopping() -> None:
    assert Game(solo="omniblend").rules.omniblend_rerolls == "seed"
    red = Game(solo="omniblend", meter="red").rules
    rerolls = red.meter_values[red.meter_start]
    assert rerolls == 3
    bold = {way: bold_or_better(turn(rerolls, False, way)) for way in WAYS}
    # the reading of the rules: about 29% Bold or better, against 11.5% stopping at a blend and 41.6% always
    assert abs(float(bold["seed"]) - 0.29) < 0.005 and abs(float(bold["stop_at_blend"]) - 0.115) < 0.005
    assert bold["stop_at_blend"] < bold["seed"] < bold["always"]
    assert omniblend_groups(rerolls, takes_rainbow=True).at_least(4) == bold["seed"]


def test_a_first_roll_blend_ends_the_roll_and_later_blends_are_re_rolled() -> None:
    from coffeegames.vivajava import Rolled

    start = Game(solo="omniblend", solo_first="you").new_initial_state()
    start = replace(start, turn=1, phase="corp", meter=3, rolling_white=5, rolling_own=0, corp_rerolls=3, corp_first=True)
    first = start.apply(Rolled(white=("green", "green", "green", "red", "white")))
    assert first.featured_by == 1 and first.featured == Blend.of(3, "green") and first.meter == 2
    before = start.apply(Rolled(white=("red", "red", "white", "yellow", "black")))
    assert before.white == ("red", "red") and before.corp_rerolls == 2
    step = before.apply(Rolled(white=("red", "brown", "black")))  # a blend after a re-roll: it re-rolls on
    assert step.phase == "corp" and step.white == ("red",) * 3 and step.corp_rerolls == 1
    step = step.apply(Rolled(white=("white", "brown")))
    assert step.phase == "corp" and step.corp_rerolls == 0  # its third and last re-roll to come
    last = step.apply(Rolled(white=("white", "brown")))
    assert last.featured == Blend.of(3, "red") and last.featured_by == 1  # its last dice make its blend
    stopping = replace(before, rules=Game(solo="omniblend", omniblend_rerolls="stop_at_blend").rules)
    stopped = stopping.apply(Rolled(white=("red", "brown", "black")))  # the old default stopped there
    assert stopped.phase != "corp" and stopped.featured == Blend.of(3, "red")
    # five colours after a re-roll are no Rainbow: it keeps one die (ties: the higher colour) and re-rolls
    holding = replace(start, rainbow_by=1).apply(Rolled(white=("white", "yellow", "brown", "red", "green")))
    assert holding.white == ("green",) and holding.corp_rerolls == 2
    again = holding.apply(Rolled(white=("white", "yellow", "brown", "black")))
    assert again.phase == "corp" and again.white == ("black",) and again.corp_rerolls == 1


OLD_SAVES = json.loads((Path(__file__).parent / "data" / "vivajava_omniblend_stops.json").read_text())["cases"]


@pytest.mark.parametrize("case", OLD_SAVES, ids=lambda case: f"omniblend_stops={case['omniblend_stops']}")
def test_saves_holding_the_old_flag_replay_with_their_old_behaviour(case: dict[str, object]) -> None:
    """Saves made by a9d45db (``tests/data/make_vivajava_omniblend_stops.py``) replay to the same last position."""
    saved = json.loads(str(case["walkthrough"]))
    game, walk = load_walkthrough(str(case["walkthrough"]))
    way = "stop_at_blend" if case["omniblend_stops"] else "always"
    assert game.rules.omniblend_rerolls == way and game.options == saved["options"]
    assert len(walk.moves) == case["moves"] and game.state_from_json(str(case["final"])) == walk.state
    assert json.loads(walk.to_json(game)) == saved  # saved again, the same file
    # under the rules' reading the same moves make another game: the old behaviour is what replayed them
    seed_game = Game(**{**{k: v for k, v in saved["options"].items() if k != "omniblend_stops"}, "omniblend_rerolls": "seed"})
    seed_game.options = saved["options"]
    try:
        replayed = Walkthrough.from_json(str(case["walkthrough"]), seed_game.new_initial_state(), seed_game.action_kinds, seed_game)
    except IllegalAction:
        return
    assert replayed.state != walk.state


def test_the_old_flag_is_refused_outside_saves_and_checked_in_them() -> None:
    saved = json.loads(str(OLD_SAVES[0]["walkthrough"]))
    for bad in ("yes", None):
        with pytest.raises(BadData, match="omniblend_stops"):
            load_walkthrough(json.dumps({**saved, "options": {**saved["options"], "omniblend_stops": bad}}))
    with pytest.raises(BadData, match="omniblend_stops"):  # not both
        load_walkthrough(json.dumps({**saved, "options": {**saved["options"], "omniblend_rerolls": "seed"}}))
    with pytest.raises(BadArgument, match="omniblend_stops"):
        Game(solo="omniblend", omniblend_stops=True)
    with pytest.raises(BadArgument, match="omniblend_rerolls"):
        Game(solo="omniblend", omniblend_rerolls="never")
    assert Game(solo="omniblend", rules_version=2).rules.omniblend_rerolls == "stop_at_blend"
    assert Game(solo="omniblend", rules_version=1).rules.omniblend_rerolls == "stop_at_blend"
