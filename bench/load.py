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
import contextlib
import datetime
import json
import logging
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings

from bench import BenchError, deal_game, load_clients, say
from scoring import rules

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/yaniv_bench"
# The workers' shared cache: a Redis database of its own (emptied when the load starts).
DEFAULT_CACHE_URL = "redis://127.0.0.1:6379/13"
# The goals of issue 14 for a championship day on one small server.
PHONES_CPU_GOAL = 0.5
SUBMIT_P95_GOAL_MS = 300
PASSWORD = "bench-referee-password"
SLUG = "championship-day"
LOCAL = {"127.0.0.1", "localhost", "::1"}
SUBPROCESS_TIMEOUT = 600


def add_server_arguments(parser: argparse.ArgumentParser, database: str, cache: str) -> None:
    """The database the benchmark creates afresh and the Redis its gunicorn workers share."""
    parser.add_argument("--database-url", default=database, help="created afresh")
    parser.add_argument(
        "--cache-url",
        default=cache,
        help="the workers' shared Redis cache, emptied first ('' for each process's memory)",
    )


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
    parser.add_argument("--keep", action="store_true", help="keep the database")
    # The child processes: setup and verification with DATABASE_URL set.
    parser.add_argument("--stage", choices=["setup", "verify"], help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    options = vars(parser.parse_args(argv))
    if options["stage"] == "setup":
        write_json(options["file"], setup_tournament(options))
    elif options["stage"] == "verify":
        path = options["file"]
        write_json(path, verify(json.loads(Path(path).read_text())))
    else:
        # The clients' own request log would drown the report.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        Benchmark(options).run()
    return 0


def write_json(path: str, data: object) -> None:
    Path(path).write_text(json.dumps(data))


# --- the orchestration ----------------------------------------------------------------


class Benchmark:
    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.url = options["database_url"]
        parts = urlsplit(self.url)
        if parts.scheme not in {"postgres", "postgresql"}:
            raise BenchError("--database-url must be a PostgreSQL URL")
        self.db_name = parts.path.lstrip("/")
        if not self.db_name.replace("_", "").isalnum():
            raise BenchError("the database name may hold letters, digits and _ only")
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 5432
        self.maintenance_url = urlunsplit(parts._replace(path="/postgres"))
        self.cluster: tuple[str, str] | None = None
        if not options["no_restart"]:
            self.cluster = self.find_cluster(options["pg_cluster"])
        self.workdir = Path(tempfile.mkdtemp(prefix="bench_load-"))
        self.gunicorn: subprocess.Popen | None = None
        self.env = {
            **os.environ,
            "DATABASE_URL": self.url,
            "DEBUG": "0",
            "SECRET_KEY": "bench",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "SECURE_HSTS_SECONDS": "0",
            "CONN_MAX_AGE": "60",
            # The server log is read back for the report.
            "LOG_FORMAT": "json",
            # The workers share their cache (fragments, downloads, sessions) as in production.
            "CACHE_URL": options["cache_url"],
        }

    def run(self) -> None:
        restarted = False
        failures: list[str] = []
        try:
            self.create_database()
            say(f"database {self.db_name} created on {self.host}:{self.port}")
            self.empty_cache()
            started = time.perf_counter()
            self.manage("migrate", "--noinput")
            self.manage("collectstatic", "--noinput")
            plan_file = self.workdir / "plan.json"
            self.bench(
                "--stage=setup",
                f"--file={plan_file}",
                f"--referees={self.options['referees']}",
                f"--finished-sessions={self.options['finished_sessions']}",
                f"--seed={self.options['seed']}",
            )
            plan = json.loads(plan_file.read_text())
            say(
                f"migrated, static files collected, tournament of {len(plan['tables'])} tables "
                f"set up in {time.perf_counter() - started:.1f} s"
            )
            base = self.start_gunicorn(plan)
            restarted = self.cluster is not None
            run = asyncio.run(self.load(base, plan))
            self.stop_gunicorn()
            verification = self.verify(plan, run)
            failures = self.report(plan, run, verification)
        finally:
            self.stop_gunicorn()
            if restarted:
                self.ensure_database_running()
            if not self.options["keep"]:
                with contextlib.suppress(Exception):
                    self.drop_database()
            for path in sorted(self.workdir.glob("*")):
                path.unlink()
            self.workdir.rmdir()
        if failures:
            raise BenchError("the benchmark failed: " + "; ".join(failures))

    # --- PostgreSQL -------------------------------------------------------------------

    def find_cluster(self, named: str) -> tuple[str, str]:
        """The local cluster serving the URL's port, as (version, name)."""
        if self.host not in LOCAL:
            raise BenchError("a restart needs a local PostgreSQL: use --no-restart")
        if named:
            version, _, name = named.partition("/")
            return version, name
        try:
            listing = subprocess.run(
                ["pg_lsclusters", "--no-header"],
                capture_output=True,
                text=True,
                check=True,
                timeout=30,
            ).stdout
        except (OSError, subprocess.SubprocessError) as error:
            raise BenchError(f"pg_lsclusters failed ({error}): use --no-restart") from error
        for line in listing.splitlines():
            fields = line.split()
            if len(fields) >= 4 and fields[2] == str(self.port) and fields[3] == "online":
                return fields[0], fields[1]
        raise BenchError(f"no online cluster on port {self.port}: use --no-restart")

    def connect_maintenance(self):
        import psycopg

        return psycopg.connect(self.maintenance_url, autocommit=True, connect_timeout=10)

    def create_database(self) -> None:
        with self.connect_maintenance() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{self.db_name}"')

    def empty_cache(self) -> None:
        """The benchmark's Redis database, emptied: nothing kept from an earlier run (its
        tables have the same ids and versions) is served to this one."""
        url = self.options["cache_url"]
        if not url:
            say("cache: each gunicorn worker's own memory (--cache-url '')")
            return
        import redis

        try:
            redis.Redis.from_url(url, socket_connect_timeout=5).flushdb()
        except redis.RedisError as error:
            raise BenchError(
                f"Redis at {url} does not answer ({error}): start it, or --cache-url ''"
            ) from error
        say(f"cache: Redis at {url}, shared by the workers, emptied")

    def drop_database(self) -> None:
        with self.connect_maintenance() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')

    def pg_ctl(self, action: str) -> list[str]:
        assert self.cluster is not None
        version, name = self.cluster
        return ["pg_ctlcluster", "--skip-systemctl-redirect", version, name, action]

    def ensure_database_running(self) -> None:
        """Never leave PostgreSQL stopped: start it if the restart left it down."""
        status = subprocess.run(self.pg_ctl("status"), capture_output=True, timeout=60)
        if status.returncode != 0:
            say("PostgreSQL is not running after the restart: starting it")
            subprocess.run(self.pg_ctl("start"), timeout=120, check=False)

    # --- the site ---------------------------------------------------------------------

    def manage(self, *args: str) -> None:
        self.child(["manage.py", *args], f"manage.py {args[0]}")

    def bench(self, *args: str) -> None:
        """This benchmark in a child process, on the benchmark's database (a `--stage`)."""
        self.child(["-m", "bench", "load", *args], f"the {args[0].partition('=')[2]} stage")

    def child(self, args: list[str], name: str) -> None:
        result = subprocess.run(
            [sys.executable, *args],
            cwd=settings.BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=SUBPROCESS_TIMEOUT,
        )
        if result.returncode != 0:
            raise BenchError(f"{name} failed:\n{result.stdout}{result.stderr}")

    def start_gunicorn(self, plan: dict) -> str:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.log_path = self.workdir / "gunicorn.log"
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "yaniv_club.wsgi:application",
            f"--bind=127.0.0.1:{port}",
            f"--workers={self.options['workers']}",
            f"--threads={self.options['threads']}",
            "--timeout=60",
            "--graceful-timeout=10",
        ]
        with open(self.log_path, "wb") as log:
            self.gunicorn = subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        import httpx

        while time.monotonic() < deadline:
            if self.gunicorn.poll() is not None:
                raise BenchError(f"gunicorn exited:\n{self.log_path.read_text()[-3000:]}")
            try:
                response = httpx.get(f"{base}/t/{plan['slug']}/standings/", trust_env=False)
                if response.status_code == 200:
                    say(
                        f"gunicorn on {base}: {self.options['workers']} workers × "
                        f"{self.options['threads']} threads"
                    )
                    return base
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise BenchError("gunicorn did not answer within 60 s")

    def stop_gunicorn(self) -> None:
        if self.gunicorn is None or self.gunicorn.poll() is not None:
            return
        self.gunicorn.send_signal(signal.SIGTERM)
        try:
            self.gunicorn.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.gunicorn.pid, signal.SIGKILL)
            self.gunicorn.wait(10)

    # --- the load ---------------------------------------------------------------------

    async def load(self, base: str, plan: dict) -> dict:
        options = self.options
        seed = options["seed"]
        assert self.gunicorn is not None
        gunicorn = self.gunicorn.pid
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
        planned = sum(len(referee.rounds) for referee in referees)
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
                    load_clients.children_of(gunicorn) + self.postgres_pids() + self.redis_pids()
                ),
            )
            login_samples = len(rec.samples)
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
                "gunicorn": lambda: load_clients.children_of(gunicorn),
                "postgres": self.postgres_pids,
                "redis": self.redis_pids,
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
                        pace=pace,
                        start_after=rng.uniform(0, pace),
                    )
                )
                for client, referee in zip(referee_clients, referees, strict=True)
            ]
            outage = load_clients.Outage()
            fault = None
            if self.cluster is not None:
                fault = asyncio.create_task(
                    self.fault(rec, planned, outage, referee_tasks, deadline)
                )
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
        referee_tasks: list[asyncio.Task],
        deadline: float,
    ) -> None:
        """Restart PostgreSQL once the given share of the rounds is acknowledged."""
        while rec.acked_rounds < self.options["restart_at"] * planned:
            if all(task.done() for task in referee_tasks) or time.monotonic() > deadline:
                return
            await asyncio.sleep(0.05)
        assert self.cluster is not None
        say(f"restarting PostgreSQL {'/'.join(self.cluster)} at round {rec.acked_rounds}")
        await load_clients.restart_database(self.pg_ctl("restart"), self.url, outage)

    def postgres_pids(self) -> list[int]:
        """The postmaster of the benchmark's cluster and its children, or every postgres."""
        if self.cluster is not None:
            version, name = self.cluster
            pid_file = Path(f"/var/lib/postgresql/{version}/{name}/postmaster.pid")
            with contextlib.suppress(OSError, ValueError, IndexError):
                return load_clients.children_of(int(pid_file.read_text().split()[0]))
        pids = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError):
                    if Path(f"/proc/{entry}/comm").read_text().strip() == "postgres":
                        pids.append(int(entry))
        return pids

    def redis_pids(self) -> list[int]:
        """The Redis server the workers' cache lives in (part of the site's CPU)."""
        if not self.options["cache_url"]:
            return []
        pids = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError):
                    if Path(f"/proc/{entry}/comm").read_text().strip() == "redis-server":
                        pids.append(int(entry))
        return pids

    # --- the verification ---------------------------------------------------------------

    def verify(self, plan: dict, run: dict) -> dict:
        tables = []
        by_id = {table["id"]: table for table in plan["tables"]}
        for referee in run["referees"]:
            tables.append(
                {
                    "id": referee.table_id,
                    "number": by_id[referee.table_id]["number"],
                    "planned": len(referee.rounds),
                    "acked": [
                        {
                            "number": log.number,
                            "entries": log.entries,
                            "attempts": [
                                [attempt.start, attempt.end, attempt.outcome]
                                for attempt in log.attempts
                            ],
                        }
                        for log in referee.log
                        if log.acked
                    ],
                    # A round sent but never acknowledged (time ran out) may or may not be
                    # stored: the verification accepts it only as the last round.
                    "unacked": [log.entries for log in referee.log if not log.acked],
                }
            )
        path = self.workdir / "verify.json"
        write_json(str(path), {"tables": tables})
        self.bench("--stage=verify", f"--file={path}")
        return json.loads(path.read_text())

    # --- the report ---------------------------------------------------------------------

    def report(self, plan: dict, run: dict, verification: dict) -> list[str]:
        """Print the figures; return what failed (the command then exits non-zero)."""
        rec: load_clients.Recorder = run["rec"]
        outage: load_clients.Outage | None = run["outage"]
        cpu: load_clients.CpuUse = run["cpu"]
        samples = rec.samples[run["login_samples"] :]
        logins = rec.samples[: run["login_samples"]]
        seconds = run["seconds"]
        say("")
        say(
            f"== load: {len(run['referees'])} referees "
            + (
                f"(a round every {self.options['pace']:g} s each), "
                if self.options["pace"]
                else "(as fast as the site answers), "
            )
            + f"{self.options['phones']} phones "
            f"polling every {self.options['poll_seconds']:g} s; gunicorn "
            f"{self.options['workers']} workers × {self.options['threads']} threads; "
            f"{os.cpu_count()} CPUs"
        )
        ok = sum(1 for sample in samples if sample.outcome == "ok")
        say(
            f"{len(samples)} requests in {seconds:.1f} s = {len(samples) / seconds:.1f} "
            f"requests/s ({ok} answered, {len(samples) - ok} failed)"
        )
        acked = sum(1 for referee in run["referees"] for log in referee.log if log.acked)
        say(
            f"rounds acknowledged: {acked} of {run['planned']} = {acked / seconds:.1f} rounds/s; "
            f"submits sent: {sum(1 for s in samples if s.endpoint == 'submit')}"
        )
        stopped = [r for r in run["referees"] if r.failure]
        for referee in stopped:
            say(f"  referee {referee.username} stopped: {referee.failure}")
        say("")
        say(
            f"{'latency of answered requests':34} {'count':>6} {'p50':>7} {'p95':>7} "
            f"{'p99':>7} {'max':>7}  ms"
        )
        kinds = [
            ("login (before the load)", logins, "login"),
            ("submit (tables:sync)", samples, "submit"),
            ("standings: full page", samples, "standings full"),
            ("standings: poll, changed (200)", samples, "standings changed"),
            ("standings: poll, unchanged (204)", samples, "standings unchanged"),
            ("table: full page", samples, "table full"),
            ("table: poll, changed (200)", samples, "table changed"),
            ("table: poll, unchanged (204)", samples, "table unchanged"),
        ]
        for label, pool, endpoint in kinds:
            values = [
                s.seconds * 1000 for s in pool if s.endpoint == endpoint and s.outcome == "ok"
            ]
            if not values:
                say(f"{label:34} {0:>6}")
                continue
            say(
                f"{label:34} {len(values):>6} {load_clients.percentile(values, 0.5):>7.0f} "
                f"{load_clients.percentile(values, 0.95):>7.0f} "
                f"{load_clients.percentile(values, 0.99):>7.0f} {max(values):>7.0f}"
            )
        say("")
        say(f"{'one request at a time, before the load':40} {'ms':>7} {'site CPU ms':>12}")
        for kind, median, cpu_ms in run["alone"]:
            say(f"{kind:40} {median:>7.0f} {cpu_ms:>12.0f}")
        polls = [s for s in samples if s.endpoint != "submit" and s.outcome == "ok"]
        unchanged = sum(1 for s in polls if s.endpoint.endswith("unchanged"))
        say(f"polls answered 204 (unchanged): {unchanged} of {len(polls)}")
        say(
            "GETs sent again on a new connection, the server having closed the kept-alive one "
            f"as they went out (as a browser does): {rec.resent}"
        )

        say("")
        recovered = self.recovered_at(samples, outage)
        during: Counter[str] = Counter()
        outside: Counter[str] = Counter()
        for sample in samples + logins:
            if sample.outcome == "ok":
                continue
            family = "submit" if sample.endpoint == "submit" else sample.endpoint.split()[0]
            in_outage = (
                outage is not None
                and outage.started
                and sample.end >= outage.started
                and sample.start <= recovered
            )
            (during if in_outage else outside)[f"{family}: {sample.outcome}"] += 1
        say(f"errors outside the outage: {describe(outside)}")
        if outage is not None:
            say(f"errors during the outage:  {describe(during)}")
            self.report_outage(samples, outage, recovered, run)
        for example in rec.examples:
            say(f"  unexpected answer: {example[:300]!r}")
        dup_outcomes: Counter[str] = Counter()
        for referee in run["referees"]:
            for log in referee.log:
                if log.duplicate:
                    outcomes = [attempt.outcome for attempt in log.attempts[:2]]
                    dup_outcomes[f"{log.duplicate}: {' + '.join(sorted(outcomes))}"] += 1
        if dup_outcomes:
            say(
                "identical POST sent twice (answers): "
                + ", ".join(f"{key} ×{count}" for key, count in sorted(dup_outcomes.items()))
            )

        say("")
        say(
            f"verification: {verification['games']} games, {verification['rounds']} rounds "
            f"stored, {verification['finished']} finished — "
            + ("OK" if not verification["problems"] else "PROBLEMS:")
        )
        for problem in verification["problems"][:30]:
            say(f"  {problem}")
        if len(verification["problems"]) > 30:
            say(f"  … {len(verification['problems']) - 30} more")
        misled = [note for note in verification["notes"] if "answered" in note]
        say(
            f"rounds stored by a request that was answered as failed (the referee read "
            f'"not saved"): {len(misled)}'
        )
        for note in verification["notes"][:20]:
            say(f"  note: {note}")
        say("server log:")
        self.tracebacks: dict[str, str] = {}
        for line, count in self.server_log_errors().most_common():
            say(f"  {count:>5} × {line}")
        for line, traceback in self.tracebacks.items():
            if "Internal Server Error" in line:
                say(f"  where ({line.split('[')[0].strip()}):")
                for frame in project_frames(traceback):
                    say(f"    {frame}")
        say("")
        cores = os.cpu_count() or 1
        other = cpu.machine_busy * cores * cpu.wall - sum(cpu.seconds.values())
        say(
            f"CPU over {cpu.wall:.1f} s: machine {cpu.machine_busy * 100:.0f}% busy "
            f"({cores} CPUs); "
            + ", ".join(
                f"{name} {seconds / cpu.wall * 100:.0f}% of one CPU"
                for name, seconds in [
                    *sorted(cpu.seconds.items(), key=lambda item: -item[1]),
                    ("other processes", other),
                ]
            )
            + f"; benchmark event loop up to {cpu.loop_lag_max * 1000:.0f} ms late"
        )
        say(f"before the load, other processes kept the machine {run['baseline'] * 100:.0f}% busy")
        say(self.bottleneck(cpu, cores))
        demand, phones_cpu = self.demand(run, samples, seconds)
        for line in demand:
            say(line)
        submits = [
            s.seconds * 1000 for s in samples if s.endpoint == "submit" and s.outcome == "ok"
        ]
        p95 = load_clients.percentile(submits, 0.95)
        say(
            f"goals: the phones under {PHONES_CPU_GOAL:g} CPU: {phones_cpu:.2f} — "
            f"{'ok' if phones_cpu < PHONES_CPU_GOAL else 'MISSED'}; a submission's p95 under "
            f"{SUBMIT_P95_GOAL_MS} ms: {p95:.0f} ms — "
            f"{'ok' if p95 < SUBMIT_P95_GOAL_MS else 'MISSED'}"
        )
        failures = []
        if verification["problems"]:
            failures.append("the database differs from what the site acknowledged")
        if stopped:
            names = ", ".join(referee.username for referee in stopped)
            failures.append(f"referees stopped before the end: {names}")
        if outside:
            failures.append(f"errors outside the outage: {describe(outside)}")
        return failures

    def recovered_at(self, samples: list[load_clients.Sample], outage) -> float:
        """The end of the first answered request sent after the database was back."""
        if outage is None or not outage.up:
            return 0.0
        after = [s.end for s in samples if s.outcome == "ok" and s.start >= outage.up]
        return min(after) if after else float("inf")

    def report_outage(self, samples, outage, recovered: float, run: dict) -> None:
        if not outage.started:
            say("outage: PostgreSQL was not restarted (the load ended first)")
            return
        output = f": {outage.command_output}" if outage.returncode else ""
        say(
            f"restart command: {outage.command_done - outage.started:.2f} s "
            f"(exit {outage.returncode}){output}"
        )
        if outage.down and outage.up:
            say(
                f"database refused new connections for {outage.up - outage.down:.2f} s "
                f"(from {outage.down - outage.started:.2f} s after the restart began)"
            )
        else:
            say("the probe never saw the database down")
        failed = [s for s in samples if s.outcome != "ok" and s.end >= outage.started]
        if failed:
            first, last = min(s.start for s in failed), max(s.end for s in failed)
            say(
                f"{len(failed)} requests failed; sent from {first - outage.started:+.2f} s "
                f"(queued before the restart), the last answered {last - outage.started:+.2f} s "
                f"after the restart began"
            )
        up = outage.up or outage.command_done
        for label, endpoint in (("acknowledged round", "submit"), ("answered poll", "")):
            answers = [
                s.end
                for s in samples
                if s.outcome == "ok"
                and s.start >= up
                and (s.endpoint == endpoint if endpoint else s.endpoint != "submit")
            ]
            if answers:
                say(f"first {label} {min(answers) - up:.2f} s after the database was back")
        late = [s for s in samples if s.outcome != "ok" and s.start >= recovered]
        say(
            f"requests failing after the site had recovered: {len(late)}"
            + (f" ({describe(Counter(s.outcome for s in late))})" if late else "")
        )

    def server_log_errors(self) -> Counter:
        """What gunicorn and Django logged above INFO, paths without their ids."""
        found: Counter = Counter()
        if not hasattr(self, "log_path") or not self.log_path.exists():
            return found
        for line in self.log_path.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                if "[ERROR]" in line or "[CRITICAL]" in line:
                    found["gunicorn: " + line.split("]", 3)[-1].strip()[:80]] += 1
                continue
            if not isinstance(entry, dict) or entry.get("level") not in {
                "WARNING",
                "ERROR",
                "CRITICAL",
            }:
                continue
            message = re.sub(r"\d+", "<id>", str(entry.get("message", "")))
            if message.startswith("database unavailable"):
                message = "database unavailable (answered 503)"
            exception = str(entry.get("exception", "")).strip().splitlines()
            if exception:
                message += f" [{exception[-1][:120]}]"
                self.tracebacks.setdefault(message[:200], "\n".join(exception))
            found[f"{entry['level']} {entry.get('logger')}: {message[:200]}"] += 1
        return found

    def demand(
        self, run: dict, samples: list[load_clients.Sample], seconds: float
    ) -> tuple[list[str], float]:
        """What the phones and the submissions cost the site: estimated from the costs
        measured one at a time, and measured (the site's CPU under the load less the
        submissions' cost). The lines to print, and the phones' CPUs (the estimate)."""
        cost = {kind: cpu_ms / 1000 for kind, _, cpu_ms in run["alone"]}
        polls_per_second = self.options["phones"] / self.options["poll_seconds"]
        referees = run["referees"]
        acked = sum(1 for s in samples if s.endpoint == "submit" and s.outcome == "ok")
        # New versions while the phones polled: a table's with every round, the standings'
        # with every game that finished. Each is rendered once, then served as kept.
        versions = {
            "table": acked,
            "standings": sum(
                1 for r in referees if len([log for log in r.log if log.acked]) == len(r.rounds)
            ),
        }
        need = 0.0
        for page in ("standings", "table"):
            changed = sum(1 for s in samples if s.endpoint == f"{page} changed")
            unchanged = sum(1 for s in samples if s.endpoint == f"{page} unchanged")
            share = changed / max(changed + unchanged, 1)
            rendered = min(changed, versions[page]) / seconds
            need += polls_per_second * (
                share * cost[f"{page}: poll, changed, kept"]
                + (1 - share) * cost[f"{page}: poll, 204"]
            ) + rendered * max(
                cost[f"{page}: poll, changed, rendered"] - cost[f"{page}: poll, changed, kept"], 0
            )
        submit = cost["submit (tables:sync)"]
        submits = acked / seconds * submit
        cpu: load_clients.CpuUse = run["cpu"]
        site = sum(cpu.seconds.get(name, 0.0) for name in ("gunicorn", "postgres", "redis"))
        measured = site / max(cpu.wall, 1e-9) - submits
        lines = [
            f"the phones' polls ({polls_per_second:.0f} polls/s) cost the site {need:.2f} CPUs "
            f"(the costs measured alone, each version rendered once); measured: the site's "
            f"{site / max(cpu.wall, 1e-9):.2f} CPUs under the load less the submissions "
            f"{submits:.2f} = {measured:.2f} CPUs (PostgreSQL's CPU includes any other work "
            f"on the server)",
            f"the submissions {submits:.2f} CPUs at {acked / seconds:.1f} rounds/s; one CPU "
            f"submits at most {1 / max(submit, 1e-9):.0f} rounds/s",
        ]
        return lines, need

    def bottleneck(self, cpu: load_clients.CpuUse, cores: int) -> str:
        shares = {name: seconds / max(cpu.wall, 1e-9) for name, seconds in cpu.seconds.items()}
        top = max(shares, key=lambda name: shares[name]) if shares else "nothing"
        if cpu.machine_busy > 0.9:
            return (
                f"limit: the machine's {cores} CPUs are saturated; {top} uses the most "
                f"({shares.get(top, 0) * 100:.0f}% of one CPU)"
            )
        return (
            f"limit: not CPU-bound ({cpu.machine_busy * 100:.0f}% busy): waits (locks, I/O, "
            f"the number of gunicorn threads) bound the throughput"
        )


def project_frames(traceback: str) -> list[str]:
    """The traceback's frames in the project's own files (not the venv), and its last line."""
    lines = traceback.splitlines()
    base = str(settings.BASE_DIR)
    frames = []
    for index, line in enumerate(lines):
        if line.strip().startswith(f'File "{base}') and "/.venv/" not in line:
            source = lines[index + 1].strip() if index + 1 < len(lines) else ""
            frames.append(f"{line.strip().removeprefix('File ')}: {source}")
    return [*frames, lines[-1].strip()] if lines else frames


def describe(counts: Counter) -> str:
    if not counts:
        return "none"
    return ", ".join(f"{key} ×{count}" for key, count in counts.most_common())


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


# --- stage: verify (child process) ---------------------------------------------------------


def verify(data: dict[str, Any]) -> dict[str, Any]:
    """Compare the database with what the site acknowledged; problems and notes as text."""
    from tournaments.models import GameChange, Hand, Round, Table

    problems: list[str] = []
    notes: list[str] = []
    rounds_total = finished = 0
    for expected in data["tables"]:
        table = Table.objects.select_related("session__tournament", "game").get(pk=expected["id"])
        game = table.game
        rows = game.rows()
        name = f"table {expected['number']}"
        position = {seat.pk: str(seat.position) for seat in rows.seats}
        stored = list(rows.rounds)
        numbers = [r.number for r in stored]
        acked = expected["acked"]
        rounds_total += len(stored)
        if numbers != list(range(1, len(stored) + 1)):
            problems.append(f"{name}: rounds numbered {numbers}, not 1..{len(stored)}")
        extra = len(stored) - len(acked)
        unacked_ok = extra == 1 and expected["unacked"] and len(acked) < expected["planned"]
        if extra and not unacked_ok:
            problems.append(
                f"{name}: {len(stored)} rounds stored, {len(acked)} acknowledged"
                + (" (a round is lost)" if extra < 0 else " (a round too many)")
            )
        elif extra:
            notes.append(f"{name}: the round sent as time ran out was stored")
        sent = [a["entries"] for a in acked] + (expected["unacked"][:1] if unacked_ok else [])
        for round_, entries in zip(stored, sent, strict=False):
            hands = list(round_.hands.all())
            if len(hands) != len(rows.seats):
                problems.append(f"{name} round {round_.number}: {len(hands)} hands, half saved")
                continue
            found = {
                "hands": {position[h.seat_id]: h.hand_total for h in hands},
                "yaniv": position[round_.caller_id] if round_.caller_id else None,
                "empty_hand": position[round_.empty_hand_id] if round_.empty_hand_id else None,
                "along": sorted(position[h.seat_id] for h in hands if h.along),
            }
            if found != entries:
                problems.append(
                    f"{name} round {round_.number}: stored {found}, acknowledged {entries}"
                )
        # The cached numbers against a fresh recomputation by the engine.
        try:
            result = game.score(rows)
        except Exception as error:  # the engine refuses the stored game
            problems.append(f"{name}: the engine refuses the stored rounds: {error}")
            continue
        labels = rows.labels
        for round_, scored in zip(stored, result.rounds, strict=True):
            if round_.kind != scored.kind.value:
                problems.append(f"{name} round {round_.number}: kind {round_.kind}")
            for hand in round_.hands.all():
                label = labels[hand.seat_id]
                cached = (hand.points, hand.reduction, hand.total)
                fresh = (
                    scored.points[label],
                    scored.reductions.get(label, 0),
                    scored.totals[label],
                )
                if cached != fresh:
                    problems.append(
                        f"{name} round {round_.number} seat {position[hand.seat_id]}: "
                        f"cached {cached}, engine {fresh}"
                    )
        ranks = {placing.player: placing.rank for placing in result.ranking}
        for seat in rows.seats:
            label = labels[seat.pk]
            if (seat.total, seat.rank) != (result.totals[label], ranks[label]):
                problems.append(
                    f"{name} seat {seat.position}: total/rank {(seat.total, seat.rank)}, "
                    f"engine {(result.totals[label], ranks[label])}"
                )
        all_sent = len(stored) == expected["planned"]
        if game.finished != result.finished or game.finished != all_sent:
            problems.append(
                f"{name}: finished={game.finished}, engine says {result.finished}, "
                f"{len(stored)} of {expected['planned']} planned rounds stored"
            )
        finished += game.finished
        if game.version != len(stored):
            problems.append(f"{name}: version {game.version} after {len(stored)} rounds")
        logged = Counter(
            number or 0  # every record names its round
            for number in GameChange.objects.filter(
                game=game, action=GameChange.Action.RECORD
            ).values_list("round_number", flat=True)
        )
        if logged != Counter(numbers):
            problems.append(f"{name}: the audit log records rounds {sorted(logged.elements())}")
        # Which request stored each round: one answered "not saved" would have misled.
        for round_, ack in zip(stored, acked, strict=False):
            at = round_.entered_at.timestamp()
            holding = [a for a in ack["attempts"] if a[0] - 0.05 <= at <= a[1] + 0.05]
            if holding and all(a[2] not in load_clients.ACKNOWLEDGED for a in holding):
                notes.append(
                    f"{name} round {round_.number} was stored by a request answered "
                    f"{'/'.join(a[2] for a in holding)}; the retry was then acknowledged"
                )
            elif not holding:
                notes.append(f"{name} round {round_.number}: stored outside every attempt")
    table_ids = [expected["id"] for expected in data["tables"]]
    stray = Round.objects.filter(game__table__session__status="running").exclude(
        game__table__in=table_ids
    )
    if stray.exists():
        problems.append(f"{stray.count()} rounds stored at tables nobody submitted to")
    orphans = Hand.objects.filter(round__game__table__in=table_ids).count()
    if orphans != 4 * rounds_total:
        problems.append(f"{orphans} hands for {rounds_total} rounds of 4 players")
    return {
        "games": len(data["tables"]),
        "rounds": rounds_total,
        "finished": finished,
        "problems": problems,
        "notes": notes,
    }
