from __future__ import annotations

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from hall.board import board
from hall.models import HallScreen
from seasons import ratings
from seasons.models import PlayerRating, RatingChange, Season
from seasons.models.seasons import season_tables
from tournaments.clock import Phase
from tournaments.models import (
    Game,
    Hand,
    Player,
    Round,
    Session,
    SessionClockEvent,
    Table,
    Tournament,
)
from yaniv_club.management.commands import build_demo

# Each loads the whole demo (`make test`, CI).
pytestmark = pytest.mark.slow

CHAMPIONSHIP = "belgisch-kampioenschap-2026"
CLUB_NIGHT = "clubavond-november-2026"
SEASON = "yaniv-club-gent-2026"


@pytest.fixture
def demo(settings):
    """The demo as `make run` loads it (a development site)."""
    settings.DEBUG = True
    call_command("load_demo", stdout=io.StringIO())


def running_session() -> Session:
    return Session.objects.get(tournament__slug=CHAMPIONSHIP, number=2)


@pytest.mark.django_db
def test_demo_fixture_loads_a_club_night_and_a_championship_whose_sheets_add_up():
    call_command("loaddata", "demo", verbosity=0)

    assert Player.objects.count() == 16
    assert set(Tournament.objects.values_list("slug", "status")) == {
        (CHAMPIONSHIP, Tournament.Status.RUNNING),
        (CLUB_NIGHT, Tournament.Status.FINISHED),
    }
    assert Session.objects.filter(tournament__slug=CHAMPIONSHIP).count() == 2
    assert Session.objects.filter(tournament__slug=CLUB_NIGHT).count() == 4
    assert Table.objects.count() == 8 + 12
    # loaddata bypasses Table.save(): one game a table, none created twice.
    assert Game.objects.count() == 20

    games = Game.objects.select_related("table__session__tournament")
    for game in games:
        result = game.score()
        cached = {
            seat.player.name: seat.total for seat in game.table.seats.select_related("player")
        }
        assert dict(result.totals) == cached, game
        rounds = game.rounds.count()
        if game.table.session.tournament.slug == CLUB_NIGHT:
            # "Each player deals twice": 8 rounds at a table of 4, fewer if someone passed 150.
            assert game.finished and result.finished and game.signed_off, game
            assert rounds <= 8, game
        elif game.table.session.number == 1:
            assert game.finished and result.finished, game
            assert result.winners, game
        else:
            assert not game.finished and not result.finished, game
            assert 3 <= rounds <= 6, game


@pytest.mark.django_db
def test_the_demos_stored_ratings_are_those_a_recompute_gives():
    call_command("loaddata", "demo", verbosity=0)
    columns = ("player", "game", "at", "rank", "games", "mu", "sigma")
    stored = sorted(RatingChange.objects.values_list(*columns))
    current = sorted(PlayerRating.objects.values_list("player", "rating", "games"))
    # The club night's 12 games and the championship's first 4, four players each.
    assert len(stored) == 16 * 4

    assert ratings.recompute() == ratings.Recomputed(games=16, players=16)

    assert sorted(RatingChange.objects.values_list(*columns)) == stored
    assert sorted(PlayerRating.objects.values_list("player", "rating", "games")) == current


@pytest.mark.django_db
def test_load_demo_loads_into_an_empty_site_only(settings):
    settings.DEBUG = True  # a development site (with DEBUG off it needs --force)
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert Player.objects.count() == 16
    rounds = Round.objects.count()
    Round.objects.filter(number=1)[0].hands.update(hand_total=9)
    call_command("load_demo", stdout=out)
    assert "already has tournaments" in out.getvalue()
    assert Round.objects.count() == rounds
    assert Hand.objects.filter(hand_total=9, round__number=1).exists()


@pytest.mark.django_db
def test_the_demo_hall_screen_cycles_with_the_directors_message(client, demo):
    tournament = Tournament.objects.get(slug=CHAMPIONSHIP)
    screen = tournament.screens.get(number=1)
    assert (screen.pinned, screen.paused, screen.message) == ("", False, build_demo.HALL_MESSAGE)
    assert board(tournament, screen).views == (
        "message",
        "clock",
        "seating",
        "tables",
        "standings",
    )
    # The second screen, at the bar, stays on the standings.
    assert tournament.screens.get(number=2).pinned == HallScreen.View.STANDINGS

    response = client.get(reverse("public:hall", args=[CHAMPIONSHIP]))
    assert response.status_code == 200
    assert build_demo.HALL_MESSAGE in response.content.decode()

    client.force_login(get_user_model().objects.get(username=build_demo.DIRECTOR))
    page = client.get(reverse("manage:screens", args=[CHAMPIONSHIP])).content.decode()
    assert f"http://testserver/t/{CHAMPIONSHIP}/hall/" in page
    assert f"http://testserver/t/{CHAMPIONSHIP}/hall/2/" in page


@pytest.mark.django_db
def test_the_demo_clock_runs_with_time_left_whenever_the_demo_is_loaded(
    client, settings, monkeypatch
):
    settings.DEBUG = True
    # Loaded on any day: its clock starts again from that moment.
    loaded_at = datetime.datetime(2031, 5, 17, 9, 30, tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: loaded_at)
    call_command("load_demo", stdout=io.StringIO())

    session = running_session()
    clock = session.clock(at=loaded_at)
    assert clock.phase is Phase.RUNNING
    assert clock.limit == build_demo.SESSION_MINUTES
    # The demo stands still about 40 minutes into the session: 50 minutes left, give or take.
    assert clock.remaining is not None
    assert 40 * 60 < clock.remaining < build_demo.SESSION_MINUTES * 60
    table_3 = session.tables.get(number=3)
    assert session.clock(table_3, at=loaded_at).minutes == build_demo.SESSION_MINUTES + 5
    # The clock's log moved with it: started when the clock did, nothing after now.
    log = {event.action: event.at for event in session.clock_events.all()}
    assert log[SessionClockEvent.Action.START] == session.clock_started_at
    assert max(log.values()) <= loaded_at
    monkeypatch.undo()

    # Seen now, on the demo's pages.
    assert running_session().clock().phase is Phase.RUNNING
    page = client.get(reverse("public:tournament", args=[CHAMPIONSHIP])).content.decode()
    assert "Time left" in page


@pytest.mark.django_db
def test_the_demo_season_holds_both_tournaments_with_standings(client, demo):
    season = Season.objects.get(slug=SEASON)
    assert season.is_public
    assert (season.scheme, season.best_of) == (Season.Scheme.TABLE, 1)
    assert [entry.tournament.slug for entry in season.entries_in_order()] == [
        CLUB_NIGHT,
        CHAMPIONSHIP,
    ]
    table = season_tables([season])[season.pk]
    assert len(table.rows) == 16
    # Twelve players played both: their lesser result is struck through.
    struck = [cell for row in table.rows for cell in row.cells if cell and not cell.counted]
    assert len(struck) == 12

    page = client.get(reverse("public:season", args=[SEASON])).content.decode()
    assert "Club night November 2026 (demo)" in page
    assert "Belgian Championship 2026 (demo)" in page
    assert "<del>" in page

    leader = table.rows[0].player
    profile = client.get(reverse("public:profile", args=[leader.pk])).content.decode()
    assert "season points" in profile


@pytest.mark.django_db
def test_the_demo_rates_the_players_with_enough_games(client, demo):
    shown = PlayerRating.objects.filter(games__gte=ratings.min_games())
    # The club night's 12 players have 5 finished games; the other 4 have 1.
    assert shown.count() == 12
    assert PlayerRating.objects.count() == 16

    rated = client.get(reverse("public:profile", args=[shown[0].player_id])).content.decode()
    assert 'class="rating-chart"' in rated
    newcomer = PlayerRating.objects.filter(games=1).first()
    assert newcomer is not None
    page = client.get(reverse("public:profile", args=[newcomer.player_id])).content.decode()
    assert "Not settled yet: 1 rated game." in page
    assert 'class="rating-chart"' not in page


@pytest.mark.django_db
def test_load_demo_force_loads_the_whole_demo_with_debug_off_and_only_once(settings):
    settings.DEBUG = False
    out = io.StringIO()
    call_command("load_demo", "--force", stdout=out)
    assert "Demo loaded" in out.getvalue()
    assert Tournament.objects.count() == 2
    assert HallScreen.objects.count() == 2
    assert Season.objects.get().entries.count() == 2
    assert PlayerRating.objects.exists()
    started = running_session().clock_started_at
    assert running_session().clock().phase is Phase.RUNNING

    call_command("load_demo", "--force", stdout=out)
    assert "already has tournaments" in out.getvalue()
    assert Tournament.objects.count() == 2
    assert HallScreen.objects.count() == 2
    # The clock of a site already loaded stays as it runs.
    assert running_session().clock_started_at == started
