"""A referee plays a whole game in a real browser: log in, enter rounds, correct one, finish.

The game is a scored vector of tests/vectors, so every number the page shows can be checked
against the vector's `expected`. Everything goes through the page like a person would: the
login form, the "My tables" link, the hand inputs and the Yaniv/Along toggles.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, Response, expect

from tests.factories import PASSWORD, make_table, make_user
from tournaments.models import Seat

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO_ROOT / "test-artifacts"

# The only 4-player Belgian vector with a false Yaniv, a reduction and a finished game.
VECTOR = REPO_ROOT / "tests" / "vectors" / "belgian" / "random_1.json"
MAX_HAND = 50
CORRECT_AFTER_ROUND = 3


@dataclass
class Scenario:
    players: list[str]
    rounds: list[dict[str, Any]]
    expected: dict[str, Any]
    false_yaniv_rounds: list[int]  # round numbers, 1-based
    reduction_rounds: list[int]
    wrong_player: str  # whose round-1 hand is first typed one too high


def load_scenario(path: Path = VECTOR) -> Scenario:
    """The vector, checked to still have what this test is about."""
    vector = json.loads(path.read_text())
    game, expected = vector["game"], vector["expected"]
    players, rounds = game["players"], game["rounds"]
    assert len(players) == 4, f"{path.name}: want a 4-player game, got {players}"
    assert not game.get("options"), f"{path.name}: want the default Belgian options"
    false_yaniv = [
        number
        for number, entry in enumerate(rounds, start=1)
        if entry.get("yaniv") and entry["hands"][entry["yaniv"]] > 5
    ]
    assert false_yaniv, f"{path.name}: no false Yaniv (caller's hand > 5)"
    assert all(expected["rounds"][n - 1]["kind"] == "false_yaniv" for n in false_yaniv)
    reductions = [s["number"] for s in expected["rounds"] if s["reductions"]]
    assert reductions, f"{path.name}: no reduction"
    assert expected["finished"] is True, f"{path.name}: the game does not finish"
    assert expected["winners"], f"{path.name}: no winners"
    # Round 1 gets a hand typed one too high first: someone who only scores their hand, so
    # the mistake stays a valid round and only moves that player's total by one until round 1
    # is corrected. Preferably someone reduced later, whom the slip would have cost it.
    first = rounds[0]
    reduced = {player for scored in expected["rounds"] for player in scored["reductions"]}
    plain = [
        player
        for player in sorted(players, key=lambda player: player not in reduced)
        if player != first.get("yaniv")
        and player != first.get("empty_hand")
        and player not in first.get("along", [])
        and first["hands"][player] < MAX_HAND
        and all(
            scored["totals"][player] + 1 not in (50, 100, 150)
            for scored in expected["rounds"][:CORRECT_AFTER_ROUND]
        )
    ]
    assert plain, f"{path.name}: round 1 has nobody whose hand can be mistyped harmlessly"
    assert min(reductions) > CORRECT_AFTER_ROUND, "correct round 1 before the first reduction"
    assert len(rounds) > CORRECT_AFTER_ROUND, "the game must go on after the correction"
    return Scenario(players, rounds, expected, false_yaniv, reductions, plain[0])


def as_typed(scenario: Scenario, number: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Round `number`'s entries as the referee types them and what the site should score.

    Round 1 has the slip; until it is corrected (after `CORRECT_AFTER_ROUND`), the slipping
    player's totals are one too high.
    """
    entry = scenario.rounds[number - 1]
    scored = scenario.expected["rounds"][number - 1]
    if number > CORRECT_AFTER_ROUND:
        return entry, scored
    player = scenario.wrong_player
    scored = {**scored, "points": {**scored["points"]}, "totals": {**scored["totals"]}}
    scored["totals"][player] += 1
    if number == 1:
        entry = {**entry, "hands": {**entry["hands"], player: entry["hands"][player] + 1}}
        scored["points"][player] += 1
    return entry, scored


def preview_lines(scored: dict[str, Any], players: list[str]) -> list[str]:
    """The preview's line per player: "Ann: +12 → 12", or "Bart: +69 → 100 → 50 (−50)"."""
    lines = []
    for player in players:
        points, total = scored["points"][player], scored["totals"][player]
        reduction = scored["reductions"].get(player, 0)
        if reduction:
            lines.append(f"{player}: +{points} → {total + reduction} → {total} (−{reduction})")
        else:
            lines.append(f"{player}: +{points} → {total}")
    return lines


def fill_round(form: Locator, players: list[str], entry: dict[str, Any]) -> None:
    """Type every hand and click the ending and along toggles, seat by seat."""
    seats = form.locator("fieldset.seat-entry")
    expect(seats).to_have_count(len(players))
    for index, player in enumerate(players):
        seat = seats.nth(index)
        expect(seat.locator("legend")).to_contain_text(player)
        seat.get_by_label("Hand").fill(str(entry["hands"][player]))
    for index, player in enumerate(players):
        seat = seats.nth(index)
        toggles = []
        if entry.get("yaniv") == player:
            toggles.append("Yaniv")
        if entry.get("empty_hand") == player:
            toggles.append("Empty")
        if player in entry.get("along", []):
            toggles.append("Along")
        for name in toggles:
            toggle = seat.locator("label.toggle", has_text=name)
            toggle.click()
            expect(toggle.locator("input")).to_be_checked()


def record_round(page: Page, number: int) -> None:
    """Click "Record round N": the round goes into the phone's outbox, is sent, and the
    server's sheet comes back with it (no pending row left)."""
    with page.expect_response(
        lambda r: r.url.endswith("/sync/") and r.request.method == "POST"
    ) as posted:
        page.get_by_role("button", name=f"Record round {number}").click()
    response = posted.value
    assert response.status == 200
    assert response.json()["status"] == "stored"
    expect(page.locator("tr.pending-row")).to_have_count(0)
    expect(page.locator("table.sheet tbody tr:not(.pending-row)")).to_have_count(number)


def note_failure(response: Response, problems: list[str]) -> None:
    # The site has no favicon yet; the browser asks for one on every page.
    if response.status >= 400 and not response.url.endswith("/favicon.ico"):
        problems.append(f"{response.status} {response.request.method} {response.url}")


def seat_totals(page: Page) -> Locator:
    # The seat cards while reading, the entry form's legends while entering.
    return page.locator(".seat-total")


@pytest.mark.django_db(transaction=True)
def test_referee_plays_a_whole_game_with_a_correction(live_server, page: Page):
    scenario = load_scenario()
    players, expected = scenario.players, scenario.expected
    referee = make_user("referee")
    table = make_table(players=players, referee=referee)

    # Every failed request (htmx, static files) and script error, checked at the end.
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("response", lambda response: note_failure(response, problems))

    # --- log in through the form and find the table ------------------------------------------
    page.goto(live_server.url + reverse("login"))
    page.get_by_label("Username").fill(referee.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()

    page.get_by_role("link", name="My tables").click()
    expect(page.get_by_role("heading", name="My tables")).to_be_visible()
    page.get_by_role("link", name=re.compile(r"Table 1\b")).click()
    expect(page.get_by_role("heading", name=re.compile(r"^Table 1"))).to_be_visible()
    assert page.url == live_server.url + table.get_absolute_url()

    # htmx comes from django-htmx's static files, served by live_server's static handler.
    assert page.evaluate("typeof window.htmx") == "object", "htmx did not load"
    expect(page.locator(".seat-entry legend .name")).to_have_text(players)

    form = page.locator("#round-form")
    preview = page.locator("#preview")
    rows = page.locator("table.sheet tbody tr")

    for number in range(1, len(scenario.rounds) + 1):
        typed, scored = as_typed(scenario, number)
        expect(form.get_by_role("heading", name=f"Round {number}")).to_be_visible()
        fill_round(form, players, typed)

        # The live preview, before anything is saved.
        expect(preview).to_contain_text(f"Preview of round {number}")
        expect(preview.locator("li")).to_have_text(preview_lines(scored, players))
        if number in scenario.false_yaniv_rounds:
            caller = typed["yaniv"]
            neighbour = players[(players.index(caller) + 1) % len(players)]
            expect(preview.locator(".warn").first).to_have_text(
                f"False Yaniv: {caller} gets 32 + {neighbour}'s {typed['hands'][neighbour]}"
                f" = {scored['points'][caller]}"
            )
        else:
            expect(preview).not_to_contain_text("False Yaniv")
        if number == len(scenario.rounds) and expected["finished"]:
            expect(preview).to_contain_text("This round ends the game")
        else:
            expect(preview).not_to_contain_text("ends the game")
        if number == scenario.false_yaniv_rounds[0]:
            # The entry form on a phone, mid-game, with the false-Yaniv preview showing.
            desktop = page.viewport_size
            assert desktop is not None  # the context sets one
            page.set_viewport_size({"width": 390, "height": 844})
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=ARTIFACTS / "table-page-phone-entry.png", full_page=True)
            page.set_viewport_size(desktop)

        record_round(page, number)
        row = rows.nth(number - 1)
        if number in scenario.false_yaniv_rounds:
            expect(row.locator("th .flag")).to_have_text("F")
        for player, reduction in scored["reductions"].items():
            total = scored["totals"][player]
            cell = row.locator("td").nth(players.index(player))
            expect(cell.locator(".running")).to_have_text(f"{total + reduction} → {total}")

        expect(seat_totals(page)).to_have_text([str(scored["totals"][p]) for p in players])

        if number == CORRECT_AFTER_ROUND:
            correct_round_one(page, scenario)

    # --- the end ---------------------------------------------------------------------------
    winners = expected["winners"]
    result = page.locator(".result")
    expect(result).to_contain_text("The game is over.")
    expect(result).to_contain_text("Entry is closed.")
    if len(winners) == 1:
        expect(result).to_contain_text(f"Winner: {winners[0]}")
    else:
        expect(result).to_contain_text("Shared win: " + " and ".join(winners))
    expect(result).to_contain_text(f"with {expected['totals'][winners[0]]}.")
    expect(page.locator(".seats li.winner .name")).to_have_text(winners)
    expect(form).to_have_count(0)
    expect(page.locator("input.hand")).to_have_count(0)
    expect(seat_totals(page)).to_have_text([str(expected["totals"][p]) for p in players])

    # The same numbers in the database.
    seats = Seat.objects.filter(table=table).select_related("player").order_by("position")
    assert [seat.player.name for seat in seats] == players
    assert {seat.player.name: seat.total for seat in seats} == expected["totals"]

    # --- screenshots: desktop, then a phone ------------------------------------------------
    page.screenshot(path=ARTIFACTS / "table-page.png", full_page=True)
    browser = page.context.browser
    assert browser is not None  # a context of a launched browser, not a persistent one
    phone = browser.new_context(
        storage_state=page.context.storage_state(),
        viewport={"width": 390, "height": 844},
        locale="en-GB",
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        phone_page = phone.new_page()
        phone_page.goto(page.url)
        expect(phone_page.locator(".result")).to_contain_text("The game is over.")
        phone_page.screenshot(path=ARTIFACTS / "table-page-phone.png", full_page=True)
    finally:
        phone.close()

    assert problems == []


def correct_round_one(page: Page, scenario: Scenario) -> None:
    """Open round 1's "Correct" link, type the right hand, give a reason and save."""
    players, entry = scenario.players, scenario.rounds[0]
    player = scenario.wrong_player
    page.locator("table.sheet tbody tr").first.get_by_role("link", name="Correct round 1").click()
    correction = page.locator("#correction-panel form.correction")
    expect(correction.get_by_role("heading", name="Correct round 1")).to_be_visible()

    seat = correction.locator("fieldset.seat-entry").nth(players.index(player))
    hand = seat.get_by_label("Hand")
    expect(hand).to_have_value(str(entry["hands"][player] + 1))  # what was typed
    hand.fill(str(entry["hands"][player]))
    correction.get_by_label("Reason").fill(
        f"{player}'s hand was {entry['hands'][player]}, not {entry['hands'][player] + 1}"
    )
    correction.get_by_role("button", name="Save the correction").click()

    expect(page.locator("#save-status .state")).to_have_text("Round 1 corrected.")
    expect(page.locator("#correction-panel form")).to_have_count(0)
    number = CORRECT_AFTER_ROUND
    totals = scenario.expected["rounds"][number - 1]["totals"]
    expect(seat_totals(page)).to_have_text([str(totals[p]) for p in players])
    first_row = page.locator("table.sheet tbody tr").first.locator("td")
    expect(first_row.nth(players.index(player)).locator(".points")).to_have_text(
        f"+{scenario.expected['rounds'][0]['points'][player]}"
    )
    # The entry form is back, still at the next round.
    expect(page.get_by_role("button", name=f"Record round {number + 1}")).to_be_visible()
