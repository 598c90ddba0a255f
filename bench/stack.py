"""The production stack under load and faults (issue 25, point 2): a test harness.

The deploy's own Caddy configuration (deploy/yaniv.caddy, here on plain HTTP on a free port)
in front of two gunicorn app servers, with a PostgreSQL cluster and a Redis server of the
harness's own (throwaway, on free ports, removed afterwards: the machine's own servers are
never touched; bench/servers.py starts them). The load benchmark (bench/load.py: referees
submitting whole games, phones polling) runs through Caddy while, one after the other:

1. app server A is killed (SIGKILL, its workers with it) and started again;
2. Redis is restarted (its cache is lost: a cache, the sessions are kept in the database);
3. PostgreSQL is restarted (`pg_ctl restart -m fast`).
4. Redis is stopped for 60 s (`--redis-down`), then started again empty (issue 34): the
   cache's errors are misses, so not one request may fail meanwhile.

Each fault starts once a share of the rounds is acknowledged (`--faults-at`). The database
is then checked against what the site acknowledged (bench/load_verification.py: every
round stored once, with the entries sent). It prints the rounds, the lost and doubled, and
per fault the failed requests and the recovery time: from the fault to the first round
acknowledged and the first poll answered that were sent after it was over.

    .venv/bin/python -m bench stack                      # 12 referees, 60 phones
    .venv/bin/python -m bench stack --referees 4 --phones 10   # the test's size
    .venv/bin/python -m bench stack --no-faults --referees 25 --pace 12 --rounds 6 \
        --phones 200 --poll-seconds 3   # issue 36's national final, time compressed

With --no-faults the load runs alone. The report adds the p95 of the saves and the polls as
Caddy and the app servers timed them (their access logs), apart from the load generator's own
lateness.

Run as root (PostgreSQL runs as the user postgres) with Caddy, PostgreSQL and redis-server
installed (Debian: caddy, postgresql, redis-server).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from bench import BenchError, load, load_clients, load_report, say
from bench.servers import (
    AppServer,
    OwnPostgres,
    OwnRedis,
    answers,
    free_port,
    wait_until_serving,
)

DEPLOY = Path(settings.BASE_DIR) / "deploy"
FAULTS = ("app server A killed", "Redis restarted", "PostgreSQL restarted")


@dataclass
class Fault:
    name: str
    at_round: int = 0
    started: float = 0.0  # wall clock, as the samples
    over: float = 0.0  # the server is back (the restart command returned)


class StackBenchmark(load.Benchmark):
    """bench/load.py's benchmark through Caddy and two app servers, with three faults."""

    def __init__(self, options: dict[str, Any], postgres: OwnPostgres, redis: OwnRedis) -> None:
        self.postgres, self.redis = postgres, redis
        options = {
            **options,
            "database_url": f"postgres://postgres@127.0.0.1:{postgres.port}/yaniv_stack",
            "cache_url": redis.url,
            # The faults are this harness's (below), not load.py's one restart.
            "no_restart": True,
            "pg_cluster": "",
            "restart_at": 0.0,
        }
        super().__init__(options)
        # load.py starts its fault task, measures the CPU of and starts again after the run
        # the cluster it may restart: the harness's own.
        self.cluster = postgres
        self.env["TRUSTED_PROXY_COUNT"] = "1"
        self.servers: dict[str, AppServer] = {}
        self.ports = {"A": free_port(), "B": free_port()}
        self.caddy: subprocess.Popen | None = None
        self.faults = [Fault(name) for name in FAULTS]
        if options.get("redis_down") and not options.get("no_faults"):
            self.faults.append(Fault(f"Redis down {options['redis_down']:g} s"))
        self.access_log = self.workdir / "access.log"
        # Each app server's own time per request (from its worker thread taking it to the
        # answer), beside the proxy's: the difference is the wait for a worker thread.
        self.app_access_log = self.workdir / "app-access.log"
        self.env["GUNICORN_CMD_ARGS"] = (
            f"--access-logfile={self.app_access_log} --access-logformat='%(m)s %(U)s?%(q)s %(M)s'"
        )

    # --- the stack ------------------------------------------------------------------

    def start_server(self, name: str) -> AppServer:
        self.servers[name] = AppServer(
            self.ports[name],
            self.options,
            self.env,
            self.log_path,
            serves=("-c", "gunicorn.conf.py"),
        )
        return self.servers[name]

    def start_gunicorn(self, plan: dict) -> str:
        for name in self.ports:
            self.start_server(name)
        # load.py's one gunicorn (its CPU is both servers': app_pids): B, never killed.
        self.gunicorn = self.servers["B"]
        port = free_port()
        caddyfile = self.workdir / "Caddyfile"
        caddyfile.write_text(
            "{\n\tauto_https off\n\tadmin off\n}\n"
            f"import {DEPLOY / 'yaniv.caddy'}\n"
            f"http://:{port} {{\n\timport yaniv\n"
            # What the proxy saw, each request's time from its arrival to its answer: the
            # site's latency without the load generator's own (a busy event loop reads late).
            f"\tlog {{\n\t\toutput file {self.access_log}\n\t\tformat json\n\t}}\n}}\n"
        )
        caddy_env = {
            **os.environ,
            "YANIV_STATIC": self.env["STATIC_ROOT"],
            "YANIV_UPSTREAMS": " ".join(f"127.0.0.1:{p}" for p in self.ports.values()),
            "YANIV_HOST": "127.0.0.1",
        }
        with open(self.workdir / "caddy.log", "wb") as log:
            self.caddy = subprocess.Popen(
                ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
                env=caddy_env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        base = f"http://127.0.0.1:{port}"

        def serving() -> bool:
            return all(
                answers(f"{server.base}/health/", 2) for server in self.servers.values()
            ) and answers(f"{base}/t/{plan['slug']}/standings/")

        named = {f"app server {name}": server for name, server in self.servers.items()}
        if not wait_until_serving(named, serving, self.log_path):
            raise BenchError("the stack did not answer within 60 s")
        say(
            f"Caddy on {base} in front of app servers A and B (127.0.0.1:"
            f"{self.ports['A']}, :{self.ports['B']}), {self.options['workers']} "
            f"workers × {self.options['threads']} threads each"
        )
        return base

    def stop_gunicorn(self) -> None:
        for server in self.servers.values():
            server.stop()
        if self.caddy is not None and self.caddy.poll() is None:
            self.caddy.terminate()
            self.caddy.wait(10)

    # --- the faults -----------------------------------------------------------------

    def redis_pids(self) -> list[int]:
        return self.redis.pids()

    def app_pids(self) -> list[int]:
        """Both app servers' gunicorn and workers (A's anew after its restart)."""
        return [
            pid
            for server in self.servers.values()
            if not server.exited()
            for pid in load_clients.children_of(server.pid)
        ]

    def proxy_pids(self) -> list[int]:
        if self.caddy is None or self.caddy.poll() is not None:
            return []
        return [self.caddy.pid]

    async def fault(
        self,
        rec: load_clients.Recorder,
        planned: int,
        outage: load_clients.Outage,
        acknowledged: Callable[[float], Awaitable[bool]],
    ) -> None:
        """The three faults, each once its share of the rounds is acknowledged."""
        if self.options["no_faults"]:
            return
        three = self.faults[: len(FAULTS)]
        for fault, share in zip(three, self.options["faults_at"], strict=True):
            if not await acknowledged(share * planned):
                return
            fault.at_round = rec.acked_rounds
            say(f"{fault.name} at round {fault.at_round}")
            fault.started = time.time()
            if fault is self.faults[0]:
                await asyncio.to_thread(self.servers["A"].kill)
                await asyncio.to_thread(self.start_server, "A")
                health = f"{self.servers['A'].base}/health/"
                while not await asyncio.to_thread(answers, health, 2):
                    await asyncio.sleep(0.05)
            elif fault is self.faults[1]:
                await asyncio.to_thread(self.redis.stop)
                await asyncio.to_thread(self.redis.start)
            else:
                # load.py's own restart, with its probe: the outage it reports is this one.
                await load_clients.restart_database(
                    self.postgres.pg_ctl("restart"), self.url, outage
                )
                fault.started = outage.started
            fault.over = time.time()
        await self.redis_down(rec, planned, acknowledged)

    async def redis_down(
        self,
        rec: load_clients.Recorder,
        planned: int,
        acknowledged: Callable[[float], Awaitable[bool]],
    ) -> None:
        """Issue 34's fault, after the three: Redis stopped for --redis-down seconds, then
        started again empty. A cache is a cache: no save may fail meanwhile."""
        if len(self.faults) == len(FAULTS):
            return
        fault = self.faults[-1]
        if not await acknowledged(self.options["redis_down_at"] * planned):
            return
        fault.at_round = rec.acked_rounds
        say(f"{fault.name} at round {fault.at_round}")
        fault.started = time.time()
        await asyncio.to_thread(self.redis.stop)
        await asyncio.sleep(self.options["redis_down"])
        await asyncio.to_thread(self.redis.start)
        fault.over = time.time()

    def judge_redis_down(self, samples: list[load_clients.Sample]) -> list[str]:
        """Redis down: not one save (round submitted) and not one request failed."""
        if len(self.faults) == len(FAULTS) or not self.faults[-1].started:
            return []
        fault = self.faults[-1]
        during = [s for s in samples if fault.started <= s.end and s.start <= fault.over]
        failed = [s for s in during if s.outcome != "ok"]
        saves = [s for s in failed if s.endpoint == "submit"]
        submitted = sum(1 for s in during if s.endpoint == "submit")
        say(
            f"{fault.name}: {len(during)} requests during it ({submitted} saves), "
            f"{len(failed)} failed, {len(saves)} of them saves"
        )
        return [f"{len(failed)} requests failed with Redis down"] if failed else []

    # --- the report -----------------------------------------------------------------

    def report(self, plan: dict, run: dict, verification: dict) -> list[str]:
        # load.py knows one outage (PostgreSQL's); the failures during the other two faults
        # are judged here.
        everything = super().report(plan, run, verification)
        failures = [
            failure
            for failure in everything
            if not failure.startswith("errors outside the outage")
        ]
        samples: list[load_clients.Sample] = run["rec"].samples
        say("")
        say("the stack: Caddy (deploy/yaniv.caddy) in front of two app servers")
        acked = sum(1 for referee in run["referees"] for log in referee.log if log.acked)
        problems = verification["problems"]
        say(
            f"rounds: {run['planned']} planned, {acked} acknowledged, "
            f"{verification.get('rounds', acked)} stored; lost or doubled: "
            f"{'none' if not problems else '; '.join(problems)}"
        )
        say(proxy_latencies(self.access_log))
        say(app_latencies(self.app_access_log))
        if self.options["no_faults"]:
            # No fault: any failed request is one.
            return everything
        windows = []
        starts = [fault.started for fault in self.faults if fault.started] + [float("inf")]
        for index, fault in enumerate(self.faults):
            if not fault.started:
                say(f"{fault.name}: not reached (the load ended first)")
                failures.append(f"{fault.name} did not happen")
                continue
            window = [s for s in samples if starts[index] <= s.end < starts[index + 1]]
            failed = [s for s in window if s.outcome != "ok"]
            # Recovered: the first answers to requests sent after the last one that failed.
            last_failure = max((s.start for s in failed), default=fault.started)
            recovery = {}
            for label, kind in (("round", "submit"), ("poll", "")):
                answered = load_report.first_answered(window, last_failure, kind)
                recovery[label] = (
                    answered - fault.started if answered is not None else float("inf")
                )
            windows.append((fault.started, fault.started + max(recovery.values())))
            say(
                f"{fault.name} at round {fault.at_round}: the server back after "
                f"{fault.over - fault.started:.2f} s; {len(failed)} requests failed"
                + (
                    f" ({load_report.describe(Counter(s.outcome for s in failed))})"
                    if failed
                    else ""
                )
                + f"; saves resumed {recovery['round']:.2f} s and polls "
                f"{recovery['poll']:.2f} s after the fault began"
            )
            if recovery["round"] == float("inf") and failed:
                failures.append(f"the saves did not resume after: {fault.name}")
        outside = [
            s
            for s in samples
            if s.outcome != "ok"
            and not any(start <= s.end and s.start <= end for start, end in windows)
        ]
        failures += self.judge_redis_down(samples)
        say(f"requests failed outside the faults: {len(outside)}")
        if outside:
            failures.append(f"{len(outside)} requests failed outside the faults")
        return failures


def proxy_latencies(access_log: Path) -> str:
    """The p95 of the saves and the polls as Caddy timed them (its access log): from a
    request's arrival to its answer, queueing at the app servers included, the load
    generator's own delays not."""
    times: dict[str, list[float]] = {"saves": [], "polls": []}
    if access_log.exists():
        for line in access_log.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError):
                entry = json.loads(line)
                request = entry["request"]
                if request["method"] == "POST" and request["uri"].endswith("/sync/"):
                    times["saves"].append(entry["duration"] * 1000)
                elif request["method"] == "GET" and "since=" in request["uri"]:
                    times["polls"].append(entry["duration"] * 1000)
    return "as the proxy timed them (p50 / p95 / p99 ms): " + "; ".join(
        f"{kind} {len(values)}: "
        + " / ".join(
            f"{load_clients.percentile(values, share):.0f}" for share in (0.5, 0.95, 0.99)
        )
        for kind, values in times.items()
    )


def app_latencies(access_log: Path) -> str:
    """The same p95 as the app servers timed them (gunicorn's access log: from a worker
    thread taking the request to the answer; the wait for a thread is not in it)."""
    times: dict[str, list[float]] = {"saves": [], "polls": []}
    if access_log.exists():
        for line in access_log.read_text(errors="replace").splitlines():
            method, _, rest = line.partition(" ")
            url, _, milliseconds = rest.rpartition(" ")
            with contextlib.suppress(ValueError):
                if method == "POST" and url.split("?")[0].endswith("/sync/"):
                    times["saves"].append(float(milliseconds))
                elif method == "GET" and "since=" in url:
                    times["polls"].append(float(milliseconds))
    return "as the app servers timed them (p50 / p95 / p99 ms): " + "; ".join(
        f"{kind} {len(values)}: "
        + " / ".join(
            f"{load_clients.percentile(values, share):.0f}" for share in (0.5, 0.95, 0.99)
        )
        for kind, values in times.items()
    )


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "The deploy's Caddy in front of two gunicorn app servers with a PostgreSQL and a "
            "Redis of its own, under load, while an app server is killed, Redis restarted "
            "and PostgreSQL restarted."
        ),
    )
    parser.add_argument("--referees", type=int, default=12, help="tables, one referee each")
    parser.add_argument("--phones", type=int, default=60)
    parser.add_argument("--poll-seconds", type=float, default=2.0)
    # A table's pace shortened: the games last long enough for the three faults to fall in.
    parser.add_argument(
        "--pace", type=float, default=2.0, help="seconds a referee waits between rounds"
    )
    parser.add_argument(
        "--faults-at",
        type=float,
        nargs=3,
        default=[0.15, 0.45, 0.7],
        help="the shares of the rounds acknowledged at which each fault starts",
    )
    parser.add_argument(
        "--redis-down",
        type=float,
        default=60.0,
        help="seconds Redis is stopped in a fourth fault (issue 34); 0: no such fault",
    )
    parser.add_argument("--redis-down-at", type=float, default=0.8)
    parser.add_argument(
        "--no-faults",
        action="store_true",
        help="the load alone, for its figures against the national final's goal",
    )
    load.add_rounds_argument(parser)
    parser.add_argument("--duration", type=float, default=300.0, help="cap on the load, seconds")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers a server")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads a worker")
    parser.add_argument("--finished-sessions", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    options = vars(parser.parse_args(argv))
    options["keep"] = False
    for tool in ("caddy", "redis-server", "runuser"):
        if shutil.which(tool) is None:
            raise BenchError(f"{tool} is not installed")
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)
    postgres = OwnPostgres(Path(tempfile.mkdtemp(prefix="bench_stack-")))
    redis = OwnRedis()
    try:
        postgres.start()
        redis.start()
        say(f"own PostgreSQL on 127.0.0.1:{postgres.port}, own Redis on 127.0.0.1:{redis.port}")
        StackBenchmark(options, postgres, redis).run()
    finally:
        redis.stop()
        postgres.stop()
    return 0
