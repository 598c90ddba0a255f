"""A season's rules at their edges (issue 36, mutation testing): a table of points from 0 to the
most a place may give, numbers as typed with leading zeros, an unknown scheme and a best-of out
of range refused with what the organiser needs to read, the place after the last player."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.seasons import (
    MOST_BEST_OF,
    MOST_POINTS,
    Rules,
    SeasonError,
    check_points_table,
    check_rules,
    placement_points,
    read_points_table,
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
