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


class TournamentSeasonOut(Schema):
    slug: str
    name: str
    coefficient: float = Field(description="The tournament's season points are multiplied by it.")
    page: str = Field(description="The season's standings page on this site.")


class TournamentDetail(TournamentOut):
    sessions: list[SessionOut]
    seasons: list[TournamentSeasonOut] = Field(
        description="The public seasons that count the tournament, the newest first."
    )


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


# --- ratings ---------------------------------------------------------------------------------


class RatingOut(Schema):
    """A player's rating as their public page shows it: from their rated games of the public
    tournaments, after the last of them; none before the minimum of games."""

    games: int = Field(description="The player's rated games in the public tournaments.")
    minimum: int = Field(description="How many rated games a rating needs to show.")
    provisional: bool = Field(description="Fewer games than the minimum: no rating yet.")
    rating: float | None = Field(
        description="The rating the site shows, μ − 3σ; null while provisional."
    )
    mu: float | None = Field(description="The skill estimate μ; null while provisional.")
    sigma: float | None = Field(description="Its uncertainty σ; null while provisional.")


class RatedPlayer(Schema):
    """A line of the rating list."""

    player: PlayerRef
    rating: float = Field(description="μ − 3σ, as the player's page shows it.")
    mu: float
    sigma: float
    games: int = Field(description="The player's rated games in the public tournaments.")


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


class PlayerOut(PlayerRef):
    rating: RatingOut


class PlayerDetail(PlayerOut):
    tournaments: list[PlayerTournament]


# --- seasons ---------------------------------------------------------------------------------


class SeasonRules(Schema):
    scheme: Literal["placement", "table"] = Field(
        description="placement: N − place + 1 among the N players a tournament ranked; "
        "table: the points of `points_table` for the place."
    )
    points_table: list[int] = Field(
        description="Season points for place 1, 2, … (beyond it 0); empty with placement points."
    )
    best_of: int | None = Field(
        description="How many of a player's best results count; null: every result."
    )


class SeasonOut(Schema):
    slug: str
    name: str
    description: str
    club: str | None = Field(description="The organising club, if any.")
    rules: SeasonRules
    tournament_count: int = Field(description="How many public tournaments the season counts.")
    page: str = Field(description="The season's standings page on this site.")


class SeasonTournamentOut(Schema):
    slug: str
    name: str
    starts_on: datetime.date
    status: Literal["running", "finished"]
    coefficient: float = Field(description="Its season points are multiplied by it.")
    page: str


class SeasonStandingOut(Schema):
    place: int
    player: PlayerRef
    points: float = Field(description="The season points of the results counted.")
    results: int = Field(description="The player's results: tournaments with a final place.")
    results_counted: int = Field(description="The results counted (the best N).")
    provisional: bool = Field(description="A counted result may still change.")


class SeasonStandings(Schema):
    count: int = Field(description="How many players the standings hold.")
    limit: int
    offset: int
    items: list[SeasonStandingOut]


class SeasonDetail(SeasonOut):
    tournaments: list[SeasonTournamentOut] = Field(
        description="The public tournaments it counts, in the order they were played."
    )
    standings: SeasonStandings
