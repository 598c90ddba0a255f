"""The Content-Security-Policy in a real browser (issue 13, point 5): the main pages get the
strict policy and break none of it.

Every page is opened with a listener for `securitypolicyviolation` (installed before the
page's own scripts) and the console watched for "Content Security Policy": the public pages,
the table page as its referee (the entry form, the live preview, a round recorded through the
offline outbox, the chart), the director's dashboard, people page, session page with its
table codes and QR codes, the printed table list, an account card, and a table's page opened
by its code on a phone without an account. A probe at the end shows that the listener does
see a violation when there is one.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect

from tests.browser.test_offline import log_in, open_for_offline
from tests.browser.test_referee_plays_a_game import fill_round, note_failure, record_round
from tests.factories import make_table, make_tournament, make_user, record
from tournaments.models import Registration, TableCode, Tournament
from yaniv_club.csp import policy

PLAYERS = ["Ann", "Bart", "Chris", "Dirk"]
ROUND: dict[str, Any] = {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
});
"""


class Watcher:
    """What went wrong on a context's pages: CSP violations, console reports, failures."""

    def __init__(self, context: BrowserContext) -> None:
        context.add_init_script(LISTEN)
        self.problems: list[str] = []
        self.policies: dict[str, str | None] = {}
        self.context = context

    def page(self) -> Page:
        page = self.context.new_page()
        page.on("console", self.console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("response", lambda response: note_failure(response, self.problems))
        return page

    def console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.problems.append(f"console: {message.text}")

    def visit(self, page: Page, url: str) -> None:
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        self.policies[url] = response.headers.get("content-security-policy")
        self.check(page, url)

    def check(self, page: Page, where: str) -> None:
        # Polls and swaps happen after the load: give htmx a moment to run.
        page.wait_for_timeout(300)
        violations = page.evaluate("window.__violations")
        self.problems += [f"{where}: {violation}" for violation in violations]
        # htmx's own <style> for its indicators would be one (includeIndicatorStyles is off).
        assert page.locator("style").count() == 0, where


@pytest.mark.django_db(transaction=True)
def test_the_main_pages_keep_to_the_content_security_policy(live_server, new_context):
    director = make_user("dir-csp")
    referee = make_user("ref-csp")
    tournament = make_tournament(name="Belgian Championship", slug="bk", directors=[director])
    tournament.referees.add(referee)
    table = make_table(referee=referee, tournament=tournament)
    record(table.game, referee, ROUND, ROUND)
    for seat in table.seats.all():
        Registration.objects.create(tournament=tournament, player=seat.player, checked_in=True)
    club = make_tournament(
        name="Club night", slug="club", directors=[director], entry=Tournament.Entry.TABLE_CODES
    )
    club_table = make_table(tournament=club, players=("Eva", "Finn", "Gina"))
    code = TableCode.issue(club_table).code
    base = live_server.url
    expected = policy(settings.SECURE_CSP)

    # --- anyone --------------------------------------------------------------------------------
    anyone = Watcher(new_context())
    page = anyone.page()
    for url in (
        reverse("public:home"),
        reverse("public:tournament", args=["bk"]),
        reverse("public:standings", args=["bk"]),
        reverse("tables:detail", args=[table.pk]),
    ):
        anyone.visit(page, base + url)
    # A phone without an account opens a table by its code and previews a round.
    anyone.visit(page, base + reverse("codes:detail", args=[code]))
    page.locator("#round-form input[type=number]").first.fill("5")
    page.wait_for_timeout(800)
    anyone.check(page, "the code's entry form")

    # --- the referee at the table ----------------------------------------------------------------
    at_table = Watcher(new_context())
    page = at_table.page()
    log_in(page, base, referee)
    open_for_offline(page, base + reverse("tables:detail", args=[table.pk]))
    at_table.check(page, "the table page")
    expect(page.locator("#round-form")).to_be_visible()
    expect(page.locator("svg").first).to_be_visible()  # the score chart
    fill_round(page.locator("#round-form"), PLAYERS, ROUND)
    expect(page.locator("#preview")).to_contain_text("Ann")
    record_round(page, 3)
    at_table.check(page, "after recording a round")

    # --- the director ---------------------------------------------------------------------------
    directing = Watcher(new_context())
    page = directing.page()
    log_in(page, base, director)
    for url in (
        reverse("manage:home"),
        reverse("manage:tournament", args=["bk"]),
        reverse("manage:people", args=["bk"]),
        reverse("manage:session", args=["bk", 1]),
        reverse("manage:session", args=["club", 1]),
        reverse("manage:table_list", args=["club", 1]),
    ):
        directing.visit(page, base + url)
    # The QR codes are drawn (a style attribute refused would leave them blank).
    qr = page.locator(".table-code svg path").first.bounding_box()
    assert qr is not None and qr["width"] > 50
    page.goto(base + reverse("manage:people", args=["bk"]))
    create = page.locator("#new-account + form")
    create.get_by_label("Username").fill("ref-card")
    create.get_by_label("referee", exact=True).check()
    create.get_by_role("button", name="Create the account").click()
    expect(page.locator(".account-card code.password")).to_be_visible()
    directing.check(page, "the account card")

    problems = anyone.problems + at_table.problems + directing.problems
    assert problems == []
    policies = {**anyone.policies, **directing.policies}
    assert len(policies) == 11
    assert set(policies.values()) == {expected}

    # --- the probe: an inline style is refused and reported ------------------------------------
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__violations.length") == 1
