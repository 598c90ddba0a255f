"""Followers' pages follow the game live: a player watches while the referee ends a game.

Two browser contexts: an anonymous player with the standings (or the table) page open, and a
referee logged in through the login form. The referee records the round that ends the game; the
player's page, never reloaded, must show the result through its htmx poll. Polls that find
nothing new get 204 (htmx swaps nothing); the poll after the change gets 200 and swaps `#live`.

The poll interval is `settings.LIVE_POLL_SECONDS` (15 s on the site), 1 s here.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Frame, Page, Response, expect

from tests.browser.test_referee_plays_a_game import fill_round, note_failure, record_round
from tests.factories import PASSWORD, make_table, make_tournament, make_user, record
from tournaments.models import Table

PLAYERS = ["Ann", "Bart", "Chris", "Dirk"]
# Three rounds recorded beforehand: totals Ann 30, Bart 90, Chris 12, Dirk 135.
EARLIER_ROUNDS: list[dict[str, Any]] = [
    {"hands": {"Ann": 20, "Bart": 30, "Chris": 2, "Dirk": 45}, "yaniv": "Chris"},
    {"hands": {"Ann": 10, "Bart": 40, "Chris": 3, "Dirk": 45}, "yaniv": "Chris"},
    {"hands": {"Ann": 4, "Bart": 20, "Chris": 12, "Dirk": 45}, "yaniv": "Ann"},
]
TOTALS_BEFORE = [30, 90, 12, 135]  # seat order
# The referee's round 4: Dirk gets 20 and goes over 150, which ends the game.
LAST_ROUND: dict[str, Any] = {
    "hands": {"Ann": 9, "Bart": 8, "Chris": 1, "Dirk": 20},
    "yaniv": "Chris",
}
TOTALS_AFTER = [39, 98, 12, 155]  # seat order
# Lowest total first, one placement point per player beaten: neither seat nor name order.
STANDINGS = [
    # place, player, placement points, games, wins, sum of totals
    ("1", "Chris", "3", "1", "1", "12"),
    ("2", "Ann", "2", "1", "0", "39"),
    ("3", "Bart", "1", "1", "0", "98"),
    ("4", "Dirk", "0", "1", "0", "155"),
]
POLL_SECONDS = 1
# Long enough for a few polls, short enough to fail fast.
WAIT_MS = 8 * POLL_SECONDS * 1000


@pytest.fixture
def fast_polls(settings):
    settings.LIVE_POLL_SECONDS = POLL_SECONDS


@dataclass
class Polls:
    """The htmx polls (`?since=`) a page made, in the order their answers arrived."""

    page: Page
    responses: list[Response] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @classmethod
    def watch(cls, page: Page) -> Polls:
        polls = cls(page)
        page.on("response", polls._seen)
        page.on("pageerror", lambda error: polls.problems.append(f"page error: {error}"))
        page.on("framenavigated", polls._navigated)
        return polls

    def _navigated(self, frame: Frame) -> None:
        # Any navigation of the main frame after the first load would be a reload.
        if frame == self.page.main_frame:
            self.problems.append(f"navigated to {frame.url}")

    def _seen(self, response: Response) -> None:
        note_failure(response, self.problems)
        if "since=" in response.url and response.request.method == "GET":
            self.responses.append(response)

    @property
    def statuses(self) -> list[int]:
        return [response.status for response in self.responses]

    def wait_for(self, status: int, after: int = 0) -> int:
        """Wait until a poll answered after the first `after` ones got `status`; its index."""
        deadline = time.monotonic() + WAIT_MS / 1000
        while time.monotonic() < deadline:
            for index in range(after, len(self.responses)):
                if self.responses[index].status == status:
                    return index
            # Lets Playwright deliver events while waiting (time.sleep would block them).
            self.page.wait_for_timeout(100)
        raise AssertionError(f"no poll got {status} after poll {after}: {self.statuses}")


def open_as_player(context: BrowserContext, url: str) -> tuple[Page, Polls]:
    page = context.new_page()
    polls = Polls.watch(page)
    response = page.goto(url)
    assert response is not None and response.status == 200
    assert page.evaluate("typeof window.htmx") == "object", "htmx did not load"
    # Gone if the page reloads.
    page.evaluate("window.stillTheSamePage = true")
    polls.problems.clear()  # the first navigation was the page opening
    return page, polls


def referee_logs_in(context: BrowserContext, live_server, path: str, referee) -> Page:
    """Log in through the form, which then leads on to `path`."""
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}?next={path}")
    page.get_by_label("Username").fill(referee.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    assert page.url == live_server.url + path
    return page


def referee_ends_the_game(page: Page) -> None:
    """Round 4 through the entry form, as in the referee's own test."""
    expect(page.get_by_role("heading", name="Round 4")).to_be_visible()
    fill_round(page.locator("#round-form"), PLAYERS, LAST_ROUND)
    expect(page.locator("#preview")).to_contain_text("This round ends the game")
    record_round(page, 4)
    expect(page.locator(".result")).to_contain_text("The game is over.")


def table_near_the_end(tournament=None) -> tuple[Table, Any]:
    referee = make_user("referee")
    table = make_table(players=PLAYERS, referee=referee, tournament=tournament)
    record(table.game, referee, *EARLIER_ROUNDS)
    table.refresh_from_db()
    assert not table.game.finished
    assert [seat.total for seat in table.seats.order_by("position")] == TOTALS_BEFORE
    return table, referee


def check_the_swap(page: Page, polls: Polls, before_submit: int) -> None:
    """Only 204 until the referee's round; then a 200 with the fragment, then 204 again."""
    assert before_submit >= 1, "no poll before the referee submitted"
    changed = polls.wait_for(200, after=before_submit)
    assert set(polls.statuses[:changed]) == {204}, polls.statuses
    fresh = polls.responses[changed]
    assert fresh.request.headers.get("hx-request") == "true"
    body = fresh.text()
    # The standings' live part, or the table's sheet (its entry form is the referee's).
    assert re.match(r'<div id="(live|sheet)"', body.lstrip()), "a poll got more than the fragment"
    assert "<html" not in body
    # The swapped fragment asks with the new version: nothing new again, so 204 again.
    unchanged = polls.wait_for(204, after=changed + 1)
    assert polls.responses[unchanged].url != fresh.url, "the poll asks about the old version"
    assert page.evaluate("window.stillTheSamePage") is True, "the player's page reloaded"
    assert polls.problems == []


@pytest.mark.django_db(transaction=True)
def test_standings_update_live_when_a_game_ends(live_server, new_context, fast_polls):
    table, referee = table_near_the_end()
    tournament = table.session.tournament
    player_context, referee_context = new_context(), new_context()

    standings_url = live_server.url + reverse("public:standings", args=[tournament.slug])
    player, polls = open_as_player(player_context, standings_url)
    live = player.locator("#live")
    expect(live.locator("p.hint")).to_have_text("No game has finished yet.")
    # The table still playing is named: its players are not left out silently.
    still_playing = "Session 1 still plays at table 1. Their players join the standings"
    expect(live.locator(".still-playing")).to_contain_text(still_playing)
    expect(live).to_have_attribute("data-hx-trigger", f"every {POLL_SECONDS}s")

    referee_page = referee_logs_in(referee_context, live_server, table.get_absolute_url(), referee)
    expect(referee_page.get_by_role("heading", name="Table 1")).to_be_visible()

    # The player's page keeps asking; nothing changed, so nothing comes back.
    polls.wait_for(204)
    expect(live.locator("p.hint")).to_have_text("No game has finished yet.")
    before_submit = len(polls.responses)
    referee_ends_the_game(referee_page)

    rows = live.locator("table.standings tbody tr")
    expect(rows).to_have_count(len(STANDINGS), timeout=WAIT_MS)
    expect(rows.locator("th a")).to_have_text([row[1] for row in STANDINGS])
    places, _, points, games, wins, sums = zip(*STANDINGS, strict=True)
    expect(rows.locator("td:nth-of-type(1)")).to_have_text(places)
    expect(rows.locator("td:nth-of-type(2) strong")).to_have_text(points)
    expect(rows.locator("td:nth-of-type(3)")).to_have_text(games)
    expect(rows.locator("td:nth-of-type(4)")).to_have_text(wins)
    expect(rows.locator("td:nth-of-type(5)")).to_have_text(sums)
    # Not signed off yet: every player's points are marked provisional.
    expect(rows.locator("abbr")).to_have_text(["*"] * len(STANDINGS))
    expect(player.get_by_text("No game has finished yet.")).to_have_count(0)
    expect(live.locator(".still-playing")).to_have_count(0)

    check_the_swap(player, polls, before_submit)


@pytest.mark.django_db(transaction=True)
def test_table_page_updates_live_when_a_game_ends(live_server, new_context, fast_polls):
    table, referee = table_near_the_end()
    player_context, referee_context = new_context(), new_context()
    table_url = live_server.url + table.get_absolute_url()

    player, polls = open_as_player(player_context, table_url)
    totals = player.locator(".seat-total")
    sheet_rows = player.locator("table.sheet tbody tr")
    expect(totals).to_have_text([str(total) for total in TOTALS_BEFORE])
    expect(sheet_rows).to_have_count(len(EARLIER_ROUNDS))
    expect(player.locator(".result")).to_have_count(0)
    expect(player.locator("#round-form")).to_have_count(0)  # only the referee enters rounds

    referee_page = referee_logs_in(referee_context, live_server, table.get_absolute_url(), referee)
    expect(referee_page.locator("#round-form")).to_be_visible()

    polls.wait_for(204)
    before_submit = len(polls.responses)
    referee_ends_the_game(referee_page)

    expect(sheet_rows).to_have_count(len(EARLIER_ROUNDS) + 1, timeout=WAIT_MS)
    expect(totals).to_have_text([str(total) for total in TOTALS_AFTER])
    result = player.locator(".result")
    expect(result).to_contain_text("Winner: Chris with 12.")
    expect(result).to_contain_text("The game is over.")
    expect(result).to_contain_text("Provisional: the sheet is not signed off yet.")
    expect(player.locator(".seats li.winner .name")).to_have_text(["Chris"])
    # Still a follower's page: no entry form, no correction links, no sign-off.
    expect(player.locator("#live form")).to_have_count(0)
    expect(player.get_by_role("link", name="Correct round 1")).to_have_count(0)

    check_the_swap(player, polls, before_submit)


@pytest.mark.django_db(transaction=True)
def test_private_tournament_is_hidden_from_anonymous_visitors(live_server, new_context):
    tournament = make_tournament(name="Secret Invitational", is_public=False)
    table, referee = table_near_the_end(tournament)
    record(table.game, referee, LAST_ROUND)  # a finished game, so standings would name all
    player_context, referee_context = new_context(), new_context()
    paths = [
        reverse("public:standings", args=[tournament.slug]),
        reverse("public:session_standings", args=[tournament.slug, 1]),
        reverse("public:tournament", args=[tournament.slug]),
        table.get_absolute_url(),
    ]

    anonymous = player_context.new_page()
    for url in [live_server.url + path for path in paths]:
        response = anonymous.goto(url)
        assert response is not None and response.status == 404, url
        text = anonymous.content()
        for secret in ["Secret Invitational", *PLAYERS]:
            assert secret not in text, f"{url} shows {secret!r}"
        # A poll of the same page is refused the same way.
        polled = anonymous.request.get(f"{url}?since=0", headers={"HX-Request": "true"})
        assert polled.status == 404, url

    # The same standings for the table's referee: the 404 above is not a wrong address.
    referee_page = referee_logs_in(referee_context, live_server, paths[0], referee)
    rows = referee_page.locator("#live table.standings tbody tr")
    expect(rows.locator("th a")).to_have_text([row[1] for row in STANDINGS])
