"""The figures `bench load` and `bench stack` print against issue 36's national final: the
rates reached with their p95 as the clients saw them, the load generator's own CPU, and the
same p95 as the proxy and the app servers timed them (their access logs)."""

from __future__ import annotations

import json

from bench import load_clients, load_report, stack


def sample(endpoint: str, seconds: float, outcome: str = "ok") -> load_clients.Sample:
    return load_clients.Sample(endpoint, 0.0, seconds, seconds, outcome)


def a_run(acked_rounds: int, cpu_seconds: dict[str, float], wall: float) -> dict:
    referee = load_clients.Referee(1, "referee01", "", [], {})
    # Three rounds sent alone before the load (at 50.0), then the load's from 100.0.
    for number in range(1, acked_rounds + 4):
        log = load_clients.RoundLog(number, {})
        log.attempts.append(load_clients.Attempt(50.0 if number <= 3 else 100.0 + number, 0, ""))
        log.acked = True
        referee.log.append(log)
    cpu = load_clients.CpuUse()
    cpu.seconds.update(cpu_seconds)
    cpu.wall = wall
    return {"referees": [referee], "cpu": cpu, "started_wall": 100.0}


def test_the_national_final_line_gives_the_rates_reached_and_the_p95_against_the_goal():
    # 10 s: 20 rounds (2/s, above the final's 1.67; the 3 sent alone before the load not
    # counted) and 1,400 polls (140/s), fast answers.
    samples = [sample("submit", 0.05) for _ in range(20)]
    samples += [sample("table unchanged", 0.01) for _ in range(1400)]
    run = a_run(20, {"benchmark": 2.0, "gunicorn": 3.0, "postgres": 1.0, "proxy": 0.5}, 10.0)

    final, generator = load_report.national_final(run, samples, 10.0)

    assert "rounds/s 2.00 of 1.67 — ok" in final
    assert "polls/s 140 of 133 — ok" in final
    assert "p95 saves 50 ms — ok" in final and "p95 polls 10 ms — ok" in final
    # The generator's CPU apart from the site's (app servers, PostgreSQL, Redis, proxy).
    assert "the load generator (this process) used 0.20 CPUs beside the site's 0.45" in generator
    assert "CPU per request under this load 3.2 ms" in generator


def test_the_national_final_line_says_missed_when_the_p95_or_the_rate_falls_short():
    samples = [sample("submit", 0.05) for _ in range(18)] + [sample("submit", 0.9)] * 2
    samples += [sample("standings unchanged", 0.4) for _ in range(100)]
    run = a_run(20, {"benchmark": 1.0}, 10.0)

    final, _ = load_report.national_final(run, samples, 10.0)

    assert "p95 saves 900 ms — MISSED" in final
    assert "polls/s 10 of 133 — MISSED" in final and "p95 polls 400 ms — MISSED" in final


def test_the_proxy_and_the_app_servers_times_are_read_from_their_access_logs(tmp_path):
    caddy = tmp_path / "access.log"
    entries = [("POST", "/tables/3/sync/", 0.2)] * 19 + [("POST", "/tables/3/sync/", 1.5)]
    entries += [("GET", "/t/final/standings/?since=7", 0.01)] * 10
    # Neither a save nor a poll: a full page, a static file.
    entries += [("GET", "/t/final/standings/", 3.0), ("GET", "/static/app.js", 3.0)]
    caddy.write_text(
        "\n".join(
            json.dumps({"request": {"method": m, "uri": uri}, "duration": d, "status": 200})
            for m, uri, d in entries
        )
        + "\nnot json\n"
    )
    gunicorn = tmp_path / "app-access.log"
    gunicorn.write_text(
        "POST /tables/3/sync/? 180\n" * 20
        + "GET /tables/3/?part=sheet&since=4 6\n" * 10
        + "GET /t/final/standings/? 2500\n"
    )

    proxy = stack.proxy_latencies(caddy)
    app = stack.app_latencies(gunicorn)

    assert proxy.endswith("saves 20: 200 / 200 / 1500; polls 10: 10 / 10 / 10"), proxy
    assert app.endswith("saves 20: 180 / 180 / 180; polls 10: 6 / 6 / 6"), app


def test_without_an_access_log_the_times_say_none_were_read(tmp_path):
    assert "saves 0: nan / nan / nan" in stack.proxy_latencies(tmp_path / "missing.log")
