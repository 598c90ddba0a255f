"""Issue 37's table options on the director's form, the rules page and the stored games: seven
cards, jack-queen-king 11-12-13, the Assaf per challenger or on everyone's cards."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import rules
from tests.factories import make_table, make_tournament, record
from tests.tournaments.test_presets import browser_post, edit, field_error
from tournaments.models import Hand
from tournaments.rules_text import rule_lines

pytestmark = pytest.mark.django_db

SEVEN_OF_13 = {
    "cards_dealt": 7,
    "face_values": "11-12-13",
    "assaf": "per_challenger",
    "assaf_extra": 20,
}


def test_the_form_shows_the_new_table_options(director_client, tournament):
    html = director_client.get(reverse("manage:edit", args=[tournament.slug])).content.decode()
    assert 'name="face_values"' in html and 'name="assaf_extra"' in html
    assert '<option value="10" selected>10 each</option>' in html
    assert '<option value="11-12-13">11, 12 and 13</option>' in html
    assert '<option value="per_challenger">' in html and '<option value="others_cards">' in html
    assert "1–7; the largest hand is 10 × this (13 × with 11, 12, 13)." in html


def test_the_form_stores_seven_cards_of_13_and_the_assaf_per_challenger(
    director_client, tournament
):
    tournament.preset = "israeli"
    tournament.save()
    post = browser_post(
        tournament,
        cards_dealt="7",
        face_values="11-12-13",
        assaf="per_challenger",
        assaf_extra="20",
    )
    assert edit(director_client, tournament, post).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == SEVEN_OF_13
    assert tournament.ruleset == rules.ISRAELI.with_options(SEVEN_OF_13)
    # Sent back as shown, nothing changes.
    assert edit(director_client, tournament, browser_post(tournament)).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == SEVEN_OF_13


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"cards_dealt": "8"}, "cards_dealt", "A whole number from 1 to 7."),
        ({"assaf_extra": "101"}, "assaf_extra", "A whole number from 0 to 100."),
        (
            {"cards_dealt": "7", "yaniv_limit": "80"},
            "yaniv_limit",
            "At most the largest hand, 70 (the cards dealt × the highest card).",
        ),
    ],
)
def test_a_bad_new_option_is_an_error_at_its_field(
    director_client, tournament, changes, field, message
):
    response = edit(director_client, tournament, browser_post(tournament, **changes))
    assert response.status_code == 400
    assert message in field_error(response.content.decode(), field)
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_a_hand_of_91_is_stored_under_seven_cards_of_13_and_92_is_refused(referee):
    tournament = make_tournament(preset="israeli", rule_options=SEVEN_OF_13)
    table = make_table(referee=referee, tournament=tournament)
    hands = {"Ann": 3, "Bart": 91, "Chris": 3, "Dirk": 2}
    (stored,) = record(table.game, referee, {"hands": hands, "yaniv": "Ann"})
    # Chris (3) and Dirk (2) caught Ann: her 3 + 30 + 20.
    points = dict(stored.hands.values_list("seat__player__name", "points"))
    assert points == {"Ann": 53, "Bart": 91, "Chris": 3, "Dirk": 2}
    assert Hand.objects.get(round=stored, seat__player__name="Bart").hand_total == 91
    with pytest.raises(rules.GameError, match="hand of Bart must be an integer 0-91"):
        record(table.game, referee, {"hands": {**hands, "Bart": 92}, "yaniv": "Dirk"})


def test_the_rules_page_says_the_new_options_in_three_languages(client):
    make_tournament(slug="seven", preset="israeli", rule_options=SEVEN_OF_13)
    html = client.get(reverse("public:tournament_rules", args=["seven"])).content.decode()
    assert "<b>7 cards</b> dealt: a hand is at most <b>91</b>." in html
    assert "Jack, queen and king count <b>11, 12 and 13</b>." in html
    assert "<b>+30</b> for the first such hand and <b>+20</b> for each other one" in html
    ruleset = rules.ISRAELI.with_options(SEVEN_OF_13)
    for language, seven in (("nl", "<b>7 kaarten</b>"), ("fr", "<b>7 cartes</b>")):
        with translation.override(language):
            assert seven in " ".join(rule_lines(ruleset))


def test_the_rules_box_says_the_jokers_and_the_streaks_of_a_record():
    ruleset = rules.WIKIPEDIA_EN.with_options(
        {
            "joker_held": 25,
            "joker_value": -5,
            "assaf": "others_cards",
            "streak_bonus": [{"wins": 3, "points": -10}, {"assafs": 6, "reset": True}],
        }
    )
    text = " ".join(rule_lines(ruleset))
    assert "<b>+25</b> for every player but the caller" in text
    assert "counts <b>-5</b> in its holder's hand" in text
    assert "the caller scores <b>all the other hands added up</b>" in text
    assert "<b>3 rounds won in a row</b>" in text and "<b>-10</b>" in text
    assert "After <b>6 Assafs</b> (catching a caller)" in text
