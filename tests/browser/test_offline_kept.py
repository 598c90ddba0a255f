"""What the phone knows is never older than what it did (Chromium's offline emulation).

The cases where rounds went missing: offline right after an online save, then a reload; two
reloads offline; a round in conflict with the next ones queued behind it; a code revoked with a
round still on the phone. And the parts of the page that follow the sheet. The database and
the engine (scoring.rules) say what should be stored.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.test_offline import (
    PLAYERS,
    ROUNDS,
    engine_totals,
    expect_saved,
    fill,
    log_in,
    open_for_offline,
    outbox,
    record_offline,
    stored_totals,
)
from tests.factories import make_table, make_user, record
from tournaments.models import GameChange, Round, TableCode, Tournament
from tournaments.models.rounds import describe_entries

ROUND_4: dict[str, Any] = {"hands": {"Ann": 5, "Bart": 6, "Chris": 1, "Dirk": 9}, "yaniv": "Chris"}
# Another phone's round 2, other entries than this phone's.
OTHERS: dict[str, Any] = {"hands": {"Ann": 7, "Bart": 2, "Chris": 11, "Dirk": 4}, "yaniv": "Bart"}


def stored_rounds(table) -> list[dict[str, Any]]:
    """The stored rounds as typed, in their order (the game record's entries)."""
    table.game.refresh_from_db()
    rows = table.game.rows()
    records = [rows.entries(stored) for stored in rows.rounds]
    return [
        {
            key: value
            for key, value in (
                ("hands", dict(entry.hands)),
                ("yaniv", entry.yaniv),
                ("empty_hand", entry.empty_hand),
                ("along", list(entry.along)),
            )
            if value
        }
        for entry in records
    ]


def typed(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if value}


def record_online(page: Page, number: int, entry: dict[str, Any]) -> None:
    fill(page, entry)
    page.get_by_role("button", name=f"Record round {number}").click()
    expect(page.get_by_role("button", name=f"Record round {number + 1}")).to_be_visible()
    expect(page.locator("#save-status")).to_contain_text(f"Round {number} saved.")


def expect_totals(page: Page, rounds: list[dict[str, Any]]) -> None:
    totals = engine_totals(rounds)
    expect(page.locator(".seat-total")).to_have_text([str(totals[p]) for p in PLAYERS])


@pytest.fixture
def referee():
    return make_user("ref-kept")


@pytest.fixture
def table(referee):
    return make_table(players=PLAYERS, referee=referee)


@pytest.fixture
def table_url(live_server, table) -> str:
    return live_server.url + reverse("tables:detail", args=[table.pk])


@pytest.mark.django_db(transaction=True)
def test_offline_right_after_an_online_save_a_reload_keeps_every_round_and_its_number(
    live_server, context: BrowserContext, page: Page, table, referee, table_url
):
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    log_in(page, live_server.url, referee)
    open_for_offline(page, table_url)
    # The page was kept with no round; round 1 is saved online, and the Wi-Fi goes at once,
    # before any poll could bring a newer page.
    record_online(page, 1, ROUNDS[0])
    context.set_offline(True)
    record_offline(page, 2, ROUNDS[1], stored=1)
    record_offline(page, 3, ROUNDS[2], stored=1)

    page.reload()
    sheet = page.locator("table.sheet tbody tr")
    expect(sheet).to_have_count(3)
    expect(page.locator("tr.pending-row")).to_have_count(2)
    expect(page.locator("#sheet .no-rounds")).to_be_hidden()
    expect(sheet.nth(0).locator("th")).to_contain_text("1")
    # Ann lands on 50 in round 3 and is reduced: right only if round 1 counts.
    expect(sheet.nth(2).locator("td").nth(0).locator(".running")).to_have_text("50 → 0")
    expect_totals(page, ROUNDS)
    expect(page.get_by_role("button", name="Record round 4")).to_be_visible()
    record_offline(page, 4, ROUND_4, stored=1)
    assert [op["number"] for op in outbox(page)] == [2, 3, 4]

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect_saved(page)
    expect(page.locator("#device-problem .conflict")).to_have_count(0)
    assert stored_rounds(table) == [typed(entry) for entry in [*ROUNDS, ROUND_4]]
    assert stored_totals(table) == engine_totals([*ROUNDS, ROUND_4])
    assert GameChange.objects.filter(action="record").count() == 4
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_two_reloads_offline_keep_the_saved_and_the_pending_rounds(
    live_server, context: BrowserContext, page: Page, table, referee, table_url
):
    log_in(page, live_server.url, referee)
    open_for_offline(page, table_url)
    record_online(page, 1, ROUNDS[0])
    context.set_offline(True)
    page.reload()
    expect(page.locator("table.sheet tbody tr")).to_have_count(1)
    record_offline(page, 2, ROUNDS[1], stored=1)
    page.reload()
    expect(page.locator("table.sheet tbody tr")).to_have_count(2)
    expect(page.locator("tr.pending-row")).to_have_count(1)
    expect_totals(page, ROUNDS[:2])
    record_offline(page, 3, ROUNDS[2], stored=1)

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect_saved(page)
    assert stored_rounds(table) == [typed(entry) for entry in ROUNDS]
    assert stored_totals(table) == engine_totals(ROUNDS)


@pytest.mark.parametrize("choice", ["keep", "replace", "after"])
@pytest.mark.django_db(transaction=True)
def test_a_conflict_on_a_round_keeps_the_rounds_queued_behind_it_and_replays_them(
    live_server, context: BrowserContext, page: Page, table, referee, table_url, choice
):
    log_in(page, live_server.url, referee)
    open_for_offline(page, table_url)
    record_online(page, 1, ROUNDS[0])
    context.set_offline(True)
    for number, entry in ((2, ROUNDS[1]), (3, ROUNDS[2]), (4, ROUND_4)):
        record_offline(page, number, entry, stored=1)
    # Meanwhile another phone of the same referee stores round 2 with other entries.
    table.game.refresh_from_db()
    record(table.game, referee, OTHERS)

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    conflict = page.locator("#device-problem .conflict")
    expect(conflict).to_contain_text("Round 2 was recorded twice, differently", timeout=15_000)
    expect(conflict).to_contain_text("Stored (by another phone of yours)")
    # What waits behind it is shown, and nothing of it is stored before the choice.
    mine = describe_entries(typed(ROUNDS[1]))
    round_3, round_4 = describe_entries(typed(ROUNDS[2])), describe_entries(typed(ROUND_4))
    expect(conflict.locator(".waiting-behind")).to_have_text(
        f"Waiting behind it, sent after your choice (2): Round 3: {round_3}; Round 4: {round_4}."
    )
    expect(page.locator("tr.pending-row")).to_have_count(2)
    assert stored_rounds(table) == [typed(ROUNDS[0]), typed(OTHERS)]

    if choice == "keep":
        conflict.get_by_role("link", name="Keep the stored round").click()
        expected = [ROUNDS[0], OTHERS, ROUNDS[2], ROUND_4]
        said = f"Your round 2 ({mine}) was not stored."
    elif choice == "replace":
        conflict.get_by_label("Reason").fill("this phone had it right")
        conflict.get_by_role("button", name="Replace round 2 with mine").click()
        expected = [ROUNDS[0], ROUNDS[1], ROUNDS[2], ROUND_4]
        said = ""
    else:
        conflict.get_by_role("button", name="Mine is another round: record it as round 3").click()
        expected = [ROUNDS[0], OTHERS, ROUNDS[1], ROUNDS[2], ROUND_4]
        said = (
            "Your round 2 is now round 3. Your round 3 is now round 4. "
            "Your round 4 is now round 5."
        )
    expect_saved(page)
    moved = page.locator("#device-moved")
    if said:
        expect(moved).to_have_text(said)
    else:
        expect(moved).to_have_count(0)
    assert stored_rounds(table) == [typed(entry) for entry in expected]
    assert stored_totals(table) == engine_totals(expected)
    expect_totals(page, expected)
    expect(page.locator("table.sheet tbody tr:not(.undone)")).to_have_count(len(expected))
    assert outbox(page) == []


@pytest.mark.django_db(transaction=True)
def test_a_revoked_code_keeps_the_page_and_the_pending_round_until_the_person_deletes_it(
    live_server, context: BrowserContext, page: Page, tournament, settings
):
    settings.LIVE_POLL_SECONDS = 1
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.save(update_fields=["entry"])
    table = make_table(players=PLAYERS, tournament=tournament)
    code = TableCode.issue(table).code
    open_for_offline(page, live_server.url + reverse("codes:detail", args=[code]))
    context.set_offline(True)
    record_offline(page, 1, ROUNDS[0])
    TableCode.issue(table)  # the director gives the table a new code

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    closed = page.locator("#device-closed")
    expect(closed).to_contain_text("This phone can no longer record at this table")
    expect(closed).to_contain_text("Why: the director gave this table a new code.")
    line = "Round 1: Ann 20, Bart 5, Chris 9 (Yaniv), Dirk 10"
    expect(closed.get_by_label("Not stored yet, as text")).to_have_value(line)
    # The polls go on failing behind it: the page stays (three poll intervals).
    page.wait_for_timeout(3_000)
    expect(closed).to_contain_text("the director gave this table a new code")
    expect(page.locator("h1")).to_contain_text("Table 1")

    # A reload (online) gets the code's page in words, and the round is still shown.
    page.reload()
    expect(page.locator("#closed-page")).to_contain_text(
        "Why: the director gave this table a new code."
    )
    expect(closed.get_by_label("Not stored yet, as text")).to_have_value(line)
    assert len(outbox(page)) == 1
    assert Round.objects.count() == 0

    page.once("dialog", lambda dialog: dialog.accept())
    closed.get_by_role("button", name="Delete them from this phone").click()
    expect(closed).to_contain_text("Nothing typed on this phone waits to be stored.")
    assert outbox(page) == []


@pytest.mark.django_db(transaction=True)
def test_a_correction_moves_the_running_totals_of_every_later_row(
    live_server, page: Page, table, referee, table_url
):
    record(table.game, referee, *ROUNDS)
    log_in(page, live_server.url, referee)
    page.goto(table_url)
    page.locator("table.sheet tbody tr").nth(0).get_by_role("link", name="Correct round 1").click()
    correction = page.locator("#correction-panel form.correction")
    correction.locator("fieldset.seat-entry").nth(3).get_by_label("Hand").fill("13")
    correction.get_by_label("Reason").fill("Dirk had 13")
    correction.get_by_role("button", name="Save the correction").click()
    expect_saved(page)
    corrected = [{**ROUNDS[0], "hands": {**ROUNDS[0]["hands"], "Dirk": 13}}, *ROUNDS[1:]]
    totals = engine_totals(corrected)
    last_row = page.locator("table.sheet tbody tr").nth(2)
    # Dirk's running total in round 3, without waiting for a poll.
    expect(last_row.locator("td").nth(3).locator(".running")).to_have_text(str(totals["Dirk"]))
    expect_totals(page, corrected)


@pytest.mark.django_db(transaction=True)
def test_a_blank_table_says_nothing_is_saved_and_grows_its_undo_and_question_parts(
    live_server, page: Page, table, referee, table_url
):
    log_in(page, live_server.url, referee)
    page.goto(table_url)
    expect(page.locator("#round-form")).to_be_visible()
    expect(page.locator("#save-status")).to_be_hidden()
    expect(page.locator("#undo-tools")).to_be_hidden()
    expect(page.get_by_text("Saved.", exact=True)).to_have_count(0)

    record_online(page, 1, ROUNDS[0])
    tools = page.locator("#undo-tools")
    expect(tools).to_be_visible()
    tools.locator("summary").click()
    expect(tools.get_by_role("button", name="Undo round 1")).to_be_visible()
    options = page.locator(".something-wrong select[name=round] option")
    expect(options).to_have_text([re.compile("whole sheet"), "1"])


@pytest.mark.django_db(transaction=True)
def test_a_referee_logged_out_keeps_the_pending_round_and_is_told_to_log_in(
    live_server, context: BrowserContext, page: Page, table, referee, table_url
):
    log_in(page, live_server.url, referee)
    open_for_offline(page, table_url)
    context.set_offline(True)
    record_offline(page, 1, ROUNDS[0])
    # The account's session ends while the phone is offline (it expired, or a log-out).
    context.clear_cookies(name="sessionid")
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    closed = page.locator("#device-closed")
    # The outbox's send and the server's answer, on a machine busy with other tests' browsers.
    expect(closed).to_contain_text(
        "Why: you are no longer logged in on this phone: log in again to send them.",
        timeout=15_000,
    )
    line = "Round 1: Ann 20, Bart 5, Chris 9 (Yaniv), Dirk 10"
    expect(closed.get_by_label("Not stored yet, as text")).to_have_value(line)
    assert len(outbox(page)) == 1 and Round.objects.count() == 0

    # Logged in again, the page sends it.
    log_in(page, live_server.url, referee)
    page.goto(table_url)
    expect_saved(page)
    assert stored_rounds(table) == [typed(ROUNDS[0])]


@pytest.mark.django_db(transaction=True)
def test_the_offline_note_writes_the_sites_24_hour_time_whatever_the_browsers_locale(
    live_server, browser, table, settings
):
    settings.LIVE_POLL_SECONDS = 1
    # A browser in American English whose clock reads about 3 pm: a 12-hour clock would say
    # "03:.. PM". (Etc/GMT-N is N hours ahead of UTC.)
    ahead = (15 - datetime.now(UTC).hour) % 24
    ahead = ahead - 24 if ahead > 14 else ahead
    zone = f"Etc/GMT{-ahead:+d}" if ahead else "Etc/GMT"
    american = browser.new_context(locale="en-US", timezone_id=zone)
    page = american.new_page()
    page.goto(live_server.url + reverse("tables:detail", args=[table.pk]))
    american.set_offline(True)
    notice = page.locator("#behind-notice")
    expect(notice).to_be_visible(timeout=5_000)
    expect(notice).to_contain_text(re.compile(r"last updated 1[4-6]:\d\d"))
    expect(notice).not_to_contain_text(re.compile("AM|PM"))
    american.close()
