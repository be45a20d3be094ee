"""The Gizmos engine: the card facts, seeded games, the trigger chain, converters, limits, the end and tie-breaks.

The card counts below are typed from the published fact list (levels, colours, types), not
read from the package's data file; the constructed positions are written from the rules
(docs/rules/gizmos.md) and go through public names only.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from coffeegames import gizmos
from coffeegames.errors import BadArgument, BadData, IllegalAction
from coffeegames.gizmos import (
    COLOURS,
    Build,
    Card,
    EndTurn,
    File,
    Fire,
    Game,
    Marble,
    Phase,
    Pick,
    PlayerState,
    Research,
    Skip,
    State,
    Step,
)

# -- the cards ----------------------------------------------------------------------------------

TYPES_BY_LEVEL = {  # typed from the fact list: ids 4-11 build, 12-19 upgrade, 20-23 file, 24-31 pick, 32-39 converter, ...
    1: {"build": 8, "upgrade": 8, "file": 4, "pick": 8, "converter": 8},
    2: {"converter": 12, "build": 16, "pick": 4, "upgrade": 4},
    3: {"upgrade": 16, "file": 4, "build": 12, "converter": 4},
}


def test_card_counts_by_level_colour_and_type() -> None:
    deck = Game().rules.deck
    assert len(deck) == 112 and [c.id for c in deck] == list(range(112))
    assert Counter(c.level for c in deck) == {0: 4, 1: 36, 2: 36, 3: 36}
    for level in (1, 2):
        assert Counter(c.colour for c in deck if c.level == level) == {c: 9 for c in COLOURS}
    assert Counter(c.colour for c in deck if c.level == 3) == {**{c: 8 for c in COLOURS}, "any": 4}
    for level, types in TYPES_BY_LEVEL.items():
        assert Counter(c.type for c in deck if c.level == level) == types
    assert all(c.type == "file" and c.effect.kind == "draw_random" and c.effect.count == 1 for c in deck if c.level == 0)


def test_card_effects_are_named_kinds_with_parameters() -> None:
    card = Game().rules.card
    assert [card(i).effect.count for i in (90, 91)] == [3, 3] and card(90).effect.kind == "draw_random"
    assert {card(i).effect.kind for i in (102, 103)} == {"research"}
    assert card(104).effect == gizmos.Effect("build_free", level=1)
    assert card(48).effect == gizmos.Effect("convert", colours=("red",), uses=2)
    assert card(108).effect == gizmos.Effect("convert", colours=COLOURS, uses=1)
    assert card(106).effect == gizmos.Effect("double", colours=("red", "black"))
    assert card(12).effect == gizmos.Effect("upgrade", energy=1, archive=1, research=0)
    assert card(72).effect == gizmos.Effect("upgrade", energy=2, archive=1, research=2)
    assert [card(i).effect.counts for i in (82, 83, 84, 85)] == ["energy", "energy", "vp_tokens", "vp_tokens"]
    assert card(64).trigger == gizmos.Trigger("build", from_archive=True)
    assert card(96).trigger == gizmos.Trigger("build", level=2)
    assert card(24).trigger == gizmos.Trigger("pick", colours=("red",))
    # points equal cost but for the negators (7 and 8 at cost 4) and the multicolour cards (0 at cost 7)
    odd = {c.id: (c.cost, c.vp) for c in Game().rules.deck if c.cost != c.vp}
    assert odd == {78: (4, 7), 79: (4, 7), 80: (4, 8), 81: (4, 8), 82: (7, 0), 83: (7, 0), 84: (7, 0), 85: (7, 0)}


def test_the_two_sources_differ_on_the_disputed_cards_only() -> None:
    elinia, other = Game().rules.deck, Game(card_source="mirondorin").rules.deck
    assert {a.id for a, b in zip(elinia, other) if a != b} == {89, 94, 101}
    assert other[89].colour == "blue" and other[94].trigger == gizmos.Trigger("build", colours=("blue", "yellow"))
    assert (other[101].cost, other[101].vp) == (4, 4)
    # only the default keeps 8 level-III cards of each colour
    assert Counter(c.colour for c in other if c.level == 3) == {"red": 8, "blue": 9, "black": 7, "yellow": 8, "any": 4}
    with pytest.raises(BadArgument, match="card_source"):
        Game(card_source="boardgamegeek")


@pytest.mark.parametrize("option, value", [("players", 5), ("converters_per", "game"), ("payoff", "pp"),
                                           ("display", (4, 3)), ("energy_limit", 0), ("cards", {"cards": []})])
def test_bad_options_are_refused_naming_them(option: str, value: Any) -> None:
    with pytest.raises((BadArgument, BadData), match=option if option != "cards" else "cards"):
        Game(**{option: value})


def test_options_saved_as_json_load_back() -> None:
    assert Game(display=[4, 3, 2]).rules.display == (4, 3, 2)


def _card_file() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gizmos.SHIPPED_CARDS.read_text(encoding="utf-8"))
    return data


def test_a_card_file_loads_and_a_bad_one_is_refused_naming_the_field(tmp_path: Any) -> None:
    mine = _card_file()
    mine["cards"][5]["vp"] = 2
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(mine), encoding="utf-8")
    game = Game(cards=str(path))
    assert game.rules.card(5).vp == 2 and game.rules.table().loc["cards", "value"] == "user data"
    for change, field in (
        (lambda d: d["cards"][7]["effect"].update(kind="teleport"), "card 7.effect.kind"),
        (lambda d: d["cards"][7]["effect"].update(count=-1), "card 7.effect.count"),
        (lambda d: d["cards"][40]["effect"].update(colours=["purple"]), "card 40.effect.colours"),
        (lambda d: d["cards"].pop(), "cards"),
        (lambda d: d["cards"][9].update(id=8), "cards"),
        (lambda d: d["cards"][30].pop("trigger"), "card 30.trigger"),
        (lambda d: d["sources"]["mirondorin"][0].update(colour="green"), "sources.mirondorin card 89.colour"),
    ):
        bad = _card_file()
        change(bad)
        with pytest.raises(BadData, match=field.replace("[", r"\[").replace("]", r"\]")):
            gizmos.cards_from_dict(bad)


# -- seeded games ----------------------------------------------------------------------------------

def _random_game(players: int, seed: int) -> list[State]:
    game = Game(players=players)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=seed)
    states = [state]
    while not state.is_terminal():
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            move = legal[int(rng.integers(len(legal)))]
        state = state.apply(move)
        states.append(state)
        assert len(states) < 20_000
    return states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_finish_and_conserve_marbles_and_cards(players: int) -> None:
    for seed in range(3):
        states = _random_game(players, seed)
        end = states[-1]
        assert end.phase == Phase.OVER
        built = [len(p.built) for p in end.players]
        level3 = [sum(end.rules.card(i).level == 3 for i in p.built) for p in end.players]
        assert max(built) >= 16 or max(level3) >= 4 or end.passes == players
        assert sum(end.returns()) == 1
        for state in states[:: 7] + [end]:
            state.check()
            for c in range(4):  # row + storages + dispenser = 13 of each colour
                assert state.row[c] + state.dispenser[c] + sum(p.energy[c] for p in state.players) == 13
            places = (list(state.research) + [i for d in state.display for i in d] + [i for b in state.bottom for i in b]
                      + [i for p in state.players for i in p.archive + p.built])
            unused_starting = 4 - players
            unseen = sum(len(state.unseen(level)) for level in (1, 2, 3))
            assert len(places) == len(set(places)) and len(places) + unseen + unused_starting == 112


def test_the_round_is_completed_after_the_end_is_triggered() -> None:
    for players in (2, 3, 4):
        states = _random_game(players, 5)
        first = next(i for i, s in enumerate(states) if s.ending)
        trigger = states[first - 1].turn
        turns = [s.turn for s in states[first:] if not s.is_terminal()]
        assert turns == sorted(turns) and set(turns) == set(range(trigger, players)), "the round ends with the last seat"


# -- constructed positions --------------------------------------------------------------------------

DISPLAY = ((36, 37, 38, 39), (68, 69, 70), (92, 93))
"""The display of the constructed positions (unless a test gives its own)."""


def position(players: tuple[PlayerState, ...], todo: tuple[Step, ...] = (Step(Phase.ACTION),), turn: int = 0,
             row: tuple[int, ...] = (2, 2, 1, 1), display: tuple[tuple[int, ...], ...] = DISPLAY, **changes: Any) -> State:
    """A position at ``turn``'s action: the marbles not on the row or in storage are in the dispenser, and each deck
    holds the cards of its level seen nowhere (level III: less the 20 removed)."""
    base = Game(players=len(players)).new_initial_state(seed=0)
    dispenser = tuple(13 - row[c] - sum(p.energy[c] for p in players) for c in range(4))
    state = dataclasses.replace(base, players=players, todo=todo, turn=turn, row=row, dispenser=dispenser,
                                display=display, **changes)
    if "decks" not in changes:
        state = dataclasses.replace(state, decks=tuple(len(state.unseen(level)) - (20 if level == 3 else 0) for level in (1, 2, 3)))
    return state.check()


def test_a_gizmo_fires_once_a_turn_and_not_on_the_build_that_built_it() -> None:
    # 104 (built): building a blue or black gizmo -> build a level-I gizmo for free.
    # 64 (archived, black): building from the archive -> two Picks. 12 (archived, level I): an upgrade.
    me = PlayerState(energy=(0, 0, 3, 0), archive=(12, 64), built=(0, 72, 104))
    s = position((me, PlayerState(built=(1,))))
    build = Build(64, "archive", (0, 0, 3, 0))
    assert build in s.legal_actions()
    s = s.apply(build)
    assert s.phase == Phase.TRIGGERS and s.ready == (104,), "64 is not set off by its own build"
    s = s.apply(Fire(104))
    assert s.phase == Phase.FREE_BUILD and Build(12, "archive") in s.legal_actions()
    s = s.apply(Build(12, "archive"))
    assert s.ready == (64,) and s.used == (104,), "built this turn, 64 fires on a later build from the archive"
    s = s.apply(Fire(64))
    assert s.phase == Phase.PICK and s.todo == (Step(Phase.PICK), Step(Phase.PICK))
    s = s.apply(Pick("red"))
    assert s.is_chance() and s.todo[0] == Step(Phase.ROW)
    s = s.apply(Marble("red")).apply(Pick("blue")).apply(Marble("blue"))
    assert s.turn == 1 and s.phase == Phase.ACTION and s.ready == () and s.used == ()
    assert s.players[0].energy == (1, 1, 0, 0) and set(s.players[0].built) == {0, 12, 64, 72, 104}


def test_the_chain_in_words() -> None:
    me = PlayerState(energy=(0, 0, 3, 0), archive=(12, 64), built=(0, 72, 104))
    states = [position((me, PlayerState(built=(1,))))]
    moves = [Build(64, "archive", (0, 0, 3, 0)), Fire(104), Build(12, "archive"), Fire(64), Pick("red"), Marble("red")]
    for move in moves:
        states.append(states[-1].apply(move))
    lines = gizmos.chain_text(states, moves)
    assert lines[0] == "player 0: Build #64 from the archive paying 3 black"
    assert lines[1].startswith("  sets off #104 yellow III") and "building a blue/black gizmo → build a level-I" in lines[1]
    assert lines[2] == "player 0: Fire #104: build a level-I gizmo for free"
    assert lines[4].startswith("  sets off #64 black II") and lines[5] == "player 0: Fire #64: perform 2 Picks"
    assert lines[-1] == "  chance: red marble (onto the row)"


def test_waiting_gizmos_fire_in_the_owners_order_and_may_be_left() -> None:
    # 24: picking red -> draw 1; 28: picking red -> draw 1; the starting gizmo 0 waits for a File.
    me = PlayerState(built=(0, 24, 28))
    s = position((me, PlayerState(built=(1,)))).apply(Pick("red")).apply(Marble("yellow"))
    assert s.phase == Phase.TRIGGERS and set(s.legal_actions()) == {Fire(24), Fire(28), EndTurn()}
    s2 = s.apply(Fire(28))
    assert s2.is_chance() and s2.used == (28,) and s2.ready == (24,)
    assert dict(s2.chance_outcomes()) == {Marble(c): Fraction(n, sum(s2.dispenser)) for c, n in zip(COLOURS, s2.dispenser)}
    s2 = s2.apply(Marble("black"))
    assert s2.legal_actions() == [Fire(24), EndTurn()]
    assert s.apply(EndTurn()).turn == 1, "ending the turn leaves the waiting gizmos unfired"


def test_a_random_draw_needs_room_and_is_not_a_pick() -> None:
    me = PlayerState(energy=(0, 0, 0, 4), built=(0, 24))  # limit 5: one more marble fits
    s = position((me, PlayerState(built=(1,))))
    s = s.apply(Pick("red")).apply(Marble("red"))  # now 5 stored: 24 waits, but its draw finds no room
    assert s.ready == (24,)
    after = s.apply(Fire(24))
    assert after.turn == 1 and after.players[0].energy == (1, 0, 0, 4), "no room: the draw is not made"
    assert Pick("red") not in position((PlayerState(energy=(0, 0, 0, 5), built=(0,)), PlayerState(built=(1,)))).legal_actions()


def test_file_research_and_the_limits() -> None:
    s = position((PlayerState(built=(0,)), PlayerState(built=(1,))))
    files = [a for a in s.legal_actions() if isinstance(a, File)]
    assert len(files) == 9
    s = s.apply(files[0])
    assert s.is_chance() and s.todo[0].phase == Phase.DISPLAY and s.ready == (0,), "the starting gizmo: any File"
    s = s.apply(s.chance_outcomes()[0][0])
    assert s.phase == Phase.TRIGGERS, "it fires after the display is filled"
    s = s.apply(EndTurn()).apply(Pick("red")).apply(Marble("red"))
    assert not any(isinstance(a, File) for a in s.legal_actions() if s.turn == 0)
    full = position((PlayerState(archive=(5,), built=(0,)), PlayerState(built=(1,))))
    assert not any(isinstance(a, File) for a in full.legal_actions()), "archive limit 1"
    upgraded = position((PlayerState(archive=(5,), built=(0, 12)), PlayerState(built=(1,))))
    assert upgraded.limits(0) == (6, 2, 3) and any(isinstance(a, File) for a in upgraded.legal_actions())
    negated = position((PlayerState(built=(0, 78, 80)), PlayerState(built=(1,))))
    assert not any(isinstance(a, (File, Research)) for a in negated.legal_actions()), "can't File, can't Research"


def test_research_draws_the_unseen_then_the_cards_put_under() -> None:
    s = position((PlayerState(built=(0,)), PlayerState(built=(1,))))
    level3 = s.unseen(3)
    assert len(level3) == s.decks[2] + 20, "the 20 removed cards are unseen too"
    r = s.apply(Research(3))
    assert r.is_chance() and dict(r.chance_outcomes()) == {Card(i): Fraction(1, len(level3)) for i in level3}
    for card in level3[:3]:
        r = r.apply(Card(card))
    assert r.phase == Phase.CHOOSE and r.research == level3[:3]
    under = r.apply(Skip())
    assert under.bottom[2] == level3[:3] and under.turn == 1
    # a deck of known cards only: the cards put under come next, in order, with no chance node
    known = tuple(i for i in range(8, 40))
    s = position((PlayerState(built=(0,)), PlayerState(built=(1,))), display=((4, 5, 6, 7), s.display[1], s.display[2]),
                 bottom=(known, (), ()), bottom_by=((1,) * len(known), (), ()))
    assert s.decks[0] == 0
    r = s.apply(Research(1))
    assert r.phase == Phase.CHOOSE and r.research == (8, 9, 10) and r.bottom[0] == known[3:]
    assert r.apply(Skip()).bottom[0] == known[3:] + (8, 9, 10)
    with pytest.raises(BadData, match="decks"):
        dataclasses.replace(s, decks=(1, s.decks[1], s.decks[2])).check()


def test_a_determinisation_hides_only_what_others_put_under_a_deck() -> None:
    s = position((PlayerState(built=(0,)), PlayerState(built=(1,))), turn=1)
    r = s.apply(Research(2))
    while r.is_chance():
        r = r.apply(r.chance_outcomes()[0][0])
    under = r.apply(Skip())  # player 1 puts three level-II cards under the deck
    assert under.bottom_by[1] == (1, 1, 1) and len(under.bottom[1]) == 3
    rng = np.random.default_rng(0)
    assert under.determinise(1, rng) == under, "player 1 knows the cards they put under"
    pool = set(under.unseen(2)) | set(under.bottom[1])
    seen: set[int] = set()
    for _ in range(200):
        d = under.determinise(0, rng).check()
        assert d.decks == under.decks and len(d.bottom[1]) == 3 and set(d.bottom[1]) | set(d.unseen(2)) == pool
        seen.update(d.bottom[1])
    assert seen == pool, "any card player 0 has not seen may be under the deck"


def _pays_by_rules(spent: tuple[int, ...], colour: str, need: int, converters: tuple[Any, ...]) -> bool:
    """Whether the marbles ``spent`` pay ``need`` of ``colour``, from the rules: each marble is left as it is or changed
    by one converter unit (a convert gizmo: ``uses`` units, each turning a marble of its colours into the cost's
    colour; a double gizmo: one unit per colour, a marble of that colour counting two), each unit used once."""
    units = [("convert", c.effect.colours) for c in converters if c.effect.kind == "convert" for _ in range(c.effect.uses)]
    units += [("double", (x,)) for c in converters if c.effect.kind == "double" for x in c.effect.colours]
    marbles = [x for x, n in zip(gizmos.COLOURS, spent) for _ in range(n)]

    def best(k: int, free: frozenset[int]) -> int:  # the most marbles k, k+1, ... can make with the units free
        if k == len(marbles):
            return 0
        marble = marbles[k]
        plain = int(colour in ("any", marble))
        found = plain + best(k + 1, free)
        for u in free:
            kind, colours = units[u]
            if marble in colours:
                worth = 2 * plain if kind == "double" else 1
                found = max(found, worth + best(k + 1, free - {u}))
        return found

    return best(0, frozenset(range(len(units)))) >= need


def test_payment_plans_are_the_least_spendings_that_pay_by_the_rules() -> None:
    """Every plan pays and wastes no marble, and every such spending is a plan, in ascending order: checked against a
    search over every way of using the converters, for random storages, costs and converter sets (a spending of more
    marbles than the cost always wastes one: each marble of a plan counts at least one)."""
    for source in ("elinia", "mirondorin"):
        rules = Game(card_source=source).rules
        converters = [c for c in rules.deck if c.type == "converter"]
        rng = np.random.default_rng(7)
        for _ in range(60):
            picked = rng.choice(len(converters), int(rng.integers(1, 4)), replace=False)
            cards = tuple(sorted((converters[int(i)] for i in picked), key=lambda c: c.id))
            energy = tuple(int(n) for n in rng.integers(0, 4, size=4))
            colour, need = str(rng.choice([*gizmos.COLOURS, "any"])), int(rng.integers(1, 5))
            expected = []
            for spent in itertools.product(*(range(min(n, need) + 1) for n in energy)):
                lighter = [spent[:i] + (spent[i] - 1,) + spent[i + 1:] for i in range(4) if spent[i]]
                if 0 < sum(spent) <= need and _pays_by_rules(spent, colour, need, cards) and not any(
                        _pays_by_rules(s, colour, need, cards) for s in lighter):
                    expected.append(spent)
            plans = gizmos.payment_plans(energy, colour, need, cards)
            assert [spent for spent, _ in plans] == expected, (energy, colour, need, [c.id for c in cards])
            for spent, used in plans:
                assert set(used) <= {c.id for c in cards} and gizmos.pay_with(spent, colour, need, cards) == used


def _random_holdings(seed: int, count: int, least: int, below: int):
    """For each card source, ``count`` random holdings: ``least`` to ``below - 1`` of its converters (in id order), four
    colours' marbles (0 to 5 each), and the generator that drew them, to draw the rest of a case from."""
    for source in ("elinia", "mirondorin"):
        converters = [c for c in Game(card_source=source).rules.deck if c.type == "converter"]
        rng = np.random.default_rng(seed)
        for _ in range(count):
            picked = rng.choice(len(converters), int(rng.integers(least, below)), replace=False)
            cards = tuple(sorted((converters[int(i)] for i in picked), key=lambda c: c.id))
            yield cards, tuple(int(n) for n in rng.integers(0, 6, size=4)), rng


def test_payment_plans_name_the_converters_pay_with_uses() -> None:
    """Each plan's converters are those :func:`pay_with` finds by its matching (one-colour costs name them without it
    when every convert gizmo takes one colour or all four): random sets of up to six converters, in id order and not."""
    for k, (cards, energy, rng) in enumerate(_random_holdings(11, 800, 1, 7)):
        if k % 5 == 0:
            cards = tuple(cards[int(i)] for i in rng.permutation(len(cards)))
        colour, need = str(rng.choice(gizmos.COLOURS)), int(rng.integers(1, 8))
        for spent, used in gizmos.payment_plans(energy, colour, need, cards):
            assert gizmos.pay_with(spent, colour, need, cards) == used, (energy, colour, need, spent)


def test_a_cost_within_reach_has_a_plan_unless_a_convert_gizmo_takes_several_colours() -> None:
    """The engine answers "is any Build legal" by the reach alone when no convert gizmo takes two colours or more (and
    for multicolour cards): there, a cost within the reach has a payment plan (and one beyond it never has)."""
    from coffeegames.gizmos.payment import _help, _reaches

    for cards, energy, rng in _random_holdings(13, 3000, 0, 6):
        colour, need = str(rng.choice([*gizmos.COLOURS, "any"])), int(rng.integers(0, 9))
        aid = _help(cards)
        within = _reaches(energy, aid)[[*gizmos.COLOURS, "any"].index(colour)] >= need
        if sum(aid[0]) == aid[2] or colour == "any":
            assert within == bool(gizmos.payment_plans(energy, colour, need, cards)), (energy, colour, need)
        elif not within:
            assert not gizmos.payment_plans(energy, colour, need, cards)


def test_the_converters_helping_a_colour_make_the_same_plans_as_all() -> None:
    """The engine searches and memoises a card's plans with the converters that can help pay for its colour only: the
    plans are those of every converter the player may use."""
    from coffeegames.gizmos.payment import _helping

    colours = [*gizmos.COLOURS, "any"]
    for cards, energy, rng in _random_holdings(17, 1500, 0, 7):
        at, need = int(rng.integers(0, 5)), int(rng.integers(0, 9))
        helping, ids = _helping(cards)[at]
        assert ids == tuple(c.id for c in helping) and set(helping) <= set(cards)
        assert gizmos.payment_plans(energy, colours[at], need, helping) == gizmos.payment_plans(energy, colours[at], need, cards)


def test_converters_and_discounts_make_payment_plans() -> None:
    rules = Game().rules
    convert, double, any_ = (rules.card(i) for i in (36, 40, 108))  # red -> any; 1 black as 2; any -> any
    assert gizmos.payment_plans((1, 0, 0, 0), "blue", 1, (convert,)) == (((1, 0, 0, 0), (36,)),)
    assert gizmos.payment_plans((1, 0, 0, 0), "blue", 1, ()) == ()
    assert gizmos.payment_plans((0, 0, 2, 0), "black", 2, (double,)) == (((0, 0, 1, 0), (40,)),)
    plans = dict(gizmos.payment_plans((1, 1, 0, 1), "blue", 2, (convert, any_)))
    assert plans == {(1, 1, 0, 0): (36,), (0, 1, 0, 1): (108,), (1, 0, 0, 1): (36, 108)}
    assert gizmos.payment_plans((3, 2, 2, 0), "any", 7, ()) == (((3, 2, 2, 0), ()),)
    assert gizmos.build_cost(rules.card(60), "archive", (rules.card(86), rules.card(110))) == 1  # 3 - archive - level II
    assert gizmos.build_cost(rules.card(60), "display", (rules.card(88),)) == 3
    assert gizmos.build_cost(rules.card(4), "research", (rules.card(88),)) == 0
    # in the engine: a Build lists each distinct set of marbles once
    s = position((PlayerState(energy=(1, 1, 0, 1), built=(0, 36, 108)), PlayerState(built=(1,))),
                 display=((4, 5, 6, 7), (42, 43, 44), (94, 95)))
    builds = [a for a in s.legal_actions() if isinstance(a, Build) and a.card == 5]
    assert len(builds) == len({a.paid for a in builds}) == 3  # card 5: blue, cost 1: blue, red (36) or yellow (108)


def test_converters_once_a_turn_by_default_once_a_build_in_version_1() -> None:
    me = PlayerState(energy=(1, 0, 0, 0), built=(0, 36))
    s = position((me, PlayerState(built=(1,))), todo=(Step(Phase.CHOOSE, 1),), research=(4, 5, 6), used=(36,),
                 display=((8, 9, 10, 11), (68, 69, 70), (92, 93)))
    assert s.rules.converters_per == "turn" and s.rules.rules_version == 2
    assert [c.id for c in s.converters()] == [] and not any(isinstance(a, Build) for a in s.legal_actions())
    per_build = dataclasses.replace(s, rules=Game(rules_version=1).rules)
    assert per_build.rules.converters_per == "build"
    assert Build(5, "research", (1, 0, 0, 0), (36,)) in per_build.legal_actions(), "36 (red as any) again in this Build"


def _drawn(state: State, card: int) -> State:
    """``state`` after chance draws ``card``."""
    return state.apply(next(outcome for outcome, _ in state.chance_outcomes() if outcome == Card(card)))


@pytest.mark.parametrize("version, builds", [(2, 0), (1, 3)])
def test_every_gizmo_is_used_once_a_turn_converters_too(version: int, builds: int) -> None:
    """The rulebook (gizmos.ko.txt): "모든 기즈모는 한 차례에 한 번만 사용" (every gizmo is used only once a turn).

    Counted by hand: red energy 2; 36 lets one red count as any colour, 103 researches when a red or yellow gizmo
    is built. Build yellow 4 (cost 1) with one red through 36; 103 fires, Research level I draws 5, 10 and 14
    (blue, cost 1 each). One red is left and none of the three is red: once a turn (version 2) 36 is spent and no
    Build is legal; once a Build (version 1, the old default) 36 changes the red again, so each of the 3 can be built.
    """
    me = PlayerState(energy=(2, 0, 0, 0), built=(0, 36, 103))
    s = position((me, PlayerState(built=(1,))), display=((4, 9, 11, 13), (68, 69, 70), (92, 93)))
    s = dataclasses.replace(s, rules=Game(rules_version=version).rules)
    s = _drawn(s.apply(Build(4, "display", (1, 0, 0, 0), (36,))), 20)
    assert s.ready == (103,)
    s = s.apply(Fire(103)).apply(Research(1))
    for card in (5, 10, 14):
        s = _drawn(s, card)
    assert s.phase == Phase.CHOOSE and s.research == (5, 10, 14) and s.players[0].energy == (1, 0, 0, 0)
    legal = [a for a in s.legal_actions() if isinstance(a, Build)]
    assert sorted(a.card for a in legal) == [5, 10, 14][:builds]
    assert all(a.paid == (1, 0, 0, 0) and a.converters == (36,) for a in legal)


def test_the_multicolour_card_counts_as_every_colour_and_scores_by_its_rule() -> None:
    me = PlayerState(energy=(2, 2, 2, 1), built=(0, 4, 5, 6, 7, 12, 16))  # 4-7: building blue/black/red/yellow -> 1 token
    s = position((me, PlayerState(built=(1,))), row=(1, 1, 1, 1), display=((8, 9, 10, 11), (42, 43, 44), (82, 95)))
    s = s.apply(Build(82, "display", (2, 2, 2, 1)))
    assert s.is_chance()
    s = s.apply(s.chance_outcomes()[0][0])
    assert s.ready == (4, 5, 6, 7)
    for g in (4, 5, 6, 7):
        s = s.apply(Fire(g))
    final = dataclasses.replace(s, players=(dataclasses.replace(s.players[0], energy=(3, 0, 0, 0)), s.players[1]))
    # printed points 1 each (4-7, 12, 16) + 0 (82) + 4 tokens + 3 energy stored (82's rule)
    assert final.score(0) == 6 + 4 + 3


def test_the_end_and_the_tie_breaks() -> None:
    a = PlayerState(energy=(1, 0, 0, 0), built=(0, 4))
    b = PlayerState(energy=(0, 0, 0, 0), built=(1, 5))
    s = position((a, b), turn=1, ending=True)
    assert s.score(0) == s.score(1) == 1
    end = s.apply(Pick("red")).apply(Marble("red"))
    assert end.is_terminal(), "the last seat's turn completes the round"
    # equal points and gizmos: seat 1 has 1 energy too, so seat 1 (furthest from the first player) wins
    assert end.standings() == [1, 0] and end.returns() == (0, 1)
    more_gizmos = position((PlayerState(built=(0, 4, 12)), PlayerState(tokens=1, built=(1, 5))), over=True, todo=())
    assert more_gizmos.score(0) == more_gizmos.score(1) == 2 and more_gizmos.returns() == (1, 0)
    more_energy = position((PlayerState(energy=(0, 1, 0, 0), built=(0, 4)), PlayerState(built=(1, 5))), over=True, todo=())
    assert more_energy.returns() == (1, 0)
    points = Game(players=2, payoff="points")
    assert dataclasses.replace(more_energy, rules=points.rules).returns() == (1, 1)


def test_a_player_reaching_the_end_in_seat_0_lets_the_others_play() -> None:
    me = PlayerState(energy=(0, 4, 0, 0), built=(0, 76, 77, 78))  # three level-III gizmos
    s = position((me, PlayerState(built=(1,))), display=((4, 5, 6, 7), (42, 43, 44), (79, 95)))
    s = s.apply(Build(79, "display", (0, 4, 0, 0)))
    s = s.apply(s.chance_outcomes()[0][0])
    assert s.ending and s.turn == 1 and not s.is_terminal()
    s = s.apply(Pick("red")).apply(Marble("red"))
    assert s.is_terminal()


# -- illegal moves and bad saves ----------------------------------------------------------------

def test_illegal_actions_are_refused_and_change_nothing() -> None:
    s = position((PlayerState(built=(0,)), PlayerState(built=(1,))))
    before = s.to_json()
    for move in (Pick("green"), Build(5, "display", (0, 0, 0, 0)), Fire(0), Research(4), File(111), Marble("red"), None):
        with pytest.raises(IllegalAction):
            s.apply(move)
    assert s.to_json() == before
    chance = s.apply(Research(1))
    with pytest.raises(IllegalAction):
        chance.apply(Card(50))  # a level-II card cannot come off the level-I deck
    with pytest.raises(IllegalAction):
        chance.apply(Card(s.display[0][0]))  # a card on the display is not in the deck


def test_malformed_saves_are_refused_naming_the_field() -> None:
    game = Game(players=2)
    s = game.new_initial_state(seed=4)
    text = json.loads(s.to_json())
    for change, field in (
        (lambda d: d["state"].update(row=[3, 1, 1, 1]), "dispenser"),
        (lambda d: d["state"]["players"][0].update(archive=[5, 6]), "archive"),
        (lambda d: d["state"].update(display=[[4], [], []]), "decks"),
        (lambda d: d["state"].update(todo=[{"phase": "dance", "level": 0}]), "todo"),
        (lambda d: d["state"].update(ready=[50]), "ready"),
        (lambda d: d["state"].pop("over"), "over"),
    ):
        bad = json.loads(json.dumps(text))
        change(bad)
        with pytest.raises(BadData, match=field):
            game.state_from_json(json.dumps(bad))


def test_a_saved_walkthrough_comes_back_under_its_options() -> None:
    from coffeegames.engine import Walkthrough

    game = Game(players=3, card_source="mirondorin")
    walk = Walkthrough(game.new_initial_state(), seed=2)
    for _ in range(60):
        walk.step(None if walk.state.is_chance() else walk.state.legal_actions()[0])
    again, loaded = gizmos.load_walkthrough(walk.to_json(game))
    assert again.options == game.options and loaded.states == walk.states


def test_the_random_policy_draws_a_main_action_from_the_legal_ones_and_apply_still_checks_every_move() -> None:
    """The random policy draws a main action without listing every Build (``State._draw_legal``): the action it draws
    is one of ``legal_actions()``, drawing leaves the position equal, and ``apply`` still refuses an illegal move."""
    from coffeegames.engine import random_policy

    game = Game(players=3)
    bot, chance = random_policy(np.random.default_rng(4)), np.random.default_rng(5)
    seen = 0
    for _ in range(3):
        s = game.new_initial_state()
        while not s.is_terminal() and seen < 400:
            if s.is_chance():
                s = s.apply(s.sample_chance(chance))
                continue
            fresh = s._with()  # the same position, no cache: nothing the draw left on ``s``
            before = s.to_json()
            action = bot(s)
            assert s.to_json() == before and s == fresh and hash(s) == hash(fresh)
            assert action in fresh.legal_actions()
            if s.phase == Phase.ACTION:
                seen += 1
                illegal = Build(card=111, source="display", paid=(1, 0, 0, 0))
                if illegal not in fresh.legal_actions():
                    with pytest.raises(IllegalAction):
                        s.apply(illegal)
            s = s.apply(action)
    assert seen > 100


def test_the_engines_own_draws_are_the_policys_draws_from_the_whole_list() -> None:
    """Where the engine draws for the random policy itself (a main action; gizmos waiting to fire), it draws the action
    the policy draws from the whole list of ``legal_actions()`` with the same numbers (a kind uniformly, then an action
    of it); and a research's choice listed before its copy is the list the position gives."""
    from coffeegames.engine import random_policy
    from coffeegames.exact.draws import uniform_below

    def from_the_list(legal: list[Any], below: Any) -> Any:  # the policy's draw over the whole list, written out
        kinds = list(dict.fromkeys(map(type, legal)))
        kind = kinds[0] if len(kinds) == 1 else kinds[below(len(kinds))]
        options = [a for a in legal if type(a) is kind]
        return options[below(len(options))]

    game = Game(players=3)
    chance = np.random.default_rng(8)
    seen: Counter[str] = Counter()
    for seed in range(4):
        bot, below = random_policy(np.random.default_rng([9, seed])), uniform_below(np.random.default_rng([9, seed]))
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance():
                s = s.apply(s.sample_chance(chance))
                continue
            fresh = s._with()  # the same position, nothing cached
            if "_legal" in s.__dict__:
                assert list(s.__dict__["_legal"]) == fresh.legal_actions()
            action = bot(s)
            assert action == from_the_list(fresh.legal_actions(), below)
            seen[str(s.phase)] += 1
            s = s.apply(action)
    assert seen["action"] > 100 and seen["triggers"] > 20 and seen["choose"] > 10
