"""The hall's facts view (issue 38.5): between sessions the screen cycles through the facts of
the finished games too; while a session is played it does not."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from hall import board as hall_board
from hall.models import HallScreen
from tests.factories import HTMX
from tests.statistics_world import facts_told, statistics_world
from tournaments.models import Session

pytestmark = pytest.mark.django_db


@pytest.fixture
def between_sessions():
    """The cup's session 1 finished (its one game is over), session 2 not drawn yet."""
    world = statistics_world()
    Session.objects.filter(tournament=world["cup"]).update(status=Session.Status.FINISHED)
    world["cup"].refresh_from_db()
    return world


def facts_view(html: str) -> list[str]:
    return facts_told(html, 'data-view="facts"')


def test_between_sessions_the_screen_shows_the_facts(client, between_sessions):
    html = client.get(reverse("public:hall", args=["cup"])).content.decode()
    assert 'data-title="Facts of the tournament"' in html
    told = facts_view(html)
    assert told[0] == "Most Yaniv calls held Ann 2 calls held"
    assert "Best comeback Ann won session 1, table 1 from 25 points behind after round 2" in told


def test_while_a_session_is_played_the_facts_wait(client, world_running):
    html = client.get(reverse("public:hall", args=["cup"])).content.decode()
    assert 'data-view="facts"' not in html
    cup = world_running["cup"]
    assert "facts" not in hall_board.board(cup, HallScreen.default(cup)).views


@pytest.fixture
def world_running():
    return statistics_world()


def test_the_screens_poll_brings_the_facts_view(client, between_sessions):
    response = client.get(reverse("public:hall", args=["cup"]), {"since": "old"}, headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<main id="screen"')
    assert facts_view(html)


def test_a_screen_pinned_to_the_facts_says_so(client, between_sessions):
    cup = between_sessions["cup"]
    director_client = Client()
    director_client.force_login(between_sessions["director"])
    response = director_client.post(
        reverse("manage:screen", args=["cup", 1]),
        {"screen-1-pinned": "facts", "screen-1-seconds": "20"},
    )
    assert response.status_code == 302
    assert HallScreen.objects.get(tournament=cup, number=1).pinned == "facts"
    html = client.get(reverse("public:hall", args=["cup"])).content.decode()
    assert 'data-pinned="facts"' in html
    screens = director_client.get(reverse("manage:screens", args=["cup"])).content.decode()
    assert '<option value="facts" selected>Facts</option>' in screens


def test_a_private_tournaments_hall_keeps_its_facts(client, between_sessions):
    assert client.get(reverse("public:hall", args=["secret"])).status_code == 404


def test_the_facts_view_in_dutch(client, between_sessions):
    html = client.get(
        reverse("public:hall", args=["cup"]), headers={"Accept-Language": "nl"}
    ).content.decode()
    assert 'data-title="Feiten van het toernooi"' in html
