"""Benchmark: standings of a championship-sized tournament (a benchmark, not a test).

Builds a 512-player, 8-session tournament (about 20,000 rounds, scored by the
engine and stored in bulk), then times the standings computation and the
standings page, counting queries. The tournament is deleted afterwards unless
--keep is given.
"""

from __future__ import annotations

import datetime
import random
import time

from django.contrib.auth.models import AnonymousUser
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django_htmx.middleware import HtmxDetails

from scoring import rules
from scoring.models import Game, Hand, Round
from tournaments.models import Player, Seat, Session, Table, Tournament
from tournaments.views import public


def play_game(players: tuple[str, ...], rng: random.Random) -> list[rules.Round]:
    """Random but plausible rounds until someone goes above 150."""
    rounds: list[rules.Round] = []
    totals = dict.fromkeys(players, 0)
    while True:
        hands = {
            player: min(rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 16)), 50) for player in players
        }
        caller = rng.choice(players)
        hands[caller] = rng.randint(0, 5) if rng.random() > 0.03 else rng.randint(6, 12)
        others = [player for player in players if player != caller]
        along = tuple(player for player in others if rng.random() < 0.08)
        entries = rules.Round(hands=hands, yaniv=caller, along=along)
        result = rules.score_round(players, totals, entries, len(rounds) + 1)
        rounds.append(entries)
        totals = dict(result.totals)
        if result.ends_game:
            return rounds


class Command(BaseCommand):
    help = "Build a 512-player, 8-session tournament and time its standings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=512)
        parser.add_argument("--sessions", type=int, default=8)
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--keep", action="store_true", help="keep the tournament")

    def handle(self, *args, players: int, sessions: int, seed: int, keep: bool, **options):
        rng = random.Random(seed)
        started = time.perf_counter()
        tournament, round_count = self.build(players, sessions, rng)
        self.stdout.write(
            f"built {players} players, {sessions} sessions, {round_count} rounds "
            f"in {time.perf_counter() - started:.1f} s ({connection.vendor})"
        )
        try:
            self.measure(tournament)
        finally:
            if not keep:
                self.delete(tournament)

    def build(self, player_count: int, session_count: int, rng: random.Random):
        slug = f"bench-{rng.randrange(10**9)}"
        with transaction.atomic():
            tournament = Tournament.objects.create(
                name="Benchmark championship",
                slug=slug,
                starts_on=datetime.date(2026, 11, 21),
                status=Tournament.Status.RUNNING,
                session_count=session_count,
            )
            players = Player.objects.bulk_create(
                Player(name=f"Player {number:03d}") for number in range(1, player_count + 1)
            )
            round_count = 0
            for number in range(1, session_count + 1):
                session = Session.objects.create(
                    tournament=tournament, number=number, status=Session.Status.FINISHED
                )
                order = players[:]
                rng.shuffle(order)
                groups = [order[i : i + 4] for i in range(0, len(order), 4)]
                tables = Table.objects.bulk_create(
                    Table(session=session, number=index) for index, _ in enumerate(groups, 1)
                )
                games = Game.objects.bulk_create(Game(table=table) for table in tables)
                seats = Seat.objects.bulk_create(
                    Seat(table=table, position=position, player=player)
                    for table, group in zip(tables, groups, strict=True)
                    for position, player in enumerate(group, start=1)
                )
                round_count += self.play(games, seats, rng)
        return tournament, round_count

    def play(self, games: list[Game], seats: list[Seat], rng: random.Random) -> int:
        seats_by_table: dict[int, list[Seat]] = {}
        for seat in seats:
            seats_by_table.setdefault(seat.table_id, []).append(seat)
        stored_rounds, hands_of_round, changed_seats = [], [], []
        for game in games:
            table_seats = seats_by_table[game.table_id]
            labels = tuple(str(seat.position) for seat in table_seats)
            entries = play_game(labels, rng)
            result = rules.score_game(rules.Game(labels, tuple(entries)))
            by_label = dict(zip(labels, table_seats, strict=True))
            for raw, scored in zip(entries, result.rounds, strict=True):
                stored_rounds.append(
                    Round(
                        game=game,
                        number=scored.number,
                        kind=scored.kind.value,
                        caller=by_label[raw.yaniv],
                    )
                )
                hands_of_round.append(
                    [
                        Hand(
                            seat=by_label[label],
                            hand_total=raw.hands[label],
                            along=label in raw.along,
                            points=scored.points[label],
                            reduction=scored.reductions.get(label, 0),
                            total=scored.totals[label],
                        )
                        for label in labels
                    ]
                )
            ranks = {placing.player: placing.rank for placing in result.ranking}
            for label, seat in by_label.items():
                seat.total, seat.rank = result.totals[label], ranks[label]
                changed_seats.append(seat)
            game.finished, game.version = True, len(entries)
        Round.objects.bulk_create(stored_rounds, batch_size=2000)
        Hand.objects.bulk_create(
            (
                Hand(
                    round=stored,
                    **{
                        f: getattr(hand, f)
                        for f in ("seat_id", "hand_total", "along", "points", "reduction", "total")
                    },
                )
                for stored, hands in zip(stored_rounds, hands_of_round, strict=True)
                for hand in hands
            ),
            batch_size=4000,
        )
        Seat.objects.bulk_update(changed_seats, ["total", "rank"], batch_size=2000)
        Game.objects.bulk_update(games, ["finished", "version"], batch_size=2000)
        return len(stored_rounds)

    def measure(self, tournament: Tournament) -> None:
        for label, session in (("overall", None), ("session 8", tournament.sessions.last())):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                rows = tournament.standings(session)
                elapsed = time.perf_counter() - started
            self.stdout.write(
                f"standings {label}: {len(rows)} players in {elapsed * 1000:.0f} ms, "
                f"{len(queries)} queries"
            )
        page, queries, elapsed = self.get_standings_page(tournament)
        self.stdout.write(
            f"standings page: {len(page.content) // 1024} KiB rendered in "
            f"{elapsed * 1000:.0f} ms, {queries} queries"
        )
        poll, queries, elapsed = self.get_standings_page(
            tournament,
            {"since": tournament.live_version(finished_games_only=True)},
            HTTP_HX_REQUEST="true",
        )
        self.stdout.write(
            f"unchanged poll: HTTP {poll.status_code} in {elapsed * 1000:.1f} ms, "
            f"{queries} queries"
        )

    def get_standings_page(self, tournament: Tournament, data=None, **headers):
        """The standings view as a phone asks for it: the response, its queries, its time."""
        request = RequestFactory().get(f"/t/{tournament.slug}/standings/", data, **headers)
        request.user = AnonymousUser()
        request.htmx = HtmxDetails(request)
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = public.standings_page(request, slug=tournament.slug)
            elapsed = time.perf_counter() - started
        return response, len(queries), elapsed

    def delete(self, tournament: Tournament) -> None:
        with transaction.atomic():
            Round.objects.filter(game__table__session__tournament=tournament).delete()
            players = list(
                Player.objects.filter(seats__table__session__tournament=tournament)
                .distinct()
                .values_list("pk", flat=True)
            )
            tournament.delete()
            Player.objects.filter(pk__in=players).delete()
