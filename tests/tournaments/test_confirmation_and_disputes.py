"""The players agree to a table code's sheet; something's wrong goes to the director."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import rules
from tests.factories import make_table, record
from tournaments.models import Dispute, GameChange, TableCode, Tournament

pytestmark = pytest.mark.django_db

DIRK_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 45}, "yaniv": "Ann"}


def club_table(tournament, confirmation=Tournament.Confirmation.EVERY):
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.confirmation = confirmation
    tournament.save(update_fields=["entry", "confirmation"])
    return make_table(tournament=tournament)


def finish(table):
    record(table.game, None, *[DIRK_45] * 4)  # Dirk above 150 after round 4
    table.game.refresh_from_db()
    assert table.game.finished
    return table.game


def agree(client, code, position, version):
    return client.post(
        reverse("codes:confirm", args=[code]), {"seat": position, "version": version}
    )


def test_every_player_agreeing_signs_the_sheet_off(client, tournament):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    game = finish(table)
    page = client.get(reverse("codes:detail", args=[code])).content.decode()
    assert "I agree — Ann" in page and "(0 of 4 needed)" in page
    for position in (1, 2, 3):
        game.refresh_from_db()
        assert agree(client, code, position, game.version).status_code == 302
        game.refresh_from_db()
        assert game.provisional
    assert agree(client, code, 4, game.version).status_code == 302
    game.refresh_from_db()
    assert game.signed_off and game.signed_off_by is None and not game.provisional
    assert GameChange.objects.filter(action="confirm").count() == 4
    # The standings count it as final.
    assert [standing.provisional for standing, _ in tournament.standings()] == [False] * 4


def test_a_majority_is_enough_when_the_tournament_says_so(client, tournament):
    table = club_table(tournament, Tournament.Confirmation.MAJORITY)
    code = TableCode.issue(table).code
    game = finish(table)
    for position in (1, 2):
        game.refresh_from_db()
        agree(client, code, position, game.version)
    game.refresh_from_db()
    assert game.provisional  # 2 of 4: not a majority
    agree(client, code, 3, game.version)
    game.refresh_from_db()
    assert game.signed_off


def test_without_confirmation_a_finished_code_game_counts_at_once(tournament):
    table = club_table(tournament, Tournament.Confirmation.NONE)
    game = finish(table)
    assert game.signed_off and not game.provisional


def test_a_correction_voids_the_agreements_given(client, tournament, director):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    game = finish(table)
    agree(client, code, 1, game.version)
    game.refresh_from_db()
    assert game.confirmations.count() == 1
    corrected = rules.Round({"Ann": 0, "Bart": 2, "Chris": 1, "Dirk": 45}, yaniv="Ann")
    game.correct_round(4, corrected, by=director, reason="Bart had 2", version=game.version)
    assert game.confirmations.count() == 0


def test_agreeing_to_an_older_sheet_is_refused(client, tournament):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    game = finish(table)
    response = agree(client, code, 1, game.version - 1)
    assert response.status_code == 200
    assert "changed since this form was opened" in response.content.decode()
    assert game.confirmations.count() == 0


def test_a_dispute_from_the_code_page_is_logged_and_answered_by_a_correction(
    client, tournament, director, director_client
):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    record(
        table.game, None, {"hands": {"Ann": 3, "Bart": 17, "Chris": 9, "Dirk": 8}, "yaniv": "Ann"}
    )
    response = client.post(
        reverse("codes:dispute", args=[code]), {"round": "1", "text": "Bart had 7, not 17"}
    )
    assert response.status_code == 302
    dispute = Dispute.objects.get()
    assert (dispute.round_number, dispute.text, dispute.status) == (
        1,
        "Bart had 7, not 17",
        "open",
    )
    assert dispute.code is not None and dispute.raised_by is None
    assert GameChange.objects.get(action="dispute").reason == "Bart had 7, not 17"

    # The director corrects round 1 from the dispute: the correction's reason answers it.
    url = reverse("tables:correct", args=[table.pk, 1]) + f"?dispute={dispute.pk}"
    form = director_client.get(url).content.decode()
    assert "This correction answers the dispute" in form
    table.game.refresh_from_db()
    data = {
        "number": 1,
        "hand_1": 3,
        "hand_2": 7,
        "hand_3": 9,
        "hand_4": 8,
        "ending": "yaniv:1",
        "reason": "Bart showed his 7",
        "version": table.game.version,
        "dispute": dispute.pk,
    }
    assert director_client.post(url, data).status_code == 302
    dispute.refresh_from_db()
    assert (dispute.status, dispute.answer) == ("resolved", "Bart showed his 7")
    assert dispute.answered_by == director
    assert GameChange.objects.filter(action="resolve", reason="Bart showed his 7").count() == 1
    page = client.get(reverse("codes:detail", args=[code])).content.decode()
    assert "Bart showed his 7" in page


def test_a_dismissed_dispute_says_why_and_cannot_be_answered_twice(tournament, director):
    table = club_table(tournament)
    game = table.game
    dispute = game.raise_dispute(None, "the sheet looks wrong", by=None)
    game.dismiss_dispute(dispute, "it is right: checked with the paper", by=director)
    dispute.refresh_from_db()
    assert dispute.status == "dismissed"
    with pytest.raises(rules.GameError, match="answered already"):
        game.dismiss_dispute(dispute, "again", by=director)
    assert GameChange.objects.filter(action="dismiss").count() == 1


def test_a_dispute_needs_a_line_and_a_round_of_the_sheet(client, tournament):
    table = club_table(tournament)
    code = TableCode.issue(table).code
    empty = client.post(reverse("codes:dispute", args=[code]), {"round": "", "text": ""})
    assert "Say in a few words what is wrong." in empty.content.decode()
    unknown = client.post(reverse("codes:dispute", args=[code]), {"round": "9", "text": "x"})
    assert unknown.status_code == 200
    assert Dispute.objects.count() == 0


def test_followers_and_strangers_cannot_raise_disputes(client, tournament):
    table = make_table(tournament=tournament)  # a championship table: referee accounts
    response = client.post(reverse("tables:dispute", args=[table.pk]), {"text": "x"})
    assert response.status_code == 403
    assert Dispute.objects.count() == 0
