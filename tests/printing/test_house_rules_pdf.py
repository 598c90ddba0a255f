"""Issue 37: the filled score sheet says what the house rules did, round by round."""

from __future__ import annotations

import pytest
from django.utils import translation

from printing import pdfs
from tests.printing.test_printing import pdftotext, squeeze
from tests.tournaments.test_house_rules_site import ROUNDS, house_game, record_all
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
    from tests.factories import make_table

    game = make_table(("Ann", "Bart"), referee=referee).game
    record_all(game, referee, ({"hands": {"Ann": 2, "Bart": 9}, "yaniv": "Ann"},))
    text = squeeze(pdftotext(pdfs.filled_score_sheet(GameSheet.load(game))))
    assert "house rules" not in text
