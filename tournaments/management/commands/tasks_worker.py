"""The background tasks' worker: django-tasks-db's `db_worker`, which first takes back the
tasks this worker was running when it died (killed, the machine off): they run again, so
nothing is lost (the tasks make a second run harmless: see seasons.tasks, the ratings;
printing.tasks, the report; notifications.tasks). Here, in the core app: every app's tasks need it.

Each worker needs an id of its own that stays the same across restarts (`--worker-id`). The
default is the machine's name and the start of its machine id (/etc/machine-id): one worker per
machine, and two machines of one name (a clone, a reinstall) never take each other's running
tasks back. A task running under a worker id that no longer runs is taken back by the next
worker of that id; and while any worker runs, it takes back every task left running for longer
than `--abandoned-after` (an hour: far longer than any task takes), whoever ran it, so that
the tasks of a machine retired or gone for good run again elsewhere."""

from __future__ import annotations

import logging
import socket
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.db import close_old_connections
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker
from django_tasks_db.models import DBTaskResult

logger = logging.getLogger(__name__)

MACHINE_ID_FILES = (Path("/etc/machine-id"), Path("/var/lib/dbus/machine-id"))
ABANDONED_AFTER = 3600
# How often a running worker looks for tasks another worker abandoned.
ABANDONED_CHECK_SECONDS = 300


def default_worker_id(files: tuple[Path, ...] = MACHINE_ID_FILES) -> str:
    """`<host name>-<12 characters of the machine id>`, or the host name alone where the
    machine has no id (a container: give its worker an id, TASKS_WORKER_ID in compose.yaml)."""
    host = socket.gethostname()[:48] or "worker"
    for file in files:
        try:
            machine = file.read_text().strip()
        except OSError:
            continue
        if machine:
            return f"{host}-{machine[:12]}"
    return host


def take_back(worker_id: str) -> int:
    """Put back in the queue the tasks that `worker_id` was running: it runs none now."""
    # The last worker that claimed each running task (few rows: compared here, not in SQL,
    # where JSON lookups differ between SQLite and PostgreSQL).
    ids = [
        task.pk
        for task in DBTaskResult.objects.running().only("worker_ids")
        if task.worker_ids[-1:] == [worker_id]
    ]
    return _requeue(ids)


def take_back_abandoned(seconds: int) -> int:
    """Put back in the queue the tasks running for longer than `seconds`, whoever ran them:
    their worker is gone (a task that long is no task of this site's)."""
    since = timezone.now() - timedelta(seconds=seconds)
    ids = list(DBTaskResult.objects.running().filter(started_at__lt=since).values_list("pk"))
    return _requeue([pk for (pk,) in ids])


def _requeue(ids: list[Any]) -> int:
    return DBTaskResult.objects.filter(pk__in=ids, status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.READY, started_at=None
    )


def _watch_abandoned(seconds: int, stop: threading.Event) -> None:
    """In a thread of its own (its own database connection), while the worker runs."""
    while not stop.wait(ABANDONED_CHECK_SECONDS):
        try:
            taken = take_back_abandoned(seconds)
            if taken:
                logger.warning("tasks_worker: %s abandoned task(s) queued again", taken)
        except Exception:  # the database away for a moment: the next round tries again
            logger.warning("tasks_worker: could not look for abandoned tasks", exc_info=True)
        finally:
            close_old_connections()


class Command(DatabaseWorker):
    help = (
        "Run the background tasks (ratings, the report, notifications), taking back those a "
        "dead worker left."
    )

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--abandoned-after",
            type=int,
            default=ABANDONED_AFTER,
            help="take back tasks left running this many seconds by any worker (default: 3600)",
        )
        parser.set_defaults(worker_id=default_worker_id()[:64], reload=False)

    def handle(self, *args: Any, **options: Any) -> None:
        taken = take_back(options["worker_id"]) + take_back_abandoned(options["abandoned_after"])
        if taken:
            logger.warning("tasks_worker: %s task(s) a dead worker left, queued again", taken)
        stop = threading.Event()
        if not options["batch"]:
            watch = (options["abandoned_after"], stop)
            threading.Thread(target=_watch_abandoned, args=watch, daemon=True).start()
        try:
            super().handle(*args, **options)
        finally:
            stop.set()
