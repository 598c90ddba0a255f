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
    """The other phone stores Ann's round 1 between this request's access check (which read
    the game) and its write (which locks it)."""
    record_parsed = Game.record_parsed

    def racing(self, parse, **options):
        monkeypatch.setattr(Game, "record_parsed", record_parsed)
        record(Game.objects.get(pk=self.pk), referee, ANN_CALLS)
        return record_parsed(self, parse, **options)

    monkeypatch.setattr(Game, "record_parsed", racing)


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
