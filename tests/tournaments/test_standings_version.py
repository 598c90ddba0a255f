"""The standings' version kept on the tournament's row by the writers of games and sessions
(`move_standings`, in their transaction).

The hall's unchanged standings poll reads it alone, so every write that can move the
standings must move it, and no save of the tournament may write it back.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import entries, make_tournament, record
from tournaments.models import Registration, Session, Tournament

pytestmark = pytest.mark.django_db

DIRK_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}


def version_of(tournament: Tournament) -> int:
    return Tournament.objects.values_list("standings_version", flat=True).get(pk=tournament.pk)


def test_each_tournament_starts_at_a_version_of_its_own():
    starts = {version_of(make_tournament(slug=f"t{number}")) for number in range(5)}
    # Random 48-bit starts: a rebuilt database never shows a kept version's standings again.
    assert len(starts) == 5


def test_a_round_of_a_game_still_played_leaves_the_standings_version_alone(table, referee):
    before = version_of(table.session.tournament)
    record(table.game, referee, *[DIRK_45] * 3)
    assert version_of(table.session.tournament) == before


def test_the_round_that_ends_a_game_moves_the_standings_version(table, referee):
    tournament = table.session.tournament
    record(table.game, referee, *[DIRK_45] * 3)
    before = version_of(tournament)
    record(table.game, referee, DIRK_45)  # Dirk goes above 150
    assert version_of(tournament) > before
    assert tournament.live_version(finished_games_only=True) == str(version_of(tournament))


def test_correcting_a_finished_game_moves_the_standings_version(table, referee):
    tournament = table.session.tournament
    record(table.game, referee, *[DIRK_45] * 4)
    game = table.game
    game.refresh_from_db()
    before = version_of(tournament)
    corrected = {"hands": {"Ann": 0, "Bart": 2, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}
    game.correct_round(1, entries(corrected), by=referee, reason="typo", version=game.version)
    assert version_of(tournament) > before


def test_every_way_of_writing_a_session_moves_the_standings_version(table):
    session, tournament = table.session, table.session.tournament
    seen = [version_of(tournament)]
    session.save()
    seen.append(version_of(tournament))
    Session.objects.filter(pk=session.pk).touch()
    seen.append(version_of(tournament))
    second = Session.objects.create(tournament=tournament, number=2)
    seen.append(version_of(tournament))
    second.delete()
    seen.append(version_of(tournament))
    assert seen == sorted(set(seen)), seen


def test_no_trigger_of_the_database_moves_the_standings_version(table):
    # A bare UPDATE of a session, outside the models' writers, leaves the version alone: the
    # writers move it, not the database (migration 0019 dropped 0017's triggers).
    tournament = table.session.tournament
    before = version_of(tournament)
    Session.objects.filter(pk=table.session.pk).update(changed_at=timezone.now())
    assert version_of(tournament) == before


def test_a_withdrawal_and_a_renamed_player_move_the_standings_version(table, referee):
    tournament = table.session.tournament
    ann = table.seats.get(player__name="Ann").player
    before = version_of(tournament)
    ann.name = "Anna"
    ann.save()
    renamed = version_of(tournament)
    assert renamed > before
    registration = Registration.objects.create(tournament=tournament, player=ann)
    registration.withdraw(by=referee, reason="ill")
    assert version_of(tournament) > renamed


def test_another_tournaments_writes_leave_the_version_alone(table, referee):
    other = make_tournament(slug="other")
    before = version_of(other)
    record(table.game, referee, *[DIRK_45] * 4)
    Session.objects.filter(tournament=table.session.tournament).touch()
    assert version_of(other) == before


def test_a_tournament_read_before_a_game_ended_never_writes_its_older_version_back(table, referee):
    stale = Tournament.objects.get(pk=table.session.tournament.pk)
    record(table.game, referee, *[DIRK_45] * 4)
    moved = version_of(stale)
    assert moved > stale.standings_version
    stale.venue = "Antwerpen"
    stale.save()
    assert version_of(stale) == moved
    assert Tournament.objects.get(pk=stale.pk).venue == "Antwerpen"
    # A deferred field stays as stored: the save writes only what was loaded.
    partial = Tournament.objects.only("name").get(pk=stale.pk)
    partial.name = "Renamed"
    partial.save()
    again = Tournament.objects.get(pk=stale.pk)
    assert (again.name, again.venue, again.standings_version) == ("Renamed", "Antwerpen", moved)


def test_a_finished_game_stored_at_once_moves_the_standings_version(table, referee):
    # An import stores a whole game and logs nothing: the standings move all the same.
    tournament = table.session.tournament
    before = version_of(tournament)
    rounds = [(entries(DIRK_45), referee, timezone.now())] * 4
    table.game.store_rounds(rounds, ended_at_time_limit=False)
    assert table.game.finished
    assert version_of(tournament) > before
