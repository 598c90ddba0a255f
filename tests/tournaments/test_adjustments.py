"""Penalty and bonus points: game points in a game's result (never in its play), placement
points in the standings, corrections and removals with a reason, the audit log."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from tests.factories import make_table, record
from tournaments.errors import Refused
from tournaments.models import Adjustment, GameChange, Registration, Seat

pytestmark = pytest.mark.django_db

# Dirk collects 45 a round and goes over 150 in round 4: Ann 0, Bart 4, Chris 36, Dirk 180.
HANDS = {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}
ROUND = {"hands": HANDS, "yaniv": "Ann"}


def seat_of(table, name) -> Seat:
    return Seat.objects.get(table=table, player__name=name)


def give(tournament, name, director, *, table=None, **what) -> Adjustment:
    fields: dict[str, object] = {
        "kind": "penalty",
        "unit": "game",
        "points": Decimal(10),
        "reason": "late",
    }
    fields.update(what)
    seat = seat_of(table, name) if table is not None else None
    player = seat.player if seat else Registration.objects.get(player__name=name).player
    return Adjustment.give(tournament, player, seat=seat, by=director, **fields)


def finished_table(tournament, referee):
    table = make_table(tournament=tournament, referee=referee)
    for player in table.seats.values_list("player", flat=True):
        Registration.objects.create(tournament=tournament, player_id=player, checked_in=True)
    record(table.game, referee, *[ROUND] * 4)
    return table


def test_game_points_change_the_seats_total_and_the_games_ranks(tournament, referee, director):
    table = finished_table(tournament, referee)
    give(tournament, "Bart", director, table=table, points=Decimal(40), reason="conduct")
    bart, chris = seat_of(table, "Bart"), seat_of(table, "Chris")
    # The rounds' total stays the engine's; the result counts the 40.
    assert (bart.total, bart.adjustment, bart.adjusted_total, bart.rank) == (4, 40, 44, 3)
    assert chris.rank == 2
    standings = [(s.place, p.name, s.points, s.total_sum) for s, p in tournament.standings()]
    assert standings == [
        (1, "Ann", 3, 0),
        (2, "Chris", 2, 36),
        (3, "Bart", 1, 44),
        (4, "Dirk", 0, 180),
    ]
    change = table.game.changes.get(action=GameChange.Action.ADJUST)
    assert "Bart" in change.reason and "+40" in change.reason and "conduct" in change.reason


def test_game_points_never_end_the_game_nor_reach_a_reduction(tournament, referee, director):
    table = make_table(tournament=tournament, referee=referee)
    game = table.game
    record(game, referee, *[ROUND] * 3)  # Chris 27, Dirk 135
    give(tournament, "Chris", director, table=table, points=Decimal(23))  # 27 + 23 = 50
    give(tournament, "Dirk", director, table=table, points=Decimal(30))  # 135 + 30 = 165
    game.refresh_from_db()
    assert not game.finished
    chris = seat_of(table, "Chris")
    assert (chris.total, chris.adjusted_total) == (27, 50)
    # The next round is scored from the rounds' totals: Chris 27 + 9, no reduction.
    record(game, referee, {"hands": {**HANDS, "Dirk": 10}, "yaniv": "Ann"})
    chris.refresh_from_db()
    assert (chris.total, chris.adjusted_total) == (36, 59)
    assert not game.finished


def test_a_bonus_takes_game_points_off(tournament, referee, director):
    table = finished_table(tournament, referee)
    give(tournament, "Chris", director, table=table, kind="bonus", points=Decimal(33))
    chris = seat_of(table, "Chris")
    assert (chris.adjusted_total, chris.rank) == (3, 2)


def test_placement_points_count_in_the_standings_with_the_mark(tournament, referee, director):
    finished_table(tournament, referee)
    give(tournament, "Ann", director, unit="placement", points=Decimal("1.5"), reason="ruling")
    rows = {player.name: standing for standing, player in tournament.standings()}
    assert rows["Ann"].points == Fraction(3, 2)
    assert rows["Ann"].adjustment == Fraction(-3, 2)
    # Bart now leads with 2 and a better sum of totals than Ann? No: Ann 1.5 < Bart 2.
    assert [p.name for _, p in tournament.standings()] == ["Bart", "Ann", "Chris", "Dirk"]


def test_a_correction_and_a_removal_say_why_and_are_logged(tournament, referee, director):
    table = finished_table(tournament, referee)
    given = give(tournament, "Bart", director, table=table, points=Decimal(40))
    given.correct(why="it was 10 minutes, not 40", by=director, points=Decimal(10))
    assert seat_of(table, "Bart").adjusted_total == 14
    with pytest.raises(Refused) as refused:
        given.remove(why="  ", by=director)
    assert refused.value.code == "adjustment_why"
    given.remove(why="the director's mistake", by=director)
    assert seat_of(table, "Bart").adjusted_total == 4
    assert [c.action for c in given.changes.all()] == ["give", "correct", "remove"]
    assert (given.changes.get(action="correct").before or {})["points"] == "40"
    with pytest.raises(Refused):
        given.remove(why="again", by=director)
    assert table.game.changes.filter(action=GameChange.Action.ADJUST).count() == 3


def test_game_points_need_a_game_and_whole_numbers(tournament, referee, director):
    finished_table(tournament, referee)
    with pytest.raises(Refused) as refused:
        give(tournament, "Ann", director)
    assert refused.value.code == "adjustment_needs_game"
    table = make_table(("Eva", "Finn", "Gert"), tournament=tournament)
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        give(tournament, "Eva", director, table=table, points=Decimal("2.5"))
    assert not Adjustment.objects.exists()


def test_an_other_reason_says_what(tournament, referee, director):
    from django.core.exceptions import ValidationError

    table = finished_table(tournament, referee)
    with pytest.raises(ValidationError):
        give(tournament, "Ann", director, table=table, reason="other", text=" ")
    given = give(tournament, "Ann", director, table=table, reason="other", text="phone rang")
    assert given.why == "phone rang"
