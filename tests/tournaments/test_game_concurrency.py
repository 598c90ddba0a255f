"""Two devices changing one game at the same moment, on real PostgreSQL row locks.

Each thread has its own database connection and its own Game instance, fetched
in the thread; a barrier releases them together. SQLite serialises writers
(and may answer "database is locked"), so these tests only run on PostgreSQL.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connection, transaction

from scoring import rules
from tests.factories import entries, make_table, make_tournament, make_user, record
from tournaments.models import Game, GameChange, Hand, Round, RoundConflict, SheetChanged

pytestmark = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL's row locks: SQLite serialises writers",
    ),
    pytest.mark.django_db(transaction=True),
]

# How long a thread keeps the game row locked before it goes on, so that the
# other thread surely arrives while the lock is held.
HOLD_SECONDS = 0.3


def yaniv(caller: str, hands: dict[str, int], along: tuple[str, ...] = ()) -> dict:
    return {"hands": dict(hands), "yaniv": caller, "along": list(along)}


OPENING = [
    yaniv("Ann", {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}),
    yaniv("Bart", {"Ann": 8, "Bart": 2, "Chris": 11, "Dirk": 6}),
]


@pytest.fixture
def hold_the_lock(monkeypatch):
    """Each state change sleeps a little right after it has locked the game row."""
    locked = Game._locked

    def slow_locked(self, *args, **kwargs):
        game = locked(self, *args, **kwargs)
        time.sleep(HOLD_SECONDS)
        return game

    monkeypatch.setattr(Game, "_locked", slow_locked)


# An action of `run_together`: called with the `go` function, returns its outcome.
Action = Callable[[Callable[[], object]], object]


def run_together(*actions: Action) -> list[object]:
    """Run each action in its own thread, all at once: what each returned or raised.

    An action is called with a `go` function to call once it is ready (its game
    fetched), so that the threads start their change at the same moment.
    """
    barrier = threading.Barrier(len(actions))
    outcomes: list[object] = [None] * len(actions)

    def run(index: int, action: Action) -> None:
        try:
            outcomes[index] = action(lambda: barrier.wait(timeout=10))
        except BaseException as error:  # reported to the test
            outcomes[index] = error
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(index, action)) for index, action in enumerate(actions)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


@pytest.fixture
def referees(referee):
    """The accounts on the two devices: the table's referee and a second one."""
    return referee, make_user("referee_bart")


@pytest.fixture
def opening(game, referee) -> None:
    """The game's first two rounds, recorded by its referee."""
    record(game, referee, *OPENING)


@pytest.mark.usefixtures("opening")
def test_two_devices_recording_the_same_round_store_it_once_and_name_who_was_first(
    game, referees, hold_the_lock
):
    third = {
        referees[0]: yaniv("Chris", {"Ann": 9, "Bart": 4, "Chris": 1, "Dirk": 13}),
        referees[1]: yaniv("Dirk", {"Ann": 6, "Bart": 5, "Chris": 10, "Dirk": 2}),
    }

    def recorder(user):
        def action(go):
            mine = Game.objects.get(pk=game.pk)
            go()
            return mine.record_round(entries(third[user]), by=user, number=3)

        return action

    outcomes = run_together(*(recorder(user) for user in referees))

    stored = Round.objects.filter(game=game, number=3)
    assert stored.count() == 1
    winner = stored.get().entered_by
    assert winner is not None
    loser = next(user for user in referees if user != winner)
    by_user = dict(zip(referees, outcomes, strict=True))
    assert isinstance(by_user[winner], Round)
    conflict = by_user[loser]
    assert isinstance(conflict, RoundConflict), conflict
    assert str(conflict) == f"round 3 was just recorded by {winner.username}"
    assert conflict.existing.number == 3
    # The winner's entries are the ones kept, scored once, logged once.
    hands = Hand.objects.filter(round__game=game, round__number=3)
    assert {hand.seat.player.name: hand.hand_total for hand in hands} == third[winner]["hands"]
    changes = GameChange.objects.filter(game=game, action=GameChange.Action.RECORD)
    assert changes.count() == 3
    assert changes.get(round_number=3).user == winner
    assert Game.objects.get(pk=game.pk).version == 3


@pytest.mark.usefixtures("opening")
def test_two_corrections_from_the_same_sheet_version_apply_once(game, referees, hold_the_lock):
    seen = game.version
    corrected = {
        referees[0]: yaniv("Ann", {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 30}),
        referees[1]: yaniv("Ann", {"Ann": 3, "Bart": 22, "Chris": 7, "Dirk": 20}),
    }

    def corrector(user):
        def action(go):
            mine = Game.objects.get(pk=game.pk)
            go()
            mine.correct_round(
                1,
                entries(corrected[user]),
                by=user,
                reason=f"{user.username} saw a typo",
                version=seen,
            )
            return "applied"

        return action

    outcomes = run_together(*(corrector(user) for user in referees))

    applied = [
        user for user, outcome in zip(referees, outcomes, strict=True) if outcome == "applied"
    ]
    refused = [outcome for outcome in outcomes if isinstance(outcome, SheetChanged)]
    assert len(applied) == 1, outcomes
    assert len(refused) == 1, outcomes
    winner = applied[0]
    game = Game.objects.get(pk=game.pk)
    assert game.version == seen + 1
    correction = GameChange.objects.get(game=game, action=GameChange.Action.CORRECT)
    assert correction.user == winner
    assert correction.after == corrected[winner]
    # The stored rounds and their cached numbers are the winner's correction's.
    sheet = game.rows()
    assert sheet.entries(sheet.rounds[0]) == entries(corrected[winner])
    expected = rules.score_game(
        rules.Game(sheet.players, (entries(corrected[winner]), entries(OPENING[1])))
    )
    assert {seat.player.name: seat.total for seat in sheet.seats} == dict(expected.totals)


def test_recording_at_one_table_does_not_wait_for_another_table_of_the_tournament(
    referees,
):
    tournament = make_tournament()
    first = make_table(tournament=tournament).game
    second = make_table(tournament=tournament).game
    holding, done = threading.Event(), threading.Event()

    def record_and_hold(go):
        # Table 1's round is recorded in a transaction that is still open.
        mine = Game.objects.get(pk=first.pk)
        go()
        with transaction.atomic():
            mine.record_round(entries(OPENING[0]), by=referees[0], number=1)
            holding.set()
            done.wait(timeout=10)
        return "held"

    def record_meanwhile(go):
        mine = Game.objects.get(pk=second.pk)
        go()
        try:
            assert holding.wait(timeout=10)
            with connection.cursor() as cursor:
                # Waiting at all for another table's lock is the failure.
                cursor.execute("SET lock_timeout = '2s'")
            return mine.record_round(entries(OPENING[0]), by=referees[1], number=1)
        finally:
            done.set()

    outcomes = run_together(record_and_hold, record_meanwhile)

    assert outcomes[0] == "held"
    assert isinstance(outcomes[1], Round), outcomes[1]
    assert Round.objects.filter(game__in=[first, second], number=1).count() == 2
