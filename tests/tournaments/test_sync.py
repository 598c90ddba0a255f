"""A device's outbox, sent one change at a time: stored once, conflicts chosen, never guessed."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import rules
from tests.factories import make_table, make_user, record
from tournaments.models import GameChange, Round, Session

pytestmark = pytest.mark.django_db

ANN_CALLS = {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}


def change(
    action="record",
    client_id=None,
    number=1,
    hands=(3, 12, 7, 20),
    ending="yaniv:1",
    along=(),
    **extra,
):
    """An outbox entry as the table page's script posts it."""
    data = {"action": action, "client_id": str(client_id or uuid.uuid4()), **extra}
    if action != "undo":
        data.update(number=number, ending=ending, along=[str(p) for p in along])
        data.update({f"hand_{seat}": hand for seat, hand in enumerate(hands, start=1)})
    return data


def sync(client, table, data):
    response = client.post(reverse("tables:sync", args=[table.pk]), data)
    return response.status_code, response.json()


def test_a_round_from_the_outbox_is_stored_with_its_client_id(referee_client, table):
    sent = uuid.uuid4()
    status, answer = sync(referee_client, table, change(client_id=sent))
    assert (status, answer) == (200, {"status": "stored", "version": 1})
    assert GameChange.objects.get(action="record").client_id == sent
    table.refresh_from_db()
    assert {seat.player.name: seat.total for seat in table.seats.all()} == {
        "Ann": 0,
        "Bart": 12,
        "Chris": 7,
        "Dirk": 20,
    }


def test_the_same_change_sent_again_is_stored_once_and_answered_as_done(referee_client, table):
    sent = change()
    first = sync(referee_client, table, sent)
    again = sync(referee_client, table, sent)
    assert first == (200, {"status": "stored", "version": 1})
    assert again == (200, {"status": "replayed", "version": 1})
    assert Round.objects.count() == 1 and GameChange.objects.count() == 1


def test_the_same_round_typed_on_a_second_phone_is_the_same_round(client, table, referee):
    record(table.game, referee, {**ANN_CALLS, "along": []})
    other = make_user("other-director")
    table.session.tournament.directors.add(other)
    client.force_login(other)
    assert sync(client, table, change()) == (200, {"status": "same", "version": 1})
    assert Round.objects.count() == 1


def test_other_entries_for_a_taken_round_are_a_conflict_and_nothing_is_stored(
    referee_client, table, referee
):
    record(table.game, referee, {**ANN_CALLS, "along": []})
    status, answer = sync(referee_client, table, change(hands=(4, 15, 4, 9)))
    assert status == 409
    assert answer["status"] == "conflict" and answer["version"] == 1
    assert "Round 1 was recorded twice, differently" in answer["html"]
    assert "Ann 4 (Yaniv), Bart 15, Chris 4, Dirk 9" in answer["html"]
    assert Round.objects.count() == 1
    assert Round.objects.get().hands.get(seat__position=2).hand_total == 12


def test_a_correction_made_on_an_older_sheet_is_stale_and_changes_nothing(
    referee_client, table, referee
):
    record(table.game, referee, {**ANN_CALLS, "along": []}, {**ANN_CALLS, "along": []})
    stale = change("correct", number=1, hands=(3, 14, 7, 20), reason="Bart had 14", version=1)
    status, answer = sync(referee_client, table, stale)
    assert status == 409 and answer["status"] == "stale" and answer["version"] == 2
    assert Round.objects.get(number=1).hands.get(seat__position=2).hand_total == 12


def test_a_correction_and_an_undo_from_the_outbox_apply_once(referee_client, table, referee):
    record(table.game, referee, {**ANN_CALLS, "along": []}, {**ANN_CALLS, "along": []})
    correction = change("correct", number=1, hands=(3, 14, 7, 20), reason="Bart 14", version=2)
    assert sync(referee_client, table, correction) == (200, {"status": "stored", "version": 3})
    # Sent again (the answer was lost): applied once, and the stored game comes with the
    # answer, since the phone's copy is behind it.
    status, again = sync(referee_client, table, correction)
    assert (status, again["status"], again["version"]) == (200, "replayed", 3)
    assert again["state"]["rounds"][0]["hands"]["Bart"] == 14
    undo = change("undo", reason="round 2 was not played", version=3)
    assert sync(referee_client, table, undo) == (200, {"status": "stored", "version": 4})
    status, again = sync(referee_client, table, undo)
    assert (status, again["status"], again["version"]) == (200, "replayed", 4)
    assert len(again["state"]["rounds"]) == 1
    assert list(Round.objects.values_list("number", flat=True)) == [1]
    assert Round.objects.get().hands.get(seat__position=2).hand_total == 14
    assert GameChange.objects.filter(action="undo").count() == 1


def test_entries_the_rules_refuse_are_refused_with_the_reason(referee_client, table):
    status, answer = sync(referee_client, table, change(hands=(9, 12, 7, 20)))
    assert status == 200  # a false Yaniv is a round under the Belgian rules
    status, answer = sync(referee_client, table, change(number=2, hands=(3, 51, 7, 20)))
    assert status == 400 and answer["status"] == "refused"
    assert "Bart's hand must be a whole number from 0 to 50." in answer["message"]
    assert Round.objects.count() == 1


def test_a_signed_off_sheet_refuses_the_referees_outbox_and_keeps_nothing(
    referee_client, table, referee
):
    dirk_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 45}, "yaniv": "Ann"}
    record(table.game, referee, *[dirk_45] * 4)
    table.game.sign_off(by=make_user("dir"), version=table.game.version)
    status, answer = sync(referee_client, table, change(number=5))
    assert status == 403 and answer["status"] == "closed"
    assert Round.objects.count() == 4


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_strangers_cannot_send_changes(client, table, who):
    if who == "stranger":
        client.force_login(make_user("stranger"))
    status, answer = sync(client, table, change())
    assert status == 403 and answer["status"] == "closed"
    assert Round.objects.count() == 0


def test_a_private_tables_sync_is_not_found_for_strangers(client):
    table = make_table(tournament=None)
    tournament = table.session.tournament
    tournament.is_public = False
    tournament.save()
    response = client.post(reverse("tables:sync", args=[table.pk]), change())
    assert response.status_code == 404
    assert Round.objects.count() == 0


def test_a_change_without_a_client_id_is_refused(referee_client, table):
    data = change()
    del data["client_id"]
    status, answer = sync(referee_client, table, data)
    assert status == 400 and answer["status"] == "refused"
    assert Round.objects.count() == 0


def test_the_database_keeps_each_client_id_once(table, referee):
    from django.db import IntegrityError, transaction

    sent = uuid.uuid4()
    record(table.game, referee, {**ANN_CALLS, "along": []})
    GameChange.objects.filter(action="record").update(client_id=sent)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameChange.objects.create(
            game=table.game, action="record", round_number=2, version=2, client_id=sent
        )


@pytest.mark.django_db(transaction=True)
def test_a_round_from_the_outbox_costs_ten_queries_in_round_2_and_in_round_40(
    referee_client, table, referee
):
    """BEGIN and COMMIT included: the user, the table, the game and its seats locked and read
    in one query, the round, its hands, the seats' totals, the game and the audit log."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 1}, "yaniv": "Ann"}
    counts = []
    for played in (1, 39):
        record(table.game, referee, *[small] * (played - table.game.rounds.count()))
        data = change(number=played + 1, hands=(0, 1, 1, 1))
        referee_client.get(reverse("tables:detail", args=[table.pk]))  # the session cached
        with CaptureQueriesContext(connection) as queries:
            status, answer = sync(referee_client, table, data)
        assert (status, answer["status"]) == (200, "stored")
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 10


# --- a round typed offline, sent after the session's time limit ------------------------------


def time_ran_out(table, minutes_ago: float) -> None:
    """The session's 90 minutes ran out `minutes_ago` (the tournament's rule: the round being
    played at the limit is the last)."""
    Session.objects.filter(pk=table.session_id).update(
        status=Session.Status.RUNNING,
        time_limit=90,
        clock_started_at=timezone.now() - timedelta(minutes=90 + minutes_ago),
    )


def test_a_round_typed_offline_before_the_time_limit_counts_as_played_before_it(
    referee_client, table
):
    time_ran_out(table, minutes_ago=1)
    # The phone typed round 1 three minutes ago, before the limit, and sends it only now.
    status, answer = sync(referee_client, table, change(typed_ago_ms=180_000))
    assert (status, answer["status"]) == (200, "stored")
    game = table.game
    game.refresh_from_db()
    assert not game.finished
    typed = timezone.now() - Round.objects.get(game=game, number=1).entered_at
    assert timedelta(minutes=3) <= typed < timedelta(minutes=3, seconds=10)
    # Round 2, typed after the limit, is the round being played at it: the last.
    status, answer = sync(referee_client, table, change(number=2, typed_ago_ms=1_000))
    assert (status, answer["status"]) == (200, "stored")
    game.refresh_from_db()
    assert game.finished and game.ended_at_time_limit and game.round_count == 2


def test_the_same_round_sent_without_its_typing_time_is_the_round_at_the_limit(
    referee_client, table
):
    time_ran_out(table, minutes_ago=1)
    assert sync(referee_client, table, change())[1]["status"] == "stored"
    table.game.refresh_from_db()
    assert table.game.finished and table.game.ended_at_time_limit


def test_a_typing_time_dates_a_round_back_six_hours_at_most(referee_client, table):
    ten_days = 10 * 24 * 3600 * 1000
    assert sync(referee_client, table, change(typed_ago_ms=ten_days))[1]["status"] == "stored"
    typed = timezone.now() - Round.objects.get(game=table.game, number=1).entered_at
    assert timedelta(hours=6) <= typed < timedelta(hours=6, seconds=10)
    refused = sync(referee_client, table, change(number=2, typed_ago_ms=-5))
    assert refused[0] == 400 and Round.objects.count() == 1


# --- the version a round was typed on ------------------------------------------------------


def test_a_round_typed_on_the_current_sheet_under_a_stored_number_is_a_conflict_not_the_same(
    referee_client, table, referee
):
    """The phone knew the sheet at version 1 (round 1 stored) and still sends its round as
    round 1: its numbering is behind, not another device's round. Even with the same entries it
    is shown as a choice, never answered "already stored"."""
    record(table.game, referee, ANN_CALLS)
    status, answer = sync(referee_client, table, change(version=1))
    assert status == 409 and answer["status"] == "conflict"
    assert answer["state"]["version"] == 1 and len(answer["state"]["rounds"]) == 1
    assert "Mine is another round: record it as round 2" in answer["html"]
    assert Round.objects.count() == 1


def test_the_same_round_from_another_phone_typed_on_an_older_sheet_is_stored_once(
    referee_client, table, referee
):
    record(table.game, referee, ANN_CALLS)
    status, answer = sync(referee_client, table, change(version=0))
    assert (status, answer["status"], answer["version"]) == (200, "same", 1)
    assert answer["state"]["rounds"] == [{**ANN_CALLS, "along": []}]
    assert Round.objects.count() == 1


def test_a_phone_in_step_gets_no_copy_of_the_game_and_one_behind_gets_it(
    referee_client, table, referee
):
    first = sync(referee_client, table, change(version=0))
    assert first == (200, {"status": "stored", "version": 1})
    # Another device corrects round 1 (version 2); this phone, still at version 1, stores its
    # round 2: its copy would miss the correction, so the answer carries the stored game.
    game = table.game
    game.refresh_from_db()
    corrected = {"hands": {"Ann": 3, "Bart": 2, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}
    game.correct_round(
        1, rules_round(corrected), by=referee, reason="Bart had 2", version=game.version
    )
    status, answer = sync(referee_client, table, change(number=2, version=1))
    assert (status, answer["status"], answer["version"]) == (200, "stored", 3)
    assert [entry["hands"]["Bart"] for entry in answer["state"]["rounds"]] == [2, 12]


def test_a_conflict_by_the_same_account_names_another_phone_of_yours(
    referee_client, table, referee
):
    record(table.game, referee, ANN_CALLS)
    status, answer = sync(referee_client, table, change(hands=(3, 14, 7, 20), version=0))
    assert status == 409 and answer["status"] == "conflict"
    assert "Stored (by another phone of yours)" in answer["html"]
    assert "ref-anna" not in answer["html"]


# --- a phone whose access ended: why, in words -------------------------------------------


def test_a_logged_out_referees_phone_is_told_it_is_no_longer_logged_in(client, table):
    status, answer = sync(client, table, change())
    assert status == 403 and answer["status"] == "closed"
    assert "no longer logged in" in answer["message"]


def test_a_check_writes_nothing_and_says_nothing_is_wrong_while_access_holds(
    referee_client, table
):
    status, answer = sync(referee_client, table, {"action": "check"})
    assert status == 400 and answer["status"] == "refused"
    assert Round.objects.count() == 0


def rules_round(entry):
    return rules.Round(**entry)


# --- one round, two phones: equal entries stored since the sheet it was typed on ---------

BART_CALLS = {"hands": {"Ann": 9, "Bart": 2, "Chris": 11, "Dirk": 5}, "yaniv": "Bart"}
# BART_CALLS as the page posts it.
BART_POSTED = {"hands": (9, 2, 11, 5), "ending": "yaniv:2"}
ANN_FIRST = {"hands": {"Ann": 1, "Bart": 8, "Chris": 9, "Dirk": 9}, "yaniv": "Ann"}


def test_a_round_equal_to_one_another_phone_stored_since_is_already_stored_as_that_round(
    referee_client, table, referee
):
    """The phone knew the sheet at version 1; another phone stored round 2 since, with the
    same entries as the phone's waiting round, which the phone now sends as round 3 (it moved
    after a choice): the same round, answered "already stored as round 2", nothing stored."""
    record(table.game, referee, ANN_CALLS, BART_CALLS)
    status, answer = sync(
        referee_client, table, change(number=3, version=2, known=1, **BART_POSTED)
    )
    assert (status, answer["status"], answer["number"], answer["version"]) == (
        200,
        "already",
        2,
        2,
    )
    assert "Already stored as round 2 (from another phone)" in answer["html"]
    assert "This is another round: record it as round 3" in answer["html"]
    assert Round.objects.count() == 2


def test_equal_entries_the_referee_says_are_another_round_are_stored(
    referee_client, table, referee
):
    record(table.game, referee, ANN_CALLS, BART_CALLS)
    sent = change(number=3, version=2, known=1, another="1", **BART_POSTED)
    assert sync(referee_client, table, sent) == (200, {"status": "stored", "version": 3})
    assert list(Round.objects.values_list("number", flat=True)) == [1, 2, 3]


def test_the_phones_own_rounds_stored_since_are_not_compared(referee_client, table, referee):
    """Two rounds with the same entries typed on one phone, the first stored meanwhile: the
    phone names its own stored change (`mine`), and the second is a round of its own."""
    record(table.game, referee, ANN_CALLS)
    own = uuid.uuid4()
    first = change(client_id=own, number=2, version=1, known=1, **BART_POSTED)
    assert sync(referee_client, table, first) == (200, {"status": "stored", "version": 2})
    second = change(number=3, version=2, known=1, mine=[str(own)], **BART_POSTED)
    assert sync(referee_client, table, second) == (200, {"status": "stored", "version": 3})


def test_a_round_sent_again_after_it_was_stored_is_replayed_not_already_stored(
    referee_client, table, referee
):
    record(table.game, referee, ANN_CALLS)
    sent = change(number=2, version=1, known=1, **BART_POSTED)
    assert sync(referee_client, table, sent)[1]["status"] == "stored"
    # Another phone's round 3 since; the first phone's answer was lost and it sends again.
    record(table.game, referee, ANN_FIRST)
    status, answer = sync(referee_client, table, sent)
    assert (status, answer["status"]) == (200, "replayed")
    assert Round.objects.count() == 3


def test_a_conflict_lists_the_rounds_stored_since_the_phones_version(
    referee_client, table, referee
):
    """Case 1(b) of issue 32: the phone (at version 1) holds round 2 mistyped and round 3;
    another phone stored both rightly. The conflict on round 2 shows the stored rounds since,
    and the waiting round 3, when it comes, is already stored."""
    third = ANN_FIRST
    record(table.game, referee, ANN_CALLS, BART_CALLS, third)
    mistyped = change(number=2, version=1, known=1, hands=(9, 2, 11, 6), ending="yaniv:2")
    status, answer = sync(referee_client, table, mistyped)
    assert status == 409 and answer["status"] == "conflict"
    assert [each["number"] for each in answer["since"]] == [2, 3]
    assert answer["since"][1]["record"] == {**third, "along": []}
    assert "Stored since this phone last had the sheet (2 rounds)" in answer["html"]
    assert "Round 3: Ann 1 (Yaniv), Bart 8, Chris 9, Dirk 9" in answer["html"]
    # "Keep the stored round": the waiting round moves to number 4 on the page, and the
    # server does not trust the page to have noticed it is round 3.
    waiting = change(number=4, version=3, known=1, hands=(1, 8, 9, 9), ending="yaniv:1")
    status, answer = sync(referee_client, table, waiting)
    assert (status, answer["status"], answer["number"]) == (200, "already", 3)
    assert Round.objects.count() == 3


def test_the_entry_form_says_a_round_is_already_stored_and_stores_it_once(
    referee_client, table, referee
):
    """A phone without the script: its page drew round 2 at version 1; another phone
    stored round 2 and the same round as round 3 was typed here."""
    record(table.game, referee, ANN_CALLS, BART_CALLS)
    data = change(number=3, known=1, **BART_POSTED)
    del data["action"]
    response = referee_client.post(
        reverse("tables:record", args=[table.pk]), data, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "Already stored as round 2 (from another phone)" in response.text
    assert Round.objects.count() == 2
    data["another"] = "1"
    response = referee_client.post(reverse("tables:record", args=[table.pk]), data)
    assert response.status_code == 302 and Round.objects.count() == 3
