"""The session clock (issue 15, point 2): a time limit, started, paused, resumed and extended
for every table or one, each change logged; what is left computed at each reading; the
tournament's rule at the limit (the last round, one last round, the director); every
unfinished game of a session ended in one action; the pages that show it and the director's
controls."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_table, make_tournament, record, settings_post
from tournaments.clock import AtTimeLimit, Phase, clock_state, rule_sentence
from tournaments.errors import Refused
from tournaments.models import GameChange, Session, SessionClockEvent, Table

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.get_current_timezone())
SMALL = {"hands": {"Ann": 1, "Bart": 9, "Chris": 8, "Dirk": 7}, "yaniv": "Ann"}


def state(at_minutes: float, **fields):
    """The clock `at_minutes` after noon, started at noon unless the fields say otherwise."""
    known = {
        "limit": 90,
        "started_at": NOON,
        "paused_at": None,
        "paused_seconds": 0,
        "extension": 0,
        "table_extension": 0,
    }
    return clock_state(**{**known, **fields}, at=NOON + timedelta(minutes=at_minutes))


def started(session: Session, minutes_ago: float, limit: int = 90) -> Session:
    """The session running with its clock started `minutes_ago` (no waiting in tests)."""
    Session.objects.filter(pk=session.pk).update(
        status=Session.Status.RUNNING,
        time_limit=limit,
        clock_started_at=timezone.now() - timedelta(minutes=minutes_ago),
    )
    session.refresh_from_db()
    return session


def events(session: Session) -> list[tuple[str, int | None, int | None, str]]:
    return [
        (event.action, event.minutes, event.table.number if event.table else None, event.reason)
        for event in session.clock_events.order_by("at", "pk")
    ]


# --- the arithmetic (tournaments.clock) ------------------------------------------------------


def test_no_time_limit_no_clock():
    clock = state(10, limit=None)
    assert (clock.phase, clock.remaining, clock.shown, clock.token) == (Phase.NONE, None, "", "")


def test_a_limit_waits_for_its_start_with_the_whole_time():
    clock = state(10, started_at=None)
    assert (clock.phase, clock.remaining, clock.shown) == (Phase.WAITING, 5400.0, "90:00")
    assert clock.ends_at is None and not clock.started


def test_a_running_clock_counts_down_to_its_end():
    clock = state(30.5)
    assert clock.phase is Phase.RUNNING and clock.remaining == 59.5 * 60
    assert clock.shown == "59:30"
    assert clock.ends_at == NOON + timedelta(minutes=90)


def test_a_started_second_counts_as_one_and_0_00_shows_at_the_limit():
    assert state(90 - 0.1 / 60).shown == "0:01"
    assert state(90).shown == "0:00" and state(90).phase is Phase.OVER
    late = state(97)
    assert late.over and late.remaining == -7 * 60 and late.shown == "0:00"
    assert late.ends_at == NOON + timedelta(minutes=90)


def test_a_paused_clock_stands_still_and_the_pause_does_not_count():
    paused = state(50, paused_at=NOON + timedelta(minutes=40))
    assert paused.phase is Phase.PAUSED and paused.shown == "50:00" and paused.ends_at is None
    assert state(80, paused_at=NOON + timedelta(minutes=40)).shown == "50:00"
    # Resumed after a 10-minute pause: the end moves 10 minutes later.
    resumed = state(60, paused_seconds=600)
    assert resumed.shown == "40:00" and resumed.ends_at == NOON + timedelta(minutes=100)


def test_extensions_for_every_table_and_for_one_add_up():
    clock = state(30, extension=5, table_extension=10)
    assert clock.minutes == 105 and clock.shown == "75:00"
    assert clock.ends_at == NOON + timedelta(minutes=105)
    # Time up for the session, not for the extended table.
    assert state(96).over and not state(96, table_extension=10).over


def test_a_clock_paused_after_its_end_stays_over_with_its_end():
    clock = state(120, paused_at=NOON + timedelta(minutes=95))
    assert clock.phase is Phase.OVER and clock.ends_at == NOON + timedelta(minutes=90)
    assert clock.remaining == -5 * 60


def test_the_token_changes_with_the_clock_and_not_with_time():
    assert state(10).token == state(80).token
    assert state(10).token != state(10, extension=1).token
    assert state(10).token != state(95).token  # running, then over: once
    assert state(95).token == state(120).token
    paused = NOON + timedelta(minutes=40)
    assert state(50, paused_at=paused).token == state(70, paused_at=paused).token
    assert state(10, started_at=None).token == "w90"


@pytest.mark.parametrize(
    ("rule", "table", "rounds_after", "sentence"),
    [
        ("finish_round", True, 0, "finish the round being played; it is the last"),
        ("finish_round", False, 0, "every table finishes the round being played"),
        ("last_round", True, 0, "finish the round being played, then play one last round"),
        ("last_round", True, 1, "Last round: the game ends at the time limit"),
        ("last_round", False, 0, "then plays one last round"),
        ("director", True, 0, "play on until the director ends the game."),
        ("director", False, 0, "the tables play on until the director ends the games"),
    ],
)
def test_the_rule_at_the_limit_in_words(rule, table, rounds_after, sentence):
    assert sentence in rule_sentence(rule, table=table, rounds_after=rounds_after)


# --- the session's clock: its changes, each one logged ---------------------------------------


def test_a_director_sets_the_limit_starts_pauses_resumes_and_extends_each_logged(table, director):
    session = table.session
    session.set_time_limit(90, by=director)
    assert session.clock().phase is Phase.WAITING
    session.start_clock(by=director)
    assert session.clock().phase is Phase.RUNNING
    assert 89 * 60 < session.remaining().total_seconds() <= 90 * 60
    session.pause_clock(by=director)
    # Started 30 minutes ago, paused for the last 12, as if they had passed.
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=30),
        clock_paused_at=timezone.now() - timedelta(minutes=12),
    )
    session.refresh_from_db()
    session.resume_clock(by=director)
    assert session.clock_paused_seconds >= 12 * 60 and session.clock_paused_at is None
    session.extend_clock(5, by=director)
    session.extend_clock(3, table, by=director, reason="a long dispute")
    assert session.clock().minutes == 95 and session.clock(table).minutes == 98
    assert events(session) == [
        ("limit", 90, None, ""),
        ("start", 90, None, ""),
        ("pause", None, None, ""),
        ("resume", 12, None, ""),
        ("extend", 5, None, ""),
        ("extend", 3, 1, "a long dispute"),
    ]
    assert {event.by for event in session.clock_events.all()} == {director}


def test_each_clock_change_moves_the_tournaments_live_version(table, director):
    session = table.session
    tournament = session.tournament
    before = tournament.live_version()
    session.set_time_limit(60, by=director)
    after_limit = tournament.live_version()
    assert after_limit != before
    session.start_clock(by=director)
    session.extend_clock(2, table, by=director)
    assert tournament.live_version() not in (before, after_limit)
    assert tournament.live_version(finished_games_only=True) != before


def test_the_time_left_is_per_table_with_its_extension(table, director):
    session = started(table.session, minutes_ago=95)
    other = make_table(tournament=session.tournament, players=("Eva", "Finn"))
    session.extend_clock(10, other, by=director)
    other.refresh_from_db()
    assert session.clock(table).over
    assert not session.clock(other).over
    left, late = session.remaining(other), session.remaining(table)
    assert left is not None and late is not None
    assert 4 * 60 < left.total_seconds() <= 5 * 60
    assert late.total_seconds() < -4 * 60


@pytest.mark.parametrize("minutes", [0, -5, 721])
def test_a_time_limit_is_1_to_720_minutes(table, director, minutes):
    with pytest.raises(Refused, match="a time limit is 1 to 720 minutes"):
        table.session.set_time_limit(minutes, by=director)
    assert table.session.clock_events.count() == 0


def test_the_limit_is_fixed_once_the_clock_runs_extensions_add_time(table, director):
    session = started(table.session, minutes_ago=1)
    with pytest.raises(Refused, match="add time with an extension"):
        session.set_time_limit(120, by=director)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s, by: s.start_clock(by=by), "set a time limit before starting the clock"),
        (lambda s, by: s.pause_clock(by=by), "the clock has not started"),
        (lambda s, by: s.resume_clock(by=by), "the clock is not paused"),
        (lambda s, by: s.extend_clock(5, by=by), "start the clock before extending it"),
    ],
)
def test_a_clock_change_out_of_order_is_refused_and_logs_nothing(table, director, change, message):
    with pytest.raises(Refused, match=message):
        change(table.session, director)
    assert table.session.clock_events.count() == 0


def test_a_planned_session_starts_no_clock_and_a_running_one_starts_once(tournament, director):
    planned = make_table(tournament=tournament, session_status=Session.Status.PLANNED).session
    planned.set_time_limit(90, by=director)
    with pytest.raises(Refused, match="start the session before its clock"):
        planned.start_clock(by=director)
    started(planned, minutes_ago=1)
    with pytest.raises(Refused, match="the clock has already started"):
        planned.start_clock(by=director)
    planned.pause_clock(by=director)
    with pytest.raises(Refused, match="the clock is paused already"):
        planned.pause_clock(by=director)


def test_an_extension_is_1_to_120_minutes_and_720_in_all(table, director):
    session = started(table.session, minutes_ago=1)
    for minutes in (0, 121):
        with pytest.raises(Refused, match="an extension is 1 to 120 minutes"):
            session.extend_clock(minutes, by=director)
    for _ in range(6):
        session.extend_clock(120, by=director)
    with pytest.raises(Refused, match="720 minutes in all"):
        session.extend_clock(1, by=director)
    assert session.clock_extension == 720


def test_a_table_of_another_session_is_not_extended(table, director):
    session = started(table.session, minutes_ago=1)
    elsewhere = make_table(tournament=make_tournament())
    with pytest.raises(Refused, match="this table is not of this session"):
        session.extend_clock(5, elsewhere, by=director)
    elsewhere.refresh_from_db()
    assert elsewhere.clock_extension == 0


def test_a_finished_sessions_clock_stays_as_it_was(table, director):
    session = started(table.session, minutes_ago=1)
    session.finish(end_games=True, by=director)
    with pytest.raises(Refused, match="the session is finished"):
        session.extend_clock(5, by=director)
    with pytest.raises(Refused, match="the session is finished"):
        session.pause_clock(by=director)


def test_the_database_refuses_a_clock_that_cannot_be(table):
    session = table.session
    impossible: list[dict[str, Any]] = [
        {"time_limit": 0},
        {"time_limit": 721},
        {"clock_started_at": timezone.now()},  # no limit
        {"time_limit": 60, "clock_extension": 5},  # not started
        {"time_limit": 60, "clock_paused_at": timezone.now()},  # paused, never started
        {
            "time_limit": 60,
            "clock_started_at": timezone.now(),
            "clock_paused_at": timezone.now() - timedelta(hours=1),
        },
    ]
    for fields in impossible:
        with pytest.raises(IntegrityError), transaction.atomic():
            Session.objects.filter(pk=session.pk).update(**fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionClockEvent.objects.create(session=session, action="extend", minutes=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionClockEvent.objects.create(session=session, action="pause", table=table)
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionClockEvent.objects.create(session=session, action="end_games", reason="")


def test_starting_the_session_starts_its_clock_when_asked_and_a_limit_is_set(tournament, director):
    with_limit = make_table(tournament=tournament, session_status=Session.Status.PLANNED).session
    with_limit.set_time_limit(75, by=director)
    with_limit.start(start_clock=True, by=director)
    assert with_limit.clock().phase is Phase.RUNNING
    assert [action for action, *_ in events(with_limit)] == ["limit", "start"]
    other = make_tournament(directors=[director])
    without = make_table(tournament=other, session_status=Session.Status.PLANNED).session
    without.set_time_limit(75, by=director)
    without.start(by=director)
    assert without.clock().phase is Phase.WAITING


# --- at the limit: the tournament's rule -----------------------------------------------------


def play_until_over(table: Table, referee, rule: str) -> None:
    """Two rounds in time, then the session's time runs out (the clock started long ago)."""
    tournament = table.session.tournament
    tournament.at_time_limit = rule
    tournament.save()
    record(table.game, referee, SMALL, SMALL)
    started(table.session, minutes_ago=91)
    # The two rounds were played before the limit.
    table.game.rounds.update(entered_at=timezone.now() - timedelta(minutes=5))


def test_finish_the_round_the_round_recorded_after_the_limit_ends_the_game(table, referee):
    play_until_over(table, referee, AtTimeLimit.FINISH_ROUND)
    record(table.game, referee, SMALL)
    game = table.game
    game.refresh_from_db()
    assert game.finished and game.ended_at_time_limit and game.round_count == 3
    end = game.changes.get(action=GameChange.Action.END)
    assert end.user == referee and "the round being played at the limit" in end.reason
    # Ranked by totals: Ann 0, then Dirk 21, Chris 24, Bart 27.
    assert dict(game.table.seats.values_list("player__name", "rank")) == {
        "Ann": 1,
        "Dirk": 2,
        "Chris": 3,
        "Bart": 4,
    }
    with pytest.raises(Exception, match="already over"):
        record(game, referee, SMALL)


def test_one_last_round_the_second_round_after_the_limit_ends_the_game(table, referee):
    play_until_over(table, referee, AtTimeLimit.LAST_ROUND)
    record(table.game, referee, SMALL)
    table.game.refresh_from_db()
    assert not table.game.finished
    record(table.game, referee, SMALL)
    table.game.refresh_from_db()
    assert table.game.finished and table.game.ended_at_time_limit
    assert table.game.round_count == 4


def test_with_the_director_ending_the_games_the_tables_play_on(table, referee):
    play_until_over(table, referee, AtTimeLimit.DIRECTOR)
    record(table.game, referee, SMALL, SMALL, SMALL)
    table.game.refresh_from_db()
    assert not table.game.finished and table.game.round_count == 5


def test_rounds_in_time_or_while_paused_or_extended_do_not_end_the_game(table, referee, director):
    tournament = table.session.tournament
    session = started(table.session, minutes_ago=30)
    record(table.game, referee, SMALL)
    # Paused at minute 95: the time was up before the pause.
    session.pause_clock(by=director)
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=60)
    )
    record(table.game, referee, SMALL)
    session.resume_clock(by=director)
    table.game.refresh_from_db()
    assert not table.game.finished
    # Over, but this table has ten more minutes.
    started(session, minutes_ago=95)
    session.extend_clock(10, table, by=director)
    record(table.game, referee, SMALL)
    table.game.refresh_from_db()
    assert not table.game.finished
    assert tournament.at_time_limit == AtTimeLimit.FINISH_ROUND


def test_a_round_that_ends_the_game_by_its_rules_is_no_time_limit_end(table, referee):
    tournament = table.session.tournament
    tournament.rule_options = {"end_above": 40}
    tournament.save()
    play_until_over(table, referee, AtTimeLimit.FINISH_ROUND)
    record(
        table.game,
        referee,
        {"hands": {"Ann": 0, "Bart": 30, "Chris": 2, "Dirk": 3}, "yaniv": "Ann"},
    )
    table.game.refresh_from_db()
    assert table.game.finished and not table.game.ended_at_time_limit
    assert not table.game.changes.filter(action=GameChange.Action.END).exists()


# --- every unfinished game of a session ended in one action ----------------------------------


@pytest.fixture
def three_tables(table, referee):
    """Session 1: table 1 playing (2 rounds), table 2 not started, table 3 finished."""
    tournament = table.session.tournament
    second = make_table(tournament=tournament, players=("Eva", "Finn", "Gus"), referee=referee)
    third = make_table(tournament=tournament, players=("Hilde", "Ivo"), referee=referee)
    record(table.game, referee, SMALL, SMALL)
    over = {"hands": {"Hilde": 0, "Ivo": 45}, "yaniv": "Hilde"}
    record(third.game, referee, *[over] * 4)
    third.game.refresh_from_db()
    assert third.game.finished
    return table, second, third


def test_ending_the_games_ends_every_unfinished_one_each_logged(three_tables, director):
    table, second, third = three_tables
    session = table.session
    ended = session.end_games(by=director, reason="the 90 minutes are up")
    assert [t.number for t in ended] == [1, 2]
    for playing in (table, second):
        playing.game.refresh_from_db()
        assert playing.game.finished and playing.game.ended_at_time_limit
        end = playing.game.changes.get(action=GameChange.Action.END)
        assert (end.user, end.reason) == (director, "the 90 minutes are up")
    third_before = third.game.version
    third.game.refresh_from_db()
    assert not third.game.ended_at_time_limit and third.game.version == third_before
    event = session.clock_events.get()
    assert (event.action, event.games, event.by, event.reason) == (
        "end_games",
        2,
        director,
        "the 90 minutes are up",
    )
    # Ranked by the totals: Ann 0 first at table 1; table 2 (no round) a three-way shared win.
    assert dict(table.seats.values_list("player__name", "rank"))["Ann"] == 1
    assert set(second.seats.values_list("rank", flat=True)) == {1}
    with pytest.raises(Refused, match="every game of this session is over already"):
        session.end_games(by=director, reason="again")


def test_ending_the_games_needs_a_reason_and_a_started_session(tournament, director):
    planned = make_table(tournament=tournament, session_status=Session.Status.PLANNED).session
    with pytest.raises(Refused, match="the session has not started"):
        planned.end_games(by=director, reason="time")
    with pytest.raises(Refused, match="say why the games end"):
        planned.end_games(by=director, reason="  ")
    assert not GameChange.objects.exists()


def test_ending_the_games_is_all_or_nothing(three_tables, director, monkeypatch):
    table, second, _ = three_tables
    from tournaments.models import Game

    calls = []
    original = Game.end_at_time_limit

    def fail_on_the_second(self, **kwargs):
        calls.append(self.pk)
        if len(calls) == 2:
            raise RuntimeError("the database went away")
        return original(self, **kwargs)

    monkeypatch.setattr(Game, "end_at_time_limit", fail_on_the_second)
    with pytest.raises(RuntimeError):
        table.session.end_games(by=director, reason="time")
    table.game.refresh_from_db()
    assert not table.game.finished and not table.session.clock_events.exists()
    assert not GameChange.objects.filter(action=GameChange.Action.END).exists()


# --- the director chooses the rule at the limit on the tournament's settings ---------------


def test_the_director_chooses_what_happens_at_the_time_limit_on_the_settings_form(
    director_client, tournament
):
    url = reverse("manage:edit", args=[tournament.slug])
    page = director_client.get(url).content.decode()
    assert 'name="at_time_limit"' in page and "At the time limit" in page
    post = settings_post(page, tournament, at_time_limit="nonsense")
    response = director_client.post(url, post)
    assert response.status_code == 400
    tournament.refresh_from_db()
    assert tournament.at_time_limit == AtTimeLimit.FINISH_ROUND  # nothing saved
    post["at_time_limit"] = AtTimeLimit.LAST_ROUND
    assert director_client.post(url, post).status_code == 302
    tournament.refresh_from_db()
    assert tournament.at_time_limit == AtTimeLimit.LAST_ROUND
    # Left out, the round being played is the last.
    post["at_time_limit"] = ""
    assert director_client.post(url, post).status_code == 302
    tournament.refresh_from_db()
    assert tournament.at_time_limit == AtTimeLimit.FINISH_ROUND


def test_the_public_table_poll_reads_a_running_or_paused_clock_as_the_page_does(table, director):
    """The poll's narrow query reads the clock's times off the rows itself (SQLite gives them
    naive): its token must be the one the page sent, or every poll would redraw the sheet."""
    from tournaments import access

    session = started(table.session, minutes_ago=10)
    table.refresh_from_db()
    running = access.public_table_poll(table.pk)
    assert running == (table.game.version, session.clock(table).token)
    assert running[1].startswith("r")
    session.pause_clock(by=director)
    table.refresh_from_db()
    paused = access.public_table_poll(table.pk)
    assert paused == (table.game.version, table.session.clock(table).token)
    assert paused[1].startswith("p")


def start_session(client, session: Session, **fields: str):
    url = reverse("manage:session_status", args=[session.tournament.slug, session.number])
    return client.post(url, {"action": "start", **fields})


def test_start_session_starts_the_clock_from_a_page_drawn_before_the_limit_was_set(
    tournament, director, director_client
):
    # The page was drawn without a limit (no box); the limit came through the clock part.
    session = make_table(tournament=tournament, session_status=Session.Status.PLANNED).session
    session.set_time_limit(7, by=director)
    assert start_session(director_client, session, confirmed="1").status_code == 302
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING
    assert session.clock().phase is Phase.RUNNING


def test_start_session_leaves_the_clock_stopped_when_the_director_unchecks_the_box(
    tournament, director, director_client
):
    session = make_table(tournament=tournament, session_status=Session.Status.PLANNED).session
    session.set_time_limit(7, by=director)
    start_session(director_client, session, clock_box="1", confirmed="1")
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING
    assert session.clock().phase is Phase.WAITING


def test_saving_the_limit_swaps_the_start_buttons_clock_box_with_it(tournament, director_client):
    session = make_table(tournament=tournament, session_status=Session.Status.PLANNED).session
    url = reverse("manage:session_clock", args=[tournament.slug, session.number])
    answer = director_client.post(url, {"action": "limit", "limit": "7"}, HTTP_HX_REQUEST="true")
    text = answer.content.decode()
    assert 'id="clock"' in text
    box = text[text.index('id="start-clock"') :]
    assert box.startswith('id="start-clock" data-hx-swap-oob="true"')
    assert "and start the clock (7 min) now" in box
    assert 'name="start_clock" value="1" form="referees-form" checked' in box
