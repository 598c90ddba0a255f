"""A short game under the israeli preset, refereed in a real browser, with an elimination.

Most of the game is recorded up front; the referee then enters an Assaf, the round that sends
Chris above 200 (out of the game), a round with only Ann and Bart, and the round that leaves Ann
as the last player in. Every total the page shows is the pure engine's for the same rounds.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from scoring import rules
from tests.browser.test_referee_plays_a_game import record_round
from tests.factories import PASSWORD, entries, make_table, make_tournament, make_user, record
from tournaments.models import Seat

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
RULESET = rules.RULESETS["israeli"]
PLAYERS = ["Ann", "Bart", "Chris"]

# Recorded before the referee opens the page: Bart and Chris climb, nobody lands on 100 or 200.
BEFORE = [
    {"hands": {"Ann": 0, "Bart": 45, "Chris": 50}, "yaniv": "Ann"},
    {"hands": {"Ann": 1, "Bart": 45, "Chris": 49}, "yaniv": "Ann"},
    {"hands": {"Ann": 2, "Bart": 45, "Chris": 45}, "yaniv": "Ann"},
    {"hands": {"Ann": 3, "Bart": 30, "Chris": 45}, "yaniv": "Ann"},
]
# Entered in the browser, rounds 5 to 8.
ASSAF = {"hands": {"Ann": 4, "Bart": 4, "Chris": 5}, "yaniv": "Ann"}  # Bart holds as few
CHRIS_OUT = {"hands": {"Ann": 2, "Bart": 10, "Chris": 20}, "yaniv": "Ann"}
TWO_LEFT = {"hands": {"Ann": 12, "Bart": 3}, "yaniv": "Bart"}
BART_OUT = {"hands": {"Ann": 1, "Bart": 30}, "yaniv": "Ann"}
IN_BROWSER: list[dict[str, Any]] = [ASSAF, CHRIS_OUT, TWO_LEFT, BART_OUT]


def seats_of(form: Locator) -> Locator:
    """The seats at the table: a player joining (house rules) has a fieldset of their own."""
    return form.locator("fieldset.seat-entry:not(.joining)")


def scored(rounds: list[dict[str, Any]]) -> rules.GameResult:
    game = rules.Game(tuple(PLAYERS), tuple(entries(entry) for entry in rounds), RULESET)
    return rules.score_game(game)


def fill_round(form: Locator, entry: dict[str, Any]) -> None:
    """Type the hands of the players still in and click the caller's Yaniv toggle."""
    seats = seats_of(form)
    expect(seats).to_have_count(len(PLAYERS))
    for index, player in enumerate(PLAYERS):
        seat = seats.nth(index)
        expect(seat.locator("legend .name")).to_have_text(player)
        if player in entry["hands"]:
            seat.get_by_label("Hand").fill(str(entry["hands"][player]))
        else:
            expect(seat).to_have_class(re.compile(r"\bout\b"))
            expect(seat.get_by_label("Hand")).to_have_count(0)
    caller = seats_of(form).nth(PLAYERS.index(entry["yaniv"]))
    toggle = caller.locator("label.toggle", has_text="Yaniv")
    toggle.click()
    expect(toggle.locator("input")).to_be_checked()


@pytest.mark.django_db(transaction=True)
def test_referee_plays_an_israeli_game_to_the_last_player_left(live_server, page: Page):
    # The engine's view of the game, checked to still be the story this test tells.
    before = scored(BEFORE)
    assert not before.finished and not before.out_in_round
    assert dict(before.totals) == {"Ann": 0, "Bart": 165, "Chris": 189}
    whole = scored(BEFORE + IN_BROWSER)
    results = whole.rounds
    assaf, chris_out, two_left, bart_out = results[len(BEFORE) :]
    assert assaf.kind is rules.RoundKind.ASSAF and assaf.points["Ann"] == 4 + 30
    assert chris_out.eliminated == ("Chris",) and not chris_out.ends_game
    assert not two_left.eliminated and not two_left.ends_game
    assert bart_out.eliminated == ("Bart",) and bart_out.ends_game
    assert whole.finished and whole.winners == ("Ann",)
    assert dict(whole.totals) == {"Ann": 46, "Bart": 209, "Chris": 214}

    referee = make_user("referee")
    tournament = make_tournament(preset="israeli")
    table = make_table(players=PLAYERS, referee=referee, tournament=tournament)
    record(table.game, referee, *BEFORE)

    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "response",
        lambda r: (
            problems.append(f"{r.status} {r.request.method} {r.url}")
            if r.status >= 400 and not r.url.endswith("/favicon.ico")
            else None
        ),
    )

    # --- log in through the form and open the table -------------------------------------------
    page.goto(live_server.url + reverse("login"))
    page.get_by_label("Username").fill(referee.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    page.get_by_role("link", name="My tables").click()
    page.get_by_role("link", name=re.compile(r"Table 1\b")).click()
    expect(page.get_by_role("heading", name=re.compile(r"^Table 1"))).to_be_visible()
    assert page.url == live_server.url + table.get_absolute_url()
    assert page.evaluate("typeof window.htmx") == "object", "htmx did not load"

    form = page.locator("#round-form")
    preview = page.locator("#preview")
    rows = page.locator("table.sheet tbody tr")
    totals = page.locator(".seat-total")
    expect(rows).to_have_count(len(BEFORE))
    expect(totals).to_have_text([str(before.totals[p]) for p in PLAYERS])
    # Automatic Assaf: nobody declares going along.
    expect(seats_of(form).locator("label.toggle", has_text="Yaniv")).to_have_count(len(PLAYERS))
    expect(form.locator("label.toggle", has_text="Along")).to_have_count(0)
    expect(form.locator("input[name=along]")).to_have_count(0)

    for number, entry in enumerate(IN_BROWSER, start=len(BEFORE) + 1):
        result = results[number - 1]
        expect(form.get_by_role("heading", name=f"Round {number}")).to_be_visible()
        fill_round(form, entry)
        expect(preview).to_contain_text(f"Preview of round {number}")
        expect(preview.locator("li")).to_have_text(
            [f"{p}: +{result.points[p]} → {result.totals[p]}" for p in entry["hands"]]
        )
        if result.kind is rules.RoundKind.ASSAF:
            expect(preview).to_contain_text(f"Preview of round {number} · Assaf")
        else:
            expect(preview).not_to_contain_text("Assaf")
        if result.eliminated:
            expect(preview).to_contain_text(
                f"Out of the game after this round: {', '.join(result.eliminated)}."
            )
        if result.ends_game:
            expect(preview).to_contain_text("This round ends the game.")
            expect(preview).to_contain_text(f"Winner: {whole.winners[0]}.")
        else:
            expect(preview).not_to_contain_text("ends the game")

        record_round(page, number)
        row = rows.nth(number - 1)
        cells = row.locator("td")
        if result.kind is rules.RoundKind.ASSAF:
            expect(row.locator("th .flag")).to_have_text("S")
            caller = cells.nth(PLAYERS.index(entry["yaniv"]))
            expect(caller.locator(".points")).to_have_text(f"S +{result.points[entry['yaniv']]}")
        else:
            expect(row.locator("th .flag")).to_have_count(0)
        for index, player in enumerate(PLAYERS):
            if player in entry["hands"]:
                expect(cells.nth(index).locator(".running")).to_have_text(
                    str(result.totals[player])
                )
            else:
                expect(cells.nth(index)).to_have_class("out")
        expect(totals).to_have_text([str(result.totals[p]) for p in PLAYERS])

        if result is assaf:
            # Numbers checked by hand: Ann's 4 is not below Bart's 4, so 4 + 30.
            expect(cells.nth(0).locator(".running")).to_have_text("34")
        if result is chris_out:
            # Chris went from 194 to 214: no hand for Chris any more, an "Out" box instead.
            expect(cells.nth(2).locator(".running")).to_have_text("214")
            chris = seats_of(form).nth(2)
            expect(chris).to_have_class(re.compile(r"\bout\b"))
            expect(chris.locator(".out-note")).to_have_text("Out of the game")
            expect(chris.get_by_label("Hand")).to_have_count(0)
            expect(seats_of(form).get_by_label("Hand")).to_have_count(2)
            expect(form.locator("fieldset.seat-entry.out")).to_have_count(1)

    # --- the end: Ann is the last player left -------------------------------------------------
    result_box = page.locator(".result")
    expect(result_box).to_contain_text("Winner: Ann")
    expect(result_box).to_contain_text(f"with {whole.totals['Ann']}.")
    expect(result_box).to_contain_text("The game is over.")
    expect(result_box).to_contain_text("Entry is closed.")
    expect(page.locator(".seats li.winner .name")).to_have_text(["Ann"])
    expect(form).to_have_count(0)
    expect(page.locator("input.hand")).to_have_count(0)
    expect(totals).to_have_text([str(whole.totals[p]) for p in PLAYERS])
    expect(totals).to_have_text(["46", "209", "214"])
    # Chris's cells are grey from round 7 on, Bart's in none of the rounds he played.
    expect(rows.nth(6).locator("td.out")).to_have_count(1)
    expect(rows.nth(7).locator("td.out")).to_have_count(1)
    expect(page.locator("table.sheet td.out")).to_have_count(2)

    seats = Seat.objects.filter(table=table).select_related("player").order_by("position")
    assert {seat.player.name: seat.total for seat in seats} == dict(whole.totals)

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "israeli-game.png", full_page=True)
    assert problems == []
