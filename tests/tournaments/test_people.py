"""The people of a tournament (/manage/<slug>/people/): a director creates referee and
co-director accounts (a one-time password shown once), adds existing ones by their exact
username, removes (and deactivates) them and resets their passwords; nobody sees the accounts
of other tournaments."""

from __future__ import annotations

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, make_table, make_tournament, make_user
from tournaments.management.commands.createdirector import directors_group
from tournaments.models import AccountOrigin, Session, TableCode, Tournament

pytestmark = pytest.mark.django_db

User = get_user_model()
ONE_TIME = re.compile(r"\b([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})\b")


def people_url(tournament: Tournament, name: str = "manage:people", *args) -> str:
    return reverse(name, args=[tournament.slug, *args])


def create(client: Client, tournament: Tournament, username: str, role: str = "referee"):
    return client.post(
        people_url(tournament, "manage:create_account"),
        {"new-username": username, "new-role": role},
    )


def logs_in(client: Client, username: str, password: str) -> bool:
    """Through the login form, as a person does (the login throttle wants a request)."""
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def password_on(response) -> str:
    found = ONE_TIME.findall(response.content.decode())
    assert len(found) == 1, found
    return found[0]


def made_for(tournament: Tournament, user, role: str = "referee"):
    """`user` as if made on the tournament's people page: the tournament's own account."""
    AccountOrigin.objects.create(user=user, tournament=tournament)
    (tournament.directors if role == "director" else tournament.referees).add(user)
    return user


@pytest.fixture
def elsewhere():
    """Another tournament with a director and a referee of its own."""
    other = make_tournament(slug="elsewhere", directors=[make_user("zed-director")])
    other.referees.add(make_user("zed-referee"))
    return other


# --- creating an account -------------------------------------------------------------------


def test_a_new_referee_account_gets_a_strong_password_shown_once_on_a_printable_card(
    director_client, tournament
):
    response = create(director_client, tournament, "table-3")
    assert response.status_code == 200
    password = password_on(response)
    html = response.content.decode()
    assert "table-3" in html and "http://testserver/accounts/login/" in html
    assert "<svg" in html and "Print the card" in html and "shown only this once" in html
    # Nothing keeps the page: the browser, a proxy, the service worker (it keeps GETs only).
    assert "no-store" in response["Cache-Control"]
    user = User.objects.get(username="table-3")
    assert user.check_password(password) and password not in user.password
    assert len(password) == 19 and len(set(password.replace("-", ""))) >= 6
    assert (user.is_active, user.is_staff, user.is_superuser) == (True, False, False)
    assert list(tournament.referees.all()) == [user]
    assert not tournament.directors.filter(pk=user.pk).exists()
    # The card shows the password once: the people page never does.
    page = director_client.get(people_url(tournament)).content.decode()
    assert "table-3" in page and password not in page


def test_two_accounts_never_get_the_same_password(director_client, tournament):
    first = password_on(create(director_client, tournament, "table-1"))
    second = password_on(create(director_client, tournament, "table-2"))
    assert first != second


def test_the_new_referee_logs_in_with_the_card_and_finds_the_manage_link_absent(
    director_client, tournament
):
    password = password_on(create(director_client, tournament, "table-4"))
    client = Client()
    assert logs_in(client, "table-4", password)
    home = client.get(reverse("public:home")).content.decode()
    assert "My tables" in home and ">Manage<" not in home
    assert client.get(people_url(tournament)).status_code == 403


def test_a_co_director_directs_this_tournament_only_and_is_not_staff(
    director_client, tournament, elsewhere
):
    password = password_on(create(director_client, tournament, "co-dir", role="director"))
    user = User.objects.get(username="co-dir")
    assert not user.is_staff and tournament.directors.filter(pk=user.pk).exists()
    client = Client()
    assert logs_in(client, "co-dir", password)
    # The header's Manage link shows for a director who is not staff.
    assert ">Manage<" in client.get(reverse("public:home")).content.decode()
    assert client.get(reverse("manage:tournament", args=[tournament.slug])).status_code == 200
    assert client.get(people_url(tournament)).status_code == 200
    assert client.get(people_url(elsewhere)).status_code == 403
    mine = client.get(reverse("manage:home")).content.decode()
    assert tournament.name in mine and elsewhere.name not in mine
    # Not a creator of tournaments either.
    assert client.get(reverse("manage:new")).status_code == 403


@pytest.mark.parametrize("taken", ["ref-anna", "REF-ANNA", "Ref-Anna"])
def test_a_taken_username_is_refused_whatever_its_case(
    director_client, tournament, referee, taken
):
    count = User.objects.count()
    response = create(director_client, tournament, taken)
    assert response.status_code == 400
    assert f"The username {taken} is taken: choose another one." in response.content.decode()
    assert User.objects.count() == count and not tournament.referees.exists()


def test_a_username_with_spaces_or_slashes_is_refused(director_client, tournament):
    response = create(director_client, tournament, "table 3/4")
    assert response.status_code == 400
    assert not User.objects.filter(username="table 3/4").exists()


# --- existing accounts ------------------------------------------------------------------------


def test_an_existing_account_is_added_by_its_exact_username(director_client, tournament, referee):
    url = people_url(tournament, "manage:add_account")
    wrong = director_client.post(url, {"add-username": "Ref-Anna", "add-role": "referee"})
    assert wrong.status_code == 400
    assert "There is no account Ref-Anna that you may add" in wrong.content.decode()
    assert not tournament.referees.exists()
    response = director_client.post(
        url, {"add-username": "ref-anna", "add-role": "referee"}, follow=True
    )
    assert "ref-anna now referees this tournament." in response.content.decode()
    assert list(tournament.referees.all()) == [referee]
    again = director_client.post(url, {"add-username": "ref-anna", "add-role": "referee"})
    assert "The account ref-anna already referees this tournament." in again.content.decode()
    assert tournament.referees.count() == 1


def test_the_people_page_shows_this_tournaments_accounts_only(
    director_client, director, tournament, referee, elsewhere
):
    tournament.referees.add(referee)
    html = director_client.get(people_url(tournament)).content.decode()
    assert referee.username in html and director.username in html
    assert "zed-director" not in html and "zed-referee" not in html
    # Nor does the session page's referee picker list them.
    session = make_table(tournament=tournament, session_status=Session.Status.PLANNED).session
    page = director_client.get(reverse("manage:session", args=[tournament.slug, session.number]))
    picker = re.search(r'<select name="referee_1".*?</select>', page.content.decode(), re.S)
    assert picker is not None
    assert re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', picker.group()) == [
        referee.username
    ]


# --- removing ---------------------------------------------------------------------------------


def test_removing_a_referee_of_no_other_tournament_deactivates_the_account(
    director_client, tournament, referee, table
):
    made_for(tournament, referee)
    response = director_client.post(
        people_url(tournament, "manage:remove_account", referee.pk), follow=True
    )
    html = response.content.decode()
    assert "ref-anna no longer belongs to this tournament." in html
    assert "it is deactivated" in html
    referee.refresh_from_db()
    table.refresh_from_db()
    assert not referee.is_active and not tournament.referees.exists()
    # Their table of the running session has no referee any more: they record nothing.
    assert table.referee is None
    assert not logs_in(Client(), referee.username, PASSWORD)


def test_removing_an_account_of_another_tournament_keeps_it_active(
    director_client, tournament, elsewhere
):
    zed = User.objects.get(username="zed-referee")
    tournament.referees.add(zed)
    response = director_client.post(
        people_url(tournament, "manage:remove_account", zed.pk), follow=True
    )
    assert "it is deactivated" not in response.content.decode()
    zed.refresh_from_db()
    assert zed.is_active and elsewhere.referees.filter(pk=zed.pk).exists()


def test_a_removed_account_added_again_is_active_again(director_client, tournament, referee):
    made_for(tournament, referee)
    director_client.post(people_url(tournament, "manage:remove_account", referee.pk))
    director_client.post(
        people_url(tournament, "manage:add_account"),
        {"add-username": referee.username, "add-role": "referee"},
    )
    referee.refresh_from_db()
    assert referee.is_active and tournament.referees.filter(pk=referee.pk).exists()


def test_a_director_removes_neither_themselves_nor_the_last_director(
    director_client, director, tournament
):
    response = director_client.post(
        people_url(tournament, "manage:remove_account", director.pk), follow=True
    )
    assert "You cannot remove yourself: ask another director." in response.content.decode()
    assert tournament.directors.filter(pk=director.pk).exists()
    admin = User.objects.create_superuser("root-admin", password=PASSWORD)
    client = Client()
    client.force_login(admin)
    response = client.post(
        people_url(tournament, "manage:remove_account", director.pk), follow=True
    )
    assert "A tournament keeps at least one director." in response.content.decode()
    director.refresh_from_db()
    assert director.is_active and tournament.directors.filter(pk=director.pk).exists()


def test_an_account_outside_the_tournament_cannot_be_removed_or_reset(
    director_client, tournament, elsewhere
):
    zed = User.objects.get(username="zed-director")
    before = zed.password
    for name in ("manage:remove_account", "manage:reset_password"):
        assert director_client.post(people_url(tournament, name, zed.pk)).status_code == 404
    zed.refresh_from_db()
    assert zed.is_active and zed.password == before


# --- an account is its tournament's (issue 22) ---------------------------------------------


def test_another_director_cannot_take_over_a_removed_referee_of_a_private_tournament(
    director_client, tournament, elsewhere
):
    """The audit's takeover: A makes a referee for a private tournament, it referees a table,
    A removes it (deactivated); B adds it to B's tournament and resets its password."""
    tournament.is_public = False
    tournament.save()
    password_on(create(director_client, tournament, "dpref"))
    dpref = User.objects.get(username="dpref")
    table = make_table(tournament=tournament, referee=dpref)
    Session.objects.filter(pk=table.session_id).update(status=Session.Status.FINISHED)
    director_client.post(people_url(tournament, "manage:remove_account", dpref.pk))
    dpref.refresh_from_db()
    assert not dpref.is_active
    other = Client()
    other.force_login(User.objects.get(username="zed-director"))
    added = other.post(
        people_url(elsewhere, "manage:add_account"),
        {"add-username": "dpref", "add-role": "referee"},
    )
    assert added.status_code == 400
    assert (
        "There is no account dpref that you may add: check the spelling, or create a new account."
        in added.content.decode()
    )
    dpref.refresh_from_db()
    assert not dpref.is_active and not elsewhere.referees.filter(pk=dpref.pk).exists()
    assert other.post(people_url(elsewhere, "manage:reset_password", dpref.pk)).status_code == 404
    before = dpref.password
    dpref.refresh_from_db()
    assert dpref.password == before


def test_another_director_cannot_add_an_active_account_made_for_another_tournament(
    director_client, tournament, elsewhere
):
    password_on(create(director_client, tournament, "table-9"))
    other = Client()
    other.force_login(User.objects.get(username="zed-director"))
    for role in ("referee", "director"):
        response = other.post(
            people_url(elsewhere, "manage:add_account"),
            {"add-username": "table-9", "add-role": role},
        )
        assert response.status_code == 400
    assert not User.objects.filter(
        Q(directed_tournaments=elsewhere) | Q(refereed_tournaments=elsewhere), username="table-9"
    ).exists()


def test_a_director_adds_their_own_tournaments_account_to_another_of_their_tournaments(
    director_client, director, tournament
):
    second = make_tournament(slug="second", directors=[director])
    password_on(create(director_client, tournament, "table-5"))
    response = director_client.post(
        people_url(second, "manage:add_account"),
        {"add-username": "table-5", "add-role": "referee"},
    )
    assert response.status_code == 302
    assert second.referees.filter(username="table-5").exists()


@pytest.mark.parametrize(
    "rights", [{"is_superuser": True, "is_staff": True}, {"is_staff": True}, {"director": True}]
)
def test_an_account_with_rights_of_its_own_is_added_only_where_it_already_works_and_says_nothing(
    director_client, director, tournament, rights
):
    """Another director, staff or the superuser is not added without their consent: only by
    a director they already direct or referee a tournament with. The refusal reads as for a
    name no account has."""
    if rights.pop("director", False):
        other = make_user("other-director")
        other.groups.add(directors_group())
    else:
        other = make_user("other-director", **rights)
    url = people_url(tournament, "manage:add_account")
    refused = director_client.post(url, {"add-username": "other-director", "add-role": "director"})
    unknown = director_client.post(url, {"add-username": "nobody-here", "add-role": "director"})

    assert refused.status_code == unknown.status_code == 400
    assert "There is no account other-director that you may add" in refused.content.decode()
    assert "There is no account nobody-here that you may add" in unknown.content.decode()
    assert not tournament.directors.filter(pk=other.pk).exists()
    # Once they work together (the other director made them co-director elsewhere), yes.
    make_tournament(slug="together", directors=[director, other])
    added = director_client.post(url, {"add-username": "other-director", "add-role": "director"})
    assert added.status_code == 302
    assert tournament.directors.filter(pk=other.pk).exists()


def test_a_deactivated_account_made_by_an_administrator_is_not_reactivated_by_a_director(
    director_client, tournament
):
    make_user("made-by-admin", is_active=False)
    response = director_client.post(
        people_url(tournament, "manage:add_account"),
        {"add-username": "made-by-admin", "add-role": "referee"},
    )
    assert response.status_code == 400
    assert "an administrator can reactivate it" in response.content.decode()
    assert not User.objects.get(username="made-by-admin").is_active


def test_a_co_director_cannot_remove_the_director_who_created_the_tournament(
    director_client, director, tournament
):
    co_password = password_on(create(director_client, tournament, "co-dir", role="director"))
    co = Client()
    assert logs_in(co, "co-dir", co_password)
    page = co.get(people_url(tournament)).content.decode()
    assert f"manage/{tournament.slug}/people/{director.pk}/remove/" not in page
    assert "created the tournament" in page
    response = co.post(people_url(tournament, "manage:remove_account", director.pk), follow=True)
    assert (
        f"Only an administrator can remove {director.username}: they created this tournament."
        in response.content.decode()
    )
    assert tournament.directors.filter(pk=director.pk).exists()
    assert director_client.get(people_url(tournament)).status_code == 200
    # Nor reset their password.
    assert co.post(people_url(tournament, "manage:reset_password", director.pk)).status_code == 302
    before = director.password
    director.refresh_from_db()
    assert director.password == before


def test_the_creator_removes_a_co_director_and_an_administrator_removes_the_creator(
    director_client, director, tournament
):
    password_on(create(director_client, tournament, "co-dir", role="director"))
    co = User.objects.get(username="co-dir")
    director_client.post(people_url(tournament, "manage:remove_account", co.pk))
    assert not tournament.directors.filter(pk=co.pk).exists()
    tournament.directors.add(make_user("second-dir"))
    admin = Client()
    admin.force_login(User.objects.create_superuser("root-admin", password=PASSWORD))
    admin.post(people_url(tournament, "manage:remove_account", director.pk))
    assert not tournament.directors.filter(pk=director.pk).exists()


# --- resetting a password ---------------------------------------------------------------------


def test_a_reset_password_works_and_the_old_one_no_longer_does(
    director_client, tournament, referee
):
    made_for(tournament, referee)
    response = director_client.post(people_url(tournament, "manage:reset_password", referee.pk))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert "A new password for your account" in response.content.decode()
    password = password_on(response)
    referee.refresh_from_db()
    assert referee.check_password(password) and not referee.check_password(PASSWORD)


def test_the_password_of_an_account_with_another_tournament_or_rights_is_not_reset(
    director_client, tournament, elsewhere
):
    """Adding an account by its username gives no way into it: a director resets only the
    passwords of accounts of their tournament alone (no other tournament, no rights)."""
    zed = User.objects.get(username="zed-director")
    staff = make_user("staff-member", is_staff=True)
    granted = make_user("granted")
    granted.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    for account in (zed, staff, granted):
        tournament.referees.add(account)
    page = director_client.get(people_url(tournament)).content.decode()
    assert "Reset the password of" not in page
    for account in (zed, staff, granted):
        before = account.password
        response = director_client.post(
            people_url(tournament, "manage:reset_password", account.pk), follow=True
        )
        assert "an administrator resets its password" in response.content.decode()
        account.refresh_from_db()
        assert account.password == before and account.is_active


def test_removing_an_account_with_rights_of_its_own_keeps_it_active(director_client, tournament):
    staff = make_user("staff-member", is_staff=True)
    tournament.referees.add(staff)
    director_client.post(people_url(tournament, "manage:remove_account", staff.pk))
    staff.refresh_from_db()
    assert staff.is_active and not tournament.referees.exists()


# --- unlocking an account after too many wrong passwords -------------------------------------


def wrong_passwords(username: str, times: int = 5, address: str = "203.0.113.9") -> Client:
    """A phone that typed `times` wrong passwords for `username` (from `address`)."""
    client = Client(REMOTE_ADDR=address)
    for _ in range(times):
        client.post(reverse("login"), {"username": username, "password": "wrong"})
    return client


def test_a_director_sees_the_locked_out_referee_and_unlocks_them_at_once(
    director_client, tournament, referee
):
    tournament.referees.add(referee)
    phone = wrong_passwords(referee.username)
    assert not logs_in(phone, referee.username, PASSWORD)
    url = people_url(tournament, "manage:unlock_account", referee.pk)
    page = director_client.get(people_url(tournament)).content.decode()
    assert page.count("locked out after too many wrong passwords") == 1
    assert page.count(f'action="{url}"') == 1
    response = director_client.post(url, follow=True)
    html = response.content.decode()
    assert f"{referee.username} is unlocked and can log in again." in html
    assert "locked out after too many wrong passwords" not in html
    assert AccessAttempt.objects.filter(username=referee.username).count() == 0
    assert logs_in(phone, referee.username, PASSWORD)


def test_an_account_that_is_not_locked_out_has_no_unlock_button(
    director_client, tournament, referee
):
    tournament.referees.add(referee)
    wrong_passwords(referee.username, times=4)
    page = director_client.get(people_url(tournament)).content.decode()
    assert "Unlock" not in page


def test_a_director_does_not_unlock_a_staff_account_or_another_tournaments(
    director_client, tournament, elsewhere
):
    staff = make_user("staff-member", is_staff=True)
    tournament.referees.add(staff)
    zed = User.objects.get(username="zed-referee")
    for account in (staff, zed):
        wrong_passwords(account.username)
    assert "Unlock" not in director_client.get(people_url(tournament)).content.decode()
    response = director_client.post(
        people_url(tournament, "manage:unlock_account", staff.pk), follow=True
    )
    assert "an administrator unlocks it" in response.content.decode()
    unlock_zed = people_url(tournament, "manage:unlock_account", zed.pk)
    assert director_client.post(unlock_zed).status_code == 404
    assert AccessAttempt.objects.filter(failures_since_start=5).count() == 2


# --- who enters the rounds ----------------------------------------------------------------------


def test_the_tournament_chooses_table_codes_and_the_players_confirmation(
    director_client, tournament, table
):
    response = director_client.post(
        people_url(tournament, "manage:scorekeeping"),
        {"entry": "table_codes", "confirmation": "majority"},
        follow=True,
    )
    assert "Saved: who keeps the score." in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.entry, tournament.confirmation) == ("table_codes", "majority")
    # The running session now takes codes: its table has one, and it works.
    (code,) = TableCode.objects.filter(table=table, revoked_at__isnull=True)
    assert code.works
    dashboard = director_client.get(reverse("manage:tournament", args=[tournament.slug]))
    assert "A majority of the table" in dashboard.content.decode()


def test_an_unknown_way_of_entering_rounds_is_refused(director_client, tournament):
    response = director_client.post(
        people_url(tournament, "manage:scorekeeping"),
        {"entry": "everyone", "confirmation": "none"},
    )
    assert response.status_code == 400
    tournament.refresh_from_db()
    assert (tournament.entry, tournament.confirmation) == ("referees", "every")


def test_a_form_error_is_announced_and_its_field_marked_invalid(director_client, tournament):
    # Issue 33.7: a screen reader heard nothing of a refused form.
    html = create(director_client, tournament, "").content.decode()
    assert re.search(
        r'<input type="text" name="new-username"[^>]*aria-invalid="true"[^>]*'
        r'aria-describedby="[^"]*id_new-username_error',
        html,
    ), html
    assert '<ul class="errorlist" id="id_new-username_error" role="alert">' in html


def test_the_director_who_created_the_tournament_is_its_director_not_a_co_director(
    director_client, director, tournament
):
    # Issue 33.8: "co-director · you · created the tournament".
    create(director_client, tournament, "co-dir", role="director")
    text = re.sub(r"<[^>]+>", " ", director_client.get(people_url(tournament)).content.decode())
    text = " ".join(text.split())
    assert "director · you · created the tournament" in text
    assert "co-director · you" not in text
    assert "co-director" in text  # the other one
