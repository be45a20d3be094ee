"""Benchmark: coffeegames' Dairyman odds against icepool and against a plain baseline.

Run from the repository root:

    python benchmarks/bench_dairyman.py            # table
    python benchmarks/bench_dairyman.py --json     # machine-readable
    python benchmarks/bench_dairyman.py --check    # exit 1 if a target is missed

This is a script, not a test: pytest is configured with ``--ignore=benchmarks`` and
nothing here runs on import.

Two comparisons, each timed *cold* (every cache involved is emptied before each
timed run, outside the timer) and repeated; best and median are reported:

1. ``dairyman.p_any_set(n)`` for n = 1..12 against icepool answering the same
   question (does a roll of n d6 hold 2 or 3 dice summing to 10?) in several
   formulations. Target: coffeegames no slower than the fastest icepool one.
2. ``dairyman.most_dice_locked(12)`` against a plain baseline: enumerate the 6,188
   multisets of 12 dice and run a recursive set-packing search on each, with no
   memo shared between multisets. Target: coffeegames at least 5x faster.

Both sides are checked to give identical exact Fractions before anything is timed.

3. **Whole-turn advice at real game positions** (``--whole-turn`` runs only this part):
   every lock and roll-on decision of seeded greedy games (2 players), each valued by
   ``dairyman.advise`` with the whole-turn model (ice, freezing, ice cream, the display's
   payoff), *cold* (the model's memo emptied first) and *warm* (the turn's earlier
   positions already solved, as in the decision view). Reported: the positions solved
   (the state-space size), CPU time (``process_time``) beside wall time, and how many
   fell back to the plain turn. Aim: under 0.5 s CPU in the view. Also the whole turn
   from the first roll for 8 and 12 dice, with and without ice and an ability.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, prod
from types import ModuleType

from clocks import Clock, timed

import coffeegames
from coffeegames import dairyman
from coffeegames.dairyman import odds as dm_odds
from coffeegames.dairyman.advice import advice_model
from coffeegames.dairyman import sets as dm_sets
from coffeegames.exact import dice as ex_dice
from coffeegames.exact import dist as ex_dist

try:
    import icepool
except ImportError:  # icepool is a test extra, not a dependency
    icepool = None

N_RANGE = range(1, 13)
LOCK_DICE = 12
TARGET_VS_ICEPOOL = 1.0  # coffeegames time <= fastest icepool time
TARGET_VS_BASELINE = 5.0  # coffeegames at least 5x faster than the plain search

# The sets, written out independently of coffeegames (checked against dm_sets.SETS).
SETS = ((4, 6), (5, 5), (1, 3, 6), (1, 4, 5), (2, 2, 6), (2, 3, 5), (2, 4, 4), (3, 3, 4))
NEEDS = tuple({v: s.count(v) for v in set(s)} for s in SETS)


# --------------------------------------------------------------------------- caches
def _clear_lru(module: ModuleType) -> None:
    for name in dir(module):
        obj = getattr(module, name)
        if callable(getattr(obj, "cache_clear", None)) and getattr(obj, "__module__", None) == module.__name__:
            obj.cache_clear()


def cold_coffeegames() -> None:
    """Empty every lru_cache in the modules the Dairyman odds use."""
    # Today these are odds._roll_dist and sets._has_set / _most_dice / _most_sets; the
    # sweep also catches cached helpers added later, so no run is ever warm.
    for module in (dm_odds, dm_sets, ex_dice, ex_dist):
        _clear_lru(module)


def cold_icepool() -> None:
    """Empty icepool's global caches (pool construction, binomial rows)."""
    icepool.Pool.clear_cache()
    icepool.math.comb_row_cache.clear()


# --------------------------------------------------------------------------- part 1
def cg_p_any_set() -> list[Fraction]:
    return [dairyman.p_any_set(n) for n in N_RANGE]


def _has_set(roll: tuple[int, ...]) -> bool:
    return any(all(roll.count(v) >= k for v, k in need.items()) for need in NEEDS)


def _p_true(die: object) -> Fraction:
    return Fraction(die.quantity(True), die.denominator())  # type: ignore[attr-defined]


def _icepool_formulations() -> dict[str, Callable[[], list[Fraction]]]:
    """Each entry builds everything fresh (die, evaluator) so no instance cache is warm."""

    class AnySet(icepool.MultisetEvaluator):
        """Capped counts: a set never needs more than two of a value."""

        def next_state(self, state, order, outcome, count):
            return (state or ()) + ((outcome, min(count, 2)),)

        def final_outcome(self, state, order, outcomes, *sizes):
            c = dict(state or ())
            return any(all(c.get(v, 0) >= k for v, k in need.items()) for need in NEEDS)

    class AnySetAbsorbing(icepool.MultisetEvaluator):
        """As AnySet, but collapses to True as soon as a set is complete (fewer states)."""

        def initial_state(self, order, outcomes, *sizes):
            return ()

        def next_state(self, state, order, outcome, count):
            if state is True:
                return True
            state = state + ((outcome, min(count, 2)),)
            c = dict(state)
            if any(all(c.get(v, 0) >= k for v, k in need.items()) for need in NEEDS):
                return True
            return state

        def final_outcome(self, state, order, outcomes, *sizes):
            return state is True

    def expand_map() -> list[Fraction]:
        d6 = icepool.Die(range(1, 7))
        return [_p_true(d6.pool(n).expand().map(_has_set, star=False)) for n in N_RANGE]

    def multiset_function() -> list[Fraction]:
        d6 = icepool.Die(range(1, 7))

        @icepool.multiset_function
        def superset_of_each(roll):
            return tuple(roll >= list(s) for s in SETS)

        return [_p_true(superset_of_each(d6.pool(n)).map(any, star=False)) for n in N_RANGE]

    def evaluator(cls: type) -> Callable[[], list[Fraction]]:
        def run() -> list[Fraction]:
            d6 = icepool.Die(range(1, 7))
            ev = cls()
            return [_p_true(ev(d6.pool(n))) for n in N_RANGE]

        return run

    return {
        "icepool pool.expand().map(has_set)": expand_map,
        "icepool @multiset_function (roll >= set)": multiset_function,
        "icepool MultisetEvaluator (capped counts)": evaluator(AnySet),
        "icepool MultisetEvaluator (absorbing)": evaluator(AnySetAbsorbing),
    }


# --------------------------------------------------------------------------- part 2
def _most_dice_search(counts: list[int], start: int = 0) -> int:
    """Largest number of dice disjoint sets can use: plain recursive search, no memo."""
    best = 0
    for i in range(start, len(SETS)):
        need = NEEDS[i]
        if all(counts[v] >= k for v, k in need.items()):
            for v, k in need.items():
                counts[v] -= k
            best = max(best, len(SETS[i]) + _most_dice_search(counts, i))
            for v, k in need.items():
                counts[v] += k
    return best


def baseline_most_dice(n: int = LOCK_DICE) -> dict[int, Fraction]:
    weights: dict[int, int] = {}
    n_fact = factorial(n)
    for roll in combinations_with_replacement(range(1, 7), n):
        counts = [0] * 7
        for v in roll:
            counts[v] += 1
        w = n_fact // prod(factorial(k) for k in counts)
        r = _most_dice_search(counts)
        weights[r] = weights.get(r, 0) + w
    total = 6**n
    return {k: Fraction(w, total) for k, w in sorted(weights.items())}


def cg_most_dice() -> dict[int, Fraction]:
    return dict(dairyman.most_dice_locked(LOCK_DICE))


# --------------------------------------------------------------------------- timing
def time_cold(
    cases: dict[str, tuple[Callable[[], object], Callable[[], None]]], repeat: int
) -> dict[str, list[Clock]]:
    """Time each case ``repeat`` times, round-robin (A B A B), its cache reset outside the timer: CPU and wall."""
    times: dict[str, list[Clock]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, (fn, reset) in cases.items():
            reset()
            gc.collect()
            times[name].append(timed(fn)[1])
    return times


def summarise(clocks: list[Clock]) -> dict[str, float]:
    """Best and median CPU seconds (``best_s``, ``median_s``: what the ratios use) and wall seconds."""
    cpu, wall = [c.cpu for c in clocks], [c.wall for c in clocks]
    return {"best_s": min(cpu), "median_s": statistics.median(cpu), "wall_best_s": min(wall),
            "wall_median_s": statistics.median(wall), "runs": len(clocks)}


def check_equal(name: str, got: object, want: object) -> None:
    if got != want:
        sys.exit(f"MISMATCH: {name} disagrees with coffeegames\n  got  {got}\n  want {want}")


# --------------------------------------------------------------------------- part 3
def decision_positions(seeds: range) -> list[list[dairyman.State]]:
    """Every lock / roll-on decision of seeded greedy 2-player games, grouped by turn."""
    from coffeegames.engine import Walkthrough

    turns: list[list[dairyman.State]] = []
    for seed in seeds:
        walk = Walkthrough(dairyman.Game(players=2).new_initial_state(), seed=seed).run(dairyman.greedy_policy)
        key = None
        for state in walk.states:
            if state.phase in (dairyman.Phase.LOCK, dairyman.Phase.CONTINUE) and state.legal_actions():
                if (state.turn, state.players) != key:
                    turns.append([])
                    key = (state.turn, state.players)
                turns[-1].append(state)
    return turns


def time_advice(state: dairyman.State) -> tuple[float, float, int, str]:
    """(CPU s, wall s, positions in the model's memo, model) of one advise call."""
    gc.collect()
    c0, w0 = time.process_time(), time.perf_counter()
    dairyman.advise(state)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    payoff, used = advice_model(state)
    pay = payoff.points
    model = dairyman.whole_turn_model(pay, state.rules.backorder_penalty, state.rules.ice_token_from_roll,
                                       state.rules.optional_actions_before_bust)
    return cpu, wall, model.states, used


def whole_turn_part(games: int) -> dict[str, object]:
    turns = decision_positions(range(games))
    cold, warm = [], []
    for positions in turns:
        for state in positions:  # cold: each position alone
            dairyman.whole_turn_model.cache_clear()
            cold.append(time_advice(state))
        dairyman.whole_turn_model.cache_clear()
        warm.extend(time_advice(state) for state in positions)  # warm: one turn after another, as in the view

    def stats(rows: list[tuple[float, float, int, str]]) -> dict[str, object]:
        cpu, wall, size = [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]
        q = statistics.quantiles(cpu, n=10)[-1] if len(cpu) > 1 else cpu[0]
        return {"positions": len(rows), "cpu_median_s": statistics.median(cpu), "cpu_p90_s": q, "cpu_max_s": max(cpu),
                "wall_median_s": statistics.median(wall), "wall_max_s": max(wall),
                "under_half_second_cpu": sum(c < 0.5 for c in cpu), "fallbacks": sum(r[3] != "whole turn" for r in rows),
                "states_median": statistics.median(size), "states_max": max(size)}

    starts = {}
    for dice, ice, abilities in ((8, 0, ()), (8, 2, ("reroll_chosen",)), (12, 0, ()), (12, 2, ("reroll_1s",))):
        turn = dairyman.WholeTurn(max_states=10**7)
        c0, w0 = time.process_time(), time.perf_counter()
        value = turn.value(dice, ice, abilities)
        starts[f"{dice} dice, {ice} ice, {'+'.join(abilities) or 'no ability'}"] = {
            "value": str(value), "float": float(value), "states": turn.states,
            "cpu_s": time.process_time() - c0, "wall_s": time.perf_counter() - w0}
    return {"games": games, "cold": stats(cold), "warm": stats(warm), "whole_turn_from_the_first_roll": starts}


def print_whole_turn(part: dict[str, object]) -> None:
    print(f"\n3. whole-turn advice at the lock and roll-on decisions of {part['games']} seeded greedy games")
    for name in ("cold", "warm"):
        s: dict = part[name]  # type: ignore[assignment]
        print(f"  {name:5} {s['positions']} positions: CPU median {s['cpu_median_s'] * 1e3:.0f} ms, p90 {s['cpu_p90_s'] * 1e3:.0f} ms, "
              f"max {s['cpu_max_s'] * 1e3:.0f} ms (wall median {s['wall_median_s'] * 1e3:.0f} ms, max {s['wall_max_s'] * 1e3:.0f} ms); "
              f"{s['under_half_second_cpu']} under 0.5 s CPU; {s['fallbacks']} fell back; "
              f"positions in the model: median {s['states_median']:,.0f}, max {s['states_max']:,}")
    print("  the whole turn from the first roll:")
    for name, r in part["whole_turn_from_the_first_roll"].items():  # type: ignore[attr-defined]
        print(f"    {name:32} value ≈ {r['float']:.3f}: {r['states']:>7,} positions, CPU {r['cpu_s']:.2f} s, wall {r['wall_s']:.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed cold runs per case (default 7)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--check", action="store_true", help="exit with status 1 if a target is missed")
    parser.add_argument("--whole-turn", action="store_true", help="run only part 3, whole-turn advice at game positions")
    parser.add_argument("--games", type=int, default=3, help="seeded games for part 3 (default 3)")
    parser.add_argument("--no-whole-turn", action="store_true", help="parts 1 and 2 only (skip part 3)")
    args = parser.parse_args(argv)
    load_before = [round(x, 2) for x in os.getloadavg()]

    if args.whole_turn:
        part3 = whole_turn_part(args.games)
        print(json.dumps(part3, indent=2) if args.json else "", end="" if args.json else "")
        if not args.json:
            print_whole_turn(part3)
        return 0

    if tuple(dm_sets.SETS) != SETS:
        sys.exit(f"coffeegames SETS changed: {dm_sets.SETS}; update the benchmark")

    # ---- correctness first (also warms imports / code paths, not caches)
    cold_coffeegames()
    want_any = cg_p_any_set()
    formulations = _icepool_formulations() if icepool is not None else {}
    for name, fn in formulations.items():
        cold_icepool()
        check_equal(name, fn(), want_any)
    cold_coffeegames()
    want_dice = cg_most_dice()
    check_equal("plain baseline", baseline_most_dice(), want_dice)

    # ---- part 1
    cases1 = {"coffeegames p_any_set(1..12)": (cg_p_any_set, cold_coffeegames)}
    cases1.update({name: (fn, cold_icepool) for name, fn in formulations.items()})
    t1 = {k: summarise(v) for k, v in time_cold(cases1, args.repeat).items()}

    # ---- part 2
    cases2 = {
        f"coffeegames most_dice_locked({LOCK_DICE})": (cg_most_dice, cold_coffeegames),
        "plain baseline (per-multiset search)": (baseline_most_dice, lambda: None),
    }
    t2 = {k: summarise(v) for k, v in time_cold(cases2, args.repeat).items()}

    # ---- ratios (> 1 means coffeegames is faster)
    cg1 = t1["coffeegames p_any_set(1..12)"]
    for name, s in t1.items():
        s["ratio_best"] = s["best_s"] / cg1["best_s"]
        s["ratio_median"] = s["median_s"] / cg1["median_s"]
    cg2 = t2[f"coffeegames most_dice_locked({LOCK_DICE})"]
    for name, s in t2.items():
        s["ratio_best"] = s["best_s"] / cg2["best_s"]
        s["ratio_median"] = s["median_s"] / cg2["median_s"]

    icepool_rows = [name for name in t1 if name.startswith("icepool")]
    fastest = min(icepool_rows, key=lambda k: t1[k]["best_s"]) if icepool_rows else None
    targets = {
        "p_any_set_vs_fastest_icepool": {
            "against": fastest,
            "ratio": t1[fastest]["ratio_best"] if fastest else None,
            "target": TARGET_VS_ICEPOOL,
            "met": (t1[fastest]["ratio_best"] >= TARGET_VS_ICEPOOL) if fastest else None,
        },
        "most_dice_locked_vs_baseline": {
            "against": "plain baseline (per-multiset search)",
            "ratio": t2["plain baseline (per-multiset search)"]["ratio_best"],
            "target": TARGET_VS_BASELINE,
            "met": t2["plain baseline (per-multiset search)"]["ratio_best"] >= TARGET_VS_BASELINE,
        },
    }
    info = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "coffeegames": coffeegames.__version__,
        "icepool": icepool.__version__ if icepool is not None else None,
        "repeat": args.repeat,
        "load_before": load_before,
        "load_after_parts_1_2": [round(x, 2) for x in os.getloadavg()],
    }

    part3 = None if args.no_whole_turn else whole_turn_part(args.games)
    if args.json:
        print(json.dumps({"info": info, "p_any_set": t1, "most_dice_locked": t2, "whole_turn": part3, "targets": targets}, indent=2))
    else:
        print(
            f"Python {info['python']} on {info['machine']} ({info['cpus']} CPUs); "
            f"coffeegames {info['coffeegames']}, icepool {info['icepool']}; "
            f"cold runs, best and median of {args.repeat}; load average {info['load_before']} before, "
            f"{info['load_after_parts_1_2']} after parts 1-2"
        )
        if icepool is None:
            print("(icepool not installed: part 1 has no comparison)")
        for title, table in (("1. P(any set), n = 1..12", t1), (f"2. most dice locked, {LOCK_DICE} dice", t2)):
            print(f"\n{title}")
            print(f"  {'':44} {'CPU best ms':>11} {'median ms':>10} {'wall med ms':>12} {'x cg (best)':>12} {'x cg (med)':>11}")
            for name, s in table.items():
                print(
                    f"  {name:44} {s['best_s'] * 1e3:11.1f} {s['median_s'] * 1e3:10.1f} {s['wall_median_s'] * 1e3:12.1f} "
                    f"{s['ratio_best']:12.2f} {s['ratio_median']:11.2f}"
                )
        print("\n(x cg = that row's CPU time / coffeegames' CPU time: above 1 means coffeegames is faster)")
        if part3 is not None:
            print_whole_turn(part3)
        print("\nTargets")
        for key, t in targets.items():
            if t["ratio"] is None:
                print(f"  {key}: skipped")
                continue
            status = "MET" if t["met"] else "MISSED"
            print(f"  {key}: {t['ratio']:.2f}x vs {t['against']} (target >= {t['target']:g}x) {status}")

    if args.check and any(t["met"] is False for t in targets.values()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
