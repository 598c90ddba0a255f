"""Benchmark: standings of a championship-sized tournament (a benchmark, not a test).

Builds a 512-player, 8-session tournament in the configured database (tables of 4, each game
dealt by `bench.deal_game` until it ends, about 20,000 rounds, and stored through
`Game.store_rounds`, as an import stores a game), then times the standings computation and
the standings page, counting queries. The tournament is deleted afterwards unless --keep is
given.

    .venv/bin/python -m bench standings [--players 512] [--sessions 8] [--seed 2026] [--keep]
"""

from __future__ import annotations

import argparse
import datetime
import random
import time
from collections.abc import Sequence
from typing import cast

from django.contrib.auth.models import AnonymousUser
from django.db import connection, reset_queries, transaction
from django.http import HttpResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_htmx.middleware import HtmxDetails

from bench import deal_game, say
from tournaments.models import Game, GameRows, Player, Round, Seat, Session, Table, Tournament
from tournaments.views import public
from tournaments.views.live import HtmxHttpRequest


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog, description="Build a 512-player, 8-session tournament and time its standings."
    )
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the tournament")
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    started = time.perf_counter()
    tournament, round_count = build(options.players, options.sessions, rng)
    say(
        f"built {options.players} players, {options.sessions} sessions, {round_count} rounds "
        f"in {time.perf_counter() - started:.1f} s ({connection.vendor})"
    )
    try:
        measure(tournament)
    finally:
        if not options.keep:
            delete(tournament)
    return 0


def build(player_count: int, session_count: int, rng: random.Random) -> tuple[Tournament, int]:
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
            round_count += play_finished_session(session, groups, rng)
    return tournament, round_count


def play_finished_session(
    session: Session, groups: Sequence[Sequence[Player]], rng: random.Random
) -> int:
    """Seat each group at a table of its own and play a whole game there; the rounds stored.

    The tables come from `Table.objects.create_with_games`; each game's rounds are dealt
    (`bench.deal_game`) under the tournament's rules until the game ends and stored by
    `Game.store_rounds`, which scores them with the engine and caches the numbers as the site
    does.
    """
    tables = Table.objects.create_with_games(
        Table(session=session, number=number) for number in range(1, len(groups) + 1)
    )
    Seat.objects.bulk_create(
        Seat(table=table, position=position, player=player)
        for table, group in zip(tables, groups, strict=True)
        for position, player in enumerate(group, start=1)
    )
    ruleset = session.tournament.ruleset
    games = list(Game.objects.filter(table__in=tables).order_by("table__number"))
    rows = GameRows.of_games(games)
    at = timezone.now()
    rounds = 0
    for game in games:
        entries = deal_game(rows[game.pk].players, ruleset, rng)
        game.store_rounds([(round_, None, at) for round_ in entries], ended_at_time_limit=False)
        rounds += len(entries)
    return rounds


def measure(tournament: Tournament) -> None:
    # Under DEBUG the build's queries fill the query log, and a full log counts none.
    reset_queries()
    for label, session in (("overall", None), ("session 8", tournament.sessions.last())):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            rows = tournament.standings(session)
            elapsed = time.perf_counter() - started
        say(
            f"standings {label}: {len(rows)} players in {elapsed * 1000:.0f} ms, "
            f"{len(captured)} queries"
        )
    page, queries, elapsed = get_standings_page(tournament)
    say(
        f"standings page: {len(page.content) // 1024} KiB rendered in "
        f"{elapsed * 1000:.0f} ms, {queries} queries"
    )
    poll, queries, elapsed = get_standings_page(
        tournament, {"since": tournament.live_version(finished_games_only=True)}, htmx=True
    )
    say(f"unchanged poll: HTTP {poll.status_code} in {elapsed * 1000:.1f} ms, {queries} queries")


def get_standings_page(
    tournament: Tournament, data: dict[str, str] | None = None, *, htmx: bool = False
) -> tuple[HttpResponse, int, float]:
    """The standings view as a phone asks for it: the response, its queries, its time."""
    request = cast(
        HtmxHttpRequest,
        RequestFactory().get(
            f"/t/{tournament.slug}/standings/",
            data,
            headers={"HX-Request": "true"} if htmx else None,
        ),
    )
    request.user = AnonymousUser()
    request.htmx = HtmxDetails(request)
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = public.standings_page(request, slug=tournament.slug)
        elapsed = time.perf_counter() - started
    return response, len(queries), elapsed


def delete(tournament: Tournament) -> None:
    with transaction.atomic():
        Round.objects.filter(game__table__session__tournament=tournament).delete()
        players = list(
            Player.objects.filter(seats__table__session__tournament=tournament)
            .distinct()
            .values_list("pk", flat=True)
        )
        tournament.delete()
        Player.objects.filter(pk__in=players).delete()
