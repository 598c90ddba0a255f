"""Finishing a session while games are still played (issue 21, point 4): the director is
asked, with the tables named, and either ends their games at the time limit with the session
(recorded as such, their players in the standings) or cancels and the tables play on. And
finishing the final finishes the tournament (issue 23, point 7)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import HTMX, make_table, record
from tournaments.models import GameChange, Session, Tournament
from tournaments.models.sessions import GamesInPlay

pytestmark = pytest.mark.django_db

SMALL = {"hands": {"Ann": 1, "Bart": 9, "Chris": 8, "Dirk": 7}, "yaniv": "Ann"}
OVER = {"hands": {"Hilde": 0, "Ivo": 45}, "yaniv": "Hilde"}


@pytest.fixture
def playing(table, referee):
    """Session 1: table 1 two rounds in, table 2 finished (Hilde won)."""
    second = make_table(tournament=table.session.tournament, players=("Hilde", "Ivo"))
    record(table.game, referee, SMALL, SMALL)
    record(second.game, referee, *[OVER] * 4)
    return table.session


def status_url(session: Session) -> str:
    return reverse("manage:session_status", args=[session.tournament.slug, session.number])


def standing_names(tournament: Tournament) -> set[str]:
    return {player.name for _, player in tournament.standings()}


# --- the model -------------------------------------------------------------------------------


def test_finishing_a_session_whose_tables_still_play_is_refused_naming_them(playing):
    with pytest.raises(GamesInPlay) as refused:
        playing.finish()
    assert [table.number for table in refused.value.tables] == [1]
    assert str(refused.value) == "table 1 still plays"
    playing.refresh_from_db()
    assert playing.status == Session.Status.RUNNING
    assert not GameChange.objects.filter(action=GameChange.Action.END).exists()


def test_finishing_with_the_games_ended_records_them_at_the_time_limit_in_the_standings(
    playing, director
):
    tournament = playing.tournament
    assert standing_names(tournament) == {"Hilde", "Ivo"}  # table 1's players not yet
    playing.finish(end_games=True, by=director)
    playing.refresh_from_db()
    assert playing.status == Session.Status.FINISHED
    game = playing.tables.get(number=1).game
    assert game.finished and game.ended_at_time_limit
    end = game.changes.get(action=GameChange.Action.END)
    assert end.user == director
    assert end.reason == "Session 1 finished while the game was played."
    assert playing.clock_events.get().action == "end_games"
    # Ranked by their totals: Ann (0) first; every player of the session in the standings.
    assert dict(playing.tables.get(number=1).seats.values_list("player__name", "rank")) == {
        "Ann": 1,
        "Dirk": 2,
        "Chris": 3,
        "Bart": 4,
    }
    assert standing_names(tournament) == {"Ann", "Bart", "Chris", "Dirk", "Hilde", "Ivo"}


def test_a_session_whose_games_are_over_finishes_without_a_question(table, referee):
    out = {"hands": {"Ann": 0, "Bart": 45, "Chris": 45, "Dirk": 45}, "yaniv": "Ann"}
    record(table.game, referee, *[out] * 4)
    table.session.finish()
    table.session.refresh_from_db()
    assert table.session.status == Session.Status.FINISHED


def test_finishing_the_final_finishes_the_tournament(table, referee, director):
    qualifying = table.session
    qualifying.finish(end_games=True, by=director)
    tournament = qualifying.tournament
    final = make_table(tournament=tournament, players=("Eva", "Finn")).session
    Session.objects.filter(pk=final.pk).update(stage=Session.Stage.FINAL)
    final.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    final.finish(end_games=True, by=director)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_finishing_a_qualifying_session_leaves_the_tournament_running(playing, director):
    playing.finish(end_games=True, by=director)
    playing.tournament.refresh_from_db()
    assert playing.tournament.status == Tournament.Status.RUNNING


def test_the_last_planned_session_of_a_tournament_without_a_final_finishes_it(playing, director):
    # Issue 33.6: it stayed "running" for ever (the season listed it as running).
    Tournament.objects.filter(pk=playing.tournament_id).update(session_count=1)
    playing.finish(end_games=True, by=director)
    tournament = Tournament.objects.get(pk=playing.tournament_id)
    assert tournament.status == Tournament.Status.FINISHED
    # A session beyond the plan runs it again.
    beyond = make_table(tournament=tournament, session_status=Session.Status.PLANNED).session
    beyond.start(by=director)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_a_tournament_with_a_final_still_waits_for_it(playing, director):
    Tournament.objects.filter(pk=playing.tournament_id).update(session_count=1, final_players=4)
    playing.finish(end_games=True, by=director)
    assert Tournament.objects.get(pk=playing.tournament_id).status == Tournament.Status.RUNNING


# --- the view ------------------------------------------------------------------------------


def test_the_finish_button_names_an_unsigned_sheet_and_the_tournaments_end(
    director_client, playing
):
    url = reverse("manage:session", args=[playing.tournament.slug, 1])
    page = director_client.get(url).content.decode()
    assert (
        "Table 2's sheet is not signed off yet: its result stays provisional until it is." in page
    )
    assert "Finish session 1</button>" in page
    Tournament.objects.filter(pk=playing.tournament_id).update(session_count=1)
    page = director_client.get(url).content.decode()
    assert "Finish session 1 and the tournament</button>" in page


def test_the_director_is_asked_naming_the_tables_and_nothing_changes(director_client, playing):
    response = director_client.post(status_url(playing), {"action": "finish"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Table 1 still plays. Finishing session 1 ends its game at the time limit" in page
    assert "End 1 game and finish session 1" in page
    assert 'name="confirmed" value="1"' in page
    playing.refresh_from_db()
    assert playing.status == Session.Status.RUNNING
    assert not playing.tables.get(number=1).game.finished


def test_the_director_confirms_and_the_games_end_with_the_session(director_client, playing):
    response = director_client.post(status_url(playing), {"action": "finish", "confirmed": "1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:session", args=[playing.tournament.slug, 1])
    playing.refresh_from_db()
    assert playing.status == Session.Status.FINISHED
    assert playing.tables.get(number=1).game.ended_at_time_limit
    assert "Ann" in standing_names(playing.tournament)


def test_an_htmx_finish_asks_in_place_then_reloads_the_page_once_confirmed(
    director_client, playing
):
    asked = director_client.post(status_url(playing), {"action": "finish"}, headers=HTMX)
    assert asked.status_code == 200
    fragment = asked.content.decode()
    assert fragment.lstrip().startswith('<form id="finish"')
    assert "<html" not in fragment
    assert "End 1 game and finish session 1" in fragment
    assert "Cancel: the tables play on" in fragment
    playing.refresh_from_db()
    assert playing.status == Session.Status.RUNNING
    done = director_client.post(
        status_url(playing), {"action": "finish", "confirmed": "1"}, headers=HTMX
    )
    assert done.status_code == 200
    assert done["HX-Redirect"] == reverse("manage:session", args=[playing.tournament.slug, 1])
    playing.refresh_from_db()
    assert playing.status == Session.Status.FINISHED


def test_the_session_page_says_which_tables_still_play_before_finishing(director_client, playing):
    page = director_client.get(
        reverse("manage:session", args=[playing.tournament.slug, 1])
    ).content.decode()
    assert "Table 1 still plays: finishing asks first." in page


def test_anonymous_is_sent_to_log_in_and_nothing_finishes(client, playing):
    response = client.post(status_url(playing), {"action": "finish", "confirmed": "1"})
    assert response.status_code == 302 and "/login" in response["Location"]
    playing.refresh_from_db()
    assert playing.status == Session.Status.RUNNING


def test_a_referee_may_read_but_not_finish_a_session(referee_client, playing):
    """A public tournament's session is readable by anyone: not its director, 403."""
    response = referee_client.post(status_url(playing), {"action": "finish", "confirmed": "1"})
    assert response.status_code == 403
    htmx = referee_client.post(status_url(playing), {"action": "finish"}, headers=HTMX)
    assert htmx.status_code == 403
    playing.refresh_from_db()
    assert playing.status == Session.Status.RUNNING
    assert not playing.tables.get(number=1).game.finished


# --- the standings never leave players out silently ----------------------------------------


def test_the_standings_page_names_the_tables_still_playing(client, playing, director):
    url = reverse("public:standings", args=[playing.tournament.slug])
    page = client.get(url).content.decode()
    assert (
        "Session 1 still plays at table 1. Their players join the standings once their games "
        "are over."
    ) in page
    session_page = client.get(
        reverse("public:session_standings", args=[playing.tournament.slug, 1])
    ).content.decode()
    assert "Session 1 still plays at table 1." in session_page
    playing.finish(end_games=True, by=director)
    assert "still plays" not in client.get(url).content.decode()


def test_switching_language_on_a_page_answered_with_errors_goes_back_to_the_form(
    director_client, playing
):
    # Issue 33.7: the switch went to the post's own address, a blank 405.
    page = reverse("manage:session", args=[playing.tournament.slug, 1])
    answer = director_client.post(
        reverse("manage:session_entry", args=[playing.tournament.slug, 1]),
        {"entry": "nonsense"},
        headers={"Referer": f"http://testserver{page}"},
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    assert f'name="next" value="http://testserver{page}"' in html
    switched = director_client.post(
        reverse("set_language"), {"language": "nl", "next": f"http://testserver{page}"}
    )
    assert switched.status_code == 302
    assert director_client.get(switched["Location"]).status_code == 200


def test_finishing_says_phones_may_hold_rounds_and_when_each_table_last_sent_one(
    director_client, playing, tournament
):
    """Issue 32, case 3: a phone offline at the end still holds its rounds; the finish
    form says so, and when each table's last change reached the site."""
    session = playing
    make_table(tournament=tournament, players=("Jan", "Kim"))  # table 3: nothing yet
    last = session.tables.get(number=1).game.changes.order_by("-at").first()
    asked = director_client.post(status_url(session), {"action": "finish"}, headers=HTMX)
    text = asked.content.decode()
    assert "A phone that was offline may still hold rounds not sent yet" in text
    at = timezone.localtime(last.at).strftime("%H:%M")
    assert f"table 1 at {at}" in text and "table 3, nothing yet" in text
