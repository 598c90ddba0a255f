"""Security: every write refuses strangers and missing CSRF tokens, names are escaped,
logins are throttled, and the round entry survives hostile input (hypothesis)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Game, Hand, Round
from tests.factories import PASSWORD, make_table, make_tournament, make_user, record
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

# Django's own login and logout pages have their own CSRF handling and change no data of ours;
# its set_language view (the language switcher) only sets a cookie, for anyone.
NOT_OURS = ("admin/", "accounts/", "i18n/")


def our_url_patterns(patterns=None, prefix=""):
    """Every URL pattern of the site's own apps, found from the URL configuration."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if route.startswith(NOT_OURS):
            continue
        if isinstance(pattern, URLResolver):
            yield from our_url_patterns(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield pattern


@pytest.fixture
def world():
    """A running tournament with a played table, a registration and a session to manage."""
    director = make_user("director", is_staff=True)
    referee = make_user("referee")
    other_referee = make_user("other-referee")
    tournament = make_tournament(slug="bk", directors=[director])
    table = make_table(tournament=tournament, referee=referee)
    make_table(tournament=tournament, referee=other_referee, players=("Eva", "Finn"))
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 9, "Chris": 9, "Dirk": 9}, "yaniv": "Ann"},
    )
    registration = Registration.objects.create(
        tournament=tournament, player=table.seats.first().player, checked_in=True
    )
    return {
        "director": director,
        "referee": referee,
        "other_referee": other_referee,
        "player": make_user("player"),
        "kwargs": {
            "slug": tournament.slug,
            "table_id": table.pk,
            "number": 1,
            "registration_id": registration.pk,
            "player_id": registration.player_id,
        },
    }


def url_for(pattern: URLPattern, kwargs: dict) -> str:
    names = list(pattern.pattern.converters)
    unknown = set(names) - set(kwargs)
    assert not unknown, f"the security test needs a value for {unknown} in {pattern.name}"
    return reverse(pattern.name, kwargs={name: kwargs[name] for name in names})


def row_counts() -> dict[str, int]:
    models = [
        *apps.get_app_config("tournaments").get_models(),
        *apps.get_app_config("scoring").get_models(),
    ]
    return {model.__name__: model.objects.count() for model in models} | {
        "version": sum(Game.objects.values_list("version", flat=True)),
        "checked_in": Registration.objects.filter(checked_in=True).count(),
    }


def write_urls(world) -> dict[str, str]:
    """Name → URL of every view that accepts a POST, from the Allow header of an OPTIONS.

    The method decorators answer OPTIONS with 405 and the methods they allow; a view
    without one is treated as accepting POST (the test then holds it to the same rules).
    """
    client = Client()
    client.force_login(world["director"])
    found = {}
    for pattern in our_url_patterns():
        url = url_for(pattern, world["kwargs"])
        response = client.options(url)
        if response.status_code != 405 or "POST" in response["Allow"]:
            found[pattern.name] = url
    return found


def test_the_url_discovery_finds_every_kind_of_write(world):
    urls = write_urls(world)
    for name in (
        "record_round",
        "correct_round",
        "undo_round",
        "end_game",
        "sign_off",
        "round_preview",
        "manage_new",
        "manage_check_in",
        "manage_import_confirm",
        "session_create",
        "session_adjust",
    ):
        assert name in urls, name
    for name in ("home", "table", "standings", "player", "my_tables"):
        assert name not in urls, name


@pytest.mark.parametrize("who", ["anonymous", "player", "other_referee"])
def test_every_write_refuses_strangers_and_changes_nothing(world, who):
    client = Client()
    if who != "anonymous":
        client.force_login(world[who])
    before = row_counts()
    for url in write_urls(world).values():
        response = client.post(url, {"reason": "x", "version": 1, "checked_in": "0", "number": 2})
        assert response.status_code in (302, 403, 404), (who, url, response.status_code)
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("login")), (who, url)
    assert row_counts() == before


def test_every_write_refuses_a_post_without_a_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["director"])
    before = row_counts()
    for url in write_urls(world).values():
        response = client.post(url, {"reason": "x", "version": 1, "checked_in": "0"})
        assert response.status_code == 403, url
    assert row_counts() == before


HOSTILE = "<img src=x onerror=alert(1)>\"'&"


def test_hostile_names_are_escaped_on_every_page(client, world):
    tournament_kwargs = world["kwargs"]
    from tournaments.models import Player, Tournament

    Player.objects.filter(name="Ann").update(name=HOSTILE)
    Player.objects.filter(name="Bart").update(name="B" * 120)
    Tournament.objects.update(name=f"<script>alert('t')</script>{HOSTILE}", venue=HOSTILE)
    client.force_login(world["director"])
    slug = tournament_kwargs["slug"]
    pages = [
        reverse("home"),
        reverse("tournament", args=[slug]),
        reverse("standings", args=[slug]),
        reverse("players", args=[slug]) + "?q=img",
        reverse("player", args=[slug, tournament_kwargs["player_id"]]),
        reverse("table", args=[tournament_kwargs["table_id"]]),
        reverse("manage"),
        reverse("manage_tournament", args=[slug]),
        reverse("session_manage", args=[slug, 1]),
        reverse("session_table_list", args=[slug, 1]),
    ]
    for url in pages:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            html = client.get(url, **headers).content.decode()
            assert "<img src=x" not in html and "<script>alert" not in html, url
    table_html = client.get(
        reverse("table", args=[tournament_kwargs["table_id"]])
    ).content.decode()
    assert "&lt;img src=x onerror=alert(1)&gt;&quot;&#x27;&amp;" in table_html
    assert "B" * 120 in table_html


def test_five_wrong_passwords_lock_the_account_for_this_device(client, world):
    login = reverse("login")
    for _ in range(5):
        client.post(login, {"username": "referee", "password": "wrong"})
    locked = client.post(login, {"username": "referee", "password": PASSWORD})
    assert locked.status_code == 429
    assert "Too many wrong passwords" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    other = Client()
    assert other.post(login, {"username": "director", "password": PASSWORD}).status_code == 302


# --- fuzzing the round entry ---------------------------------------------------------------

FIELDS = ["number", "hand_1", "hand_2", "hand_3", "hand_4", "hand_9", "ending", "along", "x"]
hostile_text = st.one_of(
    st.text(max_size=30),
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(
        [
            "yaniv:1",
            "yaniv:4",
            "empty:2",
            "yaniv:9",
            "empty:",
            ":",
            "0",
            "50",
            "51",
            "-1",
            "1e3",
            "٣",
            "NaN",
            "\x00",
            "yaniv:1\x00",
            " 7 ",
            "7.0",
        ]
    ),
)
form_data = st.dictionaries(
    st.sampled_from(FIELDS),
    st.one_of(hostile_text, st.lists(hostile_text, max_size=3)),
    max_size=9,
)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(post=form_data)
def test_hostile_round_entries_never_fail_and_never_store_an_invalid_round(client, world, post):
    client.force_login(world["referee"])
    url = reverse("record_round", args=[world["kwargs"]["table_id"]])
    response = client.post(url, post, HTTP_HX_REQUEST="true")
    assert response.status_code in (200, 302, 400, 409)
    game = Game.objects.get(table_id=world["kwargs"]["table_id"])
    result = game.score()
    numbers = list(Round.objects.filter(game=game).values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    assert not Hand.objects.filter(round__game=game).exclude(hand_total__range=(0, 50)).exists()
    cached = {seat.pk: seat.total for seat in game.table.seats.all()}
    labels = game.sheet().labels
    assert {labels[pk]: total for pk, total in cached.items()} == dict(result.totals)
