"""Check that speed work changes no seeded game: a hash of whole trajectories of every game.

Run from the repository root, before and after a change, and compare the lines:

    python benchmarks/trajectory_hash.py        # 20 games of each
    python benchmarks/trajectory_hash.py 3      # a quick look

For every registered game (default options), ``N`` seeded random playouts through the State
contract (``engine.play_out``; bot ``default_rng([1, i])``, chance ``default_rng([2, i])``);
for Dairyman also ``N`` greedy-bot games for 2, 3 and 4 players (chance ``default_rng([3, i])``).
Each game's hash covers every move and outcome (``str`` and ``repr``), the returns and the final
position (:func:`position_json`: the state's JSON without the ``rules_version`` that saved states
name since issue 26, so the hashes recorded before it still hold). A script, not a test: the hashes
are recorded in ``benchmarks/README.md``.
"""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np

import coffeegames
from coffeegames.engine import State, play_out, random_policy


def position_json(state: State) -> str:
    """``state.to_json()`` without its ``rules_version`` field: the text every state saved before issue 26."""
    saved = json.loads(state.to_json())
    saved.pop("rules_version", None)
    return json.dumps(saved)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    total = hashlib.sha256()
    for name, info in sorted(coffeegames.games().items()):
        h = hashlib.sha256()
        game = info.game()
        for i in range(n):
            final, log = play_out(game.new_initial_state(), random_policy(np.random.default_rng([1, i])), np.random.default_rng([2, i]))
            h.update(repr([str(m) for m in log]).encode())
            h.update(repr(log).encode())
            h.update(repr(final.returns()).encode())
            h.update(position_json(final).encode())
        if name == "dairyman":
            from coffeegames import dairyman

            for players in (2, 3, 4):
                greedy = dairyman.Game(players=players)
                for i in range(n):
                    final, log = play_out(greedy.new_initial_state(), dairyman.greedy_policy, np.random.default_rng([3, i]))
                    h.update(repr(log).encode())
                    h.update(position_json(final).encode())
        print(name, h.hexdigest()[:16], flush=True)
        total.update(h.digest())
    print("all", total.hexdigest()[:16])


if __name__ == "__main__":
    main()
