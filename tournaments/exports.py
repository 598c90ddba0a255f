"""A tournament out of the site and back: CSV for spreadsheets, JSON for the club's archive.

CSV: the standings (overall or of one session) and every round, one line per player per
round. UTF-8 with a byte order mark (without it Excel reads "Hélène" as "HÃ©lÃ¨ne"), fields
separated by `,` or by `;`: a Belgian spreadsheet (Excel with a Dutch or French locale)
splits on `;` and reads "2,5" as a number, so with `;` the half points get a decimal comma.
Each export is one query set (the standings two, see `Tournament.standings`), whatever its
length; the rounds are streamed, as a championship has about 80,000 lines. A text cell that
starts with = + - or @ gets a leading apostrophe: a spreadsheet never runs a name as a formula.

JSON ("format": "yaniv-club-tournament", "version": 1): the tournament with its rule set
("preset": one of the engine's RULESETS, belgian when absent; "options": the engine's options
on top of it), its directors, clubs, players, registrations, sessions, tables and seats, and
each table's game as a game record of shared/RULES.md (players in seat order, the raw rounds,
the rule options), with who entered each round and when, its end at the time limit, its
sign-off and its audit log. Users are named by username; players by an id local to the file.
Scores are not in the file: they are the engine's, from the rounds.

Import (`import_tournament`), in one transaction: anything wrong or inconsistent refuses the
whole file, naming where ("session 2, table 3: round 4: hand of Bart must be an integer
0-50"), and nothing is written. Choices:

- a tournament whose slug exists is refused (an export imported twice);
- clubs are the site's club of the same name, else created;
- players with a club and a member number are the site's player with that number in that club
  (the site's name is kept; the report says when it differs), every other player is created:
  names alone do not tell two people apart;
- users are the site's user of that username, else created inactive without a usable password
  (the report lists them; an administrator activates them and sets a password);
- each game's rounds go through the engine and `Game.store_rounds`, which caches points,
  reductions, totals and ranks as every change does; the audit log, the sign-off, the end at
  the time limit and who entered each round are restored as recorded.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import get_language, override, pgettext, pgettext_lazy

from scoring import rules
from scoring.models import Game, GameChange, Hand, Round, Sheet
from scoring.records import game_from_record, round_to_record
from tournaments.models import Club, Player, Registration, Seat, Session, Table, Tournament

# --- CSV ------------------------------------------------------------------------

BOM = "\ufeff"
# `?sep=` of the download links.
SEPARATORS = {"comma": ",", "semicolon": ";"}
# The headers and words of the CSV files are in the language of the download's page.
STANDINGS_HEADER = (
    pgettext_lazy("CSV column", "place"),
    pgettext_lazy("CSV column", "player"),
    pgettext_lazy("CSV column", "club"),
    pgettext_lazy("CSV column", "points"),
    pgettext_lazy("CSV column", "games"),
    pgettext_lazy("CSV column", "wins"),
    pgettext_lazy("CSV column", "sum of totals"),
    pgettext_lazy("CSV column", "table-mates' points"),
    pgettext_lazy("CSV column", "provisional"),
)
ROUNDS_HEADER = (
    pgettext_lazy("CSV column", "tournament"),
    pgettext_lazy("CSV column", "session"),
    pgettext_lazy("CSV column", "table"),
    pgettext_lazy("CSV column", "round"),
    pgettext_lazy("CSV column", "player"),
    pgettext_lazy("CSV column", "hand total"),
    pgettext_lazy("CSV column", "caller"),
    pgettext_lazy("CSV column", "along"),
    pgettext_lazy("CSV column", "points"),
    pgettext_lazy("CSV column", "reduction"),
    pgettext_lazy("CSV column", "total"),
)
# The rounds' "caller" column: how this player ended the round; empty for the others.
ENDINGS = {
    rules.RoundKind.YANIV.value: pgettext_lazy("CSV: how a player ended the round", "yaniv"),
    rules.RoundKind.FALSE_YANIV.value: pgettext_lazy(
        "CSV: how a player ended the round", "false yaniv"
    ),
    rules.RoundKind.EMPTY_HAND.value: pgettext_lazy(
        "CSV: how a player ended the round", "empty hand"
    ),
    # Automatic Assaf: the caller's hand was not the lowest.
    rules.RoundKind.ASSAF.value: pgettext_lazy("CSV: how a player ended the round", "assaf"),
}
LINES_PER_CHUNK = 1000


def decimal(value: Fraction | int, separator: str = ",") -> str:
    """Placement points come in halves: "2.5", or "2,5" beside a `;` separator."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    text = str(Decimal(value.numerator) / Decimal(value.denominator))
    return text.replace(".", ",") if separator == ";" else text


def _text(value: str) -> str:
    """A name as a spreadsheet shows it: never a formula."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _yes_no(value: bool) -> str:
    return pgettext("CSV value", "yes") if value else pgettext("CSV value", "no")


def _header(columns: Sequence[object]) -> tuple[str, ...]:
    return tuple(str(column) for column in columns)


class _Echo:
    """A file for `csv.writer` that hands each line back instead of storing it."""

    def write(self, line: str) -> str:
        return line


def csv_chunks(rows: Iterable[Sequence[object]], separator: str = ",") -> Iterator[bytes]:
    """The rows as UTF-8 CSV with a byte order mark, a thousand lines a chunk."""
    writer = csv.writer(_Echo(), delimiter=separator)
    chunk = [BOM]
    for row in rows:
        chunk.append(writer.writerow(row))
        if len(chunk) >= LINES_PER_CHUNK:
            yield "".join(chunk).encode()
            chunk = []
    if chunk:
        yield "".join(chunk).encode()


def standings_rows(
    tournament: Tournament, session: Session | None = None, separator: str = ","
) -> Iterator[tuple[object, ...]]:
    yield _header(STANDINGS_HEADER)
    for standing, player in tournament.standings(session):
        yield (
            standing.place,
            _text(player.name),
            _text(player.club.name) if player.club else "",
            decimal(standing.points, separator),
            standing.games,
            standing.wins,
            standing.total_sum,
            decimal(standing.opponents_points, separator),
            _yes_no(standing.provisional),
        )


def standings_csv(
    tournament: Tournament, session: Session | None = None, separator: str = ","
) -> bytes:
    return b"".join(csv_chunks(standings_rows(tournament, session, separator), separator))


def rounds_rows(tournament: Tournament) -> Iterator[tuple[object, ...]]:
    """Every player's line in every round, session by session, table by table (one query)."""
    hands = (
        Hand.objects.filter(round__game__table__session__tournament=tournament)
        .order_by(
            "round__game__table__session__number",
            "round__game__table__number",
            "round__number",
            "seat__position",
        )
        .values_list(
            "round__game__table__session__number",
            "round__game__table__number",
            "round__number",
            "seat__player__name",
            "hand_total",
            "round__kind",
            "round__caller_id",
            "round__empty_hand_id",
            "seat_id",
            "along",
            "points",
            "reduction",
            "total",
        )
    )
    name = _text(tournament.name)
    yield _header(ROUNDS_HEADER)
    endings = {kind: str(word) for kind, word in ENDINGS.items()}
    for (
        session,
        table,
        number,
        player,
        hand_total,
        kind,
        caller,
        emptied,
        seat,
        along,
        points,
        reduction,
        total,
    ) in hands.iterator(chunk_size=2000):
        ended = endings[kind] if seat in (caller, emptied) else ""
        yield (
            name,
            session,
            table,
            number,
            _text(player),
            hand_total,
            ended,
            _yes_no(along),
            points,
            reduction,
            total,
        )


def rounds_csv_chunks(tournament: Tournament, separator: str = ",") -> Iterator[bytes]:
    """Streamed after the view returns: in the language of the request, kept from now."""
    language = get_language()

    def chunks() -> Iterator[bytes]:
        with override(language):
            yield from csv_chunks(rounds_rows(tournament), separator)

    return chunks()


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
    tables_by_session: dict[int, list[Table]] = defaultdict(list)
    for table in (
        Table.objects.filter(session__tournament=tournament)
        .select_related("referee", "game__signed_off_by")
        .order_by("number")
    ):
        tables_by_session[table.session_id].append(table)
    seats_by_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table__session__tournament=tournament)
        .select_related("player__club")
        .order_by("table_id", "position")
    ):
        seats_by_table[seat.table_id].append(seat)
    rounds_by_game: dict[int, list[Round]] = defaultdict(list)
    for stored in (
        Round.objects.filter(game__table__session__tournament=tournament)
        .select_related("entered_by")
        .order_by("game_id", "number")
    ):
        rounds_by_game[stored.game_id].append(stored)
    hands_by_round: dict[int, list[tuple[int, int, bool]]] = defaultdict(list)
    for round_id, seat_id, hand_total, along in (
        Hand.objects.filter(round__game__table__session__tournament=tournament)
        .order_by("round_id", "seat__position")
        .values_list("round_id", "seat_id", "hand_total", "along")
    ):
        hands_by_round[round_id].append((seat_id, hand_total, along))
    changes_by_game: dict[int, list[GameChange]] = defaultdict(list)
    for change in (
        GameChange.objects.filter(game__table__session__tournament=tournament)
        .select_related("user")
        .order_by("game_id", "at", "pk")
    ):
        changes_by_game[change.game_id].append(change)
    registrations = list(tournament.registrations.select_related("player__club").order_by("pk"))

    players = {seat.player_id: seat.player for seats in seats_by_table.values() for seat in seats}
    players.update((r.player_id, r.player) for r in registrations)
    clubs = {player.club.pk: player.club for player in players.values() if player.club}
    if tournament.club is not None:
        clubs[tournament.club.pk] = tournament.club

    ruleset = tournament.ruleset

    def game_data(table: Table) -> dict[str, Any]:
        game = table.game
        sheet = Sheet(tuple(seats_by_table[table.pk]), ())
        labels = sheet.labels
        rounds = rounds_by_game[game.pk]
        record_rounds = []
        for stored in rounds:
            hands = hands_by_round[stored.pk]
            entries = rules.Round(
                hands={labels[seat]: hand_total for seat, hand_total, _ in hands},
                yaniv=labels.get(stored.caller_id),
                along=tuple(labels[seat] for seat, _, along in hands if along),
                empty_hand=labels.get(stored.empty_hand_id),
            )
            record_rounds.append(round_to_record(entries, ruleset))
        return {
            "record": {
                "ruleset": ruleset.name,
                "options": tournament.options,
                "players": list(sheet.players),
                "rounds": record_rounds,
            },
            "rounds_entered": [
                {"by": _username(stored.entered_by), "at": _moment(stored.entered_at)}
                for stored in rounds
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

    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "starts_on": tournament.starts_on.isoformat(),
            "ends_on": tournament.ends_on.isoformat() if tournament.ends_on else None,
            "venue": tournament.venue,
            "club": tournament.club.name if tournament.club else None,
            "status": tournament.status,
            "is_public": tournament.is_public,
            "table_size": tournament.table_size,
            "session_count": tournament.session_count,
            "preset": tournament.preset,
            "options": tournament.options,
            "directors": sorted(user.get_username() for user in tournament.directors.all()),
        },
        "clubs": [
            {"name": club.name, "city": club.city}
            for club in sorted(clubs.values(), key=lambda club: club.name)
        ],
        "players": [
            {
                "id": player.pk,
                "name": player.name,
                "club": player.club.name if player.club else None,
                "member_number": player.member_number,
            }
            for player in sorted(players.values(), key=lambda player: (player.name, player.pk))
        ],
        "registrations": [
            {
                "player": registration.player_id,
                "checked_in": registration.checked_in,
                "registered_at": _moment(registration.registered_at),
            }
            for registration in registrations
        ],
        "sessions": [
            {
                "number": session.number,
                "status": session.status,
                "seating": session.seating,
                "seed": session.seed,
                "repeat_meetings": session.repeat_meetings,
                "tables": [
                    {
                        "number": table.number,
                        "referee": _username(table.referee),
                        "seats": [
                            {"position": seat.position, "player": seat.player_id}
                            for seat in seats_by_table[table.pk]
                        ],
                        "game": game_data(table),
                    }
                    for table in tables_by_session[session.pk]
                ],
            }
            for session in sessions
        ],
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


# --- JSON import ----------------------------------------------------------------


class ImportRefused(Exception):
    """The file cannot be imported: the message says where and why; nothing was written."""


@dataclass
class ImportReport:
    tournament: Tournament
    sessions: int = 0
    tables: int = 0
    rounds: int = 0
    players_created: int = 0
    players_matched: int = 0
    clubs_created: list[str] = field(default_factory=list)
    users_created: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        tournament = self.tournament
        lines = [
            f"Imported {tournament.name} ({tournament.slug}): {self.sessions} session(s), "
            f"{self.tables} table(s), {self.rounds} round(s); players: "
            f"{self.players_created} new, {self.players_matched} matched by club and "
            "member number."
        ]
        if self.clubs_created:
            lines.append(f"New clubs: {', '.join(self.clubs_created)}.")
        if self.users_created:
            lines.append(
                f"Created {len(self.users_created)} user(s) as inactive accounts without a "
                f"usable password: {', '.join(self.users_created)}. An administrator must "
                "activate them and set a password before they can log in."
            )
        lines.extend(self.notes)
        return lines


def loads(text: str | bytes) -> object:
    try:
        if isinstance(text, bytes):
            # A byte order mark, as some Windows editors write, is no error.
            text = text.decode("utf-8-sig")
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ImportRefused(f"the file is not valid JSON: {error}") from None


def import_tournament(data: object) -> ImportReport:
    """Create the tournament of an export (`tournament_to_data`) in one transaction."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(f'not a tournament export: "format" must be "{FORMAT}"')
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise ImportRefused(
            f"unknown version {version!r} of the export format: this site reads version {VERSION}"
        )
    with transaction.atomic():
        return _Importer().run(_Fields(data, "file"))


class _Fields:
    """One JSON object of the file, read key by key; errors name the place."""

    def __init__(self, value: object, where: str) -> None:
        if not isinstance(value, dict):
            raise ImportRefused(f"{where}: must be a JSON object")
        self.value = value
        self.where = where

    def error(self, key: str, message: str) -> ImportRefused:
        return ImportRefused(f"{self.where}: {key} {message}")

    def raw(self, key: str) -> object:
        if key not in self.value:
            raise self.error(key, "is missing")
        return self.value[key]

    def text(self, key: str, max_length: int, *, blank: bool = True) -> str:
        value = self.raw(key)
        if not isinstance(value, str) or len(value) > max_length or (not blank and not value):
            empty = "" if blank else "non-empty "
            raise self.error(key, f"must be a {empty}text of at most {max_length} characters")
        return value

    def integer(self, key: str, *, minimum: int = 0, maximum: int | None = None) -> int:
        value = self.raw(key)
        if type(value) is not int or value < minimum or (maximum is not None and value > maximum):
            top = f"-{maximum}" if maximum is not None else " or more"
            raise self.error(key, f"must be an integer {minimum}{top}")
        return value

    def optional_integer(self, key: str, **limits: int) -> int | None:
        return None if self.value.get(key) is None else self.integer(key, **limits)

    def flag(self, key: str) -> bool:
        value = self.raw(key)
        if not isinstance(value, bool):
            raise self.error(key, "must be true or false")
        return value

    def choice(self, key: str, choices: Sequence[str]) -> str:
        value = self.raw(key)
        if value not in choices:
            raise self.error(key, f"must be one of {', '.join(choices)}")
        return value

    def day(self, key: str) -> date:
        value = self.raw(key)
        parsed = parse_date(value) if isinstance(value, str) else None
        if parsed is None:
            raise self.error(key, "must be a date (YYYY-MM-DD)")
        return parsed

    def optional_day(self, key: str) -> date | None:
        return None if self.value.get(key) is None else self.day(key)

    def moment(self, key: str) -> datetime:
        value = self.raw(key)
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None or timezone.is_naive(parsed):
            raise self.error(key, "must be a date and time with its UTC offset (ISO 8601)")
        return parsed

    def optional_moment(self, key: str) -> datetime | None:
        return None if self.value.get(key) is None else self.moment(key)

    def items(self, key: str) -> list:
        value = self.value.get(key, [])
        if not isinstance(value, list):
            raise self.error(key, "must be a list")
        return value


def _check(instance: models.Model, where: str, exclude: Sequence[str] = ()) -> None:
    """The model's own validation (lengths, choices, constraints), as an import error."""
    try:
        instance.full_clean(exclude=list(exclude), validate_unique=False)
    except ValidationError as error:
        problems = "; ".join(
            f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages)
            for name, messages in error.message_dict.items()
        )
        raise ImportRefused(f"{where}: {problems}") from None


class _Users:
    """Users by username: the site's, else new inactive accounts without a password."""

    def __init__(self) -> None:
        self.model = get_user_model()
        self.max_length = self.model._meta.get_field(self.model.USERNAME_FIELD).max_length
        self.known: dict[str, Any] = {}
        self.created: list[str] = []

    def get(self, fields: _Fields, key: str):
        """The user `fields[key]` names, or None for null."""
        return self.named(fields.value.get(key), f"{fields.where}: {key}")

    def named(self, name: object, place: str):
        if name is None:
            return None
        if not isinstance(name, str) or not name.strip() or len(name) > self.max_length:
            raise ImportRefused(f"{place} must be a username")
        if name not in self.known:
            user = self.model._default_manager.filter(**{self.model.USERNAME_FIELD: name}).first()
            if user is None:
                # No password: an unusable one, so the account cannot log in until set.
                user = self.model._default_manager.create_user(name, is_active=False)
                self.created.append(name)
            self.known[name] = user
        return self.known[name]


class _Importer:
    def __init__(self) -> None:
        self.users = _Users()
        self.clubs: dict[str, Club] = {}
        self.players: dict[int, Player] = {}
        self.changes: list[GameChange] = []
        self.games: list[Game] = []

    def run(self, top: _Fields) -> ImportReport:
        about = _Fields(top.raw("tournament"), "tournament")
        slug = about.text("slug", 80, blank=False)
        if Tournament.objects.filter(slug=slug).exists():
            raise ImportRefused(
                f"tournament: a tournament with the slug {slug!r} already exists on this "
                "site (was this file imported before?)"
            )
        report = ImportReport(tournament=Tournament(slug=slug))
        self.read_clubs(top, report)
        self.read_players(top, report)
        tournament = self.create_tournament(about, slug)
        report.tournament = tournament
        self.create_registrations(top, tournament)
        numbers: set[int] = set()
        for index, value in enumerate(top.items("sessions"), start=1):
            fields = _Fields(value, f"sessions[{index}]")
            number = fields.integer("number", minimum=1)
            if number in numbers:
                raise ImportRefused(f"sessions: duplicate session number {number}")
            numbers.add(number)
            self.create_session(tournament, number, fields, report)
        GameChange.objects.bulk_create(self.changes)
        Game.objects.bulk_update(
            self.games, ["finished_at", "signed_off_at", "signed_off_by", "version"]
        )
        report.users_created = self.users.created
        return report

    def read_clubs(self, top: _Fields, report: ImportReport) -> None:
        for index, value in enumerate(top.items("clubs"), start=1):
            fields = _Fields(value, f"clubs[{index}]")
            name = fields.text("name", 120, blank=False)
            if name in self.clubs:
                raise ImportRefused(f"clubs: {name!r} is listed twice")
            club = Club.objects.filter(name=name).first()
            if club is None:
                club = Club(name=name, city=fields.text("city", 120))
                _check(club, fields.where)
                club.save()
                report.clubs_created.append(name)
            self.clubs[name] = club

    def club(self, fields: _Fields, key: str) -> Club | None:
        name = fields.value.get(key)
        if name is None:
            return None
        if name not in self.clubs:
            raise fields.error(key, f"{name!r} is not one of the file's clubs")
        return self.clubs[name]

    def read_players(self, top: _Fields, report: ImportReport) -> None:
        known = {
            (player.club_id, player.member_number): player
            for player in Player.objects.filter(club__in=list(self.clubs.values())).exclude(
                member_number=""
            )
        }
        new: list[Player] = []
        numbered: dict[tuple[int, str], int] = {}
        for index, value in enumerate(top.items("players"), start=1):
            fields = _Fields(value, f"players[{index}]")
            player_id = fields.integer("id", minimum=1)
            fields.where = f"player {player_id}"
            if player_id in self.players:
                raise ImportRefused(f"players: duplicate id {player_id}")
            name = fields.text("name", 120, blank=False)
            club = self.club(fields, "club")
            member_number = fields.text("member_number", 40)
            if club is not None and member_number:
                key = (club.pk, member_number)
                if key in numbered:
                    raise ImportRefused(
                        f"player {player_id}: member number {member_number} of {club.name} "
                        f"is also player {numbered[key]}'s"
                    )
                numbered[key] = player_id
                if key in known:
                    player = known[key]
                    self.players[player_id] = player
                    report.players_matched += 1
                    if player.name != name:
                        report.notes.append(
                            f"Player {player_id} {name!r} is the site's {player.name!r} "
                            f"({club.name}, member number {member_number}): the site's name "
                            "is kept."
                        )
                    continue
            player = Player(name=name, club=club, member_number=member_number)
            _check(player, fields.where, exclude=["club"])
            new.append(player)
            self.players[player_id] = player
        Player.objects.bulk_create(new)
        report.players_created = len(new)

    def player(self, fields: _Fields, key: str) -> Player:
        player_id = fields.raw(key)
        if type(player_id) is not int or player_id not in self.players:
            raise ImportRefused(
                f"{fields.where}: player {player_id!r} is not one of the file's players"
            )
        return self.players[player_id]

    def create_tournament(self, about: _Fields, slug: str) -> Tournament:
        preset = about.value.get("preset", rules.BELGIAN.name)
        if preset not in rules.RULESETS:
            raise ImportRefused(f"tournament: preset must be one of {', '.join(rules.RULESETS)}")
        options = about.value.get("options", {})
        try:
            ruleset = rules.RULESETS[preset].with_options(options)
        except rules.GameError as error:
            raise ImportRefused(f"tournament: options: {error.message}") from None
        rule_options = dict(options)
        if ruleset.scores_false_yaniv:
            # The tournament keeps its false-Yaniv rule in a field of its own.
            rule_options.pop("false_yaniv", None)
        tournament = Tournament(
            name=about.text("name", 200, blank=False),
            slug=slug,
            starts_on=about.day("starts_on"),
            ends_on=about.optional_day("ends_on"),
            venue=about.text("venue", 200),
            club=self.club(about, "club"),
            status=about.choice("status", Tournament.Status.values),
            is_public=about.flag("is_public"),
            table_size=about.integer("table_size"),
            session_count=about.integer("session_count"),
            false_yaniv=ruleset.false_yaniv.value,
            preset=preset,
            rule_options=rule_options,
        )
        _check(tournament, "tournament", exclude=["club"])
        tournament.save()
        tournament.directors.set(
            self.users.named(name or "", f"tournament: directors[{index}]")
            for index, name in enumerate(about.items("directors"), start=1)
        )
        return tournament

    def create_registrations(self, top: _Fields, tournament: Tournament) -> None:
        registrations: dict[int, tuple[Registration, datetime | None]] = {}
        for index, value in enumerate(top.items("registrations"), start=1):
            fields = _Fields(value, f"registrations[{index}]")
            player = self.player(fields, "player")
            if player.pk in registrations:
                raise ImportRefused(f"registrations: {player.name} is registered twice")
            registration = Registration(
                tournament=tournament, player=player, checked_in=fields.flag("checked_in")
            )
            registrations[player.pk] = (registration, fields.optional_moment("registered_at"))
        Registration.objects.bulk_create(r for r, _ in registrations.values())
        # registered_at is set on creation: put the recorded moments back.
        dated = []
        for registration, registered_at in registrations.values():
            if registered_at is not None:
                registration.registered_at = registered_at
                dated.append(registration)
        Registration.objects.bulk_update(dated, ["registered_at"])

    def create_session(
        self, tournament: Tournament, number: int, fields: _Fields, report: ImportReport
    ) -> None:
        fields.where = f"session {number}"
        session = Session(
            tournament=tournament,
            number=number,
            status=fields.choice("status", Session.Status.values),
            seating=fields.choice("seating", Session.Seating.values),
            seed=fields.optional_integer("seed", minimum=-(2**63), maximum=2**63 - 1),
            repeat_meetings=fields.integer("repeat_meetings"),
        )
        session.save()
        report.sessions += 1
        table_numbers: set[int] = set()
        for index, value in enumerate(fields.items("tables"), start=1):
            table_fields = _Fields(value, f"session {number}, tables[{index}]")
            table_number = table_fields.integer("number", minimum=1)
            if table_number in table_numbers:
                raise ImportRefused(f"session {number}: duplicate table number {table_number}")
            table_numbers.add(table_number)
            table_fields.where = f"session {number}, table {table_number}"
            self.create_table(session, table_number, table_fields, report)

    def create_table(
        self, session: Session, number: int, fields: _Fields, report: ImportReport
    ) -> None:
        where = fields.where
        table = Table.objects.create(
            session=session, number=number, referee=self.users.get(fields, "referee")
        )
        report.tables += 1
        seats = []
        for index, value in enumerate(fields.items("seats"), start=1):
            seat_fields = _Fields(value, f"{where}, seats[{index}]")
            position = seat_fields.integer("position", minimum=1, maximum=8)
            seat_fields.where = f"{where}, seat {position}"
            seats.append(
                Seat(table=table, position=position, player=self.player(seat_fields, "player"))
            )
        if [seat.position for seat in seats] != list(range(1, len(seats) + 1)):
            raise ImportRefused(f"{where}: seats must be numbered 1 to {len(seats)} in order")
        players = [seat.player for seat in seats]
        for seat in seats:
            if players.count(seat.player) > 1:
                raise ImportRefused(f"{where}: {seat.player.name} has two seats")
        Seat.objects.bulk_create(seats)
        game = table.game
        game.table = table
        game_fields = _Fields(fields.raw("game"), where)
        report.rounds += self.store_game(game, Sheet(tuple(seats), ()), game_fields)

    def store_game(self, game: Game, sheet: Sheet, fields: _Fields) -> int:
        """Store the game's rounds, sign-off and audit log; the number of rounds."""
        where = fields.where
        record = fields.raw("record")
        if not isinstance(record, dict) or record.get("players") != list(sheet.players):
            raise ImportRefused(
                f"{where}: the game record's players must be the seated players in seat "
                f"order: {', '.join(sheet.players)}"
            )
        record_rounds = record.get("rounds", [])
        entered = fields.items("rounds_entered")
        changes = fields.items("changes")
        ended_at_time_limit = fields.flag("ended_at_time_limit")
        # A game nobody changed has no scores yet (no ranks either): it stays that way.
        touched = bool(record_rounds or ended_at_time_limit or changes)
        if touched:
            try:
                recorded = game_from_record(record)
            except rules.GameError as error:
                raise ImportRefused(f"{where}: {error}") from None
            if recorded.ruleset != game.ruleset:
                raise ImportRefused(
                    f"{where}: the game record's rule set or options are not the tournament's"
                )
            if len(entered) != len(recorded.rounds):
                raise ImportRefused(
                    f"{where}: rounds_entered must have one entry per round "
                    f"({len(recorded.rounds)})"
                )
            rounds = []
            for number, (entries, value) in enumerate(
                zip(recorded.rounds, entered, strict=True), start=1
            ):
                round_fields = _Fields(value, f"{where}: rounds_entered[{number}]")
                by = self.users.get(round_fields, "by")
                rounds.append((entries, by, round_fields.moment("at")))
            try:
                game.store_rounds(rounds, ended_at_time_limit=ended_at_time_limit)
            except rules.GameError as error:
                raise ImportRefused(f"{where}: {error}") from None
        finished = fields.flag("finished")
        if finished != game.finished:
            said, really = ("finished", "do not finish it") if finished else ("running", "end it")
            raise ImportRefused(
                f"{where}: the file says the game is {said}, but its rounds {really}"
            )
        if finished:
            game.finished_at = fields.optional_moment("finished_at") or game.finished_at
        game.signed_off_at = fields.optional_moment("signed_off_at")
        game.signed_off_by = self.users.get(fields, "signed_off_by")
        if game.signed_off_at is not None and not finished:
            raise ImportRefused(f"{where}: only a finished game can be signed off")
        if game.signed_off_by is not None and game.signed_off_at is None:
            raise ImportRefused(f"{where}: signed_off_by without signed_off_at")
        game.version = fields.integer("version")
        self.games.append(game)
        for index, value in enumerate(changes, start=1):
            self.changes.append(self.change(game, _Fields(value, f"{where}: changes[{index}]")))
        return len(record_rounds) if touched else 0

    def change(self, game: Game, fields: _Fields) -> GameChange:
        action = fields.choice("action", GameChange.Action.values)
        before, after = fields.value.get("before"), fields.value.get("after")
        for key, value in (("before", before), ("after", after)):
            if value is not None and not isinstance(value, dict):
                raise fields.error(key, "must be a round record or null")
        change = GameChange(
            game=game,
            action=action,
            round_number=fields.optional_integer("round", minimum=1),
            user=self.users.get(fields, "user"),
            at=fields.moment("at"),
            before=before,
            after=after,
            reason=fields.text("reason", 10_000),
            version=fields.integer("version"),
        )
        if not change.reason and action not in ("record", "sign_off"):
            raise fields.error("reason", f"is needed for a {action} change")
        return change
