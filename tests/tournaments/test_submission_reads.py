"""The three reads of a round's submission: the access check's table (with its session,
tournament, game and referee) and the game with its seats and players under the write's lock
(raw joins, tournaments.models.raw_reads) give the instances the ORM gives, every field, value
and type, on SQLite and PostgreSQL; the session's user is Django's ModelBackend's. Each one
query, each object reaching the next as the write and the page use it."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY, get_user, get_user_model
from django.db import transaction
from django.test import RequestFactory
from django.utils import timezone

from scoring.errors import GameError
from tests.factories import make_table, make_user, record
from tournaments import access
from tournaments.backends import Accounts
from tournaments.models import Game, Seat, Session, Table

pytestmark = pytest.mark.django_db


def fields(instance: Any) -> dict[str, tuple[Any, type]]:
    """Every concrete field of `instance`: its value and the value's type."""
    return {
        field.attname: (getattr(instance, field.attname), type(getattr(instance, field.attname)))
        for field in instance._meta.concrete_fields
    }


BRUSSELS = datetime.timezone(datetime.timedelta(hours=1))
STARTED = datetime.datetime(2026, 3, 14, 10, 0, 7, 123456, tzinfo=BRUSSELS)


@pytest.fixture
def busy_table(tournament, referee):
    """A private tournament's table whose rows hold times, JSON, dates and a played round."""
    tournament.ends_on = tournament.starts_on + datetime.timedelta(days=1)
    tournament.is_public = False
    tournament.rule_options = {"yaniv_limit": 7, "reductions": [[50, 0], [100, 50]]}
    tournament.save()
    table = make_table(referee=referee, tournament=tournament)
    Session.objects.filter(pk=table.session_id).update(
        moved_players=[3, 5], time_limit=45, clock_started_at=STARTED, clock_paused_seconds=30
    )
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann", "along": []},
    )
    referee.last_login = datetime.datetime(2026, 3, 13, 22, 30, 1, 5, tzinfo=datetime.UTC)
    referee.save()
    return table


def test_the_access_check_reads_the_table_its_session_tournament_game_and_referee_in_one_query(
    busy_table, referee, django_assert_num_queries
):
    request = RequestFactory().get("/")
    # A superuser may see the private tournament without a query of the directors.
    request.user = make_user("admin", is_superuser=True)
    with django_assert_num_queries(1):
        table = access.get_table_for_viewer(request, busy_table.pk)
    expected = Table.objects.select_related("session__tournament", "game", "referee").get(
        pk=busy_table.pk
    )
    with django_assert_num_queries(0):
        assert fields(table) == fields(expected)
        assert fields(table.session) == fields(expected.session)
        assert fields(table.session.tournament) == fields(expected.session.tournament)
        assert fields(table.game) == fields(expected.game)
        assert fields(table.referee) == fields(expected.referee)
        assert table.session.tournament.rule_options == {
            "yaniv_limit": 7,
            "reductions": [[50, 0], [100, 50]],
        }
        assert table.session.tournament.is_public is False
        assert table.session.moved_players == [3, 5]
        assert table.session.clock_started_at == STARTED
        assert table.session.clock_started_at.utcoffset() == datetime.timedelta(0)
        assert table.game.round_count == 1
        assert table.game.table is table
        assert table.referee == referee


def test_the_access_check_of_a_table_without_a_referee_or_of_none_at_all(tournament, director):
    table = make_table(tournament=tournament)
    request = RequestFactory().get("/")
    request.user = director
    read = access.get_table_for_viewer(request, table.pk)
    assert read.referee_id is None and read.referee is None
    assert read.game == Game.objects.get(table=table)
    with pytest.raises(access.Http404):
        access.get_table_for_viewer(request, table.pk + 1000)


def test_the_locked_read_gives_the_game_and_its_seats_with_their_players_in_one_query(
    busy_table, django_assert_num_queries
):
    game = Game.objects.select_related("table__session__tournament").get(table=busy_table)
    with transaction.atomic(), django_assert_num_queries(1) as queries:
        locked, seats = game._locked_with_seats()
    assert fields(locked) == fields(Game.objects.get(pk=game.pk))
    expected = Seat.objects.select_related("player").filter(table=busy_table).order_by("position")
    assert [fields(seat) for seat in seats] == [fields(seat) for seat in expected]
    assert [fields(seat.player) for seat in seats] == [fields(seat.player) for seat in expected]
    assert locked == game and locked is not game
    assert locked.round_count == 1 and locked._was_finished is False
    assert [seat.player.name for seat in seats] == ["Ann", "Bart", "Chris", "Dirk"]
    assert [(seat.total, seat.rank) for seat in seats] == [(0, 1), (12, 3), (7, 2), (20, 4)]
    # One table for every seat and the game: the caller's, with its session and tournament.
    assert {id(seat.table) for seat in seats} == {id(game.table)}
    assert locked.table is game.table
    statement = queries.captured_queries[0]["sql"]
    if queries.connection.features.has_select_for_update_of:
        # The game row and the seats only: the session's other tables go on meanwhile.
        assert statement.endswith("FOR UPDATE OF s, g")


def test_a_game_without_seats_is_refused_under_the_lock(tournament):
    table = make_table(tournament=tournament)
    table.seats.all().delete()
    with transaction.atomic(), pytest.raises(GameError) as refused:
        table.game._locked_with_seats()
    assert refused.value.code == "player_count"


def test_the_session_user_is_read_by_djangos_backend_in_one_query(
    client, referee, django_assert_num_queries
):
    client.force_login(referee, backend="tournaments.backends.Accounts")
    request = RequestFactory().get("/")
    request.session = client.session
    assert request.session[BACKEND_SESSION_KEY] == "tournaments.backends.Accounts"
    with django_assert_num_queries(1):
        user = get_user(request)
    assert user == referee and user.is_authenticated
    assert Accounts().get_user(referee.pk) == get_user_model().objects.get(pk=referee.pk)
    assert request.session[SESSION_KEY] == str(referee.pk)


def test_an_inactive_or_gone_user_is_no_session_user(db):
    gone = make_user("left")
    gone.is_active = False
    gone.save()
    assert Accounts().get_user(gone.pk) is None
    assert Accounts().get_user(gone.pk + 1000) is None


def test_a_public_tables_poll_reads_the_paused_clock_as_the_session_keeps_it(table):
    now = timezone.now()
    Session.objects.filter(pk=table.session_id).update(
        time_limit=45,
        clock_started_at=now - datetime.timedelta(minutes=10),
        clock_paused_at=now - datetime.timedelta(minutes=4, seconds=30),
        clock_paused_seconds=20,
    )
    session = Session.objects.get(pk=table.session_id)
    expected = session.clock(Table.objects.get(pk=table.pk))
    assert access.public_table_poll(table.pk) == (table.game.version, expected.token)
    # Paused: 45 minutes less the 5:10 played before the pause.
    assert expected.token == "p2390000"
