"""Sending: a push service that forgot a phone, one that fails for a while, a flood of events,
a subscription past its end; and the events never slow the save they follow."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from hall.models import HallScreen
from notifications.models import Message, Subscription
from notifications.tasks import plan_last_minutes
from tests.notifications.conftest import give_phone, player, run_tasks
from tests.tasks import run_task

pytestmark = pytest.mark.django_db


def _announce(screen: HallScreen, capture, text: str) -> None:
    with capture(execute=True):
        screen.set_up(message=text)


@pytest.mark.parametrize("status", [404, 410])
def test_a_phone_the_push_service_forgot_loses_its_subscription(
    hall, vapid, push_service, django_capture_on_commit_callbacks, status
):
    gone = give_phone(push_service, hall, None)
    kept = give_phone(push_service, hall, None)
    push_service.answers[gone.token] = status
    _announce(HallScreen.default(hall), django_capture_on_commit_callbacks, "Session 2 at 14:00")
    run_tasks()

    assert list(Subscription.objects.values_list("endpoint", flat=True)) == [kept.endpoint]
    assert push_service.texts(kept) == ["Session 2 at 14:00"]
    assert Message.objects.filter(subscription__endpoint=gone.endpoint).count() == 0


def _make_due() -> None:
    """As if the backoff's wait had passed."""
    past = timezone.now() - datetime.timedelta(seconds=1)
    DBTaskResult.objects.filter(status="READY").update(run_after=past)
    Message.objects.filter(status=Message.Status.PENDING).update(next_attempt_at=past)


def test_a_failing_push_service_is_tried_again_later_with_a_growing_wait(
    hall, vapid, push_service, django_capture_on_commit_callbacks
):
    phone = give_phone(push_service, hall, None)
    push_service.answers[phone.token] = 503
    _announce(HallScreen.default(hall), django_capture_on_commit_callbacks, "Bar is open")
    before = timezone.now()
    run_tasks()

    message = Message.objects.get()
    assert (message.status, message.attempts) == ("pending", 1)
    assert 29 <= (message.next_attempt_at - before).total_seconds() <= 35
    (retry,) = DBTaskResult.objects.filter(status="READY")
    assert retry.task_path == "notifications.tasks.send_again"
    assert retry.run_after == message.next_attempt_at
    assert run_tasks() == 0  # not due yet

    _make_due()
    before = timezone.now()
    run_tasks()
    message.refresh_from_db()
    assert message.attempts == 2
    assert 59 <= (message.next_attempt_at - before).total_seconds() <= 65

    del push_service.answers[phone.token]
    _make_due()
    run_tasks()
    message.refresh_from_db()
    assert (message.status, message.attempts) == ("sent", 3)
    assert push_service.texts(phone) == ["Bar is open"]
    assert DBTaskResult.objects.filter(status="READY").count() == 0


def test_a_push_service_down_for_good_is_given_up_after_five_tries(
    hall, vapid, push_service, django_capture_on_commit_callbacks
):
    phone = give_phone(push_service, hall, None)
    push_service.answers[phone.token] = 500
    _announce(HallScreen.default(hall), django_capture_on_commit_callbacks, "Bar is open")
    run_tasks()
    for _ in range(6):
        _make_due()
        run_tasks()

    message = Message.objects.get()
    assert (message.status, message.attempts) == ("failed", 5)
    assert push_service.posts == 5
    assert Subscription.objects.count() == 1


def test_a_flood_of_events_is_bounded_per_phone_and_per_tournament(
    hall, vapid, push_service, settings, django_capture_on_commit_callbacks
):
    settings.NOTIFICATIONS_PER_PHONE = 4
    settings.NOTIFICATIONS_PER_TOURNAMENT = 10
    phones = [give_phone(push_service, hall, None) for _ in range(3)]
    screen = HallScreen.default(hall)
    for number in range(1, 21):
        _announce(screen, django_capture_on_commit_callbacks, f"Message {number}")
    run_tasks()

    counts = [len(push_service.texts(phone)) for phone in phones]
    assert sum(counts) == 10
    assert max(counts) == 4
    # The first messages went; the rest of the flood was dropped, not queued for later.
    assert push_service.texts(phones[0]) == [f"Message {n}" for n in range(1, 5)]
    assert Message.objects.count() == 10


def test_a_subscription_past_its_end_is_deleted_and_told_nothing(
    hall, vapid, push_service, django_capture_on_commit_callbacks
):
    phone = give_phone(push_service, hall, player(hall, "Ann"))
    Subscription.objects.update(expires=timezone.now() - datetime.timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        hall.open_session("random", seed=3)
    run_tasks()

    assert Subscription.objects.count() == 0
    assert push_service.texts(phone) == []


def test_a_subscription_ends_days_after_the_tournaments_last_day(
    hall, vapid, push_service, settings
):
    settings.NOTIFICATIONS_DAYS_AFTER = 3
    hall.ends_on = datetime.date(2026, 12, 2)
    hall.save()
    give_phone(push_service, hall, player(hall, "Ann"))

    expires = timezone.localtime(Subscription.objects.get().expires)
    assert (expires.date(), expires.hour, expires.minute) == (datetime.date(2026, 12, 6), 0, 0)


def test_without_vapid_keys_no_event_queues_a_task(
    hall, push_service, django_capture_on_commit_callbacks
):
    give_phone(push_service, hall, player(hall, "Ann"))
    with django_capture_on_commit_callbacks(execute=True):
        hall.open_session("random", seed=3)

    assert DBTaskResult.objects.count() == 0


def test_a_long_send_gives_the_worker_up_to_a_task_queued_behind_it(
    hall, vapid, push_service, settings, django_capture_on_commit_callbacks
):
    # Each task's time runs out after its first batch of two: the rest waits behind.
    settings.NOTIFICATIONS_CONCURRENCY = 2
    settings.NOTIFICATIONS_TASK_SECONDS = 0
    phones = [give_phone(push_service, hall, None) for _ in range(5)]
    _announce(HallScreen.default(hall), django_capture_on_commit_callbacks, "Bar is open")
    # A report, or another event, queued while the first batch goes out.
    other = plan_last_minutes.enqueue(0)
    ran = []
    while (task := DBTaskResult.objects.ready().first()) is not None:
        ran.append(task.task_path.rsplit(".", 1)[1])
        assert run_task(task).status == "SUCCESSFUL"

    assert ran == ["tell", "plan_last_minutes", "send_again", "send_again", "send_again"]
    assert DBTaskResult.objects.get(pk=other.id).status == "SUCCESSFUL"
    assert all(push_service.texts(phone) == ["Bar is open"] for phone in phones)
