"""The final: opened after the qualifying sessions, the top of the standings seated by
standings, refused with a clear reason when it cannot be drawn."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from printing import pdfs
from scoring.errors import FinalError
from tests.factories import make_table, make_user, record, settings_post
from tests.printing.test_printing import pdftotext, squeeze
from tournaments.errors import Refused
from tournaments.models import Player, Registration, Session, Tournament

pytestmark = pytest.mark.django_db


def play_out(table, caller_hands):
    """Play the table's game to its end: the first player calls with 0 every round, the
    others score `caller_hands` (their hand every round); 45 a round sends the last over 150."""
    players = [seat.player.name for seat in table.seats.order_by("position")]
    entry = {"hands": dict(zip(players, caller_hands, strict=True)), "yaniv": players[0]}
    referee = table.referee or make_user(f"ref-{table.pk}")
    while not table.game.finished:
        record(table.game, referee, entry)
        table.game.refresh_from_db()


def qualify(tournament: Tournament, final_players: int = 3) -> Tournament:
    """One finished qualifying session: Ann 3, Bart 1.5, Chris 1.5, Dirk 0 at table 1;
    Eva 3, Finn 2, Gina 1, Hugo 0 at table 2. Ann and Eva share place 1, Finn is 3rd."""
    tournament.session_count = 1
    tournament.final_players = final_players
    tournament.save()
    first = make_table(tournament=tournament)
    second = make_table(tournament=tournament, players=("Eva", "Finn", "Gina", "Hugo"))
    play_out(first, (0, 1, 1, 45))
    play_out(second, (0, 2, 3, 45))
    Session.objects.filter(pk=first.session_id).update(status=Session.Status.FINISHED)
    return tournament


@pytest.fixture
def qualified(tournament) -> Tournament:
    return qualify(tournament)


def names(session):
    return [
        [seat.player.name for seat in table.seats.order_by("position")]
        for table in session.tables.order_by("number")
    ]


def test_the_final_seats_the_top_of_the_standings_best_first(qualified):
    final = qualified.open_final()
    assert final.stage == Session.Stage.FINAL and final.number == 2
    assert final.seating == Session.Seating.STANDINGS
    assert names(final) == [["Ann", "Eva", "Finn"]]
    # A second click opens nothing new.
    assert qualified.open_final().pk == final.pk


def test_two_final_tables_are_an_a_and_a_b_final(qualified):
    Tournament.objects.filter(pk=qualified.pk).update(final_players=6, final_tables=2)
    final = Tournament.objects.get(pk=qualified.pk).open_final()
    # Places 1, 1, 3, 4, 4, 6: the A final the best three, the B final the next three.
    assert names(final) == [["Ann", "Eva", "Finn"], ["Bart", "Chris", "Gina"]]


@pytest.mark.parametrize(
    ("size", "tables", "shared", "place", "wider"),
    [(4, 1, "Bart, Chris", 4, 5), (7, 2, "Dirk, Hugo", 7, 8)],
)
def test_a_place_shared_across_the_cut_is_refused_with_the_players_named(
    qualified, size, tables, shared, place, wider
):
    Tournament.objects.filter(pk=qualified.pk).update(final_players=size, final_tables=tables)
    with pytest.raises(FinalError) as raised:
        Tournament.objects.get(pk=qualified.pk).open_final()
    assert raised.value.code == "tie_at_the_cut"
    assert dict(raised.value.params) == {"players": shared, "place": place, "wider": wider}
    assert not qualified.sessions.filter(stage=Session.Stage.FINAL).exists()


def withdraw(tournament: Tournament, name: str, director) -> None:
    registration = Registration.objects.create(
        tournament=tournament, player=Player.objects.get(name=name)
    )
    registration.withdraw("had to leave", by=director)


def test_a_withdrawn_player_is_no_finalist_the_next_qualified_takes_the_seat(qualified, director):
    # Eva shares place 1 but has left: Ann, Finn, then Bart and Chris (4th, no longer
    # cut in two by a final of 4) play the final.
    withdraw(qualified, "Eva", director)
    Tournament.objects.filter(pk=qualified.pk).update(final_players=4)
    final = Tournament.objects.get(pk=qualified.pk).open_final()
    assert names(final) == [["Ann", "Finn", "Bart", "Chris"]]
    # Her games and her place stay in the standings, marked withdrawn, below the finalists.
    play_out(final.tables.get(), (0, 1, 2, 45))
    places = [
        (row.place, player.name, row.stage, row.qualifying.withdrawn if row.qualifying else None)
        for row, player in Tournament.objects.get(pk=qualified.pk).final_standings() or []
    ]
    assert places[:5] == [
        (1, "Ann", "final", False),
        (2, "Finn", "final", False),
        (3, "Bart", "final", False),
        (4, "Chris", "final", False),
        (5, "Eva", "qualifying", True),
    ]


def test_the_final_table_of_the_standings_and_report_pdfs_marks_a_withdrawn_player(
    qualified, director
):
    withdraw(qualified, "Eva", director)
    Tournament.objects.filter(pk=qualified.pk).update(final_players=4)
    tournament = Tournament.objects.get(pk=qualified.pk)
    play_out(tournament.open_final().tables.get(), (0, 1, 2, 45))
    for pdf in (pdfs.standings_pdf(tournament), pdfs.tournament_report(tournament)):
        lines = printed_lines(pdf)
        final = lines[lines.index("Final standings") : lines.index("Qualifying")]
        assert "5 Eva (withdrawn) Qualifying 3*" in final


def test_the_standings_say_so_far_until_the_final_is_played(client, qualified):
    url = reverse("public:standings", args=[qualified.slug])
    final = qualified.open_final()
    for html in (client.get(url).content.decode(), pdftotext(pdfs.standings_pdf(qualified))):
        assert "Standings so far · the final is being played" in html
        assert "Final standings" not in html
    play_out(final.tables.get(), (0, 45, 2))
    html = client.get(url).content.decode()
    assert "<h2>Final standings</h2>" in html and "so far" not in html


def test_a_redraw_of_the_final_leaves_a_player_withdrawn_since_out(qualified, director):
    final = qualified.open_final()
    assert names(final) == [["Ann", "Eva", "Finn"]]
    withdraw(qualified, "Finn", director)
    Tournament.objects.filter(pk=qualified.pk).update(final_players=4)
    final.tournament = Tournament.objects.get(pk=qualified.pk)
    # Finn out, the final of 4 takes Ann, Eva, Bart and Chris.
    final.draw(Session.Seating.RANDOM, 1)
    assert names(final) == [["Ann", "Eva", "Bart", "Chris"]]


def test_the_final_waits_for_every_qualifying_session(tournament):
    tournament.final_players = 4
    tournament.save()
    make_table(tournament=tournament)  # session 1, running
    with pytest.raises(Refused, match="finish every qualifying session"):
        tournament.open_final()
    assert tournament.sessions.count() == 1


def test_a_tournament_without_a_final_opens_none(tournament):
    with pytest.raises(Refused, match="no final"):
        tournament.open_final()


@pytest.mark.parametrize(("players", "tables"), [(9, 1), (1, 1), (3, 2), (17, 2)])
def test_a_final_its_tables_cannot_seat_is_refused_on_the_form_and_in_the_database(
    tournament, players, tables
):
    tournament.final_players, tournament.final_tables = players, tables
    with pytest.raises(ValidationError) as raised:
        tournament.full_clean()
    assert "final_players" in raised.value.message_dict
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(
            final_players=players, final_tables=tables
        )


def final_places(tournament):
    rows = Tournament.objects.get(pk=tournament.pk).final_standings()
    assert rows is not None
    return [(row.place, player.name, row.stage, row.final_table) for row, player in rows]


@pytest.mark.parametrize(
    ("carry", "top"),
    [
        # The final alone: Ann wins, Finn second, Eva over 150.
        ("none", ["Ann", "Finn", "Eva"]),
        # Placement points: Ann 3 + 2, Eva 3 + 0, Finn 2 + 1: Eva and Finn level, the better
        # qualifying place (Eva's 1st) first.
        ("placement", ["Ann", "Eva", "Finn"]),
        # Totals: Ann 0 + 0, Finn 8 + 8, Eva 0 + 180.
        ("totals", ["Ann", "Finn", "Eva"]),
    ],
)
def test_the_final_standings_put_the_finalists_first_by_the_carry_over(qualified, carry, top):
    Tournament.objects.filter(pk=qualified.pk).update(final_carry_over=carry)
    final = Tournament.objects.get(pk=qualified.pk).open_final()
    table = final.tables.get()
    # Before the final ends: the qualifying places stand.
    assert [name for _, name, _, _ in final_places(qualified)][:3] == ["Ann", "Eva", "Finn"]
    assert {stage for _, _, stage, _ in final_places(qualified)} == {"qualifying"}
    play_out(table, (0, 45, 2))  # Ann, Eva, Finn
    places = final_places(qualified)
    assert [name for _, name, _, _ in places[:3]] == top
    assert [(stage, table) for _, _, stage, table in places[:3]] == [("final", 1)] * 3
    # The others keep their qualifying order below: Bart and Chris share 4th.
    assert places[3:] == [
        (4, "Bart", "qualifying", None),
        (4, "Chris", "qualifying", None),
        (6, "Gina", "qualifying", None),
        (7, "Dirk", "qualifying", None),
        (7, "Hugo", "qualifying", None),
    ]


def test_the_overall_standings_stay_the_qualifying_ones_once_the_final_is_played(qualified):
    before = [(s.place, p.name, s.points) for s, p in qualified.standings()]
    play_out(qualified.open_final().tables.get(), (0, 45, 2))
    after = [
        (s.place, p.name, s.points) for s, p in Tournament.objects.get(pk=qualified.pk).standings()
    ]
    assert after == before


def test_the_standings_page_and_the_hall_show_the_final_above_the_qualifying(client, qualified):
    play_out(qualified.open_final().tables.get(), (0, 45, 2))
    html = client.get(reverse("public:standings", args=[qualified.slug])).content.decode()
    final, qualifying = html.split("Final standings", 1)[1].split("<h2>Qualifying</h2>", 1)
    names = re.findall(r"<bdi>([^<]+)</bdi>", final)
    assert names == ["Ann", "Finn", "Eva", "Bart", "Chris", "Gina", "Dirk", "Hugo"]
    assert final.count(">Final<") == 3 and "the final game alone" in final
    # The qualifying standings follow, as they were.
    assert re.findall(r"<bdi>([^<]+)</bdi>", qualifying)[:3] == ["Ann", "Eva", "Finn"]
    hall = client.get(reverse("public:hall", args=[qualified.slug])).content.decode()
    view = hall.split('data-view="standings"', 1)[1].split("</section>", 1)[0]
    assert 'data-title="Final standings"' in hall
    assert re.findall(r"<bdi>([^<]+)</bdi>", view)[:3] == ["Ann", "Finn", "Eva"]


# --- the PDFs --------------------------------------------------------------------------------


@pytest.fixture
def two_finals_played(qualified) -> Tournament:
    """A final (A and B) of 6 with the qualifying placement points carried over, played out."""
    Tournament.objects.filter(pk=qualified.pk).update(
        final_players=6, final_tables=2, final_carry_over="placement"
    )
    tournament = Tournament.objects.get(pk=qualified.pk)
    a_final, b_final = tournament.open_final().tables.order_by("number")
    play_out(a_final, (0, 45, 2))  # Ann, Eva, Finn
    play_out(b_final, (0, 45, 2))  # Bart, Chris, Gina
    return tournament


def printed_lines(content: bytes) -> list[str]:
    return [squeeze(line).strip() for line in pdftotext(content).splitlines()]


def test_the_standings_pdf_prints_the_final_standings_above_the_qualifying(two_finals_played):
    lines = printed_lines(pdfs.standings_pdf(two_finals_played))
    final = lines[lines.index("Final standings") : lines.index("Qualifying")]
    # Place, player, stage, score (3 + 2, 3 + 0, 2 + 1; the B final 1.5 + 2, 1 + 1, 1.5 + 0),
    # everyone's game not signed off: provisional.
    assert [line for line in final if line[:1].isdigit()] == [
        "1 Ann A final 5*",
        "2 Eva A final 3*",
        "3 Finn A final 3*",
        "4 Bart B final 3.5*",
        "5 Gina B final 2*",
        "6 Chris B final 1.5*",
        "7 Dirk Qualifying 0*",
        "7 Hugo Qualifying 0*",
    ]
    assert "by its qualifying placement points plus the final game's." in squeeze(" ".join(final))
    # The qualifying standings follow as they were.
    qualifying = lines[lines.index("Qualifying") :]
    assert "1 Ann 3* 1 1 0 3" in qualifying and "3 Finn 2* 1 0 8 4" in qualifying
    # A session's standings PDF has no final part.
    session = printed_lines(
        pdfs.standings_pdf(two_finals_played, final_session(two_finals_played))
    )
    assert "Final standings" not in session


def final_session(tournament: Tournament) -> Session:
    session = tournament.final_session()
    assert session is not None
    return session


def test_the_report_prints_the_final_standings_and_labels_the_final(two_finals_played):
    text = squeeze(pdftotext(pdfs.tournament_report(two_finals_played)))
    assert text.index("Final standings") < text.index("Qualifying") < text.index("Session 1")
    assert "Standings so far" not in text
    assert "Session 2 · Final planned · 2 tables" in text
    assert "Table 1 · A final · no referee · game over after 4 rounds" in text
    assert "Table 2 · B final · no referee · game over after 4 rounds" in text
    # Session 1 is a qualifying session: no stage beside it.
    assert "Session 1 · " not in text


def test_a_report_without_a_final_is_unchanged(tournament):
    make_table(tournament=tournament)
    text = squeeze(pdftotext(pdfs.tournament_report(tournament)))
    assert "Standings so far" in text and "Qualifying" not in text and "Final" not in text


# --- the director's pages -------------------------------------------------------------------


def test_the_director_sets_the_final_up_on_the_settings_form(director_client, tournament):
    page = director_client.get(reverse("manage:edit", args=[tournament.slug])).content.decode()
    assert 'name="final_players"' in page and 'name="final_carry_over"' in page
    post = settings_post(
        page, tournament, final_players="9", final_tables="1", final_carry_over="placement"
    )
    response = director_client.post(reverse("manage:edit", args=[tournament.slug]), post)
    assert response.status_code == 400
    assert "takes 2 to 8 players, not 9" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).final_players == 0
    post["final_players"] = "8"
    response = director_client.post(reverse("manage:edit", args=[tournament.slug]), post)
    assert response.status_code == 302, response.content.decode()[-2000:]
    saved = Tournament.objects.get(pk=tournament.pk)
    assert (saved.final_players, saved.final_tables, saved.final_carry_over) == (8, 1, "placement")


def test_the_dashboard_offers_the_final_once_the_qualifying_is_over(director_client, qualified):
    dashboard = reverse("manage:tournament", args=[qualified.slug])
    html = director_client.get(dashboard).content.decode()
    assert "Open the final: the best 3 players" in html
    response = director_client.post(reverse("manage:final_create", args=[qualified.slug]))
    final = qualified.final_session()
    assert final is not None
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:session", args=[qualified.slug, final.number])
    html = director_client.get(dashboard).content.decode()
    assert "Open the final" not in html and "Draw session" not in html
    assert "Session 2 · Final" in html


def test_a_final_that_cannot_be_drawn_says_why_and_opens_nothing(director_client, qualified):
    Tournament.objects.filter(pk=qualified.pk).update(final_players=4)
    response = director_client.post(
        reverse("manage:final_create", args=[qualified.slug]), follow=True
    )
    assert "Bart, Chris share place 4, at the final&#x27;s cut" in response.content.decode()
    assert qualified.final_session() is None


def test_only_a_director_opens_the_final(client, referee_client, qualified):
    url = reverse("manage:final_create", args=[qualified.slug])
    assert client.post(url).status_code in (302, 403)
    assert referee_client.post(url).status_code == 403
    assert qualified.final_session() is None
