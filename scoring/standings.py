"""Tournament standings from finished games: pure Python, no Django.

Each finished game gives placement points by rank at the table: the number of
players the player beat, a shared rank sharing the points of the places it
covers (two joint winners at a table of 4 get 2.5 each), so every game counts
the same however it ends. The order: placement points (high first), games
won, the sum of final game totals (low first), the sum of table-mates'
placement points (high first); players still equal share the place.

A tournament may rank by the average per game instead (`BY_AVERAGE`): a player who
joined late, or missed a session, is then not behind for the games they did not
play. A withdrawn player keeps their games and their place, marked `withdrawn`
(`ranked_standings`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Hashable, Iterable, Sequence
from fractions import Fraction
from operator import itemgetter
from typing import NamedTuple

from scoring.errors import gettext_noop

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
# How a tournament ranks its players: by the placement points of every game added up (the
# rules' way, and the default), or by their average per game.
BY_TOTAL = "total"
BY_AVERAGE = "average"
AVERAGE_TIE_BREAKS = (
    gettext_noop("placement points per game, high first"),
    gettext_noop("share of games won, high first"),
    gettext_noop("average final game total, low first"),
    gettext_noop("table-mates' placement points per game, high first"),
)
AVERAGE_SCHEME = gettext_noop(
    "Players are ranked by their placement points per game, so that a player who joined "
    "late or missed a session is not behind for the games they did not play."
)


class FinishedSeat(NamedTuple):
    """One player's result in one finished game.

    A plain tuple: a championship's 4,096 finished seats are made straight from the rows
    the database returns, in this order.
    """

    player: Hashable
    table: Hashable
    session: int
    total: int
    rank: int
    provisional: bool = False


class Standing(NamedTuple):
    place: int
    player: Hashable
    points: Fraction
    games: int
    wins: int
    total_sum: int
    opponents_points: Fraction
    provisional: bool
    # The player withdrew from the tournament: their games count, they are drawn no more.
    withdrawn: bool = False

    @property
    def average(self) -> Fraction:
        """Placement points per game."""
        return self.points / self.games


def ranked_standings(
    seats: Iterable[FinishedSeat],
    *,
    by: str = BY_TOTAL,
    withdrawn: Collection[Hashable] = (),
) -> list[Standing]:
    """`standings` as a tournament ranks them: by total or by average, withdrawn marked."""
    return ranked(standings(seats), by=by, withdrawn=withdrawn)


def ranked(
    ranking: list[Standing], *, by: str = BY_TOTAL, withdrawn: Collection[Hashable] = ()
) -> list[Standing]:
    """The standings (by total) ordered by the tournament's way, its withdrawn players
    marked."""
    if by == BY_AVERAGE:
        ranking = _by_average(ranking)
    if withdrawn:
        ranking = [
            standing._replace(withdrawn=True) if standing.player in withdrawn else standing
            for standing in ranking
        ]
    return ranking


def _by_average(ranking: list[Standing]) -> list[Standing]:
    """The same standings ordered by the per-game average of each criterion (exact fractions:
    comparing averages needs no rounding); players still equal share the place."""

    def order(standing: Standing) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        games = standing.games
        return (
            -standing.points / games,
            Fraction(-standing.wins, games),
            Fraction(standing.total_sum, games),
            -standing.opponents_points / games,
        )

    ordered = sorted(ranking, key=lambda standing: (order(standing), str(standing.player)))
    placed: list[Standing] = []
    place, previous = 0, None
    for index, standing in enumerate(ordered, start=1):
        key = order(standing)
        if key != previous:
            place, previous = index, key
        placed.append(standing._replace(place=place))
    return placed


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


# Half points as fractions, made once each (a championship has a few dozen distinct values).
_HALVES: dict[int, Fraction] = {}


def _fraction_of_halves(halves: int) -> Fraction:
    found = _HALVES.get(halves)
    if found is None:
        found = _HALVES[halves] = Fraction(halves, 2)
    return found


# A finished seat's result as the standings read it: player, table, total, rank, provisional
# (a `FinishedSeat` without its session).
SeatResult = tuple[Hashable, Hashable, int, int, bool]
_RESULT = itemgetter(0, 1, 3, 4, 5)
_HALF_POINTS = itemgetter(0)


class _Tally(dict[Hashable, list]):
    """Player → [half points, games, wins, sum of totals, provisional, the tables' half
    points summed over their games]; a player's first game makes their entry."""

    def __missing__(self, player: Hashable) -> list:
        entry = self[player] = [0, 0, 0, 0, False, 0]
        return entry


def standings(seats: Iterable[FinishedSeat]) -> list[Standing]:
    """Rank the players of the given finished games (one session, or all)."""
    return standings_of_results(map(_RESULT, seats))


def standings_of_results(results: Iterable[SeatResult]) -> list[Standing]:
    """`standings` of the seats' results, as a tournament reads them from the database.

    Counted in half points (integers) in one tally per player and turned into fractions at
    the end: a championship's 4,096 finished seats are summed many times over (table-mates'
    points), in a few milliseconds. The results are read as the tuples they are, by position.
    """
    by_table: dict[Hashable, list[SeatResult]] = {}
    for result in results:
        group = by_table.get(result[1])
        if group is None:
            by_table[result[1]] = [result]
        else:
            group.append(result)
    tally = _Tally()
    tables = []
    for table_seats in by_table.values():
        # `placement_points` in halves: 2 × (players beaten) + (others on the same rank), as
        # if every rank were the seat's own first (the ranks seen, one bit each), then the
        # shared ones amended: a few tables, if any.
        size = len(table_seats)
        seen = 0
        entries = []
        for player, _, total, rank, provisional in table_seats:
            entry = tally[player]
            entry[0] += 2 * (size - rank)
            seen |= 1 << rank
            entry[1] += 1
            if rank == 1:
                entry[2] += 1
            entry[3] += total
            if provisional:
                entry[4] = True
            entries.append(entry)
        if seen.bit_count() != size:
            ranks = [result[3] for result in table_seats]
            for entry, rank in zip(entries, ranks, strict=True):
                entry[0] += 1 - ranks.count(rank)
        tables.append(entries)
    # Table-mates' points: each game adds the others' (final) points, once per game together:
    # the table's sum now, less the player's own points once per game at the end.
    for entries in tables:
        together = sum(map(_HALF_POINTS, entries))
        for entry in entries:
            entry[5] += together
    # By the order's keys (the high-first ones negated), then the player's id as text.
    ranked = []
    for player, (halves, games, wins, total_sum, provisional, tables_sum) in tally.items():
        mates = tables_sum - games * halves
        order = (-halves, -wins, total_sum, -mates)
        ranked.append((order, str(player), player, games, provisional))
    ranked.sort()
    placed: list[Standing] = []
    place, previous = 0, None
    make = tuple.__new__
    for index, (order, _, player, games, provisional) in enumerate(ranked, start=1):
        if order != previous:
            place, previous = index, order
        halves, wins, total_sum, mates = order
        # Positional, in C: a NamedTuple's keywords cost more than the ranking's sort.
        standing = (
            place,
            player,
            _fraction_of_halves(-halves),
            games,
            -wins,
            total_sum,
            _fraction_of_halves(-mates),
            provisional,
            False,
        )
        placed.append(make(Standing, standing))
    return placed
