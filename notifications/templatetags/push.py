"""The opt-in on a player's page and per seat on a table code's page; the director's count."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.utils.translation import ngettext

from notifications import push
from notifications.models import Subscription

register = template.Library()


@register.inclusion_tag("notifications/_player.html")
def push_player(tournament: Any, player: Any) -> dict[str, Any]:
    return {
        "enabled": push.enabled(),
        "key": settings.VAPID_PUBLIC_KEY,
        "tournament": tournament,
        "player": player,
        "days": settings.NOTIFICATIONS_DAYS_AFTER,
    }


@register.inclusion_tag("notifications/_seats.html")
def push_seats(table: Any, code: str) -> dict[str, Any]:
    enabled = push.enabled()
    return {
        "enabled": enabled,
        "key": settings.VAPID_PUBLIC_KEY,
        "code": code,
        "seats": list(table.seats.select_related("player")) if enabled else [],
        "days": settings.NOTIFICATIONS_DAYS_AFTER,
    }


@register.inclusion_tag("notifications/_referee.html")
def push_referee(table: Any) -> dict[str, Any]:
    return {"enabled": push.enabled(), "key": settings.VAPID_PUBLIC_KEY, "table": table}


@register.simple_tag
def phones_subscribed(tournament: Any) -> str:
    """How many phones follow the tournament; never which."""
    count = (
        Subscription.objects.filter(tournament=tournament).values("endpoint").distinct().count()
    )
    return ngettext(
        "%(count)s phone gets notifications.", "%(count)s phones get notifications.", count
    ) % {"count": count}
