"""Sessions: the seating draw of checked-in players, manual adjustments, start, table list."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_tournament, make_user, record
from tournaments.models import Player, Registration, Seat, Session, Tournament

pytestmark = pytest.mark.django_db

NAMES = [f"Player {n:02d}" for n in range(1, 23)]


@pytest.fixture
def director():
    return make_user("director")


@pytest.fixture
def tournament(director):
    tournament = make_tournament(slug="bk", directors=[director], status=Tournament.Status.DRAFT)
    for name in NAMES:
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(name=name), checked_in=True
        )
    return tournament


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def seating(session: Session) -> list[list[str]]:
    return [
        [seat.player.name for seat in table.seats.order_by("position")]
        for table in session.tables.order_by("number")
    ]


def test_a_draw_seats_every_checked_in_player_once_in_even_tables(tournament):
    Registration.objects.filter(player__name="Player 22").update(checked_in=False)
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    tables = seating(session)
    assert sorted(len(table) for table in tables) == [4, 4, 4, 4, 5]
    seated = [name for table in tables for name in table]
    assert sorted(seated) == NAMES[:21]
    assert all(table.game for table in session.tables.all())


def test_the_same_seed_gives_the_same_draw_and_another_seed_another(tournament):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    first = seating(session)
    session.draw("random", seed=7)
    assert seating(session) == first
    session.draw("random", seed=8)
    assert seating(session) != first


def test_a_second_session_avoids_pairs_who_already_met(tournament):
    first = Session.objects.create(tournament=tournament, number=1)
    first.draw("random", seed=1)
    second = Session.objects.create(tournament=tournament, number=2)
    second.draw("random", seed=2)
    met = first.earlier_meetings() | second.earlier_meetings()
    assert len(met) == sum(len(t) * (len(t) - 1) // 2 for t in seating(first))
    assert second.repeat_meetings == 0


def test_by_standings_seats_the_leaders_together_at_table_one(tournament, director):
    first = Session.objects.create(tournament=tournament, number=1)
    first.draw("random", seed=3)
    for table in first.tables.all():
        names = [seat.player.name for seat in table.seats.order_by("position")]
        hands = {name: (0 if index == 0 else 45) for index, name in enumerate(names)}
        record(table.game, director, *[{"hands": hands, "yaniv": names[0]}] * 4)
    winners = {seat.player.name for seat in Seat.objects.filter(table__session=first, rank=1)}
    second = Session.objects.create(tournament=tournament, number=2)
    second.draw("standings", seed=4)
    assert len(winners & set(seating(second)[0])) == 4


def test_a_swap_and_a_move_change_the_seating_before_the_start(tournament):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    before = seating(session)
    a, b = before[0][0], before[1][0]
    ids = dict(Player.objects.values_list("name", "pk"))
    session.swap_players(ids[a], ids[b])
    assert seating(session)[0][0] == b and seating(session)[1][0] == a
    session.move_player(ids[a], 5)
    assert seating(session)[4][-1] == a
    assert session.seating == Session.Seating.MANUAL


def test_a_move_that_would_leave_a_table_of_one_is_refused(tournament):
    Registration.objects.exclude(player__name__in=NAMES[:4]).update(checked_in=False)
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    assert [len(t) for t in seating(session)] == [4]
    with pytest.raises(ValueError, match="there is no table 2"):
        session.move_player(Player.objects.get(name="Player 01").pk, 2)


def test_starting_a_session_runs_the_tournament_and_freezes_the_seating(tournament):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    session.start()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    with pytest.raises(ValueError, match="before the session starts"):
        session.draw("random", seed=8)


def test_the_director_opens_the_next_session_with_a_draw(director_client, tournament):
    response = director_client.post(
        reverse("session_create", args=["bk"]), {"method": "random", "seed": "42"}
    )
    assert response.status_code == 302
    session = tournament.sessions.get()
    assert (session.number, session.seed, session.status) == (1, 42, "planned")
    assert session.tables.count() == 5


def test_opening_a_session_without_checked_in_players_says_why(director_client, tournament):
    Registration.objects.update(checked_in=False)
    response = director_client.post(reverse("session_create", args=["bk"]), follow=True)
    assert "Check in at least 2 players before the draw." in response.content.decode()
    assert tournament.sessions.count() == 0


def test_the_table_list_names_each_players_table_and_seat_with_a_qr_code(
    director_client, tournament
):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    seat = Seat.objects.filter(table__session=session).select_related("player", "table").first()
    html = director_client.get(reverse("session_table_list", args=["bk", 1])).content.decode()
    assert (
        f'<span class="who">{seat.player.name}</span> → table {seat.table.number}, '
        f"seat {seat.position}"
    ) in html
    assert "<svg" in html and "http://testserver/t/bk/" in html


def test_referees_are_assigned_per_table(director_client, tournament):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    referee = make_user("ref")
    director_client.post(
        reverse("session_referees", args=["bk", 1]), {"referee_1": referee.pk, "referee_2": ""}
    )
    assert session.tables.get(number=1).referee == referee
    assert session.tables.get(number=2).referee is None


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("session_create", ()),
        ("session_redraw", (1,)),
        ("session_adjust", (1,)),
        ("session_referees", (1,)),
        ("session_status", (1,)),
    ],
)
def test_only_a_director_changes_sessions(client, tournament, name, args):
    Session.objects.create(tournament=tournament, number=1).draw("random", seed=7)
    client.force_login(make_user("someone"))
    before = seating(tournament.sessions.get())
    response = client.post(reverse(name, args=["bk", *args]), {"seed": "9", "action": "start"})
    assert response.status_code == 403
    assert seating(tournament.sessions.get()) == before
    assert tournament.sessions.get().status == "planned"


def test_a_referee_that_is_not_in_the_list_is_refused(director_client, tournament):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    for chosen in ("abc", "99999"):
        response = director_client.post(
            reverse("session_referees", args=["bk", 1]), {"referee_1": chosen}
        )
        assert response.status_code == 400
        assert "Choose referees from the list." in response.content.decode()
    assert session.tables.get(number=1).referee is None


def test_a_seed_too_large_to_store_gets_a_fresh_one(director_client, tournament):
    response = director_client.post(
        reverse("session_create", args=["bk"]), {"method": "random", "seed": str(10**30)}
    )
    assert response.status_code == 302
    assert 0 < tournament.sessions.get().seed < 10**9
