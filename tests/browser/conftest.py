"""Real-browser tests: pytest-playwright driving the system chromium against live_server."""

from __future__ import annotations

import os
import time

import pytest
from django.db import connection

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make
# around it (setting up a table, reading the totals back) are plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # `playwright install` cannot download browsers here: use Debian's chromium.
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # The site speaks the browser's language: these tests read the English pages.
    return {**browser_context_args, "locale": "en-GB"}


@pytest.fixture(autouse=True)
def _no_request_outlives_its_test(request):
    """After a browser test (its page closed first), wait for the live server's requests
    still running to end before the database is flushed: on PostgreSQL the flush's TRUNCATE
    and a late poll holding its locks deadlock, and the next test then finds this one's rows.
    One still busy after ten seconds is ended (the test is over)."""
    yield
    # Only a test that reaches the database has one to flush (tests/conftest.py marks it).
    if connection.vendor != "postgresql" or not request.node.get_closest_marker("database"):
        return
    others = (
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid <> pg_backend_pid() AND state <> 'idle'"
    )
    end = time.monotonic() + 10
    with connection.cursor() as cursor:
        cursor.execute(others)
        while cursor.fetchall() and time.monotonic() < end:
            time.sleep(0.05)
            cursor.execute(others)
        cursor.execute(f"SELECT pg_terminate_backend(pid) FROM ({others}) AS busy")


@pytest.fixture(scope="session")
def base_url():
    # The tests use live_server.url. pytest-playwright's own fallback `base_url` is a method of
    # a plugin class, which pytest 9 warns about (PytestRemovedIn10Warning) each run.
    return None


def pytest_collection_modifyitems(config, items):
    """Without Debian's chromium, skip the browser tests, saying why; under CI, fail."""
    if os.path.exists(CHROMIUM):
        return
    message = f"{CHROMIUM} is missing: apt-get install chromium (see README)"
    if os.environ.get("CI"):
        raise pytest.UsageError(f"CI runs the browser tests, but {message}")
    for item in items:
        if item.path.is_relative_to(os.path.dirname(__file__)):
            item.add_marker(pytest.mark.skip(reason=message))
