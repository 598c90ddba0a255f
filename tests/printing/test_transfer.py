"""A venue pushes a tournament to the federation's site in one step (issue 25, point 5)."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import transaction

from printing import archive, transfer
from tests.factories import make_user
from tests.snapshots import ROOT, manage, ok, own_database
from tournaments.management.commands.createdirector import directors_group
from tournaments.models import Tournament

URL = "/manage/import.json"


def director(username: str = "fed"):
    user = make_user(username, is_staff=True)
    user.groups.add(directors_group())
    return user


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker) -> bytes:
    """The archive of a small played tournament, taken off this site again: the demo loaded
    once for the module, whose tests only post the text, and rolled back."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_demo", "--force", stdout=io.StringIO())
        tournament = Tournament.objects.order_by("pk").first()
        assert tournament is not None
        text = archive.dumps(archive.tournament_to_data(tournament)).encode()
        transaction.set_rollback(True)
    return text


def post(client, body: bytes, token: str | None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token is not None else {}
    return client.post(URL, body, content_type="application/json", **headers)


@pytest.mark.django_db
def test_a_directors_token_imports_the_archive_and_makes_them_its_director(client, exported):
    fed = director()
    response = post(client, exported, transfer.import_token(fed))
    assert response.status_code == 201, response.content
    answer = response.json()
    tournament = Tournament.objects.get(slug=answer["slug"])
    assert answer["url"] == f"http://testserver/manage/{tournament.slug}/"
    assert answer["report"][0].startswith(f"Imported {tournament.name}")
    assert tournament.directors.filter(pk=fed.pk).exists()


@pytest.mark.django_db
def test_the_same_archive_pushed_twice_is_refused_the_second_time(client, exported):
    token = transfer.import_token(director())
    assert post(client, exported, token).status_code == 201
    again = post(client, exported, token)
    assert again.status_code == 400
    assert again.json()["error"].endswith("Nothing was imported.")
    assert Tournament.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("token", [None, "", "forged", "a.b.c"])
def test_without_a_valid_token_nothing_is_imported(client, exported, token):
    response = post(client, exported, token)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_token_stops_working_when_the_password_changes(client, exported):
    fed = director()
    token = transfer.import_token(fed)
    fed.set_password("a-new-long-password-for-fed")
    fed.save()
    assert post(client, exported, token).status_code == 401
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_an_account_that_may_not_create_tournaments_is_refused(client, exported):
    referee = make_user("ref")
    response = post(client, exported, transfer.import_token(referee))
    assert response.status_code == 403
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_broken_archive_is_refused_naming_why(client):
    response = post(client, b'{"format": "something else"}', transfer.import_token(director()))
    assert response.status_code == 400
    assert "not a tournament export" in response.json()["error"]


@pytest.mark.django_db
def test_import_is_post_only(client):
    assert client.get(URL).status_code == 405


@pytest.mark.django_db
def test_import_token_command_refuses_who_may_not_create_tournaments():
    make_user("ref")
    with pytest.raises(Exception, match="may not create tournaments"):
        call_command("import_token", "ref")
    out = io.StringIO()
    fed = director()
    call_command("import_token", "fed", stdout=out)
    assert transfer.user_of_token(out.getvalue().strip()) == fed


# --- end to end: two sites, each its own process and database ------------------------------

# Each tournament as both sites read it: the archive (the federation's director, added
# there, left out), the standings by player name, every seat's and hand's numbers by
# session, table, seat and round (ids differ from site to site).
SNAPSHOT = """
import json
from datetime import UTC, datetime
from unittest import mock
try:
    from printing import archive
except ImportError:  # a release before the printing app (the upgrade test runs it too)
    from tournaments import archive
from tournaments.models import Hand, Seat, Tournament
every = {}
moment = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
def named(rows):
    return [[list(standing)[:1] + list(standing)[2:], player.name] for standing, player in rows]
seat = ("table__session__number", "table__number", "position")
hand = ("round__game__table__session__number", "round__game__table__number",
        "round__number", "seat__position")
for tournament in Tournament.objects.order_by("slug"):
    with mock.patch("django.utils.timezone.now", return_value=moment):
        data = archive.tournament_to_data(tournament)
    # Each site's own directors: the federation's are who pushed it (and the accounts that
    # already direct with them): the venue's accounts are not the federation's (issue 34).
    directors = data["tournament"].pop("directors")
    # Players are numbered in the file by each site's own ids: named instead.
    names = {player.pop("id"): player["name"] for player in data["players"]}
    for registration in data["registrations"]:
        registration["player"] = names[registration["player"]]
    for part in data["sessions"]:
        for table in part["tables"]:
            for taken in table["seats"]:
                taken["player"] = names[taken["player"]]
                for change in taken.get("substitutes", []):
                    for key in ("player_out", "player_in"):
                        change[key] = names[change[key]]
    for adjustment in data.get("adjustments", []):
        adjustment["player"] = names[adjustment["player"]]
    for figures in data.get("statistics", {}).get("players", []):
        figures["player"] = names[figures["player"]]
    for fact in data.get("statistics", {}).get("facts", []):
        fact["players"] = [names[player] for player in fact["players"]]
    seats = Seat.objects.filter(table__session__tournament=tournament).order_by(*seat)
    hands = Hand.objects.filter(round__game__table__session__tournament=tournament)
    every[tournament.slug] = {
        "archive": data,
        "directors": directors,
        "standings": named(tournament.standings()),
        "sessions": [named(tournament.standings(part)) for part in tournament.sessions.all()],
        "seats": list(seats.values_list(*seat, "player__name", "total", "rank")),
        "hands": list(hands.order_by(*hand).values_list(
            *hand, "hand_total", "along", "points", "reduction", "total"
        )),
    }
print(json.dumps(every, default=str))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow  # manage.py processes and gunicorn
@pytest.mark.database  # two sites on databases of their own beside the configured one
def test_a_venue_pushes_its_tournaments_to_a_running_federation_site(tmp_path: Path):
    with (
        own_database(tmp_path, "venue") as (venue, _),
        own_database(tmp_path, "federation") as (
            federation,
            _,
        ),
    ):
        ok(manage(venue, "migrate", "--noinput"))
        ok(manage(venue, "load_demo"))
        ok(manage(federation, "migrate", "--noinput"))
        environment = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "CACHE_URL"}
        }
        created = subprocess.run(
            [sys.executable, "manage.py", "createdirector", "fed"],
            cwd=ROOT,
            env={
                **environment,
                "DATABASE_URL": federation,
                "DIRECTOR_PASSWORD": "fed-long-password-2026",
            },
            capture_output=True,
            text=True,
            check=False,
        )
        ok(created)
        token = ok(manage(federation, "import_token", "fed")).strip()

        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "gunicorn.conf.py",
                f"--bind=127.0.0.1:{port}",
                "--workers=1",
                "--threads=2",
            ],
            cwd=ROOT,
            env={**environment, "DATABASE_URL": federation},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            import httpx

            for _ in range(300):
                try:
                    if (
                        httpx.get(f"http://127.0.0.1:{port}/health/", trust_env=False).status_code
                        == 200
                    ):
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            before = json.loads(ok(manage(venue, "shell", "--no-imports", "-c", SNAPSHOT)))
            for slug in before:
                pushed = ok(
                    manage(
                        venue,
                        "push_tournament",
                        slug,
                        "--to",
                        f"http://127.0.0.1:{port}",
                        "--token",
                        token,
                    )
                )
                assert f"is at http://127.0.0.1:{port}/manage/{slug}/" in pushed, pushed
            # Pushed twice: refused by the federation, nothing changes there.
            again = manage(
                venue,
                "push_tournament",
                slug,
                "--to",
                f"http://127.0.0.1:{port}",
                "--token",
                token,
            )
            assert again.returncode != 0 and "refused it (400)" in again.stderr
        finally:
            server.terminate()
            server.wait(10)
        after = json.loads(ok(manage(federation, "shell", "--no-imports", "-c", SNAPSHOT)))

    assert after.keys() == before.keys() and len(before) >= 2
    for slug in before:
        for part in ("archive", "standings", "sessions", "seats", "hands"):
            assert after[slug][part] == before[slug][part], (slug, part)
        assert after[slug]["directors"] == ["fed"]
