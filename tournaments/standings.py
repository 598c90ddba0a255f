"""Tournament standings from finished games: pure Python, no Django.

Each finished game gives placement points by rank at the table: the number of
players the player beat, a shared rank sharing the points of the places it
covers (two joint winners at a table of 4 get 2.5 each), so every game counts
the same however it ends. The order: placement points (high first), games
won, the sum of final game totals (low first), the sum of table-mates'
placement points (high first); players still equal share the place.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction


def gettext_noop(text: str) -> str:
    """Marks a text for the site's translations (`makemessages` finds it); returns it as is.

    This module stays free of Django: the pages and PDFs translate these texts where they
    show them (`tournaments.texts`).
    """
    return text


SCHEME = gettext_noop(
    "Each finished game gives a player one point for every player they beat at the table; "
    "players on the same total share the points of the places they cover (two joint "
    "winners at a table of 4 get 2.5 each)."
)
TIE_BREAKS = (
    gettext_noop("placement points, high first"),
    gettext_noop("games won, high first"),
    gettext_noop("sum of final game totals, low first"),
    gettext_noop("sum of table-mates' placement points, high first"),
)


@dataclass(frozen=True)
class FinishedSeat:
    """One player's result in one finished game."""

    player: Hashable
    table: Hashable
    session: int
    total: int
    rank: int
    provisional: bool = False


@dataclass(frozen=True)
class Standing:
    place: int
    player: Hashable
    points: Fraction
    games: int
    wins: int
    total_sum: int
    opponents_points: Fraction
    provisional: bool


def placement_points(rank: int, tied: int, table_size: int) -> Fraction:
    """Players beaten, plus half a point for each other player on the same total."""
    beaten = table_size - rank - (tied - 1)
    return beaten + Fraction(tied - 1, 2)


def points_by_seat(seats: Sequence[FinishedSeat]) -> dict[FinishedSeat, Fraction]:
    by_table: dict[Hashable, list[FinishedSeat]] = defaultdict(list)
    for seat in seats:
        by_table[seat.table].append(seat)
    points = {}
    for table_seats in by_table.values():
        tied = Counter(seat.rank for seat in table_seats)
        for seat in table_seats:
            points[seat] = placement_points(seat.rank, tied[seat.rank], len(table_seats))
    return points


def standings(seats: Iterable[FinishedSeat]) -> list[Standing]:
    """Rank the players of the given finished games (one session, or all)."""
    seats = list(seats)
    points = points_by_seat(seats)
    by_player: dict[Hashable, list[FinishedSeat]] = defaultdict(list)
    by_table: dict[Hashable, list[FinishedSeat]] = defaultdict(list)
    for seat in seats:
        by_player[seat.player].append(seat)
        by_table[seat.table].append(seat)
    player_points = {
        player: sum((points[seat] for seat in games), Fraction(0))
        for player, games in by_player.items()
    }
    unplaced = []
    for player, games in by_player.items():
        mates = [mate.player for seat in games for mate in by_table[seat.table] if mate != seat]
        unplaced.append(
            Standing(
                place=0,
                player=player,
                points=player_points[player],
                games=len(games),
                wins=sum(1 for seat in games if seat.rank == 1),
                total_sum=sum(seat.total for seat in games),
                opponents_points=sum((player_points[mate] for mate in mates), Fraction(0)),
                provisional=any(seat.provisional for seat in games),
            )
        )

    def order(standing: Standing) -> tuple:
        return (-standing.points, -standing.wins, standing.total_sum, -standing.opponents_points)

    unplaced.sort(key=lambda standing: (order(standing), str(standing.player)))
    placed = []
    for index, standing in enumerate(unplaced):
        if index and order(standing) == order(unplaced[index - 1]):
            place = placed[-1].place
        else:
            place = index + 1
        placed.append(dataclasses.replace(standing, place=place))
    return placed
