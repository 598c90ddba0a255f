"""Security: every write refuses strangers and missing CSRF tokens, names are escaped,
logins are throttled, and the round entry survives hostile input (hypothesis)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seasons.models import Season, SeasonTournament
from tests.factories import HTMX, PASSWORD, make_table, make_tournament, make_user, record
from tests.profiles import sized
from tournaments.models import (
    Adjustment,
    Club,
    Dispute,
    Door,
    EntryRequest,
    Game,
    Hand,
    Registration,
    Round,
    Session,
    Table,
    TableCode,
    Tournament,
)

pytestmark = pytest.mark.django_db

# Django's own login and logout pages have their own CSRF handling and change no data of ours;
# its set_language view (the language switcher) only sets a cookie, for anyone.
NOT_OURS = ("admin/", "accounts/", "i18n/")


def our_url_patterns(patterns=None, prefix="", namespace=""):
    """(namespaced name, pattern) of every URL of the site's own apps, from the URL
    configuration."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if route.startswith(NOT_OURS):
            continue
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from our_url_patterns(pattern.url_patterns, route, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield namespace + pattern.name, pattern


@pytest.fixture
def world():
    """A running tournament with a played table, a registration and a session to manage."""
    return make_world()


def make_world() -> dict:
    """The `world` fixture's rows (tests/test_page_standards.py builds them once a module)."""
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
        tournament=tournament, player=table.seats.all()[0].player, checked_in=True
    )
    tournament.referees.add(referee, other_referee)
    dispute = table.game.raise_dispute(1, "Bart had 19", by=referee)
    # Another tournament, a club night: its director, and codes of its table.
    other_director = make_user("other-director")
    club = make_tournament(
        slug="club", directors=[other_director], entry=Tournament.Entry.TABLE_CODES
    )
    club_table = make_table(tournament=club, players=("Gina", "Hans"))
    revoked = TableCode.issue(club_table).code
    # A season of the director's counting the tournament, with the club that organises it.
    season_club = Club.objects.create(name="Yaniv Gent")
    season = Season.objects.create(name="Ranking", slug="bk", club=season_club)
    season.directors.add(director)
    entry = SeasonTournament.objects.create(season=season, tournament=tournament)
    # The referee typed five wrong passwords on another phone: locked out from there.
    AccessAttempt.objects.create(
        username="referee", ip_address="198.51.100.23", failures_since_start=5, user_agent="x"
    )
    beside = beside_the_rounds(tournament, registration.player, director)
    return {
        "director": director,
        "referee": referee,
        "other_referee": other_referee,
        "other_director": other_director,
        "player": make_user("player"),
        # A working code of another tournament's table, and one revoked since.
        "code_of_another_table": TableCode.issue(club_table).code,
        "revoked_code": revoked,
        "kwargs": {
            "slug": tournament.slug,
            # A code of a championship table (referee accounts): it opens nothing.
            "code": TableCode.issue(table).code,
            "table_id": table.pk,
            "number": 1,
            "registration_id": registration.pk,
            "player_id": registration.player_id,
            "user_id": referee.pk,
            "dispute_id": dispute.pk,
            "table_number": 1,
            # A hall screen's secret link (a wrong one: it opens nothing).
            "key": "1-" + "0" * 40,
            "club_id": season_club.pk,
            "entry_id": entry.pk,
            # The API's table number in its session.
            "table": 1,
            # The door's short address, a registration sent there, a penalty (issue 38).
            **beside,
            # A seat of a table code's page; a forged "Stop these" token of a message.
            "position": 1,
            "token": "1:forged",
        },
    }


def beside_the_rounds(tournament: Tournament, player: Any, director: Any) -> dict[str, Any]:
    """The tournament's door open, a registration waiting there and a bonus given (issue 38):
    the values of their URLs."""
    door = Door.of(tournament)
    door.set_up(is_open=True, entries=Door.Entries.APPROVAL)
    entry_request = EntryRequest.objects.create(
        door=door, name="Zoë Verborgen", status="pending", device="d" * 16
    )
    adjustment = Adjustment.give(
        tournament, player, by=director, kind="bonus", unit="placement", points=1, reason="ruling"
    )
    return {"door": door.code, "request_id": entry_request.pk, "adjustment_id": adjustment.pk}


def url_for(name: str, pattern: URLPattern, kwargs: dict) -> str:
    names = list(pattern.pattern.converters)
    unknown = set(names) - set(kwargs)
    assert not unknown, f"the security test needs a value for {unknown} in {name}"
    return reverse(name, kwargs={key: kwargs[key] for key in names})


# Not the site's state: a report asked for by a reader who may read it (a cache kept in the
# database, `PreparedDownload`), which a GET may write.
READS_KEEP = {"PreparedDownload"}


def row_counts() -> dict[str, object]:
    models = apps.get_app_config("tournaments").get_models()
    return {
        model.__name__: model._default_manager.count()
        for model in models
        if model.__name__ not in READS_KEEP
    } | {
        "version": sum(Game.objects.values_list("version", flat=True)),
        "checked_in": Registration.objects.filter(checked_in=True).count(),
        # Who keeps the score: the accounts, their roles, the codes, the disputes.
        "users": sorted(
            get_user_model().objects.values_list("username", "is_active", "is_staff", "password")
        ),
        "roles": sorted(
            Tournament.objects.values_list("pk", "directors", "referees", "entry", "confirmation")
        ),
        "sessions": sorted(Session.objects.values_list("pk", "status", "entry")),
        "referees": sorted(Table.objects.values_list("pk", "referee")),
        "live_codes": sorted(
            TableCode.objects.filter(revoked_at__isnull=True).values_list("pk", flat=True)
        ),
        "disputes": sorted(Dispute.objects.values_list("pk", "status", "answer")),
        # Login throttling: a stranger unlocks nobody.
        "lockouts": sorted(AccessAttempt.objects.values_list("username", "failures_since_start")),
    }


def write_urls(world) -> dict[str, str]:
    """Name → URL of every view that accepts a POST, from the Allow header of an OPTIONS.

    The method decorators answer OPTIONS with 405 and the methods they allow; a view
    without one is treated as accepting POST (the test then holds it to the same rules).
    """
    client = Client()
    client.force_login(world["director"])
    found = {}
    for name, pattern in our_url_patterns():
        url = url_for(name, pattern, world["kwargs"])
        if name.startswith("api-v1:"):
            continue  # read-only by construction: test_the_api_refuses_every_write
        response = client.options(url)
        if response.status_code != 405 or "POST" in response["Allow"]:
            found[name] = url
    return found


def test_the_url_discovery_finds_every_kind_of_write(world):
    urls = write_urls(world)
    for name in (
        "tables:record",
        "tables:correct",
        "tables:undo",
        "tables:end",
        "tables:sign_off",
        "tables:preview",
        "manage:new",
        "manage:check_in",
        "manage:import_confirm",
        "manage:session_create",
        "manage:session_adjust",
    ):
        assert name in urls, name
    for name in (
        "public:home",
        "tables:detail",
        "public:standings",
        "public:player",
        "tables:mine",
    ):
        assert name not in urls, name


def test_the_api_refuses_every_write(world):
    """The API's operations are GETs: any other method is 405. Its description and docs page
    are read-only views whatever the method; a POST to them changes nothing either."""
    client = Client()
    client.force_login(world["director"])
    before = row_counts()
    answers = {}
    for name, pattern in our_url_patterns():
        if name.startswith("api-v1:"):
            url = url_for(name, pattern, world["kwargs"])
            answers[name] = client.post(url, {"name": "x"}).status_code
    assert len(answers) >= 9
    reads = {"api-v1:openapi-json", "api-v1:openapi-view"}
    # 405 for an operation's path, 404 for the API's root (no operation there).
    assert {code for name, code in answers.items() if name not in reads} == {404, 405}
    assert answers["api-v1:api-root"] == 404
    assert row_counts() == before


# Writes that create something of one's own: any tournament director may organise a season;
# and merges players seen only in the tournaments they direct (issue 33.6), which this world's
# other director has none of: the form refuses the pair posted, and saves nothing.
OPEN_TO_EVERY_DIRECTOR = {"public:season_new", "manage:merge_players"}
# Anyone who may see a player opts a phone in or out (no account): a post without a phone's
# keys is refused (400, or 404 on a site without VAPID keys) and saves nothing; a forged
# "Stop these" token is a 404. Its own test: tests/notifications/test_views.py.
OPEN_TO_ANYONE = {
    "notifications:subscribe",
    "notifications:unsubscribe",
    "notifications:subscribe_seat",
    "notifications:unsubscribe_seat",
    "notifications:stop",
    # Check-in at the door (issue 38): anyone holding the door's address, the door's
    # safeguard deciding; this world's player is checked in already and the phone is not the
    # one that did it, the registration misses its name: refused, nothing saved.
    "public:door_player",
    "public:door_undo",
    "public:door_register",
}
# Authenticated by a token in the Authorization header, never by the session: 401 without one.
BY_TOKEN = {"manage:import_archive"}


@pytest.mark.parametrize("who", ["anonymous", "player", "other_referee", "other_director"])
def test_every_write_refuses_strangers_and_changes_nothing(world, who):
    client = Client()
    if who != "anonymous":
        client.force_login(world[who])
    before = row_counts()
    for name, url in write_urls(world).items():
        response = client.post(url, {"reason": "x", "version": 1, "checked_in": "0", "number": 2})
        if name in OPEN_TO_ANYONE:
            assert response.status_code in (400, 404), (who, url, response.status_code)
            continue
        if who == "other_director" and name in OPEN_TO_EVERY_DIRECTOR:
            # Their own new season, or a merge: the form refuses what was posted, saves nothing.
            assert response.status_code == 400, (who, url, response.status_code)
            continue
        if name in BY_TOKEN:
            assert response.status_code == 401, (who, url, response.status_code)
            continue
        assert response.status_code in (302, 403, 404), (who, url, response.status_code)
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("login")), (who, url)
    assert row_counts() == before


# The director's pages of issue 12 (who keeps the score): every one, read or written.
SCOREKEEPING_URLS = [
    "manage:people",
    "manage:create_account",
    "manage:add_account",
    "manage:remove_account",
    "manage:reset_password",
    "manage:unlock_account",
    "manage:scorekeeping",
    "manage:disputes",
    "manage:open_disputes",
    "manage:dismiss_dispute",
    "manage:session_entry",
    "manage:reissue_code",
    "manage:session",
    "manage:session_status",
    "manage:session_referees",
    "manage:table_list",
    "manage:score_sheets_pdf",
]
# What a stranger posts: every field these forms read, filled in.
SCOREKEEPING_POST = {
    "new-username": "intruder",
    "new-role": "director",
    "add-username": "other-director",
    "add-role": "director",
    "entry": "table_codes",
    "confirmation": "none",
    "answer": "nothing to see",
    "action": "start",
    "confirmed": "1",
    "with_referees": "1",
    "referee_1": "",
}
STRANGERS = [
    "anonymous",
    "code_of_another_table",
    "revoked_code",
    "player",
    "referee",
    "other_referee",
    "other_director",
]


def stranger(world, who: str) -> Client:
    """A client as `who`: an account, or a phone that opened a table code (no account)."""
    client = Client()
    if who in ("code_of_another_table", "revoked_code"):
        page = client.get(reverse("codes:detail", args=[world[who]]))
        # A revoked code's page says why in words (410), and opens nothing.
        assert page.status_code == (200 if who == "code_of_another_table" else 410)
    elif who != "anonymous":
        client.force_login(world[who])
    return client


def test_the_access_matrix_covers_every_url_of_the_directors_scorekeeping(world):
    routes = {name: str(pattern.pattern) for name, pattern in our_url_patterns()}
    assert set(SCOREKEEPING_URLS) <= set(routes)
    scorekeeping = {
        name
        for name, route in routes.items()
        if name.startswith("manage:")
        and any(part in route for part in ("people", "disput", "scorekeeping", "entry", "code"))
    }
    assert scorekeeping <= set(SCOREKEEPING_URLS)
    assert len(scorekeeping) == 12


@pytest.mark.parametrize("who", STRANGERS)
def test_the_directors_scorekeeping_pages_refuse_strangers_and_change_nothing(world, who):
    client = stranger(world, who)
    patterns = dict(our_url_patterns())
    before = row_counts()
    for name in SCOREKEEPING_URLS:
        url = url_for(name, patterns[name], world["kwargs"])
        for method in ("get", "post"):
            for headers in ({}, HTMX):
                if method == "get":
                    response = client.get(url, {"since": ""}, headers=headers)
                else:
                    response = client.post(url, SCOREKEEPING_POST, headers=headers)
                assert response.status_code in (302, 403, 404, 405), (who, method, url)
                if response.status_code == 302:
                    assert response["Location"].startswith(reverse("login")), (who, url)
                assert b"intruder" not in response.content
    assert row_counts() == before


def test_the_director_passes_the_same_matrix(world):
    """The same URLs answer the tournament's director (the matrix refuses strangers, not
    everyone)."""
    client = Client()
    client.force_login(world["director"])
    patterns = dict(our_url_patterns())
    for name in ("manage:people", "manage:disputes", "manage:open_disputes", "manage:session"):
        url = url_for(name, patterns[name], world["kwargs"])
        assert client.get(url).status_code == 200, name


def test_every_write_refuses_a_post_without_a_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["director"])
    before = row_counts()
    for name, url in write_urls(world).items():
        response = client.post(url, {"reason": "x", "version": 1, "checked_in": "0"})
        # "Stop these" is posted by the service worker: its signed token is the proof. The
        # import takes no CSRF check, and needs none: the director's session does not count.
        expected = 404 if name == "notifications:stop" else 401 if name in BY_TOKEN else 403
        assert response.status_code == expected, url
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
        reverse("public:home"),
        reverse("public:tournament", args=[slug]),
        reverse("public:standings", args=[slug]),
        reverse("public:players", args=[slug]) + "?q=img",
        reverse("public:player", args=[slug, tournament_kwargs["player_id"]]),
        reverse("tables:detail", args=[tournament_kwargs["table_id"]]),
        reverse("manage:home"),
        reverse("manage:tournament", args=[slug]),
        reverse("manage:session", args=[slug, 1]),
        reverse("manage:table_list", args=[slug, 1]),
    ]
    for url in pages:
        for headers in ({}, HTMX):
            html = client.get(url, headers=headers).content.decode()
            assert "<img src=x" not in html and "<script>alert" not in html, url
    table_html = client.get(
        reverse("tables:detail", args=[tournament_kwargs["table_id"]])
    ).content.decode()
    assert "&lt;img src=x onerror=alert(1)&gt;&quot;&#x27;&amp;" in table_html
    assert "B" * 120 in table_html


def test_five_wrong_passwords_lock_the_username_from_this_address_for_15_minutes(client, world):
    login = reverse("login")
    for _ in range(5):
        client.post(login, {"username": "referee", "password": "wrong"})
    locked = client.post(login, {"username": "referee", "password": PASSWORD})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    html = locked.content.decode()
    assert "Too many wrong passwords" in html and "this device" not in html
    assert (
        "After 5 wrong passwords, logging in as <bdi>referee</bdi> from this network address "
        "is locked for 15 minutes." in html
    )
    assert "A director of your tournament can unlock your account" in html
    other = Client()
    assert other.post(login, {"username": "director", "password": PASSWORD}).status_code == 302
    # The same username from another address still logs in: the pair is locked, not the name.
    elsewhere = Client(REMOTE_ADDR="192.0.2.44")
    assert elsewhere.post(login, {"username": "referee", "password": PASSWORD}).status_code == 302


PROXY = "10.0.0.2"  # the TLS proxy in front of gunicorn: every request comes from it


def through_the_proxy(client_address: str, forged: str = "") -> Client:
    """A phone behind the proxy, which appends the address it saw to X-Forwarded-For."""
    forwarded = f"{forged}, {client_address}" if forged else client_address
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)


def test_behind_the_proxy_a_stranger_locks_out_only_their_own_address(world, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    login = reverse("login")
    stranger = through_the_proxy("203.0.113.66")
    for _ in range(6):
        stranger.post(login, {"username": "referee", "password": "wrong"})
    assert stranger.post(login, {"username": "referee", "password": PASSWORD}).status_code == 429
    referee = through_the_proxy("198.51.100.7")
    assert referee.post(login, {"username": "referee", "password": PASSWORD}).status_code == 302
    addresses = AccessAttempt.objects.filter(username="referee").values_list("ip_address")
    assert sorted(addresses) == [("198.51.100.23",), ("203.0.113.66",)]


def test_a_forged_forwarded_address_does_not_escape_the_lockout(world, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    login = reverse("login")
    for attempt in range(5):
        stranger = through_the_proxy("203.0.113.66", forged=f"192.0.2.{attempt}")
        stranger.post(login, {"username": "referee", "password": "wrong"})
    stranger = through_the_proxy("203.0.113.66", forged="192.0.2.99")
    assert stranger.post(login, {"username": "referee", "password": PASSWORD}).status_code == 429


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
    max_examples=sized(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(post=form_data)
def test_hostile_round_entries_never_fail_and_never_store_an_invalid_round(client, world, post):
    client.force_login(world["referee"])
    url = reverse("tables:record", args=[world["kwargs"]["table_id"]])
    response = client.post(url, post, headers=HTMX)
    assert response.status_code in (200, 302, 400, 409)
    game = Game.objects.get(table_id=world["kwargs"]["table_id"])
    result = game.score()
    numbers = list(Round.objects.filter(game=game).values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    assert not Hand.objects.filter(round__game=game).exclude(hand_total__range=(0, 50)).exists()
    cached = {seat.pk: seat.total for seat in game.table.seats.all()}
    labels = game.rows().labels
    assert {labels[pk]: total for pk, total in cached.items()} == dict(result.totals)


# --- Content-Security-Policy ----------------------------------------------------------------

STRICT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


def test_the_pages_send_the_strict_content_security_policy(client, world):
    client.force_login(world["director"])
    slug = world["kwargs"]["slug"]
    for url in (
        reverse("public:home"),
        reverse("public:standings", args=[slug]),
        reverse("tables:detail", args=[world["kwargs"]["table_id"]]),
        reverse("manage:people", args=[slug]),
        reverse("login"),
        "/admin/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Security-Policy"] == STRICT_POLICY, url


def test_no_template_styles_an_element_inline_and_the_pages_run_no_inline_script():
    """What the policy refuses: a style attribute or element, an inline script or handler.
    A <script type="application/json"> (json_script) is data and stays allowed."""
    templates = Path(__file__).resolve().parents[1] / "templates"
    found = []
    for path in sorted(templates.rglob("*.html")):
        text = path.read_text("utf-8")
        inline_script = r"<script(?![^>]*\b(?:src=|type=\"application/json\"))"
        for pattern in (r"\sstyle=", r"<style", r"\son[a-z]+=", inline_script):
            found += [
                f"{path.relative_to(templates)}: {pattern}" for _ in re.findall(pattern, text)
            ]
    assert found == []


def test_a_pdf_goes_without_the_policy_and_keeps_its_other_headers(client, world):
    slug = world["kwargs"]["slug"]
    response = client.get(reverse("public:standings_pdf", args=[slug]))
    assert response["Content-Type"] == "application/pdf"
    assert "Content-Security-Policy" not in response
    assert response["X-Content-Type-Options"] == "nosniff"


def test_every_answer_carries_a_permissions_policy_denying_what_the_site_never_uses(client):
    tournament = make_tournament(slug="pp")
    answers = [
        client.get("/"),
        client.get(reverse("public:tournament", args=[tournament.slug])),
        client.get("/no-such-page/"),
        client.get(reverse("health")),
        client.post(reverse("login"), {"username": "nobody", "password": "wrong"}),
        client.get("/api/v1/tournaments"),
    ]
    for answer in answers:
        policy = answer["Permissions-Policy"]
        for denied in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
            assert denied in policy, (answer.status_code, policy)
        assert "fullscreen=(self)" in policy


def test_a_static_file_has_nosniff_but_not_the_page_policies_which_the_service_worker_has(
    settings,
):
    # Whitenoise serves the files where it finds them, as `runserver` and compose.yaml do.
    settings.WHITENOISE_USE_FINDERS = settings.WHITENOISE_AUTOREFRESH = True
    client = Client()
    script = client.get("/static/js/site.js")
    assert script.status_code == 200
    assert script["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" not in script and "Permissions-Policy" not in script
    worker = client.get(reverse("public:service_worker"))
    assert worker.status_code == 200
    assert worker["Content-Security-Policy"] == STRICT_POLICY
    assert "camera=()" in worker["Permissions-Policy"]
