"""What the write path caches of the engine's numbers per hand, the state the next round's
scoring needs beyond the seats' cached totals (issue 37's streak rules), and a player joining
the game before a round (issue 37's `joins`: a seat at the end of the table).

A round is scored from the seats' totals (`Game._append`), not by rescoring the game; a
win-streak bonus or an Assaf streak's reset also needs every player's wins in a row and
Assafs so far. Under a ruleset without streak rules that costs nothing; with them one query
reads the stored rounds' entries, and the engine's own `rules.next_streaks` replays them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby
from operator import itemgetter
from typing import Any

from scoring import rules
from scoring.errors import GameError
from scoring.records import join_start_text
from tournaments.models.people import Player
from tournaments.models.rounds import Hand, Round
from tournaments.models.seats import GameRows
from tournaments.models.tables import Seat

# The hand's columns the engine's result fills in (`scored_hand`); a rescore updates them.
SCORED_FIELDS = ("points", "reduction", "total", "bonus", "reset")


def scored_hand(scored: rules.RoundResult, label: str) -> dict[str, Any]:
    """The engine's numbers for one player's hand in a scored round, as `Hand` stores them."""
    return {
        "points": scored.points[label],
        "reduction": scored.reductions.get(label, 0),
        "total": scored.totals[label],
        "bonus": scored.bonuses.get(label, 0),
        "reset": label in scored.resets,
    }


_COLUMNS = (
    "round__number",
    "round__kind",
    "round__caller_id",
    "round__empty_hand_id",
    "seat_id",
    "hand_total",
    "along",
    "jokers",
)


def streaks_before(
    game_id: int, labels: Mapping[int, str], ruleset: rules.Ruleset
) -> dict[str, rules.Streak] | None:
    """Every player's wins in a row and Assafs after the game's stored rounds, as
    `rules.score_round` takes them for the next round (`labels`: seat id → the engine's name).
    None, and no query, under a ruleset without streak rules."""
    if not ruleset.streak_bonus:
        return None
    streaks: dict[str, rules.Streak] = {}
    rows = (
        Hand.objects.filter(round__game_id=game_id)
        .order_by("round__number", "seat__position")
        .values_list(*_COLUMNS)
    )
    for (_, kind, caller_id, empty_hand_id), hands in groupby(rows, key=itemgetter(0, 1, 2, 3)):
        entries = _entries(list(hands), labels, caller_id, empty_hand_id)
        counted = rules.counted_round(entries, ruleset)
        streaks = rules.next_streaks(tuple(entries.hands), streaks, counted, rules.RoundKind(kind))
    return streaks


def _entries(
    hands: list[tuple[Any, ...]],
    labels: Mapping[int, str],
    caller_id: int | None,
    empty_hand_id: int | None,
) -> rules.Round:
    """A stored round's entries from its hands' rows (`_COLUMNS`)."""
    return rules.Round(
        hands={labels[seat_id]: hand for *_, seat_id, hand, _, _ in hands},
        yaniv=labels[caller_id] if caller_id else None,
        empty_hand=labels[empty_hand_id] if empty_hand_id else None,
        along=tuple(labels[seat_id] for *_, seat_id, _, along, _ in hands if along),
        jokers={labels[seat_id]: jokers for *_, seat_id, _, _, jokers in hands if jokers},
    )


# --- a player joining -------------------------------------------------------------------------


def seat_joiner(game: Any, seats: list[Seat], entries: rules.Round, number: int) -> None:
    """Seat the player joining before round `number` at the end of the table, clockwise (the
    new seat is appended to `seats`, the locked seats of the round's write): a player of the
    tournament by that name who plays at no table of the session, else a new player. The
    engine then checks the join as any other (`rules.check_join`); refused, nothing stays."""
    join = entries.joins
    if join is None:
        return
    ruleset = game.ruleset
    if len(seats) >= ruleset.max_players:
        raise GameError("join_full", "joins", round_number=number, high=ruleset.max_players)
    name = join.name
    taken = {seat.player.name for seat in seats}
    if not isinstance(name, str) or not name.strip() or name in taken or len(name) > 120:
        raise GameError("join_name", "joins", round_number=number)
    session_id = game.table.session_id
    player = (
        Player.objects.filter(
            name=name,
            registrations__tournament_id=game.table.session.tournament_id,
            registrations__withdrawn_at__isnull=True,
        )
        .exclude(seats__table__session_id=session_id)
        .order_by("pk")
        .first()
    ) or Player.objects.create(name=name)
    position = max((seat.position for seat in seats), default=0) + 1
    seat = Seat.objects.create(table_id=game.table_id, position=position, player=player)
    seats.append(seat)


def starting_labels(players: Sequence[str], rounds: Sequence[rules.Round]) -> tuple[str, ...]:
    """The players a game of these rounds began with: the seated ones but those who join
    through a round's `joins` (a whole game stored at once, an import)."""
    joining = {entries.joins.name for entries in rounds if entries.joins is not None}
    return tuple(player for player in players if player not in joining)


def join_fields(entries: rules.Round, by_label: Mapping[str, Seat]) -> dict[str, Any]:
    """The round's columns for a player joining before it (none without)."""
    if entries.joins is None:
        return {}
    return {
        "joined": by_label[entries.joins.name],
        "join_start": join_start_text(entries.joins.start),
    }


def unseat_joiner(rows: GameRows, undone: Round) -> GameRows:
    """After the round a player joined before is undone: their seat goes too (it has no hand
    left); the rows without it."""
    if not undone.joined_id:
        return rows
    Seat.objects.filter(pk=undone.joined_id).delete()
    return GameRows(tuple(seat for seat in rows.seats if seat.pk != undone.joined_id), rows.rounds)
