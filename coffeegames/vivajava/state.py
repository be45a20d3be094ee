"""The VivaJava: The Dice Game engine under the State contract: the :class:`State` and its transitions
(:class:`~.game.Game` makes the first one).

The rules are in ``docs/rules/vivajava.md``; the State contract in ``docs/architecture.md``.
Around this module: the actions and phases (:mod:`.actions`), which actions are legal
(:mod:`.legal`), the chance law of a roll (:mod:`.rolls`), the solo corporations' play
(:mod:`.corporations`), saving and :func:`~.saved.check` (:mod:`.saved`), options and data
(:mod:`.rules`, :mod:`.data`), and the :class:`~.game.Game` (:mod:`.game`).

How a position is represented (dice as sorted face tuples, a roll's three parts, the
coaster, markers, phases) is described on the :class:`State` fields below and in
``docs/rules/vivajava.md`` ("The engine's position"). Steps without a choice happen by
themselves: scoring, a degrade with only one kind of die, the forced re-roll of a single
die, forced negative abilities, and the whole of a corporation's turn.

Why this module is over 500 lines: it is the :class:`State` class alone, whose transitions
(a turn's end folded into the move that ends it, the next turn's start reading the coaster
that move changed) share the fields they copy and must be read together; what can stand
alone already lives in the modules above.

Example (a scripted 2-player opening: chance outcomes may be given, like actions):
    >>> from coffeegames.vivajava.game import Game
    >>> game = Game(players=2)
    >>> s = game.new_initial_state().apply(SetupResearch("green"))
    >>> str(s.phase), s.players[1].research
    ('roll', (0, 0, 0, 0, 1))
    >>> s = s.apply(Rolled(white=("red", "red", "red", "green", "black")))
    >>> [str(a) for a in s.legal_actions()][:3]
    ['Featured(Regular red)', 'Featured(Decaf red)', 'Research(white)']
    >>> s = s.apply(Featured("red", 3))
    >>> s.featured, s.featured_by, s.players[0].pp, s.turn
    (Blend('Regular', 'red'), 0, 1, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Self

import numpy as np

from ..engine import CHANCE, TERMINAL, IllegalAction
from ..engine import State as BaseState
from ..engine.saved import SavedState
from ..engine.actions import unchecked
from ..engine.state import cached_state
from ..validate import MAX_OUTCOMES, check_instance
from .actions import (
    ACT, CHANCE_PHASES, CORP, DEGRADE, FIRST, KEEP, OVER, ROLL, SETUP, Action, Boost, Decline, Degrade, Featured,
    FirstPlayer, Flip, GainToken, Keep, KeepRolling, Phase, Rainbow, Reroll, Research, Rolled, SetupResearch,
    TakeFlavour, Upgrade,
)
from .corporations import corp_resolve, corp_turn
from .dice import COLOURS, JOKER, NO_BLEND, Blend, show_faces, sort_faces
from .legal import degrade_choices, draw_act, legal_actions
from .player import PlayerState
from .rolls import _sample_roll, is_possible_roll, roll_outcome_count, roll_outcomes
from .rules import CORPORATION, CORPORATIONS, FLAVOUR_DICE, ROLL_DICE, TRACK_COLOURS, Rules
from .saved import FIELD_PARSERS, STATE_FORMAT, check
from .tracks import boost, flip, gain_token, keep_rolling, mark, next_activation, plain_mark, take_flavour, upgrade

__all__ = ["State"]


_WHO = {**{phase: CHANCE for phase in CHANCE_PHASES}, OVER: TERMINAL}
"""Who acts in each phase where it is not the player whose turn it is."""


_UNDRAWN = object()
"""What :meth:`State._apply_as` reads as the drawn action of a state :meth:`State._draw_legal` drew none from (no action is it)."""

_NO_FEATURED: dict[str, Any] = {"featured_by": -1, "featured_colour": "", "featured_size": 0, "funders": ()}
"""The Featured Blend coaster with nobody's blend on it (as changes to a state)."""


@lru_cache(maxsize=None)
def _blend(size: int, colour: str) -> Blend:
    return Blend(size, COLOURS.index(colour) + 1)


@dataclass(frozen=True)
class State(SavedState, BaseState):
    """A VivaJava position (immutable, hashable). Build the first one with :meth:`~.game.Game.new_initial_state`.

    A roll keeps three parts apart because ownership matters: ``white`` (the active player's
    coffee dice), ``own`` (the flavour dice they hold, which they must roll) and ``offered``
    (other players' flavour dice, offered for funding: ((player, faces), ...)); a pending
    roll counts the dice of each part in ``rolling_white``, ``rolling_own``,
    ``rolling_offered``. The Featured Blend coaster holds ``featured_size`` dice of
    ``featured_colour``, held by ``featured_by`` (-1: nobody); ``funders`` lists the owner of
    each funding marker on it. ``pending`` lists the tracks whose abilities wait to be
    activated; ``meter``, ``blocked``, ``corp_rerolls`` and ``corp_first`` are solo-only.
    """

    # Class constants (SavedState declares them; not dataclass fields, never patched on later).
    GAME = "vivajava"
    FORMAT = STATE_FORMAT
    FIELD_PARSERS = FIELD_PARSERS
    MAX_LISTED = MAX_OUTCOMES  # chance_outcomes() refuses a bigger roll (the largest has 1,333,584 outcomes): TooBig
    EXACT_LAW = "coffeegames.vivajava's odds (best_blend, p_beats, rainbow, colour_table; roll_outcomes lists one on purpose)"

    rules: Rules = field(repr=False)
    players: tuple[PlayerState, ...]
    phase: Phase = Phase.SETUP
    turn: int = 0
    setting_up: bool = False
    flavour_coaster: int = FLAVOUR_DICE
    featured_by: int = -1
    featured_colour: str = ""
    featured_size: int = 0
    funders: tuple[int, ...] = ()
    rainbow_by: int = -1
    white: tuple[str, ...] = ()
    own: tuple[str, ...] = ()
    offered: tuple[tuple[int, tuple[str, ...]], ...] = ()
    rolling_white: int = 0
    rolling_own: int = 0
    rolling_offered: tuple[tuple[int, int], ...] = ()
    pending: tuple[str, ...] = ()
    meter: int = 0
    blocked: str = ""
    corp_rerolls: int = 0
    corp_first: bool = False
    winner: int = -1

    # -- the contract -------------------------------------------------------------
    def current_player(self) -> int:
        return _WHO.get(self.phase, self.turn)

    def _legal_actions(self) -> tuple[Action, ...]:
        return self._legal

    def _legal_now(self) -> tuple[Action, ...]:
        """The base's (:meth:`legal_actions` without the copy) without asking :meth:`current_player` first: the listed
        actions are empty at chance nodes and at the end already (:func:`.legal.legal_actions`)."""
        return self._legal

    @cached_state
    def _legal(self) -> tuple[Action, ...]:
        return legal_actions(self)

    def _draw_legal(self, below: Callable[[int], int]) -> Any:
        """What :func:`~coffeegames.engine.solve.random_policy` draws (the same draws): after a roll, without listing
        the actions (:func:`.legal.draw_act`); None elsewhere (the policy's own draw)."""
        if self.phase is ACT and "_legal" not in self.__dict__ and (drawn := draw_act(self, below)) is not None:
            self.__dict__["_drawn"] = drawn  # legal here: _apply_as need not check it again (a cache, like _legal)
            return drawn
        return None

    def _apply_as(self, player: int, action: Any) -> Self:
        """:meth:`apply`'s checks, but for the action :meth:`_draw_legal` has just drawn here (legal: not checked again)."""
        if self.__dict__.pop("_drawn", _UNDRAWN) is action:
            return self._apply(action)
        return super()._apply_as(player, action)

    def _chance_outcomes(self) -> Sequence[tuple[Rolled | FirstPlayer, Fraction]]:
        if self.phase == FIRST:
            return [(FirstPlayer(p), Fraction(1, len(self.players))) for p in range(len(self.players))]
        return roll_outcomes(self.rolling_white, self.rolling_own, self.rolling_offered)

    def chance_outcome_count(self) -> int:
        """How many outcomes :meth:`chance_outcomes` would list here (0 away from chance nodes), counted without listing."""
        if self.phase == FIRST:
            return len(self.players)
        return roll_outcome_count(self.rolling_white, self.rolling_own, self.rolling_offered) if self.is_chance() else 0

    def is_legal_outcome(self, outcome: Any) -> bool:
        """Whether ``outcome`` is a roll this chance node can show (checked without listing the outcomes)."""
        if self.phase == FIRST:
            return isinstance(outcome, FirstPlayer) and 0 <= outcome.player < len(self.players)
        return is_possible_roll(outcome, self.rolling_white, self.rolling_own, self.rolling_offered)

    def _draw_chance(self, rng: np.random.Generator) -> Rolled | FirstPlayer:
        """One roll (or first player) drawn with its exact probability, without listing the outcomes
        (:meth:`sample_chance`, ``rng`` checked by the caller)."""
        phase = self.phase
        if phase is ROLL:  # (most draws) the state's own counts: no checks
            return _sample_roll(rng, self.rolling_white, self.rolling_own, self.rolling_offered)
        if phase not in CHANCE_PHASES:
            raise IllegalAction("sample_chance needs a chance node")
        if phase == FIRST:
            return FirstPlayer(int(rng.integers(len(self.players))))
        return _sample_roll(rng, self.rolling_white, self.rolling_own, self.rolling_offered)

    def _apply(self, move: Any) -> Self:
        match move:  # the most frequent first: each case is one isinstance check
            case Rolled():
                return self._rolled(move)
            case Research():
                return self._do_research(move)
            case Featured():
                return self._do_featured(move)
            case FirstPlayer():
                return self._first(move)
            case SetupResearch():
                return self._do_setup(move)
            case Degrade():
                return self._do_degrade(move)
            case Keep():
                return self.end_turn()
            case Reroll():
                return self._do_reroll()
            case Rainbow():
                return self._do_rainbow()
            case Upgrade():
                return upgrade(self, move)
            case Flip():
                return flip(self, move)
            case KeepRolling():
                return keep_rolling(self, move)
            case Boost():
                return boost(self, move)
            case TakeFlavour():
                return take_flavour(self)
            case GainToken():
                return gain_token(self, move)
            case Decline():
                return next_activation(self._with(pending=self.pending[1:]))
        raise IllegalAction(f"{move!r} is not a VivaJava action")  # pragma: no cover - apply() checked it is legal

    def returns(self) -> tuple[int, ...]:
        """1 for the winner and 0 for the others (option ``payoff="win"``), or every player's PP (``"pp"``)."""
        if self.rules.payoff == "pp":
            return tuple(p.pp for p in self.players)
        return tuple(int(i == self.winner) for i in range(len(self.players)))

    # -- derived facts ------------------------------------------------------------
    @property
    def featured(self) -> Blend:
        """The blend on the Featured Blend coaster (NO_BLEND when nobody holds it)."""
        if self.featured_by < 0 or self.featured_size < 2:
            return NO_BLEND
        return _blend(self.featured_size, self.featured_colour)

    @property
    def dice(self) -> tuple[str, ...]:
        """The active player's own rolled dice (coffee and flavour), sorted."""
        return sort_faces(self.white + self.own)

    @property
    def solo(self) -> bool:
        """Whether this is a solo game against a corporation."""
        return self.rules.solo is not None

    @property
    def meter_shows(self) -> int:
        """The number the solo METER shows (0 outside solo games)."""
        return self.rules.meter_values[self.meter] if self.solo else 0

    def free_markers(self, player: int) -> int:
        """Markers of ``player`` neither on a track as tokens nor on the coaster as funding marks."""
        p = self.players[player]
        marks = self.funders.count(player) if self.rules.funding_needs_marker else 0
        return self.rules.markers - sum(p.tokens) - marks

    def is_open(self, player: int, colour: str) -> bool:
        """Whether ``player``'s track of ``colour`` is not yet complete."""
        return self.players[player].research[TRACK_COLOURS.index(colour)] < self.rules.track(colour).length

    def research_count(self, colour: str) -> int:
        """RP (or, for black, flavour dice) that researching ``colour`` would give now (at most the cap)."""
        n = self.white.count(colour) + self.own.count(colour)
        if self.rules.jokers_in_research:
            n += self.own.count(JOKER)
        return min(n, self.rules.research_cap)

    def research_gain(self, colour: str, count: int | None = None) -> int:
        """RP that researching ``colour`` marks now (black: flavour dice taken), with ``count`` dice showing it
        (default :meth:`research_count`): at most what is left of the track, or on the flavour coaster."""
        rules = self.rules
        n = self.research_count(colour) if count is None else count
        if colour == "black":
            if self.blocked == "black" and rules.black_block:
                return 0
            back = len(self.own) + self.rolling_own if rules.return_flavour_first else 0  # Ruling return_flavour_first
            return min(n, self.flavour_coaster + back)
        have = self.players[self.turn].research[TRACK_COLOURS.index(colour)]
        return min(n, rules.track(colour).length - have)

    def _seat_order(self, first: int) -> list[int]:
        n = len(self.players)
        return [(first + i) % n for i in range(n)]

    # -- transitions --------------------------------------------------------------
    def _with_player(self, index: int, **changes: Any) -> tuple[PlayerState, ...]:
        players = list(self.players)
        players[index] = unchecked(PlayerState, players[index].__dict__, changes)
        return tuple(players)

    def _award(self, gains: Sequence[tuple[int, int]], changes: dict[str, Any] | None = None) -> Self:
        """Make ``changes`` (a dict of the caller's, which this fills), then give PP in this order (in the same copy); the
        first player to reach the goal wins at once."""
        changes = {} if changes is None else changes
        winner = self._gain(gains, changes)
        state = self._with(changes)
        return state if winner < 0 else state._won(winner)

    def _gain(self, gains: Sequence[tuple[int, int]], changes: dict[str, Any]) -> int:
        """:meth:`_award`'s PP as ``changes["players"]`` (the sheets there, or the state's); the player who reached the goal
        (the gains after them not given), or -1."""
        players = list(changes.get("players", self.players))
        win = self.rules.win_pp
        for q, n in gains:
            if n <= 0:
                continue
            players[q] = unchecked(PlayerState, players[q].__dict__, {"pp": players[q].pp + n})
            if players[q].pp >= win:
                changes["players"] = tuple(players)
                return q
        changes["players"] = tuple(players)
        return -1

    def _won(self, winner: int) -> Self:
        """``winner`` has reached the goal: the dice go back and the game is over."""
        return self._clear_roll()._with(phase=OVER, winner=winner, pending=(), corp_rerolls=0, corp_first=False)

    def _clear_roll(self) -> Self:
        """Every rolled die goes back: coffee dice to the supply, the roller's flavour dice to the flavour coaster."""
        return self._with(self._roll_back())

    def _roll_back(self) -> dict[str, Any]:
        """:meth:`_clear_roll` as changes, to make with others in one copy."""
        back = len(self.own) + self.rolling_own
        return {"flavour_coaster": self.flavour_coaster + back, "white": (), "own": (), "offered": (),
                "rolling_white": 0, "rolling_own": 0, "rolling_offered": ()}

    def _clear_featured(self) -> Self:
        return self._with(_NO_FEATURED)

    def start_turn(self, player: int) -> Self:
        """``player``'s turn starts: blends held score (funders too), a Featured Blend degrades, or 5 dice roll.

        Public so that a position can be built by hand (tests, puzzles): set the sheets and
        coasters with ``dataclasses.replace``, then start a turn. A corporation's turn runs
        by itself (:func:`~.corporations.corp_turn`).
        """
        return self._start_turn(player, {})

    def _start_turn(self, player: int, changes: dict[str, Any]) -> Self:
        """:meth:`start_turn` with ``changes`` (a dict of the caller's, which this fills) made in the same copy
        (:meth:`end_turn`'s: none that a turn's start reads)."""
        rules = self.rules
        if not (self.rainbow_by == player or self.featured_by == player or (rules.solo and player == CORPORATION)):
            return self._begin_roll(ROLL_DICE, player, changes)  # no blend of theirs to score: they roll at once
        if rules.solo and player == CORPORATION:
            return corp_turn(self._with(changes, turn=player, phase=ACT))
        gains = [(player, rules.rainbow_pp)] if self.rainbow_by == player else []
        if self.featured_by != player:
            changes.update(turn=player, phase=ACT)
            state = self._award(gains, changes)
            return state if state.phase == OVER else state._begin_roll(ROLL_DICE, player, {})
        gains.append((player, rules.featured_pp))
        if self.funders:  # then each funder, in seat order, a PP per funded die
            gains += [(q, self.funders.count(q)) for q in self._seat_order(player)[1:]]
        choices = degrade_choices(self)  # (the award changes none of them)
        changes.update(turn=player, phase=ACT if len(choices) == 1 else DEGRADE)
        winner = self._gain(gains, changes)  # (_award, with the one degrade in the same copy)
        if winner >= 0:
            return self._with(changes)._won(winner)
        if len(choices) != 1:
            return self._with(changes)
        return self._degraded(choices[0], player, changes)

    def _begin_roll(self, coffee: int, player: int, changes: dict[str, Any]) -> Self:
        """``player``'s roll: ``coffee`` coffee dice and every flavour die they hold; the others offer theirs (Ruling
        ``offer_flavour``, never solo). ``changes`` (a dict of the caller's, which this fills) are made in the same copy."""
        players = changes.get("players", self.players)  # (a caller's changed sheets, made in the same copy)
        offered: tuple[tuple[int, int], ...] = ()
        if self.rules.offer_flavour and not self.rules.solo:  # in player order
            offered = tuple([(q, sheet.flavour) for q, sheet in enumerate(players) if sheet.flavour and q != player])
        if players[player].flavour:  # the roller takes their flavour dice
            sheets = list(players)
            sheets[player] = unchecked(PlayerState, players[player].__dict__, {"flavour": 0})
            after = tuple(sheets)
        else:
            after = players
        changes.update({
            "phase": ROLL,
            "turn": player,
            "players": after,
            "white": (), "own": (), "offered": (),
            "rolling_white": coffee,
            "rolling_own": players[player].flavour,
            "rolling_offered": offered,
        })
        return self._with(changes)

    def end_turn(self) -> Self:
        """The turn ends: rolled dice go back, the next seat's turn starts (during setup: their setup choice).

        Public, like :meth:`start_turn`, for building positions by hand.
        """
        return self._end_turn({})

    def _end_turn(self, made: dict[str, Any], roll: bool = False) -> Self:
        """:meth:`end_turn` with ``made`` (changes to fields the turn's end does not read, such as ``players``) made in
        the same copy; with ``roll`` (the caller knows: not in setup, and the next player holds no blend and is no
        corporation) the next player's turn starts with their roll (:meth:`_start_turn` not asked)."""
        rules, turn = self.rules, self.turn
        nxt = (turn + 1) % len(self.players)
        if not self.setting_up and (roll or not (self.rainbow_by == nxt or self.featured_by == nxt or (rules.solo and nxt == CORPORATION))):
            # (most turns) the next player holds no blend and rolls at once (_start_turn's first case): the dice go back
            # (_roll_back: the coffee dice's fields are the roll's, below) and the roll begins, in one copy
            return self._begin_roll(ROLL_DICE, nxt, {
                "flavour_coaster": self.flavour_coaster + len(self.own) + self.rolling_own, "pending": (), "corp_rerolls": 0,
                "corp_first": False, "blocked": self.blocked if rules.solo and turn == CORPORATION else "", **made})
        keep_block = rules.solo and turn == CORPORATION
        changes = self._roll_back()
        changes.update(made)
        changes["pending"], changes["corp_rerolls"], changes["corp_first"] = (), 0, False
        changes["blocked"] = self.blocked if keep_block else ""
        if self.setting_up and self.solo:  # you marked your setup RP: the corporation, drawn first, starts
            return self._start_turn(CORPORATION, {**changes, "setting_up": False})
        if self.setting_up:
            if nxt != 0:
                return self._with(changes, phase=SETUP, turn=nxt)
            changes["setting_up"] = False
        if roll:
            return self._begin_roll(ROLL_DICE, nxt, changes)
        return self._start_turn(nxt, changes)

    def _pass_turn(self, made: dict[str, Any]) -> Self:
        """The turn ends after a move whose changes are ``made`` (a Featured Blend, a Rainbow: the coasters change): in
        the same copy when the next player rolls at once, as the move leaves the coasters (:meth:`_start_turn` reads
        them), else in two."""
        nxt = (self.turn + 1) % len(self.players)
        if (self.setting_up or made.get("featured_by", self.featured_by) == nxt or made.get("rainbow_by", self.rainbow_by) == nxt
                or (self.rules.solo and nxt == CORPORATION)):
            return self._with(made).end_turn()
        return self._end_turn(made, roll=True)

    def _rolled(self, outcome: Rolled) -> Self:
        phase = self.phase
        if phase is ROLL and not (self.white or self.own or self.offered):  # (most rolls: a turn's first)
            return self._with({"phase": ACT, "white": outcome.white, "own": outcome.own, "offered": outcome.offered,
                               "rolling_white": 0, "rolling_own": 0, "rolling_offered": ()})
        state = self._with(
            phase=ACT if phase == ROLL else phase,
            white=sort_faces(self.white + outcome.white) if self.white else outcome.white,  # a Rolled's faces are sorted
            own=sort_faces(self.own + outcome.own) if self.own else outcome.own,
            offered=self.offered + outcome.offered,
            rolling_white=0, rolling_own=0, rolling_offered=(),
        )
        if phase == ROLL:
            return state
        if phase == CORP:
            return corp_resolve(state)
        return state._with(blocked=outcome.white[0]).end_turn()  # "block"

    def _first(self, outcome: FirstPlayer) -> Self:
        """A solo game's first player is drawn: you start, or you mark your setup RP and the corporation starts.

        The corporation, when second, marks no RP (it never researches: Ruling, fixed).
        """
        if outcome.player == CORPORATION:
            return self._with(phase=SETUP, turn=0, setting_up=True)
        return self._with(setting_up=False).start_turn(0)

    def _do_setup(self, action: SetupResearch) -> Self:
        return next_activation(mark(self, self.turn, action.colour, 1, unlock=self.rules.setup_unlocks))

    def _do_degrade(self, action: Degrade) -> Self:
        return self._degraded(action, self.turn, {})

    def _degraded(self, action: Degrade, player: int, changes: dict[str, Any]) -> Self:
        """:meth:`_do_degrade` by ``player`` with ``changes`` (a dict of the caller's, which this fills; none of the
        coaster's) made in the same copy."""
        funders = list(self.funders)
        if action.funder is not None:
            funders.remove(action.funder)
        size = self.featured_size - 1
        if size <= 1:  # one die left: the re-roll is forced (_do_reroll)
            changes.update(_NO_FEATURED)
            return self._begin_roll(size, player, changes)
        changes.update(featured_size=size, funders=tuple(funders), phase=KEEP)
        return self._with(changes)

    def _do_reroll(self, dice: int | None = None) -> Self:
        """The Featured Blend is given up and its ``dice`` (default: all of them) are rolled."""
        return self._begin_roll(self.featured_size if dice is None else dice, self.turn, dict(_NO_FEATURED))

    def _do_featured(self, action: Featured) -> Self:
        p = self.turn
        funded = dict(action.funded)
        players, to_coaster, gains = self.players, 0, [(p, 1)]
        if funded:  # each funder gives the dice and gains a PP per die, in seat order after the roller
            sheets = list(players)
            for q, n in funded.items():
                sheets[q] = unchecked(PlayerState, sheets[q].__dict__, {"flavour": sheets[q].flavour - n})
                to_coaster += n
            players = tuple(sheets)
            gains += [(q, funded.get(q, 0)) for q in self._seat_order(p)[1:]]
        rainbow_by = -1 if self.rainbow_by == p else self.rainbow_by  # cannot hold both (Ruling both_blends)
        changes = self._roll_back()  # and the funders' dice go to the flavour coaster too
        changes["flavour_coaster"] += to_coaster
        changes.update({
            "players": players,
            "featured_by": p,
            "featured_colour": action.colour,
            "featured_size": action.size,
            "funders": tuple(sorted(q for q, n in funded.items() for _ in range(n))) if funded else (),
            "rainbow_by": rainbow_by,
        })
        winner = self._gain(gains, changes)
        return self._with(changes)._won(winner) if winner >= 0 else self._pass_turn(changes)

    def _do_rainbow(self) -> Self:
        p = self.turn
        if self.rainbow_by == p:  # holding it already: a new rainbow scores nothing
            return self.end_turn()
        changes = self._roll_back()
        changes["rainbow_by"] = p
        winner = self._gain(((p, 1),), changes)
        return self._with(changes)._won(winner) if winner >= 0 else self._pass_turn(changes)

    def _do_research(self, action: Research) -> Self:
        p, colour = self.turn, action.colour
        if colour == "black":
            take = self.research_gain(colour)  # (the dice go back at the turn's end either way, Ruling return_flavour_first or not:
            back = len(self.own) + self.rolling_own  # the flavour coaster ends with them, less what is taken; one copy)
            sheets = self._with_player(p, flavour=self.players[p].flavour + take)
            return self._end_turn({"players": sheets, "flavour_coaster": self.flavour_coaster + back - take})
        count = self.research_count(colour)
        if not self.pending and (players := plain_mark(self, p, colour, count)) is not None:
            return self._end_turn({"players": players})  # only the marker moved: the turn ends in the same copy
        state = mark(self, p, colour, count)  # no mark reads the dice: they go back after it
        if state.phase == OVER:  # (the game's end puts them back)
            return state
        if not state.pending:
            return state.end_turn()  # (which puts them back)
        return next_activation(state._clear_roll())

    def check(self) -> Self:
        """Raise :class:`~coffeegames.errors.BadData` naming the field if the position is inconsistent; else return self.

        The invariants are listed in :func:`.saved.check`.
        """
        return check(self)

    def __str__(self) -> str:
        who = {CHANCE: "chance", TERMINAL: "game over"}.get(self.current_player(), f"player {self.current_player()}")
        coaster = "empty" if self.featured_by < 0 else f"{self.featured} held by player {self.featured_by}"
        if self.funders:
            coaster += f" (funded by {', '.join(map(str, self.funders))})"
        rainbow = "supply" if self.rainbow_by < 0 else f"player {self.rainbow_by}"
        lines = [
            f"VivaJava dice, {len(self.players)} players{' vs ' + CORPORATIONS[self.rules.solo] if self.rules.solo else ''}"
            f" · {self.phase} · {who} · turn of player {self.turn}",
            f"Featured Blend: {coaster} · Rainbow: {rainbow} · flavour coaster {self.flavour_coaster}",
        ]
        if self.solo:
            lines.append(f"METER position {self.meter} shows {self.meter_shows}" + (f" · blocked colour {self.blocked}" if self.blocked else ""))
        if self.white or self.own or self.offered or self.phase in CHANCE_PHASES:
            extra = f" + {self.rolling_white} coffee / {self.rolling_own} flavour rolling" if self.is_chance() else ""
            offered = "".join(f" · player {q} offers {show_faces(f)}" for q, f in self.offered)
            lines.append(f"dice: {show_faces(self.white)} | flavour {show_faces(self.own)}{extra}{offered}")
        if self.pending:
            lines.append(f"abilities to activate: {', '.join(f'{c} ({self.rules.ability(c).name})' for c in self.pending)}")
        lines += [f"player {i}: {p}" for i, p in enumerate(self.players)]
        return "\n".join(lines)
