"""Each table's own time limit (issue 23, point 2): with a table given more minutes, the
session's clock (the director's panel, the public pages, the hall) says which tables still
play once the session's time is up and for how long; *End every unfinished game* proposes
only the tables whose own time is up and warns, naming the table and its minutes, before
ending one that still has time."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from hall.models import HallScreen
from tests.factories import HTMX, make_table, record
from tournaments.errors import Refused
from tournaments.models import Session
from tournaments.templatetags.clock import session_clock

pytestmark = pytest.mark.django_db

SMALL = {"hands": {"Ann": 1, "Bart": 9, "Chris": 8, "Dirk": 7}, "yaniv": "Ann"}


@pytest.fixture
def extended(table, referee, director) -> Session:
    """Session 1, 90 minutes, started 91 minutes ago: table 1 (a round in) is out of time,
    table 2 was given 10 more minutes (9 left), table 3 is finished."""
    tournament = table.session.tournament
    second = make_table(tournament=tournament, players=("Eva", "Finn", "Gus"))
    third = make_table(tournament=tournament, players=("Hilde", "Ivo"))
    record(table.game, referee, SMALL)
    record(third.game, referee, *[{"hands": {"Hilde": 0, "Ivo": 45}, "yaniv": "Hilde"}] * 4)
    session = table.session
    Session.objects.filter(pk=session.pk).update(
        time_limit=90, clock_started_at=timezone.now() - timedelta(minutes=91)
    )
    session.refresh_from_db()
    second.session = session
    session.extend_clock(10, second, by=director)
    session.extend_clock(5, third, by=director)
    return session


def session_page(client, session: Session) -> str:
    url = reverse("manage:session", args=[session.tournament.slug, session.number])
    return client.get(url).content.decode()


def end_url(session: Session) -> str:
    return reverse("manage:session_end_games", args=[session.tournament.slug, session.number])


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- the clock -------------------------------------------------------------------------------


def test_the_session_clock_names_the_tables_still_playing_on_their_own_time(extended):
    tables = list(extended.tables.select_related("game").order_by("number"))
    clock = session_clock(extended, None, None, None, tables)
    assert clock.state.over
    assert clock.sentence == (
        "Time is up for the other tables: each finishes the round being played; it is the last."
    )
    # Table 3's game is over: it plays on no more. Table 2 has its 9 minutes.
    (line,) = clock.playing_on
    assert (line.number, line.minutes, line.state.over) == (2, 10, False)
    assert line.state.remaining is not None and 8 * 60 < line.state.remaining <= 9 * 60
    assert line.ends_at_ms


def test_when_every_extended_table_is_out_of_time_the_rule_is_for_every_table(extended, director):
    Session.objects.filter(pk=extended.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=101)
    )
    extended.refresh_from_db()
    tables = list(extended.tables.select_related("game"))
    clock = session_clock(extended, None, None, None, tables)
    assert clock.sentence.startswith("Time is up: every table finishes the round")
    assert [line.state.over for line in clock.playing_on] == [True]


def test_before_the_end_the_sentence_the_page_shows_at_0_00_is_for_the_other_tables(
    table, director
):
    second = make_table(tournament=table.session.tournament, players=("Eva", "Finn"))
    session = table.session
    Session.objects.filter(pk=session.pk).update(
        time_limit=90, clock_started_at=timezone.now() - timedelta(minutes=30)
    )
    session.refresh_from_db()
    session.extend_clock(10, second, by=director)
    clock = session_clock(session, None, None, None, list(session.tables.select_related("game")))
    assert clock.sentence == ""
    assert clock.over_text.startswith("Time is up for the other tables")


def test_the_directors_panel_shows_the_extended_tables_time_left(director_client, extended):
    page = text(session_page(director_client, extended))
    assert re.search(r"More time: table 2 \+10 minutes · time left (8:\d\d|9:00)", page)
    assert "Time is up for the other tables" in page
    assert "table 3 +5" not in page  # its game is over


def test_the_hall_clock_shows_the_extended_tables_time_left(client, extended):
    HallScreen.default(extended.tournament).save()
    url = reverse("public:hall", args=[extended.tournament.slug])
    page = client.get(url).content.decode()
    clock = page[page.index('class="view view-clock"') :]
    assert "Time is up for the other tables" in clock
    assert re.search(r'class="table-clock" data-phase="running" data-ends-at="\d+"', clock)
    assert re.search(r"table 2 \+10 minutes · time left (8:\d\d|9:00)", text(clock))


# --- End every unfinished game ---------------------------------------------------------------


def test_the_panel_proposes_only_the_tables_whose_own_time_is_up(director_client, extended):
    page = session_page(director_client, extended)
    assert re.search(r'name="tables" value="1" checked', page)
    assert re.search(r'name="tables" value="2">', page)
    # As the clock shows it (issue 33.8: "4 minutes" while the clock showed 3:25).
    assert re.search(r"\((8:\d\d|9:00) of its own time left\)", text(page))
    assert 'value="3"' not in page[page.index("end-tables") :]


def test_ending_a_table_with_time_left_warns_naming_it_and_its_minutes(director_client, extended):
    response = director_client.post(
        end_url(extended), {"tables": ["1", "2"], "reason": "time"}, headers=HTMX
    )
    assert response.status_code == 200
    answer = text(response.content.decode())
    assert "End the games of tables 1, 2 at the time limit?" in answer
    assert "Table 2 still has 9 minutes of its own time." in answer
    assert "Table 1 still has" not in answer
    fragment = response.content.decode()
    assert '<input type="hidden" name="tables" value="1">' in fragment
    assert '<input type="hidden" name="tables" value="2">' in fragment
    assert not extended.tables.filter(game__finished=True, number__in=[1, 2]).exists()


def test_a_plain_post_asks_on_its_own_page_with_the_warning(director_client, extended):
    response = director_client.post(end_url(extended), {"tables": ["2"], "reason": "time"})
    assert response.status_code == 200
    assert "Table 2 still has 9 minutes of its own time." in response.content.decode()
    assert not extended.tables.get(number=2).game.finished


def test_confirmed_only_the_chosen_tables_end(director_client, extended):
    response = director_client.post(
        end_url(extended), {"tables": ["1"], "reason": "time", "confirmed": "1"}
    )
    assert response.status_code == 302
    first, second = (extended.tables.get(number=n).game for n in (1, 2))
    assert first.finished and first.ended_at_time_limit
    assert not second.finished
    assert extended.clock_events.filter(action="end_games").get().games == 1


def test_no_table_chosen_is_refused_where_the_director_typed(director_client, extended):
    response = director_client.post(end_url(extended), {"reason": "time"}, headers=HTMX)
    assert response.status_code == 200  # the clock's section, the message in it
    assert "Choose the tables whose games end." in response.content.decode()
    plain = director_client.post(end_url(extended), {"tables": ["3"], "reason": "time"})
    assert plain.status_code == 400
    assert "Table 3 no longer plays." in plain.content.decode()
    assert not extended.tables.filter(game__ended_at_time_limit=True).exists()


def test_anonymous_and_a_referee_end_nothing(client, referee_client, extended):
    post = {"tables": ["1"], "reason": "time", "confirmed": "1"}
    anonymous = client.post(end_url(extended), post)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert referee_client.post(end_url(extended), post).status_code == 403
    assert referee_client.post(end_url(extended), post, headers=HTMX).status_code == 403
    assert not extended.tables.filter(game__ended_at_time_limit=True).exists()


def test_the_model_ends_only_the_tables_asked(extended, director):
    ended = extended.end_games(by=director, reason="time", tables=[2])
    assert [table.number for table in ended] == [2]
    assert not extended.tables.get(number=1).game.finished
    with pytest.raises(Refused, match="choose a table still playing"):
        extended.end_games(by=director, reason="time", tables=[3])
