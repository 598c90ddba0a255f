"""Players who come and go (issue 15.3): withdrawals, late players, any count at the draw, and
the rebalance of a drawn session when someone does not show up.

The models, the director's views (plain, htmx, anonymous, wrong role), the standings' marks on
the page, in the PDF, the CSV and the archive, and a whole day of three sessions.
"""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction

import pytest
from django.urls import reverse

from printing import archive, archive_import, downloads
from printing.standings import standings_pdf
from scoring.errors import SeatingError
from tests.factories import HTMX, make_tournament, make_user, record
from tournaments.errors import Refused
from tournaments.models import Player, Registration, Seat, Session, Table, Tournament

pytestmark = pytest.mark.django_db

NAMES = [
    "Ann",
    "Bart",
    "Chris",
    "Dirk",
    "Eva",
    "Fien",
    "Gus",
    "Hilde",
    "Ivo",
    "Jan",
    "Kim",
    "Lea",
    "Mo",
]


def register(tournament: Tournament, name: str, checked_in: bool = True) -> Registration:
    return Registration.objects.create(
        tournament=tournament, player=Player.objects.create(name=name), checked_in=checked_in
    )


def registered(tournament: Tournament, names=NAMES) -> dict[str, Registration]:
    return {name: register(tournament, name) for name in names}


def names_of(session: Session) -> list[list[str]]:
    """The session's tables, table 1 first, each in seat order."""
    tables: dict[int, list[str]] = {}
    for number, name in (
        Seat.objects.filter(table__session=session)
        .order_by("table__number", "position")
        .values_list("table__number", "player__name")
    ):
        tables.setdefault(number, []).append(name)
    return [tables[number] for number in sorted(tables)]


def drawn(session: Session) -> set[str]:
    return {name for table in names_of(session) for name in table}


def play_out(table: Table, by) -> None:
    """Four rounds: seat 1 calls Yaniv with 0, seat n holds 5 × (n − 1), the last seat 45, so
    the last seat goes above 150 and every seat ranks as it sits (totals 0, 20, 40, …)."""
    names = [seat.player.name for seat in table.seats.order_by("position")]
    hands = {name: 5 * index for index, name in enumerate(names)}
    hands[names[-1]] = 45
    record(table.game, by, *[{"hands": hands, "yaniv": names[0]}] * 4)


def play_session(session: Session, by) -> None:
    session.start()
    for table in session.tables.all():
        play_out(table, by)
    session.finish()


@pytest.fixture
def day(director) -> Tournament:
    return make_tournament(
        slug="day", directors=[director], status=Tournament.Status.DRAFT, table_size=4
    )


# --- the model: withdrawal and return -------------------------------------------------


def test_a_withdrawal_is_checked_out_and_keeps_who_when_and_why(day, director):
    ann = register(day, "Ann")
    ann.withdraw("  unwell ", by=director)
    ann.refresh_from_db()
    assert (ann.withdrawn, ann.checked_in, ann.withdrawn_by, ann.withdrawal_reason) == (
        True,
        False,
        director,
        "unwell",
    )


def test_a_withdrawal_is_logged_with_who_and_why(day, director, caplog):
    ann = register(day, "Ann")
    with caplog.at_level("INFO", logger="tournaments.models.tournaments"):
        ann.withdraw("had to leave", by=director)
        ann.come_back(by=director)
    lines = [record.getMessage() for record in caplog.records]
    assert any("withdrawal: Ann" in line and "had to leave" in line for line in lines)
    assert any("return: Ann" in line and director.username in line for line in lines)


def test_a_withdrawal_needs_a_reason_and_happens_once(day, director):
    ann = register(day, "Ann")
    with pytest.raises(Refused, match="say why"):
        ann.withdraw("  ", by=director)
    ann.withdraw("unwell", by=director)
    with pytest.raises(Refused, match="Ann has already withdrawn"):
        ann.withdraw("again", by=director)


def test_the_database_refuses_a_withdrawal_without_a_reason_or_checked_in():
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    tournament = make_tournament()
    ann = register(tournament, "Ann", checked_in=False)
    for fields in (
        {"withdrawn_at": timezone.now()},
        {"withdrawn_at": timezone.now(), "withdrawal_reason": "unwell", "checked_in": True},
        {"withdrawal_reason": "unwell"},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Registration.objects.filter(pk=ann.pk).update(**fields)


def test_a_returning_player_is_checked_in_again(day, director):
    ann = register(day, "Ann")
    ann.withdraw("unwell", by=director)
    ann.come_back(by=director)
    ann.refresh_from_db()
    assert (ann.withdrawn, ann.checked_in, ann.withdrawal_reason) == (False, True, "")
    with pytest.raises(Refused, match="Ann has not withdrawn"):
        ann.come_back(by=director)


def test_a_withdrawn_player_cannot_be_checked_in_and_check_in_all_leaves_them_out(day, director):
    players = registered(day, ["Ann", "Bart", "Chris"])
    players["Ann"].withdraw("unwell", by=director)
    with pytest.raises(Refused, match="Return"):
        players["Ann"].set_checked_in(True)
    day.check_in_all(False)
    assert day.check_in_all(True) == 2
    assert set(
        day.registrations.filter(checked_in=True).values_list("player__name", flat=True)
    ) == {
        "Bart",
        "Chris",
    }


def test_a_withdrawal_names_the_unfinished_game_the_player_sits_at(day, director):
    registered(day)
    session = day.open_session(Session.Seating.RANDOM, seed=1)
    session.start()
    player = session.tables.get(number=1).seats.get(position=1).player
    registration = day.registrations.get(player=player)
    unfinished = registration.withdraw("unwell", by=director)
    assert [(table.session.number, table.number) for table in unfinished] == [(1, 1)]
    # The game is left alone: the table plays on, or the director ends it.
    assert session.tables.get(number=1).game.finished is False


def test_a_withdrawal_moves_the_standings_version_on(day, director):
    registered(day)
    session = day.open_session(Session.Seating.RANDOM, seed=1)
    play_session(session, director)
    before = day.live_version(finished_games_only=True)
    day.registrations.get(player__name="Ann").withdraw("unwell", by=director)
    assert day.live_version(finished_games_only=True) != before


# --- the draw: every checked-in player who has not withdrawn ------------------------------


def test_the_draw_seats_every_checked_in_player_who_has_not_withdrawn(day, director):
    players = registered(day)
    players["Ann"].withdraw("unwell", by=director)
    players["Bart"].set_checked_in(False)
    session = day.open_session(Session.Seating.RANDOM, seed=3)
    assert drawn(session) == set(NAMES) - {"Ann", "Bart"}
    assert sorted(len(table) for table in names_of(session)) == [3, 4, 4]


@pytest.mark.parametrize(
    ("count", "sizes"), [(3, [3]), (5, [5]), (6, [3, 3]), (7, [3, 4]), (9, [4, 5])]
)
def test_the_draw_makes_tables_of_3_to_5(day, count, sizes):
    registered(day, NAMES[:count])
    session = day.open_session(Session.Seating.RANDOM, seed=1)
    assert [len(table) for table in names_of(session)] == sizes


def test_two_players_are_drawn_only_when_the_tournament_allows_tables_of_2(day):
    registered(day, NAMES[:2])
    with pytest.raises(SeatingError, match="at least 3 players"):
        day.open_session(Session.Seating.RANDOM, seed=1)
    assert not day.sessions.exists()
    day.small_tables = True
    day.save()
    assert names_of(day.open_session(Session.Seating.RANDOM, seed=1)) in (
        [["Ann", "Bart"]],
        [["Bart", "Ann"]],
    )


def test_by_standings_a_late_player_is_drawn_after_the_ranked_ones(day, director):
    registered(day, NAMES[:8])
    play_session(day.open_session(Session.Seating.RANDOM, seed=1), director)
    register(day, "Nora")
    session = day.open_session(Session.Seating.STANDINGS, seed=2)
    assert "Nora" in drawn(session)
    assert [len(table) for table in names_of(session)] == [4, 5]


# --- the rebalance: the model -----------------------------------------------------------


def test_a_drawn_session_with_everyone_present_needs_no_rebalance(day):
    registered(day)
    assert day.open_session(Session.Seating.RANDOM, seed=1).rebalance() is None


def test_a_no_show_and_a_late_player_get_a_suggestion_of_moves(day):
    registered(day, NAMES[:8])
    session = day.open_session(Session.Seating.RANDOM, seed=1)
    absent = names_of(session)[0][0]
    day.registrations.get(player__name=absent).set_checked_in(False)
    register(day, "Nora")
    suggestion = session.rebalance()
    assert suggestion is not None
    steps = {(step.from_table, step.to_table) for step in suggestion.moves}
    assert (0, None) in steps  # the no-show leaves table 1
    assert (None, 0) in steps  # Nora takes the seat
    assert suggestion.moved == 0


def test_applying_the_suggestion_reseats_the_session_and_marks_who_moved(day, director):
    registered(day, NAMES[:9])  # tables of 4 and 5
    session = day.open_session(Session.Seating.RANDOM, seed=1)
    four = next(table for table in names_of(session) if len(table) == 4)
    for name in four[:2]:
        day.registrations.get(player__name=name).set_checked_in(False)
    suggestion = session.rebalance()
    assert suggestion is not None and suggestion.moved == 1
    session.apply_rebalance(Session.rebalance_key(suggestion), by=director)
    session.refresh_from_db()
    assert sorted(len(table) for table in names_of(session)) == [3, 4]
    assert drawn(session) == set(NAMES[:9]) - set(four[:2])
    assert session.seating == Session.Seating.REBALANCED
    assert session.get_seating_display() == "Rebalanced after check-in"
    (moved,) = [step.player for step in suggestion.moves if step.changes_table]
    assert moved in session.moved_players
    assert session.rebalance() is None


def test_a_suggestion_that_changed_since_the_page_showed_it_is_refused(day, director):
    registered(day, NAMES[:8])
    session = day.open_session(Session.Seating.RANDOM, seed=1)
    day.registrations.get(player__name=names_of(session)[0][0]).set_checked_in(False)
    shown = Session.rebalance_key(session.rebalance())
    register(day, "Nora")
    with pytest.raises(Refused, match="changed since"):
        session.apply_rebalance(shown, by=director)
    assert "Nora" not in drawn(session)


def test_a_started_session_is_not_rebalanced(day, director):
    registered(day, NAMES[:8])
    session = day.open_session(Session.Seating.RANDOM, seed=1)
    session.start()
    day.registrations.get(player__name="Ann").withdraw("unwell", by=director)
    assert session.rebalance() is None


# --- the views: withdraw and return -----------------------------------------------------


def withdraw_url(registration: Registration) -> str:
    return reverse("manage:withdraw", args=[registration.tournament.slug, registration.pk])


def return_url(registration: Registration) -> str:
    return reverse("manage:come_back", args=[registration.tournament.slug, registration.pk])


@pytest.fixture
def seated_ann(day, director) -> Registration:
    """Ann played session 1 (finished); session 2 is not drawn yet."""
    players = registered(day, NAMES[:8])
    play_session(day.open_session(Session.Seating.RANDOM, seed=1), director)
    return players["Ann"]


def test_the_dashboard_offers_a_seated_player_withdraw_with_a_reason(director_client, seated_ann):
    page = director_client.get(reverse("manage:tournament", args=["day"])).content.decode()
    row = page[page.index(f'id="registration-{seated_ann.pk}"') :]
    row = row[: row.index("</li>")]
    assert withdraw_url(seated_ann) in row
    assert 'name="reason"' in row and "required" in row


def test_a_plain_withdraw_post_withdraws_and_redirects_to_the_row(director_client, seated_ann):
    response = director_client.post(withdraw_url(seated_ann), {"reason": "unwell"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"#registration-{seated_ann.pk}")
    seated_ann.refresh_from_db()
    assert seated_ann.withdrawn
    page = director_client.get(response["Location"]).content.decode()
    assert "Ann has withdrawn" in page
    assert "Withdrawn at" in page and "unwell" in page
    assert "1</strong> withdrawn" in page


def test_an_htmx_withdraw_returns_the_row_with_a_return_button(director_client, seated_ann):
    response = director_client.post(withdraw_url(seated_ann), {"reason": "unwell"}, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<li id="registration-{seated_ann.pk}"')
    assert "withdrawn" in html and return_url(seated_ann) in html
    assert withdraw_url(seated_ann) not in html
    assert json.loads(response["HX-Trigger"]) == {"registrations-changed": {}}


def test_a_withdraw_without_a_reason_says_so_and_changes_nothing(director_client, seated_ann):
    response = director_client.post(withdraw_url(seated_ann), {"reason": " "}, headers=HTMX)
    html = response.content.decode()
    assert 'role="alert"' in html and "Say why the player withdraws." in html
    assert " open>" in html or " open " in html
    seated_ann.refresh_from_db()
    assert not seated_ann.withdrawn


def test_a_withdrawal_from_a_drawn_session_points_to_its_page(director_client, seated_ann, day):
    session = day.open_session(Session.Seating.RANDOM, seed=2)
    response = director_client.post(withdraw_url(seated_ann), {"reason": "unwell"}, headers=HTMX)
    assert f"seated in session {session.number}" in response.content.decode()


def test_return_brings_the_player_back_checked_in(director_client, seated_ann, director):
    seated_ann.withdraw("unwell", by=director)
    response = director_client.post(return_url(seated_ann), headers=HTMX)
    assert "Ann is back and checked in" in response.content.decode()
    seated_ann.refresh_from_db()
    assert (seated_ann.withdrawn, seated_ann.checked_in) == (False, True)
    response = director_client.post(return_url(seated_ann))
    assert response.status_code == 302  # not withdrawn any more: a message, nothing changes


def test_checking_in_a_withdrawn_player_is_refused_with_a_message(
    director_client, seated_ann, director
):
    seated_ann.withdraw("unwell", by=director)
    url = reverse("manage:check_in", args=["day", seated_ann.pk])
    response = director_client.post(url, {"checked_in": "1"}, headers=HTMX)
    assert "Return" in response.content.decode()
    seated_ann.refresh_from_db()
    assert not seated_ann.checked_in


@pytest.mark.parametrize("name", ["manage:withdraw", "manage:come_back"])
def test_anonymous_visitors_and_other_directors_cannot_withdraw(client, seated_ann, name):
    url = reverse(name, args=["day", seated_ann.pk])
    assert client.post(url, {"reason": "x"}).status_code in (403, 404)
    # The tournament is public: a stranger may read it (403), never change it.
    client.force_login(make_user("stranger"))
    assert client.post(url, {"reason": "x"}, headers=HTMX).status_code == 403
    seated_ann.refresh_from_db()
    assert not seated_ann.withdrawn


def test_a_referee_of_the_tournament_may_not_withdraw_a_player(client, seated_ann, day):
    referee = make_user("ref-of-day")
    day.referees.add(referee)
    client.force_login(referee)
    response = client.post(withdraw_url(seated_ann), {"reason": "x"})
    assert response.status_code == 403
    seated_ann.refresh_from_db()
    assert not seated_ann.withdrawn


# --- the views: the session page's suggestion -------------------------------------------


@pytest.fixture
def no_shows(day) -> Session:
    """9 players drawn at 4 and 5; two of the table of 4 do not show up."""
    registered(day, NAMES[:9])
    session = day.open_session(Session.Seating.RANDOM, seed=1)
    four = next(table for table in names_of(session) if len(table) == 4)
    for name in four[:2]:
        day.registrations.get(player__name=name).set_checked_in(False)
    return session


def session_url(session: Session, name: str = "manage:session") -> str:
    return reverse(name, args=[session.tournament.slug, session.number])


def shown_key(html: str) -> str:
    found = re.search(r'name="key" value="([0-9a-f]+)"', html)
    assert found, html
    return found.group(1)


def test_the_session_page_shows_the_suggestion_for_no_shows(director_client, no_shows):
    html = director_client.get(session_url(no_shows)).content.decode()
    assert "Players who come and go" in html
    assert html.count("(not checked in)") == 2
    assert "moves from table" in html
    assert session_url(no_shows, "manage:session_rebalance") in html


def test_a_session_whose_players_all_left_says_the_draw_cannot_seat_them(
    director_client, no_shows, day
):
    day.registrations.update(checked_in=False)
    response = director_client.get(session_url(no_shows))
    html = response.content.decode()
    assert response.status_code == 200
    assert "the draw cannot seat them again" in html
    assert "needs at least 3 players to seat, got 0" in html
    assert session_url(no_shows, "manage:session_rebalance") not in html


def test_applying_the_suggestion_by_a_plain_post_reseats_and_redirects(director_client, no_shows):
    key = shown_key(director_client.get(session_url(no_shows)).content.decode())
    response = director_client.post(
        session_url(no_shows, "manage:session_rebalance"), {"key": key}
    )
    assert response.status_code == 302
    assert sorted(len(table) for table in names_of(no_shows)) == [3, 4]
    assert (
        "Players who come and go" not in director_client.get(response["Location"]).content.decode()
    )


def test_applying_the_suggestion_by_htmx_returns_the_seating_and_the_counts(
    director_client, no_shows
):
    key = shown_key(director_client.get(session_url(no_shows)).content.decode())
    response = director_client.post(
        session_url(no_shows, "manage:session_rebalance"), {"key": key}, headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="seating">')
    assert "the seating follows the players present" in html
    assert 'id="session-size" data-hx-swap-oob="true"' in html and "7 players" in html
    assert 'id="adjust" data-hx-swap-oob="true"' in html
    assert sorted(len(table) for table in names_of(no_shows)) == [3, 4]


def test_a_stale_suggestion_is_refused_and_the_new_one_shown(director_client, no_shows, day):
    key = shown_key(director_client.get(session_url(no_shows)).content.decode())
    register(day, "Nora")
    response = director_client.post(
        session_url(no_shows, "manage:session_rebalance"), {"key": key}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "changed since the page showed the suggestion" in html
    assert "Nora" in html and "joins table" in html
    assert "Nora" not in drawn(no_shows)


def test_the_rebalance_refuses_strangers_and_referees(client, no_shows, day):
    url = session_url(no_shows, "manage:session_rebalance")
    before = names_of(no_shows)
    response = client.post(url, {"key": "0"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(make_user("stranger"))
    assert client.post(url, {"key": "0"}, headers=HTMX).status_code == 403  # public: read only
    referee = make_user("ref-of-day")
    day.referees.add(referee)
    client.force_login(referee)
    assert client.post(url, {"key": "0"}).status_code == 403
    assert names_of(no_shows) == before


# --- the standings: marks and the average -----------------------------------------------


@pytest.fixture
def withdrawn_after_one(day, director) -> Tournament:
    """Session 1 of 8 players played; Ann withdraws; Nora arrives; session 2 played."""
    players = registered(day, NAMES[:8])
    play_session(day.open_session(Session.Seating.RANDOM, seed=1), director)
    players["Ann"].withdraw("unwell", by=director)
    register(day, "Nora")
    play_session(day.open_session(Session.Seating.RANDOM, seed=2), director)
    return day


def test_the_standings_page_marks_the_withdrawn_player(client, withdrawn_after_one):
    html = client.get(reverse("public:standings", args=["day"])).content.decode()
    row = html[html.index("<bdi>Ann</bdi>") - 300 : html.index("<bdi>Ann</bdi>") + 200]
    assert "withdrawn" in row and 'class="withdrawn-mark"' in row
    assert html.count('class="withdrawn-mark"') == 1


def test_the_standings_page_keeps_its_queries_with_a_withdrawal(
    client, withdrawn_after_one, django_assert_num_queries
):
    # As without a withdrawal: the tournament, its version, the tables still playing, the
    # standings (two), the sessions.
    with django_assert_num_queries(6):
        client.get(reverse("public:standings", args=["day"]))


def test_the_standings_csv_and_pdf_mark_the_withdrawn_player(client, withdrawn_after_one):
    content = client.get(reverse("public:standings_csv", args=["day"])).content
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    assert rows[0][-1] == "withdrawn"
    assert {row[1]: row[-1] for row in rows[1:]}["Ann"] == "yes"
    assert sum(row[-1] == "yes" for row in rows[1:]) == 1
    pdf = standings_pdf(withdrawn_after_one)
    assert pdf.startswith(b"%PDF")


def test_the_archive_keeps_the_withdrawal_and_the_settings(withdrawn_after_one, director):
    withdrawn_after_one.ranking = Tournament.Ranking.AVERAGE
    withdrawn_after_one.small_tables = True
    withdrawn_after_one.save()
    data = archive.tournament_to_data(withdrawn_after_one)
    (ann,) = [r for r in data["registrations"] if r["withdrawal_reason"]]
    assert (ann["withdrawn_by"], ann["withdrawal_reason"]) == (director.username, "unwell")
    data["tournament"]["slug"] = "day-again"
    archive_import.import_tournament(data)
    again = Tournament.objects.get(slug="day-again")
    assert (again.ranking, again.small_tables) == ("average", True)
    restored = again.registrations.get(player__name="Ann")
    assert (restored.withdrawn, restored.withdrawal_reason) == (True, "unwell")
    assert [(s.place, p.name, s.withdrawn) for s, p in again.standings()] == [
        (s.place, p.name, s.withdrawn) for s, p in withdrawn_after_one.standings()
    ]


def test_an_archive_without_withdrawals_still_imports(withdrawn_after_one):
    data = archive.tournament_to_data(withdrawn_after_one)
    for registration in data["registrations"]:
        for key in ("withdrawn_at", "withdrawn_by", "withdrawal_reason"):
            registration.pop(key)
    for key in ("small_tables", "ranking"):
        data["tournament"].pop(key)
    data["tournament"]["slug"] = "older"
    archive_import.import_tournament(data)
    older = Tournament.objects.get(slug="older")
    assert (older.ranking, older.small_tables) == ("total", False)
    assert not older.registrations.filter(withdrawn_at__isnull=False).exists()


def test_an_archive_with_a_withdrawal_without_a_reason_is_refused(withdrawn_after_one):
    data = archive.tournament_to_data(withdrawn_after_one)
    (ann,) = [r for r in data["registrations"] if r["withdrawal_reason"]]
    ann["withdrawal_reason"] = ""
    data["tournament"]["slug"] = "broken"
    with pytest.raises(archive_import.ImportRefused, match="withdrawal has a reason"):
        archive_import.import_tournament(data)
    assert not Tournament.objects.filter(slug="broken").exists()


def test_ranked_by_average_the_page_csv_and_scheme_say_so(client, withdrawn_after_one):
    withdrawn_after_one.ranking = Tournament.Ranking.AVERAGE
    withdrawn_after_one.save()
    html = client.get(reverse("public:standings", args=["day"])).content.decode()
    assert "placement points per game, high first" in html
    assert "Avg" in html
    content = client.get(reverse("public:standings_csv", args=["day"])).content
    header = next(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    assert header[4] == "points per game"
    assert b"%PDF" in standings_pdf(withdrawn_after_one)[:8]


# --- a realistic day ----------------------------------------------------------------------


def expected_standings(tournament: Tournament, by: str) -> list[tuple[str, Fraction, int]]:
    """The standings worked out by hand from the rules: every seat ranks as it sits (see
    play_out), so a player beats the players after them at the table."""
    points: dict[str, Fraction] = {}
    games: dict[str, int] = {}
    for table in Table.objects.filter(session__tournament=tournament):
        seats = list(table.seats.order_by("position"))
        for seat in seats:
            name = seat.player.name
            points[name] = points.get(name, Fraction(0)) + len(seats) - seat.position
            games[name] = games.get(name, 0) + 1
    key = (lambda name: points[name] / games[name]) if by == "average" else points.__getitem__
    best = sorted(points, key=lambda name: -key(name))
    return [(name, points[name], games[name]) for name in best]


def test_a_day_of_three_sessions_with_a_withdrawal_a_late_player_and_a_no_show(
    day, director, director_client, client
):
    players = registered(day)  # 13 players
    # Session 1: 13 players at tables of 4, 4 and 5.
    first = day.open_session(Session.Seating.RANDOM, seed=11)
    assert sorted(len(table) for table in names_of(first)) == [4, 4, 5]
    assert drawn(first) == set(NAMES)
    play_session(first, director)

    # Ann withdraws after session 1; Nora arrives late and is checked in.
    response = director_client.post(withdraw_url(players["Ann"]), {"reason": "unwell"})
    assert response.status_code == 302
    nora = register(day, "Nora")

    # Session 2: Ann is not drawn, Nora is; 13 players again.
    second = day.open_session(Session.Seating.RANDOM, seed=12)
    assert "Ann" not in drawn(second) and "Nora" in drawn(second)
    assert sorted(len(table) for table in names_of(second)) == [4, 4, 5]
    play_session(second, director)

    # Session 3 is drawn; two players of a table of 4 do not show up: the session page
    # suggests moving one player from the table of 5, and the director applies it.
    third = day.open_session(Session.Seating.RANDOM, seed=13)
    four = next(table for table in names_of(third) if len(table) == 4)
    no_shows = four[:2]
    for name in no_shows:
        url = reverse("manage:check_in", args=["day", day.registrations.get(player__name=name).pk])
        director_client.post(url, {"checked_in": "0"})
    page = director_client.get(session_url(third)).content.decode()
    assert page.count("(not checked in)") == 2
    assert page.count("moves from table") == 1
    response = director_client.post(
        session_url(third, "manage:session_rebalance"), {"key": shown_key(page)}
    )
    assert response.status_code == 302
    assert sorted(len(table) for table in names_of(third)) == [3, 4, 4]
    assert drawn(third) == (set(NAMES) | {"Nora"}) - {"Ann", *no_shows}
    play_session(third, director)

    # The standings: every finished game counts, Ann's one game too, marked withdrawn.
    rows = day.standings()
    by_name = {player.name: standing for standing, player in rows}
    assert {name for name, standing in by_name.items() if standing.withdrawn} == {"Ann"}
    assert by_name["Ann"].games == 1
    assert by_name["Nora"].games == 2
    assert all(by_name[name].games == 2 for name in no_shows)
    expected = expected_standings(day, "total")
    assert {name: (pts, games) for name, pts, games in expected} == {
        name: (standing.points, standing.games) for name, standing in by_name.items()
    }
    points = [standing.points for standing, _ in rows]
    assert points == sorted(points, reverse=True)
    assert len(rows) == 14
    html = client.get(reverse("public:standings", args=["day"])).content.decode()
    assert html.count('class="withdrawn-mark"') == 1

    # Ranked by the average per game instead, Nora's two games weigh as much as three.
    day.ranking = Tournament.Ranking.AVERAGE
    day.save()
    averages = {player.name: standing.average for standing, player in day.standings()}
    assert averages["Nora"] == by_name["Nora"].points / 2
    places = [standing.average for standing, _ in day.standings()]
    assert places == sorted(places, reverse=True)
    nora.refresh_from_db()
    assert nora.checked_in and not nora.withdrawn


def test_downloads_module_names_the_withdrawn_column():
    assert str(downloads.STANDINGS_HEADER[-1]) == "withdrawn"
