"""The load benchmark's report (`bench load`, and `bench stack` before its own lines).

What the clients saw (requests per second, latency percentiles per kind of request, the
errors during the outage and outside it, how soon the site served again), what the
verification found, what gunicorn and Django logged, and where the CPU went: with what each
kind of request costs one at a time, so that the capacity can be told from the queueing, and
what the phones cost against issue 14's goals.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

from django.conf import settings

from bench import load_clients, say

# The goals of issue 14 for a championship day on one small server.
PHONES_CPU_GOAL = 0.5
SUBMIT_P95_GOAL_MS = 300
# Issue 36's national final on one 2-core box: 200 tables at a hall's pace (a round each every
# 2 minutes) and 2,000 phones following (a poll every 15 s), saves and polls under 300 ms p95.
FINAL_ROUNDS_PER_SECOND = 200 / 120
FINAL_POLLS_PER_SECOND = 2000 / 15
FINAL_P95_MS = 300


def report(options: dict[str, Any], run: dict, verification: dict, log_path: Path) -> list[str]:
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
            f"(a round every {options['pace']:g} s each), "
            if options["pace"]
            else "(as fast as the site answers), "
        )
        + f"{options['phones']} phones "
        f"polling every {options['poll_seconds']:g} s; gunicorn "
        f"{options['workers']} workers × {options['threads']} threads; "
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
        values = [s.seconds * 1000 for s in pool if s.endpoint == endpoint and s.outcome == "ok"]
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
    recovered = recovered_at(samples, outage)
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
        report_outage(samples, outage, recovered)
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
    tracebacks: dict[str, str] = {}
    for line, count in server_log_errors(log_path, tracebacks).most_common():
        say(f"  {count:>5} × {line}")
    for line, traceback in tracebacks.items():
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
    say(bottleneck(cpu, cores))
    demand, phones_cpu = phones_demand(options, run, samples, seconds)
    for line in demand:
        say(line)
    submits = [s.seconds * 1000 for s in samples if s.endpoint == "submit" and s.outcome == "ok"]
    p95 = load_clients.percentile(submits, 0.95)
    say(
        f"goals: the phones under {PHONES_CPU_GOAL:g} CPU: {phones_cpu:.2f} — "
        f"{'ok' if phones_cpu < PHONES_CPU_GOAL else 'MISSED'}; a submission's p95 under "
        f"{SUBMIT_P95_GOAL_MS} ms: {p95:.0f} ms — "
        f"{'ok' if p95 < SUBMIT_P95_GOAL_MS else 'MISSED'}"
    )
    for line in national_final(run, samples, seconds):
        say(line)
    failures = []
    if verification["problems"]:
        failures.append("the database differs from what the site acknowledged")
    if stopped:
        names = ", ".join(referee.username for referee in stopped)
        failures.append(f"referees stopped before the end: {names}")
    if outside:
        failures.append(f"errors outside the outage: {describe(outside)}")
    return failures


def national_final(run: dict, samples: list[load_clients.Sample], seconds: float) -> list[str]:
    """This run against the national final's goal: the rates it reached and their p95, and
    what the load generator's own CPU took from the machine the site shares with it."""
    answered = [s for s in samples if s.outcome == "ok"]
    saves = [s.seconds * 1000 for s in answered if s.endpoint == "submit"]
    polls = [s.seconds * 1000 for s in answered if s.endpoint.endswith(("changed", "unchanged"))]
    gets = sum(1 for s in samples if s.endpoint != "submit")
    # The rounds acknowledged under the load (not those sent alone before it).
    acked = sum(
        1
        for referee in run["referees"]
        for log in referee.log
        if log.acked and log.attempts and log.attempts[0].start >= run["started_wall"]
    )
    rounds_per_second = acked / seconds
    polls_per_second = gets / seconds
    cpu: load_clients.CpuUse = run["cpu"]
    wall = max(cpu.wall, 1e-9)
    generator = cpu.seconds.get("benchmark", 0.0) / wall
    site = (
        sum(cpu.seconds.get(name, 0.0) for name in ("gunicorn", "postgres", "redis", "proxy"))
        / wall
    )
    per_request = site / max((len(saves) + gets) / seconds, 1e-9)
    final_requests = FINAL_ROUNDS_PER_SECOND + FINAL_POLLS_PER_SECOND
    p95_saves = load_clients.percentile(saves, 0.95)
    p95_polls = load_clients.percentile(polls, 0.95)

    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    return [
        f"national final (200 tables, a round each every 2 min; 2,000 phones, a poll every "
        f"15 s): rounds/s {rounds_per_second:.2f} of {FINAL_ROUNDS_PER_SECOND:.2f} — "
        f"{verdict(rounds_per_second >= FINAL_ROUNDS_PER_SECOND * 0.95)}; polls/s "
        f"{polls_per_second:.0f} of {FINAL_POLLS_PER_SECOND:.0f} — "
        f"{verdict(polls_per_second >= FINAL_POLLS_PER_SECOND * 0.95)}; p95 saves "
        f"{p95_saves:.0f} ms — {verdict(p95_saves < FINAL_P95_MS)}; p95 polls "
        f"{p95_polls:.0f} ms — {verdict(p95_polls < FINAL_P95_MS)}",
        f"the load generator (this process) used {generator:.2f} CPUs beside the site's "
        f"{site:.2f} (of {os.cpu_count()}); the site's CPU per request under this load "
        f"{per_request * 1000:.1f} ms: the final's {final_requests:.0f} requests/s would "
        f"take {per_request * final_requests:.2f} CPUs of the site's",
    ]


def recovered_at(samples: list[load_clients.Sample], outage: load_clients.Outage | None) -> float:
    """The end of the first answered request sent after the database was back."""
    if outage is None or not outage.up:
        return 0.0
    after = [s.end for s in samples if s.outcome == "ok" and s.start >= outage.up]
    return min(after) if after else float("inf")


def report_outage(
    samples: list[load_clients.Sample], outage: load_clients.Outage, recovered: float
) -> None:
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
        answered = first_answered(samples, up, endpoint)
        if answered is not None:
            say(f"first {label} {answered - up:.2f} s after the database was back")
    late = [s for s in samples if s.outcome != "ok" and s.start >= recovered]
    say(
        f"requests failing after the site had recovered: {len(late)}"
        + (f" ({describe(Counter(s.outcome for s in late))})" if late else "")
    )


def first_answered(
    samples: list[load_clients.Sample], sent_after: float, endpoint: str
) -> float | None:
    """When the first answer came to a request sent at or after `sent_after` (a fault over):
    of a submission ("submit"), or of any poll ("")."""
    answers = [
        s.end
        for s in samples
        if s.outcome == "ok"
        and s.start >= sent_after
        and (s.endpoint == endpoint if endpoint else s.endpoint != "submit")
    ]
    return min(answers) if answers else None


def server_log_errors(log_path: Path, tracebacks: dict[str, str] | None = None) -> Counter:
    """What gunicorn and Django logged above INFO, paths without their ids; the tracebacks
    of those that had one go into `tracebacks`, by their line."""
    found: Counter = Counter()
    if not log_path.exists():
        return found
    for line in log_path.read_text(errors="replace").splitlines():
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
            if tracebacks is not None:
                tracebacks.setdefault(message[:200], "\n".join(exception))
        found[f"{entry['level']} {entry.get('logger')}: {message[:200]}"] += 1
    return found


def phones_demand(
    options: dict[str, Any], run: dict, samples: list[load_clients.Sample], seconds: float
) -> tuple[list[str], float]:
    """What the phones and the submissions cost the site: estimated from the costs
    measured one at a time, and measured (the site's CPU under the load less the
    submissions' cost). The lines to print, and the phones' CPUs (the estimate)."""
    cost = {kind: cpu_ms / 1000 for kind, _, cpu_ms in run["alone"]}
    polls_per_second = options["phones"] / options["poll_seconds"]
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
            share * cost[f"{page}: poll, changed, kept"] + (1 - share) * cost[f"{page}: poll, 204"]
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


def bottleneck(cpu: load_clients.CpuUse, cores: int) -> str:
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
