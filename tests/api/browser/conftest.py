"""The API's docs page in a real browser: the browser tests' fixtures (Debian's chromium)."""

from __future__ import annotations

import os

import pytest

from tests.browser.conftest import (  # noqa: F401 - fixtures, shared as they are
    CHROMIUM,
    base_url,
    browser_context_args,
    browser_type_launch_args,
)

# Playwright's sync API runs an event loop in the test thread (see tests/browser/conftest.py).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    """Without Debian's chromium, skip these tests, saying why; under CI, fail."""
    if os.path.exists(CHROMIUM):
        return
    message = f"{CHROMIUM} is missing: apt-get install chromium (see README)"
    if os.environ.get("CI"):
        raise pytest.UsageError(f"CI runs the browser tests, but {message}")
    for item in items:
        if item.path.is_relative_to(os.path.dirname(__file__)):
            item.add_marker(pytest.mark.skip(reason=message))
