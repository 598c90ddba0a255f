"""The table page catching up (issue 32, point 5): the score chart takes the rounds saved or
waiting on the phone, not only those the server drew; a follower's "Offline — last updated …"
goes as soon as the page is back online, not at the next poll."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.test_offline import (
    ROUNDS,
    log_in,
    open_for_offline,
    record_offline,
)
from tests.browser.test_two_phones import back_online, wait_until_sent
from tests.factories import make_table, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bart", "Chris", "Dirk"]


@pytest.fixture
def referee():
    return make_user("ref-catches-up")


@pytest.fixture
def table(referee, tournament):
    return make_table(players=PLAYERS, referee=referee, tournament=tournament)


def lines(page: Page) -> list[str]:
    """The chart's players' lines, as their points."""
    return page.locator("#sheet figure.chart svg polyline").evaluate_all(
        "lines => lines.map(line => line.getAttribute('points'))"
    )


def test_the_chart_takes_the_rounds_waiting_on_the_phone_as_the_server_will_draw_them(
    live_server, page: Page, context: BrowserContext, table, referee
):
    record(table.game, referee, ROUNDS[0])
    log_in(page, live_server.url, referee)
    url = live_server.url + reverse("tables:detail", args=[table.pk])
    open_for_offline(page, url)
    drawn = lines(page)
    assert [len(line.split()) for line in drawn] == [2] * 4  # from 0, round 1

    context.set_offline(True)
    record_offline(page, 2, ROUNDS[1], stored=1)
    record_offline(page, 3, ROUNDS[2], stored=1)
    expect(page.locator("#sheet figure.chart")).to_be_visible()
    waiting = lines(page)
    assert [len(line.split()) for line in waiting] == [4] * 4
    # The stored round's points are the server's.
    assert [line.split()[1].split(",")[1] for line in waiting] == [
        line.split()[1].split(",")[1] for line in drawn
    ]

    back_online(page, context)
    wait_until_sent(page)
    page.reload()
    assert lines(page) == waiting


def test_a_first_round_waiting_on_the_phone_draws_the_chart(
    live_server, page: Page, context: BrowserContext, table, referee
):
    log_in(page, live_server.url, referee)
    open_for_offline(page, live_server.url + reverse("tables:detail", args=[table.pk]))
    expect(page.locator("#sheet figure.chart")).to_be_hidden()
    context.set_offline(True)
    record_offline(page, 1, ROUNDS[0])
    chart = page.locator("#sheet figure.chart")
    expect(chart).to_be_visible()
    expect(chart.locator("svg")).to_have_attribute(
        "aria-label", "Score progression: each player's total after every round"
    )
    assert [len(line.split()) for line in lines(page)] == [2] * 4


def test_a_followers_offline_notice_goes_as_soon_as_the_page_is_back_online(
    live_server, page: Page, context: BrowserContext, table, settings
):
    """A poll every 30 s: the notice must not wait for the next one."""
    settings.LIVE_POLL_SECONDS = 30
    page.goto(live_server.url + reverse("tables:detail", args=[table.pk]))
    notice = page.locator("#behind-notice")
    context.set_offline(True)
    # The sheet's poll, sent now (offline), as htmx sends it at its turn.
    page.evaluate(
        """() => {
          const sheet = document.getElementById('sheet');
          return htmx.ajax('GET', sheet.dataset.hxGet, {source: sheet}).catch(() => null);
        }"""
    )
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Offline — last updated")
    back_online(page, context)
    expect(notice).to_be_hidden(timeout=5_000)


def test_back_online_with_a_poll_on_its_way_the_page_throws_nothing(
    live_server, page: Page, context: BrowserContext, table, settings
):
    """The poll sent on "online" does not queue behind one on its way: htmx would send the
    queued one later with a promise nobody holds, escaping as the error "undefined" when the
    network drops again (a chaos game on PostgreSQL, seed 301; SQLite, seed 328)."""
    settings.LIVE_POLL_SECONDS = 30
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + reverse("tables:detail", args=[table.pk]))
    poll = """() => {
      const sheet = document.getElementById('sheet');
      htmx.ajax('GET', sheet.dataset.hxGet, {source: sheet}).catch(() => null);
    }"""
    context.set_offline(True)
    page.evaluate(poll)
    expect(page.locator("#behind-notice")).to_be_visible()
    held = []
    page.route("**/*part=sheet*", lambda route: held.append(route))
    # Back online: the notice's poll goes at once, and is held on its way.
    context.set_offline(False)
    expect(page.locator("#sheet")).to_have_class("htmx-request")
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1
    # The browser says "online" again (it may, as the Wi-Fi comes and goes).
    page.evaluate("window.dispatchEvent(new Event('online'))")
    # The network drops again: every poll on its way fails, a queued one too.
    for _ in range(10):
        while held:
            held.pop().abort()
        page.wait_for_timeout(100)
    assert errors == []
