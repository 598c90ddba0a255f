"""Benchmark: the blank score sheets of a big session (a benchmark, not a test).

Builds a tournament with one session of 40 tables of 8 players (the widest sheet) in the
configured database, then times `blank_score_sheets` and reports seconds, size and pages.
The tournament is deleted afterwards unless --keep is given.

    .venv/bin/python -m bench pdf [--tables 40] [--players 8] [--seed 2026] [--keep]
"""

from __future__ import annotations

import argparse
import datetime
import random
import time
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from bench import say
from printing import pdfs
from tournaments.fonts import register_fonts
from tournaments.models import Player, Seat, Session, Table, Tournament

# Names that need the embedded font: accents, ligatures, other alphabets' letters.
FIRST = ("Hélène", "Jürgen", "Çelik", "Zoë", "Søren", "Łukasz", "Émile", "Ana", "Björn", "Iñaki")
LAST = ("Peeters", "Janssens", "Maes", "Van den Broeck", "Dubois", "Lefèvre", "Öztürk", "Nowak")
REFEREE = "bench-referee"


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog, description="Build a 40-table session and time its blank score sheets PDF."
    )
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--players", type=int, default=8, help="players per table (2-8)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the tournament")
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    session = build(options.tables, options.players, rng)
    try:
        register_fonts()  # once per process, not part of a request's cost
        started = time.perf_counter()
        content = pdfs.blank_score_sheets(session)
        elapsed = time.perf_counter() - started
        say(
            f"blank score sheets: {options.tables} tables of {options.players} in "
            f"{elapsed:.2f} s, {len(content) // 1024} KiB, {pdfs.page_count(content)} pages "
            f"({connection.vendor})"
        )
    finally:
        if not options.keep:
            delete(session.tournament)
    return 0


def build(table_count: int, per_table: int, rng: random.Random) -> Session:
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name="Benchmark championship ♠♥♦♣",
            slug=f"bench-pdf-{rng.randrange(10**9)}",
            starts_on=datetime.date(2026, 11, 21),
            venue="Sportcentrum Gent",
            table_size=per_table,
        )
        session = Session.objects.create(tournament=tournament, number=1)
        referee, _ = get_user_model().objects.get_or_create(username=REFEREE)
        players = Player.objects.bulk_create(
            Player(name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {number}")
            for number in range(1, table_count * per_table + 1)
        )
        tables = Table.objects.create_with_games(
            Table(session=session, number=number, referee=referee)
            for number in range(1, table_count + 1)
        )
        Seat.objects.bulk_create(
            Seat(table=table, position=position, player=player)
            for index, table in enumerate(tables)
            for position, player in enumerate(
                players[index * per_table : (index + 1) * per_table], start=1
            )
        )
    return session


def delete(tournament: Tournament) -> None:
    with transaction.atomic():
        players = list(
            Player.objects.filter(seats__table__session__tournament=tournament)
            .distinct()
            .values_list("pk", flat=True)
        )
        tournament.delete()
        Player.objects.filter(pk__in=players).delete()
        get_user_model().objects.filter(username=REFEREE, refereed_tables__isnull=True).delete()
