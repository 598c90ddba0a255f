"""Players and clubs follow the tournaments' rule (issue 22): a director sees the players and
clubs of public tournaments and of their own, never those known only from another director's
private tournament (the known players' search, the club selects and lists), and registering a
player never makes another director's private club public. Names and member numbers with a
text-direction control are refused where they were typed, in the form and per CSV row."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Permission
from django.test import Client
from django.urls import reverse

from seasons.models import Season
from tests.factories import HTMX, make_table, make_tournament, make_user
from tests.tournaments.test_director_views import confirm, payload_of, upload
from tournaments.models import Club, Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def hidden():
    """Another director's private tournament, its club and its one player: Hidde of Geheim."""
    club = Club.objects.create(name="Geheim")
    player = Player.objects.create(name="Hidde Verborgen", club=club, member_number="HV-1")
    private = make_tournament(
        slug="private", is_public=False, club=club, directors=[make_user("other-director")]
    )
    Registration.objects.create(tournament=private, player=player)
    return private


@pytest.fixture
def shown():
    """A public tournament of another director, its club and its one player."""
    club = Club.objects.create(name="Open Club")
    player = Player.objects.create(name="Hanne Zichtbaar", club=club)
    public = make_tournament(slug="public", club=club, directors=[make_user("third-director")])
    Registration.objects.create(tournament=public, player=player)
    return public


def search(client: Client, tournament, text: str, **extra):
    return client.get(
        reverse("manage:player_search", args=[tournament.slug]), {"q": text}, **extra
    )


# --- the rule ----------------------------------------------------------------------------------


def test_the_rule_shows_public_and_own_players_and_clubs_only(director, tournament, hidden, shown):
    visible = set(Player.objects.visible_to(director).values_list("name", flat=True))
    assert visible == {"Hanne Zichtbaar"}
    clubs = set(Club.objects.visible_to(director).values_list("name", flat=True))
    assert clubs == {"Open Club"}
    # The private tournament's own director, a superuser and a stranger.
    other = hidden.directors.get()
    assert "Hidde Verborgen" in Player.objects.visible_to(other).values_list("name", flat=True)
    assert "Geheim" in Club.objects.visible_to(other).values_list("name", flat=True)
    root = make_user("root", is_superuser=True)
    assert Club.objects.visible_to(root).count() == Club.objects.count() == 2
    assert set(Club.objects.visible_to(AnonymousUser()).values_list("name", flat=True)) == {
        "Open Club"
    }
    # The referee of one of its tables sees it as they see the tournament.
    referee = make_user("private-ref")
    make_table(tournament=hidden, referee=referee)
    assert "Geheim" in Club.objects.visible_to(referee).values_list("name", flat=True)


def test_a_club_tied_to_nothing_is_everyones_and_a_public_seasons_club_is_seen(director):
    Club.objects.create(name="Nieuw")
    season_club = Club.objects.create(name="Seizoen")
    Season.objects.create(name="S", slug="s", club=season_club, is_public=True)
    hidden_season_club = Club.objects.create(name="Besloten")
    Season.objects.create(name="P", slug="p", club=hidden_season_club, is_public=False)
    assert set(Club.objects.visible_to(director).values_list("name", flat=True)) == {
        "Nieuw",
        "Seizoen",
    }


# --- the known players' search -----------------------------------------------------------------


def test_the_search_does_not_show_a_player_of_another_directors_private_tournament(
    director_client, tournament, hidden, shown
):
    for text in ("Hidde", "Geheim", "HV-1"):
        response = search(director_client, tournament, text)
        assert response.status_code == 200
        html = response.content.decode()
        assert "Verborgen" not in html
        assert text == "Geheim" or "Geheim" not in html
    assert "Hanne Zichtbaar" in search(director_client, tournament, "Hanne").content.decode()
    htmx = search(director_client, tournament, "Hidde", headers=HTMX).content.decode()
    assert "Verborgen" not in htmx and "Geheim" not in htmx


def test_the_search_shows_the_directors_own_private_players(director, tournament, hidden):
    hidden.directors.add(director)
    client = Client()
    client.force_login(director)
    assert "Hidde Verborgen" in search(client, tournament, "Hidde").content.decode()


def test_a_hidden_player_cannot_be_registered_by_id(director_client, tournament, hidden):
    hidde = Player.objects.get(name="Hidde Verborgen")
    response = director_client.post(
        reverse("manage:register_player", args=[tournament.slug]), {"player": hidde.pk}
    )
    assert response.status_code == 302
    assert not tournament.registrations.filter(player=hidde).exists()


def test_the_search_refuses_anonymous_and_wrong_roles(client, tournament, referee, hidden):
    url = reverse("manage:player_search", args=[tournament.slug])
    assert client.get(url, {"q": "Hidde"})["Location"].startswith(reverse("login"))
    referee_client = Client()
    referee_client.force_login(referee)
    assert referee_client.get(url, {"q": "Hidde"}).status_code == 403


# --- the club selects and lists -----------------------------------------------------------------


def club_options(html: str) -> set[str]:
    return {name for name in ("Geheim", "Open Club") if f">{name}<" in html}


def test_the_club_selects_and_the_dashboard_list_leave_out_private_clubs(
    director, tournament, hidden, shown
):
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client = Client()
    client.force_login(director)
    pages = [
        reverse("manage:new"),
        reverse("manage:edit", args=[tournament.slug]),
        reverse("public:season_new"),
    ]
    for url in pages:
        assert club_options(client.get(url).content.decode()) == {"Open Club"}, url
    dashboard = client.get(reverse("manage:tournament", args=[tournament.slug])).content.decode()
    assert 'value="Open Club"' in dashboard and 'value="Geheim"' not in dashboard
    # Posting the hidden club's id is refused like an unknown choice.
    response = client.post(
        reverse("manage:new"),
        {"name": "Mine", "starts_on": "2026-12-01", "club": hidden.club_id},
    )
    assert response.status_code == 400
    assert not hidden.club.tournaments.exclude(pk=hidden.pk).exists()


# --- registering a player with a club --------------------------------------------------------


def test_registering_a_player_with_a_private_club_is_refused_and_keeps_it_private(
    director_client, tournament, hidden
):
    geheim = hidden.club
    assert Client().get(reverse("public:club", args=[geheim.pk])).status_code == 404
    response = director_client.post(
        reverse("manage:add_player", args=[tournament.slug]),
        {"name": "Nieuwe Speler", "club": "Geheim", "member_number": ""},
    )
    assert response.status_code == 400
    assert "belongs to another director&#x27;s private tournament" in response.content.decode()
    assert not Player.objects.filter(name="Nieuwe Speler").exists()
    assert Client().get(reverse("public:club", args=[geheim.pk])).status_code == 404


def test_a_csv_row_naming_a_private_club_is_an_error_of_that_row(
    director_client, tournament, hidden
):
    content = b"name;club\nNieuwe Speler;geheim\nAndere Speler;Eigen Club\n"
    preview = upload(director_client, tournament, content)
    html = preview.content.decode()
    assert "belongs to another director&#x27;s private tournament" in html
    confirm(director_client, tournament, payload_of(preview))
    assert list(tournament.registrations.values_list("player__name", flat=True)) == [
        "Andere Speler"
    ]
    assert not hidden.club.players.exclude(name="Hidde Verborgen").exists()


# --- text-direction controls -----------------------------------------------------------------


@pytest.mark.parametrize("field", ["name", "club", "member_number"])
def test_a_direction_control_is_refused_by_the_form_where_it_was_typed(
    director_client, tournament, field
):
    data = {"name": "Ann Peeters", "club": "YC Gent", "member_number": "12"}
    data[field] = data[field][:2] + "\u202e" + data[field][2:]
    response = director_client.post(reverse("manage:add_player", args=[tournament.slug]), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Remove the text-direction control character (such as U+202E" in html
    assert "changed at the same moment" not in html
    assert not Player.objects.exists() and not Club.objects.exists()


def test_a_csv_row_with_a_direction_control_is_an_error_of_that_row(director_client, tournament):
    content = "name;club;member number\nAnn\u202e Peeters;YC Gent;1\nBart;YC Gent;2\u2066\n"
    content += "Chris;YC Gent;3\n"
    preview = upload(director_client, tournament, content.encode())
    html = preview.content.decode()
    assert preview.status_code == 200
    assert html.count("holds a text-direction control character (such as U+202E)") == 2
    response = confirm(director_client, tournament, payload_of(preview))
    assert response.status_code == 302
    assert list(tournament.registrations.values_list("player__name", flat=True)) == ["Chris"]
