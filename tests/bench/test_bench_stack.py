"""The stack test (issue 25, point 2) at a small size: the deploy's Caddy configuration in
front of two gunicorn app servers, with a PostgreSQL cluster and a Redis server of the
harness's own (never the machine's), under the load benchmark while app server A is killed
and started again, Redis is restarted, PostgreSQL is restarted and Redis is down for 60 s.
Every round acknowledged is stored once, every answer is understood (a failed one is sent
again), and the saves and polls resume by themselves after each fault."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.smoke import BASE_DIR

# Minutes: the load benchmark through Caddy, two gunicorns, PostgreSQL and Redis of its own.
pytestmark = pytest.mark.slow


def test_the_stack_keeps_every_round_through_four_faults():
    # What the harness needs; CI installs them (.ci/run).
    assert shutil.which("caddy") and shutil.which("redis-server")
    assert list(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "stack",
            "--referees=3",
            "--phones=6",
            "--poll-seconds=1",
            "--pace=1.5",
            "--duration=200",
        ],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "verification: 3 games" in output and "— OK" in output, output
    (rounds,) = re.findall(r"rounds: (\d+) planned, (\d+) acknowledged, (\d+) stored", output)
    assert len(set(rounds)) == 1, output
    assert "lost or doubled: none" in output, output
    for fault in (
        "app server A killed",
        "Redis restarted",
        "PostgreSQL restarted",
        "Redis down 60 s",
    ):
        (line,) = [
            line
            for line in output.splitlines()
            if line.startswith(f"{fault} at round") and "saves resumed" in line
        ]
        assert "inf s" not in line, line
    assert "requests failed outside the faults: 0" in output, output
    # A cache is a cache (issue 34): Redis stopped for a minute fails nothing.
    assert re.search(r"Redis down 60 s: \d+ requests during it \(\d+ saves\), 0 failed", output), (
        output
    )
    # Every answer understood: no referee stopped on one.
    assert " stopped: " not in output and "unknown status" not in output, output


def test_the_stack_without_faults_prints_the_national_finals_figures():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "stack",
            "--no-faults",
            "--referees=3",
            "--rounds=3",
            "--phones=6",
            "--poll-seconds=1",
            "--pace=0.5",
            "--duration=120",
        ],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # Each referee stopped after its 3rd round (the first referee's 10 went alone, before).
    assert "verification: 3 games, 16 rounds stored, 0 finished — OK" in output, output
    assert "rounds: 16 planned, 16 acknowledged, 16 stored" in output, output
    assert "lost or doubled: none" in output, output
    assert "national final (200 tables" in output and "p95 saves" in output, output
    assert "the load generator (this process) used" in output, output
    assert re.search(r"as the proxy timed them .*: saves \d+: \d+ / \d+ / \d+", output), output
    assert re.search(r"as the app servers timed them .*; polls \d+: \d+ / ", output), output
    # No fault happened and none is reported.
    assert "app server A killed" not in output and "Redis restarted" not in output, output
