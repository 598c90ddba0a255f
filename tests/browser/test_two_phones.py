"""Two phones, one round (issue 32): a round typed on two phones is stored once, whatever
choice the first phone's referee makes when it comes back; a tap before the page's script
holds the form goes into the outbox all the same.

The first phone is the page in Chromium, offline; the second is the same referee's other
phone, online and in step with the server (its rounds stored as the sync stores them).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from playwright.sync_api import BrowserContext, Locator, Page, Route, expect

from scoring import rules
from tests.browser.test_offline import (
    PLAYERS,
    ROUNDS,
    engine_totals,
    fill,
    log_in,
    open_for_offline,
    outbox,
    record_offline,
    stored_totals,
)
from tests.factories import make_user, record
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Round 2 as the first phone typed it: Dirk's 12 mistyped as 13.
MISTYPED = {**ROUNDS[1], "hands": {**ROUNDS[1]["hands"], "Dirk": 13}}


@pytest.fixture
def referee():
    return make_user("ref-two-phones")


def stored_rounds(table) -> list[dict[str, Any]]:
    rows = table.game.rows()
    return [
        {
            key: value
            for key, value in {
                "hands": dict(entries.hands),
                "yaniv": entries.yaniv,
                "empty_hand": entries.empty_hand,
                "along": list(entries.along),
            }.items()
            if value
        }
        for entries in (rows.entries(each) for each in rows.rounds)
    ]


def back_online(page: Page, context: BrowserContext) -> None:
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def choose_on_round_2(panel: Locator, choice: str) -> list[dict[str, Any]]:
    """Take `choice` on the panel of round 2 (MISTYPED waiting against the stored ROUNDS[1]);
    the rounds the sheet should then hold."""
    if choice == "keep":
        panel.get_by_role("link", name="Keep the stored round").click()
        return ROUNDS
    if choice == "replace":
        panel.get_by_label("Reason").fill("Dirk had 13")
        panel.get_by_role("button", name="Replace round 2 with mine").click()
        return [ROUNDS[0], MISTYPED, ROUNDS[2]]
    panel.get_by_role("button", name="Mine is another round").click()
    return [*ROUNDS, MISTYPED]


def wait_until_sent(page: Page) -> None:
    for _ in range(150):
        if not outbox(page):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the outbox never emptied: {outbox(page)}")


@pytest.mark.parametrize("choice", ["keep", "replace", "after"])
def test_a_waiting_round_the_other_phone_stored_is_never_stored_again_whatever_the_choice(
    live_server, page: Page, context: BrowserContext, table, referee, choice
):
    """Case 1(b): the first phone offline records round 2 mistyped and round 3; the second
    phone records both rightly. Back online, the panel shows the conflict on round 2, the
    rounds stored since, and round 3 waiting as already stored; each choice leaves round 3
    stored once."""
    record(table.game, referee, ROUNDS[0])
    log_in(page, live_server.url, referee)
    open_for_offline(page, live_server.url + reverse("tables:detail", args=[table.pk]))
    context.set_offline(True)
    record_offline(page, 2, MISTYPED, stored=1)
    record_offline(page, 3, ROUNDS[2], stored=1)
    record(table.game, referee, ROUNDS[1], ROUNDS[2])

    back_online(page, context)
    panel = page.locator("#device-problem .conflict")
    expect(panel).to_contain_text("Round 2 was recorded twice, differently", timeout=15_000)
    expect(panel).to_contain_text("Stored since this phone last had the sheet (2 rounds)")
    expect(panel).to_contain_text("Round 3: Ann 40, Bart 3 (along), Chris 2 (Yaniv), Dirk 8")
    expect(panel.locator(".waiting-behind")).to_contain_text("(already stored as round 3)")
    assert Round.objects.count() == 3

    expected = choose_on_round_2(panel, choice)
    wait_until_sent(page)
    expect(page.locator("#device-moved")).to_contain_text(
        "Your round 3 was already stored as round 3 (from another phone): not stored again."
    )
    assert stored_rounds(table) == expected
    assert stored_totals(table) == engine_totals(expected)
    totals = engine_totals(expected)
    expect(page.locator(".seat-total")).to_have_text([str(totals[p]) for p in PLAYERS])


@pytest.mark.parametrize("choice", ["Apply mine anyway", "Discard mine"])
def test_a_round_behind_a_stale_correction_is_not_doubled(
    live_server, page: Page, context: BrowserContext, table, referee, choice
):
    """Case 1(a): the first phone offline corrects round 2 and records round 3; the second
    phone corrects round 2 otherwise and records the same round 3. Either choice on the stale
    correction leaves round 3 stored once, not moved to round 4."""
    record(table.game, referee, ROUNDS[0], ROUNDS[1])
    log_in(page, live_server.url, referee)
    open_for_offline(page, live_server.url + reverse("tables:detail", args=[table.pk]))
    context.set_offline(True)
    page.locator("table.sheet tbody tr").nth(1).get_by_role("link", name="Correct round 2").click()
    correction = page.locator("#correction-panel form.correction")
    correction.locator("fieldset.seat-entry").nth(3).get_by_label("Hand").fill("2")
    correction.get_by_label("Reason").fill("Dirk had 2")
    correction.get_by_role("button", name="Save the correction").click()
    # The correction is a pending row too.
    record_offline(page, 3, ROUNDS[2], stored=1)
    game = table.game
    game.refresh_from_db()
    theirs = {**ROUNDS[1], "hands": {**ROUNDS[1]["hands"], "Dirk": 4}}
    game.correct_round(2, rules.Round(**theirs), by=referee, reason="Dirk had 4", version=2)
    record(game, referee, ROUNDS[2])

    back_online(page, context)
    panel = page.locator("#device-problem .conflict")
    expect(panel).to_contain_text("The sheet changed on another device", timeout=15_000)
    panel.get_by_role("button", name=choice).click()
    wait_until_sent(page)
    mine = {**ROUNDS[1], "hands": {**ROUNDS[1]["hands"], "Dirk": 2}}
    expected = [ROUNDS[0], mine if choice == "Apply mine anyway" else theirs, ROUNDS[2]]
    assert stored_rounds(table) == expected
    expect(page.locator("#device-moved")).to_contain_text("already stored as round 3")


def test_a_round_tapped_before_the_script_is_ready_goes_into_the_outbox_offline(
    live_server, browser, table, referee
):
    """Case 4: the page's script comes late (a slow phone); a round recorded before it, with
    the network dropped meanwhile, is kept on the phone and stored once back online. (No
    service worker here: the script is held on its way from the network.)"""
    context = browser.new_context(locale="en-GB", service_workers="block")
    page = context.new_page()
    log_in(page, live_server.url, referee)
    url = live_server.url + reverse("tables:detail", args=[table.pk])
    held: list[Route] = []
    page.route("**/js/table.js*", lambda route: held.append(route))
    page.goto(url, wait_until="commit")
    expect(page.locator("#record-button")).to_be_visible()
    fill(page, ROUNDS[0])
    page.locator("#record-button").click()
    context.set_offline(True)
    page.wait_for_timeout(300)
    assert Round.objects.count() == 0 and len(held) == 1
    held[0].fulfill(path=finders.find("js/table.js"), content_type="text/javascript")
    expect(page.locator("tr.pending-row")).to_have_count(1, timeout=15_000)
    assert len(outbox(page)) == 1 and Round.objects.count() == 0
    back_online(page, context)
    wait_until_sent(page)
    assert stored_rounds(table) == [ROUNDS[0]]
    context.close()


def test_a_phone_behind_by_two_rounds_offers_mine_first_and_keeps_every_round_in_order(
    live_server, page: Page, context: BrowserContext, table, referee
):
    """Case 2: the first phone offline holds rounds 1 and 2; the second phone, which knows
    only the stored sheet, records what is really round 3 as "round 1". Back online, "Mine
    came first" is offered first: rounds 1 and 2 are the first phone's, round 3 the other's."""
    log_in(page, live_server.url, referee)
    open_for_offline(page, live_server.url + reverse("tables:detail", args=[table.pk]))
    context.set_offline(True)
    record_offline(page, 1, ROUNDS[0])
    record_offline(page, 2, ROUNDS[1])
    record(table.game, referee, ROUNDS[2])

    back_online(page, context)
    panel = page.locator("#device-problem .conflict")
    expect(panel).to_contain_text("Round 1 was recorded twice, differently", timeout=15_000)
    first = panel.locator(".choices button, .choices a").first
    expect(first).to_have_text("Mine came first: my rounds, then the rounds stored meanwhile")
    first.click()
    wait_until_sent(page)
    assert stored_rounds(table) == ROUNDS
    expect(page.locator("#device-moved")).to_contain_text("The stored round 1 is now round 3.")
    totals = engine_totals(ROUNDS)
    expect(page.locator(".seat-total")).to_have_text([str(totals[p]) for p in PLAYERS])


def test_rounds_a_phone_held_when_the_session_finished_reach_the_sheet_by_the_director(
    live_server, browser, page: Page, context: BrowserContext, table, referee, tournament
):
    """Case 3: the referee's phone offline holds rounds 2 and 3; the director finishes the
    session (its game ends at the time limit). Back online the phone shows them as text; the
    director adds them from the table page, with a reason in the history."""
    record(table.game, referee, ROUNDS[0])
    log_in(page, live_server.url, referee)
    url = live_server.url + reverse("tables:detail", args=[table.pk])
    open_for_offline(page, url)
    context.set_offline(True)
    record_offline(page, 2, ROUNDS[1], stored=1)
    record_offline(page, 3, ROUNDS[2], stored=1)
    director = make_user("dir-late")
    tournament.directors.add(director)
    table.session.finish(end_games=True, by=director)

    back_online(page, context)
    closed = page.locator("#device-closed")
    expect(closed).to_contain_text("This phone can no longer record at this table", timeout=15_000)
    expect(closed.locator("textarea")).to_have_value(
        "Round 2: Ann 10, Bart 0 (emptied), Chris 3, Dirk 12\n"
        "Round 3: Ann 40, Bart 3 (along), Chris 2 (Yaniv), Dirk 8"
    )

    desk = browser.new_context(locale="en-GB")
    office = desk.new_page()
    log_in(office, live_server.url, director)
    office.goto(url)
    for number, entry in ((2, ROUNDS[1]), (3, ROUNDS[2])):
        late = office.locator("details.late-rounds")
        late.locator("summary").click()
        seats = late.locator("fieldset.seat-entry")
        for index, player in enumerate(PLAYERS):
            seat = seats.nth(index)
            seat.get_by_label("Hand").fill(str(entry["hands"][player]))
            if entry.get("yaniv") == player:
                seat.locator("label.toggle", has_text="Yaniv").click()
            if entry.get("empty_hand") == player:
                seat.locator("label.toggle", has_text="Empty").click()
            if player in entry.get("along", []):
                seat.locator("label.toggle", has_text="Along").click()
        late.get_by_label("Reason").fill("kept on the referee's phone at the end")
        late.get_by_role("button", name=f"Add round {number}").click()
        expect(office.locator("#live .notice")).to_have_text(
            f"Round {number} added after the time limit."
        )
    assert stored_rounds(table) == ROUNDS
    assert stored_totals(table) == engine_totals(ROUNDS)
    table.game.refresh_from_db()
    assert table.game.ended_at_time_limit
    reasons = table.game.changes.filter(action="record", round_number__gt=1)
    assert set(reasons.values_list("reason", flat=True)) == {
        "kept on the referee's phone at the end"
    }
    desk.close()


@pytest.mark.parametrize("answer", ["It is that round", "This is another round"])
def test_a_round_another_phone_stored_under_another_number_is_shown_and_dropped(
    live_server, page: Page, context: BrowserContext, table, referee, answer
):
    """The first phone holds round 2; the second phone stored another round 2 and then the
    first phone's round as round 3. The first phone's round is already stored as round 3:
    shown beside it, out of the outbox, and stored again only on the referee's word."""
    record(table.game, referee, ROUNDS[0])
    log_in(page, live_server.url, referee)
    open_for_offline(page, live_server.url + reverse("tables:detail", args=[table.pk]))
    context.set_offline(True)
    record_offline(page, 2, ROUNDS[2], stored=1)
    record(table.game, referee, ROUNDS[1], ROUNDS[2])

    back_online(page, context)
    panel = page.locator("#device-already .conflict")
    expect(panel).to_contain_text("Already stored as round 3 (from another phone)", timeout=15_000)
    expect(panel).to_contain_text("Ann 40, Bart 3 (along), Chris 2 (Yaniv), Dirk 8")
    wait_until_sent(page)
    assert stored_rounds(table) == ROUNDS
    if answer == "It is that round":
        panel.get_by_role("link", name=answer).click()
        expect(panel).to_have_count(0)
        expected = ROUNDS
    else:
        panel.get_by_role("button", name="This is another round: record it as round 4").click()
        expect(panel).to_have_count(0)
        wait_until_sent(page)
        expected = [*ROUNDS, ROUNDS[2]]
    assert stored_rounds(table) == expected
    totals = engine_totals(expected)
    expect(page.locator(".seat-total")).to_have_text([str(totals[p]) for p in PLAYERS])
