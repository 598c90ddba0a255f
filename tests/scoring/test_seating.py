"""The seating draw (scoring.seating), one behaviour per test (no database)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from scoring.errors import SeatingError
from scoring.seating import (
    MAX_TABLE,
    Draw,
    count_repeat_meetings,
    draw_by_standings,
    draw_random,
    meetings,
    move,
    rebalance,
    swap,
    table_bounds,
    table_sizes,
)

SESSIONS = 6

Tables = tuple[tuple[int, ...], ...]


@cache
def optimised_series(player_count: int) -> tuple[tuple[Draw[int], ...], int]:
    """Six random draws at target 4, each avoiding the meetings of the ones before."""
    players = list(range(1, player_count + 1))
    draws: list[Draw[int]] = []
    for session in range(SESSIONS):
        met = meetings(draw.tables for draw in draws)
        draws.append(draw_random(players, met, seed=session))
    return tuple(draws), sum(draw.repeat_meetings for draw in draws)


def pure_random_total(player_count: int, seed: int) -> int:
    """Repeat meetings over six sessions of shuffle-and-cut, the same table sizes."""
    rng = random.Random(seed)
    players = list(range(1, player_count + 1))
    sizes = table_sizes(player_count)
    sessions: list[Tables] = []
    total = 0
    for _ in range(SESSIONS):
        rng.shuffle(players)
        starts = [sum(sizes[:index]) for index in range(len(sizes))]
        tables = tuple(
            tuple(players[start : start + size]) for start, size in zip(starts, sizes, strict=True)
        )
        total += count_repeat_meetings(tables, meetings(sessions))
        sessions.append(tables)
    return total


@cache
def pure_random_average(player_count: int) -> float:
    return sum(pure_random_total(player_count, seed) for seed in range(5)) / 5


def seated(draw: Draw[int]) -> list[int]:
    return sorted(player for table in draw.tables for player in table)


def sizes_of(draw: Draw[int]) -> tuple[int, ...]:
    return tuple(len(table) for table in draw.tables)


# table_sizes and their bounds


def test_22_players_at_4_sit_at_three_tables_of_4_then_two_of_5():
    assert table_sizes(22, 4) == (4, 4, 4, 5, 5)


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (3, (3,)),
        (4, (4,)),
        (5, (5,)),
        (6, (3, 3)),
        (7, (3, 4)),
        (8, (4, 4)),
        (9, (4, 5)),
        (10, (5, 5)),
        (11, (3, 4, 4)),
        (17, (4, 4, 4, 5)),
        (64, (4,) * 16),
        (130, (4,) * 30 + (5, 5)),
    ],
)
def test_table_sizes_of_the_examples_at_4(count, sizes):
    assert table_sizes(count, 4) == sizes


def test_the_target_defaults_to_4():
    assert table_sizes(16) == (4, 4, 4, 4)


def test_the_bounds_default_to_3_to_5_around_4():
    assert table_bounds(4) == (3, 5)


@pytest.mark.parametrize(
    ("target", "bounds"), [(2, (2, 5)), (3, (3, 5)), (5, (3, 6)), (6, (3, 7)), (8, (3, 8))]
)
def test_the_bounds_are_3_to_the_target_plus_1_at_least_5(target, bounds):
    assert table_bounds(target) == bounds


def test_9_players_sit_at_4_and_5_closer_to_the_target_than_three_tables_of_3():
    assert table_sizes(9, 4) == (4, 5)


def test_2_players_are_seated_only_when_tables_of_2_are_asked_for():
    with pytest.raises(SeatingError) as refused:
        table_sizes(2, 4)
    assert refused.value.code == "too_few_players"
    assert refused.value.params == {"low": 3, "count": 2}
    assert table_sizes(2, 4, smallest=2) == (2,)


def test_tables_of_2_asked_for_are_made_only_when_the_count_needs_them():
    assert [table_sizes(count, 4, smallest=2) for count in (5, 6, 7)] == [(5,), (3, 3), (3, 4)]


@pytest.mark.parametrize("count", range(3, 301))
def test_every_count_from_3_to_300_splits_within_3_to_5(count):
    sizes = table_sizes(count, 4)
    assert sum(sizes) == count
    assert min(sizes) >= 3
    assert max(sizes) <= 5
    assert max(sizes) - min(sizes) <= 1
    assert list(sizes) == sorted(sizes)


@pytest.mark.parametrize("count", range(3, 301))
def test_the_table_count_is_the_one_within_bounds_nearest_to_count_over_4(count):
    feasible = range(-(-count // 5), count // 3 + 1)
    nearest = min(feasible, key=lambda tables: (abs(count - tables * 4), tables))
    assert len(table_sizes(count, 4)) == nearest


ALL_TARGETS = [(count, target) for count in range(3, 201) for target in range(3, MAX_TABLE + 1)]


def test_every_target_splits_every_count_within_its_bounds():
    wrong = []
    for count, target in ALL_TARGETS:
        low, high = table_bounds(target)
        sizes = table_sizes(count, target)
        within = low <= min(sizes) and max(sizes) <= high
        if sum(sizes) != count or not within or max(sizes) - min(sizes) > 1:
            wrong.append((count, target, sizes))
    assert wrong == []


@pytest.mark.parametrize(
    ("count", "target", "sizes"), [(18, 4, (4, 4, 5, 5)), (5, 2, (2, 3)), (15, 6, (7, 8))]
)
def test_halfway_between_two_table_counts_the_fewer_tables_win(count, target, sizes):
    assert table_sizes(count, target, smallest=2, largest=8) == sizes


@pytest.mark.parametrize(
    ("count", "target", "sizes"), [(17, 8, (5, 6, 6)), (3, 8, (3,)), (9, 8, (4, 5))]
)
def test_no_table_seats_more_than_8(count, target, sizes):
    assert table_sizes(count, target) == sizes


def test_bounds_set_by_hand_that_no_split_fits_are_refused_with_a_code():
    with pytest.raises(SeatingError) as refused:
        table_sizes(5, 3, smallest=3, largest=4)
    assert refused.value.code == "no_table_split"
    assert refused.value.params == {"count": 5, "smallest": 3, "largest": 4}


@pytest.mark.parametrize(
    ("target", "smallest", "largest"), [(4, 5, 6), (4, 1, 5), (4, 3, 9), (4, 3, 3)]
)
def test_bounds_must_hold_the_target_within_2_to_8(target, smallest, largest):
    with pytest.raises(SeatingError) as refused:
        table_sizes(12, target, smallest=smallest, largest=largest)
    assert refused.value.code == "table_bounds"


@pytest.mark.parametrize("target", [1, 9])
def test_the_target_must_be_2_to_8(target):
    with pytest.raises(ValueError, match=f"must be 2–8, got {target}"):
        table_sizes(10, target)


def test_a_random_draw_keeps_within_the_bounds_asked_for():
    draw = draw_random(list(range(12)), None, seed=1, target=3, smallest=2, largest=3)
    assert sizes_of(draw) == (3, 3, 3, 3)
    by_standings = draw_by_standings(list(range(10)), 4, seed=1, smallest=3, largest=4)
    assert sizes_of(by_standings) == (3, 3, 4)


# meetings and repeat meetings


def test_meetings_count_how_often_each_pair_sat_together():
    sessions = [[(1, 2, 3), (4, 5)], [(1, 2), (3, 4, 5)]]
    assert meetings(sessions) == {
        frozenset((1, 2)): 2,
        frozenset((1, 3)): 1,
        frozenset((2, 3)): 1,
        frozenset((4, 5)): 2,
        frozenset((3, 4)): 1,
        frozenset((3, 5)): 1,
    }


def test_no_earlier_sessions_means_no_meetings():
    assert meetings([]) == {}


def test_a_pair_that_met_twice_is_one_repeat_meeting():
    met = {frozenset((1, 2)): 2, frozenset((3, 4)): 1}
    assert count_repeat_meetings([(1, 2, 3, 4)], met) == 2


# draw_random


@pytest.mark.parametrize("player_count", [17, 22, 64, 130])
def test_a_random_draw_seats_every_player_exactly_once(player_count):
    draws, _ = optimised_series(player_count)
    assert {tuple(seated(draw)) for draw in draws} == {tuple(range(1, player_count + 1))}


@pytest.mark.parametrize("player_count", [17, 22, 64, 130])
def test_a_random_draw_keeps_the_table_sizes(player_count):
    draws, _ = optimised_series(player_count)
    assert {sizes_of(draw) for draw in draws} == {table_sizes(player_count)}


@pytest.mark.parametrize("player_count", [17, 22, 64, 130])
def test_a_random_draw_reports_its_repeat_meetings(player_count):
    draws, _ = optimised_series(player_count)
    recounted = [
        count_repeat_meetings(draw.tables, meetings(earlier.tables for earlier in draws[:index]))
        for index, draw in enumerate(draws)
    ]
    assert [draw.repeat_meetings for draw in draws] == recounted


@pytest.mark.parametrize("player_count", [17, 22, 64, 130])
def test_avoiding_meetings_beats_a_pure_random_draw(player_count):
    _, total = optimised_series(player_count)
    average = pure_random_average(player_count)
    print(f"{player_count} players, {SESSIONS} sessions: {total} repeats, pure random {average}")
    assert average > 0
    assert total < average


@pytest.mark.parametrize("player_count", [64, 130])
def test_64_or_130_players_meet_nobody_twice_in_6_sessions(player_count):
    _, total = optimised_series(player_count)
    assert total == 0


def test_17_players_in_6_sessions_come_within_2_of_the_fewest_possible_repeats():
    # 4 tables (28 pairs) a session: 168 meetings among 136 pairs, so at least 32 repeat.
    _, total = optimised_series(17)
    assert 32 <= total <= 34


def test_22_players_in_6_sessions_repeat_few_meetings():
    # 38 of the 231 pairs meet per session; shuffle-and-cut repeats about 75 over 6 sessions.
    _, total = optimised_series(22)
    assert total <= 18


@pytest.mark.parametrize("player_count", [17, 22])
def test_unavoidable_repeats_are_spread_so_no_pair_meets_3_times(player_count):
    draws, _ = optimised_series(player_count)
    assert max(meetings(draw.tables for draw in draws).values()) == 2


def test_the_same_seed_gives_the_same_draw():
    met = meetings(draw.tables for draw in optimised_series(22)[0][:3])
    players = list(range(1, 23))
    assert draw_random(players, met, seed=7) == draw_random(players, met, seed=7)


def test_a_different_seed_gives_a_different_draw():
    players = list(range(1, 23))
    assert draw_random(players, {}, seed=7).tables != draw_random(players, {}, seed=8).tables


def test_the_order_the_players_come_in_does_not_change_the_draw():
    players = list(range(1, 23))
    shuffled = players[::-1]
    assert draw_random(players, {}, seed=7) == draw_random(shuffled, {}, seed=7)


def test_the_draw_keeps_its_seed():
    assert draw_random([1, 2, 3], {}, seed=42).seed == 42


def test_seat_order_at_a_table_is_drawn_too():
    orders = {draw_random([1, 2, 3, 4], {}, seed=seed).tables[0] for seed in range(24)}
    assert len(orders) >= 10


def test_a_pair_that_met_twice_and_must_meet_again_counts_1():
    met = {frozenset((1, 2)): 2}
    assert draw_random([1, 2], met, seed=0, smallest=2).repeat_meetings == 1


def test_a_random_draw_refuses_a_player_listed_twice():
    with pytest.raises(ValueError, match="player 3 is listed twice"):
        draw_random([1, 2, 3, 3], {}, seed=0)


def test_a_random_draw_refuses_fewer_players_than_the_smallest_table():
    with pytest.raises(ValueError, match="at least 3 players"):
        draw_random([1, 2], {}, seed=0)


def test_meetings_of_absent_players_are_ignored():
    met = {frozenset((1, 99)): 3}
    assert draw_random([1, 2, 3, 4], met, seed=0).repeat_meetings == 0


# draw_by_standings


def test_by_standings_the_top_4_of_16_sit_at_table_1():
    draw = draw_by_standings(list(range(1, 17)), seed=0)
    assert sorted(draw.tables[0]) == [1, 2, 3, 4]


def test_by_standings_each_table_holds_neighbouring_ranks():
    draw = draw_by_standings(list(range(1, 17)), seed=0)
    assert [sorted(table) for table in draw.tables] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
        [13, 14, 15, 16],
    ]


def test_by_standings_follows_the_ranking_not_the_ids():
    ranking = [16, 3, 9, 1, 12, 5, 7, 2]
    draw = draw_by_standings(ranking, seed=0)
    assert [sorted(table) for table in draw.tables] == [[1, 3, 9, 16], [2, 5, 7, 12]]


def test_by_standings_without_meetings_reports_no_repeats():
    assert draw_by_standings(list(range(1, 17)), seed=0).repeat_meetings == 0


def test_by_standings_swaps_the_closest_ranks_between_adjacent_tables_to_avoid_a_repeat():
    draw = draw_by_standings(list(range(1, 9)), met={frozenset((1, 2)): 1}, seed=0)
    assert ([sorted(table) for table in draw.tables], draw.repeat_meetings) == (
        [[1, 3, 4, 5], [2, 6, 7, 8]],
        0,
    )


def test_by_standings_moves_nobody_more_than_one_table_from_their_rank():
    ranking = list(range(1, 41))
    met = meetings([draw_random(ranking, {}, seed=session).tables for session in range(3)])
    draw = draw_by_standings(ranking, met=met, seed=0)
    shifts = {abs(draw.table_index(player) - (player - 1) // 4) for player in ranking}
    assert shifts == {0, 1}


def test_by_standings_with_meetings_repeats_fewer_than_the_plain_cut():
    ranking = list(range(1, 41))
    met = meetings([draw_random(ranking, {}, seed=session).tables for session in range(3)])
    plain = count_repeat_meetings([ranking[start : start + 4] for start in range(0, 40, 4)], met)
    draw = draw_by_standings(ranking, met=met, seed=0)
    print(f"by standings, 40 players after 3 sessions: {draw.repeat_meetings} vs {plain}")
    assert draw.repeat_meetings < plain


def test_by_standings_the_same_seed_gives_the_same_seat_order():
    ranking = list(range(1, 17))
    assert draw_by_standings(ranking, seed=3) == draw_by_standings(ranking, seed=3)


def test_by_standings_seat_order_at_a_table_is_drawn():
    orders = {draw_by_standings([1, 2, 3, 4], seed=seed).tables[0] for seed in range(24)}
    assert len(orders) >= 10


# swap and move

DRAW = Draw(tables=((1, 2, 3), (4, 5), (6, 7, 8, 9, 10, 11, 12, 13)), seed=5, repeat_meetings=0)
MET = {frozenset((1, 4)): 1}


def test_a_swap_exchanges_the_seats_of_two_players():
    assert swap(DRAW, 2, 5, MET).tables == ((1, 5, 3), (4, 2), DRAW.tables[2])


def test_a_swap_recounts_the_repeat_meetings():
    assert swap(DRAW, 2, 4, MET).repeat_meetings == 1


def test_a_swap_keeps_the_seed():
    assert swap(DRAW, 2, 4, MET).seed == 5


def test_a_swap_leaves_the_original_draw_alone():
    swap(DRAW, 2, 4, MET)
    assert DRAW.tables == ((1, 2, 3), (4, 5), (6, 7, 8, 9, 10, 11, 12, 13))


def test_a_swap_refuses_an_unknown_player():
    with pytest.raises(ValueError, match="player 99 is not seated in this draw"):
        swap(DRAW, 1, 99, MET)


def test_a_swap_refuses_a_player_with_themselves():
    with pytest.raises(ValueError, match="two different players"):
        swap(DRAW, 1, 1, MET)


def test_a_move_puts_the_player_in_the_last_seat_of_the_table():
    assert move(DRAW, 1, 1, MET).tables == ((2, 3), (4, 5, 1), DRAW.tables[2])


def test_a_move_recounts_the_repeat_meetings():
    assert move(DRAW, 1, 1, MET).repeat_meetings == 1


def test_a_move_refuses_to_leave_a_table_with_1_player():
    with pytest.raises(ValueError, match="would leave table 2 with fewer than 2 players"):
        move(DRAW, 4, 0, MET)


def test_a_move_refuses_a_ninth_player_at_a_table():
    with pytest.raises(ValueError, match="table 3 already has 8 players"):
        move(DRAW, 1, 2, MET)


def test_a_move_refuses_an_unknown_player():
    with pytest.raises(ValueError, match="player 99 is not seated"):
        move(DRAW, 99, 0, MET)


def test_a_move_refuses_a_table_that_does_not_exist():
    with pytest.raises(ValueError, match="there is no table 4; this draw has 3 tables"):
        move(DRAW, 1, 3, MET)


def test_a_move_refuses_the_player_s_own_table():
    with pytest.raises(ValueError, match="player 1 already sits at table 1"):
        move(DRAW, 1, 0, MET)


def test_a_series_of_swaps_and_moves_still_seats_everyone_at_valid_tables():
    draw = draw_random(list(range(1, 23)), {}, seed=1)
    draw = swap(draw, 1, 22, {})
    draw = move(draw, 5, (draw.table_index(5) + 1) % len(draw.tables), {})
    assert (seated(draw), all(2 <= len(table) <= 8 for table in draw.tables)) == (
        list(range(1, 23)),
        True,
    )


# rebalance: who did not show up, who arrived late

FOUR_OF_4 = Draw(((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)), 7, 0)


def steps(rebalanced) -> list[tuple[int, int | None, int | None]]:
    return [(step.player, step.from_table, step.to_table) for step in rebalanced.moves]


def test_nobody_absent_and_nobody_late_changes_nothing():
    rebalanced = rebalance(FOUR_OF_4, None)
    assert (rebalanced.draw, rebalanced.moves) == (FOUR_OF_4, ())


def test_a_player_absent_from_a_table_of_4_leaves_a_table_of_3_and_nobody_moves():
    rebalanced = rebalance(FOUR_OF_4, None, absent=[6])
    assert rebalanced.draw.tables[1] == (5, 7, 8)
    assert steps(rebalanced) == [(6, 1, None)]
    assert rebalanced.moved == 0


def test_a_table_left_with_2_takes_one_player_from_the_fullest_table():
    draw = Draw(((1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11, 12)), 0, 0)
    rebalanced = rebalance(draw, None, absent=[1])
    assert [len(table) for table in rebalanced.draw.tables] == [3, 4, 4]
    assert rebalanced.moved == 1
    (moved,) = [step for step in rebalanced.moves if step.changes_table]
    assert (moved.from_table, moved.to_table) == (2, 0)


def test_a_late_player_joins_the_emptiest_table_below_the_target_without_moving_anyone():
    draw = Draw(((1, 2, 3, 4), (5, 6, 7), (8, 9, 10, 11)), 0, 0)
    rebalanced = rebalance(draw, None, arrived=[20])
    assert rebalanced.draw.tables[1] == (5, 6, 7, 20)
    assert steps(rebalanced) == [(20, None, 1)]


def test_a_late_player_takes_the_seat_of_an_absent_one():
    rebalanced = rebalance(FOUR_OF_4, None, absent=[6], arrived=[20])
    assert rebalanced.draw.tables[1] == (5, 7, 8, 20)
    assert rebalanced.moved == 0


def test_too_few_players_for_the_tables_close_the_last_table():
    # 16 - 5 = 11 players: three tables (four would need 12 for tables of 3).
    rebalanced = rebalance(FOUR_OF_4, None, absent=[1, 2, 5, 9, 13])
    assert [len(table) for table in rebalanced.draw.tables] == [4, 4, 3]
    assert list(rebalanced.closed_tables) == [3]
    assert sorted(step.player for step in rebalanced.moves if step.changes_table) == [14, 15, 16]
    assert rebalanced.moved == 3


def test_enough_late_players_open_a_new_table_after_the_last():
    rebalanced = rebalance(FOUR_OF_4, None, arrived=[30, 31, 32])
    assert rebalanced.draw.tables[4] == (30, 31, 32)
    assert list(rebalanced.opened_tables) == [4]
    assert rebalanced.moved == 0


def test_late_players_sit_at_tables_of_5_before_a_new_table_would_be_farther_from_4():
    rebalanced = rebalance(FOUR_OF_4, None, arrived=[30, 31])
    assert sorted(len(table) for table in rebalanced.draw.tables) == [4, 4, 5, 5]


def test_the_mover_goes_where_they_met_nobody_before():
    draw = Draw(((1, 2), (3, 4, 5, 6), (7, 8, 9, 10)), 0, 0)
    # Whoever leaves table 3 met player 1 before; from table 2 only player 6 did.
    met = {frozenset((1, player)): 1 for player in (6, 7, 8, 9, 10)}
    rebalanced = rebalance(draw, met, smallest=3)
    (moved,) = [step for step in rebalanced.moves if step.changes_table]
    assert moved.player in (3, 4, 5)
    assert moved.repeats == 0
    assert rebalanced.draw.repeat_meetings == 0


def test_the_player_who_met_the_most_table_mates_is_the_one_to_leave_a_crowded_table():
    draw = Draw(((1, 2, 3, 4, 5, 6), (7, 8, 9)), 0, 0)
    met = {frozenset((4, 1)): 1, frozenset((4, 2)): 1}
    rebalanced = rebalance(draw, met)
    assert steps(rebalanced) == [(4, 0, 1)]
    assert rebalanced.draw.repeat_meetings == 0


def test_the_players_of_a_closing_table_go_where_they_meet_nobody_again():
    # Table 3 (two players) closes: 9 met player 1 and 10 met player 5.
    draw = Draw(((1, 2, 3, 4), (5, 6, 7, 8), (9, 10)), 0, 0)
    met = {frozenset((9, 1)): 1, frozenset((10, 5)): 1}
    rebalanced = rebalance(draw, met)
    assert rebalanced.draw.repeat_meetings == 0
    assert sum(step.repeats for step in rebalanced.moves) == 0


def test_the_seats_of_who_stays_keep_their_order_and_newcomers_sit_last():
    rebalanced = rebalance(FOUR_OF_4, None, absent=[2], arrived=[40])
    assert rebalanced.draw.tables[0] == (1, 3, 4, 40)


def test_a_rebalance_keeps_the_seed_and_counts_the_repeats_of_the_new_draw():
    met = meetings([((1, 5, 9, 13),)])
    rebalanced = rebalance(FOUR_OF_4, met, absent=[2, 3], arrived=[])
    assert rebalanced.draw.seed == 7
    assert rebalanced.draw.repeat_meetings == count_repeat_meetings(rebalanced.draw.tables, met)


def test_the_order_of_the_late_players_does_not_change_the_suggestion():
    assert rebalance(FOUR_OF_4, None, arrived=[33, 31, 32]) == rebalance(
        FOUR_OF_4, None, arrived=[31, 32, 33]
    )


@pytest.mark.parametrize(
    ("absent", "arrived", "code"),
    [([99], [], "not_seated"), ([], [5], "already_seated"), ([], [20, 20], "listed_twice")],
)
def test_a_rebalance_refuses_players_it_cannot_place(absent, arrived, code):
    with pytest.raises(SeatingError) as refused:
        rebalance(FOUR_OF_4, None, absent=absent, arrived=arrived)
    assert refused.value.code == code


def test_a_rebalance_with_fewer_players_than_a_table_is_refused():
    draw = Draw(((1, 2, 3),), 0, 0)
    with pytest.raises(SeatingError) as refused:
        rebalance(draw, None, absent=[1])
    assert (refused.value.code, refused.value.params["low"]) == ("too_few_players", 3)
    assert rebalance(draw, None, absent=[1], smallest=2).draw.tables == ((2, 3),)


def fewest_moves(sizes: list[int], arrivals: int, low: int = 3, high: int = 5) -> int:
    """The fewest players present who change table, worked out on its own: over every table
    count (closing the last tables), each kept table ends within low..high as near its size
    as the count allows, and loses the players above its final size."""
    count = sum(sizes) + arrivals
    best = None
    for tables in range(1, count // low + 1):
        if not tables * low <= count <= tables * high:
            continue
        kept = (sizes + [0] * tables)[:tables]
        closed = sum(sizes[tables:])
        # Each kept table ends within bounds; it loses max(0, size - final) players.
        finals = [min(max(size, low), high) for size in kept]
        surplus = count - sum(finals)
        for index in range(tables):
            while surplus > 0 and finals[index] < high:
                finals[index] += 1
                surplus -= 1
        for index in range(tables):
            while surplus < 0 and finals[index] > low:
                finals[index] -= 1
                surplus += 1
        moves = closed + sum(
            max(0, size - final) for size, final in zip(kept, finals, strict=True)
        )
        best = moves if best is None else min(best, moves)
    assert best is not None
    return best


@pytest.mark.parametrize("seed", range(60))
def test_random_absences_and_arrivals_rebalance_within_bounds_with_the_fewest_moves(seed):
    rng = random.Random(seed)
    players = list(range(1, rng.randint(6, 60)))
    draw = draw_random(players, None, seed=seed)
    absent = rng.sample(players, rng.randint(0, min(8, len(players) - 3)))
    arrived = list(range(100, 100 + rng.randint(0, 6)))
    met = meetings([draw_random(players + arrived, None, seed=seed + 1000).tables])
    rebalanced = rebalance(draw, met, absent=absent, arrived=arrived)
    present = sorted(set(players) - set(absent)) + arrived
    assert sorted(seated(rebalanced.draw)) == sorted(present)
    assert all(3 <= len(table) <= 5 for table in rebalanced.draw.tables)
    staying = [[player for player in table if player not in absent] for table in draw.tables]
    assert rebalanced.moved == fewest_moves([len(table) for table in staying], len(arrived))
    # Who stays keeps their table and their order at it; every other player present moved.
    changed = 0
    for index, table in enumerate(staying):
        now = rebalanced.draw.tables[index] if index < len(rebalanced.draw.tables) else ()
        kept = [player for player in table if player in now]
        assert list(now[: len(kept)]) == kept
        changed += len(table) - len(kept)
    assert rebalanced.moved == changed
