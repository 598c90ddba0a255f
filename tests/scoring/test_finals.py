"""The final: who plays it, its tables, and the final standings with each carry-over."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.finals import (
    CarryOver,
    FinalError,
    FinalResult,
    final_results,
    final_standings,
    finalists,
    table_sizes_of_final,
)
from scoring.standings import Standing


def standing(place, player, points, total_sum=100, provisional=False):
    return Standing(place, player, Fraction(points), 3, 1, total_sum, Fraction(0), provisional)


# Ten players after the qualifying sessions (places 1-10).
QUALIFYING = [
    standing(1, "Ann", 8, total_sum=120),
    standing(2, "Bart", 7, total_sum=90),
    standing(3, "Chris", 6.5, total_sum=200),
    standing(4, "Dirk", 6, total_sum=150),
    standing(5, "Eva", 5),
    standing(6, "Finn", 4),
    standing(7, "Gina", 3),
    standing(8, "Hugo", 2),
    standing(9, "Ines", 1),
    standing(10, "Jan", 0),
]


def test_one_final_table_takes_the_top_of_the_standings():
    assert finalists(QUALIFYING, 4, 1) == (("Ann", "Bart", "Chris", "Dirk"),)


def test_two_final_tables_split_by_standings_best_half_first():
    assert finalists(QUALIFYING, 7, 2) == (
        ("Ann", "Bart", "Chris", "Dirk"),
        ("Eva", "Finn", "Gina"),
    )
    assert table_sizes_of_final(7, 2) == (4, 3)


@pytest.mark.parametrize(("size", "tables"), [(1, 1), (9, 1), (3, 2), (17, 2), (4, 3)])
def test_a_final_of_impossible_size_is_refused(size, tables):
    with pytest.raises(FinalError) as raised:
        table_sizes_of_final(size, tables)
    assert raised.value.code == "final_size"


def test_a_final_needs_enough_qualified_players():
    with pytest.raises(FinalError) as raised:
        finalists(QUALIFYING[:3], 4, 1)
    assert raised.value.code == "too_few_qualified"
    assert dict(raised.value.params) == {"count": 3, "size": 4}


def test_a_place_shared_across_the_cut_asks_the_director():
    shared = [*QUALIFYING[:3], standing(4, "Dirk", 6), standing(4, "Eva", 6), *QUALIFYING[5:]]
    with pytest.raises(FinalError) as raised:
        finalists(shared, 4, 1)
    assert raised.value.code == "tie_at_the_cut"
    assert dict(raised.value.params) == {"players": "Dirk, Eva", "place": 4, "wider": 5}
    # Widened to 5, it goes through.
    assert finalists(shared, 5, 1) == (("Ann", "Bart", "Chris", "Dirk", "Eva"),)


# The A final: Chris wins, Dirk second, Ann and Bart share third (totals 160, 151, 170, 170).
FINAL_A = [
    FinalResult("Ann", 1, rank=3, total=170, table_size=4, tied=2),
    FinalResult("Bart", 1, rank=3, total=170, table_size=4, tied=2),
    FinalResult("Chris", 1, rank=1, total=0, table_size=4, tied=1),
    FinalResult("Dirk", 1, rank=2, total=40, table_size=4, tied=1),
]


def places(rows):
    return [(row.place, row.player, row.stage) for row in rows]


def test_without_carry_over_the_final_game_decides_and_the_rest_follow():
    rows = final_standings(QUALIFYING, FINAL_A, CarryOver.NONE, finished=True)
    assert places(rows)[:6] == [
        (1, "Chris", "final"),
        (2, "Dirk", "final"),
        # Ann and Bart share the final's third rank: the better qualifying place first.
        (3, "Ann", "final"),
        (4, "Bart", "final"),
        (5, "Eva", "qualifying"),
        (6, "Finn", "qualifying"),
    ]
    assert [row.score for row in rows[:4]] == [3, 2, Fraction(1, 2), Fraction(1, 2)]
    assert len(rows) == 10 and rows[-1].place == 10


def test_placement_carry_over_adds_the_qualifying_points():
    rows = final_standings(QUALIFYING, FINAL_A, CarryOver.PLACEMENT, finished=True)
    # Ann 8 + 0.5, Bart 7 + 0.5, Chris 6.5 + 3, Dirk 6 + 2.
    assert [(row.player, row.score) for row in rows[:4]] == [
        ("Chris", Fraction(19, 2)),
        ("Ann", Fraction(17, 2)),
        ("Dirk", Fraction(8)),
        ("Bart", Fraction(15, 2)),
    ]


def test_totals_carry_over_adds_the_qualifying_sums_lowest_first():
    rows = final_standings(QUALIFYING, FINAL_A, CarryOver.TOTALS, finished=True)
    # Ann 120 + 170, Bart 90 + 170, Chris 200 + 0, Dirk 150 + 40.
    assert [(row.player, row.score) for row in rows[:4]] == [
        ("Dirk", 190),
        ("Chris", 200),
        ("Bart", 260),
        ("Ann", 290),
    ]


def test_the_b_final_ranks_below_the_a_final_whatever_its_scores():
    final_b = [
        FinalResult("Eva", 2, rank=1, total=10, table_size=3, tied=1),
        FinalResult("Finn", 2, rank=2, total=60, table_size=3, tied=1),
        FinalResult("Gina", 2, rank=3, total=160, table_size=3, tied=1),
    ]
    rows = final_standings(QUALIFYING, FINAL_A + final_b, CarryOver.NONE, finished=True)
    assert [row.player for row in rows[:7]] == [
        "Chris", "Dirk", "Ann", "Bart", "Eva", "Finn", "Gina"
    ]  # fmt: skip
    assert [row.final_table for row in rows[:8]] == [1, 1, 1, 1, 2, 2, 2, None]
    assert rows[7].place == 8 and rows[7].player == "Hugo"


def test_a_final_not_finished_keeps_the_qualifying_places():
    rows = final_standings(QUALIFYING, FINAL_A, CarryOver.NONE, finished=False)
    assert [row.player for row in rows] == [s.player for s in QUALIFYING]
    assert {row.stage for row in rows} == {"qualifying"}


def test_players_equal_in_everything_share_the_place():
    level = [standing(1, "Ann", 5), standing(1, "Bart", 5), standing(3, "Chris", 1)]
    final = [
        FinalResult("Ann", 1, rank=1, total=10, table_size=2, tied=2),
        FinalResult("Bart", 1, rank=1, total=10, table_size=2, tied=2),
    ]
    rows = final_standings(level, final, CarryOver.NONE, finished=True)
    assert places(rows) == [(1, "Ann", "final"), (1, "Bart", "final"), (3, "Chris", "qualifying")]


def test_final_results_count_each_tables_size_and_who_shares_a_rank():
    # Table 1 (id 10): Ann alone first, Bart and Chris share 2nd; table 2 (id 20): Dirk, Eva.
    results = final_results(
        [
            ("Ann", 10, 1, 1, 3),
            ("Bart", 10, 1, 2, 20),
            ("Chris", 10, 1, 2, 20),
            ("Dirk", 20, 2, 1, 0),
            ("Eva", 20, 2, 2, 40),
        ]
    )
    assert [(r.player, r.table, r.table_size, r.tied) for r in results] == [
        ("Ann", 1, 3, 1),
        ("Bart", 1, 3, 2),
        ("Chris", 1, 3, 2),
        ("Dirk", 2, 2, 1),
        ("Eva", 2, 2, 1),
    ]
