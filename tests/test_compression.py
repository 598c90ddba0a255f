"""The pages' HTML gzipped for the phones (yaniv_club.middleware.PageCompressionMiddleware),
never a page that holds a secret (BREACH)."""

from __future__ import annotations

import gzip
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.factories import make_table, make_tournament, make_user, record
from tournaments.models import TableCode, Tournament
from yaniv_club.middleware import PageCompressionMiddleware

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
# A route parameter with one of these names is a secret: whoever knows it may write.
SECRET_PARAMETERS = {"code", "door", "key", "token", "uidb64"}


def routes(resolver: URLResolver | None = None, prefix: str = "/") -> list[str]:
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
        if isinstance(pattern, URLResolver):
            found += routes(pattern, route)
        elif isinstance(pattern, URLPattern):
            found.append(route)
    return found


def sample_path(route: str) -> str:
    """The route with each parameter filled: the middleware reads only the path's shape."""
    return re.sub(r"<[^>]+>|\(\?P<[^>]+>[^)]*\)", "1", route)


@pytest.mark.django_db
def test_a_referees_table_page_reaches_the_phone_gzipped():
    referee = make_user("ref-gzip")
    table = make_table(referee=referee)
    hands = {"Ann": 3, "Bart": 20, "Chris": 9, "Dirk": 14}
    record(table.game, referee, {"hands": hands, "yaniv": "Ann"})
    client = Client()
    client.force_login(referee)
    plain = client.get(table.get_absolute_url())
    packed = client.get(table.get_absolute_url(), headers=GZIP)
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    page = gzip.decompress(packed.content).decode()
    assert 'id="round-form"' in page and "Ann" in page
    assert len(packed.content) * 3 < len(plain.content)


@pytest.mark.django_db
def test_the_public_standings_reach_the_phones_gzipped():
    tournament = make_tournament(name="Gzip Open")
    make_table(tournament=tournament)
    response = Client().get(reverse("public:standings", args=[tournament.slug]), headers=GZIP)
    assert response["Content-Encoding"] == "gzip"
    assert "Gzip Open" in gzip.decompress(response.content).decode()


@pytest.mark.django_db
def test_a_page_opened_with_a_table_code_is_never_compressed():
    tournament = make_tournament(entry=Tournament.Entry.TABLE_CODES)
    code = TableCode.issue(make_table(tournament=tournament)).code
    response = Client().get(reverse("codes:detail", args=[code]), headers=GZIP)
    assert response.status_code == 200 and not response.has_header("Content-Encoding")
    assert f"/c/{code}/sync/" in response.content.decode()


@pytest.mark.django_db
def test_the_directors_pages_listing_codes_are_never_compressed():
    director = make_user("dir-gzip")
    tournament = make_tournament(directors=[director])
    client = Client()
    client.force_login(director)
    response = client.get(reverse("manage:tournament", args=[tournament.slug]), headers=GZIP)
    assert response.status_code == 200 and not response.has_header("Content-Encoding")


def test_every_route_whose_url_holds_a_secret_is_left_uncompressed():
    secret_routes = [
        route
        for route in routes()
        if SECRET_PARAMETERS & set(re.findall(r"<(?:\w+:)?(\w+)>", route))
    ]
    assert len(secret_routes) >= 10  # the code routes, the doors, the hall, the tokens
    for route in secret_routes:
        assert PageCompressionMiddleware.holds_a_secret(sample_path(route)), route


def test_every_directors_route_is_left_uncompressed():
    managing = [route for route in routes() if "manage/" in route]
    assert managing
    for route in managing:
        assert PageCompressionMiddleware.holds_a_secret(sample_path(route)), route
