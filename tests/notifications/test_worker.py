"""The task worker as it runs on a server (`manage.py tasks_worker`, its own process), killed
in the middle of sending: nothing is lost, and nothing reaches a phone twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from hall.models import HallScreen
from notifications.models import Message
from tests.notifications.conftest import give_phone

ROOT = Path(__file__).resolve().parents[2]
PHONES = 40


def _database_url() -> str:
    database = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{database['NAME']}"
    return (
        f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{database['NAME']}"
    )


def _worker(log: Path, *extra: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "VAPID_PRIVATE_KEY": settings.VAPID_PRIVATE_KEY,
        "VAPID_PUBLIC_KEY": settings.VAPID_PUBLIC_KEY,
        "NOTIFICATIONS_ALLOW_HTTP": "1",
        "NOTIFICATIONS_LOCAL_SERVICES": ",".join(settings.NOTIFICATIONS_LOCAL_SERVICES),
    }
    return subprocess.Popen(
        [sys.executable, "manage.py", "tasks_worker", "--worker-id", "hall-pc", *extra],
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )


def _wait_for(condition, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


@pytest.mark.slow  # the worker is a manage.py process
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_send_loses_nothing_and_no_phone_shows_a_message_twice(
    hall, vapid, push_service, tmp_path
):
    phones = [give_phone(push_service, hall, None) for _ in range(PHONES)]
    # A push service slow to answer: the worker is killed while a post is on its way.
    push_service.delay = 0.2
    # A real commit (no test transaction here): the task is queued as on the site.
    HallScreen.default(hall).set_up(message="Final at 17:00 at table 1")
    log = tmp_path / "worker.log"
    worker = _worker(log, "--interval", "0.1", "--no-startup-delay")
    try:
        _wait_for(lambda: len(push_service.received) >= PHONES // 4, 60)
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
    finally:
        if worker.poll() is None:
            worker.kill()
    sent_before = len(push_service.received)
    assert sent_before < PHONES, log.read_text()

    # The same worker started again (systemd restarts it) runs the task it died in.
    again = _worker(log, "--batch", "--no-startup-delay")
    assert again.wait(60) == 0, log.read_text()

    by_phone = Counter(received.token for received in push_service.received)
    assert set(by_phone) == {phone.token for phone in phones}
    assert Message.objects.filter(status="sent").count() == PHONES
    # At most the posts in flight at the kill went again, with the same Topic (the push
    # service keeps one) and the same notification tag (the phone shows one).
    twice = [token for token, count in by_phone.items() if count > 1]
    assert len(twice) <= settings.NOTIFICATIONS_CONCURRENCY and max(by_phone.values()) <= 2
    for token in twice:
        copies = [r for r in push_service.received if r.token == token]
        assert len({(r.topic, r.message["tag"], r.message["body"]) for r in copies}) == 1
    assert "dead worker left, queued again" in log.read_text()
