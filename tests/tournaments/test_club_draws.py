"""Club-aware draws on the site (issue 38.4): the director chooses them on the draw forms, the
session seats clubmates apart, and the draw's report counts the clubmates at each table (and
the repeat meetings) on the session page and the printed table list."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import seating
from tests.factories import HTMX, make_tournament, make_user
from tournaments.models import Club, Player, Registration, Seat, Session, Tournament

pytestmark = pytest.mark.django_db

# 20 players at 5 tables: three clubs of 5 and five players without a club.
CLUBS = ("Gent", "Brugge", "Leuven")


@pytest.fixture(autouse=True)
def checked_in(tournament):
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    clubs = [Club.objects.create(name=name) for name in CLUBS]
    for number in range(20):
        club = clubs[number % 3] if number < 15 else None
        player = Player.objects.create(name=f"Player {number + 1:02d}", club=club)
        Registration.objects.create(tournament=tournament, player=player, checked_in=True)


def clubmates(session: Session) -> int:
    seated = [
        list(table.seats.values_list("player_id", flat=True)) for table in session.tables.all()
    ]
    return seating.count_clubmates(seated, Session.clubs_of([p for t in seated for p in t]))


def draw_page(client, tournament, number: int = 1) -> str:
    return client.get(reverse("manage:session", args=[tournament.slug, number])).content.decode()


@pytest.mark.parametrize("method", ["clubs", "clubs_last"])
def test_a_club_aware_draw_seats_no_clubmates_where_the_field_allows_it(tournament, method):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw(method, seed=7)
    assert session.seating == method
    assert clubmates(session) == 0
    # The plain draw of the same seed seats clubmates together.
    session.draw("random", seed=7)
    assert clubmates(session) > 0


@pytest.mark.parametrize("method", ["clubs", "clubs_last"])
def test_the_same_seed_and_method_give_the_same_club_aware_draw(tournament, method):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw(method, seed=11)
    first = list(
        Seat.objects.filter(table__session=session).values_list("table__number", "player_id")
    )
    session.draw(method, seed=11)
    again = list(
        Seat.objects.filter(table__session=session).values_list("table__number", "player_id")
    )
    assert sorted(first) == sorted(again)


def test_an_unknown_method_draws_the_plain_random_draw(tournament):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("nonsense", seed=7)
    assert session.seating == Session.Seating.RANDOM


def test_the_dashboard_and_the_session_page_offer_both_club_aware_draws(
    director_client, tournament
):
    dashboard = director_client.get(reverse("manage:tournament", args=[tournament.slug]))
    assert '<option value="clubs">Random, clubmates apart</option>' in (dashboard.content.decode())
    assert '<option value="clubs_last">' in dashboard.content.decode()
    Session.objects.create(tournament=tournament, number=1).draw("clubs", seed=3)
    page = draw_page(director_client, tournament)
    assert '<option value="clubs" selected>' in page
    assert '<option value="manual"' not in page


def test_the_director_draws_a_session_with_clubmates_apart_and_sees_the_report(
    director_client, tournament
):
    response = director_client.post(
        reverse("manage:session_create", args=[tournament.slug]),
        {"method": "clubs", "seed": "5"},
        follow=True,
    )
    session = tournament.sessions.get()
    assert (session.seating, session.seed) == ("clubs", 5)
    page = response.content.decode()
    assert "Random, clubmates apart" in page
    assert "<strong>0</strong> pairs of clubmates at a table" in page
    assert 'class="clubmates"' not in page


def test_the_report_counts_the_clubmates_of_each_table_after_a_plain_draw(
    director_client, tournament
):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    pairs = clubmates(session)
    page = draw_page(director_client, tournament)
    assert pairs > 0
    counter = "pair" if pairs == 1 else "pairs"
    assert f"<strong>{pairs}</strong> {counter} of clubmates at a table" in page
    # Each table names its clubs seated more than once, with how many of each.
    for table in session.tables.all():
        together = seating.clubmates_at(
            list(table.seats.values_list("player_id", flat=True)),
            dict(Player.objects.values_list("pk", "club__name")),
        )
        section = page.split(f'<li id="table-{table.number}">')[1].split('<li id="table-')[0]
        shown = re.findall(r"<bdi>(\w+)</bdi> ×(\d)", section)
        assert sorted(shown) == sorted((club, str(count)) for club, count in together.items())


def test_the_printed_table_list_names_clubs_and_counts_clubmates_and_repeats(
    director_client, tournament
):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    html = director_client.get(reverse("manage:table_list", args=[tournament.slug, 1])).content
    text = html.decode()
    assert '<small class="club">(Gent)</small>' in text
    pairs = clubmates(session)
    assert f"0 repeat meetings · {pairs} pairs of clubmates at a table" in text
    assert "Clubmates:" in text


def test_an_htmx_rebalance_answers_the_draw_report_out_of_band(director_client, tournament):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("clubs", seed=7)
    Registration.objects.filter(player__name="Player 01").update(checked_in=False)
    rebalanced = session.rebalance()
    assert rebalanced is not None
    response = director_client.post(
        reverse("manage:session_rebalance", args=[tournament.slug, 1]),
        {"key": Session.rebalance_key(rebalanced)},
        headers=HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert '<p class="draw-facts" id="draw-facts" data-hx-swap-oob="true">' in html
    assert "pairs of clubmates at a table" in html or "pair of clubmates at a table" in html


def test_anonymous_is_sent_to_log_in_and_the_report_stays_with_the_directors(
    client, tournament, referee
):
    Session.objects.create(tournament=tournament, number=1).draw("clubs", seed=7)
    for name in ("manage:session", "manage:table_list"):
        url = reverse(name, args=[tournament.slug, 1])
        anonymous = client.get(url)
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    client.force_login(referee)
    assert client.get(reverse("manage:session", args=[tournament.slug, 1])).status_code == 403


def test_a_stranger_cannot_draw_clubmates_apart(client, tournament):
    other = make_user("other-director", is_staff=True)
    make_tournament(slug="theirs", directors=[other])
    client.force_login(other)
    response = client.post(
        reverse("manage:session_create", args=[tournament.slug]), {"method": "clubs"}
    )
    assert response.status_code == 403
    assert not tournament.sessions.exists()
