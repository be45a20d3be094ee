"""The conformance suite every game engine must pass: the State contract, checked on every registered game.

Parametrised over ``coffeegames.games()`` and every variant each entry lists (player counts,
solo corporations, board sides), so a game added to the registry is tested here with no
change to this file. Each check runs over seeded random playouts (:data:`SEEDS`), played
once and shared (``contract_support.playout``); the costly checks run at every state of a
short game and at ~300 spread states of a long one (a random Dairyman game runs to
thousands of moves).

What a game must do (the State contract, ``coffeegames/engine/state.py``):

- chance nodes small enough to list (``chance_outcome_count() <= LIST_LIMIT``) list exact
  ``Fraction`` odds, each > 0, summing to exactly 1, with no outcome twice; ``sample_chance``
  draws from that law; larger nodes are only sampled, and every sample is accepted by ``apply``;
  a node over the engine's ``MAX_LISTED`` is refused by ``chance_outcomes()`` with ``TooBig``;
- ``apply`` never changes the state it is called on;
- a state's JSON loads back equal, with the same hash, and saves to the same text;
  likewise a ``Walkthrough``'s JSON, whose generator rolls on with the same luck;
- the same seed and the same moves give the same states; a walkthrough replays from its log;
- illegal moves (nonsense, other games' actions, this game's moves legal elsewhere)
  raise ``IllegalAction`` and change nothing; at the end every move is refused;
- seeded random games end within ``MAX_STEPS`` moves with one result per player.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from scipy.stats import chi2

import coffeegames
from coffeegames.engine import TERMINAL, Walkthrough
from coffeegames.errors import BadData, CoffeeGamesError
from contract_support import (
    CASES,
    LIST_LIMIT,
    Playout,
    assert_unchanged,
    case_id,
    distinct_moves,
    expect_illegal,
    foreign_actions,
    illegal_moves,
    make_game,
    outcome_count,
    play,
    playout,
    random_action,
    snapshot,
)

SEEDS = (0, 1, 2)
"""The seeded random games played for every game and variant."""


def playouts(name: str, options: dict[str, Any]) -> list[Playout]:
    return [playout(name, options, seed) for seed in SEEDS]


def where(p: Playout, i: int) -> str:
    return f"{case_id(p.name, p.options)} seed {p.seed} move {i}"


# -- the registry ----------------------------------------------------------------------------

def test_registry_lists_games_with_variants() -> None:
    known = coffeegames.games()
    assert known, "the registry lists no game"
    for name, info in known.items():
        assert info.name == name
        assert info.variants, f"{name}: no variant to test"
        assert info.module.__name__ == f"coffeegames.{name}"
        for options in info.variants:
            assert info.game(**options).name == name


# -- games end ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name, options", CASES)
def test_random_games_end_with_one_result_per_player(name: str, options: dict[str, Any]) -> None:
    seats, acting = set(), set()
    for p in playouts(name, options):
        end = p.states[-1]
        assert end.is_terminal() and end.current_player() == TERMINAL, where(p, len(p.actions))
        assert end.legal_actions() == [] and end.chance_outcomes() == []
        results = end.returns()
        assert isinstance(results, tuple) and results, where(p, len(p.actions))
        assert all(isinstance(r, (int, Fraction)) and not isinstance(r, bool) for r in results), results
        seats.add(len(results))
        players = {s.current_player() for s in p.states if not s.is_chance() and not s.is_terminal()}
        assert players <= set(range(len(results))), f"{where(p, 0)}: players {players} but results {results}"
        acting |= players
        for i, state in enumerate(p.states[:-1]):
            assert not state.is_terminal(), f"{where(p, i)}: a move was made after the end"
        for i in p.deep()[:-1]:
            state = p.states[i]
            if not state.is_chance():
                legal = state.legal_actions()
                assert legal, f"{where(p, i)}: player {state.current_player()} has no legal action"
                assert len(set(legal)) == len(legal), f"{where(p, i)}: a legal action is listed twice"
    assert len(seats) == 1, f"the number of results varies between games: {seats}"
    if "players" in options:
        assert seats == {options["players"]}
    if coffeegames.games()[name].solo:  # one person plays every variant
        assert acting == {0}, f"a solo game let players {acting} act"


# -- chance --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, options", CASES)
def test_chance_odds_are_exact_and_sum_to_one(name: str, options: dict[str, Any]) -> None:
    listed = sampled = 0
    for p in playouts(name, options):
        rng = np.random.default_rng(1000 + p.seed)
        for i in p.deep():
            state, at = p.states[i], where(p, i)
            if not state.is_chance():
                assert outcome_count(state) == 0 and state.chance_outcomes() == [], at
                continue
            assert state.legal_actions() == [], f"{at}: a chance node lists player actions"
            count = outcome_count(state)
            assert isinstance(count, int) and count >= 1, f"{at}: chance_outcome_count() = {count!r}"
            draws = [state.sample_chance(rng) for _ in range(3)]
            if count <= LIST_LIMIT:
                listed += 1
                outcomes = state.chance_outcomes()
                assert len(outcomes) == count, f"{at}: chance_outcome_count() {count} but {len(outcomes)} listed"
                odds = [q for _, q in outcomes]
                assert all(type(q) is Fraction for q in odds), f"{at}: odds not exact Fractions: {odds[:5]}"
                assert all(q > 0 for q in odds), f"{at}: an outcome has probability <= 0"
                assert sum(odds) == 1, f"{at}: odds sum to {sum(odds)}"
                names = [o for o, _ in outcomes]
                assert len(set(names)) == len(names), f"{at}: an outcome is listed twice"
                known = set(names)
                assert all(d in known for d in draws), f"{at}: sample_chance drew an outcome not listed"
                draws += [names[0], names[-1]]
            else:
                sampled += 1  # too many to list: sampled only, chance_outcomes() never called
            for outcome in draws:  # every outcome is accepted and moves the game on, to a state of the same game
                after = state.apply(outcome)
                assert type(after) is type(state) and after != state, at
    assert listed + sampled > 0, "no chance node was met"


def _bins(outcomes: list[tuple[Any, Fraction]], draws: int, most: int = 20) -> tuple[dict[Any, int], list[float]]:
    """Each outcome's bin and each bin's probability: one bin per outcome when every one is expected >= 5 times,
    else runs of consecutive outcomes (in listing order) holding about 1/``most`` of the probability each."""
    if len(outcomes) <= most * 10 and min(q for _, q in outcomes) * draws >= 5:
        return {o: i for i, (o, _) in enumerate(outcomes)}, [float(q) for _, q in outcomes]
    where_: dict[Any, int] = {}
    mass: list[float] = [0.0]
    for o, q in outcomes:
        if mass[-1] >= 1 / most:
            mass.append(0.0)
        where_[o] = len(mass) - 1
        mass[-1] += float(q)
    if len(mass) > 1 and mass[-1] < 1 / (2 * most):  # too little left for a bin of its own: join the one before
        last = mass.pop()
        mass[-1] += last
        where_ = {o: min(b, len(mass) - 1) for o, b in where_.items()}
    return where_, mass


@pytest.mark.parametrize("name, options", CASES)
def test_sample_chance_follows_the_listed_odds(name: str, options: dict[str, Any]) -> None:
    """At one listable chance node of each seeded game (early, middle, late): 4,000 draws against the listed odds
    (a chi-square test, p > 1e-6; seeded, so it never flickers)."""
    draws, tested = 4_000, 0
    rng = np.random.default_rng(7)
    for p in playouts(name, options):
        nodes = [i for i in p.deep() if p.states[i].is_chance() and 2 <= outcome_count(p.states[i]) <= LIST_LIMIT]
        if not nodes:
            continue
        i = nodes[len(nodes) * (p.seed % len(SEEDS)) // len(SEEDS)]
        state = p.states[i]
        bin_of, mass = _bins(state.chance_outcomes(), draws)
        if len(mass) < 2:
            continue  # one outcome holds nearly all the odds: nothing to tell apart
        seen = Counter(bin_of.get(state.sample_chance(rng), -1) for _ in range(draws))
        assert -1 not in seen, f"{where(p, i)}: sample_chance drew an outcome not listed"
        stat = sum((seen[b] - draws * m) ** 2 / (draws * m) for b, m in enumerate(mass))
        p_value = float(chi2.sf(stat, len(mass) - 1))
        assert p_value > 1e-6, f"{where(p, i)}: sample_chance disagrees with chance_outcomes (chi-square p = {p_value:.2g})"
        tested += 1
    assert tested > 0, "no chance node to test sampling at"


@pytest.mark.parametrize("name, options", CASES)
def test_chance_outcome_count_is_a_method(name: str, options: dict[str, Any]) -> None:
    p = playout(name, options, SEEDS[0])
    for i in p.deep()[:100]:
        state = p.states[i]
        count = state.chance_outcome_count()
        assert isinstance(count, int), where(p, i)
        if not state.is_chance():
            assert count == 0, where(p, i)
        elif count <= LIST_LIMIT:
            assert count == len(state.chance_outcomes()), where(p, i)


# -- apply is pure ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, options", CASES)
def test_apply_never_changes_the_old_state(name: str, options: dict[str, Any]) -> None:
    for p in playouts(name, options):
        copies = _replayed(p)
        rng = np.random.default_rng(2000 + p.seed)
        for i in p.deep()[:-1]:
            state, at = p.states[i], where(p, i)
            before = snapshot(state)
            nxt = state.apply(p.actions[i])
            assert nxt == p.states[i + 1], f"{at}: apply gave a different state the second time"
            if state.is_chance():
                others = [state.sample_chance(rng) for _ in range(2)]
            else:
                legal = state.legal_actions()
                others = [legal[int(k)] for k in rng.choice(len(legal), size=min(4, len(legal)), replace=False)]
            for move in others:
                state.apply(move)
                assert hash(state) == before[0], f"{at}: apply({move!r}) changed the state's hash"
            assert_unchanged(state, before, copies[i], f"{at}: apply")


def _replayed(p: Playout) -> list[Any]:
    """The playout's states rebuilt independently: a fresh initial state and the same moves."""
    state = p.game.new_initial_state(seed=p.seed)
    states = [state]
    for action in p.actions:
        state = state.apply(action)
        states.append(state)
    return states


# -- JSON ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, options", CASES)
def test_state_json_round_trip(name: str, options: dict[str, Any]) -> None:
    for p in playouts(name, options):
        for i in p.deep():
            state, at = p.states[i], where(p, i)
            text = state.to_json()
            assert isinstance(text, str) and isinstance(json.loads(text), dict), at
            loaded = p.game.state_from_json(text)
            assert type(loaded) is type(state), at
            assert loaded == state, f"{at}: the loaded state differs"
            assert hash(loaded) == hash(state), f"{at}: the loaded state hashes differently"
            assert loaded.to_json() == text, f"{at}: the loaded state saves to different text"
            assert loaded.current_player() == state.current_player(), at
            assert loaded.legal_actions() == state.legal_actions(), at


@pytest.mark.parametrize("name, options", CASES)
def test_every_state_a_playout_meets_passes_check(name: str, options: dict[str, Any]) -> None:
    """The invariants a loaded save must pass (``State.check``) hold in every position the engine reaches."""
    for p in playouts(name, options):
        for i, state in enumerate(p.states):
            assert state.check() is state, where(p, i)


@pytest.mark.parametrize("name, options", CASES)
def test_another_games_saved_state_is_refused(name: str, options: dict[str, Any]) -> None:
    text = make_game(name, options).new_initial_state(seed=0).to_json()
    for other, info in coffeegames.games().items():
        if other != name:
            with pytest.raises(CoffeeGamesError):
                info.game(**info.variants[0]).state_from_json(text)


# -- replay ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, options", CASES)
def test_same_seed_and_moves_give_the_same_states(name: str, options: dict[str, Any]) -> None:
    for p in playouts(name, options):
        again = _replayed(p)
        assert len(again) == len(p.states)
        for i, (a, b) in enumerate(zip(again, p.states)):
            assert a == b and hash(a) == hash(b), f"{where(p, i)}: the replay differs"
    p = playout(name, options, SEEDS[0])
    states, actions = play(make_game(name, options), p.seed)  # a fresh Game, the same seed: the same random game
    assert actions == p.actions and states == p.states


@pytest.mark.parametrize("name, options", CASES)
def test_walkthrough_replays_and_round_trips(name: str, options: dict[str, Any]) -> None:
    for p in playouts(name, options):
        game = p.game
        w = Walkthrough.replay(game.new_initial_state(seed=p.seed), p.actions, p.seed)
        assert w.states == list(p.states) and w.moves == list(p.actions)
        assert len(w.history()) == len(p.actions)
        text = w.to_json(game)
        data = json.loads(text)
        assert data["game"] == name and data["options"] == game.options
        loaded = Walkthrough.from_json(text, game.new_initial_state(seed=p.seed), game.action_kinds, game)
        assert loaded.states == w.states and loaded.moves == w.moves
        assert loaded.to_json(game) == text


@pytest.mark.parametrize("name, options", CASES)
def test_loaded_walkthrough_rolls_on_with_the_same_luck(name: str, options: dict[str, Any]) -> None:
    p = playout(name, options, SEEDS[0])
    game, half = p.game, len(p.actions) // 2
    w = Walkthrough(game.new_initial_state(seed=p.seed), seed=p.seed)
    policy_rng = np.random.default_rng(3)
    while len(w.moves) < half and not w.state.is_terminal():
        w.step(None if w.state.is_chance() else random_action(w.state, policy_rng))
    loaded = Walkthrough.from_json(w.to_json(game), game.new_initial_state(seed=p.seed), game.action_kinds, game)
    assert loaded.states == w.states
    for walk in (w, loaded):
        rng = np.random.default_rng(4)  # the same player choices; chance comes from each walkthrough's generator
        walk.run(lambda s: random_action(s, rng), max_steps=100_000)
    assert loaded.moves == w.moves and loaded.state == w.state


# -- illegal moves ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, options", CASES)
def test_illegal_moves_are_refused_and_change_nothing(name: str, options: dict[str, Any]) -> None:
    foreign = foreign_actions(name)
    for p in playouts(name, options):
        seen = distinct_moves(p.actions, limit=12)
        for i in p.deep()[::3]:
            expect_illegal(p.states[i], illegal_moves(p.states[i], seen, foreign))


@pytest.mark.parametrize("name, options", CASES)
def test_every_move_is_refused_at_the_end(name: str, options: dict[str, Any]) -> None:
    foreign = foreign_actions(name)
    for p in playouts(name, options):
        end = p.states[-1]
        moves = list(illegal_moves(end, distinct_moves(p.actions, limit=200), foreign))
        assert p.actions[-1] in moves
        expect_illegal(end, moves)


@pytest.mark.parametrize("name", list(coffeegames.games()))
def test_the_package_loads_its_saved_walkthroughs(name: str) -> None:
    """Every game package has ``load_walkthrough(text)``: a save comes back under the game it was played under."""
    info = coffeegames.games()[name]
    for options in info.variants:
        game = info.game(**options)
        walk = Walkthrough(game.new_initial_state(), seed=5)
        rng = np.random.default_rng(5)
        for _ in range(40):
            state = walk.state
            if state.is_terminal():
                break
            if state.is_chance():
                walk.step()
            else:
                legal = state.legal_actions()
                walk.step(legal[int(rng.integers(len(legal)))])
        loaded_game, loaded = info.load_walkthrough(walk.to_json(game))
        assert loaded.states == walk.states and loaded_game.options == game.options
        assert loaded.to_json(loaded_game) == walk.to_json(game)
    with pytest.raises(CoffeeGamesError):
        info.load_walkthrough(json.dumps({"format": "coffeegames-walkthrough/1", "game": name, "moves": []}))


@pytest.mark.parametrize("name, options", CASES)
def test_saves_name_their_rules_version_and_load_under_it(name: str, options: dict[str, Any]) -> None:
    """At every rules version of every game and variant: a saved state names its version and loads only under a game
    of that version; a saved walkthrough's options name it (left out at version 1, what a save naming none means),
    and the package's ``load_walkthrough`` replays it under a game of that version, with that version's defaults."""
    info = coffeegames.games()[name]
    versions = make_game(name, options).rules.VERSIONS
    assert make_game(name, options).rules.rules_version == versions.latest  # a new game plays the latest rules
    for version in range(1, versions.latest + 1):
        game = make_game(name, {**options, "rules_version": version})
        assert game.rules.rules_version == version and game.options.get("rules_version", 1) == version
        assert all(getattr(game.rules, k) == v for k, v in versions.defaults(version).items() if k not in options)
        walk = Walkthrough(game.new_initial_state(), seed=version)
        rng = np.random.default_rng(version)
        walk.run(lambda s: random_action(s, rng), until=lambda _: len(walk.moves) >= 30)
        text = walk.state.to_json()
        assert json.loads(text)["rules_version"] == version
        assert game.state_from_json(text) == walk.state
        for other in range(1, versions.latest + 1):
            if other != version:
                with pytest.raises(BadData, match=f"field 'rules_version'.*rules_version={version}"):
                    make_game(name, {**options, "rules_version": other}).state_from_json(text)
        saved = walk.to_json(game)
        loaded_game, loaded = info.load_walkthrough(saved)
        assert loaded_game.rules == game.rules and loaded.states == walk.states
        assert loaded.to_json(loaded_game) == saved
        unnamed = json.loads(saved)
        unnamed["options"].pop("rules_version", None)
        assert info.module.saved_game(json.dumps(unnamed)).rules.rules_version == 1


# -- a chance node too big to list ---------------------------------------------------------------

@pytest.mark.parametrize("name", list(coffeegames.games()))
def test_a_chance_node_over_max_listed_is_refused_not_listed(name: str) -> None:
    """The contract: ``chance_outcomes()`` lists at most the engine's ``MAX_LISTED`` outcomes (None: any number); over
    it, ``TooBig`` names the count, ``sample_chance`` and where the exact law is, and nothing is built or changed."""
    from coffeegames.errors import TooBig

    game = make_game(name, {})
    state_class = type(game.new_initial_state())
    limit = state_class.MAX_LISTED
    if limit is None:
        return
    assert isinstance(limit, int) and limit >= LIST_LIMIT
    if name != "vivajava":  # pragma: no cover - the one engine with nodes over its limit today
        return
    from dataclasses import replace

    start = make_game(name, {"players": 3}).new_initial_state()
    big = replace(start, phase="roll", turn=0, setting_up=False, rolling_white=5, rolling_own=5, rolling_offered=((1, 1), (2, 1)))
    count = big.chance_outcome_count()
    assert big.is_chance() and count == 2_286_144 > limit  # C(10, 5) × C(10, 5) × C(6, 5) × C(6, 5) multisets
    with pytest.raises(TooBig) as refused:
        big.chance_outcomes()
    said = str(refused.value)
    assert "2,286,144" in said and "sample_chance" in said and state_class.EXACT_LAW in said
    drawn = big.sample_chance(np.random.default_rng(1))  # still drawn exactly, one outcome, nothing listed
    assert big.is_legal_outcome(drawn) and big.apply(drawn).rolling_white == 0
    small = replace(big, rolling_white=2, rolling_own=0, rolling_offered=())
    assert len(small.chance_outcomes()) == small.chance_outcome_count() == 21
