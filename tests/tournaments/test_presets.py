"""A tournament's rule set: the engine's presets and rule options."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse

from scoring import rules
from tests.factories import make_table, make_tournament, make_user, record
from tests.tournaments.test_director_views import tournament_post
from tests.tournaments.test_exports import (
    csv_rows,
    export,
    import_file,
    snapshot,
    table_data,
    wipe,
)
from tournaments.models import Tournament

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


# --- the table page under the israeli rules ----------------------------------------------

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def israeli_table():
    referee = make_user("ref")
    tournament = make_tournament(preset="israeli")
    return make_table(("Ann", "Bart", "Chris"), referee=referee, tournament=tournament)


@pytest.fixture
def referee_client(client, israeli_table):
    client.force_login(israeli_table.referee)
    return client


def post(number, hands, ending="yaniv:1"):
    data = {"number": number, "ending": ending}
    data.update({f"hand_{seat}": hand for seat, hand in hands.items()})
    return data


def test_nobody_goes_along_under_automatic_assaf(referee_client, israeli_table):
    html = referee_client.get(israeli_table.get_absolute_url()).content.decode()
    assert 'name="hand_3"' in html
    assert 'name="along"' not in html


def test_an_assaf_shows_in_the_preview_and_on_the_sheet(referee_client, israeli_table):
    data = post(1, {1: 3, 2: 3, 3: 20})
    preview = referee_client.post(reverse("round_preview", args=[israeli_table.pk]), data, **HTMX)
    html = preview.content.decode()
    assert "Assaf" in html
    assert "Ann: +33" in html
    response = referee_client.post(reverse("record_round", args=[israeli_table.pk]), data)
    assert response.status_code == 302
    assert israeli_table.game.rounds.get().kind == "assaf"
    html = referee_client.get(israeli_table.get_absolute_url()).content.decode()
    assert '<td class="assaf"><span class="points">S +33</span>' in html


def test_an_eliminated_player_has_no_hand_in_later_rounds(referee_client, israeli_table):
    # Chris collects 45 a round: 45, 90, 135, 180, then 225 is above 200.
    chris_gets_45 = {"hands": {"Ann": 1, "Bart": 2, "Chris": 45}, "yaniv": "Ann"}
    record(israeli_table.game, israeli_table.referee, *[chris_gets_45] * 4)
    url = reverse("round_preview", args=[israeli_table.pk])
    data = post(5, {1: 1, 2: 2, 3: 45})
    html = referee_client.post(url, data, **HTMX).content.decode()
    assert "Out of the game after this round: Chris." in html
    assert "This round ends the game" not in html
    response = referee_client.post(reverse("record_round", args=[israeli_table.pk]), data)
    assert response.status_code == 302

    html = referee_client.get(israeli_table.get_absolute_url()).content.decode()
    assert 'name="hand_1"' in html and 'name="hand_2"' in html
    assert 'name="hand_3"' not in html
    assert "Out of the game" in html
    # Round 6 without Chris; a hand sent for Chris is ignored.
    data = post(6, {1: 4, 2: 9, 3: 12})
    response = referee_client.post(reverse("record_round", args=[israeli_table.pk]), data)
    assert response.status_code == 302
    game = israeli_table.game
    game.refresh_from_db()
    sixth = game.rounds.get(number=6)
    assert sorted(hand.seat.player.name for hand in sixth.hands.all()) == ["Ann", "Bart"]
    totals = {seat.player.name: seat.total for seat in israeli_table.seats.all()}
    assert totals == {"Ann": 0, "Bart": 19, "Chris": 225}
    assert not game.finished

    html = referee_client.get(israeli_table.get_absolute_url()).content.decode()
    assert html.count('<td class="out"') == 1
    rows = game.sheet().rows()
    assert rows[-1].cells[2].out and rows[-1].cells[2].total == 225

    # A correction of round 6 keeps Chris out.
    correction = {**post(6, {1: 4, 2: 10}), "reason": "Bart had 10", "version": game.version}
    url = reverse("correct_round", args=[israeli_table.pk, 6])
    response = referee_client.post(url, correction)
    assert response.status_code == 302
    totals = {seat.player.name: seat.total for seat in israeli_table.seats.all()}
    assert totals == {"Ann": 0, "Bart": 20, "Chris": 225}


def test_the_sheet_pdf_leaves_an_eliminated_players_cells_empty(referee_client, israeli_table):
    chris_gets_45 = {"hands": {"Ann": 1, "Bart": 2, "Chris": 45}, "yaniv": "Ann"}
    assaf = {"hands": {"Ann": 3, "Bart": 3}, "yaniv": "Ann"}
    record(israeli_table.game, israeli_table.referee, *[chris_gets_45] * 5, assaf)
    response = referee_client.get(reverse("table_sheet_pdf", args=[israeli_table.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    html = referee_client.get(israeli_table.get_absolute_url()).content.decode()
    assert "200: above it a player is out" in html


# --- exports -------------------------------------------------------------------------------


@pytest.fixture
def israeli_game(israeli_table):
    tournament = israeli_table.session.tournament
    tournament.slug, tournament.rule_options = "il", {"yaniv_limit": 4}
    tournament.save()
    chris_gets_45 = {"hands": {"Ann": 1, "Bart": 2, "Chris": 45}, "yaniv": "Ann"}
    assaf = {"hands": {"Ann": 3, "Bart": 3}, "yaniv": "Ann"}
    record(israeli_table.game, israeli_table.referee, *[chris_gets_45] * 5, assaf)
    return israeli_table


def test_the_rounds_csv_names_an_assaf(client, israeli_game):
    response = client.get(reverse("rounds_csv", args=["il"]))
    rows = csv_rows(response)
    # Five rounds of three hands, then one of two: Chris is out.
    assert len(rows) == 1 + 5 * 3 + 2
    ann_in_round_6 = next(row for row in rows if row[3] == "6" and row[4] == "Ann")
    assert ann_in_round_6[5:] == ["3", "assaf", "no", "33", "0", "33"]


def test_the_json_export_carries_the_preset_and_its_options(israeli_game, tmp_path):
    data = export("il")
    assert data["tournament"]["preset"] == "israeli"
    assert data["tournament"]["options"] == {"yaniv_limit": 4}
    record_ = table_data(data, 1, 1)["game"]["record"]
    assert (record_["ruleset"], record_["options"]) == ("israeli", {"yaniv_limit": 4})
    assert record_["rounds"][5] == {"hands": {"Ann": 3, "Bart": 3}, "yaniv": "Ann"}

    path = tmp_path / "il.json"
    call_command("export_tournament", "il", "-o", str(path), stderr=io.StringIO())
    before = snapshot("il")
    wipe()
    import_file(path)
    assert snapshot("il") == before
    imported = Tournament.objects.get(slug="il")
    assert imported.ruleset == rules.ISRAELI.with_options({"yaniv_limit": 4})


# --- the rules page ------------------------------------------------------------------------


def test_a_tournaments_rules_page_tells_its_rules_in_words(client):
    make_tournament(slug="il", preset="israeli")
    html = client.get(reverse("tournament_rules", args=["il"])).content.decode()
    assert "Scoring rules (Israeli (pagat.com))" in html
    assert "it is an Assaf: the caller adds their own hand plus <strong>30</strong>" in html
    assert "<strong>100 → 50, 200 → 100</strong>" in html
    assert "is out and plays no more rounds; the last player left wins" in html
    assert "left neighbour" not in html and "goes along with a Yaniv" not in html


def test_the_rules_page_follows_the_rule_options(client):
    make_tournament(slug="en", preset="wikipedia_en", rule_options={"yaniv_limit": 5})
    html = client.get(reverse("tournament_rules", args=["en"])).content.decode()
    assert "<strong>5 or less</strong>" in html
    assert "the player or players with the lowest hand score 0" in html
    assert "A total of exactly 50, 100, 150, 200 is reduced by <strong>50</strong>" in html
    assert "anyone goes <strong>above 200</strong>" in html


def test_a_belgian_tournaments_rules_page_is_the_site_rules_page(client):
    make_tournament(slug="bk", false_yaniv="others_score_hand")
    html = client.get(reverse("tournament_rules", args=["bk"])).content.decode()
    assert "32 + the hand of their left neighbour" in html
    assert "A total of exactly 50, 100, 150 is reduced by <strong>50</strong>" in html
    assert "every other player adds their hand total, as if the round" in html


def test_a_private_tournaments_rules_are_404_for_strangers(client):
    make_tournament(slug="secret", is_public=False)
    assert client.get(reverse("tournament_rules", args=["secret"])).status_code == 404


# --- the printed rules ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(rules.RULESETS.values()))
def test_the_printed_rules_box_has_every_presets_numbers(ruleset):
    from tournaments.pdf import rules_lines

    text = " ".join(rules_lines(ruleset))
    assert "None" not in text
    assert f"{ruleset.yaniv_limit} or less" in text
    assert ("Assaf" in text) == ruleset.automatic_assaf
    assert ("False Yaniv" in text) == ruleset.scores_false_yaniv


def test_the_blank_sheets_of_an_israeli_tournament_print_its_rules():
    from tests.tournaments.test_pdf import pdftotext, squeeze
    from tournaments import pdf

    table = make_table(tournament=make_tournament(preset="israeli"))
    flat = squeeze(pdftotext(pdf.blank_score_sheets(table.session)))
    assert "100 → 50, 200 → 100" in flat
    assert "the last player left wins" in flat


def test_a_correction_that_brings_a_player_back_is_refused(israeli_table):
    from django.utils import translation

    from tournaments import texts

    chris_gets_45 = {"hands": {"Ann": 1, "Bart": 2, "Chris": 45}, "yaniv": "Ann"}
    game = israeli_table.game
    record(game, None, *[chris_gets_45] * 5, {"hands": {"Ann": 3, "Bart": 9}, "yaniv": "Ann"})
    stays_in = rules.Round({"Ann": 1, "Bart": 2, "Chris": 10}, yaniv="Ann")
    with pytest.raises(rules.GameError) as refused:
        game.correct_round(5, stays_in, by=None, reason="Chris had 10", version=game.version)
    message = refused.value.message
    assert message == (
        "this correction changes who is out of the game before round 6: "
        "undo the rounds after it first"
    )
    with translation.override("nl"):
        assert texts.GAME_ERRORS.translate(message) != message
    assert game.rounds.get(number=5).hands.get(seat__player__name="Chris").hand_total == 45
