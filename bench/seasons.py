"""Benchmark: the season standings at 500 players (issue 16) against their floor.

Builds, in a throwaway database as `bench ratings` does (and with its helpers: the same
tournaments of 8 sessions where everyone plays once a session, one tournament in five
private, finished games with their seats' ranks, no rounds), `--tournaments` tournaments of
`--players` players; the seats get final totals that agree with their ranks and the games are
signed off, so that the results are final. A public season counts them all ("best N of M",
one tournament with a coefficient of 1.5); being public, it leaves the private one out. Then
it times, `--repeat` times, interleaved, and prints the medians:

- **the season standings** (`Season.standings()`: the season's tournaments, every finished
  seat of those it counts, the players with their clubs; each tournament's standings, the
  season points, the order) and **the season page** (`GET /seasons/<slug>/` through Django's
  test client: the middleware, the access check, the version, the standings, the template)
  against their floor, **the same finished seats fetched with one raw SQL query** (those of
  the tournaments the season counts, with their tournament);
- **an unchanged poll of the season page** (htmx, `?since=<version>`, answered 204) against
  `GET /health/` (one query through the same middleware).

No issue sets a goal for these ratios (issue 16 asks for the query count): they are printed
for information. The queries are counted in one extra run of each figure; the standings must
stay within five queries and the page within seven, whatever the number of players and
tournaments, or the benchmark fails. DEBUG is off while it measures.
`--in-place` builds in the configured database instead, inside a transaction rolled back at
the end (the tests use it).

    .venv/bin/python -m bench seasons [--players 500] [--tournaments 6] [--repeat 20] [--no-fail]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from bench import BenchError, say
from bench.hotpath import _table, quiet_logs
from bench.ratings import SESSIONS, TABLE_SIZE, Figure, Probe, build, database, measure, report
from seasons.models import Season, SeasonTournament
from tournaments.models import Game, Seat, Session, Table, Tournament

HTMX = {"HX-Request": "true"}
SLUG = "bench-seasons"
# The queries each figure may cost, whatever the number of players and tournaments: the
# standings read the season's tournaments, then `final_places` their settings, their finished
# seats and their final tables, then the players; the page adds the season and its version.
MAX_QUERIES = {"season standings": 5, "season page": 7, "season poll, unchanged (204)": 2}
FIGURES = (
    Figure("season standings", "raw SQL of the season's seats", None),
    Figure("season page", "raw SQL of the season's seats", None),
    Figure("season poll, unchanged (204)", "GET /health/", None),
)


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Time the season standings and the season page of a season of 500 "
        "players against the same seats fetched with raw SQL, in a throwaway database.",
    )
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=6, help="one in five private")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--in-place", action="store_true", help="the configured database")
    parser.add_argument("--no-fail", action="store_true", help="report only, exit 0")
    options = parser.parse_args(argv)
    if options.players < TABLE_SIZE or options.tournaments < 1 or options.repeat < 1:
        raise BenchError(f"--players {TABLE_SIZE} or more, --tournaments and --repeat 1 or more")
    rng = random.Random(options.seed)
    with database(options.in_place) as where, production(), quiet_logs():
        started = time.perf_counter()
        season, seats = build_season(options.players, options.tournaments, rng)
        table = season.standings()
        if len(table.rows) != options.players:
            raise BenchError(f"the season ranks {len(table.rows)} players, not {options.players}")
        say(
            f"built: a season of {len(table.counted)} public tournaments "
            f"(+{len(table.entries) - len(table.counted)} private, left out), "
            f"{options.players:,} players in all, {seats:,} finished seats counted, "
            f"in {time.perf_counter() - started:.1f} s on {connection.vendor} ({where}); "
            f"{options.repeat} rounds of measurements"
        )
        if len(season_seat_rows(season)) != seats:
            raise BenchError("the floor does not fetch the seats the season counts")
        probes = make_probes(season)
        count_queries(probes)
        measure(probes, options.repeat)
        missed = report(probes, FIGURES)
        missed += report_queries(probes, options.players, len(table.counted))
    if missed and not options.no_fail:
        say(f"goals missed: {', '.join(missed)}")
        return 1
    return 0


def build_season(
    player_count: int, tournament_count: int, rng: random.Random
) -> tuple[Season, int]:
    """The tournaments (built as the ratings benchmark builds them) in a public season; how
    many finished seats it counts."""
    per_session = player_count // TABLE_SIZE
    build(tournament_count * SESSIONS * per_session, player_count, rng)
    tournaments = list(
        Tournament.objects.filter(slug__startswith="bench-ratings-").order_by("starts_on")
    )
    seats = Seat.objects.filter(table__session__tournament__in=tournaments)
    # Final totals that agree with the ranks (a shared rank, a shared total), games signed off.
    seats.update(total=30 * (F("rank") - 1) + F("table_id") % 20)
    Game.objects.filter(table__session__tournament__in=tournaments).update(
        signed_off_at=F("finished_at")
    )
    season = Season.objects.create(
        name="Benchmark season",
        slug=SLUG,
        is_public=True,
        best_of=max(1, len(tournaments) - 2),
    )
    SeasonTournament.objects.bulk_create(
        SeasonTournament(
            season=season,
            tournament=tournament,
            coefficient=Decimal("1.5") if number == 1 else Decimal("1"),
        )
        for number, tournament in enumerate(tournaments)
    )
    return season, seats.filter(table__session__tournament__is_public=True).count()


def season_seat_rows(season: Season) -> list[tuple]:
    """The finished seats the season standings read, with one raw SQL query (their floor):
    those of the season's public tournaments (the season is public), each with whether its
    game still awaits its sign-off, as the standings read it (not the moment: 20,000
    timestamps made into datetimes would weigh the floor down)."""
    entries, tournaments, sessions = (_table(m) for m in (SeasonTournament, Tournament, Session))
    tables, games, seats = (_table(m) for m in (Table, Game, Seat))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.tournament_id, st.player_id, st.table_id, s.number, st.total, st.rank, "
            f"g.signed_off_at IS NULL FROM {entries} e "
            f"JOIN {tournaments} tn ON tn.id = e.tournament_id "
            f"JOIN {sessions} s ON s.tournament_id = tn.id "
            f"JOIN {tables} t ON t.session_id = s.id JOIN {games} g ON g.table_id = t.id "
            f"JOIN {seats} st ON st.table_id = t.id "
            "WHERE e.season_id = %s AND tn.is_public AND g.finished",
            [season.pk],
        )
        return cursor.fetchall()


def make_probes(season: Season) -> list[Probe]:
    follower = Client()
    url = reverse("public:season", args=[season.slug])
    since = {"since": season.live_version()}
    health = reverse("health")

    def page() -> Any:
        return follower.get(url)

    def poll() -> Any:
        return follower.get(url, since, headers=HTMX)

    return [
        Probe("season standings", season.standings),
        Probe("raw SQL of the season's seats", lambda: season_seat_rows(season)),
        Probe("season page", checked(page, 200)),
        Probe("season poll, unchanged (204)", checked(poll, 204)),
        Probe("GET /health/", checked(lambda: follower.get(health), 200)),
    ]


def checked(get: Any, expected: int) -> Any:
    """A page fetched, failing the benchmark unless it answers `expected`."""

    def run() -> Any:
        response = get()
        if response.status_code != expected:
            raise BenchError(f"{response.request['PATH_INFO']}: HTTP {response.status_code}")
        return response

    return run


def count_queries(probes: Sequence[Probe]) -> None:
    for probe in probes:
        with CaptureQueriesContext(connection) as captured:
            probe.run()
        probe.queries = len(captured)


def report_queries(probes: Sequence[Probe], players: int, tournaments: int) -> list[str]:
    """A line per figure with a bound on its queries; the figures beyond it."""
    at = f"{players:,} players, {tournaments} tournaments"
    return query_lines(probes, MAX_QUERIES, at, "whatever the size")


def query_lines(
    probes: Sequence[Probe], bounds: dict[str, int], at: str, whatever: str
) -> list[str]:
    """A line per figure of `bounds` with its queries against the bound; those beyond it."""
    by_name = {probe.name: probe for probe in probes}
    say("")
    missed = []
    for name, most in bounds.items():
        queries = by_name[name].queries
        verdict = "ok" if queries <= most else "MISSED"
        if verdict == "MISSED":
            missed.append(f"{name} (queries)")
        say(f"{name}: {queries} queries at {at} (goal ≤{most}, {whatever})  {verdict}")
    return missed


def production() -> override_settings:
    """The settings a benchmark measures under: DEBUG off, the test client's host allowed."""
    return override_settings(
        DEBUG=False,
        ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"],
        SECURE_SSL_REDIRECT=False,
    )
