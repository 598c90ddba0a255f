"""The archive file's shape (`printing.archive`), as pydantic models.

The whole file is checked against these before anything is written: every key of every object,
its type and its bounds, and the defaults of files written before a key existed (a final, the
session clock, players who come and go). What needs the site or the engine to decide (a slug
taken, a player the file does not list, a record the engine refuses, a final without the
tournament's) stays with the importer.

A refusal names the place and says why in the import's words: "sessions[2], tables[1],
seats[3]: position must be an integer 1-8". Each scalar's rule is a validator of its own
(`_integer`, `_text`, …) so that its message is the archive's own sentence, not pydantic's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError
from pydantic_core import PydanticCustomError

from scoring import rules
from scoring.finals import CarryOver
from tournaments.clock import MAX_MINUTES, AtTimeLimit
from tournaments.models import (
    Adjustment,
    AdjustmentChange,
    Door,
    EntryRequest,
    GameChange,
    Session,
    SessionClockEvent,
    Tournament,
)
from tournaments.models.registrations import CheckInWay


class Refused(Exception):
    """The file does not have the archive's shape: where and why, in one sentence."""


def _refuse(message: str) -> PydanticCustomError:
    return PydanticCustomError("archive", message)


def _whole(minimum: int = 0, maximum: int | None = None) -> Callable[[object], int]:
    def check(value: object) -> int:
        if type(value) is not int or value < minimum or (maximum is not None and value > maximum):
            top = f"-{maximum}" if maximum is not None else " or more"
            raise _refuse(f"must be an integer {minimum}{top}")
        return value

    return check


def _integer(minimum: int = 0, maximum: int | None = None) -> BeforeValidator:
    return BeforeValidator(_whole(minimum, maximum))


def _text(max_length: int, *, blank: bool = True) -> BeforeValidator:
    def check(value: object) -> str:
        if not isinstance(value, str) or len(value) > max_length or (not blank and not value):
            empty = "" if blank else "non-empty "
            raise _refuse(f"must be a {empty}text of at most {max_length} characters")
        return value

    return BeforeValidator(check)


def _choice(choices: Sequence[str]) -> BeforeValidator:
    def check(value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise _refuse(f"must be one of {', '.join(choices)}")
        return value

    return BeforeValidator(check)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise _refuse("must be true or false")
    return value


def _day(value: object) -> date:
    parsed = parse_date(value) if isinstance(value, str) else None
    if parsed is None:
        raise _refuse("must be a date (YYYY-MM-DD)")
    return parsed


def _moment(value: object) -> datetime:
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None or timezone.is_naive(parsed):
        raise _refuse("must be a date and time with its UTC offset (ISO 8601)")
    return parsed


def _optional(check: Callable[[Any], Any]) -> BeforeValidator:
    """`check`, or None for null."""
    return BeforeValidator(lambda value: None if value is None else check(value))


def _list(value: object) -> object:
    if not isinstance(value, list):
        raise _refuse("must be a list")
    return value


def _record_or_null(value: object) -> object:
    if value is not None and not isinstance(value, dict):
        raise _refuse("must be a round record or null")
    return value


Flag = Annotated[bool, BeforeValidator(_flag)]
Day = Annotated[date, BeforeValidator(_day)]
Moment = Annotated[datetime, BeforeValidator(_moment)]
OptionalDay = Annotated[date | None, _optional(_day)]
OptionalMoment = Annotated[datetime | None, _optional(_moment)]
Minutes = Annotated[int, _integer(maximum=MAX_MINUTES)]
# A username, or null: checked against the user model when it is read (`_Users.named`).
Username = Any


class _Object(BaseModel):
    """A JSON object of the file: keys it does not know are ignored (a newer site's)."""

    model_config = ConfigDict(extra="ignore")


class ClubFile(_Object):
    name: Annotated[str, _text(120, blank=False)]
    city: Annotated[str, _text(120)] = ""


class PlayerFile(_Object):
    id: Annotated[int, _integer(minimum=1)]
    name: Annotated[str, _text(120, blank=False)]
    club: str | None = None
    member_number: Annotated[str, _text(40)]


class RegistrationFile(_Object):
    # A player id, checked against the file's players by the importer.
    player: Any = None
    checked_in: Flag
    withdrawn_at: OptionalMoment = None
    withdrawn_by: Username = None
    withdrawal_reason: Annotated[str, _text(200)] = ""
    registered_at: OptionalMoment = None
    # Files from before check-in at the door: when and how are not known.
    checked_in_at: OptionalMoment = None
    checked_in_how: Annotated[str, _choice(["", *CheckInWay.values])] = ""


class SubstitutionFile(_Object):
    """A substitute at a seat: the players are ids of the file's players."""

    player_out: Any = None
    player_in: Any = None
    from_round: Annotated[int, _integer(minimum=2, maximum=32767)]
    reason: Annotated[str, _text(200)] = ""
    by: Username = None
    at: Moment


class SeatFile(_Object):
    position: Annotated[int, _integer(minimum=1, maximum=8)]
    # The player sitting there at the end (a substitute once one came).
    player: Any = None
    substitutes: Annotated[list[SubstitutionFile], BeforeValidator(_list)] = []


class RoundEnteredFile(_Object):
    by: Username = None
    at: Moment


class ChangeFile(_Object):
    action: Annotated[str, _choice(GameChange.Action.values)]
    round: Annotated[int | None, _optional(_whole(minimum=1))] = None
    user: Username = None
    at: Moment
    before: Annotated[dict[str, Any] | None, BeforeValidator(_record_or_null)] = None
    after: Annotated[dict[str, Any] | None, BeforeValidator(_record_or_null)] = None
    reason: Annotated[str, _text(10_000)]
    version: Annotated[int, _integer()]


class GameFile(_Object):
    # The game record (docs/game-record.md): the engine reads it (`game_from_record`).
    record: Any
    rounds_entered: Annotated[list[RoundEnteredFile], BeforeValidator(_list)] = []
    changes: Annotated[list[ChangeFile], BeforeValidator(_list)] = []
    ended_at_time_limit: Flag
    finished: Flag
    finished_at: OptionalMoment = None
    signed_off_at: OptionalMoment = None
    signed_off_by: Username = None
    version: Annotated[int, _integer()]


class TableFile(_Object):
    number: Annotated[int, _integer(minimum=1)]
    referee: Username = None
    clock_extension: Minutes = 0
    seats: Annotated[list[SeatFile], BeforeValidator(_list)] = []
    game: GameFile


class ClockEventFile(_Object):
    table: Annotated[int | None, _optional(_whole(minimum=1))] = None
    action: Annotated[str, _choice(SessionClockEvent.Action.values)]
    minutes: Annotated[int | None, _optional(_whole(maximum=MAX_MINUTES))] = None
    games: Annotated[int | None, _optional(_whole(maximum=32767))] = None
    by: Username = None
    at: Moment
    reason: Annotated[str, _text(500)] = ""


class SessionFile(_Object):
    number: Annotated[int, _integer(minimum=1)]
    # Files from before the final: every session qualifies.
    stage: Annotated[str, _choice(Session.Stage.values)] = Session.Stage.QUALIFYING
    status: Annotated[str, _choice(Session.Status.values)]
    seating: Annotated[str, _choice(Session.Seating.values)]
    seed: Annotated[int | None, _optional(_whole(minimum=-(2**63), maximum=2**63 - 1))] = None
    repeat_meetings: Annotated[int, _integer()]
    # Files from before the session clock have none: no limit, no clock.
    time_limit: Annotated[int | None, _optional(_whole(minimum=1, maximum=MAX_MINUTES))] = None
    clock_started_at: OptionalMoment = None
    clock_paused_at: OptionalMoment = None
    clock_paused_seconds: Annotated[int, _integer()] = 0
    clock_extension: Minutes = 0
    tables: Annotated[list[TableFile], BeforeValidator(_list)] = []
    clock_events: Annotated[list[ClockEventFile], BeforeValidator(_list)] = []


def _points(value: object) -> Decimal:
    """Penalty or bonus points: a number above 0, to the half (the model checks the rest)."""
    if type(value) not in (int, float) or not 0 < value <= 1000:  # type: ignore[operator]
        raise _refuse("must be a number above 0 and at most 1000")
    points = Decimal(str(value))
    if points * 2 != int(points * 2):
        raise _refuse("must be a whole or half number")
    return points


class AdjustmentChangeFile(_Object):
    action: Annotated[str, _choice(AdjustmentChange.Action.values)]
    before: Annotated[dict[str, Any] | None, BeforeValidator(_record_or_null)] = None
    after: Annotated[dict[str, Any] | None, BeforeValidator(_record_or_null)] = None
    why: Annotated[str, _text(200)] = ""
    by: Username = None
    at: Moment


class AdjustmentFile(_Object):
    """Penalty or bonus points; `session`, `table` and `seat` (its position) name the game's
    seat they were given at, or are null (placement points in the standings)."""

    player: Any = None
    session: Annotated[int | None, _optional(_whole(minimum=1))] = None
    table: Annotated[int | None, _optional(_whole(minimum=1))] = None
    seat: Annotated[int | None, _optional(_whole(minimum=1, maximum=8))] = None
    kind: Annotated[str, _choice(Adjustment.Kind.values)]
    unit: Annotated[str, _choice(Adjustment.Unit.values)]
    points: Annotated[Decimal, BeforeValidator(_points)]
    reason: Annotated[str, _choice(Adjustment.Reason.values)]
    text: Annotated[str, _text(200)] = ""
    given_by: Username = None
    given_at: Moment
    removed_at: OptionalMoment = None
    removed_by: Username = None
    removal_reason: Annotated[str, _text(200)] = ""
    changes: Annotated[list[AdjustmentChangeFile], BeforeValidator(_list)] = []


class EntryRequestFile(_Object):
    """A registration sent at the door; an accepted one names its player (a file's id)."""

    name: Annotated[str, _text(200, blank=False)]
    club: Annotated[str, _text(200)] = ""
    member_number: Annotated[str, _text(40)] = ""
    status: Annotated[str, _choice(EntryRequest.Status.values)]
    note: Annotated[str, _text(300)] = ""
    created_at: Moment
    answered_at: OptionalMoment = None
    answered_by: Username = None
    player: Any = None


class DoorFile(_Object):
    """Check-in at the door: its settings (a site gives it a short address of its own)."""

    is_open: Flag = False
    safeguard: Annotated[str, _choice(Door.Safeguard.values)] = Door.Safeguard.NONE
    entries: Annotated[str, _choice(Door.Entries.values)] = Door.Entries.CLOSED
    capacity: Annotated[int | None, _optional(_whole(minimum=1, maximum=32767))] = None
    requests: Annotated[list[EntryRequestFile], BeforeValidator(_list)] = []


class TournamentFile(_Object):
    slug: Annotated[str, _text(80, blank=False)]
    name: Annotated[str, _text(200, blank=False)]
    starts_on: Day
    ends_on: OptionalDay = None
    venue: Annotated[str, _text(200)]
    club: str | None = None
    status: Annotated[str, _choice(Tournament.Status.values)]
    is_public: Flag
    table_size: Annotated[int, _integer()]
    session_count: Annotated[int, _integer()]
    # Files from before players could come and go have neither: the defaults.
    small_tables: Flag = False
    ranking: Annotated[str, _choice(Tournament.Ranking.values)] = Tournament.Ranking.TOTAL
    preset: Annotated[str, _choice(list(rules.RULESETS))] = rules.BELGIAN.name
    # The engine's options on top of the preset: the engine checks them (`with_options`).
    options: Any = {}
    # Files from before the final have none: no final.
    final_players: Annotated[int, _integer(maximum=16)] = 0
    final_tables: Annotated[int, _integer(minimum=1, maximum=2)] = 1
    final_carry_over: Annotated[str, _choice([carry.value for carry in CarryOver])] = (
        CarryOver.NONE.value
    )
    # Files from before the session clock: the round being played is the last.
    at_time_limit: Annotated[str, _choice(AtTimeLimit.values)] = AtTimeLimit.FINISH_ROUND
    directors: Annotated[list[Username], BeforeValidator(_list)] = []
    # Files from before substitutes: a seat that changed hands counts for who began the game.
    substitute_credit: Annotated[str, _choice(Tournament.SubstituteCredit.values)] = (
        Tournament.SubstituteCredit.ORIGINAL
    )


class ArchiveFile(_Object):
    tournament: TournamentFile
    clubs: Annotated[list[ClubFile], BeforeValidator(_list)] = []
    players: Annotated[list[PlayerFile], BeforeValidator(_list)] = []
    registrations: Annotated[list[RegistrationFile], BeforeValidator(_list)] = []
    sessions: Annotated[list[SessionFile], BeforeValidator(_list)] = []
    # Files from before penalty points and check-in at the door have neither.
    adjustments: Annotated[list[AdjustmentFile], BeforeValidator(_list)] = []
    door: DoorFile | None = None


def _place(location: Sequence[int | str]) -> tuple[str, str]:
    """Where an error is, as the import names it: ("sessions[2], tables[1]", "number")."""
    parts: list[str] = []
    key = ""
    for index, part in enumerate(location):
        if isinstance(part, int):
            parts[-1] = f"{parts[-1]}[{part + 1}]"
        elif index == len(location) - 1:
            key = part
        else:
            parts.append(part)
    return (", ".join(parts) or "file"), key


def _refusal(error: Any) -> str:
    where, key = _place(error["loc"])
    kind = error["type"]
    if kind == "missing":
        why = "is missing"
    elif kind in ("model_type", "model_attributes_type", "dict_type"):
        why = "must be a JSON object"
    else:
        why = str(error["msg"])
    # An error of a whole object (not a JSON object) names the object alone.
    return f"{where}: {key} {why}" if key else f"{where}: {why}"


def read(data: object) -> ArchiveFile:
    """The file as the models read it; `Refused` naming the first place that is wrong."""
    try:
        return ArchiveFile.model_validate(data)
    except ValidationError as error:
        raise Refused(_refusal(error.errors(include_url=False)[0])) from None
