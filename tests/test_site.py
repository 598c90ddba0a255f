"""The Django site starts, migrates and serves its pages on the configured database."""

from __future__ import annotations

import os
import re

import pytest
from django.db import connection
from django.urls import reverse

from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_the_suite_runs_on_the_database_named_by_database_url():
    url = os.environ.get("DATABASE_URL", "sqlite://")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    assert connection.vendor == expected


def test_the_home_page_serves_htmx_from_our_own_static_files(client):
    response = client.get(reverse("public:home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/django_htmx/htmx" in html
    # Every script and stylesheet comes from our own server: no CDN at a venue's bad Wi-Fi.
    # (Not a search for "cdn" in the page: the random CSRF token may spell it.)
    sources = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', html)
    assert sources and all(source.startswith("/static/") for source in sources), sources


def test_the_rules_page_lists_the_belgian_numbers_and_interpretations(client):
    html = client.get(reverse("public:rules")).content.decode()
    # The same words as the printed rules box (tournaments.rules_text).
    assert "32 + the left neighbour's hand" in html
    assert "<b>Exactly 50, 100 or 150</b> after a round with points: <b>−50</b>" in html
    assert "only the caller is penalised" in html


def test_the_login_page_renders(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert 'name="password"' in response.content.decode()


def test_the_admin_requires_a_login(client):
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_the_password_change_is_the_sites_own_page_in_its_own_words(client):
    # Issue 33.7: it was Django admin's, in formal Dutch, with a breadcrumb to /admin/.
    client.force_login(make_user("ref-words"))
    html = client.get(reverse("password_change"), headers={"Accept-Language": "nl"}).content
    page = html.decode()
    assert "<h1>Je wachtwoord wijzigen</h1>" in page
    assert 'href="/admin/' not in page and "breadcrumbs" not in page
    assert 'class="site-header"' in page
