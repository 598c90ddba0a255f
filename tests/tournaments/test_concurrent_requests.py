"""Two devices at one table submit at the same moment (PostgreSQL: real row locks)."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.factories import HTMX, record
from tests.tournaments.test_table_views import entries
from tournaments.models import GameChange, Hand, Round

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="SQLite serialises writers; CI runs this file on PostgreSQL",
    ),
]


def post_at_once(requests: list[tuple[Client, str, dict]]) -> list:
    """POST every request from its own thread, released together."""
    barrier = threading.Barrier(len(requests))
    responses: list = [None] * len(requests)

    def send(index: int, client: Client, url: str, data: dict) -> None:
        try:
            barrier.wait(timeout=10)
            responses[index] = client.post(url, data, headers=HTMX)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=send, args=(index, *request))
        for index, request in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return responses


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_two_devices_recording_the_same_round_store_it_once(
    referee_client, director_client, table
):
    url = reverse("tables:record", args=[table.pk])
    responses = post_at_once(
        [
            (referee_client, url, entries(number=1, hands=(3, 12, 7, 20))),
            (director_client, url, entries(number=1, hands=(4, 15, 4, 9))),
        ]
    )
    assert [response.status_code for response in responses] == [200, 200]
    assert Round.objects.filter(game=table.game).count() == 1
    assert Hand.objects.filter(round__game=table.game).count() == 4
    told = [r.content.decode() for r in responses if "recorded twice" in r.content.decode()]
    assert len(told) == 1
    stored = Round.objects.get(game=table.game)
    assert stored.entered_by is not None
    assert f"Stored (by {stored.entered_by.username})" in told[0]


def test_two_stale_corrections_at_once_apply_only_one(table, referee):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"},
    )
    table.game.refresh_from_db()
    version = table.game.version
    url = reverse("tables:correct", args=[table.pk, 1])
    responses = post_at_once(
        [
            (
                logged_in(referee),
                url,
                entries(hands=(3, 13, 7, 20), version=version, reason="Bart 13"),
            ),
            (
                logged_in(referee),
                url,
                entries(hands=(3, 14, 7, 20), version=version, reason="Bart 14"),
            ),
        ]
    )
    assert all(response.status_code == 200 for response in responses)
    changes = GameChange.objects.filter(game=table.game, action="correct")
    assert changes.count() == 1
    bart = Hand.objects.get(round__game=table.game, seat__position=2)
    assert bart.hand_total == int(changes.get().reason.split()[1])
    refused = [r for r in responses if "The sheet was changed" in r.content.decode()]
    assert len(refused) == 1
