"""The printable PDFs: what they say (through poppler's pdftotext), their pages, the views.

Each kind's first page is also rendered to test-artifacts/pdf/<kind>.png to look at.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.models import Round
from tests.factories import entries, make_table, make_tournament, make_user, record
from tournaments import pdf
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "pdf"
FOUR = ("Hélène", "Jürgen", "Çelik", "Dirk")
EIGHT = (
    "Ana",
    "Maximilian-Alexander Vandenbroucke-Verstraeten",
    "Bo",
    "Zoë",
    "Émile",
    "Søren",
    "Łukasz",
    "Ngozi",
)
# A game with every kind of round: along, a reduction (100 → 50), a false Yaniv,
# an emptied hand, a reduction to 0 (50 → 0), and the end above 150.
ROUNDS = (
    {"hands": {"Hélène": 3, "Jürgen": 12, "Çelik": 7, "Dirk": 40}, "yaniv": "Hélène"},
    # Recorded with Çelik's 6, corrected to 5 below.
    {
        "hands": {"Hélène": 4, "Jürgen": 9, "Çelik": 6, "Dirk": 40},
        "yaniv": "Hélène",
        "along": ["Jürgen"],
    },
    {"hands": {"Hélène": 10, "Jürgen": 2, "Çelik": 8, "Dirk": 20}, "yaniv": "Jürgen"},
    {"hands": {"Hélène": 10, "Jürgen": 2, "Çelik": 8, "Dirk": 14}, "yaniv": "Çelik"},
    {"hands": {"Hélène": 9, "Jürgen": 0, "Çelik": 0, "Dirk": 3}, "empty_hand": "Jürgen"},
    {"hands": {"Hélène": 1, "Jürgen": 6, "Çelik": 34, "Dirk": 50}, "yaniv": "Hélène"},
    {
        "hands": {"Hélène": 2, "Jürgen": 3, "Çelik": 5, "Dirk": 50},
        "yaniv": "Hélène",
        "along": ["Jürgen"],
    },
)


def pdftotext(content: bytes, *, layout: bool = True) -> str:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: install poppler-utils (apt-get install poppler-utils)")
    args = ["pdftotext", "-enc", "UTF-8", *(["-layout"] if layout else []), "-", "-"]
    return subprocess.run(args, input=content, capture_output=True, check=True).stdout.decode()


def pages(content: bytes) -> int:
    if shutil.which("pdfinfo") is None:
        pytest.fail("pdfinfo is missing: install poppler-utils (apt-get install poppler-utils)")
    info = subprocess.run(["pdfinfo", "-"], input=content, capture_output=True, check=True)
    return int(re.search(r"^Pages:\s+(\d+)", info.stdout.decode(), re.MULTILINE).group(1))


def keep_png(content: bytes, kind: str) -> Path:
    """Render the first page at 60 dpi, as an artefact to look at."""
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm is missing: install poppler-utils (apt-get install poppler-utils)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    source = ARTIFACTS / f"{kind}.pdf"
    source.write_bytes(content)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-singlefile", str(source), str(ARTIFACTS / kind)],
        check=True,
    )
    return ARTIFACTS / f"{kind}.png"


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture
def director():
    return make_user("dir-bob")


@pytest.fixture
def referee():
    return make_user("ref-anna")


@pytest.fixture
def tournament(director):
    return make_tournament(
        name="Belgian Championship 2026", slug="bk-2026", venue="Gent", directors=[director]
    )


@pytest.fixture
def played(tournament, referee):
    """Session 1: a finished, corrected and signed-off game, and a second finished one."""
    table = make_table(FOUR, referee=referee, tournament=tournament)
    game = table.game
    record(game, referee, *ROUNDS)
    corrected = dict(ROUNDS[1], hands={**ROUNDS[1]["hands"], "Çelik": 5})
    game.correct_round(
        2, entries(corrected), by=referee, reason="Çelik showed 5, not 6", version=game.version
    )
    game.sign_off(by=referee, version=game.version)
    other = make_table(("Eva", "Frank", "Greet"), referee=referee, tournament=tournament)
    record(
        other.game,
        referee,
        *[{"hands": {"Eva": 1, "Frank": 40, "Greet": 30}, "yaniv": "Eva"}] * 4,
    )
    table.refresh_from_db()
    return table


# --- the PDFs ---------------------------------------------------------------------


def test_blank_score_sheets_give_one_page_per_table_even_for_eight_players(tournament, referee):
    make_table(EIGHT, referee=referee, tournament=tournament, session_status="planned")
    make_table(FOUR, tournament=tournament, session_status="planned")
    make_table(
        ("Eva", "Frank", "Greet", "Hans", "Ilse"), tournament=tournament, session_status="planned"
    )
    session = tournament.sessions.get()
    content = pdf.blank_score_sheets(session)
    keep_png(content, "score-sheets")
    assert pages(content) == pdf.page_count(content) == 3
    text = pdftotext(content)
    flat = squeeze(pdftotext(content, layout=False))
    for name in (*FOUR, "Zoë", "Łukasz", "Søren", "Vandenbroucke-Verstraeten"):
        assert name in text
    assert "♠♥♦♣" in flat.replace(" ", "")
    assert "Table 1" in text and "Table 3" in text and "session 1" in text
    assert "2 decks" in text and "1 deck" in text and "referee ref-anna" in flat
    # The rules box carries the ruleset's numbers.
    assert "5 or less" in flat and "32 + the left neighbour's hand" in flat
    assert "Exactly 50/100/150" in flat and "−50" in flat and "above 150" in flat
    # Every page has the round grid up to at least 25, and signatures.
    for page in text.split("\f")[:3]:
        assert re.search(r"^\s*25\b", page, re.MULTILINE)
        assert "signature" in page


def test_the_false_yaniv_option_changes_the_rules_box(tournament):
    tournament.false_yaniv = "others_score_hand"
    tournament.save()
    table = make_table(FOUR, tournament=tournament)
    flat = squeeze(pdftotext(pdf.blank_score_sheets(table.session)))
    assert "everyone else scores their hand." in flat


def test_filled_sheet_shows_rounds_reductions_marks_result_and_corrections(played):
    content = pdf.filled_score_sheet(played.game)
    keep_png(content, "sheet")
    text = pdftotext(content)
    flat = squeeze(text)
    for name in FOUR:
        assert name in text
    assert "100 → 50" in text and "50 → 0" in text and "103 → 153" not in text
    assert re.search(r"^\s*4\s*F\b", text, re.MULTILINE)  # the false Yaniv round
    assert re.search(r"^\s*5\s*E\b", text, re.MULTILINE)  # the emptied hand
    assert "+46" in text  # 32 + Dirk's 14
    round_2 = next(line for line in text.splitlines() if re.match(r"\s*2\s", line))
    assert squeeze(round_2).strip() == "2 Y +0 0 A +32 44 +5 12 +40 80"
    assert re.search(r"total\s+19\s+32\s+55\s+153", text)
    assert re.search(r"rank\s+1\.\s+2\.\s+3\.\s+4\.", text)
    assert "Winner: Hélène with 19." in flat
    assert "game over after 7 rounds · signed off" in flat
    assert "Round 2 corrected by ref-anna" in flat and "Çelik showed 5, not 6" in flat
    assert "Signed off by ref-anna on" in flat
    assert "Score progression" in text and "150: above it the game is over" in flat


def test_followers_sheet_names_no_accounts_only_their_roles(played, director):
    game = played.game
    # A director corrects the signed-off sheet.
    corrected = dict(ROUNDS[0], hands={**ROUNDS[0]["hands"], "Jürgen": 11})
    game.correct_round(
        1, entries(corrected), by=director, reason="Jürgen had 11", version=game.version
    )
    flat = squeeze(pdftotext(pdf.filled_score_sheet(game, show_names=False), layout=False))
    assert "ref-anna" not in flat and "dir-bob" not in flat
    assert "Round 2 corrected by the referee" in flat
    assert "Round 1 corrected by a director" in flat
    assert "Referee " in flat and "Hélène" in flat


def test_filled_sheet_of_a_game_in_progress_and_of_a_game_not_started(tournament):
    table = make_table(FOUR, tournament=tournament)
    empty = pdftotext(pdf.filled_score_sheet(table.game))
    assert "not started" in empty and "Score progression" not in empty
    record(table.game, None, ROUNDS[0])
    flat = squeeze(pdftotext(pdf.filled_score_sheet(table.game)))
    assert "in progress: 1 round recorded" in flat and "Current totals" in flat


def test_filled_sheet_notes_an_undo_and_an_end_at_the_time_limit(tournament, director):
    table = make_table(FOUR, tournament=tournament)
    game = table.game
    record(game, director, ROUNDS[0], ROUNDS[2])
    game.undo_last_round(by=director, reason="entered at the wrong table", version=game.version)
    game.end_at_time_limit(by=director, reason="time is up", version=game.version)
    flat = squeeze(pdftotext(pdf.filled_score_sheet(game), layout=False))
    assert "Round 2 undone by dir-bob" in flat and "entered at the wrong table" in flat
    assert "Game ended at the time limit by dir-bob" in flat and "time is up" in flat
    assert "ended at the time limit after 1 round · provisional (not signed off)" in flat
    assert "Not signed off yet: the result is provisional." in flat
    assert "Winner: Hélène with 0." in flat


def test_a_long_game_goes_on_to_a_second_page_with_the_header_again(tournament):
    table = make_table(FOUR, tournament=tournament)
    low = {"hands": {"Hélène": 1, "Jürgen": 2, "Çelik": 1, "Dirk": 2}, "yaniv": "Hélène"}
    record(table.game, None, *[low] * 60)
    content = pdf.filled_score_sheet(table.game)
    assert pages(content) >= 2
    second = pdftotext(content).split("\f")[1]
    assert "Hélène" in second and "points" in second


def test_standings_pdf_overall_and_per_session(played, tournament):
    content = pdf.standings_pdf(tournament)
    keep_png(content, "standings")
    text = pdftotext(content)
    flat = squeeze(text)
    lines = [squeeze(line).strip() for line in text.splitlines()]
    assert "1 Hélène 3 1 1 19 3" in lines  # place, name, points, games, wins, sum, opp
    assert "2 Eva 2* 1 1 0 1" in lines  # not signed off yet
    assert "Çelik" in text and "Jürgen" in text
    assert "How the standings are made" in text and "sum of final game totals, low first" in flat
    assert "Belgian Championship 2026" in text
    session = pdftotext(pdf.standings_pdf(tournament, tournament.sessions.get()))
    assert "Session 1 standings" in session and "Hélène" in session


def test_tournament_report_has_standings_then_every_sessions_tables(played, tournament):
    make_table(EIGHT, tournament=tournament, session_status="planned")  # session 2, not played
    content = pdf.tournament_report(tournament)
    keep_png(content, "report")
    text = pdftotext(content)
    flat = squeeze(text)
    assert text.index("Standings so far") < text.index("Session 1") < text.index("Session 2")
    assert "Table 1 · ref-anna · game over after 7 rounds · signed off" in flat
    assert "Table 2 · ref-anna · game over after 4 rounds · provisional" in flat
    assert re.search(r"1\.\s+Hélène\s+19", text) and re.search(r"4\.\s+Dirk\s+153", text)
    assert "Zoë" in text and "not started" in text


def test_progression_svg_is_a_responsive_chart_with_the_limit(played):
    svg = pdf.progression_svg(played.game.sheet())
    assert svg.startswith('<svg width="100%"') and "viewBox=" in svg
    assert "height=" not in svg[: svg.index(">")]
    for name in FOUR:
        assert name in svg
    assert "150: above it the game is over" in svg
    assert pdf.progression_svg(make_table(("A", "B")).game.sheet()) == ""


def test_progression_svg_escapes_names(tournament):
    table = make_table(("<script>x</script>", "B&B"), tournament=tournament)
    record(table.game, None, {"hands": {"<script>x</script>": 1, "B&B": 9}, "yaniv": "B&B"})
    svg = pdf.progression_svg(table.game.sheet())
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "B&amp;B" in svg


def test_names_with_markup_characters_print_as_typed(tournament):
    table = make_table(("Tom & Jerry", "<b>Bold</b>"), tournament=tournament)
    text = pdftotext(pdf.blank_score_sheets(table.session))
    assert "Tom & Jerry" in text and "<b>Bold</b>" in text


# --- the views --------------------------------------------------------------------


def pdf_of(response) -> bytes:
    return b"".join(response.streaming_content)


def test_blank_sheets_view_streams_the_pdf_to_the_director(client, director, played):
    client.force_login(director)
    response = client.get(reverse("session_score_sheets_pdf", args=["bk-2026", 1]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert (
        response["Content-Disposition"] == 'inline; filename="bk-2026-session-1-score-sheets.pdf"'
    )
    assert pages(pdf_of(response)) == 2


def test_blank_sheets_are_for_directors_only(client, played, tournament):
    url = reverse("session_score_sheets_pdf", args=["bk-2026", 1])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(make_user("player"))
    assert client.get(url).status_code == 403
    tournament.is_public = False
    tournament.save()
    assert client.get(url).status_code == 404


def test_filled_sheet_view_for_whoever_may_see_the_table(client, played, tournament, referee):
    url = reverse("table_sheet_pdf", args=[played.pk])
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'inline; filename="bk-2026-session-1-table-1-sheet.pdf"'
    )
    text = pdftotext(pdf_of(response))
    assert "Hélène" in text and "Signed off by the referee" in text
    assert "ref-anna" not in text  # followers read no account names
    tournament.is_public = False
    tournament.save()
    assert client.get(url).status_code == 404
    client.force_login(referee)
    response = client.get(url)
    assert response.status_code == 200
    assert "Signed off by ref-anna" in pdftotext(pdf_of(response))


@pytest.mark.parametrize(
    ("name", "args", "filename"),
    [
        ("standings_pdf", ["bk-2026"], "bk-2026-standings.pdf"),
        ("session_standings_pdf", ["bk-2026", 1], "bk-2026-session-1-standings.pdf"),
        ("report_pdf", ["bk-2026"], "bk-2026-report.pdf"),
    ],
)
def test_public_pdfs_are_public_and_private_ones_404(
    client, played, tournament, name, args, filename, director
):
    url = reverse(name, args=args)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{filename}"'
    text = pdftotext(pdf_of(response))
    assert "Hélène" in text and "ref-anna" not in text
    tournament.is_public = False
    tournament.save()
    assert client.get(url).status_code == 404
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 404
    client.force_login(director)
    response = client.get(url)
    assert response.status_code == 200
    # The report names the referees for the directors (the club's archive).
    assert ("ref-anna" in pdftotext(pdf_of(response))) == (name == "report_pdf")


def test_session_standings_pdf_of_an_unknown_session_is_404(client, played):
    assert client.get(reverse("session_standings_pdf", args=["bk-2026", 9])).status_code == 404


def test_pages_link_to_their_pdfs(client, director, played, tournament):
    table_page = client.get(played.get_absolute_url()).content.decode()
    assert reverse("table_sheet_pdf", args=[played.pk]) in table_page
    assert '<figure class="chart"><svg' in table_page
    assert (
        reverse("standings_pdf", args=["bk-2026"])
        in client.get(reverse("standings", args=["bk-2026"])).content.decode()
    )
    assert (
        reverse("session_standings_pdf", args=["bk-2026", 1])
        in client.get(reverse("session_standings", args=["bk-2026", 1])).content.decode()
    )
    assert (
        reverse("report_pdf", args=["bk-2026"])
        in client.get(reverse("tournament", args=["bk-2026"])).content.decode()
    )
    client.force_login(director)
    dashboard = client.get(reverse("manage_tournament", args=["bk-2026"])).content.decode()
    assert reverse("standings_pdf", args=["bk-2026"]) in dashboard
    assert reverse("report_pdf", args=["bk-2026"]) in dashboard
    session_page = client.get(reverse("session_manage", args=["bk-2026", 1])).content.decode()
    assert reverse("session_score_sheets_pdf", args=["bk-2026", 1]) in session_page


def test_the_table_page_has_no_chart_before_the_first_round(client, tournament):
    table = make_table(FOUR, tournament=tournament)
    assert 'class="chart"' not in client.get(table.get_absolute_url()).content.decode()


# --- the benchmark ------------------------------------------------------------------


def test_the_benchmark_times_the_sheets_and_leaves_nothing_behind():
    out = io.StringIO()
    call_command("bench_pdf", tables=3, stdout=out)
    report = out.getvalue()
    assert re.search(r"blank score sheets: 3 tables of 8 in \d+\.\d+ s, \d+ KiB, 3 pages", report)
    assert (Tournament.objects.count(), Player.objects.count(), Round.objects.count()) == (0, 0, 0)
