"""The Coffee Roaster rulebook's worked scoring example, as the rulebook gives it: a final score of 12.

The rulebook's scoring section follows one cup through its four parts (translated from the Korean rulebook):

- roast points: "three level-2 beans, one level-3 bean and two level-4 beans: a total roast level of 17 (3×2+3+2×4),
  so 6 roast points" (and "Zambia Kasama AA's best roast level is 16, for its top score of 10 roast points");
- flavour points: "the coffee card asks for two Aroma flavour tokens, and Joy's cup has both. The card also asks for
  one Acidity: the cup has none, but the Sweetness cup effect can replace it with an Acidity token. So Joy matches
  3 tokens and scores 6 flavour points" (1, 2, 3, 4 matches score 1, 3, 6, 10);
- skill points: "Joy has three level-2 beans: 1 skill point";
- minus points: "Joy has one burnt bean: 1 minus point";
- "Joy's final score is 12."

The rulebook does not print the card of the flavour example, and names Zambia only for the roast points. The stand-in
Zambia card asks Body, Aroma, Acidity (a Stand-in), on which the same cup scores 9; so the example is scored here on a
card that asks what the rulebook says (two Aroma and one Acidity), with Zambia's roast table, which the rulebook's
example fixes at 17 → 6.
"""

from __future__ import annotations

from dataclasses import replace

from coffeegames.roaster import score_cup
from coffeegames.roaster.data import load_cards

CUP = ["bean2"] * 3 + ["bean3", "bean4", "bean4", "aroma", "aroma", "sweetness", "burnt"]
"""Joy's cup: the beans of the roast-point example, two Aroma, Sweetness and a burnt bean (10 spaces)."""


def example_card():
    zambia = next(card for card in load_cards() if card.name == "Zambia Kasama AA")
    return replace(zambia, name="the rulebook's flavour example", flavours=("aroma", "aroma", "acidity"))


def test_the_rulebooks_example_scores_12() -> None:
    score = score_cup(CUP, example_card())
    assert (score.roast_level, score.roast, score.matches, score.flavour, score.skill, score.minus) == (17, 6, 3, 6, 1, 1)
    assert score.total == 12


def test_the_example_part_by_part_from_the_rulebooks_sentences() -> None:
    """Each part counted from the cup by the sentences above, without the library's scorer."""
    beans = [int(token[-1]) for token in CUP if token.startswith("bean")]
    roast_level = sum(beans)
    roast = {16: 10, 17: 6}[roast_level]  # the example's own numbers
    asked = ["aroma", "aroma", "acidity"]
    held = [token for token in CUP if token in ("aroma", "acidity", "body")]
    matches, sweetness = 0, "sweetness" in CUP
    for flavour in asked:
        if flavour in held:
            held.remove(flavour)
            matches += 1
        elif sweetness:  # Sweetness replaces one missing flavour, once
            sweetness = False
            matches += 1
    flavour_points = {1: 1, 2: 3, 3: 6, 4: 10}[matches]
    skill = {3: 1, 4: 2, 5: 3, 6: 4}.get(max(beans.count(level) for level in set(beans)), 0)
    minus = CUP.count("burnt")
    assert (roast_level, roast, matches, flavour_points, skill, minus) == (17, 6, 3, 6, 1, 1)
    assert roast + flavour_points + skill - minus == 12 == score_cup(CUP, example_card()).total


def test_on_the_stand_in_zambia_card_the_same_cup_scores_9() -> None:
    """The stand-in card asks Body, Aroma, Acidity: the second Aroma matches nothing, so 2 matches (3 points)."""
    zambia = next(card for card in load_cards() if card.name == "Zambia Kasama AA")
    assert zambia.flavours == ("body", "aroma", "acidity")
    assert score_cup(CUP, zambia).total == 6 + 3 + 1 - 1
