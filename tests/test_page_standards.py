"""Every page a walk of the site reaches is a valid, findable HTML page (issue 22, finding 8):
a meta description that says something true, `<time datetime>` values HTML accepts (at most
three digits of a second's fraction), no help text read as an element, and scroll regions a
keyboard reaches. The browser half (axe, tap targets, widths) is
tests/browser/test_accessibility.py.
"""

from __future__ import annotations

import datetime
import re
from html.parser import HTMLParser
from typing import NamedTuple

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import record
from tests.test_security import make_world, our_url_patterns, url_for
from tournaments.models import Session, Table, Tournament
from tournaments.templatetags.yaniv import datetime_attribute

pytestmark = pytest.mark.django_db

# HTML's valid date, time, global and local date-and-time strings (the spec's microsyntaxes):
# a second's fraction of one to three digits, an offset written Z, +hh:mm or +hhmm.
DATE = r"\d{4,}-\d\d-\d\d"
TIME = r"\d\d:\d\d(?::\d\d(?:\.\d{1,3})?)?"
OFFSET = r"(?:Z|[+-]\d\d:?\d\d)"
VALID_DATETIME = re.compile(rf"{DATE}|{TIME}|{DATE}[T ]{TIME}{OFFSET}?")


class Page(HTMLParser):
    """What the checks read of a page: its meta description(s), time values, elements."""

    def __init__(self) -> None:
        super().__init__()
        self.descriptions: list[str] = []
        self.times: list[str] = []
        self.tags: set[str] = set()
        self.regions: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.add(tag)
        if tag == "meta" and found.get("name") == "description":
            self.descriptions.append(found.get("content") or "")
        if tag == "time" and "datetime" in found:
            self.times.append(found["datetime"] or "")
        if "scroll" in (found.get("class") or "").split():
            self.regions.append(found)


def read(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


def walk(client: Client, kwargs: dict) -> dict[str, str]:
    """Every page of the site's own URL patterns this client may GET: url → HTML."""
    pages = {}
    for name, pattern in our_url_patterns():
        url = url_for(name, pattern, kwargs)
        response = client.get(url)
        html = "text/html" in response.get("Content-Type", "")
        # Downloads stream (PDF, CSV); pages do not.
        if response.status_code != 200 or response.streaming or not html:
            continue
        text = response.content.decode()
        if "<html" in text:  # a whole page, not an htmx fragment
            pages[url] = text
    return pages


class Walk(NamedTuple):
    pages: dict[str, str]  # url ("anonymous <url>" for anyone's) → HTML
    kwargs: dict  # the URLs' values: the world's slug, table, player…
    tournament: str  # the name of the world's tournament "bk"


@pytest.fixture(scope="module")
def walked(django_db_setup, django_db_blocker) -> Walk:
    """The walk as the director and as anyone, with a dispute, a clock history and a finished
    game (standings, a season's standings, head-to-head) to show. Walked once for the module,
    whose tests only read the pages: the world is rolled back afterwards."""
    with django_db_blocker.unblock(), transaction.atomic():
        world = make_world()
        session = Session.objects.get(tournament__slug="bk", number=1)
        session.set_time_limit(30, by=world["director"])
        table = Table.objects.get(pk=world["kwargs"]["table_id"])
        # Dirk goes over 150 in round 4.
        played = {"hands": {"Ann": 1, "Bart": 0, "Chris": 45, "Dirk": 49}, "yaniv": "Ann"}
        record(table.game, world["referee"], played, played, played)
        table.game.refresh_from_db()
        assert table.game.finished
        director = Client()
        director.force_login(world["director"])
        pages = walk(director, world["kwargs"])
        anyone = walk(Client(), world["kwargs"])
        pages |= {f"anonymous {url}": html for url, html in anyone.items()}
        name = Tournament.objects.get(slug="bk").name
        transaction.set_rollback(True)
    return Walk(pages, world["kwargs"], name)


def test_the_walk_reaches_the_pages_that_show_times(walked):
    disputes = reverse("manage:disputes", args=["bk"])
    session = reverse("manage:session", args=["bk", 1])
    assert read(walked.pages[disputes]).times and read(walked.pages[session]).times
    assert len(walked.pages) >= 40, sorted(walked.pages)


def test_every_page_has_one_true_meta_description(walked):
    problems = []
    for url, html in walked.pages.items():
        descriptions = read(html).descriptions
        if len(descriptions) != 1 or len(descriptions[0].strip()) < 20:
            problems.append(f"{url}: {descriptions}")
        elif "{" in descriptions[0] or "%(" in descriptions[0]:
            problems.append(f"{url}: a template's text {descriptions}")
    assert problems == []


def test_a_tournaments_pages_name_it_in_their_description(walked, client):
    standings = read(walked.pages[reverse("public:standings", args=["bk"])]).descriptions[0]
    assert standings.startswith(f"{walked.tournament}: ")
    assert "standings" in standings
    make_world()  # the walk's was rolled back
    name = Tournament.objects.get(slug="bk").name
    french = client.get(
        reverse("public:standings", args=["bk"]), headers={"Accept-Language": "fr"}
    ).content.decode()
    assert read(french).descriptions == [
        f"{name}\u00a0: les tables, les scores et le classement en direct d'un tournoi de Yaniv."
    ]
    home = read(walked.pages[reverse("public:home")]).descriptions[0]
    assert home.startswith("Live scores and standings of Yaniv tournaments")


def test_every_time_element_has_a_datetime_html_accepts(walked):
    bad = [
        f"{url}: {value}"
        for url, html in walked.pages.items()
        for value in read(html).times
        if not VALID_DATETIME.fullmatch(value)
    ]
    assert bad == []


def test_a_moment_is_written_to_the_second_in_the_sites_time_zone(settings):
    settings.TIME_ZONE = "Europe/Brussels"
    moment = datetime.datetime(2026, 11, 21, 13, 32, 5, 123456, tzinfo=datetime.UTC)
    with timezone.override("Europe/Brussels"):
        assert datetime_attribute(moment) == "2026-11-21T14:32:05+01:00"
    assert datetime_attribute(None) == ""
    assert VALID_DATETIME.fullmatch("2026-11-21T14:32:05.123456+01:00") is None


def test_no_page_holds_an_address_element(walked):
    # The season form's help text said "/seasons/<address>/", read as an element.
    assert [url for url, html in walked.pages.items() if "address" in read(html).tags] == []
    assert reverse("public:season_new") in walked.pages


def test_every_scroll_region_is_focusable_and_labelled(walked):
    regions = [
        (url, region) for url, html in walked.pages.items() for region in read(html).regions
    ]
    scrolling = {url for url, _ in regions}
    for url in (
        reverse("public:standings", args=["bk"]),
        reverse("public:player", args=["bk", walked.kwargs["player_id"]]),
        reverse("public:season", args=["bk"]),
        reverse("tables:detail", args=[walked.kwargs["table_id"]]),
    ):
        assert url in scrolling, url
    bad = [
        f"{url}: {region}"
        for url, region in regions
        if region.get("tabindex") != "0"
        or region.get("role") != "region"
        or not region.get("aria-label")
    ]
    assert bad == []
