"""Season standings, pure: the schemes, the coefficient, best N of M, ties and the checks."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.seasons import (
    Event,
    Placing,
    Rules,
    Scheme,
    SeasonError,
    base_points,
    check_coefficient,
    check_points_table,
    check_rules,
    counted,
    placement_points,
    read_points_table,
    season_points,
    season_standings,
    table_points,
)

F1 = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6)


def event(key: str, *places: tuple[str, int], coefficient: str = "1", provisional=False):
    return Event(
        key=key,
        coefficient=Decimal(coefficient),
        placings=tuple(Placing(player, place) for player, place in places),
        provisional=provisional,
    )


def ranked(standings):
    return [(s.place, s.player, s.points) for s in standings]


# --- one result ------------------------------------------------------------------------------


def test_placement_points_give_the_winner_of_n_players_n_and_the_last_one():
    assert [placement_points(place, 24) for place in (1, 2, 24)] == [24, 23, 1]


def test_a_table_of_points_gives_nothing_beyond_its_last_place():
    assert [table_points(place, F1) for place in (1, 2, 10, 11, 40)] == [25, 20, 6, 0, 0]


def test_the_scheme_picks_the_points_of_a_place():
    assert base_points(Rules(Scheme.PLACEMENT), 3, 8) == 6
    assert base_points(Rules(Scheme.TABLE, F1), 3, 8) == 16


def test_the_coefficient_multiplies_the_points_in_hundredths():
    assert season_points(Rules(Scheme.TABLE, F1), 1, 8, Decimal("1.5")) == Decimal("37.50")
    assert season_points(Rules(Scheme.PLACEMENT), 2, 7, Decimal("0.33")) == Decimal("1.98")


# --- best N of M -----------------------------------------------------------------------------


def test_the_best_n_results_count_and_an_earlier_one_counts_among_equals():
    points = [Decimal(n) for n in (10, 25, 10, 16)]
    assert counted(points, 2) == [False, True, False, True]
    assert counted(points, 3) == [True, True, False, True]
    assert counted(points, None) == [True] * 4
    assert counted(points[:2], 3) == [True, True]


def test_best_two_of_three_strikes_each_players_worst_result_through():
    rules = Rules(Scheme.TABLE, F1, best_of=2)
    events = [
        event("spring", ("Ann", 1), ("Bart", 2), ("Chris", 3)),
        event("summer", ("Bart", 1), ("Ann", 3), ("Chris", 2)),
        event("autumn", ("Chris", 1), ("Ann", 2), ("Bart", 3)),
    ]
    standings = season_standings(rules, events)
    # Each played all three: 25 + 20 counted, 16 struck through. All equal: they share 1st.
    assert ranked(standings) == [
        (1, "Ann", Decimal("45.00")),
        (1, "Bart", Decimal("45.00")),
        (1, "Chris", Decimal("45.00")),
    ]
    ann = standings[0]
    assert [(r.event, r.points, r.counted) for r in ann.results] == [
        ("spring", Decimal("25.00"), True),
        ("summer", Decimal("16.00"), False),
        ("autumn", Decimal("20.00"), True),
    ]
    assert ann.counted == 2 and ann.best == Decimal("25.00")


def test_ties_in_counted_points_go_to_more_results_counted_then_the_best_result():
    rules = Rules(Scheme.TABLE, (30, 20, 10, 5), best_of=3)
    events = [
        event("one", ("Ann", 2), ("Bart", 1), ("Chris", 3), ("Dirk", 1)),
        event("two", ("Ann", 2), ("Chris", 1), ("Dirk", 4), ("Eva", 1)),
        event("three", ("Ann", 3), ("Eva", 3), ("Fien", 1), ("Gert", 2)),
        event("four", ("Gert", 2), ("Fien", 3)),
    ]
    standings = {s.player: s for s in season_standings(rules, events)}
    # Ann 20 + 20 + 10 = 50 from 3 results; Chris, Eva and Fien 30 + 10 = 40 from 2; Gert
    # 20 + 20 = 40 from 2; Dirk 30 + 5 = 35; Bart 30.
    assert standings["Ann"].place == 1
    # Chris, Eva and Fien: 40 from two results, best 30, then 10: equal, they share 2nd.
    assert {standings[p].place for p in ("Chris", "Eva", "Fien")} == {2}
    # Gert: 40 from two results too, but his best is 20: after them.
    assert standings["Gert"].place == 5
    assert (standings["Dirk"].place, standings["Bart"].place) == (6, 7)


def test_more_results_counted_beat_fewer_with_the_same_points():
    events = [
        event("one", ("Dirk", 1), ("Ann", 2)),
        event("two", ("Eva", 1), ("Ann", 2)),
    ]
    standings = season_standings(Rules(Scheme.TABLE, (30, 15)), events)
    # 30 points each: Ann from two results, Dirk and Eva from one.
    assert ranked(standings) == [
        (1, "Ann", Decimal("30.00")),
        (2, "Dirk", Decimal("30.00")),
        (2, "Eva", Decimal("30.00")),
    ]


def test_players_sharing_a_tournament_place_get_its_points():
    standings = season_standings(
        Rules(Scheme.PLACEMENT), [event("night", ("Ann", 1), ("Bart", 1), ("Chris", 3))]
    )
    assert ranked(standings) == [
        (1, "Ann", Decimal("3.00")),
        (1, "Bart", Decimal("3.00")),
        (3, "Chris", Decimal("1.00")),
    ]


def test_a_tournament_counting_twice_as_much_weighs_twice_as_much():
    events = [
        event("club night", ("Ann", 1), ("Bart", 2)),
        event("championship", ("Bart", 1), ("Ann", 2), coefficient="2"),
    ]
    standings = season_standings(Rules(Scheme.TABLE, (10, 6)), events)
    assert ranked(standings) == [(1, "Bart", Decimal("26.00")), (2, "Ann", Decimal("22.00"))]
    assert [r.points for r in standings[0].results] == [Decimal("6.00"), Decimal("20.00")]


def test_a_result_of_a_tournament_still_played_is_provisional():
    events = [event("done", ("Ann", 1)), event("running", ("Bart", 1), provisional=True)]
    standings = {s.player: s for s in season_standings(Rules(), events)}
    assert not standings["Ann"].provisional
    assert standings["Bart"].provisional and standings["Bart"].results[0].provisional


def test_a_provisional_result_struck_through_leaves_the_standing_final():
    events = [
        event("done", ("Ann", 1), ("Bart", 2)),
        event("running", ("Ann", 2), ("Bart", 1), provisional=True),
    ]
    standings = {s.player: s for s in season_standings(Rules(best_of=1), events)}
    assert not standings["Ann"].provisional


def test_a_season_without_results_has_no_standings():
    assert season_standings(Rules(), [event("empty")]) == []


def test_a_tournament_counts_once():
    with pytest.raises(SeasonError) as raised:
        season_standings(Rules(), [event("one", ("Ann", 1)), event("one", ("Ann", 1))])
    assert raised.value.code == "event_twice"


# --- the organiser's input, checked ----------------------------------------------------------


def test_a_typed_table_of_points_is_read_with_commas_semicolons_or_spaces():
    assert read_points_table("25, 20;16 13") == (25, 20, 16, 13)


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "points_table_empty", {}),
        ("25, x", "points_table_number", {"place": 2, "value": "x", "most": 10_000}),
        ("25, -3", "points_table_number", {"place": 2, "value": "-3", "most": 10_000}),
        ("25, 2.5", "points_table_number", {"place": 2, "value": "2.5", "most": 10_000}),
        ("25, 30", "points_table_rises", {"place": 2, "previous": 1}),
        ("25, 20000", "points_table_number", {"place": 2, "value": 20000, "most": 10_000}),
    ],
)
def test_a_wrong_table_of_points_is_refused_with_a_code(text, code, params):
    with pytest.raises(SeasonError) as raised:
        read_points_table(text)
    assert (raised.value.code, dict(raised.value.params)) == (code, params)


def test_a_table_of_points_lists_at_most_200_places():
    assert len(check_points_table([1] * 200)) == 200
    with pytest.raises(SeasonError, match="at most 200 places"):
        check_points_table([1] * 201)


def test_the_table_scheme_needs_a_table_and_best_of_is_1_to_100():
    with pytest.raises(SeasonError) as raised:
        check_rules(Rules(Scheme.TABLE))
    assert raised.value.code == "points_table_empty"
    for best_of in (0, 101):
        with pytest.raises(SeasonError) as raised:
            check_rules(Rules(best_of=best_of))
        assert raised.value.code == "best_of_range"
    assert check_rules(Rules(best_of=100)).best_of == 100


@pytest.mark.parametrize("value", ["1", "1.5", "0.01", "100", Decimal("2.25")])
def test_a_coefficient_is_0_01_to_100_in_hundredths(value):
    assert check_coefficient(value) == Decimal(str(value))


@pytest.mark.parametrize("value", ["0", "-1", "100.01", "1.005", "NaN", "Infinity", "one", None])
def test_a_wrong_coefficient_is_refused(value):
    with pytest.raises(SeasonError) as raised:
        check_coefficient(value)
    assert raised.value.code == "coefficient_range"
    assert raised.value.message == (
        "a coefficient must be a number from 0.01 to 100 with at most two decimals"
    )
