import json
from dataclasses import dataclass
from fractions import Fraction

import pytest

from coffeegames.engine import CHANCE, MAX_OUTCOMES, TERMINAL, Expectimax, IllegalAction, State, Walkthrough, evaluate, play, simulate
from coffeegames.errors import TooBig
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
