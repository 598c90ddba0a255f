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

import functools
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import compress, repeat
from operator import itemgetter, ne
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
    # The placement points a director gave (bonuses less penalties), in `points` already.
    adjustment: Fraction = Fraction(0)

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

    return _placed(ranking, order)


def _by_total(standing: Standing) -> tuple[Fraction, int, Fraction, Fraction]:
    """The rules' order: points, wins (high first), sum of totals (low first), table-mates'
    points (high first)."""
    return (
        -standing.points,
        -standing.wins,
        Fraction(standing.total_sum),
        -standing.opponents_points,
    )


def _placed(ranking: Iterable[Standing], order: Callable[[Standing], tuple]) -> list[Standing]:
    """The standings sorted by `order` (then the player's id as text), players equal by it
    sharing the place (1, 1, 3)."""
    ordered = sorted(ranking, key=lambda standing: (order(standing), str(standing.player)))
    placed: list[Standing] = []
    # The first standing always differs from `previous` and sets `place`: their starting
    # values are never read.
    previous: tuple | None = None  # pragma: no mutate
    place = 0  # pragma: no mutate
    for index, standing in enumerate(ordered, start=1):
        key = order(standing)
        if key != previous:
            place, previous = index, key
        placed.append(standing._replace(place=place))
    return placed


def adjusted(ranking: list[Standing], adjustments: Mapping[Hashable, Fraction]) -> list[Standing]:
    """The standings (by total) with the placement points a director gave (`adjustments`:
    player → bonuses less penalties) added to each player's points, and ordered again. They
    change the player's own points only: the table-mates' points of the others stay those
    won at the tables. A player given points before finishing any game is not ranked yet."""
    if not any(adjustments.values()):
        return ranking
    return _placed(
        (
            standing._replace(
                points=standing.points + adjustments[standing.player],
                adjustment=Fraction(adjustments[standing.player]),
            )
            if adjustments.get(standing.player)
            else standing
            for standing in ranking
        ),
        _by_total,
    )


def placement_points(rank: int, tied: int, table_size: int) -> Fraction:
    """Players beaten, plus half a point for each other player on the same total."""
    beaten = table_size - rank - (tied - 1)
    return beaten + Fraction(tied - 1, 2)


# A finished seat's result as the standings read it: player, table, total, rank, provisional
# (a `FinishedSeat` without its session).
SeatResult = tuple[Hashable, Hashable, int, int, bool]
_RESULT = itemgetter(0, 1, 3, 4, 5)
_TABLE = itemgetter(1)
_RANK = itemgetter(3)

# A player's tally is one integer, added to once per seat (a championship's 4,096 seats are
# counted in a few hundred nanoseconds each): the provisional seats in its lowest `width` bits,
# the games in the next `width`, the games won in the next, and the half points above them,
# the one field that may go negative (its sum is exact whatever its sign, as the fields below
# it are never negative). A seat adds its game, its win and `-2 × rank` half points; its table's
# `2 × size` half points are added per game at the end, or per table where the tables are not
# all of one size (`placement_points` in halves: 2 × (size - rank), less one for each other
# player on the same rank).
_WIDTH = 6
_RANKS = 16
# The tally's slots: the packed counts, the sum of totals, the table-mates' half points (each
# game's sum, the player's own included) and the player's half points.
_PACKED, _TOTALS, _TABLES, _HALVES = range(4)
_HALVES_OF = itemgetter(_HALVES)


@functools.cache
def _seat_gains(width: int, ranks: int) -> tuple[int, ...]:
    """What a seat of each rank (0 to `ranks`) adds to its player's packed tally."""
    return tuple(
        (-2 * rank << 3 * width) + ((rank == 1) << 2 * width) + (1 << width)
        for rank in range(ranks + 1)
    )


class _Counted(NamedTuple):
    tally: dict[Hashable, list[int]]
    # Each table's players' tallies, in the order of its seats; its ranks seen (one bit each);
    # its id.
    tables: list[list[list[int]]]
    ranks_seen: list[int]
    ids: list[Hashable]


_NO_TABLE = object()


def _count_seats(results: list[SeatResult], gains: tuple[int, ...]) -> _Counted:
    """Every seat added to its player's tally, table after table, in one pass (a table's seats
    come together, as the database returns them)."""
    tally: dict[Hashable, list[int]] = {}
    get = tally.get
    tables: list[list[list[int]]] = []
    ranks_seen: list[int] = []
    ids: list[Hashable] = []
    current: object = _NO_TABLE
    # Both set again at the first seat's table, before any use.
    players: list[list[int]] = []  # pragma: no mutate
    seen = 0  # pragma: no mutate
    for player, table, total, rank, provisional in results:
        if table != current:
            if current is not _NO_TABLE:
                # The ranks seen only spare a complete table the exact count of shared ranks
                # (`_complete_tables`): a wrong mask sends more tables through it, same result.
                ranks_seen.append(seen)  # pragma: no mutate
            current = table
            ids.append(table)
            players = []
            tables.append(players)
            seen = 0
        entry = get(player)
        if entry is None:
            entry = tally[player] = [0, 0, 0, 0]
        entry[_PACKED] += gains[rank] + provisional
        entry[_TOTALS] += total
        seen |= 1 << rank  # pragma: no mutate (see above: a shortcut's mask)
        players.append(entry)
    if current is not _NO_TABLE:
        ranks_seen.append(seen)  # pragma: no mutate (see above: a shortcut's mask)
    return _Counted(tally, tables, ranks_seen, ids)


def _share_ranks(players: list[list[int]], ranks: list[int], halves_at: int) -> None:
    """Players on the same rank share its places: one half point less for each other one."""
    # Equal lengths by construction: `strict` never fires here.
    for entry, rank in zip(players, ranks, strict=True):  # pragma: no mutate
        entry[_PACKED] += 1 - ranks.count(rank) << halves_at


def _complete_tables(counted: _Counted, results: list[SeatResult], width: int) -> int:
    """Each table's size and shared ranks counted; the size most tables have is left to
    `_half_points` (the tables' size when they all have one), which it returns."""
    halves_at = 3 * width
    tables = counted.tables
    size = len(tables[0]) if tables else 0
    if len(set(map(len, tables))) <= 1:
        # One size: only the tables with a shared rank need a look (they alone do not have
        # every rank from 1 to the size once), found in C.
        # A table whose mask misses it only goes through `_share_ranks`, which counts the
        # ranks exactly: a wrong mask costs time, never a point (nor does a wrong seen mask).
        every_rank = (1 << (size + 1)) - 2  # pragma: no mutate
        for index in compress(range(len(tables)), map(ne, counted.ranks_seen, repeat(every_rank))):
            seats = results[index * size : (index + 1) * size]
            _share_ranks(tables[index], list(map(_RANK, seats)), halves_at)
        return size
    start = 0
    # Equal lengths by construction: `strict` never fires here.
    for players, seen in zip(tables, counted.ranks_seen, strict=True):  # pragma: no mutate
        table_size = len(players)
        if table_size != size:
            gain = 2 * (table_size - size) << halves_at
            for entry in players:
                entry[_PACKED] += gain
        if seen != (1 << (table_size + 1)) - 2:  # pragma: no mutate (see every_rank)
            seats = results[start : start + table_size]
            _share_ranks(players, list(map(_RANK, seats)), halves_at)
        start += table_size
    return size


def _half_points(tally: dict[Hashable, list[int]], width: int, size: int) -> int:
    """Each player's half points into their tally, with `size`'s places for every game; the
    number of games counted, which is every seat's unless a player's games overflowed their
    field (then fewer: no field holds 2 ** width or more)."""
    halves_at = 3 * width
    low = (1 << width) - 1
    per_game = 2 * size
    games_counted = 0
    for entry in tally.values():
        packed = entry[_PACKED]
        games = packed >> width & low
        games_counted += games
        entry[_HALVES] = (packed >> halves_at) + per_game * games
    return games_counted


def _tally_players(results: list[SeatResult]) -> tuple[_Counted, int]:
    """The players' tallies, with the width of their fields: a narrow one, so the tallies stay
    small integers (fast), unless a rank is beyond its seat gains' reach, a table's seats do
    not come together or a player has more games than the field holds (then counted again)."""
    width, ranks = _WIDTH, _RANKS
    while True:
        try:
            counted = _count_seats(results, _seat_gains(width, ranks))
        except IndexError:
            ranks = max(map(_RANK, results))
            continue
        if len(set(counted.ids)) != len(counted.ids):
            results = sorted(results, key=_TABLE)
            continue
        size = _complete_tables(counted, results, width)
        if _half_points(counted.tally, width, size) == len(results):
            return counted, width
        width = len(results).bit_length()


class _Halves(dict[int, Fraction]):
    """Half points as fractions, made once each (a championship has a few dozen values)."""

    def __missing__(self, halves: int) -> Fraction:
        found = self[halves] = Fraction(halves, 2)
        return found


_FRACTION_OF_HALVES = _Halves()
_NO_ADJUSTMENT = Fraction(0)


def standings(seats: Iterable[FinishedSeat]) -> list[Standing]:
    """Rank the players of the given finished games (one session, or all)."""
    return standings_of_results(list(map(_RESULT, seats)))


def standings_of_results(results: Iterable[SeatResult]) -> list[Standing]:
    """`standings` of the seats' results, as a tournament reads them from the database (the
    results are read as the tuples they are, by position)."""
    if not isinstance(results, list):
        results = list(results)
    counted, width = _tally_players(results)
    # Table-mates' points: each game adds its table's (final) half points, the player's own
    # included, taken off once per game at the end.
    for players in counted.tables:
        together = sum(map(_HALVES_OF, players))
        for entry in players:
            entry[_TABLES] += together
    # By the order's keys (the high-first ones negated), then the player's id as text.
    low = (1 << width) - 1
    wins_at = 2 * width
    ranked = []
    for player, (packed, total_sum, tables_sum, halves) in counted.tally.items():
        games = packed >> width & low
        mates = tables_sum - games * halves
        ranked.append(
            (
                -halves,
                -(packed >> wins_at & low),
                total_sum,
                -mates,
                str(player),
                player,
                games,
                packed & low > 0,
            )
        )
    ranked.sort()
    placed: list[Standing] = []
    place, previous = 0, None
    make = tuple.__new__
    fraction = _FRACTION_OF_HALVES
    for index, (halves, wins, total_sum, mates, _, player, games, provisional) in enumerate(
        ranked, start=1
    ):
        order = (halves, wins, total_sum, mates)
        if order != previous:
            place, previous = index, order
        # Positional, in C: a NamedTuple's keywords cost more than the ranking's sort.
        standing = (
            place,
            player,
            fraction[-halves],
            games,
            -wins,
            total_sum,
            fraction[-mates],
            provisional,
            False,
            _NO_ADJUSTMENT,
        )
        placed.append(make(Standing, standing))
    return placed


# --- seats that changed hands: substitutes --------------------------------------------------

# Whom a seat's result credits when a substitute took it mid-game (the tournament's setting).
CREDIT_ORIGINAL = "original"
CREDIT_SUBSTITUTE = "substitute"
CREDIT_SPLIT = "split"
_ONE = Fraction(1)


class Stint(NamedTuple):
    """A player's part of a seat that changed hands (a substitute came in): the rounds they
    played at it, and the part of its total scored meanwhile (with the game points a
    director gave them there)."""

    player: Hashable
    rounds: int
    total: int


class _Credit(NamedTuple):
    """What a seat's result gives one player: a share of its placement points (and of its
    table-mates' points), and a part of its total."""

    player: Hashable
    share: Fraction
    total: int


def seat_credits(
    player: Hashable, total: int, stints: Sequence[Stint], credit: str
) -> tuple[_Credit, ...]:
    """Whom a seat's result credits: its player alone (no substitute), the player who began
    it or the one who finished it (all of it), or each by the rounds they played (`split`:
    the placement points shared by rounds, each their part of the total; a player back at
    the seat counts once)."""
    if not stints:
        return (_Credit(player, _ONE, total),)
    if credit == CREDIT_ORIGINAL:
        return (_Credit(stints[0].player, _ONE, total),)
    if credit == CREDIT_SUBSTITUTE:
        return (_Credit(stints[-1].player, _ONE, total),)
    rounds = sum(stint.rounds for stint in stints)
    merged: dict[Hashable, tuple[Fraction, int]] = {}
    for index, stint in enumerate(stints):
        share, part = merged.get(stint.player, (Fraction(0), 0))
        # No round played at all (every stint empty): the seat is the first player's.
        gained = Fraction(stint.rounds, rounds) if rounds else Fraction(index == 0)
        merged[stint.player] = (share + gained, part + stint.total)
    return tuple(_Credit(holder, share, part) for holder, (share, part) in merged.items())


class _Tally:
    """A player's figures as the credited standings add them up."""

    __slots__ = ("games", "mates", "points", "provisional", "totals", "wins")

    def __init__(self) -> None:
        self.points, self.mates = Fraction(0), Fraction(0)
        self.games = self.wins = self.totals = 0
        self.provisional = False


# A table's seats as credited: each seat's credits, placement points, win, provisional.
_CreditedSeat = tuple[tuple[_Credit, ...], Fraction, bool, bool]


def credited_standings(
    results: Iterable[SeatResult],
    stints: Mapping[tuple[Hashable, Hashable], Sequence[Stint]],
    credit: str,
) -> list[Standing]:
    """`standings_of_results` where some seats changed hands (`stints`: (table, the seat's
    last player) → who played it, in order), credited by the tournament's rule
    (`seat_credits`). A seat's share gives its player that share of the seat's placement
    points and of its table-mates' points, its part of the total, and the game counts as
    one played (and won, if the seat won) for each player who sat there. Without stints,
    the same standings as `standings_of_results`."""
    tables: dict[Hashable, list[SeatResult]] = {}
    for result in results:
        tables.setdefault(result[1], []).append(result)
    tally: dict[Hashable, _Tally] = {}
    credited_tables: list[list[_CreditedSeat]] = []
    for table, seats in tables.items():
        ranks = [seat[3] for seat in seats]
        credited = []
        for player, _, total, rank, provisional in seats:
            points = placement_points(rank, ranks.count(rank), len(seats))
            credits = seat_credits(player, total, stints.get((table, player)) or (), credit)
            # Only the credits are read again (`_add_mates`): the other entries' mutants
            # cannot be seen.
            credited.append((credits, points, rank == 1, bool(provisional)))  # pragma: no mutate
            for part in credits:
                entry = tally.setdefault(part.player, _Tally())
                entry.points += points * part.share
                entry.games += 1
                entry.wins += rank == 1
                entry.totals += part.total
                entry.provisional |= bool(provisional)
        credited_tables.append(credited)
    _add_mates(tally, credited_tables)
    return _placed(
        (
            Standing(0, player, e.points, e.games, e.wins, e.totals, e.mates, e.provisional)
            for player, e in tally.items()
        ),
        _by_total,
    )


def _add_mates(tally: dict[Hashable, _Tally], tables: list[list[_CreditedSeat]]) -> None:
    """Table-mates' points: for each game, the other seats' players' points (each by their
    share of that seat), times the player's own share of theirs."""
    for seats in tables:
        worth = [sum(tally[part.player].points * part.share for part in seat[0]) for seat in seats]
        together = sum(worth)
        # Equal lengths by construction: `strict` never fires here.
        for (credits, *_), own in zip(seats, worth, strict=True):  # pragma: no mutate
            for part in credits:
                tally[part.player].mates += (together - own) * part.share
