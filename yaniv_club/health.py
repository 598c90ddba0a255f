from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from notifications.health import tasks_state

logger = logging.getLogger(__name__)


def _cache_answers() -> bool:
    """Does the cache (Redis with CACHE_URL) answer? Asked past the fail-safe backend's guard
    (`yaniv_club.cache`), which would otherwise turn its error into a miss."""
    answers = getattr(cache, "answers", None)
    if answers is not None:
        return bool(answers())
    try:
        cache.get("health")
    except Exception:  # Redis' own errors (connection refused, timeout), whatever the backend
        logger.warning("health: the cache does not answer", exc_info=True)
        return False
    return True


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """For the load balancer or a monitor: 200 when the database answers, else 503 (Caddy
    takes this app server out of rotation meanwhile). The cache is named ("ok" or
    "unavailable") but does not fail it: without Redis an app server still serves every page
    and save (its errors are misses), and taking every server out for it would refuse
    everything (issue 34).

    GET or HEAD (monitors often ask with HEAD: the same answer without its body).
    `?cache=1` (a monitor of Redis) is a 503 while the cache does not answer; `?tasks=1` (a
    monitor of the worker) adds the background tasks' state, and a late queue is a 503
    there."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        database = "ok"
    except DatabaseError:
        database = "unavailable"
    parts = {"database": database, "cache": "ok" if _cache_answers() else "unavailable"}
    ready = database == "ok" and (request.GET.get("cache") != "1" or parts["cache"] == "ok")
    # The task queue only when a monitor of the worker asks (?tasks=1): the load balancer's
    # plain check stays at one query, and a late queue never takes an app server out.
    asked = request.GET.get("tasks") == "1"
    tasks = tasks_state() if asked and database == "ok" else {}
    late = ready and tasks.get("tasks", "ok") != "ok"
    status = "late" if late else "ok" if ready else "error"
    return JsonResponse(
        {"status": status, **parts, **tasks}, status=200 if ready and not late else 503
    )
