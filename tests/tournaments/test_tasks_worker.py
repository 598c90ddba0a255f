"""The task worker's identity across hosts (issue 35): an id of its own per machine, and the
tasks of a worker that never comes back taken back by any other."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from seasons.tasks import rate_games
from tournaments.management.commands import tasks_worker


def test_the_default_worker_id_is_the_host_name_and_the_machine_id(tmp_path, monkeypatch):
    monkeypatch.setattr(tasks_worker.socket, "gethostname", lambda: "hall-pc")
    first, second = tmp_path / "first", tmp_path / "second"
    first.write_text("4b1f0c3e9d2a47c8a1e5f6b7c8d9e0f1\n")
    second.write_text("0aa1f0c3e9d2a47c8a1e5f6b7c8d9e0f\n")
    # Two machines of one name (a clone, a reinstall) are two workers.
    assert tasks_worker.default_worker_id((first,)) == "hall-pc-4b1f0c3e9d2a"
    assert tasks_worker.default_worker_id((second,)) == "hall-pc-0aa1f0c3e9d2"
    # No machine id (a container): the host name, and TASKS_WORKER_ID says better.
    assert tasks_worker.default_worker_id((tmp_path / "missing", Path("/dev/null"))) == "hall-pc"


def running(worker_id: str, started_ago: timedelta) -> DBTaskResult:
    """A task a worker claimed `started_ago` and is (or was) running."""
    result = rate_games.enqueue([])
    task = DBTaskResult.objects.get(pk=result.id)
    task.claim(worker_id)
    DBTaskResult.objects.filter(pk=task.pk).update(started_at=timezone.now() - started_ago)
    return task


@pytest.mark.django_db
def test_a_worker_takes_back_its_own_running_tasks_and_no_other_workers():
    mine = running("hall-pc-4b1f0c3e9d2a", timedelta(seconds=5))
    others = running("hall-pc-0aa1f0c3e9d2", timedelta(seconds=5))
    assert tasks_worker.take_back("hall-pc-4b1f0c3e9d2a") == 1
    assert DBTaskResult.objects.get(pk=mine.pk).status == "READY"
    assert DBTaskResult.objects.get(pk=others.pk).status == "RUNNING"


@pytest.mark.django_db
def test_tasks_left_running_for_an_hour_are_taken_back_whoever_ran_them():
    retired = running("old-host-1234567890ab", timedelta(hours=2))
    busy = running("hall-pc-0aa1f0c3e9d2", timedelta(minutes=10))
    assert tasks_worker.take_back_abandoned(3600) == 1
    assert DBTaskResult.objects.get(pk=retired.pk).status == "READY"
    assert DBTaskResult.objects.get(pk=retired.pk).started_at is None
    assert DBTaskResult.objects.get(pk=busy.pk).status == "RUNNING"


@pytest.mark.django_db(transaction=True)  # the worker closes and opens its connections
def test_the_worker_command_takes_back_an_abandoned_task_and_runs_it():
    from django.core.management import call_command

    retired = running("old-host-1234567890ab", timedelta(hours=2))
    call_command("tasks_worker", "--batch", "--no-startup-delay", "--worker-id", "new-host")
    task = DBTaskResult.objects.get(pk=retired.pk)
    assert task.status == "SUCCESSFUL"
    assert task.worker_ids == ["old-host-1234567890ab", "new-host"]
