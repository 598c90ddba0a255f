"""The login backend (tournaments.backends.Accounts): Django's ModelBackend, a wrong password
refused once; the sessions Django's own backend signed in stay signed in."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import BACKEND_SESSION_KEY, get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD
from tournaments.models import Table

pytestmark = pytest.mark.django_db

LEGACY = "django.contrib.auth.backends.ModelBackend"


def test_a_referee_who_logs_in_is_signed_in_by_the_sites_backend_and_records_at_their_table(
    client, table
):
    answer = client.post(reverse("login"), {"username": "ref-anna", "password": PASSWORD})
    assert answer.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "tournaments.backends.Accounts"
    page = client.get(reverse("tables:detail", args=[table.pk]))
    assert page.status_code == 200
    assert page.context["user"].get_username() == "ref-anna"
    assert page.context["editable"] is True


def test_a_session_djangos_backend_signed_in_before_the_upgrade_stays_signed_in(
    referee, table: Table
):
    phone = Client()
    phone.force_login(referee, backend=LEGACY)
    assert phone.session[BACKEND_SESSION_KEY] == LEGACY
    page = phone.get(reverse("tables:detail", args=[table.pk]))
    assert page.context["user"].get_username() == "ref-anna"
    assert page.context["editable"] is True


def test_a_wrong_password_is_checked_once_and_counted_once(client, referee, monkeypatch):
    checks = []
    check_password = get_user_model().check_password

    def counted(user, raw_password):
        checks.append(raw_password)
        return check_password(user, raw_password)

    monkeypatch.setattr(get_user_model(), "check_password", counted)
    answer = client.post(reverse("login"), {"username": "ref-anna", "password": "wrong"})
    assert answer.status_code == 200
    assert "_auth_user_id" not in client.session
    # Django's ModelBackend, listed after ours for the old sessions, never checks it again.
    assert checks == ["wrong"]
    assert AccessAttempt.objects.get(username="ref-anna").failures_since_start == 1


def test_a_user_made_inactive_is_signed_out_on_their_next_request(referee_client, referee, table):
    referee.is_active = False
    referee.save()
    page = referee_client.get(reverse("tables:detail", args=[table.pk]))
    assert page.context["user"].is_authenticated is False
    assert page.context["editable"] is False
