"""The one walkthrough factory: a game, who plays it and a seed, checked once, made into a :class:`DecisionView`.

Every game's ``*_walkthrough`` (``dairyman_walkthrough``, ..., ``rush_walkthrough``) builds its ``Game`` from
its options (an unknown option is refused there, by name) and hands it here with its parser, its chance
player and its adapter: :func:`walkthrough_view` checks ``human`` and ``seed`` the same way for every game
(:func:`check_human`), names the players, seats a bot at every other place and starts the session.

Example (the tiny keep-or-reroll game, one person, no bots):
    >>> from coffeegames.engine.examples import KeepOrReroll
    >>> from coffeegames.widgets.adapter import Adapter
    >>> view = walkthrough_view(KeepOrReroll(), lambda names: Adapter(), human=(0,), seed=1, players=1)
    >>> view.session.names
    ['player 0 (you)']
    >>> check_human("0", 2)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadType: argument 'human': must be a list of the players a person plays, e.g. (0,), or () for bots only; got '0'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from itertools import islice
from typing import Any

from ..engine.session import ChancePlayer, OutcomeParser, Session
from ..engine.state import Action, State
from ..errors import BadArgument, BadType
from ..validate import check_count, check_seed, is_whole
from .adapter import Adapter
from .board import player_names
from .decision import DecisionView

__all__ = ["MAX_PLAYERS", "check_human", "player_labels", "player_names", "walkthrough_view"]

MAX_PLAYERS = 10
"""More seats than any game has (Gizmos and Dairyman seat 4): a larger number of players is refused by name."""


def check_human(human: Any, players: int, machines: Collection[int] = ()) -> tuple[int, ...]:
    """``human`` as a tuple of the players a person plays: each a player ``0..players-1`` once, none of ``machines``
    (seats that play themselves, such as VivaJava's solo corporation). A string, a number or a mapping is
    :class:`~coffeegames.errors.BadType`; a player out of range, repeated or a machine's is
    :class:`~coffeegames.errors.BadArgument` naming ``human``.

    >>> check_human([1, 0], 3), check_human(range(2), 2), check_human((), 4)
    ((1, 0), (0, 1), ())
    >>> check_human((0, 1), 2, machines=(1,))
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadArgument: argument 'human': each must be one of players 0-1, once; player 1 plays itself; got 1
    """
    check_count(players, "players", MAX_PLAYERS)
    if isinstance(human, (str, bytes, Mapping)) or not isinstance(human, Iterable):
        raise BadType("human", "must be a list of the players a person plays, e.g. (0,), or () for bots only", human)
    seats = tuple(islice(human, players + 1))  # one more than the players: enough to see a list that is too long
    if len(seats) > players:
        raise BadArgument("human", f"lists more players than the game's {players}", human)
    itself = "".join(f"; player {m} plays itself" for m in sorted(machines))
    for i, p in enumerate(seats):
        if not is_whole(p) or not 0 <= p < players or p in machines or p in seats[:i]:
            raise BadArgument("human", f"each must be one of players 0-{players - 1}, once{itself}", p)
    return seats


def player_labels(players: int, names: Any = None) -> list[str]:
    """The names a board or an end line shows: ``names`` (checked: one text a player) or ``player 0``, ``player 1``, ...

    >>> player_labels(2), player_labels(2, ["Ann", "Bo"])
    (['player 0', 'player 1'], ['Ann', 'Bo'])
    """
    check_count(players, "players", MAX_PLAYERS)
    if names is None:
        return [f"player {i}" for i in range(players)]
    if isinstance(names, (str, bytes)) or not isinstance(names, (list, tuple)):
        raise BadType("names", f"must be a list of {players} player names (text), or None", names)
    if len(names) != players or not all(isinstance(n, str) for n in names):
        raise BadArgument("names", f"must be {players} player names (text), one a player", names)
    return list(names)


def walkthrough_view(
    game: Any,
    adapter: Callable[[list[str]], Adapter],
    *,
    human: Any,
    seed: Any,
    players: int,
    parse_outcome: OutcomeParser | None = None,
    chance_player: ChancePlayer | None = None,
    policy: Callable[[Any], Action] | None = None,
    names: Mapping[int, str] | None = None,
    machines: Collection[int] = (),
    chance_event: str = "roll",
    seeded_start: bool = False,
    view: Callable[[Session, Adapter], DecisionView] = DecisionView,
) -> DecisionView:
    """A :class:`DecisionView` of ``game`` (a ``Game``, or an initial state): the ``human`` players choose, ``policy``
    plays every other seat (a greedy bot), chance is seeded by ``seed``.

    Errors name the argument (``human``, ``seed``; the options were checked by ``Game``). ``adapter(names)`` makes the game's :class:`Adapter` for the players' names (``"player 0 (you)"``,
    ``"player 1 (bot)"``, or ``names[seat]`` where given); ``machines`` are seats no person may take;
    ``seeded_start``: the first state is ``game.new_initial_state(seed=seed)`` (a setup already drawn), else the
    unseeded initial state whose chance moves the session draws from ``seed``; ``view`` makes the view (a
    :class:`DecisionView` subclass with a game's own controls).
    """
    seats = check_human(human, players, machines)
    seed = check_seed(seed)
    shown = player_names(players, seats)
    for seat, name in (names or {}).items():
        shown[seat] = name
    bots = {p: policy for p in range(players) if p not in seats} if policy is not None else {}
    if isinstance(game, State):
        start = game
    else:
        start = game.new_initial_state(seed=seed) if seeded_start else game.new_initial_state()
    session = Session(start, seed=seed, bots=bots, chance_player=chance_player, parse_outcome=parse_outcome,
                      names=shown, chance_event=chance_event)
    return view(session, adapter(shown))
