"""The authorization matrix of issue 22, re-run: every URL pattern of the site (ours, the
API's, the admin's, the accounts'), as every role, against a private tournament.

The private world: "Secret Cup" (slug secret-cup), private, made by its director, with a
co-director, two tables each with a referee, a player only it knows (Verborgen, of the club
Geheim Club), a dispute, a hall screen and a private season of the same slug. The roles:
anonymous, a plain account, the referee of the *other* table, the director of another
tournament (staff, as `createdirector` makes one), the co-director and a superuser.

For each pattern the URL is built with the private world's values and asked with GET, HEAD
and POST. An *allow* is a 2xx answer, or a redirect anywhere but a login page. What each role
may be allowed is written below (`may`); anything else allowed is *unexpected*, and so is a
page that shows a private name to who may not see the tournament. Nothing a stranger posts
changes a row. The figures (patterns, requests, unexpected allows) are printed with `-s`.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from hall.models import HallScreen
from seasons.models import Season, SeasonTournament
from tests.factories import make_table, make_tournament, make_user, record
from tests.test_security import beside_the_rounds, row_counts
from tournaments.models import (
    AccountOrigin,
    Club,
    GameChange,
    Hand,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    TableCode,
    Tournament,
)

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "player", "other_referee", "other_director", "co_director", "superuser"]
STRANGERS = {"anonymous", "player", "other_director"}
# Words only the private tournament's pages hold (never part of a URL).
MARKERS = ("Secret Cup", "Verborgen", "Geheim Club")
# Every field the site's forms read, filled in by a stranger.
POST = {
    "reason": "x",
    "version": "1",
    "checked_in": "0",
    "number": "2",
    "new-username": "intruder",
    "new-role": "director",
    "add-username": "intruder",
    "add-role": "director",
    "entry": "table_codes",
    "confirmation": "none",
    "answer": "nothing to see",
    "action": "start",
    "confirmed": "1",
    "text": "x",
    "seat": "1",
    "name": "Intruder",
    "player": "1",
    "q": "Verborgen",
}


def all_patterns(patterns=None, prefix="", namespace="") -> list[tuple[str, str, Any]]:
    """(route, name, pattern) of every URL pattern of the site, admin and API included."""
    found = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            found += all_patterns(pattern.url_patterns, route, inner)
        elif isinstance(pattern, URLPattern):
            found.append((route, namespace + (pattern.name or ""), pattern))
    return found


def private_world() -> dict[str, Any]:
    creator = make_user("creator")
    co_director = make_user("co-director")
    referee = make_user("secret-referee")
    other_referee = make_user("other-table-referee")
    other_director = make_user("other-director", is_staff=True)
    other_director.user_permissions.set(
        Permission.objects.filter(content_type__app_label="tournaments")
    )
    club = Club.objects.create(name="Geheim Club")
    private = make_tournament(
        name="Secret Cup",
        slug="secret-cup",
        is_public=False,
        club=club,
        directors=[creator, co_director],
    )
    for account in (co_director, referee, other_referee):
        AccountOrigin.objects.create(user=account, tournament=private)
    private.referees.add(referee, other_referee)
    table = make_table(("Verborgen", "Bart", "Chris", "Dirk"), tournament=private, referee=referee)
    make_table(("Eva", "Finn", "Gert"), tournament=private, referee=other_referee)
    Player.objects.filter(name="Verborgen").update(club=club)
    record(
        table.game,
        referee,
        {"hands": {"Verborgen": 3, "Bart": 9, "Chris": 9, "Dirk": 9}, "yaniv": "Verborgen"},
    )
    hidden = Player.objects.get(name="Verborgen")
    registration = Registration.objects.create(tournament=private, player=hidden)
    dispute = table.game.raise_dispute(1, "Bart had 19", by=referee)
    screen = HallScreen.add(private)
    season = Season.objects.create(
        name="Secret Cup season", slug="secret-cup", club=club, is_public=False
    )
    season.directors.add(creator)
    entry = SeasonTournament.objects.create(season=season, tournament=private)
    AccessAttempt.objects.create(
        username=referee.username, ip_address="198.51.100.23", failures_since_start=5
    )
    make_tournament(slug="others", directors=[other_director])
    code = TableCode.issue(table).code
    beside = beside_the_rounds(private, hidden, creator)
    return {
        "creator": creator,
        "co_director": co_director,
        "referee": referee,
        "other_referee": other_referee,
        "other_director": other_director,
        "player": make_user("plain-player"),
        "superuser": make_user("root", is_superuser=True, is_staff=True),
        "private": private,
        "table": table,
        "code": code,
        "screen": screen,
        "door": beside.pop("door"),
        "kwargs": {
            "slug": private.slug,
            "table_id": table.pk,
            "number": 1,
            "registration_id": registration.pk,
            "player_id": hidden.pk,
            "user_id": referee.pk,
            "dispute_id": dispute.pk,
            "table_number": 1,
            "club_id": club.pk,
            "entry_id": entry.pk,
            "table": 1,
            # A registration sent at the door, a penalty (issue 38): the private world's.
            **beside,
            # A seat of a table code's page; a forged "Stop these" token of a message.
            "position": 1,
            "token": "1:forged",
        },
    }


def admin_object_ids(world) -> dict[str, object]:
    """`app/model` → the pk of a private row of that model (the admin's object URLs)."""
    table, private = world["table"], world["private"]
    first_round = Round.objects.filter(game__table=table).earliest("pk")
    return {
        "tournaments/tournament": private.pk,
        "tournaments/session": table.session_id,
        "tournaments/table": table.pk,
        "tournaments/seat": Seat.objects.filter(table=table).earliest("pk").pk,
        "tournaments/game": table.game.pk,
        "tournaments/round": first_round.pk,
        "tournaments/hand": Hand.objects.filter(round=first_round).earliest("pk").pk,
        "tournaments/gamechange": GameChange.objects.filter(game=table.game).earliest("pk").pk,
        "tournaments/club": private.club_id,
        "tournaments/player": Player.objects.get(name="Verborgen").pk,
        "auth/user": world["referee"].pk,
        "auth/group": 1,
        "axes/accessattempt": AccessAttempt.objects.first().pk,
        "axes/accesslog": 1,
        "axes/accessfailurelog": 1,
    }


CONVERTER = re.compile(r"<(?:(?P<kind>\w+):)?(?P<name>\w+)>")


def build(route: str, world, who: str) -> str | None:
    """The URL of `route` with the private world's values; None for a regex route."""
    if route.startswith("^") or "(?P" in route:
        return None
    values = dict(world["kwargs"])
    # A stranger holds neither the table's code nor the screen's link: they guess.
    values["code"] = world["code"] if who in ("co_director", "superuser") else "1-" + "0" * 40
    values["key"] = world["screen"].key if who in ("co_director", "superuser") else "1-" + "0" * 40
    values["door"] = world["door"] if who in ("co_director", "superuser") else "ZZZZZZ"
    model = re.match(r"admin/(\w+)/(\w+)/", route)
    if model:
        values["object_id"] = world["admin_ids"].get(f"{model[1]}/{model[2]}", 1)
    values.setdefault("object_id", 1)
    values["id"] = world["referee"].pk  # the admin's password change of an account
    values["app_label"] = "tournaments"
    # "View on site": the private table (the one model with a page of its own).
    values["content_type_id"] = ContentType.objects.get_for_model(Table).pk
    if route.startswith("admin/r/"):
        values["object_id"] = world["table"].pk
    values["url"] = "secret-cup/"
    values["uidb64"], values["token"] = "MQ", "x-y"

    def value(match: re.Match) -> str:
        name = match["name"]
        assert name in values, f"the matrix needs a value for {name} in {route}"
        return str(values[name])

    return "/" + CONVERTER.sub(value, route)


def allowed(response, method: str) -> bool:
    if 200 <= response.status_code < 300:
        return True
    if response.status_code in (301, 302, 303, 307, 308):
        location = response["Location"]
        # The admin answers a row it does not show with a redirect to its index (and sends
        # its object URLs on to their change page, itself in the matrix): within the admin
        # is no allow. "View on site" leads out of it.
        return not ("/accounts/login/" in location or location.startswith("/admin/"))
    return False


def may(who: str, route: str, method: str) -> bool:
    """What `who` may be allowed on the private world's URL `route` (see the module)."""
    if who in ("co_director", "superuser"):
        return True
    names_an_object = "<" in route
    if not names_an_object:
        # Pages of no object: the home page, lists, one's own pages, the login, the API's
        # description; their content is checked for the private names instead. The admin's
        # lists are the staff director's (scoped to their own rows).
        return (
            who != "anonymous"
            or not route.startswith("admin/")
            or route in ("admin/login/", "admin/logout/")
        )
    if route.startswith("admin/") and route.endswith(("/add/", "/autocomplete/")):
        return who == "other_director"
    if who == "other_referee" and method in ("GET", "HEAD"):
        # They referee a table of the tournament: they follow it and its tables.
        return route.startswith(("t/<slug:slug>", "tables/<int:table_id>/")) and not any(
            write in route for write in ("record", "preview", "correct", "undo", "end", "sync")
        )
    return False


def matrix(world, who: str) -> dict[str, Any]:
    client = Client(REMOTE_ADDR="203.0.113.50")
    if who != "anonymous":
        client.force_login(world[who])
    patterns = all_patterns()
    unexpected, leaks, requests, skipped, allows = [], [], 0, [], 0
    for route, _name, _pattern in patterns:
        url = build(route, world, who)
        if url is None:
            skipped.append(route)
            continue
        for method in ("GET", "HEAD", "POST"):
            if who != "anonymous" and "_auth_user_id" not in client.session:
                client.force_login(world[who])  # a logout page was asked just before
            if method == "GET":
                response = client.get(url)
            elif method == "HEAD":
                response = client.head(url)
            else:
                response = client.post(url, POST)
            requests += 1
            if allowed(response, method):
                allows += 1
                if not may(who, route, method):
                    unexpected.append((method, route, response.status_code))
            if who in STRANGERS and method == "GET" and not response.streaming:
                body = response.content.decode(errors="replace")
                shown = [marker for marker in MARKERS if marker in body]
                if shown:
                    leaks.append((route, shown))
    return {
        "patterns": len(patterns),
        "built": len(patterns) - len(skipped),
        "requests": requests,
        "allows": allows,
        "unexpected": unexpected,
        "leaks": leaks,
    }


@pytest.mark.parametrize("who", ROLES)
def test_no_role_is_allowed_what_it_may_not_do_on_a_private_tournament(who, settings):
    # The limits of guesses and downloads would answer 429 and hide what the matrix asks.
    settings.CODE_GUESSES = settings.CODE_GUESSES_ALL = 10**6
    settings.DOWNLOADS_PER_MINUTE = 10**6
    world = private_world()
    world["admin_ids"] = admin_object_ids(world)  # before any post deletes a row
    before = row_counts()
    figures = matrix(world, who)
    print(
        f"\n{who}: {figures['patterns']} patterns ({figures['built']} built), "
        f"{figures['requests']} requests, {figures['allows']} allowed, "
        f"{len(figures['unexpected'])} unexpected allows, "
        f"{len(figures['leaks'])} pages showing private names"
    )
    assert figures["patterns"] >= 220
    for line in figures["unexpected"] + figures["leaks"]:
        print("  ", line)
    assert figures["unexpected"] == [], figures["unexpected"]
    assert figures["leaks"] == [], figures["leaks"]
    # The matrix refuses strangers, not everyone: the tournament's own people are let in.
    least = {"co_director": 100, "superuser": 100, "other_referee": 40}
    assert figures["allows"] >= least.get(who, 0)
    if who in STRANGERS or who == "other_referee":
        assert row_counts() == before
    creator = get_user_model().objects.get(username="creator")
    # Whatever the co-director posted, the creator still directs the tournament and their
    # password is theirs.
    assert world["private"].directors.filter(pk=creator.pk).exists()
    assert creator.is_active and creator.password == world["creator"].password
    assert admin.site.is_registered(Tournament)
