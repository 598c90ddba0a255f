"""Benchmark: expensive downloads against the referees (issue 13, point 3; not a test).

Anonymous followers can ask for every round of a tournament as CSV (`rounds.csv`, about
80,000 lines at championship size, a new version with every round), the heaviest download
rendered in the request (the tournament report is rendered by the task worker instead). The
site keeps every PDF and CSV by the version of what it shows and bounds how many renders run
at once in a process (`tournaments.caching`, 503 beyond the bound). This
measures what a referee and the health check see meanwhile, on the site as `bench load` runs
it (gunicorn, DEBUG=0, PostgreSQL, the workers' cache in Redis), in a database of its own that
is created afresh and dropped afterwards (unless --keep):

1. a public tournament of `--players` players and `--sessions` finished sessions
   (`bench.standings.build`), and a running session with two unfinished tables: one whose
   referee previews a round, one whose game the benchmark changes through the ORM;
2. interleaved, `--rotations` times, windows of `--window` seconds of each load:
   (a) nothing else; (b) `--clients` clients downloading the rounds again and again, unchanged
   (kept: rendered once before the window); (c) `--clients` clients each changing the
   tournament's version (a round recorded or undone at the second table, through the ORM, in
   a child process) and then downloading the rounds, so that every download asks for a
   file nobody rendered yet. Meanwhile the referee previews a round (`tables:preview`)
   and a monitor asks for `/health/`, one request at a time with a short pause;
3. the rounds' render time alone (a new version each time, nothing else running) and
   served from the cache.

Every render is counted from the server's log: the workers' bound of renders is wrapped to
log each slot taken, released or refused (`bench/downloads_server.py`, a gunicorn hook; the
site itself logs no renders), which also gives how many renders ran at once at most, in one
worker and in the whole server. The answers refused by the bound (503) are counted from the
responses. The setup and the version changes run in child processes (`--stage`) with
DATABASE_URL pointing at the benchmark's database.

    .venv/bin/python -m bench downloads                       # 512 players, 8 clients
    .venv/bin/python -m bench downloads --players 16 --sessions 2 --window 2 --rotations 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from django.conf import settings

from bench import BenchError, deal_game, load_clients, load_report, say
from bench.servers import Site, add_server_arguments, add_site_arguments, write_json

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/yaniv_bench_downloads"
# A Redis database of its own (bench load uses 13, its smoke test 12), emptied first.
DEFAULT_CACHE_URL = "redis://127.0.0.1:6379/11"
PASSWORD = "bench-referee-password"
PHASES = {
    "a": "alone",
    "b": "clients, the rounds kept",
    "c": "clients, fresh renders",
}
# The probes' pause between requests: a referee typing, a monitor checking.
PROBE_PAUSE = 0.1


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "The referee's round preview and /health/ alone, while clients download the "
            "tournament's rounds (CSV) unchanged, and while they force fresh renders (gunicorn + "
            "PostgreSQL)."
        ),
    )
    add_server_arguments(parser, DEFAULT_URL, DEFAULT_CACHE_URL)
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--clients", type=int, default=8, help="concurrent downloaders")
    parser.add_argument("--window", type=float, default=10.0, help="seconds of each load")
    parser.add_argument("--rotations", type=int, default=3, help="rounds of (a), (b), (c)")
    parser.add_argument("--renders-alone", type=int, default=5, help="rounds renders timed")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads a worker")
    parser.add_argument("--seed", type=int, default=2026)
    # The child processes: setup and the version changes.
    add_site_arguments(parser, ["setup", "change"])
    options = vars(parser.parse_args(argv))
    if options["stage"] == "setup":
        write_json(options["file"], setup_tournament(options))
    elif options["stage"] == "change":
        change_versions(json.loads(Path(options["file"]).read_text()))
    else:
        logging.getLogger("httpx").setLevel(logging.WARNING)
        DownloadsBenchmark(options).run()
    return 0


# --- what was seen ----------------------------------------------------------------------


@dataclass
class Window:
    phase: str  # "a", "b" or "c"
    start: float  # wall clock, comparable with the server log's
    end: float = 0.0


@dataclass
class Seen:
    windows: list[Window] = field(default_factory=list)
    # (phase, probe) → latencies in ms; probe "preview" or "health".
    probes: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    # (phase, status) → downloads of the rounds answered so, inside the windows.
    downloads: Counter = field(default_factory=Counter)
    # Probe answers that were not 200 (phase, probe, status).
    failures: Counter = field(default_factory=Counter)
    # The rounds alone: a new version each time (ms), and kept.
    alone_rendered: list[float] = field(default_factory=list)
    alone_kept: list[float] = field(default_factory=list)
    rounds_bytes: int = 0
    changes: int = 0


@dataclass
class Render:
    pid: int
    start: float
    end: float


# --- the orchestration ------------------------------------------------------------------------


class DownloadsBenchmark(Site):
    """The site as `bench load` serves it (servers.Site: its database, child processes and
    gunicorn), with this benchmark's stages and the render log's hook."""

    command = "downloads"

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        # gunicorn reads its configuration file (the render log's hook) from here.
        self.env["GUNICORN_CMD_ARGS"] = "--config=python:bench.downloads_server"
        # The clients stand for many people but all come from loopback: the per-address bound
        # (tested in tests/tournaments) would refuse them; the site-wide render bound is what
        # this benchmark measures.
        self.env["DOWNLOADS_PER_MINUTE"] = "1000000"
        self.changer: subprocess.Popen | None = None

    def run(self) -> None:
        failures: list[str] = []
        try:
            plan = self.prepare(
                f"--players={self.options['players']}", f"--sessions={self.options['sessions']}"
            )
            say(
                f"migrated; tournament of {plan['players']} players, {plan['sessions']} "
                f"finished sessions, {plan['rounds']} rounds built in {self.setup_seconds:.1f} s"
            )
            base = self.start_gunicorn(plan)
            self.changer = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "bench",
                    "downloads",
                    "--stage=change",
                    f"--file={self.plan_file}",
                ],
                cwd=settings.BASE_DIR,
                # Its log line for every change would drown the report.
                env={**self.env, "LOG_LEVEL": "WARNING"},
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            seen = asyncio.run(self.measure(base, plan))
            self.stop_changer()
            self.stop_gunicorn()
            failures = self.figures(seen)
        finally:
            self.stop_changer()
            self.clean_up()
        if failures:
            raise BenchError("the benchmark failed: " + "; ".join(failures))

    def stop_changer(self) -> None:
        if self.changer is None or self.changer.poll() is not None:
            return
        assert self.changer.stdin is not None
        self.changer.stdin.close()
        try:
            self.changer.wait(30)
        except subprocess.TimeoutExpired:
            self.changer.kill()
            self.changer.wait(10)

    def change(self) -> str:
        """One change of the tournament's version by the child process; the new version."""
        assert self.changer is not None and self.changer.stdin and self.changer.stdout
        self.changer.stdin.write("change\n")
        self.changer.stdin.flush()
        answer = self.changer.stdout.readline().strip()
        if not answer:
            raise BenchError("the process changing the version stopped")
        return answer

    # --- the measurement ---------------------------------------------------------------

    async def measure(self, base: str, plan: dict) -> Seen:
        seen = Seen()
        context = load_clients.shared_ssl_context()
        rec = load_clients.Recorder()
        referee_client = load_clients.client_for(base, context)
        monitor = load_clients.client_for(base, context)
        downloaders = [
            load_clients.client_for(base, context) for _ in range(self.options["clients"])
        ]
        rounds = f"/t/{plan['slug']}/rounds.csv"
        lock = asyncio.Lock()

        async def change() -> None:
            async with lock:
                await asyncio.to_thread(self.change)
                seen.changes += 1

        try:
            referee = load_clients.Referee(
                plan["preview_table"], plan["referee"], plan["password"], [], {}
            )
            if not await load_clients.login(rec, referee_client, referee):
                raise BenchError("the referee could not log in")
            preview = self.preview_request(referee_client, plan)
            response = await preview()
            if response.status_code != 200:
                raise BenchError(f"the round preview answered {response.status_code}")

            # The rounds alone: a new version each time, then the same one kept.
            for _ in range(self.options["renders_alone"]):
                await change()
                status, ms, size = await self.download(monitor, rounds)
                if status != 200:
                    raise BenchError(f"the rounds answered {status} with nothing else running")
                seen.alone_rendered.append(ms)
                seen.rounds_bytes = size
                status, ms, size = await self.download(monitor, rounds)
                seen.alone_kept.append(ms)

            for rotation in range(self.options["rotations"]):
                for phase in PHASES:
                    say(
                        f"rotation {rotation + 1}: ({phase}) {PHASES[phase]}".replace(
                            "clients", f"{self.options['clients']} clients"
                        )
                    )
                    if phase == "b":
                        # Kept before the window: what the clients ask for renders nothing.
                        await self.download(monitor, rounds)
                    await self.window(phase, seen, preview, monitor, downloaders, rounds, change)
        finally:
            await asyncio.gather(
                *(c.aclose() for c in [referee_client, monitor, *downloaders]),
                return_exceptions=True,
            )
        return seen

    def preview_request(self, client: httpx.AsyncClient, plan: dict):
        """The round preview as the table page's htmx asks for it, while a round is typed."""

        async def preview() -> httpx.Response:
            return await client.post(
                f"/tables/{plan['preview_table']}/preview/",
                data=plan["preview_form"],
                headers={
                    "X-CSRFToken": client.cookies.get("csrftoken") or "",
                    "HX-Request": "true",
                },
            )

        return preview

    async def download(self, client: httpx.AsyncClient, url: str) -> tuple[int, float, int]:
        """(status, ms, size) of one GET of the rounds; status 0 when nothing answered."""
        started = time.perf_counter()
        try:
            response = await client.get(url)
        except httpx.HTTPError:
            return 0, (time.perf_counter() - started) * 1000, 0
        return response.status_code, (time.perf_counter() - started) * 1000, len(response.content)

    async def window(
        self,
        phase: str,
        seen: Seen,
        preview,
        monitor: httpx.AsyncClient,
        downloaders: list[httpx.AsyncClient],
        rounds: str,
        change,
    ) -> None:
        stop = asyncio.Event()
        window = Window(phase, time.time())

        async def probe(name: str, request) -> None:
            while not stop.is_set():
                started = time.perf_counter()
                try:
                    response = await request()
                    status = response.status_code
                except httpx.HTTPError as error:
                    status = load_clients.error_kind(error)
                ms = (time.perf_counter() - started) * 1000
                if status == 200:
                    seen.probes[(phase, name)].append(ms)
                else:
                    seen.failures[(phase, name, status)] += 1
                await asyncio.sleep(PROBE_PAUSE)

        async def downloader(client: httpx.AsyncClient) -> None:
            # Again and again, as fast as answered: refused answers (503) are not waited on
            # (Retry-After), as a client bent on renders would not.
            while not stop.is_set():
                if phase == "c":
                    await change()
                status, _, _ = await self.download(client, rounds)
                if not stop.is_set():
                    seen.downloads[(phase, status)] += 1

        tasks = [
            asyncio.create_task(probe("preview", preview)),
            asyncio.create_task(probe("health", lambda: monitor.get("/health/"))),
        ]
        if phase != "a":
            tasks += [asyncio.create_task(downloader(client)) for client in downloaders]
        await asyncio.sleep(self.options["window"])
        stop.set()
        window.end = time.time()
        # Every request finishes (a render under way too) before the next window starts.
        await asyncio.gather(*tasks)
        seen.windows.append(window)

    # --- the server log --------------------------------------------------------------------

    def renders(self) -> tuple[list[Render], list[float]]:
        """The renders the workers logged (start, end, pid) and the times of refusals."""
        found: list[Render] = []
        refused: list[float] = []
        started: dict[int, list[float]] = defaultdict(list)
        for line in self.log_path.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if not isinstance(entry, dict) or entry.get("logger") != "bench.renders":
                continue
            pid, at = int(entry["pid"]), float(entry["at"])
            if entry["event"] == "start":
                started[pid].append(at)
            elif entry["event"] == "end" and started[pid]:
                # Threads of one worker: the earliest open render is matched (the count of
                # renders running at each moment is the same whichever is matched).
                found.append(Render(pid, started[pid].pop(0), at))
            elif entry["event"] == "refused":
                refused.append(at)
        return found, refused

    # --- the report ----------------------------------------------------------------------

    def figures(self, seen: Seen) -> list[str]:
        failures: list[str] = []
        options = self.options
        renders, refused = self.renders()
        say("")
        say(
            f"== downloads: {options['players']} players, {options['sessions']} sessions; "
            f"gunicorn {options['workers']} workers × {options['threads']} threads; "
            f"{os.cpu_count()} CPUs; {options['rotations']} rotations of {options['window']:g} s "
            f"windows; {options['clients']} download clients"
        )
        say(
            f"rounds CSV ({seen.rounds_bytes // 1024} KiB) alone: rendered (a new version) "
            f"median {median(seen.alone_rendered):.0f} ms over {len(seen.alone_rendered)} "
            f"(min {min(seen.alone_rendered, default=0):.0f}, max "
            f"{max(seen.alone_rendered, default=0):.0f}); kept: median "
            f"{median(seen.alone_kept):.1f} ms"
        )
        say("")
        say(
            f"{'ms':34} {'preview p50':>11} {'p95':>6} {'n':>5}  {'health p50':>10} "
            f"{'p95':>6} {'n':>5}"
        )
        figures: dict[tuple[str, str], tuple[float, float]] = {}
        for phase, what in PHASES.items():
            cells = []
            for probe in ("preview", "health"):
                values = seen.probes[(phase, probe)]
                figures[(phase, probe)] = (median(values), load_clients.percentile(values, 0.95))
                p50, p95 = figures[(phase, probe)]
                cells.append(
                    f"{p50:>{11 if probe == 'preview' else 10}.1f} {p95:>6.1f} {len(values):>5}"
                )
                if not values:
                    failures.append(f"no {probe} answered in ({phase})")
            label = f"({phase}) {what}".replace("clients", f"{options['clients']} clients")
            if phase == "a":
                label = "(a) alone"
            say(f"{label:34} {cells[0]}  {cells[1]}")
        for phase in ("b", "c"):
            ratios = []
            for probe in ("preview", "health"):
                (a50, a95), (x50, x95) = figures[("a", probe)], figures[(phase, probe)]
                ratios.append(f"{probe} p50 ×{x50 / a50:.1f}, p95 ×{x95 / a95:.1f}")
            say(f"({phase})/(a): " + "; ".join(ratios))
        say("")
        for phase in ("b", "c"):
            windows = [w for w in seen.windows if w.phase == phase]
            inside = [r for r in renders if any(w.start <= r.start < w.end for w in windows)]
            refusals = sum(1 for at in refused if any(w.start <= at < w.end for w in windows))
            answers = {
                status: count for (p, status), count in seen.downloads.items() if p == phase
            }
            total = sum(answers.values())
            seconds = sum(w.end - w.start for w in windows)
            say(
                f"({phase}) downloads: {total} in {seconds:.0f} s, answered "
                + ", ".join(f"{status} ×{count}" for status, count in sorted(answers.items()))
                + f"; renders (server log): {len(inside)}, refused by the bound (server log): "
                f"{refusals}" + (f"; version changes: {seen.changes}" if phase == "c" else "")
            )
            if inside:
                durations = [(r.end - r.start) * 1000 for r in inside]
                say(
                    f"    render time under this load: median {median(durations):.0f} ms, "
                    f"max {max(durations):.0f} ms"
                )
        say("")
        server_max, worker_max = at_once(renders)
        say(
            f"renders at once at most: {server_max} in the whole server, {worker_max} in one "
            f"worker (the bound: EXPENSIVE_RENDERS = "
            f"{getattr(settings, 'EXPENSIVE_RENDERS', 1)} in the whole site, the workers "
            f"sharing Redis); {len(renders)} renders and {len(refused)} refusals in all"
        )
        answered_503 = sum(c for (_, status), c in seen.downloads.items() if status == 503)
        say(
            f"downloads answered 503 (bound reached): {answered_503}; 429: "
            f"{sum(c for (_, status), c in seen.downloads.items() if status == 429)}"
        )
        if seen.failures:
            say(
                "probe answers other than 200: "
                + ", ".join(
                    f"({p}) {name} {status} ×{c}"
                    for (p, name, status), c in sorted(seen.failures.items(), key=str)
                )
            )
            failures.append("a referee's preview or /health/ failed")
        say("server log:")
        for line, count in load_report.server_log_errors(self.log_path).most_common():
            say(f"  {count:>5} × {line}")
        return failures


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def at_once(renders: list[Render]) -> tuple[int, int]:
    """The most renders running at the same moment: in the whole server, in one worker."""

    def most(chosen: list[Render]) -> int:
        # Ends before starts at the same instant: a slot released, then taken.
        events = sorted([(r.start, 1) for r in chosen] + [(r.end, -1) for r in chosen])
        running = peak = 0
        for _, step in events:
            running += step
            peak = max(peak, running)
        return peak

    by_pid: dict[int, list[Render]] = defaultdict(list)
    for render in renders:
        by_pid[render.pid].append(render)
    return most(renders), max((most(chosen) for chosen in by_pid.values()), default=0)


# --- stage: setup (child process, DATABASE_URL = the benchmark's database) -------------------


def setup_tournament(options: dict[str, Any]) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from bench.standings import build
    from tournaments.models import Player, Seat, Session, Table, Tournament

    rng = random.Random(options["seed"])
    sessions = options["sessions"]
    tournament, rounds = build(options["players"], sessions, rng)
    with transaction.atomic():
        # Public, as a championship is: anyone may download its rounds.
        Tournament.objects.filter(pk=tournament.pk).update(
            is_public=True, session_count=sessions + 1
        )
        session = Session.objects.create(
            tournament=tournament, number=sessions + 1, status=Session.Status.RUNNING
        )
        hashed = make_password(PASSWORD)
        users = get_user_model().objects.bulk_create(
            get_user_model()(username=name, password=hashed)
            for name in ("bench-referee", "bench-changer")
        )
        players = list(
            Player.objects.filter(seats__table__session__tournament=tournament)
            .distinct()
            .order_by("pk")[:8]
        )
        tables = Table.objects.create_with_games(
            Table(session=session, number=number, referee=user)
            for number, user in enumerate(users, start=1)
        )
        Seat.objects.bulk_create(
            Seat(table=table, position=position, player=players[4 * index + position - 1])
            for index, table in enumerate(tables)
            for position in range(1, 5)
        )
    # The form names the seats by position: the round is dealt for those labels.
    first = deal_game(("1", "2", "3", "4"), tournament.ruleset, rng)[0]
    return {
        "slug": tournament.slug,
        "players": options["players"],
        "sessions": sessions,
        "rounds": rounds,
        "password": PASSWORD,
        "referee": users[0].username,
        "preview_table": tables[0].pk,
        "preview_form": load_clients.form_data(1, first, str(uuid.uuid4())),
        "changer": users[1].username,
        "changer_table": tables[1].pk,
        "seed": options["seed"],
    }


# --- stage: change (child process) --------------------------------------------------------------


def change_versions(plan: dict[str, Any]) -> None:
    """For each line read, one change of the tournament's version: round 1 recorded at the
    second table, or undone, through the models as a referee's change is; the new version
    printed."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Table

    table = Table.objects.select_related("game", "session__tournament").get(
        pk=plan["changer_table"]
    )
    tournament = table.session.tournament
    user = get_user_model().objects.get(username=plan["changer"])
    game = table.game
    rows = game.rows()
    entries = deal_game(rows.players, game.ruleset, random.Random(plan["seed"]))[0]
    for _ in sys.stdin:
        game.refresh_from_db()
        if game.rows().rounds:
            game.undo_last_round(by=user, reason="benchmark", version=game.version)
        else:
            game.record_round(entries, by=user, number=1)
        print(tournament.live_version(), flush=True)
