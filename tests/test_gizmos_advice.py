"""Gizmos bots and advice: greedy beats random, the search is seeded, advice lists every action with exact consequences."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest

from coffeegames.engine import advice_frame
from coffeegames.engine import play
from coffeegames.errors import BadArgument
from coffeegames.gizmos import (
    COLOURS,
    Build,
    Fire,
    Game,
    Phase,
    Pick,
    PlayerState,
    SearchBot,
    State,
    Step,
    advise,
    greedy_policy,
    p_at_least,
    random_policy,
    search_stats,
)


def test_greedy_beats_random() -> None:
    games = play(Game(players=2), [greedy_policy, random_policy(5)], n_games=20, seed=3, progress=False)
    assert (games["player_0"] == 1).sum() >= 18


def test_every_bot_plays_legal_moves_to_the_end() -> None:
    game = Game(players=3)
    state = game.new_initial_state(seed=8)
    bots = [greedy_policy, random_policy(1), SearchBot(playouts=8, seed=1, horizon=1)]
    rng = np.random.default_rng(8)
    steps = 0
    while not state.is_terminal():
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            move = bots[state.current_player()](state)
            assert move in state.legal_actions()
        state = state.apply(move)
        steps += 1
    assert steps > 50 and sum(state.returns()) == 1


def test_the_search_is_seeded_and_spends_its_budget() -> None:
    s = Game().new_initial_state(seed=2)
    a, b = search_stats(s, playouts=30, seed=4), search_stats(s, playouts=30, seed=4)
    assert {k: (v.n, v.total) for k, v in a.items()} == {k: (v.n, v.total) for k, v in b.items()}
    assert sum(v.n for v in a.values()) == 30 and set(a) <= set(s.legal_actions())
    assert SearchBot(playouts=30, seed=4)(s) == SearchBot(playouts=30, seed=4)(s)


def _search_bot_game(seed: int) -> tuple[list[object], int]:
    """A 2-player game of ``SearchBot(playouts=6, seed=seed)`` (seat 0) against greedy: its log, every player move
    checked legal, and how many of the bot's main actions differ from greedy's in the same position."""
    bot, s, rng = SearchBot(playouts=6, seed=seed), Game(players=2).new_initial_state(), np.random.default_rng([1, seed])
    log, differ = [], 0
    while not s.is_terminal():
        if s.is_chance():
            move = s.sample_chance(rng)
        elif s.current_player() == 0:
            move = bot(s)
            assert move in s.legal_actions()
            differ += s.phase == Phase.ACTION and move != greedy_policy(s)
        else:
            move = greedy_policy(s)
        log.append(move)
        s = s.apply(move)
    return log, differ


def test_the_search_bot_plays_legal_seeded_games_of_its_own() -> None:
    log, differ = _search_bot_game(3)
    assert _search_bot_game(3)[0] == log  # the same seeds, the same game move for move
    assert differ >= 1  # the search does not merely copy greedy (its playouts are greedy, its choices are not)
    assert SearchBot(playouts=0, seed=3)(Game().new_initial_state(seed=2)) == greedy_policy(Game().new_initial_state(seed=2))


def _position(me: PlayerState, todo: tuple[Step, ...] = (Step(Phase.ACTION),), **changes: object) -> State:
    base = Game(players=2).new_initial_state(seed=0)
    other = PlayerState(built=(1,))
    row = (2, 2, 1, 1)
    dispenser = tuple(13 - row[c] - me.energy[c] - other.energy[c] for c in range(4))
    changes = {"display": ((36, 37, 38, 39), (68, 69, 70), (92, 93)), **changes}
    state = dataclasses.replace(base, players=(me, other), row=row, dispenser=dispenser, todo=todo, **changes)
    decks = tuple(len(state.unseen(level)) - (20 if level == 3 else 0) for level in (1, 2, 3))
    return dataclasses.replace(state, decks=decks).check()


def _brute_p(dispenser: tuple[int, ...], colour: str, draws: int) -> Fraction:
    """P(at least one marble of ``colour`` in ``draws`` draws), by listing every ordered draw of distinct marbles."""
    marbles = [c for c, n in zip(COLOURS, dispenser) for _ in range(n)]
    orders = list(itertools.permutations(range(len(marbles)), draws))
    hits = sum(any(marbles[i] == colour for i in order) for order in orders)
    return Fraction(hits, len(orders))


def test_advice_lists_every_action_with_its_exact_consequences() -> None:
    # 90 (built): any File -> draw 3 random; 24: picking red -> draw 1. Both wait; the best target lacks blue.
    me = PlayerState(energy=(1, 0, 0, 0), built=(0, 24, 90))
    s = _position(me, todo=(), ready=(0, 24, 90))
    assert s.phase == Phase.TRIGGERS
    table = advice_frame(advise(s, playouts=30, seed=1))
    assert sorted(map(repr, table["action"])) == sorted(map(repr, s.legal_actions())) and int(table["best"].sum()) == 1
    assert table["best"].iat[0] and list(table["value"]) == sorted(table["value"], reverse=True)  # best first
    assert not table["exact"].any() and table["exact"].notna().all()
    again = advice_frame(advise(s, playouts=30, seed=1))
    assert list(again["value"]) == list(table["value"])
    row = table.set_index("label").loc[str(Fire(90))]
    colour = row["colour"]
    assert colour in COLOURS and row["risk"] == _brute_p(s.dispenser, colour, 3) == p_at_least(dict(zip(COLOURS, s.dispenser)), colour, 1, 3)
    named = advice_frame(advise(s, playouts=5, card=69)).set_index("label")  # 69: a red card
    assert named.loc[str(Fire(90)), "risk"] == _brute_p(s.dispenser, "red", 3)
    with pytest.raises(BadArgument, match="card"):
        advice_frame(advise(s, playouts=5, card=500))
    # a Pick: one marble more, no points; a Build: its printed points and its payment
    act = _position(PlayerState(energy=(0, 0, 0, 1), built=(0,)), display=((4, 36, 37, 38), (68, 69, 70), (92, 93)))
    table = advice_frame(advise(act, playouts=20, seed=0)).set_index("label")
    assert table.loc[str(Pick('red')), "energy"] == 1 and table.loc[str(Pick('red')), "points"] == 0
    build = Build(4, "display", (0, 0, 0, 1))  # 4: yellow, cost 1, 1 point
    row = table.loc[str(build)]
    assert row["points"] == 1 and row["energy"] == -1 and "pays 1 yellow" in row["then"]
