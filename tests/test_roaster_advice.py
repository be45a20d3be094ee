"""advice_frame(advise(state)) for Coffee Roaster: its values are the cup solver's, every legal action once, the best marked."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from coffeegames.engine import advice_frame
from coffeegames.roaster import (
    CONTINUE_OPTIONS,
    STOP_OPTIONS,
    Drawn,
    Game,
    Roast,
    Shuffled,
    Stop,
    ToCup,
    advise,
    next_round_risks,
    one_more_round,
    stop_now,
)

ORDER = ("extra_bean", "sweetness", "choice", "exchange", "tray")


def decide_state():
    s = Game(card="Mexico Altura Oaxaca").new_initial_state().apply(Shuffled(ORDER))
    return s.apply(Drawn(("hard",) * 5 + ("moisture", "acidity", "acidity"))).apply(Roast())


def play_to(phase: str, seed: int = 0):
    s = Game(card="Mexico Altura Oaxaca").new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while s.phase != phase:
        assert not s.is_terminal()
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
        elif s.phase == "decide":
            s = s.apply(Stop())
        elif s.phase == "place":
            s = s.apply(ToCup())
        else:
            s = s.apply(s.legal_actions()[-1])
    return s


def check_shape(table, state) -> None:
    legal = list(state.legal_actions())
    roast_first = sorted(legal, key=lambda a: not isinstance(a, Roast))  # a round lists Roast first, the rest in order
    valued = [v for v in table["value"] if v is not None]
    if valued:
        assert sorted(map(repr, table["action"])) == sorted(map(repr, legal))  # every legal action, once
        assert valued == sorted(valued, reverse=True) and len(valued) == len(table)  # best first
        assert list(table["best"]) == [v is not None and v == max(valued) for v in table["value"]]
        assert table["best"].sum() >= 1
    else:
        assert list(table["action"]) == roast_first  # every legal action, once
        assert not table["best"].any()


def test_stop_and_continue_equal_the_solvers() -> None:
    s = decide_state()
    table = advice_frame(advise(s)).set_index("label")
    check_shape(advice_frame(advise(s)), s)
    stop = stop_now(s, **STOP_OPTIONS)
    more = one_more_round(s, **CONTINUE_OPTIONS)
    stop_row = table.loc[[i for i in table.index if i.startswith("Stop")][0]]
    cont_row = table.loc[[i for i in table.index if i.startswith("Continue")][0]]
    assert stop_row["value"] == stop.value and stop_row["exact"] == stop.exact
    assert cont_row["value"] == more.value and cont_row["exact"] == more.exact
    assert isinstance(stop_row["value"], Fraction) and cont_row["how"] == more.message
    assert (cont_row["risk"], cont_row["p_smoke"]) == next_round_risks(s)
    assert stop_row["risk"] is None and stop_row["p_smoke"] is None
    for label, row in table.iterrows():
        assert label in ("Stop()", "Continue()") and row["exact"] in (True, False)  # no "≈" in a label: the row says


def test_an_exact_stop_value_matches_stop_now_without_a_budget() -> None:
    s = decide_state()
    full = stop_now(s, max_states=None)
    row = advice_frame(advise(s)).set_index("action").loc[Stop()]
    if row["exact"]:
        assert row["value"] == full.value


@pytest.mark.parametrize("seed", [0, 3])
def test_cup_test_choices_are_stop_now_from_the_next_state(seed: int) -> None:
    s = play_to("place", seed)
    table = advice_frame(advise(s))
    check_shape(table, s)
    for action, value, exact in zip(table["action"], table["value"], table["exact"]):
        r = stop_now(s.apply(action), **STOP_OPTIONS)
        assert value == r.value and exact == r.exact


def test_effects_carry_no_value_but_are_all_listed() -> None:
    s = Game(card="Mexico Altura Oaxaca").new_initial_state().apply(Shuffled(ORDER))
    s = s.apply(Drawn(("hard",) * 5 + ("moisture", "acidity", "acidity")))
    table = advice_frame(advise(s))
    check_shape(table, s)
    assert all(v is None for v in table["value"]) and all("not valued" in t for t in table["then"])
    assert len(set(table["label"])) == len(table)


def test_a_late_place_decision_is_exact_and_prefers_the_better_spot() -> None:
    s = play_to("place", 0)
    while True:  # go on filling the cup until the solve is exact
        table = advice_frame(advise(s))
        if all(table["exact"]):
            break
        s = s.apply(ToCup())
        rng = np.random.default_rng(1)
        while s.is_chance():
            s = s.apply(s.sample_chance(rng))
        if s.phase != "place":
            pytest.skip("the cup test ended before an exact decision")
    best = table.loc[table["best"], "action"].iloc[0]
    assert stop_now(s).action(s) == best or table["value"].nunique() == 1


def test_every_choice_during_a_round_carries_its_exact_burn_chance_for_this_roast():
    """Checked against the engine: apply the choice, let every draw it makes happen, roast, and see if a bean burnt."""
    from dataclasses import replace

    from coffeegames.roaster import msort, round_burn

    s = Game(card="Zambia Kasama AA").new_initial_state().apply(Shuffled(ORDER))
    s = replace(s, bag=msort(("bean4", "bean3", "bean3", "bean1", "bean2", "bean2", "moisture", "smoke") + ("body", "acidity", "aroma") * 2))
    s = s.apply(Drawn(("bean3", "bean2", "body", "acidity", "aroma", "body", "acidity")))

    def burnt(state) -> int:
        return sum(t == "burnt" for t in state.bag + state.drawn + state.removed)

    def engine_burn(state) -> Fraction:  # P(the roast burns a bean), every chance outcome listed by the engine
        if state.is_chance():
            return sum((p * engine_burn(state.apply(d)) for d, p in state.chance_outcomes()), Fraction(0))
        if state.phase == "remove_two":
            return engine_burn(state.apply(state.legal_actions()[0]))  # what is removed does not change the draw
        return Fraction(burnt(state.apply(Roast())) > burnt(state))

    table = advice_frame(advise(s))
    assert table["risk"].notna().all() and table["value"].isna().all()
    kinds = set()
    for action, p in zip(table["action"], table["risk"]):
        assert p == round_burn(s, action) == engine_burn(s if isinstance(action, Roast) else s.apply(action)), action
        kinds.add(type(action).__name__)
    assert {"PlusTwo", "NewTwo", "Preserve", "Roast"} <= kinds and len(set(table["risk"])) > 2
