"""The final at its edges (issue 36, mutation testing): the smallest and largest finals, exactly
as many qualified players as seats, standings handed over in any order with shared places, a
finalist with no qualifying standing, and every field of the standings the pages show."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.finals import (
    CarryOver,
    FinalError,
    FinalResult,
    FinalStanding,
    carried_over,
    final_results,
    final_standings,
    finalists,
    table_sizes_of_final,
)
from scoring.standings import Standing


def standing(place, player, points, total_sum=100, provisional=False):
    return Standing(place, player, Fraction(points), 3, 1, total_sum, Fraction(0), provisional)


# Handed over out of order, with places shared (Dirk and Chris 2nd, Gina and Finn 5th): a
# place decides, and within it the order the standings gave.
QUALIFYING = [
    standing(2, "Dirk", 6),
    standing(1, "Ann", 8, provisional=True),
    standing(5, "Gina", 3),
    standing(2, "Chris", 6),
    standing(4, "Eva", 5),
    standing(5, "Finn", 3),
]


@pytest.mark.parametrize(
    ("size", "tables", "sizes"), [(2, 1, (2,)), (8, 1, (8,)), (4, 2, (2, 2)), (16, 2, (8, 8))]
)
def test_the_smallest_and_largest_finals_are_accepted(size, tables, sizes):
    assert table_sizes_of_final(size, tables) == sizes


def test_a_final_too_large_is_refused_with_its_bounds():
    with pytest.raises(FinalError) as raised:
        table_sizes_of_final(17, 2)
    assert dict(raised.value.params) == {"tables": 2, "low": 4, "high": 16, "size": 17}


def test_exactly_as_many_qualified_players_as_seats_make_the_final():
    assert finalists(QUALIFYING[:4], 4, 1) == (("Ann", "Dirk", "Chris", "Gina"),)


def test_the_finalists_follow_the_places_and_the_standings_order_within_a_place():
    assert finalists(QUALIFYING, 4, 2) == (("Ann", "Dirk"), ("Chris", "Eva"))


def test_a_final_not_finished_keeps_everyone_on_their_qualifying_place():
    rows = final_standings(QUALIFYING, [], CarryOver.NONE, finished=False)
    by_place = sorted(QUALIFYING, key=lambda s: s.place)
    assert rows == [
        FinalStanding(s.place, s.player, "qualifying", None, s.points, s, None, s.provisional)
        for s in by_place
    ]
    assert [row.player for row in rows] == ["Ann", "Dirk", "Chris", "Eva", "Gina", "Finn"]
    assert rows[0].provisional is True


def test_a_finalist_without_a_qualifying_standing_brings_nothing_into_the_final():
    assert carried_over(None, CarryOver.TOTALS) == 0
    assert carried_over(None, CarryOver.PLACEMENT) == Fraction(0)
    assert carried_over(None, CarryOver.NONE) is None


def test_a_finished_final_gives_every_field_of_its_standings():
    results = final_results(
        [
            ("Ann", "t1", 1, 2, 30),
            ("Dirk", "t1", 1, 1, 10),
            ("Zoe", "t1", 1, 2, 30),
        ]
    )
    assert results[0] == FinalResult("Ann", 1, rank=2, total=30, table_size=3, tied=2)
    rows = final_standings(QUALIFYING, results, CarryOver.NONE, finished=True)
    by_player = {s.player: s for s in QUALIFYING}
    assert rows[:3] == [
        FinalStanding(1, "Dirk", "final", 1, Fraction(2), by_player["Dirk"], results[1], False),
        # Ann and Zoe share the game's rank: Ann's qualifying place puts her ahead of Zoe, who
        # has none (a substitute).
        FinalStanding(2, "Ann", "final", 1, Fraction(1, 2), by_player["Ann"], results[0], True),
        FinalStanding(3, "Zoe", "final", 1, Fraction(1, 2), None, results[2], False),
    ]
    # The others after the finalists, in qualifying order, a shared place kept shared.
    assert rows[3:] == [
        FinalStanding(
            place, name, "qualifying", None, Fraction(points), by_player[name], None, False
        )
        for place, name, points in [(4, "Chris", 6), (5, "Eva", 5), (6, "Gina", 3), (6, "Finn", 3)]
    ]


def test_a_finalist_tied_with_one_qualified_far_down_is_placed_after_them():
    far_down = [standing(120, "Ann", 1)]
    results = final_results([("Ann", "t1", 1, 1, 5), ("Zoe", "t1", 1, 1, 5)])
    rows = final_standings(far_down, results, CarryOver.NONE, finished=True)
    assert [(row.place, row.player) for row in rows] == [(1, "Ann"), (2, "Zoe")]
