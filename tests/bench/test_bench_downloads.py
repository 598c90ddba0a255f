"""Smoke run of the downloads benchmark: a small tournament through gunicorn, one rotation of
each load, the renders counted from the server's log.

It needs PostgreSQL (the benchmark creates a database of its own next to the configured one);
on SQLite it is skipped. Nothing here reads a time: the figures are the full benchmark's.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from bench.downloads import Render, at_once
from tests.bench.smoke import BASE_DIR, smoke_cache_url, smoke_database_url

# A benchmark run through gunicorn: a minute or more on a busy machine (`make test`, CI).
pytestmark = pytest.mark.slow


def bench_database_url() -> str | None:
    return smoke_database_url("yaniv_bench_downloads_smoke")


def cache_url() -> str:
    """Redis database 10 (the full benchmark uses 11)."""
    return smoke_cache_url(10)


def count(pattern: str, output: str) -> int:
    found = re.search(pattern, output)
    assert found, f"{pattern!r} not in:\n{output}"
    return int(found.group(1))


@pytest.mark.database  # gunicorn on a database of its own beside the configured one
@pytest.mark.skipif(
    bench_database_url() is None,
    reason="the downloads benchmark runs gunicorn on PostgreSQL; DATABASE_URL is not PostgreSQL",
)
def test_kept_downloads_render_nothing_and_fresh_ones_render_within_the_bound():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "downloads",
            f"--database-url={bench_database_url()}",
            f"--cache-url={cache_url()}",
            "--players=16",
            "--sessions=2",
            "--clients=3",
            "--window=1.5",
            "--rotations=1",
            "--renders-alone=2",
            "--workers=2",
            "--threads=4",
        ],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=240,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "tournament of 16 players, 2 finished sessions" in output, output
    for row in ("(a) alone", "(b) 3 clients, the rounds kept", "(c) 3 clients, fresh renders"):
        assert row in output, output
    assert "(b)/(a): preview p50 ×" in output and "(c)/(a): preview p50 ×" in output, output
    # Kept: every download in the window answered from the cache, nothing rendered.
    assert count(r"\(b\) downloads: \d+ in \d+ s, answered 200 ×(\d+);", output) > 0
    assert count(r"\(b\) downloads: .*renders \(server log\): (\d+),", output) == 0
    # A new version before each download: renders, and every answer is a render or a refusal.
    renders = count(r"\(c\) downloads: .*renders \(server log\): (\d+),", output)
    assert renders > 0
    # The renders alone (a new version each) and (c)'s: all in the log; one at a time in the
    # whole server (the workers take the one slot in the shared Redis).
    assert count(r"; (\d+) renders and \d+ refusals in all", output) >= 2 + renders
    assert count(r"in the whole server, (\d+) in one worker", output) == 1
    assert count(r"renders at once at most: (\d+) in the whole server", output) == 1
    refused = count(r"; \d+ renders and (\d+) refusals in all", output)
    assert count(r"downloads answered 503 \(bound reached\): (\d+)", output) <= refused
    assert "probe answers other than 200" not in output, output


def test_renders_at_once_are_counted_in_the_server_and_in_each_worker():
    renders = [
        Render(pid=1, start=0.0, end=2.0),
        Render(pid=2, start=1.0, end=3.0),
        Render(pid=1, start=2.0, end=4.0),  # the slot released, then taken again
        Render(pid=3, start=1.5, end=1.8),
    ]
    assert at_once(renders) == (3, 1)
    assert at_once([]) == (0, 0)
