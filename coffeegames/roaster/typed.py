"""Draws typed as text, as a player at a real table reads them: the one text syntax of Coffee Roaster's tokens.

Tokens are typed everywhere in the game as ``kind:count`` pairs (:func:`~coffeegames.roaster.parse_bag`: the
command line's bags, the bag explorer, the walkthrough's draw box); ``hard*5``, ``hard×5`` and ``hardx5`` stay
accepted as aliases of ``hard:5``. :func:`parse_outcome` reads the tokens drawn at a chance node,
:func:`outcome_hint` says what to type there and :func:`outcome_example` gives a draw to type.

Example:
    >>> from coffeegames.roaster import Game
    >>> state = Game(card="Mexico Altura Oaxaca").new_initial_state(seed=0)
    >>> parse_outcome(outcome_example(state), state) in dict(state.chance_outcomes())
    True
"""

from __future__ import annotations

from collections import Counter

from ..engine import BadEntry, IllegalAction
from ..errors import BadArgument
from ..validate import check_instance
from .actions import Drawn
from .state import State
from .tokens import parse_bag, show

__all__ = ["outcome_example", "outcome_hint", "parse_bag", "parse_outcome"]


def _drawn(state: State) -> int:
    """How many tokens the chance node draws (a round's draw, or one token of the cup test)."""
    return state.draw_count if state.phase == "draw" else 1


def outcome_example(state: State) -> str | None:
    """Tokens to type at this draw that :func:`parse_outcome` accepts (a draw the bag can give, kinds taken in turn);
    None at the shuffle of the cup effects, which is not typed.

    >>> from coffeegames.roaster import Game
    >>> outcome_example(Game(card="Mexico Altura Oaxaca").new_initial_state(seed=0))
    'hard:2 defect moisture:2 body acidity aroma'
    """
    check_instance(state, State, "state", "a Coffee Roaster state")
    if state.phase == "shuffle" or not state.is_chance():
        return None
    n = _drawn(state)
    left = Counter(state.bag)
    picked: Counter[str] = Counter()
    while sum(picked.values()) < n:
        for kind in [k for k in left if left[k]]:
            if sum(picked.values()) < n:
                picked[kind] += 1
                left[kind] -= 1
    return " ".join(kind if k == 1 else f"{kind}:{k}" for kind, k in picked.items())


def outcome_hint(state: State) -> str:
    """What to type at this draw (short enough for the walkthrough's box).

    >>> from coffeegames.roaster import Game
    >>> outcome_hint(Game(card="Mexico Altura Oaxaca").new_initial_state(seed=0))
    'the 8 tokens drawn, e.g. hard:2 defect moisture:2 body acidity aroma'
    """
    check_instance(state, State, "state", "a Coffee Roaster state")
    if state.phase == "shuffle":
        return "the cup effects are shuffled by chance: press “Draw”"
    if not state.is_chance():
        return "nothing is being drawn now"
    n = _drawn(state)
    what = f"the {n} tokens drawn" if n > 1 else "the token drawn"
    return f"{what}, e.g. {outcome_example(state)}"


def parse_outcome(text: str, state: State) -> Drawn:
    """The tokens typed at a draw, as every bag of the game is typed (:func:`~coffeegames.roaster.parse_bag`):
    ``kind:count`` pairs or kinds alone, separated by spaces (``hard*5``, ``hard×5`` and ``hardx5`` read as ``hard:5``).

    >>> from coffeegames.roaster import Game
    >>> s = Game(card="Mexico Altura Oaxaca").new_initial_state(seed=0)
    >>> parse_outcome("hard:5 moisture acidity:2", s)
    Drawn(tokens=('hard', 'hard', 'hard', 'hard', 'hard', 'moisture', 'acidity', 'acidity'))
    >>> parse_outcome("hard smoke", s)
    Traceback (most recent call last):
    ...
    coffeegames.errors.BadEntry: 8 tokens are drawn: type 8 (you typed 2)
    """
    check_instance(text, str, "text", "the tokens drawn, typed as text")
    check_instance(state, State, "state", "a Coffee Roaster state")
    if not state.is_chance() or state.phase == "shuffle":
        raise IllegalAction("no tokens are being drawn now: the outcome box is for draws from the bag")
    n = _drawn(state)
    try:
        counts = parse_bag(text)
    except BadArgument as error:  # about the text typed: say what to type
        raise BadEntry(f"{error}; type {outcome_hint(state)}") from None
    tokens = [kind for kind, k in counts.items() for _ in range(k)]
    if len(tokens) != n:
        raise BadEntry(f"{n} token{'s are' if n > 1 else ' is'} drawn: type {n} (you typed {len(tokens)})")
    outcome = Drawn(tuple(tokens))
    if not state.is_legal_outcome(outcome):
        raise IllegalAction(f"{show(outcome.tokens)} cannot be drawn: the bag holds {show(state.bag)}")
    return outcome
