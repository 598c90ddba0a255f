"""The smaller things a director and a player read (issue 23, point 7): a new tournament's
"Players per table" starts at 4; the final's *Draw again* offers no method it would ignore;
the clock's history says seconds for a short pause and no space before ":"; "1 point" in the
singular; a private tournament's screen has its secret link on the first visit; the final's
session page offers to finish the tournament once its games are over."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from hall.models import HallScreen
from tests.factories import HTMX, make_tournament
from tests.tournaments.test_director_views import creator
from tests.tournaments.test_final import play_out, qualify
from tournaments.models import Player, Session, SessionClockEvent

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def session_page(client, session: Session) -> str:
    url = reverse("manage:session", args=[session.tournament.slug, session.number])
    return client.get(url).content.decode()


def test_a_new_tournaments_form_starts_with_tables_of_4_and_4_sessions(client):
    client.force_login(creator())
    page = client.get(reverse("manage:new")).content.decode()
    assert re.search(r'<input type="number" name="table_size"[^>]* value="4"', page)
    assert re.search(r'<input type="number" name="session_count"[^>]* value="4"', page)


def test_the_finals_draw_again_offers_no_method_it_would_ignore(director_client, tournament):
    final = qualify(tournament).open_final()
    page = session_page(director_client, final)
    draw = page[page.index("<h2>Draw again</h2>") :]
    assert "Random, fewest repeat meetings" not in draw and '<select name="method">' not in draw
    assert "The final seats the best players of the standings" in draw
    response = director_client.post(
        reverse("manage:session_draw", args=[tournament.slug, final.number]),
        {"method": "standings"},
    )
    assert response.status_code == 302


def test_a_qualifying_sessions_draw_again_still_offers_both_methods(director_client, tournament):
    Player.objects.bulk_create(Player(name=name) for name in ("A", "B"))
    session = Session.objects.create(tournament=tournament, number=1)
    page = session_page(director_client, session)
    assert "Random, fewest repeat meetings" in page[page.index("<h2>Draw again</h2>") :]


def test_the_clock_history_says_seconds_for_a_short_pause_and_no_space_before_the_colon(
    director_client, table, director
):
    session = table.session
    Session.objects.filter(pk=session.pk).update(
        time_limit=90, clock_started_at=timezone.now() - timedelta(minutes=20)
    )
    session.refresh_from_db()
    session.pause_clock(by=director)
    SessionClockEvent.objects.filter(action="pause").update(
        at=timezone.now() - timedelta(seconds=7)
    )
    session.resume_clock(by=director)
    session.extend_clock(10, table, by=director, reason="a dispute at the table")
    history = text(session_page(director_client, session).split('class="clock-history"', 1)[1])
    assert "resumed the clock (paused 7 seconds)" in history
    assert "paused 0 min" not in history
    assert "gave table 1 10 more min: “a dispute at the table”" in history


def test_a_long_pause_is_still_said_in_minutes(director_client, table, director):
    session = table.session
    Session.objects.filter(pk=session.pk).update(
        time_limit=90, clock_started_at=timezone.now() - timedelta(minutes=20)
    )
    session.refresh_from_db()
    session.pause_clock(by=director)
    SessionClockEvent.objects.filter(action="pause").update(
        at=timezone.now() - timedelta(minutes=3)
    )
    Session.objects.filter(pk=session.pk).update(
        clock_paused_at=timezone.now() - timedelta(minutes=3)
    )
    session.refresh_from_db()
    session.resume_clock(by=director)
    history = text(session_page(director_client, session))
    assert "resumed the clock (paused 3 min)" in history


def test_one_point_is_said_in_the_singular(client, tournament):
    qualify(tournament)
    gina, bart = (Player.objects.get(name=name) for name in ("Gina", "Bart"))
    page = text(
        client.get(reverse("public:player", args=[tournament.slug, gina.pk])).content.decode()
    )
    assert "1 point from 1 game" in page and "1 points" not in page
    page = text(
        client.get(reverse("public:player", args=[tournament.slug, bart.pk])).content.decode()
    )
    assert "1.5 points from 1 game" in page
    profile = text(client.get(reverse("public:profile", args=[gina.pk])).content.decode())
    assert "1 point from 1 game" in profile


def test_a_private_tournaments_screen_has_its_secret_link_on_the_first_visit(
    director_client, director
):
    private = make_tournament(is_public=False, directors=[director])
    page = director_client.get(reverse("manage:screens", args=[private.slug])).content.decode()
    screen = private.screens.get(number=1)
    assert screen.key and f"/hall/{screen.key}/" in page
    # A second visit shows the same link: nothing new is made.
    again = director_client.get(reverse("manage:screens", args=[private.slug])).content.decode()
    assert f"/hall/{screen.key}/" in again and private.screens.count() == 1
    assert HallScreen.find(screen.key) == screen


def test_the_final_offers_to_finish_the_tournament_once_its_games_are_over(
    director_client, tournament
):
    final = qualify(tournament).open_final()
    final.start()
    assert "Every game of the final is over" not in session_page(director_client, final)
    play_out(final.tables.get(), (0, 45, 2))
    page = session_page(director_client, final)
    assert "Every game of the final is over: finish the final to finish the tournament." in page
    url = reverse("manage:session_status", args=[tournament.slug, final.number])
    response = director_client.post(url, {"action": "finish"}, headers=HTMX)
    assert response["HX-Redirect"]
    tournament.refresh_from_db()
    assert tournament.status == "finished"
