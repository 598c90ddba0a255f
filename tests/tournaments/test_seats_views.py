"""A director at a table beside its rounds (points at a seat, a substitute, a swap) and the
tournament's penalty and bonus points: each view's normal case, htmx, anonymous and wrong
role; nothing written by a refused form or a stranger."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import HTMX, make_table, make_user, record
from tournaments.models import Adjustment, GameChange, Player, Registration, Seat, Substitution

pytestmark = pytest.mark.django_db

ROUND = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}


@pytest.fixture
def playing(tournament, referee):
    table = make_table(tournament=tournament, referee=referee)
    for player in table.seats.values_list("player", flat=True):
        Registration.objects.create(tournament=tournament, player_id=player, checked_in=True)
    record(table.game, referee, ROUND)
    return table


def manage(name, tournament, *args):
    return reverse(f"manage:{name}", args=[tournament.slug, *args])


def seat(table, position) -> Seat:
    return Seat.objects.get(table=table, position=position)


def test_the_seats_page_shows_totals_points_and_the_forms(director_client, tournament, playing):
    page = director_client.get(manage("table_seats", tournament, playing.pk))
    assert page.status_code == 200
    assert "Give penalty or bonus points" in page.text and "A substitute" in page.text
    part = director_client.get(manage("table_seats", tournament, playing.pk), headers=HTMX)
    assert 'id="seats"' in part.text and "<html" not in part.text


def test_game_points_at_a_seat(director_client, tournament, playing):
    post = {
        "seat": seat(playing, 2).pk,
        "kind": "penalty",
        "unit": "game",
        "points": "10",
        "reason": "late",
    }
    answer = director_client.post(manage("seat_points", tournament, playing.pk), post)
    assert answer.status_code == 302
    assert seat(playing, 2).adjusted_total == 11
    by_htmx = director_client.post(
        manage("seat_points", tournament, playing.pk), {**post, "kind": "bonus"}, headers=HTMX
    )
    assert by_htmx.status_code == 200 and "Bonus: −10 game points to Bart (late)" in by_htmx.text
    assert seat(playing, 2).adjusted_total == 1
    assert playing.game.changes.filter(action=GameChange.Action.ADJUST).count() == 2


def test_refused_points_are_shown_on_the_form_and_nothing_is_written(
    director_client, tournament, playing
):
    post = {"seat": seat(playing, 2).pk, "kind": "penalty", "unit": "game"}
    answer = director_client.post(
        manage("seat_points", tournament, playing.pk),
        {**post, "points": "2.5", "reason": "other", "text": ""},
        headers=HTMX,
    )
    # htmx swaps only a 2xx answer: the form with its errors, where they were typed.
    assert answer.status_code == 200
    assert (
        "Game points are whole numbers" in answer.text and "Say what the reason is" in answer.text
    )
    assert not Adjustment.objects.exists()


def test_a_substitute_from_the_registered_players(director_client, tournament, playing):
    fien = Player.objects.create(name="Fien")
    Registration.objects.create(tournament=tournament, player=fien)
    answer = director_client.post(
        manage("seat_substitute", tournament, playing.pk),
        {"seat": seat(playing, 2).pk, "player": fien.pk, "reason": "unwell"},
        headers=HTMX,
    )
    assert answer.status_code == 200 and "Fien plays for Bart from round 2" in answer.text
    assert "Bart</bdi> rounds 1–1" in answer.text
    assert seat(playing, 2).player == fien


def test_a_new_player_as_substitute_is_registered_with_it(director_client, tournament, playing):
    answer = director_client.post(
        manage("seat_substitute", tournament, playing.pk),
        {"seat": seat(playing, 2).pk, "name": "Gust", "club": "Gent", "member_number": "9"},
    )
    assert answer.status_code == 302
    gust = Player.objects.get(name="Gust")
    assert gust.club is not None and gust.club.name == "Gent"
    assert Registration.objects.get(player=gust, tournament=tournament).checked_in


def test_a_refused_substitute_registers_nobody(director_client, tournament, referee):
    table = make_table(tournament=tournament, referee=referee)  # no round yet
    answer = director_client.post(
        manage("seat_substitute", tournament, table.pk),
        {"seat": seat(table, 2).pk, "name": "Gust"},
    )
    assert answer.status_code == 400 and "no round is recorded yet" in answer.text.lower()
    assert not Player.objects.filter(name="Gust").exists()
    assert not Substitution.objects.exists()


def test_two_seats_swapped(director_client, tournament, playing):
    post = {"first": seat(playing, 2).pk, "second": seat(playing, 3).pk, "reason": "typed wrong"}
    answer = director_client.post(manage("seat_swap", tournament, playing.pk), post, headers=HTMX)
    assert answer.status_code == 200 and "changed seats" in answer.text
    assert seat(playing, 2).player.name == "Chris"
    same = director_client.post(
        manage("seat_swap", tournament, playing.pk),
        {**post, "second": post["first"]},
    )
    assert same.status_code == 400 and "two different seats" in same.text


def test_a_table_of_another_tournament_is_not_found(director_client, tournament, playing):
    other = make_table(("Eva", "Finn", "Gert"))
    assert director_client.get(manage("table_seats", tournament, other.pk)).status_code == 404


@pytest.mark.parametrize("name", ["seat_points", "seat_substitute", "seat_swap"])
def test_strangers_change_nothing_at_a_table(tournament, playing, name):
    post = {
        "seat": seat(playing, 2).pk,
        "first": seat(playing, 2).pk,
        "second": seat(playing, 3).pk,
        "kind": "penalty",
        "unit": "game",
        "points": "10",
        "reason": "late",
        "name": "Intruder",
    }
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    target = manage(name, tournament, playing.pk)
    assert stranger.post(target, post).status_code == 403
    assert Client().post(target, post).status_code == 403
    assert Client().get(manage("table_seats", tournament, playing.pk)).status_code == 302
    assert stranger.get(manage("table_seats", tournament, playing.pk)).status_code == 403
    assert not Adjustment.objects.exists() and not Substitution.objects.exists()
    assert seat(playing, 2).player.name == "Bart"


# --- the tournament's penalty and bonus points ----------------------------------------------


def test_placement_points_to_a_player_corrected_and_removed(director_client, tournament, playing):
    ann = Player.objects.get(name="Ann")
    page = director_client.get(manage("adjustments", tournament))
    assert page.status_code == 200 and "None given" in page.text
    given = director_client.post(
        manage("adjustment_give", tournament),
        {"player": ann.pk, "kind": "penalty", "points": "1.5", "reason": "conduct"},
    )
    assert given.status_code == 302
    adjustment = Adjustment.objects.get()
    assert (adjustment.unit, adjustment.signed) == ("placement", -adjustment.points)
    corrected = director_client.post(
        manage("adjustment_correct", tournament, adjustment.pk),
        {
            f"a{adjustment.pk}-kind": "penalty",
            f"a{adjustment.pk}-points": "1",
            f"a{adjustment.pk}-reason": "conduct",
            f"a{adjustment.pk}-text": "",
            f"a{adjustment.pk}-why": "one point is the rule",
        },
        headers=HTMX,
    )
    assert corrected.status_code == 200 and 'id="given"' in corrected.text
    assert "one point is the rule" in corrected.text
    adjustment.refresh_from_db()
    assert adjustment.points == 1
    no_why = director_client.post(manage("adjustment_remove", tournament, adjustment.pk), {})
    assert no_why.status_code == 400
    removed = director_client.post(
        manage("adjustment_remove", tournament, adjustment.pk), {"why": "a mistake"}
    )
    assert removed.status_code == 302
    adjustment.refresh_from_db()
    assert adjustment.removed and adjustment.removal_reason == "a mistake"
    part = director_client.get(manage("adjustments", tournament), headers=HTMX)
    assert "<del>" in part.text and "a mistake" in part.text


def test_half_points_only(director_client, tournament, playing):
    ann = Player.objects.get(name="Ann")
    answer = director_client.post(
        manage("adjustment_give", tournament),
        {"player": ann.pk, "kind": "bonus", "points": "1.3", "reason": "ruling"},
        headers=HTMX,
    )
    assert answer.status_code == 200 and "halves" in answer.text
    assert not Adjustment.objects.exists()


@pytest.mark.parametrize("name", ["adjustment_give", "adjustment_correct", "adjustment_remove"])
def test_strangers_give_and_change_no_points(tournament, playing, director, name):
    ann = Player.objects.get(name="Ann")
    given = Adjustment.give(
        tournament, ann, by=director, kind="bonus", unit="placement", points=1, reason="ruling"
    )
    args = [] if name == "adjustment_give" else [given.pk]
    post = {"player": ann.pk, "kind": "penalty", "points": "5", "reason": "late", "why": "x"}
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    target = manage(name, tournament, *args)
    assert stranger.post(target, post).status_code == 403
    assert Client().post(target, post).status_code == 403
    assert stranger.get(manage("adjustments", tournament)).status_code == 403
    given.refresh_from_db()
    assert Adjustment.objects.count() == 1 and not given.removed and given.points == 1
