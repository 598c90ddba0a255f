"""The API's standings of a tournament with a final are its official standings: the final's
order first (with its carry-over), as the standings page and the CSV rank the players, then
everyone else; withdrawn players marked; a session's standings say they are its games alone.

The tournament (tests/tournaments/test_final.py's `qualify`): after one qualifying session
Ann and Eva share 1st with 3 points (Ann listed first), Finn is 3rd with 2. Ann, Eva and Finn
play a final of 3 with the qualifying placement points carried over; Finn wins it (2 points:
4), Eva is 2nd (1: 4), Ann 3rd (0: 3). Eva's better qualifying place breaks her tie with Finn:
Eva, Finn, Ann, then the rest in qualifying order. Hugo, last, has withdrawn.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_user, record
from tests.tournaments.test_final import qualify, withdraw
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def play_final(table: Table, hands: dict[str, int], caller: str) -> None:
    """Play the final's game to its end, the same round every time: `caller` calls with 0."""
    referee = make_user(f"ref-final-{table.pk}")
    while not table.game.finished:
        record(table.game, referee, {"hands": hands, "yaniv": caller})
        table.game.refresh_from_db()


@pytest.fixture
def drawn(tournament: Tournament, director) -> Tournament:
    """Qualified, Hugo withdrawn, the final (session 2) drawn and not played yet."""
    qualify(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(final_carry_over="placement")
    tournament.refresh_from_db()
    withdraw(tournament, "Hugo", director)
    tournament.open_final()
    return tournament


@pytest.fixture
def played(drawn: Tournament) -> Tournament:
    final = drawn.final_session()
    assert final is not None
    play_final(final.tables.get(), {"Ann": 45, "Eva": 10, "Finn": 0}, "Finn")
    return drawn


def standings(api: Client, tournament: Tournament, path: str = "/standings") -> Any:
    response = api.get(f"{V1}/tournaments/{tournament.slug}{path}")
    assert response.status_code == 200
    return response.json()


def site_order(client: Client, tournament: Tournament) -> list[str]:
    """The names of the standings page's first table (the final standings, with a final)."""
    html = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    first_table = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<bdi>([^<]+)</bdi>", first_table)


def csv_order(client: Client, tournament: Tournament) -> list[str]:
    content = client.get(reverse("public:standings_csv", args=[tournament.slug])).content
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    return [row[1] for row in rows[1:]]


def test_after_the_final_the_api_ranks_as_the_site_and_the_csv(api, client, played):
    official = standings(api, played)
    names = [item["player"]["name"] for item in official["items"]]
    assert names == ["Eva", "Finn", "Ann", "Bart", "Chris", "Gina", "Dirk", "Hugo"]
    assert names == site_order(client, played) == csv_order(client, played)
    # The qualifying leader (Ann, listed first) is not the final's winner (Finn) nor its
    # champion (Eva, on the carried-over points).
    qualifying = [player.name for _, player in played.standings()]
    assert qualifying[0] == "Ann" and official["items"][0]["player"]["name"] == "Eva"


def test_the_official_standings_say_what_ranks_each_finalist(api, played):
    official = standings(api, played)
    assert (official["official"], official["session"], official["stage"]) == (True, None, None)
    assert official["final"] == {
        "players": 3,
        "tables": 1,
        "carry_over": "placement",
        "session": 2,
        "played": True,
    }
    eva, finn, ann, bart = official["items"][:4]
    assert (eva["place"], eva["stage"], eva["final_table"], eva["qualifying_place"]) == (
        1,
        "final",
        1,
        1,
    )
    assert eva["final"] == {
        "rank": 2,
        "total": 40,
        "points": 1.0,
        "carried_over": 3.0,
        "score": 4.0,
    }
    assert (finn["final"]["rank"], finn["final"]["carried_over"], finn["final"]["score"]) == (
        1,
        2.0,
        4.0,
    )
    assert (finn["place"], finn["qualifying_place"]) == (2, 3)
    assert (ann["place"], ann["final"]["score"], ann["qualifying_place"]) == (3, 3.0, 1)
    # The others keep their qualifying numbers and order, after every finalist.
    assert (bart["place"], bart["stage"], bart["final"], bart["final_table"]) == (
        4,
        "qualifying",
        None,
        None,
    )
    assert (bart["points"], bart["games"], bart["qualifying_place"]) == (1.5, 1, 4)


def test_a_withdrawn_player_keeps_their_place_marked(api, played):
    items = standings(api, played)["items"]
    flagged = [item["player"]["name"] for item in items if item["withdrawn"]]
    assert flagged == ["Hugo"]
    # He keeps his place: 7th, shared with Dirk (no points, no win, 180 each).
    assert [(item["place"], item["player"]["name"]) for item in items[-2:]] == [
        (7, "Dirk"),
        (7, "Hugo"),
    ]
    session = standings(api, played, "/sessions/1/standings")["items"]
    assert [item["player"]["name"] for item in session if item["withdrawn"]] == ["Hugo"]


def test_the_finals_own_standings_say_they_are_its_game_alone(api, played):
    final = standings(api, played, "/sessions/2/standings")
    assert (final["official"], final["session"], final["stage"]) == (False, 2, "final")
    # The final game alone: Finn won it, whatever the official order says.
    assert [(item["place"], item["player"]["name"]) for item in final["items"]] == [
        (1, "Finn"),
        (2, "Eva"),
        (3, "Ann"),
    ]
    assert {item["stage"] for item in final["items"]} == {"final"}
    assert {item["qualifying_place"] for item in final["items"]} == {None}


def test_until_the_final_is_played_the_qualifying_order_stands(api, client, drawn):
    official = standings(api, drawn)
    assert official["final"]["session"] == 2 and official["final"]["played"] is False
    names = [item["player"]["name"] for item in official["items"]]
    assert names == [player.name for _, player in drawn.standings()]
    assert names == site_order(client, drawn)
    assert {item["final"] is None for item in official["items"]} == {True}


def test_a_tournament_names_its_final_and_each_sessions_stage(api, drawn):
    detail = api.get(f"{V1}/tournaments/{drawn.slug}").json()
    assert detail["final"] == {"players": 3, "tables": 1, "carry_over": "placement"}
    assert [(s["number"], s["stage"]) for s in detail["sessions"]] == [
        (1, "qualifying"),
        (2, "final"),
    ]


def test_the_standings_etag_changes_when_the_final_changes(api, drawn):
    path = f"{V1}/tournaments/{drawn.slug}/standings"
    before = api.get(path)["ETag"]
    final = drawn.final_session()
    assert final is not None
    play_final(final.tables.get(), {"Ann": 45, "Eva": 10, "Finn": 0}, "Finn")
    after = api.get(path, headers={"If-None-Match": before})
    assert after.status_code == 200 and after["ETag"] != before
    assert after.json()["items"][0]["player"]["name"] == "Eva"
    # The director changing what the final carries over changes the answer too.
    Tournament.objects.filter(pk=drawn.pk).update(final_carry_over="none")
    changed = api.get(path, headers={"If-None-Match": after["ETag"]})
    assert changed.status_code == 200
    assert changed.json()["items"][0]["player"]["name"] == "Finn"
    # While nothing changes, the same tag answers 304.
    assert api.get(path, headers={"If-None-Match": changed["ETag"]}).status_code == 304
