"""One route for a change (`tournaments.changes`): plain entries and what the phone knew in,
an outcome out; what is stored checked each time, and that a refusal stores nothing."""

from __future__ import annotations

import uuid

import pytest

from scoring.errors import GameError
from tests.factories import entries, record
from tournaments import changes
from tournaments.changes import Status
from tournaments.models import (
    AlreadyStored,
    GameChange,
    Player,
    Round,
    RoundChange,
    Seat,
    SheetChanged,
    TypedOn,
)

pytestmark = pytest.mark.django_db

ANN_CALLS = entries({"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"})
BART_EMPTIES = entries(
    {"hands": {"Ann": 10, "Bart": 0, "Chris": 3, "Dirk": 12}, "empty_hand": "Bart"}
)


def hands_of(game, number):
    return {
        hand.seat.player.name: hand.hand_total
        for hand in Round.objects.get(game=game, number=number).hands.select_related(
            "seat__player"
        )
    }


def test_a_new_round_is_stored_with_its_seats_as_the_write_left_them(game, referee):
    outcome = changes.record(game, RoundChange(ANN_CALLS, 1, uuid.uuid4()), by=referee)
    assert (outcome.status, outcome.version, outcome.saved) == (Status.STORED, 1, True)
    assert outcome.recorded is not None and outcome.recorded.round.number == 1
    assert {seat.player.name: seat.total for seat in outcome.seats} == {
        "Ann": 0,
        "Bart": 12,
        "Chris": 7,
        "Dirk": 20,
    }
    assert hands_of(game, 1) == dict(ANN_CALLS.hands)


def test_the_same_round_typed_on_another_phone_is_that_round_not_another(game, referee):
    changes.record(game, RoundChange(ANN_CALLS, 1, uuid.uuid4()), by=referee)
    outcome = changes.record(game, RoundChange(ANN_CALLS, 1, uuid.uuid4()), by=referee)
    assert (outcome.status, outcome.version, outcome.saved) == (Status.SAME, 1, True)
    assert Round.objects.filter(game=game).count() == 1


def test_a_change_sent_again_is_replayed_and_applied_once(game, referee):
    sent = RoundChange(ANN_CALLS, 1, uuid.uuid4())
    changes.record(game, sent, by=referee)
    outcome = changes.record(game, sent, by=referee)
    assert (outcome.status, outcome.version, outcome.saved) == (Status.REPLAYED, 1, True)
    assert GameChange.objects.filter(client_id=sent.client_id).count() == 1


def test_other_entries_under_a_stored_number_are_a_conflict_and_nothing_is_stored(game, referee):
    changes.record(game, RoundChange(ANN_CALLS, 1), by=referee)
    outcome = changes.record(game, RoundChange(BART_EMPTIES, 1, uuid.uuid4()), by=referee)
    assert (outcome.status, outcome.version, outcome.saved) == (Status.CONFLICT, 1, False)
    assert outcome.refused is not None and outcome.refused.existing.number == 1
    assert hands_of(game, 1) == dict(ANN_CALLS.hands)


def test_a_round_another_phone_stored_since_under_another_number_is_already_stored(game, referee):
    """This phone typed Ann's round on the empty sheet as its round 2 (its round 1 still
    waiting); the other phone stored Ann's round as round 1 meanwhile."""
    record(game, referee, {"hands": dict(ANN_CALLS.hands), "yaniv": "Ann"})
    typed = RoundChange(ANN_CALLS, 2, uuid.uuid4(), base=0, typed_on=TypedOn(known=0))
    outcome = changes.record(game, typed, by=referee)
    assert (outcome.status, outcome.version) == (Status.ALREADY, 1)
    assert isinstance(outcome.refused, AlreadyStored) and outcome.refused.number == 1
    assert Round.objects.filter(game=game).count() == 1


def test_the_referees_word_that_it_is_another_round_stores_it(game, referee):
    record(game, referee, {"hands": dict(ANN_CALLS.hands), "yaniv": "Ann"})
    typed = RoundChange(
        ANN_CALLS, 2, uuid.uuid4(), base=0, typed_on=TypedOn(known=0, another=True)
    )
    outcome = changes.record(game, typed, by=referee)
    assert (outcome.status, outcome.version) == (Status.STORED, 2)
    assert Round.objects.filter(game=game).count() == 2


def test_a_round_out_of_order_is_refused_with_the_engines_reason(game, referee):
    outcome = changes.record(game, RoundChange(ANN_CALLS, 3, uuid.uuid4()), by=referee)
    assert (outcome.status, outcome.version, outcome.saved) == (Status.REFUSED, 0, False)
    assert isinstance(outcome.why, GameError) and outcome.why.code == "rounds_in_order"
    assert not Round.objects.filter(game=game).exists()


def test_a_correction_on_an_older_sheet_is_stale_and_changes_nothing(game, referee):
    record(game, referee, {"hands": dict(ANN_CALLS.hands), "yaniv": "Ann"})
    outcome = changes.correct(
        game, 1, BART_EMPTIES, by=referee, reason="Bart emptied", version=0, client_id=None
    )
    assert (outcome.status, outcome.version) == (Status.STALE, 1)
    assert isinstance(outcome.why, SheetChanged)
    assert hands_of(game, 1) == dict(ANN_CALLS.hands)


def test_a_correction_on_the_stored_sheet_is_stored(game, referee):
    record(game, referee, {"hands": dict(ANN_CALLS.hands), "yaniv": "Ann"})
    outcome = changes.correct(game, 1, BART_EMPTIES, by=referee, reason="Bart emptied", version=1)
    assert (outcome.status, outcome.version) == (Status.STORED, 2)
    assert hands_of(game, 1) == dict(BART_EMPTIES.hands)


def test_an_undo_sent_again_is_replayed_and_takes_one_round_back(game, referee):
    record(game, referee, *[{"hands": dict(ANN_CALLS.hands), "yaniv": "Ann"}] * 2)
    sent = uuid.uuid4()
    first = changes.undo(game, by=referee, reason="typed twice", version=2, client_id=sent)
    again = changes.undo(game, by=referee, reason="typed twice", version=2, client_id=sent)
    assert (first.status, again.status, again.version) == (Status.STORED, Status.REPLAYED, 3)
    assert Round.objects.filter(game=game).count() == 1


def test_a_saved_change_has_no_reason_to_tell(game, referee):
    outcome = changes.record(game, RoundChange(ANN_CALLS, 1), by=referee)
    with pytest.raises(ValueError):
        outcome.why  # noqa: B018 - the property refuses


def test_entries_checked_against_seats_that_changed_before_the_write_are_refused(game, referee):
    """The form read Bart at seat 2; a substitution seated Zoe before the write locked the
    seats: the engine refuses the round, nothing is stored."""
    Seat.objects.filter(table=game.table, position=2).update(
        player=Player.objects.create(name="Zoe")
    )
    outcome = changes.record(game, RoundChange(ANN_CALLS, 1, uuid.uuid4()), by=referee)
    assert (outcome.status, outcome.saved) == (Status.REFUSED, False)
    assert isinstance(outcome.why, GameError)
    assert not Round.objects.filter(game=game).exists()
