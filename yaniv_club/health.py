from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from notifications.health import tasks_state


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """For the load balancer or a monitor: 200 when the database answers, else 503.

    GET or HEAD (monitors often ask with HEAD: the same answer without its body).
    The background tasks' state is in the body; `?tasks=1` (a monitor of the worker) makes a
    late queue a 503 too, where the load balancer's plain /health/ stays 200."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unavailable"}, status=503)
    tasks = tasks_state()
    late = tasks["tasks"] != "ok" and request.GET.get("tasks") == "1"
    return JsonResponse(
        {"status": "late" if late else "ok", "database": "ok", **tasks},
        status=503 if late else 200,
    )
