"""House rules typed on the referee's phone (issue 37): the jokers each player held and a player
joining before a round go through the page's script, its outbox and its preview, online and
offline, and are stored as the engine scores the whole game."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scoring import rules
from tests.browser.test_offline import expect_saved, log_in, open_for_offline, stored_totals
from tests.factories import make_table, make_tournament, make_user
from tournaments.models import Round

PLAYERS = ["Ann", "Bart", "Chris"]
# A joker still held by a player who did not call: +10; two wins in a row: +25.
HOUSE_RULES = {"joker_held": 10, "streak_bonus": [{"wins": 2, "points": 25}]}
ROUNDS: list[dict[str, Any]] = [
    {"hands": {"Ann": 3, "Bart": 30, "Chris": 20}, "yaniv": "Ann"},
    # Dirk joins on the highest total (Bart's 30); Bart still held a joker; Ann wins again.
    {
        "hands": {"Ann": 2, "Bart": 9, "Chris": 4, "Dirk": 8},
        "yaniv": "Ann",
        "jokers": {"Bart": 1},
        "joins": {"name": "Dirk", "start": "highest"},
    },
]


def engine_round(entry: dict[str, Any]) -> rules.Round:
    joins = entry.get("joins")
    return rules.Round(
        hands=entry["hands"],
        yaniv=entry.get("yaniv"),
        jokers=entry.get("jokers", {}),
        joins=rules.Join(joins["name"], rules.JoinStart(joins["start"])) if joins else None,
    )


def engine_totals(table, rounds: list[dict[str, Any]]) -> dict[str, int]:
    ruleset = table.session.tournament.ruleset
    game = rules.Game(tuple(PLAYERS), tuple(map(engine_round, rounds)), ruleset)
    return dict(rules.score_game(game).totals)


def fill(page: Page, entry: dict[str, Any]) -> None:
    form = page.locator("#round-form")
    seats = form.locator("fieldset.seat-entry:not(.joining)")
    for index, player in enumerate(PLAYERS):
        seat = seats.nth(index)
        seat.get_by_label("Hand").fill(str(entry["hands"][player]))
        if player in entry.get("jokers", {}):
            seat.get_by_label("Jokers").fill(str(entry["jokers"][player]))
        if entry.get("yaniv") == player:
            seat.locator("label.toggle", has_text="Yaniv").click()
    joins = entry.get("joins")
    if joins:
        form.get_by_text("A player joins before this round").click()
        joining = form.locator("fieldset.joining")
        joining.get_by_label("Name of the player joining").fill(joins["name"])
        joining.get_by_label("Starts on").select_option(joins["start"])
        joining.get_by_label("Hand").fill(str(entry["hands"][joins["name"]]))


SHEET_ROWS = """Array.from(document.querySelectorAll("table.sheet tbody tr"), (row) => ({
  cells: Array.from(row.querySelectorAll("td"), (cell) => cell.outerHTML),
  link: row.querySelector("th a").outerHTML,
  pendingMark: row.querySelector(".pending-mark")?.title ?? null,
}))"""


def sheet_rows(page: Page) -> list[dict[str, Any]]:
    """The sheet's rows as drawn: each cell's markup, the round's link, "not sent yet"."""
    return page.evaluate(SHEET_ROWS)


@pytest.fixture
def referee():
    return make_user("ref-house")


@pytest.fixture
def table(referee):
    tournament = make_tournament(rule_options=HOUSE_RULES)
    return make_table(players=PLAYERS, referee=referee, tournament=tournament)


@pytest.mark.django_db(transaction=True)
def test_jokers_and_a_player_joining_typed_online_are_previewed_and_stored(
    live_server, page: Page, table, referee
):
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    log_in(page, live_server.url, referee)
    page.goto(live_server.url + reverse("tables:detail", args=[table.pk]))
    page.wait_for_function("window.yanivOutbox !== undefined")

    fill(page, ROUNDS[0])
    page.get_by_role("button", name="Record round 1").click()
    expect_saved(page)
    fill(page, ROUNDS[1])
    # The phone's engine counts the joker (30 + 9 + 10) and the joiner's start (30 + 8).
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Bart")
    expect(preview).to_contain_text("49")
    expect(preview).to_contain_text("Dirk")
    expect(preview).to_contain_text("38")
    # What the house rules did, as the sheet's cells will say it.
    expect(preview).to_contain_text("+25 streak bonus")
    expect(preview).to_contain_text("+10 jokers")
    expect(preview).to_contain_text("joined at 30")
    page.get_by_role("button", name="Record round 2").click()
    # Stored, and the server's sheet swapped in for the joiner's column, with its notes.
    sheet = page.locator("table.sheet")
    expect(sheet).to_contain_text("joined at 30", timeout=15_000)
    expect(sheet).to_contain_text("+10 jokers")
    expect(sheet).to_contain_text("+25 streak bonus")
    expect(page.locator("tr.pending-row")).to_have_count(0)

    expected = engine_totals(table, ROUNDS)
    assert expected == {"Ann": 25, "Bart": 49, "Chris": 24, "Dirk": 38}
    assert stored_totals(table) == expected
    joined = Round.objects.get(game=table.game, number=2)
    assert joined.joined is not None and joined.joined.player.name == "Dirk"
    assert joined.hands.get(seat__player__name="Bart").jokers == 1
    # The next round's form has the joiner's seat.
    expect(page.locator("#round-form fieldset.seat-entry:not(.joining)")).to_have_count(4)
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_jokers_and_a_join_typed_offline_wait_in_the_outbox_and_are_stored_once(
    live_server, context: BrowserContext, page: Page, table, referee
):
    log_in(page, live_server.url, referee)
    url = live_server.url + reverse("tables:detail", args=[table.pk])
    open_for_offline(page, url)

    context.set_offline(True)
    fill(page, ROUNDS[0])
    page.get_by_role("button", name="Record round 1").click()
    expect(page.locator("tr.pending-row")).to_have_count(1)
    fill(page, ROUNDS[1])
    page.get_by_role("button", name="Record round 2").click()
    expect(page.locator("tr.pending-row")).to_have_count(2)
    kept = page.evaluate("window.yanivOutbox()")
    assert kept[1]["fields"]["jokers_2"] == "1" and kept[1]["fields"]["join_name"] == "Dirk"
    assert Round.objects.count() == 0
    # Drawn from the page's row template: the cells (the house rules' notes with them) and
    # the correction links as the server will draw them, with "not sent yet" besides.
    pending = sheet_rows(page)
    assert "+25 streak bonus" in pending[1]["cells"][0] and "+10 jokers" in pending[1]["cells"][1]
    assert [row["pendingMark"] for row in pending] == ["not sent yet"] * 2

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    # Stored, and the server's sheet swapped in for the joiner's column (its notes with it).
    expect(page.locator("tr.pending-row")).to_have_count(0, timeout=15_000)
    expect(page.locator("table.sheet")).to_contain_text("joined at 30", timeout=15_000)
    # The server's rows, not the phone's own drawing of the stored rounds (a race otherwise).
    expect(page.locator("tr.device-row")).to_have_count(0, timeout=15_000)
    stored = sheet_rows(page)
    # The server's sheet has Dirk's column now (not seated in round 1, joined in round 2).
    assert [row["cells"][:3] for row in stored] == [row["cells"] for row in pending]
    assert [row["link"] for row in stored] == [row["link"] for row in pending]
    assert [row["pendingMark"] for row in stored] == [None, None]
    assert page.evaluate("window.yanivOutbox()") == []
    assert list(Round.objects.values_list("number", flat=True)) == [1, 2]
    assert stored_totals(table) == engine_totals(table, ROUNDS)
    # The next round's form has the joiner's seat.
    expect(page.locator("#round-form fieldset.seat-entry:not(.joining)")).to_have_count(4)
