"""A whole championship day in a real browser (issue 15.3 and 15.4): two qualifying sessions
with a withdrawal and a late player between them, then a final, ending with the standings a
referee would work out by hand.

The director draws, starts and finishes every session, withdraws a player and checks a late
one in on the dashboard, and opens the final there; the referee plays table 1 of session 1
and the final table on a phone; the other tables are recorded through the model (`record`)
to keep the test short. The expected standings are computed here from docs/standings.md
and scoring/finals.py's carry-over rule, from the totals this test typed in, never from
the site's standings code; the page must show exactly them.

Screenshot (test-artifacts/): championship-day-final-standings.png.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.test_championship_referee import watch
from tests.browser.test_offline import log_in
from tests.browser.test_referee_plays_a_game import fill_round, record_round
from tests.factories import make_tournament, make_user, record
from tournaments.models import Player, Registration, Seat, Session, Table, Tournament

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
NAMES = [
    "Ann Claes",
    "Bart Peeters",
    "Chris Maes",
    "Dirk Jacobs",
    "Eva Mertens",
    "Frank Willems",
    "Gina Goossens",
    "Hélène Dubois",
    "Inès Wouters",
    "Jürgen De Smet",
    "Karel Janssens",
    "Lotte Smet",
    "Mia Lambert",
    "Nico Vermeulen",
]
LATE = "Nico Vermeulen"  # registered, checked in after session 1
INDEX = {name: index for index, name in enumerate(NAMES)}
FINALISTS = 4


# --- the games this test plays: simple rounds whose totals are easy to add up by hand ----------


def game_rounds(order: list[str]) -> list[dict[str, Any]]:
    """The rounds of a game whose players finish in `order` (best first) with no reduction.

    Every round the first player calls Yaniv with 1–3 and scores 0; the others score their
    hands: the last one 40 and more, so the game ends in round 4 above 150; at a table of 5
    the middle two get the same hands (a shared rank). A few points by player (their index)
    keep totals apart across tables.
    """
    caller, *others = order
    bases = {2: [14, 40], 3: [5, 19, 40], 4: [5, 19, 19, 40]}[len(others)]
    tied = len(others) == 4
    hand = {
        player: base + (0 if tied and position in (1, 2) else INDEX[player] % 6)
        for position, (player, base) in enumerate(zip(others, bases, strict=True))
    }
    return [{"hands": {caller: 1 + number % 3, **hand}, "yaniv": caller} for number in range(1, 5)]


def totals_of(rounds: list[dict[str, Any]]) -> dict[str, int]:
    """The totals by the Belgian rules for these plain rounds: the caller 0, the others their
    hand; no total lands on 50, 100 or 150 (no reduction), the last round goes above 150."""
    totals: dict[str, int] = defaultdict(int)
    for number, entry in enumerate(rounds, start=1):
        for player, hand in entry["hands"].items():
            totals[player] += 0 if player == entry["yaniv"] else hand
            assert totals[player] not in (50, 100, 150)
        assert (max(totals.values()) > 150) == (number == len(rounds))
    return dict(totals)


def session_order(names: list[str], session: int) -> list[str]:
    """Who plays best at their table in a qualifying session (a different mix each time)."""
    step = {1: 5, 2: 3}[session]
    return sorted(names, key=lambda name: (INDEX[name] * step + session) % 17)


# --- the standings a referee works out by hand (docs/standings.md, scoring/finals.py) ---------


@dataclass
class Line:
    name: str
    points: Fraction = Fraction(0)
    games: int = 0
    wins: int = 0
    total_sum: int = 0
    opponents: Fraction = Fraction(0)
    place: int = 0

    def key(self) -> tuple[Fraction, int, int, Fraction]:
        return (-self.points, -self.wins, self.total_sum, -self.opponents)


def table_points(totals: dict[str, int]) -> dict[str, tuple[int, Fraction]]:
    """Each player's rank (lowest total first, equal totals sharing) and placement points:
    one for every player beaten, half for every other player on the same total."""
    result = {}
    for player, total in totals.items():
        beaten = sum(1 for other in totals.values() if other > total)
        equal = sum(1 for other in totals.values() if other == total) - 1
        rank = 1 + sum(1 for other in totals.values() if other < total)
        result[player] = (rank, beaten + Fraction(equal, 2))
    return result


def by_hand(games: list[dict[str, int]]) -> list[Line]:
    lines: dict[str, Line] = {}
    for totals in games:
        for player, (rank, points) in table_points(totals).items():
            line = lines.setdefault(player, Line(player))
            line.points += points
            line.games += 1
            line.wins += rank == 1
            line.total_sum += totals[player]
    for totals in games:
        for player in totals:
            lines[player].opponents += sum(lines[o].points for o in totals if o != player)
    ordered = sorted(lines.values(), key=lambda line: (line.key(), line.name))
    for index, line in enumerate(ordered, start=1):
        shared = index > 1 and ordered[index - 2].key() == line.key()
        line.place = ordered[index - 2].place if shared else index
    return ordered


def shown(points: Fraction | int) -> str:
    """Points as the site prints them: 3, 2.5."""
    return str(int(points)) if points == int(points) else str(float(points))


# --- the browser's steps ---------------------------------------------------------------------


def start_session(desk: Page, number: int) -> None:
    """On the session page: the referee for table 1, then Start (which saves the choice)."""
    desk.locator("select[name=referee_1]").select_option(label="ref-day")
    desk.get_by_role("button", name=f"Start session {number}").click()
    heading = desk.get_by_role("heading", name=re.compile(f"^Session {number}"))
    expect(heading).to_contain_text("running")


def finish_session(
    desk: Page, base: str, tournament: Tournament, number: int, *, final: bool = False
) -> None:
    desk.goto(base + reverse("manage:session", args=[tournament.slug, number]))
    # The final's button says it finishes the tournament with it.
    name = "Finish the final and the tournament" if final else f"Finish session {number}"
    desk.get_by_role("button", name=name).click()
    heading = desk.get_by_role("heading", name=re.compile(f"^Session {number}"))
    expect(heading).to_contain_text("finished")


def seated(table: Table) -> list[str]:
    return list(
        Seat.objects.filter(table=table)
        .order_by("position")
        .values_list("player__name", flat=True)
    )


def play_on_the_phone(phone: Page, base: str, table: Table, order: list[str]) -> dict[str, int]:
    """The referee plays the table's game through its page and signs the sheet off."""
    players = seated(table)
    rounds = game_rounds(order)
    phone.goto(base + table.get_absolute_url())
    form = phone.locator("#round-form")
    for number, entry in enumerate(rounds, start=1):
        expect(form.get_by_role("heading", name=f"Round {number}")).to_be_visible()
        fill_round(form, players, entry)
        record_round(phone, number)
    expect(phone.locator(".result")).to_contain_text("The game is over.")
    totals = totals_of(rounds)
    expect(phone.locator(".seat-total")).to_have_text([str(totals[p]) for p in players])
    phone.get_by_role("button", name="Sign off the sheet").click()
    expect(phone.locator(".sign-off")).to_have_count(0)
    return totals


def play_by_the_model(table: Table, order: list[str], referee: Any) -> dict[str, int]:
    rounds = game_rounds(order)
    record(table.game, referee, *rounds)
    table.game.refresh_from_db()
    assert table.game.finished
    table.game.sign_off(by=referee, version=table.game.version)
    return totals_of(rounds)


def play_session(
    phone: Page, base: str, session: Session, referee: Any, on_the_phone: bool
) -> list[dict[str, int]]:
    """Every table of the session played out; their final totals, checked against the
    database's."""
    results = []
    for table in session.tables.order_by("number"):
        players = seated(table)
        assert 3 <= len(players) <= 5, players
        order = [name for name in session_order(NAMES, session.number) if name in players]
        if on_the_phone and table.number == 1:
            totals = play_on_the_phone(phone, base, table, order)
        else:
            totals = play_by_the_model(table, order, referee)
        stored = dict(Seat.objects.filter(table=table).values_list("player__name", "total"))
        assert stored == totals
        results.append(totals)
    return results


def rows(page: Page, selector: str) -> list[list[str]]:
    """A table's body as the cells' texts (the player's name alone, without club or mark)."""
    return page.evaluate(
        """selector => [...document.querySelectorAll(selector + ' tbody tr')].map(tr =>
             [...tr.children].map(cell => {
               const name = cell.querySelector('bdi');
               return (name ? name.textContent : cell.textContent).trim();
             }))""",
        selector,
    )


@pytest.mark.django_db(transaction=True)
def test_a_championship_day_ends_with_the_standings_a_referee_works_out(live_server, new_context):
    base = live_server.url
    director = make_user("dir-day")
    referee = make_user("ref-day")
    tournament = make_tournament(
        name="Belgian Championship",
        slug="bk-day",
        directors=[director],
        session_count=2,
        final_players=FINALISTS,
        final_tables=1,
        final_carry_over="placement",
    )
    tournament.referees.add(referee)
    for name in NAMES:
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(name=name), checked_in=name != LATE
        )
    problems: list[str] = []
    desk = new_context().new_page()
    watch(desk, problems)
    log_in(desk, base, director)
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch(phone, problems)
    log_in(phone, base, referee)
    dashboard = base + reverse("manage:tournament", args=[tournament.slug])

    # --- session 1: 13 checked in, tables of 3 to 5 around 4 ---------------------------------
    desk.goto(dashboard)
    expect(desk.locator("#counts")).to_contain_text("14 registered · 13 checked in")
    # A seed of our own: the same seating every run (the players are made in the same order).
    desk.get_by_label("Seed").fill("11")
    desk.get_by_role("button", name="Draw session 1").click()
    start_session(desk, 1)
    first = Session.objects.get(tournament=tournament, number=1)
    sizes = sorted(len(seated(table)) for table in first.tables.all())
    assert sizes == [4, 4, 5]
    assert LATE not in {name for table in first.tables.all() for name in seated(table)}
    qualifying = play_session(phone, base, first, referee, on_the_phone=True)
    finish_session(desk, base, tournament, 1)

    # --- between the sessions: the best player of session 1 withdraws, the late one arrives -----
    leader = by_hand(qualifying)[0].name
    desk.goto(dashboard)
    entry = desk.locator(".registration", has_text=leader)
    entry.locator("summary", has_text="Withdraw").click()
    entry.get_by_label("Reason").fill("had to leave for a family matter")
    entry.get_by_role("button", name=f"Withdraw {leader}").click()
    expect(entry).to_contain_text("Withdrawn at")
    expect(entry).to_contain_text("had to leave for a family matter")
    expect(entry.get_by_role("button", name=f"Return {leader}")).to_be_visible()
    expect(desk.locator("#counts")).to_contain_text("12 checked in · 1 withdrawn")
    desk.get_by_role("button", name=f"Check in {LATE}").click()
    expect(desk.get_by_role("button", name=f"✓ Checked in {LATE}")).to_be_visible()
    expect(desk.locator("#counts")).to_contain_text("13 checked in · 1 withdrawn")

    # --- session 2: the withdrawn player is not drawn, the late one is --------------------------
    desk.get_by_label("Seed").fill("12")
    desk.get_by_role("button", name="Draw session 2").click()
    second = Session.objects.get(tournament=tournament, number=2)
    drawn = [name for table in second.tables.all() for name in seated(table)]
    assert leader not in drawn and LATE in drawn
    assert sorted(drawn) == sorted(name for name in NAMES if name != leader)
    assert sorted(len(seated(table)) for table in second.tables.all()) == [4, 4, 5]
    expect(desk.locator("body")).not_to_contain_text(leader)
    start_session(desk, 2)
    qualifying += play_session(phone, base, second, referee, on_the_phone=False)
    finish_session(desk, base, tournament, 2)

    # --- the qualifying standings by hand; the final's players, the withdrawn one left out ------
    expected = by_hand(qualifying)
    eligible = [line for line in expected if line.name != leader]
    # A place shared across the cut would need the director (scoring.finals): not here.
    assert eligible[FINALISTS - 1].place != eligible[FINALISTS].place
    finalists = [line.name for line in eligible[:FINALISTS]]

    desk.goto(dashboard)
    desk.get_by_role("button", name=f"Open the final: the best {FINALISTS} players").click()
    final = Session.objects.get(tournament=tournament, stage=Session.Stage.FINAL)
    assert final.number == 3
    (final_table,) = final.tables.all()
    # Seated by standings: the best first.
    assert seated(final_table) == finalists
    start_session(desk, 3)

    # --- the final: the fourth qualifier wins it, the first comes last --------------------------
    final_totals = play_on_the_phone(phone, base, final_table, list(reversed(finalists)))
    finish_session(desk, base, tournament, 3, final=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    # The finalists: qualifying placement points + the final's, then the better qualifying
    # place; everyone else after them in qualifying order.
    line_of = {line.name: line for line in expected}
    final_points = table_points(final_totals)

    def final_key(name: str) -> tuple[Fraction, int]:
        return (-(line_of[name].points + final_points[name][1]), line_of[name].place)

    ranked_final = sorted(finalists, key=final_key)
    want_final: list[list[str]] = []
    for index, name in enumerate(ranked_final, start=1):
        same = index > 1 and final_key(ranked_final[index - 2]) == final_key(name)
        place = want_final[-1][0] if same else str(index)
        score = line_of[name].points + final_points[name][1]
        want_final.append([place, name, "Final", shown(score)])
    rest = [line for line in expected if line.name not in finalists]
    for index, line in enumerate(rest, start=len(finalists) + 1):
        same = index > len(finalists) + 1 and rest[index - len(finalists) - 2].place == line.place
        place = want_final[-1][0] if same else str(index)
        want_final.append([place, line.name, "Qualifying", shown(line.points)])

    # --- the standings page shows exactly that ---------------------------------------------------
    page = new_context().new_page()
    watch(page, problems)
    page.goto(base + reverse("public:standings", args=[tournament.slug]))
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    assert rows(page, "table.final-standings") == want_final
    assert [row[1] for row in want_final[:FINALISTS]] == ranked_final
    assert rows(page, "table.standings:not(.final-standings)") == [
        [
            str(line.place),
            line.name,
            shown(line.points),
            str(line.games),
            str(line.wins),
            str(line.total_sum),
            shown(line.opponents),
        ]
        for line in expected
    ]
    # The withdrawn player is marked, and only them; the late player has one game.
    marked = page.locator("table.standings:not(.final-standings) tr.withdrawn")
    expect(marked).to_have_count(1)
    expect(marked.locator("bdi")).to_have_text(leader)
    expect(marked.locator(".withdrawn-mark")).to_have_text("withdrawn")
    # So is the final standings' table, where they rank among the rest.
    in_final_table = page.locator("table.final-standings tr.withdrawn")
    expect(in_final_table).to_have_count(1)
    expect(in_final_table.locator("bdi")).to_have_text(leader)
    expect(in_final_table.locator(".withdrawn-mark")).to_have_text("withdrawn")
    assert line_of[LATE].games == 1 and line_of[leader].games == 1
    page.set_viewport_size({"width": 1280, "height": 900})
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "championship-day-final-standings.png", full_page=True)
    assert problems == []
