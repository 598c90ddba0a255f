"""A championship in a real browser: the director creates a referee account, the referee
logs in with the printed card and records a round.

The director (no staff account: a director of this tournament only) creates the account on
the people page and reads its one-time password off the card, chooses the new referee for
table 1 and starts the session without saving the referees first: the choice goes with the
start. In a fresh browser the referee logs in with the card's username and password, finds
the table under "My tables" and records round 1.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.test_club_night import screenshot
from tests.browser.test_offline import log_in
from tests.browser.test_referee_plays_a_game import fill_round, note_failure, record_round
from tests.factories import make_tournament, make_user
from tournaments.models import Player, Registration, Round, Seat, Tournament

PLAYERS = ["Ann", "Bart", "Chris", "Dirk"]
ROUND: dict[str, Any] = {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}
# Ann calls with 3 and scores 0; the others score their hands.
TOTALS = {"Ann": 0, "Bart": 12, "Chris": 7, "Dirk": 20}


def watch(page: Page, problems: list[str]) -> None:
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("response", lambda response: note_failure(response, problems))


@pytest.mark.django_db(transaction=True)
def test_a_director_creates_a_referee_account_and_the_referee_records_a_round(
    live_server, new_context
):
    director = make_user("dir-championship")
    tournament = make_tournament(
        name="Belgian Championship",
        slug="bk",
        status=Tournament.Status.DRAFT,
        directors=[director],
    )
    for name in PLAYERS:
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(name=name), checked_in=True
        )
    problems: list[str] = []

    # --- the director creates the account -------------------------------------------------
    page = new_context().new_page()
    watch(page, problems)
    log_in(page, live_server.url, director)
    page.get_by_role("link", name="Manage").click()
    page.get_by_role("link", name=re.compile("Belgian Championship")).click()
    page.get_by_role("link", name="Referees and directors").click()
    create = page.locator("#new-account + form")
    create.get_by_label("Username").fill("ref-table-1")
    create.get_by_label("referee", exact=True).check()
    create.get_by_role("button", name="Create the account").click()

    expect(page.get_by_text("This password is shown only this once")).to_be_visible()
    card = page.locator(".account-card")
    expect(card).to_contain_text(live_server.url + reverse("login"))
    expect(card.locator("svg")).to_have_count(1)
    expect(card.locator("code.username")).to_have_text("ref-table-1")
    password = card.locator("code.password").inner_text()
    screenshot(page, "referee-account-card")
    assert re.fullmatch(r"[a-z2-9]{4}(-[a-z2-9]{4}){3}", password), password
    referee = get_user_model().objects.get(username="ref-table-1")
    assert not referee.is_staff and tournament.referees.filter(pk=referee.pk).exists()

    # --- the session: the referee chosen for table 1, then Start (no Save in between) ----------
    page.get_by_role("link", name="Back to the people").click()
    expect(page.locator("#accounts + ul")).to_contain_text("ref-table-1")
    screenshot(page, "people")
    page.get_by_role("link", name="Back to the tournament").click()
    page.get_by_role("button", name="Draw session 1").click()
    picker = page.locator("select[name=referee_1]")
    expect(picker.locator("option")).to_have_text(["—", "ref-table-1"])
    picker.select_option(label="ref-table-1")
    page.get_by_role("button", name="Start session 1").click()
    expect(page.get_by_role("heading", name=re.compile("^Session 1"))).to_contain_text("running")
    expect(page.locator("select[name=referee_1] option:checked")).to_have_text("ref-table-1")

    # --- the referee, in a browser of their own, with the card ---------------------------------
    phone = new_context().new_page()
    watch(phone, problems)
    phone.goto(live_server.url + reverse("login"))
    phone.get_by_label("Username").fill("ref-table-1")
    phone.get_by_label("Password").fill(password)
    phone.get_by_role("button", name="Log in").click()
    expect(phone.get_by_role("button", name="Log out")).to_be_visible()
    expect(phone.get_by_role("link", name="Manage")).to_have_count(0)
    phone.get_by_role("link", name="My tables").click()
    phone.get_by_role("link", name=re.compile(r"Table 1\b")).click()
    seats = list(
        Seat.objects.filter(table__session__tournament=tournament)
        .order_by("position")
        .values_list("player__name", flat=True)
    )
    form = phone.locator("#round-form")
    expect(form.get_by_role("heading", name="Round 1")).to_be_visible()
    fill_round(form, seats, ROUND)
    record_round(phone, 1)
    expect(phone.locator("#save-status .state")).to_have_text(re.compile(r"[Ss]aved"))
    expect(phone.locator(".seat-total")).to_have_text([str(TOTALS[name]) for name in seats])

    stored = Round.objects.get()
    assert stored.entered_by == referee and stored.number == 1
    totals = dict(
        Seat.objects.filter(table__session__tournament=tournament).values_list(
            "player__name", "total"
        )
    )
    assert totals == TOTALS
    assert problems == []
