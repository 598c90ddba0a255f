"""The director's pages: tournaments, registrations, check-in, the CSV import, access."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import HTMX, make_table, make_tournament, make_user
from tournaments.models import Club, Player, Registration, Tournament

pytestmark = pytest.mark.django_db


PLAYERS_CSV = (
    "\ufeffnaam;club;lidnummer\r\n"
    "Ann Peeters;YC Gent;1024\r\n"
    "Bart Claes;YC Gent;\r\n"
    "Chloé Dubois;Yaniv Liège;77\r\n"
    ";YC Gent;\r\n"
    "Ann Peeters;YC Gent;1024\r\n"
).encode()


def register(tournament, name, club=None, member_number="", checked_in=False) -> Registration:
    club_row = Club.objects.get_or_create(name=club)[0] if club else None
    player = Player.objects.create(name=name, club=club_row, member_number=member_number)
    return Registration.objects.create(tournament=tournament, player=player, checked_in=checked_in)


def creator(username="creator"):
    user = make_user(username)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def upload(client, tournament, content: bytes, name="players.csv", **extra):
    url = reverse("manage:import", args=[tournament.slug])
    return client.post(url, {"file": SimpleUploadedFile(name, content, "text/csv")}, **extra)


def payload_of(response) -> str:
    html = response.content.decode()
    found = re.search(r'name="payload" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def confirm(client, tournament, payload: str):
    url = reverse("manage:import_confirm", args=[tournament.slug])
    return client.post(url, {"payload": payload})


def said(response) -> list[str]:
    """The messages a response leaves for the next page."""
    return [str(message) for message in get_messages(response.wsgi_request)]


def counts():
    return Club.objects.count(), Player.objects.count(), Registration.objects.count()


def tournament_post(**overrides):
    post = {
        "name": "Belgian Championship 2026",
        "slug": "",
        "starts_on": "2026-03-14",
        "ends_on": "2026-03-15",
        "venue": "Gent, Zaal Vooruit",
        "club": "",
        "is_public": "on",
        "table_size": "4",
        "session_count": "5",
        "preset": "belgian",
        "false_yaniv": "others_score_zero",
    }
    post.update(overrides)
    return post


# --- creating and editing a tournament --------------------------------------


def test_creating_a_tournament_makes_the_creator_its_director(client):
    user = creator()
    client.force_login(user)
    response = client.post(reverse("manage:new"), tournament_post())
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:tournament", args=[tournament.slug])
    assert list(tournament.directors.all()) == [user]
    assert (tournament.slug, tournament.session_count, tournament.status) == (
        "belgian-championship-2026",
        5,
        "draft",
    )


def test_creating_a_tournament_with_a_used_address_shows_the_error_at_the_field(client):
    make_tournament(slug="belgian-championship-2026")
    client.force_login(creator())
    response = client.post(reverse("manage:new"), tournament_post())
    html = response.content.decode()
    assert response.status_code == 400
    slug_error = re.search(
        r'<ul class="errorlist" id="id_slug_error" role="alert">(.*?)</ul>', html
    )
    assert slug_error, html
    assert "already used by another tournament" in slug_error.group(1)
    assert Tournament.objects.count() == 1


def test_a_tournament_cannot_end_before_it_starts(client):
    client.force_login(creator())
    response = client.post(reverse("manage:new"), tournament_post(ends_on="2026-03-13"))
    html = response.content.decode()
    assert (
        'id="id_ends_on_error" role="alert"><li>The last day cannot be before the first day.'
        in html
    )
    assert Tournament.objects.count() == 0


def test_a_table_size_above_eight_is_refused_at_the_field(client):
    client.force_login(creator())
    response = client.post(reverse("manage:new"), tournament_post(table_size="9"))
    assert 'id="id_table_size_error"' in response.content.decode()
    assert Tournament.objects.count() == 0


def test_the_address_new_is_reserved(client):
    client.force_login(creator())
    response = client.post(reverse("manage:new"), tournament_post(slug="new"))
    assert "reserved" in response.content.decode()
    assert Tournament.objects.count() == 0


def test_creating_a_tournament_needs_the_permission(director_client):
    assert director_client.get(reverse("manage:new")).status_code == 403
    assert director_client.post(reverse("manage:new"), tournament_post()).status_code == 403
    assert Tournament.objects.count() == 0


def test_a_director_changes_the_settings(director_client, tournament):
    url = reverse("manage:edit", args=[tournament.slug])
    post = tournament_post(
        name="BK 2026 (final)", slug=tournament.slug, table_size="5", status="finished"
    )
    response = director_client.post(url, post)
    tournament.refresh_from_db()
    assert response.status_code == 302
    assert (tournament.name, tournament.table_size) == ("BK 2026 (final)", 5)
    assert tournament.status == "finished"


def test_the_false_yaniv_rule_is_locked_once_rounds_are_recorded(director_client, tournament):
    from tests.factories import make_table, record

    table = make_table(tournament=tournament)
    record(
        table.game, None, {"hands": {"Ann": 3, "Bart": 9, "Chris": 9, "Dirk": 9}, "yaniv": "Ann"}
    )
    url = reverse("manage:edit", args=[tournament.slug])
    post = tournament_post(slug=tournament.slug, status="running", false_yaniv="others_score_hand")
    html = director_client.post(url, post).content.decode()
    assert "The false-Yaniv rule cannot change once rounds are recorded." in html
    tournament.refresh_from_db()
    assert tournament.false_yaniv == "others_score_zero"


def test_the_settings_page_comes_filled_in(director_client, tournament):
    html = director_client.get(reverse("manage:edit", args=[tournament.slug])).content.decode()
    assert f'value="{tournament.starts_on.isoformat()}"' in html
    assert f'value="{tournament.slug}"' in html


def test_my_tournaments_lists_only_the_ones_i_direct(director_client, tournament):
    make_tournament(name="Someone else's")
    register(tournament, "Ann", checked_in=True)
    register(tournament, "Bart")
    html = director_client.get(reverse("manage:home")).content.decode()
    assert html.count('class="card"') == 1
    assert "2 registered · 1 checked in" in html


# --- the dashboard and check-in ---------------------------------------------


def test_the_dashboard_counts_registered_and_checked_in_players(director_client, tournament):
    register(tournament, "Ann", checked_in=True)
    register(tournament, "Bart")
    register(tournament, "Chris")
    html = director_client.get(reverse("manage:tournament", args=[tournament.slug])).content
    assert "<strong>3</strong> registered · <strong>1</strong> checked in" in html.decode()


def test_the_dashboard_costs_the_same_queries_for_two_or_twenty_players(
    director_client, tournament
):
    url = reverse("manage:tournament", args=[tournament.slug])

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert director_client.get(url).status_code == 200
        return len(captured)

    for number in range(2):
        register(tournament, f"Player {number}", club=f"Club {number}")
    few = queries()
    for number in range(2, 20):
        register(tournament, f"Player {number}", club=f"Club {number}")
    assert queries() == few


def test_a_plain_check_in_post_checks_the_player_in_and_redirects(director_client, tournament):
    registration = register(tournament, "Ann")
    url = reverse("manage:check_in", args=[tournament.slug, registration.pk])
    response = director_client.post(url, {"checked_in": "1"})
    registration.refresh_from_db()
    assert response.status_code == 302
    assert response["Location"].endswith(f"#registration-{registration.pk}")
    assert registration.checked_in is True


def test_an_htmx_check_in_returns_only_the_players_row(director_client, tournament):
    registration = register(tournament, "Ann")
    url = reverse("manage:check_in", args=[tournament.slug, registration.pk])
    response = director_client.post(url, {"checked_in": "1"}, headers=HTMX)
    html = response.content.decode().strip()
    assert response.status_code == 200
    assert html.startswith(f'<li id="registration-{registration.pk}" class="registration in">')
    assert html.endswith("</li>")
    assert html.count("<li") == 1
    assert "<html" not in html
    assert json.loads(response["HX-Trigger"]) == {"registrations-changed": {}}


def test_an_htmx_check_out_returns_the_row_with_a_check_in_button(director_client, tournament):
    registration = register(tournament, "Ann", checked_in=True)
    url = reverse("manage:check_in", args=[tournament.slug, registration.pk])
    html = director_client.post(url, {"checked_in": "0"}, headers=HTMX).content.decode()
    registration.refresh_from_db()
    assert registration.checked_in is False
    assert 'aria-pressed="false"' in html
    assert 'name="checked_in" value="1"' in html


def test_an_htmx_request_of_the_dashboard_returns_only_the_counts(director_client, tournament):
    register(tournament, "Ann", checked_in=True)
    url = reverse("manage:tournament", args=[tournament.slug])
    html = director_client.get(url, headers=HTMX).content.decode().strip()
    assert html.startswith('<p id="counts"')
    assert "<strong>1</strong> registered · <strong>1</strong> checked in" in html
    assert "<html" not in html


def test_a_check_in_without_a_value_is_a_bad_request(director_client, tournament):
    registration = register(tournament, "Ann")
    url = reverse("manage:check_in", args=[tournament.slug, registration.pk])
    assert director_client.post(url).status_code == 400


def test_a_registration_of_another_tournament_is_404(director_client, tournament):
    other = register(make_tournament(directors=[]), "Ann")
    url = reverse("manage:check_in", args=[tournament.slug, other.pk])
    assert director_client.post(url, {"checked_in": "1"}).status_code == 404
    other.refresh_from_db()
    assert other.checked_in is False


def test_check_in_everyone_then_check_out_everyone(director_client, tournament):
    register(tournament, "Ann", checked_in=True)
    register(tournament, "Bart")
    register(tournament, "Chris")
    register(make_tournament(), "Dirk")
    url = reverse("manage:check_in_all", args=[tournament.slug])
    director_client.post(url, {"checked_in": "1"})
    assert tournament.registrations.filter(checked_in=True).count() == 3
    director_client.post(url, {"checked_in": "0"})
    assert Registration.objects.filter(checked_in=True).count() == 0


# --- registering one player -----------------------------------------------


def test_adding_a_new_player_creates_the_player_and_the_club(director_client, tournament):
    url = reverse("manage:add_player", args=[tournament.slug])
    post = {"name": "Ann Peeters", "club": "YC Gent", "member_number": "1024"}
    response = director_client.post(url, post)
    assert response.status_code == 302
    assert counts() == (1, 1, 1)
    assert said(response) == ["Ann Peeters is registered (new player)."]


def test_adding_a_known_player_reuses_them(director_client, tournament):
    known = register(make_tournament(), "Ann Peeters", club="YC Gent", member_number="1024")
    url = reverse("manage:add_player", args=[tournament.slug])
    director_client.post(url, {"name": "Ann Peeters", "club": "yc gent", "member_number": "1024"})
    assert Player.objects.count() == 1
    assert tournament.registrations.get().player == known.player


def test_adding_a_known_player_by_name_in_their_club_reuses_them(director_client, tournament):
    register(make_tournament(), "Bart Claes", club="YC Gent")
    url = reverse("manage:add_player", args=[tournament.slug])
    director_client.post(url, {"name": "Bart  Claes", "club": "YC Gent", "member_number": ""})
    assert Player.objects.count() == 1
    assert tournament.registrations.count() == 1


def test_registering_a_player_twice_says_so(director_client, tournament):
    register(tournament, "Ann Peeters", club="YC Gent", member_number="1024")
    url = reverse("manage:add_player", args=[tournament.slug])
    post = {"name": "Ann Peeters", "club": "YC Gent", "member_number": "1024"}
    response = director_client.post(url, post)
    assert response.status_code == 400
    assert "Ann Peeters is already registered." in response.content.decode()
    assert counts() == (1, 1, 1)


def test_adding_a_player_with_a_member_number_of_someone_else_is_refused(
    director_client, tournament
):
    register(make_tournament(), "Ann Peeters", club="YC Gent", member_number="1024")
    url = reverse("manage:add_player", args=[tournament.slug])
    post = {"name": "Bart Claes", "club": "YC Gent", "member_number": "1024"}
    html = director_client.post(url, post).content.decode()
    assert "Member number 1024 already used by Ann Peeters in YC Gent." in html
    assert Player.objects.count() == 1


def test_adding_a_player_needs_a_name(director_client, tournament):
    url = reverse("manage:add_player", args=[tournament.slug])
    response = director_client.post(url, {"name": "  ", "club": "YC Gent"})
    assert response.status_code == 400
    assert 'id="id_name_error"' in response.content.decode()
    assert counts() == (0, 0, 0)


# --- removing a registration ----------------------------------------------


def test_removing_a_registration_keeps_the_player(director_client, tournament):
    registration = register(tournament, "Ann")
    url = reverse("manage:remove_registration", args=[tournament.slug, registration.pk])
    assert director_client.post(url).status_code == 302
    assert (Player.objects.count(), Registration.objects.count()) == (1, 0)


def test_a_seated_player_cannot_be_removed(director_client, tournament):
    table = make_table(tournament=tournament)
    ann = table.seats.get(position=1).player
    registration = Registration.objects.create(tournament=tournament, player=ann)
    url = reverse("manage:remove_registration", args=[tournament.slug, registration.pk])
    response = director_client.post(url)
    assert said(response) == ["Ann is seated in session 1: a seated player stays registered."]
    assert Registration.objects.filter(pk=registration.pk).exists()


# --- the CSV import -----------------------------------------------------------


def test_the_preview_lists_every_row_and_writes_nothing(director_client, tournament):
    register(tournament, "Bart Claes", club="YC Gent")
    before = counts()
    response = upload(director_client, tournament, PLAYERS_CSV)
    html = response.content.decode()
    assert response.status_code == 200
    assert counts() == before
    assert html.count('class="import-row ') == 5
    assert "<strong>2</strong> new · <strong>1</strong> known (1 already registered)" in html
    assert "empty name" in html
    assert "duplicate of row 2" in html
    assert "Import: register 2 new players" in html


@pytest.mark.parametrize(
    ("language", "button"),
    [
        ("en", "Import: register 3 players, 1 of them new"),
        ("nl", "Importeren: 3 spelers inschrijven, waarvan 1 nieuw"),
        # The plural follows the new players (it said "dont 1 nouveaux").
        ("fr", "Importer\u00a0: inscrire 3 joueurs, dont 1 nouveau"),
    ],
)
def test_the_import_button_counts_the_new_players_in_their_own_plural(
    director_client, tournament, language, button
):
    # Bart and Chloé are known from another tournament: registered here, not created again.
    elsewhere = make_tournament(slug="elsewhere")
    register(elsewhere, "Bart Claes", club="YC Gent")
    register(elsewhere, "Chloé Dubois", club="Yaniv Liège", member_number="77")
    content = "naam;club;lidnummer\r\nAnn Peeters;YC Gent;1024\r\nBart Claes;YC Gent;\r\n"
    content += "Chloé Dubois;Yaniv Liège;77\r\n"
    response = upload(
        director_client,
        tournament,
        content.encode(),
        headers={"Accept-Language": language},
    )
    assert f"{button}</button>" in response.content.decode()


def test_confirming_imports_every_valid_row_in_one_go(director_client, tournament):
    payload = payload_of(upload(director_client, tournament, PLAYERS_CSV))
    response = confirm(director_client, tournament, payload)
    assert response.status_code == 302
    assert counts() == (2, 3, 3)
    assert said(response) == [
        "Import done: 3 new players, 3 registered, 2 new clubs.",
        "2 rows skipped: row 5 (empty name); row 6 (duplicate of row 2).",
    ]


def test_importing_the_same_file_again_creates_no_duplicates(director_client, tournament):
    confirm(
        director_client, tournament, payload_of(upload(director_client, tournament, PLAYERS_CSV))
    )
    preview = upload(director_client, tournament, PLAYERS_CSV)
    html = preview.content.decode()
    assert html.count("already registered</span>") == 3
    confirm(director_client, tournament, payload_of(preview))
    assert counts() == (2, 3, 3)


def test_a_failure_during_the_import_writes_nothing(director_client, tournament, monkeypatch):
    def fail(*args, **kwargs):
        raise IntegrityError("a registration clashed")

    payload = payload_of(upload(director_client, tournament, PLAYERS_CSV))
    monkeypatch.setattr(Registration.objects, "bulk_create", fail)
    response = confirm(director_client, tournament, payload)
    assert response.status_code == 409
    assert counts() == (0, 0, 0)


def test_a_tampered_payload_is_refused(director_client, tournament):
    payload = payload_of(upload(director_client, tournament, PLAYERS_CSV))
    value, signature = payload.rsplit(":", 1)
    response = confirm(director_client, tournament, f"{value[:-2]}xx:{signature}")
    assert response.status_code == 400
    assert "could not be verified" in response.content.decode()
    assert counts() == (0, 0, 0)


def test_a_payload_for_another_tournament_is_refused(director_client, tournament, director):
    other = make_tournament(directors=[director])
    payload = payload_of(upload(director_client, other, PLAYERS_CSV))
    response = confirm(director_client, tournament, payload)
    assert response.status_code == 400
    assert counts() == (0, 0, 0)


def test_a_file_with_only_errors_cannot_be_confirmed(director_client, tournament):
    response = upload(director_client, tournament, b"name;club\r\n;YC Gent\r\n")
    html = response.content.decode()
    assert 'name="payload"' not in html
    assert "No row of this file can be imported." in html


def test_a_file_that_is_not_utf_8_is_explained_in_the_preview(director_client, tournament):
    response = upload(director_client, tournament, "nom;club\r\nChloé;Liège\r\n".encode("cp1252"))
    html = response.content.decode()
    assert "The file is not UTF-8: it was read as Windows-1252" in html
    assert "Chloé" in html and 'name="payload"' in html


def test_a_file_larger_than_a_megabyte_is_refused(director_client, tournament):
    content = b"name\r\n" + b"Ann\r\n" * 200_000
    response = upload(director_client, tournament, content)
    assert response.status_code == 400
    assert "a players file of at most 1 MB" in response.content.decode()


# --- access ---------------------------------------------------------------

PAGES = ["manage:tournament", "manage:edit", "manage:import"]


def writes(tournament) -> list[tuple[str, dict]]:
    """Every POST of a tournament's director pages, with a body that would work."""
    registration = register(tournament, "Zoë", checked_in=False)
    slug = tournament.slug
    return [
        (reverse("manage:edit", args=[slug]), tournament_post(slug=slug, name="Changed")),
        (reverse("manage:add_player", args=[slug]), {"name": "Eva", "club": "X"}),
        (reverse("manage:check_in_all", args=[slug]), {"checked_in": "1"}),
        (
            reverse("manage:check_in", args=[slug, registration.pk]),
            {"checked_in": "1"},
        ),
        (reverse("manage:remove_registration", args=[slug, registration.pk]), {}),
        (
            reverse("manage:import", args=[slug]),
            {"file": SimpleUploadedFile("p.csv", b"name\r\nEva\r\n")},
        ),
        (
            reverse("manage:import_confirm", args=[slug]),
            {"payload": "forged"},
        ),
    ]


def assert_unchanged(tournament):
    tournament.refresh_from_db()
    assert tournament.name != "Changed"
    registration = tournament.registrations.get()
    assert (registration.player.name, registration.checked_in) == ("Zoë", False)
    assert Player.objects.count() == 1


@pytest.mark.parametrize("name", [*PAGES, "manage:home", "manage:new"])
def test_anonymous_visitors_of_a_page_are_sent_to_log_in(client, tournament, name):
    args = [tournament.slug] if name in PAGES else []
    response = client.get(reverse(name, args=args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_anonymous_visitors_are_refused_every_write(client, tournament):
    for url, post in writes(tournament):
        assert client.post(url, post).status_code == 403, url
    assert client.post(reverse("manage:new"), tournament_post()).status_code == 403
    assert_unchanged(tournament)


@pytest.mark.parametrize("name", PAGES)
def test_a_logged_in_user_who_directs_nothing_is_refused_the_pages(client, tournament, name):
    client.force_login(make_user("player"))
    assert client.get(reverse(name, args=[tournament.slug])).status_code == 403


def test_a_logged_in_user_who_directs_nothing_is_refused_every_write(client, tournament):
    client.force_login(make_user("player"))
    for url, post in writes(tournament):
        assert client.post(url, post, headers=HTMX).status_code == 403, url
    assert_unchanged(tournament)


def test_a_director_of_another_tournament_is_refused_every_write(client, tournament):
    other_director = make_user("other-director")
    make_tournament(directors=[other_director])
    client.force_login(other_director)
    for name in PAGES:
        assert client.get(reverse(name, args=[tournament.slug])).status_code == 403
    for url, post in writes(tournament):
        assert client.post(url, post).status_code == 403, url
    assert_unchanged(tournament)


def test_a_private_tournament_is_404_for_strangers(client):
    private = make_tournament(is_public=False)
    client.force_login(make_user("stranger"))
    for name in PAGES:
        assert client.get(reverse(name, args=[private.slug])).status_code == 404
    for url, post in writes(private):
        assert client.post(url, post).status_code == 404, url
    assert_unchanged(private)


def test_a_private_tournament_is_404_for_anonymous_writes(client):
    private = make_tournament(is_public=False)
    for url, post in writes(private):
        assert client.post(url, post).status_code == 404, url
    assert_unchanged(private)


def test_a_superuser_manages_any_tournament(client, tournament):
    client.force_login(make_user("admin", is_superuser=True))
    assert client.get(reverse("manage:tournament", args=[tournament.slug])).status_code == 200
    assert client.get(reverse("manage:new")).status_code == 200


def test_a_director_sets_house_rules_field_by_field(director_client, tournament):
    url = reverse("manage:edit", args=[tournament.slug])
    post = tournament_post(slug=tournament.slug, status="running", yaniv_limit="7")
    assert director_client.post(url, post).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {"yaniv_limit": 7}
    assert tournament.ruleset.yaniv_limit == 7


def test_table_options_the_engine_refuses_are_shown_at_the_field(director_client, tournament):
    url = reverse("manage:edit", args=[tournament.slug])
    post = tournament_post(slug=tournament.slug, status="running", end_above="20000")
    html = director_client.post(url, post).content.decode()
    error = re.search(
        r'<ul class="errorlist" id="id_end_above_error" role="alert">(.*?)</ul>', html
    )
    assert error, html
    assert "A whole number from 1 to 10000." in error.group(1)
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_an_option_left_as_the_rule_set_says_is_no_house_rule(director_client, tournament):
    url = reverse("manage:edit", args=[tournament.slug])
    post = tournament_post(
        slug=tournament.slug,
        status="running",
        yaniv_limit="5",
        reductions="50 → 0, 100 → 50, 150 → 100",
        end_above="",
    )
    assert director_client.post(url, post).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {}
