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

from hall.models import HallScreen
from seasons.models import Season
from tests.factories import make_table, make_user
from tournaments.models import Tournament
from yaniv_club.logs import AnsweredUnavailable, JsonFormatter

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


@pytest.mark.slow
def test_the_deploy_check_reports_nothing_with_production_settings():
    done = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


@pytest.mark.slow
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
    assert client.get(reverse("manage:new")).status_code == 200


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
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
    }


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
        client.post(reverse("tables:record", args=[table.pk]), post)
    (entry,) = [r for r in caplog.records if r.name == "yaniv_club.writes"]
    assert (entry.user, entry.view, entry.status) == ("ref", "tables:record", 302)
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
def test_a_503_the_site_chose_is_logged_as_a_warning_and_a_500_as_an_error(
    client, monkeypatch, caplog
):
    from django.db import connection

    def down():
        raise OperationalError("connection refused")

    with monkeypatch.context() as patch, caplog.at_level(logging.INFO, logger="django.request"):
        patch.setattr(connection, "cursor", down)
        assert client.get(reverse("health")).status_code == 503
    (unavailable,) = [r for r in caplog.records if r.name == "django.request"]
    assert (unavailable.levelname, unavailable.status_code) == ("WARNING", 503)
    assert json.loads(JsonFormatter().format(unavailable))["level"] == "WARNING"
    # Anything else the site fails at stays an error.
    caplog.clear()
    broken = logging.makeLogRecord({"name": "django.request", "levelno": logging.ERROR})
    broken.status_code = 500
    AnsweredUnavailable().filter(broken)
    assert broken.levelno == logging.ERROR


@pytest.mark.django_db
def test_a_write_caught_in_a_database_outage_answers_503_not_500(client, monkeypatch):
    # Sessions are read from the cache first, then the database (cached_db).
    from django.contrib.sessions.backends.cached_db import SessionStore

    referee = make_user("ref")
    table = make_table(referee=referee)
    client.force_login(referee)

    def down(self):
        raise OperationalError("the database system is shutting down")

    monkeypatch.setattr(SessionStore, "load", down)
    response = client.post(reverse("tables:record", args=[table.pk]), {"number": 1})
    assert response.status_code == 503
    assert "Not saved: try again" in response.content.decode()


# --- issue 13, point 8: the small ones ---------------------------------------------------------


@pytest.mark.django_db
def test_the_health_url_answers_head_as_a_monitor_asks(client):
    response = client.head(reverse("health"))
    assert response.status_code == 200
    assert response.content == b""
    assert client.post(reverse("health")).status_code == 405


@pytest.mark.slow
@pytest.mark.django_db
def test_load_demo_refuses_a_production_site_unless_forced(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off: this looks like a production site"):
        call_command("load_demo", stdout=io.StringIO())
    assert Tournament.objects.count() == 0
    call_command("load_demo", "--force", stdout=io.StringIO())
    assert Tournament.objects.exists()


@pytest.mark.slow
def test_production_trusts_no_forwarded_address_unless_configured():
    """A forwarded address is the client's say-so unless a proxy we trust appended it: 0 by
    default, in production too (issue 22); the deployment behind its proxy sets 1."""
    code = "from django.conf import settings; print(settings.TRUSTED_PROXY_COUNT)"
    assert manage("shell", "--no-imports", "-c", code, **PRODUCTION).stdout.strip() == "0"
    assert (
        manage(
            "shell", "--no-imports", "-c", code, **PRODUCTION, TRUSTED_PROXY_COUNT="1"
        ).stdout.strip()
        == "1"
    )


# The password reset by email: only where the site can send email.


@pytest.mark.django_db
def test_without_email_the_password_reset_pages_are_404_and_the_login_offers_none(
    client, settings
):
    settings.PASSWORD_RESET_BY_EMAIL = False
    assert "Forgot your password?" not in client.get(reverse("login")).content.decode()
    for url in (
        reverse("password_reset"),
        reverse("password_reset_done"),
        reverse("password_reset_confirm", args=["MQ", "set-password"]),
        reverse("password_reset_complete"),
    ):
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("password_reset"), {"email": "hilde@example.be"}).status_code == 404


@pytest.mark.django_db
def test_with_email_a_director_resets_a_forgotten_password(client, settings, mailoutbox):
    settings.PASSWORD_RESET_BY_EMAIL = True
    make_user("hilde", email="hilde@example.be")
    login = client.get(reverse("login")).content.decode()
    assert f'<a href="{reverse("password_reset")}">Forgot your password?</a>' in login
    response = client.post(reverse("password_reset"), {"email": "hilde@example.be"})
    assert response.status_code == 302
    (mail,) = mailoutbox
    assert mail.to == ["hilde@example.be"]
    link = next(line for line in mail.body.splitlines() if "/accounts/reset/" in line).strip()
    form = client.get(link, follow=True)
    assert "A new password" in form.content.decode()
    new = "a-new-long-password-for-hilde"
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}, follow=True
    )
    assert "Your new password works from now on." in done.content.decode()
    assert client.post(reverse("login"), {"username": "hilde", "password": new}).status_code == 302


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "smtp://yaniv%40example.be:p%40ss%3Aword@mail.example.be:587",
            {
                "EMAIL_HOST": "mail.example.be",
                "EMAIL_PORT": 587,
                "EMAIL_HOST_USER": "yaniv@example.be",
                "EMAIL_HOST_PASSWORD": "p@ss:word",
                "EMAIL_USE_TLS": True,
                "EMAIL_USE_SSL": False,
            },
        ),
        (
            "smtps://user:secret@mail.example.be",
            {"EMAIL_PORT": 465, "EMAIL_USE_TLS": False, "EMAIL_USE_SSL": True},
        ),
        (
            "smtp://relay.local:25",
            {"EMAIL_PORT": 25, "EMAIL_USE_TLS": False, "EMAIL_HOST_USER": ""},
        ),
        ("smtp://relay.local:2525?tls=1", {"EMAIL_PORT": 2525, "EMAIL_USE_TLS": True}),
    ],
)
def test_email_url_gives_djangos_email_settings(url, expected):
    from yaniv_club.settings import email_settings

    found = email_settings(url)
    assert found["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert {key: found[key] for key in expected} == expected


@pytest.mark.slow
def test_email_url_turns_the_password_reset_on_in_production():
    code = (
        "from django.conf import settings; "
        "print(settings.PASSWORD_RESET_BY_EMAIL, settings.EMAIL_HOST, settings.EMAIL_USE_TLS)"
    )
    done = manage(
        "shell",
        "--no-imports",
        "-c",
        code,
        **PRODUCTION,
        EMAIL_URL="smtp://u:p@mail.example.be:587",
    )
    assert done.stdout.strip() == "True mail.example.be True"
    assert (
        manage("shell", "--no-imports", "-c", code, **PRODUCTION).stdout.strip()
        == "False localhost False"
    )
    broken = manage("check", **PRODUCTION, EMAIL_URL="mail.example.be")
    assert broken.returncode != 0 and "EMAIL_URL must be smtp://" in broken.stderr


# gunicorn as the README runs it: no Server header.


@pytest.mark.slow
def test_gunicorn_with_the_repositorys_config_sends_no_server_header_and_opens_no_control_socket(
    tmp_path,
):
    import socket
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    server = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "-c",
            "gunicorn.conf.py",
            f"--bind=127.0.0.1:{port}",
            "--workers=1",
            "--threads=1",
        ],
        cwd=ROOT,
        env={
            **{key: value for key, value in environment.items() if key != "XDG_RUNTIME_DIR"},
            **PRODUCTION,
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            # gunicorn 25.1+ would put its control socket here (issue 35: refused under the
            # units' ProtectSystem=strict, an ERROR at every start).
            "HOME": str(tmp_path),
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        response = None
        for _ in range(100):
            try:
                response = httpx.head(
                    f"http://127.0.0.1:{port}/health/",
                    headers={"Host": "yaniv.example.be"},
                    trust_env=False,
                )
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert response is not None, "gunicorn did not start"
        assert "server" not in response.headers
        assert response.headers["content-security-policy"].startswith("default-src 'self'")
        assert response.headers["x-frame-options"] == "DENY"
        assert not (tmp_path / ".gunicorn").exists(), "gunicorn opened its control socket"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.slow
@pytest.mark.django_db
def test_load_demo_names_the_demo_in_the_language_asked():
    # Issue 33.8: the demo's tournaments, screens and hall message read English on nl pages.
    call_command("load_demo", "--force", "--language", "nl", stdout=io.StringIO())
    names = set(Tournament.objects.values_list("name", flat=True))
    assert names == {"Belgisch Kampioenschap 2026 (demo)", "Clubavond november 2026 (demo)"}
    screen = HallScreen.objects.get(number=1)
    season = Season.objects.get()
    assert season.name == "Klassement Yaniv Club Gent 2026 (demo)"
    assert screen.name == "Grote zaal" and screen.message.startswith("Sessie 2 is bezig")
