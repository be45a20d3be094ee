import json
import pickle
import random
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest

import coffeegames
from coffeegames.engine import (CHANCE, MAX_OUTCOMES, TERMINAL, Expectimax, IllegalAction, State, Walkthrough, evaluate, play, play_out,
                                random_policy, simulate)
from coffeegames.exact.draws import uniform_below
from coffeegames.errors import BadType, TooBig
from coffeegames.engine.examples import Keep, KeepOrReroll, Reroll


def test_expectimax_matches_hand_computation():
    # keep 4, 5, 6; reroll 1, 2, 3 and take the expected 7/2
    assert Expectimax().value(KeepOrReroll()) == (Fraction(4 + 5 + 6, 6) + Fraction(3, 6) * Fraction(7, 2),)
    solver = Expectimax()
    values = dict(solver.action_values(KeepOrReroll(die=3)))
    assert values == {Keep(): 3, Reroll(): Fraction(7, 2)}
    assert solver.best_action(KeepOrReroll(die=5)) == Keep()


def test_evaluate_and_simulate_a_policy():
    always_keep = lambda s: Keep()  # noqa: E731
    assert evaluate(KeepOrReroll(), always_keep) == (Fraction(7, 2),)
    sims = simulate(KeepOrReroll(), Expectimax().policy(), n=20_000, seed=4)
    assert abs(sims.mean() - 17 / 4) < 0.05


def test_chance_outcomes_sum_to_one_and_markers():
    s = KeepOrReroll()
    assert s.current_player() == CHANCE and s.is_chance()
    assert sum(p for _, p in s.chance_outcomes()) == 1
    assert s.legal_actions() == []
    end = s.apply(6).apply(Keep())
    assert end.current_player() == TERMINAL and end.chance_outcomes() == [] and end.legal_actions() == []


def test_illegal_moves_raise_and_change_nothing():
    s = KeepOrReroll(die=2)
    with pytest.raises(IllegalAction, match="legal actions are: Keep\\(\\), Reroll\\(\\)"):
        s.apply("jump")
    assert s == KeepOrReroll(die=2)
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        KeepOrReroll().apply(7)
    with pytest.raises(IllegalAction, match="game is over"):
        KeepOrReroll(die=2, kept=True).apply(Keep())


def test_walkthrough_undo_replay_and_json():
    w = Walkthrough(KeepOrReroll(), seed=11)
    w.step().step(Reroll()).step()
    assert w.state.is_terminal() and len(w.moves) == 3
    again = Walkthrough.replay(KeepOrReroll(), w.moves)
    assert again.states == w.states
    loaded = Walkthrough.from_json(w.to_json(), KeepOrReroll(), kinds=(Keep, Reroll))
    assert loaded.states == w.states and loaded.seed == 11
    w.undo_to_decision()
    assert w.state == KeepOrReroll(die=w.states[1].die) and len(w.moves) == 1
    with pytest.raises(IllegalAction):
        w.step(7)  # not a decision between Keep and Reroll
    assert len(w.moves) == 1
    with pytest.raises(ValueError, match="steps.*0-1"):
        w.undo(2)


def test_a_loaded_game_rolls_on_with_the_saved_luck():
    w = Walkthrough(KeepOrReroll(), seed=3)
    w.step().step(Reroll())
    loaded = Walkthrough.from_json(w.to_json(), KeepOrReroll(), kinds=(Keep, Reroll))
    rolls = [Walkthrough.from_json(w.to_json(), KeepOrReroll(), kinds=(Keep, Reroll)).step().state.die for _ in range(3)]
    assert loaded.step().state == w.step().state and len(set(rolls)) == 1
    fresh = [Walkthrough(KeepOrReroll(), seed=s).step().step(Reroll()).step().state.die for s in range(30)]
    assert len(set(fresh)) > 1  # the check above could tell luck apart
    saved = json.loads(w.to_json())
    old = {k: v for k, v in saved.items() if k != "rng"}  # a save from before the generator was kept
    assert Walkthrough.from_json(json.dumps(old), KeepOrReroll(), kinds=(Keep, Reroll)).states == w.states
    for bad in ({"bit_generator": "MT19937"}, "lucky", {"bit_generator": "PCG64", "state": {}}):
        with pytest.raises(ValueError, match="field 'rng'"):
            Walkthrough.from_json(json.dumps({**saved, "rng": bad}), KeepOrReroll(), kinds=(Keep, Reroll))


def test_same_seed_same_game():
    a = Walkthrough(KeepOrReroll(), seed=5).run(Expectimax().policy())
    b = Walkthrough(KeepOrReroll(), seed=5).run(Expectimax().policy())
    assert a.moves == b.moves


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not valid JSON"),
        (json.dumps({"format": "other"}), "format"),
        (json.dumps({"format": "coffeegames-walkthrough/1", "moves": 3}), "'moves': must be a list"),
        (json.dumps({"format": "coffeegames-walkthrough/1", "moves": [{"type": "Jump"}]}), r"moves\[0\].*unknown action type.*'Jump'"),
        (json.dumps({"format": "coffeegames-walkthrough/1", "moves": [9]}), "not a possible outcome"),
    ],
)
def test_malformed_saves_are_rejected_whole(text, message):
    with pytest.raises(ValueError, match=message):
        Walkthrough.from_json(text, KeepOrReroll(), kinds=(Keep, Reroll))


@dataclass(frozen=True)
class CoinGame:
    """Two players each flip a coin; heads scores 1."""

    name: str = "coins"

    def new_initial_state(self):
        return Coins()


@dataclass(frozen=True)
class Coins(State):
    flips: tuple = ()

    def current_player(self):
        return TERMINAL if len(self.flips) == 2 else CHANCE

    def _chance_outcomes(self):
        return [("H", Fraction(1, 2)), ("T", Fraction(1, 2))]

    def _apply(self, o):
        return Coins(self.flips + (o,))

    def returns(self):
        return tuple(int(f == "H") for f in self.flips)


def test_play_many_games_is_seeded_and_parallel_safe():
    one = play(CoinGame(), lambda s: None, n_games=200, seed=3, progress=False)
    assert list(one.columns) == ["moves", "player_0", "player_1", "winners"]
    assert (one["moves"] == 2).all()
    assert 0.35 < one["player_0"].mean() < 0.65
    two = play(CoinGame(), lambda s: None, n_games=200, seed=3, jobs=2, progress=False)
    assert one.equals(two)


@dataclass(frozen=True)
class HugeRoll(Coins):
    """Coins whose chance node says it has ten million outcomes (and would list two if asked)."""

    def chance_outcome_count(self):
        return 10_000_000 if self.is_chance() else 0


def test_solvers_refuse_a_chance_node_too_big_to_list_before_listing_it():
    with pytest.raises(TooBig, match="10,000,000 outcomes"):
        Expectimax().value(HugeRoll())
    with pytest.raises(TooBig, match="simulate"):
        evaluate(HugeRoll(), lambda s: None)
    assert simulate(HugeRoll(), lambda s: None, n=3).shape == (3, 2)  # sampling still works
    assert MAX_OUTCOMES == 100_000


# -- the engine's fast paths draw exactly what the plain code drew (issue 14) ------------------------------------

BIT_GENERATORS = [np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64]


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_uniform_below_draws_what_integers_draws(bit_generator):
    """Mixed with other draws (which share the bit generator's buffered 32 bits), over sizes that reach Lemire's
    rejection step (near 2**32) and the ones left to ``integers`` (0 raises; 2**32 and over)."""
    plain, fast = np.random.Generator(bit_generator(5)), np.random.Generator(bit_generator(5))
    below, choose = uniform_below(fast), random.Random(5)
    for _ in range(3000):
        n = choose.choice([1, 2, 3, 6, 7, 1000, choose.randrange(1, 2**32), 2**32 - choose.randrange(1, 2**20), 2**32 - 1,
                           2**32, 2**40])
        kind = choose.random()
        if kind < 0.1:
            assert plain.random() == fast.random()
        elif kind < 0.2:
            assert plain.integers(1, 7, size=3).tolist() == fast.integers(1, 7, size=3).tolist()
        else:
            assert int(plain.integers(n)) == below(n)
    assert str(plain.bit_generator.state) == str(fast.bit_generator.state)
    with pytest.raises(ValueError):  # what integers(0) raises
        below(0)


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_draws_below_draws_what_integers_draws(bit_generator):
    """``draws_below(rng, n, k)`` is ``rng.integers(n, size=k).tolist()`` and ``draw_below(rng, n)`` is
    ``int(rng.integers(n))``, two generators taking turns (they keep the last one bound: issue 30), mixed with other
    draws, over sizes that reach Lemire's rejection step."""
    from coffeegames.exact.draws import draw_below, draws_below

    plain = [np.random.Generator(bit_generator(seed)) for seed in (5, 6)]
    fast = [np.random.Generator(bit_generator(seed)) for seed in (5, 6)]
    choose = random.Random(5)
    for _ in range(3000):
        i, n, k = choose.randrange(2), choose.choice([1, 2, 6, 7, 1000, 2**32 - choose.randrange(2, 2**20)]), choose.randrange(12)
        if choose.random() < 0.1:
            assert plain[i].random() == fast[i].random()
        if choose.random() < 0.3:
            assert int(plain[i].integers(n)) == draw_below(fast[i], n)
        else:
            assert plain[i].integers(n, size=k).tolist() == draws_below(fast[i], n, k)
    assert [str(g.bit_generator.state) for g in plain] == [str(g.bit_generator.state) for g in fast]
    with pytest.raises(BadType):
        draws_below("not a generator", 6, 2)
    with pytest.raises(BadType):
        draw_below("not a generator", 6)


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_distinct_below_and_permutation_below_draw_what_numpy_draws(bit_generator):
    """``distinct_below`` is ``choice(n, size=k, replace=False)`` and ``permutation_below`` is ``permutation(n)`` (issue 30):
    the same numbers and the generator left in the same place, mixed with other draws, two generators taking turns."""
    from coffeegames.exact.draws import distinct_below, permutation_below

    plain = [np.random.Generator(bit_generator(seed)) for seed in (11, 12)]
    fast = [np.random.Generator(bit_generator(seed)) for seed in (11, 12)]
    choose = random.Random(11)
    for _ in range(2000):
        i, n = choose.randrange(2), choose.choice([0, 1, 2, 5, 9, 30, 64, choose.randrange(1, 400), 10_001])
        if choose.random() < 0.2:
            assert plain[i].random() == fast[i].random()
        if choose.random() < 0.5:
            k = choose.randrange(0, n + 1)
            assert plain[i].choice(n, size=k, replace=False).tolist() == distinct_below(fast[i], n, k)
        else:
            assert plain[i].permutation(n).tolist() == permutation_below(fast[i], n)
        assert plain[i].integers(6, size=2).tolist() == fast[i].integers(6, size=2).tolist()
    assert [str(g.bit_generator.state) for g in plain] == [str(g.bit_generator.state) for g in fast]


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_the_bound_random_and_draw_below_draw_what_numpy_draws(bit_generator):
    """``draws._random(rng)`` is ``rng.random()`` (the generic ``sample_chance`` draws by it) and ``draw_below(rng, n)`` is
    ``int(rng.integers(n))`` (both keep the last generator bound, issue 30): the same numbers, the generator left in the
    same place, mixed with the other bound draws, two generators taking turns."""
    from coffeegames.exact.draws import _random, draw_below, draws_below

    plain = [np.random.Generator(bit_generator(seed)) for seed in (21, 22)]
    fast = [np.random.Generator(bit_generator(seed)) for seed in (21, 22)]
    choose = random.Random(21)
    for _ in range(3000):
        i, what = choose.randrange(2), choose.randrange(3)
        if what == 0:
            assert plain[i].random() == _random(fast[i])
        elif what == 1:
            n = choose.choice([1, 2, 6, 7, 1000, 2**32 - choose.randrange(2, 2**20)])
            assert int(plain[i].integers(n)) == draw_below(fast[i], n)
        else:
            assert plain[i].integers(6, size=3).tolist() == draws_below(fast[i], 6, 3)
    assert [str(g.bit_generator.state) for g in plain] == [str(g.bit_generator.state) for g in fast]


@dataclass(frozen=True)
class Menu(State):
    """A decision among ``size`` moves of three kinds (int, str, tuple), then another; three decisions in all."""

    made: tuple = ()
    size: int = 5

    def current_player(self):
        return TERMINAL if len(self.made) == 3 else 0

    def _legal_actions(self):
        return tuple(i if i % 3 == 0 else (str(i) if i % 3 == 1 else (i,)) for i in range(self.size))

    def _apply(self, move):
        return Menu(self.made + (move,), self.size + 7)

    def returns(self):
        return (0,)


def plain_random_policy(rng):
    """``random_policy`` as it was first written: a kind uniformly, then a move of that kind, by two ``integers``."""
    def policy(state):
        by_kind = {}
        for action in state.legal_actions():
            by_kind.setdefault(type(action), []).append(action)
        kinds = list(by_kind.values())
        options = kinds[int(rng.integers(len(kinds)))]
        return options[int(rng.integers(len(options)))]
    return policy


@pytest.mark.parametrize("size", [1, 2, 5, 40])
def test_random_policy_draws_what_the_plain_policy_draws(size):
    for seed in range(20):
        plain, fast = np.random.default_rng(seed), np.random.default_rng(seed)
        one = play_out(Menu(size=size), plain_random_policy(plain), np.random.default_rng(0))
        two = play_out(Menu(size=size), random_policy(fast), np.random.default_rng(0))
        assert one == two
        assert plain.bit_generator.state == fast.bit_generator.state
    with pytest.raises(ValueError):
        random_policy(0)(Menu(size=0))  # no legal move: numpy's error, as before


@dataclass(frozen=True)
class Wheel(State):
    """One spin of a wheel with ``len(weights)`` sectors of the given (whole-number) weights."""

    weights: tuple = (1, 2)
    spun: object = None

    def current_player(self):
        return CHANCE if self.spun is None else TERMINAL

    def _chance_outcomes(self):
        total = sum(self.weights)
        return [(i, Fraction(w, total)) for i, w in enumerate(self.weights)]

    def _apply(self, outcome):
        return Wheel(self.weights, outcome)

    def returns(self):
        return (self.spun,)


@pytest.mark.parametrize("weights", [(1, 2), (1, 1, 1), (3, 1, 4, 1, 5, 9, 2, 6), tuple(range(1, 101)), (7,) * 65])
def test_sample_chance_draws_what_numpy_choice_draws(weights):
    """The generic ``sample_chance`` (small nodes through a cache, large ones not) is ``rng.choice(n, p=odds)``."""
    wheel, plain, fast = Wheel(weights), np.random.default_rng(1), np.random.default_rng(1)
    odds = np.array([float(p) for _, p in wheel.chance_outcomes()])
    for _ in range(300):
        assert wheel.sample_chance(fast) == int(plain.choice(len(weights), p=odds))


def test_play_out_refuses_a_policys_illegal_move():
    with pytest.raises(IllegalAction, match="not legal here"):
        play_out(KeepOrReroll(die=3), lambda s: "fold", np.random.default_rng(0))
    equal_not_same = play_out(KeepOrReroll(die=3), lambda s: Keep(), np.random.default_rng(0))[0]  # found by ==, not only `is`
    assert equal_not_same.is_terminal()


def test_a_pickled_random_policy_draws_on_from_its_own_copy():
    below = uniform_below(np.random.default_rng(8))
    below(10)
    again = pickle.loads(pickle.dumps(below))
    assert [below(10) for _ in range(20)] == [again(10) for _ in range(20)]
    one = play(KeepGame(), random_policy(4), n_games=6, seed=1, progress=False)
    two = play(KeepGame(), random_policy(4), n_games=6, seed=1, jobs=2, progress=False)  # the policy pickled to workers
    assert list(one.columns) == list(two.columns) and len(two) == 6


class KeepGame:
    def new_initial_state(self):
        return KeepOrReroll()


@pytest.mark.parametrize("name", sorted(coffeegames.games()))
def test_every_games_random_policy_draws_what_the_plain_policy_draws(name):
    """Gizmos and VivaJava let ``random_policy`` draw without listing every action (``State._draw_legal``): the same
    games as the policy over the whole list, in every variant of the registry."""
    info = coffeegames.games()[name]
    for options in info.variants:
        for seed in range(2):
            plain, fast = np.random.default_rng([1, seed]), np.random.default_rng([1, seed])
            end, log = play_out(info.game(**options).new_initial_state(), plain_random_policy(plain), np.random.default_rng([0, seed]))
            end2, log2 = play_out(info.game(**options).new_initial_state(), random_policy(fast), np.random.default_rng([0, seed]))
            assert log == log2, (name, options, seed)
            assert end == end2
            assert plain.bit_generator.state == fast.bit_generator.state
