"""Standings from finished games (pure: no database)."""

from __future__ import annotations

import random
from fractions import Fraction

from scoring.standings import (
    BY_AVERAGE,
    FinishedSeat,
    placement_points,
    ranked_standings,
    standings,
    standings_of_results,
)


def table(name, session, *results, provisional=False):
    """Seats of one finished game from (player, total) pairs; ranks as the engine gives them."""
    totals = [total for _, total in results]
    return [
        FinishedSeat(
            player=player,
            table=name,
            session=session,
            total=total,
            rank=1 + sum(1 for other in totals if other < total),
            provisional=provisional,
        )
        for player, total in results
    ]


def test_a_player_scores_one_point_for_every_player_beaten():
    assert [placement_points(rank, 1, 4) for rank in (1, 2, 3, 4)] == [3, 2, 1, 0]


def test_two_joint_winners_at_a_table_of_four_get_two_and_a_half_each():
    assert placement_points(1, 2, 4) == Fraction(5, 2)


def test_every_game_hands_out_the_same_points_however_it_ends():
    for results in ([10, 20, 30, 160], [10, 10, 30, 160], [5, 5, 5, 151], [1, 2, 2, 2]):
        seats = table("t", 1, *zip("ABCD", results, strict=True))
        ranking = standings(seats)
        assert sum(standing.points for standing in ranking) == 6


def test_standings_order_by_points_then_wins_then_low_totals():
    seats = [
        *table("t1", 1, ("Ann", 10), ("Bart", 20), ("Chris", 30), ("Dirk", 160)),
        *table("t2", 2, ("Ann", 50), ("Bart", 10), ("Chris", 40), ("Dirk", 155)),
    ]
    ranking = standings(seats)
    # Ann 3+1=4, Bart 2+3=5, Chris 1+2=3, Dirk 0.
    assert [(s.player, s.points, s.place) for s in ranking] == [
        ("Bart", 5, 1),
        ("Ann", 4, 2),
        ("Chris", 3, 3),
        ("Dirk", 0, 4),
    ]


def test_equal_points_are_split_by_games_won():
    seats = [
        *table("t1", 1, ("Ann", 10), ("Bart", 20), ("Chris", 30)),
        *table("t2", 2, ("Ann", 30), ("Bart", 20), ("Chris", 10)),
    ]
    ranking = {s.player: s for s in standings(seats)}
    assert {player: s.points for player, s in ranking.items()} == {"Ann": 2, "Bart": 2, "Chris": 2}
    assert ranking["Bart"].wins == 0
    assert (ranking["Ann"].place, ranking["Chris"].place, ranking["Bart"].place) == (1, 1, 3)


def test_equal_points_and_wins_are_split_by_the_lower_sum_of_totals():
    seats = [
        *table("t1", 1, ("Ann", 10), ("Bart", 20)),
        *table("t2", 2, ("Ann", 35), ("Bart", 30)),
    ]
    ranking = standings(seats)
    assert [(s.player, s.place, s.points, s.wins, s.total_sum) for s in ranking] == [
        ("Ann", 1, 1, 1, 45),
        ("Bart", 2, 1, 1, 50),
    ]


def test_then_by_the_table_mates_points():
    # Ann and Eva: same points, wins and totals; Ann's table-mates scored more elsewhere.
    seats = [
        *table("t1", 1, ("Ann", 10), ("Bart", 20)),
        *table("t2", 1, ("Eva", 10), ("Finn", 20)),
        *table("t3", 2, ("Bart", 10), ("Gus", 20)),
    ]
    ranking = {s.player: s for s in standings(seats)}
    assert ranking["Ann"].opponents_points == 1 and ranking["Eva"].opponents_points == 0
    assert ranking["Ann"].place < ranking["Eva"].place


def test_players_equal_on_every_tie_break_share_the_place():
    seats = [
        *table("t1", 1, ("Ann", 10), ("Bart", 20)),
        *table("t2", 1, ("Eva", 10), ("Finn", 20)),
    ]
    places = {s.player: s.place for s in standings(seats)}
    assert places == {"Ann": 1, "Eva": 1, "Bart": 3, "Finn": 3}


def test_a_player_with_an_unsigned_game_is_provisional():
    seats = [
        *table("t1", 1, ("Ann", 10), ("Bart", 20)),
        *table("t2", 2, ("Ann", 10), ("Bart", 20), provisional=True),
    ]
    assert all(standing.provisional for standing in standings(seats))
    assert not any(standing.provisional for standing in standings(seats[:2]))


# Players who come and go: withdrawn marks, and ranking by the average per game.


def late_day():
    """Ann, Bart and Chris play two sessions; Eva arrives for session 2 and wins it."""
    return [
        *table("t1", 1, ("Ann", 10), ("Bart", 20), ("Chris", 160)),
        *table("t2", 2, ("Eva", 5), ("Ann", 30), ("Bart", 40), ("Chris", 155)),
    ]


def test_a_withdrawn_player_keeps_their_points_and_place_and_is_marked():
    plain = standings(late_day())
    marked = ranked_standings(late_day(), withdrawn={"Bart"})
    assert [(s.player, s.place, s.points) for s in marked] == [
        (s.player, s.place, s.points) for s in plain
    ]
    assert [s.player for s in marked if s.withdrawn] == ["Bart"]


def test_by_total_a_late_player_ranks_with_the_points_of_the_games_they_played():
    ranking = ranked_standings(late_day())
    # Ann 2 + 2 = 4, Bart 1 + 1 = 2, Eva 3, Chris 0.
    assert [(s.player, s.points, s.games) for s in ranking] == [
        ("Ann", 4, 2),
        ("Eva", 3, 1),
        ("Bart", 2, 2),
        ("Chris", 0, 2),
    ]


def test_by_average_a_late_player_ranks_by_points_per_game():
    ranking = ranked_standings(late_day(), by=BY_AVERAGE)
    assert [(s.place, s.player, s.average) for s in ranking] == [
        (1, "Eva", 3),
        (2, "Ann", 2),
        (3, "Bart", 1),
        (4, "Chris", 0),
    ]


def test_by_average_ties_go_by_share_of_wins_then_average_total():
    seats = [
        *table("t1", 1, ("Ann", 10), ("Bart", 20), ("Chris", 30), ("Dirk", 160)),
        *table("t2", 2, ("Ann", 40), ("Bart", 10), ("Chris", 50), ("Dirk", 151)),
        *table("t3", 2, ("Eva", 5), ("Kim", 20), ("Lea", 20), ("Mo", 30), ("Ned", 40)),
    ]
    ranking = ranked_standings(seats, by=BY_AVERAGE)
    # Eva 4; Ann, Bart, Kim and Lea 2.5 a game. Ann and Bart won one game of two, Kim and Lea
    # none; Bart's average total (15) is below Ann's (25); Kim and Lea are equal throughout.
    assert [(s.place, s.player, s.average) for s in ranking][:5] == [
        (1, "Eva", 4),
        (2, "Bart", Fraction(5, 2)),
        (3, "Ann", Fraction(5, 2)),
        (4, "Kim", Fraction(5, 2)),
        (4, "Lea", Fraction(5, 2)),
    ]


def test_by_average_players_equal_on_every_average_share_the_place():
    seats = [
        *table("t1", 1, ("Ann", 10), ("Bart", 20)),
        *table("t2", 1, ("Chris", 10), ("Dirk", 20)),
    ]
    ranking = ranked_standings(seats, by=BY_AVERAGE)
    assert [(s.place, s.player) for s in ranking] == [
        (1, "Ann"),
        (1, "Chris"),
        (3, "Bart"),
        (3, "Dirk"),
    ]


def test_the_ranking_defaults_to_the_total():
    assert ranked_standings(late_day()) == standings(late_day())


def points_by_seat(seats: list[FinishedSeat]) -> dict[FinishedSeat, Fraction]:
    """Each seat's placement points, table by table (shared ranks share the points)."""
    points = {}
    for table in {seat.table for seat in seats}:
        at_table = [seat for seat in seats if seat.table == table]
        for seat in at_table:
            tied = sum(1 for other in at_table if other.rank == seat.rank)
            points[seat] = placement_points(seat.rank, tied, len(at_table))
    return points


def by_definition(seats: list[FinishedSeat]) -> list[tuple]:
    """The standings as the rules say them, the slow way: each seat's placement points,
    summed per player; table-mates' points summed game by game; the order and shared
    places as the module's docstring says."""
    points = points_by_seat(seats)
    players = {seat.player for seat in seats}
    own = {p: sum(points[s] for s in seats if s.player == p) for p in players}
    mates = {
        p: sum(
            own[other.player]
            for seat in seats
            if seat.player == p
            for other in seats
            if other.table == seat.table and other.player != p
        )
        for p in players
    }
    rows = []
    for p in players:
        mine = [seat for seat in seats if seat.player == p]
        wins = sum(1 for seat in mine if seat.rank == 1)
        total = sum(seat.total for seat in mine)
        key = (-own[p], -wins, total, -mates[p])
        provisional = any(seat.provisional for seat in mine)
        rows.append((key, str(p), p, len(mine), wins, total, provisional))
    rows.sort()
    placed: list[tuple] = []
    for index, (key, _, p, games, wins, total, provisional) in enumerate(rows, start=1):
        place = index if index == 1 or key != rows[index - 2][0] else placed[-1][0]
        placed.append(
            (place, p, own[p], games, wins, total, mates[p], provisional, False, Fraction(0))
        )
    return placed


def test_the_standings_are_the_rules_counted_the_slow_way():
    """The tally in half points, read by position, gives exactly what the definitions give,
    ties, tables of every size and provisional games included."""
    rng = random.Random(14)
    for _ in range(30):
        seats: list[FinishedSeat] = []
        for number in range(rng.randint(1, 12)):
            size = rng.randint(2, 8)
            players = rng.sample(range(1, 41), size)
            # Few distinct totals: ties at every rank.
            totals = [rng.choice((0, 5, 12, 30, 51)) for _ in players]
            seats += table(
                number, 1, *zip(players, totals, strict=True), provisional=rng.random() < 0.3
            )
        expected = by_definition(seats)
        assert [tuple(standing) for standing in standings(seats)] == expected
        results = [(s.player, s.table, s.total, s.rank, s.provisional) for s in seats]
        assert [tuple(standing) for standing in standings_of_results(results)] == expected


def random_tables(rng, *, tables, sizes, players=40, totals=(0, 5, 12, 30, 51)):
    """Seats of `tables` finished games of the given sizes (few distinct totals: ties)."""
    seats: list[FinishedSeat] = []
    for number in range(tables):
        size = rng.choice(sizes)
        seated = rng.sample(range(1, players + 1), size)
        seats += table(
            number,
            1,
            *zip(seated, [rng.choice(totals) for _ in seated], strict=True),
            provisional=rng.random() < 0.3,
        )
    return seats


def assert_counted_by_the_rules(seats):
    expected = by_definition(seats)
    assert [tuple(standing) for standing in standings(seats)] == expected
    results = [(s.player, s.table, s.total, s.rank, s.provisional) for s in seats]
    assert [tuple(standing) for standing in standings_of_results(results)] == expected
    # Any iterable will do, not only the list the database returns.
    assert [tuple(standing) for standing in standings_of_results(iter(results))] == expected


def test_tables_all_of_one_size_are_the_rules_counted_the_slow_way():
    """A championship's tables all seat four: their places are counted per game at the end,
    the tables with a shared rank amended."""
    rng = random.Random(4)
    for _ in range(30):
        assert_counted_by_the_rules(random_tables(rng, tables=rng.randint(1, 40), sizes=[4]))


def test_seats_in_any_order_are_the_rules_counted_the_slow_way():
    """The database returns a table's seats together; in any other order they count the same."""
    rng = random.Random(5)
    for sizes in ([4], [2, 3, 5, 8]):
        for _ in range(15):
            seats = random_tables(rng, tables=rng.randint(2, 20), sizes=sizes)
            rng.shuffle(seats)
            assert_counted_by_the_rules(seats)


def test_a_large_table_and_many_games_are_the_rules_counted_the_slow_way():
    """Ranks beyond 16 (a table of 20) and a player with more than 63 games count the same."""
    rng = random.Random(6)
    seats = random_tables(rng, tables=3, sizes=[20], players=24)
    seats += [seat for number in range(70) for seat in table(100 + number, 1, (1, 10), (2, 20))]
    assert_counted_by_the_rules(seats)
    assert {s.player: s for s in standings(seats)}[1].games >= 70


def test_ranks_no_game_gives_are_still_counted_by_the_formula():
    """A rank missing or beyond its table's size (a seat gone after the game) is counted by
    `placement_points` as it stands, as before: no error, nothing silently different."""
    seats = [
        FinishedSeat("Ann", "t1", 1, 10, 1),
        FinishedSeat("Bart", "t1", 1, 20, 2),
        FinishedSeat("Chris", "t1", 1, 40, 4),
        FinishedSeat("Ann", "t2", 2, 10, 1),
        FinishedSeat("Dirk", "t2", 2, 10, 0),
        FinishedSeat("Chris", "t2", 2, 99, 30),
    ]
    assert_counted_by_the_rules(seats)


def test_provisional_seats_of_one_game_mark_only_their_players():
    seats = [
        FinishedSeat("Ann", "t1", 1, 10, 1, provisional=True),
        FinishedSeat("Bart", "t1", 1, 20, 2),
    ]
    assert {s.player: s.provisional for s in standings(seats)} == {"Ann": True, "Bart": False}
    assert_counted_by_the_rules(seats)
