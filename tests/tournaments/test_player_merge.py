"""One player across tournaments: the member number is the person, and a superuser merges
duplicates without touching a game (`Player.merge_into`, /manage/players/merge/)."""

from __future__ import annotations

import re
from collections.abc import Hashable

import pytest
from django.db import IntegrityError
from django.urls import reverse

from tests.factories import ANN, BART, EVA, make_tournament, make_user
from tests.season_factories import finished_tables, players
from tournaments.models import (
    Club,
    Hand,
    MergeRefused,
    Player,
    PlayerMerge,
    Registration,
    Round,
    Seat,
    Session,
    Tournament,
)
from tournaments.sheets import GameSheet
from tournaments.signals import player_merged

pytestmark = pytest.mark.django_db


def every_game(tournament: Tournament) -> list[tuple]:
    """Every game of the tournament as its sheet shows it, seat by seat (names aside)."""
    games = []
    for session in tournament.sessions.all():
        for table in session.tables.select_related("game"):
            sheet = GameSheet.load(table.game)
            games.append(
                (
                    session.number,
                    table.number,
                    table.game.finished,
                    [(seat.position, seat.total, seat.rank) for seat in sheet.seats],
                    [[cell.total for cell in row.cells] for row in sheet.rows],
                )
            )
    return games


def standings_of(tournament: Tournament, renamed: dict[Hashable, Hashable]) -> list[tuple]:
    """The standings with each player's id, the merged player's read as the one kept."""
    return [
        (s.place, renamed.get(s.player, s.player), s.points, s.games, s.wins, s.total_sum)
        for s, _ in tournament.standings()
    ]


@pytest.fixture
def duplicate(championship):
    """Ann Claes again, as another tournament's director typed her: her games of a club night
    are under this second record."""
    night = make_tournament(slug="night", name="Club night")
    twin = Player.objects.create(name="Ann Claes ")
    others = players("Gert", "Hans", "Ida")
    finished_tables(night, 1, [[(twin, 20), (others[0], 40), (others[1], 160)]])
    finished_tables(night, 2, [[(twin, 151), (others[2], 0)]])
    return twin


# --- the member number -------------------------------------------------------------------------


def test_a_member_number_is_one_players_whatever_their_club():
    gent, liege = Club.objects.create(name="Gent"), Club.objects.create(name="Liège")
    Player.objects.create(name="Ann", club=gent, member_number="1024")
    with pytest.raises(IntegrityError):
        Player.objects.create(name="Bart", club=liege, member_number="1024")


def test_players_without_a_member_number_are_many():
    Player.objects.create(name="Ann")
    Player.objects.create(name="Ann")
    assert Player.objects.filter(member_number="").count() == 2


def test_the_admin_form_says_a_member_number_is_taken():
    Player.objects.create(name="Ann", member_number="1024")
    player = Player(name="Bart", member_number="1024")
    with pytest.raises(Exception) as raised:
        player.full_clean()
    assert "This member number is already another player's." in str(raised.value)


# --- the merge ------------------------------------------------------------------------------


def test_a_merge_keeps_every_game_and_the_standings(championship, duplicate):
    night = Tournament.objects.get(slug="night")
    ann = Player.objects.get(member_number="G-1")
    games = {t.pk: every_game(t) for t in (championship, night)}
    rounds, hands, seats = Round.objects.count(), Hand.objects.count(), Seat.objects.count()
    before = {t.pk: standings_of(t, {}) for t in (championship, night)}

    duplicate.merge_into(ann, by=make_user("admin", is_superuser=True))

    renamed = {duplicate.pk: ann.pk}
    for tournament in (championship, night):
        assert every_game(tournament) == games[tournament.pk]
        assert standings_of(tournament, {}) == [
            (place, renamed.get(player, player), *rest)
            for place, player, *rest in before[tournament.pk]
        ]
    assert (Round.objects.count(), Hand.objects.count(), Seat.objects.count()) == (
        rounds,
        hands,
        seats,
    )
    assert Seat.objects.filter(player=ann).count() == 4  # 2 championship + 2 club night
    assert set(ann.registrations.values_list("tournament__slug", flat=True)) == {"bk", "night"}
    assert not Player.objects.filter(pk=duplicate.pk).exists()


def test_a_merge_is_logged_with_who_what_and_when(duplicate):
    ann = Player.objects.get(member_number="G-1")
    admin = make_user("admin", is_superuser=True)
    entry = duplicate.merge_into(ann, by=admin)
    logged = PlayerMerge.objects.get()
    assert logged == entry
    assert (logged.into, logged.into_name, logged.merged_id, logged.merged_name) == (
        ann,
        ANN,
        duplicate.pk,
        "Ann Claes",
    )
    assert logged.by == admin and logged.at is not None
    assert logged.moved == {"seats": 2, "registrations": 1}


def test_the_player_kept_takes_the_duplicates_number_and_club_when_they_have_none():
    gent = Club.objects.create(name="Gent")
    kept = Player.objects.create(name="Ann")
    twin = Player.objects.create(name="Ann", club=gent, member_number="1024")
    twin.merge_into(kept, by=None)
    kept.refresh_from_db()
    assert (kept.club, kept.member_number) == (gent, "1024")
    assert PlayerMerge.objects.get().merged_member_number == "1024"


def test_the_player_kept_keeps_their_own_name_number_and_club():
    gent, liege = Club.objects.create(name="Gent"), Club.objects.create(name="Liège")
    kept = Player.objects.create(name="Ann Claes", club=gent, member_number="1")
    twin = Player.objects.create(name="A. Claes", club=liege, member_number="2")
    twin.merge_into(kept, by=None)
    kept.refresh_from_db()
    assert (kept.name, kept.club, kept.member_number) == ("Ann Claes", gent, "1")


def test_two_players_who_sat_at_one_table_are_not_merged(championship):
    ann, bart = Player.objects.get(member_number="G-1"), Player.objects.get(name=BART)
    with pytest.raises(MergeRefused) as refused:
        bart.merge_into(ann, by=None)
    assert str(refused.value) == (
        "Bart Janssens and Ann Claes sat at the same table (Championnat de Belgique — Liège, "
        "session 1, table 2): one person cannot play twice at a table"
    )
    assert Player.objects.filter(pk=bart.pk).exists()
    assert not PlayerMerge.objects.exists()


def test_two_players_registered_in_one_tournament_are_not_merged(championship):
    eva = Player.objects.get(name=EVA)
    twin = Player.objects.create(name="Eva S.")
    Registration.objects.create(tournament=championship, player=twin)
    with pytest.raises(MergeRefused, match="both registered in Championnat de Belgique"):
        twin.merge_into(eva, by=None)
    assert Registration.objects.filter(player=twin).exists()


def test_a_player_is_not_merged_into_themselves():
    ann = Player.objects.create(name="Ann")
    with pytest.raises(MergeRefused, match="into themselves"):
        ann.merge_into(ann, by=None)


def test_the_sessions_moved_players_follow_and_their_pages_are_told(duplicate):
    session = Session.objects.get(tournament__slug="night", number=2)
    Session.objects.filter(pk=session.pk).update(moved_players=[duplicate.pk, 999])
    before = Session.objects.get(pk=session.pk).changed_at
    ann = Player.objects.get(member_number="G-1")
    duplicate.merge_into(ann, by=None)
    session.refresh_from_db()
    assert session.moved_players == sorted([ann.pk, 999])
    assert session.changed_at > before


def test_the_merge_tells_the_other_parts_in_the_same_transaction(duplicate):
    heard = []

    def receiver(sender, merged_id, into, by, **kwargs):
        heard.append((merged_id, into.pk, by))

    ann = Player.objects.get(member_number="G-1")
    player_merged.connect(receiver)
    try:
        duplicate.merge_into(ann, by=None)
    finally:
        player_merged.disconnect(receiver)
    assert heard == [(duplicate.pk, ann.pk, None)]


def test_a_failing_receiver_leaves_nothing_merged(duplicate):
    def receiver(**kwargs):
        raise RuntimeError("the rating could not be recomputed")

    ann = Player.objects.get(member_number="G-1")
    player_merged.connect(receiver)
    try:
        with pytest.raises(RuntimeError):
            duplicate.merge_into(ann, by=None)
    finally:
        player_merged.disconnect(receiver)
    assert Player.objects.filter(pk=duplicate.pk).exists()
    assert Seat.objects.filter(player=duplicate).count() == 2
    assert not PlayerMerge.objects.exists()


# --- the merge page ------------------------------------------------------------------------


@pytest.fixture
def admin_client(client):
    client.force_login(make_user("admin", is_superuser=True, is_staff=True))
    return client


WHO_CAN = (
    "Only an administrator can merge players, or a director when both players were seen "
    "only in tournaments they direct."
)


def test_the_merge_page_tells_anyone_else_who_can_merge(client, director, duplicate):
    url = reverse("manage:merge_players")
    assert client.get(url)["Location"].startswith(reverse("login"))
    ann = Player.objects.get(member_number="G-1")
    assert client.post(url, {"merge": duplicate.pk, "into": ann.pk}).status_code == 404
    client.force_login(director)  # directs no tournament
    refused = client.get(url)
    assert refused.status_code == 403 and WHO_CAN in refused.content.decode()
    assert client.post(url, {"merge": duplicate.pk, "into": ann.pk}).status_code == 403
    assert Player.objects.filter(pk=duplicate.pk).exists()


def test_a_director_merges_players_seen_only_in_the_tournaments_they_direct(client, director):
    # Issue 33.6: a director got a 404 "nothing at this address".
    mine = make_tournament(slug="mine", directors=[director])
    ann, twin = Player.objects.create(name="Ann"), Player.objects.create(name="Ann ")
    Registration.objects.create(tournament=mine, player=ann)
    finished_tables(make_tournament(slug="also-mine", directors=[director]), 1, [[(twin, 20)]])
    client.force_login(director)
    url = reverse("manage:merge_players")
    response = client.post(url, {"merge": twin.pk, "into": ann.pk}, follow=True)
    assert re.search(r"Ann\s+is merged into Ann: every game follows.", response.content.decode())
    assert not Player.objects.filter(pk=twin.pk).exists()


def test_a_director_cannot_merge_a_player_of_another_directors_tournament(
    client, director, duplicate
):
    make_tournament(slug="mine", directors=[director])
    ann = Player.objects.get(member_number="G-1")
    client.force_login(director)
    response = client.post(
        reverse("manage:merge_players"), {"merge": duplicate.pk, "into": ann.pk}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r"Only an administrator can merge Ann Claes\s*, Ann Claes: seen in a", html)
    assert Player.objects.filter(pk=duplicate.pk).exists()


def test_the_superuser_finds_both_records_and_reads_what_follows(admin_client, duplicate):
    ann = Player.objects.get(member_number="G-1")
    url = reverse("manage:merge_players")
    html = admin_client.get(url, {"q": "ann claes"}).content.decode()
    assert html.count("Ann Claes</bdi></strong>") == 2
    assert f"merge={duplicate.pk}" in html and f"into={ann.pk}" in html
    # Both share a name: the page lists them as a possible duplicate.
    assert "Possible duplicates" in html
    html = admin_client.get(url, {"merge": duplicate.pk, "into": ann.pk}).content.decode()
    assert "Confirm the merge" in html
    assert "2 games (2 finished)" in html
    assert "Merge Ann Claes into Ann Claes" in html


def test_the_superuser_merges_and_the_log_says_so(admin_client, duplicate):
    ann = Player.objects.get(member_number="G-1")
    response = admin_client.post(
        reverse("manage:merge_players"), {"merge": duplicate.pk, "into": ann.pk}, follow=True
    )
    html = response.content.decode()
    assert "Ann Claes is merged into Ann Claes: every game follows." in html
    assert "Merged lately" in html and f"(#{duplicate.pk}) into Ann Claes" in html
    merger = PlayerMerge.objects.get().by
    assert merger is not None and merger.username == "admin"


def test_a_refused_merge_says_why_and_changes_nothing(admin_client, championship):
    ann, bart = Player.objects.get(member_number="G-1"), Player.objects.get(name=BART)
    response = admin_client.post(
        reverse("manage:merge_players"), {"merge": bart.pk, "into": ann.pk}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'role="alert"' in html and "one person cannot play twice at a table." in html
    assert Player.objects.filter(pk=bart.pk).exists()


def test_choosing_the_same_player_twice_is_refused(admin_client):
    ann = Player.objects.create(name="Ann")
    response = admin_client.post(
        reverse("manage:merge_players"), {"merge": ann.pk, "into": ann.pk}
    )
    assert response.status_code == 400
    assert "Choose two different players." in response.content.decode()


def test_a_merged_players_old_profile_address_leads_to_the_player_kept(client, duplicate):
    ann = Player.objects.get(member_number="G-1")
    old = duplicate.pk
    duplicate.merge_into(ann, by=None)
    response = client.get(reverse("public:profile", args=[old]))
    assert response.status_code == 301
    assert response["Location"] == reverse("public:profile", args=[ann.pk])


@pytest.mark.parametrize("digits", [20, 5000])
def test_an_absurd_player_id_is_a_form_error_not_a_server_error(admin_client, digits):
    """Issue 22: `merge=<5000 digits>` was a 500 (Python refuses to convert it)."""
    ann = Player.objects.create(name="Ann")
    url = reverse("manage:merge_players")
    response = admin_client.post(url, {"merge": "9" * digits, "into": ann.pk})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert admin_client.get(url, {"merge": "9" * digits, "into": ann.pk}).status_code == 200
    assert Player.objects.filter(pk=ann.pk).exists()
