"""Public calls that answered bad input with a silent 0, a stray exception, an endless loop or a cached answer now
refuse it with the library's own error, naming the argument (issue 29's sweep found each of these)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from coffeegames import dairyman, roaster, rush, vivajava
from coffeegames.errors import BadArgument, BadType, CoffeeGamesError, TooBig
from coffeegames.exact import Bag
from coffeegames.vivajava.dice import Blend

DECK = {("coffee", "milk"): 2, ("milk", "tea"): 1}

CASES: list[tuple[str, Callable[[], object], type[CoffeeGamesError], str]] = [
    # misspelt names once counted 0
    ("rush ingredient", lambda: rush.ingredient_dist(DECK, "cofee", 2), BadArgument, "ingredient"),
    ("rush units", lambda: rush.units_dist(DECK, "mlik", 1), BadArgument, "ingredient"),
    ("rush held", lambda: rush.p_needs(DECK, ["teaa"]), BadArgument, "held"),
    ("rush specialty", lambda: rush.specialty_dist(DECK, ["caramle"], 1), BadArgument, "specialty"),
    ("roaster token", lambda: roaster.p_any(Bag({"smoke": 1, "bean1": 2}), ["smoek"], 2), BadArgument, "tokens"),
    # flags and counts of the wrong type
    ("research flag", lambda: vivajava.research("white", 1, 0, "no"), BadType, "jokers_count"),
    ("rerolls float", lambda: vivajava.omniblend_beats(Blend(2, 6), 2.5), BadType, "rerolls"),
    ("rerolls negative", lambda: vivajava.omniblend_beats(Blend(2, 6), -1), BadArgument, "rerolls"),
    ("rerolls huge", lambda: vivajava.omniblend_beats(Blend(2, 6), 10**9), TooBig, "rerolls"),
    ("omniblend target", lambda: vivajava.omniblend_beats((2, 6), 1), BadType, "target"),  # type: ignore[arg-type]
    # stray exception types
    ("has_set_array", lambda: dairyman.has_set_array(5), BadType, "counts"),  # type: ignore[arg-type]
    ("has_set_array shape", lambda: dairyman.has_set_array(np.zeros((2, 5), dtype=int)), BadType, "counts"),
    ("rush match unhashable", lambda: rush.count_dist(DECK, [["coffee"]], 1), BadType, "match"),
]


@pytest.mark.parametrize("call, error, word", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_gets_the_library_error_naming_the_argument(call: Callable[[], object], error: type[Exception],
                                                              word: str) -> None:
    with pytest.raises(error) as raised:
        call()
    assert word in str(raised.value) and len(str(raised.value)) < 300


def test_real_names_still_answer() -> None:
    """The checks refuse unknown names only: a board ingredient no order left needs, a token kind not in the bag."""
    assert rush.p_needs(DECK, ["steam"]) == 0  # steam is on the board; no order of this deck needs it
    assert roaster.p_any(Bag({"smoke": 1, "bean1": 2}), ["moisture"], 2) == 0
    assert roaster.p_any(Bag({"x": 1, "bean1": 2}), ["x"], 1) == Bag({"x": 1, "bean1": 2}).draw(1).prob(lambda d: "x" in d)


def test_a_cached_answer_never_skips_the_check() -> None:
    """4.0 equals 4 and hashes alike: once coffee_dice=4 was answered, 4.0 must still be refused, not served."""
    assert vivajava.p_at_least(3, coffee_dice=4) > 0
    with pytest.raises(BadType, match="coffee_dice"):
        vivajava.p_at_least(3, coffee_dice=4.0)  # type: ignore[arg-type]
    with pytest.raises(BadType, match="coffee_dice"):
        vivajava.p_at_least(3, coffee_dice=True)
