"""The game control behind every decision view, without any user interface: moves, bots, undo, typed outcomes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from coffeegames.dairyman import Game, Rolled, State, greedy_policy
from coffeegames.engine import CHANCE, BadEntry, Expectimax, Session, Walkthrough
from coffeegames.engine.examples import Keep, KeepOrReroll, Reroll
from coffeegames.errors import BadArgument, CoffeeGamesError, IllegalAction

ROLLED = Rolled(dice=(1, 2, 3, 4, 5, 5, 6), yellow=5)


def read_die(text: str, state: KeepOrReroll) -> int:
    """A typed die for the tiny game: bad text is a BadEntry."""
    if not text.strip().isdigit():
        raise BadEntry(f"type the die as a number 1-6, not {text!r}")
    return int(text)


def roll_owner(state: State) -> int | None:
    """Dairyman: a roll is the player's whose turn it is; a draw of tiles is nobody's."""
    return state.turn if state.phase == "roll" else None


def dairyman(human: tuple[int, ...] = (0,), players: int = 2, seed: int = 3) -> Session[State]:
    bots = {p: greedy_policy for p in range(players) if p not in human}
    return Session(Game(players=players).new_initial_state(), seed=seed, bots=bots, chance_player=roll_owner)


def test_the_session_module_needs_no_user_interface() -> None:
    code = "import sys, coffeegames.engine.session; sys.exit('ipywidgets' in sys.modules or 'plotly' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_moves_history_and_undo_in_a_tiny_game() -> None:
    session = Session(KeepOrReroll(), seed=7, parse_outcome=read_die)
    assert session.describe() == "chance moves next" and session.seed == 7
    session.enter_outcome("2")
    assert session.state == KeepOrReroll(die=2) and session.describe() == "player 0 (you) to move"
    session.take(Reroll())
    session.chance_step()
    assert session.state.rerolled and session.state.die in range(1, 7) and session.state.is_terminal()
    assert [who for who, _ in session.history()] == ["chance", "player 0 (you)", "chance"]
    assert session.history()[:2] == [("chance", "2"), ("player 0 (you)", "Reroll()")]
    assert session.describe().startswith("the game is over (player 0 (you) ")
    session.undo()  # back over chance to your decision
    assert session.state == KeepOrReroll(die=2)
    session.undo()
    assert session.state == KeepOrReroll() and session.walkthrough.moves == []


@pytest.mark.parametrize(
    ("move", "error", "says"),
    [
        (lambda s: s.take(Keep()), IllegalAction, "no player decides now"),
        (lambda s: s.enter_outcome("x"), BadEntry, "type the die as a number"),
        (lambda s: s.enter_outcome("9"), IllegalAction, "not a possible outcome"),
        (lambda s: s.bots_play(), IllegalAction, "no bots"),
        (lambda s: s.undo(), IllegalAction, "nothing to undo"),
        (lambda s: s.new_game(-1), BadArgument, "0 or more"),
        (lambda s: s.new_game("3"), BadArgument, "whole number"),
    ],
)
def test_a_refused_move_raises_a_library_error_and_changes_nothing(move, error, says) -> None:
    session = Session(KeepOrReroll(), seed=1, parse_outcome=read_die)
    before = session.walkthrough
    with pytest.raises(error, match=says) as caught:
        move(session)
    assert isinstance(caught.value, CoffeeGamesError)
    assert session.walkthrough is before and session.state == KeepOrReroll() and before.moves == []


def test_refused_moves_at_a_decision() -> None:
    session = Session(KeepOrReroll(die=4))
    for move, says in [(session.chance_step, "not chance's move"), (lambda: session.enter_outcome("3"), "no typed outcomes")]:
        with pytest.raises(IllegalAction, match=says):
            move()
    session.parse_outcome = read_die
    with pytest.raises(IllegalAction, match="nothing to enter: player 0 \\(you\\) to move"):
        session.enter_outcome("3")
    assert session.state == KeepOrReroll(die=4)


def test_a_bad_entry_speaks_to_the_person_typing() -> None:
    error = BadEntry("type 7 values (you typed 3)")
    assert str(error) == "type 7 values (you typed 3)" and isinstance(error, BadArgument) and isinstance(error, ValueError)


def test_bots_play_until_a_person_rolls_and_undo_returns_to_that_roll() -> None:
    session = dairyman(human=(0,))
    assert not session.persons_turn() and session.bots_can_play()  # the deal: chance, nobody's roll
    session.bots_play()
    assert session.state.is_chance() and roll_owner(session.state) == 0 and session.persons_turn()
    assert not session.bots_can_play() and session.describe() == "player 0 (you)'s roll: chance moves next"
    with pytest.raises(IllegalAction, match="nothing for the bots to do"):
        session.bots_play()
    at_roll = session.state
    session.walkthrough.step(ROLLED)
    assert session.history()[-1] == ("chance · player 0 (you)'s roll", "rolled 1 2 3 4 5 5 6, yellow 5")
    session.undo()  # back to the roll you typed: it is yours to make again
    assert session.state == at_roll


def test_a_game_of_bots_plays_to_the_end_and_undo_steps_back_one_decision() -> None:
    session = dairyman(human=(), seed=2)
    session.bots_play()
    assert session.state.is_terminal() and not session.bots_can_play()
    end = len(session.walkthrough.moves)
    session.undo()
    assert not session.state.is_chance() and not session.state.is_terminal() and len(session.walkthrough.moves) < end
    assert session.state.current_player() in session.bots


def test_names_and_chance_event_words() -> None:
    session = Session(KeepOrReroll(), seed=1, chance_player=lambda s: 0, names=["Ann"], chance_event="draw")
    assert session.describe() == "Ann's draw: chance moves next"
    session.chance_step()
    assert session.history() == [("chance · Ann's draw", str(session.walkthrough.moves[0]))]
    assert session.name(CHANCE) == "chance"


def test_new_game_with_a_seed_replays_the_same_luck() -> None:
    def first_moves(session: Session[State], seed: int) -> list[object]:
        session.new_game(seed)
        assert session.walkthrough.moves == [] and session.seed == seed
        session.bots_play()
        session.chance_step()
        return list(session.walkthrough.moves)

    session = dairyman()
    assert first_moves(session, 11) == first_moves(session, 11) != first_moves(session, 12)
    assert session.initial == Game(players=2).new_initial_state()


def test_a_session_continues_a_walkthrough() -> None:
    walk = Walkthrough(KeepOrReroll(), seed=5).step()
    session = Session(walk, bots={0: Expectimax().policy()})
    assert session.walkthrough is walk and session.initial == KeepOrReroll() and session.name(0) == "player 0 (bot)"
    session.bots_play()
    assert session.state.is_terminal()
