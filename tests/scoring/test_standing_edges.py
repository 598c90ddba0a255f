"""The standings at their edges (issue 36, mutation testing): by average, every criterion is
taken per game; a seat that changed hands twice credits its last player; a seat where no
round was played is its first player's."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from scoring.standings import (
    BY_AVERAGE,
    CREDIT_SPLIT,
    CREDIT_SUBSTITUTE,
    Standing,
    Stint,
    ranked,
    seat_credits,
    standings,
)


def standing(player, points, games, wins, total_sum, opponents_points=0) -> Standing:
    return Standing(
        0, player, Fraction(points), games, wins, total_sum, Fraction(opponents_points), False
    )


def by_average(*standings: Standing) -> list[Hashable]:
    return [each.player for each in ranked(list(standings), by=BY_AVERAGE)]


def test_by_average_an_equal_share_of_wins_goes_on_to_the_average_total():
    # Ann won 2 of 2 games and Bart 1 of 1: the same share; Bart's average total is lower.
    ann = standing("Ann", points=4, games=2, wins=2, total_sum=40)
    bart = standing("Bart", points=2, games=1, wins=1, total_sum=10)
    assert by_average(ann, bart) == ["Bart", "Ann"]


def test_by_average_the_totals_compare_per_game():
    # Ann's 20 over 2 games is 10 a game, Bart's 15 in one game more.
    ann = standing("Ann", points=4, games=2, wins=0, total_sum=20)
    bart = standing("Bart", points=2, games=1, wins=0, total_sum=15)
    assert by_average(bart, ann) == ["Ann", "Bart"]


def test_by_average_the_table_mates_points_compare_per_game_high_first():
    # Equal on points, wins and totals a game; Ann's table-mates made 3 a game, Bart's 4.
    ann = standing("Ann", points=4, games=2, wins=0, total_sum=20, opponents_points=6)
    bart = standing("Bart", points=2, games=1, wins=0, total_sum=10, opponents_points=4)
    assert by_average(ann, bart) == ["Bart", "Ann"]


def test_the_substitute_credit_goes_to_the_last_of_three_players_at_the_seat():
    stints = [Stint("Ann", 3, 20), Stint("Bart", 2, 10), Stint("Chris", 4, 15)]
    (credit,) = seat_credits("Chris", 45, stints, CREDIT_SUBSTITUTE)
    assert (credit.player, credit.share, credit.total) == ("Chris", 1, 45)


def test_a_split_seat_where_no_round_was_played_is_the_first_player_s():
    stints = [Stint("Ann", 0, 0), Stint("Bart", 0, 0)]
    credits = seat_credits("Bart", 0, stints, CREDIT_SPLIT)
    assert [(c.player, c.share, c.total) for c in credits] == [("Ann", 1, 0), ("Bart", 0, 0)]


def test_no_finished_game_means_no_standings():
    assert standings([]) == []
