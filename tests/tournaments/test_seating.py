"""The seating draw (tournaments.seating), one behaviour per test (no database)."""

from __future__ import annotations

import random
import subprocess
import sys
from functools import cache

import pytest

from tournaments.seating import (
    MAX_TABLE,
    MIN_TABLE,
    Draw,
    count_repeat_meetings,
    draw_by_standings,
    draw_random,
    meetings,
    move,
    swap,
    table_sizes,
)

SESSIONS = 6
ALL_SIZES = [
    (count, target) for count in range(2, 201) for target in range(MIN_TABLE, MAX_TABLE + 1)
]

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


# table_sizes


def test_22_players_at_4_sit_at_three_tables_of_4_then_two_of_5():
    assert table_sizes(22, 4) == (4, 4, 4, 5, 5)


@pytest.mark.parametrize(
    ("count", "target", "sizes"),
    [
        (17, 4, (4, 4, 4, 5)),
        (8, 4, (4, 4)),
        (9, 4, (4, 5)),
        (5, 4, (5,)),
        (3, 4, (3,)),
        (2, 4, (2,)),
        (64, 4, (4,) * 16),
        (130, 4, (4,) * 30 + (5, 5)),
    ],
)
def test_table_sizes_of_the_examples(count, target, sizes):
    assert table_sizes(count, target) == sizes


def test_the_target_defaults_to_4():
    assert table_sizes(16) == (4, 4, 4, 4)


@pytest.mark.parametrize(
    ("count", "target", "sizes"),
    [(18, 4, (4, 4, 5, 5)), (6, 4, (6,)), (5, 2, (2, 3)), (15, 6, (7, 8))],
)
def test_halfway_between_two_table_counts_the_fewer_tables_win(count, target, sizes):
    assert table_sizes(count, target) == sizes


@pytest.mark.parametrize(
    ("count", "target", "sizes"), [(17, 8, (5, 6, 6)), (3, 8, (3,)), (9, 8, (4, 5))]
)
def test_the_table_count_is_clamped_so_no_table_seats_more_than_8(count, target, sizes):
    assert table_sizes(count, target) == sizes


def test_table_sizes_add_up_to_the_player_count():
    assert [sum(table_sizes(count, target)) for count, target in ALL_SIZES] == [
        count for count, _ in ALL_SIZES
    ]


def test_every_table_seats_2_to_8_players():
    sizes = {size for count, target in ALL_SIZES for size in table_sizes(count, target)}
    assert (min(sizes), max(sizes)) == (2, 8)


def test_table_sizes_differ_by_at_most_1():
    all_sizes = [table_sizes(count, target) for count, target in ALL_SIZES]
    spreads = {max(sizes) - min(sizes) for sizes in all_sizes}
    assert spreads == {0, 1}


def test_smaller_tables_come_first():
    unsorted = [
        (count, target)
        for count, target in ALL_SIZES
        if list(table_sizes(count, target)) != sorted(table_sizes(count, target))
    ]
    assert unsorted == []


def test_the_table_count_is_the_feasible_one_nearest_to_count_over_target():
    def nearest(count: int, target: int) -> int:
        feasible = range(-(-count // MAX_TABLE), count // MIN_TABLE + 1)
        return min(feasible, key=lambda tables: (abs(count - tables * target), tables))

    wrong = [
        (count, target)
        for count, target in ALL_SIZES
        if len(table_sizes(count, target)) != nearest(count, target)
    ]
    assert wrong == []


@pytest.mark.parametrize("count", [0, 1])
def test_fewer_than_2_players_cannot_be_seated(count):
    with pytest.raises(ValueError, match=f"at least 2 players to seat, got {count}"):
        table_sizes(count)


@pytest.mark.parametrize("target", [1, 9])
def test_the_target_must_be_2_to_8(target):
    with pytest.raises(ValueError, match=f"must be 2–8, got {target}"):
        table_sizes(10, target)


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
    assert draw_random([1, 2], {frozenset((1, 2)): 2}, seed=0).repeat_meetings == 1


def test_a_random_draw_refuses_a_player_listed_twice():
    with pytest.raises(ValueError, match="player 3 is listed twice"):
        draw_random([1, 2, 3, 3], {}, seed=0)


def test_a_random_draw_refuses_a_single_player():
    with pytest.raises(ValueError, match="at least 2 players"):
        draw_random([1], {}, seed=0)


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


def test_the_seating_module_imports_no_django():
    code = (
        "import sys, tournaments.seating; "
        "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
