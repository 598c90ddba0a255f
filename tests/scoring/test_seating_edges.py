"""The seating at its edges (issue 36, mutation testing): what a refusal names, a table one
seat short of full, the draw's seed and meetings carried through a draw by standings, a
swap, a move and a rebalance, and the clubmates a referee's table shows."""

from __future__ import annotations

from itertools import combinations

import pytest

from scoring.errors import SeatingError
from scoring.seating import (
    MAX_TABLE,
    MIN_TABLE,
    ClubWeight,
    Draw,
    clubmates_at,
    count_clubmates,
    draw_by_standings,
    draw_random,
    meetings,
    move,
    rebalance,
    swap,
    table_bounds,
)

DRAW = Draw(tables=((1, 2, 3, 13), (4, 5), (6, 7, 8, 9, 10, 11, 12)), seed=5, repeat_meetings=0)


def refusal(call) -> SeatingError:
    with pytest.raises(SeatingError) as error:
        call()
    return error.value


def test_a_swap_of_a_player_with_themselves_names_the_player():
    error = refusal(lambda: swap(DRAW, 3, 3, None))
    assert (error.code, dict(error.params)) == ("swap_same_player", {"player": 3})


def test_a_move_that_would_leave_a_table_too_small_names_the_player_and_the_table():
    error = refusal(lambda: move(DRAW, 4, 0, None))
    assert (error.code, dict(error.params)) == (
        "table_too_small",
        {"player": 4, "table": 2, "low": 2},
    )


def test_a_player_may_move_to_a_table_one_seat_short_of_full():
    assert len(DRAW.tables[2]) == MAX_TABLE - 1
    moved = move(DRAW, 1, 2, None)
    assert moved.tables == ((2, 3, 13), (4, 5), (6, 7, 8, 9, 10, 11, 12, 1))
    error = refusal(lambda: move(moved, 2, 2, None))
    assert (error.code, dict(error.params)) == ("table_full", {"table": 3, "high": MAX_TABLE})


def test_a_move_keeps_the_seed_of_the_draw():
    assert move(DRAW, 1, 1, None).seed == 5


def test_a_draw_by_standings_keeps_its_seed_and_counts_the_meetings_it_repeats():
    # Four players are one table: the pair who met before meet again.
    drawn = draw_by_standings([1, 2, 3, 4], met={frozenset((1, 2)): 1}, seed=9)
    assert (drawn.seed, drawn.repeat_meetings) == (9, 1)


def test_a_draw_by_standings_takes_the_target_and_the_smallest_table_asked_for():
    assert [len(table) for table in draw_by_standings(range(8), 2, seed=1).tables] == [2] * 4
    # Two players are a table only when tables of 2 are asked for.
    assert draw_by_standings(["Ann", "Bart"], smallest=2, seed=1).tables[0] in {
        ("Ann", "Bart"),
        ("Bart", "Ann"),
    }


def test_a_rebalance_that_no_table_size_fits_names_the_count_and_the_sizes():
    draw = Draw(((1, 2, 3, 4), (5, 6, 7, 8)), 0, 0)
    error = refusal(lambda: rebalance(draw, None, absent=[8], smallest=4, largest=4))
    assert (error.code, dict(error.params)) == (
        "no_table_split",
        {"count": 7, "smallest": 4, "largest": 4},
    )


def test_without_meetings_nobody_who_moves_repeats_and_the_late_are_listed_last():
    draw = Draw(((1, 2, 3, 4, 5, 6), (7, 8, 9)), 0, 0)
    rebalanced = rebalance(draw, None, arrived=[20])
    steps = [(s.player, s.from_table, s.to_table, s.repeats) for s in rebalanced.moves]
    assert steps == [(6, 0, 1, 0), (20, None, 1, 0)]


def test_a_rebalance_keeps_a_table_as_large_as_the_largest_asked_for():
    draw = Draw(((1, 2, 3, 4, 5, 6), (7, 8, 9)), 0, 0)
    assert rebalance(draw, None, largest=6).moves == ()


@pytest.mark.parametrize(
    ("absent", "arrived", "code", "params"),
    [
        ([99], [], "not_seated", {"player": 99}),
        ([], [5], "already_seated", {"player": 5}),
        ([1, 2, 3, 4, 5, 6, 7], [], "too_few_players", {"low": 3, "count": 2}),
    ],
)
def test_a_rebalance_s_refusal_names_the_player_or_the_count(absent, arrived, code, params):
    draw = Draw(((1, 2, 3, 4, 5, 6), (7, 8, 9)), 0, 0)
    error = refusal(lambda: rebalance(draw, None, absent=absent, arrived=arrived))
    assert (error.code, dict(error.params)) == (code, params)


def test_a_short_table_takes_the_player_who_met_the_most_at_their_own_table_last_seated_first():
    # Table 2 is short of a player: whoever comes met both its players before. Of table 1,
    # players 1 and 2 met each other; 2 sits later, and goes.
    draw = Draw(((1, 2, 3, 4), (5, 6)), 0, 0)
    met = {frozenset((player, other)): 1 for player in (1, 2, 3, 4) for other in (5, 6)}
    met[frozenset((1, 2))] = 1
    rebalanced = rebalance(draw, met)
    assert rebalanced.draw.tables == ((1, 3, 4), (5, 6, 2))
    assert rebalanced.draw.repeat_meetings == 2
    (moved,) = rebalanced.moves
    assert (moved.player, moved.from_table, moved.to_table, moved.repeats) == (2, 0, 1, 2)


def test_a_table_at_the_smallest_size_gives_up_nobody():
    # Table 3 is short: table 2's players met 8 before, table 1's nobody; table 1 has only the
    # smallest size, so the player comes from table 2 all the same.
    draw = Draw(((1, 2, 3), (4, 5, 6, 7), (8, 9)), 0, 0)
    met = {frozenset((player, 8)): 1 for player in (4, 5, 6, 7)}
    rebalanced = rebalance(draw, met)
    assert [len(table) for table in rebalanced.draw.tables] == [3, 3, 3]
    assert rebalanced.draw.tables[0] == (1, 2, 3)


@pytest.mark.parametrize(
    ("clubs", "shown"),
    [
        ({"Ann": "Lier", "Bart": "Lier", "Chris": "Gent", "Dirk": None}, {"Lier": 2}),
        ({"Ann": "Lier", "Bart": "Lier", "Chris": "Lier"}, {"Lier": 3}),
        ({"Ann": "Lier", "Bart": "Gent"}, {}),
        ({}, {}),
    ],
)
def test_a_table_shows_each_club_with_more_than_one_player_there(clubs, shown):
    assert clubmates_at(("Ann", "Bart", "Chris", "Dirk"), clubs) == shown


def test_movers_bound_for_two_tables_swap_them_when_that_avoids_a_repeat():
    # Table 3 closes. Both its players add no repeat at table 1, so 5 is placed there first;
    # but 6 met both players of table 2: the two swap, and nobody meets again.
    draw = Draw(((1, 2), (3, 4), (5, 6)), 0, 0)
    met = {frozenset((6, 3)): 1, frozenset((6, 4)): 1}
    rebalanced = rebalance(draw, met)
    assert rebalanced.draw.tables == ((1, 2, 6), (3, 4, 5))
    assert rebalanced.draw.repeat_meetings == 0
    # The steps from one table are listed by the table they go to.
    assert [(s.player, s.from_table, s.to_table) for s in rebalanced.moves] == [
        (6, 2, 0),
        (5, 2, 1),
    ]


def test_a_short_table_takes_the_late_player_who_met_nobody_there():
    # 8 met 5 before: 9 completes table 2 and 8 sits at table 1.
    draw = Draw(((1, 2, 3, 4), (5, 6)), 0, 0)
    rebalanced = rebalance(draw, {frozenset((8, 5)): 1}, arrived=[8, 9])
    assert rebalanced.draw.tables == ((1, 2, 3, 4, 8), (5, 6, 9))


def test_a_late_player_avoids_the_table_another_late_player_they_met_has_just_joined():
    # 8 and 9 met before: 8 completes table 2, and 9 goes to table 1 rather than join 8.
    draw = Draw(((1, 2, 3, 4), (5, 6)), 0, 0)
    rebalanced = rebalance(draw, {frozenset((8, 9)): 1}, arrived=[8, 9])
    assert rebalanced.draw.tables == ((1, 2, 3, 4, 9), (5, 6, 8))


def test_a_table_short_of_two_takes_one_player_from_each_full_table():
    # The first comes from table 1 (the first of two as full); then table 2 is the fullest.
    draw = Draw(((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (11,)), 0, 0)
    rebalanced = rebalance(draw, None)
    assert rebalanced.draw.tables == ((1, 2, 3, 4), (6, 7, 8, 9), (11, 5, 10))


def test_by_standings_the_swap_that_lowers_the_repeats_most_is_made_first():
    # Ranks 1-4 and 5-8. 4 met 1 and 2; 7 met 8; 5 met 3. Swapping 4 with 7 lowers the
    # repeats by three (4's two and 7's one), more than with 5 or 6: then nobody repeats.
    met = {frozenset(pair): 1 for pair in [(4, 1), (4, 2), (5, 3), (7, 8)]}
    drawn = draw_by_standings(range(1, 9), met=met, seed=3)
    assert sorted(map(sorted, drawn.tables)) == [[1, 2, 3, 7], [4, 5, 6, 8]]
    assert drawn.repeat_meetings == 0


def test_a_seeded_draw_after_four_sessions_is_the_draw_it_has_always_been():
    # A draw is kept with its seed: the same seed and meetings must give the same tables in
    # every version, every step of the search included (seventeen players cannot avoid every
    # repeat, so it uses all its attempts and restarts).
    players = list(range(1, 18))
    sessions: list = []
    for seed in (1, 2, 3, 4):
        sessions.append(draw_random(players, meetings(sessions), seed=seed).tables)
    drawn = draw_random(players, meetings(sessions), seed=5)
    assert drawn.tables == (
        (13, 16, 10, 9),
        (6, 3, 15, 1),
        (4, 2, 5, 14),
        (11, 7, 17, 8, 12),
    )
    assert drawn.repeat_meetings == 9


def rebalanced_tables(tables, absent=(), arrived=(), **bounds):
    return rebalance(Draw(tuple(tables), 0, 0), None, absent=absent, arrived=arrived, **bounds)


def test_a_table_with_one_absent_and_three_late_players_becomes_two_tables_of_three():
    rebalanced = rebalanced_tables([(1, 2, 3, 4)], absent=[2], arrived=[100, 101, 102])
    assert rebalanced.draw.tables == ((1, 3, 4), (100, 101, 102))
    assert rebalanced.moved == 0


def test_of_two_table_counts_as_near_the_target_the_one_nearer_the_current_count_wins():
    # Fourteen players, tables of 4: three tables or four are as near; two tables now.
    rebalanced = rebalanced_tables(
        [(1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12)], [2, 6], [100, 101, 102, 103], smallest=2
    )
    assert rebalanced.draw.tables == ((1, 3, 4, 5, 12), (7, 8, 9, 10, 11), (100, 101, 102, 103))
    # Fourteen again, four tables now: they stay four rather than become three.
    rebalanced = rebalanced_tables([(1, 2, 3, 4), (5, 6, 7, 8, 9, 10), (11, 12), (13,)], [], [100])
    assert rebalanced.draw.tables == ((1, 2, 3, 4), (5, 6, 7, 8), (11, 12, 100), (13, 10, 9))


def test_the_player_a_crowded_table_gives_up_is_one_move_even_where_tables_are_short():
    # Tables of 3: the extra player of table 2 and four late players fill table 3 and a new
    # one, one move; closer to tables of 3 than three tables would be.
    rebalanced = rebalanced_tables(
        [(1, 2, 3, 4), (5, 6, 7, 8, 9, 10, 11), (12, 13)], [2, 5], [100, 101, 102, 103], target=3
    )
    assert rebalanced.draw.tables == (
        (1, 3, 4, 11),
        (6, 7, 8, 9, 10),
        (12, 13, 100),
        (101, 102, 103),
    )
    assert rebalanced.moved == 1


def test_the_players_of_closing_tables_fill_the_tables_left_short():
    # Twelve players at five tables, tables of up to 6: the last two close and their four
    # players complete the first two.
    rebalanced = rebalanced_tables(
        [(1, 2, 3), (4, 5), (6, 7, 8, 9, 10), (11, 12), (13, 14)], [5, 2], largest=6
    )
    assert rebalanced.draw.tables == ((1, 3, 11, 14), (4, 12, 13), (6, 7, 8, 9, 10))
    assert list(rebalanced.closed_tables) == [3, 4]


@pytest.mark.parametrize(
    ("club_weight", "tables"),
    [
        (ClubWeight.AS_MEETING, ((1, 2, 4, 9), (5, 6, 12, 7), (8, 10, 11, 3))),
        (ClubWeight.BELOW_REPEATS, ((7, 2, 12, 4), (11, 1, 5, 9), (6, 8, 3, 10))),
    ],
)
def test_a_seeded_club_aware_draw_is_the_draw_it_has_always_been(club_weight, tables):
    # Twelve players of two clubs (and none) in their third session: the clubmates' weight
    # shapes every step of the search, and a draw is kept with its seed.
    players = list(range(1, 13))
    clubs = {player: ("Lier", "Gent", None)[player % 3] for player in players}
    sessions: list = []
    for seed in (1, 2):
        sessions.append(draw_random(players, meetings(sessions), seed=seed).tables)
    drawn = draw_random(players, meetings(sessions), seed=3, clubs=clubs, club_weight=club_weight)
    assert drawn.tables == tables
    assert (drawn.repeat_meetings, drawn.clubmates) == (6, 2)


def test_clubmates_are_counted_by_pair_at_each_table():
    tables = [("Ann", "Bart", "Chris"), ("Dirk", "Eva")]
    clubs = {"Ann": "Lier", "Bart": "Lier", "Chris": "Lier", "Dirk": "Gent", "Eva": None}
    assert count_clubmates(tables, clubs) == 3
    assert count_clubmates(tables, {}) == 0
    assert count_clubmates(tables, None) == 0


def pairs(*met: tuple[int, int]) -> dict[frozenset[int], int]:
    return {frozenset(pair): 1 for pair in met}


# Found by searching random meetings for where each rule changes the tables.
BY_STANDINGS_SWAPS = {
    # Once swapped, a player stays: a later swap may not move them again.
    "each player moves once": (
        13,
        pairs(
            (2, 7),
            (1, 5),
            (2, 11),
            (1, 11),
            (0, 2),
            (11, 5),
            (2, 4),
            (1, 4),
            (11, 4),
            (10, 3),
            (5, 6),
            (11, 7),
            (12, 7),
            (1, 6),
            (8, 11),
            (9, 2),
            (2, 10),
            (3, 12),
            (2, 5),
        ),
        ((3, 0, 2, 1), (7, 5, 4, 8), (6, 9, 10, 12, 11)),
    ),
    # A player who moved is passed over, and the search goes on with the next.
    "a moved player is passed over": (
        12,
        pairs(
            (6, 7),
            (11, 3),
            (10, 6),
            (0, 6),
            (11, 7),
            (0, 8),
            (3, 5),
            (3, 7),
            (9, 10),
            (8, 10),
            (3, 6),
            (5, 7),
            (2, 6),
            (10, 7),
            (3, 4),
            (4, 7),
            (0, 2),
            (1, 10),
        ),
        ((3, 0, 2, 1), (10, 5, 4, 11), (8, 7, 9, 6)),
    ),
    # The two who swap do not meet at either table: their own meeting does not count.
    "a swapping pair's own meeting does not count": (
        8,
        pairs((1, 4), (0, 6), (0, 2), (2, 4), (1, 2), (4, 5), (1, 3)),
        ((7, 0, 4, 1), (3, 5, 2, 6)),
    ),
    "nor the other way round": (
        13,
        pairs((0, 5), (0, 7), (9, 5), (2, 6), (0, 2), (3, 4), (10, 3), (9, 11), (8, 6), (8, 2)),
        ((3, 0, 6, 1), (7, 9, 4, 2), (8, 5, 10, 12, 11)),
    ),
    # Of swaps that lower the repeats as much, the closest ranks swap.
    "the closest ranks first": (
        14,
        pairs(
            (0, 9),
            (9, 6),
            (8, 7),
            (12, 4),
            (2, 11),
            (8, 9),
            (1, 11),
            (0, 13),
            (4, 5),
            (12, 7),
            (1, 13),
            (8, 3),
        ),
        ((8, 0, 4, 1), (7, 3, 5, 2, 6), (10, 11, 9, 13, 12)),
    ),
}


@pytest.mark.parametrize(
    ("count", "met", "tables"), BY_STANDINGS_SWAPS.values(), ids=BY_STANDINGS_SWAPS.keys()
)
def test_by_standings_the_swaps_between_neighbouring_tables_follow_their_rules(count, met, tables):
    assert draw_by_standings(list(range(count)), 4, met, seed=1).tables == tables


def test_movers_swap_destinations_while_any_pair_of_them_lowers_the_repeats():
    # Found by searching random meetings: one swap leads to another.
    draw = Draw(((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12)), 0, 0)
    met = {
        frozenset(pair): times
        for pair, times in [
            ((100, 101), 2), ((2, 101), 1), ((2, 5), 1), ((9, 101), 2), ((12, 6), 2),
            ((8, 4), 2), ((12, 7), 1), ((2, 6), 2), ((100, 5), 1), ((10, 11), 1), ((5, 6), 2),
            ((8, 3), 2), ((9, 12), 2), ((1, 12), 2), ((11, 6), 1), ((101, 102), 2),
            ((2, 3), 1), ((10, 4), 1), ((5, 101), 1), ((1, 9), 1), ((2, 10), 2),
        ]
    }  # fmt: skip
    rebalanced = rebalance(draw, met, absent=[9], arrived=[100, 101, 102, 103])
    assert rebalanced.draw.tables == (
        (1, 3, 4, 5, 7),
        (8, 10, 11, 12),
        (100, 102, 2),
        (101, 103, 6),
    )
    assert sum(step.repeats for step in rebalanced.moves) == 0


def test_every_pair_of_movers_is_tried_for_a_swap():
    # Found by searching random meetings: the pair that helps comes after one that cannot swap.
    draw = Draw(((1, 2, 3, 4, 5, 6, 7), (8,), (9,)), 0, 0)
    met = {
        frozenset((1, 9)): 2, frozenset((8, 3)): 2, frozenset((4, 6)): 1,
        frozenset((3, 6)): 2, frozenset((100, 7)): 2, frozenset((9, 7)): 2,
    }  # fmt: skip
    rebalanced = rebalance(draw, met, arrived=[100])
    assert rebalanced.draw.tables == ((1, 2, 3, 4), (8, 6, 7), (9, 100, 5))
    assert sum(step.repeats for step in rebalanced.moves) == 0


@pytest.mark.parametrize(
    ("tables", "absent", "arrived", "steps"),
    [
        (
            [
                (1, 2, 3, 4, 5, 6),
                (7, 8, 9),
                (10, 11, 12, 13, 14, 15, 16),
                (17, 18, 19, 20, 21, 22),
            ],
            [],
            [100, 101, 102],
            [(6, 0, 5), (16, 2, 5), (15, 2, 5), (22, 3, 1)]
            + [(100, None, 4), (101, None, 4), (102, None, 4)],
        ),
        (
            [(1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14), (15, 16, 17, 18), (19,), (20, 21)],
            [2, 21, 7],
            [100],
            [(2, 0, None), (7, 0, None), (21, 4, None)]
            + [(6, 0, 4), (14, 1, 3), (13, 1, 4), (100, None, 3)],
        ),
    ],
)
def test_a_rebalance_lists_its_steps_by_the_table_left_then_the_table_joined(
    tables, absent, arrived, steps
):
    # Who leaves first, then who changes table, from table 1 on, then the late players.
    rebalanced = rebalanced_tables(tables, absent, arrived)
    assert [(s.player, s.from_table, s.to_table) for s in rebalanced.moves] == steps


def test_a_seeded_draw_of_sixty_who_all_met_before_is_the_draw_it_has_always_been():
    # Every pair met, and player 1 met most twice: no seating avoids repeats, so the search
    # runs every attempt, restarting when it stalls (sixty players stall later than a few).
    players = list(range(1, 61))
    met = {frozenset(pair): 1 for pair in combinations(players, 2)}
    met.update({frozenset((1, player)): 2 for player in range(2, 40)})
    drawn = draw_random(players, met, seed=1)
    assert drawn.tables == (
        (33, 10, 24, 27),
        (6, 44, 19, 3),
        (48, 23, 39, 26),
        (4, 12, 11, 20),
        (30, 16, 36, 38),
        (53, 54, 46, 41),
        (13, 35, 51, 22),
        (40, 34, 18, 60),
        (15, 45, 43, 21),
        (1, 59, 58, 50),
        (57, 47, 28, 2),
        (7, 25, 42, 14),
        (32, 31, 29, 56),
        (5, 8, 49, 17),
        (52, 9, 55, 37),
    )
    assert drawn.repeat_meetings == 90


def test_a_random_draw_keeps_to_the_largest_table_asked_for():
    assert [len(table) for table in draw_random(range(10), None, seed=1, largest=4).tables] == [
        3,
        3,
        4,
    ]


def test_clubs_without_two_players_of_one_club_give_the_plain_draw():
    clubs = {player: f"club {player}" for player in range(12)}
    met = {frozenset((0, 1)): 1, frozenset((2, 3)): 1}
    for seed in range(5):
        plain = draw_random(range(12), met, seed=seed)
        aware = draw_random(
            range(12), met, seed=seed, clubs=clubs, club_weight=ClubWeight.BELOW_REPEATS
        )
        assert aware.tables == plain.tables


@pytest.mark.parametrize(
    ("met", "code", "params"),
    [
        ({frozenset((1, 2, 3)): 1}, "meeting_pair", {"pair": {1, 2, 3}}),
        ({frozenset((1, 2)): -1}, "meeting_count", {"times": -1}),
    ],
)
def test_meetings_that_are_no_pair_or_a_negative_count_are_refused(met, code, params):
    error = refusal(lambda: draw_random(range(1, 9), met, seed=1))
    assert (error.code, dict(error.params)) == (code, params)


def test_a_pair_that_met_no_times_has_not_met():
    assert draw_random(range(1, 9), {frozenset((1, 2)): 0}, seed=1) == draw_random(
        range(1, 9), None, seed=1
    )


def test_the_table_bounds_default_to_a_target_of_4_and_a_refusal_names_them_all():
    assert table_bounds() == (3, 5)
    error = refusal(lambda: table_bounds(4, smallest=5))
    assert (error.code, dict(error.params)) == (
        "table_bounds",
        {"smallest": 5, "largest": 5, "target": 4, "low": MIN_TABLE, "high": MAX_TABLE},
    )
