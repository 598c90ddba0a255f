"""The referee's table page: entry, preview, correction, undo, end, access."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import HTMX, make_table, make_tournament, make_user, record
from tournaments.models import GameChange, Round, Session

pytestmark = pytest.mark.django_db


def entries(number=1, hands=(3, 12, 7, 20), ending="yaniv:1", along=(), **extra):
    post = {"number": number, "ending": ending, "along": [str(p) for p in along]}
    post.update({f"hand_{seat}": hand for seat, hand in enumerate(hands, start=1)})
    post.update(extra)
    return post


def totals(table):
    return [seat.total for seat in table.seats.order_by("position")]


# --- the page -------------------------------------------------------------


def test_table_page_shows_seats_decks_and_the_entry_form(referee_client, table):
    response = referee_client.get(table.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    assert "4 players · 1 deck" in html
    assert 'name="hand_1"' in html and 'inputmode="numeric"' in html
    assert "Record round 1" in html


def test_anonymous_visitor_of_a_public_tournament_sees_the_sheet_but_no_form(client, table):
    html = client.get(table.get_absolute_url()).content.decode()
    assert "Score sheet" in html
    assert 'name="hand_1"' not in html


def test_a_private_tournaments_table_is_404_for_strangers(client):
    table = make_table(tournament=make_tournament(is_public=False))
    assert client.get(table.get_absolute_url()).status_code == 404


def test_my_tables_lists_the_referees_tables_in_running_sessions(referee_client, table, referee):
    make_table(referee=referee, session_status="planned", players=("Eva", "Frank"))
    html = referee_client.get(reverse("tables:mine")).content.decode()
    assert html.count('class="card"') == 1
    assert "<bdi>Ann</bdi>, <bdi>Bart</bdi>, <bdi>Chris</bdi>, <bdi>Dirk</bdi>" in html


def test_my_tables_needs_a_login(client):
    response = client.get(reverse("tables:mine"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


# --- recording ------------------------------------------------------------


def test_a_plain_post_records_the_round_and_redirects(referee_client, table):
    response = referee_client.post(reverse("tables:record", args=[table.pk]), entries())
    assert response.status_code == 302
    assert response["Location"] == table.get_absolute_url()
    assert totals(table) == [0, 12, 7, 20]


def test_a_round_saved_without_the_script_says_so_on_the_next_page(referee_client, table):
    """Issue 32, point 5: a phone without JavaScript posts the form and is sent back."""
    response = referee_client.post(
        reverse("tables:record", args=[table.pk]), entries(), follow=True
    )
    assert response.redirect_chain and "Round 1 saved." in response.content.decode()


def test_an_htmx_post_returns_the_live_fragment_with_a_fresh_form(referee_client, table):
    response = referee_client.post(
        reverse("tables:record", args=[table.pk]), entries(), headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="live"')
    assert "<html" not in html
    assert "Record round 2" in html


def test_a_hand_out_of_range_is_refused_at_its_field_and_nothing_is_saved(referee_client, table):
    post = entries(hands=(3, 51, 7, 20))
    response = referee_client.post(reverse("tables:record", args=[table.pk]), post, headers=HTMX)
    html = response.content.decode()
    assert "Bart&#x27;s hand must be a whole number from 0 to 50." in html
    assert 'class="seat-entry has-error"' in html
    assert Round.objects.count() == 0


def test_a_missing_hand_is_refused_and_the_other_entries_stay(referee_client, table):
    post = entries()
    post["hand_3"] = ""
    response = referee_client.post(reverse("tables:record", args=[table.pk]), post)
    html = response.content.decode()
    assert response.status_code == 400
    assert "Enter Chris&#x27;s hand total." in html
    assert 'name="hand_4" value="20"' in html
    assert Round.objects.count() == 0


def test_no_ending_is_refused(referee_client, table):
    post = entries()
    del post["ending"]
    html = referee_client.post(reverse("tables:record", args=[table.pk]), post).content.decode()
    assert "Choose who called Yaniv, or who emptied their hand." in html
    assert Round.objects.count() == 0


def test_two_callers_are_refused(referee_client, table):
    post = entries()
    post["ending"] = ["yaniv:1", "yaniv:2"]
    html = referee_client.post(reverse("tables:record", args=[table.pk]), post).content.decode()
    assert "Only one player calls Yaniv or empties their hand in a round." in html
    assert Round.objects.count() == 0


def test_the_caller_cannot_also_go_along(referee_client, table):
    post = entries(ending="yaniv:1", along=(1, 3))
    html = referee_client.post(reverse("tables:record", args=[table.pk]), post).content.decode()
    assert "The caller cannot go along." in html
    assert Round.objects.count() == 0


def test_an_emptied_hand_that_is_not_zero_is_refused(referee_client, table):
    post = entries(ending="empty:2")
    html = referee_client.post(reverse("tables:record", args=[table.pk]), post).content.decode()
    assert "An emptied hand is 0." in html
    assert Round.objects.count() == 0


def test_a_round_after_the_end_is_refused(referee_client, table, referee):
    dirk_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 45}, "yaniv": "Ann"}
    record(table.game, referee, *[dirk_45] * 4)  # Dirk: 45, 90, 135, 180
    response = referee_client.post(reverse("tables:record", args=[table.pk]), entries(number=5))
    assert response.status_code == 400
    assert "The game is already over." in response.content.decode()
    assert Round.objects.count() == 4


def test_a_second_device_submitting_other_entries_for_a_recorded_round_chooses_between_both(
    referee_client, table, referee
):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann", "along": []},
    )
    post = entries(number=1, hands=(4, 15, 4, 9))
    response = referee_client.post(reverse("tables:record", args=[table.pk]), post, headers=HTMX)
    html = response.content.decode()
    # Both versions side by side; nothing of the second device is stored as another round.
    assert "Round 1 was recorded twice, differently" in html
    # The same account's other phone is named as such, not by the account's own name.
    assert "Stored (by another phone of yours)" in html
    assert "Ann 3 (Yaniv), Bart 12, Chris 7, Dirk 20" in html
    assert "Ann 4 (Yaniv), Bart 15, Chris 4, Dirk 9" in html
    # Replacing is a correction of round 1 carrying the second device's entries.
    assert f'action="{reverse("tables:correct", args=[table.pk, 1])}"' in html
    assert '<input type="hidden" name="hand_2" value="15">' in html
    # The entry form is round 2's, empty: one more tap cannot store a round nobody played.
    assert 'name="number" value="2"' in html
    assert 'name="hand_2" value="15" ' not in html and 'value="15" class="hand"' not in html
    assert Round.objects.count() == 1


# --- preview --------------------------------------------------------------


def test_the_preview_explains_a_false_yaniv(referee_client, table):
    post = entries(hands=(6, 2, 8, 14), ending="yaniv:3")
    html = referee_client.post(reverse("tables:preview", args=[table.pk]), post, headers=HTMX)
    html = html.content.decode()
    assert "False Yaniv: Chris gets 32 + Dirk's 14 = 46" in html
    assert Round.objects.count() == 0


def test_the_preview_says_when_a_round_ends_the_game(referee_client, table, referee):
    record(
        table.game,
        referee,
        *[{"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 45}, "yaniv": "Ann", "along": []}]
        * 3,
    )
    post = entries(number=4, hands=(0, 1, 1, 20))
    html = referee_client.post(reverse("tables:preview", args=[table.pk]), post, headers=HTMX)
    assert "This round ends the game: Dirk is over 150." in html.content.decode()


def test_the_preview_waits_for_missing_entries(referee_client, table):
    post = {"number": 1, "hand_1": 3}
    html = referee_client.post(reverse("tables:preview", args=[table.pk]), post, headers=HTMX)
    assert "The preview appears once every hand and the ending are entered." in (
        html.content.decode()
    )


# --- access ---------------------------------------------------------------


def test_anonymous_users_cannot_record(client, table):
    response = client.post(reverse("tables:record", args=[table.pk]), entries())
    assert response.status_code == 403
    assert Round.objects.count() == 0


def test_a_referee_of_another_table_cannot_record(client, table):
    client.force_login(make_user("other"))
    response = client.post(reverse("tables:record", args=[table.pk]), entries(), headers=HTMX)
    assert response.status_code == 403
    assert Round.objects.count() == 0


def test_a_director_can_record_at_any_table_of_their_tournament(director_client, table):
    director_client.post(reverse("tables:record", args=[table.pk]), entries())
    assert Round.objects.count() == 1


def test_a_referee_cannot_record_once_the_session_is_finished(client, referee):
    table = make_table(referee=referee, session_status="finished")
    client.force_login(referee)
    response = client.post(reverse("tables:record", args=[table.pk]), entries())
    assert response.status_code == 403


# --- corrections, undo, end ----------------------------------------------


def test_the_correction_form_comes_prefilled(referee_client, table, referee):
    record(
        table.game,
        referee,
        {
            "hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20},
            "yaniv": "Ann",
            "along": ["Chris"],
        },
    )
    url = reverse("tables:correct", args=[table.pk, 1])
    html = referee_client.get(url, headers=HTMX).content.decode()
    assert 'name="hand_2" value="12"' in html
    assert 'value="yaniv:1" checked' in html
    assert 'name="along" value="3" checked' in html
    assert "<html" not in html


def test_the_correction_form_shows_the_totals_before_the_corrected_round(
    referee_client, table, referee
):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"},
        {"hands": {"Ann": 2, "Bart": 5, "Chris": 9, "Dirk": 1}, "yaniv": "Ann"},
    )
    assert totals(table) == [0, 17, 16, 21]
    html = referee_client.get(
        reverse("tables:correct", args=[table.pk, 2]), headers=HTMX
    ).content.decode()
    shown = re.findall(r'<span class="now seat-total">(\d+)</span>', html)
    assert shown == ["0", "12", "7", "20"]  # after round 1, not today's 0, 17, 16, 21
    first = referee_client.get(
        reverse("tables:correct", args=[table.pk, 1]), headers=HTMX
    ).content.decode()
    assert re.findall(r'<span class="now seat-total">(\d+)</span>', first) == ["0"] * 4


def test_a_correction_that_would_end_the_game_early_says_which_rounds_to_undo(
    referee_client, table, referee
):
    dirk_35 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 35}, "yaniv": "Ann"}
    record(table.game, referee, *[dirk_35] * 5)  # Dirk: 35, 70, 105, 140, 175: over
    table.game.refresh_from_db()
    assert table.game.finished
    # 50 in round 4 would have made Dirk 155 there, but round 5 was played after it.
    post = entries(number=4, hands=(0, 1, 1, 50), version=table.game.version, reason="oops")
    html = referee_client.post(reverse("tables:correct", args=[table.pk, 4]), post).content
    assert (
        "With this correction the game would be over after round 4, yet round 5 was played: "
        "undo it first."
    ) in html.decode()
    assert GameChange.objects.filter(action="correct").count() == 0


def test_a_correction_that_would_end_the_game_two_rounds_early_names_both(
    referee_client, table, referee
):
    def dirk(hand):
        return {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": hand}, "yaniv": "Ann"}

    # Dirk: 35, 70, 105, 125, 145, 155: over in round 6.
    record(table.game, referee, *map(dirk, (35, 35, 35, 20, 20, 10)))
    table.game.refresh_from_db()
    assert table.game.finished and table.game.round_count == 6
    post = entries(number=4, hands=(0, 1, 1, 50), version=table.game.version, reason="oops")
    html = referee_client.post(reverse("tables:correct", args=[table.pk, 4]), post).content
    assert (
        "With this correction the game would be over after round 4, yet rounds 5 to 6 were "
        "played: undo those first."
    ) in html.decode()


def test_the_entry_form_is_valid_html_and_its_endings_are_checkboxes(referee_client, table):
    html = referee_client.get(table.get_absolute_url()).content.decode()
    # `pattern` is not allowed on a number input.
    assert 'type="number"' in html and "pattern=" not in html
    # One tab stop per toggle: checkboxes, not one radio group across the seats.
    assert html.count('type="checkbox" name="ending"') == 8
    assert 'type="radio"' not in html


def test_two_endings_sent_at_once_are_refused_and_nothing_is_saved(referee_client, table):
    post = entries()
    post["ending"] = ["yaniv:1", "empty:2"]
    html = referee_client.post(reverse("tables:record", args=[table.pk]), post).content
    assert "Only one player calls Yaniv or empties their hand in a round." in html.decode()
    assert 'role="alert"' in html.decode()
    assert table.game.rounds.count() == 0


def test_a_correction_needs_a_reason_and_changes_nothing_without_one(
    referee_client, table, referee
):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann", "along": []},
    )
    post = entries(hands=(3, 38, 7, 20), version=table.game.version, reason="")
    url = reverse("tables:correct", args=[table.pk, 1])
    html = referee_client.post(url, post, headers=HTMX).content.decode()
    assert "Give a reason: it is kept in the history." in html
    assert totals(table) == [0, 12, 7, 20]


def test_a_correction_rescores_and_is_kept_in_the_history(referee_client, table, referee):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann", "along": []},
        {"hands": {"Ann": 2, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann", "along": []},
    )
    table.game.refresh_from_db()
    post = entries(hands=(3, 38, 7, 20), version=table.game.version, reason="Bart had 38")
    response = referee_client.post(
        reverse("tables:correct", args=[table.pk, 1]), post, headers=HTMX
    )
    assert response.headers.get("HX-Retarget") == "#live", response.content.decode()[-3000:]
    assert totals(table) == [0, 0, 14, 40]  # Bart 38 + 12 = 50 → 0
    change = GameChange.objects.get(action="correct")
    assert change.reason == "Bart had 38"
    assert change.before is not None and change.after is not None
    assert change.before["hands"]["Bart"] == 12 and change.after["hands"]["Bart"] == 38
    assert "Bart had 38" in referee_client.get(table.get_absolute_url()).content.decode()


def test_a_stale_correction_form_is_refused(referee_client, table, referee):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann", "along": []},
    )
    post = entries(hands=(3, 38, 7, 20), version=0, reason="late")
    html = referee_client.post(reverse("tables:correct", args=[table.pk, 1]), post).content
    assert "The sheet was changed since this form was opened" in html.decode()
    assert totals(table) == [0, 12, 7, 20]


def test_undo_removes_the_last_round_with_a_reason(referee_client, table, referee):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann", "along": []},
    )
    table.game.refresh_from_db()
    post = {"reason": "wrong table", "version": table.game.version}
    response = referee_client.post(reverse("tables:undo", args=[table.pk]), post)
    assert response.status_code == 302
    assert Round.objects.count() == 0
    assert GameChange.objects.filter(action="undo", reason="wrong table").count() == 1


def test_only_a_director_can_end_a_game_at_the_time_limit(referee_client, table):
    post = {"reason": "time", "version": table.game.version}
    assert referee_client.post(reverse("tables:end", args=[table.pk]), post).status_code == 403


def test_a_director_ends_the_game_and_the_page_names_the_winner(director_client, table, referee):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann", "along": []},
    )
    table.game.refresh_from_db()
    post = {"reason": "time limit", "version": table.game.version}
    response = director_client.post(reverse("tables:end", args=[table.pk]), post, headers=HTMX)
    html = response.content.decode()
    assert "Winner: <bdi>Ann</bdi>" in html
    assert "Ended at the time limit." in html
    # No entry form; a director may still add a round a phone held (issue 32, case 3).
    assert 'id="round-form"' not in html and "Add a round a phone still held" in html


def _queries_to_record(client, table, number):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    post = entries(number=number, hands=(0, 1, 1, 1))
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("tables:record", args=[table.pk]), post, headers=HTMX)
    assert response.status_code == 200
    assert Round.objects.filter(game=table.game, number=number).exists()
    return len(queries)


def test_submitting_a_round_costs_the_same_queries_after_one_or_eleven_rounds(
    referee_client, table, referee
):
    small = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 1}, "yaniv": "Ann"}
    record(table.game, referee, small)
    after_one = _queries_to_record(referee_client, table, 2)
    record(table.game, referee, *[small] * 9)
    after_eleven = _queries_to_record(referee_client, table, 12)
    assert after_one == after_eleven
    # Read once, written once: the table; the seats locked and parsed against, the round,
    # its hands, the seats' totals, the game and the audit entry (in a savepoint here); the
    # answer's sheet of those seats (who withdrew, the hands, the rounds), the history and
    # the disputes, and the account and its director's rights.
    assert after_eleven <= 16


def test_deleting_a_table_deletes_its_game_and_rounds(table, referee):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"},
    )
    table.delete()
    assert Round.objects.count() == 0
    assert GameChange.objects.count() == 0


WRITE_URLS = [
    ("post", "tables:preview", ()),
    ("post", "tables:record", ()),
    ("get", "tables:correct", (1,)),
    ("post", "tables:correct", (1,)),
    ("post", "tables:undo", ()),
    ("post", "tables:end", ()),
    ("post", "tables:sign_off", ()),
]


@pytest.fixture
def played_table(table, referee):
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"},
    )
    return table


@pytest.mark.parametrize(("method", "name", "args"), WRITE_URLS)
def test_anonymous_visitors_are_refused_every_write(client, played_table, method, name, args):
    url = reverse(name, args=[played_table.pk, *args])
    assert getattr(client, method)(url, entries(number=2)).status_code == 403
    assert Round.objects.count() == 1


@pytest.mark.parametrize(("method", "name", "args"), WRITE_URLS)
def test_a_logged_in_player_without_a_role_is_refused_every_write(
    client, played_table, method, name, args
):
    client.force_login(make_user("player"))
    url = reverse(name, args=[played_table.pk, *args])
    assert getattr(client, method)(url, entries(number=2), headers=HTMX).status_code == 403
    assert Round.objects.count() == 1


@pytest.mark.parametrize(("method", "name", "args"), WRITE_URLS)
def test_every_write_of_a_private_tournament_is_404_for_strangers(client, method, name, args):
    table = make_table(tournament=make_tournament(is_public=False))
    client.force_login(make_user("stranger"))
    url = reverse(name, args=[table.pk, *args])
    assert getattr(client, method)(url, entries()).status_code == 404


# --- sign-off -----------------------------------------------------------------

DIRK_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 45}, "yaniv": "Ann"}


def test_the_referee_signs_off_a_finished_sheet(referee_client, table, referee):
    record(table.game, referee, *[DIRK_45] * 4)
    table.game.refresh_from_db()
    post = {"version": table.game.version}
    response = referee_client.post(reverse("tables:sign_off", args=[table.pk]), post, headers=HTMX)
    assert f"Signed off by {referee.username}" in response.content.decode()
    table.game.refresh_from_db()
    assert table.game.signed_off_by == referee
    assert GameChange.objects.filter(action="sign_off", user=referee).count() == 1


def test_the_referee_signs_off_after_the_session_is_finished(referee_client, table, referee):
    # Issue 33.6: the director finished the session while the players checked the sheet;
    # the referee could not sign it any more.
    record(table.game, referee, *[DIRK_45] * 4)
    table.session.status = Session.Status.FINISHED
    table.session.save(update_fields=["status"])
    page = referee_client.get(reverse("tables:detail", args=[table.pk])).content.decode()
    assert "Sign off the sheet" in page
    table.game.refresh_from_db()
    post = {"version": table.game.version}
    response = referee_client.post(reverse("tables:sign_off", args=[table.pk]), post, headers=HTMX)
    assert f"Signed off by {referee.username}" in response.content.decode()
    table.game.refresh_from_db()
    assert table.game.signed_off_by == referee
    # Entry stays closed: signing is all the referee may still do.
    recorded = referee_client.post(reverse("tables:record", args=[table.pk]), entries())
    assert recorded.status_code == 403


def test_another_referee_cannot_sign_off_a_finished_session_s_sheet(client, table, referee):
    record(table.game, referee, *[DIRK_45] * 4)
    table.session.status = Session.Status.FINISHED
    table.session.save(update_fields=["status"])
    client.force_login(make_user("other-referee"))
    table.game.refresh_from_db()
    post = {"version": table.game.version}
    assert client.post(reverse("tables:sign_off", args=[table.pk]), post).status_code == 403
    table.game.refresh_from_db()
    assert table.game.signed_off_at is None


def test_an_unfinished_game_cannot_be_signed_off(referee_client, table, referee):
    record(table.game, referee, DIRK_45)
    table.game.refresh_from_db()
    response = referee_client.post(
        reverse("tables:sign_off", args=[table.pk]), {"version": table.game.version}
    )
    assert response.status_code == 400
    assert "Only a finished game can be signed off." in response.content.decode()


def test_after_sign_off_the_referee_can_no_longer_correct(referee_client, table, referee):
    record(table.game, referee, *[DIRK_45] * 4)
    table.game.refresh_from_db()
    table.game.sign_off(by=referee, version=table.game.version)
    post = entries(hands=(0, 2, 1, 45), version=table.game.version, reason="late fix")
    response = referee_client.post(reverse("tables:correct", args=[table.pk, 1]), post)
    assert response.status_code == 403
    # The page says why, not only "not allowed".
    assert "The sheet is signed off: only a director changes it." in response.content.decode()
    assert GameChange.objects.filter(action="correct").count() == 0


def test_after_sign_off_a_director_still_corrects_with_a_reason(
    director_client, director, table, referee
):
    record(table.game, referee, *[DIRK_45] * 4)
    table.game.refresh_from_db()
    table.game.sign_off(by=referee, version=table.game.version)
    post = entries(hands=(0, 2, 1, 45), version=table.game.version, reason="Bart had 2")
    response = director_client.post(reverse("tables:correct", args=[table.pk, 1]), post)
    assert response.status_code == 302
    assert totals(table) == [0, 5, 4, 180]
    assert GameChange.objects.get(action="correct").user == director


# --- flaky phones and database outages ----------------------------------------------


def test_a_retried_identical_submission_stores_one_round_and_answers_like_a_success(
    referee_client, table
):
    url = reverse("tables:record", args=[table.pk])
    first = referee_client.post(url, entries(along=(3,)), headers=HTMX)
    retry = referee_client.post(url, entries(along=(3,)), headers=HTMX)
    assert Round.objects.count() == 1
    assert retry.status_code == 200
    assert "was just recorded" not in retry.content.decode()
    assert (
        "Record round 2" in retry.content.decode() and "Record round 2" in first.content.decode()
    )


def test_a_different_round_under_the_same_number_is_still_a_conflict(referee_client, table):
    url = reverse("tables:record", args=[table.pk])
    referee_client.post(url, entries(), headers=HTMX)
    other = referee_client.post(url, entries(hands=(3, 12, 7, 21)), headers=HTMX)
    assert "Round 1 was recorded twice, differently" in other.content.decode()
    assert Round.objects.count() == 1


def test_a_database_outage_answers_not_saved_try_again(referee_client, table, monkeypatch):
    from django.db import OperationalError

    from tournaments.models import Game

    def outage(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(Game, "record", outage)
    response = referee_client.post(
        reverse("tables:record", args=[table.pk]), entries(), headers=HTMX
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Not saved: try again" in response.content.decode()
    assert Round.objects.count() == 0


def test_a_round_saved_just_before_the_database_drops_is_reported_as_saved(
    referee_client, table, monkeypatch
):
    from django.db import OperationalError

    from tournaments import table_page

    def dropped(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(table_page, "answer", dropped)
    response = referee_client.post(
        reverse("tables:record", args=[table.pk]), entries(), headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Round 1 is saved." in html and 'data-hx-trigger="every 3s"' in html
    assert Round.objects.count() == 1


# --- the phones' polls of a table ---------------------------------------------------------------


ANN_WINS = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 1}, "yaniv": "Ann"}


def poll(client, table, since, clock=""):
    url = reverse("tables:detail", args=[table.pk])
    return client.get(url, {"part": "sheet", "since": since, "clock": clock}, headers=HTMX)


def test_an_unchanged_poll_of_a_public_table_answers_204_in_one_query(
    client, table, referee, django_assert_num_queries
):
    record(table.game, referee, ANN_WINS)
    table.game.refresh_from_db()
    with django_assert_num_queries(1):
        assert poll(client, table, table.game.version).status_code == 204


def test_a_poll_a_version_behind_gets_the_sheet(client, table, referee):
    before = table.game.version
    record(table.game, referee, ANN_WINS)
    response = poll(client, table, before)
    assert response.status_code == 200 and 'id="sheet"' in response.content.decode()
    assert poll(client, table, "not a number").status_code == 200


def test_a_poll_whose_clock_changed_gets_the_sheet(client, table):
    session = table.session
    session.time_limit = 60
    session.save(update_fields=["time_limit"])
    version = table.game.version
    assert poll(client, table, version).status_code == 200  # the clock now waits: "w60"
    assert poll(client, table, version, clock="w60").status_code == 204


def test_a_poll_of_a_private_tables_sheet_is_not_found_whatever_its_version(client):
    hidden = make_table(tournament=make_tournament(slug="hidden", is_public=False))
    assert poll(client, hidden, hidden.game.version).status_code == 404
