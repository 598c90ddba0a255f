"""Issue 37: the filled score sheet says what the house rules did, round by round."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.utils import translation

from printing import pdfs
from tests.factories import make_table
from tests.printing.test_archive import import_file, wipe
from tests.printing.test_printing import pdftotext, squeeze
from tests.tournaments.test_house_rules_site import (
    JOIN_ROUNDS,
    PLAYERS,
    ROUNDS,
    house_game,
    join_round,
    record_all,
)
from tournaments.models import Tournament
from tournaments.sheets import GameSheet

pytestmark = pytest.mark.django_db


def test_the_filled_sheet_lists_the_streak_bonus_the_jokers_and_the_reset(referee):
    game = house_game(referee)
    record_all(game, referee, ROUNDS)
    text = squeeze(pdftotext(pdfs.filled_score_sheet(GameSheet.load(game))))
    assert "What the house rules did" in text
    assert "Round 2: +10 for the jokers Bart held; +25 streak bonus for Ann" in text
    assert "Round 4: Chris back to 0 after an Assaf streak" in text


def test_the_filled_sheet_says_it_in_dutch_too(referee):
    game = house_game(referee)
    record_all(game, referee, ROUNDS[:2])
    with translation.override("nl"):
        text = squeeze(pdftotext(pdfs.filled_score_sheet(GameSheet.load(game))))
    assert "Ronde 2:" in text and "+25" in text
    assert "What the house rules did" not in text


def test_a_plain_game_has_no_house_rules_section(referee):
    game = make_table(("Ann", "Bart"), referee=referee).game
    record_all(game, referee, ({"hands": {"Ann": 2, "Bart": 9}, "yaniv": "Ann"},))
    text = squeeze(pdftotext(pdfs.filled_score_sheet(GameSheet.load(game))))
    assert "house rules" not in text


def test_an_archive_of_a_game_with_a_join_jokers_and_streaks_imports_as_it_was(referee, tmp_path):
    game = house_game(referee)
    game.table.session.tournament.slug = "house"
    game.table.session.tournament.save()
    rounds = (*ROUNDS[:2], {**JOIN_ROUNDS[1], "hands": {**JOIN_ROUNDS[1]["hands"]}})
    for number, entry in enumerate(rounds, start=1):
        game.record_round(join_round(entry), by=referee, number=number)
    before = GameSheet.load(game)
    cells = [
        (row.number, [(c.hand_total, c.points, c.total, c.bonus) for c in row.cells])
        for row in before.rows
    ]
    path = tmp_path / "house.json"
    call_command("export_tournament", "house", "-o", str(path), stderr=io.StringIO())
    wipe()
    import_file(path)
    tournament = Tournament.objects.get(slug="house")
    (game,) = [table.game for table in tournament.sessions.get().tables.all()]
    after = GameSheet.load(game)
    assert after.starting_players == before.starting_players == PLAYERS
    assert [
        (row.number, [(c.hand_total, c.points, c.total, c.bonus) for c in row.cells])
        for row in after.rows
    ] == cells
    assert after.rows[2].notes[0].message == "Dirk joined at 40"
    assert after.entries(after.stored_rounds[1]).jokers == {"Bart": 1}
