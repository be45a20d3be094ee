"""Writes ``saves_b838f36.json``: saves of every game made by the code of commit b838f36 (before issue 26).

Run from the repository root at that commit: ``python tests/data/make_saves_b838f36.py``.
For each variant: a walkthrough saved by ``Walkthrough.to_json(game)`` (a seeded random game from
the unseeded start, cut after ``LONGEST`` moves), a state saved mid-game (``State.to_json``, the state before move ``at``),
and what that code replayed it to: the last state's JSON and the number of moves.
``tests/test_saves_across_versions.py`` loads each with today's code and compares.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from coffeegames import dairyman, gizmos, roaster, rush, vivajava
from coffeegames.engine import Walkthrough, random_policy

LONGEST = 160
"""Moves at most per game (a long game is cut there: the file stays small)."""
VARIANTS = [
    ("dairyman", "two", dairyman.Game, {"players": 2}),
    ("dairyman", "three_no_flip", dairyman.Game, {"players": 3, "flip_after_order": False}),
    ("dairyman", "four_no_optional", dairyman.Game, {"players": 4, "optional_actions_before_bust": False}),
    ("vivajava", "two", vivajava.Game, {"players": 2}),
    ("vivajava", "three_v1", vivajava.Game, {"players": 3, "rules_version": 1}),
    ("vivajava", "omniblend_v1", vivajava.Game, {"solo": "omniblend", "meter": "red", "rules_version": 1}),
    ("vivajava", "sacchar", vivajava.Game, {"solo": "sacchar"}),
    ("roaster", "full", roaster.Game, {"card": "Kenya AA"}),
    ("roaster", "easy", roaster.Game, {"card": "Kenya AA", "side": "easy"}),
    ("roaster", "easy_v1", roaster.Game, {"card": "Kenya AA", "side": "easy", "rules_version": 1}),
    ("roaster", "easy_v1_keep", roaster.Game, {"side": "easy", "rules_version": 1, "reserve_to_bag": False}),
    ("gizmos", "two", gizmos.Game, {"players": 2}),
    ("gizmos", "three_mirondorin", gizmos.Game, {"players": 3, "card_source": "mirondorin"}),
    ("rush", "two", rush.Game, {"players": 2}),
    ("rush", "four", rush.Game, {"players": 4}),
]


def main() -> None:
    cases = []
    for i, (name, variant, make, options) in enumerate(VARIANTS):
        game = make(**options)
        walk = Walkthrough(game.new_initial_state(), seed=100 + i)
        walk.run(random_policy(np.random.default_rng([7, i])), until=lambda _: len(walk.moves) >= LONGEST)
        at = len(walk.moves) // 2
        cases.append({
            "game": name, "variant": variant, "options": options,
            "walkthrough": walk.to_json(game), "state": walk.states[at].to_json(), "at": at,
            "moves": len(walk.moves), "final": walk.state.to_json(),
        })
    out = Path(__file__).parent / "saves_b838f36.json"
    lines = ",\n".join(json.dumps(case) for case in cases)
    out.write_text(f'{{"_comment": {json.dumps(__doc__.splitlines()[0])},\n"cases": [\n{lines}\n]}}\n')


if __name__ == "__main__":
    main()
