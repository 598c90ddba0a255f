"""Production mode: the deploy check, the first director, health, structured logs."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import OperationalError
from django.urls import reverse

from tests.factories import make_table, make_user
from yaniv_club.logs import JsonFormatter

ROOT = Path(__file__).resolve().parents[1]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "a-production-secret-of-more-than-fifty-characters-0123456789-xyz",
    "ALLOWED_HOSTS": "yaniv.example.be",
    "DATABASE_URL": "sqlite:////tmp/yaniv-deploy-check.sqlite3",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # The browser tests' conftest allows async-unsafe ORM calls in this process; a
    # production server never has that, and check --deploy rightly refuses it.
    inherited = {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environment = {key: value for key, value in os.environ.items() if key not in inherited}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**environment, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_deploy_check_reports_nothing_with_production_settings():
    done = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_production_refuses_to_start_without(missing):
    done = manage("check", **{**PRODUCTION, missing: ""})
    assert done.returncode != 0
    assert f"{missing} must be set when DEBUG is off" in done.stderr


@pytest.mark.django_db
def test_createdirector_makes_a_staff_director_who_may_create_tournaments(client, monkeypatch):
    monkeypatch.setenv("DIRECTOR_PASSWORD", "a-long-director-password")
    call_command("createdirector", "hilde", stdout=io.StringIO())
    user = get_user_model().objects.get(username="hilde")
    assert user.is_staff and not user.is_superuser
    assert user.has_perm("tournaments.add_tournament")
    assert user.check_password("a-long-director-password")
    client.force_login(user)
    assert client.get(reverse("manage_new")).status_code == 200


@pytest.mark.django_db
def test_createdirector_refuses_a_weak_password(monkeypatch):
    monkeypatch.setenv("DIRECTOR_PASSWORD", "1234")
    with pytest.raises(CommandError, match="too short"):
        call_command("createdirector", "hilde")
    assert not get_user_model().objects.filter(username="hilde").exists()


@pytest.mark.django_db
def test_the_health_url_answers_ok_when_the_database_does(client):
    response = client.get(reverse("health"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


@pytest.mark.django_db
def test_the_health_url_answers_503_when_the_database_does_not(client, monkeypatch):
    from django.db import connection

    def down():
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", down)
    response = client.get(reverse("health"))
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


@pytest.mark.django_db
def test_every_write_is_logged_with_who_and_what(client, caplog):
    referee = make_user("ref")
    table = make_table(referee=referee)
    client.force_login(referee)
    post = {"number": 1, "hand_1": 3, "hand_2": 9, "hand_3": 9, "hand_4": 9, "ending": "yaniv:1"}
    with caplog.at_level(logging.INFO, logger="yaniv_club.writes"):
        client.post(reverse("record_round", args=[table.pk]), post)
    (entry,) = [r for r in caplog.records if r.name == "yaniv_club.writes"]
    assert (entry.user, entry.view, entry.status) == ("ref", "record_round", 302)
    assert entry.arguments == {"table_id": table.pk}


def test_json_logs_carry_the_extra_fields():
    record = logging.makeLogRecord(
        {"name": "yaniv_club.writes", "msg": "POST %s", "args": ("/x/",), "levelname": "INFO"}
    )
    record.user = "ref"
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "POST /x/" and line["user"] == "ref"
    assert line["level"] == "INFO" and line["logger"] == "yaniv_club.writes"


@pytest.mark.django_db
def test_a_write_caught_in_a_database_outage_answers_503_not_500(client, monkeypatch):
    from django.contrib.sessions.backends.db import SessionStore

    referee = make_user("ref")
    table = make_table(referee=referee)
    client.force_login(referee)

    def down(self):
        raise OperationalError("the database system is shutting down")

    monkeypatch.setattr(SessionStore, "load", down)
    response = client.post(reverse("record_round", args=[table.pk]), {"number": 1})
    assert response.status_code == 503
    assert "Not saved: try again" in response.content.decode()
