"""A venue's push has its director's rights only (issue 34): it matches only players they may
see, writes to none they may not change, names none in its answer, makes directors only of
accounts that already direct with them; two pushes of one archive at once: one wins, the
other a clear 409, never a 500."""

from __future__ import annotations

import json
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from printing import archive, transfer
from tests.factories import make_tournament, make_user
from tests.printing.test_transfer import director, post
from tournaments.models import Club, Player, Registration, Tournament


def _archive(importer) -> dict:
    """The archive of a small tournament of the importer's own, taken off the site again."""
    tournament = make_tournament(slug="venue-night", name="Venue night", directors=[importer])
    club = Club.objects.create(name="Venue Club")
    for name in ("Ann", "Bart"):
        player = Player.objects.create(name=name, club=club)
        Registration.objects.create(tournament=tournament, player=player)
    data = archive.tournament_to_data(tournament)
    tournament.delete()
    Player.objects.filter(name__in=("Ann", "Bart")).delete()
    return data


@pytest.fixture
def secret():
    """Another director's private tournament, its club and its players."""
    other = director("secret")
    private = make_tournament(slug="secret-cup", is_public=False, directors=[other])
    club = Club.objects.create(name="Secret Club")
    for number, name in (("SC-001", "Secret Player 1"), ("", "Secret Player 2")):
        player = Player.objects.create(name=name, club=club, member_number=number)
        Registration.objects.create(tournament=private, player=player)
    return private


def _guessing(data: dict) -> bytes:
    """The file names the secret club's member number and a secret player's name."""
    data["clubs"].append({"name": "Secret Club", "city": ""})
    ann, bart = data["players"]
    ann.update(name="Guess", club="Secret Club", member_number="SC-001")
    bart.update(name="Secret Player 2", club="Secret Club", member_number="X-9")
    return archive.dumps(data).encode()


@pytest.mark.django_db
def test_a_push_matches_no_private_player_of_another_director_and_names_none(client, secret):
    fed = director()
    response = post(client, _guessing(_archive(fed)), transfer.import_token(fed))

    assert response.status_code == 201, response.content
    said = json.dumps(response.json())
    assert "Secret Player" not in said and "SC-001" not in said
    hidden = Player.objects.filter(registrations__tournament=secret)
    assert sorted(hidden.values_list("name", "member_number")) == [
        ("Secret Player 1", "SC-001"),
        ("Secret Player 2", ""),
    ]
    imported = Tournament.objects.get(slug="venue-night")
    assert not imported.registrations.filter(player__in=hidden).exists()
    assert sorted(imported.registrations.values_list("player__name", flat=True)) == [
        "Guess",
        "Secret Player 2",
    ]
    assert "member number(s) of the file not recorded" in said


@pytest.mark.django_db
def test_a_push_still_matches_the_players_its_director_may_see(client):
    fed = director()
    data = _archive(fed)
    known = Player.objects.create(name="Ann", club=Club.objects.get(name="Venue Club"))
    Registration.objects.create(tournament=make_tournament(directors=[fed]), player=known)
    response = post(client, archive.dumps(data).encode(), transfer.import_token(fed))

    assert response.status_code == 201, response.content
    imported = Tournament.objects.get(slug="venue-night")
    assert imported.registrations.filter(player=known).exists()


@pytest.mark.django_db
def test_a_push_makes_directors_only_of_accounts_that_already_direct_with_the_importer(
    client, secret
):
    fed = director()
    partner = director("partner")
    make_tournament(directors=[fed, partner])
    make_user("admin", is_superuser=True)
    data = _archive(fed)
    data["tournament"]["directors"] = ["fed", "partner", "secret", "admin", "ghost"]
    response = post(client, archive.dumps(data).encode(), transfer.import_token(fed))

    assert response.status_code == 201, response.content
    imported = Tournament.objects.get(slug="venue-night")
    assert sorted(imported.directors.values_list("username", flat=True)) == ["fed", "partner"]
    assert not get_user_model().objects.filter(username="ghost").exists()
    said = json.dumps(response.json())
    assert "secret" not in said and "admin" not in said and "ghost" not in said
    assert "3 of the file's directors not made directors here" in said


@pytest.mark.django_db(transaction=True)
def test_one_archive_pushed_many_times_at_once_is_imported_once_and_never_a_500():
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers: PostgreSQL (SQLite serialises them)")
    fed = director()
    data = _archive(fed)
    data["clubs"].append({"name": "New Club", "city": ""})
    body, token = archive.dumps(data).encode(), transfer.import_token(fed)
    start = threading.Barrier(6)
    statuses: list[int] = []

    def push() -> None:
        start.wait()
        try:
            statuses.append(post(Client(), body, token).status_code)
        finally:
            connection.close()

    pushes = [threading.Thread(target=push) for _ in range(6)]
    for thread in pushes:
        thread.start()
    for thread in pushes:
        thread.join()

    assert sorted(statuses).count(201) == 1
    assert set(statuses) <= {201, 400, 409}
    assert Tournament.objects.filter(slug="venue-night").count() == 1
