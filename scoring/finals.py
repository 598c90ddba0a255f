"""A tournament's final: who plays it, how they are seated, and the final standings.

After the qualifying sessions, the top `size` players of the standings play one or two final
tables, seated by standings: with two tables, the best half at table 1 (the A final, for the
first places) and the next at table 2 (the B final). The final standings put table 1's
players first, then table 2's, then everyone else in their qualifying order. Within a final
table the order depends on the carry-over the tournament chose:

- none: the final game alone (its rank at the table; a shared rank is broken by the
  qualifying place, else shared);
- placement: the qualifying placement points plus the final game's placement points;
- totals: the sum of final game totals of the qualifying games plus the final game's total,
  lowest first (the qualifying standings' third criterion, carried on).

Pure Python: frozen values in and out, the rules in small functions named after them.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.errors import FinalError
from scoring.standings import Standing, placement_points

MIN_TABLE, MAX_TABLE = 2, 8


class CarryOver(enum.StrEnum):
    NONE = "none"
    PLACEMENT = "placement"
    TOTALS = "totals"


@dataclass(frozen=True)
class FinalResult:
    """A finalist's seat in a finished (or ended) final game."""

    player: Hashable
    table: int  # 1: the A final, 2: the B final
    rank: int
    total: int
    table_size: int
    tied: int  # how many at the table share this rank


@dataclass(frozen=True)
class FinalStanding:
    place: int
    player: Hashable
    # "final" (table 1 or 2) or "qualifying"
    stage: str
    final_table: int | None
    # What ordered the player within their group: the final's score with the carry-over
    # (points: high first; totals: low first), or the qualifying standing's points.
    score: Fraction | int
    qualifying: Standing | None
    final: FinalResult | None
    provisional: bool


def table_sizes_of_final(size: int, tables: int) -> tuple[int, ...]:
    """The final's tables, best first: the first table takes the larger half."""
    if tables not in (1, 2) or not tables * MIN_TABLE <= size <= tables * MAX_TABLE:
        raise FinalError(
            "final_size", tables=tables, low=tables * MIN_TABLE, high=tables * MAX_TABLE, size=size
        )
    first = -(-size // tables)
    return (first,) if tables == 1 else (first, size - first)


def finalists(
    qualifying: Sequence[Standing],
    size: int,
    tables: int,
    label: Callable[[Hashable], str] = str,
) -> tuple[tuple[Hashable, ...], ...]:
    """The players of each final table, best first, from the qualifying standings.

    A place shared across the cut cannot be split fairly: the director widens the final (if
    the tables still hold it) or seats it by hand; `label` names the players in that message.
    """
    sizes = table_sizes_of_final(size, tables)
    if len(qualifying) < size:
        raise FinalError("too_few_qualified", count=len(qualifying), size=size)
    ordered = sorted(qualifying, key=lambda standing: standing.place)
    if len(ordered) > size and ordered[size].place == ordered[size - 1].place:
        shared = [s for s in ordered if s.place == ordered[size - 1].place]
        wider = max(index for index, s in enumerate(ordered, start=1) if s in shared)
        raise FinalError(
            "tie_at_the_cut",
            players=", ".join(label(s.player) for s in shared),
            place=ordered[size - 1].place,
            wider=wider,
        )
    chosen = [standing.player for standing in ordered[:size]]
    return (
        (tuple(chosen),)
        if len(sizes) == 1
        else (tuple(chosen[: sizes[0]]), tuple(chosen[sizes[0] :]))
    )


def carried_over(qualifying: Standing | None, carry: CarryOver) -> Fraction | int | None:
    """What the carry-over brings into the final from the qualifying standing: its placement
    points, its sum of final game totals, or nothing (None)."""
    if carry is CarryOver.TOTALS:
        return qualifying.total_sum if qualifying else 0
    if carry is CarryOver.PLACEMENT:
        return qualifying.points if qualifying else Fraction(0)
    return None


def carried_score(
    result: FinalResult, qualifying: Standing | None, carry: CarryOver
) -> Fraction | int:
    """The number a finalist is ranked by within their final table (see the module)."""
    brought = carried_over(qualifying, carry) or 0
    if carry is CarryOver.TOTALS:
        return brought + result.total
    return brought + placement_points(result.rank, result.tied, result.table_size)


def final_results(
    seats: Iterable[tuple[Hashable, Hashable, int, int, int]],
) -> list[FinalResult]:
    """The seats of the finished final games, (player, table, table number, rank, total), as
    the final ranks them: each with its table's size and how many there share its rank."""
    seats = list(seats)
    at_table: dict[Hashable, list[int]] = {}
    for _, table, _, rank, _ in seats:
        at_table.setdefault(table, []).append(rank)
    return [
        FinalResult(
            player=player,
            table=number,
            rank=rank,
            total=total,
            table_size=len(at_table[table]),
            tied=at_table[table].count(rank),
        )
        for player, table, number, rank, total in seats
    ]


def final_standings(
    qualifying: Sequence[Standing],
    results: Sequence[FinalResult],
    carry: CarryOver,
    *,
    finished: bool,
) -> list[FinalStanding]:
    """Table 1's finalists, then table 2's, then the rest in qualifying order.

    While the final is not `finished`, its players keep their qualifying places, marked
    provisional: a final half played says nothing yet.
    """
    by_player = {standing.player: standing for standing in qualifying}
    if not finished or not results:
        return [
            FinalStanding(s.place, s.player, "qualifying", None, s.points, s, None, s.provisional)
            for s in sorted(qualifying, key=lambda standing: standing.place)
        ]

    def order(result: FinalResult) -> tuple[object, ...]:
        score = carried_score(result, by_player.get(result.player), carry)
        ahead = score if carry is CarryOver.TOTALS else -score
        # Still equal: the better qualifying place first, else shared.
        standing = by_player.get(result.player)
        return (result.table, ahead, standing.place if standing else math.inf)

    placed: list[FinalStanding] = []
    # The first finalist always differs from `previous` and sets `place`: their starting
    # values are never read.
    previous: tuple[object, ...] | None = None  # pragma: no mutate
    place = 0  # pragma: no mutate
    in_final = set()
    for index, result in enumerate(sorted(results, key=order), start=1):
        key = order(result)
        if key != previous:
            place, previous = index, key
        standing = by_player.get(result.player)
        in_final.add(result.player)
        placed.append(
            FinalStanding(
                place=place,
                player=result.player,
                stage="final",
                final_table=result.table,
                score=carried_score(result, standing, carry),
                qualifying=standing,
                final=result,
                provisional=bool(standing and standing.provisional),
            )
        )
    # The others keep their qualifying order, after every finalist.
    offset = len(placed)
    rest = [s for s in sorted(qualifying, key=lambda s: s.place) if s.player not in in_final]
    previous_place: int | None = None  # pragma: no mutate (no place equals it: never read)
    for index, standing in enumerate(rest, start=offset + 1):
        if standing.place != previous_place:
            place, previous_place = index, standing.place
        placed.append(
            FinalStanding(
                place=place,
                player=standing.player,
                stage="qualifying",
                final_table=None,
                score=standing.points,
                qualifying=standing,
                final=None,
                provisional=standing.provisional,
            )
        )
    return placed
