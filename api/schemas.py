"""The shapes the API answers with, as its OpenAPI description states them.

A game is its game record (docs/game-record.md), written by the one writer of records,
`scoring.records.game_to_record`, as the tournament's JSON archive writes it; these types
only describe it. Points of the standings are half points: 2.5 is exact as a JSON number.
"""

from __future__ import annotations

import datetime
from typing import Any, Literal, NotRequired

from ninja import Field, Schema

# pydantic reads TypedDicts of typing_extensions only, before Python 3.12.
from typing_extensions import TypedDict

# --- game records (docs/game-record.md) -------------------------------------------------------


class RoundRecord(TypedDict):
    """One round as the referee entered it: hands, and who called or emptied their hand."""

    hands: dict[str, int]
    yaniv: NotRequired[str]
    along: NotRequired[list[str]]
    empty_hand: NotRequired[str]


class GameRecord(TypedDict):
    """A game as docs/game-record.md describes it: scores are the engine's, from the rounds."""

    ruleset: str
    options: NotRequired[dict[str, Any]]
    players: list[str]
    rounds: list[RoundRecord]


# --- people ----------------------------------------------------------------------------------


class PlayerRef(Schema):
    id: int
    name: str
    club: str | None = Field(description="The player's club, if any.")


# --- tournaments -----------------------------------------------------------------------------


class Ruleset(Schema):
    preset: str = Field(description="belgian, israeli, wikipedia_en or wikipedia_fr")
    options: dict[str, Any] = Field(description="Rule options on top of the preset.")


class TournamentOut(Schema):
    slug: str
    name: str
    starts_on: datetime.date
    ends_on: datetime.date | None
    venue: str
    club: str | None = Field(description="The organising club, if any.")
    status: Literal["running", "finished"]
    ruleset: Ruleset
    table_size: int = Field(description="The table size the seating draw aims at.")
    session_count: int = Field(description="How many sessions the tournament plans.")
    page: str = Field(description="The tournament's public page on this site.")


class SessionOut(Schema):
    number: int
    status: Literal["planned", "running", "finished"]
    tables: int
    finished_games: int


class TournamentDetail(TournamentOut):
    sessions: list[SessionOut]


class SeatOut(Schema):
    position: int = Field(description="1..n, clockwise.")
    player: PlayerRef
    label: str = Field(description='The name the game record uses: "Name (seat n)" if shared.')
    total: int
    rank: int | None = Field(description="The rank at the table once a round is played.")


class GameOut(Schema):
    finished: bool
    ended_at_time_limit: bool
    provisional: bool = Field(
        description="Finished but not signed off (or agreed to) yet: it may still change."
    )
    rounds: int
    record: GameRecord


class TableOut(Schema):
    session: int
    number: int
    seats: list[SeatOut]
    game: GameOut


# --- standings -----------------------------------------------------------------------------


class StandingOut(Schema):
    place: int
    player: PlayerRef
    points: float = Field(description="Placement points, in halves.")
    games: int
    wins: int
    total_sum: int = Field(description="The sum of final game totals (low is better).")
    opponents_points: float = Field(description="The table-mates' placement points.")
    provisional: bool


class StandingsOut(Schema):
    tournament: str
    session: int | None = Field(description="The session, or null for the overall standings.")
    count: int
    limit: int
    offset: int
    items: list[StandingOut]


# --- players ---------------------------------------------------------------------------------


class PlayerGame(Schema):
    session: int
    table: int
    seat: int
    total: int
    rank: int | None
    finished: bool
    provisional: bool


class PlayerTournament(Schema):
    slug: str
    name: str
    starts_on: datetime.date
    status: Literal["running", "finished"]
    games: list[PlayerGame]


class PlayerDetail(PlayerRef):
    tournaments: list[PlayerTournament]
