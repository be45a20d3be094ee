"""The bots stronger than greedy in VivaJava and Coffee Roaster (issue 31): legal choices, and the rules their
docstrings state, checked at the decisions of small seeded games. How much stronger is measured in
``benchmarks/analyse_findings.py`` (README.md's findings), never here.

Each rule is written out here from the docstring, not read from the bot: VivaJava's bot never makes a Featured Blend
while it holds the Rainbow, never uses another player's dice, takes a Rainbow it does not hold before anything else;
Coffee Roaster's bot stops exactly when the forecast cup level reaches the card's optimum less five, and in the cup
test picks an action the adviser values highest.
"""

from __future__ import annotations

import numpy as np
import pytest

from coffeegames import roaster, vivajava
from coffeegames.engine import random_policy
from coffeegames.errors import BadType
from coffeegames.roaster.advice import CUP_PHASES
from coffeegames.vivajava import Featured, Phase, Rainbow, Research


def _vivajava_decisions(game, seed, strong_seat=0):
    """Every decision of one seeded 2-player game, the strong bot in ``strong_seat`` and greedy in the other."""
    rng, s, found = np.random.default_rng(seed), game.new_initial_state(), []
    while not s.is_terminal():
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
            continue
        if s.current_player() == strong_seat:
            found.append(s)
            s = s.apply(vivajava.strong_policy(s))
        else:
            s = s.apply(vivajava.greedy_policy(s))
    return found


@pytest.fixture(scope="module")
def vivajava_positions():
    game = vivajava.Game(players=2)
    return [s for seed in range(4) for seat in (0, 1) for s in _vivajava_decisions(game, [40, seed], seat)]


def test_vivajava_strong_choices_are_legal_and_follow_its_rules(vivajava_positions):
    acts = [s for s in vivajava_positions if s.phase == Phase.ACT]
    assert len(acts) >= 40
    held = taken = 0
    for s in vivajava_positions:
        choice = vivajava.strong_policy(s)
        assert choice in s.legal_actions()
        if s.phase != Phase.ACT:
            assert choice == vivajava.greedy_policy(s)  # outside the act phase it plays as greedy
            continue
        if isinstance(choice, Featured):
            assert choice.funded_dice == 0  # never another player's dice
            assert s.rainbow_by != s.turn  # never gives the Rainbow back
        if s.rainbow_by == s.turn:
            held += 1
            assert not isinstance(choice, Featured)
        elif Rainbow() in s.legal_actions():
            taken += 1
            assert choice == Rainbow()
    assert held and taken  # both rules were met in these games


def test_vivajava_strong_values_flavour_dice_more_than_greedy():
    import dataclasses

    s = vivajava.Game(players=2).new_initial_state().apply(vivajava.SetupResearch("green"))
    s = dataclasses.replace(s, rainbow_by=0)  # player 0 holds the Rainbow: no Featured Blend, and no new Rainbow
    s = s.apply(vivajava.Rolled(white=("black", "white", "yellow", "brown", "red")))
    # research gives 1 flavour die (black) or 1 RP of a colour: 1.5 against 1.07 for the strong bot, 0.8 for greedy
    assert vivajava.strong_policy(s) == Research("black")
    assert vivajava.greedy_policy(s) == Research("red")


def test_vivajava_strong_refuses_what_is_not_a_state():
    with pytest.raises(BadType, match="state"):
        vivajava.strong_policy("a state")


def _roaster_decisions(game, seed, most=200):
    rng, s, found = np.random.default_rng(seed), game.new_initial_state(), []
    while not s.is_terminal() and len(found) < most:
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
            continue
        found.append(s)
        s = s.apply(roaster.strong_policy(s))
    return found


@pytest.fixture(scope="module")
def roaster_positions():
    return [s for seed in range(2) for s in _roaster_decisions(roaster.Game(card="Zambia Kasama AA"), [41, seed])]


def test_roaster_strong_choices_are_legal_and_follow_its_rules(roaster_positions):
    decides = [s for s in roaster_positions if s.phase == roaster.Phase.DECIDE]
    cups = [s for s in roaster_positions if s.phase in CUP_PHASES]
    assert decides and cups
    for s in roaster_positions:
        choice = roaster.strong_policy(s)
        assert choice in s.legal_actions()
        if s.phase == roaster.Phase.DECIDE and roaster.Continue() in s.legal_actions():
            tokens = [t for t in s.bag + s.drawn if t != roaster.MOISTURE]
            mean = sum(roaster.roast_level(t) or 0 for t in tokens) / len(tokens)
            extra = s.rules.board.extra_bean_level if roaster.EXTRA_BEAN in s.active else 0
            stop = mean * roaster.CUP_SPACES + extra >= s.rules.card.optimum - 5
            assert (choice != roaster.Continue()) == stop
        elif s.phase in CUP_PHASES:
            values = {row.action: row.value for row in roaster.advise(s)}
            assert values[choice] == max(values.values())
        elif s.phase in (roaster.Phase.ACT, roaster.Phase.REMOVE_TWO):
            assert choice == roaster.greedy_policy(s)


def test_roaster_strong_refuses_what_is_not_a_state():
    with pytest.raises(BadType, match="state"):
        roaster.strong_policy(3)


def test_the_random_bot_does_not_change_the_strong_bots():
    """The strong bots keep no state between calls: the same position gets the same choice after any other play."""
    game = vivajava.Game(players=2)
    positions = _vivajava_decisions(game, [42, 0])[:30]
    first = [vivajava.strong_policy(s) for s in positions]
    rng, s = np.random.default_rng(1), game.new_initial_state()
    bot = random_policy(np.random.default_rng(2))
    for _ in range(200):
        if s.is_terminal():
            break
        s = s.apply(s.sample_chance(rng) if s.is_chance() else bot(s))
        if not s.is_chance() and not s.is_terminal():
            vivajava.strong_policy(s)
    assert [vivajava.strong_policy(p) for p in positions] == first


def test_vivajava_strong_with_its_three_changes_undone_is_greedy(vivajava_positions):
    """The bot is greedy plus exactly the three changes its docstring names: with them switched off it plays as greedy."""
    from coffeegames.vivajava.policy import _strong

    for s in vivajava_positions:
        assert _strong(s, keep_rainbow=False, own_dice=False, flavour=0.8) == vivajava.greedy_policy(s)


def test_vivajava_strong_in_a_solo_game_does_not_keep_the_rainbow():
    """Solo, the Rainbow rule is off (its docstring): holding the Rainbow, it still makes a Featured Blend of its own."""
    game = vivajava.Game(solo="omniblend")
    met = 0
    for seed in range(12):
        rng, s = np.random.default_rng([43, seed]), game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance():
                s = s.apply(s.sample_chance(rng))
                continue
            choice = vivajava.strong_policy(s)
            assert choice in s.legal_actions()
            own = [a for a in s.legal_actions() if isinstance(a, Featured) and not a.funded_dice]
            if s.phase == Phase.ACT and s.rainbow_by == s.turn and own:
                met += 1
                assert isinstance(choice, Featured)
            s = s.apply(choice)
    assert met
