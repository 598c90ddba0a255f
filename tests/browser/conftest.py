"""Real-browser tests: pytest-playwright driving the system chromium against live_server."""

from __future__ import annotations

import os

import pytest

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make
# around it (setting up a table, reading the totals back) are plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"


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
def base_url():
    # The tests use live_server.url. pytest-playwright's own fallback `base_url` is a method of
    # a plugin class, which pytest 9 warns about (PytestRemovedIn10Warning) each run.
    return None
