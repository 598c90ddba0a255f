"""Benchmark: the referee's table page on a slow phone (issue 36, "the phone answers at once").

Real Chromium (Playwright), slowed through the DevTools protocol as a cheap phone on a poor
network: the CPU 4× slower (Emulation.setCPUThrottlingRate) and ~Slow 4G (150 ms round trip,
1.6 Mbit/s down, 750 kbit/s up: Network.emulateNetworkConditions), against the site as in
production (gunicorn, DEBUG=0, the static files collected: hashed, minified, compressed) on a
database of its own. Each run is a new phone (an empty browser profile) on a table of its own
whose game has `--rounds` rounds (22: a long game's sheet), logged in as its referee:

1. **cold load**: the page opened with nothing cached; the bytes transferred by type (headers
   included, as on the wire), and the time from the navigation's start until the hand inputs
   are usable (in the page and drawn) and until the page script is ready (table.js ran:
   it defines `window.yanivOutbox` as its last step, after every handler is attached; if it
   also defines `window.yanivReady`, a promise, until that settles);
2. **a save**: the next round typed, then *Record* clicked; the time until the next round's
   form is ready (the button says "Record round N+1", enabled, the hands empty) and until the
   status says "Round N saved." (the server stored it);
3. **offline reload**: the network gone, the page reloaded (the service worker's copy); the
   time until the inputs are usable and the script is ready.

The times are read in the page (performance.now(), checked at every drawn frame and DOM
change), not by the driver. It prints the median (and range) of each figure against the
issue's goal.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/yaniv .venv/bin/python -m bench phone
    .venv/bin/python -m bench phone --runs 3 --rounds 5      # a quick look
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import BenchError, say
from bench.servers import Site, add_server_arguments, add_site_arguments, write_json

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/yaniv_bench_phone"
# A Redis database of its own (downloads 10/11, load 12/13), emptied first.
DEFAULT_CACHE_URL = "redis://127.0.0.1:6379/9"
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "bench-phone-referee"
REFEREE = "bench-phone-referee"
# What a cheap phone on a poor mobile network is, as Chrome's DevTools presets have it.
CPU_SLOWDOWN = 4
LATENCY_MS = 150
DOWN_KBITS = 1600
UP_KBITS = 750
# The goals.
GOAL_FORM_READY_MS = 300
GOAL_COLD_USABLE_MS = 1500
GOAL_OFFLINE_USABLE_MS = 1000
GOAL_COLD_BYTES = 60 * 1024
# Chromium's switches as the browser tests start it (tests/browser/conftest.py).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# In every page, before its own scripts: when the inputs and the page script were first seen
# (at a drawn frame: before the stylesheet has arrived nothing is drawn, so nothing usable).
# The script is ready once table.js ran (its last statement defines window.yanivOutbox); if
# it also defines window.yanivReady, a promise settled once the outbox is read and drawn, then
# only when that promise settles.
MARKS_SCRIPT = """
(() => {
  const marks = (window.__phone = {});
  const usable = () => document.querySelector("#round-form input.hand:not([disabled])");
  let waiting = false;
  function tick() {
    const now = performance.now();
    if (marks.inputs === undefined && usable()) marks.inputs = now;
    if (!waiting && typeof window.yanivOutbox === "function") {
      waiting = true;
      const ready = window.yanivReady;
      if (ready && typeof ready.then === "function") {
        const settled = () => { marks.script = performance.now(); };
        ready.then(settled, settled);
      } else {
        marks.script = now;
      }
    }
    if (marks.inputs === undefined || marks.script === undefined) requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();
"""

# The next round typed as a referee types it: the first seat in play calls Yaniv with 0, the
# others hold 1 (never ends the game: the totals climb to 50 and are reduced, Belgian rules).
FILL_SCRIPT = """
() => {
  const seats = [...document.querySelectorAll("#round-form fieldset.seat-entry:not([disabled])")];
  seats.forEach((seat, index) => {
    const hand = seat.querySelector("input.hand");
    hand.value = index === 0 ? "0" : "1";
    hand.dispatchEvent(new Event("input", { bubbles: true }));
  });
  seats[0].querySelector('input[name="ending"][value^="yaniv:"]').click();
  return Number(document.querySelector('#round-form input[name="number"]').value);
}
"""

# Record clicked; resolved with the ms until the next round's form is ready and until the
# status says the round is saved (checked at every DOM change and drawn frame).
SAVE_SCRIPT = """
([number, savedText, timeout]) => new Promise((resolve) => {
  const out = {};
  const want = "Record round " + (number + 1);
  let start = 0;
  let observer = null;
  function check() {
    const now = performance.now() - start;
    const button = document.getElementById("record-button");
    const first = document.querySelector("#round-form input.hand:not([disabled])");
    if (out.form === undefined && button && !button.disabled && button.textContent.trim() === want
        && first && first.value === "") out.form = now;
    const state = document.querySelector("#save-status .state");
    if (out.saved === undefined && state && state.textContent.trim() === savedText) {
      out.saved = now;
    }
    if ((out.form !== undefined && out.saved !== undefined) || now > timeout) {
      observer.disconnect();
      resolve(out);
      return false;
    }
    return true;
  }
  function frame() { if (check()) requestAnimationFrame(frame); }
  observer = new MutationObserver(check);
  observer.observe(document.documentElement, {
    subtree: true, childList: true, characterData: true, attributes: true,
  });
  start = performance.now();
  document.getElementById("record-button").click();
  requestAnimationFrame(frame);
})
"""

KEPT_SCRIPT = (
    "navigator.serviceWorker.ready.then(() => caches.open('pages'))"
    ".then(cache => cache.match(location.href)).then(Boolean)"
)


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="The referee's table page on a throttled Chromium: cold load, save, "
        "offline reload (gunicorn + PostgreSQL).",
    )
    add_server_arguments(parser, DEFAULT_URL, DEFAULT_CACHE_URL)
    parser.add_argument("--runs", type=int, default=10, help="phones, one table each")
    parser.add_argument("--rounds", type=int, default=22, help="rounds on each table's sheet")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads a worker")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="trace the first measured phone's save into FILE (Chrome's trace format: "
        "chrome://tracing, Perfetto) and print where the page's time went",
    )
    add_site_arguments(parser, ["setup"])
    options = vars(parser.parse_args(argv))
    if options["runs"] < 1 or options["rounds"] < 1:
        raise BenchError("--runs and --rounds must be at least 1")
    if options["stage"] == "setup":
        write_json(options["file"], setup_tables(options))
        return 0
    PhoneBenchmark(options).run()
    return 0


def setup_tables(options: dict[str, Any]) -> dict[str, Any]:
    """A running tournament with one table a run, each game `rounds` rounds long, all
    refereed by one account with a password (the phones log in)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.urls import reverse

    from bench.hotpath import play
    from tournaments.models import Player, Seat, Session, Table, Tournament

    rng = random.Random(options["seed"])
    referee = get_user_model().objects.create_user(REFEREE, password=PASSWORD)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name="Benchmark: the phone",
            slug="bench-phone",
            starts_on=datetime.date(2026, 11, 21),
            status=Tournament.Status.RUNNING,
        )
        session = Session.objects.create(
            tournament=tournament, number=1, status=Session.Status.RUNNING
        )
        players = Player.objects.bulk_create(
            Player(name=f"Phone {number:02d}") for number in range(1, 4 * options["runs"] + 5)
        )
        # One more than the runs: the first phone warms the server up (its templates, its
        # connections) and is not counted.
        tables = Table.objects.create_with_games(
            Table(session=session, number=number, referee=referee)
            for number in range(1, options["runs"] + 2)
        )
        Seat.objects.bulk_create(
            Seat(table=table, position=position, player=players[4 * index + position - 1])
            for index, table in enumerate(tables)
            for position in range(1, 5)
        )
    for table in tables:
        play(table.game, referee, rng, rounds=options["rounds"])
    return {
        "slug": tournament.slug,
        "login": reverse("login"),
        "tables": [reverse("tables:detail", args=[table.pk]) for table in tables],
    }


@dataclass
class Run:
    """One phone's figures: bytes by type; times in ms."""

    bytes_by_type: Counter = field(default_factory=Counter)
    cold_inputs: float = 0.0
    cold_script: float = 0.0
    form_ready: float = 0.0
    saved: float = 0.0
    offline_inputs: float = 0.0
    offline_script: float = 0.0

    @property
    def cold_bytes(self) -> int:
        return sum(self.bytes_by_type.values())


class PhoneBenchmark(Site):
    command = "phone"

    def run(self) -> None:
        try:
            plan = self.prepare(
                f"--runs={self.options['runs']}", f"--rounds={self.options['rounds']}"
            )
            say(
                f"{len(plan['tables'])} tables of {self.options['rounds']} rounds built in "
                f"{self.setup_seconds:.1f} s"
            )
            base = self.start_gunicorn(plan)
            runs = self.phones(base, plan)
        finally:
            self.clean_up()
        for line in report(runs):
            say(line)

    def phones(self, base: str, plan: dict) -> list[Run]:
        from playwright.sync_api import sync_playwright

        cookies = log_in(base, plan["login"])
        runs = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=self.options["chromium"], args=CHROMIUM_ARGS
            )
            try:
                warm_up, *measured = plan["tables"]
                one_phone(browser, base, warm_up, cookies)
                for number, path in enumerate(measured, start=1):
                    profile = self.options["profile"] if number == 1 else None
                    run = one_phone(browser, base, path, cookies, profile)
                    say(
                        f"phone {number}: cold {run.cold_bytes / 1024:.1f} KB, usable "
                        f"{run.cold_inputs:.0f}/{run.cold_script:.0f} ms; form ready "
                        f"{run.form_ready:.0f} ms, saved {run.saved:.0f} ms; offline "
                        f"{run.offline_inputs:.0f}/{run.offline_script:.0f} ms"
                    )
                    runs.append(run)
            finally:
                browser.close()
        return runs


def log_in(base: str, login_path: str) -> list[dict[str, Any]]:
    """The referee's session and CSRF cookies, through the site's own login form."""
    import httpx

    with httpx.Client(base_url=base, trust_env=False, timeout=30) as client:
        client.get(login_path)
        token = client.cookies["csrftoken"]
        answer = client.post(
            login_path,
            data={"username": REFEREE, "password": PASSWORD, "csrfmiddlewaretoken": token},
            headers={"Referer": base + login_path},
        )
        if "sessionid" not in client.cookies:
            raise BenchError(f"the referee could not log in ({answer.status_code})")
        return [
            {"name": name, "value": value, "url": base} for name, value in client.cookies.items()
        ]


def one_phone(
    browser: Any, base: str, path: str, cookies: list[dict[str, Any]], profile: str | None = None
) -> Run:
    """A new phone (empty profile) on the table at `path`: cold load, a save, offline reload."""
    # What Chromium asks for over HTTPS, as a phone reaches the site (over plain HTTP it
    # leaves out br and zstd, and the benchmark's server is on plain HTTP).
    context = browser.new_context(
        locale="en-GB",
        service_workers="allow",
        extra_http_headers={"Accept-Encoding": "gzip, deflate, br, zstd"},
    )
    context.add_cookies(cookies)
    context.add_init_script(MARKS_SCRIPT)
    page = context.new_page()
    run = Run()
    try:
        cdp = cold_load(context, page, base, path, run)
        save(browser, page, cdp, run, profile)
        context.set_offline(True)
        page.reload(wait_until="load")
        run.offline_inputs, run.offline_script = marks(page)
    finally:
        context.close()
    return run


def cold_load(context: Any, page: Any, base: str, path: str, run: Run) -> Any:
    """The page opened throttled with nothing cached, until the service worker keeps it:
    its bytes by type and its times in `run`; the page's DevTools session."""
    # The site's origin first (a tiny answer): Chromium gives the page a renderer of the
    # origin's own at its first navigation, and a CPU throttle set before it is lost.
    page.goto(base + "/health/")
    cdp = context.new_cdp_session(page)
    throttle(cdp)
    types: dict[str, str] = {}
    cdp.on(
        "Network.responseReceived",
        lambda event: types.__setitem__(event["requestId"], event["type"]),
    )
    finished: list[tuple[str, int]] = []
    cdp.on(
        "Network.loadingFinished",
        lambda event: finished.append((event["requestId"], int(event["encodedDataLength"]))),
    )
    page.goto(base + path, wait_until="load")
    run.cold_inputs, run.cold_script = marks(page)
    wait_until_kept(page)
    for request, size in finished:
        kind = types.get(request, "Other")
        # The page's own traffic after it loaded (polls, the sync) is not the load.
        if kind not in {"Fetch", "XHR"}:
            run.bytes_by_type[kind] += size
    return cdp


def save(browser: Any, page: Any, cdp: Any, run: Run, profile: str | None) -> None:
    """The next round typed and recorded: its times in `run`; profiled into `profile`."""
    number = page.evaluate(FILL_SCRIPT)
    # The device's own preview of the typed round runs first, as when a referee types.
    page.wait_for_timeout(1000)
    if profile:
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 250})
        cdp.send("Profiler.start")
    run.form_ready, run.saved = record(page, number)
    if profile:
        # The sheet's refresh after the save is part of it.
        page.wait_for_timeout(3000)
        samples = cdp.send("Profiler.stop")["profile"]
        trace = browser.stop_tracing()
        Path(profile).write_bytes(trace)
        for line in breakdown(json.loads(trace)) + top_functions(samples):
            say(line)


def throttle(cdp: Any) -> None:
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": LATENCY_MS,
            "downloadThroughput": DOWN_KBITS * 1000 / 8,
            "uploadThroughput": UP_KBITS * 1000 / 8,
        },
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def marks(page: Any) -> tuple[float, float]:
    """When the inputs and the script were ready, in ms from the navigation's start."""
    # A function, not an expression: Playwright polls an expression with eval(), which the
    # site's Content-Security-Policy refuses once the first check finds the marks not yet set.
    page.wait_for_function(
        "() => window.__phone && window.__phone.inputs !== undefined "
        "&& window.__phone.script !== undefined",
        timeout=60_000,
    )
    found = page.evaluate("window.__phone")
    return float(found["inputs"]), float(found["script"])


def wait_until_kept(page: Any) -> None:
    """The service worker controls nothing yet on a first visit, but keeps the page: wait
    for its copy (the offline reload needs it) and for the first sync's quiet."""
    deadline = time.monotonic() + 60
    while not page.evaluate(KEPT_SCRIPT):
        if time.monotonic() > deadline:
            raise BenchError("the service worker did not keep the table page")
        page.wait_for_timeout(200)
    page.wait_for_timeout(1000)


def record(page: Any, number: int) -> tuple[float, float]:
    """Record clicked: ms until the next round's form is ready, until the round is saved."""
    found = page.evaluate(SAVE_SCRIPT, [number, f"Round {number} saved.", 60_000])
    if "form" not in found or "saved" not in found:
        raise BenchError(f"round {number}: the form or the saved status never came ({found})")
    return float(found["form"]), float(found["saved"])


# --- the profile of a save ------------------------------------------------------------------

TRACE_CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "v8.execute",
    "blink.user_timing",
    "IndexedDB",
    "loading",
]
# The renderer's main-thread events by what they are (self time: an event's own, its nested
# events' taken out); anything else is "other".
KINDS = {
    "style": {"UpdateLayoutTree", "RecalculateStyles", "ScheduleStyleRecalculation"},
    "layout": {"Layout", "UpdateLayout", "InvalidateLayout"},
    "HTML parsing": {"ParseHTML", "ParseAuthorStyleSheet"},
    "script": {
        "EvaluateScript",
        "FunctionCall",
        "v8.compile",
        "v8.compileModule",
        "V8.Execute",
        "TimerFire",
        "FireAnimationFrame",
        "EventDispatch",
        "v8.run",
        "XHRReadyStateChange",
        "RunMicrotasks",
        "v8.callFunction",
        "HandlePostMessage",
    },
    "paint and compositing": {
        "Paint",
        "PrePaint",
        "Layerize",
        "UpdateLayer",
        "CompositeLayers",
        "PaintImage",
        "UpdateLayerTree",
        "Commit",
        "RasterTask",
        "Decode Image",
    },
    "garbage collection": {"MinorGC", "MajorGC", "V8.GCScavenger", "V8.GCFinalizeMC"},
}


def main_thread(events: list[dict]) -> tuple[int, int]:
    """The (pid, tid) of the page's renderer main thread."""
    for event in events:
        if event.get("name") == "thread_name" and event.get("args", {}).get("name") == (
            "CrRendererMain"
        ):
            pid, tid = event["pid"], event["tid"]
            if any(e.get("pid") == pid and e.get("name") == "FunctionCall" for e in events):
                return pid, tid
    raise BenchError("the trace has no renderer main thread")


def self_times(events: list[dict], pid: int, tid: int) -> tuple[Counter, Counter]:
    """Each event name's self time in ms on one thread (complete events, nested by time);
    and the style and layout a script forced (it read a size or a position after a change:
    synchronous, the script waits), by name, and their count ("<name> count")."""
    spans = sorted(
        (e["ts"], e["ts"] + e.get("dur", 0), e["name"])
        for e in events
        if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X"
    )
    own: Counter = Counter()
    forced: Counter = Counter()
    stack: list[tuple[float, str]] = []  # (end, name) of the open spans
    for start, end, name in spans:
        while stack and stack[-1][0] <= start:
            stack.pop()
        if stack:
            own[stack[-1][1]] -= (min(end, stack[-1][0]) - start) / 1000
        if name in KINDS["style"] | KINDS["layout"] and any(
            open_name in KINDS["script"] for _, open_name in stack
        ):
            forced[name] += (end - start) / 1000
            forced[name + " count"] += 1
        own[name] += (end - start) / 1000
        stack.append((end, name))
    return own, forced


def breakdown(trace: dict) -> list[str]:
    """Where one save's time went on the page's main thread, by kind, and the top names."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    pid, tid = main_thread(events)
    own, forced = self_times(events, pid, tid)
    kinds: Counter = Counter()
    for name, ms in own.items():
        kind = next((kind for kind, names in KINDS.items() if name in names), "other")
        if name.startswith("IDB"):
            kind = "IndexedDB"
        kinds[kind] += ms
    idb = (
        sum(
            e.get("dur", 0)
            for e in events
            if e.get("cat") == "IndexedDB" and (e.get("pid"), e.get("tid")) != (pid, tid)
        )
        / 1000
    )
    lines = [
        f"profile of one save (Record until 3 s after it was saved), the page's main thread "
        f"busy {sum(own.values()):.0f} ms:"
    ]
    lines += [f"  {kind:24} {ms:7.1f} ms" for kind, ms in kinds.most_common()]
    lines.append(f"  {'IndexedDB, other threads':24} {idb:7.1f} ms")
    lines.append(
        "  forced by the script: "
        + (
            ", ".join(
                f"{name} {int(forced[name + ' count'])}× {ms:.0f} ms"
                for name, ms in forced.items()
                if not name.endswith(" count")
            )
            or "none"
        )
    )
    lines.append(
        "  the busiest event names: "
        + ", ".join(f"{name} {ms:.0f} ms" for name, ms in own.most_common(8))
    )
    return lines


def top_functions(profile: dict, count: int = 12) -> list[str]:
    """The page's JavaScript functions by self time (the V8 sampling profiler's samples)."""
    interval = Counter(profile["timeDeltas"])
    step_ms = interval.most_common(1)[0][0] / 1000 if interval else 0.0
    hits = Counter(profile["samples"])
    own: Counter = Counter()
    for node in profile["nodes"]:
        frame = node["callFrame"]
        if not frame["url"]:
            continue  # the program, idle, garbage collection: in the trace's figures
        where = f"{frame['url'].rsplit('/', 1)[-1]}:{frame['lineNumber'] + 1}"
        own[f"{frame['functionName'] or '(anonymous)'} {where}"] += hits[node["id"]]
    return ["  the page's script by function (self time):"] + [
        f"    {samples * step_ms:6.1f} ms  {name}" for name, samples in own.most_common(count)
    ]


# --- the report ----------------------------------------------------------------------------


def median_line(name: str, values: Sequence[float], goal: float | None, unit: str) -> str:
    middle = statistics.median(values)
    scale = 1024 if unit == "KB" else 1
    shown = f"{middle / scale:7.1f} {unit} ({min(values) / scale:.1f}–{max(values) / scale:.1f})"
    if goal is None:
        return f"  {name:34} {shown}"
    verdict = "meets" if middle <= goal else "MISSES"
    return f"  {name:34} {shown}  goal ≤ {goal / scale:g} {unit}: {verdict}"


# Each time's name, its field of Run and its goal (ms).
TIMES = (
    ("cold: inputs usable", "cold_inputs", GOAL_COLD_USABLE_MS),
    ("cold: script ready", "cold_script", GOAL_COLD_USABLE_MS),
    ("Record → next round's form ready", "form_ready", GOAL_FORM_READY_MS),
    ('Record → "Round N saved."', "saved", None),
    ("offline reload: inputs usable", "offline_inputs", GOAL_OFFLINE_USABLE_MS),
    ("offline reload: script ready", "offline_script", GOAL_OFFLINE_USABLE_MS),
)


def report(runs: Sequence[Run]) -> list[str]:
    lines = [
        f"phone: CPU {CPU_SLOWDOWN}× slower, {LATENCY_MS} ms RTT, {DOWN_KBITS / 1000:g} Mbit/s "
        f"down, {UP_KBITS} kbit/s up; median of {len(runs)} (min–max)",
        # The times are the machine's too: a loaded one doubles them now and then.
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end",
        median_line(
            "cold load, transferred", [run.cold_bytes for run in runs], GOAL_COLD_BYTES, "KB"
        ),
    ]
    kinds = sorted({kind for run in runs for kind, size in run.bytes_by_type.items() if size})
    for kind in kinds:
        lines.append(
            median_line(f"  {kind}", [run.bytes_by_type[kind] for run in runs], None, "KB")
        )
    for name, attribute, goal in TIMES:
        lines.append(median_line(name, [getattr(run, attribute) for run in runs], goal, "ms"))
    return lines
