"""A tournament's facts at their edges (issue 36, mutation testing): a comeback of a single
point, a deficit as deep twice, two games as long, a player who waited exactly the ten rounds
the lowest average hand asks for."""

from __future__ import annotations

from fractions import Fraction

from scoring.statistics import (
    FACT_MIN_ROUNDS,
    PLAYER,
    Fact,
    HandLine,
    best_comeback,
    facts,
    gather,
    longest_game,
)


def line(game: int, number: int, player: str, total: int, *, caller="Bart", hand=5) -> HandLine:
    """One player's hand in a Yaniv round `caller` held: only what the facts read matters."""
    points = 0 if player == caller else hand
    return HandLine(
        "cup", game, number, "yaniv", caller, None, player, player, hand, False, points, 0, total
    )


def game_of(game: int, *totals_by_round: dict[str, int]) -> list[HandLine]:
    return [
        line(game, number, player, total)
        for number, totals in enumerate(totals_by_round, start=1)
        for player, total in totals.items()
    ]


def test_a_winner_one_point_behind_after_a_round_made_a_comeback_of_one():
    lines = game_of(1, {"Ann": 1, "Bart": 0}, {"Ann": 1, "Bart": 5})
    assert best_comeback(lines) == Fact("best_comeback", 1, ("Ann",), game=1, round=1)


def test_a_deficit_as_deep_after_two_rounds_is_told_at_the_first():
    lines = game_of(1, {"Ann": 5, "Bart": 0}, {"Ann": 10, "Bart": 5}, {"Ann": 10, "Bart": 20})
    assert best_comeback(lines) == Fact("best_comeback", 5, ("Ann",), game=1, round=1)


def test_of_two_games_as_long_the_first_is_the_longest():
    lines = game_of(1, {"Ann": 0, "Bart": 5}) + game_of(2, {"Ann": 5, "Bart": 0})
    assert longest_game(lines) == Fact("longest_game", 1, (), game=1)
    three_rounds = game_of(3, *[{"Ann": 0, "Bart": 5}] * 3)
    assert longest_game(lines + three_rounds) == Fact("longest_game", 3, (), game=3)


def test_the_lowest_average_hand_is_told_from_exactly_ten_rounds_another_player_ended():
    # Bart calls every round: Ann waits, with a hand of 7 each time.
    waited = [line(1, number, "Ann", 7 * number, hand=7) for number in range(1, 11)]
    assert len(waited) == FACT_MIN_ROUNDS
    told = {fact.code: fact for fact in facts(waited)}
    assert told["lowest_hand"] == Fact("lowest_hand", Fraction(7), ("Ann",))
    assert "lowest_hand" not in {fact.code for fact in facts(waited[:-1])}


def test_a_single_point_breaks_a_run_of_rounds_without_points():
    # Ann holds a call, scores the one point of an ace, and holds again: two runs of one.
    lines = [
        line(1, 1, "Ann", 0, caller="Ann"),
        line(1, 2, "Ann", 1, hand=1),
        line(1, 3, "Ann", 1, caller="Ann"),
    ]
    assert gather(lines, by=PLAYER)["Ann"].longest_run == 1


def test_going_along_with_a_single_point_scored_is_going_along_lost():
    # Ann went along with Bart's call and scored a point (an ace): she lost, however little.
    along = HandLine("cup", 1, 1, "yaniv", "Bart", None, "Ann", "Ann", 1, True, 1, 0, 1)
    ann = gather([along], by=PLAYER)["Ann"]
    assert (ann.along, ann.along_won, ann.along_lost) == (1, 0, 1)


def test_each_reduction_counts_once_and_takes_off_its_points():
    # Ann lands on 50 twice in a game (each -50, belgian): two reductions, 100 points.
    reduced = [
        HandLine("cup", 1, number, "yaniv", "Bart", None, "Ann", "Ann", 5, False, 5, 50, 0)
        for number in (3, 7)
    ]
    ann = gather(reduced, by=PLAYER)["Ann"]
    assert (ann.reductions, ann.reduced) == (2, 100)
