"""The background tasks' worker: django-tasks-db's `db_worker`, which first takes back the
tasks this worker was running when it died (killed, the machine off): they run again, so
nothing is lost (the tasks make a second run harmless: see seasons.tasks, the ratings;
printing.tasks, the report; notifications.tasks). Here, in the core app: every app's tasks need it.

Each worker needs an id of its own that stays the same across restarts (`--worker-id`, by
default the machine's name: one worker per machine); a task running under a worker id that
no longer runs is taken back by the next worker of that id."""

from __future__ import annotations

import logging
import socket
from typing import Any

from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker
from django_tasks_db.models import DBTaskResult

logger = logging.getLogger(__name__)


def take_back(worker_id: str) -> int:
    """Put back in the queue the tasks that `worker_id` was running: it runs none now."""
    # The last worker that claimed each running task (few rows: compared here, not in SQL,
    # where JSON lookups differ between SQLite and PostgreSQL).
    ids = [
        task.pk
        for task in DBTaskResult.objects.running().only("worker_ids")
        if task.worker_ids[-1:] == [worker_id]
    ]
    return DBTaskResult.objects.filter(pk__in=ids, status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.READY, started_at=None
    )


class Command(DatabaseWorker):
    help = (
        "Run the background tasks (ratings, the report, notifications), taking back those a "
        "dead worker left."
    )

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        parser.set_defaults(worker_id=socket.gethostname()[:64] or "worker", reload=False)

    def handle(self, *args: Any, **options: Any) -> None:
        taken = take_back(options["worker_id"])
        if taken:
            logger.warning("tasks_worker: %s task(s) a dead worker left, queued again", taken)
        super().handle(*args, **options)
