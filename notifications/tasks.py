"""The background tasks of notifications (django-tasks, run by `manage.py tasks_worker`).

`tell` runs once an event's change committed: it writes the event's messages (one per phone,
in its language, within the bounds) and sends them. `send_again` sends what is still waiting:
retries with backoff, and messages a dead worker left half-sent.

Nothing is lost: the messages are rows before anything is sent, and a task a worker died in
is run again (`tasks_worker` puts it back). Nothing is sent twice: each message is marked sent
once its push service took it, and claimed by the task sending it; the one message a worker
may die in the middle of posting goes again with the same Topic and notification tag, so the
push service keeps one and the phone shows one.
"""

from __future__ import annotations

import datetime
import http.client
import logging
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

from django.conf import settings
from django.core import signing
from django.db.models import BooleanField, Count, ExpressionWrapper, F, Q, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django_tasks import TaskContext, task

from notifications import events, push
from notifications.events import EVENTS, Event
from notifications.models import Message, Subscription
from tournaments.models import Session

logger = logging.getLogger(__name__)

# A transient failure (network, 429, 5xx) is tried again after 30 s, 1, 2, 4, 8 minutes.
RETRIES = 5
FIRST_RETRY = datetime.timedelta(seconds=30)
# Sent messages are kept this long for the bounds to count them.
KEPT = datetime.timedelta(days=1)
HOUR = datetime.timedelta(hours=1)
STOP_SALT = "notifications.stop"
# `_post`'s answer for a subscription past its end: deleted, nothing posted.
EXPIRED = -1
# `_post`'s answer for a message this endpoint alone failed (not tried again).
UNDELIVERED = -2
# The priority of the rest of an event's messages after its task's time ran out: below every
# other task (django-tasks runs the highest first).
YIELDED = -10


def stop_token(subscription: Subscription) -> str:
    return signing.dumps(subscription.pk, salt=STOP_SALT, compress=True)


def subscription_of(token: str) -> int | None:
    try:
        return int(signing.loads(token, salt=STOP_SALT))
    except (signing.BadSignature, ValueError, TypeError):
        return None


@task(takes_context=True)
def tell(context: TaskContext, kind: str, *args: object) -> int:
    """Write and send the messages of one event (`notifications.events`); how many were
    written."""
    event = EVENTS[kind](*args)
    if event is None:
        return 0
    written = write_messages(event)
    send_messages(event.name, context.task_result.id)
    return written


@task(takes_context=True)
def send_again(context: TaskContext, event: str) -> None:
    send_messages(event, context.task_result.id)


@task()
def plan_last_minutes(session_id: int) -> int:
    """After a change of the session clock: for each table whose referee has a phone
    subscribed, a task at the moment 5 minutes are left (it checks the clock then); how many
    were planned."""
    session = Session.objects.select_related("tournament").filter(pk=session_id).first()
    if session is None:
        return 0
    subscribed = set(
        Subscription.objects.filter(
            tournament=session.tournament_id, referee__isnull=False, expires__gt=timezone.now()
        ).values_list("referee_id", flat=True)
    )
    planned = 0
    for table in session.tables.filter(referee__in=subscribed):
        state = session.clock(table)
        if state.ends_at is None or state.over:
            continue
        moment = state.ends_at - datetime.timedelta(minutes=events.LAST_MINUTES)
        tell.using(run_after=max(moment, timezone.now())).enqueue(
            "last_minutes", table.pk, state.ends_at.isoformat()
        )
        planned += 1
    return planned


def write_messages(event: Event) -> int:
    """The event's messages, one per subscribed phone, at most NOTIFICATIONS_PER_PHONE an
    hour for a phone and NOTIFICATIONS_PER_TOURNAMENT an hour for the tournament."""
    now = timezone.now()
    Subscription.objects.filter(expires__lte=now).delete()
    Message.objects.filter(created__lt=now - KEPT).exclude(status=Message.Status.PENDING).delete()
    # Who each draft is for: a player, a referee's account, or the announcements.
    by_audience: dict[tuple[str, int | None], list] = {}
    for draft in event.drafts:
        audience = (
            ("referee", draft.referee_id) if draft.referee_id else ("player", draft.player_id)
        )
        by_audience.setdefault(audience, []).append(draft)
    players = [who for kind, who in by_audience if kind == "player" and who is not None]
    referees = [who for kind, who in by_audience if kind == "referee"]
    audiences = Q(player_id__in=players) | Q(referee_id__in=referees)
    if ("player", None) in by_audience:
        audiences |= Q(player__isnull=True, referee__isnull=True)
    subscriptions = list(
        Subscription.objects.filter(audiences, tournament=event.tournament, expires__gt=now)
        # When a bound cuts the list: phones that already received a message first, then
        # the others, each in the order they subscribed. Junk subscribed
        # early (endpoints that never answer) cannot starve real phones: it is served last,
        # and removed after NOTIFICATIONS_FAILURES failures.
        .order_by(
            ExpressionWrapper(Q(acknowledged_at__isnull=True), output_field=BooleanField()),
            "pk",
        )
    )
    if not subscriptions:
        return 0
    keys = {draft.key for draft in event.drafts}
    told = set(
        Message.objects.filter(subscription__in=subscriptions, key__in=keys).values_list(
            "subscription_id", "key"
        )
    )
    this_hour = Message.objects.filter(created__gte=now - HOUR)
    per_phone = dict(
        this_hour.filter(subscription__in=subscriptions)
        .values_list("subscription_id")
        .annotate(count=Count("id"))
    )
    room = (
        settings.NOTIFICATIONS_PER_TOURNAMENT
        - this_hour.filter(subscription__tournament=event.tournament).count()
    )
    messages, replaced, bounded = [], [], 0
    for subscription in subscriptions:
        audience = (
            ("referee", subscription.referee_id)
            if subscription.referee_id
            else ("player", subscription.player_id)
        )
        for draft in by_audience.get(audience, []):
            if (subscription.pk, draft.key) in told:
                continue
            if event.replaces:
                replaced.append(Q(subscription=subscription) & ~Q(key=draft.key))
            if room <= 0 or per_phone.get(subscription.pk, 0) >= settings.NOTIFICATIONS_PER_PHONE:
                bounded += 1
                continue
            with translation.override(subscription.language):
                title, body = draft.words()
            messages.append(
                Message(
                    subscription=subscription,
                    event=event.name,
                    key=draft.key,
                    title=title[:200],
                    body=body[:1000],
                    url=draft.url,
                )
            )
            room -= 1
            per_phone[subscription.pk] = per_phone.get(subscription.pk, 0) + 1
    if replaced:
        # A move before the first draw's message went: the old seat is never sent.
        stale = Q()
        for condition in replaced:
            stale |= condition
        Message.objects.filter(
            stale, status=Message.Status.PENDING, key__startswith=event.replaces
        ).delete()
    Message.objects.bulk_create(messages, ignore_conflicts=True)
    if bounded:
        logger.warning(
            "notifications: %s messages of %s not written (bound per phone or tournament)",
            bounded,
            event.name,
            extra={"tournament": event.tournament.pk},
        )
    return len(messages)


def _claimable(task_id: str, now: datetime.datetime) -> Q:
    stale = now - datetime.timedelta(seconds=settings.NOTIFICATIONS_CLAIM_SECONDS)
    return Q(claimed_by="") | Q(claimed_by=task_id) | Q(claimed_at__lt=stale)


def send_messages(event: str, task_id: str) -> None:
    """Send the event's waiting messages that are due; what is left goes to a later task.

    Claimed NOTIFICATIONS_CONCURRENCY at a time (one statement) and posted at once (a push
    service answers in tens of milliseconds: 200 phones one after the other would take
    seconds), each marked sent as its answer comes: the database is written from this thread
    only. A worker dying here leaves at most that many messages claimed and not marked: the
    only ones that may go twice (with their Topic and tag: shown once).

    The queue cannot be held: past NOTIFICATIONS_TASK_SECONDS the task stops after its
    batch and the rest goes to a task of lower priority, so that a report or another event
    queued meanwhile runs first (one slow batch costs them NOTIFICATIONS_TIMEOUT at most)."""
    waiting = Message.objects.filter(event=event, status=Message.Status.PENDING)
    if _send_due(waiting, task_id):
        send_again.using(priority=YIELDED).enqueue(event)
        return
    later = [
        max(
            message.next_attempt_at,
            message.claimed_at + datetime.timedelta(seconds=settings.NOTIFICATIONS_CLAIM_SECONDS)
            if message.claimed_at and message.claimed_by not in ("", task_id)
            else message.next_attempt_at,
        )
        for message in waiting.only("next_attempt_at", "claimed_at", "claimed_by")
    ]
    if later:
        send_again.using(run_after=min(later)).enqueue(event)


def _send_due(waiting: QuerySet[Message], task_id: str) -> bool:
    """Post the due messages batch by batch; True when the task's time ran out first."""
    started = time.monotonic()
    tried: set[int] = set()
    with ThreadPoolExecutor(max_workers=settings.NOTIFICATIONS_CONCURRENCY) as pool:
        while True:
            now = timezone.now()
            due = waiting.filter(_claimable(task_id, now), next_attempt_at__lte=now).exclude(
                pk__in=tried
            )
            batch = list(due.values_list("pk", flat=True)[: settings.NOTIFICATIONS_CONCURRENCY])
            if not batch:
                return False
            tried.update(batch)
            due.filter(pk__in=batch).update(claimed_by=task_id, claimed_at=now)
            messages = waiting.filter(pk__in=batch, claimed_by=task_id).select_related(
                "subscription"
            )
            posts = {pool.submit(_post, message): message for message in messages}
            for done in as_completed(posts):
                _record(posts[done], done.result())
            if time.monotonic() - started >= settings.NOTIFICATIONS_TASK_SECONDS:
                # What is left (if anything) is the next task's, behind the others.
                return True


def _post(message: Message) -> int | None:
    """Post one message (in a thread of the pool: no database here); its push service's
    answer, None for a network failure (tried again), UNDELIVERED for a failure of this
    endpoint alone (refused, a redirect, the deadline, a signature: not tried again), EXPIRED
    for a subscription past its end. Never raises: one message's error is that message's."""
    subscription = message.subscription
    if subscription.expires <= timezone.now():
        return EXPIRED
    try:
        with translation.override(subscription.language):
            data = push.payload(
                message.title,
                message.body,
                message.url,
                message.key,
                reverse("notifications:stop", args=[stop_token(subscription)]),
                gettext("Stop these"),
            )
        return push.post(subscription.info, data, message.key)
    except push.Undelivered as error:
        logger.warning("notifications: %s not delivered: %s", message.key, error)
        return UNDELIVERED
    except (OSError, http.client.HTTPException) as error:
        logger.info("notifications: %s not sent: %s", message.key, error)
        return None
    except Exception:
        logger.exception("notifications: %s failed", message.key)
        return UNDELIVERED


def _record(message: Message, status: int | None) -> None:
    """What the push service's answer means for the message and its subscription."""
    subscription = message.subscription
    mine = Message.objects.filter(pk=message.pk)
    if status is not None and 200 <= status < 300:
        mine.update(
            status=Message.Status.SENT, sent_at=timezone.now(), attempts=message.attempts + 1
        )
        if subscription.failures or subscription.acknowledged_at is None:
            Subscription.objects.filter(pk=subscription.pk).update(
                failures=0, acknowledged_at=timezone.now()
            )
    elif status in (404, 410, EXPIRED):
        # The push service forgot the phone (unsubscribed, app data cleared), or the
        # subscription ended: so do we.
        subscription.delete()
    elif (status is None or status == 429 or status >= 500) and message.attempts + 1 < RETRIES:
        mine.update(
            attempts=message.attempts + 1,
            next_attempt_at=timezone.now() + FIRST_RETRY * 2**message.attempts,
            claimed_by="",
            claimed_at=None,
        )
    else:
        logger.warning("notifications: %s given up (%s)", message.key, status)
        mine.update(status=Message.Status.FAILED, attempts=message.attempts + 1)
        _count_failure(subscription)


def _count_failure(subscription: Subscription) -> None:
    """A message given up counts against its subscription; NOTIFICATIONS_FAILURES in a row
    (no message delivered in between) and it is removed: an endpoint that never answers
    stops taking its tournament's bounds and the worker's time."""
    failures = subscription.failures + 1
    if failures >= settings.NOTIFICATIONS_FAILURES:
        logger.warning("notifications: subscription %s removed after failures", subscription.pk)
        subscription.delete()
    else:
        Subscription.objects.filter(pk=subscription.pk).update(failures=F("failures") + 1)
