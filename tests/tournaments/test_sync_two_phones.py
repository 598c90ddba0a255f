"""Two phones of one referee meeting in the sync (issue 32): a round the other phone stores
while this phone's request is on its way is that round, and the answer says so."""

from __future__ import annotations

import pytest

from tests.factories import record
from tests.tournaments.test_sync import ANN_CALLS, change, sync
from tournaments.models import Game, GameChange, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_phone_first(monkeypatch, referee):
    """The other phone stores Ann's round 1 between this request's entry form (checked
    against the seats as they were) and its write (which locks them)."""
    record_change = Game.record

    def racing(self, change, **options):
        monkeypatch.setattr(Game, "record", record_change)
        record(Game.objects.get(pk=self.pk), referee, ANN_CALLS)
        return record_change(self, change, **options)

    monkeypatch.setattr(Game, "record", racing)


def test_a_round_the_other_phone_stored_meanwhile_is_answered_same_not_stored(
    referee_client, table, other_phone_first
):
    """Answered "stored", the phone would count the change among its own stored ones (the
    `mine` it posts), and the server would then take another phone's round for its own."""
    sent = change(version=0, known=0)
    status, answer = sync(referee_client, table, sent)
    assert (status, answer["status"], answer["version"]) == (200, "same", 1)
    assert Round.objects.count() == 1
    assert not GameChange.objects.filter(client_id=sent["client_id"]).exists()


def test_a_round_stored_by_this_request_is_answered_stored(referee_client, table):
    status, answer = sync(referee_client, table, change(version=0, known=0))
    assert (status, answer) == (200, {"status": "stored", "version": 1})


BART_EMPTIES = {"hands": {"Ann": 10, "Bart": 0, "Chris": 3, "Dirk": 12}, "empty_hand": "Bart"}


@pytest.mark.parametrize("another", [False, True])
def test_a_round_replaced_with_entries_the_other_phone_stored_as_another_round_is_refused(
    referee_client, table, referee, another
):
    """The first phone typed Ann's round as round 1; the other stored Bart's as round 1 and
    Ann's as round 2. "Replace round 1 with mine" would store Ann's round twice: it is
    already stored as round 2, unless the referee says it is another round."""
    record(table.game, referee, BART_EMPTIES, ANN_CALLS)
    extra = {"another": "1"} if another else {}
    sent = change(action="correct", reason="the phone had it right", version=2, known=0, **extra)
    status, answer = sync(referee_client, table, sent)
    table.game.refresh_from_db()
    rows = table.game.rows()
    stored = [dict(rows.entries(each).hands) for each in rows.rounds]
    if another:
        assert (status, answer["status"]) == (200, "stored")
        assert stored == [ANN_CALLS["hands"], ANN_CALLS["hands"]]
    else:
        assert (status, answer["status"], answer["number"]) == (200, "already", 2)
        assert "Already stored as round 2 (from another phone)" in answer["html"]
        assert stored == [BART_EMPTIES["hands"], ANN_CALLS["hands"]]
        assert table.game.version == 2
        assert not GameChange.objects.filter(action="correct").exists()


def test_a_correction_on_the_sheet_as_stored_is_stored(referee_client, table, referee):
    record(table.game, referee, BART_EMPTIES, ANN_CALLS)
    sent = change(action="correct", number=2, reason="Ann had 4", version=2, known=2)
    sent["hand_1"] = 4
    status, answer = sync(referee_client, table, sent)
    assert (status, answer["status"]) == (200, "stored")
