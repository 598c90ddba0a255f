"""The door's pages: a player's phone (no account) finds a name and checks in, undoes it,
registers; the director's page opens the door and answers registrations. Each view: the
normal case, htmx, anonymous, and the wrong role."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import HTMX, make_user
from tournaments.models import Door, EntryRequest, Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def door(tournament) -> Door:
    door = Door.of(tournament)
    door.set_up(is_open=True)
    return door


@pytest.fixture
def ann(tournament) -> Registration:
    player = Player.objects.create(name="Ann Claes", member_number="G-12")
    return Registration.objects.create(tournament=tournament, player=player)


def url(name: str, *args) -> str:
    return reverse(f"public:{name}", args=args)


def test_the_door_finds_a_name_as_it_is_typed(door, ann):
    phone = Client()
    page = phone.get(url("door", door.code))
    assert page.status_code == 200
    assert "Your name" in page.text and "Ann Claes" not in page.text
    found = phone.get(url("door", door.code), {"q": "cla"}, headers=HTMX)
    assert found.status_code == 200
    assert 'id="door-results"' in found.text and "Ann Claes" in found.text
    assert "<html" not in found.text
    assert "Ann Claes" not in phone.get(url("door", door.code), {"q": "c"}).text


def test_an_unknown_door_is_a_counted_guess(settings, door):
    settings.CODE_GUESSES = 2
    phone = Client()
    assert phone.get(url("door", "ZZZZZZ")).status_code == 404
    assert phone.get(url("door", "ZZZZZY")).status_code == 404
    refused = phone.get(url("door", "ZZZZZX"))
    assert refused.status_code == 429 and refused["Retry-After"]
    # The right address still opens, for the whole venue behind one address.
    assert phone.get(url("door", door.code)).status_code == 200


def test_a_player_checks_in_on_their_phone_and_undoes_it(door, ann):
    phone = Client()
    player_url = url("door_player", door.code, ann.pk)
    assert "Check in" in phone.get(player_url).text
    answer = phone.post(player_url)
    assert answer.status_code == 302 and answer["Location"] == player_url
    ann.refresh_from_db()
    assert ann.checked_in and ann.checked_in_how == "phone"
    page = phone.get(player_url).text
    assert "Checked in at" in page and "Not me: undo" in page
    # Another phone may not undo it.
    other = Client().post(url("door_undo", door.code, ann.pk), headers=HTMX)
    # htmx swaps only a 2xx answer: the card says why, where the phone tapped.
    assert other.status_code == 200 and "only the phone" in other.text.lower()
    assert Registration.objects.get(pk=ann.pk).checked_in
    undone = phone.post(url("door_undo", door.code, ann.pk), headers=HTMX)
    assert undone.status_code == 200 and 'id="door-card"' in undone.text
    assert not Registration.objects.get(pk=ann.pk).checked_in


def test_htmx_checks_in_and_answers_the_card(door, ann):
    answer = Client().post(url("door_player", door.code, ann.pk), headers=HTMX)
    assert answer.status_code == 200
    assert 'id="door-card"' in answer.text and "Checked in at" in answer.text


def test_the_member_number_guards_the_check_in(settings, door, ann):
    settings.CODE_GUESSES = 3
    door.set_up(safeguard=Door.Safeguard.MEMBER_NUMBER)
    phone = Client()
    player_url = url("door_player", door.code, ann.pk)
    assert "Your member number" in phone.get(player_url).text
    wrong = phone.post(player_url, {"proof": "G-13"})
    assert wrong.status_code == 400
    assert "not the member number we have for Ann Claes" in wrong.text
    assert not Registration.objects.get(pk=ann.pk).checked_in
    for attempt in ("G-14", "G-15"):
        phone.post(player_url, {"proof": attempt})
    # Past the limit of guesses, the address waits: nobody checks others in by trying.
    assert phone.post(player_url, {"proof": "G-16"}).status_code == 429
    assert not Registration.objects.get(pk=ann.pk).checked_in


def test_the_desk_code_guards_the_check_in(door, ann):
    door.set_up(safeguard=Door.Safeguard.DESK_CODE)
    player_url = url("door_player", door.code, ann.pk)
    assert Client().post(player_url, {"proof": ""}).status_code == 400
    assert Client().post(player_url, {"proof": door.desk_code}).status_code == 302
    ann.refresh_from_db()
    assert ann.checked_in_how == "desk_code"


def test_a_closed_door_says_so(door, ann):
    door.set_up(is_open=False)
    assert "Check-in is not open" in Client().get(url("door", door.code)).text
    refused = Client().post(url("door_player", door.code, ann.pk))
    assert refused.status_code == 400 and "check-in is closed" in refused.text.lower()
    assert not Registration.objects.get(pk=ann.pk).checked_in


def test_a_withdrawn_or_other_tournaments_player_is_not_found(door, ann, director):
    ann.withdraw("left", by=director)
    assert Client().get(url("door_player", door.code, ann.pk)).status_code == 404


def test_a_phone_registers_and_follows_the_answer(door, director):
    door.set_up(entries=Door.Entries.APPROVAL)
    phone = Client()
    register_url = url("door_register", door.code)
    form = phone.get(register_url)
    assert "Your name" in form.text and "A director approves" in form.text
    sent = phone.post(register_url, {"name": "Zoë Peeters", "club": "Gent", "member_number": ""})
    assert sent.status_code == 302
    page = phone.get(register_url).text
    assert "waiting for a director" in page and "data-hx-trigger" in page
    request = EntryRequest.objects.get()
    status = phone.get(register_url, headers=HTMX)
    assert 'id="door-status"' in status.text and "<html" not in status.text
    Client().force_login(director)
    from tournaments import checkin

    checkin.approve(request, by=director)
    assert "registered and checked in" in phone.get(register_url, headers=HTMX).text


def test_a_registration_with_errors_is_shown_where_typed(door):
    door.set_up(entries=Door.Entries.CAPACITY, capacity=5, safeguard=Door.Safeguard.DESK_CODE)
    phone = Client()
    answer = phone.post(url("door_register", door.code), {"name": "", "proof": "1"})
    assert answer.status_code == 400
    assert not EntryRequest.objects.exists()
    wrong = phone.post(url("door_register", door.code), {"name": "Zoë", "proof": "x"})
    assert wrong.status_code == 400 and "not the code shown at the desk" in wrong.text
    right = phone.post(url("door_register", door.code), {"name": "Zoë", "proof": door.desk_code})
    assert right.status_code == 302
    assert Registration.objects.get(player__name="Zoë").checked_in


# --- the director's page --------------------------------------------------------------------


def manage(name: str, tournament, *args) -> str:
    return reverse(f"manage:{name}", args=[tournament.slug, *args])


def test_the_director_opens_the_door_and_sees_who_checked_in_how(director_client, tournament, ann):
    page = director_client.get(manage("door", tournament))
    assert page.status_code == 200
    assert "Check-in is closed" in page.text and "<svg" in page.text
    door = Door.objects.get(tournament=tournament)
    assert f"/in/{door.code}" in page.text
    saved = director_client.post(
        manage("door_settings", tournament),
        {"is_open": "on", "safeguard": "desk_code", "entries": "closed"},
    )
    assert saved.status_code == 302
    door.refresh_from_db()
    assert door.is_open and door.safeguard == "desk_code"
    door.check_in(ann, device="")
    listed = director_client.get(manage("door", tournament), headers=HTMX)
    assert 'id="door-list"' in listed.text and "<html" not in listed.text
    # The list goes on asking: its answer says how often.
    assert 'data-hx-trigger="every 15s"' in listed.text
    assert "with the desk&#x27;s code" in listed.text or "with the desk's code" in listed.text


def test_the_settings_by_htmx_and_a_missing_capacity(director_client, tournament):
    answer = director_client.post(
        manage("door_settings", tournament),
        {"is_open": "on", "safeguard": "none", "entries": "capacity"},
        headers=HTMX,
    )
    assert answer.status_code == 200 and 'id="door-settings"' in answer.text
    assert "How many players" in answer.text
    assert not Door.objects.get(tournament=tournament).is_open
    ok = director_client.post(
        manage("door_settings", tournament),
        {"is_open": "on", "safeguard": "none", "entries": "capacity", "capacity": "20"},
        headers=HTMX,
    )
    assert ok.status_code == 200 and "Check-in is open" in ok.text


def test_a_new_desk_code(director_client, tournament):
    door = Door.of(tournament)
    before = door.desk_code
    assert director_client.post(manage("door_desk_code", tournament)).status_code == 302
    door.refresh_from_db()
    # A million codes: the new one is another (but for one chance in a million).
    assert door.desk_code != before
    door.set_up(safeguard=Door.Safeguard.DESK_CODE)
    answer = director_client.post(manage("door_desk_code", tournament), headers=HTMX)
    assert answer.status_code == 200 and 'id="door-settings"' in answer.text
    assert Door.objects.get(pk=door.pk).desk_code in answer.text


def test_the_director_answers_registrations(director_client, tournament):
    door = Door.of(tournament)
    door.set_up(is_open=True, entries=Door.Entries.APPROVAL)
    from tournaments import checkin

    first = checkin.send(door, {"name": "Zoë", "club": "", "member_number": ""}, device="a" * 16)
    second = checkin.send(door, {"name": "Yves", "club": "", "member_number": ""}, device="b" * 16)
    approved = director_client.post(
        manage("door_answer", tournament, first.pk), {"answer": "approve"}, headers=HTMX
    )
    assert approved.status_code == 200 and "Zoë is registered and checked in" in approved.text
    declined = director_client.post(
        manage("door_answer", tournament, second.pk), {"answer": "decline"}
    )
    assert declined.status_code == 302
    assert EntryRequest.objects.get(pk=second.pk).status == "declined"
    again = director_client.post(
        manage("door_answer", tournament, second.pk), {"answer": "approve"}, headers=HTMX
    )
    assert "answered already" in again.text
    assert not Registration.objects.filter(player__name="Yves").exists()


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("door", "get"),
        ("door_settings", "post"),
        ("door_desk_code", "post"),
        ("door_poster", "get"),
    ],
)
def test_strangers_and_anonymous_visitors_are_refused(tournament, name, method):
    Door.of(tournament)
    target = manage(name, tournament)
    anonymous = getattr(Client(), method)(target, {"is_open": "on"})
    assert anonymous.status_code in (302, 403) and (
        anonymous.status_code == 403 or "/accounts/login/" in anonymous["Location"]
    )
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert getattr(stranger, method)(target, {"is_open": "on"}).status_code == 403
    assert not Door.objects.get(tournament=tournament).is_open


def test_strangers_cannot_answer_a_registration(tournament):
    door = Door.of(tournament)
    door.set_up(is_open=True, entries=Door.Entries.APPROVAL)
    from tournaments import checkin

    entry = checkin.send(door, {"name": "Zoë", "club": "", "member_number": ""}, device="a" * 16)
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    target = manage("door_answer", tournament, entry.pk)
    assert stranger.post(target, {"answer": "approve"}).status_code == 403
    assert Client().post(target, {"answer": "approve"}).status_code == 403
    assert EntryRequest.objects.get(pk=entry.pk).status == "pending"


def test_the_poster_prints_the_short_address(director_client, tournament):
    door = Door.of(tournament)
    answer = director_client.get(manage("door_poster", tournament))
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert b"%PDF" in b"".join(answer.streaming_content)[:10]
    assert door.code
