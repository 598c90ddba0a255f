"""Players: the search over the public tournaments' players, and a player's games."""

from __future__ import annotations

import pytest

from tests.api.conftest import PRIVATE_SLUG, World
from tests.factories import CELIK, DIRK, HELENE, JURGEN
from tournaments.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def test_the_players_are_those_of_the_public_tournaments_by_name(api, world):
    players = api.get(f"{V1}/players").json()
    assert players["count"] == 8
    names = [player["name"] for player in players["items"]]
    assert names == sorted(names)
    dirk = next(player for player in players["items"] if player["id"] == world.both.pk)
    assert (dirk["name"], dirk["club"]) == (DIRK, None)


def test_the_search_finds_part_of_a_name_in_any_case(api, world):
    found = api.get(f"{V1}/players", {"q": "  pEEters "}).json()
    assert [player["name"] for player in found["items"]] == [JURGEN]
    assert api.get(f"{V1}/players", {"q": "nobody"}).json() == {
        "count": 0,
        "limit": 50,
        "offset": 0,
        "items": [],
    }


def test_a_player_registered_but_not_yet_seated_is_a_player_of_the_tournament(api, world):
    newcomer = Player.objects.create(name="Newcomer Nora")
    Registration.objects.create(tournament=world.championship, player=newcomer)
    detail = api.get(f"{V1}/players/{newcomer.pk}").json()
    assert [(t["slug"], t["games"]) for t in detail["tournaments"]] == [("bk", [])]


def test_a_player_shows_their_games_in_the_public_tournaments(api, world: World):
    helene = Player.objects.get(name=HELENE)
    detail = api.get(f"{V1}/players/{helene.pk}").json()
    assert detail["name"] == HELENE and detail["club"] == "Yaniv Club Liège"
    (championship,) = detail["tournaments"]
    assert championship["slug"] == "bk" and championship["status"] == "running"
    assert championship["games"] == [
        {
            "session": 1,
            "table": 1,
            "seat": 1,
            "total": 0,
            "rank": 1,
            "finished": True,
            "provisional": False,
        },
        {
            # She called with 3 and Chris caught her with 1: 32, last at the table so far.
            "session": 2,
            "table": 1,
            "seat": 1,
            "total": 32,
            "rank": 4,
            "finished": False,
            "provisional": False,
        },
    ]


def test_a_player_of_several_public_tournaments_lists_them_latest_first(api, world):
    celik = Player.objects.get(name=CELIK)
    older = Tournament.objects.create(
        name="Spring night", slug="spring", starts_on="2025-04-01", status="finished"
    )
    Registration.objects.create(tournament=older, player=celik)
    slugs = [t["slug"] for t in api.get(f"{V1}/players/{celik.pk}").json()["tournaments"]]
    assert slugs == ["bk", "spring"]


def test_a_player_who_also_played_in_a_private_tournament_shows_the_public_one_only(
    api, world: World
):
    detail = api.get(f"{V1}/players/{world.both.pk}").json()
    assert [t["slug"] for t in detail["tournaments"]] == ["bk"]
    assert PRIVATE_SLUG.encode() not in api.get(f"{V1}/players/{world.both.pk}").content


def test_a_player_of_private_and_draft_tournaments_only_is_unknown(api, world: World):
    for player_id in world.hidden_player_ids:
        response = api.get(f"{V1}/players/{player_id}")
        assert response.status_code == 404
        assert response.json() == {"code": "not_found", "detail": "No such player."}


def test_an_unknown_player_is_404_and_an_impossible_id_is_invalid(api, world):
    assert api.get(f"{V1}/players/999999").status_code == 404
    for bad in ("0", "x", str(2**63)):
        response = api.get(f"{V1}/players/{bad}")
        assert response.status_code == 422, bad
        assert response.json()["code"] == "invalid"
