"""Coffee Roaster solver timings (issue 5): "stop now" and "one more round" at every thermometer position of
seeded greedy-bot games, one DecisionView refresh, and how good the approximations are where the exact answer is
too slow. A plain script (not collected by pytest); see benchmarks/README.md.

    python benchmarks/bench_roaster.py [--games 2] [--cards 3] [--exact-rounds 4] [--exact-stops 4] [--view-games 1] [--parts 1234]
    python benchmarks/bench_roaster.py --parts 5 --exact-first 16   # the exact one more round at the first 16 decisions

1. ``stop_now(state)`` (default budget) at every stop/continue decision of seeded greedy-bot games;
2. ``one_more_round(state, **CONTINUE_OPTIONS)`` (what the notebook shows) at the same decisions, then the exact
   value (every draw, no budget) on a few of them where it runs, against the sampled estimate;
3. ``stop_now``'s estimate with the view's budget (``STOP_OPTIONS``) against the exact answer (no budget) at a few
   positions over that budget, and the rule of thumb alone (``max_states=0``) on three bags;
4. one DecisionView refresh: the notebook's walkthrough driven by clicks through seeded games, each click timed
   (the step and the refresh it triggers: advice, chart and board), at stop/continue and cup-test decisions.

5. (``--parts 5``) the exact one more round (every draw, no budget) at every stop/continue decision (``--exact-first N``:
   the first N).
6. (``--parts 6``) part 4 with the view's "exact values" box ticked: every value exact, no budget.

Every timing is reported twice: CPU seconds of this process (``time.process_time``: what the code costs, steady on a
shared machine) and wall-clock seconds (what a user waits, which wanders with the machine's load).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from coffeegames.roaster import advice
from coffeegames.roaster import (
    CONTINUE_OPTIONS,
    MAX_STATES,
    STOP_OPTIONS,
    Continue,
    Game,
    State,
    greedy_policy,
    load_cards,
    one_more_round,
    stop_now,
)
from coffeegames.widgets.roaster_game import roaster_walkthrough

GAP_BAGS = {
    "12 tokens": ["bean1"] * 2 + ["bean2"] * 3 + ["bean3"] * 2 + ["bean4", "hard", "smoke", "aroma", "body"],
    "15 tokens": ["hard"] * 4 + ["bean0"] * 3 + ["bean1"] * 3 + ["bean2"] * 2 + ["defect", "acidity", "aroma"],
    "16 tokens": ["bean1"] * 3 + ["bean2"] * 4 + ["bean3"] * 3 + ["hard", "hard", "smoke", "aroma", "acidity", "body"],
}
GAP_EFFECTS = [(), ("choice", "sweetness"), ("exchange", "tray"), ("extra_bean",)]
CUP_PHASES = ("place", "choose", "exchange", "exchange_keep")


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


def can_continue(s: State) -> bool:
    return any(isinstance(a, Continue) for a in s.legal_actions())


def draws_after_continue(s: State) -> int:
    after = s.apply(Continue())
    return after.chance_outcome_count() if after.phase == "draw" else 1


def simulated(message: str) -> int:
    """How many of a round's cup tests were simulated (over budget), read from ``one_more_round``'s message."""
    found = re.search(r"(\d+) of \d+ cup tests simulated", message)
    return int(found.group(1)) if found else 0


# -- part 1: stop now ------------------------------------------------------------------------

def stop_timings(found: dict[str, list]) -> pd.DataFrame:
    rows = []
    for card, decisions in found.items():
        for seed, s in decisions:
            cpu = time.process_time()
            r = stop_now(s)
            cpu = time.process_time() - cpu
            rows.append({"card": card, "game": seed, "space": s.space, "bag": sum(t != "moisture" for t in s.bag),
                         "active": ",".join(s.active) or "-", "exact": r.exact, "states": r.states,
                         "cpu": round(cpu, 3), "seconds": round(r.seconds, 3),
                         "expected": round(float(r.value), 2), "stderr": round(r.stderr, 2)})
    return pd.DataFrame(rows)


def in_turn(found: dict[str, list], keep: Callable[[str, int, State], bool], n: int) -> list[tuple[str, int, State]]:
    """The first ``n`` decisions that ``keep`` accepts, taken from each card in turn."""
    eligible = {card: [(seed, s) for seed, s in decisions if keep(card, seed, s)] for card, decisions in found.items()}
    picked = []
    for i in range(max(map(len, eligible.values()), default=0)):
        picked += [(card, *ps[i]) for card, ps in eligible.items() if i < len(ps)]
    return picked[:n]


def summary(name: str, table: pd.DataFrame) -> str:
    s, c = table.seconds, table.cpu
    return (f"{name}: {len(table)} positions, {table.exact.mean():.0%} exact, CPU median {c.median():.2f} s, "
            f"max {c.max():.2f} s; wall median {s.median():.2f} s, max {s.max():.2f} s, {(s < 1).mean():.0%} under 1 s")


def numbers(table: pd.DataFrame, column: str = "seconds") -> dict[str, Any]:
    """A timing column's summary for --json: count, median and max wall and CPU seconds (and the exact share)."""
    out: dict[str, Any] = {"n": len(table)}
    if table.empty:
        return out
    out.update({"wall_median": round(float(table[column].median()), 3), "wall_max": round(float(table[column].max()), 3),
                "cpu_median": round(float(table["cpu"].median()), 3), "cpu_max": round(float(table["cpu"].max()), 3)})
    if "exact" in table:
        out["exact_share"] = round(float(table.exact.mean()), 3)
    return out


# -- part 2: one more round ---------------------------------------------------------------------

def round_timings(found: dict[str, list], options: dict[str, Any] = CONTINUE_OPTIONS, first: int | None = None) -> pd.DataFrame:
    """``one_more_round`` with ``options`` at every decision where the player may continue (the ``first`` only)."""
    rows = []
    for card, decisions in found.items():
        for seed, s in decisions:
            if not can_continue(s) or (first is not None and len(rows) >= first):
                continue
            cpu = time.process_time()
            r = one_more_round(s, **options)
            rows.append({"card": card, "game": seed, "space": s.space, "draws": r.outcomes, "weighed": r.weighed,
                         "simulated": simulated(r.message), "exact": r.exact, "positions": r.positions,
                         "cpu": round(time.process_time() - cpu, 3), "seconds": round(r.seconds, 3), "expected": round(float(r.value), 2),
                         "stderr": round(r.stderr, 2)})
    return pd.DataFrame(rows)


def round_errors(found: dict[str, list], stop: pd.DataFrame, n: int, max_draws: int) -> pd.DataFrame:
    """The sampled one-more-round estimate (``CONTINUE_OPTIONS``) against the exact value (every draw, no budget) on
    ``n`` positions, taken in turn from each card: those whose stop-now answer was exact and whose next draw has more
    outcomes than the notebook weighs exactly (so the estimate is sampled) but at most ``max_draws``."""
    exact_stop = {(r.card, r.game, r.space) for r in stop.itertuples() if r.exact}

    def keep(card: str, seed: int, s: State) -> bool:
        return (card, seed, s.space) in exact_stop and can_continue(s) and \
            CONTINUE_OPTIONS["max_outcomes"] < draws_after_continue(s) <= max_draws

    rows = []
    for card, seed, s in in_turn(found, keep, n):
        estimate = one_more_round(s, **CONTINUE_OPTIONS)
        cpu = time.process_time()
        exact = one_more_round(s, max_outcomes=None, max_states=None)
        cpu = time.process_time() - cpu
        error = float(estimate.value - exact.value)
        rows.append({"card": card, "game": seed, "space": s.space, "draws": exact.outcomes,
                     "exact value": round(float(exact.value), 3), "estimate": round(float(estimate.value), 3),
                     "stderr": round(estimate.stderr, 3), "error": round(error, 3),
                     "error/stderr": round(abs(error) / estimate.stderr, 1) if estimate.stderr else float("nan"),
                     "simulated": simulated(estimate.message), "estimate s": round(estimate.seconds, 2),
                     "exact cpu": round(cpu, 2), "exact s": round(exact.seconds, 2), "exact positions": exact.positions, "is exact": exact.exact})
    return pd.DataFrame(rows)


# -- part 3: the fallback of stop now --------------------------------------------------------------

def fallback_errors(found: dict[str, list], n: int, options: dict[str, Any] = STOP_OPTIONS) -> pd.DataFrame:
    """Stop now's estimate with the view's budget (``STOP_OPTIONS``) against the exact answer (no budget) at the first
    ``n`` decisions over that budget, taken from each card in turn."""
    rows = []
    over = in_turn(found, lambda card, seed, s: not stop_now(s, **options).exact, n)
    for card, seed, s in over:
        cpu = time.process_time()
        approx = stop_now(s, **options)
        cpu = time.process_time() - cpu
        exact_cpu = time.process_time()
        exact = stop_now(s, max_states=None)
        exact_cpu = time.process_time() - exact_cpu
        gap = float(exact.value - approx.value)
        rows.append({"card": card, "game": seed, "space": s.space, "active": ",".join(s.active) or "-",
                     "states": exact.states, "exact cpu": round(exact_cpu, 2), "exact": round(float(exact.value), 3),
                     "fallback": round(float(approx.value), 3), "gap": round(gap, 2), "stderr": round(approx.stderr, 3),
                     "gap/stderr": round(gap / approx.stderr, 1) if approx.stderr else float("nan"),
                     "fallback cpu": round(cpu, 3), "fallback s": round(approx.seconds, 2)})
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


# -- part 4: one DecisionView refresh ---------------------------------------------------------------

def refresh_timings(cards: list[str], games: int, exact: bool = False) -> pd.DataFrame:
    """Seeded games in the notebook's walkthrough (``roaster_walkthrough``, full side), driven by its buttons: chance
    by "Let chance roll", decisions by choosing the greedy bot's action in the list and pressing "Take". Each click
    (the step and the ``refresh`` it triggers) is timed, with the ``stop_now`` and ``one_more_round`` calls that
    ``advise`` makes inside it (the module's names are wrapped with a timer while this runs). ``exact``: the view's
    "exact values" box ticked first."""
    rows = []
    stops: list[float] = []
    rounds: list[float] = []
    originals = advice.stop_now, advice.one_more_round
    advice.stop_now, advice.one_more_round = timed(advice.stop_now, stops), timed(advice.one_more_round, rounds)
    try:
        for card in cards:
            for seed in range(games):
                rows += _refresh_game(card, seed, stops, rounds, exact)
    finally:
        advice.stop_now, advice.one_more_round = originals
    return pd.DataFrame(rows)


def _refresh_game(card: str, seed: int, stops: list[float], rounds: list[float], exact: bool = False) -> list[dict[str, Any]]:
    rows = []
    view = roaster_walkthrough(card=card, side="full", seed=seed)
    view.exact_toggle.value = exact
    while not view.state.is_terminal():
        before = view.state
        if before.is_chance():
            button = view.chance_button
        else:
            actions = [row.action for row in view.advice]
            view.actions.value = actions.index(greedy_policy(before))
            button = view.take_button
        stops.clear()
        rounds.clear()
        t, cpu = time.perf_counter(), time.process_time()
        button.click()
        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
        if view.message.value:
            raise RuntimeError(f"the view refused a move at {before.phase}: {view.message.value}")
        s = view.state
        kind = "decide" if s.phase == "decide" else "cup test" if s.phase in CUP_PHASES else None
        if kind is None:
            continue
        rows.append({"card": card, "game": seed, "kind": kind, "phase": s.phase, "space": s.space,
                     "cup": len(s.cup), "choices": len(view.advice), "estimates": sum(row.exact is False for row in view.advice),
                     "cpu": round(cpu, 3), "seconds": round(seconds, 3), "stop_now s": round(sum(stops), 3),
                     "one_more_round s": round(sum(rounds), 3)})
    return rows


def timed(function: Callable[..., Any], log: list[float]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            log.append(time.perf_counter() - t)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="seeded greedy-bot games a card for parts 1-2 (default 2)")
    parser.add_argument("--cards", type=int, default=3, help="stand-in cards, spread over the list (default 3)")
    parser.add_argument("--exact-rounds", type=int, default=4, metavar="N",
                        help="positions where part 2 also computes one more round exactly (default 4)")
    parser.add_argument("--max-draws", type=int, default=700,
                        help="skip positions whose next draw has more outcomes than this in the exact comparison")
    parser.add_argument("--exact-stops", type=int, default=4, metavar="N",
                        help="positions over the view's budget where part 3 also solves stop now exactly (default 4)")
    parser.add_argument("--view-games", type=int, default=1, help="seeded games a card in the DecisionView (default 1)")
    parser.add_argument("--exact-first", type=int, default=None, metavar="N",
                        help="part 5 only at the first N decisions (issue 14's table: 16; default: all)")
    parser.add_argument("--parts", default="1234", help="which parts to run, e.g. 14 (part 2 runs part 1 first)")
    parser.add_argument("--json", metavar="FILE", help="also write the parts' summaries (wall and CPU seconds) to FILE")
    args = parser.parse_args()
    results: dict[str, Any] = {"parts": args.parts, "games": args.games, "cards": args.cards, "view_games": args.view_games}
    cards = [c.name for c in load_cards()[:: max(1, len(load_cards()) // args.cards)][: args.cards]]
    pd.set_option("display.width", 200)
    pd.set_option("display.max_columns", 30)
    print(f"cards: {', '.join(cards)}; stop_now default budget MAX_STATES = {MAX_STATES:,}; "
          f"advise: STOP_OPTIONS = {STOP_OPTIONS}, CONTINUE_OPTIONS = {CONTINUE_OPTIONS}")
    found = {card: positions(card, args.games) for card in cards} if set("1235") & set(args.parts) else {}
    stop = pd.DataFrame()
    if set("12") & set(args.parts):
        print(f"\n1. stop now (default budget) at every stop/continue decision of {args.games} greedy-bot games a card:")
        stop = stop_timings(found)
        print(stop.to_string(index=False))
        print("\n" + summary("stop now", stop))
        results["stop_now"] = numbers(stop)
    if "2" in args.parts:
        print("\n2. one more round with the notebook's budget (CONTINUE_OPTIONS) at the same decisions:")
        rounds = round_timings(found)
        print(rounds.to_string(index=False))
        results["one_more_round"] = numbers(rounds)
        print("\n" + summary("one more round", rounds) + f"; {(rounds.draws > CONTINUE_OPTIONS['max_outcomes']).mean():.0%} "
              f"sampled ({CONTINUE_OPTIONS['draws']} draws), {(rounds.simulated > 0).mean():.0%} with a simulated cup test")
        print(f"\n   the estimate against the exact value (every draw, no budget) on {args.exact_rounds} positions "
              f"(stop now exact, {CONTINUE_OPTIONS['max_outcomes']} < draws <= {args.max_draws}, cards in turn):")
        errors = round_errors(found, stop, args.exact_rounds, args.max_draws)
        if errors.empty:
            print("   no position qualifies")
        else:
            print(errors.to_string(index=False))
            over = int((errors["error/stderr"] > 3).sum())
            print(f"\none more round, estimate vs exact: {len(errors)} positions, |error| median "
                  f"{errors.error.abs().median():.2f}, max {errors.error.abs().max():.2f} points; stated stderr "
                  f"{errors.stderr.min():.2f}-{errors.stderr.max():.2f}; {over} errors over 3 stderr; exact solve "
                  f"{errors['exact s'].min():.1f}-{errors['exact s'].max():.1f} s, "
                  f"{errors['exact positions'].min():,}-{errors['exact positions'].max():,} positions, CPU "
                  f"{errors['exact cpu'].min():.1f}-{errors['exact cpu'].max():.1f} s")
    if "3" in args.parts:
        print(f"\n3. stop now's estimate with the view's budget (STOP_OPTIONS = {STOP_OPTIONS}) against the exact answer "
              f"(no budget) at {args.exact_stops} positions over that budget (cards in turn):")
        table = fallback_errors(found, args.exact_stops)
        if table.empty:
            print("   no position was over budget")
        else:
            print(table.to_string(index=False))
            print(f"\nfallback at positions over budget: {len(table)} positions, gap (exact - fallback) "
                  f"{table.gap.min():.2f}-{table.gap.max():.2f} points, {(table.gap > 3 * table.stderr).sum()} over 3 stderr "
                  f"(stderr {table.stderr.min():.2f}-{table.stderr.max():.2f}); exact {table['exact cpu'].min():.2f}-"
                  f"{table['exact cpu'].max():.2f} s CPU ({table.states.min():,}-{table.states.max():,} positions), "
                  f"fallback {table['fallback cpu'].min():.2f}-{table['fallback cpu'].max():.2f} s CPU")
        print("\n   the rule of thumb alone (max_states=0: the fallback's exact endgame gets no budget either) against the "
              "exact answer on three bags:")
        table = gaps()
        print(table.to_string(index=False))
        print(f"\nrule of thumb gap (exact - approx): {table.gap.min():.2f}-{table.gap.max():.2f} points, stderr "
              f"{table.stderr.min():.2f}-{table.stderr.max():.2f}; exact solves {table['exact s'].min():.2f}-"
              f"{table['exact s'].max():.2f} s, rule of thumb {table['approx s'].min():.2f}-{table['approx s'].max():.2f} s")
    if "4" in args.parts:
        print(f"\n4. one DecisionView refresh (click = step + refresh), {args.view_games} seeded game(s) a card "
              f"in roaster_walkthrough:")
        views = refresh_timings(cards, args.view_games)
        print(views.to_string(index=False))
        parts = []
        for kind in ("decide", "cup test"):
            t = views[views.kind == kind]
            parts.append(f"{kind} {len(t)} refreshes, CPU median {t.cpu.median():.2f} s, max {t.cpu.max():.2f} s; wall "
                         f"median {t.seconds.median():.2f} s, max {t.seconds.max():.2f} s, {(t.seconds < 1).mean():.0%} under 1 s")
            results[f"refresh_{kind.replace(' ', '_')}"] = numbers(t)
        print("\nDecisionView refresh: " + "; ".join(parts))
    if "6" in args.parts:
        print(f"\n6. the same refreshes with the view's 'exact values' box ticked (every value exact, no budget):")
        views = refresh_timings(cards, args.view_games, exact=True)
        print(views.to_string(index=False))
        t = views[views.kind == "decide"]
        print(f"\nexact view: decide {len(t)} refreshes, {int((t.estimates == 0).sum())} with every value exact, CPU median "
              f"{t.cpu.median():.2f} s, max {t.cpu.max():.2f} s; wall median {t.seconds.median():.2f} s, max {t.seconds.max():.2f} s")
        results["refresh_exact"] = numbers(t)
    if "5" in args.parts:
        which = f"the first {args.exact_first} stop/continue decisions" if args.exact_first else "every stop/continue decision"
        print(f"\n5. the exact one more round (every draw, no budget) at {which}:")
        exact = round_timings(found, {"max_outcomes": None, "max_states": None}, args.exact_first)
        print(exact.to_string(index=False))
        print("\n" + summary("exact one more round", exact) + f"; {exact.positions.min():,}-{exact.positions.max():,} positions")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)


if __name__ == "__main__":
    main()
