"""A phone's opt-in to a player's news in one tournament, and the messages waiting for it.

A subscription keeps what the push service needs (the endpoint and the phone's keys) and what
the site needs to choose and word the messages (player, tournament, language), no more: no
address, no name of the phone. `player` empty: the tournament's announcements (the director's
hall message); `referee` (instead of a player): a referee's account, told of disputes at their
tables. It ends by itself `expires` (N days after the tournament) and
is deleted when the push service says the endpoint is gone (404/410), when its messages failed
NOTIFICATIONS_FAILURES times in a row, or when the phone says "Stop these".
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.models import Player, Tournament


def expiry_for(tournament: Tournament) -> datetime.datetime:
    """N days (NOTIFICATIONS_DAYS_AFTER) after the tournament's last day, at midnight."""
    last_day = tournament.ends_on or tournament.starts_on
    end = datetime.datetime.combine(
        last_day + datetime.timedelta(days=settings.NOTIFICATIONS_DAYS_AFTER + 1),
        datetime.time(),
    )
    return timezone.make_aware(end)


class Subscription(models.Model):
    endpoint = models.URLField(max_length=1000)
    # The phone's public key (P-256, base64url) and its auth secret: each message is
    # encrypted for them (RFC 8291), so the push service reads nothing.
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField(db_index=True)
    # When its push service first took a message for it: a real phone. The bounds serve
    # these first, so that subscriptions that never worked cannot starve them.
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    # Messages given up in a row (reset by one delivered): NOTIFICATIONS_FAILURES removes it.
    failures = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            # One phone, one subscription per player of a tournament, and one to its
            # announcements: subscribing again refreshes it.
            models.UniqueConstraint(
                fields=["endpoint", "tournament", "player"],
                condition=Q(player__isnull=False),
                name="one_subscription_per_phone_and_player",
            ),
            models.UniqueConstraint(
                fields=["endpoint", "tournament", "referee"],
                condition=Q(referee__isnull=False),
                name="one_subscription_per_phone_and_referee",
            ),
            models.UniqueConstraint(
                fields=["endpoint", "tournament"],
                condition=Q(player__isnull=True, referee__isnull=True),
                name="one_announcement_subscription_per_phone",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=True) | Q(referee__isnull=True),
                name="a_subscription_follows_a_player_or_a_referee",
            ),
        ]

    def __str__(self) -> str:
        return f"subscription {self.pk} to {self.tournament_id}"

    @property
    def info(self) -> dict[str, object]:
        """As pywebpush (and the browser's PushSubscription.toJSON) spell it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Message(models.Model):
    """One message for one phone: written when the event's task runs, sent, then kept a
    day so that the bounds can count it. (subscription, key) is unique: an event told twice
    (a task run again after a worker died) is one message."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        FAILED = "failed"

    subscription = models.ForeignKey(
        Subscription, on_delete=models.CASCADE, related_name="messages"
    )
    # The event it tells (its task sends the event's messages) and what it says once.
    event = models.CharField(max_length=80, db_index=True)
    key = models.CharField(max_length=120)
    title = models.CharField(max_length=200)
    body = models.CharField(max_length=1000)
    url = models.CharField(max_length=500)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    status = models.CharField(max_length=8, choices=Status, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    # The task sending it (its id): another task leaves it alone until the claim is stale;
    # the same task, run again after its worker died, takes it back at once.
    claimed_by = models.CharField(max_length=64, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "key"], name="one_message_per_phone_and_key"
            ),
            models.CheckConstraint(
                condition=Q(sent_at__isnull=True) | Q(status="sent"),
                name="a_message_sent_is_marked_sent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} for subscription {self.subscription_id}"


def subscribe(
    *,
    endpoint: str,
    p256dh: str,
    auth: str,
    tournament: Tournament,
    player: Player | None,
    language: str,
    referee: Any = None,
) -> Subscription:
    """This phone hears about `player` (None: the announcements; or `referee`'s tables) in
    `tournament`; subscribing again renews the keys, the language and the expiry."""
    with transaction.atomic():
        subscription, _ = Subscription.objects.update_or_create(
            endpoint=endpoint,
            tournament=tournament,
            player=player,
            referee=referee,
            defaults={
                "p256dh": p256dh,
                "auth": auth,
                "language": language,
                "expires": expiry_for(tournament),
            },
        )
    return subscription
