"""The hall screen in a real browser (issue 15.1): it cycles through its views by itself,
pages a long list to fit without scrolling, shows a director's message within one poll, and
rides out a dropped network and a reload offline without a browser error.

Screenshots (test-artifacts/): hall-1920x1080-seating.png, hall-1920x1080-standings.png,
hall-phone-seating.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from hall.models import HallScreen
from tests.browser.test_offline import log_in
from tests.factories import make_table, make_tournament, make_user, record
from tournaments.models import Player, Registration, Session

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HD = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
# 120 players: more than one page of seating on a phone, one or two on a projector.
LAST = ("Claes", "Peeters", "Maes", "Jacobs", "Mertens", "Willems", "Goossens", "Wouters")
FIRST = ("Ann", "Bart", "Chris", "Dirk", "Eva", "Frank", "Gina", "Hélène", "Inès", "Jürgen")
NAMES = [
    f"{first} {last}"
    for last in (*LAST, "De Smet", "Dubois")
    for first in (*FIRST, "Karel", "Lotte")
]


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{name}.png")


def visible_view(page: Page) -> str:
    return page.evaluate(
        "[...document.querySelectorAll('#screen .view')].filter(v => !v.hidden)"
        ".map(v => v.dataset.view).join(',')"
    )


def fits_without_scrolling(page: Page) -> bool:
    """Nothing below the fold, no shown line cut off at the view's bottom or right edge."""
    return page.evaluate(
        """() => {
          const root = document.scrollingElement;
          if (root.scrollHeight > innerHeight + 1) return false;
          if (root.scrollWidth > innerWidth + 1) return false;
          const view = [...document.querySelectorAll('#screen .view')].find(v => !v.hidden);
          const list = view && view.querySelector('.pages');
          if (!list) return true;
          const box = list.getBoundingClientRect();
          return [...list.children].filter(li => !li.hidden).every(li => {
            const r = li.getBoundingClientRect();
            return r.bottom <= box.bottom + 1 && r.right <= box.right + 1;
          });
        }"""
    )


@pytest.fixture
def day(transactional_db):
    """A running tournament: session 1 playing (two tables, one finished), session 2 drawn
    for 120 checked-in players."""
    director = make_user("dir-hall")
    referee = make_user("ref-hall")
    tournament = make_tournament(name="Belgian Championship", slug="bk", directors=[director])
    playing = make_table(referee=referee, tournament=tournament)
    done = make_table(referee=referee, tournament=tournament, players=("Eva", "Finn"))
    first_round = {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}
    record(playing.game, referee, first_round)
    record(done.game, referee, *[{"hands": {"Eva": 0, "Finn": 40}, "yaniv": "Eva"}] * 4)
    for name in NAMES:
        player = Player.objects.create(name=name)
        Registration.objects.create(tournament=tournament, player=player, checked_in=True)
    session = Session.objects.create(tournament=tournament, number=2)
    session.draw(Session.Seating.RANDOM, seed=3)
    return tournament, director


@pytest.mark.django_db(transaction=True)
def test_the_hall_screen_cycles_pages_and_fits_a_projector_and_a_phone(
    live_server, new_context, day
):
    tournament, _ = day
    HallScreen.objects.create(tournament=tournament, number=1, seconds=5)
    url = live_server.url + reverse("public:hall", args=[tournament.slug])
    errors: list[str] = []

    page = new_context(viewport=HD).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    expect(page.locator(".hall-head .where")).to_contain_text("Session 2: where you sit")
    assert visible_view(page) == "seating"
    assert fits_without_scrolling(page)
    shot(page, "hall-1920x1080-seating")
    # By itself, after the screen's 5 seconds: the next page of the seating, or the tables.
    start = page.evaluate("JSON.stringify(window.yanivHall.state)")
    for _ in range(70):
        page.wait_for_timeout(100)
        if page.evaluate("JSON.stringify(window.yanivHall.state)") != start:
            break
    else:
        raise AssertionError("the screen did not move on by itself within 7 seconds")
    # On through the views (→ as a keyboard at the laptop would): every view comes, in order.
    seen = [visible_view(page)]
    for _ in range(12):
        page.keyboard.press("ArrowRight")
        seen.append(visible_view(page))
        assert fits_without_scrolling(page), seen[-1]
        if seen[-1] == "standings":
            shot(page, "hall-1920x1080-standings")
    order = [view for index, view in enumerate(seen) if index == 0 or seen[index - 1] != view]
    assert order[:3] in (["seating", "tables", "standings"], ["tables", "standings", "seating"])
    expect(page.locator(".view-tables")).to_contain_text("Leads: Ann 0")

    phone = new_context(viewport=PHONE).new_page()
    phone.goto(url)
    expect(phone.locator(".hall-head .page-count")).to_have_text(
        "1/" + phone.evaluate("String(document.querySelector('.view-seating').pages)")
    )
    pages = int(phone.evaluate("document.querySelector('.view-seating').pages"))
    assert pages >= 4  # 120 names do not fit one phone screen
    assert fits_without_scrolling(phone)
    shot(phone, "hall-phone-seating")
    # Every player appears on exactly one page.
    on_pages = phone.evaluate(
        "[...document.querySelectorAll('.seating-list li')].map(li => li.dataset.page)"
    )
    assert len(on_pages) == 120 and set(on_pages) == {str(n) for n in range(pages)}
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_a_directors_message_shows_within_one_poll_and_survives_a_dropped_network(
    live_server, new_context, day, settings
):
    settings.LIVE_POLL_SECONDS = 1
    tournament, director = day
    context = new_context(viewport=HD)
    screen_page = context.new_page()
    errors: list[str] = []
    screen_page.on("pageerror", lambda error: errors.append(str(error)))
    url = live_server.url + reverse("public:hall", args=[tournament.slug])
    screen_page.goto(url)
    screen_page.evaluate("navigator.serviceWorker.ready.then(() => true)")

    directing = new_context().new_page()
    log_in(directing, live_server.url, director)
    directing.goto(live_server.url + reverse("manage:screens", args=[tournament.slug]))
    card = directing.locator("#screen-1")
    card.get_by_label("Message").fill("Lunch at 12:30 in the bar")
    card.get_by_label("Shows").select_option("message")
    card.get_by_role("button", name="Save").click()
    expect(directing.locator("#screen-1 [role=status]")).to_contain_text("within one poll")

    # Pinned on the message: within one poll (1 s here), nothing else shows.
    expect(screen_page.locator(".view-message")).to_be_visible(timeout=3_000)
    expect(screen_page.locator(".view-message")).to_have_text("Lunch at 12:30 in the bar")
    assert visible_view(screen_page) == "message"

    # The network drops: the screen keeps what it shows and says it is behind.
    context.set_offline(True)
    expect(screen_page.locator("#behind-notice")).to_be_visible(timeout=5_000)
    expect(screen_page.locator(".view-message")).to_have_text("Lunch at 12:30 in the bar")
    # A reload while offline: the service worker gives the page back, not a browser error.
    screen_page.reload()
    # The page from the service worker's copy: slower on a machine busy with other browsers.
    expect(screen_page.locator(".view-message")).to_have_text(
        "Lunch at 12:30 in the bar", timeout=15_000
    )
    # Meanwhile the director changes the message; back online, the screen catches up alone.
    card.get_by_label("Message").fill("Session 2 starts at 14:00")
    card.get_by_role("button", name="Save").click()
    expect(directing.locator("#screen-1 [role=status]")).to_be_visible()
    context.set_offline(False)
    expect(screen_page.locator(".view-message")).to_have_text(
        "Session 2 starts at 14:00", timeout=5_000
    )
    expect(screen_page.locator("#behind-notice")).to_be_hidden()
    assert errors == []
