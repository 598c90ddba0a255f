"""The table page without its script (issue 32, point 5): a stored round says "saved" on the
next page, however often the form was posted."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from tests.tournaments.test_table_views import entries
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def test_a_round_posted_twice_without_the_script_says_saved_and_is_stored_once(
    referee_client, table
):
    """A double tap: the browser shows the second post's answer, a repeat of a stored round."""
    posted = entries(client_id=str(uuid.uuid4()))
    url = reverse("tables:record", args=[table.pk])
    referee_client.post(url, posted, follow=True)  # its "saved" read
    response = referee_client.post(url, posted, follow=True)
    assert response.redirect_chain
    assert "Round 1 saved." in response.content.decode()
    assert Round.objects.filter(game=table.game).count() == 1


def test_the_same_round_typed_on_another_phone_without_the_script_says_saved(
    referee_client, table
):
    url = reverse("tables:record", args=[table.pk])
    referee_client.post(url, entries(), follow=True)
    response = referee_client.post(url, entries(), follow=True)
    assert "Round 1 saved." in response.content.decode()
    assert Round.objects.filter(game=table.game).count() == 1
