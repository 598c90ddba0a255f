"""Seating a session: table sizes and the draw of players to tables. Pure Python, no Django.

Everything going in and out is immutable: a `Draw` holds the tables in order (table 1 first),
each a tuple of players in clockwise seat order (seat 1 first). Draws are reproducible: all
randomness comes from `random.Random(seed)`, and the random draw sorts the players first, so the
order they arrive in (e.g. from a database query) does not matter.

Table sizes stay within bounds around the tournament's target: 3 to 5 around 4 by default,
a table of 2 only when the director asks (`table_bounds`). Before a session starts,
`rebalance` takes the draw as it is, who did not show up and who arrived late, and says the
fewest moves that bring every table back within the bounds.

A "repeat meeting" is a pair of players at the same table who already sat together in an earlier
session. It counts once per pair and session, however often the pair met before. The random draw
minimises it, but weighs a pair by how often it met (squared), so that when repeats cannot be
avoided they are spread over many pairs rather than seating one pair together again and again.

"Clubmates" are two players of one club at the same table. The club-aware draw
(`draw_random(..., clubs=…)`) weighs them one of two ways (`ClubWeight`): as a pair who met once
before (they meet at their club every week), so that repeats and clubmates are traded one for
one; or below every repeat meeting, by a second search that starts from the plain draw of the
same seed, so that the plain draw's repeats are kept (never more, by the draw's own measure) and
only then are clubmates parted.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Generic, Protocol, TypeVar

from scoring.errors import SeatingError
from scoring.search import cut, search

# What any table can seat: the game needs 2 players and one deck pair serves 8.
MIN_TABLE = 2
MAX_TABLE = 8
# Without the director asking for them, no table of 2: the draw seats at least 3...
SMALLEST_TABLE = 3
# ...and at most the target + 1, but at least 5, so that every count of 3 or more players
# splits into tables whose sizes differ by at most 1 (5 = 2 × 3 − 1: 5 players sit at one
# table, 6 at two).
LARGEST_AT_LEAST = 5
# Each attempt tries the best swap for one player with a repeat; the search stops earlier once
# no pair repeats. 2,000 keeps a draw of 130 players well under a tenth of a second.
DEFAULT_ATTEMPTS = 2_000


class _Sortable(Protocol):
    # Pairs are sets (hashing) and the draw sorts the players (ordering).
    def __hash__(self) -> int: ...
    def __lt__(self, other: Any, /) -> bool: ...


PlayerId = TypeVar("PlayerId", bound=_Sortable)

Meetings = Mapping[frozenset[PlayerId], int]
"""How many times each pair of players sat at the same table before (see `meetings`)."""

Clubs = Mapping[PlayerId, Hashable]
"""Each player's club (any value that tells clubs apart); a player not in it, or whose club is
None, has no clubmates."""


class ClubWeight(enum.StrEnum):
    """What two clubmates at a table weigh in the club-aware draw."""

    # As a pair who met once before: a repeat meeting and a clubmate weigh alike, and two
    # clubmates who met before weigh as a third meeting (squared, as repeats are).
    AS_MEETING = "as_meeting"
    # Less than any repeat meeting: the plain draw's repeats first, then clubmates apart.
    BELOW_REPEATS = "below_repeats"


@dataclass(frozen=True)
class Draw(Generic[PlayerId]):
    """The tables of one session, table 1 first, each in clockwise seat order."""

    tables: tuple[tuple[PlayerId, ...], ...]
    seed: int
    repeat_meetings: int
    # Pairs of one club at the same table, when the draw was given the clubs.
    clubmates: int = 0

    def table_index(self, player: PlayerId) -> int:
        for index, table in enumerate(self.tables):
            if player in table:
                return index
        raise SeatingError("not_seated", player=player)


def table_bounds(
    target: int = 4, smallest: int | None = None, largest: int | None = None
) -> tuple[int, int]:
    """The smallest and largest table a draw may make around `target`.

    By default 3 to target + 1, at least 5: tables of 3 to 5 around 4, 3 to 7 around 6. A
    table of 2 only when asked (`smallest=2`), or when the target itself is 2. The bounds must
    hold the target and stay within 2–8.
    """
    if not MIN_TABLE <= target <= MAX_TABLE:
        raise SeatingError("target_size", low=MIN_TABLE, high=MAX_TABLE, target=target)
    low = min(SMALLEST_TABLE, target) if smallest is None else smallest
    high = min(MAX_TABLE, max(LARGEST_AT_LEAST, target + 1)) if largest is None else largest
    if not MIN_TABLE <= low <= target <= high <= MAX_TABLE:
        raise SeatingError(
            "table_bounds",
            smallest=low,
            largest=high,
            target=target,
            low=MIN_TABLE,
            high=MAX_TABLE,
        )
    return low, high


def table_sizes(
    player_count: int,
    target: int = 4,
    *,
    smallest: int | None = None,
    largest: int | None = None,
) -> tuple[int, ...]:
    """Split players into tables within `table_bounds` around `target`, smaller tables first.

    The number of tables is the one closest to player_count / target; on a tie (22 players at
    4: 5 or 6 tables) the fewer, larger tables win, as fewer tables need fewer referees. It is
    then clamped so every table is within the bounds (6 players at 4: two tables of 3, not
    one of 6), and the sizes differ by at most 1. Smaller tables come first so that, seated by
    standings, the leaders' table is never the crowded one.
    """
    low, high = table_bounds(target, smallest, largest)
    if player_count < low:
        raise SeatingError("too_few_players", low=low, count=player_count)
    count = _table_count(player_count, target, low, high)
    small, larger = divmod(player_count, count)
    return (small,) * (count - larger) + (small + 1,) * larger


def _table_count(player_count: int, target: int, low: int, high: int) -> int:
    fewest = -(-player_count // high)
    most = player_count // low
    if fewest > most:
        # Only with bounds set by hand: 5 players in tables of 3 to 4.
        raise SeatingError("no_table_split", count=player_count, smallest=low, largest=high)
    # Closest to player_count / target without floats; min() keeps the first (fewer) on a tie.
    nearest = min(
        (player_count // target, player_count // target + 1),
        key=lambda count: abs(player_count - count * target),
    )
    return max(fewest, min(most, nearest))


def meetings(sessions: Iterable[Iterable[Sequence[PlayerId]]]) -> dict[frozenset[PlayerId], int]:
    """How often each pair sat at the same table: the `met` of the next draw."""
    met: dict[frozenset[PlayerId], int] = {}
    for session in sessions:
        for table in session:
            for a, b in combinations(table, 2):
                pair = frozenset((a, b))
                met[pair] = met.get(pair, 0) + 1
    return met


def count_repeat_meetings(
    tables: Iterable[Sequence[PlayerId]], met: Meetings[PlayerId] | None
) -> int:
    """Pairs at the same table who met before, each pair once."""
    if not met:
        return 0
    return sum(
        1 for table in tables for a, b in combinations(table, 2) if met.get(frozenset((a, b)))
    )


def count_clubmates(tables: Iterable[Sequence[PlayerId]], clubs: Clubs[PlayerId] | None) -> int:
    """Pairs of players of one club at the same table."""
    if not clubs:
        return 0
    return sum(
        1
        for table in tables
        for a, b in combinations(table, 2)
        if clubs.get(a) is not None and clubs.get(a) == clubs.get(b)
    )


def clubmates_at(table: Sequence[PlayerId], clubs: Clubs[PlayerId]) -> dict[Hashable, int]:
    """The clubs with more than one player at the table, and how many players each has."""
    counted: dict[Hashable, int] = {}
    for player in table:
        club = clubs.get(player)
        if club is not None:
            counted[club] = counted.get(club, 0) + 1
    return {club: count for club, count in counted.items() if count > 1}


def draw_random(
    players: Sequence[PlayerId],
    met: Meetings[PlayerId] | None,
    seed: int,
    target: int = 4,
    attempts: int = DEFAULT_ATTEMPTS,
    *,
    smallest: int | None = None,
    largest: int | None = None,
    clubs: Clubs[PlayerId] | None = None,
    club_weight: ClubWeight = ClubWeight.AS_MEETING,
) -> Draw[PlayerId]:
    """A random draw with as few repeat meetings as a bounded local search finds.

    It shuffles and cuts the players into `table_sizes`, then swaps players between tables
    (hill climbing that also takes level moves, to wander off plateaus), keeping the best
    seating seen; seat order at each table is shuffled last.

    With `clubs`, clubmates weigh as `club_weight` says. `AS_MEETING`: the search counts each
    pair of clubmates as having met once more. `BELOW_REPEATS`: a second search starts from
    the plain draw's seating and weighs clubmates below every repeat meeting (`_club_matrix`);
    the best seating it sees is never worse than its start, so the repeats stay the plain
    draw's or fewer, and at equal repeats so do the clubmates. Without clubmates among the
    players either way gives the plain draw.
    """
    ordered = sorted(players)
    _check_distinct(ordered)
    sizes = table_sizes(len(ordered), target, smallest=smallest, largest=largest)
    rng = random.Random(seed)
    if clubs and club_weight is ClubWeight.AS_MEETING:
        tables = search(
            sizes, _penalty_matrix(ordered, _met_at_club(ordered, met, clubs)), rng, attempts
        )
    else:
        penalties = _penalty_matrix(ordered, met)
        tables = search(sizes, penalties, rng, attempts)
        if clubs and count_clubmates([ordered], clubs):
            weights = _club_matrix(ordered, penalties, clubs)
            tables = search(sizes, weights, rng, attempts, tables)
    drawn = _draw(ordered, tables, rng, seed, met)
    if clubs:
        return dataclasses.replace(drawn, clubmates=count_clubmates(drawn.tables, clubs))
    return drawn


def draw_by_standings(
    players_in_rank_order: Sequence[PlayerId],
    target: int = 4,
    met: Meetings[PlayerId] | None = None,
    *,
    seed: int,
    smallest: int | None = None,
    largest: int | None = None,
) -> Draw[PlayerId]:
    """Swiss-like: similar ranks together, table 1 the leaders (the first of the ranking).

    With `met`, a light touch lowers repeat meetings: players swap between adjacent tables only
    when the swap lowers the repeats, each player at most once (so nobody moves more than one
    table from their rank's table); the biggest gain first, then the closest ranks.
    """
    ranked = list(players_in_rank_order)
    _check_distinct(ranked)
    sizes = table_sizes(len(ranked), target, smallest=smallest, largest=largest)
    tables = cut(list(range(len(ranked))), sizes)
    if met:
        tables = _swap_adjacent_repeats(tables, _repeat_matrix(ranked, met))
    return _draw(ranked, tables, random.Random(seed), seed, met)


def swap(
    draw: Draw[PlayerId], a: PlayerId, b: PlayerId, met: Meetings[PlayerId] | None
) -> Draw[PlayerId]:
    """Players `a` and `b` take each other's seats (a manual adjustment)."""
    if a == b:
        raise SeatingError("swap_same_player", player=a)
    where = {a: b, b: a}
    for player in where:
        draw.table_index(player)
    tables = tuple(tuple(where.get(player, player) for player in table) for table in draw.tables)
    return Draw(tables, draw.seed, count_repeat_meetings(tables, met))


def move(
    draw: Draw[PlayerId], player: PlayerId, to_table_index: int, met: Meetings[PlayerId] | None
) -> Draw[PlayerId]:
    """Move `player` to the last seat of another table (a manual adjustment).

    Messages name tables by number (index + 1), as the site does.
    """
    source = draw.table_index(player)
    if not 0 <= to_table_index < len(draw.tables):
        raise SeatingError("no_such_table", table=to_table_index + 1, count=len(draw.tables))
    if to_table_index == source:
        raise SeatingError("already_at_table", player=player, table=source + 1)
    if len(draw.tables[source]) - 1 < MIN_TABLE:
        raise SeatingError("table_too_small", player=player, table=source + 1, low=MIN_TABLE)
    if len(draw.tables[to_table_index]) + 1 > MAX_TABLE:
        raise SeatingError("table_full", table=to_table_index + 1, high=MAX_TABLE)
    tables = tuple(
        tuple(seated for seated in table if seated != player)
        + ((player,) if index == to_table_index else ())
        for index, table in enumerate(draw.tables)
    )
    return Draw(tables, draw.seed, count_repeat_meetings(tables, met))


# --- rebalancing a drawn session: who did not show up, who arrived ------------------------


@dataclass(frozen=True)
class Move(Generic[PlayerId]):
    """One step of a rebalance, tables by index (table 1 is 0).

    A player who leaves (`to_table` None: absent or withdrawn), arrives (`from_table` None: a
    late player) or changes table. `repeats` counts the players at the new table they met in
    an earlier session (0 for a player who leaves).
    """

    player: PlayerId
    from_table: int | None
    to_table: int | None
    repeats: int = 0

    @property
    def leaves(self) -> bool:
        return self.to_table is None

    @property
    def arrives(self) -> bool:
        return self.from_table is None

    @property
    def changes_table(self) -> bool:
        return self.from_table is not None and self.to_table is not None


@dataclass(frozen=True)
class Rebalance(Generic[PlayerId]):
    """A drawn session brought back within the table bounds: the new draw and the steps to it.

    Tables that close are the last ones (`closed_tables`, indexes); new ones are added after
    the last (`opened_tables`). Everyone else keeps their table and seat order; newcomers take
    the last seats.
    """

    draw: Draw[PlayerId]
    moves: tuple[Move[PlayerId], ...]
    tables_before: int

    @property
    def moved(self) -> int:
        """How many players present change table (the number the rebalance keeps lowest)."""
        return sum(1 for step in self.moves if step.changes_table)

    @property
    def closed_tables(self) -> range:
        return range(len(self.draw.tables), self.tables_before)

    @property
    def opened_tables(self) -> range:
        return range(self.tables_before, len(self.draw.tables))


def rebalance(
    draw: Draw[PlayerId],
    met: Meetings[PlayerId] | None,
    *,
    absent: Iterable[PlayerId] = (),
    arrived: Iterable[PlayerId] = (),
    target: int = 4,
    smallest: int | None = None,
    largest: int | None = None,
) -> Rebalance[PlayerId]:
    """The fewest moves that seat the players present within the table bounds.

    `absent` players (seated, but not checked in or withdrawn) leave their seats; `arrived`
    players (checked in, not seated) join. The number of tables stays unless the players no
    longer fit it; otherwise, among the counts that need the fewest moves, the one closest to
    player_count / target. A table closes from the end (its players move; closing an earlier
    one would renumber every table after it), a new one opens after the last.

    Who moves and where: a table above the largest size gives up its players who met the
    most table-mates before; a table below the smallest takes newcomers first, and only then
    a player from the fullest table. Each player goes where they add the fewest repeat
    meetings (then to the emptiest table below the target), and two movers swap destinations
    while that lowers the repeats. Deterministic: the same draw, absences and arrivals give
    the same suggestion.
    """
    low, high = table_bounds(target, smallest, largest)
    table_of = {player: index for index, table in enumerate(draw.tables) for player in table}
    gone = set(absent)
    for player in sorted(gone):
        if player not in table_of:
            raise SeatingError("not_seated", player=player)
    newcomers = sorted(arrived)
    _check_distinct(newcomers)
    for player in newcomers:
        if player in table_of:
            raise SeatingError("already_seated", player=player)
    staying = [[player for player in table if player not in gone] for table in draw.tables]
    player_count = sum(map(len, staying)) + len(newcomers)
    if player_count < low:
        raise SeatingError("too_few_players", low=low, count=player_count)
    count = _rebalanced_table_count(
        [len(table) for table in staying], len(newcomers), target, low, high
    )
    times = _times_lookup(met)
    tables = [table[:] for table in staying[:count]] + [[] for _ in range(count - len(staying))]
    movers: list[tuple[PlayerId, int | None]] = [(player, None) for player in newcomers]
    # The players of the tables that close.
    movers += [
        (player, index) for index in range(count, len(staying)) for player in staying[index]
    ]
    movers += _shed_crowded(tables, high, times)
    destination = _place(movers, tables, low, high, target, times)
    destination = _swap_destinations(movers, destination, tables, met)
    seated = [table[:] for table in tables]
    # Equal lengths by construction: `strict` never fires here.
    for (player, _), index in zip(movers, destination, strict=True):  # pragma: no mutate
        seated[index].append(player)
    final = tuple(tuple(table) for table in seated)
    moves = [
        Move(player, index, None)
        for index, table in enumerate(draw.tables)
        for player in table
        if player in gone
    ]
    joined = sorted(
        (
            Move(player, origin, index, _met_at(player, final[index], times))
            for (player, origin), index in zip(movers, destination, strict=True)
        ),
        key=lambda step: (step.from_table is None, step.from_table or 0, step.to_table or 0),
    )
    return Rebalance(
        Draw(final, draw.seed, count_repeat_meetings(final, met)),
        tuple(moves + joined),
        len(draw.tables),
    )


def _moves_needed(sizes: Sequence[int], free: int, low: int, high: int) -> int:
    """Players present who must change table so that tables of `sizes` fit low..high, when
    `free` players (newcomers, or from closed tables) are to be seated anyway."""
    crowded = sum(max(0, size - high) for size in sizes)
    short = sum(max(0, low - size) for size in sizes)
    return crowded + max(0, short - free - crowded)


def _rebalanced_table_count(
    sizes: Sequence[int], arrivals: int, target: int, low: int, high: int
) -> int:
    """The table count with the fewest moves; then closest to the target; then the current."""
    player_count = sum(sizes) + arrivals
    fewest, most = -(-player_count // high), player_count // low
    if fewest > most:
        raise SeatingError("no_table_split", count=player_count, smallest=low, largest=high)
    current = len(sizes)

    def cost(count: int) -> tuple[int, int, int, int]:
        if count <= current:
            closed = sum(sizes[count:])
            moves = closed + _moves_needed(sizes[:count], arrivals + closed, low, high)
        else:
            moves = _moves_needed([*sizes, *[0] * (count - current)], arrivals, low, high)
        return (moves, abs(player_count - count * target), abs(count - current), count)

    return min(range(fewest, most + 1), key=cost)


def _times_lookup(met: Meetings[PlayerId] | None) -> Callable[[PlayerId, PlayerId], int]:
    if not met:
        return lambda a, b: 0
    return lambda a, b: met.get(frozenset((a, b)), 0)


def _met_at(player: PlayerId, table: Sequence[PlayerId], times: Callable[..., int]) -> int:
    """How many of the table's other players `player` met before."""
    return sum(1 for other in table if other != player and times(player, other))


def _most_met(table: list[PlayerId], times: Callable[..., int]) -> PlayerId:
    """The player who met the most of their table-mates before; the last seated on a tie."""
    return max(reversed(table), key=lambda player: _met_at(player, table, times))


def _shed_crowded(
    tables: list[list[PlayerId]], high: int, times: Callable[..., int]
) -> list[tuple[PlayerId, int | None]]:
    shed: list[tuple[PlayerId, int | None]] = []
    for index, table in enumerate(tables):
        while len(table) > high:
            player = _most_met(table, times)
            table.remove(player)
            shed.append((player, index))
    return shed


def _place(
    movers: list[tuple[PlayerId, int | None]],
    tables: list[list[PlayerId]],
    low: int,
    high: int,
    target: int,
    times: Callable[..., int],
) -> list[int]:
    """Each mover's table (`movers` grows by the players pulled from full tables).

    First the short tables take movers, the pair that adds the fewest repeats first; when
    the movers run out, a player from a table above the smallest joins them (the one adding
    the fewest repeats, from the fullest table, who met the most at their own table). The
    other movers go where they add the fewest repeats, then to the emptiest table below the
    target. Nobody goes back to the table they left.
    """
    sizes = [len(table) for table in tables]
    joining: list[list[PlayerId]] = [[] for _ in tables]
    destination: list[int | None] = [None] * len(movers)

    def repeats(player: PlayerId, index: int) -> int:
        return _met_at(player, tables[index], times) + _met_at(player, joining[index], times)

    def seat(mover: int, index: int) -> None:
        destination[mover] = index
        joining[index].append(movers[mover][0])
        sizes[index] += 1

    def short() -> list[int]:
        return [index for index in range(len(tables)) if sizes[index] < low]

    while short() and None in destination:
        # The pair (mover, short table) that adds the fewest repeats; the first on a tie.
        mover, index = min(
            (
                (mover, index)
                for mover in range(len(movers))
                if destination[mover] is None
                for index in short()
                if index != movers[mover][1]
            ),
            key=lambda pair: (repeats(movers[pair[0]][0], pair[1]), pair[1], pair[0]),
        )
        seat(mover, index)
    while short():
        player, origin, index = min(
            (
                (player, origin, index)
                for origin, table in enumerate(tables)
                if sizes[origin] > low
                for player in table
                for index in short()
            ),
            key=lambda pulled: (
                repeats(pulled[0], pulled[2]),
                -sizes[pulled[1]],
                -_met_at(pulled[0], tables[pulled[1]], times),
                pulled[1],
                -tables[pulled[1]].index(pulled[0]),
                pulled[2],
            ),
        )
        tables[origin].remove(player)
        sizes[origin] -= 1
        movers.append((player, origin))
        destination.append(None)
        seat(len(movers) - 1, index)
    for mover in range(len(movers)):
        if destination[mover] is not None:
            continue
        index = min(
            (
                index
                for index in range(len(tables))
                if sizes[index] < high and index != movers[mover][1]
            ),
            key=lambda index: (
                repeats(movers[mover][0], index),
                sizes[index] >= target,
                sizes[index],
                index,
            ),
        )
        seat(mover, index)
    return [index for index in destination if index is not None]


def _swap_destinations(
    movers: list[tuple[PlayerId, int | None]],
    destination: list[int],
    tables: list[list[PlayerId]],
    met: Meetings[PlayerId] | None,
) -> list[int]:
    """Two movers bound for different tables swap them while that lowers the repeats."""
    destination = destination[:]
    if not met:
        return destination

    def repeats_at(index: int) -> int:
        joined = [
            player for (player, _), to in zip(movers, destination, strict=True) if to == index
        ]
        return count_repeat_meetings([tables[index] + joined], met)

    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(movers)), 2):
            there, here = destination[a], destination[b]
            if there == here or movers[a][1] == here or movers[b][1] == there:
                continue
            before = repeats_at(there) + repeats_at(here)
            destination[a], destination[b] = here, there
            if repeats_at(there) + repeats_at(here) < before:
                improved = True
            else:
                destination[a], destination[b] = there, here
    return destination


def _check_distinct(players: Sequence[PlayerId]) -> None:
    seen: set[PlayerId] = set()
    for player in players:
        if player in seen:
            raise SeatingError("listed_twice", player=player)
        seen.add(player)


def _draw(
    players: Sequence[PlayerId],
    tables: list[list[int]],
    rng: random.Random,
    seed: int,
    met: Meetings[PlayerId] | None,
) -> Draw[PlayerId]:
    seated = []
    for table in tables:
        seats = [players[index] for index in table]
        rng.shuffle(seats)
        seated.append(tuple(seats))
    return Draw(tuple(seated), seed, count_repeat_meetings(seated, met))


def _times_met(players: Sequence[PlayerId], met: Meetings[PlayerId] | None) -> list[list[int]]:
    """met as a matrix over player positions, for fast lookups in the searches."""
    position = {player: index for index, player in enumerate(players)}
    matrix = [[0] * len(players) for _ in players]
    for pair, times in (met or {}).items():
        if len(pair) != 2:
            raise SeatingError("meeting_pair", pair=set(pair))
        if times < 0:
            raise SeatingError("meeting_count", times=times)
        a, b = pair
        if a in position and b in position:
            matrix[position[a]][position[b]] = matrix[position[b]][position[a]] = times
    return matrix


def _repeat_matrix(players: Sequence[PlayerId], met: Meetings[PlayerId]) -> list[list[int]]:
    return [[1 if times else 0 for times in row] for row in _times_met(players, met)]


def _penalty_matrix(
    players: Sequence[PlayerId], met: Meetings[PlayerId] | None
) -> list[list[int]]:
    """What seating a pair together costs: (times met)² × scale + 1, and 0 for a new pair.

    While no pair met more than once this is just the repeat count. Beyond that the square
    spreads unavoidable repeats: a third meeting costs as much as four second ones. Counting
    repeats alone lets one pair sit together at every session of a small tournament (17 players
    over 6 sessions: 32 repeats, one pair 5 or 6 times; this way 33 or 34, no pair more than
    twice). The + 1 breaks ties towards fewer repeats: scale exceeds the pairs a draw can hold.
    """
    scale = 1 + len(players) * (MAX_TABLE - 1) // 2
    return [
        [times * times * scale + 1 if times else 0 for times in row]
        for row in _times_met(players, met)
    ]


def _met_at_club(
    players: Sequence[PlayerId], met: Meetings[PlayerId] | None, clubs: Clubs[PlayerId]
) -> dict[frozenset[PlayerId], int]:
    """`met` with one meeting more for every pair of clubmates among `players`."""
    combined = dict(met or {})
    members: dict[Hashable, list[PlayerId]] = {}
    for player in players:
        club = clubs.get(player)
        if club is not None:
            members.setdefault(club, []).append(player)
    for group in members.values():
        for a, b in combinations(group, 2):
            pair = frozenset((a, b))
            combined[pair] = combined.get(pair, 0) + 1
    return combined


def _club_matrix(
    players: Sequence[PlayerId], penalties: list[list[int]], clubs: Clubs[PlayerId]
) -> list[list[int]]:
    """The penalties with clubmates added below them: a pair's penalty × scale, + 1 for two
    players of one club. The scale exceeds the clubmate pairs a draw can hold, so any repeat
    weighs more than every clubmate together: the search lowers the repeats first."""
    scale = 1 + len(players) * (MAX_TABLE - 1) // 2
    club = [clubs.get(player) for player in players]
    return [
        [
            penalty * scale + (1 if a != b and club[a] is not None and club[a] == club[b] else 0)
            for b, penalty in enumerate(row)
        ]
        for a, row in enumerate(penalties)
    ]


def _swap_adjacent_repeats(tables: list[list[int]], repeats: list[list[int]]) -> list[list[int]]:
    """Greedy swaps between neighbouring tables that lower repeats; each player moves once."""
    tables = [table[:] for table in tables]
    moved: set[int] = set()

    def cost(player: int, table: list[int], leaving: int) -> int:
        return sum(repeats[player][other] for other in table if other != leaving)

    while True:
        best_key: tuple[int, int] | None = None
        # Read only once `best_key` is set, which sets it too: its first value is never used.
        best_swap = (0, 0, 0)  # pragma: no mutate
        for index in range(len(tables) - 1):
            upper, lower = tables[index], tables[index + 1]
            for a in upper:
                for b in lower:
                    if a in moved or b in moved:
                        continue
                    gain = (
                        cost(a, upper, a)
                        + cost(b, lower, b)
                        - cost(a, lower, b)
                        - cost(b, upper, a)
                    )
                    # Players are rank positions, so b - a is how far apart they rank.
                    key = (gain, a - b)
                    if gain > 0 and (best_key is None or key > best_key):
                        best_key, best_swap = key, (index, a, b)
        if best_key is None:
            return tables
        index, a, b = best_swap
        upper, lower = tables[index], tables[index + 1]
        upper[upper.index(a)] = b
        lower[lower.index(b)] = a
        moved.update((a, b))
