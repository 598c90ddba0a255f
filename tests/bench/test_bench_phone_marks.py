"""What bench phone calls "inputs usable" and "script ready", in a page of the test's own."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from bench.phone import CHROMIUM, MARKS_SCRIPT

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing"),
]

URL = "http://phone.test/"
FORM = '<form id="round-form"><input class="hand" aria-label="Hand"></form>'


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    # pytest-playwright's browser: a second sync_playwright() in a worker that already runs
    # one (every other browser test's) is refused ("Sync API inside the asyncio loop").
    page = browser.new_page()
    page.add_init_script(MARKS_SCRIPT)
    yield page
    page.context.close()


# Two drawn frames: the marks are taken at each.
TWO_FRAMES = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def open_page(page: Any, script: str) -> dict:
    """The page opened; the marks once its inputs were seen and two more frames drawn."""
    page.route(
        URL,
        lambda route: route.fulfill(
            body=f"<!doctype html>{FORM}<script>{script}</script>", content_type="text/html"
        ),
    )
    page.goto(URL)
    page.wait_for_function("window.__phone.inputs !== undefined")
    page.evaluate(TWO_FRAMES)
    return page.evaluate("window.__phone")


def script_mark(page: Any) -> float:
    page.wait_for_function("window.__phone.script !== undefined")
    return page.evaluate("window.__phone.script")


def test_the_script_is_ready_once_table_js_defined_its_outbox(phone):
    marks = open_page(phone, "")
    assert "script" not in marks

    phone.evaluate("window.yanivOutbox = () => null")

    assert script_mark(phone) > marks["inputs"]


def test_a_page_that_says_when_it_is_ready_is_ready_only_then(phone):
    marks = open_page(
        phone,
        "window.yanivOutbox = () => null;"
        "window.yanivReady = new Promise((resolve) => { window.beReady = resolve; });",
    )
    assert "script" not in marks

    phone.evaluate("window.beReady()")

    assert script_mark(phone) > marks["inputs"]
