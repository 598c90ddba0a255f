"""One route for a change of a game's sheet: a round recorded, corrected or undone, from the
entry form of a page or a phone's outbox, as plain values in, an `Outcome` out.

The game's methods (`Game.record`, `correct_round`, `undo_last_round`) own the change and
its invariants, each one transaction under the game's lock; they refuse by raising. Here
every refusal becomes the outcome the people at the table are told about, in one place; the
views turn it into HTML (the table page) or JSON (the phone's sync) and parse nothing under
the lock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from uuid import UUID

from scoring import rules
from scoring.errors import GameError
from tournaments.models import (
    AlreadyApplied,
    AlreadyStored,
    Dispute,
    Game,
    Recorded,
    RoundChange,
    RoundConflict,
    Seat,
    SheetChanged,
    TypedOn,
)


class Status(StrEnum):
    """What became of a change (the phone's sync answers with these words)."""

    # Written by this change.
    STORED = "stored"
    # The same round was stored already under its number (typed on another phone too).
    SAME = "same"
    # The phone's change was applied before (its client id): sent again, applied once.
    REPLAYED = "replayed"
    # Another round is stored under its number: the referee chooses.
    CONFLICT = "conflict"
    # Equal to a round stored since under another number: that round, not stored again.
    ALREADY = "already"
    # Made on an older version of the sheet than the stored one (a correction, an undo).
    STALE = "stale"
    # Not a change the rules allow now (the game is over, say): nothing written.
    REFUSED = "refused"


@dataclass(frozen=True)
class Outcome:
    """A change's outcome: its status and the game's version after it; the round recorded
    (and its seats, as the write left them), the round in the way of a conflict, or why
    the rules refused it."""

    status: Status
    version: int
    recorded: Recorded | None = None
    refused: RoundConflict | AlreadyStored | None = None
    error: GameError | SheetChanged | None = None

    @property
    def saved(self) -> bool:
        """The change is on the sheet, by this request or before it."""
        return self.status in (Status.STORED, Status.SAME, Status.REPLAYED)

    @property
    def seats(self) -> list[Seat]:
        return self.recorded.seats if self.recorded else []

    @property
    def why(self) -> Exception:
        """Why nothing was stored (`errors.sentence` words it)."""
        why = self.refused or self.error
        if why is None:
            raise ValueError(f"a change {self.status} was not refused")
        return why


def record(game: Game, change: RoundChange, *, by: Any) -> Outcome:
    """Record the next round (`Game.record`)."""
    return _outcome_of(game, lambda: game.record(change, by=by))


def correct(
    game: Game,
    number: int,
    entries: rules.Round,
    *,
    by: Any,
    reason: str,
    version: int,
    client_id: UUID | None = None,
    typed_on: TypedOn | None = None,
    dispute: Dispute | None = None,
) -> Outcome:
    """Replace round `number`'s entries (`Game.correct_round`). `typed_on`: what the phone
    knew of the sheet; None for a form, or the referee's word that it is another round."""
    known, mine = (None, ()) if typed_on is None or typed_on.another else typed_on[:2]
    return _outcome_of(
        game,
        lambda: game.correct_round(
            number,
            entries,
            by=by,
            reason=reason,
            version=version,
            client_id=client_id,
            dispute=dispute,
            known=known,
            mine=mine,
        ),
    )


def undo(
    game: Game, *, by: Any, reason: str, version: int, client_id: UUID | None = None
) -> Outcome:
    """Take the last round back (`Game.undo_last_round`)."""
    return _outcome_of(
        game,
        lambda: game.undo_last_round(by=by, reason=reason, version=version, client_id=client_id),
    )


def _outcome_of(game: Game, change: Callable[[], Recorded | None]) -> Outcome:
    """Run a change of `game`; what it refused, as an outcome. A change that stored nothing
    answers with the version stored now (another request's change may be among it)."""
    try:
        recorded = change()
    except AlreadyApplied:
        return _as_stored_now(game, Status.REPLAYED)
    except SheetChanged as changed:
        return _as_stored_now(game, Status.STALE, error=changed)
    except RoundConflict as conflict:
        return _as_stored_now(game, Status.CONFLICT, refused=conflict)
    except AlreadyStored as already:
        return _as_stored_now(game, Status.ALREADY, refused=already)
    except GameError as error:
        return Outcome(Status.REFUSED, game.version, error=error)
    # A round found stored already (the same entries from another phone) is SAME.
    status = Status.SAME if recorded is not None and not recorded.anew else Status.STORED
    return Outcome(status, game.version, recorded=recorded)


def _as_stored_now(game: Game, status: Status, **refusal: Any) -> Outcome:
    game.refresh_from_db(fields=["version", "round_count"])
    return Outcome(status, game.version, **refusal)
