"""A season's rules at their edges (issue 36, mutation testing): a table of points from 0 to the
most a place may give, numbers as typed with leading zeros, an unknown scheme and a best-of out
of range refused with what the organiser needs to read, the place after the last player."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scoring.seasons import (
    MOST_BEST_OF,
    MOST_POINTS,
    Event,
    Placing,
    Rules,
    SeasonError,
    check_points_table,
    check_rules,
    placement_points,
    read_points_table,
    season_standings,
)


def refusal(call) -> SeasonError:
    with pytest.raises(SeasonError) as error:
        call()
    return error.value


def test_a_table_of_points_may_give_the_most_points_and_none():
    assert check_points_table([MOST_POINTS, 0]) == (MOST_POINTS, 0)
    assert refusal(lambda: check_points_table([MOST_POINTS + 1])).code == "points_table_number"
    assert refusal(lambda: check_points_table([5, -1])).code == "points_table_number"


def test_a_typed_number_of_six_digits_is_read_and_one_of_seven_refused_as_typed():
    assert read_points_table("000025, 000010") == (25, 10)
    error = refusal(lambda: read_points_table("25 0000010"))
    assert error.code == "points_table_number"
    assert dict(error.params) == {"place": 2, "value": "0000010", "most": MOST_POINTS}


def test_an_unknown_scheme_is_refused_with_the_schemes_there_are():
    unknown: Any = "knockout"
    error = refusal(lambda: check_rules(Rules(scheme=unknown)))
    assert error.code == "scheme_unknown"
    assert dict(error.params) == {"choices": "placement, table"}
    assert "placement, table" in str(error)


@pytest.mark.parametrize("best_of", [0, MOST_BEST_OF + 1])
def test_a_best_of_out_of_range_names_the_most_results_counted(best_of):
    error = refusal(lambda: check_rules(Rules(best_of=best_of)))
    assert (error.code, dict(error.params)) == ("best_of_range", {"most": MOST_BEST_OF})


def test_a_place_after_the_last_player_gives_no_points():
    assert placement_points(5, 5) == 1
    assert placement_points(6, 5) == 0


def tournament(key: str, *players: str) -> Event:
    """A tournament that ranked its players in the order given."""
    placings = tuple(Placing(player, place) for place, player in enumerate(players, start=1))
    return Event(key=key, coefficient=Decimal("1"), placings=placings)


def test_a_tournament_counted_twice_is_named_in_the_refusal():
    cup = tournament("Cup", "Ann")
    error = refusal(lambda: season_standings(Rules(), [cup, cup]))
    assert (error.code, dict(error.params)) == ("event_twice", {"event": "Cup"})
    assert "tournament Cup is counted twice" in str(error)


def test_each_result_keeps_the_place_and_the_field_of_its_tournament():
    standings = season_standings(
        Rules(), [tournament("Cup", "Ann", "Bart", "Chris"), tournament("Open", "Bart", "Ann")]
    )
    bart = next(standing for standing in standings if standing.player == "Bart")
    assert [(r.event, r.place, r.field, r.points) for r in bart.results] == [
        ("Cup", 2, 3, Decimal("2.00")),
        ("Open", 1, 2, Decimal("2.00")),
    ]


def test_players_level_on_everything_share_the_place_and_are_listed_by_name():
    # Bart and Ann share first place at the Cup: the same points, the same results.
    cup = Event("Cup", Decimal("1"), (Placing("Bart", 1), Placing("Ann", 1), Placing("Chris", 3)))
    standings = season_standings(Rules(), [cup])
    assert [(s.place, s.player, s.points) for s in standings] == [
        (1, "Ann", Decimal("3.00")),
        (1, "Bart", Decimal("3.00")),
        (3, "Chris", Decimal("1.00")),
    ]
