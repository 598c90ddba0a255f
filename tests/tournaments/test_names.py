"""Names cannot turn the text around them: direction controls are stripped on input, refused
by the database, and names are isolated in the pages."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from tests.factories import record
from tournaments.models import Club, Player

pytestmark = pytest.mark.django_db

OVERRIDE = "\u202e"  # RIGHT-TO-LEFT OVERRIDE


def test_a_saved_name_loses_its_direction_controls():
    player = Player.objects.create(name=f"Eve{OVERRIDE} \u2066Mallory\u2069  ")
    club = Club.objects.create(name=f"\u200fClub{OVERRIDE}")
    player.refresh_from_db()
    club.refresh_from_db()
    assert (player.name, club.name) == ("Eve Mallory", "Club")


def test_right_to_left_letters_stay():
    assert Player.objects.create(name="שרה לוי").name == "שרה לוי"


def test_the_database_refuses_a_name_with_a_direction_control():
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.bulk_create([Player(name=f"Ann{OVERRIDE}")])


def test_names_are_isolated_where_numbers_follow_them(client, tournament, table, referee):
    first = {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}
    record(table.game, referee, first)
    page = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert "<bdi>Ann</bdi>" in page
    sheet = client.get(reverse("tables:detail", args=[table.pk])).content.decode()
    assert '<th scope="col"><bdi>Ann</bdi></th>' in sheet
    dirk_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 45}, "yaniv": "Ann"}
    record(table.game, referee, *[dirk_45] * 3)  # Dirk above 150: the game is over
    standings = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    assert "<bdi>Ann</bdi>" in standings
