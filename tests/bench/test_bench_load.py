"""Smoke run of the load benchmark: a small load through gunicorn, then the verification.

It needs PostgreSQL (the benchmark creates a database of its own next to the configured one);
on SQLite it is skipped. The restart of PostgreSQL is left to the full benchmark.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.bench.smoke import BASE_DIR, smoke_cache_url, smoke_database_url

# A benchmark run through gunicorn: minutes on a busy machine (`make test`, CI).
pytestmark = pytest.mark.slow


def bench_database_url() -> str | None:
    return smoke_database_url("yaniv_bench_smoke")


def cache_url() -> str:
    """Redis database 12 (the full benchmark uses 13)."""
    return smoke_cache_url(12)


@pytest.mark.database  # gunicorn on a database of its own beside the configured one
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
            # At a table's pace (shortened): the referees wait between their rounds.
            "--pace=0.05",
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
    assert "4 referees (a round every 0.05 s each)" in output, output
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
