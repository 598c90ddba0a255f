"""Every renderer of a game's sheet shows the marks and the legend of the game's rule set.

One game per preset, with every mark that preset can show; the table page, the player page,
the filled PDF, the rounds CSV and the terminal sheet must all agree with
`scoring.sheet.legend` — the israeli sheet printed the Belgian legend once.
"""

from __future__ import annotations

import html
import io
import json
import re
import sys
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from printing import pdfs
from scoring import rules
from scoring.records import game_to_record
from scoring.sheet import LETTERS, MEANINGS, Mark, legend
from tests.factories import make_table, make_tournament, make_user, record
from tests.printing.test_printing import pdftotext, squeeze
from tournaments.models import Player
from tournaments.sheets import GameSheet

pytestmark = pytest.mark.django_db

PLAYERS = ("Ann", "Bart", "Chris", "Dirk")


def rounds_of(preset: str) -> list[dict[str, Any]]:
    """Rounds that make every mark of the preset appear at least once."""
    if preset == "belgian":
        return [
            {
                "hands": {"Ann": 3, "Bart": 2, "Chris": 9, "Dirk": 12},
                "yaniv": "Ann",
                "along": ["Bart"],
            },
            {"hands": {"Ann": 4, "Bart": 6, "Chris": 8, "Dirk": 5}, "yaniv": "Chris"},
            {"hands": {"Ann": 4, "Bart": 6, "Chris": 8, "Dirk": 0}, "empty_hand": "Dirk"},
        ]
    limit = rules.RULESETS[preset].yaniv_limit
    played = [
        # Bart holds fewer than Ann: an Assaf, Bart's the lowest hand.
        {"hands": {"Ann": limit, "Bart": 1, "Chris": 9, "Dirk": 12}, "yaniv": "Ann"},
        {"hands": {"Ann": 14, "Bart": 6, "Chris": 2, "Dirk": 5}, "yaniv": "Chris"},
        {"hands": {"Ann": 4, "Bart": 6, "Chris": 8, "Dirk": 0}, "empty_hand": "Dirk"},
    ]
    if preset == "israeli":
        # Chris collects 45 a round until he is above 200 and out.
        chris_45 = {"hands": {"Ann": 1, "Bart": 3, "Chris": 45, "Dirk": 4}, "yaniv": "Ann"}
        played += [chris_45] * 5
    return played


@pytest.fixture(params=list(rules.RULESETS))
def game(request):
    preset = request.param
    referee = make_user(f"ref-{preset}")
    table = make_table(
        players=PLAYERS,
        referee=referee,
        tournament=make_tournament(slug=f"t-{preset.replace('_', '-')}", preset=preset),
    )
    record(table.game, referee, *rounds_of(preset))
    table.refresh_from_db()
    return table


def legend_on_page(page: str) -> list[tuple[str, str]]:
    """(letter, meaning) of a page's legend, in order."""
    match = re.search(r'<p class="legend">(.*?)</p>', page, re.DOTALL)
    assert match, "the page has no legend"
    return [
        (html.unescape(letter), html.unescape(meaning).strip())
        for letter, meaning in re.findall(r"<b>(.*?)</b> ([^·<]*)", match.group(1))
    ]


def expected_legend(ruleset: rules.Ruleset) -> list[tuple[str, str]]:
    from tournaments import texts

    return [(texts.mark_letter(mark), texts.mark_meaning(mark)) for mark in legend(ruleset)]


def marks_shown(sheet: GameSheet) -> set[Mark]:
    return {cell.mark for row in sheet.rows for cell in row.cells if cell.mark} | {
        Mark.OUT for row in sheet.rows for cell in row.cells if cell.went_out
    }


def test_the_game_shows_every_mark_its_preset_can_show(game):
    sheet = GameSheet.load(game.game)
    assert marks_shown(sheet) == set(legend(sheet.ruleset))


def test_the_table_page_lists_the_presets_marks_and_marks_the_cells(client, game):
    page = client.get(reverse("tables:detail", args=[game.pk])).content.decode()
    sheet = GameSheet.load(game.game)
    assert legend_on_page(page) == expected_legend(sheet.ruleset)
    for mark in legend(sheet.ruleset):
        if mark is not Mark.OUT:
            assert f'<td class="{mark}">' in page, mark
    assert ('<span class="went-out">' in page) == sheet.ruleset.eliminates


def test_the_player_page_lists_the_presets_marks(client, game):
    ann = Player.objects.get(name="Ann", seats__table=game)
    url = reverse("public:player", args=[game.session.tournament.slug, ann.pk])
    page = client.get(url).content.decode()
    sheet = GameSheet.load(game.game)
    assert legend_on_page(page) == expected_legend(sheet.ruleset)
    marked = {str(cell.mark) for _, cell in sheet.sheet.column("Ann") if cell.mark}
    assert marked and set(re.findall(r'<td class="(\w+)">', page)) == marked


def test_the_filled_pdf_prints_the_presets_legend(game):
    sheet = GameSheet.load(game.game)
    text = squeeze(pdftotext(pdfs.filled_score_sheet(sheet)))
    marks = " · ".join(f"{letter} {meaning}" for letter, meaning in expected_legend(sheet.ruleset))
    assert f"Marks: {marks}" in text
    if not sheet.ruleset.scores_false_yaniv:
        assert "false Yaniv" not in text and "A along" not in text


def test_the_rounds_csv_names_how_each_round_ended_by_the_presets_marks(client, game):
    url = reverse("public:rounds_csv", args=[game.session.tournament.slug])
    response = client.get(url)
    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    ended = {line.split(",")[6] for line in lines[1:]} - {""}
    ruleset = GameSheet.load(game.game).ruleset
    expected = {"yaniv", "empty hand"}
    if ruleset.automatic_assaf:
        expected.add("assaf")
    if ruleset.scores_false_yaniv:
        expected.add("false yaniv")
    assert ended == expected


def test_the_terminal_sheet_prints_the_presets_legend(game):
    sheet = GameSheet.load(game.game)
    out = io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(json.dumps(game_to_record(sheet.engine_game())))
    try:
        call_command("score_game", "-", "--format", "table", stdout=out)
    finally:
        sys.stdin = stdin
    last = out.getvalue().splitlines()[-1]
    for mark in legend(sheet.ruleset):
        assert MEANINGS[mark] in last, mark
    for mark in set(Mark) - set(legend(sheet.ruleset)):
        assert f"{LETTERS[mark]} {MEANINGS[mark]}" not in last, mark
