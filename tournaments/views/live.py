"""What the live parts of the pages share: how often they poll, their version, and the 204
when unchanged (the templates' side: `{% poll version %}`, tournaments.templatetags.live)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Count, Max, Sum
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from tournaments import caching

if TYPE_CHECKING:
    from tournaments.models import Tournament


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for the type checker)."""

    htmx: HtmxDetails


def poll_seconds() -> int:
    """How often the live parts of a page ask whether something changed (tests shorten it)."""
    return getattr(settings, "LIVE_POLL_SECONDS", 15)


def unchanged(request: HtmxHttpRequest, version: str) -> bool:
    """A poll that already shows this version: answer 204, htmx swaps nothing."""
    return bool(request.htmx) and request.GET.get("since") == version


def page_version(tournament: Tournament) -> str:
    """What a tournament's page shows moves with: its games and sessions (`live_version`)
    and the tournament's own row (its status, its standings' version: a withdrawal)."""
    return f"{tournament.live_version()}.{caching.stamp(tournament)}"


def site_version() -> str:
    """What a page across tournaments shows moves with (a player's, a club's): any round of
    any tournament (its last game change) and any session, finished game or withdrawal (the
    tournaments' standings' versions, which each of them moves). Two queries."""
    from tournaments.models import GameChange, Tournament

    change = GameChange.objects.aggregate(last=Max("pk"))["last"]
    moved = Tournament.objects.aggregate(count=Count("pk"), standings=Sum("standings_version"))
    return f"{change or 0}.{moved['count']}.{moved['standings'] or 0}"
