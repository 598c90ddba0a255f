"""The table page's smaller parts follow the sheet and speak to newcomers plainly: an "I agree"
on a page behind another's, a table kept by code with no referee, the director's count of
open disputes after a dismissal, a referee's first page, a withdrawn player still seated."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PASSWORD, entries, make_table, make_user, record
from tournaments.models import Dispute, Registration, TableCode, Tournament

pytestmark = pytest.mark.django_db

DIRK_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 45}, "yaniv": "Ann"}
ANN_CALLS = {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}


def club_table(tournament):
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.confirmation = Tournament.Confirmation.EVERY
    tournament.save(update_fields=["entry", "confirmation"])
    return make_table(tournament=tournament)


def test_an_i_agree_from_a_page_behind_another_players_agreement_is_taken(client, tournament):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    record(table.game, None, *[DIRK_45] * 4)
    game = table.game
    game.refresh_from_db()
    seen = game.version  # both phones drew the sheet at this version
    url = reverse("codes:confirm", args=[code])
    assert client.post(url, {"seat": 1, "version": seen}).status_code == 302
    # The second phone, a version behind (Ann's agreement), agrees to the same sheet.
    response = client.post(url, {"seat": 2, "version": seen}, HTTP_HX_REQUEST="true")
    assert "Bart agrees." in response.content.decode()
    assert game.confirmations.count() == 2


def test_an_i_agree_from_a_page_behind_a_correction_is_refused(client, tournament, director):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    record(table.game, None, *[DIRK_45] * 4)
    game = table.game
    game.refresh_from_db()
    seen = game.version
    corrected = {"hands": {"Ann": 0, "Bart": 2, "Chris": 1, "Dirk": 45}, "yaniv": "Ann"}

    game.correct_round(1, entries(corrected), by=director, reason="Bart had 2", version=seen)
    response = client.post(
        reverse("codes:confirm", args=[code]), {"seat": 2, "version": seen}, HTTP_HX_REQUEST="true"
    )
    assert "The sheet was changed" in response.content.decode()
    assert game.confirmations.count() == 0


def test_a_table_kept_by_code_names_no_referee(client, tournament):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    record(table.game, None, *[DIRK_45] * 4)
    page = client.get(reverse("codes:detail", args=[code])).content.decode()
    assert "a phone at the table recorded round 1" in page
    assert "the referee" not in page
    game = table.game
    game.refresh_from_db()
    for position in (1, 2, 3, 4):
        game.refresh_from_db()
        client.post(
            reverse("codes:confirm", args=[code]), {"seat": position, "version": game.version}
        )
    page = client.get(reverse("tables:detail", args=[table.pk])).content.decode()
    assert "Signed off at " in page and "by the referee" not in page


def test_dismissing_a_dispute_updates_the_queues_count(client, director, tournament):
    table = make_table(tournament=tournament)
    record(table.game, None, ANN_CALLS)
    table.game.refresh_from_db()
    dispute = table.game.raise_dispute(1, "Bart had 2", by=director)
    client.force_login(director)
    assert (
        "1 open dispute"
        in client.get(reverse("manage:disputes", args=[tournament.slug])).content.decode()
    )
    response = client.post(
        reverse("manage:dismiss_dispute", args=[tournament.slug, dispute.pk]),
        {"answer": "checked: 12 is right"},
        HTTP_HX_REQUEST="true",
    )
    text = response.content.decode()
    assert 'id="open-count" data-hx-swap-oob="true">0 open disputes</h2>' in text
    assert Dispute.objects.get().status == Dispute.Status.DISMISSED


def test_a_referees_login_lands_on_my_tables(client):
    referee = make_user("ref-lands")
    response = client.post(
        reverse("login"), {"username": referee.get_username(), "password": PASSWORD}
    )
    assert response.status_code == 302 and response["Location"] == reverse("tables:mine")


def test_a_withdrawn_player_still_seated_is_flagged_on_the_table_page(
    client, tournament, director
):
    table = make_table(tournament=tournament)
    seat = table.seats.select_related("player").get(position=2)
    registration, _ = Registration.objects.get_or_create(tournament=tournament, player=seat.player)
    registration.withdraw(by=director, reason="felt unwell")
    page = client.get(reverse("tables:detail", args=[table.pk])).content.decode()
    assert f"{seat.player.name} withdrew from the tournament and is still seated here" in page
