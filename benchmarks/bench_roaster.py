"""Coffee Roaster cup-test solver timings: "stop now" at every thermometer position of seeded greedy-bot games,
and the fallback's gap to the exact answer. A plain script (not collected by pytest); see benchmarks/README.md.

    python benchmarks/bench_roaster.py [--games 2] [--cards 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from coffeegames.roaster.cup import stop_now
from coffeegames.roaster.policy import greedy_policy
from coffeegames.roaster.rules import load_cards
from coffeegames.roaster.state import Game

GAP_BAGS = {
    "12 tokens": ["bean1"] * 2 + ["bean2"] * 3 + ["bean3"] * 2 + ["bean4", "hard", "smoke", "aroma", "body"],
    "15 tokens": ["hard"] * 4 + ["bean0"] * 3 + ["bean1"] * 3 + ["bean2"] * 2 + ["defect", "acidity", "aroma"],
    "16 tokens": ["bean1"] * 3 + ["bean2"] * 4 + ["bean3"] * 3 + ["hard", "hard", "smoke", "aroma", "acidity", "body"],
}
GAP_EFFECTS = [(), ("choice", "sweetness"), ("exchange", "tray"), ("extra_bean",)]


def positions(card: str, games: int) -> list:
    """Every 'decide' state (stop or continue) of ``games`` seeded greedy-bot games."""
    found = []
    for seed in range(games):
        s, rng = Game(card=card).new_initial_state(seed=seed), np.random.default_rng(seed)
        while not s.is_terminal():
            if s.phase == "decide":
                found.append((seed, s))
            s = s.apply(s.sample_chance(rng) if s.is_chance() else greedy_policy(s))
    return found


def timings(cards: list[str], games: int) -> pd.DataFrame:
    rows = []
    for card in cards:
        for seed, s in positions(card, games):
            r = stop_now(s)
            rows.append({"card": card, "game": seed, "space": s.space, "bag": sum(t != "moisture" for t in s.bag),
                         "active": ",".join(s.active) or "-", "exact": r.exact, "states": r.states,
                         "seconds": round(r.seconds, 3), "expected": round(float(r.value), 2)})
    return pd.DataFrame(rows)


def gaps() -> pd.DataFrame:
    rows = []
    for name, bag in GAP_BAGS.items():
        for active in GAP_EFFECTS:
            t = time.perf_counter()
            exact = stop_now(bag, "Zambia Kasama AA", active=active, max_states=None)
            exact_s = time.perf_counter() - t
            approx = stop_now(bag, "Zambia Kasama AA", active=active, max_states=0)
            rows.append({"bag": name, "active": ",".join(active) or "-", "states": exact.states, "exact s": round(exact_s, 2),
                         "exact": round(float(exact.value), 3), "approx": round(float(approx.value), 3),
                         "gap": round(float(exact.value - approx.value), 2), "stderr": round(approx.stderr, 3),
                         "approx s": round(approx.seconds, 2)})
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--cards", type=int, default=3)
    args = parser.parse_args()
    cards = [c.name for c in load_cards()[:: max(1, len(load_cards()) // args.cards)][: args.cards]]
    pd.set_option("display.width", 160)
    table = timings(cards, args.games)
    print(table.to_string(index=False))
    print(f"\nstop now: {len(table)} positions, {table.exact.mean():.0%} exact, median {table.seconds.median():.2f} s, "
          f"max {table.seconds.max():.2f} s, {(table.seconds < 1).mean():.0%} under 1 s")
    print("\nfallback (heuristic policy, 2000 seeded cup tests) against the exact answer:")
    print(gaps().to_string(index=False))


if __name__ == "__main__":
    main()
