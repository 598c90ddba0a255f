"""Check-in at the door in a real browser, on a phone (issue 38): the hall screen shows the
door's QR code, a player's phone opens what it encodes, finds a name, is refused a wrong
member number, checks in, undoes it and checks in again, by touch and by keyboard, with no
serious accessibility violation; and a club night run as a director with self check-in, a
penalty and a substitute, its pages, clicks and fields counted beside the same night run as
the site allowed before (the director ticking every player in)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser.test_accessibility import BLOCKING, axe_violations
from tests.browser.test_club_night import screenshot
from tests.factories import make_tournament, make_user, record
from tournaments.models import (
    Adjustment,
    Door,
    Player,
    Registration,
    Seat,
    Substitution,
    Tournament,
)
from tournaments.qr import qr_svg

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
REGULARS = [("Ann Claes", "G-1"), ("Bart Janssens", "G-2"), ("Chris Wouters", "G-3")]
REGULARS += [("Dirk Maes", "G-4")]
WALK_INS = [("Eva Smet", "G-5"), ("Fien Peeters", "G-6")]


def club_night(slug: str = "club-night", name: str = "Club night") -> tuple[Tournament, Any]:
    """A club's evening in preparation: its director, the regulars registered beforehand
    (the same players on a second evening)."""
    director = make_user(f"dir-{slug}")
    tournament = make_tournament(
        name=name,
        slug=slug,
        status=Tournament.Status.DRAFT,
        directors=[director],
        session_count=1,
        table_size=3,
    )
    for player_name, number in REGULARS:
        player, _ = Player.objects.get_or_create(name=player_name, member_number=number)
        Registration.objects.create(tournament=tournament, player=player)
    return tournament, director


def registration_of(first_name: str) -> int:
    return Registration.objects.get(player__name__startswith=first_name).pk


def path_of(svg: str) -> str:
    """The dark modules of a QR code as drawn (tournaments.qr: one path)."""
    found = re.search(r'<path[^>]* d="([^"]+)"', svg)
    assert found, svg[:200]
    return found.group(1)


def the_hall_shows_the_code(new_context, base: str, tournament, address: str) -> None:
    """The hall screen shows the door's QR code: it encodes the door's short address."""
    hall: Page = new_context(viewport={"width": 1280, "height": 720}).new_page()
    hall.goto(base + reverse("public:hall", args=[tournament.slug]))
    code = hall.locator(".view-checkin")
    expect(code.locator("svg")).to_have_count(1)
    expect(code).to_contain_text(address.split("://")[1].rstrip("/"))
    drawn = code.locator("svg path").get_attribute("d")
    assert drawn == path_of(qr_svg(address, size=320))


def no_serious_violation(new_context, address: str) -> None:
    """axe-core on the door's pages at a phone's size, injected into the page (the site's CSP
    allows no inline script: bypassed here); nothing wider than the screen."""
    audit = new_context(**PHONE, bypass_csp=True).new_page()
    for url in (address, address + "?q=cla", f"{address}players/{registration_of('Ann')}/"):
        audit.goto(url)
        blocking = [v for v in axe_violations(audit) if v["impact"] in BLOCKING]
        assert blocking == [], (url, blocking)
        assert audit.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.django_db(transaction=True)
def test_a_player_checks_in_by_the_qr_code_on_a_phone(live_server, new_context):
    tournament, _ = club_night()
    door = Door.of(tournament)
    door.set_up(is_open=True, safeguard=Door.Safeguard.MEMBER_NUMBER)
    address = f"{live_server.url}/in/{door.code}/"

    the_hall_shows_the_code(new_context, live_server.url, tournament, address)
    no_serious_violation(new_context, address)

    phone_context: BrowserContext = new_context(**PHONE)
    phone = phone_context.new_page()
    problems: list[str] = []
    phone.on("pageerror", lambda error: problems.append(str(error)))
    phone.on(
        "console",
        lambda message: (
            problems.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    phone.goto(address)
    expect(phone.get_by_role("heading", name="Check in")).to_be_visible()

    # Two letters find the name as they are typed (htmx); a tap opens it.
    phone.get_by_label("Your name").fill("cl")
    ann = phone.locator("#door-results").get_by_role("link", name=re.compile("Ann Claes"))
    expect(ann).to_be_visible()
    screenshot(phone, "door-phone-search")
    ann.tap()
    expect(phone.get_by_role("heading", name="Ann Claes")).to_be_visible()

    # A wrong member number: said where it was typed, nothing saved.
    phone.get_by_label("Your member number").fill("G-9")
    phone.get_by_role("button", name="Check in Ann Claes").tap()
    expect(
        phone.get_by_text("That is not the member number we have for Ann Claes.")
    ).to_be_visible()
    assert not Registration.objects.get(player__name="Ann Claes").checked_in

    # By keyboard: the number, Enter.
    field_ = phone.get_by_label("Your member number")
    field_.fill("g 1")
    field_.press("Enter")
    expect(phone.locator("#door-card [role=status]")).to_contain_text("Checked in at")
    ann_registration = Registration.objects.get(player__name="Ann Claes")
    assert ann_registration.checked_in and ann_registration.checked_in_how == "member_number"

    # Tapped by mistake: the phone undoes it, then checks in again.
    screenshot(phone, "door-phone-checked-in")
    phone.get_by_role("button", name="Not me: undo").tap()
    expect(phone.get_by_role("button", name="Check in Ann Claes")).to_be_visible()
    assert not Registration.objects.get(player__name="Ann Claes").checked_in
    phone.get_by_label("Your member number").fill("G-1")
    phone.get_by_role("button", name="Check in Ann Claes").tap()
    expect(phone.get_by_role("button", name="Not me: undo")).to_be_visible()

    # In Dutch, the phone's language.
    phone.get_by_role("button", name="NL").tap()
    expect(phone.get_by_role("button", name="Niet ik: ongedaan maken")).to_be_visible()
    assert problems == []


# --- a club night as a director, counted -------------------------------------------------------


@dataclass
class Director:
    """The director's browser, counting what they do: the pages loaded (documents, not the
    parts htmx swaps), the clicks (a tap, a button, a box or a choice ticked) and the fields
    typed in or chosen from a list."""

    page: Page
    pages: int = 0
    clicks: int = 0
    fields: int = 0
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.on("framenavigated", self._loaded)

    def _loaded(self, frame: Any) -> None:
        if frame == self.page.main_frame:
            self.pages += 1
            self.log.append(f"page {frame.url}")

    def goto(self, url: str) -> None:
        """Typed in the address bar (a bookmark): one page, no click."""
        self.page.goto(url)

    def click(self, target: Locator) -> None:
        self.clicks += 1
        target.click()

    def check(self, target: Locator) -> None:
        self.clicks += 1
        target.check()

    def fill(self, target: Locator, value: str) -> None:
        self.fields += 1
        target.fill(value)

    def choose(self, target: Locator, value: str) -> None:
        self.fields += 1
        target.select_option(label=value)

    @property
    def figures(self) -> tuple[int, int, int]:
        return self.pages, self.clicks, self.fields

    def since(self, before: tuple[int, int, int]) -> tuple[int, int, int]:
        """What was done since `before` (figures taken then)."""
        return tuple(now - then for now, then in zip(self.figures, before, strict=True))  # type: ignore[return-value]


def start_the_night(desk: Director, base: str, director) -> None:
    """Log in, to the club night's players' page."""
    desk.goto(base + reverse("login"))
    desk.fill(desk.page.get_by_label("Username"), director.get_username())
    desk.fill(desk.page.get_by_label("Password"), "a-long-test-password")
    desk.click(desk.page.get_by_role("button", name="Log in"))
    desk.click(desk.page.get_by_role("link", name="Manage"))
    desk.click(desk.page.get_by_role("link", name=re.compile("Club night")))


def draw_and_start(desk: Director) -> None:
    desk.click(desk.page.get_by_role("button", name="Draw session 1"))
    expect(desk.page.get_by_role("heading", name=re.compile("^Session 1"))).to_be_visible()
    desk.click(desk.page.get_by_role("button", name="Start session 1"))
    expect(desk.page.get_by_role("heading", name=re.compile("^Session 1"))).to_contain_text(
        "running"
    )


def phone_checks_in(context: BrowserContext, address: str, name: str, number: str) -> None:
    phone = context.new_page()
    phone.goto(address)
    phone.get_by_label("Your name").fill(name[:3])
    phone.locator("#door-results").get_by_role("link", name=re.compile(name)).tap()
    phone.get_by_label("Your member number").fill(number)
    phone.get_by_role("button", name=f"Check in {name}").tap()
    expect(phone.locator("#door-card [role=status]")).to_contain_text("Checked in at")
    phone.close()


def phone_registers(context: BrowserContext, address: str, name: str, number: str) -> None:
    phone = context.new_page()
    phone.goto(address)
    phone.get_by_role("link", name="Not on the list? Register").tap()
    phone.get_by_label("Your name").fill(name)
    phone.get_by_label("Club").fill("Gent")
    phone.get_by_label("Member number").fill(number)
    phone.get_by_role("button", name="Register").tap()
    expect(phone.locator("#door-status")).to_contain_text("registered and checked in")
    phone.close()


def play_a_round(tournament: Tournament) -> Seat:
    """The tables' first rounds, entered at the tables (not the director's work); the seat of
    the first table's second player."""
    for seat in Seat.objects.filter(table__session__tournament=tournament, position=1):
        names = list(seat.table.seats.order_by("position").values_list("player__name", flat=True))
        hands = dict.fromkeys(names, 9) | {names[0]: 1}
        record(seat.table.game, None, {"hands": hands, "yaniv": names[0]})
    return Seat.objects.get(table__session__tournament=tournament, table__number=1, position=2)


def the_night_with_the_door(
    desk: Director, base: str, director, tournament, new_context
) -> dict[str, tuple[int, int, int]]:
    """The night with the door: its parts' figures (check-in, penalty, substitute)."""
    parts = {}
    start_the_night(desk, base, director)
    page = desk.page
    before = desk.figures
    desk.click(page.get_by_role("link", name="Check-in at the door"))
    desk.check(page.get_by_label("Check-in open"))
    desk.check(page.get_by_label("Their member number"))
    desk.check(page.get_by_label("Yes, up to a number of players, then a waiting list"))
    desk.fill(page.get_by_label("Players at most"), "12")
    desk.click(page.get_by_role("button", name="Save", exact=True))
    expect(page.get_by_role("heading", name="Check-in is open")).to_be_visible()
    address = page.locator(".door-address .code-link").get_attribute("href") or ""
    # The players, each on their own phone.
    phones = new_context(**PHONE)
    for name, number in REGULARS:
        phone_checks_in(phones, address, name, number)
    for name, number in WALK_INS:
        phone_registers(phones, address, name, number)
    expect(page.locator("#door-list .counts")).to_contain_text("6 of 6 checked in", timeout=20_000)
    desk.click(page.get_by_role("link", name="Club night"))
    parts["check-in"] = desk.since(before)
    draw_and_start(desk)
    # A round later: a penalty, then a substitute for a player who must leave.
    seat = play_a_round(tournament)
    before = desk.figures
    desk.click(page.get_by_role("link", name=re.compile("seats, points, substitute")).first)
    points = page.locator("form[action$='/seats/points/']")
    desk.choose(
        points.get_by_label("Seat:", exact=True),
        f"Seat 3: {seat.table.seats.get(position=3).player.name}",
    )
    desk.fill(points.get_by_label("Points:", exact=True), "10")
    desk.choose(points.get_by_label("Reason"), "late")
    desk.click(points.get_by_role("button", name="Give the points"))
    expect(page.locator("#seats .notice")).to_contain_text("+10 game points")
    parts["penalty"] = desk.since(before)
    before = desk.figures
    substitute = page.locator("form[action$='/seats/substitute/']")
    desk.choose(
        substitute.get_by_label("Seat of the player who leaves"), f"Seat 2: {seat.player.name}"
    )
    desk.fill(substitute.get_by_label("New player's name"), "Gust Maes")
    desk.click(substitute.get_by_role("button", name="Bring in the substitute"))
    expect(page.locator("#seats .notice")).to_contain_text("Gust Maes plays for")
    parts["substitute"] = desk.since(before)
    return parts


def the_night_as_before(
    desk: Director, base: str, director, tournament
) -> dict[str, tuple[int, int, int]]:
    """The same night as the site allowed before: the director registers the walk-ins and
    ticks every player in; no penalty (on paper), no substitute (the player withdraws)."""
    start_the_night(desk, base, director)
    page = desk.page
    before = desk.figures
    for name, number in WALK_INS:
        form = page.locator("#add-player").locator("xpath=following-sibling::form[1]")
        desk.fill(form.get_by_label("Name:", exact=True), name)
        desk.fill(form.get_by_label("Club"), "Gent")
        desk.fill(form.get_by_label("Member number"), number)
        desk.click(form.get_by_role("button", name="Register the player"))
        expect(page.get_by_text(re.compile(f"{name} is registered"))).to_be_visible()
    for name, _ in REGULARS + WALK_INS:
        desk.click(page.get_by_role("button", name=f"Check in {name}"))
        expect(page.get_by_role("button", name=f"✓ Checked in {name}")).to_be_visible()
    parts = {"check-in": desk.since(before)}
    draw_and_start(desk)
    return parts


@pytest.mark.django_db(transaction=True)
def test_a_club_night_with_self_check_in_a_penalty_and_a_substitute_counted(
    live_server, new_context, capsys, settings
):
    settings.LIVE_POLL_SECONDS = 1
    tournament, director = club_night()
    desk = Director(new_context().new_page())
    door_parts = the_night_with_the_door(desk, live_server.url, director, tournament, new_context)
    door = desk.figures
    assert Registration.objects.filter(tournament=tournament, checked_in=True).count() == 7
    assert set(
        Registration.objects.filter(tournament=tournament).values_list("checked_in_how", flat=True)
    ) == {"member_number", "registered", "desk"}
    assert Adjustment.objects.get().points == 10
    assert Substitution.objects.get().player_in.name == "Gust Maes"

    other, other_director = club_night("club-night-before", "Club night before")
    before = Director(new_context().new_page())
    today_parts = the_night_as_before(before, live_server.url, other_director, other)
    today = before.figures
    with capsys.disabled():
        print(
            f"\nclub night, 6 players (4 registered beforehand, 2 at the door), the director's "
            f"(pages, clicks, fields): with the door, a penalty and a substitute {door} "
            f"{door_parts}; as before (every player ticked, the walk-ins typed in; no penalty, "
            f"no substitute: not possible) {today} {today_parts}"
        )
    # The door: open it (the link, three choices, the number, Save, back): whatever the
    # number of players. Before: a page, a click and three fields per walk-in, and a click
    # per player.
    assert door_parts["check-in"] == (2, 6, 1)
    walk_ins, players = len(WALK_INS), len(REGULARS) + len(WALK_INS)
    assert today_parts["check-in"] == (walk_ins, walk_ins + players, 3 * walk_ins)
    # A penalty: the table's seats page, three fields and a button; a substitute: two
    # fields (the seat, a new player's name) and a button, on the same page.
    assert door_parts["penalty"] == (1, 2, 3)
    assert door_parts["substitute"] == (0, 1, 2)
