"""The public pages opened before the draw follow the whole day by themselves (issue 33): the
tournament's page, the standings, a player's page and the hall, opened while the tournament
is a draft and never reloaded, show the draw, the start, a round, the finished games, the
finished session, the final and the end within their poll interval (1 s here).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.test_championship_referee import watch
from tests.factories import make_tournament, make_user, record
from tests.tournaments.test_live_pages import play_out, register
from tournaments.models import Player, Tournament

NAMES = ["Ann", "Bart", "Chris", "Dirk", "Eva", "Finn", "Gina", "Hugo"]
# A poll a second, and time for the page to take it.
SOON = 6000  # ms: within one poll (1 s) and a slow machine's margin


def opened(context, url: str, problems: list[str]) -> Page:
    page = context.new_page()
    watch(page, problems)
    page.goto(url)
    return page


@pytest.mark.django_db(transaction=True)
def test_pages_opened_before_the_draw_show_every_change_of_the_day(
    live_server, new_context, settings
):
    settings.LIVE_POLL_SECONDS = 1
    director, referee = make_user("director-day"), make_user("referee-day")
    tournament = make_tournament(
        name="Day Open",
        slug="day-open",
        directors=[director],
        status=Tournament.Status.DRAFT,
        session_count=1,
    )
    Tournament.objects.filter(pk=tournament.pk).update(final_players=4)
    tournament.refresh_from_db()
    tournament.referees.add(referee)
    for name in NAMES:
        register(tournament, name)
    ann = Player.objects.get(name="Ann")
    problems: list[str] = []
    context = new_context()
    base = live_server.url
    page = opened(context, base + reverse("public:tournament", args=["day-open"]), problems)
    standings = opened(context, base + reverse("public:standings", args=["day-open"]), problems)
    player = opened(context, base + reverse("public:player", args=["day-open", ann.pk]), problems)
    hall = opened(context, base + reverse("public:hall", args=["day-open"]), problems)
    expect(page.locator("#live")).to_contain_text("The first session has not started yet.")
    expect(player.locator("#live")).to_contain_text("Ann has not been seated yet.")

    # The draw: the tournament's page lists the session, Ann's page her table and seat.
    session = tournament.open_session("random", 1)
    expect(page.locator("#live")).to_contain_text("Session 1: planned", timeout=SOON)
    table = session.tables.get(seats__player=ann)
    expect(player.locator("#live")).to_contain_text(
        re.compile(rf"Session 1 · table {table.number}, seat \d"), timeout=SOON
    )

    # The start: running everywhere, the standings' tab for session 1.
    session.start(by=director)
    expect(page.locator("#live")).to_contain_text("Session 1 running", timeout=SOON)
    expect(standings.locator("#live nav")).to_contain_text("Session 1", timeout=SOON)

    # A round at Ann's table: her page shows it.
    names = [seat.player.name for seat in table.seats.order_by("position")]
    hands = dict(zip(names, [1, 9, 8, 7], strict=True))
    record(table.game, referee, {"hands": hands, "yaniv": names[0]})
    expect(player.locator("#live")).to_contain_text(re.compile(r"after 1 round\b"), timeout=SOON)

    # Every game over: the standings rank everyone, Ann's page gives her rank.
    play_out(session, referee)
    expect(standings.locator("#live table.standings")).to_contain_text("Ann", timeout=SOON)
    expect(player.locator("#live")).to_contain_text("Place", timeout=SOON)
    session.finish(by=director)
    expect(page.locator("#live")).to_contain_text("Session 1: finished", timeout=SOON)

    # The final: drawn, played (the standings so far, then final), finished.
    final = tournament.open_final()
    final.start(by=director)
    expect(standings.locator("#live")).to_contain_text(
        "Standings so far · the final is being played", timeout=SOON
    )
    expect(hall.locator("[data-view=standings]")).to_have_attribute(
        "data-title", "Standings so far · the final is being played", timeout=SOON
    )
    play_out(final, referee)
    expect(standings.locator("#live h2").first).to_have_text("Final standings", timeout=SOON)
    expect(hall.locator("[data-view=standings]")).to_have_attribute(
        "data-title", "Final standings", timeout=SOON
    )
    final.finish(by=director)
    expect(page.locator("#live .meta").first).to_contain_text("Finished", timeout=SOON)
    # The same pages all along: never reloaded.
    for each in (page, standings, player, hall):
        assert each.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert problems == []
