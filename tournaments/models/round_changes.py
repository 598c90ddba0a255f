"""What a change of a game's rounds takes, in plain values (`RoundChange`, `TypedOn`), what
it gives back (`Recorded`) and what it refuses with: the exceptions `Game`'s methods raise
and `tournaments.changes` turns into outcomes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple
from uuid import UUID

from django.utils.translation import gettext

from scoring import rules
from tournaments.models.rounds import Round
from tournaments.models.tables import Seat

# How far back a phone's "typed this long ago" may date a round: a day's session, not more.
MAX_TYPED_AGO = timedelta(hours=6)


class RoundConflict(Exception):
    """The round was recorded meanwhile, e.g. by a second device at the table."""

    def __init__(self, existing: Round, entries: rules.Round, attempt: rules.Round) -> None:
        self.existing = existing
        # The stored round's entries, and the ones that were sent for the same number.
        self.entries = entries
        self.attempt = attempt
        who = existing.entered_by.get_username() if existing.entered_by else gettext("someone")
        super().__init__(
            gettext("round %(number)s was just recorded by %(who)s")
            % {"number": existing.number, "who": who}
        )


def same_entries(a: rules.Round, b: rules.Round) -> bool:
    """The same round as entered, whatever order the along players came in."""
    return (
        dict(a.hands) == dict(b.hands)
        and (a.yaniv, a.empty_hand) == (b.yaniv, b.empty_hand)
        and set(a.along) == set(b.along)
        and dict(a.jokers) == dict(b.jokers)
    )


class AlreadyStored(Exception):
    """The round's entries equal those of a round stored since the sheet the phone typed it
    on, by another change than the phone's own: the same round, typed on two phones (docs/
    game-record.md, "One round, two phones"). Never stored again unless the referee says
    it is another round."""

    def __init__(self, existing: Round, entries: rules.Round) -> None:
        self.existing, self.number, self.entries = existing, existing.number, entries
        super().__init__(
            gettext("already stored as round %(number)s (from another phone)")
            % {"number": existing.number}
        )


class AlreadyApplied(Exception):
    """A device sent a change again (same client id): it was applied before, once."""

    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__("this change was already applied")


class SheetChanged(Exception):
    """A correction form was filled in on an older version of the sheet."""

    def __init__(self) -> None:
        super().__init__(
            gettext(
                "the sheet was changed since this form was opened: check the rounds "
                "and enter the correction again"
            )
        )


class TypedOn(NamedTuple):
    """What a phone knew when it typed a change: the version of the stored sheet (`known`),
    its own changes stored since (`mine`), and the referee's word that entries equal to a
    stored round's are another round (`another`)."""

    known: int | None = None
    mine: tuple[UUID, ...] = ()
    another: bool = False


@dataclass(frozen=True)
class RoundChange:
    """A round as a page or a phone sends it, in plain values (the entry form parses them):
    its entries, its number and the device's id for it.

    `base`: the version of the sheet the phone's copy was when it made the change (its
    outbox's sync; a page's form has none). `typed_ago`: how long ago the phone recorded it
    (sent after a network loss): the round is entered then, so that a round typed before the
    session's time limit counts as played before it (at most `MAX_TYPED_AGO` back; the phone
    measures the delay itself, so its own clock being off does not matter). `late_reason`: a
    director adds a round a phone still held when the game ended at the time limit.
    """

    entries: rules.Round
    number: int
    client_id: UUID | None = None
    base: int | None = None
    typed_on: TypedOn = TypedOn()
    typed_ago: timedelta | None = None
    late_reason: str = ""


class Recorded(NamedTuple):
    """A recorded round: as stored, the seats as the write left them (locked, with their
    new totals: the answer's sheet reads no seats), and whether this change stored it or
    found it stored already (the same entries under its number, typed on another phone)."""

    round: Round
    seats: list[Seat]
    anew: bool
