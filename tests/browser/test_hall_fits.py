"""The hall uses its width before cutting text (issue 23, point 3): at 1920×1080 and
1280×720, with long real-looking names and clubs, nothing the tables and standings views show
is cut — no element whose content is wider than its box, no ellipsis — and every line of the
page shown lies inside its list.

Screenshots: hall-<view>-<width>x<height>.png in $HALL_SHOTS (when set) and test-artifacts/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from hall.models import HallScreen
from tests.factories import make_tournament, make_user, record
from tournaments.models import Club, Player, Registration, Seat, Session, Table

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
CLUBS = (
    "Yaniv Club Sint-Niklaas-Waasland",
    "Cercle de Yaniv de Louvain-la-Neuve",
    "Koninklijke Kaartersbond Oudenaarde",
)
# 24 players, six tables of four: the names a Belgian championship has, long ones first.
NAMES = (
    "Arne Vandamme-Verstraeten",
    "Noémie Dubois-Vanderhaegen",
    "Pieter-Jan Van den Broecke",
    "Sofie Vanhoutteghem",
    "Jean-Baptiste Delacroix-Lambert",
    "Elif Yılmaz-Demirkıran",
    "Maximiliaan Vercruysse",
    "Anne-Catherine Vandewalle",
    "Hélène Declercq-Vandenbussche",
    "Bart Wouters",
    "Karel Goossens",
    "Lotte Mertens",
    "Guillaume de Ghellinck d'Elseghem",
    "Inès Van Oudenhove",
    "Jürgen Schoonbaert",
    "Frank Peeters",
    "Ann Claes",
    "Dirk Maes",
    "Eva Jacobs",
    "Gina Willems",
    "Chris De Smet",
    "Hans Vermeulen",
    "Ruth Verbeke",
    "Tom Lemmens",
)

# What a page measures: every element of the header and the view shown whose content is
# wider than its box (cut or spilling over), or that an ellipsis shortens; every line of
# the list outside the list's box; and the page wider or taller than the window.
MEASURE = """() => {
  const cut = [];
  const view = [...document.querySelectorAll('#screen .view')].find(v => !v.hidden);
  const where = el => (el.className || el.tagName) + ': ' + el.textContent.trim().slice(0, 60);
  for (const root of [document.querySelector('.hall-head'), view]) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (el.closest('[hidden]')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.display === 'inline') continue;
      if (el.scrollWidth > el.clientWidth + 1) cut.push('wider than its box: ' + where(el));
      if (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)
        cut.push('ellipsis: ' + where(el));
    }
  }
  const list = view.querySelector('.pages');
  if (list) {
    const box = list.getBoundingClientRect();
    for (const li of list.children) {
      if (li.hidden) continue;
      const r = li.getBoundingClientRect();
      if (r.bottom > box.bottom + 1 || r.right > box.right + 1) cut.push('outside: ' + where(li));
    }
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > innerWidth + 1 || page.scrollHeight > innerHeight + 1)
    cut.push('the page scrolls');
  return cut;
}"""


# The club names and game counts, read from the back of the hall: their size against the
# body's and their contrast with the background (WCAG's ratio).
LEGIBILITY = """() => {
  const luminance = color => {
    const [r, g, b] = color.match(/\\d+/g).slice(0, 3).map(Number).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = luminance(getComputedStyle(document.body).backgroundColor);
  const body = parseFloat(getComputedStyle(document.body).fontSize);
  const shown = '.standings-list li:not([hidden]) :is(.name small, .games)';
  return [...document.querySelectorAll(shown)]
    .map(el => {
      const style = getComputedStyle(el);
      const ratio = (luminance(style.color) + 0.05) / (background + 0.05);
      return [parseFloat(style.fontSize) / body, ratio];
    });
}"""


def play_out(table: Table, by) -> None:
    """Four rounds: seat 1 calls Yaniv with 0, seat n holds 5 × (n − 1), the last seat 45:
    the last seat passes the limit and the game is over, ranked as the seats sit."""
    names = [seat.player.name for seat in table.seats.order_by("position")]
    hands = {name: 5 * index for index, name in enumerate(names)}
    hands[names[-1]] = 45
    record(table.game, by, *[{"hands": hands, "yaniv": names[0]}] * 4)


@pytest.fixture
def championship(transactional_db):
    """Session 1 running: tables 1–4 finished, 5 and 6 one round in; a player withdrew."""
    referee = make_user("ref-fits")
    tournament = make_tournament(
        name="Belgisch Kampioenschap Yaniv 2026 — Sint-Niklaas", slug="bk-fits"
    )
    clubs = [Club.objects.create(name=name) for name in CLUBS]
    players = [
        Player.objects.create(name=name, club=clubs[index % len(clubs)])
        for index, name in enumerate(NAMES)
    ]
    for player in players:
        Registration.objects.create(tournament=tournament, player=player, checked_in=True)
    session = Session.objects.create(
        tournament=tournament, number=1, status=Session.Status.RUNNING
    )
    tables = Table.objects.create_with_games(
        Table(session=session, number=number, referee=referee) for number in range(1, 7)
    )
    for index, table in enumerate(tables):
        for position, player in enumerate(players[index * 4 : index * 4 + 4], start=1):
            Seat.objects.create(table=table, position=position, player=player)
    for table in tables[:4]:
        play_out(table, referee)
    for table in tables[4:]:
        names = [seat.player.name for seat in table.seats.order_by("position")]
        hands = dict(zip(names, (2, 17, 23, 30), strict=True))
        record(table.game, referee, {"hands": hands, "yaniv": names[0]})
    Registration.objects.get(tournament=tournament, player=players[9]).withdraw(
        "a train to catch", by=None
    )
    return tournament


def save_shot(page: Page, name: str) -> None:
    for folder in filter(None, (os.environ.get("HALL_SHOTS"), str(ARTIFACTS))):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=Path(folder) / f"{name}.png")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("view", ["tables", "standings"])
def test_nothing_the_hall_shows_is_cut_on_a_projector_or_a_laptop(
    live_server, new_context, championship, view
):
    HallScreen.objects.create(tournament=championship, number=1, pinned=view, paused=True)
    url = live_server.url + reverse("public:hall", args=[championship.slug])
    for size in SIZES:
        page = new_context(viewport=size).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.goto(url)
        shown = page.locator(f".view-{view}")
        expect(shown).to_be_visible()
        if view == "tables":
            # The winner's whole name, as the issue saw it cut.
            expect(shown).to_contain_text("Winner: Arne Vandamme-Verstraeten 0")
            expect(shown).to_contain_text("Leads: Ann Claes 0")
        else:
            expect(shown).to_contain_text("Cercle de Yaniv de Louvain-la-Neuve")
            expect(shown.locator("li.withdrawn")).to_contain_text("Bart Wouters withdrawn")
            legible = page.evaluate(LEGIBILITY)
            assert len(legible) >= 8
            for size_ratio, contrast in legible:
                assert size_ratio >= 0.79 and contrast >= 13, (size_ratio, contrast)
        pages = int(page.evaluate(f"document.querySelector('.view-{view}').pages"))
        for number in range(pages):
            assert page.evaluate(MEASURE) == [], (size, number)
            if number + 1 < pages:
                page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")  # back to the first page
        save_shot(page, f"hall-{view}-{size['width']}x{size['height']}")
        assert errors == []
        page.close()
