"""A player's Yaniv statistics page, the tournament's facts and the hall's facts view in a real
browser (issue 38.5): no serious accessibility violation at a phone's width and a desktop's,
nothing wider than the screen, the charts drawn under the strict Content-Security-Policy,
reached and read by keyboard; the page's screenshots for docs/screenshots.
"""

from __future__ import annotations

import datetime
import os
import random
import re
import shutil
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from bench import statistics as statistics_bench
from seasons.models import Season
from tests.browser.test_accessibility import WIDTHS, Audit
from tests.browser.test_csp import Watcher
from tests.statistics_world import statistics_world
from tournaments.models import Club, Player, Session, Tournament

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def world(transactional_db):
    made = statistics_world()
    # Between sessions: the hall shows the facts.
    Session.objects.filter(tournament=made["cup"]).update(status=Session.Status.FINISHED)
    return made


@pytest.mark.parametrize("width", WIDTHS)
def test_the_statistics_pages_have_no_serious_accessibility_violations(
    live_server, new_context, world, width
):
    ann = world["people"]["Ann"]
    audit = Audit()
    page = new_context(bypass_csp=True, viewport=WIDTHS[width]).new_page()
    for url in (
        reverse("public:profile_statistics", args=[ann.pk]),
        reverse("public:tournament", args=["cup"]),
        reverse("public:hall", args=["cup"]),
    ):
        page.goto(live_server.url + url)
        audit.check(page, f"{url} at {width}")
    for line in audit.minor:
        print("minor:", line)
    assert audit.pages == 3
    assert audit.blocking == []


def test_the_charts_draw_under_the_strict_policy_and_the_page_reads_by_keyboard(
    live_server, new_context, world
):
    ann = world["people"]["Ann"]
    watcher = Watcher(new_context(viewport=WIDTHS["phone"]))
    page = watcher.page()
    page.goto(live_server.url + reverse("public:profile", args=[ann.pk]))
    # From the player's page to the statistics by keyboard.
    link = page.get_by_role("link", name="Yaniv statistics")
    link.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(live_server.url + reverse("public:profile_statistics", args=[ann.pk]))
    charts = page.get_by_role("img")
    cup = "Ghent Cup: Yaniv calls: 3; held: 2; caught going along: 1; Assaf: 0; false: 0"
    expect(charts.first).to_have_attribute("aria-label", re.compile(re.escape(cup)))
    # The charts' bars are drawn (attributes only, no inline style the policy would refuse).
    assert page.locator("svg.calls-chart rect").count() >= 5
    assert page.locator("svg.hands-chart rect").count() == 10
    # The hands' figures open by keyboard; each wide table is a focusable, named region.
    summary = page.locator("details.chart-figures summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("region", name="Hands when not calling")).to_be_visible()
    for name in ("Hands when not calling", "By season", "By tournament"):
        region = page.get_by_role("region", name=name)
        region.focus()
        expect(region).to_be_focused()
    assert watcher.problems == []


def test_the_hall_cycles_to_the_facts_between_sessions(live_server, new_context, world):
    page = new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(live_server.url + reverse("public:hall", args=["cup"]))
    facts = page.locator('section[data-view="facts"]')
    # → shows the next view: on to the facts.
    for _ in range(6):
        if facts.is_visible():
            break
        page.keyboard.press("ArrowRight")
    expect(facts).to_be_visible()
    expect(page.locator(".view-title")).to_have_text("Facts of the tournament")
    expect(facts.locator("li").first).to_contain_text("Most Yaniv calls held")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "hall-facts-1280x720.png")


def career() -> Player:
    """A player's history for the screenshots: 48 games in six tournaments (the benchmark's
    builder, one tournament private), named as a club's would be."""
    player, _ = statistics_bench.build(48, random.Random(38))
    liege = Club.objects.create(name="Yaniv Club Liège", city="Liège")
    Player.objects.filter(pk=player.pk).update(name="Hélène Dubois", club=liege)
    names = iter(TOURNAMENTS)
    for tournament in Tournament.objects.filter(slug__startswith="bench-").order_by("starts_on"):
        name, day = next(names)
        tournament.name, tournament.starts_on = name, day
        tournament.save(update_fields=["name", "starts_on"])
    for season, name in zip(Season.objects.order_by("slug"), SEASON_NAMES, strict=False):
        Season.objects.filter(pk=season.pk).update(name=name)
    return Player.objects.get(pk=player.pk)


TOURNAMENTS = [
    ("Liège club night, January", datetime.date(2026, 1, 16)),
    ("Gent open", datetime.date(2026, 3, 7)),
    ("Liège club night, April", datetime.date(2026, 4, 17)),
    ("Antwerp cup", datetime.date(2026, 6, 13)),
    ("Private league night", datetime.date(2026, 8, 21)),
    ("Belgian championship", datetime.date(2026, 11, 21)),
]
SEASON_NAMES = ["Liège ladder 2026", "Belgian ranking 2026", "Summer series", "Open circuit"]


def test_screenshots_of_a_players_statistics_page(live_server, new_context, transactional_db):
    """The page at a desktop's and a phone's width, into test-artifacts/; with
    UPDATE_SCREENSHOTS=1 into docs/screenshots/ too (when the page changed)."""
    helene = career()
    url = live_server.url + reverse("public:profile_statistics", args=[helene.pk])
    ARTIFACTS.mkdir(exist_ok=True)
    shots = {
        "player-statistics-1280.png": {"width": 1280, "height": 900},
        "player-statistics-phone.png": {"width": 390, "height": 844},
    }
    for name, viewport in shots.items():
        page = new_context(viewport=viewport, device_scale_factor=1).new_page()
        page.goto(url)
        expect(page.locator("svg.hands-chart")).to_be_visible()
        expect(page.get_by_role("heading", name="By tournament")).to_be_visible()
        page.screenshot(path=ARTIFACTS / name, full_page=True)
        assert (ARTIFACTS / name).stat().st_size > 10_000
        if os.environ.get("UPDATE_SCREENSHOTS"):
            shutil.copy(ARTIFACTS / name, SCREENSHOTS / name)
