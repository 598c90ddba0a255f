"""Factories for the tests of seasons, profiles and merges: finished games in bulk.

The season standings, the profiles and the head-to-head read what a finished game caches on
its seats (total and rank) and on the game (finished, signed off); these factories write that
directly, as `Game.store_rounds` would leave it, so that a test can play hundreds of games.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.utils import timezone

from seasons.models import Season, SeasonTournament
from tests.factories import make_tournament
from tournaments.models import Game, Player, Registration, Seat, Session, Table, Tournament


def players(*names: str, club=None) -> list[Player]:
    return [Player.objects.create(name=name, club=club) for name in names]


def ranks(totals: Sequence[int]) -> list[int]:
    """The engine's ranks: lowest total first, equal totals sharing a rank."""
    return [1 + sum(other < total for other in totals) for total in totals]


def session_of(tournament: Tournament, number: int) -> Session:
    session, _ = Session.objects.get_or_create(
        tournament=tournament, number=number, defaults={"status": Session.Status.FINISHED}
    )
    return session


def finished_tables(
    tournament: Tournament,
    number: int,
    tables: Sequence[Sequence[tuple[Player, int]]],
    *,
    signed_off: bool = True,
    register: bool = True,
) -> list[Table]:
    """Session `number` of the tournament with these tables, each game finished with the
    given final totals (player, total), clockwise."""
    session = session_of(tournament, number)
    start = session.tables.count()
    created = Table.objects.create_with_games(
        Table(session=session, number=start + index) for index in range(1, len(tables) + 1)
    )
    seats = []
    for table, results in zip(created, tables, strict=True):
        totals = [total for _, total in results]
        for position, ((player, total), rank) in enumerate(
            zip(results, ranks(totals), strict=True), start=1
        ):
            seats.append(
                Seat(table=table, position=position, player=player, total=total, rank=rank)
            )
    Seat.objects.bulk_create(seats)
    now = timezone.now()
    Game.objects.filter(table__in=created).update(
        finished=True, finished_at=now, signed_off_at=now if signed_off else None
    )
    if register:
        Registration.objects.bulk_create(
            (Registration(tournament=tournament, player=seat.player) for seat in seats),
            ignore_conflicts=True,
        )
    return created


def ranked_tournament(order: Sequence[Player], **fields) -> Tournament:
    """A finished tournament whose standings are `order` (one game, a table of all of them
    when they are 8 or fewer, else tables of 4 in a row, the first table's winner first…).

    With up to 8 players: one game where each finished 10 points behind the one before.
    """
    fields.setdefault("status", Tournament.Status.FINISHED)
    tournament = make_tournament(**fields)
    assert len(order) <= 8, "one table"
    finished_tables(tournament, 1, [[(p, 10 * i) for i, p in enumerate(order)]])
    return tournament


def make_season(*tournaments: Tournament, coefficients: Sequence[str] = (), **fields) -> Season:
    fields.setdefault("name", "Ranking 2027")
    fields.setdefault("slug", "ranking-2027")
    season = Season.objects.create(**fields)
    for index, tournament in enumerate(tournaments):
        coefficient = coefficients[index] if index < len(coefficients) else "1"
        SeasonTournament.objects.create(
            season=season, tournament=tournament, coefficient=Decimal(coefficient)
        )
    return season
