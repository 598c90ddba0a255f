"""Every model of the site, one module an aggregate.

`people` (clubs, players) ← `tournaments` (tournament, registrations, sessions, tables,
seats) ← `checkin` (the door) and `games` (a table's game, its rounds and hands, the audit
log) ← `adjustments` (penalty and bonus points) ← `substitutions` (a seat changing hands, two
seats swapped); `hall` (the venue's
screens) ← `seasons` (tournaments ranked together) and `ratings` (the skill rating, a row per
player per rated game); `downloads` (heavy files rendered by a task) ← `tournaments`: each
module imports only those before it.
"""

from __future__ import annotations

from tournaments.models.accounts import AccountOrigin
from tournaments.models.adjustments import Adjustment, AdjustmentChange
from tournaments.models.agreement import TooManyDisputes
from tournaments.models.checkin import Door, EntryRequest
from tournaments.models.confirmations import Confirmation, Dispute
from tournaments.models.games import Game
from tournaments.models.people import Club, MergeRefused, Player, PlayerMerge
from tournaments.models.registrations import Registration
from tournaments.models.round_changes import (
    AlreadyApplied,
    AlreadyStored,
    Recorded,
    RoundChange,
    RoundConflict,
    SheetChanged,
    TypedOn,
    same_entries,
)
from tournaments.models.rounds import GameChange, Hand, Round
from tournaments.models.seats import GameRows
from tournaments.models.sessions import Session
from tournaments.models.substitutions import Substitution
from tournaments.models.tables import Seat, SessionClockEvent, Table, TableCode
from tournaments.models.tournaments import FALSE_YANIV_LABELS, PRESET_LABELS, Tournament

__all__ = [
    "AccountOrigin",
    "Adjustment",
    "AdjustmentChange",
    "Door",
    "EntryRequest",
    "Confirmation",
    "Dispute",
    "TableCode",
    "AlreadyApplied",
    "AlreadyStored",
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
    "Recorded",
    "RoundChange",
    "RoundConflict",
    "Seat",
    "Session",
    "SessionClockEvent",
    "SheetChanged",
    "Substitution",
    "TooManyDisputes",
    "TypedOn",
    "Table",
    "Tournament",
    "same_entries",
]
