"""The skill rating on the site (seasons.ratings): rated when a game finishes, again when
it is corrected or undone, equal to a full recompute, whatever the storage order; shown after
the minimum of games, private games never on public pages, the player page's queries."""

from __future__ import annotations

import contextlib
import datetime
import logging
import re
from collections.abc import Iterator, Mapping

import pytest
from django.core.management import call_command
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django_tasks_db.models import DBTaskResult

from scoring.rating import FinishedGame, Placing, rate_game, rate_games
from seasons import ratings, tasks
from seasons.models import PlayerRating, RatingChange
from tests.factories import entries, make_tournament
from tests.tasks import run_tasks
from tournaments.models import Game, Player, Seat, Session, Table, Tournament

pytestmark = pytest.mark.django_db

NOON = datetime.datetime(2026, 11, 21, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks):
    """Run what a change does once its transaction commits, as the site does (the tests'
    transaction never commits), then the tasks it queued, as the worker does: the block
    gives the on-commit callbacks it ran."""

    @contextlib.contextmanager
    def committed() -> Iterator[list]:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            yield callbacks
        run_tasks()

    return committed


@pytest.fixture
def people() -> dict[str, Player]:
    return {name: Player.objects.create(name=name) for name in ("Ann", "Bart", "Chris", "Dirk")}


def seat_players(tournament: Tournament, players: list[Player], referee) -> Game:
    """A new table of the tournament's latest session (a running one), with its game."""
    session = tournament.sessions.order_by("-number").first() or Session.objects.create(
        tournament=tournament, number=1, status=Session.Status.RUNNING
    )
    (table,) = Table.objects.create_with_games(
        [Table(session=session, number=session.tables.count() + 1, referee=referee)]
    )
    for position, player in enumerate(players, start=1):
        Seat.objects.create(table=table, position=position, player=player)
    return Game.objects.select_related("table__session__tournament").get(table=table)


def play(tournament: Tournament, referee, hands: Mapping[Player, int]) -> Game:
    """One round, the first player calling Yaniv on 0, then the time limit: the game finishes
    ranked by `hands` (equal hands tie)."""
    game = seat_players(tournament, list(hands), referee)
    caller = next(iter(hands))
    round_ = {"hands": {p.name: hand for p, hand in hands.items()}, "yaniv": caller.name}
    game.record_round(entries(round_), by=referee, number=1)
    game.end_at_time_limit(by=referee, reason="time is up", version=game.version)
    return game


def dirk_45(people: Mapping[str, Player]) -> dict:
    hands = {"Ann": 0, "Bart": 10, "Chris": 20, "Dirk": 45}
    return {"hands": hands, "yaniv": "Ann"}


def stored_rows() -> list[tuple]:
    return sorted(
        RatingChange.objects.values_list(
            "player", "game", "at", "rank", "games", "mu_before", "sigma_before", "mu", "sigma"
        )
    )


def current_ratings() -> list[tuple]:
    return sorted(PlayerRating.objects.values_list("player", "mu", "sigma", "rating", "games"))


def snapshot() -> tuple[list[tuple], list[tuple]]:
    return stored_rows(), current_ratings()


def league(tournament, referee, people, after_commit, games: int = 6) -> list[Game]:
    """`games` games of the four, each finishing after the last, the winner moving round."""
    ann, bart, chris, dirk = people.values()
    orders = [(ann, bart, chris, dirk), (bart, chris, dirk, ann), (chris, ann, dirk, bart)]
    played = []
    for number in range(games):
        order = orders[number % len(orders)]
        with after_commit():
            played.append(play(tournament, referee, dict(zip(order, (0, 5, 12, 30), strict=True))))
    return played


# --- rated when a game finishes ---------------------------------------------------------


def test_a_game_is_rated_when_it_finishes(tournament, referee, people, after_commit):
    ann, bart, chris, dirk = people.values()
    with after_commit() as callbacks:
        game = play(tournament, referee, {ann: 0, bart: 5, chris: 5, dirk: 20})
    assert len(callbacks) == 1  # the end at the time limit; the round itself finished nothing
    game.refresh_from_db()
    assert game.finished_at is not None
    rows = {row.player_id: row for row in RatingChange.objects.filter(game=game)}
    assert {p.name: rows[p.pk].rank for p in people.values()} == {
        "Ann": 1,
        "Bart": 2,
        "Chris": 2,
        "Dirk": 4,
    }
    expected = rate_game(
        FinishedGame(
            game.pk,
            game.finished_at,
            (Placing(ann.pk, 1), Placing(bart.pk, 2), Placing(chris.pk, 2), Placing(dirk.pk, 4)),
        ),
        {},
    )
    for change in expected:
        row = rows[change.player]
        assert (row.mu_before, row.sigma_before) == (change.before.mu, change.before.sigma)
        assert (row.mu, row.sigma, row.games, row.at) == (
            change.after.mu,
            change.after.sigma,
            1,
            game.finished_at,
        )
    assert rows[ann.pk].delta > 0 > rows[dirk.pk].delta
    assert rows[bart.pk].rank == rows[chris.pk].rank
    current = PlayerRating.objects.get(player=ann)
    assert (current.mu, current.sigma, current.games) == (rows[ann.pk].mu, rows[ann.pk].sigma, 1)
    assert current.rating == pytest.approx(current.mu - 3 * current.sigma)


def test_a_game_ended_by_the_rules_is_rated_too(tournament, referee, people, after_commit):
    game = seat_players(tournament, list(people.values()), referee)
    with after_commit():
        for number in range(1, 5):
            game.record_round(entries(dirk_45(people)), by=referee, number=number)
    assert game.finished and not game.ended_at_time_limit
    ranks = dict(RatingChange.objects.filter(game=game).values_list("player__name", "rank"))
    assert ranks == {"Ann": 1, "Bart": 2, "Chris": 3, "Dirk": 4}


def test_rounds_of_a_game_still_playing_leave_the_ratings_alone(
    tournament, referee, people, after_commit
):
    game = seat_players(tournament, list(people.values()), referee)
    with after_commit() as callbacks:
        game.record_round(entries(dirk_45(people)), by=referee, number=1)
    assert callbacks == []
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()


# --- in the background ---------------------------------------------------------------


def queued_ratings() -> list[list]:
    return [
        task.args_kwargs["args"]
        for task in DBTaskResult.objects.ready().filter(task_path="seasons.tasks.rate_games")
    ]


def test_a_finished_game_queues_its_rating_and_the_worker_rates_it(
    tournament, referee, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = play(tournament, referee, dict(zip(people.values(), (0, 5, 9, 20), strict=True)))
    # Committed: the game is saved and its rating waits in the queue.
    assert game.finished and queued_ratings() == [[[game.pk]]]
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()
    assert run_tasks() == 1
    assert RatingChange.objects.filter(game=game).count() == 4
    rated = snapshot()
    # The same task twice (queued again, or run again after a worker died): nothing changes.
    assert tasks.rate_games.call([game.pk]) == 0
    assert snapshot() == rated


def test_a_correction_never_rates_in_the_request_however_many_games_follow(
    tournament, referee, director, people, after_commit, django_capture_on_commit_callbacks
):
    """The correction of the first game makes every later one rated again: in the worker.
    The save (its on-commit work included) writes one task and reads no rating, with 2 games
    after it as with 8."""

    def correct_the_first(games: list[Game]) -> list[str]:
        first = games[0]
        swap = {"hands": {"Ann": 30, "Bart": 5, "Chris": 12, "Dirk": 0}, "yaniv": "Dirk"}
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            first.correct_round(1, entries(swap), by=director, reason="x", version=first.version)
        return [query["sql"].lower() for query in queries.captured_queries]

    few = correct_the_first(league(tournament, referee, people, after_commit, games=3))
    run_tasks()
    many = correct_the_first(league(make_tournament(), referee, people, after_commit, games=9))
    assert len(many) == len(few)
    for statements in (few, many):
        assert not [sql for sql in statements if "rating" in sql]
        assert len([sql for sql in statements if "django_tasks_database_dbtaskresult" in sql]) == 1
    assert len(queued_ratings()) == 1
    run_tasks()
    incremental = snapshot()
    ratings.recompute()
    assert snapshot() == incremental


# --- corrected, undone --------------------------------------------------------------


def test_a_correction_that_changes_the_ranks_moves_the_rating_as_a_full_recompute_would(
    tournament, referee, director, people, after_commit
):
    first, *later = league(tournament, referee, people, after_commit)
    ann, bart, chris, dirk = people.values()
    before = PlayerRating.objects.get(player=dirk).mu
    # Dirk had 30 in the first game, not 3: from last to second.
    corrected = {"hands": {"Ann": 0, "Bart": 5, "Chris": 12, "Dirk": 3}, "yaniv": "Ann"}
    with after_commit():
        first.correct_round(
            1, entries(corrected), by=director, reason="misread", version=first.version
        )
    assert RatingChange.objects.get(game=first, player=dirk).rank == 2
    assert PlayerRating.objects.get(player=dirk).mu > before
    incremental = snapshot()
    ratings.recompute()
    assert snapshot() == incremental


def test_a_correction_that_moves_no_rank_rewrites_nothing(
    tournament, referee, director, people, after_commit
):
    games = league(tournament, referee, people, after_commit, games=3)
    rows = list(RatingChange.objects.order_by("pk").values_list("pk", "mu", "sigma"))
    corrected = {"hands": {"Bart": 0, "Chris": 5, "Dirk": 13, "Ann": 30}, "yaniv": "Bart"}
    with after_commit():
        games[1].correct_round(
            1, entries(corrected), by=director, reason="13, not 12", version=games[1].version
        )
    assert list(RatingChange.objects.order_by("pk").values_list("pk", "mu", "sigma")) == rows
    assert ratings.rate_changed_games([games[1].pk]) == 0


def test_undoing_the_round_that_finished_a_game_takes_its_rating_back(
    tournament, referee, director, people, after_commit
):
    (earlier,) = league(tournament, referee, people, after_commit, games=1)
    after_one = snapshot()
    game = seat_players(tournament, list(people.values()), referee)
    with after_commit():
        for number in range(1, 5):
            game.record_round(entries(dirk_45(people)), by=referee, number=number)
    assert RatingChange.objects.filter(game=game).count() == 4
    with after_commit():
        game.undo_last_round(by=director, reason="played on", version=game.version)
    assert not game.finished
    assert snapshot() == after_one
    with after_commit():
        earlier.undo_last_round(by=director, reason="wrong table", version=earlier.version)
    # Ended at the time limit with no round left: everyone level on 0, still rated.
    assert set(RatingChange.objects.values_list("rank", flat=True)) == {1}


def test_a_player_whose_only_game_is_no_longer_finished_has_no_rating(
    tournament, referee, director, people, after_commit
):
    game = seat_players(tournament, list(people.values()), referee)
    with after_commit():
        for number in range(1, 5):
            game.record_round(entries(dirk_45(people)), by=referee, number=number)
        game.undo_last_round(by=director, reason="played on", version=game.version)
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()


def test_a_game_finishing_before_the_latest_rated_one_rates_the_later_ones_again(
    tournament, referee, people, after_commit
):
    """An import restores when each game finished: an earlier game than those rated."""
    games = league(tournament, referee, people, after_commit, games=4)
    last, first_finished = games[-1], games[0].finished_at
    assert first_finished is not None
    with after_commit():
        last.restore_history(
            [],
            finished_at=first_finished - datetime.timedelta(hours=1),
            signed_off_at=None,
            signed_off_by=None,
            version=last.version,
        )
    first_rated = RatingChange.objects.order_by("at", "game").first()
    assert first_rated is not None and first_rated.game_id == last.pk
    incremental = snapshot()
    ratings.recompute()
    assert snapshot() == incremental


def test_incremental_updates_equal_a_full_recompute(
    tournament, referee, director, people, after_commit
):
    ann, bart, chris, dirk = people.values()
    eva, finn = Player.objects.create(name="Eva"), Player.objects.create(name="Finn")
    club_night = make_tournament(name="Club night", is_public=False)
    played = league(tournament, referee, people, after_commit, games=5)
    with after_commit():
        play(club_night, referee, {eva: 0, ann: 4, finn: 9})
        play(club_night, referee, {bart: 0, finn: 4, eva: 4, dirk: 8})
        play(tournament, referee, {finn: 0, chris: 3})
    middle = played[2]
    swap = {"hands": {"Chris": 0, "Ann": 30, "Dirk": 12, "Bart": 5}, "yaniv": "Chris"}
    with after_commit():
        middle.correct_round(1, entries(swap), by=director, reason="swap", version=middle.version)
        play(tournament, referee, {dirk: 0, eva: 2, ann: 7})
    assert RatingChange.objects.count() == 5 * 4 + 3 + 4 + 2 + 3
    incremental = snapshot()
    done = ratings.recompute()
    assert (done.games, done.players) == (9, 6)
    assert snapshot() == incremental


def test_the_storage_order_does_not_change_the_ratings(referee, people, after_commit):
    ann, bart, chris, dirk = people.values()
    tables = [
        {ann: 0, bart: 5, chris: 9, dirk: 30},
        {dirk: 0, chris: 5, bart: 5},
        {bart: 0, ann: 6},
        {chris: 0, dirk: 3, ann: 12, bart: 14},
        {ann: 0, dirk: 20},
        {dirk: 0, bart: 1, chris: 2, ann: 3},
    ]

    def build(order: list[int]) -> dict[tuple[str, datetime.datetime], tuple]:
        tournament = make_tournament()
        for index in order:
            game = play(tournament, referee, tables[index])
            # The games finished in the tables' order, whatever order they were stored in.
            Game.objects.filter(pk=game.pk).update(
                finished_at=NOON + datetime.timedelta(minutes=10 * index)
            )
        ratings.recompute()
        result = {
            (row.player.name, row.at): (row.rank, row.games, row.mu, row.sigma)
            for row in RatingChange.objects.select_related("player")
        }
        tournament.delete()
        return result

    in_order = build([0, 1, 2, 3, 4, 5])
    assert build([5, 4, 3, 2, 1, 0]) == in_order
    assert build([3, 0, 5, 1, 4, 2]) == in_order
    by_pure = rate_games(
        FinishedGame(
            index,
            NOON + datetime.timedelta(minutes=10 * index),
            tuple(
                Placing(p.pk, 1 + sum(other < hand for other in table.values()))
                for p, hand in table.items()
            ),
        )
        for index, table in enumerate(tables)
    )
    names = {p.pk: p.name for p in people.values()}
    assert {
        (names[c.player], c.finished_at): (c.rank, c.after.games, c.after.mu, c.after.sigma)
        for c in by_pure.changes
    } == in_order


def test_the_recompute_command_rebuilds_every_rating(tournament, referee, people, after_commit):
    league(tournament, referee, people, after_commit, games=3)
    before = snapshot()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    call_command("recompute_ratings", stdout=(out := _Output()))
    assert re.fullmatch(r"rated 3 games of 4 players in \d+\.\d\d s\n", out.text)
    assert snapshot() == before


class _Output:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_a_failing_rating_never_fails_the_round(
    tournament, referee, people, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    def broken(game_ids):
        raise RuntimeError("no ratings today")

    monkeypatch.setattr(ratings, "rate_changed_games", broken)
    game = seat_players(tournament, list(people.values()), referee)
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(1, 5):
            game.record_round(entries(dirk_45(people)), by=referee, number=number)
    game.refresh_from_db()
    assert game.finished and game.round_count == 4
    # The worker's run fails: logged, and kept in the queue with its traceback.
    with caplog.at_level(logging.ERROR, logger="seasons.tasks"):
        assert run_tasks(failing=True) == 1
    assert f"ratings not updated after games [{game.pk}]" in caplog.text
    (failed,) = DBTaskResult.objects.filter(task_path="seasons.tasks.rate_games")
    assert failed.status == "FAILED" and "no ratings today" in failed.traceback
    assert not RatingChange.objects.exists()
    # The next change, or the command, catches up.
    monkeypatch.undo()
    ratings.rate_changed_games([game.pk])
    assert RatingChange.objects.filter(game=game).count() == 4


def test_a_merge_makes_one_rating_of_two_records_of_one_player(
    tournament, referee, people, after_commit
):
    ann, bart, chris, dirk = people.values()
    twin = Player.objects.create(name="Ann C.")
    other = make_tournament(name="Spring cup")
    with after_commit():
        play(tournament, referee, {ann: 0, bart: 5, chris: 9})
        play(other, referee, {bart: 0, twin: 5, dirk: 9})
        play(tournament, referee, {ann: 0, dirk: 4})
    with after_commit():
        twin.merge_into(ann, by=None)
    assert PlayerRating.objects.get(player=ann).games == 3
    assert sorted(RatingChange.objects.filter(player=ann).values_list("games", flat=True)) == [
        1,
        2,
        3,
    ]
    merged = snapshot()
    ratings.recompute()
    assert snapshot() == merged


# --- the player's page -------------------------------------------------------------------


def player_page(client, tournament: Tournament, player: Player):
    return client.get(reverse("public:player", args=[tournament.slug, player.pk]))


def test_a_player_is_provisional_until_the_minimum_of_games(
    client, tournament, referee, people, after_commit, settings
):
    assert ratings.min_games() == 5
    settings.RATING_MIN_GAMES = 3
    ann, bart, chris, dirk = people.values()
    with after_commit():
        play(tournament, referee, {ann: 0, bart: 4})
        play(tournament, referee, {chris: 0, ann: 4})
    html = player_page(client, tournament, ann).content.decode()
    assert "Not settled yet: 2 rated games. A rating shows after 3 games." in html
    assert "<svg" not in html
    with after_commit():
        play(tournament, referee, {ann: 0, dirk: 4})
    html = player_page(client, tournament, ann).content.decode()
    rating = PlayerRating.objects.get(player=ann)
    assert "Not settled yet" not in html
    assert f"Rating {rating.rating:.1f}" in html
    assert f"skill μ {rating.mu:.1f}, uncertainty σ {rating.sigma:.1f} · 3 rated games" in html
    assert 'class="rating-chart"' in html


def test_each_game_says_how_much_it_moved_and_why(
    client, tournament, referee, people, after_commit, settings
):
    settings.RATING_MIN_GAMES = 1
    ann, bart, chris, dirk = people.values()
    with after_commit():
        game = play(tournament, referee, {chris: 0, ann: 5, bart: 5, dirk: 9})
    page = player_page(client, tournament, ann)
    (line,) = page.context["card"].lines
    assert (line.beat, line.tied_with, line.lost_to) == (("Dirk",), ("Bart",), ("Chris",))
    assert line.table_size == 4
    row = RatingChange.objects.get(game=game, player=ann)
    html = page.content.decode()
    shown = f"{round(row.rating_delta, 1):+.1f}".replace("+", "+" if row.rating_delta > 0 else "")
    assert f"<strong>{shown}</strong> → {row.rating:.1f}" in html
    assert "Rank 2 of 4 · beat <bdi>Dirk</bdi> · level with <bdi>Bart</bdi>" in html
    assert "beaten by <bdi>Chris</bdi>" in html
    assert reverse("tables:detail", args=[game.table_id]) in html


def test_the_chart_is_drawn_by_attributes_and_named_by_its_summary(
    client, tournament, referee, people, after_commit, settings
):
    settings.RATING_MIN_GAMES = 2
    league(tournament, referee, people, after_commit, games=4)
    ann = people["Ann"]
    card = player_page(client, tournament, ann).context["card"]
    svg = str(card.chart)
    assert svg.startswith("<svg") and 'role="img"' in svg
    assert "style=" not in svg and "<script" not in svg
    assert f'aria-label="{card.summary}"' in svg
    last = RatingChange.objects.filter(player=ann).order_by("-at").first()
    assert last is not None
    assert card.summary.startswith(f"Rating {last.rating:.1f} after 4 games, from 0.0; highest")
    # A point before the first game and one after each.
    points = re.search(r'<polyline points="([^"]+)"', svg)
    assert points and len(points.group(1).split()) == 5


@pytest.mark.parametrize("language, point", [("nl", ","), ("fr", ",")])
def test_the_charts_caption_writes_decimals_as_the_reader_does(language, point):
    # Issue 33.7: "Rating 25.3" on a Dutch or French page.
    with translation.override(language):
        summary = ratings.chart_summary([0.0, 12.25, 25.34])
    assert f"25{point}3" in summary and f"0{point}0" in summary and "25.3" not in summary


def test_private_games_rate_but_never_show_on_public_pages(
    client, director_client, director, tournament, referee, people, after_commit, settings
):
    settings.RATING_MIN_GAMES = 3
    ann, bart, chris, dirk = people.values()
    club_night = make_tournament(name="Secret club night", is_public=False, directors=[director])
    with after_commit():
        for _ in range(3):
            play(tournament, referee, {ann: 0, bart: 4, chris: 8})
        for _ in range(2):
            play(club_night, referee, {dirk: 0, ann: 4})
    assert PlayerRating.objects.get(player=ann).games == 5

    page = player_page(client, tournament, ann)
    card = page.context["card"]
    html = page.content.decode()
    assert card.games == 3 and len(card.lines) == 3
    assert "Secret club night" not in html and "Dirk" not in html
    assert "3 rated games" in html and "5 rated games" not in html
    # The rating shown is the one after the last game the page may show.
    last_public = RatingChange.objects.filter(
        player=ann, game__table__session__tournament=tournament
    ).latest("at")
    assert card.rating == pytest.approx(last_public.rating)
    assert card.rating != pytest.approx(PlayerRating.objects.get(player=ann).rating)
    # Across tournaments (the profile's include): the public games alone.
    profile = render_to_string("seasons/_rating.html", {"player": ann})
    assert "Secret club night" not in profile and "3 rated games" in profile
    # The private tournament's own page, for its director: its games count too.
    own = player_page(director_client, club_night, ann)
    assert own.context["card"].games == 5
    assert "Secret club night" in own.content.decode()
    # And for anyone else it does not exist.
    assert player_page(client, club_night, ann).status_code == 404


def test_the_player_page_costs_the_same_queries_for_few_or_many_rated_games(
    client, tournament, referee, people, after_commit, settings, django_assert_num_queries
):
    settings.RATING_MIN_GAMES = 2
    league(tournament, referee, people, after_commit, games=2)
    ann = people["Ann"]
    with django_assert_num_queries(10) as few:  # its version: the page polls
        player_page(client, tournament, ann)
    league(tournament, referee, people, after_commit, games=6)
    with django_assert_num_queries(len(few.captured_queries)):
        page = player_page(client, tournament, ann)
    assert page.context["card"].games == 8
    rating_queries = [q["sql"] for q in few.captured_queries if "rating" in q["sql"]]
    assert len(rating_queries) == 3


def test_a_provisional_player_costs_one_query(
    tournament, referee, people, after_commit, django_assert_num_queries
):
    league(tournament, referee, people, after_commit, games=1)
    with django_assert_num_queries(1):
        card = ratings.rating_card(people["Ann"], tournament)
    assert card.provisional and card.games == 1
