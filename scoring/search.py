"""The local search of the random draw: players (by position) cut into tables of given sizes,
then improved by swaps between tables against a matrix of what seating each pair together
costs (`scoring.seating` makes the matrices: repeat meetings, clubmates). Pure Python.
"""

from __future__ import annotations

import random

# A run that found nothing better for this many attempts (or twice the player count) restarts.
_MIN_STALL = 100


def cut(order: list[int], sizes: tuple[int, ...]) -> list[list[int]]:
    tables = []
    start = 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def search(
    sizes: tuple[int, ...],
    weights: list[list[int]],
    rng: random.Random,
    attempts: int,
    start: list[list[int]] | None = None,
) -> list[list[int]]:
    """Local search from random cuts (the first from `start` when given), restarting when one
    stalls; the best seating found, never worse than `start`.

    Restarts beat longer runs: a run settles in its local optimum within a few hundred
    attempts, and a fresh shuffle often settles lower.
    """
    stall = max(_MIN_STALL, 2 * len(weights))
    best: tuple[int, list[list[int]]] | None = None
    remaining = attempts
    while best is None or (best[0] and remaining > 0):
        if start is not None and best is None:
            first = [table[:] for table in start]
        else:
            order = list(range(len(weights)))
            rng.shuffle(order)
            first = cut(order, sizes)
        cost, tables, used = _improve_by_swaps(first, weights, rng, remaining, stall)
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
