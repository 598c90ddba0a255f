"""A query compiled once: the ORM's rows, instances and related objects, for new parameters."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import make_table
from tournaments.compiled import Compiled
from tournaments.models import Seat, Session, Table

pytestmark = pytest.mark.django_db

TABLES = Compiled(
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
    wrong = Compiled(lambda number: Seat.objects.filter(position=1), 7)
    with pytest.raises(ValueError, match="sample"):
        wrong.fetch(7)
