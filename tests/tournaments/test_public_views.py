"""What players follow without an account: tournaments, live tables, standings, players."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import HTMX, make_table, make_tournament, record
from tournaments.models import Registration, Session

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
    with django_assert_num_queries(5) as one_game:
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
