"""Benchmark: a player's Yaniv statistics over a 10,000-game history (issue 38.5) against their
floor.

Builds, in a throwaway database as `bench ratings` does (`yaniv_bench_statistics` on
PostgreSQL), one player's history of `--games` games of 4 (the player and three of 200
opponents), one game a session in tournaments of 8 sessions (one tournament in five private:
its games must not count), counted in five public seasons. Every game is dealt by
`bench.deal_game` until it ends (about 20 rounds) and scored by the engine; its rounds, hands,
seats and game are written in bulk with the engine's numbers, as `Game.store_rounds` leaves
them (through that write, one game at a time, 10,000 games take half an hour to build). Then
it times, `--repeat` times, interleaved, and prints the medians:

- **the player's statistics** (`seasons.statistics.player_statistics`: the hands read as
  tuples, folded by `scoring.statistics`, their tournaments, the seasons counting them)
  against their floor, **the same hands fetched with one raw SQL query** (the columns the fold
  reads, the same joins, filter and order). Goal ≤ 3×;
- **the statistics page** (`GET /players/<id>/statistics/` through Django's test client: the
  middleware, the access check, the statistics, the charts, the template) against the same
  floor, for information;
- **the fold alone** (`scoring.statistics.gather` over the hands already fetched) against the
  same floor, for information: what the pure Python costs beside reading the rows.

Queries are counted in one extra run of each figure; the statistics must stay within three
queries and the page within six (it polls: issue 33), whatever the history, or the benchmark
fails. DEBUG is off while it measures. `--in-place` builds in the configured database
instead, inside a transaction rolled back at the end (the tests use it).

    .venv/bin/python -m bench statistics [--games 10000] [--repeat 5] [--no-fail]
"""

from __future__ import annotations

import argparse
import datetime
import random
import time
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bench import BenchError, deal_game, say
from bench.hotpath import _table, quiet_logs
from bench.ratings import Figure, Probe, database, measure, report
from bench.seasons import checked, count_queries, production, query_lines
from scoring import rules
from scoring import statistics as folding
from seasons import statistics
from seasons.models import Season, SeasonTournament
from tournaments.models import (
    Game,
    Hand,
    Player,
    Round,
    Seat,
    Session,
    Table,
    Tournament,
)
from tournaments.statistics import HAND_LINE, hand_lines

SESSIONS = 8
OPPONENTS = 200
SEASONS = 5
GOAL = 3.0
# The throwaway database's name on PostgreSQL (SQLite's is in memory).
THROWAWAY = "yaniv_bench_statistics"
START = datetime.date(2006, 1, 7)
# The page: the statistics, the access check, and the poll's version (issue 33: it polls).
MAX_QUERIES = {"player statistics": 3, "statistics page": 6}
FIGURES = (
    Figure("player statistics", "raw SQL of the player's hands", GOAL),
    Figure("statistics page", "raw SQL of the player's hands", None),
    Figure("scoring.statistics.gather", "raw SQL of the player's hands", None),
)


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Time a player's Yaniv statistics over a 10,000-game history against "
        "the same hands fetched with raw SQL, in a throwaway database.",
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--in-place", action="store_true", help="the configured database")
    parser.add_argument("--no-fail", action="store_true", help="report only, exit 0")
    options = parser.parse_args(argv)
    if options.games < 1 or options.repeat < 1:
        raise BenchError("--games and --repeat 1 or more")
    rng = random.Random(options.seed)
    with database(options.in_place, THROWAWAY) as where, production(), quiet_logs():
        started = time.perf_counter()
        player, rounds = build(options.games, rng)
        figures = statistics.player_statistics(player)
        say(
            f"built: {options.games:,} games of 4 ({rounds:,} rounds) in "
            f"{Tournament.objects.count():,} tournaments; {figures.overall.games:,} games in "
            f"public ones ({figures.overall.rounds:,} rounds of the player counted), in "
            f"{time.perf_counter() - started:.1f} s on {connection.vendor} ({where}); "
            f"{options.repeat} rounds of measurements"
        )
        if len(player_hand_rows(player)) != figures.overall.rounds:
            raise BenchError("the floor does not fetch the hands the statistics count")
        probes = make_probes(player)
        count_queries(probes)
        measure(probes, options.repeat)
        missed = report(probes, FIGURES)
        missed += query_lines(
            probes, MAX_QUERIES, f"{options.games:,} games", "whatever the history"
        )
    if missed and not options.no_fail:
        say(f"goals missed: {', '.join(missed)}")
        return 1
    return 0


def build(game_count: int, rng: random.Random) -> tuple[Player, int]:
    """The player's history; how many rounds were stored."""
    player = Player.objects.create(name="Statistics Subject")
    opponents = Player.objects.bulk_create(
        Player(name=f"Opponent {number:03d}") for number in range(1, OPPONENTS + 1)
    )
    tournament_count = -(-game_count // SESSIONS)
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            name=f"Statistics benchmark {number}",
            slug=f"bench-statistics-{number}",
            starts_on=START + datetime.timedelta(days=7 * number),
            status=Tournament.Status.FINISHED,
            is_public=number % 5 != 4,
        )
        for number in range(tournament_count)
    )
    seasons = Season.objects.bulk_create(
        Season(name=f"Season {number}", slug=f"bench-season-{number}", is_public=True)
        for number in range(SEASONS)
    )
    SeasonTournament.objects.bulk_create(
        SeasonTournament(season=seasons[index % SEASONS], tournament=tournament)
        for index, tournament in enumerate(tournaments)
    )
    sessions = Session.objects.bulk_create(
        Session(tournament=tournament, number=number, status=Session.Status.FINISHED)
        for tournament in tournaments
        for number in range(1, SESSIONS + 1)
    )[:game_count]
    tables = Table.objects.create_with_games(Table(session=s, number=1) for s in sessions)
    seats = Seat.objects.bulk_create(
        (
            Seat(table=table, position=position, player=seated)
            for table in tables
            for position, seated in enumerate(_table_of(player, opponents, rng), start=1)
        ),
        batch_size=5000,
    )
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    games = Game.objects.filter(table__in=tables).order_by("pk")
    rounds = 0
    for start in range(0, len(tables), 500):
        chunk = list(games[start : start + 500])
        rounds += _play(chunk, by_table, rng)
    return player, rounds


def _table_of(player: Player, opponents: list[Player], rng: random.Random) -> list[Player]:
    seated = [player, *rng.sample(opponents, 3)]
    rng.shuffle(seated)
    return seated


def _play(games: list[Game], seats: dict[int, list[Seat]], rng: random.Random) -> int:
    """Each game dealt until it ends, scored by the engine and written with its numbers."""
    ruleset = rules.BELGIAN
    stored: list[tuple[Round, dict[str, Seat], rules.Round, rules.RoundResult]] = []
    for game in games:
        at_table = {seat.player.name: seat for seat in seats[game.table_id]}
        labels = tuple(at_table)
        entries = deal_game(labels, ruleset, rng)
        result = rules.score_game(rules.Game(labels, tuple(entries), ruleset))
        for number, (entered, scored) in enumerate(zip(entries, result.rounds, strict=True), 1):
            caller = at_table[entered.yaniv] if entered.yaniv else None
            emptier = at_table[entered.empty_hand] if entered.empty_hand else None
            made = Round(game=game, number=number, kind=scored.kind.value, caller=caller)
            made.empty_hand = emptier
            stored.append((made, at_table, entered, scored))
        ranks = {placing.player: placing.rank for placing in result.ranking}
        for label, seat in at_table.items():
            seat.total, seat.rank = result.totals[label], ranks[label]
        game.finished, game.finished_at, game.round_count = True, timezone.now(), len(entries)
    Round.objects.bulk_create([made for made, _, _, _ in stored], batch_size=5000)
    Hand.objects.bulk_create(
        (
            Hand(
                round=made,
                seat=at_table[label],
                hand_total=hand,
                along=label in entered.along,
                points=scored.points[label],
                reduction=scored.reductions.get(label, 0),
                total=scored.totals[label],
            )
            for made, at_table, entered, scored in stored
            for label, hand in entered.hands.items()
        ),
        batch_size=5000,
    )
    Seat.objects.bulk_update(
        [seat for game in games for seat in seats[game.table_id]], ["total", "rank"]
    )
    Game.objects.bulk_update(games, ["finished", "finished_at", "round_count"])
    return len(stored)


def player_hand_rows(player: Player) -> list[tuple[Any, ...]]:
    """The hands the statistics fold, with one raw SQL query (their floor): the player's in
    the listed tournaments, the columns of `HAND_LINE`, game by game and round by round."""
    hands, rounds, seats = _table(Hand), _table(Round), _table(Seat)
    tables, sessions, tournaments = _table(Table), _table(Session), _table(Tournament)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.tournament_id, r.game_id, r.number, r.kind, r.caller_id, "
            "r.empty_hand_id, h.seat_id, st.player_id, h.hand_total, h.along, h.points, "
            f"h.reduction, h.total FROM {hands} h "
            f"JOIN {rounds} r ON r.id = h.round_id JOIN {seats} st ON st.id = h.seat_id "
            f"JOIN {tables} t ON t.id = st.table_id JOIN {sessions} s ON s.id = t.session_id "
            f"WHERE st.player_id = %s AND s.tournament_id IN (SELECT tn.id FROM {tournaments} "
            "tn WHERE tn.is_public AND NOT tn.status = %s) ORDER BY r.game_id, r.number",
            [player.pk, Tournament.Status.DRAFT],
        )
        return cursor.fetchall()


def make_probes(player: Player) -> list[Probe]:
    follower = Client()
    url = reverse("public:profile_statistics", args=[player.pk])
    lines = hand_lines(statistics.player_hands(player))
    if len(HAND_LINE) != len(lines[0]):
        raise BenchError("a hand line is not the statistics' shape")
    return [
        Probe("player statistics", lambda: statistics.player_statistics(player)),
        Probe("raw SQL of the player's hands", lambda: player_hand_rows(player)),
        Probe("statistics page", checked(lambda: follower.get(url), 200)),
        Probe("scoring.statistics.gather", lambda: folding.gather(lines)),
    ]
