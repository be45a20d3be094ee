"""Peak memory of the exact one more round at one benchmark position, measured in a fresh subprocess.

    python benchmarks/roaster_memory.py [card] [game] [space]     # default: Hawaii Kona, game 0, space 8

Prints the process's peak resident memory (``resource.getrusage``'s ``ru_maxrss``) before and after the call, its
CPU seconds and the exact value (to compare across versions: a memory change changes no answer). The position is
``bench_roaster.positions``' (seeded greedy-bot games).
"""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import resource, sys, time
sys.path.insert(0, "benchmarks")
from bench_roaster import positions
from coffeegames.roaster import one_more_round
card, game, space = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
state = next(s for seed, s in positions(card, game + 1) if seed == game and s.space == space)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
cpu = time.process_time()
r = one_more_round(state, max_outcomes=None, max_states=None)
cpu = time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{card} game {game} space {space}: peak {peak:.0f} MiB (before the call {before:.0f} MiB), "
      f"{cpu:.2f} s CPU, {r.positions:,} positions, value {r.value}")
"""

if __name__ == "__main__":
    card, game, space = (sys.argv[1:4] + ["Hawaii Kona", "0", "8"][len(sys.argv[1:4]):])
    subprocess.run([sys.executable, "-c", CHILD, card, game, space], check=True)
