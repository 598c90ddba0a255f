"""The table page offline (Chromium's offline emulation): nothing typed is lost or stored twice.

A referee records rounds with the Wi-Fi gone, reloads the page, comes back online; two tabs
replay one outbox; two phones record the same round differently; a phone comes back after
the director signed the sheet off. The site's database and the engine say what should be.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from scoring import rules
from tests.factories import PASSWORD, make_table, make_user, record
from tournaments.models import Game, GameChange, Round, Seat, Session

PLAYERS = ["Ann", "Bart", "Chris", "Dirk"]
# Round 1: Chris calls with 9, a false Yaniv (32 + Dirk's 10). Round 2: Bart empties his hand.
# Round 3: Ann lands on 50 and is reduced to 0; Bart went along with more than Chris.
ROUNDS: list[dict[str, Any]] = [
    {"hands": {"Ann": 20, "Bart": 5, "Chris": 9, "Dirk": 10}, "yaniv": "Chris"},
    {"hands": {"Ann": 10, "Bart": 0, "Chris": 3, "Dirk": 12}, "empty_hand": "Bart"},
    {"hands": {"Ann": 40, "Bart": 3, "Chris": 2, "Dirk": 8}, "yaniv": "Chris", "along": ["Bart"]},
]


def engine_totals(rounds: list[dict[str, Any]]) -> dict[str, int]:
    game = rules.Game(tuple(PLAYERS), tuple(rules.Round(**entry) for entry in rounds))
    return dict(rules.score_game(game).totals)


def log_in(page: Page, base: str, user) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def open_for_offline(page: Page, url: str) -> None:
    """Open the table page and wait until the phone keeps it (service worker and cache)."""
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(150):
        kept = page.evaluate(
            "caches.open('pages').then(cache => cache.match(location.href)).then(Boolean)"
        )
        if kept:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the service worker did not keep {url}")


def fill(page: Page, entry: dict[str, Any]) -> None:
    form = page.locator("#round-form")
    seats = form.locator("fieldset.seat-entry")
    for index, player in enumerate(PLAYERS):
        seats.nth(index).get_by_label("Hand").fill(str(entry["hands"][player]))
    for index, player in enumerate(PLAYERS):
        seat = seats.nth(index)
        if entry.get("yaniv") == player:
            seat.locator("label.toggle", has_text="Yaniv").click()
        if entry.get("empty_hand") == player:
            seat.locator("label.toggle", has_text="Empty").click()
        if player in entry.get("along", []):
            seat.locator("label.toggle", has_text="Along").click()


def record_offline(page: Page, number: int, entry: dict[str, Any], stored: int = 0) -> None:
    """Type round `number` and record it; it shows as a pending row (`stored` on the server)."""
    fill(page, entry)
    page.get_by_role("button", name=f"Record round {number}").click()
    expect(page.locator("tr.pending-row")).to_have_count(number - stored)


def expect_saved(page: Page) -> None:
    """Nothing waits on the phone: the status says so ("Saved.", "Round 3 saved.", …)."""
    expect(page.locator("tr.pending-row")).to_have_count(0, timeout=15_000)
    status = page.locator("#save-status")
    expect(status).to_have_class(re.compile(r"\bsaved\b"), timeout=15_000)
    expect(status.locator(".state")).to_have_text(re.compile(r"[Ss]aved|corrected|undone"))


def outbox(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("window.yanivOutbox()")


def stored_totals(table) -> dict[str, int]:
    seats = Seat.objects.filter(table=table).select_related("player")
    return {seat.player.name: seat.total for seat in seats}


@pytest.fixture
def referee():
    return make_user("ref-offline")


@pytest.fixture
def table(referee):
    return make_table(players=PLAYERS, referee=referee)


@pytest.mark.django_db(transaction=True)
def test_three_rounds_recorded_offline_survive_a_reload_and_are_stored_once(
    live_server, context: BrowserContext, page: Page, table, referee
):
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    log_in(page, live_server.url, referee)
    url = live_server.url + reverse("tables:detail", args=[table.pk])
    open_for_offline(page, url)

    context.set_offline(True)
    for number, entry in enumerate(ROUNDS, start=1):
        record_offline(page, number, entry)
    status = page.locator("#save-status")
    expect(status).to_contain_text("No connection")
    expect(status).to_contain_text("3 changes waiting")
    # The device scores the pending rounds as the server will: the false Yaniv, the reduction.
    rows = page.locator("tr.pending-row")
    expect(rows.nth(0).locator("th")).to_contain_text("1")
    expect(rows.nth(0).locator("td").nth(2).locator(".points")).to_have_text("F +42")
    expect(rows.nth(2).locator("td").nth(0).locator(".running")).to_have_text("50 → 0")
    expected = engine_totals(ROUNDS)
    expect(page.locator(".seat-total")).to_have_text([str(expected[p]) for p in PLAYERS])
    assert Round.objects.count() == 0

    # A reload without a connection: the kept page, and the three rounds still pending.
    page.reload()
    expect(page.locator("tr.pending-row")).to_have_count(3)
    expect(page.get_by_role("button", name="Record round 4")).to_be_visible()
    assert len(outbox(page)) == 3

    context.set_offline(False)
    expect_saved(page)
    expect(page.locator("tr.pending-row")).to_have_count(0)
    expect(page.locator("table.sheet tbody tr")).to_have_count(3)
    assert list(Round.objects.order_by("number").values_list("number", flat=True)) == [1, 2, 3]
    assert stored_totals(table) == expected
    assert GameChange.objects.filter(action="record").count() == 3
    assert outbox(page) == []
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_an_outbox_replayed_twice_and_by_two_tabs_stores_each_round_once(
    live_server, context: BrowserContext, page: Page, table, referee
):
    log_in(page, live_server.url, referee)
    url = live_server.url + reverse("tables:detail", args=[table.pk])
    open_for_offline(page, url)
    context.set_offline(True)
    record_offline(page, 1, ROUNDS[0])
    record_offline(page, 2, ROUNDS[1])
    sent = outbox(page)
    assert [op["number"] for op in sent] == [1, 2]

    # A second tab of the same phone sees the same outbox; both send it when online.
    other = context.new_page()
    other.goto(url)
    expect(other.locator("tr.pending-row")).to_have_count(2)
    context.set_offline(False)
    for tab in (page, other):
        tab.evaluate("window.dispatchEvent(new Event('online'))")
    expect_saved(page)
    expect(other.locator("tr.pending-row")).to_have_count(0, timeout=15_000)
    assert Round.objects.count() == 2

    # The same outbox once more, as a phone that never heard the answers would send it.
    page.evaluate(
        """ops => idbKeyval.update(
            'table-' + document.getElementById('live').dataset.table,
            saved => ({...saved, outbox: ops}),
            idbKeyval.createStore('yaniv-club', 'tables'))""",
        sent,
    )
    page.reload()
    expect_saved(page)
    assert Round.objects.count() == 2
    assert GameChange.objects.filter(action="record").count() == 2
    assert stored_totals(table) == engine_totals(ROUNDS[:2])


@pytest.mark.django_db(transaction=True)
def test_two_phones_recording_a_round_differently_choose_and_nothing_is_stored_until_then(
    live_server, browser, page: Page, context: BrowserContext, table, referee
):
    log_in(page, live_server.url, referee)
    url = live_server.url + reverse("tables:detail", args=[table.pk])
    open_for_offline(page, url)
    context.set_offline(True)
    record_offline(page, 1, ROUNDS[0])

    # Meanwhile the second phone, online, records round 1 with other entries.
    second_context = browser.new_context(locale="en-GB")
    second = second_context.new_page()
    log_in(second, live_server.url, referee)
    second.goto(url)
    fill(second, ROUNDS[1])
    second.get_by_role("button", name="Record round 1").click()
    # The status reads "saved" before the click too: wait for the next round's form.
    expect(second.get_by_role("button", name="Record round 2")).to_be_visible(timeout=15_000)
    expect_saved(second)
    assert Round.objects.count() == 1

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    conflict = page.locator("#device-problem .conflict")
    expect(conflict).to_contain_text("Round 1 was recorded twice, differently", timeout=15_000)
    expect(conflict).to_contain_text("Ann 10, Bart 0 (emptied), Chris 3, Dirk 12")
    expect(conflict).to_contain_text("Ann 20, Bart 5, Chris 9 (Yaniv), Dirk 10")
    expect(page.locator("#save-status")).to_contain_text("Two versions of a round")
    # Nothing of the first phone is stored, not as round 1 and not as a round 2.
    assert Round.objects.count() == 1
    assert stored_totals(table) == engine_totals([ROUNDS[1]])

    conflict.get_by_label("Reason").fill("the first phone had it right")
    conflict.get_by_role("button", name="Replace round 1 with mine").click()
    expect_saved(page)
    assert Round.objects.count() == 1
    assert stored_totals(table) == engine_totals([ROUNDS[0]])
    change = GameChange.objects.get(action="correct")
    assert change.reason == "the first phone had it right" and change.round_number == 1
    second_context.close()


@pytest.mark.django_db(transaction=True)
def test_a_phone_back_after_the_sign_off_keeps_its_change_and_says_why(
    live_server, context: BrowserContext, page: Page, table, referee
):
    dirk_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 45}, "yaniv": "Ann"}
    record(table.game, referee, *[dirk_45] * 3)
    log_in(page, live_server.url, referee)
    url = live_server.url + reverse("tables:detail", args=[table.pk])
    open_for_offline(page, url)
    context.set_offline(True)
    record_offline(page, 4, dirk_45, stored=3)  # Dirk reaches 180: the game ends on the phone
    expect(page.get_by_role("button", name="Record round 5")).to_be_hidden()

    # The director, elsewhere, ends the game at the time limit and signs the sheet off.
    director = make_user("dir-offline")
    game = table.game
    game.end_at_time_limit(by=director, reason="time", version=game.version)
    game.sign_off(by=director, version=game.version)

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    closed = page.locator("#device-closed")
    expect(closed).to_contain_text("This phone can no longer record at this table", timeout=15_000)
    expect(closed).to_contain_text("Why: The sheet is signed off: only a director changes it.")
    expect(closed.locator("textarea")).to_have_value(
        "Round 4: Ann 0 (Yaniv), Bart 1, Chris 1, Dirk 45"
    )
    expect(page.locator("#save-status")).to_contain_text(
        "Not sent, kept on this phone (see above): 1."
    )
    assert Round.objects.count() == 3
    assert len(outbox(page)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_correction_and_an_undo_made_offline_are_applied_once_back_online(
    live_server, context: BrowserContext, page: Page, table, referee
):
    record(table.game, referee, *ROUNDS)
    log_in(page, live_server.url, referee)
    open_for_offline(page, live_server.url + reverse("tables:detail", args=[table.pk]))
    context.set_offline(True)

    # Round 2: Dirk had 2, not 12.
    page.locator("table.sheet tbody tr").nth(1).get_by_role("link", name="Correct round 2").click()
    correction = page.locator("#correction-panel form.correction")
    expect(correction.get_by_role("heading", name="Correct round 2")).to_be_visible()
    dirk = correction.locator("fieldset.seat-entry").nth(3).get_by_label("Hand")
    expect(dirk).to_have_value("12")
    dirk.fill("2")
    correction.get_by_label("Reason").fill("Dirk had 2")
    correction.get_by_role("button", name="Save the correction").click()
    expect(page.locator("tr.pending-row")).to_have_count(1)
    corrected = [ROUNDS[0], {**ROUNDS[1], "hands": {**ROUNDS[1]["hands"], "Dirk": 2}}, ROUNDS[2]]
    totals = engine_totals(corrected)
    expect(page.locator(".seat-total")).to_have_text([str(totals[p]) for p in PLAYERS])

    # And round 3 goes: struck through until the undo is stored.
    page.locator("details.fix-tools summary").click()
    page.locator("#undo-form").get_by_label("Reason").fill("round 3 was not played")
    page.locator("#undo-form").get_by_role("button", name="Undo round 3").click()
    expect(page.locator("table.sheet tbody tr.undone")).to_have_count(1)
    assert [op["action"] for op in outbox(page)] == ["correct", "undo"]
    assert GameChange.objects.filter(action__in=["correct", "undo"]).count() == 0

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect_saved(page)
    assert list(Round.objects.values_list("number", flat=True)) == [1, 2]
    assert stored_totals(table) == engine_totals(corrected[:2])
    assert GameChange.objects.filter(action="correct").count() == 1
    assert GameChange.objects.filter(action="undo").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_followers_page_says_it_is_behind_and_catches_up(
    live_server, context: BrowserContext, page: Page, table, referee, settings
):
    settings.LIVE_POLL_SECONDS = 1
    page.goto(live_server.url + reverse("tables:detail", args=[table.pk]))
    notice = page.locator("#behind-notice")
    expect(notice).to_be_hidden()
    context.set_offline(True)
    expect(notice).to_be_visible(timeout=5_000)
    expect(notice).to_contain_text(re.compile(r"Offline — last updated \d\d:\d\d"))
    record(table.game, referee, ROUNDS[0])
    context.set_offline(False)
    expect(notice).to_be_hidden(timeout=5_000)
    expect(page.locator("table.sheet tbody tr")).to_have_count(1)


@pytest.mark.django_db(transaction=True)
def test_a_round_typed_offline_before_the_time_limit_is_not_the_round_at_the_limit(
    live_server, context: BrowserContext, page: Page, table, referee
):
    """The limit passes while the phone is offline with round 1 typed before it: sent later,
    round 1 still counts as played in time, and the game goes on (the tournament's rule: the
    round being played at the limit is the last)."""
    log_in(page, live_server.url, referee)
    open_for_offline(page, live_server.url + reverse("tables:detail", args=[table.pk]))
    # 90 minutes, of which 4 seconds are left.
    Session.objects.filter(pk=table.session_id).update(
        status=Session.Status.RUNNING,
        time_limit=90,
        clock_started_at=timezone.now() - timedelta(minutes=90) + timedelta(seconds=4),
    )
    context.set_offline(True)
    record_offline(page, 1, ROUNDS[0])
    ends_at = Session.objects.get(pk=table.session_id).clock(table).ends_at
    assert ends_at is not None and timezone.now() < ends_at
    # The time runs out while the phone is offline; it is back two seconds later.
    page.wait_for_timeout((ends_at - timezone.now()).total_seconds() * 1000 + 2000)
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect_saved(page)
    game = Game.objects.get(pk=table.game.pk)
    assert game.round_count == 1 and not game.finished and not game.ended_at_time_limit
    assert Round.objects.get(game=game).entered_at < ends_at
