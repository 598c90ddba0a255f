"""The background tasks in the tests: run what is queued as `manage.py tasks_worker` does,
in the test's own thread and transaction."""

from __future__ import annotations

from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult


def _worker(worker_id: str) -> Worker:
    return Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )


def run_task(task: DBTaskResult, worker_id: str = "test-worker") -> DBTaskResult:
    """Run one task as `tasks_worker` does (claim, run, record); the task as recorded."""
    task.claim(worker_id)
    _worker(worker_id).run_task(task)
    task.refresh_from_db()
    return task


def run_tasks(worker_id: str = "test-worker", *, failing: bool = False) -> int:
    """Run every task that is due, as `tasks_worker` does (claim, run, record), in this
    thread and transaction, in the worker's order; how many ran. Each must succeed unless
    `failing`."""
    ran = 0
    while (task := DBTaskResult.objects.ready().first()) is not None:
        task = run_task(task, worker_id)
        if not failing:
            assert task.status == "SUCCESSFUL", task.traceback
        ran += 1
    return ran
