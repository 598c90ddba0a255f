"""Rounds a phone still held when its game ended at the time limit (issue 32, case 3): a
director adds them with a reason; nobody else can, and no other game takes them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import record
from tournaments.models import GameChange, Round

pytestmark = pytest.mark.django_db

ANN_CALLS = {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}
POSTED = {"number": 2, "ending": "yaniv:1", "hand_1": 3, "hand_2": 12, "hand_3": 7, "hand_4": 20}


@pytest.fixture
def ended(table, referee, director, tournament):
    tournament.directors.add(director)
    record(table.game, referee, ANN_CALLS)
    game = table.game
    game.refresh_from_db()
    game.end_at_time_limit(by=director, reason="time limit of session 1", version=game.version)
    return game


def add_late(client, table, **extra):
    data = {**POSTED, "version": table.game.version, **extra}
    return client.post(reverse("tables:add_late", args=[table.pk]), data)


def test_a_director_adds_a_round_a_phone_held_and_the_reason_is_in_the_history(
    director_client, table, ended
):
    response = add_late(director_client, table, reason="kept on the referee's phone")
    assert response.status_code == 302
    ended.refresh_from_db()
    assert ended.round_count == 2 and ended.finished and ended.ended_at_time_limit
    change = GameChange.objects.get(action="record", round_number=2)
    assert change.reason == "kept on the referee's phone"
    assert {seat.player.name: seat.total for seat in table.seats.all()} == {
        "Ann": 0,
        "Bart": 24,
        "Chris": 14,
        "Dirk": 40,
    }
    page = director_client.get(reverse("tables:detail", args=[table.pk])).text
    assert "kept on the referee&#x27;s phone" in page


def test_a_late_round_needs_a_reason(director_client, table, ended):
    response = add_late(director_client, table)
    assert response.status_code == 400
    assert Round.objects.count() == 1


def test_the_referee_cannot_add_a_round_after_the_time_limit(referee_client, table, ended):
    response = add_late(referee_client, table, reason="mine")
    assert response.status_code == 403
    assert Round.objects.count() == 1


def test_a_game_the_clock_did_not_end_takes_no_late_round(director_client, table, director):
    table.session.tournament.directors.add(director)
    response = add_late(director_client, table, number=1, reason="late")
    assert response.status_code == 400
    assert Round.objects.count() == 0


def test_a_signed_off_game_takes_no_late_round(director_client, table, ended, director):
    ended.sign_off(by=director, version=ended.version)
    response = add_late(director_client, table, reason="late")
    assert response.status_code == 400
    assert Round.objects.count() == 1


def test_the_directors_page_of_a_game_the_clock_ended_offers_to_add_a_round(
    director_client, referee_client, table, ended
):
    page = director_client.get(reverse("tables:detail", args=[table.pk])).text
    assert "Add a round a phone still held" in page and "Add round 2" in page
    assert (
        "Add a round a phone still held"
        not in referee_client.get(reverse("tables:detail", args=[table.pk])).text
    )
