"""A tournament's rule set: the engine's presets and rule options."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring import rules
from tests.factories import HTMX, make_table, make_tournament, make_user, record
from tests.printing.test_archive import export, import_file, snapshot, table_data, wipe
from tests.printing.test_downloads import csv_rows
from tests.tournaments.test_director_views import tournament_post
from tournaments.models import Tournament
from tournaments.sheets import GameSheet

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


def test_the_rule_set_is_locked_once_rounds_are_recorded(director_client, tournament, table):
    record(
        table.game, None, {"hands": {"Ann": 3, "Bart": 9, "Chris": 9, "Dirk": 9}, "yaniv": "Ann"}
    )
    url = reverse("manage:edit", args=[tournament.slug])
    post = tournament_post(slug=tournament.slug, status="running", preset="israeli")
    html = director_client.post(url, post).content.decode()
    assert "The rule set cannot change once rounds are recorded." in html
    tournament.refresh_from_db()
    assert tournament.preset == "belgian"


def test_the_rule_set_can_change_before_any_round(director_client, tournament):
    url = reverse("manage:edit", args=[tournament.slug])
    response = director_client.post(
        url, tournament_post(slug=tournament.slug, status="running", preset="israeli")
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.preset == "israeli"


# --- the table page under the israeli rules ----------------------------------------------


@pytest.fixture
def israeli_table(referee):
    """A table of three refereed by `referee` (see `referee_client`), under the israeli rules."""
    tournament = make_tournament(preset="israeli")
    return make_table(("Ann", "Bart", "Chris"), referee=referee, tournament=tournament)


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
    preview = referee_client.post(
        reverse("tables:preview", args=[israeli_table.pk]), data, headers=HTMX
    )
    html = preview.content.decode()
    assert "Assaf" in html
    assert "<bdi>Ann</bdi>: +33" in html
    response = referee_client.post(reverse("tables:record", args=[israeli_table.pk]), data)
    assert response.status_code == 302
    assert israeli_table.game.rounds.get().kind == "assaf"
    html = referee_client.get(israeli_table.get_absolute_url()).content.decode()
    assert '<td class="assaf"><span class="points">S +33</span>' in html


def test_an_eliminated_player_has_no_hand_in_later_rounds(referee_client, israeli_table):
    # Chris collects 45 a round: 45, 90, 135, 180, then 225 is above 200.
    chris_gets_45 = {"hands": {"Ann": 1, "Bart": 2, "Chris": 45}, "yaniv": "Ann"}
    record(israeli_table.game, israeli_table.referee, *[chris_gets_45] * 4)
    url = reverse("tables:preview", args=[israeli_table.pk])
    data = post(5, {1: 1, 2: 2, 3: 45})
    html = referee_client.post(url, data, headers=HTMX).content.decode()
    assert "Out of the game after this round: Chris." in html
    assert "This round ends the game" not in html
    response = referee_client.post(reverse("tables:record", args=[israeli_table.pk]), data)
    assert response.status_code == 302

    html = referee_client.get(israeli_table.get_absolute_url()).content.decode()
    assert 'name="hand_1"' in html and 'name="hand_2"' in html
    assert 'name="hand_3"' not in html
    assert "Out of the game" in html
    # Round 6 without Chris; a hand sent for Chris is ignored.
    data = post(6, {1: 4, 2: 9, 3: 12})
    response = referee_client.post(reverse("tables:record", args=[israeli_table.pk]), data)
    assert response.status_code == 302
    game = israeli_table.game
    game.refresh_from_db()
    sixth = game.rounds.get(number=6)
    assert sorted(hand.seat.player.name for hand in sixth.hands.all()) == ["Ann", "Bart"]
    totals = {seat.player.name: seat.total for seat in israeli_table.seats.all()}
    assert totals == {"Ann": 0, "Bart": 19, "Chris": 225}
    assert not game.finished

    html = referee_client.get(israeli_table.get_absolute_url()).content.decode()
    # In the sheet (the page's <template> of a row for its script has an out cell too).
    sheet = html.partition('<table class="sheet"')[2]
    assert sheet.count('<td class="out"') == 1
    rows = GameSheet.load(game).rows
    assert rows[-1].cells[2].out and rows[-1].cells[2].total == 225

    # A correction of round 6 keeps Chris out.
    correction = {**post(6, {1: 4, 2: 10}), "reason": "Bart had 10", "version": game.version}
    url = reverse("tables:correct", args=[israeli_table.pk, 6])
    response = referee_client.post(url, correction)
    assert response.status_code == 302
    totals = {seat.player.name: seat.total for seat in israeli_table.seats.all()}
    assert totals == {"Ann": 0, "Bart": 20, "Chris": 225}


def test_the_sheet_pdf_leaves_an_eliminated_players_cells_empty(referee_client, israeli_table):
    chris_gets_45 = {"hands": {"Ann": 1, "Bart": 2, "Chris": 45}, "yaniv": "Ann"}
    assaf = {"hands": {"Ann": 3, "Bart": 3}, "yaniv": "Ann"}
    record(israeli_table.game, israeli_table.referee, *[chris_gets_45] * 5, assaf)
    response = referee_client.get(reverse("tables:sheet_pdf", args=[israeli_table.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    import re

    from tests.printing.test_printing import pdftotext, round_line

    text = pdftotext(b"".join(response.streaming_content))
    # Chris went out after round 5 (225, above 200): round 6 has Ann's and Bart's cells only.
    assert round_line(text, 5).endswith("+45 225 out")
    assert re.fullmatch(r"6 ?S S \+33 33 L \+3 13", round_line(text, 6))
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
    response = client.get(reverse("public:rounds_csv", args=["il"]))
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
    html = client.get(reverse("public:tournament_rules", args=["il"])).content.decode()
    assert "Scoring rules: Israeli (pagat.com)" in html
    assert "the caller scores their hand <b>+30</b>" in html
    assert "<b>100 → 50 or 200 → 100</b>" in html
    assert "<b>Out</b> after the round in which a player is <b>above 200</b>" in html
    assert "the last player left wins" in html
    assert "left neighbour" not in html and "<b>Along</b>" not in html
    # The sheet's marks under Assaf rules: no along, no false Yaniv.
    assert "Assaf (another hand was as low or lower)" in html
    assert "false Yaniv" not in html


def test_the_rules_page_follows_the_rule_options(client):
    make_tournament(slug="en", preset="wikipedia_en", rule_options={"yaniv_limit": 5})
    html = client.get(reverse("public:tournament_rules", args=["en"])).content.decode()
    assert "<b>5 or less</b>" in html
    assert "In an Assaf, the lowest hand scores 0." in html
    # A hand of 50 takes 200 to 250, reduced to 200: every multiple a round can reach.
    assert "<b>Exactly 50, 100, 150, 200 or 250</b> after a round with points: <b>−50</b>" in html
    assert "anyone is <b>above 200</b>" in html


def test_a_belgian_tournaments_rules_page_is_the_site_rules_page(client):
    make_tournament(slug="bk", false_yaniv="others_score_hand")
    html = client.get(reverse("public:tournament_rules", args=["bk"])).content.decode()
    assert "32 + the left neighbour's hand" in html
    assert "<b>Exactly 50, 100 or 150</b> after a round with points: <b>−50</b>" in html
    assert "every other player adds their hand total, as if the round" in html


def test_a_private_tournaments_rules_are_404_for_strangers(client):
    make_tournament(slug="secret", is_public=False)
    assert client.get(reverse("public:tournament_rules", args=["secret"])).status_code == 404


# --- the printed rules ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(rules.RULESETS.values()))
def test_the_printed_rules_box_has_every_presets_numbers(ruleset):
    from tournaments.rules_text import marks_line, rule_lines

    text = " ".join([*rule_lines(ruleset), marks_line(ruleset)])
    assert "None" not in text
    assert f"{ruleset.yaniv_limit} or less" in text
    assert ("Assaf" in text) == ruleset.automatic_assaf
    assert ("False Yaniv" in text) == ruleset.scores_false_yaniv


def test_the_blank_sheets_of_an_israeli_tournament_print_its_rules():
    from printing import pdfs
    from tests.printing.test_printing import pdftotext, squeeze

    table = make_table(tournament=make_tournament(preset="israeli"))
    flat = squeeze(pdftotext(pdfs.blank_score_sheets(table.session)))
    assert "100 → 50 or 200 → 100" in flat
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
        assert texts.translated(refused.value) != message
    assert game.rounds.get(number=5).hands.get(seat__player__name="Chris").hand_total == 45


# --- the house rules on the director's form (issue 13): a field per option -----------------

OPTION_FIELD_NAMES = [
    "yaniv_limit",
    "yaniv_limit_warns",
    "cards_dealt",
    "face_values",
    "one_deck_up_to",
    "reductions",
    "reduce_every",
    "reduce_by",
    "reduction_needs_points",
    "end",
    "end_above",
    "deals_per_player",
    "assaf",
    "assaf_penalty",
    "assaf_extra",
    "assaf_zero",
]


def browser_post(tournament: Tournament | None = None, **changes: str) -> dict[str, str]:
    """What a browser sends back from the settings form as it was shown, with `changes`."""
    from tournaments.forms_director import TournamentForm

    form = TournamentForm(instance=tournament)
    post = tournament_post()
    if tournament:
        post.update(
            slug=tournament.slug,
            status=tournament.status,
            preset=tournament.preset,
            false_yaniv=tournament.false_yaniv,
        )
    for name in OPTION_FIELD_NAMES:
        value = form[name].value()
        post[name] = "" if value is None else str(value)
    post.update(changes)
    return post


def edit(client, tournament: Tournament, post: dict[str, str]):
    return client.post(reverse("manage:edit", args=[tournament.slug]), post)


def field_error(html: str, name: str) -> str:
    found = re.search(
        rf'<ul class="errorlist" id="id_{name}_error" role="alert">(.*?)</ul>', html, re.S
    )
    assert found, f"no error at {name}"
    return found.group(1)


def test_the_form_has_a_field_per_option_filled_in_with_the_tournaments_rules(
    director_client, tournament
):
    tournament.preset, tournament.rule_options = "israeli", {"yaniv_limit": 4, "assaf_penalty": 25}
    tournament.save()
    html = director_client.get(reverse("manage:edit", args=[tournament.slug])).content.decode()
    assert 'name="rule_options"' not in html and "Table options" not in html
    for name in OPTION_FIELD_NAMES:
        assert f'name="{name}"' in html, name
    assert 'name="yaniv_limit" value="4"' in html
    assert 'name="assaf_penalty" value="25"' in html
    assert 'name="end_above" value="200"' in html
    assert 'name="reductions" value="100 → 50, 200 → 100"' in html
    assert '<option value="elimination" selected>that player is out</option>' in html
    assert '<option value="hand_plus" selected>their hand + the Assaf penalty</option>' in html
    assert "The highest hand that may call Yaniv (0–91)." in html
    assert "<legend>Rules</legend>" in html


def test_a_form_sent_back_as_shown_changes_no_rule(director_client, tournament):
    tournament.preset = "wikipedia_en"
    tournament.rule_options = {"reductions": [[100, 20]], "end": "elimination"}
    tournament.save()
    assert edit(director_client, tournament, browser_post(tournament)).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {"reductions": [[100, 20]], "end": "elimination"}


def test_the_form_builds_the_options_that_differ_from_the_preset(director_client, tournament):
    tournament.preset = "israeli"
    tournament.save()
    post = browser_post(
        tournament,
        assaf="flat",
        assaf_penalty="25",
        assaf_zero="at_or_below_caller",
        reduction_needs_points="no",
        yaniv_limit_warns="yes",
        reductions="100 -> 50; 200 → 150",
        reduce_every="250",
        reduce_by="50",
        end_above="200",
    )
    assert edit(director_client, tournament, post).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {
        "reductions": [[100, 50], [200, 150]],
        "reduce_multiples": [250, 50],
        "assaf": "flat",
        "assaf_penalty": 25,
        "assaf_zero": "at_or_below_caller",
        "reduction_needs_points": False,
        "yaniv_limit_warns": True,
    }
    assert tournament.ruleset == rules.ISRAELI.with_options(tournament.rule_options)


def test_the_deals_per_player_field_ends_games_after_that_many_deals(director_client, tournament):
    post = browser_post(tournament, deals_per_player="2")
    assert edit(director_client, tournament, post).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {"deals_per_player": 2}
    assert tournament.ruleset.deal_limit(4) == 8
    page = director_client.get(reverse("public:tournament_rules", args=[tournament.slug]))
    assert "every player has dealt 2 times</b>, whichever comes first" in page.content.decode()
    # Back to 0: no such end, as the rule set says.
    post = browser_post(tournament, deals_per_player="0")
    assert edit(director_client, tournament, post).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_deals_per_player_above_50_is_refused_at_its_field(director_client, tournament):
    response = edit(director_client, tournament, browser_post(tournament, deals_per_player="51"))
    assert response.status_code == 400
    html = response.content.decode()
    assert "A whole number from 0 to 50." in field_error(html, "deals_per_player")
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_an_emptied_reduction_table_reduces_nothing(director_client, tournament):
    assert (
        edit(director_client, tournament, browser_post(tournament, reductions="")).status_code
        == 302
    )
    tournament.refresh_from_db()
    assert tournament.rule_options == {"reductions": []}
    assert tournament.ruleset.reduction_steps == ()


def test_a_number_left_empty_follows_the_rule_set(director_client, tournament):
    tournament.rule_options = {"end_above": 200}
    tournament.save()
    assert (
        edit(director_client, tournament, browser_post(tournament, end_above="")).status_code
        == 302
    )
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_changing_the_preset_does_not_turn_the_old_presets_numbers_into_house_rules(
    director_client, tournament
):
    # The form shows the Belgian numbers (limit 5, 50/100/150, above 150); the director picks
    # the French Wikipedia rules and sends the rest back as shown.
    post = browser_post(tournament, preset="wikipedia_fr")
    assert edit(director_client, tournament, post).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.preset, tournament.rule_options) == ("wikipedia_fr", {})
    assert tournament.ruleset == rules.WIKIPEDIA_FR


def test_a_house_rule_stays_when_the_preset_changes(director_client, tournament):
    tournament.rule_options = {"yaniv_limit": 3}
    tournament.save()
    assert (
        edit(director_client, tournament, browser_post(tournament, preset="israeli")).status_code
        == 302
    )
    tournament.refresh_from_db()
    assert (tournament.preset, tournament.rule_options) == ("israeli", {"yaniv_limit": 3})


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"reductions": "100 to 50"}, "reductions", "“100 to 50” is not."),
        ({"reductions": "100 → 50, 200"}, "reductions", "“200” is not."),
        ({"reductions": "50 → 60"}, "reductions", "Each total must become a smaller total"),
        ({"reductions": "100 → 50, 100 → 0"}, "reductions", "Each total once."),
        ({"reductions": "20000 → 50"}, "reductions", "Each total from 1 to 10000."),
        (
            {"reductions": ", ".join(f"{10 * n} → 0" for n in range(1, 22))},
            "reductions",
            "At most 20 reductions.",
        ),
        ({"reductions": "9" * 5000 + " → 1"}, "reductions", "at most 500 characters"),
        ({"reduce_every": "50", "reduce_by": ""}, "reduce_by", "Give both numbers, or neither."),
        ({"reduce_every": "5", "reduce_by": "5"}, "reduce_every", "A whole number from 10 to"),
        ({"reduce_every": "50", "reduce_by": "60"}, "reduce_by", "More than 0, at most"),
        ({"yaniv_limit": "92"}, "yaniv_limit", "A whole number from 0 to 91."),
        ({"yaniv_limit": "9" * 5000}, "yaniv_limit", "Enter a whole number."),
        (
            {"cards_dealt": "3", "yaniv_limit": "31"},
            "yaniv_limit",
            "At most the largest hand, 30",
        ),
        ({"assaf_penalty": "101"}, "assaf_penalty", "A whole number from 0 to 100."),
        ({"end_above": "0"}, "end_above", "A whole number from 1 to 10000."),
        ({"assaf": "half"}, "assaf", "Select a valid choice."),
    ],
)
def test_a_bad_option_is_an_error_at_its_field(
    director_client, tournament, changes, field, message
):
    response = edit(director_client, tournament, browser_post(tournament, **changes))
    assert response.status_code == 400
    assert message in field_error(response.content.decode(), field)
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_a_new_tournament_takes_house_rules_from_the_fields(client):
    from tests.tournaments.test_director_views import creator

    client.force_login(creator())
    post = browser_post(None, preset="israeli", assaf="flat", assaf_penalty="30")
    assert client.post(reverse("manage:new"), post).status_code == 302
    created = Tournament.objects.get()
    assert (created.preset, created.rule_options) == ("israeli", {"assaf": "flat"})


def test_the_options_are_locked_at_their_fields_once_rounds_are_recorded(
    director_client, tournament, table
):
    record(
        table.game, None, {"hands": {"Ann": 3, "Bart": 9, "Chris": 9, "Dirk": 9}, "yaniv": "Ann"}
    )
    page = director_client.get(reverse("manage:edit", args=[tournament.slug])).content.decode()
    assert "Rounds are recorded: the rules cannot change any more." in page
    response = edit(director_client, tournament, browser_post(tournament, end_above="300"))
    message = "The table options cannot change once rounds are recorded."
    assert message in field_error(response.content.decode(), "end_above")
    tournament.refresh_from_db()
    assert tournament.rule_options == {}
    # Sent back as shown, the rest of the settings can still change.
    assert (
        edit(director_client, tournament, browser_post(tournament, name="BK")).status_code == 302
    )


# --- bad or huge JSON: the admin and the archive import answer a clear error --------------


def admin_post(client, tournament: Tournament, **changes: str):
    """The admin's change form of `tournament` sent back as shown, with `changes`."""
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    page = client.get(url)
    assert page.status_code == 200
    data: dict[str, Any] = {}
    forms = [page.context["adminform"].form]
    for inline in page.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    for form in forms:
        for field in form:
            value = field.value()
            if value is None or value is False:
                continue
            data[field.html_name] = "on" if value is True else value
    data.update(changes)
    return client.post(url, data)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("[" * 2_000 + "]" * 2_000, "JSON nested more than 64 levels deep."),
        ('{"yaniv_limit": ' + "7" * 5_000 + "}", "A number of more than 100 digits."),
        ('{"yaniv_limit": 7', "Not valid JSON (line 1, column 18)."),
        (
            '{"reductions": ' + json.dumps([[n, 0] for n in range(1, 50_001)]) + "}",
            "More than 10000 characters of JSON.",
        ),
        (
            '{"reductions": ' + json.dumps([[n, 0] for n in range(1, 22)]) + "}",
            "Reductions: at most 20 pairs.",
        ),
    ],
    ids=["deep", "long number", "invalid", "huge", "too many pairs"],
)
def test_the_admin_answers_bad_or_huge_house_rules_with_an_error(client, options, message):
    tournament = make_tournament(slug="admin-bk")
    client.force_login(make_user("root", is_superuser=True, is_staff=True))
    response = admin_post(client, tournament, rule_options=options)
    assert response.status_code == 200
    assert message in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_the_admin_saves_good_house_rules_as_json(client):
    tournament = make_tournament(slug="admin-bk")
    client.force_login(make_user("root", is_superuser=True, is_staff=True))
    response = admin_post(client, tournament, rule_options='{"assaf_penalty": 25}')
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {"assaf_penalty": 25}
    assert admin_post(client, tournament, rule_options="").status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("[" * 2_000 + "]" * 2_000, "the file is not valid JSON: JSON nested more than 64 levels"),
        ('{"yaniv_limit": ' + "7" * 5_000 + "}", "the file is not valid JSON: a number of more"),
        (
            json.dumps({"reductions": [[n, 0] for n in range(1, 50_001)]}),
            "tournament: options: reductions: at most 20 pairs",
        ),
    ],
    ids=["deep", "long number", "too many pairs"],
)
def test_import_tournament_refuses_bad_or_huge_house_rules(
    israeli_game, tmp_path, options, message
):
    path = tmp_path / "il.json"
    call_command("export_tournament", "il", "-o", str(path), stderr=io.StringIO())
    data = json.loads(path.read_text("utf-8"))
    data["tournament"]["options"] = "OPTIONS"
    path.write_text(json.dumps(data).replace('"OPTIONS"', options, 1), "utf-8")
    wipe()
    with pytest.raises(CommandError, match=re.escape(message)):
        import_file(path)
    assert not Tournament.objects.exists()


def test_the_preview_warns_of_a_call_above_a_limit_that_only_warns(referee_client, referee):
    from tests.factories import HTMX

    tournament = make_tournament(slug="warns", rule_options={"yaniv_limit_warns": True})
    table = make_table(referee=referee, tournament=tournament)
    post = {"number": 1, "ending": "yaniv:1", "hand_1": 8, "hand_2": 12, "hand_3": 9, "hand_4": 20}
    response = referee_client.post(reverse("tables:preview", args=[table.pk]), post, headers=HTMX)
    html = response.content.decode()
    assert "Ann called Yaniv with 8, above the limit of 5: scored as any other call." in html
    assert "False Yaniv" not in html


def test_the_last_deal_is_previewed_and_recorded_as_the_end_of_the_game(
    referee_client, referee, tournament, table
):
    tournament.rule_options = {"deals_per_player": 1}
    tournament.save()
    small = {"hands": {"Ann": 1, "Bart": 9, "Chris": 8, "Dirk": 7}, "yaniv": "Ann"}
    record(table.game, referee, *[small] * 3)
    post = {"number": 4, "hand_1": 9, "hand_2": 1, "hand_3": 8, "hand_4": 7, "ending": "yaniv:2"}
    preview = referee_client.post(reverse("tables:preview", args=[table.pk]), post, headers=HTMX)
    assert "This round ends the game: every player has dealt once." in preview.content.decode()
    page = referee_client.post(reverse("tables:record", args=[table.pk]), post, headers=HTMX)
    table.game.refresh_from_db()
    assert table.game.finished and not table.game.ended_at_time_limit
    html = page.content.decode()
    assert "Winner: <bdi>Ann</bdi>" in html and "The game is over." in html
