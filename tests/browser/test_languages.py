"""The table page on a small phone in Dutch and French: the browser's language picks the page's,
nothing is wider than the screen (Dutch words are long), and the switcher changes language.

Screenshots go to test-artifacts/table-page-phone-<language>.png to look at.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.factories import PASSWORD, make_table, make_tournament, make_user, record

pytestmark = pytest.mark.django_db(transaction=True)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# A small Android phone: the narrowest screen a referee brings.
PHONE: ViewportSize = {"width": 360, "height": 740}
LOCALES = {"nl": "nl-BE", "fr": "fr-BE"}
# The longest player names of the Belgian championship's list are about this long.
PLAYERS = ("Anne-Sophie", "Bartholomeus", "Chloé", "Dirk-Jan")

# Elements wider than what holds them (or than the screen), as "tag.class: text".
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  for (const element of document.querySelectorAll("body *")) {
    if (element.closest(".scroll") || element.closest("svg")) continue;  // they scroll or scale
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.right <= 0) continue;  // not shown, or only to screen readers
    const clipped = element.scrollWidth > element.clientWidth + 1
      && getComputedStyle(element).overflowX !== "visible";
    if (box.right > width + 1 || box.left < -1 || clipped) {
      const text = element.textContent.trim().slice(0, 40);
      found.push(`${element.tagName.toLowerCase()}.${element.className}: ${text}`);
    }
  }
  return found;
}"""


@pytest.fixture
def table(db):
    referee = make_user("ref-lotte")
    tournament = make_tournament(
        name="Belgisch Kampioenschap Yaniv 2026",
        slug="bk-2026",
        venue="Gent",
        starts_on=datetime.date(2026, 11, 21),
    )
    table = make_table(PLAYERS, referee=referee, tournament=tournament)
    first, second, third, fourth = PLAYERS
    record(
        table.game,
        referee,
        {"hands": {first: 3, second: 12, third: 7, fourth: 20}, "yaniv": first},
        {"hands": {first: 4, second: 15, third: 4, fourth: 9}, "yaniv": first, "along": [third]},
        {"hands": {first: 9, second: 0, third: 8, fourth: 14}, "empty_hand": second},
    )
    return table


def phone_page(browser: Browser, language: str) -> Page:
    context = browser.new_context(
        locale=LOCALES[language],
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    return context.new_page()


def log_in(page: Page, live_server, next_url: str) -> None:
    page.goto(f"{live_server.url}{reverse('login')}?next={next_url}")
    page.locator("input[name=username]").fill("ref-lotte")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form.stack button[type=submit]").click()
    page.wait_for_url(f"**{next_url}")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("nl", ["Ronde 4", "Meegaan", "Lege hand", "Scoreblad", "Ronde 4 invoeren"]),
        (
            "fr",
            ["Manche 4", "Suivre", "Main vidée", "Feuille de score", "Enregistrer la manche 4"],
        ),
    ],
)
def test_the_table_page_fits_a_small_phone_in_each_language(
    live_server, browser: Browser, table, language, words
):
    page = phone_page(browser, language)
    try:
        url = reverse("tables:detail", args=[table.pk])
        log_in(page, live_server, url)
        expect(page.locator("html")).to_have_attribute("lang", language)
        for word in words:
            expect(page.locator("main")).to_contain_text(word)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=ARTIFACTS / f"table-page-phone-{language}.png", full_page=True)
        assert page.evaluate(OVERFLOWING) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        page.context.close()


def test_the_switcher_changes_the_language_and_stays_on_the_page(
    live_server, browser: Browser, table
):
    page = phone_page(browser, "nl")
    try:
        url = reverse("tables:detail", args=[table.pk])
        page.goto(live_server.url + url)
        expect(page.locator("html")).to_have_attribute("lang", "nl")
        expect(page.get_by_role("heading", name="Scoreblad")).to_be_visible()
        page.locator("form.languages button[value=fr]").click()
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        assert page.url == live_server.url + url
        expect(page.get_by_role("heading", name="Feuille de score")).to_be_visible()
        expect(page.locator("form.languages button[value=fr]")).to_have_attribute(
            "aria-pressed", "true"
        )
        # The choice stays for the next pages.
        page.goto(live_server.url + reverse("public:rules"))
        expect(page.locator("h1")).to_contain_text("Décompte des points")
        assert page.evaluate(OVERFLOWING) == []
    finally:
        page.context.close()
