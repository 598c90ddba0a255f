"""The entry form on a small phone (360×740): a focused field is never hidden under the
sticky Record bar (issue 33, point 7; WCAG 2.2 SC 2.4.11)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page

from tests.browser.test_offline import log_in
from tests.factories import make_table, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_seats_hand_field_scrolls_clear_of_the_record_bar_when_focused(
    live_server, page: Page, tournament
):
    referee = make_user("ref-small")
    table = make_table(
        referee=referee, tournament=tournament, players=("Ann", "Bart", "Chris", "Dirk", "Eva")
    )
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server.url, referee)
    page.goto(live_server.url + reverse("tables:detail", args=[table.pk]))
    hands = page.locator("#round-form input.hand")
    for index in range(hands.count()):
        page.evaluate("window.scrollTo(0, 0)")
        hands.nth(index).focus()
        page.wait_for_timeout(100)
        field = hands.nth(index).bounding_box()
        bar = page.locator(".sticky-submit").bounding_box()
        assert field and bar
        assert field["y"] + field["height"] <= bar["y"], f"seat {index + 1} under the bar"
