"""The pages on the narrowest phone, 320 CSS pixels wide, in English, Dutch and French (issue
13, point 16): the round entry's toggles hold their words ("Meegaan", "Lege hand", "Main
vidée"), the Record button keeps its label on one line, the session page's print links do
not overlap and the seating-method dropdown is not cut off.

Screenshots go to test-artifacts/small-screen-<page>-<language>.png to look at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.factories import PASSWORD, make_table, make_tournament, make_user, record
from tournaments.models import Registration

pytestmark = pytest.mark.django_db(transaction=True)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# The narrowest phone a referee or a director brings (an iPhone SE of 2016, small Androids).
SMALL: ViewportSize = {"width": 320, "height": 640}
LOCALES = {"en": "en-GB", "nl": "nl-BE", "fr": "fr-BE"}
PLAYERS = ("Anne-Sophie", "Bartholomeus", "Chloé", "Dirk-Jan")
ROUND: dict[str, Any] = {
    "hands": {"Anne-Sophie": 3, "Bartholomeus": 12, "Chloé": 7, "Dirk-Jan": 20},
    "yaniv": "Anne-Sophie",
}

# Labels whose words spill out of them: "text: scrollWidth > clientWidth".
SPILLING = """(selector) => [...document.querySelectorAll(selector)]
  .filter(node => node.scrollWidth > node.clientWidth)
  .map(node => `${node.textContent.trim()}: ${node.scrollWidth} > ${node.clientWidth}`)"""

# How many lines an element's text takes (one box per line of a text node's range).
LINES = """(selector) => {
  const node = document.querySelector(selector);
  const range = document.createRange();
  range.selectNodeContents(node);
  const tops = new Set([...range.getClientRects()].map(box => Math.round(box.top)));
  return tops.size;
}"""

# The boxes of the elements `selector` finds, as [left, top, right, bottom].
BOXES = """(selector) => [...document.querySelectorAll(selector)].map(node => {
  const box = node.getBoundingClientRect();
  return [box.left, box.top, box.right, box.bottom, node.textContent.trim()];
})"""

# A select cut off: beyond the screen, beyond what holds it, or its chosen option's text
# wider than the select shows.
CLIPPED_SELECT = """(selector) => {
  const select = document.querySelector(selector);
  const box = select.getBoundingClientRect();
  const holder = select.closest("form").getBoundingClientRect();
  const screen = document.documentElement.clientWidth;
  const style = getComputedStyle(select);
  const probe = document.createElement("span");
  probe.style.font = style.font;
  probe.style.whiteSpace = "nowrap";
  probe.style.position = "absolute";
  probe.textContent = select.options[select.selectedIndex].text;
  document.body.append(probe);
  const needed = probe.getBoundingClientRect().width;
  probe.remove();
  // The text's room: the select's width less its padding, borders and the arrow (about 24px).
  const room = box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 26;
  return {
    right: box.right, left: box.left, screen: screen, holder_right: holder.right,
    needed: needed, room: room,
  };
}"""


def overlapping(boxes: list[list[Any]]) -> list[tuple[str, str]]:
    found = []
    for index, (left, top, right, bottom, text) in enumerate(boxes):
        for other_left, other_top, other_right, other_bottom, other in boxes[index + 1 :]:
            if (
                left < other_right
                and other_left < right
                and top < other_bottom
                and other_top < bottom
            ):
                found.append((text, other))
    return found


def small_page(browser: Browser, language: str) -> Page:
    context = browser.new_context(
        locale=LOCALES[language],
        viewport=SMALL,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    return context.new_page()


def log_in(page: Page, base: str, username: str, next_url: str) -> None:
    page.goto(f"{base}{reverse('login')}?next={next_url}")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form.stack button[type=submit]").click()
    page.wait_for_url(f"**{next_url}")


def shot(page: Page, name: str, language: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"small-screen-{name}-{language}.png", full_page=True)


@pytest.fixture
def referee_table(db):
    referee = make_user("ref-small")
    table = make_table(PLAYERS, referee=referee)
    record(table.game, referee, ROUND, ROUND)
    return table


@pytest.fixture
def planned_session(db):
    """A tournament with a planned session of one table (its page offers a new draw) and
    checked-in players, directed by `dir-small`."""
    director = make_user("dir-small")
    tournament = make_tournament(name="Belgisch Kampioenschap", slug="bk", directors=[director])
    table = make_table(PLAYERS, tournament=tournament, session_status="planned")
    for seat in table.seats.all():
        Registration.objects.create(tournament=tournament, player=seat.player, checked_in=True)
    return table.session


@pytest.mark.parametrize("language", LOCALES)
def test_the_round_entry_toggles_hold_their_words(
    live_server, browser: Browser, referee_table, language
):
    page = small_page(browser, language)
    try:
        url = reverse("tables:detail", args=[referee_table.pk])
        log_in(page, live_server.url, "ref-small", url)
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator(".toggle").first).to_be_visible()
        shot(page, "table", language)
        assert page.evaluate(SPILLING, ".toggle") == []
        assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
    finally:
        page.context.close()


@pytest.mark.parametrize("language", LOCALES)
def test_the_record_button_keeps_its_label_on_one_line(
    live_server, browser: Browser, referee_table, language
):
    page = small_page(browser, language)
    try:
        url = reverse("tables:detail", args=[referee_table.pk])
        log_in(page, live_server.url, "ref-small", url)
        button = page.locator("#record-button")
        expect(button).to_be_visible()
        assert page.evaluate(SPILLING, "#record-button") == []
        assert page.evaluate(LINES, "#record-button") == 1, button.inner_text()
    finally:
        page.context.close()


@pytest.mark.parametrize("language", LOCALES)
def test_the_session_pages_print_links_do_not_overlap(
    live_server, browser: Browser, planned_session, language
):
    page = small_page(browser, language)
    try:
        url = reverse("manage:session", args=["bk", planned_session.number])
        log_in(page, live_server.url, "dir-small", url)
        links = page.locator(".print-links a")
        expect(links).to_have_count(3)
        shot(page, "session", language)
        boxes = page.evaluate(BOXES, ".print-links a")
        assert overlapping(boxes) == []
        assert all(right <= SMALL["width"] for _, _, right, _, _ in boxes), boxes
        assert page.evaluate(SPILLING, ".print-links a") == []
    finally:
        page.context.close()


@pytest.mark.parametrize("language", LOCALES)
@pytest.mark.parametrize("where", ["session", "dashboard"])
def test_the_seating_method_dropdown_is_not_cut_off(
    live_server, browser: Browser, planned_session, language, where
):
    page = small_page(browser, language)
    try:
        if where == "session":
            url = reverse("manage:session", args=["bk", planned_session.number])
        else:
            # The dashboard offers a new session once the last one is not planned any more.
            planned_session.status = "running"
            planned_session.save(update_fields=["status"])
            url = reverse("manage:tournament", args=["bk"])
        log_in(page, live_server.url, "dir-small", url)
        select = page.locator("select[name=method]")
        expect(select).to_be_visible()
        shot(page, f"seating-{where}", language)
        # Every method in turn: each must show whole.
        for value in select.locator("option").evaluate_all("nodes => nodes.map(n => n.value)"):
            select.select_option(value)
            found = page.evaluate(CLIPPED_SELECT, "select[name=method]")
            assert found["left"] >= 0 and found["right"] <= found["screen"], found
            assert found["right"] <= found["holder_right"] + 0.5, found
            assert found["needed"] <= found["room"], (value, found)
    finally:
        page.context.close()


def test_the_phones_own_preview_speaks_french_typography(
    live_server, browser: Browser, referee_table
):
    """The preview the phone scores by itself (offline) writes each line as the language's
    sentence: French puts a narrow no-break space before the colon after a name."""
    page = small_page(browser, "fr")
    try:
        url = reverse("tables:detail", args=[referee_table.pk])
        log_in(page, live_server.url, "ref-small", url)
        expect(page.locator("#round-form")).to_be_visible()
        page.context.set_offline(True)  # no server preview: only the phone's script answers
        hands = page.locator("#round-form input.hand")
        for index, hand in enumerate((1, 5, 5, 9)):
            hands.nth(index).fill(str(hand))
        page.locator('#round-form input[name=ending][value="yaniv:1"]').check()
        lines = page.locator("#preview li")
        expect(lines).to_have_count(4)
        expect(lines.nth(0)).to_have_text("Anne-Sophie\u202f: +0 → 0")
        expect(lines.nth(3)).to_have_text("Dirk-Jan\u202f: +9 → 49")
    finally:
        page.context.close()
