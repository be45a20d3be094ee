"""A game being played by people and bots, with no user interface: the control behind every decision view.

A :class:`Session` wraps a :class:`~coffeegames.engine.Walkthrough` and knows who is who:
which players are bots (a policy each) and which are people, and, at a chance node, whose
roll (or draw) it is. On that it builds the moves a person makes at a table:

* :meth:`~Session.take` an action, let chance move (:meth:`~Session.chance_step`), or type
  what real dice showed (:meth:`~Session.enter_outcome`, through the game's parser);
* :meth:`~Session.bots_play`: bots and chance move until a person decides (or rolls);
* :meth:`~Session.undo` back to the last point where a person decided or rolled;
* :meth:`~Session.new_game` with a seed (the same seed replays the same luck);
* :meth:`~Session.history` (who moved, and what) and :meth:`~Session.describe` (whose move it is).

A move that cannot be made raises a :class:`~coffeegames.errors.CoffeeGamesError`
(:class:`~coffeegames.errors.IllegalAction`, :class:`~coffeegames.errors.BadArgument`) and
changes nothing; any other error is a bug and is not caught here.

Example (roll a die, keep it or reroll once; a bot that always keeps):
    >>> from coffeegames.engine.examples import Keep, KeepOrReroll
    >>> session = Session(KeepOrReroll(), seed=1, parse_outcome=lambda text, state: int(text))
    >>> session.enter_outcome("4")              # what the real die showed
    >>> session.describe()
    'player 0 (you) to move'
    >>> session.take(Keep())
    >>> session.history()
    [('chance', '4'), ('player 0 (you)', 'Keep()')]
    >>> session.undo()                          # back to your decision
    >>> session.state
    KeepOrReroll(die=4, rerolled=False, kept=False)
    >>> bots = Session(KeepOrReroll(), seed=1, bots={0: lambda state: Keep()})
    >>> bots.bots_play()
    >>> bots.state.is_terminal(), bots.describe()
    (True, 'the game is over (player 0 (bot) 4)')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar, cast

from ..errors import BadArgument, BadEntry, IllegalAction
from ..validate import Checker, check_count, check_instance, is_whole
from .state import CHANCE, TERMINAL, Action, Outcome, State
from .walkthrough import Walkthrough

__all__ = ["BadEntry", "ChancePlayer", "OutcomeParser", "S", "Session"]

S = TypeVar("S", bound=State)
"""The game's State class (a session of Dairyman takes Dairyman's bots, parser, ...)."""
OutcomeParser = Callable[[str, S], Outcome]
"""``parse(text, state) -> outcome``: a chance outcome typed as text; raises :class:`BadEntry` (or
:class:`~coffeegames.errors.IllegalAction`) for text it cannot read."""
ChancePlayer = Callable[[S], "int | None"]
"""``chance_player(state) -> player or None``: whose roll (or draw) a chance node is."""


class Session(Generic[S]):
    """A game in progress between people and bots: moves, undo, bots playing, typed outcomes, history.

    Args:
        game: a :class:`Walkthrough` to continue, or an initial state (then ``seed`` seeds chance).
        seed: seeds chance moves not typed in (ignored when ``game`` is a Walkthrough).
        bots: ``{player: policy}``; the other players are people.
        chance_player: ``chance_player(state) -> player or None``, whose roll a chance node is;
            "bots play" stops before a person's roll and "undo" goes back to it.
        parse_outcome: ``parse_outcome(text, state) -> outcome`` for typed chance outcomes.
        names: a display name per player (default ``"player 0 (you)"``, ``"player 1 (bot)"``).
        chance_event: what a person's chance move is called (``"roll"``, ``"draw"``), as in
            ``"chance · player 0 (you)'s roll"``.
    """

    def __init__(
        self,
        game: Walkthrough | S,
        *,
        seed: int | None = 0,
        bots: Mapping[int, Callable[[S], Action]] | None = None,
        chance_player: ChancePlayer[S] | None = None,
        parse_outcome: OutcomeParser[S] | None = None,
        names: Sequence[str] | None = None,
        chance_event: str = "roll",
    ) -> None:
        check = Checker("", BadArgument)
        check.need(bots is None or (isinstance(bots, Mapping) and all(is_whole(p) and callable(b) for p, b in bots.items())),
                   "bots", "must map player numbers to policies (functions of a state), or be None", bots)
        for name, value in (("chance_player", chance_player), ("parse_outcome", parse_outcome)):
            check.need(value is None or callable(value), name, "must be a function or None", value)
        if names is not None:
            check.sequence(names, "names", check.text)
        check.text(chance_event, "chance_event")
        self.walkthrough = game if isinstance(game, Walkthrough) else Walkthrough(game, seed)
        self.initial: S = cast(S, self.walkthrough.states[0])
        self.bots: dict[int, Callable[[S], Action]] = dict(bots or {})
        self.chance_player = chance_player
        self.parse_outcome = parse_outcome
        self.names = list(names) if names is not None else None
        self.chance_event = chance_event

    # -- reading -------------------------------------------------------------------
    @property
    def state(self) -> S:
        """The current state."""
        return cast(S, self.walkthrough.state)

    @property
    def seed(self) -> int | None:
        """The seed of the game's chance moves."""
        return self.walkthrough.seed

    def name(self, player: int) -> str:
        """How a player (or chance) is shown.

        >>> from coffeegames.engine.examples import KeepOrReroll
        >>> Session(KeepOrReroll()).name(0), Session(KeepOrReroll(), names=["Ann"]).name(0)
        ('player 0 (you)', 'Ann')
        """
        if player == CHANCE:
            return "chance"
        limit = len(self.names) - 1 if self.names is not None else None
        check_count(player, "player", maximum=limit)
        if self.names is not None:
            return self.names[player]
        return f"player {player} ({'bot' if player in self.bots else 'you'})"

    def _at(self, state: S | None) -> S:
        """``state``, or the current one for None; anything else is refused by name."""
        return self.state if state is None else cast(S, check_instance(state, State, "state", "a game state (or None: now)"))

    def roller(self, state: S | None = None) -> int | None:
        """Whose roll (or draw) a chance node is; None at a decision, or when it is nobody's."""
        state = self._at(state)
        if not state.is_chance() or self.chance_player is None:
            return None
        return self.chance_player(state)

    def persons_turn(self, state: S | None = None) -> bool:
        """Whether a person acts at ``state`` (default: now): a decision of a non-bot, or a chance node that is a non-bot's roll."""
        state = self._at(state)
        player = state.current_player()
        if player == CHANCE:
            roller = self.roller(state)
            return roller is not None and roller not in self.bots
        return player != TERMINAL and player not in self.bots

    def bots_can_play(self, state: S | None = None) -> bool:
        """Whether "bots play" has something to do: there are bots, the game goes on, and no person acts now."""
        state = self._at(state)
        return bool(self.bots) and not state.is_terminal() and not self.persons_turn(state)

    def describe(self, state: S | None = None) -> str:
        """Whose move it is, in words: ``'player 0 (you) to move'``, ``"player 0 (you)'s roll: chance moves next"``,
        ``'the game is over (player 0 (you) 30, player 1 (bot) 12)'``."""
        state = self._at(state)
        player = state.current_player()
        if player == TERMINAL:
            returns = ", ".join(f"{self.name(p)} {r}" for p, r in enumerate(state.returns()))
            return f"the game is over ({returns})"
        if player == CHANCE:
            roller = self.roller(state)
            who = f"{self.name(roller)}'s {self.chance_event}: " if roller is not None else ""
            return f"{who}chance moves next"
        return f"{self.name(player)} to move"

    def history(self) -> list[tuple[str, str]]:
        """``(who, move)`` for every move made, oldest first; a person's roll is ``"chance · <name>'s roll"``."""
        found = []
        for state, (player, move) in zip(self.walkthrough.states, self.walkthrough.history()):
            roller = self.roller(cast(S, state)) if player == CHANCE else None
            found.append((self.name(player) + (f" · {self.name(roller)}'s {self.chance_event}" if roller is not None else ""), move))
        return found

    # -- moving --------------------------------------------------------------------
    def take(self, action: Action) -> None:
        """Take ``action`` at the current decision (any player's); an illegal one raises and changes nothing."""
        if self.state.is_chance():
            raise IllegalAction(f"no player decides now: {self.describe()}")
        self.walkthrough.step(action)

    def chance_step(self) -> None:
        """Let chance move once, with its exact odds (seeded)."""
        if not self.state.is_chance():
            raise IllegalAction(f"it is not chance's move: {self.describe()}")
        self.walkthrough.step()

    def enter_outcome(self, text: str) -> None:
        """Apply a chance outcome typed as text, read by ``parse_outcome``; bad text raises and changes nothing."""
        if self.parse_outcome is None:
            raise IllegalAction("this game takes no typed outcomes")
        Checker("", BadArgument).text(text, "text")
        if not self.state.is_chance():
            raise IllegalAction(f"nothing to enter: {self.describe()}")
        self.walkthrough.step(self.parse_outcome(text, self.state))

    def bots_play(self) -> None:
        """Bots and chance move until a person decides (or rolls), or the game ends."""
        if not self.bots:
            raise IllegalAction("there are no bots in this game")
        if not self.bots_can_play():
            raise IllegalAction(f"nothing for the bots to do: {self.describe()}")
        self.walkthrough.run(lambda s: self.bots[s.current_player()](cast(S, s)), until=lambda s: self.persons_turn(cast(S, s)))

    def undo(self) -> None:
        """Take back moves to the last point where a person decided or rolled (else to the last decision)."""
        w = self.walkthrough
        if not w.moves:
            raise IllegalAction("nothing to undo: no move has been made")
        points = [i for i in range(len(w.moves)) if self.persons_turn(cast(S, w.states[i]))]
        if points:
            w.undo(len(w.moves) - points[-1])
        else:
            w.undo_to_decision()

    def new_game(self, seed: int | None = None) -> None:
        """Start again from the initial state; chance is seeded by ``seed``, so a seed replays the same luck."""
        self.walkthrough = Walkthrough(self.initial, seed)
