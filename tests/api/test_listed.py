"""Private and draft tournaments, and private seasons, never appear (issue 16: "not even as a
count").

The walk: every operation of the API's own OpenAPI description, with every path parameter
the test world can offer (the listed tournament's, the public season's and the hidden ones'
slugs, sessions 1-3, tables 1-2, every player id in the database), every page of every list,
as anonymous and as the private tournament's and the private season's own director: nothing
of the hidden tournaments and season comes back — no name, slug or player id, though the
private tournament and the public draft count in the public season and their finished games
are rated — and every count is the listed data's alone.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from api.v1 import api as v1
from tests.api.conftest import HIDDEN_NAMES, HIDDEN_SLUGS, SEASON_SLUG, World
from tests.factories import make_user
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def operations() -> list[str]:
    return sorted(v1.get_openapi_schema()["paths"])


def _urls(world: World) -> Iterator[str]:
    values: dict[str, list[Any]] = {
        "slug": [world.championship.slug, SEASON_SLUG, *HIDDEN_SLUGS],
        "number": [1, 2, 3],
        "table": [1, 2],
        "player_id": list(Player.objects.values_list("pk", flat=True)),
    }
    for template in operations():
        names = re.findall(r"{(\w+)}", template)
        for combination in itertools.product(*(values[name] for name in names)):
            yield template.format(**dict(zip(names, combination, strict=True)))


def _pages(client: Client, url: str) -> Iterator[Any]:
    """Every page of a list (the largest pages), or the one answer of the rest."""
    offset = 0
    while True:
        response = client.get(url, {"offset": offset, "limit": 20})
        if response.status_code == 422:  # not a list: no paging parameters
            response = client.get(url)
        yield response
        body = response.json() if response.status_code == 200 else {}
        if "items" not in body or offset + len(body["items"]) >= body["count"]:
            return
        offset += len(body["items"])


def _player_ids(value: Any) -> Iterator[int]:
    """The ids of every player object in an answer (anything with an id and a name)."""
    if isinstance(value, dict):
        if "id" in value and "name" in value:
            yield value["id"]
        for item in value.values():
            yield from _player_ids(item)
    elif isinstance(value, list):
        for item in value:
            yield from _player_ids(item)


def walk(client: Client, world: World) -> dict[str, int]:
    """Every answer of the API; the status of each URL; fails on anything hidden."""
    hidden_ids = world.hidden_player_ids
    statuses = {}
    for url in _urls(world):
        for response in _pages(client, url):
            statuses[url] = response.status_code
            text = response.content.decode()
            for hidden in (*HIDDEN_NAMES, *HIDDEN_SLUGS):
                assert hidden not in text, (url, hidden)
            if response.status_code == 200:
                assert not set(_player_ids(response.json())) & hidden_ids, url
    return statuses


def _counts(client: Client) -> dict[str, int]:
    counts = {
        path: client.get(path).json()["count"]
        for path in (
            "/api/v1/tournaments",
            "/api/v1/players",
            "/api/v1/tournaments/bk/sessions",
            "/api/v1/tournaments/bk/standings",
            "/api/v1/seasons",
            "/api/v1/ratings",
        )
    }
    season = client.get(f"/api/v1/seasons/{SEASON_SLUG}").json()
    counts["season's tournaments"] = season["tournament_count"]
    counts["season's standings"] = season["standings"]["count"]
    return counts


def test_the_walk_covers_every_operation_of_the_description(world):
    assert operations() == [
        "/api/v1/players",
        "/api/v1/players/{player_id}",
        "/api/v1/players/{player_id}/statistics",
        "/api/v1/ratings",
        "/api/v1/seasons",
        "/api/v1/seasons/{slug}",
        "/api/v1/tournaments",
        "/api/v1/tournaments/{slug}",
        "/api/v1/tournaments/{slug}/facts",
        "/api/v1/tournaments/{slug}/sessions",
        "/api/v1/tournaments/{slug}/sessions/{number}/standings",
        "/api/v1/tournaments/{slug}/sessions/{number}/tables",
        "/api/v1/tournaments/{slug}/sessions/{number}/tables/{table}",
        "/api/v1/tournaments/{slug}/standings",
        "/api/v1/tournaments/{slug}/statistics",
    ]


def test_nothing_of_a_private_or_draft_tournament_appears_to_anyone(world: World):
    anonymous = Client()
    statuses = walk(anonymous, world)
    # The hidden tournaments and their players are unknown everywhere.
    for url, status in statuses.items():
        if any(slug in url for slug in HIDDEN_SLUGS):
            assert status == 404, url
    for player_id in world.hidden_player_ids:
        assert statuses[f"/api/v1/players/{player_id}"] == 404
    # And the listed ones answer.
    assert statuses["/api/v1/tournaments/bk/sessions/1/tables/2"] == 200
    assert statuses[f"/api/v1/players/{world.both.pk}"] == 200
    assert statuses[f"/api/v1/seasons/{SEASON_SLUG}"] == 200
    # Counts are the listed tournament's alone: the public season counts the championship,
    # ranks and rates its 8 players (the private tournament's and the draft's players, who
    # finished a game there, are neither ranked nor rated here).
    assert _counts(anonymous) == {
        "/api/v1/tournaments": 1,
        "/api/v1/players": 8,
        "/api/v1/tournaments/bk/sessions": 3,
        "/api/v1/tournaments/bk/standings": 8,
        "/api/v1/seasons": 1,
        "/api/v1/ratings": 8,
        "season's tournaments": 1,
        "season's standings": 8,
    }
    # A search for a hidden player finds nobody.
    for name in HIDDEN_NAMES:
        found = anonymous.get("/api/v1/players", {"q": name.split()[0]}).json()
        assert found["count"] == 0, name


def test_the_private_tournaments_own_director_reads_the_same_public_data(world: World):
    director = make_user("dir-hush")
    world.private.directors.add(director)
    world.private_season.directors.add(director)
    client = Client()
    client.force_login(director)
    walk(client, world)
    assert _counts(client) == _counts(Client())


def test_the_hidden_tournaments_change_no_answer(world: World):
    """The same answers with the hidden tournaments and after they are gone."""
    anonymous = Client()
    hidden_ids = world.hidden_player_ids
    urls = [
        url
        for url in _urls(world)
        if not any(slug in url for slug in HIDDEN_SLUGS)
        and not (url.startswith("/api/v1/players/") and int(url.split("/")[4]) in hidden_ids)
    ]

    def answers() -> dict[str, list[Any]]:
        return {url: [(r.status_code, r.content) for r in _pages(anonymous, url)] for url in urls}

    before = answers()
    Tournament.objects.filter(slug__in=HIDDEN_SLUGS).delete()
    Player.objects.filter(pk__in=hidden_ids).delete()
    assert answers() == before
