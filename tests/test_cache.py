"""A cache is a cache (yaniv_club/cache.py): with Redis's port closed, pages, saves and the
proxy's health check still answer 200; the limits still count (in each process); the outage
is logged once; and nothing written during it comes back stale once Redis answers."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import uuid
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import make_tournament
from tests.tournaments.test_sync import change
from yaniv_club import cache as cache_module

pytestmark = pytest.mark.django_db


def _closed_port() -> int:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def _redis_at(settings, location: str) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "yaniv_club.cache.FailSafeRedisCache",
            "LOCATION": location,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex[:8]}",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


@pytest.fixture
def outage() -> Iterator[cache_module._Outage]:
    """This process's view of Redis starts fresh (and is left fresh)."""
    cache_module.OUTAGE = cache_module._Outage()
    yield cache_module.OUTAGE
    cache_module.OUTAGE = cache_module._Outage()


@pytest.fixture
def redis_down(settings, outage) -> None:
    _redis_at(settings, f"redis://127.0.0.1:{_closed_port()}/0")


def test_with_redis_down_pages_and_saves_answer_200_and_the_outage_is_logged_once(
    redis_down, referee_client, client, table, caplog
):
    tournament = table.session.tournament
    tournament.is_public = True
    tournament.save()
    with caplog.at_level(logging.INFO, logger="yaniv_club.cache"):
        pages = [
            client.get(reverse("public:tournament", args=[tournament.slug])),
            client.get(
                reverse("public:tournament", args=[tournament.slug]), headers={"hx-request": "1"}
            ),
            referee_client.get(reverse("tables:detail", args=[table.pk])),
            referee_client.get(
                reverse("tables:detail", args=[table.pk]),
                {"part": "sheet"},
                headers={"hx-request": "1"},
            ),
        ]
        saved = referee_client.post(reverse("tables:sync", args=[table.pk]), change())

    assert [page.status_code for page in pages] == [200, 200, 200, 200]
    assert (saved.status_code, saved.json()["status"]) == (200, "stored")
    # Logged once for the whole outage (the login above met it first), not per call.
    records = caplog.get_records("setup") + caplog.get_records("call")
    said = [record for record in records if record.name == "yaniv_club.cache"]
    assert len(said) == 1


def test_with_redis_down_the_proxys_health_check_answers_200_and_names_the_cache(
    redis_down, client
):
    response = client.get(reverse("health"))

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "unavailable"}
    assert client.get(reverse("health"), {"cache": "1"}).status_code == 503


def test_with_redis_down_a_limit_still_counts_in_each_process(redis_down, client, settings):
    settings.API_REQUESTS = 3
    make_tournament(is_public=True)
    statuses = [client.get("/api/v1/tournaments").status_code for _ in range(5)]

    assert statuses == [200, 200, 200, 429, 429]


class Forwarder:
    """A TCP port forwarding to Redis that can be cut and restored: Redis down, then back,
    without touching the Redis the other tests share."""

    def __init__(self) -> None:
        self.port = _closed_port()
        self.listening: socket.socket | None = None
        self.open: list[socket.socket] = []
        self.up()

    def up(self) -> None:
        self.listening = socket.create_server(("127.0.0.1", self.port), reuse_port=True)
        threading.Thread(target=self._accept, args=[self.listening], daemon=True).start()

    def down(self) -> None:
        assert self.listening is not None
        self.listening.close()
        for sock in self.open:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self.open.clear()

    def _accept(self, listening: socket.socket) -> None:
        while True:
            try:
                near, _ = listening.accept()
            except OSError:
                return
            far = socket.create_connection(("127.0.0.1", 6379))
            self.open += [near, far]
            for source, sink in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=[source, sink], daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass


def test_what_changed_during_an_outage_does_not_come_back_stale(settings, outage, monkeypatch):
    monkeypatch.setattr(cache_module, "RETRY_SECONDS", 0.0)
    forwarder = Forwarder()
    _redis_at(settings, f"redis://127.0.0.1:{forwarder.port}/0")
    cache.set("session", "logged in", 60)
    assert cache.get("session") == "logged in"

    forwarder.down()
    cache.delete("session")  # a logout while Redis is down
    assert cache.get("session") is None
    forwarder.up()

    assert cache.get("session") is None
    assert outage.down is False
    cache.delete("session")
