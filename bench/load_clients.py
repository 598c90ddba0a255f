"""The clients of `python -m bench load`: referees and phones over HTTP, and what they saw.

Referees log in and submit their table's rounds as fast as the site answers, the way the table
page's script sends its outbox: one round at a time to `tables:sync`, each with a client id of
its own (the same id again when the answer was lost), answered in JSON. Phones follow the
standings and one table the way htmx does (a full page first, then the `?since=<version>`
polls of the element that polls — the standings' `#live`, the table's `#sheet` — answered 204
while nothing changed). Every request is recorded with its latency and outcome; the referees
also keep, per round, every attempt and which one was acknowledged, so the verification can
compare the database with what the site confirmed.

No Django here besides the engine: this runs in the benchmark's own process, against a site
served by gunicorn on 127.0.0.1. The referees' rounds come from `bench.deal_game`.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import math
import os
import re
import ssl
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from scoring import rules

RETRY_PAUSE = 0.5
# The element of a page that polls: the standings' and tournament's #live, the table's #sheet.
POLLING_DIV = re.compile(r'<div id="(?:live|sheet)"([^>]*)>')
HX_GET = re.compile(r'hx-get="([^"]*)"')
# tables:sync answers: the change is stored (now, already by another device, or by an earlier
# attempt whose answer was lost) …
ACKNOWLEDGED = {"stored", "same", "replayed"}
# … or it is not, and sending it again would not change that: the referee must look.
REFUSED = {"conflict", "stale", "refused", "closed"}


def entries_record(entries: rules.Round) -> dict:
    """Entries keyed by seat position (the labels are positions), as JSON for the verifier."""
    return {
        "hands": dict(entries.hands),
        "yaniv": entries.yaniv,
        "empty_hand": entries.empty_hand,
        "along": sorted(entries.along),
    }


def form_data(number: int, entries: rules.Round, client_id: str) -> dict[str, object]:
    """A round of the outbox as the table page's script posts it to tables:sync: the action,
    the round's client id, its number, hand_<position>, ending, along."""
    ending = f"yaniv:{entries.yaniv}" if entries.yaniv else f"empty:{entries.empty_hand}"
    data: dict[str, object] = {
        "action": "record",
        "client_id": client_id,
        "number": str(number),
        "ending": ending,
    }
    data.update({f"hand_{label}": str(hand) for label, hand in entries.hands.items()})
    if entries.along:
        data["along"] = list(entries.along)
    return data


# --- what was seen ----------------------------------------------------------------------


@dataclass
class Sample:
    endpoint: str  # "submit", "standings full", "table unchanged", …
    start: float  # wall clock (time.time), comparable with the server's timestamps
    end: float
    seconds: float  # measured with perf_counter
    outcome: str  # "ok", or the kind of error: "503", "connect error", "timeout", …


@dataclass
class Recorder:
    samples: list[Sample] = field(default_factory=list)
    # A few bodies of unexpected answers, for the report.
    examples: list[str] = field(default_factory=list)
    acked_rounds: int = 0
    # GETs sent again because the server closed the kept-alive connection they went out on.
    resent: int = 0

    def add(self, endpoint: str, start: float, seconds: float, outcome: str) -> Sample:
        sample = Sample(endpoint, start, start + seconds, seconds, outcome)
        self.samples.append(sample)
        return sample

    def example(self, text: str) -> None:
        if len(self.examples) < 10:
            self.examples.append(text)


def error_kind(error: Exception) -> str:
    if isinstance(error, httpx.ConnectError):
        return "connect error"
    if isinstance(error, httpx.TimeoutException):
        return "timeout"
    if isinstance(error, httpx.RemoteProtocolError):
        return "server disconnected"
    return type(error).__name__


async def timed(
    rec: Recorder, client: httpx.AsyncClient, method: str, url: str, **kw
) -> tuple[httpx.Response | None, float, float, str]:
    """Send one request: (response or None, wall start, seconds, error kind or "")."""
    wall = time.time()
    started = time.perf_counter()
    try:
        try:
            response = await client.request(method, url, **kw)
        except (httpx.ReadError, httpx.RemoteProtocolError):
            if method != "GET":
                raise
            # gunicorn closes a connection idle for 2 s; when this event loop runs late the
            # client's 1.5 s expiry no longer keeps clear of it, and a request going out as it
            # closes is reset. A browser sends an idempotent request again on a new connection
            # (the page sees nothing), so does a phone here; the report counts them.
            rec.resent += 1
            response = await client.request(method, url, **kw)
    except httpx.HTTPError as error:
        return None, wall, time.perf_counter() - started, error_kind(error)
    return response, wall, time.perf_counter() - started, ""


def client_for(base_url: str, context: ssl.SSLContext) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=base_url,
        timeout=httpx.Timeout(30.0),
        # Below gunicorn's 2 s keep-alive, so an idle connection is never reused as it closes.
        limits=httpx.Limits(max_connections=4, keepalive_expiry=1.5),
        verify=context,
        # Never a proxy from the environment: the traffic stays on 127.0.0.1.
        trust_env=False,
        follow_redirects=False,
    )


# --- referees -------------------------------------------------------------------------


@dataclass
class Attempt:
    start: float
    end: float
    # The JSON status ("stored", "same", "replayed", "conflict", …), or the HTTP status of an
    # answer that is not the site's JSON ("503", a proxy's page), or an error kind.
    outcome: str


@dataclass
class RoundLog:
    number: int
    entries: dict
    # The device's id for this round: every attempt sends the same (a lost answer is replayed).
    client_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    attempts: list[Attempt] = field(default_factory=list)
    acked: bool = False
    duplicate: str = ""  # "", "concurrent" or "sequential": the identical POST sent twice


@dataclass
class Referee:
    table_id: int
    username: str
    password: str
    rounds: list[rules.Round]
    duplicates: dict[int, str]  # round number → "concurrent" | "sequential"
    log: list[RoundLog] = field(default_factory=list)
    failure: str = ""
    finished_at: float = 0.0


async def login(rec: Recorder, client: httpx.AsyncClient, referee: Referee) -> bool:
    """The login page for the CSRF cookie, then the credentials; True once logged in."""
    for attempt in range(3):
        response, wall, seconds, error = await timed(rec, client, "GET", "/accounts/login/")
        if response is None or response.status_code != 200:
            rec.add("login page", wall, seconds, failure(response, error))
            await asyncio.sleep(RETRY_PAUSE * (attempt + 1))
            continue
        rec.add("login page", wall, seconds, "ok")
        token = client.cookies.get("csrftoken", "")
        response, wall, seconds, error = await timed(
            rec,
            client,
            "POST",
            "/accounts/login/",
            data={
                "username": referee.username,
                "password": referee.password,
                "csrfmiddlewaretoken": token,
            },
        )
        if (
            response is not None
            and response.status_code == 302
            and client.cookies.get("sessionid")
        ):
            rec.add("login", wall, seconds, "ok")
            return True
        rec.add("login", wall, seconds, failure(response, error))
        await asyncio.sleep(RETRY_PAUSE * (attempt + 1))
    referee.failure = "could not log in"
    return False


def failure(response: httpx.Response | None, error: str) -> str:
    """What went wrong: the error of a request without an answer, or the answer's status."""
    return error if response is None else str(response.status_code)


def classify_submit(response: httpx.Response) -> str:
    """What the table page's script reads in tables:sync's answer: the JSON status, or the
    HTTP status when the answer is not the site's JSON (a 503 while the database restarts,
    a proxy's page): the script then sends the same change again later."""
    if "application/json" not in response.headers.get("content-type", ""):
        return str(response.status_code)
    try:
        status = response.json().get("status")
    except ValueError:
        return str(response.status_code)
    if status in ACKNOWLEDGED or status in REFUSED:
        return str(status)
    return f"unknown status {status!r}"


async def submit_once(
    rec: Recorder, client: httpx.AsyncClient, referee: Referee, log: RoundLog, data: dict
) -> str:
    headers = {"X-CSRFToken": client.cookies.get("csrftoken", ""), "Accept": "application/json"}
    response, wall, seconds, error = await timed(
        rec, client, "POST", f"/tables/{referee.table_id}/sync/", data=data, headers=headers
    )
    outcome = error if response is None else classify_submit(response)
    log.attempts.append(Attempt(wall, wall + seconds, outcome))
    rec.add("submit", wall, seconds, "ok" if outcome in ACKNOWLEDGED else outcome)
    if response is not None and (
        outcome in REFUSED or outcome.startswith("unknown") or 400 <= response.status_code < 500
    ):
        rec.example(f"round {log.number} at table {referee.table_id}: {response.text[:800]}")
    return outcome


async def run_referee(
    rec: Recorder,
    client: httpx.AsyncClient,
    referee: Referee,
    deadline: float,
    until: int | None = None,
    pace: float = 0.0,
    start_after: float = 0.0,
) -> None:
    """Every round of the game, each as soon as the previous one was acknowledged, or with
    `pace` seconds between an acknowledgement and the next round (a table's pace of play;
    the first round after `start_after` seconds, so that the tables do not move in step).

    A round is acknowledged by "stored", "same" or "replayed". An answer that is not the
    site's JSON (5xx, no connection, a timeout) has the same round sent again, with the same
    client id, after a short pause: if the first attempt was stored, the site answers
    "replayed". A refusal ("conflict", "stale", "refused", "closed") or another 4xx stops the
    referee: the verification then checks what was stored. Rounds already in the log are
    skipped; `until` stops after that round.
    """
    try:
        if start_after:
            await asyncio.sleep(start_after)
        for number, entries in enumerate(referee.rounds, start=1):
            if number <= len(referee.log):
                continue
            if until is not None and number > until:
                return
            if pace and number > 1:
                await asyncio.sleep(pace)
            log = RoundLog(
                number, entries_record(entries), duplicate=referee.duplicates.get(number, "")
            )
            referee.log.append(log)
            data = form_data(number, entries, log.client_id)
            first = True
            while not log.acked:
                if time.monotonic() > deadline:
                    referee.failure = f"time is up at round {number}"
                    return
                outcomes: list[str]
                if first and log.duplicate == "concurrent":
                    outcomes = list(
                        await asyncio.gather(
                            submit_once(rec, client, referee, log, data),
                            submit_once(rec, client, referee, log, data),
                        )
                    )
                elif first and log.duplicate == "sequential":
                    outcomes = [await submit_once(rec, client, referee, log, data)]
                    outcomes.append(await submit_once(rec, client, referee, log, data))
                else:
                    outcomes = [await submit_once(rec, client, referee, log, data)]
                first = False
                if any(outcome in ACKNOWLEDGED for outcome in outcomes):
                    log.acked = True
                    rec.acked_rounds += 1
                elif any(
                    outcome in REFUSED or outcome.startswith("unknown") or outcome[:1] == "4"
                    for outcome in outcomes
                ):
                    referee.failure = f"round {number}: {outcomes}"
                    return
                else:
                    await asyncio.sleep(RETRY_PAUSE)
    finally:
        referee.finished_at = time.time()


# --- phones ---------------------------------------------------------------------------


@dataclass
class Page:
    name: str  # "standings" or "table"
    url: str  # the full page
    poll: str | None = None  # the htmx poll URL with ?since=, once the page is loaded
    stopped: bool = False  # the page no longer polls (finished tournament, signed-off sheet)


def poll_url(text: str) -> str | None:
    """The hx-get of the element that polls (`#live`, the table's `#sheet`): where htmx
    polls next, or None when it stops (a finished tournament, a signed-off sheet)."""
    for match in POLLING_DIV.finditer(text):
        found = HX_GET.search(match.group(1))
        if found:
            return html.unescape(found.group(1))
    return None


def polls_here(text: str) -> bool:
    """The answer is a page or fragment with an element that polls (or did)."""
    return POLLING_DIV.search(text) is not None


async def load_page(rec: Recorder, client: httpx.AsyncClient, page: Page) -> None:
    if page.poll is None:
        response, wall, seconds, error = await timed(rec, client, "GET", page.url)
        kind = f"{page.name} full"
        htmx = False
    else:
        response, wall, seconds, error = await timed(
            rec, client, "GET", page.poll, headers={"HX-Request": "true"}
        )
        htmx = True
        kind = f"{page.name} poll"
    if response is None:
        rec.add(kind, wall, seconds, error)
        return
    if htmx and response.status_code == 204:
        rec.add(f"{page.name} unchanged", wall, seconds, "ok")
        return
    if response.status_code != 200:
        rec.add(kind, wall, seconds, str(response.status_code))
        return
    url = poll_url(response.text)
    if url is None and not polls_here(response.text):
        rec.add(kind, wall, seconds, "unexpected answer")
        rec.example(f"{page.name}: {response.text[:500]}")
        return
    rec.add(f"{page.name} changed" if htmx else kind, wall, seconds, "ok")
    page.poll = url
    page.stopped = url is None


async def run_phone(
    rec: Recorder,
    client: httpx.AsyncClient,
    pages: list[Page],
    every: float,
    offset: float,
    stop: asyncio.Event,
) -> None:
    """Open the pages, then poll each every `every` seconds until `stop` (htmx's rhythm)."""
    tick = time.monotonic() + offset
    while not stop.is_set():
        delay = tick - time.monotonic()
        if delay > 0:
            try:
                await asyncio.wait_for(stop.wait(), delay)
                return
            except TimeoutError:
                pass
        for page in pages:
            if not page.stopped:
                await load_page(rec, client, page)
        tick += every


# --- alone: what one request costs ---------------------------------------------------


async def calibrate(
    rec: Recorder,
    client: httpx.AsyncClient,
    phone: httpx.AsyncClient,
    referee: Referee,
    slug: str,
    cpu_ticks: Callable[[], float],
    count: int = 10,
) -> list[tuple[str, float, float]]:
    """Requests of each kind one at a time before the load: (kind, median ms, CPU ms each).

    The CPU is the site's (gunicorn, PostgreSQL and Redis together) per request, so the
    capacity of the machine for each kind can be told apart from the queueing under load. The
    referee's first rounds are submitted here, alone, each followed by a follower's poll of
    the sheet (rendered: a new version) and a second phone's (served as kept); the load goes
    on from the next round. The pages are asked for by `phone`, a follower (a referee's own
    table page does not poll).
    """
    results = []
    hx = {"HX-Request": "true"}
    table = f"/tables/{referee.table_id}/?part=sheet&since=0"
    samples: dict[str, tuple[list[float], list[float]]] = {
        kind: ([], [])
        for kind in (
            "submit (tables:sync)",
            "table: poll, changed, rendered",
            "table: poll, changed, kept",
        )
    }

    async def timed_cpu(kind: str, send) -> None:
        seconds, cpu = samples.setdefault(kind, ([], []))
        before, started = cpu_ticks(), time.perf_counter()
        await send()
        seconds.append(time.perf_counter() - started)
        cpu.append(cpu_ticks() - before)

    # The rounds first: the table page then shows a sheet, as under load.
    for number in range(1, min(count, len(referee.rounds) - 1) + 1):
        await timed_cpu(
            "submit (tables:sync)",
            lambda number=number: run_referee(
                rec, client, referee, time.monotonic() + 120, until=number
            ),
        )
        await timed_cpu("table: poll, changed, rendered", lambda: phone.get(table, headers=hx))
        await timed_cpu("table: poll, changed, kept", lambda: phone.get(table, headers=hx))
    standings = f"/t/{slug}/standings/"
    behind = f"{standings}?since=0"
    for language in ("en", "nl", "fr"):
        # Each language is a fragment of its own: three renders of the same version.
        headers = {**hx, "Accept-Language": language}
        await timed_cpu(
            "standings: poll, changed, rendered",
            lambda headers=headers: phone.get(behind, headers=headers),
        )
    for _ in range(count):
        await timed_cpu("standings: full page", lambda: phone.get(standings))
        await timed_cpu("standings: poll, changed, kept", lambda: phone.get(behind, headers=hx))
    response = await phone.get(standings)
    current = poll_url(response.text) or standings
    response = await phone.get(f"/tables/{referee.table_id}/")
    since = poll_url(response.text) or table
    for _ in range(count):
        await timed_cpu("standings: poll, 204", lambda: phone.get(current, headers=hx))
        await timed_cpu("table: poll, 204", lambda: phone.get(since, headers=hx))
    for kind, (seconds, cpu) in samples.items():
        results.append((kind, percentile(seconds, 0.5) * 1000, sum(cpu) / len(cpu) * 1000))
    return results


# --- the fault: restart PostgreSQL ------------------------------------------------------


@dataclass
class Outage:
    started: float = 0.0  # the restart command was run
    command_done: float = 0.0
    down: float = 0.0  # the first refused probe connection
    up: float = 0.0  # the first accepted probe connection after that
    command_output: str = ""
    returncode: int | None = None


async def probe(url: str) -> bool:
    import psycopg

    try:
        connection = await psycopg.AsyncConnection.connect(url, connect_timeout=2)
    except psycopg.Error:
        return False
    try:
        await connection.execute("SELECT 1")
        return True
    except psycopg.Error:
        return False
    finally:
        await connection.close()


async def restart_database(command: list[str], url: str, outage: Outage) -> None:
    """Run the restart command while probing new connections every 50 ms."""
    done = asyncio.Event()

    async def probing() -> None:
        while True:
            ok = await probe(url)
            now = time.time()
            if not ok and not outage.down:
                outage.down = now
            if ok and outage.down and not outage.up:
                outage.up = now
            if outage.up or (done.is_set() and ok):
                return
            await asyncio.sleep(0.05)

    prober = asyncio.create_task(probing())
    outage.started = time.time()
    process = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    output, _ = await process.communicate()
    outage.command_done = time.time()
    outage.returncode = process.returncode
    outage.command_output = output.decode(errors="replace").strip()
    done.set()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(prober, 60)


# --- CPU ------------------------------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def _proc_stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, CPU ticks used) of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            text = file.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[11]) + int(fields[12])


def _machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the machine."""
    with open("/proc/stat") as file:
        values = [int(value) for value in file.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


@dataclass
class CpuUse:
    # group → CPU seconds
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    machine_busy: float = 0.0  # busy share of all CPUs, 0..1
    wall: float = 0.0
    loop_lag_max: float = 0.0  # how late the benchmark's own event loop woke up


async def sample_cpu(
    groups: dict[str, Callable[[], list[int]]],
    stop: asyncio.Event,
    cpu: CpuUse,
    every: float = 1.0,
) -> None:
    """CPU seconds per group of processes (gunicorn, postgres, this benchmark) until stop.

    `groups` maps a name to a function returning the group's pids at that moment.
    """
    last: dict[int, int] = {}
    busy0, total0 = _machine_ticks()
    started = time.monotonic()

    def snapshot() -> dict[int, tuple[str, int]]:
        seen = {}
        for name, pids in groups.items():
            for pid in pids():
                stat = _proc_stat(pid)
                if stat is not None and pid not in seen:
                    seen[pid] = (name, stat[1])
        return seen

    for pid, (_, ticks) in snapshot().items():
        last[pid] = ticks
    while True:
        expected = time.monotonic() + every
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
        cpu.loop_lag_max = max(cpu.loop_lag_max, time.monotonic() - expected)
        current = snapshot()
        for pid, (name, ticks) in current.items():
            cpu.seconds[name] += (ticks - last.get(pid, 0)) / TICKS
            last[pid] = ticks
        if stop.is_set():
            break
    busy1, total1 = _machine_ticks()
    cpu.machine_busy = (busy1 - busy0) / max(total1 - total0, 1)
    cpu.wall = time.monotonic() - started


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds used so far by these processes."""
    total = 0
    for pid in pids:
        stat = _proc_stat(pid)
        if stat is not None:
            total += stat[1]
    return total / TICKS


def machine_busy(seconds: float) -> float:
    """The busy share of all CPUs over the next `seconds` (blocking)."""
    busy0, total0 = _machine_ticks()
    time.sleep(seconds)
    busy1, total1 = _machine_ticks()
    return (busy1 - busy0) / max(total1 - total0, 1)


def children_of(pid: int) -> list[int]:
    """The process and its descendants."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _proc_stat(int(entry))
            if stat is not None:
                parents.setdefault(stat[0], []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(parents.get(current, []))
    return found


# --- figures --------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (share in 0..1) of the values; nan for none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def shared_ssl_context() -> ssl.SSLContext:
    """One context for every client (plain HTTP: creating one per client costs CPU)."""
    return ssl.create_default_context()
