"""The standings where a substitute took a seat mid-game, and with placement points given: the
three ways of crediting a seat, checked against figures counted by hand, and against the
rules' own standings where no seat changed hands."""

from __future__ import annotations

import random
from collections.abc import Hashable
from fractions import Fraction

from scoring.standings import (
    CREDIT_ORIGINAL,
    CREDIT_SPLIT,
    CREDIT_SUBSTITUTE,
    FinishedSeat,
    Stint,
    adjusted,
    credited_standings,
    seat_credits,
    standings_of_results,
)

# One game of 4 (player, table, total, rank, provisional): Ann won, Bart second with 4.
GAME = [("Ann", 1, 0, 1, False), ("Bart", 1, 4, 2, False), ("Chris", 1, 36, 3, False)]
GAME += [("Eva", 1, 180, 4, False)]
# Bart left after round 1 (1 point); Fien took his seat from round 2 and finished second.
BART_SEAT = [("Ann", 1, 0, 1, False), ("Fien", 1, 4, 2, False), ("Chris", 1, 36, 3, False)]
BART_SEAT += [("Dirk", 1, 180, 4, False)]
STINTS: dict[tuple[Hashable, Hashable], list[Stint]] = {
    (1, "Fien"): [Stint("Bart", 1, 1), Stint("Fien", 3, 3)]
}


def line(ranking, player):
    return next(standing for standing in ranking if standing.player == player)


def test_the_player_who_began_the_game_takes_its_whole_result():
    ranking = credited_standings(BART_SEAT, STINTS, CREDIT_ORIGINAL)
    assert [(s.place, s.player, s.points, s.total_sum) for s in ranking] == [
        (1, "Ann", 3, 0),
        (2, "Bart", 2, 4),
        (3, "Chris", 1, 36),
        (4, "Dirk", 0, 180),
    ]


def test_the_substitute_takes_the_whole_result():
    ranking = credited_standings(BART_SEAT, STINTS, CREDIT_SUBSTITUTE)
    assert [(s.player, s.points) for s in ranking] == [
        ("Ann", 3),
        ("Fien", 2),
        ("Chris", 1),
        ("Dirk", 0),
    ]


def test_a_split_shares_the_points_by_the_rounds_each_played():
    """Bart played 1 round of 4, Fien 3: the seat's 2 points are 0.5 and 1.5; each has the
    part of the total scored while they sat, and the game as one played."""
    ranking = credited_standings(BART_SEAT, STINTS, CREDIT_SPLIT)
    bart, fien = line(ranking, "Bart"), line(ranking, "Fien")
    assert (bart.points, bart.total_sum, bart.games, bart.wins) == (Fraction(1, 2), 1, 1, 0)
    assert (fien.points, fien.total_sum, fien.games, fien.wins) == (Fraction(3, 2), 3, 1, 0)
    # Ann's table-mates: Chris 1 + Dirk 0 + the seat, worth its players' points by their
    # share of it (a quarter of Bart's 0.5, three quarters of Fien's 1.5).
    assert line(ranking, "Ann").opponents_points == 1 + 0 + Fraction(1, 8) + Fraction(9, 8)
    # Bart's own table-mates' points, a quarter of theirs (Ann 3, Chris 1, Dirk 0).
    assert bart.opponents_points == 1
    assert [s.player for s in ranking] == ["Ann", "Fien", "Chris", "Bart", "Dirk"]
    assert [s.place for s in ranking] == [1, 2, 3, 4, 5]


def test_a_player_back_at_the_seat_counts_once():
    credits = seat_credits(
        "Bart", 10, [Stint("Bart", 2, 4), Stint("Fien", 1, 2), Stint("Bart", 1, 4)], CREDIT_SPLIT
    )
    assert credits == (("Bart", Fraction(3, 4), 8), ("Fien", Fraction(1, 4), 2))


def test_without_a_seat_changing_hands_the_credited_standings_are_the_rules():
    rng = random.Random(38)
    for _ in range(40):
        seats = []
        for number in range(rng.randint(1, 10)):
            size = rng.randint(2, 6)
            totals = [rng.choice((0, 5, 12, 30)) for _ in range(size)]
            players = rng.sample(range(1, 25), size)
            ranks = [1 + sum(other < total for other in totals) for total in totals]
            seats += [
                FinishedSeat(p, number, 1, t, r, rng.random() < 0.2)
                for p, t, r in zip(players, totals, ranks, strict=True)
            ]
        results = [(s.player, s.table, s.total, s.rank, s.provisional) for s in seats]
        assert credited_standings(results, {}, CREDIT_SPLIT) == standings_of_results(results)


def test_placement_points_given_change_the_players_points_and_order():
    ranking = standings_of_results(GAME)
    # Ann's penalty of 1.5, Chris's bonus of 1: Ann 1.5, Chris 2, Bart 2 (Bart's 4 < 36).
    given = adjusted(ranking, {"Ann": Fraction(-3, 2), "Chris": Fraction(1)})
    assert [(s.place, s.player, s.points, s.adjustment) for s in given] == [
        (1, "Bart", 2, 0),
        (2, "Chris", 2, 1),
        (3, "Ann", Fraction(3, 2), Fraction(-3, 2)),
        (4, "Eva", 0, 0),
    ]
    # The table-mates' points stay those won at the table.
    assert [s.opponents_points for s in given] == [
        line(ranking, p).opponents_points for p in ("Bart", "Chris", "Ann", "Eva")
    ]


def test_points_given_to_a_player_without_a_finished_game_wait_for_one():
    assert adjusted(standings_of_results(GAME), {"Zoe": Fraction(2)}) == standings_of_results(GAME)
