"""Benchmark: web push at a championship's size (a benchmark, not a test).

Builds a tournament of 200 checked-in players, each with a subscribed phone on a push
service on loopback (the tests' one: it decrypts every message, as the phone would), starts
the task worker (`manage.py tasks_worker`, its own process, as on the server), and measures:

- the time from a session's draw being published (`Tournament.open_session` returning) to the
  last of the 200 players' "Session 1: table 7, seat 3" arriving at the push service;
- a round's save (`Game.record_round`) and a correction's (which queues a message for the
  table's phones) at a table of this tournament against the same at a tournament of nobody
  subscribed, interleaved, medians.

The tournaments and the tasks' rows are deleted afterwards.

    .venv/bin/python -m bench push [--players 200] [--rounds 30]
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from bench import BenchError, say
from notifications import push
from notifications.models import subscribe
from scoring import rules
from tests.notifications import push_service as loopback
from tournaments.models import Player, Registration, Session, Table, Tournament

ROOT = Path(__file__).resolve().parents[1]


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=30, help="round saves measured per side")
    options = parser.parse_args(argv)
    if options.players < 8 or options.rounds < 3:
        raise BenchError("--players 8 or more, --rounds 3 or more")
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = push.new_vapid_keys()
    settings.NOTIFICATIONS_ALLOW_HTTP = True
    settings.NOTIFICATIONS_PER_TOURNAMENT = max(settings.NOTIFICATIONS_PER_TOURNAMENT, 10_000)
    service, server = loopback.start()
    # The loopback push service is the one private address the worker may post to.
    settings.NOTIFICATIONS_LOCAL_SERVICES = [service.url.removeprefix("http://")]
    started = timezone.now()
    subscribed = build("bench-push-subscribed", options.players, service)
    nobody = build("bench-push-nobody", options.players, None)
    worker = start_worker()
    try:
        draw_to_last_message(subscribed, service, options.players)
        round_saves(subscribed, nobody, options.rounds, f"{options.players} subscribed")
    finally:
        worker.terminate()
        worker.wait(10)
        server.shutdown()
        Tournament.objects.filter(pk__in=[subscribed.pk, nobody.pk]).delete()
        DBTaskResult.objects.filter(enqueued_at__gte=started).delete()
    return 0


def build(slug: str, count: int, service: loopback.PushService | None) -> Tournament:
    Tournament.objects.filter(slug=slug).delete()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=slug,
            slug=slug,
            starts_on=datetime.date.today(),
            status=Tournament.Status.RUNNING,
        )
        players = Player.objects.bulk_create(
            Player(name=f"Player {number:03d}") for number in range(1, count + 1)
        )
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=player, checked_in=True)
            for player in players
        )
        for player in players:
            if service is None:
                break
            phone = service.phone()
            subscribe(
                endpoint=phone.endpoint,
                p256dh=phone.p256dh,
                auth=phone.auth,
                tournament=tournament,
                player=player,
                language="en",
            )
    return tournament


def start_worker() -> subprocess.Popen[bytes]:
    """The worker on this process's database (a benchmark's own under the tests)."""
    database = connection.settings_dict
    if connection.vendor == "sqlite":
        url = f"sqlite:///{database['NAME']}"
    else:
        login = database["USER"] + (f":{database['PASSWORD']}" if database["PASSWORD"] else "")
        url = (
            f"postgres://{login}@{database['HOST'] or '127.0.0.1'}:"
            f"{database['PORT'] or 5432}/{database['NAME']}"
        )
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "VAPID_PRIVATE_KEY": settings.VAPID_PRIVATE_KEY,
        "VAPID_PUBLIC_KEY": settings.VAPID_PUBLIC_KEY,
        "NOTIFICATIONS_ALLOW_HTTP": "1",
        "NOTIFICATIONS_LOCAL_SERVICES": ",".join(settings.NOTIFICATIONS_LOCAL_SERVICES),
        "NOTIFICATIONS_PER_TOURNAMENT": "10000",
    }
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "tasks_worker", "--worker-id", "bench-push"]
        + ["--interval", "0.1", "--no-startup-delay", "-v", "0"],
        cwd=ROOT,
        env=env,
    )
    time.sleep(3)  # Django's start in the worker: not part of what is measured
    if worker.poll() is not None:
        raise BenchError("the task worker did not start")
    return worker


def draw_to_last_message(tournament: Tournament, service: loopback.PushService, count: int):
    began = time.monotonic()
    tournament.open_session("random", seed=2026)
    published = time.monotonic()
    end = published + 120
    while len(service.received) < count:
        if time.monotonic() > end:
            raise BenchError(f"only {len(service.received)} of {count} messages in 120 s")
        time.sleep(0.005)
    last = max(received.at for received in service.received)
    say(
        f"draw of {count} players published in {(published - began) * 1000:.0f} ms; the last "
        f"of {count} messages arrived {last - published:.2f} s after ({connection.vendor})"
    )


def _table(tournament: Tournament) -> Table:
    """The tournament's first session, started: a table of 4 of its players."""
    session = tournament.sessions.order_by("number").first()
    if session is None:
        session = tournament.open_session("random", seed=2026)
    if session.status == Session.Status.PLANNED:
        session.start(confirmed=True)
    return session.tables.order_by("number")[0]


def _round(table: Table) -> rules.Round:
    names = [seat.player.name for seat in table.seats.select_related("player")]
    # Low hands: a long game, never over within the measured rounds.
    return rules.Round(hands={name: index for index, name in enumerate(names)}, yaniv=names[0])


def round_saves(subscribed: Tournament, nobody: Tournament, rounds: int, label: str) -> None:
    """Round saves interleaved (nothing to tell: the worker idles), then corrections
    interleaved (each queues a task; the worker tells the subscribed table's 4 phones)."""
    tables = {label: _table(subscribed), "nobody subscribed": _table(nobody)}
    saves: dict[str, list[float]] = {name: [] for name in tables}
    corrections: dict[str, list[float]] = {name: [] for name in tables}

    # Each side goes first every other time: the first of a pair pays more (measured).
    def pairs(number: int) -> list[tuple[str, Table]]:
        return list(tables.items())[:: -1 if number % 2 else 1]

    for number in range(rounds):
        for name, table in pairs(number):
            game = table.game
            entries = _round(table)
            began = time.perf_counter()
            game.record_round(entries, by=None, number=game.round_count + 1)
            saves[name].append(time.perf_counter() - began)
    for number in range(rounds):
        for name, table in pairs(number):
            game = table.game
            began = time.perf_counter()
            game.correct_round(1, _round(table), by=None, reason="bench", version=game.version)
            corrections[name].append(time.perf_counter() - began)
    for name in tables:
        say(
            f"{name:18}: round save median {statistics.median(saves[name]) * 1000:.2f} ms, "
            f"correction (queues a message) {statistics.median(corrections[name]) * 1000:.2f} ms"
        )
