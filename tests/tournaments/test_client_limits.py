"""Per-client bounds (issue 22): PDF, CSV and JSON downloads from one address are limited
per minute (429 with Retry-After), and the pages that only read answer HEAD as GET."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from seasons.models import Season
from tests.factories import make_table, record
from tournaments.models import TableCode, Tournament

pytestmark = pytest.mark.django_db


def test_a_client_downloading_in_a_loop_gets_429_and_another_client_does_not(
    client, tournament, settings
):
    settings.DOWNLOADS_PER_MINUTE = 3
    urls = [
        reverse("public:standings_pdf", args=[tournament.slug]),
        reverse("public:standings_csv", args=[tournament.slug]),
        reverse("public:rounds_csv", args=[tournament.slug]),
    ]
    assert [client.get(url).status_code for url in urls] == [200, 200, 200]
    refused = client.get(urls[0])
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused["Cache-Control"] == "no-store"
    assert "Too many downloads from this address in a minute" in refused.content.decode()
    assert Client(REMOTE_ADDR="192.0.2.44").get(urls[0]).status_code == 200


def test_a_season_and_a_table_sheet_count_as_downloads(client, tournament, settings):
    settings.DOWNLOADS_PER_MINUTE = 2
    season = Season.objects.create(name="S", slug="s", is_public=True)
    table = make_table(tournament=tournament)
    answers = [
        client.get(reverse("public:season_pdf", args=[season.slug])).status_code,
        client.get(reverse("tables:sheet_pdf", args=[table.pk])).status_code,
        client.get(reverse("public:season_csv", args=[season.slug])).status_code,
    ]
    assert answers == [200, 200, 429]


def test_head_is_answered_where_get_is(client, tournament, director_client):
    table = make_table(tournament=tournament)
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.save(update_fields=["entry"])
    record(
        table.game, None, {"hands": {"Ann": 0, "Bart": 1, "Chris": 2, "Dirk": 3}, "yaniv": "Ann"}
    )
    code = TableCode.issue(table).code
    public = [
        reverse("public:home"),
        "/sw.js",
        reverse("public:tournament", args=[tournament.slug]),
        reverse("public:standings", args=[tournament.slug]),
        reverse("public:standings_pdf", args=[tournament.slug]),
        reverse("public:standings_csv", args=[tournament.slug]),
        reverse("tables:detail", args=[table.pk]),
        reverse("codes:detail", args=[code]),
    ]
    for url in public:
        response = client.head(url)
        assert response.status_code == 200, url
        body = response.streaming_content if response.streaming else [response.content]
        assert b"".join(body) == b"", url
    assert (
        director_client.head(reverse("manage:people", args=[tournament.slug])).status_code == 200
    )


def test_an_ipv6_client_rotating_within_its_64_is_one_client_for_downloads(tournament, settings):
    settings.DOWNLOADS_PER_MINUTE = 2
    url = reverse("public:standings_csv", args=[tournament.slug])
    answers = [
        Client(REMOTE_ADDR=f"2001:db8:1:2::{suffix:x}").get(url).status_code
        for suffix in (1, 0xBEEF, 0xCAFE)
    ]
    assert answers == [200, 200, 429]
    assert Client(REMOTE_ADDR="2001:db8:1:3::1").get(url).status_code == 200
