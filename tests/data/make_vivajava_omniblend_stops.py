"""Write ``vivajava_omniblend_stops.json``: saves made by commit a9d45db, before issue 28 replaced the flag
``omniblend_stops`` by ``omniblend_rerolls`` (run with that commit's ``coffeegames`` first on the path).

Each case: a seeded random game against OmniBlend at the red METER with ``omniblend_stops`` true or false,
saved as a walkthrough, and the last position as that code saved it.
"""

import json
import sys
from pathlib import Path

import numpy as np

from coffeegames.engine import Walkthrough, random_policy
from coffeegames.vivajava import Game


def main() -> None:
    """Play both games and write the file (the path given, or beside this script)."""
    cases = []
    for flag in (True, False):
        game = Game(solo="omniblend", meter="red", omniblend_stops=flag)
        walk, pick = Walkthrough(game.new_initial_state(), seed=7), random_policy(np.random.default_rng(7))
        while not walk.state.is_terminal():
            walk.step() if walk.state.is_chance() else walk.step(pick(walk.state))
        cases.append({"omniblend_stops": flag, "walkthrough": walk.to_json(game), "moves": len(walk.moves),
                      "final": walk.state.to_json()})
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("vivajava_omniblend_stops.json"))
    out.write_text(json.dumps({"made_by": "a9d45db", "cases": cases}) + "\n")


if __name__ == "__main__":
    main()
