"""A club night with penalty points and a substitute, as every product shows it: the standings
page and its marks, the hall, the standings and sheet PDFs, the CSV files, the API, and the
JSON archive read back into an empty site with all of it (check-in at the door too)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from hall.board import board
from hall.models import HallScreen
from printing import archive, archive_import, pdfs
from tests.factories import make_table, make_user, record
from tests.printing.test_downloads import csv_rows
from tests.printing.test_printing import pdftotext, squeeze
from tournaments import checkin
from tournaments.models import (
    Adjustment,
    Door,
    EntryRequest,
    Player,
    Registration,
    Seat,
    Substitution,
    Tournament,
)
from tournaments.models.substitutions import swap_seats
from tournaments.sheets import GameSheet

pytestmark = pytest.mark.django_db

ROUND = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}
WITH_FIEN = {"hands": {"Ann": 0, "Fien": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}


def club_night(tournament: Tournament, referee, director) -> Tournament:
    """Fien registers at the door and takes Bart's seat after round 1 (split by rounds);
    Chris gets 40 game points for conduct, Ann a placement penalty of 1.5 for being late, a
    bonus given and removed; Dirk and Chris were typed in each other's seats and swapped."""
    door = Door.of(tournament)
    door.set_up(is_open=True, entries=Door.Entries.CAPACITY, capacity=10)
    table = make_table(("Ann", "Bart", "Dirk", "Chris"), tournament=tournament, referee=referee)
    for player in table.seats.values_list("player", flat=True):
        registration = Registration.objects.create(tournament=tournament, player_id=player)
        door.check_in(registration, device="p" * 16)
    checkin.send(door, {"name": "Fien", "club": "Gent", "member_number": "G-6"}, device="f" * 16)
    door.set_up(entries=Door.Entries.APPROVAL)
    checkin.send(door, {"name": "Gust", "club": "", "member_number": ""}, device="g" * 16)
    tournament.substitute_credit = Tournament.SubstituteCredit.SPLIT
    tournament.save()
    record(table.game, referee, ROUND)
    swap_seats(
        table.game,
        Seat.objects.get(table=table, position=3),
        Seat.objects.get(table=table, position=4),
        by=director,
        reason="typed the wrong way round",
    )
    fien = Player.objects.get(name="Fien")
    Substitution.bring_in(
        Seat.objects.get(table=table, player__name="Bart"), fien, by=director, reason="ill"
    )
    record(table.game, referee, WITH_FIEN, WITH_FIEN, WITH_FIEN)
    give = {"by": director, "reason": "conduct"}
    chris = Seat.objects.get(table=table, player__name="Chris")
    Adjustment.give(
        tournament,
        chris.player,
        seat=chris,
        kind="penalty",
        unit="game",
        points=Decimal(40),
        **give,
    )
    ann = Player.objects.get(name="Ann")
    Adjustment.give(
        tournament,
        ann,
        kind="penalty",
        unit="placement",
        points=Decimal("1.5"),
        by=director,
        reason="late",
        text="20 minutes",
    )
    bonus = Adjustment.give(tournament, ann, kind="bonus", unit="placement", points=1, **give)
    bonus.remove(why="given to the wrong player", by=director)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def night(tournament, referee, director):
    return club_night(tournament, referee, director)


# Ann 0 (1st: 3 points, −1.5 given), Fien's seat 4 (2nd: 2 points, Bart 1/4, Fien 3/4),
# Chris 36 + 40 = 76 (3rd: 1), Dirk 180 (4th: 0).
EXPECTED = [
    ("Ann", Decimal("1.5"), 0),  # 1.5 points as Fien, but a game won
    ("Fien", Decimal("1.5"), 3),
    ("Chris", Decimal("1"), 76),
    ("Bart", Decimal("0.5"), 1),
    ("Dirk", Decimal("0"), 180),
]


def test_the_standings_count_it_all(night):
    rows = [(p.name, Decimal(str(float(s.points))), s.total_sum) for s, p in night.standings()]
    assert rows == EXPECTED


def test_the_standings_page_marks_the_players_with_the_reasons(night):
    page = Client().get(reverse("public:standings", args=[night.slug])).text
    assert page.count('class="note-mark"') == 4  # Ann, Chris, Bart, Fien
    assert "Penalty: −1.5 placement points (late: 20 minutes), in the standings" in page
    assert "Penalty: +40 game points (conduct), session 1, table 1" in page
    assert "took Bart&#x27;s seat from round 2" in page or "took Bart's seat from round 2" in page
    # A removed bonus is no mark.
    assert "Bonus" not in page


def test_the_hall_marks_them_too(night):
    shown = board(night, HallScreen.default(night))
    assert {len(notes) for notes in shown.notes.values()} == {1}
    assert shown.door is not None and "checkin" in shown.views
    page = Client().get(reverse("public:hall", args=[night.slug])).text
    assert "Check in here" in page and "<svg" in page and "Penalty: +40 game points" in page


def test_the_pdfs_print_the_marks_and_who_played_which_rounds(night):
    text = squeeze(pdftotext(pdfs.standings_pdf(night)))
    assert "Ann †" in text and "Notes" in text and "Penalty: −1.5 placement points" in text
    game = Seat.objects.get(player__name="Chris").table.game
    sheet = squeeze(pdftotext(pdfs.filled_score_sheet(GameSheet.load(game))))
    assert "Seat 2: Bart rounds 1–1 · Fien from round 2" in sheet
    assert "Penalty: +40 game points to Chris (conduct)" in sheet
    report = squeeze(pdftotext(pdfs.tournament_report(night)))
    assert "Penalty: +40 game points (conduct)" in report


def test_the_csv_files_say_it(night):
    client = Client()
    rows = csv_rows(client.get(reverse("public:standings_csv", args=[night.slug])))
    header = rows[0]
    assert header[-2:] == ["placement points given", "notes"]
    ann = next(row for row in rows if row[1] == "Ann")
    assert ann[-2] == "-1.5" and "late: 20 minutes" in ann[-1]
    rounds = csv_rows(client.get(reverse("public:rounds_csv", args=[night.slug])))
    seat_two = [row[4] for row in rounds[1:] if row[4] in ("Bart", "Fien")]
    assert seat_two == ["Bart", "Fien", "Fien", "Fien"]


def test_the_api_says_it(night):
    api = Client()
    standings = api.get(f"/api/v1/tournaments/{night.slug}/standings").json()
    ann = next(line for line in standings["items"] if line["player"]["name"] == "Ann")
    assert ann["points"] == 1.5 and ann["points_given"] == -1.5
    assert [note["kind"] for note in ann["notes"]] == ["penalty"]
    table = api.get(f"/api/v1/tournaments/{night.slug}/sessions/1/tables/1").json()
    seats = {seat["player"]["name"]: seat for seat in table["seats"]}
    assert (seats["Chris"]["total"], seats["Chris"]["result_total"]) == (36, 76)
    assert seats["Chris"]["game_points_given"] == 40
    assert [
        (turn["player"]["name"], turn["first_round"], turn["last_round"])
        for turn in seats["Fien"]["played_by"]
    ] == [("Bart", 1, 1), ("Fien", 2, None)]
    assert [a["points"] for a in table["adjustments"]] == [40.0]


def test_the_archive_reads_back_with_all_of_it(night, director):
    data = json.loads(archive.dumps(archive.tournament_to_data(night)))
    assert data["tournament"]["substitute_credit"] == "split"
    assert len(data["adjustments"]) == 3
    assert data["door"]["entries"] == "approval" and len(data["door"]["requests"]) == 2
    before = {
        "standings": [(p.name, s.points, s.total_sum, s.adjustment) for s, p in night.standings()],
        "seats": list(
            Seat.objects.filter(table__session__tournament=night)
            .order_by("position")
            .values_list("position", "player__name", "total", "adjustment", "rank")
        ),
    }
    # Into an empty site: every row goes, the players and clubs too.
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    make_user("someone-else")
    archive_import.import_tournament(data)
    copy = Tournament.objects.get()
    assert (copy.has_adjustments, copy.has_substitutes) == (True, True)
    assert [(p.name, s.points, s.total_sum, s.adjustment) for s, p in copy.standings()] == (
        before["standings"]
    )
    assert (
        list(
            Seat.objects.order_by("position").values_list(
                "position", "player__name", "total", "adjustment", "rank"
            )
        )
        == before["seats"]
    )
    removed = Adjustment.objects.get(kind="bonus")
    assert removed.removed and [c.action for c in removed.changes.all()] == ["give", "remove"]
    assert Substitution.objects.get().player_out.name == "Bart"
    fien = Registration.objects.get(player__name="Fien")
    assert (fien.checked_in, fien.checked_in_how) == (True, "registered")
    assert EntryRequest.objects.get(name="Gust").status == "pending"
    # Exported again, the same file but for the moment and the players' ids (a site's own).
    again = json.loads(archive.dumps(archive.tournament_to_data(copy)))
    assert by_names(again) == by_names(data)


def by_names(file: dict) -> dict:
    """An archive with its players named instead of numbered, without its moment (and its
    statistics: the rounds give them again, tests/printing/test_archive.py checks them)."""
    names = {player["id"]: player["name"] for player in file["players"]}
    kept = {key: value for key, value in file.items() if key not in ("exported_at", "statistics")}
    text = json.dumps(kept)
    for key in ("player", "player_out", "player_in", "id"):
        for number, name in names.items():
            text = text.replace(f'"{key}": {number},', f'"{key}": "{name}",')
            text = text.replace(f'"{key}": {number}}}', f'"{key}": "{name}"}}')
    return json.loads(text)


def test_an_adjustment_at_a_seat_the_file_does_not_have_is_refused(night):
    data = json.loads(archive.dumps(archive.tournament_to_data(night)))
    data["tournament"]["slug"] = "copy"
    data["adjustments"][0]["table"] = 9
    with pytest.raises(archive_import.ImportRefused, match="adjustments\\[1\\]: session, table"):
        archive_import.import_tournament(data)
    assert not Tournament.objects.filter(slug="copy").exists()


def test_a_season_places_the_tournament_as_its_standings_do(night):
    from seasons.models.seasons import final_places

    places = [(standing.player, standing.place) for standing in final_places([night.pk])[night.pk]]
    assert places == [(standing.player, standing.place) for standing, _ in night.standings()]
    names: dict[object, str] = dict(Player.objects.values_list("pk", "name"))
    assert [names[player] for player, _ in places][:2] == ["Ann", "Fien"]
