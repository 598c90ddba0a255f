"""The printed products (printing): what they say (through poppler's pdftotext),
their pages, the views.

Each kind's first page is also rendered to test-artifacts/pdf/<kind>.png to look at.
"""

from __future__ import annotations

import datetime
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django_tasks_db.models import DBTaskResult

from printing import pdfs
from printing.models import PreparedDownload
from scoring import rules
from scoring.sheet import Mark, legend
from tests.factories import entries, make_table, make_tournament, make_user, record
from tests.tasks import run_tasks
from tournaments import texts
from tournaments.sheets import GameSheet

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
ROUNDS: tuple[dict[str, Any], ...] = (
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
    count = re.search(r"^Pages:\s+(\d+)", info.stdout.decode(), re.MULTILINE)
    assert count, info.stdout
    return int(count.group(1))


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


def sheet_pdf(game, *, show_names: bool = True) -> bytes:
    """A game's filled sheet, from its GameSheet as the view loads it."""
    return pdfs.filled_score_sheet(GameSheet.load(game), show_names=show_names)


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
    content = pdfs.blank_score_sheets(session)
    keep_png(content, "score-sheets")
    assert pages(content) == pdfs.page_count(content) == 3
    text = pdftotext(content)
    flat = squeeze(pdftotext(content, layout=False))
    for name in (*FOUR, "Zoë", "Łukasz", "Søren", "Vandenbroucke-Verstraeten"):
        assert name in text
    assert "♠♥♦♣" in flat.replace(" ", "")
    assert "Table 1" in text and "Table 3" in text and "session 1" in text
    assert "2 decks" in text and "1 deck" in text and f"referee {referee.username}" in flat
    # The rules box carries the ruleset's numbers.
    assert "5 or less" in flat and "32 + the left neighbour's hand" in flat
    assert "Exactly 50, 100 or 150" in flat and "−50" in flat and "above 150" in flat
    # Every page has the round grid up to at least 25, and the players' initials.
    for page in text.split("\f")[:3]:
        assert re.search(r"^\s*25\b", page, re.MULTILINE)
        assert "initials" in page


def test_the_false_yaniv_option_changes_the_rules_box(tournament):
    tournament.false_yaniv = "others_score_hand"
    tournament.save()
    table = make_table(FOUR, tournament=tournament)
    flat = squeeze(pdftotext(pdfs.blank_score_sheets(table.session)))
    assert "everyone else scores their hand." in flat


def test_filled_sheet_shows_rounds_reductions_marks_result_and_corrections(played, referee):
    content = sheet_pdf(played.game)
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
    assert re.search(r"rank\s+1st\s+2nd\s+3rd\s+4th", text)
    assert "Winner: Hélène with 19." in flat
    assert "game over after 7 rounds · signed off" in flat
    assert f"Round 2 corrected by {referee.username}" in flat
    assert "Çelik showed 5, not 6" in flat
    assert f"Signed off by {referee.username} on" in flat
    assert "Score progression" in text and "150: above it the game is over" in flat


def test_followers_sheet_names_no_accounts_only_their_roles(played, referee, director):
    game = played.game
    # A director corrects the signed-off sheet.
    corrected = dict(ROUNDS[0], hands={**ROUNDS[0]["hands"], "Jürgen": 11})
    game.correct_round(
        1, entries(corrected), by=director, reason="Jürgen had 11", version=game.version
    )
    flat = squeeze(pdftotext(sheet_pdf(game, show_names=False), layout=False))
    assert referee.username not in flat and director.username not in flat
    assert "Round 2 corrected by the referee" in flat
    assert "Round 1 corrected by a director" in flat
    assert "Referee " in flat and "Hélène" in flat


def test_filled_sheet_of_a_game_in_progress_and_of_a_game_not_started(tournament):
    table = make_table(FOUR, tournament=tournament)
    empty = pdftotext(sheet_pdf(table.game))
    assert "not started" in empty and "Score progression" not in empty
    record(table.game, None, ROUNDS[0])
    flat = squeeze(pdftotext(sheet_pdf(table.game)))
    assert "in progress: 1 round recorded" in flat and "Current totals" in flat


def test_filled_sheet_notes_an_undo_and_an_end_at_the_time_limit(tournament, director):
    table = make_table(FOUR, tournament=tournament)
    game = table.game
    record(game, director, ROUNDS[0], ROUNDS[2])
    game.undo_last_round(by=director, reason="entered at the wrong table", version=game.version)
    game.end_at_time_limit(by=director, reason="time is up", version=game.version)
    flat = squeeze(pdftotext(sheet_pdf(game), layout=False))
    assert f"Round 2 undone by {director.username}" in flat
    assert "entered at the wrong table" in flat
    assert f"Game ended at the time limit by {director.username}" in flat
    assert "time is up" in flat
    assert "ended at the time limit after 1 round · provisional (not signed off)" in flat
    assert "Not signed off yet: the result is provisional." in flat
    assert "Winner: Hélène with 0." in flat


def test_a_long_game_goes_on_to_a_second_page_with_the_header_again(tournament):
    table = make_table(FOUR, tournament=tournament)
    low = {"hands": {"Hélène": 1, "Jürgen": 2, "Çelik": 1, "Dirk": 2}, "yaniv": "Hélène"}
    record(table.game, None, *[low] * 60)
    content = sheet_pdf(table.game)
    assert pages(content) >= 2
    second = pdftotext(content).split("\f")[1]
    assert "Hélène" in second and "points" in second


def test_standings_pdf_overall_and_per_session(played, tournament):
    content = pdfs.standings_pdf(tournament)
    keep_png(content, "standings")
    text = pdftotext(content)
    flat = squeeze(text)
    lines = [squeeze(line).strip() for line in text.splitlines()]
    assert "1 Hélène 3 1 1 19 3" in lines  # place, name, points, games, wins, sum, opp
    assert "2 Eva 2* 1 1 0 1" in lines  # not signed off yet
    assert "Çelik" in text and "Jürgen" in text
    assert "How the standings are made" in text and "sum of final game totals, low first" in flat
    assert "Belgian Championship 2026" in text
    session = pdftotext(pdfs.standings_pdf(tournament, tournament.sessions.get()))
    assert "Session 1 standings" in session and "Hélène" in session


def test_tournament_report_has_standings_then_every_sessions_tables(played, tournament, referee):
    make_table(EIGHT, tournament=tournament, session_status="planned")  # session 2, not played
    content = pdfs.tournament_report(tournament)
    keep_png(content, "report")
    text = pdftotext(content)
    flat = squeeze(text)
    assert text.index("Standings so far") < text.index("Session 1") < text.index("Session 2")
    assert f"Table 1 · {referee.username} · game over after 7 rounds · signed off" in flat
    assert f"Table 2 · {referee.username} · game over after 4 rounds · provisional" in flat
    assert re.search(r"1st\s+Hélène\s+19", text) and re.search(r"4th\s+Dirk\s+153", text)
    assert "Zoë" in text and "not started" in text


def test_the_reports_queries_do_not_grow_with_its_tables_and_rounds(
    played, tournament, django_assert_num_queries
):
    with CaptureQueriesContext(connection) as two_tables:
        pdfs.tournament_report(tournament)
    for _ in range(3):
        more = make_table(FOUR, tournament=tournament, session_status="planned")
        record(more.game, None, *ROUNDS[:3])
    with django_assert_num_queries(len(two_tables.captured_queries)):
        pdfs.tournament_report(tournament)


# --- every preset's marks ------------------------------------------------------------

# Ann calls Yaniv with 3 and Bart holds 3 too: an Assaf under the presets that have one.
ASSAF = {"hands": {"Ann": 3, "Bart": 3, "Chris": 20}, "yaniv": "Ann"}


def marks_in_words(ruleset: rules.Ruleset) -> str:
    return " · ".join(
        f"{texts.mark_letter(mark)} {texts.mark_meaning(mark)}" for mark in legend(ruleset)
    )


def round_line(text: str, number: int) -> str:
    """Round `number`'s line of a filled sheet's grid (its cells: +points and totals)."""
    return next(
        squeeze(line).strip()
        for line in text.splitlines()
        if re.match(rf"\s*{number}(?!\d)", line) and "+" in line
    )


@pytest.mark.parametrize("preset", list(rules.RULESETS))
def test_the_filled_sheets_legend_lists_exactly_the_marks_of_its_rule_set(preset):
    ruleset = rules.RULESETS[preset]
    table = make_table(("Ann", "Bart", "Chris"), tournament=make_tournament(preset=preset))
    record(table.game, None, ASSAF)
    flat = squeeze(pdftotext(sheet_pdf(table.game), layout=False))
    # The legend is the rules page's marks line: these marks, then the reduction, nothing more.
    assert f"Marks: {marks_in_words(ruleset)} · “100 → 50” a reduction." in flat
    assert ("along" in flat) == (Mark.ALONG in legend(ruleset))
    assert ("false Yaniv" in flat) == (Mark.FALSE in legend(ruleset))
    assert ("Assaf" in flat) == ruleset.automatic_assaf
    assert ("went out of the game" in flat) == ruleset.eliminates


@pytest.mark.parametrize(
    "preset", [name for name, ruleset in rules.RULESETS.items() if ruleset.automatic_assaf]
)
def test_an_assafs_caller_is_marked_with_the_assaf_letter(preset):
    table = make_table(("Ann", "Bart", "Chris"), tournament=make_tournament(preset=preset))
    record(table.game, None, ASSAF)
    assaf, lowest = texts.mark_letter(Mark.ASSAF), texts.mark_letter(Mark.LOWEST)
    # The round's flag, Ann's mark and her hand + 30; Bart's lowest hand (0 or 3 by preset).
    assert re.fullmatch(
        rf"1 ?{assaf} {assaf} \+33 33 {lowest} \+([03]) \1 \+20 20",
        round_line(pdftotext(sheet_pdf(table.game)), 1),
    )


def test_a_belgian_yaniv_is_marked_by_its_caller_and_who_went_along(played):
    text = pdftotext(sheet_pdf(played.game))
    assert round_line(text, 1) == "1 Y +0 0 +12 12 +7 7 +40 40"
    assert round_line(text, 2) == "2 Y +0 0 A +32 44 +5 12 +40 80"
    assert texts.mark_letter(Mark.ASSAF) not in squeeze(text).split()


def test_the_sheet_of_an_eliminating_game_marks_who_went_out():
    table = make_table(("Ann", "Bart", "Chris"), tournament=make_tournament(preset="israeli"))
    chris_gets_45 = {"hands": {"Ann": 1, "Bart": 2, "Chris": 45}, "yaniv": "Ann"}
    last = {"hands": {"Ann": 3, "Bart": 9}, "yaniv": "Ann"}
    record(table.game, None, *[chris_gets_45] * 5, last)
    content = sheet_pdf(table.game)
    keep_png(content, "sheet-israeli")
    text = pdftotext(content)
    assert round_line(text, 5).endswith("+45 225 out")
    assert round_line(text, 6) == "6 Y +0 0 +9 19"  # Chris is out: no hand
    assert "Grey: out of the game." in squeeze(text)


def test_names_with_markup_characters_print_as_typed(tournament):
    table = make_table(("Tom & Jerry", "<b>Bold</b>"), tournament=tournament)
    text = pdftotext(pdfs.blank_score_sheets(table.session))
    assert "Tom & Jerry" in text and "<b>Bold</b>" in text


# --- the views --------------------------------------------------------------------


def pdf_of(response) -> bytes:
    return b"".join(response.streaming_content)


def test_blank_sheets_view_streams_the_pdf_to_the_director(director_client, played, tournament):
    response = director_client.get(reverse("manage:score_sheets_pdf", args=[tournament.slug, 1]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'inline; filename="{tournament.slug}-session-1-score-sheets.pdf"'
    )
    assert pages(pdf_of(response)) == 2


def test_blank_sheets_are_for_directors_only(client, played, tournament):
    url = reverse("manage:score_sheets_pdf", args=[tournament.slug, 1])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(make_user("player"))
    assert client.get(url).status_code == 403
    tournament.is_public = False
    tournament.save()
    assert client.get(url).status_code == 404


def test_filled_sheet_view_for_whoever_may_see_the_table(client, played, tournament, referee):
    url = reverse("tables:sheet_pdf", args=[played.pk])
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'inline; filename="{tournament.slug}-session-1-table-1-sheet.pdf"'
    )
    text = pdftotext(pdf_of(response))
    assert "Hélène" in text and "Signed off by the referee" in text
    assert referee.username not in text  # followers read no account names
    tournament.is_public = False
    tournament.save()
    assert client.get(url).status_code == 404
    client.force_login(referee)
    response = client.get(url)
    assert response.status_code == 200
    assert f"Signed off by {referee.username}" in pdftotext(pdf_of(response))


def ask(client, url: str, **extra: Any):
    """GET `url` as the site answers it: what the request queues once it commits is queued
    (the test's transaction never commits). The language a request activates in this thread
    ends with it."""
    with translation.override("en"), TestCase.captureOnCommitCallbacks(execute=True):
        return client.get(url, **extra)


def get_pdf(client, url: str):
    """The PDF at `url` as a reader gets it: the report's "being prepared" page (202) asks
    again once the worker has run."""
    response = ask(client, url)
    if response.status_code == 202:
        run_tasks()
        response = ask(client, url)
    return response


@pytest.mark.parametrize(
    ("name", "session", "filename"),
    [
        ("public:standings_pdf", (), "standings.pdf"),
        ("public:session_standings_pdf", (1,), "session-1-standings.pdf"),
        ("public:report_pdf", (), "report.pdf"),
    ],
)
def test_public_pdfs_are_public_and_private_ones_404(
    client, played, tournament, name, session, filename, referee, director
):
    url = reverse(name, args=[tournament.slug, *session])
    response = get_pdf(client, url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{tournament.slug}-{filename}"'
    text = pdftotext(pdf_of(response))
    assert "Hélène" in text and referee.username not in text
    tournament.is_public = False
    tournament.save()
    assert client.get(url).status_code == 404
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 404
    client.force_login(director)
    response = get_pdf(client, url)
    assert response.status_code == 200
    # The report names the referees for the directors (the club's archive).
    assert (referee.username in pdftotext(pdf_of(response))) == (name == "public:report_pdf")


def test_the_report_is_prepared_by_the_worker_once_however_often_it_is_asked(
    client, played, tournament, monkeypatch
):
    renders = []
    real = pdfs.tournament_report

    def counted(*args: Any, **kwargs: Any) -> bytes:
        renders.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(pdfs, "tournament_report", counted)
    url = reverse("public:report_pdf", args=[tournament.slug])
    for _ in range(2):
        # The second click while it is being prepared queues nothing more.
        waiting = ask(client, url)
        assert waiting.status_code == 202 and waiting["Cache-Control"] == "no-store"
        assert '<meta http-equiv="refresh" content="3">' in waiting.content.decode()
        assert "being prepared" in waiting.content.decode()
    assert renders == []
    queued = DBTaskResult.objects.ready().filter(task_path="printing.tasks.prepare_download")
    assert queued.count() == 1
    assert run_tasks() == 1 and len(renders) == 1
    ready = ask(client, url)
    assert ready.status_code == 200 and ready["Content-Type"] == "application/pdf"
    assert ready["Content-Disposition"] == f'inline; filename="{tournament.slug}-report.pdf"'
    content = pdf_of(ready)
    assert "Hélène" in pdftotext(content)
    assert pdf_of(ask(client, url)) == content
    assert run_tasks() == 0 and len(renders) == 1
    # A new round makes a new version: prepared again, the old one dropped once it is.
    late = make_table(("Ann", "Bart", "Chris"), tournament=tournament)
    record(late.game, None, {"hands": {"Ann": 0, "Bart": 3, "Chris": 7}, "yaniv": "Ann"})
    assert ask(client, url).status_code == 202
    assert run_tasks() == 1 and len(renders) == 2
    assert ask(client, url).status_code == 200
    assert PreparedDownload.objects.count() == 1


def test_the_report_in_another_language_or_for_the_director_is_prepared_on_its_own(
    client, director_client, played, tournament, referee
):
    url = reverse("public:report_pdf", args=[tournament.slug])
    assert ask(client, url).status_code == 202
    assert ask(director_client, url).status_code == 202
    assert ask(client, url, headers={"accept-language": "nl"}).status_code == 202
    assert run_tasks() == 3
    dutch = pdftotext(pdf_of(ask(client, url, headers={"accept-language": "nl"})))
    assert "Toernooiverslag" in dutch
    assert referee.username in pdftotext(pdf_of(ask(director_client, url)))
    assert referee.username not in pdftotext(pdf_of(ask(client, url)))


def test_a_report_asked_for_long_ago_and_still_not_ready_is_asked_for_again(
    client, played, tournament
):
    url = reverse("public:report_pdf", args=[tournament.slug])
    assert ask(client, url).status_code == 202
    DBTaskResult.objects.all().delete()  # its task lost
    PreparedDownload.objects.update(requested_at=timezone.now() - datetime.timedelta(minutes=9))
    assert ask(client, url).status_code == 202
    assert run_tasks() == 0
    PreparedDownload.objects.update(requested_at=timezone.now() - datetime.timedelta(minutes=11))
    assert ask(client, url).status_code == 202
    assert ask(client, url).status_code == 202
    assert run_tasks() == 1
    assert ask(client, url).status_code == 200


def test_a_private_report_asked_for_by_a_stranger_is_404_and_asks_for_nothing(
    client, played, tournament
):
    tournament.is_public = False
    tournament.save()
    client.force_login(make_user("stranger"))
    assert ask(client, reverse("public:report_pdf", args=[tournament.slug])).status_code == 404
    assert not PreparedDownload.objects.exists() and not DBTaskResult.objects.exists()


def test_a_report_that_fails_to_render_is_asked_for_again_at_the_next_click(
    client, played, tournament, monkeypatch
):
    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("the printer caught fire")

    url = reverse("public:report_pdf", args=[tournament.slug])
    monkeypatch.setattr(pdfs, "tournament_report", broken)
    assert ask(client, url).status_code == 202
    assert run_tasks(failing=True) == 1
    assert not PreparedDownload.objects.exists()
    monkeypatch.undo()
    assert ask(client, url).status_code == 202
    assert run_tasks() == 1
    assert ask(client, url).status_code == 200


def test_session_standings_pdf_of_an_unknown_session_is_404(client, played, tournament):
    url = reverse("public:session_standings_pdf", args=[tournament.slug, 9])
    assert client.get(url).status_code == 404


def test_pages_link_to_their_pdfs(client, director_client, played, tournament):
    slug = tournament.slug

    def page(client, name: str, *args: int) -> str:
        return client.get(reverse(name, args=[slug, *args])).content.decode()

    table_page = client.get(played.get_absolute_url()).content.decode()
    assert reverse("tables:sheet_pdf", args=[played.pk]) in table_page
    assert '<figure class="chart"><svg' in table_page
    assert reverse("public:standings_pdf", args=[slug]) in page(client, "public:standings")
    assert reverse("public:session_standings_pdf", args=[slug, 1]) in page(
        client, "public:session_standings", 1
    )
    assert reverse("public:report_pdf", args=[slug]) in page(client, "public:tournament")
    dashboard = page(director_client, "manage:tournament")
    assert reverse("public:standings_pdf", args=[slug]) in dashboard
    assert reverse("public:report_pdf", args=[slug]) in dashboard
    session_page = page(director_client, "manage:session", 1)
    assert reverse("manage:score_sheets_pdf", args=[slug, 1]) in session_page


def test_the_table_page_has_no_chart_before_the_first_round(client, tournament):
    table = make_table(FOUR, tournament=tournament)
    assert 'class="chart"' not in client.get(table.get_absolute_url()).content.decode()


# --- the words in the PDFs (issue 13, point 16) -----------------------------------------


@pytest.mark.parametrize(
    ("language", "ranks"),
    [("en", "1st 2nd 3rd 4th"), ("nl", "1e 2e 3e 4e"), ("fr", "1er 2e 3e 4e")],
)
def test_ranks_print_as_the_languages_ordinals(played, tournament, language, ranks):
    """Not "1." or "(4.)": a rank as the reader writes it, on the sheet and in the report."""
    with translation.override(language):
        sheet = squeeze(pdftotext(sheet_pdf(played.game)))
        report = squeeze(pdftotext(pdfs.tournament_report(tournament)))
        result = gettext("Result")
    assert ranks in sheet
    assert f"{ranks.split()[0]} Hélène 19" in report
    # Before the result, no "1." either; the moments printed ("signed off … 17:41.") aside.
    before_result = re.sub(r"\d\d:\d\d", "", sheet.split(result)[0])
    assert "(" + ranks.split()[3] not in sheet and "1." not in before_result


def test_a_game_in_progress_prints_its_ranks_without_brackets(tournament):
    table = make_table(FOUR, tournament=tournament)
    record(table.game, None, ROUNDS[0])
    text = squeeze(pdftotext(sheet_pdf(table.game)))
    # Hélène 0, Çelik 7, Jürgen 12, Dirk 40, in seat order.
    assert "rank 1st 3rd 2nd 4th" in text and "(1.)" not in text
    assert "in progress: 1 round recorded" in text


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "in progress: 1 round recorded", "in progress: 2 rounds recorded"),
        ("nl", "bezig: 1 ronde ingevoerd", "bezig: 2 rondes ingevoerd"),
        # squeeze() makes the no-break space before the colon a space.
        ("fr", "en cours : 1 manche enregistrée", "en cours : 2 manches enregistrées"),
    ],
)
def test_a_games_state_agrees_with_its_count(tournament, language, one, two):
    """One sentence per count: never "1 manche enregistrées"."""
    table = make_table(FOUR, tournament=tournament)
    record(table.game, None, ROUNDS[0])
    with translation.override(language):
        first = pdftotext(sheet_pdf(table.game), layout=False)
        record(table.game, None, ROUNDS[2])
        second = pdftotext(sheet_pdf(table.game), layout=False)
    assert one in squeeze(first)
    assert two in squeeze(second)


@pytest.mark.parametrize(
    ("language", "word"), [("en", "initials"), ("nl", "paraaf"), ("fr", "visa")]
)
def test_the_blank_sheets_initials_row_keeps_its_word_whole(tournament, language, word):
    """The row's label is set smaller when it is wide, never split: Dutch printed "pa-raaf"."""
    make_table(FOUR, tournament=tournament, session_status="planned")
    with translation.override(language):
        content = pdfs.blank_score_sheets(tournament.sessions.get())
    text = pdftotext(content, layout=False)
    assert word in text.split()
    assert "-\n" not in text.split("25", 1)[1].split("Yaniv")[0]
