"""What players follow without an account: tournaments, live tables, standings, players."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import HTMX, make_table, make_tournament, make_user, record
from tournaments.models import Club, Registration, Session, Tournament

pytestmark = pytest.mark.django_db

DIRK_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}


@pytest.fixture
def finished_table(table, referee):
    """Ann 0, Bart 4, Chris 36, Dirk 180: the game is over."""
    record(table.game, referee, *[DIRK_45] * 4)
    return table


def test_the_home_page_lists_running_public_tournaments_only(client, tournament):
    make_tournament(name="Club night", is_public=False)
    make_tournament(name="Next year", status="draft")
    html = client.get(reverse("public:home")).content.decode()
    assert tournament.name in html
    assert "Club night" not in html and "Next year" not in html


def test_the_tournament_page_shows_the_current_sessions_tables_with_live_scores(
    client, tournament, finished_table
):
    html = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert "Table 1" in html
    assert "<bdi>Dirk</bdi> <b>180</b>" in html
    assert "finished · provisional" in html


def test_a_private_tournament_is_404_for_anonymous_visitors_on_every_page(client, referee):
    private = make_tournament(slug="secret", is_public=False)
    table = make_table(tournament=private, referee=referee)
    record(table.game, referee, *[DIRK_45] * 4)
    urls = [
        reverse("public:tournament", args=["secret"]),
        reverse("public:standings", args=["secret"]),
        reverse("public:session_standings", args=["secret", 1]),
        reverse("public:players", args=["secret"]),
        reverse("public:player", args=["secret", table.seats.all()[0].player_id]),
        reverse("tables:detail", args=[table.pk]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 404, url
        assert b"Dirk" not in response.content


def test_a_private_tournament_is_visible_to_its_referee(client, referee):
    private = make_tournament(slug="secret", is_public=False)
    make_table(tournament=private, referee=referee)
    client.force_login(referee)
    assert client.get(reverse("public:standings", args=["secret"])).status_code == 200


def test_the_standings_rank_finished_games_and_mark_provisional_ones(
    client, tournament, finished_table
):
    html = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    order = [html.index(name) for name in ("Ann", "Bart", "Chris", "Dirk")]
    assert order == sorted(order)
    assert "<strong>3</strong><abbr" in html  # Ann beat three players, not signed off yet
    assert "Each finished game gives a player one point for every player they beat" in html


def test_a_signed_off_game_is_no_longer_provisional(client, tournament, finished_table, referee):
    finished_table.game.sign_off(by=referee, version=finished_table.game.version)
    html = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    assert "<strong>3</strong><abbr" not in html
    assert "<strong>3</strong>" in html


def test_session_standings_count_only_that_sessions_games(client, tournament, referee):
    first = make_table(tournament=tournament, referee=referee)
    record(first.game, referee, *[DIRK_45] * 4)
    first.session.status = Session.Status.FINISHED
    first.session.save()
    second = make_table(tournament=tournament, referee=referee, players=("Eva", "Finn"))
    record(second.game, referee, *[{"hands": {"Eva": 0, "Finn": 40}, "yaniv": "Eva"}] * 4)
    session_2 = client.get(
        reverse("public:session_standings", args=[tournament.slug, 2])
    ).content.decode()
    assert "Eva" in session_2 and "Ann" not in session_2
    overall = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    assert "Eva" in overall and "Ann" in overall


def test_standings_cost_the_same_queries_for_one_or_many_games(
    client, tournament, table, referee, django_assert_num_queries
):
    record(table.game, referee, *[DIRK_45] * 4)
    url = reverse("public:standings", args=[tournament.slug])
    # The tournament, the version, the tables still playing, the standings (two), the sessions.
    with django_assert_num_queries(6) as one_game:
        client.get(url)
    for players in (("Eva", "Finn", "Gus"), ("Hilde", "Ivo"), ("Jan", "Kim", "Lea", "Mo")):
        more = make_table(tournament=tournament, referee=referee, players=players)
        hands = {name: (0 if name == players[0] else 45) for name in players}
        record(more.game, referee, *[{"hands": hands, "yaniv": players[0]}] * 4)
    with django_assert_num_queries(len(one_game.captured_queries)):
        client.get(url)


def test_a_poll_with_the_current_version_gets_204_and_nothing_to_swap(
    client, tournament, finished_table
):
    url = reverse("public:standings", args=[tournament.slug])
    version = client.get(url).context["version"]
    poll = client.get(url, {"since": version}, headers=HTMX)
    assert poll.status_code == 204
    assert poll.content == b""


def test_a_poll_after_a_new_round_gets_the_fresh_fragment(client, tournament, table, referee):
    url = reverse("public:standings", args=[tournament.slug])
    version = client.get(url).context["version"]
    record(table.game, referee, *[DIRK_45] * 4)
    poll = client.get(url, {"since": version}, headers=HTMX)
    html = poll.content.decode()
    assert poll.status_code == 200
    assert html.lstrip().startswith('<div id="live"')
    assert "<html" not in html and "Dirk" in html


def test_the_table_page_poll_answers_204_until_the_game_changes(client, finished_table, referee):
    url = reverse("tables:detail", args=[finished_table.pk])
    version = finished_table.game.version
    assert client.get(url, {"since": version}, headers=HTMX).status_code == 204
    finished_table.game.sign_off(by=referee, version=version)
    changed = client.get(url, {"since": version}, headers=HTMX)
    assert changed.status_code == 200
    html = changed.content.decode()
    assert "Signed off by the referee" in html
    assert referee.username not in html


def test_the_player_page_shows_every_game_round_by_round(client, tournament, finished_table):
    dirk = finished_table.seats.get(position=4).player
    html = client.get(reverse("public:player", args=[tournament.slug, dirk.pk])).content.decode()
    assert "Rank 4 with 180" in html
    assert html.count("+45") == 4
    assert "135</strong>" in html


def test_players_can_be_found_by_name(client, tournament):
    table = make_table(tournament=tournament, players=("Hélène", "Jürgen"))
    Registration.objects.create(tournament=tournament, player=table.seats.all()[0].player)
    html = client.get(
        reverse("public:players", args=[tournament.slug]), {"q": "jürg"}, headers=HTMX
    ).content.decode()
    assert "Jürgen" in html and "Hélène" not in html
    assert "<html" not in html


def test_standings_polls_stay_204_while_games_are_still_being_played(
    client, tournament, table, referee
):
    url = reverse("public:standings", args=[tournament.slug])
    version = client.get(url).context["version"]
    record(table.game, referee, DIRK_45)  # a round, but no game finished
    poll = client.get(url, {"since": version}, headers=HTMX)
    assert poll.status_code == 204
    record(table.game, referee, *[DIRK_45] * 3)  # Dirk goes above 150
    poll = client.get(url, {"since": version}, headers=HTMX)
    assert poll.status_code == 200


# --- the standings' fast paths (issue 14) -------------------------------------------------


def standings_url(tournament, number=None) -> str:
    if number is None:
        return reverse("public:standings", args=[tournament.slug])
    return reverse("public:session_standings", args=[tournament.slug, number])


def test_the_standings_version_read_by_slug_is_the_tournaments_own(tournament, finished_table):
    version = tournament.live_version(finished_games_only=True)
    assert Tournament.public_standings_version(tournament.slug) == version
    assert Tournament.public_standings_version(tournament.slug, 1) == version
    # No such session or tournament: the caller takes the normal way (a 404).
    assert Tournament.public_standings_version(tournament.slug, 2) is None
    assert Tournament.public_standings_version("no-such-tournament") is None


def test_a_private_tournaments_standings_version_is_never_read_by_slug(referee):
    private = make_tournament(slug="secret", is_public=False)
    record(make_table(tournament=private, referee=referee).game, referee, *[DIRK_45] * 4)
    assert Tournament.public_standings_version("secret") is None
    assert Tournament.public_standings_version("secret", 1) is None


def test_an_unchanged_standings_poll_is_one_query(
    client, tournament, finished_table, django_assert_num_queries
):
    version = client.get(standings_url(tournament)).context["version"]
    for url in (standings_url(tournament), standings_url(tournament, 1)):
        with django_assert_num_queries(1):
            poll = client.get(url, {"since": version}, headers=HTMX)
        assert poll.status_code == 204 and poll.content == b""


def test_a_poll_of_a_session_that_does_not_exist_is_404(client, tournament, finished_table):
    version = tournament.live_version(finished_games_only=True)
    poll = client.get(standings_url(tournament, 7), {"since": version}, headers=HTMX)
    assert poll.status_code == 404


def test_a_private_tournaments_standings_poll_is_never_answered_to_a_stranger(
    client, referee, director
):
    private = make_tournament(slug="secret", is_public=False, directors=[director])
    record(make_table(tournament=private, referee=referee).game, referee, *[DIRK_45] * 4)
    version = private.live_version(finished_games_only=True)
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    for who in (client, stranger):
        for url in (standings_url(private), standings_url(private, 1)):
            for since in (version, "old"):
                poll = who.get(url, {"since": since}, headers=HTMX)
                assert poll.status_code == 404, (url, since)
                assert b"Dirk" not in poll.content
    # Its referee and director take the access check, then the version.
    for user in (referee, director):
        own = Client()
        own.force_login(user)
        assert own.get(standings_url(private), {"since": version}, headers=HTMX).status_code == 204
        fresh = own.get(standings_url(private), {"since": "old"}, headers=HTMX)
        assert fresh.status_code == 200 and "Dirk" in fresh.content.decode()


def table_html_of(response) -> str:
    return response.content.decode().split('<table class="standings">')[1].split("</table>")[0]


@pytest.fixture
def computed(monkeypatch) -> list[object]:
    """The standings computed (by session: None overall), in order."""
    original = Tournament.standings
    calls: list[object] = []

    def standings(self, session=None):
        calls.append(session.number if session else None)
        return original(self, session)

    monkeypatch.setattr(Tournament, "standings", standings)
    return calls


def test_the_standings_table_is_computed_once_per_version_for_every_reader(
    client, tournament, table, referee, computed, django_assert_num_queries
):
    record(table.game, referee, *[DIRK_45] * 4)
    first = client.get(standings_url(tournament))
    assert computed == [None]
    # Another reader, anonymous or not, whole page or poll: served as kept, nothing computed
    # (the tournament, the version and the sessions read).
    with django_assert_num_queries(3):
        second = Client().get(standings_url(tournament))
    other = Client()
    other.force_login(make_user("a-follower"))
    assert table_html_of(other.get(standings_url(tournament))) == table_html_of(second)
    poll = Client().get(standings_url(tournament), {"since": "old"}, headers=HTMX)
    assert computed == [None]
    table_html = table_html_of(first)
    assert table_html == table_html_of(second) == table_html_of(poll)
    assert "<bdi>Dirk</bdi>" in table_html
    # Each page its own table: a session's standings are computed for it.
    client.get(standings_url(tournament, 1))
    assert computed == [None, 1]
    # A finished game more: the next reader has them computed afresh.
    more = make_table(tournament=tournament, referee=referee, players=("Eva", "Finn"))
    record(more.game, referee, *[{"hands": {"Eva": 0, "Finn": 40}, "yaniv": "Eva"}] * 4)
    again = Client().get(standings_url(tournament))
    assert computed == [None, 1, None]
    assert "<bdi>Eva</bdi>" in again.content.decode()


def test_a_kept_standings_table_is_served_after_the_access_check(
    client, referee, director, computed
):
    private = make_tournament(slug="secret", is_public=False, directors=[director])
    record(make_table(tournament=private, referee=referee).game, referee, *[DIRK_45] * 4)
    own = Client()
    own.force_login(director)
    assert "<bdi>Dirk</bdi>" in own.get(standings_url(private)).content.decode()
    for url in (standings_url(private), standings_url(private, 1)):
        page = client.get(url)
        assert page.status_code == 404 and b"Dirk" not in page.content
    assert computed == [None]


def test_the_session_clock_of_a_kept_standings_page_is_drawn_for_each_reader(
    client, tournament, table, referee, director
):
    """The clock carries the server's time of drawing: never kept with the table."""
    record(table.game, referee, *[DIRK_45] * 4)
    table.session.set_time_limit(60, by=director)
    table.session.start_clock(by=director)
    client.get(standings_url(tournament))  # the table kept
    time.sleep(0.01)
    asked_at = int(time.time() * 1000)
    second = Client().get(standings_url(tournament)).content.decode()
    drawn_at = re.search(r'data-now="(\d+)"', second)
    assert drawn_at is not None and int(drawn_at[1]) >= asked_at


def test_the_standings_list_every_player_with_their_club_in_two_queries(
    tournament, table, referee, django_assert_num_queries
):
    ann = table.seats.get(position=1).player
    ann.club = Club.objects.create(name="Yaniv Gent")
    ann.save()
    record(table.game, referee, *[DIRK_45] * 4)
    Registration.objects.create(tournament=tournament, player=table.seats.get(position=4).player)
    tournament.registrations.get(player__name="Dirk").withdraw("unwell", by=referee)
    with django_assert_num_queries(2):
        rows = tournament.standings()
    assert [(s.place, p.name, p.club.name if p.club else None, s.withdrawn) for s, p in rows] == [
        (1, "Ann", "Yaniv Gent", False),
        (2, "Bart", None, False),
        (3, "Chris", None, False),
        (4, "Dirk", None, True),
    ]
    assert rows[0][1].pk == rows[0][1].id == ann.pk and rows[0][1].club.pk == ann.club_id
