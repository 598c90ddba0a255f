"""Benchmark: the hot path against its floors (issue 14), in one run (a benchmark, not a test).

Builds its own data in the configured database (SQLite or PostgreSQL): a running public
tournament with a referee's table to submit to, a table for the floor's bare writes and a
table whose game has 100 rounds (recorded as a referee records them, with their audit log),
and a finished championship of `--players` × `--sessions` for the standings. Then it measures
every figure and its floor interleaved, round after round (`--repeat` times, the order shuffled
each round), and prints the medians side by side:

- **round submission**: a referee's round posted to `tables:sync` through the whole stack
  (Django's test client: the real middleware, session, CSRF check and JSON answer), a fresh
  round each time; its floor is a bare ORM write of the same rows in one transaction (lock the
  game, insert the round, insert its hands, bump the version). Goal ≤ 3×, ≤ 10 queries.
- **the table page** of a 100-round game, as a follower and as its referee (the entry form);
  the floor fetches the same rows with raw SQL (the table with its session, tournament and
  game; the seats and players; the rounds with their hands; the last 50 audit-log entries; the
  disputes) and renders nothing. Goal ≤ 5×.
- **unchanged polls** (the table's sheet and the standings, htmx, answered 204) against
  `GET /health/` (one query through the same middleware). Goal ≤ 1.5×.
- **the standings** of the championship (`Tournament.standings`) against fetching the same
  finished seats with raw SQL (goal ≤ 2×), and the standings page against the same floor
  (goal ≤ 3×).
- for information, **changed polls** (a phone a version behind), served from the shared cache
  once the first phone had the fragment rendered, against `GET /health/`.

Queries are counted in one extra run of each figure, not timed. DEBUG is off while it
measures (as in production: no query log), the logs go nowhere. It exits 1 when a goal is
missed (`--no-fail` only reports) and deletes what it built unless `--keep`.

    .venv/bin/python -m bench hotpath [--quick] [--repeat 150] [--players 512] [--sessions 8]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import logging
import random
import secrets
import statistics
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, reset_queries, transaction
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from bench import BenchError, say
from bench import standings as standings_bench
from scoring import dealer, rules
from tournaments.models import (
    Dispute,
    Game,
    GameChange,
    Hand,
    Player,
    Round,
    Seat,
    Session,
    Table,
    Tournament,
)

PAGE_ROUNDS = 100
REFEREE = "bench-hotpath-referee"
HTMX = {"HX-Request": "true"}


# --- what is measured -----------------------------------------------------------------


@dataclass
class Probe:
    """One thing timed: a callable doing it once, and a check of what it answered."""

    name: str
    run: Callable[[], Any]
    check: Callable[[Any], str | None] = lambda _: None
    seconds: list[float] = field(default_factory=list)
    queries: int = 0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.seconds) * 1000


@dataclass(frozen=True)
class Figure:
    """A line of the report: a probe against its floor, with the goal (None: information)."""

    probe: str
    floor: str
    goal: float | None
    max_queries: int | None = None


FIGURES = (
    Figure("round submission (tables:sync)", "ORM write of the round", 3.0, 10),
    Figure("table page, 100 rounds, follower", "raw SQL of the page's rows", 5.0),
    Figure("table page, 100 rounds, referee", "raw SQL of the page's rows", 5.0),
    Figure("table poll, unchanged (204)", "GET /health/", 1.5),
    Figure("standings poll, unchanged (204)", "GET /health/", 1.5),
    Figure("standings", "raw SQL of the finished seats", 2.0),
    Figure("standings page", "raw SQL of the finished seats", 3.0),
    Figure("table poll, changed (cached)", "GET /health/", None),
    Figure("standings poll, changed (cached)", "GET /health/", None),
)


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Time the hot path (submission, table page, polls, standings) "
        "against its floors, interleaved, and check the goals of issue 14.",
    )
    parser.add_argument("--repeat", type=int, help="rounds of measurements (150; 5 with --quick)")
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--quick", action="store_true", help="small: 32 players, 2 sessions, 5 rounds"
    )
    parser.add_argument("--no-fail", action="store_true", help="report only, exit 0")
    parser.add_argument("--keep", action="store_true", help="keep what was built")
    options = parser.parse_args(argv)
    if options.quick:
        options.players, options.sessions = 32, 2
    if options.repeat is None:
        options.repeat = 5 if options.quick else 150
    if options.players < 8 or options.players % 4 or options.repeat < 1:
        raise BenchError("--players must be a multiple of 4 (8 or more), --repeat 1 or more")
    rng = random.Random(options.seed)
    production = override_settings(
        DEBUG=False,
        ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"],
        SECURE_SSL_REDIRECT=False,
    )
    with production, quiet_logs():
        started = time.perf_counter()
        world = World.build(options.players, options.sessions, rng)
        if connection.vendor == "postgresql":
            # The planner's statistics of the tables just filled, as autovacuum keeps them on
            # a site that has been running: planned on the empty tables' statistics, a
            # sheet's read of 400 hands scanned all 80,000 (45 ms instead of 0.7).
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        say(
            f"built: a {PAGE_ROUNDS}-round game, {options.players} players × "
            f"{options.sessions} sessions ({world.rounds} rounds) in "
            f"{time.perf_counter() - started:.1f} s on {connection.vendor}; "
            f"{options.repeat} rounds of measurements, cache {cache_name()}"
        )
        try:
            probes = world.probes()
            count_queries(probes)
            measure(probes, options.repeat, rng)
            missed = report(probes)
        finally:
            if not options.keep:
                world.delete()
    if missed and not options.no_fail:
        say(f"goals missed: {', '.join(missed)}")
        return 1
    return 0


def cache_name() -> str:
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    return {"RedisCache": "Redis", "LocMemCache": "local memory"}.get(backend, backend)


@contextlib.contextmanager
def quiet_logs() -> Iterator[None]:
    """Every log line is still made (a write logs as in production), then dropped."""
    root = logging.getLogger()
    handlers = root.handlers[:]
    root.handlers = [logging.NullHandler()]
    try:
        yield
    finally:
        root.handlers = handlers


# --- the data -------------------------------------------------------------------------


@dataclass
class World:
    running: Tournament
    championship: Tournament
    referee: Any
    submit: Table
    floor: Table
    page: Table
    rounds: int
    players: list[int]

    @classmethod
    def build(cls, players: int, sessions: int, rng: random.Random) -> World:
        # Names of their own (a kept or interrupted run leaves its data beside this one's).
        suffix = secrets.token_hex(4)
        referee = get_user_model().objects.create_user(f"{REFEREE}-{suffix}", password=None)
        made: list[Player] = []
        running = championship = None
        try:
            with transaction.atomic():
                running = Tournament.objects.create(
                    name="Benchmark: the hot path",
                    slug=f"bench-hotpath-{suffix}",
                    starts_on=datetime.date(2026, 11, 21),
                    status=Tournament.Status.RUNNING,
                )
                session = Session.objects.create(
                    tournament=running, number=1, status=Session.Status.RUNNING
                )
                made = Player.objects.bulk_create(
                    Player(name=f"Hot path {number:02d}") for number in range(1, 13)
                )
                tables = Table.objects.create_with_games(
                    Table(session=session, number=number, referee=referee) for number in (1, 2, 3)
                )
                Seat.objects.bulk_create(
                    Seat(table=table, position=position, player=made[4 * index + position - 1])
                    for index, table in enumerate(tables)
                    for position in range(1, 5)
                )
            play(tables[2].game, referee, rng)
            submit, floor, page = (
                Table.objects.select_related("session__tournament", "game").get(pk=table.pk)
                for table in tables
            )
            championship, rounds = standings_bench.build(players, sessions, rng)
        except BaseException:
            cls.remove(running, [player.pk for player in made], referee, championship)
            raise
        return cls(
            running,
            championship,
            referee,
            submit,
            floor,
            page,
            rounds,
            [player.pk for player in made],
        )

    @staticmethod
    def remove(
        running: Tournament | None,
        players: list[int],
        referee: Any,
        championship: Tournament | None,
    ) -> None:
        with transaction.atomic():
            if running is not None:
                Round.objects.filter(game__table__session__tournament=running).delete()
                running.delete()
            Player.objects.filter(pk__in=players).delete()
            referee.delete()
        if championship is not None:
            standings_bench.delete(championship)

    def delete(self) -> None:
        self.remove(self.running, self.players, self.referee, self.championship)

    # --- the probes ---------------------------------------------------------------------

    def probes(self) -> list[Probe]:
        follower = Client()
        referee = Client(enforce_csrf_checks=True)
        referee.force_login(self.referee)
        # The referee's page: the session is cached and the CSRF cookie set, as on a phone.
        referee.get(reverse("tables:detail", args=[self.submit.pk]))
        token = referee.cookies["csrftoken"].value
        submission = Submission(self.submit.game, referee, token)
        floor_write = FloorWrite(self.floor.game, self.referee)

        page_url = reverse("tables:detail", args=[self.page.pk])
        version = self.page.game.version
        sheet_poll = {"part": "sheet", "since": str(version)}
        sheet_behind = {"part": "sheet", "since": str(version - 1)}
        standings_url = reverse("public:standings", args=[self.championship.slug])
        standings_version = self.championship.live_version(finished_games_only=True)
        health = reverse("health")
        # The phones a version behind: the first one has the fragment rendered and cached.
        follower.get(page_url, sheet_behind, headers=HTMX)
        follower.get(standings_url, {"since": "0"}, headers=HTMX)

        def status(expected: int) -> Callable[[Any], str | None]:
            def check(response: Any) -> str | None:
                code = response.status_code
                return None if code == expected else f"HTTP {code}, not {expected}"

            return check

        championship = self.championship
        return [
            Probe(
                "round submission (tables:sync)",
                submission,
                lambda answer: None if answer == "stored" else f"answered {answer!r}",
            ),
            Probe("ORM write of the round", floor_write),
            Probe("table page, 100 rounds, follower", lambda: follower.get(page_url), status(200)),
            Probe("table page, 100 rounds, referee", lambda: referee.get(page_url), status(200)),
            Probe("raw SQL of the page's rows", lambda: page_rows(self.page)),
            Probe(
                "table poll, unchanged (204)",
                lambda: follower.get(page_url, sheet_poll, headers=HTMX),
                status(204),
            ),
            Probe(
                "standings poll, unchanged (204)",
                lambda: follower.get(standings_url, {"since": standings_version}, headers=HTMX),
                status(204),
            ),
            Probe("GET /health/", lambda: follower.get(health), status(200)),
            Probe("standings", lambda: championship.standings()),
            Probe("raw SQL of the finished seats", lambda: finished_seat_rows(championship)),
            Probe("standings page", lambda: follower.get(standings_url), status(200)),
            Probe(
                "table poll, changed (cached)",
                lambda: follower.get(page_url, sheet_behind, headers=HTMX),
                status(200),
            ),
            Probe(
                "standings poll, changed (cached)",
                lambda: follower.get(standings_url, {"since": "0"}, headers=HTMX),
                status(200),
            ),
        ]


def play(game: Game, referee: Any, rng: random.Random, rounds: int = PAGE_ROUNDS) -> None:
    """`rounds` rounds as a referee records them: dealt, never ending the game."""
    game = Game.objects.select_related("table__session__tournament").get(pk=game.pk)
    ruleset = game.ruleset
    players = game.rows().players
    totals = dict.fromkeys(players, 0)
    for number in range(1, rounds + 1):
        # Of a few dealt rounds, the one leaving the highest total lowest: a long game.
        dealt = []
        for _ in range(30):
            entries = dealer.deal_round(players, ruleset, rng, hand_scale=0.4, along_rate=0.1)
            scored = rules.score_round(players, totals, entries, number, ruleset)
            if not scored.ends_game:
                dealt.append((max(scored.totals.values()), entries, scored))
        if not dealt:
            raise BenchError("no round that keeps the game going")
        _, entries, scored = min(dealt, key=lambda candidate: candidate[0])
        totals = dict(scored.totals)
        game.record_round(entries, by=referee, number=number)


class Submission:
    """A referee's next round posted to tables:sync as the table page's script posts it.

    Caller 0, the others 1 point each: the totals climb to 50 and are reduced to 0 (Belgian
    rules), so the game never ends however many rounds are measured.
    """

    def __init__(self, game: Game, client: Client, token: str) -> None:
        self.url = reverse("tables:sync", args=[game.table_id])
        self.client, self.token = client, token
        self.number = game.round_count

    def __call__(self) -> str:
        self.number += 1
        # Form-encoded, as the page's script sends it (URLSearchParams), not multipart.
        body = urlencode(
            {
                "action": "record",
                "client_id": str(uuid.uuid4()),
                "number": str(self.number),
                "hand_1": "0",
                "hand_2": "1",
                "hand_3": "1",
                "hand_4": "1",
                "ending": "yaniv:1",
            }
        )
        response = self.client.post(
            self.url,
            body,
            content_type="application/x-www-form-urlencoded",
            headers={"X-CSRFToken": self.token, "Accept": "application/json"},
        )
        return str(response.json().get("status"))


class FloorWrite:
    """The floor of a submission: the same rows written with the bare ORM, one transaction."""

    def __init__(self, game: Game, user: Any) -> None:
        self.game_id, self.user = game.pk, user
        self.seats = list(Seat.objects.filter(table__game=game).order_by("position"))
        self.number = game.round_count

    def __call__(self) -> None:
        self.number += 1
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.game_id)
            stored = Round.objects.create(
                game=game,
                number=self.number,
                kind=rules.RoundKind.YANIV.value,
                caller=self.seats[0],
                entered_by=self.user,
            )
            Hand.objects.bulk_create(
                Hand(round=stored, seat=seat, hand_total=hand, points=hand, total=hand)
                for seat, hand in zip(self.seats, (0, 1, 1, 1), strict=True)
            )
            Game.objects.filter(pk=self.game_id).update(
                version=F("version") + 1, round_count=self.number
            )


def _table(model: Any) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def page_rows(table: Table) -> int:
    """The rows the table page shows, fetched with raw SQL (the floor of the page)."""
    tables, sessions, tournaments, games = (_table(m) for m in (Table, Session, Tournament, Game))
    seats, players, rounds, hands = (_table(m) for m in (Seat, Player, Round, Hand))
    users, changes, disputes = _table(get_user_model()), _table(GameChange), _table(Dispute)
    # The rounds with their hands, in one statement, as the page reads them (each hand's row
    # with the columns of its round that the page reads; the game by its id).
    rounds_with_hands = (
        "SELECT r.game_id, r.number, r.kind, r.caller_id, r.empty_hand_id, u.username, "
        "r.entered_at, h.seat_id, h.hand_total, h.along, h.points, h.reduction, h.total "
        f"FROM {hands} h JOIN {rounds} r ON r.id = h.round_id "
        f"LEFT JOIN {users} u ON u.id = r.entered_by_id "
        "WHERE r.game_id = %s ORDER BY r.game_id, r.number, h.id"
    )
    statements = [
        f"SELECT t.*, s.*, tn.*, g.*, u.username FROM {tables} t "
        f"JOIN {sessions} s ON s.id = t.session_id "
        f"JOIN {tournaments} tn ON tn.id = s.tournament_id "
        f"JOIN {games} g ON g.table_id = t.id LEFT JOIN {users} u ON u.id = t.referee_id "
        "WHERE t.id = %s",
        f"SELECT st.*, p.* FROM {seats} st JOIN {players} p ON p.id = st.player_id "
        "WHERE st.table_id = %s ORDER BY st.position",
        rounds_with_hands,
        f"SELECT c.*, u.username FROM {changes} c JOIN {games} g ON g.id = c.game_id "
        f"LEFT JOIN {users} u ON u.id = c.user_id WHERE g.table_id = %s "
        "ORDER BY c.at DESC, c.id DESC LIMIT 50",
        f"SELECT d.* FROM {disputes} d JOIN {games} g ON g.id = d.game_id "
        "WHERE g.table_id = %s ORDER BY d.id DESC LIMIT 20",
    ]
    fetched = 0
    with connection.cursor() as cursor:
        for statement in statements:
            # Each statement by the table's id, the rounds' by the game's (as the page's).
            key = table.game.pk if statement is rounds_with_hands else table.pk
            cursor.execute(statement, [key])
            fetched += len(cursor.fetchall())
    return fetched


def finished_seat_rows(tournament: Tournament) -> list[tuple]:
    """The finished seats the standings read, fetched with raw SQL (their floor)."""
    seats, tables, sessions, games = (_table(m) for m in (Seat, Table, Session, Game))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT st.player_id, st.table_id, s.number, st.total, st.rank, g.signed_off_at "
            f"FROM {seats} st JOIN {tables} t ON t.id = st.table_id "
            f"JOIN {sessions} s ON s.id = t.session_id JOIN {games} g ON g.table_id = t.id "
            "WHERE s.tournament_id = %s AND g.finished",
            [tournament.pk],
        )
        return cursor.fetchall()


# --- measuring ------------------------------------------------------------------------


def count_queries(probes: Sequence[Probe]) -> None:
    """One run of each probe with its queries counted (not timed); each must answer right."""
    reset_queries()
    for probe in probes:
        with CaptureQueriesContext(connection) as captured:
            answer = probe.run()
        probe.queries = len(captured)
        problem = probe.check(answer)
        if problem:
            raise BenchError(f"{probe.name}: {problem}")


def measure(probes: Sequence[Probe], repeat: int, rng: random.Random) -> None:
    """Every probe once a round, `repeat` rounds, in an order shuffled each round.

    Shuffled, not rotated: a small request right after a big one finds the processor's
    caches full of the big one's work, and in a rotation each probe always follows the same
    one, so a probe and its floor would be measured after different neighbours."""
    order = list(probes)
    for _ in range(repeat):
        rng.shuffle(order)
        for probe in order:
            started = time.perf_counter()
            answer = probe.run()
            probe.seconds.append(time.perf_counter() - started)
            problem = probe.check(answer)
            if problem:
                raise BenchError(f"{probe.name}: {problem}")


def report(probes: Sequence[Probe]) -> list[str]:
    """Print the table; the figures that missed their goal (or their queries)."""
    by_name = {probe.name: probe for probe in probes}
    say("")
    say(
        f"{'figure':34} {'ms':>8} {'queries':>7}  {'floor':31} {'ms':>7} {'queries':>7} "
        f"{'ratio':>7} {'goal':>6}  ok?"
    )
    missed = []
    for figure in FIGURES:
        probe, floor = by_name[figure.probe], by_name[figure.floor]
        ratio = probe.median_ms / floor.median_ms
        ok = figure.goal is None or ratio <= figure.goal
        queries_ok = figure.max_queries is None or probe.queries <= figure.max_queries
        if figure.goal is None:
            verdict, goal = "info", "-"
        else:
            verdict = "ok" if ok and queries_ok else "MISSED"
            goal = f"≤{figure.goal:g}×"
            if figure.max_queries is not None:
                goal += f" ≤{figure.max_queries}q"
        if verdict == "MISSED":
            missed.append(figure.probe)
        say(
            f"{figure.probe:34} {probe.median_ms:>8.2f} {probe.queries:>7}  {figure.floor:31} "
            f"{floor.median_ms:>7.2f} {floor.queries:>7} {ratio:>6.1f}× {goal:>6}  {verdict}"
        )
    return missed
