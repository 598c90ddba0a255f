"""The hand-written reads of a round's submission (tournaments.models.rows) build the instances
the ORM's `select_related` builds: every field, value and type, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, models, transaction
from django.test import RequestFactory
from django.test.utils import isolate_apps

from tests.factories import make_table, make_user, record
from tournaments import access
from tournaments.backends import Accounts
from tournaments.models import Game, GameChange, Seat, Session, Table
from tournaments.models.rows import converter

pytestmark = pytest.mark.django_db

BRUSSELS = datetime.timezone(datetime.timedelta(hours=1))


def fields(instance: models.Model) -> dict[str, tuple[Any, type]]:
    """Every concrete field of `instance`: its value and the value's type."""
    return {
        field.attname: (getattr(instance, field.attname), type(getattr(instance, field.attname)))
        for field in instance._meta.concrete_fields
    }


@pytest.fixture
def busy_table(tournament, referee):
    """A table whose rows hold every kind of value the reads convert: times, JSON, booleans,
    dates, empty values and set ones."""
    tournament.ends_on = tournament.starts_on + datetime.timedelta(days=1)
    tournament.is_public = False
    tournament.rule_options = {"yaniv_limit": 7, "reductions": [[50, 0], [100, 50]]}
    tournament.save()
    table = make_table(referee=referee, tournament=tournament)
    Session.objects.filter(pk=table.session_id).update(
        moved_players=[3, 5],
        time_limit=45,
        clock_started_at=datetime.datetime(2026, 3, 14, 10, 0, 7, 123456, tzinfo=BRUSSELS),
        clock_paused_seconds=30,
        seed=2**40,
    )
    Table.objects.filter(pk=table.pk).update(clock_extension=5)
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann", "along": []},
    )
    referee.last_login = datetime.datetime(2026, 3, 13, 22, 30, tzinfo=datetime.UTC)
    referee.save()
    return table


def test_the_access_read_gives_the_table_session_tournament_game_and_referee_as_the_orm_does(
    busy_table, django_assert_num_queries
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
        assert table.referee is not None and expected.referee is not None
        assert fields(table.referee) == fields(expected.referee)
        # The values the page and a round read, as they are.
        assert table.session.tournament.rule_options == {
            "yaniv_limit": 7,
            "reductions": [[50, 0], [100, 50]],
        }
        assert table.session.moved_players == [3, 5]
        assert table.session.clock_started_at == datetime.datetime(
            2026, 3, 14, 9, 0, 7, 123456, tzinfo=datetime.UTC
        )
        assert table.session.tournament.is_public is False
        assert table.game.round_count == 1
        assert table.game.table is table


def test_the_access_read_of_a_table_without_a_referee_has_none(tournament, director):
    table = make_table(tournament=tournament)
    request = RequestFactory().get("/")
    request.user = director
    read = access.get_table_for_viewer(request, table.pk)
    assert read.referee_id is None and read.referee is None
    assert fields(read.game) == fields(Game.objects.get(pk=table.game.pk))


def test_the_locked_read_gives_the_game_and_its_seats_with_their_players_as_the_orm_does(
    busy_table, django_assert_num_queries
):
    game = Game.objects.select_related("table__session__tournament").get(table=busy_table)
    with transaction.atomic(), django_assert_num_queries(1):
        locked, seats = game._locked_with_seats()
    expected = list(
        Seat.objects.select_related("player").filter(table=busy_table).order_by("position")
    )
    assert fields(locked) == fields(Game.objects.get(pk=game.pk))
    assert [fields(seat) for seat in seats] == [fields(seat) for seat in expected]
    assert [fields(seat.player) for seat in seats] == [fields(seat.player) for seat in expected]
    assert [(seat.total, seat.rank) for seat in seats] == [(0, 1), (12, 3), (7, 2), (20, 4)]
    # One game and one table for every seat, the table as the caller loaded it.
    assert {id(seat.table) for seat in seats} == {id(game.table)}
    assert locked.table is game.table


def test_the_session_user_read_gives_the_user_as_the_orm_does(referee, django_assert_num_queries):
    referee.last_login = datetime.datetime(2026, 3, 13, 22, 30, 1, 5, tzinfo=datetime.UTC)
    referee.is_staff = True
    referee.save()
    with django_assert_num_queries(1):
        user = Accounts().get_user(referee.pk)
    assert fields(user) == fields(get_user_model().objects.get(pk=referee.pk))


def test_the_session_user_read_refuses_an_inactive_or_gone_user(db):
    gone = make_user("left")
    gone.is_active = False
    gone.save()
    assert Accounts().get_user(gone.pk) is None
    assert Accounts().get_user(gone.pk + 1000) is None


def test_a_uuid_is_read_as_the_orm_reads_it(db):
    client_id = converter(GameChange._meta.get_field("client_id"))
    assert client_id is not None
    made = uuid.UUID("6a0b4b1e-6a53-4b5b-9f55-6b1f6d7f1f1f")
    assert client_id(made.hex, connection) == made
    assert client_id(made, connection) == made


@isolate_apps("tournaments")
def test_a_kind_of_field_the_reads_do_not_know_is_refused():
    class Fee(models.Model):
        amount = models.DecimalField(max_digits=5, decimal_places=2)

        class Meta:
            app_label = "tournaments"

        def __str__(self) -> str:
            return str(self.amount)

    with pytest.raises(TypeError, match="Fee.amount: a DecimalField is not read by"):
        converter(Fee._meta.get_field("amount"))
