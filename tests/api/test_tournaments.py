"""Tournaments, sessions, tables with their games as game records, and standings."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from printing.archive import tournament_to_data
from tests.factories import ANN, BART, CHRIS, EVA, hands, make_user, record, seat
from tests.season_factories import make_season
from tournaments.models import Club, Player, Registration, Session, Tournament

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def get(api: Client, path: str, **query: Any) -> Any:
    response = api.get(V1 + path, query)
    assert response.status_code == 200, (path, response.content)
    assert response["Content-Type"] == "application/json; charset=utf-8"
    return response.json()


def test_the_list_holds_the_public_tournaments_only_latest_first(api, world):
    later = world.championship
    earlier = Tournament.objects.create(
        name="Autumn night", slug="autumn", starts_on="2025-10-01", status="finished"
    )
    listed = get(api, "/tournaments")
    assert listed["count"] == 2
    assert [item["slug"] for item in listed["items"]] == [later.slug, earlier.slug]
    assert [item["slug"] for item in get(api, "/tournaments", status="finished")["items"]] == [
        "autumn"
    ]


def test_a_tournament_says_what_it_is_and_how_its_games_are_scored(api, world):
    detail = get(api, "/tournaments/bk")
    assert detail == {
        "slug": "bk",
        "name": "Championnat de Belgique — Liège",
        "starts_on": "2026-03-14",
        "ends_on": None,
        "venue": "Salle des fêtes",
        "club": "Yaniv Club Liège",
        "status": "running",
        "ruleset": {"preset": "belgian", "options": {"false_yaniv": "others_score_hand"}},
        "table_size": 4,
        "session_count": 4,
        "final": None,
        "page": "/t/bk/",
        "sessions": [
            {
                "number": 1,
                "stage": "qualifying",
                "status": "finished",
                "tables": 2,
                "finished_games": 2,
            },
            {
                "number": 2,
                "stage": "qualifying",
                "status": "running",
                "tables": 2,
                "finished_games": 0,
            },
            {
                "number": 3,
                "stage": "qualifying",
                "status": "planned",
                "tables": 0,
                "finished_games": 0,
            },
        ],
        "seasons": [
            {
                "slug": "flanders-2027",
                "name": "Flanders ranking 2027",
                "coefficient": 1.5,
                "page": "/seasons/flanders-2027/",
            }
        ],
    }


def test_a_tournament_names_the_public_seasons_that_count_it(api, world):
    bk = world.championship
    first = api.get(f"{V1}/tournaments/bk")
    make_season(bk, name="Private ladder", slug="private", is_public=False)
    make_season(bk, coefficients=["2"], name="Ranking 2027", slug="ranking-2027")
    # Counted in a season: the same tournament, a new answer (its ETag moves).
    again = api.get(f"{V1}/tournaments/bk", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert [
        (season["slug"], season["coefficient"], season["page"])
        for season in again.json()["seasons"]
    ] == [
        ("ranking-2027", 2.0, "/seasons/ranking-2027/"),
        ("flanders-2027", 1.5, "/seasons/flanders-2027/"),
    ]


def test_names_are_written_as_they_are_in_utf_8(api, world):
    response = api.get(f"{V1}/tournaments/bk")
    assert "Championnat de Belgique — Liège".encode() in response.content


def test_the_sessions_of_a_tournament_are_a_page(api, world):
    sessions = get(api, "/tournaments/bk/sessions", limit=2, offset=1)
    assert sessions["count"] == 3
    assert [session["number"] for session in sessions["items"]] == [2, 3]


def test_each_table_comes_with_its_seats_and_its_game_as_the_archive_records_it(api, world):
    tables = get(api, "/tournaments/bk/sessions/1/tables")
    assert tables["count"] == 2
    archive = tournament_to_data(world.championship)["sessions"][0]["tables"]
    assert [table["game"]["record"] for table in tables["items"]] == [
        table["game"]["record"] for table in archive
    ]
    second = tables["items"][1]
    assert [(seat["label"], seat["total"], seat["rank"]) for seat in second["seats"]] == [
        (ANN, 38, 2),
        (BART, 29, 1),
        (CHRIS, 53, 3),
        (EVA, 66, 4),
    ]
    assert second["game"] == {
        "finished": True,
        "ended_at_time_limit": True,
        "provisional": True,
        "rounds": 3,
        "record": archive[1]["game"]["record"],
    }
    # The corrected round as it stands: Chris and Eva went along.
    assert second["game"]["record"]["rounds"][2] == {
        "hands": hands(A=4, B=15, K=4, E=19),
        "yaniv": ANN,
        "along": [CHRIS, EVA],
    }


def test_a_round_with_an_emptied_hand_has_no_yaniv_key_in_its_record(api, world):
    table = get(api, "/tournaments/bk/sessions/2/tables/1")
    first = table["game"]["record"]["rounds"][0]
    assert set(first) == {"hands", "empty_hand"}


def test_one_table_is_the_same_as_in_the_list(api, world):
    listed = get(api, "/tournaments/bk/sessions/1/tables")["items"][1]
    assert get(api, "/tournaments/bk/sessions/1/tables/2") == listed


def test_players_who_share_a_name_at_a_table_are_told_apart_by_seat(api, world):
    session = Session.objects.get(tournament=world.championship, number=2)
    twins = [Player.objects.create(name="Jan Peeters") for _ in range(2)]
    table = seat(session, 3, [*twins, Player.objects.create(name="Lies")], None)
    referee = make_user("ref-twins")
    record(
        table.game,
        referee,
        {
            "hands": {"Jan Peeters (seat 1)": 2, "Jan Peeters (seat 2)": 9, "Lies": 12},
            "yaniv": "Jan Peeters (seat 1)",
        },
    )
    game = get(api, "/tournaments/bk/sessions/2/tables/3")
    assert game["game"]["record"]["players"] == [
        "Jan Peeters (seat 1)",
        "Jan Peeters (seat 2)",
        "Lies",
    ]
    assert [seat["player"]["name"] for seat in game["seats"]][:2] == ["Jan Peeters"] * 2


def _standings_rows(tournament: Tournament, session: Session | None = None) -> list[Any]:
    return [
        {
            "place": standing.place,
            "player": {
                "id": player.pk,
                "name": player.name,
                "club": player.club.name if player.club else None,
            },
            "stage": "qualifying",
            "final_table": None,
            "final": None,
            # The official standings name each player's qualifying place (without a final,
            # the same place); a session's standings do not.
            "qualifying_place": standing.place if session is None else None,
            "points": float(standing.points),
            "games": standing.games,
            "wins": standing.wins,
            "total_sum": standing.total_sum,
            "opponents_points": float(standing.opponents_points),
            "provisional": standing.provisional,
            "withdrawn": standing.withdrawn,
            # No penalty, bonus or substitute in this world (tests/api/test_adjustments.py).
            "points_given": 0.0,
            "notes": [],
        }
        for standing, player in tournament.standings(session)
    ]


def test_the_standings_are_the_numbers_of_the_standings_page(api, world):
    overall = get(api, "/tournaments/bk/standings")
    assert overall["tournament"] == "bk" and overall["session"] is None
    assert (overall["official"], overall["stage"], overall["final"]) == (True, None, None)
    assert overall["items"] == _standings_rows(world.championship)
    assert overall["count"] == 8
    # Hélène and Jürgen share the first game's win: 2.5 points each, one place.
    shared = [row for row in overall["items"] if row["points"] == 2.5]
    assert {row["place"] for row in shared} == {2}


def test_a_sessions_standings_count_its_games_only(api, world):
    session = world.championship.sessions.get(number=1)
    first = get(api, "/tournaments/bk/sessions/1/standings")
    assert first["session"] == 1
    assert (first["official"], first["stage"]) == (False, "qualifying")
    assert first["items"] == _standings_rows(world.championship, session)
    assert get(api, "/tournaments/bk/sessions/2/standings")["count"] == 0


def test_unknown_tournaments_sessions_and_tables_are_404_with_a_code(api, world):
    for path in (
        "/tournaments/nope",
        "/tournaments/bk/sessions/9/tables",
        "/tournaments/bk/sessions/3/tables/1",
        "/tournaments/bk/sessions/9/standings",
    ):
        response = api.get(V1 + path)
        assert response.status_code == 404, path
        assert response.json()["code"] == "not_found"


# --- queries: constant in the number of rows ------------------------------------------------


def _queries(api: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert api.get(V1 + path).status_code == 200
    return len(queries)


def _grow(tournament: Tournament) -> None:
    """Three more finished tables in session 1, each of new players of a new club."""
    session = tournament.sessions.get(number=1)
    referee = make_user("ref-grow")
    for number in range(3, 6):
        club = Club.objects.create(name=f"Club {number}")
        names = [f"Player {number}.{position}" for position in range(1, 5)]
        players = [Player.objects.create(name=name, club=club) for name in names]
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=player) for player in players
        )
        table = seat(session, number, players, None)
        over = {"hands": dict(zip(names, (0, 5, 9, 45), strict=True)), "yaniv": names[0]}
        record(table.game, referee, *[over] * 4)


PATHS = (
    "/tournaments",
    "/tournaments/bk",
    "/tournaments/bk/sessions",
    "/tournaments/bk/sessions/1/tables",
    "/tournaments/bk/sessions/1/tables/1",
    "/tournaments/bk/standings",
    "/tournaments/bk/sessions/1/standings",
    "/players",
    "/players?q=a",
)


def test_each_answer_costs_the_same_queries_whatever_the_number_of_rows(api, world):
    before = {path: _queries(api, path) for path in PATHS}
    _grow(world.championship)
    Tournament.objects.create(name="More", slug="more", starts_on="2025-01-01", status="running")
    after = {path: _queries(api, path) for path in PATHS}
    assert after == before
    # And few: the tournament, the session, its version, the games, their seats, rounds with
    # their hands and players' clubs, the tables' count.
    assert before["/tournaments/bk/sessions/1/tables"] == 8
    # The tournament, its version, the finished seats, their players.
    assert before["/tournaments/bk/standings"] == 4
    # The count, the page.
    assert before["/tournaments"] == 2
