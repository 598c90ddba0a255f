"""Check-in at the door, as the models and the door's registrations take it: the safeguard,
the undo window, approval, the capacity and its waiting list, the bounds on what a phone sends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import make_tournament, make_user
from tournaments import checkin
from tournaments.errors import Refused
from tournaments.models import Club, Door, EntryRequest, Player, Registration
from tournaments.models.checkin import OPEN_REQUESTS, UNDO_MINUTES

pytestmark = pytest.mark.django_db


@pytest.fixture
def door(tournament) -> Door:
    door = Door.of(tournament)
    door.set_up(is_open=True)
    return door


def registered(tournament, name, number="") -> Registration:
    player = Player.objects.create(name=name, member_number=number)
    return Registration.objects.create(tournament=tournament, player=player)


def test_a_door_has_a_short_address_and_a_desk_code(tournament):
    door = Door.of(tournament)
    assert Door.of(tournament) == door
    assert len(door.code) == 6 and not set(door.code) & set("01IO")
    assert door.desk_code.isdigit() and len(door.desk_code) == 6
    assert Door.find(door.code.lower()[:3] + " " + door.code[3:]) == door
    assert Door.find("ABC") is None and Door.find("0" * 6) is None


def test_a_player_checks_in_on_their_phone_and_may_undo_it_a_while(door, tournament):
    ann = registered(tournament, "Ann")
    door.check_in(ann, device="a" * 16)
    assert (ann.checked_in, ann.checked_in_how) == (True, "phone")
    assert ann.checked_in_at is not None
    with pytest.raises(Refused) as refused:
        door.undo(ann, device="b" * 16)
    assert refused.value.code == "door_undo_late"
    Registration.objects.filter(pk=ann.pk).update(
        checked_in_at=timezone.now() - timedelta(minutes=UNDO_MINUTES + 1)
    )
    ann.refresh_from_db()
    with pytest.raises(Refused):
        door.undo(ann, device="a" * 16)
    Registration.objects.filter(pk=ann.pk).update(checked_in_at=timezone.now())
    door.undo(ann, device="a" * 16)
    assert not ann.checked_in and ann.checked_in_how == ""


def test_the_safeguard_holds(door, tournament):
    ann = registered(tournament, "Ann", "G-12")
    bart = registered(tournament, "Bart")
    door.set_up(safeguard=Door.Safeguard.MEMBER_NUMBER)
    assert door.proof_fails(ann, "g 12") is None
    assert door.proof_fails(ann, "G-13").code == "door_wrong_member_number"
    assert door.proof_fails(bart, "").code == "door_no_member_number"
    door.set_up(safeguard=Door.Safeguard.DESK_CODE)
    assert door.proof_fails(bart, door.desk_code[:3] + " " + door.desk_code[3:]) is None
    assert door.proof_fails(bart, "000000" if door.desk_code != "000000" else "1").code == (
        "door_wrong_desk_code"
    )
    assert door.way == "desk_code"


def test_a_closed_door_and_a_withdrawn_player_check_nobody_in(door, tournament, director):
    ann = registered(tournament, "Ann")
    door.set_up(is_open=False)
    with pytest.raises(Refused) as refused:
        door.check_in(ann, device="")
    assert refused.value.code == "door_closed"
    door.set_up(is_open=True)
    ann.withdraw("left", by=director)
    with pytest.raises(Refused) as refused:
        door.check_in(ann, device="")
    assert refused.value.code == "door_withdrawn"
    assert not Registration.objects.get(pk=ann.pk).checked_in


def entry(name, club="", number=""):
    return {"name": name, "club": club, "member_number": number}


def test_registrations_wait_for_a_director_who_approves_or_declines(door, tournament, director):
    door.set_up(entries=Door.Entries.APPROVAL)
    request = checkin.send(door, entry("Zoë", "Yaniv Club Gent", "G-9"), device="p" * 16)
    assert request.status == "pending"
    # The same phone sending it again: the same request.
    assert checkin.send(door, entry("Zoë", "Yaniv Club Gent", "G-9"), device="p" * 16) == request
    registration = checkin.approve(request, by=director)
    assert registration.checked_in and registration.checked_in_how == "registered"
    assert registration.player.club is not None
    assert registration.player.club.name == "Yaniv Club Gent"
    assert EntryRequest.objects.get(pk=request.pk).status == "accepted"
    with pytest.raises(Refused):
        checkin.decline(request, by=director)
    other = checkin.send(door, entry("Yves"), device="q" * 16)
    checkin.decline(other, by=director)
    assert not Registration.objects.filter(player__name="Yves").exists()


def test_up_to_the_capacity_then_a_waiting_list(door, tournament):
    registered(tournament, "Ann")
    door.set_up(entries=Door.Entries.CAPACITY, capacity=2)
    first = checkin.send(door, entry("Bea"), device="a" * 16)
    second = checkin.send(door, entry("Cas"), device="b" * 16)
    third = checkin.send(door, entry("Dani"), device="c" * 16)
    assert [first.status, second.status, third.status] == ["accepted", "waiting", "waiting"]
    assert (second.place_on_waiting_list(), third.place_on_waiting_list()) == (1, 2)
    door.set_up(capacity=3)
    assert checkin.let_in(door) == 1
    assert EntryRequest.objects.get(pk=second.pk).status == "accepted"
    assert EntryRequest.objects.get(pk=third.pk).place_on_waiting_list() == 1


def test_a_registration_the_import_would_question_waits_for_a_director(door, tournament):
    """A member number held by another player: the phone is not told whose it is."""
    club = Club.objects.create(name="Gent")
    Player.objects.create(name="Hélène Dubois", club=club, member_number="G-1")
    make_tournament(slug="elsewhere")
    door.set_up(entries=Door.Entries.CAPACITY, capacity=10)
    request = checkin.send(door, entry("Mallory", "Gent", "G-1"), device="m" * 16)
    assert request.status == "pending"
    assert "Hélène" in request.note


def test_the_registered_and_the_flood_are_refused(door, tournament):
    registered(tournament, "Ann")
    door.set_up(entries=Door.Entries.APPROVAL)
    with pytest.raises(Refused) as refused:
        checkin.send(door, entry("Ann"), device="a" * 16)
    assert refused.value.code == "door_registered_already"
    EntryRequest.objects.bulk_create(
        EntryRequest(door=door, name=f"Bot {n}", status="pending", device="x" * 16)
        for n in range(OPEN_REQUESTS)
    )
    with pytest.raises(Refused) as refused:
        checkin.send(door, entry("One more"), device="y" * 16)
    assert refused.value.code == "door_requests_full"


def test_no_registrations_unless_the_door_takes_them(door):
    with pytest.raises(Refused) as refused:
        checkin.send(door, entry("Zoë"), device="a" * 16)
    assert refused.value.code == "door_no_entries"


def test_the_director_ticking_a_player_in_is_said_so(tournament):
    ann = registered(tournament, "Ann")
    ann.set_checked_in(True)
    assert ann.checked_in_how == "desk"
    tournament.check_in_all(False)
    ann.refresh_from_db()
    assert (ann.checked_in, ann.checked_in_at) == (False, None)
    make_user("someone")
