"""A game's seats as its writes and sheets read them: the labels of the players at a table, the
seats of many games in one query and their standing written back (the locked read of a write is
the game's: `Game._locked_with_seats`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from django.db.models import Exists, OuterRef

from scoring import rules
from scoring.records import join_start_from_text
from tournaments.models.registrations import Registration
from tournaments.models.rounds import Round
from tournaments.models.tables import Seat


class GameRef(Protocol):
    """What these read of a game (a `Game`: that module imports this one)."""

    pk: Any
    table_id: int


def seat_label(name: str, position: int, names: Sequence[str]) -> str:
    """The name the engine, the referee and a game record use for the player at seat
    `position` among `names` (the table's): the player's name, or "Name (seat n)" when two
    players at the table share it."""
    return name if names.count(name) == 1 else f"{name} (seat {position})"


def seat_labels(seats: Sequence[Seat]) -> dict[int, str]:
    """Seat id → its label (`seat_label`)."""
    names = [seat.player.name for seat in seats]
    return {seat.pk: seat_label(seat.player.name, seat.position, names) for seat in seats}


class LabelledSeats:
    """A game's seats (clockwise) by the names the engine knows them by: what the write
    path's rows and the pages' sheets share."""

    seats: tuple[Seat, ...]

    @cached_property
    def labels(self) -> dict[int, str]:
        """Seat id → the name the engine and the referee use for that seat."""
        return seat_labels(self.seats)

    @cached_property
    def players(self) -> tuple[str, ...]:
        """The labels clockwise, as the engine and the sheet's columns take them."""
        labels = self.labels
        return tuple(labels[seat.pk] for seat in self.seats)

    def label(self, seat: Seat) -> str:
        return self.labels[seat.pk]

    def seat_for(self, label: str) -> Seat:
        return next(seat for seat in self.seats if self.labels[seat.pk] == label)


def seats_of_games(games: Sequence[GameRef]) -> dict[int, list[Seat]]:
    """Game id → its seats clockwise, with their players and whether each has withdrawn
    from the tournament (`seat.withdrawn`: a table plays them on until the director
    decides, and its page says so), in one query."""
    table_ids = {game.table_id: game.pk for game in games}
    seats: dict[int, list[Seat]] = {game.pk: [] for game in games}
    for seat in (
        Seat.objects.filter(table_id__in=table_ids)
        .select_related("player")
        .annotate(withdrawn=_withdrawn(OuterRef("table__session__tournament_id")))
        .order_by("table_id", "position")
    ):
        seats[table_ids[seat.table_id]].append(seat)
    return seats


@dataclass(frozen=True)
class GameRows(LabelledSeats):
    """A game's rows as stored (seats clockwise, rounds with their hands), for the engine.

    The write path loads these under the game's lock; `tournaments.sheets` reads them for
    the pages.
    """

    seats: tuple[Seat, ...]
    rounds: tuple[Round, ...]

    def entries(self, stored: Round) -> rules.Round:
        labels = self.labels
        return rules.Round(
            hands={labels[hand.seat_id]: hand.hand_total for hand in stored.hands.all()},
            yaniv=labels[stored.caller_id] if stored.caller_id else None,
            along=tuple(labels[hand.seat_id] for hand in stored.hands.all() if hand.along),
            empty_hand=labels[stored.empty_hand_id] if stored.empty_hand_id else None,
            jokers={
                labels[hand.seat_id]: hand.jokers for hand in stored.hands.all() if hand.jokers
            },
            joins=rules.Join(labels[stored.joined_id], join_start_from_text(stored.join_start))
            if stored.joined_id
            else None,
        )

    def engine_rounds(self) -> list[rules.Round]:
        return [self.entries(stored) for stored in self.rounds]

    @cached_property
    def starting_players(self) -> tuple[str, ...]:
        """The players seated when the game began, clockwise: as the engine's `Game` takes
        them (a player who joined later comes in through their round's `joins`)."""
        joined = {stored.joined_id for stored in self.rounds if stored.joined_id}
        return tuple(self.labels[seat.pk] for seat in self.seats if seat.pk not in joined)

    @classmethod
    def of_games(cls, games: Sequence[GameRef]) -> dict[int, GameRows]:
        """Game id → its rows, for any number of games in three queries."""
        seats = seats_of_games(games)
        rounds: dict[int, list[Round]] = {game.pk: [] for game in games}
        for stored in (
            Round.objects.filter(game__in=[game.pk for game in games])
            .select_related("entered_by")
            .prefetch_related("hands")
            .order_by("game_id", "number")
        ):
            rounds[stored.game_id].append(stored)
        return {game.pk: cls(tuple(seats[game.pk]), tuple(rounds[game.pk])) for game in games}


def _withdrawn(tournament_id: Any) -> Exists:
    """Whether a seat's player withdrew from the tournament (`tournament_id`: its id, or the
    reference to it): a table plays them on until the director decides, and its page says so."""
    return Exists(
        Registration.objects.filter(
            player_id=OuterRef("player_id"),
            tournament_id=tournament_id,
            withdrawn_at__isnull=False,
        )
    )


def mark_withdrawn(seats: Sequence[Seat], tournament_id: int) -> None:
    """Mark each seat whose player withdrew from the tournament (`seat.withdrawn`), in one
    query: seats read without it (under a round's lock) shown on the table page."""
    withdrawn = set(
        Registration.objects.filter(
            tournament_id=tournament_id,
            player_id__in=[seat.player_id for seat in seats],
            withdrawn_at__isnull=False,
        ).values_list("player_id", flat=True)
    )
    for seat in seats:
        seat.withdrawn = seat.player_id in withdrawn  # type: ignore[attr-defined]


def save_standing(seats: Sequence[Seat]) -> None:
    """The seats' cached totals, ranks and rounds out, in one statement: as an upsert of the
    locked rows (INSERT … ON CONFLICT (id) DO UPDATE) rather than `bulk_update`, whose CASE
    per column and seat cost more to build than a round's other statements together."""
    rank_with_adjustments(seats)
    Seat.objects.bulk_create(
        seats,
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=["total", "rank", "out_after", "adjustment"],
    )


def rank_with_adjustments(seats: Sequence[Seat]) -> None:
    """The game's ranks by the seats' totals with the game points a director gave them
    (`Seat.adjustment`: they count in the result, not in the rounds' play), as the engine
    ranks (under elimination, who went out later first). Nothing to do without any."""
    if not any(seat.adjustment for seat in seats) or any(seat.rank is None for seat in seats):
        return
    keys = [str(seat.pk) for seat in seats]
    ranking = rules.rank(
        keys,
        {str(seat.pk): seat.adjusted_total for seat in seats},
        {str(seat.pk): seat.out_after for seat in seats if seat.out_after is not None} or None,
    )
    ranks = {placing.player: placing.rank for placing in ranking}
    for seat in seats:
        seat.rank = ranks[str(seat.pk)]
