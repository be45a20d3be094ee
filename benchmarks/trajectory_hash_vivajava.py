"""Check that speed work changes no VivaJava game: hashes of seeded games over many variants and rulings.

Run from the repository root, before and after a change, and compare the lines:

    python benchmarks/trajectory_hash_vivajava.py        # 25 random and 4 greedy games of each variant
    python benchmarks/trajectory_hash_vivajava.py 5      # a quick look
    python benchmarks/trajectory_hash_vivajava.py 25 2   # every variant naming no rules_version played under version 2

``trajectory_hash.py`` plays the default game only; this plays 2-4 players, both solo
corporations and the rulings switched. For every variant, ``N`` seeded random playouts
(``engine.play_out``; bot ``default_rng([1, i])``, chance ``default_rng([2, i])``) and 4 greedy
games (chance ``default_rng([3, i])``). Each hash covers every move and outcome (``str`` and
``repr``), every legal-action list, outcome count and player to move along the game, the
returns and the final position (``trajectory_hash.position_json``: the state's JSON without the
``rules_version`` saved states name since issue 26, so the recorded hashes still hold). A script, not a test: the hashes are recorded in
``benchmarks/README.md``.
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np

from coffeegames import vivajava
from coffeegames.engine import play_out, random_policy
from trajectory_hash import position_json  # this directory is on the path when run as a script

VARIANTS: list[dict[str, object]] = [
    {"players": 2}, {"players": 3}, {"players": 4}, {"solo": "omniblend"}, {"solo": "sacchar", "meter": "red"},
    {"solo": "sacchar", "sacchar_rainbow": "block", "corp_keeps_decaf": False}, {"players": 3, "offer_flavour": False},
    {"players": 4, "funding_needs_marker": False, "jokers_in_research": False, "return_flavour_first": False},
    {"players": 3, "both_blends": "no_featured", "completion_cancels": False, "setup_unlocks": True, "rules_version": 1},
    {"players": 2, "payoff": "pp", "markers": 1, "research_cap": 3},
    {"solo": "omniblend", "omniblend_rerolls": "always", "corp_holds_both": False},
]
"""The games played: options of :class:`coffeegames.vivajava.Game`."""


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 25
    version = {"rules_version": int(sys.argv[2])} if len(sys.argv) > 2 else {}  # the hashes an older version gave
    total = hashlib.sha256()
    for options in ({**version, **variant} for variant in VARIANTS):
        game, h = vivajava.Game(**options), hashlib.sha256()  # type: ignore[arg-type]
        for i in range(n):
            final, log = play_out(game.new_initial_state(), random_policy(np.random.default_rng([1, i])), np.random.default_rng([2, i]))
            h.update(repr(log).encode())
            h.update(repr([str(m) for m in log]).encode())
            h.update(repr(final.returns()).encode())
            h.update(position_json(final).encode())
            state = game.new_initial_state()
            for move in log:
                h.update(repr((state.legal_actions(), state.chance_outcome_count(), state.current_player())).encode())
                state = state.apply(move)
        for i in range(4):
            final, log = play_out(game.new_initial_state(), vivajava.greedy_policy, np.random.default_rng([3, i]))
            h.update(repr(log).encode())
            h.update(position_json(final).encode())
        print(options, h.hexdigest()[:16], flush=True)
        total.update(h.digest())
    print("all", total.hexdigest()[:16])


if __name__ == "__main__":
    main()
