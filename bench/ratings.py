"""Benchmark: recomputing the ratings of 10,000 games (issue 16.3) against its floor.

Builds, in a throwaway database (Django's test database, made and dropped here: in memory on
SQLite, `yaniv_bench_ratings` on PostgreSQL, its tables made from the models), `--games`
finished games of 4 among `--players` players: tournaments of 8 sessions where everyone plays
once a session (one tournament in five private), each table ranked at random with a shared rank
now and then. Only the rows the rating reads are made (tables, finished games with their
moment, seats with their rank): no rounds. Then it times, `--repeat` times, interleaved, and
prints the medians:

- **recompute_ratings** (`seasons.ratings.recompute`: read every finished game, rate,
  delete the old rows, bulk-insert the new ones, in one transaction) against its floor, **the
  openskill calls alone** on the same games (loaded beforehand, one `PlackettLuce.rate` a
  game, the ratings carried in a dict). Goal ≤ 4×.
- for information, the pure layer (`scoring.rating.rate_games`) against the same floor;
- **a game finishing** (the on-commit update rating it on its own) and **a correction in the
  middle** (a game halfway through the order has two ranks swapped: every game from it on is
  rated again), against the openskill calls they make. After the correction the rows must
  equal a full recompute's, or the benchmark fails.

Queries are counted in one extra run of each figure. `--in-place` builds in the configured
database instead, inside a transaction rolled back at the end (the tests use it).

    .venv/bin/python -m bench ratings [--games 10000] [--players 500] [--repeat 5] [--no-fail]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from bench import BenchError, say
from scoring.rating import DEFAULT_MODEL, FinishedGame, rate_games
from seasons import ratings
from seasons.models import PlayerRating, RatingChange
from tournaments.models import Game, Player, Seat, Session, Table, Tournament

TABLE_SIZE = 4
SESSIONS = 8
START = datetime.datetime(2026, 1, 3, 14, 0, tzinfo=datetime.UTC)
GOAL = 4.0


class Rollback(Exception):
    """Raised to roll the in-place run back."""


@dataclass
class Probe:
    name: str
    run: Callable[[], Any]
    seconds: list[float] = field(default_factory=list)
    queries: int = 0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.seconds) * 1000


@dataclass(frozen=True)
class Figure:
    probe: str
    floor: str
    goal: float | None


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Time recompute_ratings over 10,000 games against the openskill calls "
        "alone, and the incremental updates, in a throwaway database.",
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--in-place", action="store_true", help="the configured database")
    parser.add_argument("--no-fail", action="store_true", help="report only, exit 0")
    options = parser.parse_args(argv)
    if options.players < 2 * TABLE_SIZE or options.games < 2 or options.repeat < 1:
        raise BenchError("--players 8 or more, --games 2 or more, --repeat 1 or more")
    rng = random.Random(options.seed)
    with database(options.in_place) as where:
        started = time.perf_counter()
        tournaments = build(options.games, options.players, rng)
        say(
            f"built: {options.games:,} games of {TABLE_SIZE} among {options.players:,} players "
            f"({tournaments} tournaments) in {time.perf_counter() - started:.1f} s "
            f"on {connection.vendor} ({where}); {options.repeat} rounds of measurements"
        )
        probes = make_probes()
        count_queries(probes)
        measure(probes, options.repeat)
        missed = report(probes, FIGURES)
    if missed and not options.no_fail:
        say(f"goals missed: {', '.join(missed)}")
        return 1
    return 0


@contextlib.contextmanager
def database(in_place: bool, name: str = "yaniv_bench_ratings") -> Iterator[str]:
    """A throwaway database made and dropped around the run (`name` on PostgreSQL), or the
    configured one in a transaction that is rolled back."""
    if in_place:
        try:
            with transaction.atomic():
                yield "in place, rolled back"
                raise Rollback
        except Rollback:
            return
    settings = connection.settings_dict
    test = settings.setdefault("TEST", {})
    # Tables made from the models as they are (faster than replaying every migration).
    test["MIGRATE"] = False
    if settings["ENGINE"] != "django.db.backends.sqlite3":
        test["NAME"] = name
    old_name = settings["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield "a throwaway database"
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def build(game_count: int, player_count: int, rng: random.Random) -> int:
    """The games, as few rows as the rating reads; how many tournaments."""
    players = Player.objects.bulk_create(
        Player(name=f"Rated {number:04d}") for number in range(1, player_count + 1)
    )
    per_session = player_count // TABLE_SIZE
    sessions_needed = -(-game_count // per_session)
    tournament_count = -(-sessions_needed // SESSIONS)
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            name=f"Rating benchmark {number}",
            slug=f"bench-ratings-{number}",
            starts_on=(START + datetime.timedelta(days=7 * number)).date(),
            status=Tournament.Status.FINISHED,
            is_public=number % 5 != 4,
        )
        for number in range(tournament_count)
    )
    sessions = Session.objects.bulk_create(
        Session(tournament=tournament, number=number, status=Session.Status.FINISHED)
        for tournament in tournaments
        for number in range(1, SESSIONS + 1)
    )[:sessions_needed]
    groups: list[tuple[Session, int, list[Player]]] = []
    for session in sessions:
        order = players[:]
        rng.shuffle(order)
        for number in range(1, per_session + 1):
            if len(groups) == game_count:
                break
            seated = order[(number - 1) * TABLE_SIZE : number * TABLE_SIZE]
            groups.append((session, number, seated))
    tables = Table.objects.bulk_create(
        Table(session=session, number=number) for session, number, _ in groups
    )
    # Games made finished at once (no rounds: the rating reads ranks and moments only).
    moment = START
    games = []
    for table in tables:
        moment += datetime.timedelta(seconds=rng.randrange(1, 120))
        games.append(Game(table=table, finished=True, finished_at=moment, round_count=20))
    # Stored in another order than they finished in, as an import or a busy day stores them.
    rng.shuffle(games)
    Game.objects.bulk_create(games, batch_size=2000)
    Seat.objects.bulk_create(
        (
            Seat(table=table, position=position, player=player, rank=rank)
            for table, (_, _, seated) in zip(tables, groups, strict=True)
            for position, (player, rank) in enumerate(
                zip(seated, table_ranks(rng), strict=True), start=1
            )
        ),
        batch_size=5000,
    )
    return len(tournaments)


def table_ranks(rng: random.Random) -> list[int]:
    """A table's ranks: a random order, two players sharing a rank one time in ten."""
    totals = rng.sample(range(1, 200), TABLE_SIZE)
    if rng.random() < 0.1:
        totals[1] = totals[0]
    return [1 + sum(other < total for other in totals) for total in totals]


def openskill_alone(games: Sequence[FinishedGame]) -> dict[int, Any]:
    """The floor: the library's own calls on the games in order, nothing else."""
    library = PlackettLuce(mu=DEFAULT_MODEL.mu, sigma=DEFAULT_MODEL.sigma, beta=DEFAULT_MODEL.beta)
    current: dict[int, Any] = {}
    for game in games:
        players = [placing.player for placing in game.placings]
        teams = [[current.get(player) or library.rating()] for player in players]
        rated = library.rate(teams, ranks=[float(placing.rank) for placing in game.placings])
        for player, (rating,) in zip(players, rated, strict=True):
            current[player] = rating
    return current


def make_probes() -> list[Probe]:
    ratings.recompute()
    games = sorted(ratings.finished_games(), key=lambda game: game.order)
    middle = games[len(games) // 2]
    from_middle = games[len(games) // 2 :]
    template = Table.objects.select_related("session").get(game=games[0].game)
    new_players = [placing.player for placing in games[-1].placings]
    moments = [games[-1].finished_at]

    def finish_a_game() -> int:
        """A new game finishing after every other one: rated on its own."""
        moments.append(moments[-1] + datetime.timedelta(minutes=1))
        (table,) = Table.objects.bulk_create(
            [Table(session=template.session, number=1000 + len(moments))]
        )
        game = Game.objects.create(table=table, finished=True, finished_at=moments[-1])
        Seat.objects.bulk_create(
            Seat(table=table, position=position, player_id=player, rank=position)
            for position, player in enumerate(new_players, start=1)
        )
        return ratings.rate_changed_games([game.pk])

    def correct_the_middle() -> int:
        """Two ranks of a game halfway through swapped (a director's correction)."""
        seats = list(Seat.objects.filter(table__game=middle.game).order_by("position"))
        seats[0].rank, seats[-1].rank = seats[-1].rank, seats[0].rank
        Seat.objects.bulk_update(seats, ["rank"])
        return ratings.rate_changed_games([middle.game])

    one_game = games[-1:]
    return [
        Probe("recompute_ratings", ratings.recompute),
        Probe("openskill calls alone", lambda: openskill_alone(games)),
        Probe("scoring.rating.rate_games", lambda: rate_games(games)),
        Probe("a game finishing", finish_a_game),
        Probe("openskill, one game", lambda: openskill_alone(one_game)),
        Probe("a correction in the middle", correct_the_middle),
        Probe("openskill, the games from it on", lambda: openskill_alone(from_middle)),
    ]


FIGURES = (
    Figure("recompute_ratings", "openskill calls alone", GOAL),
    Figure("scoring.rating.rate_games", "openskill calls alone", None),
    Figure("a game finishing", "openskill, one game", None),
    Figure("a correction in the middle", "openskill, the games from it on", None),
)


def count_queries(probes: Sequence[Probe]) -> None:
    for probe in probes:
        with CaptureQueriesContext(connection) as captured:
            probe.run()
        probe.queries = len(captured)
    # The correction ran an odd number of times: the rows must be a full recompute's.
    check_equal_to_a_full_recompute()


def check_equal_to_a_full_recompute() -> None:
    fields = ("player", "game", "at", "rank", "games", "mu_before", "sigma_before", "mu", "sigma")
    incremental = sorted(RatingChange.objects.values_list(*fields))
    current = sorted(PlayerRating.objects.values_list("player", "mu", "sigma", "games"))
    ratings.recompute()
    if sorted(RatingChange.objects.values_list(*fields)) != incremental or current != sorted(
        PlayerRating.objects.values_list("player", "mu", "sigma", "games")
    ):
        raise BenchError("the incremental updates differ from a full recompute")


def measure(probes: Sequence[Probe], repeat: int) -> None:
    """Every probe once a round, `repeat` rounds, starting one further each round."""
    for index in range(repeat):
        start = index % len(probes)
        for probe in [*probes[start:], *probes[:start]]:
            started = time.perf_counter()
            probe.run()
            probe.seconds.append(time.perf_counter() - started)


def report(probes: Sequence[Probe], lines: Sequence[Figure]) -> list[str]:
    by_name = {probe.name: probe for probe in probes}
    say("")
    say(
        f"{'figure':28} {'ms':>9} {'queries':>7}  {'floor':32} {'ms':>9} {'ratio':>7} "
        f"{'goal':>5}  ok?"
    )
    missed = []
    for figure in lines:
        probe, floor = by_name[figure.probe], by_name[figure.floor]
        ratio = probe.median_ms / floor.median_ms
        if figure.goal is None:
            verdict, goal = "info", "-"
        else:
            verdict, goal = ("ok" if ratio <= figure.goal else "MISSED"), f"≤{figure.goal:g}×"
        if verdict == "MISSED":
            missed.append(figure.probe)
        say(
            f"{figure.probe:28} {probe.median_ms:>9.2f} {probe.queries:>7}  {figure.floor:32} "
            f"{floor.median_ms:>9.2f} {ratio:>6.1f}× {goal:>5}  {verdict}"
        )
    return missed
