"""Every public page follows the day from whatever state it was opened in (issue 33, points 2
and 3): a tournament is walked from its draft through two sessions and its final to its end;
at every step each public page is opened as anyone, and once the next step changed what it
shows, the page as opened must have asked again (`{% poll version %}`) and its poll, swapped
in, must show the page as it now is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from django.test import Client

from seasons.models import Season, SeasonTournament
from tests.factories import make_tournament, make_user, record
from tests.test_security import our_url_patterns, url_for
from tournaments.models import Club, Player, Registration, Session, Tournament

pytestmark = pytest.mark.django_db

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
UNREAD = {"script", "style", "template", "noscript", "title"}


class Reading(HTMLParser):
    """A page's visible text before, inside and after the element that polls (the first
    element asking its address again `every` few seconds), and that element's address."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: dict[str, list[str]] = {"before": [], "inside": [], "after": []}
        self.poll_url: str | None = None
        self._where = "before"
        self._depth = 0  # open elements inside the polling one
        self._unread = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # htmx's attributes by their own name, written with data- or not: "get", "trigger".
        found = {
            name.removeprefix("data-").removeprefix("hx-"): value or "" for name, value in attrs
        }
        if tag in UNREAD:
            self._unread += 1
        if tag in VOID:
            return
        if self._where == "inside":
            self._depth += 1
        elif self._where == "before" and "every" in found.get("trigger", ""):
            self.poll_url = found.get("get")
            self._where, self._depth = "inside", 1

    def handle_endtag(self, tag: str) -> None:
        if tag in UNREAD:
            self._unread -= 1
        if tag in VOID or self._where != "inside":
            return
        self._depth -= 1
        if self._depth == 0:
            self._where = "after"

    def handle_data(self, data: str) -> None:
        if not self._unread:
            self.parts[self._where].append(data)

    def text(self, where: tuple[str, ...] = ("before", "inside", "after")) -> str:
        return squeeze(" ".join(" ".join(self.parts[part]) for part in where))


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def read(html: str) -> Reading:
    reading = Reading()
    reading.feed(html)
    return reading


# --- the day, step by step ------------------------------------------------------------------

NAMES = ["Ann", "Bart", "Chris", "Dirk", "Eva", "Finn", "Gina", "Hugo"]


def play_out(session: Session, referee) -> None:
    """Every table's game to its end: the first seat calls with 0, the last goes over 150."""
    for table in session.tables.order_by("number"):
        names = [seat.player.name for seat in table.seats.order_by("position")]
        hands = [0, 1, 2, 3, 4][: len(names) - 1] + [45]
        entry = {"hands": dict(zip(names, hands, strict=True)), "yaniv": names[0]}
        while not table.game.finished:
            record(table.game, referee, entry)
            table.game.refresh_from_db()


def session(tournament: Tournament, number: int) -> Session:
    return tournament.sessions.get(number=number)


def the_day(tournament: Tournament, director, referee) -> list[tuple[str, Callable[[], object]]]:
    """Each step's name and what the director or a referee does."""

    def first_round() -> None:
        table = session(tournament, 1).tables.get(number=1)
        names = [seat.player.name for seat in table.seats.order_by("position")]
        hands = dict(zip(names, [1, 9, 8, 7], strict=True))
        record(table.game, referee, {"hands": hands, "yaniv": names[0]})

    def withdraw() -> None:
        tournament.registrations.get(player__name="Hugo").withdraw("ill", by=director)

    return [
        ("a late player registers", lambda: register(tournament, "Hugo")),
        ("session 1 drawn", lambda: tournament.open_session("random", 1) and None),
        ("session 1 started", lambda: session(tournament, 1).start(by=director)),
        ("a round recorded", first_round),
        ("session 1 played", lambda: play_out(session(tournament, 1), referee)),
        ("session 1 finished", lambda: session(tournament, 1).finish(by=director)),
        ("a player withdraws", withdraw),
        ("session 2 drawn", lambda: tournament.open_session("random", 2) and None),
        ("session 2 started", lambda: session(tournament, 2).start(by=director)),
        ("session 2 played", lambda: play_out(session(tournament, 2), referee)),
        ("session 2 finished", lambda: session(tournament, 2).finish(by=director)),
        ("the final drawn", lambda: tournament.open_final() and None),
        ("the final started", lambda: session(tournament, 3).start(by=director)),
        ("the final played", lambda: play_out(session(tournament, 3), referee)),
        ("the final finished", lambda: session(tournament, 3).finish(by=director)),
    ]


def register(tournament: Tournament, name: str) -> None:
    player = Player.objects.create(name=name)
    Registration.objects.create(tournament=tournament, player=player, checked_in=True)


# The public pages that show nothing a game, a session or a registration changes: forms,
# the rules, the web app's own files. Every other public page must follow the day.
STILL = {
    "public:rules",
    "public:tournament_rules",
    "public:offline",
    "public:season_new",
}


def public_pages(kwargs: dict) -> dict[str, str]:
    """Name → URL of every public page with the values given (the others need a key)."""
    pages = {}
    for name, pattern in our_url_patterns():
        if not name.startswith("public:") or name in STILL:
            continue
        downloads = str(pattern.pattern).endswith((".pdf", ".csv", ".js", ".ico"))
        if not downloads and set(pattern.pattern.converters) <= set(kwargs):
            pages[name] = url_for(name, pattern, kwargs)
    return pages


def opened(client: Client, url: str) -> str | None:
    """The page as a phone opens it, or None when it is no page (yet): a 404, a download."""
    response = client.get(url)
    if response.status_code != 200 or response.streaming:
        return None
    if "text/html" not in response.get("Content-Type", ""):
        return None
    text = response.content.decode()
    return text if "<html" in text else None


def test_every_public_page_shows_each_change_of_the_day_through_its_poll(settings):
    settings.LIVE_POLL_SECONDS = 2
    director, referee = make_user("director"), make_user("referee")
    tournament = make_tournament(
        slug="day", directors=[director], status=Tournament.Status.DRAFT, session_count=2
    )
    Tournament.objects.filter(pk=tournament.pk).update(final_players=4)
    tournament.refresh_from_db()
    tournament.referees.add(referee)
    for name in NAMES[:-1]:
        register(tournament, name)
    # Ann's club, and a season counting the tournament: their pages follow it too.
    club = Club.objects.create(name="Yaniv Gent")
    ann = Player.objects.get(name="Ann")
    Player.objects.filter(pk=ann.pk).update(club=club)
    season = Season.objects.create(name="Ranking", slug="day", club=club)
    SeasonTournament.objects.create(season=season, tournament=tournament)
    kwargs = {"slug": "day", "number": 1, "player_id": ann.pk, "club_id": club.pk}
    pages = public_pages(kwargs)
    assert {"public:home", "public:tournament", "public:standings", "public:player"} <= set(pages)
    phone = Client()
    shown = {name: opened(phone, url) for name, url in pages.items()}
    problems, followed = [], set()
    for step, act in the_day(tournament, director, referee):
        act()
        tournament.refresh_from_db()
        for name, url in pages.items():
            before, now = shown[name], opened(phone, url)
            shown[name] = now
            if before is None or now is None or read(before).text() == read(now).text():
                continue
            page = read(before)
            if page.poll_url is None:
                problems.append(f"{step}: {name} changed but never asks again")
                continue
            answer = phone.get(page.poll_url, headers={"HX-Request": "true"})
            if answer.status_code != 200:
                problems.append(f"{step}: {name}'s poll answered {answer.status_code}")
                continue
            swapped = squeeze(
                " ".join(
                    (
                        page.text(("before",)),
                        read(answer.content.decode()).text(),
                        page.text(("after",)),
                    )
                )
            )
            if swapped != read(now).text():
                problems.append(
                    f"{step}: {name} after its poll:\n{swapped}\n≠\n{read(now).text()}"
                )
            else:
                followed.add(name)
    assert problems == [], "\n\n".join(problems)
    assert {
        "public:home",
        "public:tournament",
        "public:standings",
        "public:session_standings",
        "public:players",
        "public:player",
        "public:hall",
        "public:hall_screen",
        "public:profile",
        "public:club",
        "public:season",
    } <= followed, sorted(followed)
