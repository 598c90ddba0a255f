"""A tournament's facts (issue 38.5) on its page: from its finished games, as computed by hand
for the fixed game (tests/scoring/statistics_games.py), kept per version of the standings and
told anew once a finished game changes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import HTMX, entries
from tests.statistics_world import facts_told, statistics_world
from tournaments import statistics
from tournaments.models import Hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return statistics_world()


def facts_of(html: str) -> list[str]:
    return facts_told(html, '<section class="facts"')


def test_the_tournament_page_tells_the_facts_of_its_finished_games(client, world):
    html = client.get(reverse("public:tournament", args=["cup"])).content.decode()
    assert facts_of(html) == [
        "Most Yaniv calls held Ann 2 calls held",
        "Best catcher going along Chris caught the caller 2 times",
        "Most reductions Ann 1 reduction",
        "Longest run without points Bart 2 rounds in a row",
        "Best comeback Ann won session 1, table 1 from 25 points behind after round 2",
        "Longest game session 1, table 1: 7 rounds",
    ]
    assert '<h2 id="facts-title">Facts of the tournament</h2>' in html


def test_a_tournament_without_a_finished_game_has_no_facts(client, world):
    html = client.get(reverse("public:tournament", args=["night"])).content.decode()
    assert world["game_2"].rounds.count() == 3
    assert 'class="facts"' not in html


def test_the_live_parts_poll_brings_the_facts_to_a_page_opened_earlier(client, world):
    response = client.get(
        reverse("public:tournament", args=["cup"]), {"since": "old"}, headers=HTMX
    )
    assert response.status_code == 200
    assert 'id="live"' in response.content.decode()
    assert "Facts of the tournament" in response.content.decode()


def test_the_facts_are_read_once_per_version_of_the_standings(client, world):
    url = reverse("public:tournament", args=["cup"])
    hands = Hand._meta.db_table
    with CaptureQueriesContext(connection) as first:
        client.get(url)
    assert any(hands in query["sql"] for query in first.captured_queries)
    with CaptureQueriesContext(connection) as again:
        assert "Best comeback" in client.get(url).content.decode()
    assert not any(hands in query["sql"] for query in again.captured_queries)
    assert len(again.captured_queries) < len(first.captured_queries)


def test_a_correction_of_a_finished_game_tells_the_facts_anew(client, world):
    url = reverse("public:tournament", args=["cup"])
    assert "Most reductions" in client.get(url).content.decode()
    game = world["game_1"]
    # Round 5 with Ann on 8, not 9: she no longer lands on 50, nobody is reduced.
    corrected = entries(
        {
            "hands": {"Ann": 8, "Bart": 5, "Chris": 15, "Dirk": 2},
            "yaniv": "Dirk",
            "along": ["Bart"],
        }
    )
    game.correct_round(
        5, corrected, by=world["director"], reason="Ann had 8", version=game.version
    )
    told = facts_of(client.get(url).content.decode())
    assert not any(fact.startswith("Most reductions") for fact in told)


def test_the_facts_name_the_players_alphabetically_and_their_tables(world):
    cup = world["cup"]
    cup.refresh_from_db()
    shown = {fact.code: fact for fact in statistics.tournament_facts(cup)}
    assert shown["best_comeback"].names == ("Ann",)
    assert (shown["best_comeback"].session, shown["best_comeback"].table) == (1, 1)
    assert shown["best_comeback"].round == 2 and shown["best_comeback"].value == 25


def test_a_private_tournaments_facts_stay_with_its_people(client, world):
    from tests.scoring.statistics_games import GAME_1
    from tests.statistics_world import play

    secret = world["secret"]
    people = world["people"]
    play(
        secret,
        [people[name] for name in ("Ann", "Bart", "Chris", "Dirk")],
        GAME_1,
        world["director"],
    )
    url = reverse("public:tournament", args=["secret"])
    assert client.get(url).status_code == 404
    client.force_login(world["director"])
    assert "Best comeback" in client.get(url).content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [("nl", "Feiten van het toernooi"), ("fr", "Faits du tournoi")],
)
def test_the_facts_speak_dutch_and_french(client, world, language, words):
    html = client.get(
        reverse("public:tournament", args=["cup"]), headers={"Accept-Language": language}
    ).content.decode()
    assert words in html
