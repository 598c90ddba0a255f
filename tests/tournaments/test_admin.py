"""The admin's scope (issue 13, point 1): a staff director sees and changes only what belongs
to the tournaments they direct; a player or club another director's tournament uses too is
read-only for them; a superuser sees and changes everything."""

from __future__ import annotations

import json

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import reverse

from tests.factories import make_table, make_tournament, make_user
from tournaments.models import Club, Player, Registration, Table, Tournament

pytestmark = pytest.mark.django_db


def staff_director(username: str):
    """A staff account with every permission of the app, as createdirector makes one."""
    user = make_user(username, is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="tournaments"))
    return user


@pytest.fixture
def world():
    """Hilde's private tournament and Zoe's: each with a club of its own and players of its
    own; Zoe's player Frank is registered in Hilde's tournament too, and both tournaments
    use the club "Shared"."""
    hilde, zoe = staff_director("hilde"), staff_director("zoe")
    shared = Club.objects.create(name="Shared")
    mine = make_tournament(slug="mine", is_public=False, directors=[hilde], club=shared)
    theirs = make_tournament(slug="theirs", is_public=False, directors=[zoe])
    make_table(("Ann", "Bart"), tournament=mine)
    make_table(("Yves", "Zita", "Frank"), tournament=theirs)
    own_club = Club.objects.create(name="Hilde's club")
    their_club = Club.objects.create(name="Zoe's club")
    Player.objects.filter(name__in=["Ann", "Bart"]).update(club=own_club)
    Player.objects.filter(name__in=["Yves", "Zita"]).update(club=their_club)
    Player.objects.filter(name="Frank").update(club=shared)
    Registration.objects.create(tournament=mine, player=Player.objects.get(name="Frank"))
    client = Client()
    client.force_login(hilde)
    return {"hilde": hilde, "zoe": zoe, "client": client, "mine": mine, "theirs": theirs}


def listed(client: Client, model: str) -> list[str]:
    response = client.get(reverse(f"admin:tournaments_{model}_changelist"))
    assert response.status_code == 200
    return sorted(str(row) for row in response.context["cl"].result_list)


def change(client: Client, obj, **data: str):
    model = obj._meta.model_name
    return client.post(reverse(f"admin:tournaments_{model}_change", args=[obj.pk]), data)


def delete(client: Client, obj):
    model = obj._meta.model_name
    url = reverse(f"admin:tournaments_{model}_delete", args=[obj.pk])
    return client.post(url, {"post": "yes"})


def test_a_director_lists_the_3_players_and_2_clubs_of_their_tournament_only(world):
    client = world["client"]
    assert listed(client, "player") == ["Ann", "Bart", "Frank"]
    assert listed(client, "club") == ["Hilde's club", "Shared"]


def test_a_director_cannot_rename_or_delete_another_directors_private_player_or_club(world):
    client = world["client"]
    yves = Player.objects.get(name="Yves")
    their_club = Club.objects.get(name="Zoe's club")
    for obj, data in ((yves, {"name": "Renamed"}), (their_club, {"name": "Renamed"})):
        model = obj._meta.model_name
        page = client.get(reverse(f"admin:tournaments_{model}_change", args=[obj.pk]))
        # The admin's answer to a row it does not show: back to the index, "doesn't exist".
        assert page.status_code == 302
        change(client, obj, **data)
        delete(client, obj)
    assert Player.objects.filter(name="Yves").count() == 1
    assert Club.objects.filter(name="Zoe's club").count() == 1
    assert Player.objects.filter(name="Renamed").count() == 0
    assert Club.objects.filter(name="Renamed").count() == 0


def test_a_shared_player_and_club_are_read_only_for_a_director_and_kept(world):
    client = world["client"]
    frank = Player.objects.get(name="Frank")
    shared = Club.objects.get(name="Shared")
    page = client.get(reverse("admin:tournaments_player_change", args=[frank.pk]))
    assert page.status_code == 200
    assert not page.context["has_change_permission"]
    assert not page.context["has_delete_permission"]
    assert change(client, frank, name="Francis", club=str(shared.pk)).status_code == 403
    assert change(client, shared, name="Mine now").status_code == 403
    assert delete(client, frank).status_code == 403
    assert delete(client, shared).status_code == 403
    assert Player.objects.filter(name="Frank").count() == 1
    assert Club.objects.filter(name="Shared").count() == 1


def test_a_director_renames_their_own_player_and_club(world):
    client = world["client"]
    ann = Player.objects.get(name="Ann")
    own_club = Club.objects.get(name="Hilde's club")
    response = change(client, ann, name="Anna", club=str(own_club.pk), member_number="12")
    assert response.status_code == 302
    assert change(client, own_club, name="YC Gent", city="Gent").status_code == 302
    ann.refresh_from_db()
    assert (ann.name, str(ann.club), ann.member_number) == ("Anna", "YC Gent", "12")


def test_a_superuser_renames_a_shared_club(world):
    client = Client()
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    shared = Club.objects.get(name="Shared")
    assert change(client, shared, name="Shared club", city="").status_code == 302
    assert Club.objects.filter(name="Shared club").count() == 1
    assert len(listed(client, "player")) == 5


def test_the_players_autocomplete_lists_the_3_players_of_the_directors_tournament(world):
    client = world["client"]
    response = client.get(
        reverse("admin:autocomplete"),
        {"app_label": "tournaments", "model_name": "seat", "field_name": "player", "term": ""},
    )
    assert response.status_code == 200
    names = sorted(item["text"] for item in json.loads(response.content)["results"])
    assert names == ["Ann", "Bart", "Frank"]


def test_a_seat_cannot_be_given_another_directors_player(world):
    client = world["client"]
    table = world["mine"].sessions.get().tables.get()
    seat = table.seats.get(position=2)
    yves = Player.objects.get(name="Yves")
    url = reverse("admin:tournaments_seat_change", args=[seat.pk])
    response = client.post(url, {"table": table.pk, "position": 2, "player": yves.pk})
    assert response.status_code == 200  # the form again, with its error
    assert "player" in response.context["adminform"].form.errors
    seat.refresh_from_db()
    assert seat.player.name == "Bart"


def test_the_tournament_form_offers_the_directors_own_clubs_and_accounts(world):
    client = world["client"]
    url = reverse("admin:tournaments_tournament_change", args=[world["mine"].pk])
    form = client.get(url).context["adminform"].form
    assert sorted(str(club) for club in form.fields["club"].queryset) == [
        "Hilde's club",
        "Shared",
    ]
    assert [str(user) for user in form.fields["directors"].queryset] == ["hilde"]


def test_the_player_lists_filter_names_only_the_directors_2_clubs(world):
    response = world["client"].get(reverse("admin:tournaments_player_changelist"))
    (club_filter,) = response.context["cl"].filter_specs
    assert sorted(label for _, label in club_filter.lookup_choices) == [
        "Hilde's club",
        "Shared",
    ]


def test_every_model_of_the_admin_shows_a_director_nothing_of_a_tournament_they_do_not_direct(
    world,
):
    """Any model registered now or later: of Zoe's tournament, Hilde sees nothing (not even
    her own club, which no tournament of hers uses any more)."""
    Tournament.objects.filter(slug="mine").delete()
    Player.objects.filter(name__in=["Ann", "Bart"]).delete()
    client = world["client"]
    models = [model for model in admin.site._registry if model._meta.app_label == "tournaments"]
    assert len(models) >= 10
    for model in models:
        url = reverse(f"admin:tournaments_{model._meta.model_name}_changelist")
        response = client.get(url)
        assert response.status_code == 200, url
        assert list(response.context["cl"].result_list) == [], model
        for row in model._default_manager.all()[:3]:
            name = model._meta.model_name
            change_url = reverse(f"admin:tournaments_{name}_change", args=[row.pk])
            assert client.get(change_url).status_code == 302, (model, row)


def test_view_on_site_leads_a_director_only_to_their_own_rows(world):
    """Issue 22: /admin/r/<type>/<id>/ redirected a staff director to another director's
    private table or tournament (its address named it)."""
    client = world["client"]
    theirs, mine = world["theirs"], world["mine"]
    type_id = ContentType.objects.get_for_model(Table).pk
    their_table = Table.objects.get(session__tournament=theirs)
    url = reverse("admin:view_on_site", args=[type_id, their_table.pk])
    assert client.get(url).status_code == 404
    my_table = Table.objects.get(session__tournament=mine)
    response = client.get(reverse("admin:view_on_site", args=[type_id, my_table.pk]))
    assert response.status_code == 302
    assert response["Location"].endswith(f"/tables/{my_table.pk}/")
    # Nonsense ids are 404 too, and anonymous visitors meet the admin's login.
    for bad in ("x", "9" * 40):
        assert client.get(f"/admin/r/{type_id}/{bad}/").status_code == 404
    assert "/admin/login/" in Client().get(url)["Location"]


def test_a_staff_co_director_cannot_drop_the_creator_in_the_admin(world):
    """Issue 22: as on the people page, the admin keeps the director who created the
    tournament; its "created by" is read-only but for a superuser."""
    from django.contrib.messages import get_messages
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.backends.base import SessionBase
    from django.test import RequestFactory

    mine, hilde, zoe = world["mine"], world["hilde"], world["zoe"]
    assert mine.created_by == hilde
    mine.directors.add(zoe)
    model_admin = admin.site.get_model_admin(Tournament)
    request = RequestFactory().post("/")
    request.user = zoe
    request.session = SessionBase()
    request._messages = FallbackStorage(request)  # type: ignore[attr-defined]

    class DirectorsForm:
        """The change form as the admin saves it: its directors field says Zoe alone."""

        instance = mine

        def save_m2m(self) -> None:
            mine.directors.set([zoe])

    model_admin.save_related(request, DirectorsForm(), [], change=True)
    assert set(mine.directors.all()) == {hilde, zoe}
    assert "Only an administrator can remove hilde" in str(list(get_messages(request))[0])
    assert "created_by" in model_admin.get_readonly_fields(request, mine)
    request.user = make_user("root", is_superuser=True, is_staff=True)
    assert "created_by" not in model_admin.get_readonly_fields(request, mine)
    model_admin.save_related(request, DirectorsForm(), [], change=True)
    assert list(mine.directors.all()) == [zoe]
