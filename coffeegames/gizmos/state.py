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

The rules, each with the function implementing it: docs/rules/gizmos.md. (Over 500 lines: the
turn, its queue of steps and the trigger chain are one concept; split, each rule would need
the others' private steps.)

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

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Self

import numpy as np

from ..engine.saved import GameBase, SavedState
from ..engine.state import CHANCE, TERMINAL, cached_state
from ..engine.state import State as BaseState
from ..errors import BadArgument, BadType
from ..validate import check_count, check_seed
from .actions import ACTION_KINDS, Build, Card, EndTurn, File, Fire, Marble, Pass, Phase, Pick, Research, Skip, Step
from .data import COLOURS
from .data import Card as CardFacts
from .gear import _Gear, _gear
from .payment import _build_cost, _help, _plans, _reach  # unchecked: the engine hands them its own values
from .player import PlayerState, add_id, plus, remove_id
from .rules import MARBLES_PER_COLOUR, Rules, _check_level
from .saved import FIELD_PARSERS, STATE_FORMAT, check

__all__ = ["Game", "State"]

_ACTION = Step(Phase.ACTION)
_ROW = Step(Phase.ROW)
_SKIP_ONLY = (Skip(),)
# Actions and outcomes are immutable: the engine hands out one shared object for each (cheaper than building it
# again, and found by identity when ``apply`` checks it is legal).
_file_action = lru_cache(maxsize=None)(File)
_pick_action = lru_cache(maxsize=None)(Pick)
_fire_action = lru_cache(maxsize=None)(Fire)
_research_action = lru_cache(maxsize=None)(Research)
_marble_outcome = lru_cache(maxsize=None)(Marble)
_card_outcome = lru_cache(maxsize=None)(Card)
_build_action = lru_cache(maxsize=100_000)(Build)


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
        return self.todo[0].phase if self.todo else Phase.TRIGGERS

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.todo and self.todo[0].phase.is_chance else self.turn

    def is_chance(self) -> bool:  # current_player() == CHANCE, without the call (asked at every step)
        return not self.over and bool(self.todo) and self.todo[0].phase.is_chance

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

    @cached_state
    def _owned(self) -> tuple[tuple[CardFacts, ...], ...]:
        return tuple(_gear(self.rules, p.built).owned for p in self.players)

    @cached_state
    def _my(self) -> _Gear:
        """What the player to move's gizmos give them."""
        return _gear(self.rules, self.players[self.turn].built)

    def limits(self, player: int) -> tuple[int, int, int]:
        """``(energy, archive, research)`` limits of ``player``, upgrades included."""
        return self._limits[self._check_player(player)]

    @cached_state
    def _limits(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(_gear(self.rules, p.built).limits for p in self.players)

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

    @cached_state
    def _known(self) -> frozenset[int]:
        seen = set(self.research)
        for p in self.players:
            seen.update(p.archive, p.built)
        for level in range(3):
            seen.update(self.display[level], self.bottom[level])
        seen.update(self.rules.level_ids(0))
        return frozenset(seen)

    def unseen(self, level: int) -> tuple[int, ...]:
        """The cards of ``level`` (1-3) in no known place: the unseen cards of its deck (and, for level III, the
        cards removed at setup), each equally likely to come next while the deck has unseen cards."""
        return self._unseen(_check_level(level))

    def _unseen(self, level: int) -> tuple[int, ...]:
        seen = self._known
        return tuple([i for i in self.rules.level_ids(level) if i not in seen])

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
            pool = list(self._unseen(level)) + [bottom[level - 1][j] for j in hidden]
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
        if step.phase in (Phase.ROW, Phase.ENERGY):
            total = sum(self.dispenser)
            return [(_marble_outcome(c), Fraction(n, total)) for c, n in zip(COLOURS, self.dispenser) if n]
        pool = self._unseen(step.level)
        return [(_card_outcome(i), Fraction(1, len(pool))) for i in pool]

    def chance_outcome_count(self) -> int:
        return len(self._chance_outcomes()) if self.is_chance() else 0  # at most 36: always listed

    def sample_chance(self, rng: np.random.Generator) -> Any:
        """One outcome with its exact probability (a marble by the dispenser's counts, a card uniformly among the unseen),
        drawn without listing Fractions."""
        if not self.is_chance():
            return super().sample_chance(rng)
        step = self.todo[0]
        if step.phase in (Phase.ROW, Phase.ENERGY):
            k = int(rng.integers(sum(self.dispenser)))
            for colour, n in zip(COLOURS, self.dispenser):
                if k < n:
                    return _marble_outcome(colour)
                k -= n
        pool = self._unseen(step.level)
        return _card_outcome(pool[int(rng.integers(len(pool)))])

    def is_legal_outcome(self, outcome: Any) -> bool:
        step = self.todo[0]
        if step.phase in (Phase.ROW, Phase.ENERGY):
            return isinstance(outcome, Marble) and outcome.colour in COLOURS and self.dispenser[COLOURS.index(outcome.colour)] > 0
        return (isinstance(outcome, Card) and isinstance(outcome.card, int) and not isinstance(outcome.card, bool)
                and 0 <= outcome.card < len(self.rules.deck) and self.rules.deck[outcome.card].level == step.level
                and outcome.card not in self._known)

    # -- legal actions ---------------------------------------------------------------------
    def _legal_actions(self) -> Sequence[Any]:
        return self._legal

    @cached_state
    def _legal(self) -> tuple[Any, ...]:
        phase, step, me = self.phase, (self.todo[0] if self.todo else None), self.me
        acts: list[Any] = []
        if phase == Phase.ACTION:
            acts += self._files(self._display_cards())
            acts += self._picks()
            acts += self._builds([(c, "display") for c in self._display_cards()] + [(c, "archive") for c in me.archive])
            acts += self._researches()
            return tuple(acts) or (Pass(),)
        if phase == Phase.TRIGGERS:
            return (*(_fire_action(g) for g in self.ready), EndTurn())
        if phase == Phase.PICK:
            acts += self._picks()
        elif phase == Phase.FILE:
            acts += self._files(self._display_cards())
        elif phase == Phase.RESEARCH:
            acts += self._researches()
        elif phase == Phase.FREE_BUILD:
            assert step is not None
            found = [(c, "display") for c in self.display[step.level - 1]]
            found += [(c, "archive") for c in me.archive if self.rules.deck[c].level == step.level]
            acts += [_build_action(c, source) for c, source in found]
        elif phase == Phase.CHOOSE:
            acts += self._files(self.research)
            acts += self._builds([(c, "research") for c in self.research])
        return (*acts, Skip())

    def _display_cards(self) -> tuple[int, ...]:
        return self.display[0] + self.display[1] + self.display[2]

    def _files(self, cards: tuple[int, ...]) -> list[Any]:
        gear = self._my
        if not gear.can_file or len(self.me.archive) >= gear.limits[1]:
            return []
        return [_file_action(c) for c in cards]

    def _picks(self) -> list[Any]:
        if sum(self.me.energy) >= self._my.limits[0]:
            return []
        return [_pick_action(c) for c, n in zip(COLOURS, self.row) if n]

    def _researches(self) -> list[Any]:
        if not self._my.can_research:
            return []
        return [_research_action(level) for level in (1, 2, 3) if self._deck_size(level)]

    def converters(self) -> tuple[CardFacts, ...]:
        """The converters the player to move may use in a Build now."""
        converters = self._my.converters
        if self.rules.converters_per == "turn" and self.used:
            return tuple(c for c in converters if c.id not in self.used)
        return converters

    def _builds(self, found: list[tuple[int, str]]) -> list[Any]:
        gear, energy, converters, deck = self._my, self.me.energy, self.converters(), self.rules.deck
        discounts, aid = gear.discounts, (gear.aid if converters is gear.converters else _help(converters))
        acts: list[Any] = []
        plans: dict[tuple[str, int], tuple[Any, ...]] = {}  # by (colour, cost): cards often share them
        reach: dict[str, int] = {}
        for ident, source in found:
            card = deck[ident]
            colour = card.colour
            need = _build_cost(card, source, discounts) if discounts else card.cost
            can = reach.get(colour)
            if can is None:
                can = reach[colour] = _reach(energy, colour, aid)
            if can < need:  # most cards: no plan, no search
                continue
            paying = plans.get((colour, need))
            if paying is None:
                paying = plans[colour, need] = _plans(energy, colour, need, converters)
            for paid, used in paying:
                acts.append(_build_action(ident, source, paid, used))
        return acts

    # -- moves -----------------------------------------------------------------------------
    def _apply(self, action: Any) -> Self:
        return self._move(action).settled()

    def _move(self, action: Any) -> Self:
        phase = self.phase
        if phase.is_chance:
            return self._drawn(action)
        rest = self.todo[1:]
        if isinstance(action, Fire):
            return self._with(ready=remove_id(self.ready, action.gizmo), used=add_id(self.used, action.gizmo))._fire(action.gizmo)
        if isinstance(action, EndTurn):
            return self._with(ready=())
        if phase == Phase.CHOOSE:
            return self._chosen(action)
        passes = (self.passes + 1 if isinstance(action, Pass) else 0) if phase == Phase.ACTION else self.passes
        if isinstance(action, (Skip, Pass)):
            return self._with(todo=rest, passes=passes)
        if isinstance(action, File):  # (filing reads nothing of the queue: it is set once, after)
            return self._with(passes=passes)._file(action.card)._with(todo=(Step(Phase.DISPLAY, self._level(action.card)), *rest))
        if isinstance(action, Pick):
            i = COLOURS.index(action.colour)
            me = self.me
            players = list(self.players)
            players[self.turn] = PlayerState(plus(me.energy, i), me.archive, me.built, me.tokens)
            return self._with(players=tuple(players), row=plus(self.row, i, -1), todo=(_ROW, *rest),
                              passes=passes)._event("pick", colour=action.colour)
        if isinstance(action, Research):
            k = min(self._my.limits[2], self._deck_size(action.level))
            return self._with(todo=(*[Step(Phase.DRAW, action.level)] * k, Step(Phase.CHOOSE, action.level), *rest), passes=passes)
        assert isinstance(action, Build)
        return self._with(todo=rest, passes=passes)._build(action)

    def _level(self, card: int) -> int:
        return self.rules.deck[card].level

    def _set_me(self, player: PlayerState) -> Self:
        players = list(self.players)
        players[self.turn] = player
        return self._with(players=tuple(players))

    def _take_from_display(self, card: int) -> Self:
        level = self._level(card)
        display = list(self.display)
        display[level - 1] = remove_id(display[level - 1], card)
        return self._with(display=tuple(display))

    def _file(self, card: int) -> Self:
        """File ``card`` (from the display, or the research: the caller removes it there) and set off File gizmos."""
        state = self._take_from_display(card) if card in self._display_cards() else self
        me = state.me
        return state._set_me(PlayerState(me.energy, add_id(me.archive, card), me.built, me.tokens))._event("file")

    def _build(self, action: Build) -> Self:
        """Pay, move the card to the built gizmos, set off Build gizmos (not the card itself) and check the end."""
        me, card = self.me, action.card
        energy = tuple(e - p for e, p in zip(me.energy, action.paid))
        dispenser = tuple(d + p for d, p in zip(self.dispenser, action.paid))
        state = self._with(dispenser=dispenser)
        archive = me.archive
        if action.source == "display":
            state = state._take_from_display(card)
            state = state._with(todo=(Step(Phase.DISPLAY, self._level(card)), *state.todo))
        elif action.source == "archive":
            archive = remove_id(archive, card)
        built = add_id(me.built, card)
        state = state._set_me(PlayerState(energy, archive, built, me.tokens))
        if self.rules.converters_per == "turn" and action.converters:
            state = state._with(used=tuple(sorted({*state.used, *action.converters})))
        rules = self.rules
        if sum(rules.deck[i].level == 3 for i in built) >= rules.end_level3 or len(built) >= rules.end_gizmos:
            state = state._with(ending=True)
        return state._event("build", built=card, source=action.source)

    def _chosen(self, action: Any) -> Self:
        """The researched card chosen (or none): the others go under the deck, in card-number order (Ruling)."""
        level = self.todo[0].level
        rest = self.research if isinstance(action, Skip) else remove_id(self.research, action.card)
        bottom, by = list(self.bottom), list(self.bottom_by)
        bottom[level - 1] = bottom[level - 1] + rest
        by[level - 1] = by[level - 1] + (self.turn,) * len(rest)
        state = self._with(research=(), bottom=tuple(bottom), bottom_by=tuple(by), todo=self.todo[1:])
        if isinstance(action, File):
            return state._file(action.card)
        if isinstance(action, Build):
            return state._build(action)
        return state

    def _event(self, kind: str, colour: str = "", built: int = -1, source: str = "") -> Self:
        """An action happened: every gizmo of the player to move that it triggers (and that has not fired this turn,
        and is not the gizmo just built) waits to fire."""
        card = self.rules.deck[built] if built >= 0 else None
        found = []
        for gizmo in self._my.triggered.get(kind, ()):
            t = gizmo.trigger
            assert t is not None
            if gizmo.id == built or gizmo.id in self.used or gizmo.id in self.ready:
                continue
            if kind == "pick" and colour not in t.colours:
                continue
            if kind == "build":
                assert card is not None
                if t.colours and card.colour not in t.colours and card.colour != "any":
                    continue
                if (t.level and card.level != t.level) or (t.from_archive and source != "archive"):
                    continue
            found.append(gizmo.id)
        return self._with(ready=tuple(sorted((*self.ready, *found)))) if found else self

    def _fire(self, gizmo: int) -> Self:
        """A waiting gizmo's effect: tokens at once; draws and actions as steps at the front of the queue."""
        e = self.rules.deck[gizmo].effect
        if e.kind == "vp_tokens":
            me = self.me
            return self._set_me(PlayerState(me.energy, me.archive, me.built, me.tokens + e.count))
        steps = {
            "draw_random": [Step(Phase.ENERGY)] * e.count,
            "pick": [Step(Phase.PICK)] * e.count,
            "file": [Step(Phase.FILE)],
            "research": [Step(Phase.RESEARCH)],
            "build_free": [Step(Phase.FREE_BUILD, e.level)],
        }[e.kind]
        return self._with(todo=(*steps, *self.todo))

    def _drawn(self, outcome: Any) -> Self:
        """Chance: a marble or a card, where the step at the front of the queue puts it."""
        step, rest = self.todo[0], self.todo[1:]
        if isinstance(outcome, Marble):
            i = COLOURS.index(outcome.colour)
            dispenser = plus(self.dispenser, i, -1)
            if step.phase == Phase.ROW:
                return self._with(todo=rest, dispenser=dispenser, row=plus(self.row, i))
            me = self.me
            players = list(self.players)
            players[self.turn] = PlayerState(plus(me.energy, i), me.archive, me.built, me.tokens)
            return self._with(todo=rest, dispenser=dispenser, players=tuple(players))
        decks = list(self.decks)
        decks[step.level - 1] -= 1
        return self._place(step, outcome.card, todo=rest, decks=tuple(decks))

    def _place(self, step: Step, card: int, **changes: Any) -> Self:
        """``card`` where ``step`` puts it (the display or the research), with the other ``changes``."""
        if step.phase == Phase.DISPLAY:
            display = list(self.display)
            display[step.level - 1] = add_id(display[step.level - 1], card)
            return self._with(display=tuple(display), **changes)
        return self._with(research=add_id(self.research, card), **changes)

    def settled(self) -> Self:
        """Take every step that needs nobody: draws with nothing to draw or no room, a deck of known cards, a choice
        whose only option is to skip, the end of a turn, the end of the game."""
        state = self
        while not state.over:
            if not state.todo:
                if state.ready:
                    return state
                state = state._next_turn()
                continue
            step = state.todo[0]
            if step.phase in (Phase.ROW, Phase.ENERGY):
                room = step.phase == Phase.ROW or sum(state.me.energy) < state._my.limits[0]
                if room and any(state.dispenser):
                    return state
                state = state._with(todo=state.todo[1:])
            elif step.phase in (Phase.DISPLAY, Phase.DRAW):
                if state.decks[step.level - 1]:
                    return state
                bottom, by = list(state.bottom), list(state.bottom_by)
                under = bottom[step.level - 1]
                if under:
                    bottom[step.level - 1] = under[1:]
                    by[step.level - 1] = by[step.level - 1][1:]
                    state = state._place(step, under[0], todo=state.todo[1:], bottom=tuple(bottom), bottom_by=tuple(by))
                else:
                    state = state._with(todo=state.todo[1:])
            elif step.phase != Phase.ACTION and state._legal == _SKIP_ONLY:
                state = state._move(Skip())
            else:
                return state
        return state

    def _next_turn(self) -> Self:
        """The turn ends: the next player's turn starts, unless the round completing the end is over (or a whole round
        passed)."""
        n = len(self.players)
        if (self.ending and self.turn == n - 1) or self.passes >= n:
            return self._with(over=True, used=(), ready=(), todo=())
        return self._with(turn=(self.turn + 1) % n, used=(), todo=(_ACTION,))

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


class Game(GameBase):
    """Gizmos for 2-4 players; ``options`` are :class:`~.rules.Rules` fields.

    >>> game = Game(players=3, card_source="mirondorin")
    >>> game.options, game.rules.card(101).cost
    ({'players': 3, 'card_source': 'mirondorin'}, 4)
    >>> s = game.new_initial_state()
    >>> s.is_chance(), len(s.chance_outcomes())
    (True, 36)
    """

    name = "gizmos"
    action_kinds = ACTION_KINDS
    state_class = State
    rules_class = Rules

    def __init__(self, players: int = 2, **options: Any) -> None:
        self.rules = Rules(players=players, **options)
        self.options: dict[str, Any] = self._recorded({"players": players, **options})

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
