"""Coffee Rush's engine against the rules (docs/rules/rush.md), with brute forces written from the rules.

Positions are set up through the public API: a scripted setup (chance outcomes given
like actions), then ``dataclasses.replace`` on the frozen state and player records for
the situation a test needs.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from itertools import product

import numpy as np
import pytest

from coffeegames import rush
from coffeegames.errors import BadArgument, BadData, CoffeeGamesError, IllegalAction
from coffeegames.rush import Drawn, Empty, Game, Move, NoUpgrade, Phase, Place, Pour, Upgrade

BOARD = rush.load_board()
SETUP_ORDERS = ["coffee+milk", "coffee+ice", "coffee+coffee", "coffee+steam", "milk+steam", "ice+milk", "ice+steam",
                "coffee+water", "coffee+milk"]


def deal_all(state: rush.State, orders: list[str]) -> rush.State:
    for order in orders:
        state = state.apply(Drawn(order))
    return state


def started(players: int = 3, spaces: tuple[int, ...] | None = None, **options: object) -> rush.State:
    """Setup dealt (two-ingredient orders without tea) and meeples placed on ``spaces`` in placing order: player 0
    to move."""
    game = Game(players=players, **options)
    s = game.new_initial_state()
    s = deal_all(s, SETUP_ORDERS[:len(s.deals)])
    order = rush.placement_order(players)
    for space in spaces or tuple(range(15, 15 - len(order), -1)):
        s = s.apply(Place(space))
    assert s.phase == Phase.MOVE and s.player == 0
    return s


def complete_all(s: rush.State) -> rush.State:
    """Step 4 (a choice since rules version 2): complete with every matching cup, the first choice listed."""
    if s.phase == Phase.COMPLETE:
        assert s.legal_actions()[-1] == rush.Complete(())  # completing nothing is always a choice
        return s.apply(s.legal_actions()[0])
    return s


def with_player(s: rush.State, who: int, **changes: object) -> rush.State:
    players = list(s.players)
    players[who] = replace(players[who], **changes)
    return replace(s, players=tuple(players))


def random_game(players: int, seed: int) -> list[rush.State]:
    rng = np.random.default_rng(seed)
    s = Game(players=players).new_initial_state(seed=seed)
    states = [s]
    while not s.is_terminal():
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            s = s.apply(legal[int(rng.integers(len(legal)))])
        states.append(s)
        assert len(states) < 20_000
    return states


# -- whole games --------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_games_finish_and_conserve_orders_and_rush_tokens(players: int, seed: int) -> None:
    states = random_game(players, seed)
    for s in states:
        cards = sum(s.deck) + sum(len(p.orders) + len(p.completed) + len(p.penalties) + len(p.discarded) for p in s.players)
        assert cards == 80
        assert s.supply + sum(p.rush for p in s.players) == 15
        assert s.check() is s
    end = states[-1]
    assert end.closed and end.phase == Phase.OVER
    assert end.returns() == tuple(len(p.completed) + 2 * len(p.upgrades) - len(p.penalties) for p in end.players)
    # the game ends after the last player's turn: every player had the same number of turns
    turns = Counter(a.player for a, b in zip(states, states[1:]) if a.phase in (Phase.MOVE,) and b.phase != Phase.MOVE)
    assert len(set(turns.values())) == 1 and set(turns) == set(range(players))


def test_setup_deals_and_places_counter_clockwise() -> None:
    assert rush.placement_order(4) == (3, 2, 1, 0)
    assert rush.placement_order(3) == (2, 1, 0)
    assert rush.placement_order(2) == (1, 0, 1, 0)
    s = Game(players=4).new_initial_state(seed=5)
    assert [tuple(len(t) for t in p.tabs) for p in s.players] == [(2, 1, 0, 0)] + [(1, 1, 0, 0)] * 3
    assert sum(s.deck) == 80 - 9
    s = started(4, spaces=(0, 5, 10, 15))
    assert [p.meeples for p in s.players] == [(15,), (10,), (5,), (0,)]
    assert [p.cups[0] for p in s.players] == [(BOARD.spaces[15],), (BOARD.spaces[10],), (BOARD.spaces[5],), (BOARD.spaces[0],)]
    two = started(2, spaces=(0, 1, 2, 3))
    assert two.players[1].meeples == (0, 2) and two.players[0].meeples == (1, 3)
    assert two.players[0].cups == ((BOARD.spaces[1],), (BOARD.spaces[3],), ())


# -- paths ----------------------------------------------------------------------------------

def brute_paths(rows: int, cols: int, start: int, blocked: set[int], steps: int, diagonal: bool) -> set[tuple[int, ...]]:
    """Every sequence of compass directions, walked on the grid; kept if it stays on the board, never re-enters a
    space (or the start) and does not end on a blocked space."""
    directions = [(0, 1), (1, 0), (0, -1), (-1, 0)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonal else [])
    found = set()
    for length in range(1, steps + 1):
        for walk in product(directions, repeat=length):
            r, c = divmod(start, cols)
            seen, path = {start}, []
            for dr, dc in walk:
                r, c = r + dr, c + dc
                if not (0 <= r < rows and 0 <= c < cols) or r * cols + c in seen:
                    break
                seen.add(r * cols + c)
                path.append(r * cols + c)
            else:
                if path[-1] not in blocked:
                    found.add(tuple(path))
    return found


@pytest.mark.parametrize("start, blocked, steps, diagonal", [
    (0, set(), 3, False), (5, {6, 9}, 3, False), (15, {14, 11, 10}, 4, False), (6, {1, 2}, 5, False),
    (5, {0, 10}, 3, True), (0, set(), 2, True),
])
def test_paths_match_a_brute_force_over_directions(start: int, blocked: set[int], steps: int, diagonal: bool) -> None:
    got = rush.paths(BOARD, start, frozenset(blocked), steps, diagonal=diagonal)
    assert len(got) == len(set(got))
    assert set(got) == brute_paths(4, 4, start, blocked, steps, diagonal)


def test_moves_pass_but_never_end_on_a_meeple_and_rush_tokens_add_steps() -> None:
    s = started(3, spaces=(1, 4, 0))  # player 0 in the corner a1, players 1 and 2 on a2 and b1
    moves = s.legal_actions()
    assert all(m.path[-1] not in (1, 4) for m in moves)
    assert Move(0, (1, 2), 0) in moves and Move(0, (4, 8), 0) in moves  # passing over a meeple
    assert max(len(m.path) for m in moves) == 3 and all(m.rush == 0 for m in moves)
    rich = with_player(s, 0, rush=2)
    rich = replace(rich, supply=13)
    longer = rich.legal_actions()
    assert max(len(m.path) for m in longer) == 5
    assert all(m.rush == max(0, len(m.path) - 3) for m in longer)
    after = rich.apply(next(m for m in longer if m.rush == 2))
    assert after.players[0].rush == 0 and after.supply == 15
    one = replace(with_player(s, 0, rush=1), supply=14)  # one token: at most one extra step
    assert max(len(m.path) for m in one.legal_actions()) == 4


def test_a_move_collects_every_space_entered() -> None:
    s = started(3, spaces=(15, 14, 0))
    move = Move(0, (1, 5, 6), 0)
    after = s.apply(move)
    assert after.collected == tuple(sorted(BOARD.spaces[i] for i in (1, 5, 6)))
    assert after.players[0].meeples == (6,)
    assert after.phase == Phase.EMPTY  # the first ingredient is in cup 1


def test_two_players_move_one_meeple_and_their_own_meeple_blocks() -> None:
    s = started(2, spaces=(0, 5, 1, 6))  # player 1 on a1, b1; player 0 on b2, c2
    moves = s.legal_actions()
    assert {m.meeple for m in moves} == {0, 1}
    assert all(m.path[-1] not in (0, 5, 1, 6) for m in moves)
    assert Move(0, (6, 7), 0) in moves and Move(0, (6,), 0) not in moves  # passes over its own meeple, never ends there
    after = s.apply(Move(1, (2,), 0))
    assert after.players[0].meeples == (5, 2)


# -- pours -----------------------------------------------------------------------------------

def brute_pours(cups: tuple[tuple[str, ...], ...], collected: tuple[str, ...], capacity: int) -> set[tuple[tuple[str, ...], ...]]:
    """Each collected token sent to a cup or back (every assignment), kept when no cup overflows, as cups after."""
    results = set()
    for targets in product(range(len(cups) + 1), repeat=len(collected)):
        after = [list(c) for c in cups]
        for token, target in zip(collected, targets):
            if target < len(cups):
                after[target].append(token)
        if all(len(c) <= capacity for c in after):
            results.add(tuple(tuple(sorted(c)) for c in after))
    return results


@pytest.mark.parametrize("cups, collected", [
    (((), (), ()), ("coffee", "milk", "steam")),
    ((("milk",), (), ("ice", "ice", "tea")), ("coffee", "coffee", "ice")),
    ((("coffee",), ("milk",), ()), ("milk", "milk", "milk", "steam", "water")),
])
def test_pours_are_every_distinct_assignment_and_never_mix_cups(cups: tuple, collected: tuple) -> None:
    listed = rush.pours(cups, collected, 4)
    after = [tuple(tuple(sorted(c + a)) for c, a in zip(cups, added)) for added in listed]
    assert len(set(after)) == len(after)  # each distinct pour once
    assert set(after) == brute_pours(cups, collected, 4)
    for added in listed:  # nothing leaves a cup; what is poured came from the move
        assert sum((Counter(a) for a in added), Counter()) <= Counter(collected)
    # the order seeded games rest on: by ingredient in name order, the most into cup 1 first, then cup 2, ...
    kinds = sorted(set(collected))
    keys = [tuple(tuple(a.count(k) for a in added) for k in kinds) for added in listed]
    assert keys == sorted(keys, reverse=True)


def test_completing_needs_an_exact_match_and_takes_the_highest_tab() -> None:
    s = started(3, spaces=(15, 14, 0))
    s = with_player(s, 0, tabs=(("coffee+milk",), (), ("coffee+milk",), ("coffee+milk+milk",)), cups=((), (), ()))
    s = s.apply(Move(0, (1, 2, 6), 0))  # milk, steam, coffee
    assert s.collected == ("coffee", "milk", "steam") and s.phase == Phase.POUR
    over = s.apply(Pour((("coffee", "milk", "steam"), (), ())))  # one too many: no order
    assert over.players[0].completed == () and over.players[0].cups[0] == ("coffee", "milk", "steam")
    exact = complete_all(s.apply(Pour((("coffee", "milk"), (), ()))))
    p = exact.players[0]
    assert p.completed == ("coffee+milk",) and p.cups[0] == ()
    assert exact.deals == ((1, 0), (2, 0))  # Too Many Orders pending; Flow of Time after the deals
    assert p.tabs == (("coffee+milk",), (), (), ("coffee+milk+milk",))  # the one on tab 3 was completed


def test_specialty_orders_give_a_rush_token() -> None:
    s = started(3, spaces=(15, 14, 4))  # player 0 on a2, next to tea on b2
    s = with_player(s, 0, tabs=(("milk+tea",), (), (), ()), cups=((), (), ()))
    s = s.apply(Move(0, (5, 1), 0))  # tea, milk
    s = complete_all(s.apply(Pour((("milk", "tea"), (), ()))))
    assert s.players[0].rush == 1 and s.supply == 14


def test_empty_returns_a_cups_contents_before_the_pour() -> None:
    s = started(3, spaces=(15, 14, 0))  # cup 1 holds coffee
    s = s.apply(Move(0, (1,), 0))
    assert set(s.legal_actions()) == {Empty(()), Empty((0,))}
    emptied = s.apply(Empty((0,)))
    assert emptied.players[0].cups[0] == () and emptied.phase == Phase.POUR


# -- Too Many Orders and Flow of Time -------------------------------------------------------------

def test_too_many_orders_goes_to_the_two_on_the_left_nearer_first() -> None:
    assert rush.receivers(4, 0) == (1, 2) and rush.receivers(4, 3) == (0, 1)
    assert rush.receivers(3, 2) == (0, 1) and rush.receivers(2, 1) == (0,)
    s = started(4, spaces=(15, 14, 13, 0))
    s = with_player(s, 0, tabs=(("coffee+milk", "coffee+milk"), (), (), ()), cups=(("coffee",), ("coffee",), ()))
    s = complete_all(s.apply(Move(0, (1, 2, 6), 0)).apply(Empty(())).apply(Pour((("milk",), (), ()))))
    assert s.players[0].completed == ("coffee+milk",) and s.deals == ((1, 0), (2, 0))
    s = deal_all(s, ["ice+tea", "milk+tea"])
    assert s.players[1].tabs[0][-1] == "ice+tea" and s.players[2].tabs[0][-1] == "milk+tea"
    assert s.phase != Phase.RUSH_ORDERS and s.player == 1


def test_a_short_deck_deals_what_remains_in_order_and_closes() -> None:
    s = started(3, spaces=(15, 14, 0))
    left = {"ice+tea": 1}
    deck = tuple(left.get(k, 0) for k in s.rules.deck.kinds)
    s = replace(s, deck=deck)
    s = with_player(s, 0, tabs=(("coffee+milk",), ("coffee+milk",), (), ()), cups=(("coffee",), ("coffee",), ()))
    s = complete_all(s.apply(Move(0, (1, 5, 4), 0)).apply(Empty(())).apply(Pour((("milk",), ("milk",), ()))))
    assert len(s.players[0].completed) == 2 and s.deals == ((1, 0), (1, 0), (2, 0), (2, 0))
    s = s.apply(Drawn("ice+tea"))
    assert s.closed and s.deals == () and s.players[1].tabs[0][-1] == "ice+tea"
    assert s.player == 1  # play goes on to the end of the round


def test_flow_of_time_moves_orders_down_and_penalises_tab_four() -> None:
    s = started(3, spaces=(15, 14, 0))
    s = with_player(s, 0, tabs=(("coffee+milk",), ("ice+tea",), ("milk+tea",), ("coffee+coffee", "coffee+ice")),
                    cups=((), (), ()))
    s = s.apply(Move(0, (1,), 0)).apply(Pour(((), (), ())))
    p = s.players[0]
    assert p.tabs == ((), ("coffee+milk",), ("ice+tea",), ("milk+tea",))
    assert p.penalties == ("coffee+coffee", "coffee+ice") and p.rush == 2 and s.supply == 13
    assert s.player == 1 and s.phase == Phase.MOVE


def test_two_players_take_an_extra_order_every_turn() -> None:
    s = started(2, spaces=(0, 5, 10, 15))
    s = s.apply(Move(0, (4,), 0)).apply(Empty(())).apply(Pour(((), (), ())))
    assert s.phase == Phase.EXTRA_ORDER and s.deals == ((0, 0),)
    s = s.apply(Drawn("ice+tea"))
    assert s.players[0].tabs[0] == ("ice+tea",) and s.player == 1


# -- the end ------------------------------------------------------------------------------------------

def finish_turn(s: rush.State, order: str = "ice+tea") -> rush.State:
    """Play the current player's turn returning everything (no completion), drawing ``order`` if chance asks."""
    me = s.player
    while s.player == me and not s.is_terminal():
        if s.is_chance():
            s = s.apply(Drawn(order))
        elif s.phase == Phase.UPGRADE:
            s = s.apply(NoUpgrade())
        elif s.phase == Phase.MOVE:
            s = s.apply(s.legal_actions()[0])
        elif s.phase == Phase.EMPTY:
            s = s.apply(Empty(()))
        else:
            s = s.apply(Pour(tuple(() for _ in s.players[me].cups)))
    return s


def test_five_penalties_close_the_game_and_the_round_is_finished() -> None:
    s = started(3, spaces=(15, 14, 0))
    s = with_player(s, 0, penalties=("coffee+milk",) * 4)  # (conservation aside: only the rule is tested)
    s = with_player(s, 0, tabs=((), (), (), ("coffee+milk",)))
    s = finish_turn(s)
    assert s.closed and s.player == 1 and not s.is_terminal()
    s = finish_turn(s)
    assert s.player == 2 and not s.is_terminal()
    s = finish_turn(s)
    assert s.is_terminal() and len(s.returns()) == 3


@pytest.mark.parametrize("trigger, turns_after", [(0, 1), (1, 0)])
def test_two_player_deck_exhaustion_endings(trigger: int, turns_after: int) -> None:
    """The extra order empties the deck: by the start player the opponent plays a last turn; by the other, it ends."""
    s = started(2, spaces=(0, 5, 10, 15))
    if trigger == 1:
        s = finish_turn(s)
    deck = tuple(1 if k == "ice+tea" else 0 for k in s.rules.deck.kinds)
    s = replace(s, deck=deck)
    s = finish_turn(s)
    assert s.closed and sum(s.deck) == 0
    assert s.is_terminal() == (turns_after == 0)
    if turns_after:
        assert s.player == 1
        assert finish_turn(s).is_terminal()


def test_upgrades_discard_three_completed_and_take_effect() -> None:
    s = started(3, spaces=(15, 14, 0))
    s = replace(with_player(s, 0, completed=("coffee+milk",) * 4), phase=Phase.UPGRADE)
    legal = s.legal_actions()
    assert legal == [Upgrade("Diagonal"), Upgrade("Double shot"), Upgrade("Long stride"), Upgrade("Extra cup"), NoUpgrade()]
    diag = s.apply(Upgrade("Diagonal"))
    p = diag.players[0]
    assert p.completed == ("coffee+milk",) and p.discarded == ("coffee+milk",) * 3 and p.upgrades == ("Diagonal",)
    assert Move(0, (5,), 0) in diag.legal_actions() and Move(0, (5,), 0) not in s.apply(NoUpgrade()).legal_actions()
    assert rush.score(p) == 1 + 2
    cup = s.apply(Upgrade("Extra cup"))
    assert len(cup.players[0].cups) == 4
    stride = s.apply(Upgrade("Long stride"))
    assert max(len(m.path) for m in stride.legal_actions()) == 4
    double = s.apply(Upgrade("Double shot")).apply(Move(0, (1,), 0))
    assert double.collected == ("milk", "milk")


# -- refusals -------------------------------------------------------------------------------------------

def test_illegal_moves_raise_and_change_nothing() -> None:
    s = started(3, spaces=(1, 4, 0))
    before = s.to_json()
    for bad in [Move(0, (1,), 0), Move(0, (5,), 0), Move(0, (2, 3, 7, 11), 0), Move(1, (2,), 0), Pour(((), (), ())),
                Drawn("coffee+milk"), Place(9), Upgrade("Diagonal"), "nonsense"]:
        with pytest.raises(IllegalAction):
            s.apply(bad)
        assert s.to_json() == before
    moved = s.apply(Move(0, (1, 2), 0))
    with pytest.raises(IllegalAction):
        moved.apply(Empty((1,)))  # cup 2 is empty
    chance = started(3, spaces=(15, 14, 0))
    chance = with_player(chance, 0, tabs=(("coffee+milk",), (), (), ()), cups=((), (), ()))
    chance = complete_all(chance.apply(Move(0, (1, 2, 6), 0)).apply(Pour((("coffee", "milk"), (), ()))))
    empty_kind = replace(chance, deck=tuple(0 if k == "ice+tea" else n for k, n in zip(chance.rules.deck.kinds, chance.deck)))
    with pytest.raises(IllegalAction):
        empty_kind.apply(Drawn("ice+tea"))
    with pytest.raises(IllegalAction):
        chance.apply(Drawn("tea+tea"))


def test_saved_states_that_do_not_add_up_are_refused() -> None:
    s = Game(players=3).new_initial_state(seed=1)
    data = json.loads(s.to_json())
    data["state"]["deck"][0] -= 1
    with pytest.raises(BadData, match="order cards do not add up"):
        Game(players=3).state_from_json(json.dumps(data))
    data = json.loads(s.to_json())
    data["state"]["players"][0]["rush"] = 3
    with pytest.raises(BadData, match="rush tokens do not add up"):
        Game(players=3).state_from_json(json.dumps(data))


def test_malformed_data_is_refused_whole(tmp_path) -> None:
    with pytest.raises(BadData, match="rows"):
        rush.board_from_dict({"rows": [["milk", "ice"], ["ice"]], "specialty": []})
    with pytest.raises(BadData, match="specialty"):
        rush.board_from_dict({"rows": [["milk", "ice"], ["ice", "milk"]], "specialty": ["tea"]})
    with pytest.raises(BadData, match=r"orders\[0\].needs"):
        rush.orders_from_dict({"orders": [{"needs": ["milk"], "cards": 2}]})
    with pytest.raises(BadData, match="listed twice"):
        rush.orders_from_dict({"orders": [{"needs": ["milk", "ice"], "cards": 2}, {"needs": ["ice", "milk"], "cards": 1}]})
    with pytest.raises(BadData, match="cards"):
        rush.orders_from_dict({"orders": [{"needs": ["milk", "ice"], "cards": -1}]})
    with pytest.raises(BadData, match="effect"):
        rush.upgrades_from_dict({"tiles": [{"name": "Fly", "effect": "teleport"}]})
    with pytest.raises(BadData, match="unknown"):
        rush.upgrades_from_dict({"tiles": [{"name": "Fly", "effect": "diagonal", "colour": "red"}]})
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": [["milk", "ice"]', encoding="utf-8")
    with pytest.raises(BadData, match="not valid JSON"):
        Game(board=str(bad))
    with pytest.raises(BadArgument, match="needs water"):
        Game(board={"rows": [["milk", "ice"], ["coffee", "steam"]], "specialty": []})
    with pytest.raises(BadArgument, match="players"):
        Game(players=1)


def test_a_players_own_files_load(tmp_path) -> None:
    board = {"_stand_in": "mine", "rows": [["coffee", "milk", "ice"], ["milk", "tea", "coffee"], ["ice", "coffee", "milk"]],
             "specialty": ["tea"]}
    orders = {"orders": [{"needs": ["coffee", "milk"], "cards": 20}, {"needs": ["milk", "tea"], "cards": 10}]}
    (tmp_path / "board.json").write_text(json.dumps(board), encoding="utf-8")
    (tmp_path / "orders.json").write_text(json.dumps(orders), encoding="utf-8")
    game = Game(players=2, board=str(tmp_path / "board.json"), orders=str(tmp_path / "orders.json"))
    assert game.rules.board.rows == 3 and game.rules.deck.total == 30 and not game.rules.stand_in_data
    assert game.rules.table().loc["board", "value"] == "user data"
    rng = np.random.default_rng(0)
    s = game.new_initial_state(seed=0)
    while not s.is_terminal():
        s = s.apply(s.sample_chance(rng) if s.is_chance() else s.legal_actions()[int(rng.integers(len(s.legal_actions())))])
        s.check()
    assert sum(s.deck) + sum(p.cards() for p in s.players) == 30


CUPS3 = ((), ("milk",), ())
BAD_ARGUMENTS = [
    (lambda: rush.paths(BOARD, 16, frozenset(), 3), "start"),
    (lambda: rush.paths(BOARD, 0, "15", 3), "blocked"),
    (lambda: rush.paths(BOARD, 0, frozenset({"a"}), 3), "blocked"),
    (lambda: rush.paths(BOARD, 0, frozenset(), -1), "steps"),
    (lambda: rush.paths(BOARD, 0, frozenset(), 10**30), "steps"),
    (lambda: rush.paths(BOARD, 0, frozenset(), 12, diagonal=True, revisit=True), "steps"),  # billions: refused, not listed
    (lambda: rush.paths(BOARD, 0, frozenset(), 3, diagonal=1), "diagonal"),
    (lambda: rush.paths(None, 0, frozenset(), 3), "board"),
    (lambda: rush.neighbours(4, 4, 16), "space"),
    (lambda: rush.neighbours(4, 10**30, 0), "cols"),
    (lambda: rush.neighbours([4], 4, 0), "rows"),
    (lambda: rush.collected(BOARD, "12"), "path"),
    (lambda: rush.collected(BOARD, (1, 99)), "path[1]"),
    (lambda: rush.pours(CUPS3, "coffee", 4), "collected"),
    (lambda: rush.pours(CUPS3, ("coffee",) * 1000, 4), "collected"),  # too many ways to split: refused before listing
    (lambda: rush.pours(CUPS3, ("coffee",), -1), "capacity"),
    (lambda: rush.pours(((),) * 100, ("coffee",), 4), "cups"),
    (lambda: rush.empties(("milk", "ice")), "cups[0]"),
    (lambda: rush.add_to("milk", ("coffee",)), "cup"),
    (lambda: rush.add_to(("milk",), ("coffee", 3)), "ingredients[1]"),
    (lambda: rush.serve(CUPS3, "coffee+milk"), "tabs"),
    (lambda: rush.serve(None, ((),) * 4), "cups"),
    (lambda: rush.flow_of_time(()), "tabs"),
    (lambda: rush.score(None), "player"),
    (lambda: rush.order_name("coffee"), "needs"),
    (lambda: rush.order_needs(("coffee", "milk")), "order"),
    (lambda: rush.order_needs("coffee++milk"), "order"),
    (lambda: rush.order_ingredients({"milk": 10**9}), "order"),
    (lambda: rush.order_ingredients({"milk": -1}), "order"),
    (lambda: rush.load_board(3), "path"),
    (lambda: rush.placement_order(5), "players"),
    (lambda: rush.receivers(3, 3), "player"),
    (lambda: rush.check(None), "state"),
]


@pytest.mark.parametrize(("call", "name"), BAD_ARGUMENTS)
def test_the_rules_helpers_refuse_bad_arguments_by_name(call: object, name: str) -> None:
    with pytest.raises(CoffeeGamesError) as raised:
        call()  # type: ignore[operator]
    assert f"'{name}" in str(raised.value) or f'"{name}' in str(raised.value)


def test_the_checked_helpers_answer_as_the_engine_does() -> None:
    s = started()
    me = s.players[s.player]
    blocked = frozenset(x for p in s.players for x in p.meeples) - {me.meeples[0]}
    listed = rush.paths(BOARD, me.meeples[0], blocked, s.steps(s.player))
    assert [rush.Move(0, p, 0) for p in listed] == [m for m in s.moves() if not m.rush]
    assert rush.paths(BOARD, 0, [1], 2) == rush.paths(BOARD, 0, frozenset({1}), 2)  # any collection of spaces
    assert rush.collected(BOARD, [1, 5], double=True) == s.collects(Move(0, (1, 5), 0)) + ("tea",)
    assert rush.pours(list(CUPS3), ["milk", "coffee"], 2) == rush.pours(CUPS3, ("coffee", "milk"), 2)
    assert rush.add_to(["milk"], ["coffee"]) == rush.add_to(("milk",), ("coffee",)) == ("coffee", "milk")
    assert rush.serve([["coffee", "milk"]], [["coffee+milk"]]) == (((),), ((),), ("coffee+milk",))


def test_the_positions_methods_refuse_bad_arguments_by_name_and_answer_as_the_engine() -> None:
    s = started()
    bad = [(lambda: s.collects(Move(0, (1, 99), 0)), "move"), (lambda: s.collects(Move(0, "15", 0)), "move"),  # type: ignore[arg-type]
           (lambda: s.collects(Place(3)), "move"), (lambda: s.steps(len(s.players)), "player"),  # type: ignore[arg-type]
           (lambda: s.tiles_left(True), "player"), (lambda: s.can_upgrade(-1), "player"), (lambda: s.has(0, "fly"), "effect"),
           (lambda: BOARD.name(16), "space"), (lambda: s.rules.deck.index("tea+water"), "order"),
           (lambda: Move(0, (1,)).describe(0, cols=7), "cols"), (lambda: Move(0, (1,)).describe(36), "start"),
           (lambda: Game().new_initial_state(seed=-1), "seed")]
    for call, name in bad:
        with pytest.raises(CoffeeGamesError, match=f"'{name}'"):
            call()
    move = s.moves()[-1]
    assert s.apply(move).collected == s.collects(move) and s.steps(s.player) == 3 and not s.can_upgrade(s.player)
    assert s.tiles_left(s.player) == tuple(t.name for t in s.rules.tiles) and BOARD.name(15) == "d4"


def test_no_cap_on_rush_tokens_is_an_option() -> None:
    """Each rush token spent is one more step (Fact); the rules set no cap a move: ``rush_per_turn=None``."""
    for cap, longest in ((None, 3 + 4), (2, 3 + 2), (0, 3)):
        s = started(3, spaces=(15, 14, 0), rush_per_turn=cap)
        s = replace(with_player(s, 0, rush=4), supply=s.supply - 4)
        moves = s.legal_actions()
        assert max(len(m.path) for m in moves) == longest
        assert all(m.rush == max(0, len(m.path) - 3) for m in moves)
