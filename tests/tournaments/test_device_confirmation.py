"""Issue 22: one phone passed round the table may agree for several players, but the sheet
and the director see it ("Seats 1, 2, 3 agreed from one phone"); disputes from one table are
bounded (three a minute from one code or account), with a clear word and Retry-After."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import HTMX
from tests.tournaments.test_confirmation_and_disputes import agree, club_table, finish
from tournaments.access import DEVICE_COOKIE
from tournaments.models import Confirmation, Dispute, TableCode, Tournament
from tournaments.models.agreement import DISPUTES_PER_MINUTE

pytestmark = pytest.mark.django_db


def test_seats_agreed_from_one_phone_are_recorded_and_shown_on_the_sheet(
    client, tournament, director_client
):
    table = club_table(tournament, Tournament.Confirmation.MAJORITY)
    code = TableCode.issue(table).code
    game = finish(table)
    for position in (1, 2, 3):
        game.refresh_from_db()
        response = agree(client, code, position, game.version)
        assert response.status_code == 302
    game.refresh_from_db()
    assert game.signed_off
    devices = set(Confirmation.objects.values_list("device", flat=True))
    assert len(devices) == 1 and len(devices.pop()) == 16
    assert client.cookies[DEVICE_COOKIE]["httponly"]
    page = client.get(reverse("codes:detail", args=[code])).content.decode()
    assert "Seats 1, 2, 3 agreed from one phone." in page
    # The director sees it on the table page too.
    director_page = director_client.get(reverse("tables:detail", args=[table.pk])).content
    assert "Seats 1, 2, 3 agreed from one phone." in director_page.decode()


def test_players_agreeing_each_on_their_own_phone_show_no_shared_phone(tournament):
    table = club_table(tournament, Tournament.Confirmation.EVERY)
    code = TableCode.issue(table).code
    game = finish(table)
    phones = [Client() for _ in range(4)]
    for position, phone in enumerate(phones, start=1):
        game.refresh_from_db()
        assert agree(phone, code, position, game.version).status_code == 302
    assert Confirmation.objects.values("device").distinct().count() == 4
    page = phones[0].get(reverse("codes:detail", args=[code])).content.decode()
    assert "agreed from one phone" not in page


def test_two_phones_each_agreeing_for_two_seats_are_both_shown(tournament):
    table = club_table(tournament, Tournament.Confirmation.EVERY)
    code = TableCode.issue(table).code
    game = finish(table)
    first, second = Client(), Client()
    for phone, position in ((first, 1), (second, 2), (first, 4), (second, 3)):
        game.refresh_from_db()
        assert agree(phone, code, position, game.version).status_code == 302
    htmx = first.get(reverse("codes:detail", args=[code]), headers=HTMX).content.decode()
    assert "Seats 1, 4 agreed from one phone. Seats 2, 3 agreed from one phone." in htmx


def test_a_forged_device_cookie_is_not_taken(client, tournament):
    table = club_table(tournament, Tournament.Confirmation.EVERY)
    code = TableCode.issue(table).code
    game = finish(table)
    client.cookies[DEVICE_COOKIE] = "aaaaaaaaaaaaaaaa"
    agree(client, code, 1, game.version)
    assert Confirmation.objects.get().device != "aaaaaaaaaaaaaaaa"


# --- disputes: bounded per code ---------------------------------------------------------------


def test_a_fourth_dispute_in_a_minute_from_one_code_waits_and_says_so(client, tournament):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    url = reverse("codes:dispute", args=[code])
    for number in range(DISPUTES_PER_MINUTE):
        assert client.post(url, {"round": "", "text": f"question {number}"}).status_code == 302
    refused = client.post(url, {"round": "", "text": "x" * 490})
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 61
    assert "Too many questions sent from this table in a minute" in refused.content.decode()
    htmx = client.post(url, {"round": "", "text": "again"}, headers=HTMX)
    assert htmx.status_code == 200 and "Retry-After" in htmx
    assert "Too many questions" in htmx.content.decode()
    assert Dispute.objects.count() == DISPUTES_PER_MINUTE


def test_another_tables_code_is_not_held_back(client, tournament):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    for number in range(DISPUTES_PER_MINUTE + 1):
        client.post(reverse("codes:dispute", args=[code]), {"round": "", "text": f"q{number}"})
    other = club_table(tournament)
    other_code = TableCode.issue(other).code
    response = client.post(reverse("codes:dispute", args=[other_code]), {"text": "ours"})
    assert response.status_code == 302
    assert Dispute.objects.filter(game=other.game).count() == 1
