"""Statements written once: a query's rows as the ORM's instances, rows written as the ORM
writes them."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from tests.factories import make_table
from tournaments.compiled import Insert, Select, Update
from tournaments.models import Game, GameChange, Hand, Round, Seat, Session, Table

pytestmark = pytest.mark.django_db

TABLES = Select(
    lambda pk: Table.objects.select_related("session__tournament", "game", "referee").filter(
        pk=pk
    ),
    0,
)


def test_a_compiled_query_gives_what_the_orm_gives_with_its_related_objects(
    table, django_assert_num_queries
):
    Session.objects.filter(pk=table.session_id).update(
        time_limit=90, clock_started_at=timezone.now()
    )
    expected = Table.objects.select_related("session__tournament", "game", "referee").get(
        pk=table.pk
    )
    with django_assert_num_queries(1):
        [found] = TABLES.fetch(table.pk)
        # The related objects came with it, each column through its converters (SQLite
        # gives a time as text and a flag as a number).
        session, tournament = found.session, found.session.tournament
        assert (found.game.pk, found.referee, tournament.ruleset) == (
            expected.game.pk,
            expected.referee,
            expected.session.tournament.ruleset,
        )
    started = session.clock_started_at
    assert started is not None and started == expected.session.clock_started_at
    assert timezone.is_aware(started)
    assert tournament.is_public is expected.session.tournament.is_public is True
    for model, one, other in (
        (Table, found, expected),
        (Session, session, expected.session),
        (type(tournament), tournament, expected.session.tournament),
    ):
        fields = [field.attname for field in model._meta.concrete_fields]
        assert [getattr(one, name) for name in fields] == [getattr(other, name) for name in fields]
    assert not found._state.adding


def test_a_compiled_query_runs_with_each_calls_parameters(tournament, referee):
    first = make_table(["Ann", "Bart", "Chris"], referee, tournament)
    second = make_table(["Dirk", "Eve", "Fay"], referee, tournament)
    assert [table.pk for table in TABLES.fetch(second.pk)] == [second.pk]
    assert [table.pk for table in TABLES.fetch(first.pk)] == [first.pk]
    assert TABLES.fetch(second.pk + first.pk + 1000) == []


def test_a_query_that_does_not_take_its_sample_as_parameters_is_refused(table):
    # The sample must be the statement's parameters, in order: here the query takes none.
    wrong = Select(lambda number: Seat.objects.filter(position=1), 7)
    with pytest.raises(ValueError, match="sample"):
        wrong.fetch(7)


def test_an_insert_writes_the_rows_as_the_orm_does_and_sets_their_ids(
    game, referee, django_assert_num_queries
):
    seats = list(game.table.seats.order_by("position"))
    stored = Round(game=game, number=1, kind="yaniv", caller=seats[0], entered_by=referee)
    hands = [
        Hand(seat=seat, hand_total=hand, total=hand)
        for seat, hand in zip(seats, (0, 5, 7, 9), strict=True)
    ]
    with django_assert_num_queries(2):
        Insert(Round)([stored])
        for hand in hands:
            hand.round = stored
        Insert(Hand)(hands)
    assert stored.pk and not stored._state.adding
    read = Round.objects.get(pk=stored.pk)
    # The default time, a foreign key, a flag and the hands' ids as the database gave them.
    assert (read.entered_at, read.caller_id, read.entered_by_id) == (
        stored.entered_at,
        seats[0].pk,
        referee.pk,
    )
    assert timezone.is_aware(read.entered_at)
    assert sorted(Hand.objects.filter(round=stored).values_list("id", "hand_total", "along")) == [
        (hand.pk, hand.hand_total, False) for hand in hands
    ]


def test_an_insert_writes_json_and_uuids_as_the_orm_reads_them_back(game, referee):
    sent = uuid.uuid4()
    change = GameChange(
        game=game,
        action=GameChange.Action.RECORD,
        round_number=1,
        user=referee,
        after={"hands": {"Ann": 0, "Bart": 5}, "yaniv": "Ann"},
        version=1,
        client_id=sent,
    )
    Insert(GameChange)([change])
    read = GameChange.objects.get(pk=change.pk)
    assert (read.after, read.before, read.client_id, read.reason) == (
        {"hands": {"Ann": 0, "Bart": 5}, "yaniv": "Ann"},
        None,
        sent,
        "",
    )


def test_an_update_writes_its_columns_of_each_row_by_id(game, django_assert_num_queries):
    seats = list(game.table.seats.order_by("position"))
    for rank, seat in enumerate(seats, start=1):
        seat.total, seat.rank = 10 * rank, rank
    game.finished, game.finished_at, game.version = True, timezone.now(), 7
    with django_assert_num_queries(2):
        Update(Seat, "total", "rank")(seats)
        Update(Game, "finished", "finished_at", "version")([game])
    assert list(game.table.seats.order_by("position").values_list("total", "rank")) == [
        (10, 1),
        (20, 2),
        (30, 3),
        (40, 4),
    ]
    game.refresh_from_db()
    assert (game.finished, game.version, game.round_count) == (True, 7, 0)
    assert timezone.is_aware(game.finished_at)


def test_without_insert_returning_the_rows_are_saved_as_the_orm_saves_them(
    game, referee, monkeypatch
):
    from django.db import connection

    monkeypatch.setattr(
        type(connection.features), "can_return_rows_from_bulk_insert", False, raising=False
    )
    seats = list(game.table.seats.order_by("position"))
    stored = Round(game=game, number=1, kind="yaniv", caller=seats[0], entered_by=referee)
    Insert(Round)([stored])
    hands = [Hand(round=stored, seat=seat, hand_total=1, total=1) for seat in seats]
    Insert(Hand)(hands)
    assert stored.pk and all(hand.pk for hand in hands)
    assert Hand.objects.filter(round=stored).count() == 4


def test_writing_no_rows_asks_nothing_of_the_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        Insert(Hand)([])
        Update(Seat, "total")([])
