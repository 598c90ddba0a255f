"""What the hall says (issue 23, point 3): "Final standings" only once the final is over
(before: the qualifying order, marked as the standings so far); withdrawn players marked;
the final's tables titled as the final; a late newcomer not marked "moved", the mark beside
the name so the table column stays in line."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.test_final import play_out, qualify
from tournaments.models import Player, Registration, Session, Tournament

pytestmark = pytest.mark.django_db


def hall(client, tournament: Tournament) -> str:
    return client.get(reverse("public:hall", args=[tournament.slug])).content.decode()


def view(html: str, name: str) -> str:
    return html.split(f'data-view="{name}"', 1)[1].split("</section>", 1)[0]


def title(html: str, name: str) -> str:
    found = re.search(rf'data-view="{name}" data-title="([^"]*)"', html)
    assert found, name
    return found.group(1)


def test_while_the_final_is_played_the_standings_are_marked_so_far(client, tournament):
    final = qualify(tournament).open_final()
    Session.objects.filter(pk=final.pk).update(status=Session.Status.RUNNING)
    html = hall(client, tournament)
    assert title(html, "standings") == "Standings so far · the final is being played"
    assert "Final standings" not in html
    standings = view(html, "standings")
    assert "<mark>So far</mark> The final is being played" in standings


def test_once_the_final_is_over_the_hall_says_final_standings(client, tournament):
    final = qualify(tournament).open_final()
    play_out(final.tables.get(), (0, 45, 2))
    html = hall(client, tournament)
    assert title(html, "standings") == "Final standings"
    assert "So far" not in view(html, "standings")


def test_the_finals_tables_are_titled_as_the_final(client, tournament):
    final = qualify(tournament).open_final()
    Session.objects.filter(pk=final.pk).update(status=Session.Status.RUNNING)
    assert title(hall(client, tournament), "tables") == "The final: the tables"


def test_a_qualifying_sessions_tables_keep_their_session_title(client, table):
    assert title(hall(client, table.session.tournament), "tables") == "Session 1: the tables"


def test_a_withdrawn_player_is_marked_in_the_hall_standings(client, tournament, director):
    qualify(tournament)
    registration = Registration.objects.create(
        tournament=tournament, player=Player.objects.get(name="Bart")
    )
    registration.withdraw("ill", by=director)
    standings = view(hall(client, tournament), "standings")
    bart = re.search(r'<li class="[^"]*withdrawn[^"]*">.*?</li>', standings, re.S)
    assert bart and "<bdi>Bart</bdi>" in bart.group(0)
    assert ">withdrawn</span>" in bart.group(0)
    assert standings.count(">withdrawn</span>") == 1


def test_a_late_newcomer_is_not_marked_moved_and_the_mark_sits_by_the_name(client, tournament):
    names = ["Ann", "Bart", "Chris", "Dirk", "Eva", "Finn", "Gina", "Hugo"]
    for name in names:
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(name=name), checked_in=True
        )
    session = tournament.open_session(Session.Seating.RANDOM, seed=7)
    late = Player.objects.create(name="Late Lena")
    Registration.objects.create(tournament=tournament, player=late, checked_in=True)
    suggestion = session.rebalance()
    assert suggestion is not None
    session.apply_rebalance(Session.rebalance_key(suggestion), by=None)
    session.refresh_from_db()
    assert late.pk not in session.moved_players
    seating = view(hall(client, tournament), "seating")
    lena = re.search(r"<li[^>]*>(?:(?!</li>).)*Late Lena.*?</li>", seating, re.S)
    assert lena and "moved" not in lena.group(0)
    for line in re.findall(r'<li class="moved">.*?</li>', seating, re.S):
        # The mark inside the name, before the table and seat.
        assert re.search(
            r'<span class="name">.*<mark>moved</mark></span> <span class="place">', line
        )
