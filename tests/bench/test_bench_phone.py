"""Smoke run of the phone benchmark: one throttled Chromium phone (and the warm-up one) on a
short game through gunicorn, every figure printed against its goal.

It needs PostgreSQL (the benchmark creates a database of its own next to the configured one)
and Chromium; otherwise it is skipped. Nothing here reads a time: the figures are the full
benchmark's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from bench.phone import CHROMIUM
from tests.bench.smoke import BASE_DIR, smoke_cache_url, smoke_database_url

# gunicorn, a migrated database and two throttled phones: a minute or more.
pytestmark = pytest.mark.slow


def bench_database_url() -> str | None:
    return smoke_database_url("yaniv_bench_phone_smoke")


@pytest.mark.database  # gunicorn on a database of its own beside the configured one
@pytest.mark.skipif(
    bench_database_url() is None,
    reason="the phone benchmark runs gunicorn on PostgreSQL; DATABASE_URL is not PostgreSQL",
)
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")
def test_the_benchmark_prints_every_figure_of_a_phone_against_its_goal():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "phone",
            f"--database-url={bench_database_url()}",
            # Redis database 8 (the full benchmark uses 9).
            f"--cache-url={smoke_cache_url(8)}",
            "--runs=1",
            "--rounds=3",
        ],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout

    assert result.returncode == 0, output + result.stderr
    assert re.search(r"cold load, transferred +\d+\.\d KB .* goal ≤ 60 KB: (meets|MISSES)", output)
    for kind in ("Document", "Script", "Stylesheet"):
        assert re.search(rf"^ +{kind} +\d+\.\d KB", output, re.MULTILINE), output
    for name, goal in (
        ("cold: inputs usable", 1500),
        ("cold: script ready", 1500),
        ("Record → next round's form ready", 300),
        ("offline reload: inputs usable", 1000),
        ("offline reload: script ready", 1000),
    ):
        assert re.search(rf"{re.escape(name)} +\d+\.\d ms .* goal ≤ {goal} ms", output), output
    assert re.search(r'Record → "Round N saved\." +\d+\.\d ms', output), output
