"""A tournament's rule set: the engine's presets and rule options."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring import rules
from tests.factories import make_table, make_tournament, make_user, record
from tests.tournaments.test_director_views import tournament_post

pytestmark = pytest.mark.django_db

ISRAELI_ROUNDS = [
    # Bart holds as few points as the caller: an Assaf, Ann scores 3 + 30.
    {"hands": {"Ann": 3, "Bart": 3, "Chris": 20}, "yaniv": "Ann"},
    {"hands": {"Ann": 40, "Bart": 2, "Chris": 30}, "yaniv": "Bart"},
    # Ann lands on exactly 100: 50 under the israeli rules.
    {"hands": {"Ann": 27, "Bart": 10, "Chris": 1}, "yaniv": "Chris"},
]


def test_a_new_tournament_plays_the_belgian_rules():
    tournament = make_tournament()
    assert tournament.preset == "belgian"
    assert tournament.rule_options == {}
    assert tournament.ruleset == rules.BELGIAN


def test_the_belgian_false_yaniv_option_is_kept():
    tournament = make_tournament(false_yaniv="others_score_hand")
    assert tournament.ruleset == rules.BELGIAN.with_options({"false_yaniv": "others_score_hand"})


def test_a_preset_without_a_false_yaniv_ignores_that_option():
    tournament = make_tournament(preset="israeli", false_yaniv="others_score_hand")
    assert tournament.ruleset == rules.ISRAELI


def test_rule_options_apply_on_top_of_the_preset():
    tournament = make_tournament(preset="wikipedia_fr", rule_options={"yaniv_limit": 5})
    assert tournament.ruleset == rules.WIKIPEDIA_FR.with_options({"yaniv_limit": 5})


@pytest.mark.parametrize("options", [{"yaniv": 3}, {"yaniv_limit": 99}, ["yaniv_limit"]])
def test_bad_rule_options_are_refused(options):
    tournament = make_tournament(preset="israeli", rule_options=options)
    with pytest.raises(ValidationError) as refused:
        tournament.full_clean()
    assert "rule_options" in refused.value.message_dict


def test_a_tournament_under_israeli_rules_scores_its_games_so():
    table = make_table(("Ann", "Bart", "Chris"), tournament=make_tournament(preset="israeli"))
    record(table.game, None, *ISRAELI_ROUNDS)
    game = table.game
    assert [stored.kind for stored in game.rounds.order_by("number")] == [
        "assaf",
        "yaniv",
        "yaniv",
    ]
    totals = {seat.player.name: seat.total for seat in table.seats.select_related("player")}
    assert totals == {"Ann": 50, "Bart": 13, "Chris": 50}
    first = game.rounds.get(number=1).hands.get(seat__player__name="Ann")
    assert (first.points, first.total) == (33, 33)
    third = game.rounds.get(number=3).hands.get(seat__player__name="Ann")
    assert (third.points, third.reduction, third.total) == (27, 50, 50)
    assert not game.finished


def test_the_rule_set_is_locked_once_rounds_are_recorded(client):
    director = make_user("director")
    tournament = make_tournament(directors=[director], slug="bk-2026")
    table = make_table(tournament=tournament)
    record(
        table.game, None, {"hands": {"Ann": 3, "Bart": 9, "Chris": 9, "Dirk": 9}, "yaniv": "Ann"}
    )
    client.force_login(director)
    url = reverse("manage_edit", args=[tournament.slug])
    post = tournament_post(slug="bk-2026", status="running", preset="israeli")
    html = client.post(url, post).content.decode()
    assert "The rule set cannot change once rounds are recorded." in html
    tournament.refresh_from_db()
    assert tournament.preset == "belgian"


def test_the_rule_set_can_change_before_any_round(client):
    director = make_user("director")
    tournament = make_tournament(directors=[director], slug="bk-2026")
    client.force_login(director)
    url = reverse("manage_edit", args=[tournament.slug])
    response = client.post(
        url, tournament_post(slug="bk-2026", status="running", preset="israeli")
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.preset == "israeli"
