"""Every model of the site, one module an aggregate.

`people` (clubs, players) ← `tournaments` (tournament, registrations, sessions, tables,
seats) ← `games` (a table's game, its rounds and hands, the audit log) and `hall` (the venue's
screens) ← `seasons` (tournaments ranked together) and `ratings` (the skill rating, a row per
player per rated game); `downloads` (heavy files rendered by a task) ← `tournaments`: each
module imports only those before it.
"""

from __future__ import annotations

from tournaments.models.games import (
    AlreadyApplied,
    Confirmation,
    Dispute,
    Game,
    GameChange,
    GameRows,
    Hand,
    Round,
    RoundConflict,
    SheetChanged,
    TooManyDisputes,
    same_entries,
)
from tournaments.models.people import Club, MergeRefused, Player, PlayerMerge
from tournaments.models.tournaments import (
    FALSE_YANIV_LABELS,
    PRESET_LABELS,
    AccountOrigin,
    Registration,
    Seat,
    Session,
    SessionClockEvent,
    Table,
    TableCode,
    Tournament,
)

__all__ = [
    "AccountOrigin",
    "Confirmation",
    "Dispute",
    "TableCode",
    "AlreadyApplied",
    "FALSE_YANIV_LABELS",
    "PRESET_LABELS",
    "Club",
    "Game",
    "GameChange",
    "GameRows",
    "Hand",
    "MergeRefused",
    "Player",
    "PlayerMerge",
    "Registration",
    "Round",
    "RoundConflict",
    "Seat",
    "Session",
    "SessionClockEvent",
    "SheetChanged",
    "TooManyDisputes",
    "Table",
    "Tournament",
    "same_entries",
]
