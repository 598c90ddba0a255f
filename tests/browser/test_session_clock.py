"""The session clock in a real browser (issue 15.2): the director sets a time limit and starts
the clock from the session page; the referee's phone counts down; at the limit the table
page says what the tournament's rule says, without a reload; the rounds the rule allows are
recorded and the game ends at the time limit. The hall screen and the public tournament page
show the same clock and reach the limit with it.

A minute is long for a test: once the clock runs, its start is moved back in the database so
that a few seconds remain (the clock is computed from its start, never ticking).

Screenshots (test-artifacts/): clock-table-phone-<rule>.png (360×740, time up),
clock-hall-1920x1080-<rule>.png.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from hall.models import HallScreen
from tests.browser.test_championship_referee import watch
from tests.browser.test_offline import log_in
from tests.browser.test_referee_plays_a_game import fill_round, record_round
from tests.factories import make_tournament, make_user
from tournaments.clock import AtTimeLimit
from tournaments.models import Player, Registration, Seat, Session, Table

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}
HD = {"width": 1920, "height": 1080}
PLAYERS = ["Ann", "Bart", "Chris", "Dirk"]
# Seconds left once the clock's start is moved back: enough to open the other pages first.
LEFT = 15
# What the table page says the moment the time is up, by the rule (tournaments.clock).
AT_THE_LIMIT = {
    AtTimeLimit.FINISH_ROUND: (
        "Time is up: finish the round being played; it is the last. The game ends at the time "
        "limit when it is recorded."
    ),
    AtTimeLimit.LAST_ROUND: (
        "Time is up: finish the round being played, then play one last round. The game ends "
        "when that last round is recorded."
    ),
}
# What the public pages say for every table.
FOR_EVERY_TABLE = {
    AtTimeLimit.FINISH_ROUND: (
        "Time is up: every table finishes the round being played; it is the last."
    ),
    AtTimeLimit.LAST_ROUND: (
        "Time is up: every table finishes the round being played, then plays one last round."
    ),
}


def small_round(seats: list[str], number: int) -> dict[str, Any]:
    """A round that ends nothing: the caller (in turn) has 2, the others 10, 11, 12."""
    caller = seats[(number - 1) % len(seats)]
    others = iter(range(10, 10 + len(seats)))
    return {
        "hands": {name: 2 if name == caller else next(others) for name in seats},
        "yaniv": caller,
    }


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{name}.png")


@pytest.mark.parametrize("rule", [AtTimeLimit.FINISH_ROUND, AtTimeLimit.LAST_ROUND])
@pytest.mark.django_db(transaction=True)
def test_the_clock_runs_out_and_the_table_ends_its_game_as_the_rule_says(
    live_server, new_context, settings, rule
):
    settings.LIVE_POLL_SECONDS = 1
    director = make_user("dir-clock")
    referee = make_user("ref-clock")
    tournament = make_tournament(
        name="Clock Open", slug="clock-open", directors=[director], at_time_limit=rule
    )
    tournament.referees.add(referee)
    for name in PLAYERS:
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(name=name), checked_in=True
        )
    HallScreen.objects.create(tournament=tournament, number=1, pinned=HallScreen.View.CLOCK)
    problems: list[str] = []

    # --- the director: draw, a limit of 1 minute, start the session, then its clock ---------
    desk = new_context().new_page()
    watch(desk, problems)
    log_in(desk, live_server.url, director)
    desk.goto(live_server.url + reverse("manage:tournament", args=[tournament.slug]))
    desk.get_by_role("button", name="Draw session 1").click()
    clock_section = desk.locator("#clock")
    clock_section.get_by_label("Time limit (minutes)").fill("1")
    clock_section.get_by_role("button", name="Save the time limit").click()
    expect(desk.locator("#clock .notice")).to_have_text("Time limit: 1 minutes.")
    expect(desk.locator("#clock .session-clock")).to_contain_text("Time limit")
    desk.locator("select[name=referee_1]").select_option(label="ref-clock")
    # The clock part was swapped in place: the start button's box came with it (issue 33.1).
    expect(desk.get_by_label("and start the clock (1 min) now")).to_be_checked()
    desk.get_by_role("button", name="Start session 1").click()
    expect(desk.get_by_role("heading", name=re.compile("^Session 1"))).to_contain_text("running")
    # Start session started the clock: no second button to find.
    expect(desk.locator("#clock .clock-label")).to_have_text("Time left")
    expect(desk.get_by_role("button", name="Pause the clock")).to_be_visible()

    session = Session.objects.get(tournament=tournament, number=1)
    assert session.clock_started_at is not None and session.time_limit == 1
    actions = session.clock_events.order_by("pk").values_list("action", flat=True)
    assert list(actions) == ["limit", "start"]
    table = Table.objects.get(session=session)
    assert table.referee == referee
    seats = list(
        Seat.objects.filter(table=table)
        .order_by("position")
        .values_list("player__name", flat=True)
    )

    # --- the referee's phone: the clock counts down; round 1 before the limit --------------------
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch(phone, problems)
    log_in(phone, live_server.url, referee)
    phone.goto(live_server.url + table.get_absolute_url())
    clock = phone.locator(".table-head .session-clock")
    expect(clock.locator(".clock-label")).to_have_text("Time left")
    expect(clock.locator(".clock-time")).to_have_text(re.compile(r"^(1:00|0:[0-5]\d)$"))
    first = clock.locator(".clock-time").inner_text()
    expect(clock.locator(".clock-time")).not_to_have_text(first)  # it counts down
    form = phone.locator("#round-form")
    # The entry form's template comment stays a comment (a multi-line {# #} printed itself).
    expect(form).not_to_contain_text("{#")
    fill_round(form, seats, small_round(seats, 1))
    record_round(phone, 1)

    # Almost a minute later (the clock's start moved back: a few seconds remain). The phone's
    # poll brings the new end (the clock's token changed) without a reload.
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - timedelta(seconds=60 - LEFT),
        changed_at=timezone.now(),
    )
    expect(clock.locator(".clock-time")).to_have_text(re.compile(r"^0:(0\d|1[0-5])$"))

    # The hall screen (pinned to the clock) and the public page count down with it.
    hall = new_context(viewport=HD).new_page()
    watch(hall, problems)
    hall.goto(live_server.url + reverse("public:hall", args=[tournament.slug]))
    hall_clock = hall.locator(".view-clock .session-clock")
    expect(hall_clock).to_be_visible()
    expect(hall_clock.locator(".clock-label")).to_have_text("Time left")
    expect(hall_clock.locator(".clock-time")).to_have_text(re.compile(r"^0:(0\d|1[0-5])$"))
    # Readable from 10 m: the time takes a good part of a 1080p projector's height.
    size = hall_clock.locator(".clock-time").evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 200, size
    public = new_context().new_page()
    watch(public, problems)
    public.goto(live_server.url + reverse("public:tournament", args=[tournament.slug]))
    public_clock = public.locator(".session-clock")
    expect(public_clock.locator(".clock-label")).to_have_text("Time left")
    expect(public_clock.locator(".clock-time")).to_have_text(re.compile(r"^0:(0\d|1[0-5])$"))
    assert Session.objects.get(pk=session.pk).clock().phase == "running"

    # --- the limit: every page says so by itself, no reload --------------------------------------
    url = phone.url
    up = {"timeout": (LEFT + 5) * 1000}
    expect(clock.locator(".clock-label")).to_have_text("Time is up", **up)
    expect(clock.locator(".clock-time")).to_have_text("0:00")
    expect(clock.locator(".clock-rule")).to_have_text(AT_THE_LIMIT[rule])
    # Still the page the referee opened: no reload, no navigation.
    assert phone.url == url
    assert phone.evaluate("performance.getEntriesByType('navigation')[0].type") == "navigate"
    shot(phone, f"clock-table-phone-{rule}")
    expect(hall_clock.locator(".clock-label")).to_have_text("Time is up")
    expect(hall_clock.locator(".clock-time")).to_have_text("0:00")
    shot(hall, f"clock-hall-1920x1080-{rule}")
    expect(public_clock.locator(".clock-label")).to_have_text("Time is up")
    # The public page's poll brings the sentence for every table.
    expect(public_clock.locator(".clock-rule")).to_contain_text(
        re.compile(re.escape(FOR_EVERY_TABLE[rule])), timeout=5000
    )
    assert Session.objects.get(pk=session.pk).clock().over

    # --- the rounds the rule allows: the game ends at the time limit -----------------------------
    fill_round(form, seats, small_round(seats, 2))
    record_round(phone, 2)
    if rule == AtTimeLimit.LAST_ROUND:
        # The round being played at the limit is recorded: one last round to go.
        table.game.refresh_from_db()
        assert not table.game.finished
        expect(clock.locator(".clock-rule")).to_have_text(
            "Last round: the game ends at the time limit when it is recorded."
        )
        expect(form.get_by_role("heading", name="Round 3")).to_be_visible()
        fill_round(form, seats, small_round(seats, 3))
        record_round(phone, 3)
    rounds = 3 if rule == AtTimeLimit.LAST_ROUND else 2
    result = phone.locator(".result")
    expect(result).to_contain_text("Ended at the time limit.")
    expect(phone.locator("#round-form")).to_have_count(0)
    expect(clock.locator(".clock-label")).to_have_text("Time is up")
    expect(clock.locator(".clock-rule")).to_have_text("")

    game = table.game
    game.refresh_from_db()
    assert game.finished and game.ended_at_time_limit and game.round_count == rounds
    # Ranked by the totals at the limit: the caller of each round scored 0, the others their
    # hands (small_round), no one near 50.
    totals = dict.fromkeys(seats, 0)
    for number in range(1, rounds + 1):
        entry = small_round(seats, number)
        for name, hand in entry["hands"].items():
            totals[name] += 0 if name == entry["yaniv"] else hand
    stored = dict(Seat.objects.filter(table=table).values_list("player__name", "total"))
    assert stored == totals
    expect(phone.locator(".seat-total")).to_have_text([str(totals[name]) for name in seats])
    assert list(game.changes.values_list("action", flat=True).order_by("pk"))[-1] == "end"

    # The hall's tables view says how the game ended.
    HallScreen.objects.filter(tournament=tournament).update(
        pinned=HallScreen.View.TABLES, changed_at=timezone.now()
    )
    expect(hall.locator(".view-tables")).to_contain_text("ended at the time limit", timeout=5000)
    assert problems == []
