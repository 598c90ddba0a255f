"""The notifications' parts of the tournaments' pages (`tournaments.slots`, registered by
`NotificationsConfig.ready`): the opt-in on a player's page, per seat on a table code's page
and on the referee's table page; the director's count of phones."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import ngettext

from notifications import push
from notifications.models import Subscription
from tournaments import slots


def player(tournament: Any, player: Any) -> dict[str, Any]:
    return {
        "enabled": push.enabled(),
        "key": settings.VAPID_PUBLIC_KEY,
        "tournament": tournament,
        "player": player,
        "days": settings.NOTIFICATIONS_DAYS_AFTER,
    }


def seats(table: Any, code: str) -> dict[str, Any]:
    enabled = push.enabled()
    return {
        "enabled": enabled,
        "key": settings.VAPID_PUBLIC_KEY,
        "code": code,
        "seats": list(table.seats.select_related("player")) if enabled else [],
        "days": settings.NOTIFICATIONS_DAYS_AFTER,
    }


def referee(table: Any) -> dict[str, Any]:
    return {"enabled": push.enabled(), "key": settings.VAPID_PUBLIC_KEY, "table": table}


def phones_subscribed(tournament: Any) -> dict[str, Any]:
    """How many phones follow the tournament; never which."""
    count = (
        Subscription.objects.filter(tournament=tournament).values("endpoint").distinct().count()
    )
    return {
        "phones": ngettext(
            "%(count)s phone gets notifications.", "%(count)s phones get notifications.", count
        )
        % {"count": count}
    }


def register() -> None:
    slots.register("player", "notifications/_player.html", player)
    slots.register("table_code", "notifications/_seats.html", seats)
    slots.register("table_referee", "notifications/_referee.html", referee)
    slots.register("director_dashboard", "notifications/_phones.html", phones_subscribed)
