"""What a hall screen shows now: one read of the tournament for the projector's views.

The views, in the order a screen cycles through them: the director's message, the seating of
the next session (every player → table and seat, alphabetical, the moved ones marked), the
tables of the sessions being played (rounds, leader, finished, signed off), the standings and,
between sessions, the facts of the finished games (`tournaments.statistics`). A view with
nothing to show is left out of the cycle.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count

from hall.models import HallScreen
from tournaments.models import Door, Seat, Session, Table, Tournament
from tournaments.notes import Note, standings_notes
from tournaments.statistics import ShownFact, tournament_facts


@dataclass(frozen=True)
class SeatingLine:
    name: str
    club: str
    table: int
    seat: int
    moved: bool


@dataclass(frozen=True)
class TableLine:
    session: int
    number: int
    rounds: int
    # The lowest total among the players still in, or the winners of a finished game.
    leaders: tuple[str, ...]
    leading_total: int | None
    finished: bool
    signed_off: bool
    ended_at_time_limit: bool


@dataclass(frozen=True)
class Board:
    tournament: Tournament
    screen: HallScreen
    seating_session: Session | None
    seating: tuple[SeatingLine, ...]
    moved: int
    table_sessions: tuple[Session, ...]
    tables: tuple[TableLine, ...]
    standings: tuple[tuple[Any, Any], ...]
    # With a final: the final standings (its players first), shown instead; until every
    # game of the final is over they are the qualifying order, provisional.
    final: tuple[tuple[Any, Any], ...]
    # The session whose clock shows (the one being played, else the next), and its tables
    # given more time (each counts down its own).
    clock_session: Session | None
    clock_tables: tuple[Table, ...] = ()
    # Every game of the final is over: the standings are the final ones.
    final_finished: bool = False
    # Check-in at the door, while it is open (its QR code shows), and the standings' marks
    # (penalty and bonus points, substitutes: tournaments.notes).
    door: Door | None = None
    notes: dict[int, list[Note]] = field(default_factory=dict)
    # Between sessions (none running): the facts of the finished games.
    facts: tuple[ShownFact, ...] = ()

    @property
    def any_provisional(self) -> bool:
        """A standings row carries the * (a game not signed off yet): its note shows."""
        rows = [row for row, _ in self.final] or [standing for standing, _ in self.standings]
        return any(row.provisional for row in rows)

    @property
    def final_tables_shown(self) -> bool:
        """The tables shown are the final's (the view is titled so)."""
        return bool(self.table_sessions) and all(
            session.stage == Session.Stage.FINAL for session in self.table_sessions
        )

    @property
    def views(self) -> tuple[str, ...]:
        """The views with something to show, in the order of HallScreen.View."""
        shown = {
            HallScreen.View.MESSAGE: bool(self.screen.message),
            HallScreen.View.CHECK_IN: self.door is not None,
            HallScreen.View.CLOCK: self.clock_session is not None,
            HallScreen.View.SEATING: bool(self.seating),
            HallScreen.View.TABLES: bool(self.tables),
            HallScreen.View.STANDINGS: bool(self.standings or self.final),
            HallScreen.View.FACTS: bool(self.facts),
        }
        return tuple(view.value for view in HallScreen.View if shown[view])


def sort_key(name: str) -> str:
    """Alphabetical as a hall reads it: accents and case aside (Émile among the E's)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def board(tournament: Tournament, screen: HallScreen) -> Board:
    # Each with its `table_count` (the stubs do not see the annotation through a custom manager).
    sessions: list[Any] = list(tournament.sessions.annotate(table_count=Count("tables")))
    running = [s for s in sessions if s.status == Session.Status.RUNNING]
    drawn_ahead = [
        s
        for s in sessions
        if s.status == Session.Status.PLANNED
        and s.table_count
        and (not running or s.number > running[-1].number)
    ]
    # Players look for their next table: the next drawn session, else the one being played.
    seating_session = drawn_ahead[0] if drawn_ahead else (running[-1] if running else None)
    # The tables being played; between sessions, the last one played.
    table_sessions = (
        running or [s for s in sessions[::-1] if s.status != Session.Status.PLANNED][:1]
    )
    clock_session = _clock_session(running, drawn_ahead)
    seating = _seating(seating_session) if seating_session else ()
    return Board(
        tournament=tournament,
        screen=screen,
        seating_session=seating_session,
        seating=seating,
        moved=sum(line.moved for line in seating),
        table_sessions=tuple(table_sessions),
        tables=_tables(table_sessions),
        standings=tuple(tournament.standings()),
        final=tuple(tournament.final_standings() or ()),
        final_finished=_final_finished(sessions),
        clock_session=clock_session,
        door=_open_door(tournament),
        notes=standings_notes(tournament),
        clock_tables=tuple(
            clock_session.tables.filter(clock_extension__gt=0).select_related("game")
            if clock_session is not None
            else ()
        ),
        facts=() if running else tournament_facts(tournament),
    )


def _open_door(tournament: Tournament) -> Door | None:
    """The tournament's door while players check in at it (one query)."""
    door = Door.objects.filter(tournament=tournament, is_open=True).first()
    return door if door is not None and door.works else None


def _final_finished(sessions: Sequence[Session]) -> bool:
    """Every game of the final is over (one query, with a final drawn)."""
    final = [s for s in sessions if s.stage == Session.Stage.FINAL]
    if not final:
        return False
    games = list(Table.objects.filter(session=final[0]).values_list("game__finished", flat=True))
    return bool(games) and all(games)


def _clock_session(running: Sequence[Session], drawn_ahead: Sequence[Session]) -> Session | None:
    """The session whose clock the hall follows, if sessions have clocks."""
    for session in [*running, *drawn_ahead]:
        if getattr(session, "time_limit", None):
            return session
    return None


def _seating(session: Session) -> tuple[SeatingLine, ...]:
    moved = set(session.moved_players)
    seats = Seat.objects.filter(table__session=session).values_list(
        "player_id", "player__name", "player__club__name", "table__number", "position"
    )
    lines = [
        SeatingLine(name, club or "", table, position, player in moved)
        for player, name, club, table, position in seats
    ]
    return tuple(sorted(lines, key=lambda line: (sort_key(line.name), line.name, line.table)))


def _tables(sessions: Sequence[Session]) -> tuple[TableLine, ...]:
    if not sessions:
        return ()
    numbers = {session.pk: session.number for session in sessions}
    tables = (
        Table.objects.filter(session__in=sessions)
        .select_related("game")
        .prefetch_related("seats__player")
        .order_by("session__number", "number")
    )
    return tuple(_table_line(table, numbers[table.session_id]) for table in tables)


def _table_line(table: Table, session_number: int) -> TableLine:
    game = table.game
    seats = list(table.seats.all())
    if game.finished:
        leading = [seat for seat in seats if seat.rank == 1]
    else:
        still_in = [seat for seat in seats if seat.out_after is None] or seats
        lowest = min(seat.total for seat in still_in) if still_in else None
        leading = [seat for seat in still_in if seat.total == lowest] if game.round_count else []
    return TableLine(
        session=session_number,
        number=table.number,
        rounds=game.round_count,
        leaders=tuple(seat.player.name for seat in sorted(leading, key=lambda s: s.position)),
        leading_total=leading[0].total if leading else None,
        finished=game.finished,
        signed_off=game.signed_off_at is not None,
        ended_at_time_limit=game.ended_at_time_limit,
    )
