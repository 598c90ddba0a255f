"""The club's archive: a whole tournament as JSON, and back into a site.

JSON ("format": "yaniv-club-tournament", "version": 1): the tournament with its rule set
("preset": one of the engine's RULESETS, belgian when absent; "options": the engine's options
on top of it), its directors, clubs, players, registrations, sessions, tables and seats, and
each table's game as a game record (docs/game-record.md, written by `scoring.records`: players
in seat order, the raw rounds, the rule options that differ from the preset), with who entered
each round and when, its end at the time limit, its sign-off and its audit log; each session's
clock (its limit, start, pause and extensions, each table's own) and the clock's log. A final (see
docs/standings.md) is the tournament's "final_players" (0: none), "final_tables" and
"final_carry_over", and each session's "stage" ("qualifying" or "final"); files written before
the final have none of them and import as a tournament without a final. Users are named
by username; players by an id local to the file. Scores are not in the file: they are the
engine's, from the rounds. "statistics" (issue 38.5) holds each player's Yaniv figures and the
tournament's facts as the site computes them from the rounds, for the club's archive to read:
an import ignores it (the rounds give them again).

Import (`import_tournament`), in one transaction: anything wrong or inconsistent refuses the
whole file, naming where ("session 2, table 3: round 4: hand of Bart must be an integer
0-50"), and nothing is written. The file's shape (keys, types, bounds, the defaults of older
files) is checked first, whole, by `printing.archive_file` (pydantic models); what needs
the site or the engine (a slug taken, a player or club the file does not list, a record the
engine refuses, a final without the tournament's) is checked here. Choices:

- a tournament whose slug exists is refused (an export imported twice);
- clubs are the site's club of the same name, else created;
- a player is the site's player as the players' CSV import and the "add a player" form decide
  it (`tournaments.player_import`): with a member number, the site's player with that number
  in the same club (no club counts as one); otherwise the one site player of that name in that
  club (names compared ignoring case and repeated spaces; with a member number, one who has
  none yet, and the number is recorded). Two players of one name and club in the file, or two
  on the site, are told apart by member numbers only: without them the player is created (the
  report says so). A matched player keeps the site's name (the report says when it differs):
  the game records and the audit log are read with the file's names and stored with the
  site's;
- users are the site's user of that username, else created inactive without a usable password
  (the report lists them; an administrator activates them and sets a password); the command's
  `--director USERNAME` adds an existing account to the imported tournament's directors;
- every game write goes through the game model: `Game.store_rounds` replays the rounds through
  the engine and caches points, reductions, totals and ranks as every change does;
  `Game.restore_history` puts back the audit log, the sign-off, the moment the game finished
  (at the time limit or not) and its version as recorded.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime
from typing import Any, cast

from django.utils import timezone

from scoring import statistics
from scoring.records import game_to_record
from tournaments.models import (
    Adjustment,
    Club,
    Door,
    Game,
    GameChange,
    Hand,
    Player,
    SessionClockEvent,
    Substitution,
    Tournament,
)
from tournaments.sheets import GameSheet
from tournaments.statistics import figures_data, hand_lines

# --- JSON export ----------------------------------------------------------------

FORMAT = "yaniv-club-tournament"
VERSION = 1


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _moment(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def tournament_to_data(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as plain data for `json.dumps` (about ten queries)."""
    sessions = list(tournament.sessions.order_by("number"))
    games = list(
        Game.objects.filter(table__session__tournament=tournament)
        .select_related("table__session", "table__referee", "signed_off_by")
        .order_by("table__number")
    )
    for game in games:
        # The rule set is the tournament's: no query per game to find it.
        game.table.session.tournament = tournament
    sheets_by_session: dict[int, list[GameSheet]] = defaultdict(list)
    for sheet in GameSheet.load_many(games):
        sheets_by_session[sheet.game.table.session_id].append(sheet)
    changes_by_game: dict[int, list[GameChange]] = defaultdict(list)
    for change in (
        GameChange.objects.filter(game__table__session__tournament=tournament)
        .select_related("user")
        .order_by("game_id", "at", "pk")
    ):
        changes_by_game[change.game_id].append(change)
    registrations = list(
        tournament.registrations.select_related("player", "withdrawn_by").order_by("pk")
    )
    clock_events: dict[int, list[SessionClockEvent]] = defaultdict(list)
    for event in (
        SessionClockEvent.objects.filter(session__tournament=tournament)
        .select_related("by", "table")
        .order_by("at", "pk")
    ):
        clock_events[event.session_id].append(event)

    players = {
        seat.player_id: seat.player
        for sheets in sheets_by_session.values()
        for sheet in sheets
        for seat in sheet.seats
    }
    players.update((r.player_id, r.player) for r in registrations)
    beside = _beside_the_rounds(tournament)
    players.update(beside.players)
    club_ids = {player.club_id for player in players.values() if player.club_id is not None}
    if tournament.club_id is not None:
        club_ids.add(tournament.club_id)
    clubs = Club.objects.in_bulk(club_ids)

    def club_name(club_id: int | None) -> str | None:
        return clubs[club_id].name if club_id is not None else None

    def game_data(sheet: GameSheet) -> dict[str, Any]:
        game = sheet.game
        return {
            "record": game_to_record(sheet.engine_game()),
            "rounds_entered": [
                {"by": stored.entered_by, "at": _moment(stored.entered_at)}
                for stored in sheet.stored_rounds
            ],
            "finished": game.finished,
            "finished_at": _moment(game.finished_at),
            "ended_at_time_limit": game.ended_at_time_limit,
            "signed_off_at": _moment(game.signed_off_at),
            "signed_off_by": _username(game.signed_off_by),
            "version": game.version,
            "changes": [
                {
                    "action": change.action,
                    "round": change.round_number,
                    "user": _username(change.user),
                    "at": _moment(change.at),
                    "before": change.before,
                    "after": change.after,
                    "reason": change.reason,
                    "version": change.version,
                }
                for change in changes_by_game[game.pk]
            ],
        }

    data = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "starts_on": tournament.starts_on.isoformat(),
            "ends_on": tournament.ends_on.isoformat() if tournament.ends_on else None,
            "venue": tournament.venue,
            "club": club_name(tournament.club_id),
            "status": tournament.status,
            "is_public": tournament.is_public,
            "table_size": tournament.table_size,
            "session_count": tournament.session_count,
            "small_tables": tournament.small_tables,
            "ranking": tournament.ranking,
            "preset": tournament.preset,
            "options": tournament.options,
            "final_players": tournament.final_players,
            "final_tables": tournament.final_tables,
            "final_carry_over": tournament.final_carry_over,
            "at_time_limit": tournament.at_time_limit,
            "directors": sorted(user.get_username() for user in tournament.directors.all()),
            "substitute_credit": tournament.substitute_credit,
        },
        "clubs": [
            {"name": club.name, "city": club.city}
            for club in sorted(clubs.values(), key=lambda club: club.name)
        ],
        "players": [
            {
                "id": player.pk,
                "name": player.name,
                "club": club_name(player.club_id),
                "member_number": player.member_number,
            }
            for player in sorted(players.values(), key=lambda player: (player.name, player.pk))
        ],
        "registrations": [
            {
                "player": registration.player_id,
                "checked_in": registration.checked_in,
                "registered_at": _moment(registration.registered_at),
                "withdrawn_at": _moment(registration.withdrawn_at),
                "withdrawn_by": _username(registration.withdrawn_by),
                "withdrawal_reason": registration.withdrawal_reason,
                "checked_in_at": _moment(registration.checked_in_at),
                "checked_in_how": registration.checked_in_how,
            }
            for registration in registrations
        ],
        "sessions": [
            {
                "number": session.number,
                "stage": session.stage,
                "status": session.status,
                "seating": session.seating,
                "seed": session.seed,
                "repeat_meetings": session.repeat_meetings,
                # The session clock as it stands (tournaments.clock computes the rest).
                "time_limit": session.time_limit,
                "clock_started_at": _moment(session.clock_started_at),
                "clock_paused_at": _moment(session.clock_paused_at),
                "clock_paused_seconds": session.clock_paused_seconds,
                "clock_extension": session.clock_extension,
                "clock_events": [
                    {
                        "action": event.action,
                        "table": event.table.number if event.table else None,
                        "minutes": event.minutes,
                        "games": event.games,
                        "by": _username(event.by),
                        "at": _moment(event.at),
                        "reason": event.reason,
                    }
                    for event in clock_events[session.pk]
                ],
                "tables": [
                    {
                        "number": sheet.game.table.number,
                        "referee": _username(sheet.game.table.referee),
                        "clock_extension": sheet.game.table.clock_extension,
                        "seats": [
                            {
                                "position": seat.position,
                                "player": seat.player_id,
                                "substitutes": beside.substitutes.get(seat.pk, []),
                            }
                            for seat in sheet.seats
                        ],
                        "game": game_data(sheet),
                    }
                    for sheet in sheets_by_session[session.pk]
                ],
            }
            for session in sessions
        ],
        "adjustments": beside.adjustments,
        "door": beside.door,
    }
    data["statistics"] = _statistics(tournament, games, players)
    return data


class _Beside:
    """What a tournament holds beside its rounds, as the archive writes it: penalty and
    bonus points, substitutes (by seat id), the door and its registrations; and the players
    they name."""

    def __init__(self) -> None:
        self.players: dict[int, Player] = {}
        self.substitutes: dict[int, list[dict[str, Any]]] = defaultdict(list)
        self.adjustments: list[dict[str, Any]] = []
        self.door: dict[str, Any] | None = None


def _beside_the_rounds(tournament: Tournament) -> _Beside:
    """Penalty points (two queries: with their log), substitutes (one) and the door (one, and
    one for its registrations); none of the first two for a tournament that has none."""
    beside = _Beside()
    substitutions = Substitution.objects.filter(seat__table__session__tournament=tournament)
    for change in (
        (substitutions if tournament.has_substitutes else substitutions.none())
        .select_related("player_out", "player_in", "by")
        .order_by("seat_id", "from_round")
    ):
        beside.players[change.player_out_id] = change.player_out
        beside.players[change.player_in_id] = change.player_in
        beside.substitutes[change.seat_id].append(
            {
                "player_out": change.player_out_id,
                "player_in": change.player_in_id,
                "from_round": change.from_round,
                "reason": change.reason,
                "by": _username(change.by),
                "at": _moment(change.at),
            }
        )
    for adjustment in (
        (tournament.adjustments.all() if tournament.has_adjustments else Adjustment.objects.none())
        .select_related("player", "seat__table__session", "given_by", "removed_by")
        .prefetch_related("changes__by")
        .order_by("given_at", "pk")
    ):
        beside.players[adjustment.player_id] = adjustment.player
        beside.adjustments.append(_adjustment_data(adjustment))
    door = Door.objects.filter(tournament=tournament).first()
    if door is not None:
        beside.door = _door_data(door)
    return beside


def _adjustment_data(adjustment: Adjustment) -> dict[str, Any]:
    seat = adjustment.seat
    return {
        "player": adjustment.player_id,
        "session": seat.table.session.number if seat else None,
        "table": seat.table.number if seat else None,
        "seat": seat.position if seat else None,
        "kind": adjustment.kind,
        "unit": adjustment.unit,
        "points": float(adjustment.points),
        "reason": adjustment.reason,
        "text": adjustment.text,
        "given_by": _username(adjustment.given_by),
        "given_at": _moment(adjustment.given_at),
        "removed_at": _moment(adjustment.removed_at),
        "removed_by": _username(adjustment.removed_by),
        "removal_reason": adjustment.removal_reason,
        "changes": [
            {
                "action": change.action,
                "before": change.before,
                "after": change.after,
                "why": change.why,
                "by": _username(change.by),
                "at": _moment(change.at),
            }
            for change in adjustment.changes.all()
        ],
    }


def _door_data(door: Door) -> dict[str, Any]:
    return {
        "is_open": door.is_open,
        "safeguard": door.safeguard,
        "entries": door.entries,
        "capacity": door.capacity,
        "requests": [
            {
                "name": request.name,
                "club": request.club,
                "member_number": request.member_number,
                "status": request.status,
                "note": request.note,
                "created_at": _moment(request.created_at),
                "answered_at": _moment(request.answered_at),
                "answered_by": _username(request.answered_by),
                "player": request.registration.player_id if request.registration else None,
            }
            for request in door.requests.select_related("registration", "answered_by")
        ],
    }


def _statistics(
    tournament: Tournament, games: list[Game], players: dict[int, Any]
) -> dict[str, Any]:
    """Each player's Yaniv figures (every round) and the facts of the finished games, from
    one read of the hands; players by their id in the file, games by session and table."""
    lines = hand_lines(Hand.objects.filter(seat__table__session__tournament=tournament))
    finished = {game.pk for game in games if game.finished}
    where = {game.pk: (game.table.session.number, game.table.number) for game in games}

    def by_name(player: Any) -> tuple[str, int]:
        return (players[player].name.casefold(), player) if player in players else ("", player)

    figures = statistics.gather(lines, by=statistics.PLAYER)
    facts = statistics.facts([line for line in lines if line[1] in finished])
    return {
        "players": [
            {"player": player, **figures_data(figures[player])}
            for player in sorted(figures, key=by_name)
        ],
        "facts": [
            {
                "code": fact.code,
                "value": float(fact.value),
                "players": sorted(fact.players, key=by_name),
                "session": where.get(cast(int, fact.game), (None, None))[0],
                "table": where.get(cast(int, fact.game), (None, None))[1],
                "round": fact.round,
            }
            for fact in facts
        ],
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


# --- JSON import ----------------------------------------------------------------
