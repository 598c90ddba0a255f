"""Real-browser tests: pytest-playwright driving the system chromium against live_server."""

from __future__ import annotations

import os

import pytest

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
