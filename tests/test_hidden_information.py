"""No bot sees what its player could not: the hidden order of each shuffled deck and bag.

At seeded decisions of every game with hidden order, the hidden part is resampled consistently with what the player
to move has seen, and the bots' choices (and the advisers' values, where a bot reads them) must not change:

* Gizmos: the cards another player put under a deck (the mover knows only how many, and where): each swapped with a
  card the mover cannot tell it from (its level's unseen cards and the other hidden ones), drawn at random.
  ``SearchBot``, ``search_stats`` and ``greedy_policy`` must answer the same.
* Dairyman: the order inside each pile of the milk-tile deck (the engine keeps piles as sorted multisets): each pile
  shuffled. ``greedy_policy`` and ``advise`` must answer the same.
* Coffee Roaster: the order of the bag (a sorted multiset in the engine): shuffled. ``greedy_policy`` must answer the
  same, and ``advise`` at a stop-or-continue decision, and ``strong_policy`` at its decisions (the stop, the cup test).
* VivaJava: nothing is hidden but the dice still to roll, which no state holds: ``strong_policy`` must answer the same
  on the position as saved and loaded back (all a player can write down about it).
* Coffee Rush: the order deck is never an ordered pile (the engine counts each kind still in it): nothing of its
  order exists to peek at; the bots' choices depend only on those counts, which the players know.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from coffeegames import dairyman, gizmos, roaster, rush, vivajava
from coffeegames.roaster.advice import CUP_PHASES
from coffeegames.engine import random_policy


def _decisions(game, bots, seed, keep, most=8, moves=400):
    """Up to ``most`` decision states of a seeded game (bots by player) where ``keep(state)`` holds."""
    rng, s, found = np.random.default_rng(seed), game.new_initial_state(), []
    for _ in range(moves):
        if s.is_terminal() or len(found) >= most:
            break
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
            continue
        if keep(s):
            found.append(s)
        s = s.apply(bots[s.current_player()](s))
    return found


# -- Gizmos ----------------------------------------------------------------------------------------------------

def _hidden_from_mover(s) -> bool:
    me = s.current_player()
    return any(b != me for by in s.bottom_by for b in by)


def _regiven(s, rng):
    """The position with each card others put under a deck swapped for one the mover cannot tell it from."""
    me, bottom = s.current_player(), [list(b) for b in s.bottom]
    for level in (1, 2, 3):
        hidden = [j for j, b in enumerate(s.bottom_by[level - 1]) if b != me]
        pool = list(s.unseen(level)) + [bottom[level - 1][j] for j in hidden]
        for j, k in zip(hidden, rng.permutation(len(pool))[: len(hidden)]):
            bottom[level - 1][j] = pool[int(k)]
    other = dataclasses.replace(s, bottom=tuple(tuple(b) for b in bottom))
    other.check()
    return other


@pytest.fixture(scope="module")
def gizmos_positions():
    game = gizmos.Game(players=2)
    found = []
    for i in range(3):  # player 1 plays at random, so it researches and puts cards under the decks
        bots = {0: gizmos.greedy_policy, 1: random_policy(np.random.default_rng([6, i]))}
        found += _decisions(game, bots, [5, i], lambda s: s.current_player() == 0 and _hidden_from_mover(s), most=3)
    assert len(found) >= 6
    return found


def test_gizmos_positions_really_differ_in_what_is_hidden(gizmos_positions):
    rng = np.random.default_rng(1)
    assert any(_regiven(s, rng).bottom != s.bottom for s in gizmos_positions)


def test_gizmos_search_does_not_see_the_cards_others_put_under(gizmos_positions):
    # the search bot searches at main actions (elsewhere it answers as greedy): some positions must be those
    assert sum(s.phase == gizmos.Phase.ACTION and len(s.legal_actions()) > 1 for s in gizmos_positions) >= 3
    rng = np.random.default_rng(2)
    for s in gizmos_positions:
        for _ in range(2):
            other = _regiven(s, rng)
            assert gizmos.search_stats(other, playouts=24, seed=3) == gizmos.search_stats(s, playouts=24, seed=3)
            assert gizmos.SearchBot(playouts=24, seed=4)(other) == gizmos.SearchBot(playouts=24, seed=4)(s)
            assert gizmos.greedy_policy(other) == gizmos.greedy_policy(s)


def test_gizmos_determinise_depends_only_on_what_the_mover_knows(gizmos_positions):
    rng = np.random.default_rng(5)
    for s in gizmos_positions:
        me = s.current_player()
        other = _regiven(s, rng)
        assert s.determinise(me, np.random.default_rng(9)) == other.determinise(me, np.random.default_rng(9))


# -- Dairyman --------------------------------------------------------------------------------------------------

def _shuffled_piles(s, rng):
    deck = tuple(tuple(pile[i] for i in rng.permutation(len(pile))) for pile in s.deck)
    return dataclasses.replace(s, deck=deck)


def test_dairyman_bots_do_not_see_the_order_of_the_tile_deck():
    game = dairyman.Game(players=3)
    bots = {p: dairyman.greedy_policy for p in range(3)}
    positions = _decisions(game, bots, 11, lambda s: len(s.deck) > 0 and max(map(len, s.deck)) > 1, most=40, moves=2000)
    assert len(positions) >= 20
    rng = np.random.default_rng(12)
    changed = 0
    for s in positions:
        other = _shuffled_piles(s, rng)
        changed += other.deck != s.deck
        assert dairyman.greedy_policy(other) == dairyman.greedy_policy(s)
    assert changed  # the order did change somewhere
    for s in positions[:6]:
        other = _shuffled_piles(s, rng)
        assert [(r.action, r.value) for r in dairyman.advise(other)] == [(r.action, r.value) for r in dairyman.advise(s)]


# -- Coffee Roaster --------------------------------------------------------------------------------------------

def _bag_shuffled(positions, rng, bot):
    """Each position with its bag shuffled: ``bot`` must answer the same; the number of bags whose order changed."""
    changed = 0
    for s in positions:
        other = dataclasses.replace(s, bag=tuple(s.bag[i] for i in rng.permutation(len(s.bag))))
        changed += other.bag != s.bag
        assert bot(other) == bot(s)
    return changed


def test_roaster_bots_do_not_see_the_order_of_the_bag():
    game = roaster.Game(card="Zambia Kasama AA")
    positions = _decisions(game, {0: roaster.greedy_policy}, 21, lambda s: len(set(s.bag)) > 1, most=40, moves=400)
    assert len(positions) >= 10
    assert _bag_shuffled(positions, np.random.default_rng(22), roaster.greedy_policy)
    stops = [s for s in positions if s.phase == roaster.Phase.DECIDE][:1]
    assert stops
    for s in stops:
        other = dataclasses.replace(s, bag=tuple(reversed(s.bag)))
        assert [(r.action, r.value) for r in roaster.advise(other)] == [(r.action, r.value) for r in roaster.advise(s)]


def test_roaster_strong_bot_does_not_see_the_order_of_the_bag():
    game = roaster.Game(card="Zambia Kasama AA")
    positions = _decisions(game, {0: roaster.strong_policy}, 23, lambda s: len(set(s.bag)) > 1, most=60, moves=400)
    decided = [s for s in positions if s.phase == roaster.Phase.DECIDE or s.phase in CUP_PHASES]
    assert any(s.phase == roaster.Phase.DECIDE for s in decided) and any(s.phase in CUP_PHASES for s in decided)
    assert _bag_shuffled(positions, np.random.default_rng(24), roaster.strong_policy)


# -- VivaJava --------------------------------------------------------------------------------------------------

def test_vivajava_strong_bot_reads_only_the_position():
    game = vivajava.Game(players=2)
    bots = {0: vivajava.strong_policy, 1: vivajava.greedy_policy}
    positions = [s for seed in (25, 26) for s in _decisions(game, bots, seed, lambda s: s.current_player() == 0, most=40, moves=600)]
    assert len(positions) >= 20
    for s in positions:
        again = game.state_from_json(s.to_json())
        assert again == s and vivajava.strong_policy(again) == vivajava.strong_policy(s)


# -- Coffee Rush -----------------------------------------------------------------------------------------------

def test_rush_order_deck_holds_no_order():
    game = rush.Game(players=2)
    state = game.new_initial_state()
    assert all(isinstance(n, int) for n in state.deck) and len(state.deck) == len(state.rules.deck.kinds)
    bots = {0: rush.greedy_policy, 1: rush.greedy_policy}
    positions = _decisions(game, bots, 31, lambda s: True, most=6, moves=200)
    assert positions
    for s in positions:
        # the deck is a count per kind of order: the only thing the players know of it, and all a bot can read
        assert {k: n for k, n in zip(s.rules.deck.kinds, s.deck) if n} == s.unseen()
        again = game.state_from_json(s.to_json())  # the position as saved: nothing of the deck but its counts
        assert again == s and rush.greedy_policy(again) == rush.greedy_policy(s)
