"""Smoke run of the load benchmark: a small load through gunicorn, then the verification.

It needs PostgreSQL (the benchmark creates a database of its own next to the configured one);
on SQLite it is skipped. The restart of PostgreSQL is left to the full benchmark.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]


def bench_database_url() -> str | None:
    configured = os.environ.get("DATABASE_URL", "")
    parts = urlsplit(configured)
    if parts.scheme not in {"postgres", "postgresql"}:
        return None
    # A database of its own per run: parallel runs on one server do not drop each other's.
    return urlunsplit(parts._replace(path=f"/yaniv_bench_smoke_{os.getpid()}"))


def cache_url() -> str:
    """A Redis database of the smoke run's own (the full benchmark uses 13); without Redis,
    each worker's memory, unless under CI, where the machines run Redis."""
    from tests.tournaments.test_caching_redis import redis_answers

    if redis_answers() is None or os.environ.get("CI"):
        return "redis://127.0.0.1:6379/12"
    return ""


@pytest.mark.skipif(
    bench_database_url() is None,
    reason="the load benchmark runs gunicorn on PostgreSQL; DATABASE_URL is not PostgreSQL",
)
def test_small_load_is_stored_exactly_as_acknowledged():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "load",
            f"--database-url={bench_database_url()}",
            f"--cache-url={cache_url()}",
            "--referees=4",
            "--phones=20",
            "--poll-seconds=1",
            "--no-restart",
            "--duration=120",
        ],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=240,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "verification: 4 games" in output, output
    assert "— OK" in output, output
    assert "errors outside the outage: none" in output, output
    # Every answer understood: no referee stopped on one, no request failed.
    assert " stopped: " not in output and "unknown status" not in output, output


def test_python_m_bench_lists_the_benchmarks():
    result = subprocess.run(
        [sys.executable, "-m", "bench"], cwd=BASE_DIR, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    for name in ("standings", "pdf", "hotpath", "load"):
        assert f"  {name} " in result.stdout
