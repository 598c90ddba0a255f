"""A table's own time on the hall's clock, in a real browser (issue 23, point 2): table 2 has
10 more minutes; when the session's countdown reaches 0:00 the hall says, without a poll,
that the time is up for the other tables, and table 2's own time goes on counting down.

Screenshot: hall-clock-extended-1920x1080.png in $HALL_SHOTS (when set) and test-artifacts/.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from hall.models import HallScreen
from tests.browser.test_hall_fits import save_shot
from tests.factories import make_table, make_tournament, make_user
from tournaments.models import Session

HD = {"width": 1920, "height": 1080}
# Seconds the session has left when the hall opens.
LEFT = 8


@pytest.mark.django_db(transaction=True)
def test_the_hall_counts_down_an_extended_tables_own_time_past_the_sessions_end(
    live_server, new_context
):
    director = make_user("dir-clocks")
    tournament = make_tournament(name="Club night", slug="night", directors=[director])
    make_table(tournament=tournament)
    extended = make_table(tournament=tournament, players=("Eva", "Finn", "Gus"))
    session = extended.session
    Session.objects.filter(pk=session.pk).update(
        time_limit=30, clock_started_at=timezone.now() - timedelta(minutes=30, seconds=-LEFT)
    )
    session.refresh_from_db()
    session.extend_clock(10, extended, by=director)
    HallScreen.objects.create(tournament=tournament, number=1, pinned="clock", paused=True)

    page = new_context(viewport=HD).new_page()
    # The clock's start moved back once everything else is ready: LEFT seconds remain.
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=30, seconds=-LEFT)
    )
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + reverse("public:hall", args=[tournament.slug]))
    clock = page.locator(".view-clock .session-clock")
    expect(clock.locator(".clock-label")).to_have_text("Time left")
    line = clock.locator(".table-clock")
    expect(line).to_contain_text("table 2 +10 minutes")
    expect(line.locator(".table-time")).to_have_text(re.compile(r"^10:0\d$"))

    # The session's time runs out: the rule is for the other tables; table 2 plays on.
    expect(clock.locator(".clock-time")).to_have_text("0:00", timeout=(LEFT + 3) * 1000)
    expect(clock.locator(".clock-rule")).to_have_text(
        "Time is up for the other tables: each finishes the round being played; it is the last."
    )
    expect(line.locator(".table-time")).to_have_text(re.compile(r"^9:5\d$"), timeout=3000)
    first = line.locator(".table-time").inner_text()
    expect(line.locator(".table-time")).not_to_have_text(first)  # it counts down
    expect(line.locator(".table-over")).to_be_hidden()
    save_shot(page, "hall-clock-extended-1920x1080")
    assert errors == []
