"""What the live parts of the pages share: how often they poll, and the 204 when unchanged."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for the type checker)."""

    htmx: HtmxDetails


def poll_seconds() -> int:
    """How often the live parts of a page ask whether something changed (tests shorten it)."""
    return getattr(settings, "LIVE_POLL_SECONDS", 15)


def unchanged(request: HtmxHttpRequest, version: str) -> bool:
    """A poll that already shows this version: answer 204, htmx swaps nothing."""
    return bool(request.htmx) and request.GET.get("since") == version
