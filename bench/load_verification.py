"""The verification of `bench load` and `bench stack`: is what the site stored what it
acknowledged?

After the load, the database is checked in a child process (`--stage=verify`, DATABASE_URL
pointing at the benchmark's database) against what each referee was told: every game holds
exactly the acknowledged rounds, numbered 1..n, each stored once with the entries sent (a
round sent again after a failed answer is "replayed", never stored twice), its hands' cached
points and totals equal to a fresh recomputation by the engine, the game ended exactly when
the engine says, one audit record a round, and no request answered "not saved" that had in
fact stored its round.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bench import load_clients


def acknowledged(plan: dict, referees: list[load_clients.Referee]) -> dict[str, Any]:
    """What the site acknowledged to each referee, for the verification stage (JSON)."""
    tables = []
    by_id = {table["id"]: table for table in plan["tables"]}
    for referee in referees:
        tables.append(
            {
                "id": referee.table_id,
                "number": by_id[referee.table_id]["number"],
                "planned": len(referee.rounds),
                "acked": [
                    {
                        "number": log.number,
                        "entries": log.entries,
                        "attempts": [
                            [attempt.start, attempt.end, attempt.outcome]
                            for attempt in log.attempts
                        ],
                    }
                    for log in referee.log
                    if log.acked
                ],
                # A round sent but never acknowledged (time ran out) may or may not be
                # stored: the verification accepts it only as the last round.
                "unacked": [log.entries for log in referee.log if not log.acked],
            }
        )
    return {"tables": tables}


def verify(data: dict[str, Any]) -> dict[str, Any]:
    """Compare the database with what the site acknowledged; problems and notes as text."""
    from tournaments.models import GameChange, Hand, Round, Table

    problems: list[str] = []
    notes: list[str] = []
    rounds_total = finished = 0
    for expected in data["tables"]:
        table = Table.objects.select_related("session__tournament", "game").get(pk=expected["id"])
        game = table.game
        rows = game.rows()
        name = f"table {expected['number']}"
        position = {seat.pk: str(seat.position) for seat in rows.seats}
        stored = list(rows.rounds)
        numbers = [r.number for r in stored]
        acked = expected["acked"]
        rounds_total += len(stored)
        if numbers != list(range(1, len(stored) + 1)):
            problems.append(f"{name}: rounds numbered {numbers}, not 1..{len(stored)}")
        extra = len(stored) - len(acked)
        unacked_ok = extra == 1 and expected["unacked"] and len(acked) < expected["planned"]
        if extra and not unacked_ok:
            problems.append(
                f"{name}: {len(stored)} rounds stored, {len(acked)} acknowledged"
                + (" (a round is lost)" if extra < 0 else " (a round too many)")
            )
        elif extra:
            notes.append(f"{name}: the round sent as time ran out was stored")
        sent = [a["entries"] for a in acked] + (expected["unacked"][:1] if unacked_ok else [])
        for round_, entries in zip(stored, sent, strict=False):
            hands = list(round_.hands.all())
            if len(hands) != len(rows.seats):
                problems.append(f"{name} round {round_.number}: {len(hands)} hands, half saved")
                continue
            found = {
                "hands": {position[h.seat_id]: h.hand_total for h in hands},
                "yaniv": position[round_.caller_id] if round_.caller_id else None,
                "empty_hand": position[round_.empty_hand_id] if round_.empty_hand_id else None,
                "along": sorted(position[h.seat_id] for h in hands if h.along),
            }
            if found != entries:
                problems.append(
                    f"{name} round {round_.number}: stored {found}, acknowledged {entries}"
                )
        # The cached numbers against a fresh recomputation by the engine.
        try:
            result = game.score(rows)
        except Exception as error:  # the engine refuses the stored game
            problems.append(f"{name}: the engine refuses the stored rounds: {error}")
            continue
        labels = rows.labels
        for round_, scored in zip(stored, result.rounds, strict=True):
            if round_.kind != scored.kind.value:
                problems.append(f"{name} round {round_.number}: kind {round_.kind}")
            for hand in round_.hands.all():
                label = labels[hand.seat_id]
                cached = (hand.points, hand.reduction, hand.total)
                fresh = (
                    scored.points[label],
                    scored.reductions.get(label, 0),
                    scored.totals[label],
                )
                if cached != fresh:
                    problems.append(
                        f"{name} round {round_.number} seat {position[hand.seat_id]}: "
                        f"cached {cached}, engine {fresh}"
                    )
        ranks = {placing.player: placing.rank for placing in result.ranking}
        for seat in rows.seats:
            label = labels[seat.pk]
            if (seat.total, seat.rank) != (result.totals[label], ranks[label]):
                problems.append(
                    f"{name} seat {seat.position}: total/rank {(seat.total, seat.rank)}, "
                    f"engine {(result.totals[label], ranks[label])}"
                )
        all_sent = len(stored) == expected["planned"]
        if game.finished != result.finished or game.finished != all_sent:
            problems.append(
                f"{name}: finished={game.finished}, engine says {result.finished}, "
                f"{len(stored)} of {expected['planned']} planned rounds stored"
            )
        finished += game.finished
        if game.version != len(stored):
            problems.append(f"{name}: version {game.version} after {len(stored)} rounds")
        logged = Counter(
            number or 0  # every record names its round
            for number in GameChange.objects.filter(
                game=game, action=GameChange.Action.RECORD
            ).values_list("round_number", flat=True)
        )
        if logged != Counter(numbers):
            problems.append(f"{name}: the audit log records rounds {sorted(logged.elements())}")
        # Which request stored each round: one answered "not saved" would have misled.
        for round_, ack in zip(stored, acked, strict=False):
            at = round_.entered_at.timestamp()
            holding = [a for a in ack["attempts"] if a[0] - 0.05 <= at <= a[1] + 0.05]
            if holding and all(a[2] not in load_clients.ACKNOWLEDGED for a in holding):
                notes.append(
                    f"{name} round {round_.number} was stored by a request answered "
                    f"{'/'.join(a[2] for a in holding)}; the retry was then acknowledged"
                )
            elif not holding:
                notes.append(f"{name} round {round_.number}: stored outside every attempt")
    table_ids = [expected["id"] for expected in data["tables"]]
    stray = Round.objects.filter(game__table__session__status="running").exclude(
        game__table__in=table_ids
    )
    if stray.exists():
        problems.append(f"{stray.count()} rounds stored at tables nobody submitted to")
    orphans = Hand.objects.filter(round__game__table__in=table_ids).count()
    if orphans != 4 * rounds_total:
        problems.append(f"{orphans} hands for {rounds_total} rounds of 4 players")
    return {
        "games": len(data["tables"]),
        "rounds": rounds_total,
        "finished": finished,
        "problems": problems,
        "notes": notes,
    }
