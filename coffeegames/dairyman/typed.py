"""Chance outcomes typed as text, as a player at a real table reads them: dice (:func:`parse_dice`), a roll
with the yellow die (:func:`parse_roll`, which at a tile draw reads milk-tile codes), and what to type
(:func:`outcome_example`, :func:`outcome_hint`). The walkthrough's outcome box and any text front end read
rolls here; :func:`turn_position` makes the position a learner asks about (dice left, sets locked, display).

Example:
    >>> from coffeegames.dairyman import Game
    >>> state = Game().new_initial_state(seed=1)
    >>> parse_roll(outcome_example(state), state)
    Rolled(dice=(1, 2, 3, 4, 5, 5, 6), yellow=5)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import BadEntry, IllegalAction
from ..errors import BadArgument, CoffeeGamesError
from ..validate import Checker, check_count, check_instance
from .actions import Drawn, Lock, Rolled
from .game import Game
from .rules import WHITE_DICE, tile_of
from .sets import check_roll
from .state import State

__all__ = ["YELLOW", "outcome_example", "outcome_hint", "parse_dice", "parse_outcome", "parse_roll", "turn_position"]

YELLOW = "y"
"""The prefix that marks the yellow die in a typed roll: ``y5``."""
_ARGUMENT = Checker("", BadArgument)


def parse_dice(text: str, what: str = "roll") -> tuple[int, ...]:
    """Die values typed as text, separated by spaces or commas, as a sorted tuple.

    Raises a :class:`~coffeegames.errors.BadEntry` (a ``ValueError``) that says what to type instead.

    >>> parse_dice("4 6, 5 5")
    (4, 5, 5, 6)
    >>> parse_dice("4 six")
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadEntry: 'six' is not a die value: type the dice as numbers 1-6 separated by spaces, e.g. 4 6 5 5
    """
    _ARGUMENT.text(text, "text")
    values = []
    for token in text.replace(",", " ").split():
        try:
            values.append(int(token))
        except ValueError:
            raise BadEntry(
                f"{token!r} is not a die value: type the dice as numbers 1-6 separated by spaces, e.g. 4 6 5 5"
            ) from None
    return check_roll(values, what)  # its BadArgument names what is wrong with the values read


def parse_roll(text: str, state: State) -> Rolled | Drawn:
    """The chance outcome typed at ``state``: a roll like ``"4 6 5 5 1 3 2 y5"``, or tile codes at a draw.

    Type the white and red dice that were rolled as numbers 1-6 and the yellow die (when
    it was rolled) once as ``y`` and its value; frozen dice keep their values and are
    not typed. A wrong count, a value outside 1-6 or a stray ``y`` raises a
    :class:`~coffeegames.errors.BadEntry` (a ``ValueError``) that says what to type.

    >>> from coffeegames.dairyman import Game
    >>> state = Game().new_initial_state(seed=1)
    >>> parse_roll("4 6 5 5 1 3 2 y5", state)
    Rolled(dice=(1, 2, 3, 4, 5, 5, 6), yellow=5)
    >>> parse_roll("4 6 5 5 1 3 y5", state)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadEntry: you rolled 7 white/red dice and the yellow die: type 7 values (you typed 6) and the yellow one as y and its value, e.g. 4 6 5 5 1 3 2 y5
    """
    check_instance(text, str, "text", "the roll typed as text, e.g. 4 6 5 5 1 3 2 y5")
    check_instance(state, State, "state", "a Dairyman state")
    if state.phase == "draw":
        return _parse_draw(text, state)
    if state.phase != "roll":
        raise IllegalAction("no dice are being rolled now: the outcome box is for chance moves")
    tokens = text.replace(",", " ").split()
    if not tokens and state.rolling == 0 and not state.rolls_yellow:
        return Rolled((), None)  # every die is frozen or set aside: nothing is rolled, nothing is typed
    if not tokens:
        raise BadEntry(f"type the dice you rolled: {outcome_hint(state)}")
    marked = [t for t in tokens if t[:1].lower() == YELLOW]
    dice = parse_dice(" ".join(t for t in tokens if t[:1].lower() != YELLOW))
    expected = _expected_roll(state)
    if state.rolls_yellow:
        if len(marked) != 1:
            raise BadEntry(f"write the yellow die exactly once, as y and its value (e.g. y5); {expected}")
        (yellow,) = parse_dice(marked[0][1:], "yellow die") or (0,)
        if yellow == 0:
            raise BadEntry(f"{marked[0]!r}: put the yellow die's value 1-6 after the y, e.g. y5")
    elif marked:
        raise BadEntry(f"the yellow die is not rolled this time (it is locked, set aside or frozen): leave out {marked[0]!r}; {expected}")
    else:
        yellow = None
    if len(dice) != state.rolling:
        raise BadEntry(_count_error(state, len(dice)))
    outcome = Rolled(dice, yellow)
    if not state.is_legal_outcome(outcome):  # pragma: no cover - the checks above make every typed roll legal
        raise IllegalAction(f"{outcome} cannot happen here; {expected}")
    return outcome


parse_outcome = parse_roll
"""The game's outcome parser under the name every game gives it (``parse_outcome(text, state)``)."""


def _example_roll(state: State) -> str:
    plain = " ".join("4655132246135"[: state.rolling])
    return (plain + " y5").strip() if state.rolls_yellow else plain


def _expected_roll(state: State) -> str:
    yellow = " and the yellow die" if state.rolls_yellow else ""
    frozen = f"; the frozen {' '.join(map(str, state.dice))} keep their values" if state.dice else ""
    return f"you rolled {state.rolling} white/red dice{yellow}{frozen}"


def _count_error(state: State, typed: int) -> str:
    yellow = " and the yellow one as y and its value" if state.rolls_yellow else ""
    return f"{_expected_roll(state)}: type {state.rolling} values (you typed {typed}){yellow}, e.g. {_example_roll(state)}"


def _parse_draw(text: str, state: State) -> Drawn:
    codes = []
    for token in text.replace(",", " ").split():
        try:
            codes.append(tile_of(token).code)
        except CoffeeGamesError as error:  # tile_of's complaint is about the code typed
            raise BadEntry(f"{error}; type the tiles drawn as codes separated by spaces") from None
    need = state.rules.display_size - len(state.display)
    outcome = Drawn(tuple(codes))
    if len(codes) != need or not state.is_legal_outcome(outcome):
        top = sorted(set(state.deck[0])) if state.deck else []
        raise IllegalAction(f"the deck cannot give {' '.join(codes) or 'nothing'}: type the {need} tile(s) drawn, from {' '.join(top)}")
    return outcome


def outcome_example(state: State) -> str:
    """An outcome to type at this chance node that :func:`parse_roll` accepts: a roll, or tiles the deck can give.

    >>> from coffeegames.dairyman import Game
    >>> outcome_example(Game(players=2).new_initial_state())
    '10:cheese1 10:cheese2 10:cheese3'
    """
    check_instance(state, State, "state", "a Dairyman state")
    if state.phase == "draw":
        need = state.rules.display_size - len(state.display)
        return " ".join([code for pile in state.deck for code in pile][:need])  # the top pile is drawn first
    return _example_roll(state)


def outcome_hint(state: State) -> str:
    """The outcome box's placeholder: what to type at this chance node.

    >>> from coffeegames.dairyman import Game
    >>> outcome_hint(Game().new_initial_state(seed=1))
    '7 dice + yellow as y: e.g. 4 6 5 5 1 3 2 y5 (y5 = the yellow die shows 5)'
    """
    check_instance(state, State, "state", "a Dairyman state")
    if state.phase == "draw":
        need = state.rules.display_size - len(state.display)
        return f"{need} tile codes, e.g. {outcome_example(state)}"
    if state.rolling == 0 and not state.rolls_yellow:
        return "no dice are rolled (all frozen or set aside): leave the box empty and enter"
    yellow = " + yellow as y" if state.rolls_yellow else ""
    note = " (y5 = the yellow die shows 5)" if state.rolls_yellow else ""
    frozen = f"; frozen {' '.join(map(str, state.dice))} not typed" if state.dice else ""
    return f"{state.rolling} dice{yellow}: e.g. {_example_roll(state)}{note}{frozen}"


def turn_position(dice_left: int, sets_locked: int, display: str | Sequence[str], game: Game | None = None) -> State:
    """The position a learner asks about: player 0 has locked ``sets_locked`` sets on the first roll of a turn
    and has ``dice_left`` dice left, with ``display`` (tile codes, e.g. ``"10:cheese1 20:cheese5 30:cheese3"``)
    face up; the choice is to stop or roll on. Reached by legal moves of ``game`` (default ``Game()``):
    the display drawn, a roll, the lock (the yellow die in the first set, so no cheese is pending).

    The 8 dice of a first roll (7 white and the yellow one) allow 2 or 3 dice a set:
    ``8 - 3 × sets_locked <= dice_left <= 8 - 2 × sets_locked``, else a :class:`~coffeegames.errors.BadEntry` says which.

    >>> s = turn_position(5, 1, "10:cheese1 20:cheese5 30:cheese3")
    >>> s.phase, s.dice_left, s.sets_locked, s.display, [str(a) for a in s.legal_actions()]
    (<Phase.CONTINUE: 'continue'>, 5, 1, ('10:cheese1', '20:cheese5', '30:cheese3'), ['Stop()', 'Roll()'])
    """
    game = Game() if game is None else check_instance(game, Game, "game", "a Dairyman Game")
    check_count(sets_locked, "sets_locked", maximum=4)
    check_count(dice_left, "dice_left", maximum=WHITE_DICE + 1)
    dice = WHITE_DICE + 1
    low, high = max(dice - 3 * sets_locked, 0), dice - 2 * sets_locked
    if sets_locked == 0 or not low <= dice_left <= high:
        allowed = f"{low}-{high}" if low < high else str(high)
        why = ("lock 1 to 4 sets first: the choice to stop or roll on comes after a lock" if sets_locked == 0 else
               f"the {dice} dice of a first roll leave {allowed} after {sets_locked} set{'s' * (sets_locked != 1)} of 2 or 3 dice")
        raise BadEntry(f"{dice_left} dice left with {sets_locked} set{'s' * (sets_locked != 1)} locked cannot happen: {why}")
    codes = display.replace(",", " ").split() if isinstance(display, str) else \
        [str(c) for c in _ARGUMENT.sequence(display, "display", _ARGUMENT.text)]
    start = game.new_initial_state()
    drawn = _parse_draw(" ".join(codes), start)
    triples = dice - dice_left - 2 * sets_locked
    sets = [(2, 3, 5)] * triples + [(4, 6)] * (sets_locked - triples)
    yellow = sets[0][-1]  # the yellow die is the first set's last die; the dice left all show 1
    white = tuple(sorted([v for s in sets for v in s][: len(sets[0]) - 1] + [v for s in sets[1:] for v in s] + [1] * dice_left))
    rolled = start.apply(drawn).apply(Rolled(white, yellow))
    return rolled.apply(Lock(sets=tuple(sets), yellow=True))
