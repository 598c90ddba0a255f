"""A club night in a real browser: table codes, the players' confirmation and a dispute.

The director sets the tournament to table codes with every player's confirmation, draws and
starts the session and prints the table list with the codes. A player's phone — a fresh
browser with no account — opens the table's code and records a whole game; round 1 has a
slip. One player agrees, another says something's wrong; the dispute reaches the director's
queue (the dashboard counts it live), the director corrects the round with a reason, the
phone shows the answer, every player agrees, and the standings count the game.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.test_offline import log_in
from tests.browser.test_referee_plays_a_game import fill_round, note_failure, record_round
from tests.factories import make_tournament, make_user
from tournaments.models import Dispute, GameChange, Player, Registration, Seat, Tournament

PLAYERS = ["Ann", "Bart", "Chris", "Dirk"]
# Dirk collects 45 a round and goes over 150 in round 4: Ann 0, Bart 4, Chris 36, Dirk 180.
ROUND: dict[str, Any] = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}
# Round 1 as first typed: Bart's 1 became 12.
SLIP: dict[str, Any] = {**ROUND, "hands": {**ROUND["hands"], "Bart": 12}}
TOTALS = {"Ann": 0, "Bart": 4, "Chris": 36, "Dirk": 180}
# place, player, placement points: one point per player beaten.
STANDINGS = [("1", "Ann", "3"), ("2", "Bart", "2"), ("3", "Chris", "1"), ("4", "Dirk", "0")]
POLL_SECONDS = 1
WAIT_MS = 10_000
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def screenshot(page: Page, name: str) -> None:
    """The page as a phone shows it, to look at (test-artifacts/)."""
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{name}.png", full_page=True)
    if size is not None:
        page.set_viewport_size(size)


@pytest.fixture
def fast_polls(settings):
    settings.LIVE_POLL_SECONDS = POLL_SECONDS


@pytest.fixture
def club_night():
    """A club's evening in preparation: a director (not staff), four players checked in."""
    director = make_user("dir-club")
    tournament = make_tournament(
        name="Club night",
        slug="club-night",
        status=Tournament.Status.DRAFT,
        directors=[director],
        session_count=1,
    )
    for name in PLAYERS:
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(name=name), checked_in=True
        )
    return tournament, director


def dispute_table(tournament: Tournament) -> int:
    """The club night's one table."""
    return Seat.objects.filter(table__session__tournament=tournament).values_list(
        "table_id", flat=True
    )[0]


def watch(page: Page, problems: list[str]) -> None:
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("response", lambda response: note_failure(response, problems))


@pytest.mark.django_db(transaction=True)
def test_a_club_night_with_table_codes_a_dispute_and_the_players_confirmation(
    live_server, new_context, fast_polls, club_night
):
    tournament, director = club_night
    problems: list[str] = []
    director_context: BrowserContext = new_context()
    page = director_context.new_page()
    watch(page, problems)

    # --- the director sets the evening up -------------------------------------------------------
    log_in(page, live_server.url, director)
    page.get_by_role("link", name="Manage").click()
    page.get_by_role("link", name=re.compile("Club night")).click()
    page.get_by_role("link", name="Referees and directors").click()
    page.get_by_label("Table codes on any phone (club night)").check()
    page.get_by_label("Every player of the table").check()
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Saved: who keeps the score.")).to_be_visible()
    page.get_by_role("link", name="Back to the tournament").click()
    expect(page.get_by_text("Table codes on any phone (club night)")).to_be_visible()
    page.get_by_role("button", name="Draw session 1").click()
    expect(page.get_by_role("heading", name=re.compile("^Session 1"))).to_be_visible()
    page.get_by_role("button", name="Start session 1").click()
    expect(page.get_by_role("heading", name=re.compile("^Session 1"))).to_contain_text("running")
    screenshot(page, "club-night-session")

    page.get_by_role("link", name="Print the table list").click()
    expect(page.get_by_role("heading", name="Table codes")).to_be_visible()
    code_card = page.locator(".table-code")
    expect(code_card).to_have_count(1)
    expect(code_card.locator("svg")).to_have_count(1)
    link = code_card.locator(".code-link").inner_text().strip()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/c/\d+-[0-9a-f]{{40}}/", link), link
    screenshot(page, "club-night-table-list")

    page.goto(live_server.url + reverse("manage:tournament", args=[tournament.slug]))
    counter = page.locator("#open-disputes")
    expect(counter).to_have_text("0 open disputes")

    # --- a player's phone, no account: the whole game through the code ---------------------
    phone_context = new_context()
    phone = phone_context.new_page()
    watch(phone, problems)
    phone.goto(link)
    expect(phone.get_by_text("Opened with the table's code: no account needed.")).to_be_visible()
    expect(phone.get_by_role("button", name="Log in")).to_have_count(0)
    seats = list(
        Seat.objects.filter(table__session__tournament=tournament)
        .order_by("position")
        .values_list("player__name", flat=True)
    )
    assert sorted(seats) == PLAYERS
    form = phone.locator("#round-form")
    for number, entry in enumerate([SLIP, ROUND, ROUND, ROUND], start=1):
        expect(form.get_by_role("heading", name=f"Round {number}")).to_be_visible()
        fill_round(form, seats, entry)
        record_round(phone, number)
        if number < 4:  # the last round ends the game: the entry form, and its status, go
            expect(phone.locator("#save-status .state")).to_have_text(re.compile(r"[Ss]aved"))
    expect(phone.locator(".result")).to_contain_text("The game is over.")
    expect(phone.locator(".result")).to_contain_text("Provisional")

    # One player agrees; Bart says round 1 is wrong.
    phone.get_by_role("button", name="I agree — Ann").click()
    expect(phone.locator(".agree-list .agreed")).to_have_text(["✓ Ann agrees"])
    phone.get_by_text("Something's wrong?").click()
    wrong = phone.locator("details.something-wrong form")
    wrong.locator("select[name=round]").select_option("1")
    wrong.locator("input[name=text]").fill("Bart had 1, not 12")
    wrong.get_by_role("button", name="Tell the director").click()
    expect(phone.get_by_text("Sent to the director. The answer appears below.")).to_be_visible()
    expect(phone.locator(".disputes")).to_contain_text("waiting for the director")
    screenshot(phone, "club-night-phone-dispute")

    # --- the director: the dashboard counts it live, the queue, a correction ------------------
    expect(counter).to_have_text("1 open dispute", timeout=WAIT_MS)
    counter.click()
    line = page.locator("li.dispute.open")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("Session 1 · table 1 · round 1")
    expect(line).to_contain_text("Bart had 1, not 12")
    expect(line).to_contain_text("by table code")
    screenshot(page, "club-night-disputes")
    line.get_by_role("link", name="Correct round 1").click()
    correction = page.locator("form.correction")
    expect(correction).to_contain_text("This correction answers the dispute")
    bart = correction.locator("fieldset.seat-entry").nth(seats.index("Bart"))
    expect(bart.get_by_label("Hand")).to_have_value("12")
    bart.get_by_label("Hand").fill("1")
    correction.get_by_label("Reason").fill("Bart had 1: checked with the table")
    with page.expect_response(
        lambda r: "/correct/" in r.url and r.request.method == "POST"
    ) as saved:
        correction.get_by_role("button", name="Save the correction").click()
    assert saved.value.status == 200
    # Saved, the correction page goes back to the table's page.
    page.wait_for_url(live_server.url + reverse("tables:detail", args=[dispute_table(tournament)]))
    expect(page.locator(".seat-total")).to_have_text([str(TOTALS[name]) for name in seats])

    page.goto(live_server.url + reverse("manage:disputes", args=[tournament.slug]))
    expect(page.get_by_role("heading", name="0 open disputes")).to_be_visible()
    expect(page.locator("li.dispute.resolved")).to_contain_text(
        "Resolved by a correction: “Bart had 1: checked with the table”"
    )

    # --- the phone shows the answer; every player agrees -------------------------------------
    answer = phone.locator(".disputes .answer")
    expect(answer).to_have_text(
        "Resolved by a correction: “Bart had 1: checked with the table”", timeout=WAIT_MS
    )
    # The corrected sheet is another sheet: the players agree to it afresh.
    expect(phone.get_by_role("button", name="I agree — Ann")).to_be_visible(timeout=WAIT_MS)
    expect(phone.locator(".seat-total")).to_have_text([str(TOTALS[name]) for name in seats])
    for name in seats:
        phone.get_by_role("button", name=f"I agree — {name}").click()
        expect(phone.get_by_role("button", name=f"I agree — {name}")).to_have_count(0)
    expect(phone.get_by_text("Everyone needed agreed: the sheet is signed off.")).to_be_visible()
    expect(phone.locator(".result")).not_to_contain_text("Provisional")

    # --- the standings count the game, not provisional -------------------------------------------
    page.goto(live_server.url + reverse("public:standings", args=[tournament.slug]))
    rows = page.locator("#live table.standings tbody tr")
    expect(rows).to_have_count(len(STANDINGS))
    expect(rows.locator("th a")).to_have_text([row[1] for row in STANDINGS])
    expect(rows.locator("td:nth-of-type(1)")).to_have_text([row[0] for row in STANDINGS])
    expect(rows.locator("td:nth-of-type(2) strong")).to_have_text([row[2] for row in STANDINGS])
    expect(rows.locator("abbr")).to_have_count(0)

    # The same in the database: the totals, the answered dispute, the players' agreement.
    totals = dict(
        Seat.objects.filter(table__session__tournament=tournament).values_list(
            "player__name", "total"
        )
    )
    assert totals == TOTALS
    dispute = Dispute.objects.get()
    assert (dispute.status, dispute.raised_by, dispute.answered_by) == ("resolved", None, director)
    assert GameChange.objects.filter(action="confirm").count() == 5
    assert not GameChange.objects.filter(action="record", user__isnull=False).exists()
    assert problems == []
