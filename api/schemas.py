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


class FinalRules(Schema):
    """How the tournament ends: a final of its best qualified players."""

    players: int = Field(description="How many players the final seats (the qualifying top).")
    tables: int = Field(
        description="1: one final table; 2: the A final (table 1, the first places) and the "
        "B final (table 2, the next)."
    )
    carry_over: Literal["none", "placement", "totals"] = Field(
        description="What a finalist brings from the qualifying sessions, which orders each "
        "final table: none, the final game alone (high placement points first); placement, "
        "the qualifying placement points plus the final game's (high first); totals, the "
        "qualifying sum of final game totals plus the final game's total (low first)."
    )


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
    session_count: int = Field(
        description="How many qualifying sessions the tournament plans (a final comes after)."
    )
    final: FinalRules | None = Field(description="The tournament's final; null: none.")
    page: str = Field(description="The tournament's public page on this site.")


class SessionOut(Schema):
    number: int
    stage: Literal["qualifying", "final"] = Field(
        description="qualifying: its games make the qualifying standings; final: the final "
        "(after every qualifying session)."
    )
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


class TurnOut(Schema):
    """Who played a seat that changed hands (a substitute), in turn."""

    player: PlayerRef
    first_round: int
    last_round: int | None = Field(description="null: on to the end of the game.")


class SeatOut(Schema):
    position: int = Field(description="1..n, clockwise.")
    player: PlayerRef = Field(description="Who sits there now (a substitute once one came).")
    label: str = Field(description='The name the game record uses: "Name (seat n)" if shared.')
    total: int = Field(description="The rounds' total (the engine's, what the rules play on).")
    game_points_given: int = Field(
        default=0,
        description="Penalties less bonuses a director gave the seat, in game points: they "
        "count in the game's result, never in its play.",
    )
    result_total: int = Field(description="`total` with `game_points_given`: what ranks it.")
    rank: int | None = Field(description="The rank at the table once a round is played.")
    played_by: list[TurnOut] = Field(
        default_factory=list, description="A seat that changed hands: who played which rounds."
    )


class AdjustmentOut(Schema):
    """Penalty or bonus points in force, with their reason."""

    player: PlayerRef
    kind: Literal["penalty", "bonus"]
    unit: Literal["game", "placement"] = Field(
        description="game: the seat's total in the game's result; placement: the standings."
    )
    points: float
    reason: Literal["late", "conduct", "slow_play", "ruling", "other"]
    text: str


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
    adjustments: list[AdjustmentOut] = Field(
        default_factory=list, description="Penalty and bonus points given at this table."
    )


class NoteOut(Schema):
    """A mark beside a player in the standings, and its reason."""

    kind: Literal["penalty", "bonus", "substitute"]
    text: str = Field(description="In the language asked for (Accept-Language).")


# --- standings -----------------------------------------------------------------------------


class FinalResultOut(Schema):
    """A finalist's final game, and what ranks them within their final table."""

    rank: int = Field(description="Their rank at the final table.")
    total: int = Field(description="Their final game total.")
    points: float = Field(description="The final game's placement points.")
    carried_over: float | None = Field(
        description="What the carry-over brought into the final: the qualifying placement "
        "points (placement) or sum of final game totals (totals); null without carry-over."
    )
    score: float = Field(
        description="What orders the final table: `carried_over` plus the final game's "
        "points (or total, with totals: low first)."
    )


class StandingOut(Schema):
    place: int = Field(
        description="The place in these standings; in the official standings of a tournament "
        "with a final, the official place: the finalists first."
    )
    player: PlayerRef
    stage: Literal["qualifying", "final"] = Field(
        description="final: ranked by the final (the finalists, once every final game is "
        "over), table by table; qualifying: ranked by the qualifying games."
    )
    final_table: int | None = Field(
        description="The finalist's table: 1 (the final, or the A final), 2 (the B final); "
        "null for the others."
    )
    final: FinalResultOut | None = Field(
        description="The finalist's final game and score; null for the others, and for "
        "everyone until every final game is over."
    )
    qualifying_place: int | None = Field(
        description="In the official standings: the place in the qualifying standings (the "
        "overall standings without a final); null in a session's standings."
    )
    points: float = Field(
        description="Placement points, in halves, of these standings' games (in the official "
        "standings: the qualifying games)."
    )
    games: int
    wins: int
    total_sum: int = Field(description="The sum of final game totals (low is better).")
    opponents_points: float = Field(description="The table-mates' placement points.")
    provisional: bool = Field(description="A game counted is not signed off yet: it may change.")
    withdrawn: bool = Field(
        description="The player withdrew: their games count, they are drawn no more."
    )
    points_given: float = Field(
        default=0.0,
        description="Placement points a director gave (bonuses less penalties), in `points`.",
    )
    notes: list[NoteOut] = Field(
        default_factory=list,
        description="Penalty and bonus points in force, games where a seat changed hands.",
    )


class StandingsFinal(FinalRules):
    """The tournament's final, as far as it went."""

    session: int | None = Field(description="The final's session; null until it is drawn.")
    played: bool = Field(
        description="Every final game is over: the official order is the final's. Until then "
        "everyone keeps their qualifying place."
    )


class StandingsOut(Schema):
    tournament: str
    session: int | None = Field(description="The session, or null for the official standings.")
    official: bool = Field(
        description="true: the tournament's official standings, as its standings page, CSV "
        "and hall rank the players (with a final: the final's order first, then everyone "
        "else in qualifying order); false: one session's games alone (the final's session: "
        "the final game alone, not the official order)."
    )
    stage: Literal["qualifying", "final"] | None = Field(
        description="The session's stage; null for the official standings."
    )
    final: StandingsFinal | None = Field(description="The tournament's final; null: none.")
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


# --- statistics (issue 38.5) -----------------------------------------------------------------


class StatisticsOut(Schema):
    """A player's Yaniv figures over some games, from the hands as recorded."""

    games: int
    rounds: int
    calls: int = Field(description="Yaniv calls, false ones included.")
    held: int = Field(description="Valid calls nobody caught: the caller scored nothing.")
    caught: int = Field(description="Calls a player going along matched or beat.")
    assafs: int = Field(description="Calls caught by an automatic Assaf (another hand as low).")
    false_yanivs: int = Field(description="Calls above the Yaniv limit.")
    call_hands: int = Field(description="The hands at the calls, added up.")
    along: int = Field(description="Times the player went along with a valid call.")
    along_won: int = Field(description="…with the same or fewer points: caught the caller.")
    along_lost: int
    empty_hands: int = Field(description="Rounds the player ended by emptying their hand.")
    waiting_rounds: int = Field(description="Rounds another player ended.")
    waiting_hands: int = Field(description="The player's hands in those rounds, added up.")
    average_hand: float | None = Field(
        description="The average hand when not calling (waiting_hands / waiting_rounds)."
    )
    average_call: float | None = Field(description="The average hand at a call.")
    hand_bins: list[int] = Field(
        description="The hands when not calling by fives: 0–4, 5–9, …, 40–44, 45 and above."
    )
    reductions: int = Field(description="Totals landing on 50, 100, 150 (the rules') and reduced.")
    reduced: int = Field(description="The points the reductions took off.")
    longest_run: int = Field(description="The most rounds in a row, in one game, without points.")


class TournamentStatisticsOut(Schema):
    slug: str
    name: str
    starts_on: datetime.date
    statistics: StatisticsOut


class SeasonStatisticsOut(Schema):
    slug: str
    name: str
    tournaments: int = Field(description="The season's tournaments the player played.")
    statistics: StatisticsOut


class PlayerStatisticsOut(PlayerRef):
    statistics: StatisticsOut = Field(description="Every public tournament's rounds together.")
    seasons: list[SeasonStatisticsOut] = Field(description="The public seasons, by name.")
    tournaments: list[TournamentStatisticsOut] = Field(description="The latest first.")


class TournamentPlayerStatistics(Schema):
    player: PlayerRef
    statistics: StatisticsOut


class FactPlayer(Schema):
    id: int
    name: str


class FactOut(Schema):
    code: Literal[
        "most_yanivs",
        "best_catcher",
        "most_reductions",
        "longest_run",
        "best_comeback",
        "lowest_hand",
        "longest_game",
    ]
    value: float = Field(
        description="Calls held, callers caught, reductions, rounds in a row, points behind "
        "(the comeback), the average hand (lowest_hand) or rounds (longest_game)."
    )
    players: list[FactPlayer] = Field(description="Who, alphabetical (players level share it).")
    session: int | None = Field(description="The game's session, for a fact of one game.")
    table: int | None
    round: int | None = Field(description="The comeback's deepest round.")


class FactsOut(Schema):
    tournament: str
    page: str = Field(description="The tournament's page on this site, which tells them too.")
    facts: list[FactOut]
