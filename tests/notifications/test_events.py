"""Each event reaches the phones of the players it concerns, decrypted on the phone: the
right text, to the right phones only, once each."""

from __future__ import annotations

import datetime

import pytest

from hall.models import HallScreen
from notifications.models import Message, Subscription
from tests.factories import make_table, record
from tests.notifications.conftest import give_phone, player, run_tasks
from tournaments.models import Seat, Session

pytestmark = pytest.mark.django_db


def _draw(tournament, capture) -> Session:
    with capture(execute=True):
        return tournament.open_session("random", seed=7)


def _place(session: Session, name: str) -> tuple[int, int]:
    seat = Seat.objects.select_related("table").get(table__session=session, player__name=name)
    return seat.table.number, seat.position


def test_a_published_draw_tells_each_subscribed_player_their_table_and_seat_once(
    hall, vapid, push_service, django_capture_on_commit_callbacks
):
    ann = give_phone(push_service, hall, player(hall, "Ann"))
    bart = give_phone(push_service, hall, player(hall, "Bart"))
    session = _draw(hall, django_capture_on_commit_callbacks)
    assert run_tasks() == 1

    for phone, name in ((ann, "Ann"), (bart, "Bart")):
        table, position = _place(session, name)
        assert push_service.texts(phone) == [f"Session 1: table {table}, seat {position}"]
    assert {r.vapid_key for r in push_service.received} == {vapid}
    assert len(push_service.received) == 2
    # Told again (the same task run twice, a redraw seating them the same): nothing new.
    with django_capture_on_commit_callbacks(execute=True):
        session.seat(session.seated_draw(), Session.Seating.MANUAL)
    run_tasks()
    assert len(push_service.received) == 2


def test_a_move_that_changes_a_players_table_tells_that_player_only(
    hall, vapid, push_service, django_capture_on_commit_callbacks
):
    ann = give_phone(push_service, hall, player(hall, "Ann"))
    bart = give_phone(push_service, hall, player(hall, "Bart"))
    session = _draw(hall, django_capture_on_commit_callbacks)
    run_tasks()
    ann_table, _ = _place(session, "Ann")
    other = 2 if ann_table == 1 else 1
    with django_capture_on_commit_callbacks(execute=True):
        session.move_player(player(hall, "Ann").pk, other)
    run_tasks()

    table, position = _place(session, "Ann")
    assert table == other
    assert push_service.texts(ann)[1:] == [f"Session 1, changed: table {table}, seat {position}"]
    bart_texts = push_service.texts(bart)
    assert len(bart_texts) in (1, 2)
    if len(bart_texts) == 2:
        # Bart's seat number moved with the move: he hears his new seat, marked as a change.
        table, position = _place(session, "Bart")
        assert bart_texts[1].endswith(f"table {table}, seat {position}")


def test_a_move_before_the_first_message_went_sends_only_the_new_seat(
    hall, vapid, push_service, django_capture_on_commit_callbacks
):
    ann = give_phone(push_service, hall, player(hall, "Ann"))
    session = _draw(hall, django_capture_on_commit_callbacks)
    ann_table, _ = _place(session, "Ann")
    with django_capture_on_commit_callbacks(execute=True):
        session.move_player(player(hall, "Ann").pk, 2 if ann_table == 1 else 1)
    run_tasks()

    table, position = _place(session, "Ann")
    assert push_service.texts(ann) == [f"Session 1, changed: table {table}, seat {position}"]


ROUNDS = [
    {"hands": {"Ann": 0, "Bart": 40, "Chris": 30, "Dirk": 20}, "yaniv": "Ann"},
    {"hands": {"Ann": 0, "Bart": 40, "Chris": 30, "Dirk": 20}, "yaniv": "Ann"},
    {"hands": {"Ann": 0, "Bart": 40, "Chris": 30, "Dirk": 20}, "yaniv": "Ann"},
    {"hands": {"Ann": 0, "Bart": 40, "Chris": 30, "Dirk": 20}, "yaniv": "Ann"},
]


@pytest.fixture
def played(tournament, referee, vapid, push_service):
    """Table 1 with a phone for Ann and one for Chris (in Dutch); Bart and Dirk have none.
    The tournament goes on until today (its subscriptions end some days after)."""
    tournament.ends_on = datetime.date.today()
    tournament.save()
    table = make_table(referee=referee, tournament=tournament)
    phones = {
        "Ann": give_phone(push_service, tournament, table.seats.get(position=1).player),
        "Chris": give_phone(push_service, tournament, table.seats.get(position=3).player, "nl"),
    }
    return table, phones


def test_a_game_over_tells_each_player_their_place_and_points(
    played, referee, push_service, django_capture_on_commit_callbacks
):
    table, phones = played
    with django_capture_on_commit_callbacks(execute=True):
        record(table.game, referee, *ROUNDS[:3])
    assert run_tasks() == 0
    with django_capture_on_commit_callbacks(execute=True):
        record(table.game, referee, ROUNDS[3])
    run_tasks()

    assert table.game.finished
    assert push_service.texts(phones["Ann"]) == ["Game over: rank 1 of 4, with 0 points."]
    assert push_service.texts(phones["Chris"]) == ["Spel voorbij: rang 3 van 4, met 120 punten."]
    titles = {r.message["title"] for r in push_service.received}
    assert titles == {"Session 1, table 1", "Sessie 1, tafel 1"}
    assert len(push_service.received) == 2


def test_a_signed_off_sheet_and_a_corrected_round_are_told_at_that_table(
    played, referee, push_service, django_capture_on_commit_callbacks
):
    table, phones = played
    game = table.game
    record(game, referee, *ROUNDS)
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        game.correct_round(
            2,
            record_entries(ROUNDS[1], Bart=35),
            by=referee,
            reason="Bart had 35",
            version=game.version,
        )
    run_tasks()
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        game.sign_off(by=referee, version=game.version)
    run_tasks()

    assert push_service.texts(phones["Ann"]) == [
        "Round 2 was corrected: Bart 40 → 35.",
        "Your sheet was signed off: the result counts.",
    ]
    assert len(push_service.texts(phones["Chris"])) == 2


def record_entries(round_: dict, **changed: int):
    from tests.factories import entries

    return entries({**round_, "hands": {**round_["hands"], **changed}})


def test_an_answered_dispute_is_told_to_the_players_of_its_table(
    played, referee, director, push_service, django_capture_on_commit_callbacks
):
    table, phones = played
    game = table.game
    record(game, referee, ROUNDS[0])
    dispute = game.raise_dispute(1, "Dirk had 25", by=referee)
    with django_capture_on_commit_callbacks(execute=True):
        game.dismiss_dispute(dispute, "The sheet says 20, as Dirk agreed.", by=director)
    run_tasks()

    assert push_service.texts(phones["Ann"]) == [
        "The director answered: The sheet says 20, as Dirk agreed."
    ]


def test_the_hall_message_goes_to_the_phones_opted_in_to_announcements_only(
    played, tournament, push_service, django_capture_on_commit_callbacks
):
    table, phones = played
    announcements = give_phone(push_service, tournament, None, phone=phones["Ann"])
    screen = HallScreen.default(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        screen.set_up(message="Lunch is served in the bar")
    with django_capture_on_commit_callbacks(execute=True):
        # The same words again change nothing to tell.
        screen.set_up(message="Lunch is served in the bar")
    run_tasks()

    assert push_service.texts(announcements) == ["Lunch is served in the bar"]
    assert push_service.texts(phones["Chris"]) == []


def test_a_change_rolled_back_tells_nobody(hall, vapid, push_service):
    give_phone(push_service, hall, player(hall, "Ann"))
    # No commit (the test's transaction): the on-commit hook never runs, no task is queued.
    hall.open_session("random", seed=7)
    assert run_tasks() == 0
    assert Message.objects.count() == 0


def test_a_dispute_raised_at_a_table_reaches_its_referees_phone_only(
    played, tournament, referee, push_service, django_capture_on_commit_callbacks
):
    table, phones = played
    from tests.factories import make_user

    other_referee = make_user("other-ref")
    mine = give_phone(push_service, tournament, None)
    Subscription.objects.filter(endpoint=mine.endpoint).update(referee=referee)
    theirs = give_phone(push_service, tournament, None)
    Subscription.objects.filter(endpoint=theirs.endpoint).update(referee=other_referee)
    record(table.game, referee, ROUNDS[0])
    with django_capture_on_commit_callbacks(execute=True):
        table.game.raise_dispute(1, "Dirk had 25", by=None)
    run_tasks()

    assert push_service.texts(mine) == ["A dispute about round 1: Dirk had 25"]
    (received,) = [r for r in push_service.received if r.token == mine.token]
    assert received.message["url"] == f"/tables/{table.pk}/"
    assert push_service.texts(theirs) == []
    assert push_service.texts(phones["Ann"]) == []


def _referee_phone(service, tournament, referee):
    phone = give_phone(service, tournament, None)
    Subscription.objects.filter(endpoint=phone.endpoint).update(referee=referee)
    return phone


def _run_due_now() -> None:
    """As if the planned moment had come: the deferred tasks are due."""
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
    run_tasks()


def test_a_referee_hears_when_five_minutes_are_left_on_their_tables_clock(
    played, tournament, referee, director, push_service, django_capture_on_commit_callbacks
):
    table, phones = played
    mine = _referee_phone(push_service, tournament, referee)
    session = table.session
    session.set_time_limit(20, by=director)
    with django_capture_on_commit_callbacks(execute=True):
        session.start_clock(by=director)
    run_tasks()  # plans the moment: 15 minutes from now, not due yet
    assert push_service.texts(mine) == []
    from django_tasks_db.models import DBTaskResult

    (planned,) = DBTaskResult.objects.filter(status="READY")
    session.refresh_from_db()
    ends_at = session.clock(table).ends_at
    assert ends_at is not None
    assert planned.run_after == ends_at - datetime.timedelta(minutes=5)

    _run_due_now()
    assert push_service.texts(mine) == ["5 minutes left on the clock."]
    assert push_service.texts(phones["Ann"]) == []


def test_an_extended_clock_tells_the_referee_at_its_new_moment_only(
    played, tournament, referee, director, push_service, django_capture_on_commit_callbacks
):
    table, _ = played
    mine = _referee_phone(push_service, tournament, referee)
    session = table.session
    session.set_time_limit(20, by=director)
    with django_capture_on_commit_callbacks(execute=True):
        session.start_clock(by=director)
    run_tasks()
    session.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        session.extend_clock(10, by=director)
    run_tasks()  # plans the new moment; the first plan is now stale

    _run_due_now()
    assert push_service.texts(mine) == ["5 minutes left on the clock."]
    assert len(push_service.received) == 1
