"""Sessions: the seating draw of checked-in players, manual adjustments, start, table list."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.errors import SeatingError
from tests.factories import HTMX, make_tournament, make_user, record
from tests.printing.test_printing import pdftotext, squeeze
from tournaments.errors import Refused
from tournaments.models import Player, Registration, Seat, Session, TableCode, Tournament

pytestmark = pytest.mark.django_db

NAMES = [f"Player {n:02d}" for n in range(1, 23)]


@pytest.fixture(autouse=True)
def checked_in(tournament):
    """Every test here starts from the tournament in preparation, 22 players checked in."""
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    for name in NAMES:
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(name=name), checked_in=True
        )


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
    with pytest.raises(SeatingError, match="there is no table 2"):
        session.move_player(Player.objects.get(name="Player 01").pk, 2)


def test_starting_a_session_runs_the_tournament_and_freezes_the_seating(tournament):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    session.start()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    with pytest.raises(Refused, match="before the session starts"):
        session.draw("random", seed=8)


def test_the_director_opens_the_next_session_with_a_draw(director_client, tournament):
    response = director_client.post(
        reverse("manage:session_create", args=[tournament.slug]),
        {"method": "random", "seed": "42"},
    )
    assert response.status_code == 302
    session = tournament.sessions.get()
    assert (session.number, session.seed, session.status) == (1, 42, "planned")
    assert session.tables.count() == 5


def test_opening_a_session_without_checked_in_players_says_why(director_client, tournament):
    Registration.objects.update(checked_in=False)
    response = director_client.post(
        reverse("manage:session_create", args=[tournament.slug]), follow=True
    )
    assert "Check in at least 2 players before the draw." in response.content.decode()
    assert tournament.sessions.count() == 0


def test_the_table_list_names_each_players_table_and_seat_with_a_qr_code(
    director_client, tournament
):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    seat = Seat.objects.filter(table__session=session).select_related("player", "table")[0]
    html = director_client.get(
        reverse("manage:table_list", args=[tournament.slug, 1])
    ).content.decode()
    assert (
        f'<span class="who"><bdi>{seat.player.name}</bdi></span> → table {seat.table.number}, '
        f"seat {seat.position}"
    ) in html
    assert "<svg" in html and f"http://testserver/t/{tournament.slug}/" in html


def test_referees_are_assigned_per_table(director_client, tournament, referee):
    tournament.referees.add(referee)
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    director_client.post(
        reverse("manage:session_referees", args=[tournament.slug, 1]),
        {"referee_1": referee.pk, "referee_2": ""},
    )
    assert session.tables.get(number=1).referee == referee
    assert session.tables.get(number=2).referee is None


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("manage:session_create", ()),
        ("manage:session_draw", (1,)),
        ("manage:session_adjust", (1,)),
        ("manage:session_referees", (1,)),
        ("manage:session_status", (1,)),
    ],
)
def test_only_a_director_changes_sessions(client, tournament, name, args):
    Session.objects.create(tournament=tournament, number=1).draw("random", seed=7)
    client.force_login(make_user("someone"))
    before = seating(tournament.sessions.get())
    response = client.post(
        reverse(name, args=[tournament.slug, *args]), {"seed": "9", "action": "start"}
    )
    assert response.status_code == 403
    assert seating(tournament.sessions.get()) == before
    assert tournament.sessions.get().status == "planned"


def test_a_referee_that_is_not_in_the_list_is_refused(director_client, tournament):
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    for chosen in ("abc", "99999"):
        response = director_client.post(
            reverse("manage:session_referees", args=[tournament.slug, 1]), {"referee_1": chosen}
        )
        assert response.status_code == 400
        assert "Choose referees from the list." in response.content.decode()
    assert session.tables.get(number=1).referee is None


def test_a_seed_too_large_to_store_gets_a_fresh_one(director_client, tournament):
    response = director_client.post(
        reverse("manage:session_create", args=[tournament.slug]),
        {"method": "random", "seed": str(10**30)},
    )
    assert response.status_code == 302
    assert 0 < tournament.sessions.get().seed < 10**9


# --- the referee picker and Start -----------------------------------------------------------


def picker(html: str, table: int = 1) -> list[str]:
    """The usernames the referee picker of a table offers."""
    select = re.search(rf'<select name="referee_{table}".*?</select>', html, re.S)
    assert select is not None, f"no referee picker for table {table}"
    return re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', select.group())


@pytest.fixture
def drawn(tournament) -> Session:
    """Session 1, planned, 22 players in 5 tables."""
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    return session


def session_url(tournament, name: str = "manage:session", number: int = 1) -> str:
    return reverse(name, args=[tournament.slug, number])


def test_the_referee_picker_lists_only_the_tournaments_referees(
    director_client, tournament, drawn, referee
):
    tournament.referees.add(referee)
    make_user("someone-else")
    other = make_tournament(slug="elsewhere")
    other.referees.add(make_user("their-referee"))
    html = director_client.get(session_url(tournament)).content.decode()
    assert picker(html) == [referee.username]
    assert "someone-else" not in html and "their-referee" not in html
    response = director_client.post(
        session_url(tournament, "manage:session_referees"),
        {"referee_1": make_user("not-listed").pk},
    )
    assert response.status_code == 400
    assert drawn.tables.get(number=1).referee is None


def test_starting_saves_the_referees_chosen_on_the_page(
    director_client, tournament, drawn, referee
):
    """The Start button belongs to the referees' form: the choices go with it."""
    tournament.referees.add(referee)
    html = director_client.get(session_url(tournament)).content.decode()
    start = re.search(r"<button[^>]*value=\"start\"[^>]*>", html)
    assert start is not None and 'form="referees-form"' in start.group()
    assert f'formaction="{session_url(tournament, "manage:session_status")}"' in start.group()
    response = director_client.post(
        session_url(tournament, "manage:session_status"),
        {"action": "start", "with_referees": "1", "referee_1": referee.pk, "referee_2": ""},
    )
    assert response.status_code == 302
    drawn.refresh_from_db()
    assert drawn.status == "running"
    assert drawn.tables.get(number=1).referee == referee
    assert list(drawn.tables.exclude(number=1).values_list("referee", flat=True)) == [None] * 4


def test_a_start_without_the_pickers_keeps_the_saved_referees(
    director_client, tournament, drawn, referee
):
    drawn.assign_referees({2: referee.pk})
    director_client.post(session_url(tournament, "manage:session_status"), {"action": "start"})
    drawn.refresh_from_db()
    assert drawn.status == "running" and drawn.tables.get(number=2).referee == referee


def test_a_start_with_a_referee_not_in_the_list_is_refused_and_starts_nothing(
    director_client, tournament, drawn
):
    response = director_client.post(
        session_url(tournament, "manage:session_status"),
        {"action": "start", "with_referees": "1", "referee_1": make_user("stranger").pk},
    )
    assert response.status_code == 400
    assert "Choose referees from the list." in response.content.decode()
    drawn.refresh_from_db()
    assert drawn.status == "planned" and drawn.tables.get(number=1).referee is None


@pytest.fixture
def still_playing(tournament, drawn, director) -> Session:
    """Session 1 runs: table 1's game is over, tables 2 to 5 still play; session 2 is drawn."""
    drawn.start()
    first = drawn.tables.get(number=1)
    names = [seat.player.name for seat in first.seats.order_by("position")]
    hands = {name: (0 if index == 0 else 45) for index, name in enumerate(names)}
    record(first.game, director, *[{"hands": hands, "yaniv": names[0]}] * 4)
    assert first.game.finished
    second = Session.objects.create(tournament=tournament, number=2)
    second.draw("random", seed=8)
    return second


def test_starting_while_the_previous_session_plays_asks_and_names_the_tables(
    director_client, tournament, still_playing, referee
):
    tournament.referees.add(referee)
    url = session_url(tournament, "manage:session_status", 2)
    page = director_client.get(session_url(tournament, number=2)).content.decode()
    assert "Session 1 still plays at tables 2, 3, 4, 5. Starting this session asks first." in page
    question = director_client.post(
        url, {"action": "start", "with_referees": "1", "referee_3": referee.pk}
    )
    html = question.content.decode()
    assert question.status_code == 200
    assert "Session 1 still plays at tables 2, 3, 4, 5." in html
    assert "Start session 2 anyway" in html
    still_playing.refresh_from_db()
    assert still_playing.status == "planned" and still_playing.tables.get(number=3).referee is None
    # The question carries the page's choices: confirming starts with them.
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html))
    assert fields["referee_3"] == str(referee.pk) and fields["confirmed"] == "1"
    fields.pop("csrfmiddlewaretoken", None)
    assert director_client.post(url, fields).status_code == 302
    still_playing.refresh_from_db()
    assert still_playing.status == "running"
    assert still_playing.tables.get(number=3).referee == referee


def test_a_session_starts_without_a_question_once_the_earlier_games_are_over(
    director_client, tournament, drawn, director
):
    drawn.start()
    for table in drawn.tables.all():
        names = [seat.player.name for seat in table.seats.order_by("position")]
        hands = {name: (0 if index == 0 else 45) for index, name in enumerate(names)}
        record(table.game, director, *[{"hands": hands, "yaniv": names[0]}] * 4)
    Session.objects.create(tournament=tournament, number=2).draw("random", seed=8)
    response = director_client.post(
        session_url(tournament, "manage:session_status", 2), {"action": "start"}
    )
    assert response.status_code == 302
    assert tournament.sessions.get(number=2).status == "running"


def test_drawing_beyond_the_planned_sessions_asks_first(director_client, tournament):
    tournament.session_count = 1
    tournament.save(update_fields=["session_count"])
    Session.objects.create(tournament=tournament, number=1, status="finished")
    url = reverse("manage:session_create", args=[tournament.slug])
    dashboard = director_client.get(reverse("manage:tournament", args=[tournament.slug]))
    assert "The tournament plans 1 session: the site asks before drawing one more." in (
        dashboard.content.decode()
    )
    question = director_client.post(url, {"method": "random", "seed": "5"})
    html = question.content.decode()
    assert question.status_code == 200
    assert "The tournament plans 1 session: session 2 would be one more." in html
    assert tournament.sessions.count() == 1
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html))
    fields.pop("csrfmiddlewaretoken", None)
    assert fields == {"method": "random", "seed": "5", "confirmed": "1"}
    assert director_client.post(url, fields).status_code == 302
    second = tournament.sessions.get(number=2)
    assert (second.seed, second.tables.count()) == (5, 5)


def test_the_public_page_shows_every_running_sessions_tables(client, tournament, still_playing):
    still_playing.start(confirmed=True)
    tournament.refresh_from_db()
    html = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert html.count("Session 1 <small>running</small>") == 1
    assert html.count("Session 2 <small>running</small>") == 1
    # Five tables in each session, each with its table page.
    tables = tournament.sessions.get(number=1).tables.all()
    later = still_playing.tables.all()
    for table in [*tables, *later]:
        assert f'href="{reverse("tables:detail", args=[table.pk])}"' in html


# --- table codes on the session page ---------------------------------------------------------


@pytest.fixture
def club_night(tournament) -> Session:
    """A club night: table codes, session 1 drawn in 5 tables."""
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.save(update_fields=["entry"])
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("random", seed=7)
    return session


def code_urls(html: str) -> list[str]:
    return re.findall(r"http://testserver/c/(\d+-[0-9a-f]{40})/", html)


def test_a_codes_session_shows_each_tables_link_and_qr_code(
    director_client, tournament, club_night
):
    html = director_client.get(session_url(tournament)).content.decode()
    codes = TableCode.objects.filter(table__session=club_night, revoked_at__isnull=True)
    assert codes.count() == 5
    assert sorted(set(code_urls(html))) == sorted(code.code for code in codes)
    assert html.count('<figure class="qr"><svg') == 5
    assert "Revoke and reissue" in html and 'name="referee_1"' not in html
    # A second look issues nothing new.
    director_client.get(session_url(tournament))
    assert TableCode.objects.count() == 5


def test_the_codes_work_once_the_session_starts_and_end_when_it_finishes(
    director_client, tournament, club_night, client
):
    code = TableCode.objects.get(table__session=club_night, table__number=1).code
    # Planned: not open yet, said in words.
    assert client.get(reverse("codes:detail", args=[code])).status_code == 410
    director_client.post(session_url(tournament, "manage:session_status"), {"action": "start"})
    assert client.get(reverse("codes:detail", args=[code])).status_code == 200
    finish = {"action": "finish", "confirmed": "1"}  # its games still play: ended with it
    director_client.post(session_url(tournament, "manage:session_status"), finish)
    # Gone, said in words (the phone keeps what it holds: issue 21).
    assert client.get(reverse("codes:detail", args=[code])).status_code == 410
    # A finished session shows no codes.
    assert code_urls(director_client.get(session_url(tournament)).content.decode()) == []


def test_revoke_and_reissue_gives_a_table_a_new_code_and_the_old_one_stops(
    director_client, tournament, club_night, client
):
    club_night.start()
    old = TableCode.objects.get(table__session=club_night, table__number=2).code
    assert client.get(reverse("codes:detail", args=[old])).status_code == 200
    url = reverse("manage:reissue_code", args=[tournament.slug, 1, 2])
    html = director_client.post(url, headers=HTMX).content.decode()
    assert html.lstrip().startswith('<div class="table-code" id="code-2">')
    assert "New code: the old link no longer works." in html
    (new,) = set(code_urls(html))
    assert new != old
    assert client.get(reverse("codes:detail", args=[old])).status_code == 410
    assert client.get(reverse("codes:detail", args=[new])).status_code == 200
    assert TableCode.objects.filter(revoked_at__isnull=True).count() == 5
    plain = director_client.post(url, follow=True)
    assert "Table 2 has a new code: the old link no longer works." in plain.content.decode()
    assert (
        director_client.post(
            reverse("manage:reissue_code", args=[tournament.slug, 1, 9])
        ).status_code
        == 404
    )


def test_a_session_of_referee_accounts_has_no_codes_to_reissue(director_client, tournament, drawn):
    url = reverse("manage:reissue_code", args=[tournament.slug, 1, 1])
    response = director_client.post(url)
    assert response.status_code == 400
    assert "This session does not take table codes." in response.content.decode()
    assert TableCode.objects.count() == 0


def test_a_session_chooses_table_codes_while_the_tournament_uses_referees(
    director_client, tournament, drawn
):
    url = session_url(tournament, "manage:session_entry")
    director_client.post(url, {"entry": "table_codes"})
    drawn.refresh_from_db()
    assert drawn.entry == "table_codes" and drawn.by_table_codes
    assert TableCode.objects.filter(table__session=drawn).count() == 5
    html = director_client.get(session_url(tournament)).content.decode()
    assert "(This session's own choice.)" in html and len(set(code_urls(html))) == 5
    director_client.post(url, {"entry": ""})
    drawn.refresh_from_db()
    assert drawn.entry == "" and not drawn.by_table_codes
    html = director_client.get(session_url(tournament)).content.decode()
    assert code_urls(html) == [] and 'name="referee_1"' in html


def test_tables_drawn_again_get_codes_of_their_own(director_client, tournament, club_night):
    first = set(TableCode.objects.values_list("pk", flat=True))
    assert len(first) == 5
    club_night.draw("random", seed=99)
    html = director_client.get(session_url(tournament)).content.decode()
    live = TableCode.objects.filter(table__session=club_night, revoked_at__isnull=True)
    assert live.count() == 5 and not first & set(live.values_list("pk", flat=True))
    assert len(set(code_urls(html))) == 5


def test_the_printed_table_list_shows_each_tables_code(director_client, tournament, club_night):
    html = director_client.get(session_url(tournament, "manage:table_list")).content.decode()
    assert "Table codes" in html
    codes = TableCode.objects.filter(table__session=club_night)
    assert sorted(set(code_urls(html))) == sorted(code.code for code in codes)
    # The list's own QR code to the live pages, and one per table.
    assert html.count("<svg") == 6


def test_the_table_list_of_a_referees_session_has_no_codes(director_client, tournament, drawn):
    html = director_client.get(session_url(tournament, "manage:table_list")).content.decode()
    assert "Table codes" not in html and code_urls(html) == []


def test_the_blank_score_sheets_print_each_tables_code(director_client, tournament, club_night):
    response = director_client.get(session_url(tournament, "manage:score_sheets_pdf"))
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    text = squeeze(pdftotext(b"".join(response.streaming_content), layout=False))
    assert text.count("Enter the rounds on a phone: scan, or open") == 5
    for code in TableCode.objects.filter(table__session=club_night):
        link = f"http://testserver/c/{code.code}/"
        assert link in text.replace(" ", ""), link


def test_the_blank_score_sheets_of_a_referees_session_print_no_code(
    director_client, tournament, drawn
):
    response = director_client.get(session_url(tournament, "manage:score_sheets_pdf"))
    text = squeeze(pdftotext(b"".join(response.streaming_content), layout=False))
    assert "Enter the rounds on a phone" not in text and "/c/" not in text


def test_a_code_page_records_a_round_of_a_running_club_night(tournament, club_night):
    club_night.start()
    code = TableCode.objects.get(table__session=club_night, table__number=1)
    table = code.table
    players = [seat.player.name for seat in table.seats.order_by("position")]
    data = {"number": 1, "ending": "yaniv:1"}
    data.update({f"hand_{n}": hand for n, hand in enumerate([2, 9, 9, 9, 9][: len(players)], 1)})
    response = Client().post(reverse("codes:record", args=[code.code]), data)
    assert response.status_code == 302
    assert table.game.rounds.count() == 1
