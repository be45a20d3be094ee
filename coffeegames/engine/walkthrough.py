"""Step through a game: history, undo, replay from a seed and a log, save and load as JSON.

Example:
    >>> from coffeegames.engine.examples import KeepOrReroll, Keep
    >>> w = Walkthrough(KeepOrReroll(), seed=1)
    >>> w.step().state.die in range(1, 7)      # chance rolls the die
    True
    >>> w.step(Keep()).state.is_terminal()
    True
    >>> w.undo().state.is_terminal()
    False
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import BadArgument, BadType, IllegalAction, shown
from ..validate import Checker, check_count, check_instance, read_json
from .state import Action, State, action_from_json, action_to_json

__all__ = ["FORMAT", "Walkthrough"]

FORMAT = "coffeegames-walkthrough/1"
"""The ``format`` field of a saved walkthrough."""


class Walkthrough:
    """A game in progress: every state visited and every move made, with undo.

    Chance moves not given explicitly are drawn from a generator seeded by ``seed``;
    the log records them, so :meth:`replay` rebuilds the same game exactly, and a saved
    game (:meth:`to_json`) keeps the generator's position: a loaded game rolls on with
    the luck the saved one would have had.
    """

    def __init__(self, initial: State, seed: int | None = None) -> None:
        check_instance(initial, State, "initial", "a game state (e.g. Game().new_initial_state())")
        if seed is not None:
            Checker(error=BadArgument).whole(seed, "seed")
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.states: list[State] = [initial]
        self.moves: list[Action] = []

    @property
    def state(self) -> State:
        """The current state."""
        return self.states[-1]

    def step(self, move: Action | None = None) -> Walkthrough:
        """Apply ``move``; at a chance node ``None`` lets chance roll. Illegal moves change nothing."""
        state = self.state
        if move is None:
            if not state.is_chance():
                raise IllegalAction("only chance can move by itself; give a player's action")
            move = state.sample_chance(self.rng)
        nxt = state.apply(move)  # raises before anything is recorded
        self.states.append(nxt)
        self.moves.append(move)
        return self

    def run(self, policy: Callable[[State], Action], until: Callable[[State], bool] | None = None, max_steps: int = 10_000) -> Walkthrough:
        """Let chance and ``policy`` move until the game ends (or ``until(state)`` holds)."""
        if not callable(policy):
            raise BadType("policy", "must be a policy: a function from a state to an action", policy)
        if until is not None and not callable(until):
            raise BadType("until", "must be a function from a state to True (stop here) or False, or None", until)
        check_count(max_steps, "max_steps")
        for _ in range(max_steps):
            s = self.state
            if s.is_terminal() or (until is not None and until(s)):
                return self
            self.step(None if s.is_chance() else policy(s))
        raise BadArgument("max_steps", f"the game did not end within {max_steps:,} steps: give more (or a policy that ends it)")

    def undo(self, steps: int = 1) -> Walkthrough:
        """Take back the last ``steps`` moves (chance moves count)."""
        Checker(error=BadArgument).whole(steps, "steps", 0, len(self.moves))
        for _ in range(steps):
            self.states.pop()
            self.moves.pop()
        return self

    def undo_to_decision(self) -> Walkthrough:
        """Undo back to the previous player decision (skipping chance moves after it)."""
        while self.moves:
            self.undo()
            if not self.state.is_chance():
                break
        return self

    def history(self) -> list[tuple[int, str]]:
        """``(player or chance marker, move text)`` for each move made."""
        return [(s.current_player(), str(m)) for s, m in zip(self.states, self.moves)]

    @classmethod
    def replay(cls, initial: State, moves: Sequence[Action], seed: int | None = None) -> Walkthrough:
        """Rebuild a walkthrough by applying ``moves`` to ``initial``."""
        w = cls(initial, seed)
        listed: tuple[Action, ...] = Checker("", BadArgument).sequence(moves, "moves")
        for m in listed:
            w.step(m)
        return w

    def to_json(self, game: Any = None) -> str:
        """Save as JSON: the game's name and options (if given), seed, the move log and the generator's position."""
        data = {
            "format": FORMAT,
            "game": getattr(game, "name", None),
            "options": getattr(game, "options", None),
            "seed": self.seed,
            "moves": [action_to_json(m) for m in self.moves],
            "rng": self.rng.bit_generator.state,
        }
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str, initial: State, kinds: Sequence[type], game: Any = None) -> Walkthrough:
        """Load a saved walkthrough onto ``initial``; any bad field or illegal move rejects the whole file."""
        check = Checker("saved game")
        data = read_json(text, "saved game")
        check.need(isinstance(data, dict) and data.get("format") == FORMAT, "format", f"must be {FORMAT!r}",
                   data.get("format") if isinstance(data, dict) else data)
        check.fields(data, "(top level)", ("format", "game", "options", "seed", "moves", "rng"), ("moves",), comments=False)
        name = getattr(game, "name", None)
        if game is not None:
            check.need(data.get("game") in (None, name), "game", f"this file is for another game, not {name!r}", data.get("game"))
            saved_options, options = data.get("options"), getattr(game, "options", None)
            if saved_options is not None and options is not None:
                check.need(saved_options == json.loads(json.dumps(options)), "options",
                           f"the game was saved under other options than this game's ({shown(options)}): "
                           "make the game with the saved options (the game package's own loader does) to load it",
                           saved_options)
        seed = data.get("seed")
        if seed is not None:
            check.whole(seed, "seed")
        moves: list[Action] = []
        saved_moves: tuple[Any, ...] = check.sequence(data["moves"], "moves")
        for i, m in enumerate(saved_moves):
            check.need(m is not None, f"moves[{i}]", "a move cannot be null")
            try:
                moves.append(action_from_json(m, kinds))
            except (ValueError, TypeError) as error:
                raise check.error(f"moves[{i}]", str(error)) from None
        rng = np.random.default_rng()
        if "rng" in data:  # older saves have none: the generator starts again from the seed
            try:
                rng.bit_generator.state = data["rng"]
            except (TypeError, ValueError, KeyError, OverflowError):
                raise check.error("rng", f"is not a {type(rng.bit_generator).__name__} generator state", data["rng"]) from None
        w = cls(initial, seed)
        for i, m in enumerate(moves):
            try:
                w.step(m)
            except IllegalAction as error:
                raise IllegalAction(f"saved game: moves[{i}] cannot be replayed: {error}") from None
        if "rng" in data:
            w.rng = rng
        return w
