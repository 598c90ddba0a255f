"""Is a task worker running? Seen from the queue: the oldest task that is due and waiting."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Min, Q
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max


def tasks_state() -> dict[str, object]:
    """{"tasks": "ok"|"late", "tasks_waiting_seconds": n}: late when a due task has waited
    TASKS_LATE_SECONDS (no worker, or one stuck): one indexed query."""
    now = timezone.now()
    # A task without a `run_after` is stored with the far future's date: due since enqueued.
    never = Q(run_after=get_date_max())
    oldest = DBTaskResult.objects.ready().aggregate(
        deferred=Min("run_after", filter=~never), enqueued=Min("enqueued_at", filter=never)
    )
    due = min((moment for moment in oldest.values() if moment is not None), default=None)
    waited = max(0, int((now - due).total_seconds())) if due is not None else 0
    late = waited >= settings.TASKS_LATE_SECONDS
    return {"tasks": "late" if late else "ok", "tasks_waiting_seconds": waited}
