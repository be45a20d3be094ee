"""Soak run: many seeded random games of every game and variant, every position checked (outside the test suite).

Plays ``--games`` seeded games (default 10,000) spread evenly over every game of the registry and every variant
(option set) it lists, with uniformly random legal moves and chance drawn with its odds, and checks at every
position what the conformance suite checks (tests/test_contract.py): ``check()`` passes (the invariants a loaded
save must pass), chance odds are exact fractions summing to 1, a JSON save loads back equal, an action of another
game is refused and changes nothing, and a finished game returns one result per player. A game still running after
``--max-moves`` counts as a failure (a game that never ends).

Usage (from the repository root)::

    PYTHONPATH=$PWD python benchmarks/soak.py --games 10000 [--out benchmarks/runs/soak.json]

A progress line goes to stderr; the summary (games, positions, failures by kind, each failure's game, variant and
seed) to stdout, and as JSON to ``--out`` if given. The exit status is 1 if any check failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

import coffeegames
from coffeegames.errors import CoffeeGamesError

SAVE_EVERY = 25
"""A JSON round trip at every 25th position (and the last): the save is the costly check."""


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [(name, dict(options)) for name, info in coffeegames.games().items() for options in info.variants]


def _check_position(game: Any, state: Any, index: int, foreign: Any) -> None:
    assert state.check() is state, "check() did not return the state"
    if state.is_chance() and state.chance_outcome_count() <= 2_000:
        odds = [p for _, p in state.chance_outcomes()]
        assert all(isinstance(p, Fraction) and p > 0 for p in odds) and sum(odds) == 1, "chance odds are not exact or do not sum to 1"
    if index % SAVE_EVERY == 0 or state.is_terminal():
        assert game.state_from_json(state.to_json()) == state, "the saved state loads back different"
    if foreign is not None and not state.is_chance():
        before = state.to_json()
        try:
            state.apply(foreign)
        except CoffeeGamesError:
            pass
        else:
            raise AssertionError(f"another game's action {foreign!r} was accepted")
        assert state.to_json() == before, "a refused action changed the state"


def soak_one(name: str, options: dict[str, Any], seed: int, max_moves: int, foreign: Any) -> int:
    """Play and check one seeded game; the positions checked (an ``AssertionError`` or other exception on failure)."""
    game = coffeegames.games()[name].game(**options)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=seed)
    for index in range(max_moves + 1):
        _check_position(game, state, index, foreign)
        if state.is_terminal():
            seats = len(getattr(state, "players", (None,)))  # (Coffee Roaster is solo: no players field)
            assert len(state.returns()) == seats, f"returns() gives {len(state.returns())} results for {seats} players"
            return index + 1
        if state.is_chance():
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        state = state.apply(action)
    raise AssertionError(f"no end within {max_moves} moves")


def _foreign_actions(cases: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """For each game, a legal action of another game (from its first decision)."""
    firsts: dict[str, Any] = {}
    for name, options in cases:
        if name in firsts:
            continue
        state, rng = coffeegames.games()[name].game(**options).new_initial_state(seed=0), np.random.default_rng(0)
        while state.is_chance():
            state = state.apply(state.sample_chance(rng))
        firsts[name] = state.legal_actions()[0] if not state.is_terminal() else None
    names = list(firsts)
    return {name: firsts[names[(i + 1) % len(names)]] for i, name in enumerate(names)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="seeded games in all, spread evenly (default 10,000)")
    parser.add_argument("--max-moves", type=int, default=200_000, help="moves after which a game counts as never ending")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed of each variant (default 0)")
    parser.add_argument("--out", type=Path, help="also write the summary as JSON here")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 10_000_000:
        parser.error("--games must be 1-10,000,000")
    cases = _cases()
    foreign = _foreign_actions(cases)
    started, cpu = time.perf_counter(), time.process_time()
    played, positions, failures = Counter[str](), 0, []
    for g in range(args.games):
        name, options = cases[g % len(cases)]
        seed = args.first_seed + g // len(cases)
        label = f"{name} {options}"
        try:
            positions += soak_one(name, options, seed, args.max_moves, foreign[name])
        except Exception as error:  # every failure is reported, never stops the run
            failures.append({"game": name, "options": options, "seed": seed, "kind": type(error).__name__, "error": str(error)[:300]})
        played[label] += 1
        if (g + 1) % max(1, args.games // 100) == 0 or g + 1 == args.games:
            print(f"\r{g + 1:,}/{args.games:,} games, {positions:,} positions, {len(failures)} failures, "
                  f"{time.perf_counter() - started:,.0f} s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    summary = {"games": args.games, "positions": positions, "failures": len(failures),
               "failure_kinds": dict(Counter(f["kind"] for f in failures)), "per_variant": dict(played),
               "wall_s": round(time.perf_counter() - started, 1), "cpu_s": round(time.process_time() - cpu, 1),
               "failed": failures}
    print(json.dumps({k: v for k, v in summary.items() if k != "failed"}, indent=1))
    for f in failures[:50]:
        print(f"FAILED {f['game']} {f['options']} seed {f['seed']}: {f['kind']}: {f['error']}")
    print(f"{args.games:,} games, {positions:,} positions checked: {len(failures)} failures")
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1, default=str))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
