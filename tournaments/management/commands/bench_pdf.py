"""Benchmark: the blank score sheets of a big session (a benchmark, not a test).

Builds a tournament with one session of 40 tables of 8 players (the widest
sheet) in the configured database, then times `blank_score_sheets` and reports
seconds, size and pages. The tournament is deleted afterwards unless --keep is
given.
"""

from __future__ import annotations

import datetime
import random
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction

from scoring.models import Game
from tournaments import pdf
from tournaments.models import Player, Seat, Session, Table, Tournament

# Names that need the embedded font: accents, ligatures, other alphabets' letters.
FIRST = ("Hélène", "Jürgen", "Çelik", "Zoë", "Søren", "Łukasz", "Émile", "Ana", "Björn", "Iñaki")
LAST = ("Peeters", "Janssens", "Maes", "Van den Broeck", "Dubois", "Lefèvre", "Öztürk", "Nowak")


class Command(BaseCommand):
    help = "Build a 40-table session and time its blank score sheets PDF."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=40)
        parser.add_argument("--players", type=int, default=8, help="players per table (2-8)")
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--keep", action="store_true", help="keep the tournament")

    def handle(self, *args, tables: int, players: int, seed: int, keep: bool, **options):
        rng = random.Random(seed)
        session = self.build(tables, players, rng)
        try:
            pdf.register_fonts()  # once per process, not part of a request's cost
            started = time.perf_counter()
            content = pdf.blank_score_sheets(session)
            elapsed = time.perf_counter() - started
            self.stdout.write(
                f"blank score sheets: {tables} tables of {players} in {elapsed:.2f} s, "
                f"{len(content) // 1024} KiB, {pdf.page_count(content)} pages "
                f"({connection.vendor})"
            )
        finally:
            if not keep:
                self.delete(session.tournament)

    def build(self, table_count: int, per_table: int, rng: random.Random) -> Session:
        with transaction.atomic():
            tournament = Tournament.objects.create(
                name="Benchmark championship ♠♥♦♣",
                slug=f"bench-pdf-{rng.randrange(10**9)}",
                starts_on=datetime.date(2026, 11, 21),
                venue="Sportcentrum Gent",
                table_size=per_table,
            )
            session = Session.objects.create(tournament=tournament, number=1)
            referee, _ = get_user_model().objects.get_or_create(username="bench-referee")
            players = Player.objects.bulk_create(
                Player(name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {number}")
                for number in range(1, table_count * per_table + 1)
            )
            tables = Table.objects.bulk_create(
                Table(session=session, number=number, referee=referee)
                for number in range(1, table_count + 1)
            )
            Game.objects.bulk_create(Game(table=table) for table in tables)
            Seat.objects.bulk_create(
                Seat(table=table, position=position, player=player)
                for index, table in enumerate(tables)
                for position, player in enumerate(
                    players[index * per_table : (index + 1) * per_table], start=1
                )
            )
        return session

    def delete(self, tournament: Tournament) -> None:
        with transaction.atomic():
            players = list(
                Player.objects.filter(seats__table__session__tournament=tournament)
                .distinct()
                .values_list("pk", flat=True)
            )
            tournament.delete()
            Player.objects.filter(pk__in=players).delete()
            get_user_model().objects.filter(
                username="bench-referee", refereed_tables__isnull=True
            ).delete()
