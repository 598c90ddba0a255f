"""The hall's check-in view: the door's QR code while check-in is open; a screen's page
follows the door within one poll (its version moves with the door's changes)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import HTMX
from tournaments.models import Door

pytestmark = pytest.mark.django_db


def test_the_hall_shows_the_door_while_it_is_open_and_follows_it(tournament):
    hall = reverse("public:hall", args=[tournament.slug])
    page = Client().get(hall).text
    assert "view-checkin" not in page
    version = re.search(r'data-version="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert Client().get(hall, {"since": version}, headers=HTMX).status_code == 204
    door = Door.of(tournament)
    door.set_up(is_open=True)
    poll = Client().get(hall, {"since": version}, headers=HTMX)
    assert poll.status_code == 200 and "view-checkin" in poll.text
    assert f"/in/{door.code}" in poll.text
    door.set_up(is_open=False)
    assert "view-checkin" not in Client().get(hall).text


def test_a_finished_tournament_shows_no_door(tournament):
    Door.of(tournament).set_up(is_open=True)
    tournament.status = tournament.Status.FINISHED
    tournament.save()
    assert "view-checkin" not in Client().get(reverse("public:hall", args=[tournament.slug])).text
