"""Duplicates fold accents and case: "Helene Declercq" added to the club of "Hélène Declercq"
is caught at registration (the form asks), and the merge page suggests merging names alike
(the same but for accents and case, first and last name swapped, one letter apart)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_tournament, make_user
from tournaments import names, player_import
from tournaments.models import Club, Player, Registration
from tournaments.names import Likeness

pytestmark = pytest.mark.django_db


# --- names alike -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "how"),
    [
        ("Hélène Declercq", "helene  DECLERCQ", Likeness.SAME),
        ("Jean-Pierre Dupré", "Jean Pierre Dupre", Likeness.SAME),
        ("Declercq, Hélène", "Hélène Declercq", Likeness.SWAPPED),
        ("Hélène Declerq", "Hélène Declercq", Likeness.NEAR),  # a letter missing
        ("Helene Delcercq", "Hélène Declercq", Likeness.NEAR),  # two letters swapped
        ("Hélène Declercx", "Hélène Declercq", Likeness.NEAR),  # a letter wrong
        ("Jan Maes", "Jon Maes", None),  # too short to call one letter a typo
        ("Hélène Declercq", "Hélène Vermeulen", None),
        ("Hélène Declercq", "Helena Declercqs", None),  # two letters apart
    ],
)
def test_names_alike_and_how(first, second, how):
    assert names.likeness(names.fold(first), names.fold(second)) == how
    index = names.NameIndex([(1, second)])
    assert index.alike(first) == ([(1, how)] if how else [])


# --- registering a player --------------------------------------------------------------------


@pytest.fixture
def helene(tournament) -> Player:
    """A player the club's last (public) tournament knows: a director may see her."""
    club = Club.objects.create(name="YC Gent")
    helene = Player.objects.create(name="Hélène Declercq", club=club)
    Registration.objects.create(tournament=make_tournament(club=club), player=helene)
    return helene


def add(client, tournament, **post: str):
    url = reverse("manage:add_player", args=[tournament.slug])
    return client.post(url, {"name": "Helene Declercq", "club": "YC Gent", **post})


def test_a_name_alike_in_the_club_is_asked_about_not_created(director_client, tournament, helene):
    response = add(director_client, tournament)
    html = response.content.decode()
    assert response.status_code == 400
    assert "Is Helene Declercq one of these players of the club?" in html
    assert f'name="known" value="{helene.pk}"' in html
    assert Player.objects.count() == 1 and not tournament.registrations.exists()


def test_enter_in_a_field_asks_again_and_never_chooses(director_client, tournament, helene):
    html = add(director_client, tournament).content.decode()
    form = html.split('id="add-player"', 1)[1]
    # The form's own button comes first: the one Enter presses.
    assert form.index("Register the player") < form.index('name="known"')
    assert form.index("Register the player") < form.index('name="new_player"')


def test_only_the_director_registers_the_player_offered(
    client, referee_client, tournament, helene
):
    for someone in (client, referee_client):
        response = add(someone, tournament, known=str(helene.pk))
        assert response.status_code == 403  # they may read the tournament, not change it
    assert not tournament.registrations.exists()


def test_the_director_registers_the_known_player_offered(director_client, tournament, helene):
    response = add(director_client, tournament, known=str(helene.pk))
    assert response.status_code == 302
    assert Player.objects.count() == 1
    assert tournament.registrations.get().player == helene


def test_the_director_may_still_make_a_new_player(director_client, tournament, helene):
    assert add(director_client, tournament, new_player="1").status_code == 302
    assert Player.objects.count() == 2
    assert tournament.registrations.get().player.name == "Helene Declercq"


def test_a_name_alike_in_another_club_or_with_another_member_number_is_not_asked(
    director_client, tournament, helene
):
    Player.objects.filter(pk=helene.pk).update(member_number="77")
    assert add(director_client, tournament, member_number="78").status_code == 302
    elsewhere = add(director_client, tournament, name="Hélène Declerq", club="YC Brugge")
    assert elsewhere.status_code == 302
    assert Player.objects.count() == 3


def test_the_same_member_number_is_the_same_player_but_for_accents(tournament, helene):
    Player.objects.filter(pk=helene.pk).update(member_number="77")
    parsed = player_import.single_row("Helene Declercq", "YC Gent", "77")
    line = player_import.classify(parsed, tournament, by=tournament.directors.first()).lines[0]
    assert (line.status, line.player) == (player_import.Status.KNOWN, helene)


def test_the_import_preview_names_the_look_alikes(tournament, helene):
    parsed = player_import.parse_players_csv(
        "Naam;Club\nHelene Declercq;YC Gent\nDeclercq Hélène;YC Gent\n".encode()
    )
    lines = player_import.classify(parsed, tournament, by=tournament.directors.first()).lines
    assert [line.look_alikes for line in lines[:1]] == [[helene]]
    assert "the club has Hélène Declercq: the same person?" in lines[0].note


# --- the merge page --------------------------------------------------------------------------


def test_possible_duplicates_fold_accents_and_suggest_merges(client, tournament, helene):
    twin = Player.objects.create(name="Helene Declercq")
    swapped = Player.objects.create(name="Declercq Hélène")
    typo = Player.objects.create(name="Bartholomeus Claes")
    Player.objects.create(name="Bartholomeus Claas")
    Player.objects.create(name="Somebody Else")
    groups = Player.suspected_duplicates()
    assert [[player.name for player in group.players] for group in groups] == [
        ["Hélène Declercq", "Helene Declercq", "Declercq Hélène"],
        ["Bartholomeus Claes", "Bartholomeus Claas"],
    ]
    assert [group.likeness for group in groups] == [Likeness.SWAPPED, Likeness.NEAR]
    client.force_login(make_user("admin", is_superuser=True, is_staff=True))
    html = client.get(reverse("manage:merge_players")).content.decode()
    assert f"?merge={twin.pk}&amp;into={helene.pk}" in html
    assert f"?merge={swapped.pk}&amp;into={helene.pk}" in html
    assert "names one letter apart" in html and f"into={typo.pk}" in html
    # The suggestion opens the confirmation; nothing is merged before it is posted.
    page = client.get(reverse("manage:merge_players"), {"merge": twin.pk, "into": helene.pk})
    assert "Confirm the merge" in page.content.decode()
    assert Player.objects.filter(pk=twin.pk).exists()


def test_registrations_stay_untouched_by_the_suggestions(tournament, helene):
    Registration.objects.create(tournament=tournament, player=helene)
    make_tournament()
    assert Player.suspected_duplicates() == []


def test_a_member_number_told_apart_is_still_a_possible_duplicate(db):
    kept = Player.objects.create(name="Ann Peeters", member_number="1024")
    Player.objects.create(name="Anne Peters-Smit", member_number="1024 (#57)")
    (group,) = Player.suspected_duplicates()
    assert group.players[0] == kept and group.likeness is None
    assert group.why == "a member number held by two players"


def test_a_look_alike_known_only_to_another_directors_private_tournament_is_not_named(
    tournament, helene
):
    Registration.objects.filter(player=helene).delete()
    Registration.objects.create(
        tournament=make_tournament(is_public=False, club=helene.club), player=helene
    )
    parsed = player_import.single_row("Helene Declercq", "YC Gent", "")
    line = player_import.classify(parsed, tournament, by=tournament.directors.first()).lines[0]
    assert line.look_alikes == []
