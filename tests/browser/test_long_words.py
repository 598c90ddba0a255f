"""One unbroken word (a dispute of 490 letters, a director's answer) never widens the code
table page on a phone (issue 22: it made the page 4,597 px wide for everyone at the table)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Browser

from tests.factories import make_table, record
from tournaments.models import TableCode, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = 375
LONG = "x" * 490


def test_an_unbroken_dispute_and_answer_wrap_within_the_phones_width(
    live_server, browser: Browser
):
    table = make_table()
    tournament = table.session.tournament
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.save(update_fields=["entry"])
    record(
        table.game, None, {"hands": {"Ann": 0, "Bart": 1, "Chris": 2, "Dirk": 3}, "yaniv": "Ann"}
    )
    code = TableCode.issue(table).code
    open_one = table.game.raise_dispute(1, LONG, by=None)
    answered = table.game.raise_dispute(None, "y" * 300, by=None)
    table.game.dismiss_dispute(answered, "z" * 500, by=None)
    assert open_one.pk
    context = browser.new_context(viewport={"width": WIDTH, "height": 700}, is_mobile=True)
    page = context.new_page()
    page.goto(live_server.url + reverse("codes:detail", args=[code]))
    assert page.locator(".disputes li").count() == 2
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, width
    context.close()
