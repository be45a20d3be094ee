"""The Gizmos engine: :class:`State` (an immutable position) and :class:`Game`, under the State contract.

What happens next is a queue of steps (``State.todo``): a main action, the chance steps it
sets off (a marble onto the row, a card into the display, a random marble, a researched
card), the actions effects ask for. When the queue is empty and gizmos wait to fire
(``State.ready``), the player fires them one at a time in the order they choose, or ends
the turn. Each gizmo fires at most once a turn and is not set off by the action that built
it (it may be by a later one). Hidden order is never stored: a deck is a count of unseen
cards drawn uniformly from the cards of its level not seen anywhere (for level III that
includes the 20 removed unseen at setup), followed by the known cards a Research put under
it. Deterministic steps (a deck of known cards only, a full storage, an empty dispenser)
and choices with one option only (a Skip) are taken at once by :meth:`State.settled`.

The rules, each with the function implementing it: docs/rules/gizmos.md. What each action
changes is in :mod:`.moves`, the legal actions in :mod:`.legal`; a move gathers its changes
in one dict and makes one copy of the state.

Why this module is over 500 lines: it is the one class :class:`State` (and the short
:class:`Game`), and its step path (a move, the steps :meth:`State._step` takes ahead of the
one copy, which caches in the instance's dict a copy keeps or drops) must be read and changed
together; a split of the class into mixins across files would separate the copy from the
caches it must drop. What can stand alone already does (moves, legality, payment, gear).

Example:
    >>> game = Game(players=2)
    >>> s = game.new_initial_state(seed=3)
    >>> str(s.phase), s.turn, sum(s.row), [len(d) for d in s.display]
    ('action', 0, 6, [4, 3, 2])
    >>> s.decks, s.players[0].built
    ((32, 33, 14), (0,))
    >>> pick = next(a for a in s.legal_actions() if isinstance(a, Pick))
    >>> after = s.apply(pick)
    >>> after.is_chance(), sum(after.row), after.players[0].energy == s.players[0].energy
    (True, 5, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate, repeat
from operator import is_
from typing import Any, Self

import numpy as np

from ..engine.saved import GameBase, SavedState
from ..engine.state import CHANCE, TERMINAL, cached_state
from ..engine.state import State as BaseState
from ..errors import BadArgument, BadType
from ..exact.draws import draw_below
from ..validate import check_count, check_seed
from .actions import (_MARBLE_PHASES, _P_ACTION, _P_CHOOSE, _P_DISPLAY, _P_DRAW, _P_ENERGY, _P_ROW, _P_TRIGGERS, ACTION_KINDS,
                      Build, Card, EndTurn, File, Fire, Marble, Pass, Phase, Pick, Research, Skip, Step)
from .data import COLOURS
from .data import Card as CardFacts
from .gear import _Gear, _gear
from .legal import DRAWN, choices, draw_fire, draw_main, legal_actions, main_allows
from .moves import _ACTION, _CHOOSE, _DISPLAY, _DRAW, _ROW, build, chosen, file_card, fire, put_back, trigger
from .player import PlayerState, add_id, holding, plus, remove_id
from .rules import MARBLES_PER_COLOUR, Rules, _check_level
from .saved import FIELD_PARSERS, STATE_FORMAT, check

__all__ = ["Game", "State"]

# Actions and outcomes are immutable: the engine hands out one shared object for each (cheaper than building it again,
# and found by identity when ``apply`` checks it is legal).
_SKIP = Skip()
_new, _set = object.__new__, object.__setattr__
_COLOUR_AT = {colour: i for i, colour in enumerate(COLOURS)}
_marble_outcome = lru_cache(maxsize=None)(Marble)
_card_outcome = lru_cache(maxsize=None)(Card)
_MARBLES = tuple(map(_marble_outcome, COLOURS))


@dataclass(frozen=True)
class State(SavedState, BaseState):
    """A Gizmos position (immutable, hashable; ``rules`` are not compared). Start with :meth:`Game.new_initial_state`."""

    GAME = "gizmos"
    FORMAT = STATE_FORMAT
    FIELD_PARSERS = FIELD_PARSERS

    rules: Rules = field(repr=False, compare=False)
    players: tuple[PlayerState, ...] = ()
    turn: int = 0
    todo: tuple[Step, ...] = ()
    row: tuple[int, ...] = (0, 0, 0, 0)
    dispenser: tuple[int, ...] = (MARBLES_PER_COLOUR,) * 4
    display: tuple[tuple[int, ...], ...] = ((), (), ())
    decks: tuple[int, ...] = (0, 0, 0)
    """Unseen cards left in the decks of levels I, II, III."""
    bottom: tuple[tuple[int, ...], ...] = ((), (), ())
    """Known cards a Research put under each deck, the next to come first (they come after the unseen ones)."""
    bottom_by: tuple[tuple[int, ...], ...] = ((), (), ())
    """Who put each of those cards under (the others know only how many: see :meth:`determinise`)."""
    research: tuple[int, ...] = ()
    """The cards of the Research being made (sorted)."""
    ready: tuple[int, ...] = ()
    """Gizmos of the player to move whose trigger matched this turn, waiting to fire."""
    used: tuple[int, ...] = ()
    """Gizmos fired this turn (and converters used, with ``converters_per='turn'``)."""
    ending: bool = False
    """Someone reached the end condition: the round is being completed."""
    passes: int = 0
    """Players in a row who passed (a whole round of passes ends the game)."""
    over: bool = False

    # -- where we are ----------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The phase of the next step (``TRIGGERS`` when only waiting gizmos are left, ``OVER`` at the end)."""
        if self.over:
            return Phase.OVER
        return self.todo[0].phase if self.todo else _P_TRIGGERS

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        todo = self.todo
        return CHANCE if todo and todo[0].chance else self.turn

    def is_chance(self) -> bool:  # current_player() == CHANCE, without the call (asked at every step)
        todo = self.todo
        return bool(todo) and todo[0].chance and not self.over

    def is_terminal(self) -> bool:  # current_player() == TERMINAL
        return self.over

    @property
    def me(self) -> PlayerState:
        """The player to move."""
        return self.players[self.turn]

    def _check_player(self, player: Any) -> int:
        """``player`` if it is a seat of this game (0 to players - 1); else the library's error naming ``player``.
        The public methods taking a player check it; the engine and the bots call their unchecked ``_`` versions."""
        return check_count(player, "player", maximum=len(self.players) - 1)

    def owned(self, player: int) -> tuple[CardFacts, ...]:
        """The gizmos ``player`` has built, as cards."""
        return self._owned[self._check_player(player)]

    @property  # (not cached: each value cached on a state costs every copy of it a lookup; playouts never ask)
    def _owned(self) -> tuple[tuple[CardFacts, ...], ...]:
        return tuple(_gear(self.rules, p.built).owned for p in self.players)

    @cached_state
    def _my(self) -> _Gear:
        """What the player to move's gizmos give them."""
        return _gear(self.rules, self.players[self.turn].built)

    def limits(self, player: int) -> tuple[int, int, int]:
        """``(energy, archive, research)`` limits of ``player``, upgrades included."""
        return _gear(self.rules, self.players[self._check_player(player)].built).limits

    def can(self, player: int, what: str) -> bool:
        """Whether ``player`` may still ``'file'`` or ``'research'`` (no negator gizmo built)."""
        self._check_player(player)
        if not isinstance(what, str) or what not in ("file", "research"):
            error = BadArgument if isinstance(what, str) else BadType
            raise error("what", "must be 'file' or 'research'", what)
        return self._can(player, what)

    def _can(self, player: int, what: str) -> bool:
        gear = _gear(self.rules, self.players[player].built)
        return gear.can_file if what == "file" else gear.can_research

    def known(self) -> set[int]:
        """Every card in a known place: starting gizmos, display, archives, built, under the decks, being researched."""
        return set(self._known)

    @property
    def _known(self) -> frozenset[int]:
        players = self.players
        return frozenset(self.research).union(*[p.archive for p in players], *[p.built for p in players], *self.display,
                                              *self.bottom, self.rules.level_ids(0))

    def unseen(self, level: int) -> tuple[int, ...]:
        """The cards of ``level`` (1-3) in no known place: the unseen cards of its deck (and, for level III, the
        cards removed at setup), each equally likely to come next while the deck has unseen cards."""
        return self._unseen(_check_level(level))

    def _unseen(self, level: int) -> tuple[int, ...]:
        return self._pools[level - 1]

    @cached_state
    def _pools(self) -> tuple[tuple[int, ...], ...]:
        """:meth:`unseen` of levels I, II, III. Only a draw changes them: :meth:`_next` carries them to the next state."""
        seen = self._known
        return tuple(tuple([i for i in self.rules.level_ids(level) if i not in seen]) for level in (1, 2, 3))

    def _next(self, changed: dict[str, Any]) -> Self:
        """:meth:`_with` for a move's ``changed`` fields: the unseen cards (:attr:`_pools`, if worked out) come along (a draw
        gives the new ones in ``changed``), and the gear of the player to move (:attr:`_my`) while the same player's gizmos are the same.
        Cards only move between known places otherwise (:meth:`determinise` swaps them: it uses :meth:`_with`)."""
        values = self.__dict__
        fresh = values | changed  # (copied without rehashing: an instance's dict shares its keys with its class's)
        my = fresh.pop("_my", None)
        fresh.pop("_legal", None)
        if len(fresh) - ("_pools" in fresh) != _FIELD_COUNT:  # something else besides: the general copy
            new = self._with(changed)
            if "_pools" in values and "_pools" not in changed:
                new.__dict__["_pools"] = values["_pools"]
            return new
        if my is not None:  # the gear of the player to move comes along while their gizmos are the same
            turn = fresh["turn"]
            if turn == values["turn"] and fresh["players"][turn].built is values["players"][turn].built:
                fresh["_my"] = my
        new = _new(type(self))
        _set(new, "__dict__", fresh)
        return new

    def determinise(self, player: int, rng: np.random.Generator) -> Self:
        """One position consistent with what ``player`` knows: each card another player put under a deck is swapped
        with a card drawn uniformly from those cards and the unseen cards of its level (which ``player`` cannot tell
        apart). The engine's chance law is unchanged; only identities ``player`` never saw move.

        >>> s = Game().new_initial_state(seed=0)
        >>> s.determinise(0, np.random.default_rng(0)) == s   # nothing under the decks: nothing hidden to move
        True
        """
        if not any(b != player for by in self.bottom_by for b in by):
            return self
        bottom = [list(b) for b in self.bottom]
        for level in (1, 2, 3):
            hidden = [j for j, b in enumerate(self.bottom_by[level - 1]) if b != player]
            if not hidden:
                continue
            # sorted: the pool's order must not tell which of its cards are the hidden ones (the mover cannot)
            pool = sorted([*self._unseen(level), *[bottom[level - 1][j] for j in hidden]])
            picks = rng.permutation(len(pool))[: len(hidden)]
            for j, k in zip(hidden, picks):
                bottom[level - 1][j] = pool[int(k)]
        return self._with(bottom=tuple(tuple(b) for b in bottom))

    def deck_size(self, level: int) -> int:
        """Cards left in the deck of ``level`` (1-3): unseen ones and the known ones put under it."""
        return self._deck_size(_check_level(level))

    def _deck_size(self, level: int) -> int:
        return self.decks[level - 1] + len(self.bottom[level - 1])

    # -- chance ----------------------------------------------------------------------------
    def _chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        step = self.todo[0]
        if step.phase in _MARBLE_PHASES:
            total = sum(self.dispenser)
            return [(_marble_outcome(c), Fraction(n, total)) for c, n in zip(COLOURS, self.dispenser) if n]
        pool = self._unseen(step.level)
        return [(_card_outcome(i), Fraction(1, len(pool))) for i in pool]

    def chance_outcome_count(self) -> int:
        return len(self._chance_outcomes()) if self.is_chance() else 0  # at most 36: always listed

    def _draw_chance(self, rng: np.random.Generator) -> Any:
        """:meth:`sample_chance`'s draw (``rng`` checked): one outcome with its exact probability (a marble by the
        dispenser's counts, a card uniformly among the unseen), drawn without listing Fractions."""
        todo = self.todo
        if not todo or not todo[0].chance or self.over:  # (not a chance node: the contract's error)
            return self._draw_listed(rng)
        step = todo[0]
        if step.phase in _MARBLE_PHASES:  # the first colour whose running count passes the number drawn
            dispenser = self.dispenser
            return _MARBLES[bisect_right(list(accumulate(dispenser)), draw_below(rng, sum(dispenser)))]
        pool = self._pools[step.level - 1]  # (_unseen)
        return _card_outcome(pool[draw_below(rng, len(pool))])

    def is_legal_outcome(self, outcome: Any) -> bool:
        step = self.todo[0]
        if step.phase in _MARBLE_PHASES:
            return isinstance(outcome, Marble) and outcome.colour in COLOURS and self.dispenser[COLOURS.index(outcome.colour)] > 0
        return (isinstance(outcome, Card) and isinstance(outcome.card, int) and not isinstance(outcome.card, bool)
                and outcome.card in self._unseen(step.level))

    # -- legal actions ---------------------------------------------------------------------
    def _legal_actions(self) -> Sequence[Any]:
        return self._legal

    @cached_state
    def _legal(self) -> tuple[Any, ...]:
        return legal_actions(self)

    def _draw_legal(self, below: Callable[[int], int]) -> Any:
        """What :func:`~coffeegames.engine.solve.random_policy` draws (the same draws) at a main action, without listing
        the Builds unless it draws that kind (:func:`.legal.draw_main`), and where gizmos wait to fire, without listing
        (:func:`.legal.draw_fire`); None elsewhere (the policy's own draw)."""
        if "_legal" in self.__dict__ or self.over:
            return None
        todo = self.todo
        if not todo:
            return draw_fire(self, below)
        return draw_main(self, below) if todo[0].phase == _P_ACTION else None

    def _apply_as(self, player: int, action: Any) -> Self:
        """:meth:`apply`'s checks: the action the policy drew from this state's legal actions (``legal.DRAWN``) or one of
        them (found by identity) at once, a main action's without listing every Build (:func:`.legal.main_allows`)."""
        if player >= 0:
            drawn = DRAWN[0]
            if drawn[0] is self and drawn[1] is action:  # what draw_main or draw_fire drew here
                return self._move(action)
            legal = self.__dict__.get("_legal")
            if legal is None:
                todo = self.todo
                if todo and todo[0].phase == _P_ACTION and main_allows(self, action):
                    return self._move(action)
            elif any(map(is_, legal, repeat(action))):
                return self._move(action)
        return super()._apply_as(player, action)

    def converters(self) -> tuple[CardFacts, ...]:
        """The converters the player to move may use in a Build now."""
        converters = self._my.converters
        if self.rules.converters_per == "turn" and self.used:
            return tuple(c for c in converters if c.id not in self.used)
        return converters

    # -- moves: each makes one copy, its parts gathering the fields they change in one dict --------------------------
    def _apply(self, action: Any) -> Self:
        todo = self.todo  # (a move takes what settled() would take next itself: _step)
        return self._drawn(action) if todo and todo[0].chance else self._move(action)

    def _move(self, action: Any) -> Self:
        """A player's ``action`` (chance outcomes: :meth:`_drawn`)."""
        todo = self.todo
        phase = todo[0].phase if todo else _P_TRIGGERS
        kind = type(action)  # (a legal action is of its class exactly: dataclasses compare equal only within one)
        if kind is Fire:
            gizmo = action.gizmo
            return self._step(fire(self, gizmo, {"todo": todo, "ready": remove_id(self.ready, gizmo),
                                                 "used": add_id(self.used, gizmo)}))
        if kind is EndTurn:  # (the queue is empty: the turn ends, in the same copy)
            return self._next(self._turn_ends({"ready": ()}))
        if phase == _P_CHOOSE:
            return self._step(chosen(self, action))
        rest = todo[1:]
        changes: dict[str, Any] = {"todo": rest,
                                   "passes": (self.passes + 1 if kind is Pass else 0) if phase == _P_ACTION else self.passes}
        if kind is File:  # (filing reads nothing of the queue: it is set once, after)
            file_card(self, action.card, changes)
            changes["todo"] = (_DISPLAY[self.rules.deck[action.card].level], *rest)
        elif kind is Pick:
            i = _COLOUR_AT[action.colour]
            me = self.players[self.turn]
            changes["players"] = holding(self.players, self.turn, plus(me.energy, i), me.archive, me.built, me.tokens)
            changes["row"], changes["todo"] = plus(self.row, i, -1), (_ROW, *rest)
            trigger(self, changes, self._my, "pick", None, action.colour)
        elif kind is Research:
            level = action.level
            draws, left = self._my.limits[2], self.decks[level - 1] + len(self.bottom[level - 1])  # (no min: it parses keywords)
            changes["todo"] = (*[_DRAW[level]] * (draws if draws < left else left), _CHOOSE[level], *rest)
        elif kind is Build:
            build(self, action, changes)
        return self._step(changes)

    def _drawn(self, outcome: Any) -> Self:
        """Chance: a marble or a card, where the step at the front of the queue puts it."""
        step, rest = self.todo[0], self.todo[1:]
        if isinstance(outcome, Marble):
            i = _COLOUR_AT[outcome.colour]
            dispenser = plus(self.dispenser, i, -1)
            if step.phase == _P_ROW:
                changes: dict[str, Any] = {"todo": rest, "dispenser": dispenser, "row": plus(self.row, i)}
            else:
                me = self.players[self.turn]
                changes = {"todo": rest, "dispenser": dispenser,
                           "players": holding(self.players, self.turn, plus(me.energy, i), me.archive, me.built, me.tokens)}
            return self._step(changes)
        level, card = step.level, outcome.card
        pools = self._pools  # (the unseen cards of the new state: the card taken out; carried by _next)
        changes = {"todo": rest, "decks": plus(self.decks, level - 1, -1),
                   "_pools": (*pools[:level - 1], remove_id(pools[level - 1], card), *pools[level:])}
        if step.phase == _P_DISPLAY:
            display = self.display
            changes["display"] = (*display[:level - 1], add_id(display[level - 1], card), *display[level:])
        else:
            changes["research"] = add_id(self.research, card)
        return self._step(changes)

    def _step(self, changes: dict[str, Any]) -> Self:
        """The state after a move's ``changes`` (with the queue after it, ``todo``): the steps :meth:`settled` would take next
        worked out on them before the one copy (draws with nothing to draw or no room, a deck of known cards, the end
        of the turn); at a choice other than a main action, the copy settled (a Skip only: the new state's legal
        actions tell)."""
        get = changes.get
        while True:  # (a move is never made on a state that is over; only the end of a turn below ends the game)
            todo = changes["todo"]
            if todo:
                step = todo[0]
                phase = step.phase
                if phase == _P_ACTION or (phase == _P_ROW and any(get("dispenser", self.dispenser))):
                    break  # (the commonest)
            else:
                if get("ready", self.ready):
                    break
                n = len(self.players)
                turn = get("turn", self.turn)
                if (get("ending", self.ending) and turn == n - 1) or get("passes", self.passes) >= n:
                    changes.update(over=True, used=(), ready=(), todo=())
                else:
                    changes.update(turn=(turn + 1) % n, used=(), todo=(_ACTION,))
                break
            if phase == _P_ROW or phase == _P_ENERGY:
                if phase == _P_ENERGY and any(get("dispenser", self.dispenser)):
                    me = get("players", self.players)[get("turn", self.turn)]
                    if sum(me.energy) < _gear(self.rules, me.built).limits[0]:
                        break
                changes["todo"] = todo[1:]
            elif phase == _P_DISPLAY or phase == _P_DRAW:
                level = step.level
                if get("decks", self.decks)[level - 1]:
                    break
                run = 1  # the same step again (a Research's draws): taken together, one known card each while any is left
                while run < len(todo) and todo[run] is step:
                    run += 1
                bottom = get("bottom", self.bottom)
                under = bottom[level - 1]
                if under:
                    by = get("bottom_by", self.bottom_by)
                    changes["bottom"] = (*bottom[:level - 1], under[run:], *bottom[level:])
                    changes["bottom_by"] = (*by[:level - 1], by[level - 1][run:], *by[level:])
                    if phase == _P_DISPLAY:
                        display = get("display", self.display)
                        cards = display[level - 1]
                        for card in under[:run]:
                            cards = add_id(cards, card)
                        changes["display"] = (*display[:level - 1], cards, *display[level:])
                    else:
                        research = get("research", self.research)
                        for card in under[:run]:
                            research = add_id(research, card)
                        changes["research"] = research
                changes["todo"] = todo[run:]
            elif phase == _P_CHOOSE and "players" not in changes and "used" not in changes:  # the mover's as here:
                research = get("research", self.research)  # the choice's legal actions worked out on this state
                legal = choices(self, research)
                if len(legal) > 1:
                    new = self._next(changes)
                    new.__dict__["_legal"] = legal
                    return new
                put_back(changes, step.level, research, get("bottom", self.bottom), get("bottom_by", self.bottom_by),
                         self.turn)  # (Skip only: taken before the copy)
                changes["todo"] = todo[1:]
            else:  # a choice: Skip only? (it ends every effect's list; the new state's legal actions tell)
                new = self._next(changes)
                return new._move(_SKIP) if len(new._legal) == 1 else new
        return self._next(changes)

    def settled(self) -> Self:
        """Take every step that needs nobody: draws with nothing to draw or no room, a deck of known cards, a choice
        whose only option is to skip, the end of a turn, the end of the game (what a move takes itself: :meth:`_step`)."""
        new = self if self.over else self._step({"todo": self.todo})
        return self if new == self else new

    def _turn_ends(self, changes: dict[str, Any]) -> dict[str, Any]:
        """``changes`` with the turn's end: the next player's turn starts, unless the round completing the end is over (or
        a whole round passed); the turn, the end and the passes as in this state."""
        n = len(self.players)
        if (self.ending and self.turn == n - 1) or self.passes >= n:
            changes.update(over=True, used=(), ready=(), todo=())
        else:
            changes.update(turn=(self.turn + 1) % n, used=(), todo=(_ACTION,))
        return changes

    # -- the end ---------------------------------------------------------------------------
    def score(self, player: int) -> int:
        """``player``'s points: printed points of the built gizmos, point tokens, and what the multicolour cost-7
        gizmos count (energy stored, or point tokens)."""
        return self._score(self._check_player(player))

    def _score(self, player: int) -> int:
        p = self.players[player]
        total = p.tokens
        for card in self._owned[player]:
            total += card.vp
            if card.effect.kind == "score":
                total += sum(p.energy) if card.effect.counts == "energy" else p.tokens
        return total

    def standings(self) -> list[int]:
        """Players best first: most points, then most gizmos built, then most energy stored, then the player furthest
        from the first player (the highest seat)."""
        def key(i: int) -> tuple[int, int, int, int]:
            p = self.players[i]
            return (self._score(i), len(p.built), sum(p.energy), i)

        return sorted(range(len(self.players)), key=key, reverse=True)

    def returns(self) -> tuple[int, ...]:
        if not self.over:
            return tuple(0 for _ in self.players)
        if self.rules.payoff == "points":
            return tuple(self._score(i) for i in range(len(self.players)))
        best = self.standings()[0]
        return tuple(int(i == best) for i in range(len(self.players)))

    def check(self) -> Self:
        """Raise :class:`~coffeegames.errors.BadData` naming the field if the position is inconsistent (52 marbles,
        112 cards in known places, limits, phases); else return self (:func:`.saved.check`)."""
        return check(self)


_FIELD_COUNT = len(fields(State))
"""The fields of a state (:meth:`State._next` checks a state's dict holds them and the cached values it knows only)."""


class Game(GameBase):
    """Gizmos for 2-4 players; ``options`` are :class:`~.rules.Rules` fields.

    >>> game = Game(players=3, card_source="mirondorin")
    >>> game.options, game.rules.card(101).cost
    ({'players': 3, 'card_source': 'mirondorin', 'rules_version': 2}, 4)
    >>> s = game.new_initial_state()
    >>> s.is_chance(), len(s.chance_outcomes())
    (True, 36)
    """

    name = "gizmos"
    action_kinds = ACTION_KINDS
    state_class = State
    rules_class = Rules

    def __init__(self, players: int = 2, **options: Any) -> None:
        self._made({"players": players, **options})

    def new_initial_state(self, seed: int | None = None) -> State:
        """The game before the setup draws: each player holds a starting gizmo, the display (4/3/2 cards) and the row
        (6 marbles) are drawn by chance, one at a time. With ``seed``, those draws are made from that seed."""
        rules = self.rules
        starting = rules.level_ids(0)
        steps = [Step(Phase.DISPLAY, level) for level, n in enumerate(rules.display, 1) for _ in range(n)]
        state = State(
            rules=rules,
            players=tuple(PlayerState(built=(starting[i % len(starting)],)) for i in range(rules.players)),
            todo=(*steps, *[_ROW] * rules.row_size, _ACTION),
            decks=(len(rules.level_ids(1)), len(rules.level_ids(2)), len(rules.level_ids(3)) - rules.removed_level3),
        )
        if check_seed(seed) is not None:
            rng = np.random.default_rng(seed)
            while state.is_chance():
                state = state.apply(state.sample_chance(rng))
        return state
