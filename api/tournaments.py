"""Tournaments, their sessions, tables with their games as game records, and standings.

Each operation finds its tournament among the listed ones (`api.listed`, 404 otherwise),
asks for the version the public pages poll by, answers 304 when the client has that
version, and only then reads what it shows: a constant number of queries whatever the
number of sessions, tables, rounds or players.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from django.db.models import Count, Q
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.translation import gettext
from ninja import Field, Query, Router
from ninja.params import P, PathEx

from api import listed
from api.http import ERRORS, MAX_OFFSET, Page, Paging, Tagged, page, paged, tagged, window
from api.schemas import SessionOut, StandingsOut, TableOut, TournamentDetail, TournamentOut
from scoring import finals
from scoring.finals import CarryOver
from scoring.records import game_to_record
from scoring.standings import Standing, placement_points
from seasons.models import Season, SeasonTournament
from tournaments import caching
from tournaments.models import Adjustment, Club, Game, Player, Session, Tournament
from tournaments.models.substitutions import played_rounds
from tournaments.models.tournaments import StandingPlayer
from tournaments.notes import standings_notes
from tournaments.sheets import GameSheet

router = Router(tags=["tournaments"])

Slug = PathEx[
    str, P(pattern=r"^[-a-zA-Z0-9_]+$", max_length=80, description="The tournament's address.")
]
SessionNumber = PathEx[int, P(ge=1, le=32767, description="The session's number, from 1.")]
TableNumber = PathEx[int, P(ge=1, le=32767, description="The table's number, from 1.")]


class TablePaging(Paging):
    """Tables come with their whole games: smaller pages."""

    limit: int = Field(10, ge=1, le=20, description="How many tables, at most 20.")
    offset: int = Field(0, ge=0, le=MAX_OFFSET, description="How many tables to skip.")


class StandingsPaging(Paging):
    """The standings are computed whole: larger pages."""

    limit: int = Field(100, ge=1, le=500, description="How many rows, at most 500.")
    offset: int = Field(0, ge=0, le=MAX_OFFSET, description="How many rows to skip.")


# --- what a tournament is, as the API writes it --------------------------------------------


def tournament_out(tournament: Tournament) -> dict[str, Any]:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "starts_on": tournament.starts_on,
        "ends_on": tournament.ends_on,
        "venue": tournament.venue,
        "club": tournament.club.name if tournament.club else None,
        "status": tournament.status,
        "ruleset": {"preset": tournament.preset, "options": tournament.options},
        "table_size": tournament.table_size,
        "session_count": tournament.session_count,
        "final": _final_rules(tournament),
        "page": reverse("public:tournament", args=[tournament.slug]),
    }


def _final_rules(tournament: Tournament) -> dict[str, Any] | None:
    if not tournament.has_final:
        return None
    return {
        "players": tournament.final_players,
        "tables": tournament.final_tables,
        "carry_over": tournament.final_carry_over,
    }


def _shown(tournament: Tournament) -> tuple[object, ...]:
    """What a tournament's answers show of the tournament itself (no version counts it)."""
    return (caching.stamp(tournament), tournament.club.name if tournament.club else None)


def _sessions(tournament: Tournament) -> Any:
    return tournament.sessions.annotate(
        table_count=Count("tables", distinct=True),
        finished_count=Count("tables", filter=Q(tables__game__finished=True), distinct=True),
    ).order_by("number")


def _session_out(session: Session) -> dict[str, Any]:
    return {
        "number": session.number,
        "stage": session.stage,
        "status": session.status,
        "tables": session.table_count,  # type: ignore[attr-defined]
        "finished_games": session.finished_count,  # type: ignore[attr-defined]
    }


def _player(player: Player | StandingPlayer) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club.name if player.club else None,
    }


# --- tournaments ---------------------------------------------------------------------------


@router.get(
    "/tournaments",
    response={200: Page[TournamentOut], **ERRORS},
    summary="The public tournaments, latest first",
)
@tagged
def tournament_list(
    request: HttpRequest,
    paging: Query[Paging],
    status: Literal["running", "finished"] | None = None,
) -> Tagged:
    tournaments = Tournament.objects.listed().select_related("club")
    if status is not None:
        tournaments = tournaments.filter(status=status)
    return paged(
        tournaments.order_by("-starts_on", "name", "pk"),
        paging,
        shown=lambda rows: (_shown(t) for t in rows),
        out=lambda rows: [tournament_out(t) for t in rows],
    )


@router.get(
    "/tournaments/{slug}",
    response={200: TournamentDetail, **ERRORS},
    summary="A tournament and its sessions",
)
@tagged
def tournament_detail(request: HttpRequest, slug: Slug) -> Tagged:
    tournament = listed.tournament(slug)
    # A season counting it moves no version of the tournament's: its rows are in the ETag.
    seasons = _seasons_of(tournament)

    def body() -> dict[str, Any]:
        return {
            **tournament_out(tournament),
            "sessions": [_session_out(session) for session in _sessions(tournament)],
            "seasons": [
                {
                    "slug": season,
                    "name": name,
                    "coefficient": float(coefficient),
                    "page": reverse("public:season", args=[season]),
                }
                for season, name, coefficient in seasons
            ],
        }

    return Tagged((tournament.live_version(), *_shown(tournament), seasons), body)


def _seasons_of(tournament: Tournament) -> list[tuple[str, str, Decimal]]:
    """The listed seasons counting the tournament, the newest first: slug, name and its
    coefficient there (one query)."""
    return list(
        SeasonTournament.objects.filter(tournament=tournament, season__in=Season.objects.listed())
        .order_by("-season__created_at", "season__name")
        .values_list("season__slug", "season__name", "coefficient")
    )


@router.get(
    "/tournaments/{slug}/sessions",
    response={200: Page[SessionOut], **ERRORS},
    summary="A tournament's sessions",
)
@tagged
def session_list(request: HttpRequest, slug: Slug, paging: Query[Paging]) -> Tagged:
    tournament = listed.tournament(slug)
    return Tagged(
        (tournament.live_version(),),
        lambda: page(
            [_session_out(session) for session in window(_sessions(tournament), paging)],
            tournament.sessions.count(),
            paging,
        ),
    )


# --- tables and their games ------------------------------------------------------------------


def _tables_out(session: Session, games: list[Game]) -> list[Any]:
    """The tables of these games, each game as its record (four queries for them all)."""
    for game in games:
        # Every game is of this session's tournament: its rule set is asked of it once.
        game.table.session = session
    sheets = GameSheet.load_many(games)
    clubs = dict(
        Club.objects.filter(
            pk__in={seat.player.club_id for sheet in sheets for seat in sheet.seats}
        ).values_list("pk", "name")
    )
    tournament = session.tournament
    seats = [seat for sheet in sheets for seat in sheet.seats]
    turns = played_rounds(seats) if tournament.has_substitutes else {}
    given: dict[int, list[Any]] = {}
    if tournament.has_adjustments:
        for adjustment in Adjustment.objects.filter(
            seat__in=seats, removed_at__isnull=True
        ).select_related("player__club", "seat"):
            table_id = adjustment.seat.table_id if adjustment.seat else 0
            given.setdefault(table_id, []).append(_adjustment_out(adjustment))
    return [
        {
            "session": session.number,
            "number": sheet.game.table.number,
            "seats": [
                {
                    "position": seat.position,
                    "player": {
                        "id": seat.player_id,
                        "name": seat.player.name,
                        "club": clubs.get(seat.player.club_id or 0),
                    },
                    "label": label,
                    "total": seat.total,
                    "game_points_given": seat.adjustment,
                    "result_total": seat.adjusted_total,
                    "rank": seat.rank,
                    "played_by": [
                        {"player": _ref(player), "first_round": first, "last_round": last}
                        for player, first, last in turns.get(seat.pk, [])
                    ],
                }
                for seat, label in zip(sheet.seats, sheet.players, strict=True)
            ],
            "adjustments": given.get(sheet.game.table_id, []),
            "game": {
                "finished": sheet.game.finished,
                "ended_at_time_limit": sheet.game.ended_at_time_limit,
                "provisional": sheet.game.finished and sheet.game.signed_off_at is None,
                "rounds": sheet.round_count,
                # The one writer of game records, as the JSON archive writes them.
                "record": game_to_record(sheet.engine_game()),
            },
        }
        for sheet in sheets
    ]


def _ref(player: Any) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club.name if player.club_id else None,
    }


def _adjustment_out(adjustment: Adjustment) -> dict[str, Any]:
    return {
        "player": _ref(adjustment.player),
        "kind": adjustment.kind,
        "unit": adjustment.unit,
        "points": float(adjustment.points),
        "reason": adjustment.reason,
        "text": adjustment.text,
    }


def _games(session: Session) -> Any:
    return (
        Game.objects.filter(table__session=session)
        .select_related("table")
        .order_by("table__number")
    )


@router.get(
    "/tournaments/{slug}/sessions/{number}/tables",
    response={200: Page[TableOut], **ERRORS},
    summary="A session's tables, each with its game as a game record",
)
@tagged
def table_list(
    request: HttpRequest, slug: Slug, number: SessionNumber, paging: Query[TablePaging]
) -> Tagged:
    tournament = listed.tournament(slug)
    session = listed.session(tournament, number)
    return Tagged(
        (tournament.live_version(), *_shown(tournament)),
        lambda: page(
            _tables_out(session, list(window(_games(session), paging))),
            session.tables.count(),
            paging,
        ),
    )


@router.get(
    "/tournaments/{slug}/sessions/{number}/tables/{table}",
    response={200: TableOut, **ERRORS},
    summary="One table with its game as a game record",
)
@tagged
def table_detail(
    request: HttpRequest, slug: Slug, number: SessionNumber, table: TableNumber
) -> Tagged:
    tournament = listed.tournament(slug)
    session = listed.session(tournament, number)

    def body() -> Any:
        games = list(_games(session).filter(table__number=table))
        if not games:
            raise Http404(gettext("No such table."))
        return _tables_out(session, games)[0]

    return Tagged((tournament.live_version(), *_shown(tournament)), body)


# --- standings -------------------------------------------------------------------------------


def _numbers(
    standing: Standing | None, player: StandingPlayer, notes: Any = None
) -> dict[str, Any]:
    """A standing's numbers (none: a finalist with no qualifying game) and the player, with
    the marks' reasons (`notes`: tournaments.notes, by player)."""
    return {
        "points_given": float(standing.adjustment) if standing else 0.0,
        "notes": [
            {"kind": note.kind, "text": note.text} for note in (notes or {}).get(player.pk, [])
        ],
        "player": _player(player),
        "points": float(standing.points) if standing else 0.0,
        "games": standing.games if standing else 0,
        "wins": standing.wins if standing else 0,
        "total_sum": standing.total_sum if standing else 0,
        "opponents_points": float(standing.opponents_points) if standing else 0.0,
        "withdrawn": bool(player.withdrawn),
    }


def _official_line(
    row: finals.FinalStanding, player: StandingPlayer, carry: CarryOver, notes: Any
) -> dict[str, Any]:
    """A line of the official standings: its place, stage and final, then the numbers of
    the player's qualifying standing."""
    standing, result = row.qualifying, row.final
    final = None
    if result is not None:
        final = {
            "rank": result.rank,
            "total": result.total,
            "points": float(placement_points(result.rank, result.tied, result.table_size)),
            "carried_over": _number(finals.carried_over(standing, carry)),
            "score": float(row.score),
        }
    return {
        **_numbers(standing, player, notes),
        "place": row.place,
        "stage": row.stage,
        "final_table": row.final_table,
        "final": final,
        "qualifying_place": standing.place if standing else None,
        "provisional": bool(row.provisional),
    }


def _session_line(
    standing: Standing, player: StandingPlayer, stage: str, notes: Any
) -> dict[str, Any]:
    """A line of one session's standings: its games alone."""
    return {
        **_numbers(standing, player, notes),
        "place": standing.place,
        "stage": stage,
        "final_table": None,
        "final": None,
        "qualifying_place": None,
        "provisional": bool(standing.provisional),
    }


def _number(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


def _final_of(tournament: Tournament) -> dict[str, Any] | None:
    """The tournament's final as far as it went (two queries with a final, none without)."""
    rules = _final_rules(tournament)
    if rules is None:
        return None
    final = tournament.final_session()
    finished = (
        list(Game.objects.filter(table__session=final).values_list("finished", flat=True))
        if final
        else []
    )
    # As `Tournament.final_standings` has it: the final decides once every game is over.
    return {**rules, "session": final.number if final else None, "played": all(finished or [0])}


def _standings(tournament: Tournament, session: Session | None, paging: Paging) -> Tagged:
    # The standings move only when a game finishes or a finished game changes (or a session
    # is drawn: the final's opening); the final's rules are the tournament's own (`_shown`).
    version = tournament.live_version(finished_games_only=True)
    return Tagged(
        (version, *_shown(tournament)), lambda: _standings_out(tournament, session, paging)
    )


def _standings_out(tournament: Tournament, session: Session | None, paging: Paging) -> Any:
    notes = standings_notes(tournament, session)
    if session is None:
        carry = CarryOver(tournament.final_carry_over)
        # The official standings: the site's one computation of them.
        official = tournament.official_standings()
        rows = [
            _official_line(row, player, carry, notes) for row, player in window(official, paging)
        ]
        count = len(official)
    else:
        ranking = tournament.standings(session)
        rows = [
            _session_line(standing, player, session.stage, notes)
            for standing, player in window(ranking, paging)
        ]
        count = len(ranking)
    return {
        "tournament": tournament.slug,
        "session": session.number if session else None,
        "official": session is None,
        "stage": session.stage if session else None,
        "final": _final_of(tournament),
        **page(rows, count, paging),
    }


@router.get(
    "/tournaments/{slug}/standings",
    response={200: StandingsOut, **ERRORS},
    summary="The official standings: with a final, the final's order first",
    description="The tournament's standings as its standings page, CSV and hall rank the "
    "players. With a final, once every final game is over, its players come first (table 1, "
    "then table 2, each ordered by its carry-over), then everyone else in qualifying order; "
    "until then the qualifying order. Withdrawn players keep their place, marked.",
)
@tagged
def standings(request: HttpRequest, slug: Slug, paging: Query[StandingsPaging]) -> Tagged:
    return _standings(listed.tournament(slug), None, paging)


@router.get(
    "/tournaments/{slug}/sessions/{number}/standings",
    response={200: StandingsOut, **ERRORS},
    summary="The standings of one session's games alone",
    description="This session's games alone, not the official order (`official` false). For "
    "the final's session (`stage` final): the final game alone; the official standings rank "
    "the finalists by the final with its carry-over.",
)
@tagged
def session_standings(
    request: HttpRequest, slug: Slug, number: SessionNumber, paging: Query[StandingsPaging]
) -> Tagged:
    tournament = listed.tournament(slug)
    return _standings(tournament, listed.session(tournament, number), paging)
