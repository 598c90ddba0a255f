"""What every answer shares: ETags and 304, paging bounds, the rate limit, errors as JSON."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client

from api import http
from tests.api.conftest import PRIVATE_SLUG, SEASON_SLUG, World
from tests.factories import hands, record
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

V1 = "/api/v1"
EVERY_PATH = (
    "/tournaments",
    "/tournaments/bk",
    "/tournaments/bk/sessions",
    "/tournaments/bk/sessions/2/tables",
    "/tournaments/bk/sessions/2/tables/1",
    "/tournaments/bk/standings",
    "/tournaments/bk/sessions/1/standings",
    "/players",
    "/seasons",
    f"/seasons/{SEASON_SLUG}",
    "/ratings",
)


def etag_of(api: Client, path: str, **query: Any) -> str:
    response = api.get(V1 + path, query)
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, no-cache"
    return response["ETag"]


def again(api: Client, path: str, etag: str) -> int:
    return api.get(V1 + path, headers={"If-None-Match": etag}).status_code


# --- ETags ---------------------------------------------------------------------------------


def test_every_answer_has_an_etag_that_answers_304_with_no_body(api, world):
    for path in (*EVERY_PATH, f"/players/{world.both.pk}"):
        etag = etag_of(api, path)
        unchanged = api.get(V1 + path, headers={"If-None-Match": etag})
        assert unchanged.status_code == 304, path
        assert unchanged.content == b""
        assert unchanged["ETag"] == etag


def test_a_weak_or_listed_etag_matches_too_and_another_does_not(api, world):
    etag = etag_of(api, "/tournaments/bk/standings")
    assert again(api, "/tournaments/bk/standings", f'"other", W/{etag}') == 304
    assert again(api, "/tournaments/bk/standings", '"other"') == 200


def test_the_etag_depends_on_the_page_asked_for(api, world):
    assert etag_of(api, "/players", limit=2) != etag_of(api, "/players", limit=3)


def test_a_304_costs_the_tournament_and_its_version_only(api, world, django_assert_num_queries):
    etag = etag_of(api, "/tournaments/bk/standings")
    with django_assert_num_queries(2):
        assert again(api, "/tournaments/bk/standings", etag) == 304


def test_a_round_changes_the_tables_etag_but_not_the_standings_until_the_game_ends(
    api, world: World
):
    tables = etag_of(api, "/tournaments/bk/sessions/2/tables")
    standings = etag_of(api, "/tournaments/bk/standings")
    table = Table.objects.get(session__tournament=world.championship, session__number=2, number=2)
    referee = table.session.tournament.directors.get()
    # Jürgen, Çelik, Dirk and Bart: Dirk goes above 150 in the fourth round.
    over = {"hands": hands(J=0, C=5, D=45, B=7), "yaniv": "Jürgen Peeters"}
    record(table.game, referee, over)
    assert again(api, "/tournaments/bk/sessions/2/tables", tables) == 200
    assert again(api, "/tournaments/bk/standings", standings) == 304
    record(table.game, referee, over, over, over)
    table.game.refresh_from_db()
    assert table.game.finished
    assert again(api, "/tournaments/bk/standings", standings) == 200


def test_a_director_editing_the_tournament_changes_its_etag(api, world: World):
    etag = etag_of(api, "/tournaments/bk")
    Tournament.objects.filter(pk=world.championship.pk).update(venue="Elsewhere")
    assert again(api, "/tournaments/bk", etag) == 200


def test_what_no_version_counts_shows_within_the_fresh_window(api, world, monkeypatch):
    etag = etag_of(api, "/tournaments/bk/standings")
    now = http.fresh_window()
    monkeypatch.setattr(http, "fresh_window", lambda: now + 1)
    assert again(api, "/tournaments/bk/standings", etag) == 200


def test_any_etag_on_a_private_tournament_is_a_404_never_a_304(api, world):
    for path in (f"/tournaments/{PRIVATE_SLUG}", f"/tournaments/{PRIVATE_SLUG}/standings"):
        assert again(api, path, "*") == 404


# --- paging --------------------------------------------------------------------------------


def test_pages_walk_the_whole_list_once(api, world):
    seen = []
    for offset in range(0, 9, 3):
        page = api.get(f"{V1}/players", {"limit": 3, "offset": offset}).json()
        assert page["count"] == 8 and page["limit"] == 3 and page["offset"] == offset
        seen += [player["id"] for player in page["items"]]
    assert len(seen) == len(set(seen)) == 8


def test_a_page_beyond_the_list_is_empty_with_the_lists_count(api, world):
    page = api.get(f"{V1}/players", {"offset": 100}).json()
    assert page["items"] == [] and page["count"] == 8


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        ("/tournaments", 100),
        ("/players", 100),
        ("/tournaments/bk/sessions", 100),
        ("/tournaments/bk/sessions/1/tables", 20),
        ("/tournaments/bk/standings", 500),
        ("/seasons", 100),
        (f"/seasons/{SEASON_SLUG}", 500),
        ("/ratings", 100),
    ],
)
def test_each_list_has_a_largest_page(api, world, path, limit):
    assert api.get(V1 + path, {"limit": limit}).status_code == 200
    for bad in ({"limit": limit + 1}, {"limit": 0}, {"offset": -1}, {"offset": 10**7}):
        response = api.get(V1 + path, bad)
        assert response.status_code == 422, bad
        invalid = response.json()
        assert invalid["code"] == "invalid"
        assert invalid["errors"][0]["loc"] == ["query", next(iter(bad))]


def test_the_default_pages(api, world):
    assert api.get(f"{V1}/players").json()["limit"] == 50
    assert api.get(f"{V1}/tournaments/bk/sessions/1/tables").json()["limit"] == 10
    assert api.get(f"{V1}/tournaments/bk/standings").json()["limit"] == 100


# --- the rate limit -----------------------------------------------------------------------


def test_too_many_requests_from_one_address_get_429_with_retry_after(api, world, settings):
    settings.API_REQUESTS = 3
    for _ in range(3):
        assert api.get(f"{V1}/tournaments").status_code == 200
    refused = api.get(f"{V1}/tournaments/bk/standings")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert 1 <= int(refused["Retry-After"]) <= settings.API_WINDOW
    # Another address is counted apart.
    assert api.get(f"{V1}/tournaments", REMOTE_ADDR="192.0.2.7").status_code == 200


def test_304s_count_against_the_limit_too(api, world, settings):
    settings.API_REQUESTS = 2
    etag = etag_of(api, "/tournaments/bk")
    assert again(api, "/tournaments/bk", etag) == 304
    assert again(api, "/tournaments/bk", etag) == 429


def test_behind_the_proxy_each_client_address_is_counted(api, world, settings):
    settings.API_REQUESTS, settings.TRUSTED_PROXY_COUNT = 1, 1

    def from_client(address: str) -> int:
        return api.get(f"{V1}/tournaments", HTTP_X_FORWARDED_FOR=address).status_code

    assert from_client("198.51.100.1") == 200
    assert from_client("198.51.100.2") == 200
    assert from_client("198.51.100.1") == 429
    # A client cannot escape by claiming another address before the proxy's.
    assert from_client("203.0.113.9, 198.51.100.2") == 429


def test_an_ipv6_client_is_counted_by_its_64_whatever_address_it_rotates_to(api, world, settings):
    settings.API_REQUESTS, settings.TRUSTED_PROXY_COUNT = 3, 1

    def from_client(address: str) -> int:
        return api.get(f"{V1}/tournaments", HTTP_X_FORWARDED_FOR=address).status_code

    rotated = [from_client(f"2001:db8:aa:bb:{n:x}::1") for n in range(1, 6)]
    assert rotated == [200, 200, 200, 429, 429]
    # Another /64 (a neighbour at the venue's provider) is another client.
    assert from_client("2001:db8:aa:bc::1") == 200
    # An IPv4 address written inside IPv6 is that IPv4 client.
    assert from_client("198.51.100.7") == 200
    assert from_client("::ffff:198.51.100.7") == 200


def test_the_count_starts_again_in_the_next_window(api, world, settings, monkeypatch):
    settings.API_REQUESTS = 1
    assert api.get(f"{V1}/tournaments").status_code == 200
    assert api.get(f"{V1}/tournaments").status_code == 429
    later = http.time.time() + settings.API_WINDOW
    monkeypatch.setattr(http.time, "time", lambda: later)
    assert api.get(f"{V1}/tournaments").status_code == 200


# --- errors ---------------------------------------------------------------------------------


def test_an_invalid_parameter_says_which(api, world):
    response = api.get(f"{V1}/tournaments/not a slug!")
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["path", "slug"]
    status = api.get(f"{V1}/tournaments", {"status": "draft"}).json()
    assert status["code"] == "invalid" and status["errors"][0]["loc"] == ["query", "status"]


def test_an_unexpected_error_is_json_500_and_logged(api, world, monkeypatch, caplog):
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(Tournament, "standings", broken)
    response = api.get(f"{V1}/tournaments/bk/standings")
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"
    assert b"boom" not in response.content
    assert "API error" in caplog.text


def test_a_database_outage_is_503_with_retry_after(api, world, monkeypatch):
    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(Tournament, "live_version", down)
    response = api.get(f"{V1}/tournaments/bk")
    assert response.status_code == 503
    assert response.json()["code"] == "unavailable"
    assert response["Retry-After"] == "5"


def test_the_api_writes_nothing_other_methods_are_405(api, world):
    for method in (api.post, api.put, api.patch, api.delete):
        assert method(f"{V1}/tournaments/bk").status_code == 405
