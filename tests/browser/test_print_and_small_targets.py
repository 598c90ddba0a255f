"""Printing and small screens (issue 33.7): a printed public page or table page keeps what it
says, without the clock, the navigation or the entry form; a club's member links are targets
of at least 24 px; the table list with its QR code fits a 360 px phone."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.test_offline import log_in
from tests.factories import make_table, make_tournament, make_user
from tournaments.models import Club, Player

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def running(db):
    director, referee = make_user("dir-print"), make_user("ref-print")
    tournament = make_tournament(name="Print Open", slug="print-open", directors=[director])
    table = make_table(tournament=tournament, referee=referee)
    table.session.set_time_limit(30, by=director)
    table.session.start_clock(by=director)
    club = Club.objects.create(name="YC Gent")
    Player.objects.filter(seats__table=table).update(club=club)
    return {"director": director, "referee": referee, "table": table, "club": club}


@pytest.mark.django_db(transaction=True)
def test_a_printed_page_has_no_clock_navigation_or_entry_form(live_server, new_context, running):
    page = new_context().new_page()
    page.goto(live_server.url + reverse("public:tournament", args=["print-open"]))
    expect(page.locator(".session-clock")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator(".session-clock")).to_be_hidden()
    expect(page.locator("nav.subnav")).to_be_hidden()
    expect(page.locator("form.languages")).to_be_hidden()
    expect(page.get_by_text("Table 1", exact=True)).to_be_visible()

    referee = new_context().new_page()
    log_in(referee, live_server.url, running["referee"])
    referee.goto(live_server.url + running["table"].get_absolute_url())
    expect(referee.locator("#round-form")).to_be_visible()
    referee.emulate_media(media="print")
    expect(referee.locator("#round-form")).to_be_hidden()
    expect(referee.locator(".session-clock").first).to_be_hidden()


@pytest.mark.django_db(transaction=True)
def test_club_member_links_are_24px_targets_and_the_table_list_fits_a_phone(
    live_server, new_context, running
):
    phone = new_context(viewport=PHONE).new_page()
    phone.goto(live_server.url + reverse("public:club", args=[running["club"].pk]))
    links = phone.locator(".member-list a")
    expect(links.first).to_be_visible()
    heights = links.evaluate_all("links => links.map(l => l.getBoundingClientRect().height)")
    assert heights and min(heights) >= 24, heights

    log_in(phone, live_server.url, running["director"])
    session = running["table"].session
    phone.goto(live_server.url + reverse("manage:table_list", args=["print-open", session.number]))
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
