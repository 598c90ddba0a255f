"""Seating a session: table sizes and the draw of players to tables. Pure Python, no Django.

Everything going in and out is immutable: a `Draw` holds the tables in order (table 1 first),
each a tuple of players in clockwise seat order (seat 1 first). Draws are reproducible: all
randomness comes from `random.Random(seed)`, and the random draw sorts the players first, so the
order they arrive in (e.g. from a database query) does not matter.

A "repeat meeting" is a pair of players at the same table who already sat together in an earlier
session. It counts once per pair and session, however often the pair met before. The random draw
minimises it, but weighs a pair by how often it met (squared), so that when repeats cannot be
avoided they are spread over many pairs rather than seating one pair together again and again.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Generic, Protocol, TypeVar

MIN_TABLE = 2
MAX_TABLE = 8
# Each attempt tries the best swap for one player with a repeat; the search stops earlier once
# no pair repeats. 2,000 keeps a draw of 130 players well under a tenth of a second.
DEFAULT_ATTEMPTS = 2_000
# A run that found nothing better for this many attempts (or twice the player count) restarts.
_MIN_STALL = 100


class _Sortable(Protocol):
    # Pairs are sets (hashing) and the draw sorts the players (ordering).
    def __hash__(self) -> int: ...
    def __lt__(self, other: Any, /) -> bool: ...


PlayerId = TypeVar("PlayerId", bound=_Sortable)

Meetings = Mapping[frozenset[PlayerId], int]
"""How many times each pair of players sat at the same table before (see `meetings`)."""


@dataclass(frozen=True)
class Draw(Generic[PlayerId]):
    """The tables of one session, table 1 first, each in clockwise seat order."""

    tables: tuple[tuple[PlayerId, ...], ...]
    seed: int
    repeat_meetings: int

    def table_index(self, player: PlayerId) -> int:
        for index, table in enumerate(self.tables):
            if player in table:
                return index
        raise ValueError(f"player {player!r} is not seated in this draw")


def table_sizes(player_count: int, target: int = 4) -> tuple[int, ...]:
    """Split players into tables of 2–8 around `target`, smaller tables first.

    The number of tables is the one closest to player_count / target; on a tie (22 players at 4:
    5 or 6 tables) the fewer, larger tables win, as fewer tables need fewer referees. It is then
    clamped so every table has 2–8 players, and the sizes differ by at most 1. Smaller tables
    come first so that, seated by standings, the leaders' table is never the crowded one.
    """
    if not MIN_TABLE <= target <= MAX_TABLE:
        raise ValueError(f"the target table size must be {MIN_TABLE}–{MAX_TABLE}, got {target}")
    if player_count < MIN_TABLE:
        raise ValueError(
            f"a session needs at least {MIN_TABLE} players to seat, got {player_count}"
        )
    count = _table_count(player_count, target)
    small, larger = divmod(player_count, count)
    return (small,) * (count - larger) + (small + 1,) * larger


def _table_count(player_count: int, target: int) -> int:
    fewest = -(-player_count // MAX_TABLE)
    most = player_count // MIN_TABLE
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


def draw_random(
    players: Sequence[PlayerId],
    met: Meetings[PlayerId] | None,
    seed: int,
    target: int = 4,
    attempts: int = DEFAULT_ATTEMPTS,
) -> Draw[PlayerId]:
    """A random draw with as few repeat meetings as a bounded local search finds.

    It shuffles and cuts the players into `table_sizes`, then swaps players between tables
    (hill climbing that also takes level moves, to wander off plateaus), keeping the best
    seating seen; seat order at each table is shuffled last.
    """
    ordered = sorted(players)
    _check_distinct(ordered)
    sizes = table_sizes(len(ordered), target)
    rng = random.Random(seed)
    tables = _search(sizes, _penalty_matrix(ordered, met), rng, attempts)
    return _draw(ordered, tables, rng, seed, met)


def draw_by_standings(
    players_in_rank_order: Sequence[PlayerId],
    target: int = 4,
    met: Meetings[PlayerId] | None = None,
    *,
    seed: int,
) -> Draw[PlayerId]:
    """Swiss-like: similar ranks together, table 1 the leaders (the first of the ranking).

    With `met`, a light touch lowers repeat meetings: players swap between adjacent tables only
    when the swap lowers the repeats, each player at most once (so nobody moves more than one
    table from their rank's table); the biggest gain first, then the closest ranks.
    """
    ranked = list(players_in_rank_order)
    _check_distinct(ranked)
    sizes = table_sizes(len(ranked), target)
    tables = _cut(list(range(len(ranked))), sizes)
    if met:
        tables = _swap_adjacent_repeats(tables, _repeat_matrix(ranked, met))
    return _draw(ranked, tables, random.Random(seed), seed, met)


def swap(
    draw: Draw[PlayerId], a: PlayerId, b: PlayerId, met: Meetings[PlayerId] | None
) -> Draw[PlayerId]:
    """Players `a` and `b` take each other's seats (a manual adjustment)."""
    if a == b:
        raise ValueError(f"swapping needs two different players, got {a!r} twice")
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
        raise ValueError(
            f"there is no table {to_table_index + 1}; this draw has {len(draw.tables)} tables"
        )
    if to_table_index == source:
        raise ValueError(f"player {player!r} already sits at table {source + 1}")
    if len(draw.tables[source]) - 1 < MIN_TABLE:
        raise ValueError(
            f"moving {player!r} would leave table {source + 1} with fewer than {MIN_TABLE} players"
        )
    if len(draw.tables[to_table_index]) + 1 > MAX_TABLE:
        raise ValueError(
            f"table {to_table_index + 1} already has {MAX_TABLE} players, the most a table seats"
        )
    tables = tuple(
        tuple(seated for seated in table if seated != player)
        + ((player,) if index == to_table_index else ())
        for index, table in enumerate(draw.tables)
    )
    return Draw(tables, draw.seed, count_repeat_meetings(tables, met))


def _check_distinct(players: Sequence[PlayerId]) -> None:
    seen: set[PlayerId] = set()
    for player in players:
        if player in seen:
            raise ValueError(f"player {player!r} is listed twice")
        seen.add(player)


def _cut(order: list[int], sizes: tuple[int, ...]) -> list[list[int]]:
    tables = []
    start = 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


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
            raise ValueError(f"a meeting is between two players, got {set(pair)!r}")
        if times < 0:
            raise ValueError(f"a pair cannot have met {times} times")
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


def _search(
    sizes: tuple[int, ...], weights: list[list[int]], rng: random.Random, attempts: int
) -> list[list[int]]:
    """Local search from random cuts, restarting when one stalls; the best seating found.

    Restarts beat longer runs: a run settles in its local optimum within a few hundred
    attempts, and a fresh shuffle often settles lower.
    """
    stall = max(_MIN_STALL, 2 * len(weights))
    best: tuple[int, list[list[int]]] | None = None
    remaining = attempts
    while best is None or (best[0] and remaining > 0):
        order = list(range(len(weights)))
        rng.shuffle(order)
        cost, tables, used = _improve_by_swaps(_cut(order, sizes), weights, rng, remaining, stall)
        remaining -= used
        if best is None or cost < best[0]:
            best = (cost, tables)
    return best[1]


def _improve_by_swaps(
    tables: list[list[int]],
    weights: list[list[int]],
    rng: random.Random,
    attempts: int,
    stall: int,
) -> tuple[int, list[list[int]], int]:
    """Hill climbing: repeatedly give one player with a repeat their best swap to another table.

    `load[p][t]` is what player p would cost at table t, so a swap is valued in constant time
    and applied in linear time. Level moves are taken too (a random one of the best), which
    lets the search cross plateaus. It stops at cost 0, after `attempts`, or after `stall`
    attempts without a new best; it returns the best cost, its tables and the attempts used.
    """
    count = len(weights)
    table_of = [0] * count
    for index, table in enumerate(tables):
        for player in table:
            table_of[player] = index
    load = [[sum(row[other] for other in table) for table in tables] for row in weights]
    cost = sum(load[player][table_of[player]] for player in range(count)) // 2
    best_cost, best_table_of, best_at = cost, table_of[:], 0
    used = 0
    while best_cost and used < attempts and used - best_at < stall:
        used += 1
        unhappy = [player for player in range(count) if load[player][table_of[player]]]
        a = rng.choice(unhappy)
        here = table_of[a]
        best_delta, candidates = None, []
        for b in range(count):
            there = table_of[b]
            if there == here:
                continue
            delta = (
                load[a][there] + load[b][here] - 2 * weights[a][b] - load[a][here] - load[b][there]
            )
            if best_delta is None or delta < best_delta:
                best_delta, candidates = delta, [b]
            elif delta == best_delta:
                candidates.append(b)
        if best_delta is None or best_delta > 0:
            continue
        b = rng.choice(candidates)
        there = table_of[b]
        for row, player_load in zip(weights, load, strict=True):
            change = row[a] - row[b]
            player_load[here] -= change
            player_load[there] += change
        table_of[a], table_of[b] = there, here
        cost += best_delta
        if cost < best_cost:
            best_cost, best_table_of, best_at = cost, table_of[:], used
    return best_cost, _tables_from(best_table_of, tables), used


def _tables_from(table_of: list[int], tables: list[list[int]]) -> list[list[int]]:
    regrouped: list[list[int]] = [[] for _ in tables]
    for player, index in enumerate(table_of):
        regrouped[index].append(player)
    return regrouped


def _swap_adjacent_repeats(tables: list[list[int]], repeats: list[list[int]]) -> list[list[int]]:
    """Greedy swaps between neighbouring tables that lower repeats; each player moves once."""
    tables = [table[:] for table in tables]
    moved: set[int] = set()

    def cost(player: int, table: list[int], leaving: int) -> int:
        return sum(repeats[player][other] for other in table if other != leaving)

    while True:
        best_key: tuple[int, int] | None = None
        best_swap = (0, 0, 0)
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
