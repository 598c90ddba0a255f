"""The background tasks in the tests: run what is queued as `manage.py tasks_worker` does,
in the test's own thread and transaction."""

from __future__ import annotations

from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult


def run_tasks(worker_id: str = "test-worker", *, failing: bool = False) -> int:
    """Run every task that is due, as `tasks_worker` does (claim, run, record), in this
    thread and transaction; how many ran. Each must succeed unless `failing`."""
    worker = Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )
    ran = 0
    while (task := DBTaskResult.objects.ready().first()) is not None:
        task.claim(worker_id)
        worker.run_task(task)
        task.refresh_from_db()
        if not failing:
            assert task.status == "SUCCESSFUL", task.traceback
        ran += 1
    return ran
