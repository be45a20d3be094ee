"""The vectorised cup-test solver (coffeegames.roaster.cup_layers) against an independent memoised search written
from the rules (tests/roaster_oracle.py, itself checked against Expectimax over the engine's states in
test_roaster_cup.py): the same exact values, distributions and position counts on many random bags, with every cup
effect and both rules versions; and a round's one shared table against separate solves. Without a distribution and
with plain draws (no Choice, no Exchange) the values come from dense boxes (coffeegames.roaster.cup_boxes): checked
the same way, alone and with many roots."""

from __future__ import annotations


import numpy as np
import pytest

from coffeegames.roaster import CUP_EFFECTS, Rules
from coffeegames.roaster import cup_boxes
from coffeegames.roaster.cup_codes import fits
from coffeegames.roaster.cup_layers import Layers
from coffeegames.roaster.cup_solver import Solver
from roaster_oracle import CupOracle

TOKENS = ["hard", "bean0", "bean1", "bean2", "bean3", "bean4", "burnt", "defect", "smoke", "body", "acidity", "aroma", "wild"]
CARDS = ["Zambia Kasama AA", "Mexico Altura Oaxaca", "Hawaii Kona"]


def oracle(rules, active, tokens, bag, cup, tray, oracle=None):
    """The oracle's value and distribution, and the positions it valued: on the package solver's kinds (one token of
    each scoring class, as the package counts positions; ``tokens`` names them all), or with ``oracle`` one shared."""
    solver = Solver(rules, active, tokens, rules.tray_size(active), None)
    search = CupOracle(rules, active) if oracle is None else oracle
    value, dist = search.solve([solver.rep[t] for t in bag], [solver.rep[t] for t in cup], tray)
    return value, dist, search.positions()


def random_case(rng):
    n = int(rng.integers(4, 13))
    tokens = [TOKENS[i] for i in rng.choice(len(TOKENS), size=n, p=None)]
    k = int(rng.integers(0, min(4, n - 1) + 1))
    cup, bag = tokens[:k], tokens[k:]
    active = tuple(e for e in CUP_EFFECTS if rng.random() < 0.4)
    return CARDS[int(rng.integers(len(CARDS)))], active, bag, cup


@pytest.mark.parametrize("seed", range(12))
def test_layers_equal_the_oracle_on_random_bags(seed):
    rng = np.random.default_rng(seed)
    for _ in range(4):
        card, active, bag, cup = random_case(rng)
        rules = Rules(card=card, rules_version=int(rng.integers(1, 3)))
        tray_spaces = rules.tray_size(active)
        tray = int(rng.integers(0, tray_spaces + 1))
        value, dist, visited = oracle(rules, active, bag + cup, bag, cup, tray)
        assert CupOracle(rules, active).solve(bag, cup, tray) == (value, dist)  # merging tokens that score alike is safe
        solver = Solver(rules, active, bag + cup, tray_spaces, None)
        b, c = solver.counts(bag), solver.counts(cup)
        table = Layers(solver, [(b, c, tray)], dist=True)
        assert table.values() == [value], (card, active, bag, cup, tray)
        assert dict(table.dist()) == dist
        assert table.positions == visited  # the same positions as the memoised search
        looked_up = Layers(solver, [(b, c, tray)], lookup=True)  # every position's value kept, for single decisions
        assert looked_up.value(b, c, tray) == value and looked_up.value(b, c, tray + 99) is None


def test_one_table_for_many_roots_equals_separate_solves():
    rules, active = Rules(card="Zambia Kasama AA"), ("choice", "sweetness", "extra_bean")
    rng = np.random.default_rng(5)
    bags = [[TOKENS[i] for i in rng.choice(len(TOKENS), size=int(rng.integers(6, 12)))] for _ in range(6)]
    tokens = [t for bag in bags for t in bag]
    solver = Solver(rules, active, tokens, rules.tray_size(active), None)
    none = (0,) * len(solver.kinds)
    table = Layers(solver, [(solver.counts(bag), none, 0) for bag in bags])
    assert table.values() == [oracle(rules, active, tokens, bag, (), 0)[0] for bag in bags]


def test_the_budget_is_checked_while_listing():
    from coffeegames.roaster.cup_solver import OverBudget

    rules = Rules(card="Zambia Kasama AA")
    bag = ["bean1"] * 2 + ["bean2"] * 3 + ["bean3"] * 2 + ["bean4", "hard", "smoke", "aroma", "body"]
    solver = Solver(rules, (), bag, 3, None)
    root = [(solver.counts(bag), (0,) * len(solver.kinds), 0)]
    n = Layers(solver, root).positions
    assert Layers(solver, root, max_states=n).positions == n
    with pytest.raises(OverBudget):
        Layers(solver, root, max_states=n - 1)
    with pytest.raises(ValueError, match="dist=True"):
        Layers(solver, root).dist()


def test_codes_too_wide_for_bit_fields_use_the_smallest_radices():
    # 8 kinds up to 9 tokens each: 4 bits a bag digit and 4 a cup digit (66 bits) do not fit, radix 10 digits do
    rules = Rules(card="Zambia Kasama AA")
    kinds = ["hard", "bean0", "bean1", "bean2", "bean3", "bean4", "defect", "body"]
    bags = [[a] * 9 + [b] * 3 for a, b in zip(kinds, kinds[1:] + kinds[:1])]
    tokens = [t for bag in bags for t in bag]
    solver = Solver(rules, (), tokens, 3, None)
    none = (0,) * len(solver.kinds)
    roots = [(solver.counts(bag), none, 0) for bag in bags]
    assert fits(solver, roots)
    assert Layers(solver, roots).values() == [oracle(rules, (), tokens, bag, (), 0)[0] for bag in bags]


def test_a_round_over_its_shared_budget_solves_its_smallest_cup_tests_alone():
    from coffeegames.roaster import Game, Roast, one_more_round

    s = Game(card="Zambia Kasama AA").new_initial_state(seed=1)
    s = s.apply(s.sample_chance(np.random.default_rng(1))).apply(Roast())
    shared = one_more_round(s, draws=4, max_states=None)
    assert not shared.lower and shared.positions > 0
    budget = shared.positions - 1  # the round's table is over this: the smallest tests alone within half of it, exactly
    split = one_more_round(s, draws=4, max_states=budget, samples=50)
    alone = [a == b for a, b in zip(split.parts, shared.parts)]
    assert any(alone) and split.lower == (not all(alone)) and split.positions <= budget
    assert [p[:2] for p in split.parts] == [p[:2] for p in shared.parts]  # the same draws, the same weights
    assert all(a[2] <= b[2] + 1 for a, b, same in zip(split.parts, shared.parts, alone) if not same)  # a lower estimate


PLAIN_EFFECTS = ("extra_bean", "sweetness", "tray")  # the cup effects the box solver takes (no Choice, no Exchange)


@pytest.mark.parametrize("seed", range(12))
def test_boxes_equal_the_oracle_on_random_bags(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(4):
        card, _, bag, cup = random_case(rng)
        active = tuple(e for e in PLAIN_EFFECTS if rng.random() < 0.5)
        rules = Rules(card=card)
        tray_spaces = rules.tray_size(active)
        tray = int(rng.integers(0, tray_spaces + 1))
        value, _, visited = oracle(rules, active, bag + cup, bag, cup, tray)
        solver = Solver(rules, active, bag + cup, tray_spaces, None)
        b, c = solver.counts(bag), solver.counts(cup)
        table = Layers(solver, [(b, c, tray)])
        assert table.exact is not None  # the box solver answered
        assert table.values() == [value], (card, active, bag, cup, tray)
        assert table.positions == visited  # the same positions as the memoised search


@pytest.mark.parametrize("seed", range(4))
def test_boxes_for_many_roots_equal_separate_solves(seed):
    # roots of different sizes (no position shared), repeated roots, and roots sharing boxes (one bag a token short)
    rng = np.random.default_rng(200 + seed)
    rules, active = Rules(card=CARDS[seed % 3]), ("extra_bean", "sweetness", "tray")[: seed % 4]
    bags = [[TOKENS[i] for i in rng.choice(len(TOKENS), size=int(rng.integers(5, 12)))] for _ in range(5)]
    bags += [bags[0], bags[1][:-1], bags[2] + [bags[2][0]]]
    tokens = [t for bag in bags for t in bag]
    tray_spaces = rules.tray_size(active)
    solver = Solver(rules, active, tokens, tray_spaces, None)
    none = (0,) * len(solver.kinds)
    table = Layers(solver, [(solver.counts(bag), none, 0) for bag in bags])
    assert table.exact is not None
    together = CupOracle(rules, active)  # one memo for all: each position counted once
    assert table.values() == [oracle(rules, active, tokens, bag, (), 0, together)[0] for bag in bags]
    assert table.positions == together.positions()


@pytest.mark.parametrize("settings", [
    {"LIST": 5, "CHUNK": 2},  # groups listed and valued in runs of a few boxes
    {"LIST": 9, "SCORE_BITS": 0},  # no tables by D: each run's cups scored alone, the cups kept as D itself
    {"LIST": 3, "SCORE_BITS": 0, "INT32": 2**9},  # values kept int64 in more groups
])
def test_boxes_in_runs_and_every_storage_equal_the_oracle(monkeypatch, settings):
    # the box solver lists a group a run of boxes at a time and keeps values int32 while they fit, cups as the kinds
    # they hold: every way of it gives the oracle's values
    for name, value in settings.items():
        monkeypatch.setattr(cup_boxes, name, value)
    rng = np.random.default_rng(300)
    for _ in range(12):
        card, _, bag, cup = random_case(rng)
        active = tuple(e for e in PLAIN_EFFECTS if rng.random() < 0.5)
        rules = Rules(card=card)
        tray_spaces = rules.tray_size(active)
        value, _, visited = oracle(rules, active, bag + cup, bag, cup, 0)
        solver = Solver(rules, active, bag + cup, tray_spaces, None)
        table = Layers(solver, [(solver.counts(bag), solver.counts(cup), 0)])
        assert table.exact is not None
        assert table.values() == [value], (card, active, bag, cup)
        assert table.positions == visited


@pytest.mark.parametrize("active", [(), ("sweetness",), ("sweetness", "tray", "extra_bean")])
def test_boxes_at_the_edges(active):
    # empty bags, full and nearly full cups, trays full or past their spaces, more of a kind than the cup can take
    rules = Rules(card="Zambia Kasama AA")
    tray_spaces = rules.tray_size(active)
    roots = [((0, 0), (0, 0), 0), ((3, 0), (0, 0), tray_spaces), ((0, 1), (2, 0), tray_spaces + 2), ((12, 1), (0, 0), 0),
             ((2, 2), (5, 4), 1), ((4, 4), (1, 1), 2), ((14, 0), (0, 0), 0), ((1, 13), (8, 0), 0)]
    for (bag, cup, tray) in roots:
        solver = Solver(rules, active, ["hard", "bean2"], tray_spaces, None)
        table = Layers(solver, [(bag, cup, tray)])
        assert table.exact is not None
        search = CupOracle(rules, active)
        value, _ = search.solve(solver.tokens(bag), solver.tokens(cup), tray)
        assert table.values() == [value], (bag, cup, tray)
        assert table.positions == search.positions(), (bag, cup, tray)


@pytest.mark.parametrize("seed", range(4))
def test_cups_scored_many_at_once_score_as_the_rules_say_one_by_one(seed):
    """The solvers score their cups many at once (:meth:`Solver.score_many`, numpy): each the same as the public
    :meth:`Rules.score` of its tokens (Sweetness added by the rules version, the Extra Bean when active), on random
    cups of every card, under every scoring ruling."""
    rng = np.random.default_rng(seed)
    for card in CARDS:
        rules = Rules(card=card, burnt_level=int(rng.integers(0, 3)), skill_groups=str(rng.choice(["largest", "each"])),
                      sweetness_flavour=bool(rng.integers(0, 2)), rules_version=int(rng.integers(1, 3)))
        active = [e for e in ("sweetness", "extra_bean") if rng.random() < 0.5]
        solver = Solver(rules, active, TOKENS, 3, None)
        cups = rng.integers(0, 4, size=(300, len(solver.kinds)))
        cups[rng.random(cups.shape) < 0.6] = 0  # mostly sparse cups, some empty
        cups = cups[cups.sum(1) <= 10 - ("sweetness" in active)]  # that fit a cup (Sweetness takes a space)
        one_by_one = []
        for counts in cups.tolist():
            tokens = [k for k, n in zip(solver.kinds, counts) for _ in range(n)]
            tokens += ["sweetness"] * solver.sweet_in(len(tokens)) + ["extra_bean"] * ("extra_bean" in active)
            one_by_one.append(rules.score(tokens).total)
        assert len(one_by_one) > 100 and solver.score_many(cups).tolist() == one_by_one
