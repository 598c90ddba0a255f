"""Yaniv statistics in the API (issue 38.5): a player's, each player's in a tournament, a
tournament's facts; the figures of the fixed games computed by hand, nothing of a private
tournament, ETags that follow the rounds, a constant number of queries."""

from __future__ import annotations

import pytest

from tests.scoring.statistics_games import GAME_1
from tests.statistics_world import play, statistics_world

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


@pytest.fixture
def world():
    return statistics_world()


def test_a_players_statistics_are_those_of_their_public_games(api, world):
    ann = world["people"]["Ann"]
    answer = api.get(f"{V1}/players/{ann.pk}/statistics")
    assert answer.status_code == 200
    body = answer.json()
    assert (body["id"], body["name"], body["club"]) == (ann.pk, "Ann", "YC Gent")
    overall = body["statistics"]
    assert {name: overall[name] for name in ("games", "rounds", "calls", "held", "caught")} == {
        "games": 2,
        "rounds": 10,
        "calls": 4,
        "held": 2,
        "caught": 1,
    }
    assert (overall["assafs"], overall["false_yanivs"], overall["reductions"]) == (1, 0, 1)
    assert (overall["average_hand"], overall["average_call"]) == (14.0, 3.0)
    assert overall["hand_bins"] == [0, 4, 1, 0, 0, 0, 0, 0, 0, 1]
    assert [(t["slug"], t["statistics"]["calls"]) for t in body["tournaments"]] == [
        ("night", 1),
        ("cup", 3),
    ]
    assert body["tournaments"][1]["statistics"]["average_hand"] == 17.25
    assert [(s["slug"], s["tournaments"]) for s in body["seasons"]] == [("ladder", 2)]
    assert "secret" not in answer.content.decode() and "hidden" not in answer.content.decode()


def test_a_player_of_private_tournaments_only_is_not_found(api, world):
    zoe = world["people"]["Zoë"]
    answer = api.get(f"{V1}/players/{zoe.pk}/statistics")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    assert api.get(f"{V1}/players/999999/statistics").status_code == 404


def test_a_players_etag_follows_their_rounds(api, world):
    ann = world["people"]["Ann"]
    url = f"{V1}/players/{ann.pk}/statistics"
    etag = api.get(url)["ETag"]
    assert api.get(url, headers={"If-None-Match": etag}).status_code == 304
    people = world["people"]
    play(
        world["cup"],
        [people[n] for n in ("Ann", "Bart", "Chris", "Dirk")],
        GAME_1,
        world["director"],
    )
    fresh = api.get(url, headers={"If-None-Match": etag})
    assert fresh.status_code == 200
    assert fresh.json()["statistics"]["games"] == 3


def test_a_players_statistics_cost_the_same_queries_whatever_the_history(
    api, world, django_assert_num_queries
):
    ann = world["people"]["Ann"]
    url = f"{V1}/players/{ann.pk}/statistics"
    # The player, their tournaments, the last change, the seasons' rows; then the hands,
    # their tournaments and seasons.
    with django_assert_num_queries(7):
        api.get(url)
    people = world["people"]
    for _ in range(3):
        play(
            world["cup"],
            [people[n] for n in ("Ann", "Bart", "Chris", "Dirk")],
            GAME_1,
            world["director"],
        )
    with django_assert_num_queries(7):
        assert api.get(url).json()["statistics"]["games"] == 5


def test_each_players_statistics_in_a_tournament_by_name(api, world):
    body = api.get(f"{V1}/tournaments/cup/statistics").json()
    assert body["count"] == 4
    assert [item["player"]["name"] for item in body["items"]] == ["Ann", "Bart", "Chris", "Dirk"]
    chris = body["items"][2]["statistics"]
    assert (chris["false_yanivs"], chris["along"], chris["along_won"]) == (1, 2, 2)
    assert chris["average_hand"] == 12.0
    page = api.get(f"{V1}/tournaments/cup/statistics", {"limit": 2, "offset": 2}).json()
    assert [item["player"]["name"] for item in page["items"]] == ["Chris", "Dirk"]


def test_a_tournaments_facts(api, world):
    body = api.get(f"{V1}/tournaments/cup/facts").json()
    assert body["tournament"] == "cup" and body["page"] == "/t/cup/"
    facts = {fact["code"]: fact for fact in body["facts"]}
    assert facts["best_comeback"] == {
        "code": "best_comeback",
        "value": 25.0,
        "players": [{"id": world["people"]["Ann"].pk, "name": "Ann"}],
        "session": 1,
        "table": 1,
        "round": 2,
    }
    assert facts["most_yanivs"]["value"] == 2
    assert list(facts) == [
        "most_yanivs",
        "best_catcher",
        "most_reductions",
        "longest_run",
        "best_comeback",
        "longest_game",
    ]
    # The club night has no finished game: no facts yet.
    assert api.get(f"{V1}/tournaments/night/facts").json()["facts"] == []


def test_a_private_tournaments_statistics_and_facts_are_not_found(api, world):
    for what in ("statistics", "facts"):
        answer = api.get(f"{V1}/tournaments/secret/{what}")
        assert answer.status_code == 404


def test_the_facts_etag_stays_while_a_game_is_played_and_moves_when_one_finishes(api, world):
    url = f"{V1}/tournaments/night/facts"
    etag = api.get(url)["ETag"]
    game = world["game_2"]
    from tests.factories import record

    record(game, world["director"], {"hands": {"Ann": 1, "Bart": 9, "Chris": 9}, "yaniv": "Ann"})
    assert api.get(url, headers={"If-None-Match": etag}).status_code == 304
    statistics = f"{V1}/tournaments/night/statistics"
    assert api.get(statistics)["ETag"] != ""
