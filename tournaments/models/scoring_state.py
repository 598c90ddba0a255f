"""What the write path caches of the engine's numbers per hand, and the state the next round's
scoring needs beyond the seats' cached totals (issue 37's streak rules).

A round is scored from the seats' totals (`Game._append`), not by rescoring the game; a
win-streak bonus or an Assaf streak's reset also needs every player's wins in a row and
Assafs so far. Under a ruleset without streak rules that costs nothing; with them one query
reads the stored rounds' entries, and the engine's own `rules.next_streaks` replays them.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from operator import itemgetter
from typing import Any

from scoring import rules
from tournaments.models.rounds import Hand

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
