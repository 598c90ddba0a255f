"""Benchmark: championship day under load, with a database restart (a benchmark, not a test).

The site runs as in production (gunicorn, DEBUG=0, PostgreSQL) on 127.0.0.1 against a database
of its own, which this command creates afresh and drops afterwards (unless --keep):

1. a running public tournament: two finished sessions (so the standings have every player)
   and a running one of `--referees` tables of 4 players, each with its referee account;
2. the referees log in, then each submits a whole game's rounds (dealt by `bench.deal_game`,
   seeded, until the engine says the game is over) as fast as the site answers, the way the
   table page's script sends its outbox: one round at a time to `tables:sync`, each with a
   client id of its own, answered in JSON ("stored", "same" and "replayed" acknowledge it;
   "conflict", "stale", "refused" and "closed" stop the referee). An answer that is not the
   site's JSON (a 503 while the database restarts, no connection) has the same round sent
   again, with the same client id, after a short pause: a round stored before its answer was
   lost is then answered "replayed". Every 5th round of every 4th table is sent twice
   (concurrently or back to back, the same client id), as two tabs or a flaky phone do. The
   verification must find each round stored once, with the entries sent;
3. meanwhile `--phones` phones each follow the standings and one table, polling every
   `--poll-seconds` with `?since=<version>` (204 when nothing changed) as htmx does: the
   standings' live part and the table's sheet. The gunicorn workers share their cache in
   Redis (`--cache-url`, a database of its own that is emptied first; `--cache-url ''` for
   each process's memory), so a changed fragment is rendered once per version, not once
   per phone;
4. half-way (rounds acknowledged), PostgreSQL is restarted (`pg_ctlcluster … restart` of the
   local cluster serving the URL's port, or --pg-cluster; it is started again in any case):
   requests meanwhile must fail cleanly (the referee retries the same round after a short
   pause until it is acknowledged) and the site must serve again by itself, without
   restarting gunicorn. A cluster of its own keeps the restart away from other work:
   `pg_createcluster 15 bench --port 5433 --start -- --auth-host=trust` and
   `--database-url postgres://postgres@127.0.0.1:5433/yaniv_bench`;
5. the database is then checked against what the site acknowledged: every game has exactly
   the acknowledged rounds, numbered 1..n, with the entries sent, totals equal to a fresh
   engine recomputation, and ended exactly when the engine says.

It prints requests per second, latency percentiles per kind of request, errors by kind
(during the outage and outside it), the outage and recovery times, the verification and
where the CPU went (with what each kind of request costs one at a time, so the capacity can
be told from the queueing), and what the phones cost: the site's CPU under the load less what
the submissions cost, measured alone. It exits non-zero when the database differs from what was
acknowledged, a referee could not finish, or a request failed outside the outage. The
setup and the verification run in child processes of this command (`--stage`), with
DATABASE_URL pointing at the benchmark's database.

    .venv/bin/python -m bench load                        # 40 referees, 300 phones, restart
    .venv/bin/python -m bench load --referees 4 --phones 20 --no-restart   # a quick smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import logging
import os
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from bench import BenchError, deal_game, load_clients, load_report, load_verification, say
from bench.servers import (
    Database,
    MachineCluster,
    OwnPostgres,
    Site,
    add_server_arguments,
    add_site_arguments,
    processes_named,
    write_json,
)
from scoring import rules

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/yaniv_bench"
# The workers' shared cache: a Redis database of its own (emptied when the load starts).
DEFAULT_CACHE_URL = "redis://127.0.0.1:6379/13"
PASSWORD = "bench-referee-password"
SLUG = "championship-day"


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Load-and-fault benchmark: gunicorn + PostgreSQL, referees submitting, phones "
            "polling, a PostgreSQL restart midway, then a check of every stored round."
        ),
    )
    add_server_arguments(parser, DEFAULT_URL, DEFAULT_CACHE_URL)
    parser.add_argument("--referees", type=int, default=40, help="tables, one referee each")
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--poll-seconds", type=float, default=10.0)
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds a referee waits between rounds (0: as fast as the site answers)",
    )
    add_rounds_argument(parser)
    parser.add_argument("--no-restart", action="store_true", help="no PostgreSQL restart")
    parser.add_argument(
        "--restart-at",
        type=float,
        default=0.5,
        help="restart once this share of the rounds is acknowledged",
    )
    parser.add_argument(
        "--pg-cluster",
        default="",
        help="VERSION/NAME of the cluster to restart (default: the local one on the port)",
    )
    parser.add_argument("--duration", type=float, default=600.0, help="cap on the load, seconds")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads a worker")
    parser.add_argument("--finished-sessions", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    add_site_arguments(parser, ["setup", "verify"])
    options = vars(parser.parse_args(argv))
    if options["stage"] == "setup":
        write_json(options["file"], setup_tournament(options))
    elif options["stage"] == "verify":
        path = options["file"]
        write_json(path, load_verification.verify(json.loads(Path(path).read_text())))
    else:
        # The clients' own request log would drown the report.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        Benchmark(options).run()
    return 0


def add_rounds_argument(parser: argparse.ArgumentParser) -> None:
    """--rounds: a slice of the day at a steady rate instead of whole games (their start and
    their end, with fewer tables playing, are not the rate the hall holds for hours)."""
    parser.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="each referee stops after this many rounds of its game (0: the whole game)",
    )


def planned_rounds(referees: Sequence[load_clients.Referee], rounds: int) -> int:
    """The rounds this run sends: each game's (--rounds: its first ones, or those already
    sent, whichever are more)."""
    return sum(
        max(min(len(referee.rounds), rounds or len(referee.rounds)), len(referee.log))
        for referee in referees
    )


# --- the orchestration ----------------------------------------------------------------


class Benchmark(Site):
    """The load on the site (servers.Site), the restart of its PostgreSQL midway, the
    verification and the report."""

    command = "load"

    def __init__(self, options: dict[str, Any]) -> None:
        # The cluster first: a benchmark that cannot restart it stops before it starts.
        cluster: MachineCluster | OwnPostgres | None = None
        if not options["no_restart"]:
            cluster = MachineCluster.serving(
                Database(options["database_url"]), options["pg_cluster"]
            )
        super().__init__(options)
        self.cluster = cluster

    def run(self) -> None:
        restarted = False
        failures: list[str] = []
        try:
            plan = self.prepare(
                f"--referees={self.options['referees']}",
                f"--finished-sessions={self.options['finished_sessions']}",
            )
            say(
                f"migrated, static files collected, tournament of {len(plan['tables'])} tables "
                f"set up in {self.setup_seconds:.1f} s"
            )
            base = self.start_gunicorn(plan)
            restarted = self.cluster is not None
            run = asyncio.run(self.load(base, plan))
            self.stop_gunicorn()
            verification = self.verify(plan, run)
            failures = self.report(plan, run, verification)
        finally:
            self.stop_gunicorn()
            if restarted and self.cluster is not None:
                self.cluster.ensure_running()
            self.clean_up()
        if failures:
            raise BenchError("the benchmark failed: " + "; ".join(failures))

    # --- the load ---------------------------------------------------------------------

    async def load(self, base: str, plan: dict) -> dict:
        options = self.options
        seed = options["seed"]
        assert self.gunicorn is not None
        rec = load_clients.Recorder()
        context = load_clients.shared_ssl_context()
        ruleset = rules.RULESETS[plan["preset"]].with_options(plan["options"])
        referees = []
        for table in plan["tables"]:
            # The form names the seats by position: the labels the rounds are dealt for.
            labels = tuple(str(position) for position in range(1, table["seats"] + 1))
            rounds = deal_game(labels, ruleset, random.Random(f"{seed}-{table['number']}"))
            duplicates = {}
            if table["number"] % 4 == 1:
                for number in range(5, len(rounds) + 1, 5):
                    duplicates[number] = "concurrent" if number % 10 == 5 else "sequential"
            referees.append(
                load_clients.Referee(
                    table["id"], table["referee"], plan["password"], rounds, duplicates
                )
            )
        planned = planned_rounds(referees, options.get("rounds") or 0)
        say(
            f"{len(referees)} referees log in; {planned} rounds to submit "
            f"({min(len(r.rounds) for r in referees)}–{max(len(r.rounds) for r in referees)} "
            f"a game)"
        )
        # What the other processes of the machine use before the load starts.
        baseline = await asyncio.to_thread(load_clients.machine_busy, 3.0)
        referee_clients = [load_clients.client_for(base, context) for _ in referees]
        phone_clients = [load_clients.client_for(base, context) for _ in range(options["phones"])]
        try:
            logins = await asyncio.gather(
                *(
                    load_clients.login(rec, client, referee)
                    for client, referee in zip(referee_clients, referees, strict=True)
                )
            )
            if not all(logins):
                raise BenchError("some referees could not log in")
            alone = await load_clients.calibrate(
                rec,
                referee_clients[0],
                phone_clients[0],
                referees[0],
                plan["slug"],
                lambda: load_clients.cpu_seconds(
                    self.app_pids() + self.postgres_pids() + self.redis_pids() + self.proxy_pids()
                ),
            )
            login_samples = len(rec.samples)
            # The first referee's rounds sent alone count too (with --rounds, beyond it).
            planned = planned_rounds(referees, options.get("rounds") or 0)
            rng = random.Random(seed)
            every = options["poll_seconds"]
            stop = asyncio.Event()
            phones = []
            for index, client in enumerate(phone_clients):
                table = plan["tables"][index % len(plan["tables"])]
                pages = [
                    load_clients.Page("standings", f"/t/{plan['slug']}/standings/"),
                    load_clients.Page("table", f"/tables/{table['id']}/"),
                ]
                phones.append(
                    load_clients.run_phone(rec, client, pages, every, rng.uniform(0, every), stop)
                )
            cpu = load_clients.CpuUse()
            groups = {
                "gunicorn": self.app_pids,
                "postgres": self.postgres_pids,
                "redis": self.redis_pids,
                "proxy": self.proxy_pids,
                "benchmark": lambda: [os.getpid()],
            }
            started_wall, started = time.time(), time.monotonic()
            deadline = started + options["duration"]
            sampler = asyncio.create_task(load_clients.sample_cpu(groups, stop, cpu))
            phone_tasks = [asyncio.create_task(phone) for phone in phones]
            pace = options["pace"]
            referee_tasks = [
                asyncio.create_task(
                    load_clients.run_referee(
                        rec,
                        client,
                        referee,
                        deadline,
                        until=options.get("rounds") or None,
                        pace=pace,
                        start_after=rng.uniform(0, pace),
                    )
                )
                for client, referee in zip(referee_clients, referees, strict=True)
            ]
            outage = load_clients.Outage()

            async def acknowledged(rounds: float) -> bool:
                """Wait until this many rounds are acknowledged (a fault's moment); False
                when the load ended first."""
                while rec.acked_rounds < rounds:
                    if all(task.done() for task in referee_tasks) or time.monotonic() > deadline:
                        return False
                    await asyncio.sleep(0.05)
                return True

            fault = None
            if self.cluster is not None:
                fault = asyncio.create_task(self.fault(rec, planned, outage, acknowledged))
            await asyncio.wait(referee_tasks, timeout=options["duration"] + 60)
            ended_wall, ended = time.time(), time.monotonic()
            stop.set()
            if fault is not None:
                # Never leave with the restart half done: wait for it to finish.
                await fault
            await asyncio.wait(phone_tasks, timeout=60)
            for task in phone_tasks + referee_tasks:
                task.cancel()
            await sampler
        finally:
            await asyncio.gather(
                *(client.aclose() for client in referee_clients + phone_clients),
                return_exceptions=True,
            )
        return {
            "rec": rec,
            "login_samples": login_samples,
            "referees": referees,
            "planned": planned,
            "started_wall": started_wall,
            "ended_wall": ended_wall,
            "seconds": ended - started,
            "outage": outage if self.cluster is not None else None,
            "cpu": cpu,
            "baseline": baseline,
            "alone": alone,
        }

    async def fault(
        self,
        rec: load_clients.Recorder,
        planned: int,
        outage: load_clients.Outage,
        acknowledged: Callable[[float], Awaitable[bool]],
    ) -> None:
        """Restart PostgreSQL once the given share of the rounds is acknowledged."""
        if not await acknowledged(self.options["restart_at"] * planned):
            return
        assert self.cluster is not None
        say(f"restarting PostgreSQL {self.cluster} at round {rec.acked_rounds}")
        await load_clients.restart_database(self.cluster.pg_ctl("restart"), self.url, outage)

    def app_pids(self) -> list[int]:
        """The app server's gunicorn and its workers."""
        assert self.gunicorn is not None
        return load_clients.children_of(self.gunicorn.pid)

    def proxy_pids(self) -> list[int]:
        """The proxy in front of the app servers (none here: the clients ask gunicorn)."""
        return []

    def postgres_pids(self) -> list[int]:
        """The postmaster of the benchmark's cluster and its children, or every postgres."""
        if self.cluster is not None:
            return self.cluster.pids()
        return processes_named("postgres")

    def redis_pids(self) -> list[int]:
        """The Redis server the workers' cache lives in (part of the site's CPU)."""
        if not self.options["cache_url"]:
            return []
        return processes_named("redis-server")

    # --- the verification and the report -------------------------------------------------

    def verify(self, plan: dict, run: dict) -> dict:
        """What the site stored against what it acknowledged (load_verification), in a child
        process on the benchmark's database."""
        path = self.workdir / "verify.json"
        write_json(str(path), load_verification.acknowledged(plan, run["referees"]))
        self.stage("--stage=verify", f"--file={path}")
        return json.loads(path.read_text())

    def report(self, plan: dict, run: dict, verification: dict) -> list[str]:
        """Print the figures (load_report); return what failed (the command then exits
        non-zero)."""
        return load_report.report(self.options, run, verification, self.log_path)


# --- stage: setup (child process, DATABASE_URL = the benchmark's database) ---------------


def setup_tournament(options: dict[str, Any]) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from bench.standings import play_finished_session
    from tournaments.models import Player, Seat, Session, Table, Tournament

    rng = random.Random(options["seed"])
    referees = options["referees"]
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name="Championship day (load benchmark)",
            slug=SLUG,
            starts_on=datetime.date.today(),
            status=Tournament.Status.RUNNING,
            is_public=True,
            session_count=8,
        )
        players = Player.objects.bulk_create(
            Player(name=f"Player {number:03d}") for number in range(1, 4 * referees + 1)
        )
        # Finished sessions: the standings list every player, as on a real championship day.
        for number in range(1, options["finished_sessions"] + 1):
            session = Session.objects.create(
                tournament=tournament, number=number, status=Session.Status.FINISHED
            )
            order = players[:]
            rng.shuffle(order)
            play_finished_session(
                session, [order[4 * index : 4 * index + 4] for index in range(referees)], rng
            )
        session = Session.objects.create(
            tournament=tournament,
            number=options["finished_sessions"] + 1,
            status=Session.Status.RUNNING,
        )
        hashed = make_password(PASSWORD)
        users = get_user_model().objects.bulk_create(
            get_user_model()(username=f"referee{number:02d}", password=hashed)
            for number in range(1, referees + 1)
        )
        order = players[:]
        rng.shuffle(order)
        tables = Table.objects.create_with_games(
            Table(session=session, number=index + 1, referee=user)
            for index, user in enumerate(users)
        )
        Seat.objects.bulk_create(
            Seat(table=table, position=position, player=order[4 * index + position - 1])
            for index, table in enumerate(tables)
            for position in range(1, 5)
        )
        plan = [
            {"id": table.pk, "number": table.number, "referee": user.username, "seats": 4}
            for table, user in zip(tables, users, strict=True)
        ]
    return {
        "slug": tournament.slug,
        "password": PASSWORD,
        # The rules the referees' rounds are dealt for.
        "preset": tournament.preset,
        "options": tournament.options,
        "tables": plan,
    }
